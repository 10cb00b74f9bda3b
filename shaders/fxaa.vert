// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// One triangle covering the screen, for the anti-aliasing pass (fxaa.frag reads its pixel from
// gl_FragCoord).
#version 330 core

void main()
{
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;
    gl_Position = vec4(p, 0.0, 1.0);
}
