// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// One triangle covering the screen, for the anti-aliasing pass (fxaa.frag reads its pixel from
// gl_FragCoord) and the upscale, which reads the source at v_uv.
#version 330 core

// The pixel's centre in the source's texture coordinates (0 .. 1 over the screen). Interpolated without
// perspective: the triangle is flat on the screen, and llvmpipe then spares a division per pixel (about a fifth
// of the upscale's cost at 1280x720).
noperspective out vec2 v_uv;

void main()
{
    vec2 c = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    v_uv = c;
    gl_Position = vec4(c * 2.0 - 1.0, 0.0, 1.0);
}
