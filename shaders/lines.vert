// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Debug lines and points in world space (contacts, bounds, octree, calendar events, GJK/EPA traces).
#version 330 core

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color; // sRGB bytes, drawn as they are (no lighting)
layout(location = 2) in float a_size; // point size (unit: px); unused for lines

uniform mat4 u_view_proj;
uniform float u_point_scale; // the scene's pixels per target pixel (render_options.render_scale)

out vec4 v_color;

void main()
{
    v_color = a_color;
    gl_PointSize = a_size * u_point_scale;
    gl_Position = u_view_proj * vec4(a_position, 1.0);
}
