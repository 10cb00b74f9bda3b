// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Ground plane with a 1 m grid and a stronger 10 m grid, lit like mesh.frag (sun, shadow map, hemisphere
// ambient, haze). Lines are anti-aliased by measuring the distance to the nearest line in pixels with
// screen-space derivatives (fwidth), and fade out where a grid cell becomes smaller than a few pixels.
#version 330 core

in vec3 v_world;
in vec4 v_light_clip;

uniform vec3 u_eye;
uniform vec3 u_sun_dir;
uniform vec3 u_sun_color;
uniform vec3 u_sky_ambient;
uniform vec3 u_ground_ambient;
uniform vec3 u_haze_color;
uniform float u_haze_density;
uniform vec3 u_ground_color;
uniform vec3 u_line_color;
uniform int u_shadows;
uniform sampler2DShadow u_shadow_map;
uniform vec2 u_shadow_texel;

out vec4 frag_color;

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

// Coverage in [0, 1] of grid lines of the given spacing (unit: m), about one pixel wide.
float grid_lines(vec2 xz, float spacing)
{
    vec2 coord = xz / spacing;
    vec2 width = fwidth(coord);
    vec2 dist = abs(fract(coord - 0.5) - 0.5) / max(width, vec2(1e-6));
    float line = 1.0 - min(min(dist.x, dist.y), 1.0);
    // Fade when a cell shrinks below about 4 pixels, before the lines turn into moire.
    float fade = 1.0 - smoothstep(0.08, 0.25, max(width.x, width.y));
    return line * fade;
}

void main()
{
    vec3 to_eye = u_eye - v_world;
    float dist = length(to_eye);
    float minor = grid_lines(v_world.xz, 1.0);
    float major = grid_lines(v_world.xz, 10.0);
    vec3 albedo = mix(u_ground_color, u_line_color, max(minor * 0.45, major * 0.9));
    float lit = max(u_sun_dir.y, 0.0);
    float shadow = u_shadows != 0 ? shadow_factor(v_light_clip) : 1.0;
    vec3 color = albedo * (u_sky_ambient + u_sun_color * lit * shadow);
    float haze = 1.0 - exp(-u_haze_density * dist);
    color = mix(color, u_haze_color, haze);
    frag_color = vec4(pow(color, vec3(1.0 / 2.2)), 1.0);
}
