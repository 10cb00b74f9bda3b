// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The ground: cells of a large square at the ground height, centred under the camera so it reaches the
// haze in every direction, tessellated finely enough that the haze can be computed per vertex, and cut to
// the ground's top face on the CPU (render/ground.c). The grid lines are computed per pixel in grid.frag.
// SHADOWS defined: the variant for the cells in the shadow map's footprint.
#version 330 core

layout(location = 0) in vec2 a_xz; // world x and z of the vertex (unit: m)

uniform mat4 u_view_proj;
uniform mat4 u_light_view_proj;
uniform float u_height; // of the ground plane (unit: m)
uniform float u_normal_offset;
uniform vec3 u_eye;
uniform float u_haze_density; // (unit: 1/m)

out vec3 v_world;
#ifdef SHADOWS
out vec4 v_light_clip;
#endif
out float v_haze;

void main()
{
    vec3 world = vec3(a_xz.x, u_height, a_xz.y);
    v_world = world;
#ifdef SHADOWS
    v_light_clip = u_light_view_proj * vec4(world + vec3(0.0, u_normal_offset, 0.0), 1.0);
#endif
    v_haze = 1.0 - exp(-u_haze_density * length(u_eye - world));
    gl_Position = u_view_proj * vec4(world, 1.0);
}
