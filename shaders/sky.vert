// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// One triangle covering the screen at the far plane (z = w), drawn after the scene with depth test
// LEQUAL so it only fills pixels nothing else covered. The view ray is recovered from the inverse
// view-projection.
#version 330 core

uniform mat4 u_inv_view_proj;

out vec3 v_dir;

void main()
{
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;
    vec4 far_point = u_inv_view_proj * vec4(p, 1.0, 1.0);
    vec4 near_point = u_inv_view_proj * vec4(p, -1.0, 1.0);
    v_dir = far_point.xyz / far_point.w - near_point.xyz / near_point.w;
    gl_Position = vec4(p, 1.0, 1.0);
}
