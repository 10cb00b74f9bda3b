// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Depth-only pass from the sun: the same instance expansion as mesh.vert, into the light's clip space.
#version 330 core

layout(location = 0) in vec3 a_position;
layout(location = 2) in vec3 i_position;
layout(location = 3) in vec3 i_scale;
layout(location = 4) in vec4 i_orientation;

uniform mat4 u_light_view_proj;

vec3 rotate(vec4 q, vec3 v)
{
    vec3 t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

void main()
{
    vec3 world = i_position + rotate(i_orientation, i_scale * a_position);
    gl_Position = u_light_view_proj * vec4(world, 1.0);
}
