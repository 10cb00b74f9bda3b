// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Sun (Lambert + a little Blinn-Phong) with a percentage-closer-filtered shadow map, hemisphere ambient
// (sky colour from above, ground bounce from below), distance haze towards the horizon colour, and
// gamma encoding at the end (lighting is done in linear space).
#version 330 core

in vec3 v_world;
in vec3 v_normal;
in vec3 v_color;
in vec4 v_light_clip;

uniform vec3 u_eye;
uniform vec3 u_sun_dir;   // unit, from the surface towards the sun
uniform vec3 u_sun_color; // linear radiance scale
uniform vec3 u_sky_ambient;
uniform vec3 u_ground_ambient;
uniform vec3 u_haze_color;
uniform float u_haze_density; // (unit: 1/m)
uniform int u_shadows;
uniform sampler2DShadow u_shadow_map;
uniform vec2 u_shadow_texel; // 1 / shadow map size

out vec4 frag_color;

// Four hardware-filtered taps (each a bilinear 2x2 comparison) at half-texel offsets: a smooth 3x3-texel
// footprint for the price of four lookups.
float shadow_factor(vec4 light_clip)
{
    vec3 p = light_clip.xyz / light_clip.w * 0.5 + 0.5;
    if (p.z >= 1.0 || any(lessThan(p.xy, vec2(0.0))) || any(greaterThan(p.xy, vec2(1.0))))
        return 1.0;
    float sum = 0.0;
    sum += texture(u_shadow_map, vec3(p.xy + vec2(-0.5, -0.5) * u_shadow_texel, p.z));
    sum += texture(u_shadow_map, vec3(p.xy + vec2(0.5, -0.5) * u_shadow_texel, p.z));
    sum += texture(u_shadow_map, vec3(p.xy + vec2(-0.5, 0.5) * u_shadow_texel, p.z));
    sum += texture(u_shadow_map, vec3(p.xy + vec2(0.5, 0.5) * u_shadow_texel, p.z));
    return sum * 0.25;
}

void main()
{
    vec3 n = normalize(v_normal);
    vec3 to_eye = u_eye - v_world;
    float dist = length(to_eye);
    vec3 v = to_eye / max(dist, 1e-4);
    float lit = max(dot(n, u_sun_dir), 0.0);
    float shadow = (u_shadows != 0 && lit > 0.0) ? shadow_factor(v_light_clip) : 1.0;
    vec3 h = normalize(u_sun_dir + v);
    float spec = pow(max(dot(n, h), 0.0), 48.0) * 0.25;
    vec3 ambient = mix(u_ground_ambient, u_sky_ambient, n.y * 0.5 + 0.5);
    vec3 color = v_color * (ambient + u_sun_color * lit * shadow) + u_sun_color * spec * shadow * lit;
    float haze = 1.0 - exp(-u_haze_density * dist);
    color = mix(color, u_haze_color, haze);
    frag_color = vec4(pow(color, vec3(1.0 / 2.2)), 1.0);
}
