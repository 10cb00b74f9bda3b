// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Lit instanced meshes: each instance is position + quaternion + per-axis scale (see render/gpu_mesh.h),
// expanded here instead of in a per-instance matrix. Normals are divided by the scale before rotating,
// which is the inverse-transpose of a diagonal scale, so stretched boxes and capsules keep true normals.
// SHADOWS defined: the variant that looks the shadow map up (mesh.frag).
#version 330 core

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 i_position;
layout(location = 3) in vec3 i_scale;
layout(location = 4) in vec4 i_orientation;
layout(location = 5) in vec4 i_color;
layout(location = 6) in vec4 a_color;

uniform mat4 u_view_proj;
uniform mat4 u_light_view_proj;
// Shadow-map normal offset: the lookup point moves this far along the normal (unit: m), which removes
// acne on surfaces at grazing sun angles without the light leaks of a large depth bias.
uniform float u_normal_offset;
uniform vec3 u_eye;
uniform float u_haze_density; // (unit: 1/m)

out vec3 v_world;
out vec3 v_normal;
out vec3 v_color;
#ifdef SHADOWS
out vec4 v_light_clip;
#endif
out float v_haze; // fraction of the horizon colour: smooth over a mesh, so computed per vertex

// Rotates v by the unit quaternion q (x, y, z, w): v + 2 w (q x v) + 2 q x (q x v).
vec3 rotate(vec4 q, vec3 v)
{
    vec3 t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

// sRGB to linear, the exact piecewise curve (per vertex, so the cost does not matter).
vec3 srgb_to_linear(vec3 c)
{
    return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(0.04045, c));
}

void main()
{
    vec3 world = i_position + rotate(i_orientation, i_scale * a_position);
    vec3 normal = normalize(rotate(i_orientation, a_normal / i_scale));
    v_world = world;
    v_normal = normal;
    // Instance colours are sRGB as picked by people; vertex colours are linear (model materials).
    v_color = srgb_to_linear(i_color.rgb) * a_color.rgb;
#ifdef SHADOWS
    v_light_clip = u_light_view_proj * vec4(world + normal * u_normal_offset, 1.0);
#endif
    v_haze = 1.0 - exp(-u_haze_density * length(u_eye - world));
    gl_Position = u_view_proj * vec4(world, 1.0);
}
