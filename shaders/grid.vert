// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The ground: one large square at the ground height, centred under the camera so it reaches the haze
// in every direction, tessellated finely enough that the haze can be computed per vertex. The grid
// lines are computed per pixel in grid.frag.
#version 330 core

layout(location = 0) in vec2 a_corner; // (-1, -1) .. (1, 1), a regular grid of triangles

uniform mat4 u_view_proj;
uniform mat4 u_light_view_proj;
uniform vec3 u_center;     // on the ground plane under the camera (unit: m)
uniform float u_half_size; // (unit: m)
uniform vec4 u_bounds;     // the ground's top face: x and z from (x, y) to (z, w); infinite when unbounded
uniform float u_normal_offset;
uniform vec3 u_eye;
uniform float u_haze_density; // (unit: 1/m)

out vec3 v_world;
out vec4 v_light_clip;
out float v_haze;

void main()
{
    vec3 world = u_center + vec3(a_corner.x, 0.0, a_corner.y) * u_half_size;
    // Corners beyond the ground's edge move onto it: cells outside collapse, cells across it end there.
    world.xz = clamp(world.xz, u_bounds.xy, u_bounds.zw);
    v_world = world;
    v_light_clip = u_light_view_proj * vec4(world + vec3(0.0, u_normal_offset, 0.0), 1.0);
    v_haze = 1.0 - exp(-u_haze_density * length(u_eye - world));
    gl_Position = u_view_proj * vec4(world, 1.0);
}
