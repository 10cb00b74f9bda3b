// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Ground plane with a 1 m grid and a stronger 10 m grid, lit like mesh.frag (sun, shadow map, hemisphere
// ambient, haze). Lines are anti-aliased by measuring the distance to the nearest line in pixels with
// screen-space derivatives (fwidth), and fade out where a grid cell becomes smaller than a few pixels.
// SHADOWS defined: with the shadow lookup (the cells in the map's footprint); else lit everywhere, the
// same colour the lookup gives where the map holds no shadow.
#version 330 core

in vec3 v_world;
#ifdef SHADOWS
in vec4 v_light_clip;
#endif
in float v_haze;

uniform vec3 u_sun_dir;
uniform vec3 u_sun_color;
uniform vec3 u_sky_ambient;
uniform vec3 u_ground_ambient;
uniform vec3 u_haze_color;
uniform vec3 u_ground_color;
uniform vec3 u_line_color;
uniform sampler2DShadow u_shadow_map;

out vec4 frag_color;

#ifdef SHADOWS
float shadow_factor(vec4 light_clip)
{
    vec3 p = light_clip.xyz / light_clip.w * 0.5 + 0.5;
    if (p.z >= 1.0 || any(lessThan(p.xy, vec2(0.0))) || any(greaterThan(p.xy, vec2(1.0))))
        return 1.0;
    return texture(u_shadow_map, p); // 2x2 PCF by the sampler's linear filtering, as in mesh.frag
}
#endif

// Coverage in [0, 1] of grid lines of the given spacing (unit: m), about one pixel wide. width is
// fwidth(xz) (unit: m per pixel), shared by both spacings. Each family of lines fades on its own when
// its cells shrink below about 4 pixels across it (before turning into moire), so at grazing angles the
// lines running away from the viewer stay while the crossing ones, crowded together, fade.
float grid_lines(vec2 xz, vec2 width, float spacing)
{
    vec2 coord = xz / spacing;
    vec2 w = max(width / spacing, vec2(1e-6));
    vec2 line = 1.0 - min(abs(fract(coord - 0.5) - 0.5) / w, 1.0);
    vec2 fade = 1.0 - smoothstep(vec2(0.08), vec2(0.25), w);
    return max(line.x * fade.x, line.y * fade.y);
}

// Linear to sRGB, the display encoding, by a fit of three square roots (Ian Taylor, "sRGB approximations
// for HLSL", 2010; within 0.2% of the exact piecewise curve): a few multiplies where pow() would cost an
// exp2 and a log2 per channel, which llvmpipe evaluates by polynomials on every pixel.
vec3 linear_to_srgb(vec3 c)
{
    vec3 s1 = sqrt(max(c, vec3(0.0)));
    vec3 s2 = sqrt(s1);
    vec3 s3 = sqrt(s2);
    return clamp(0.585122381 * s1 + 0.783140355 * s2 - 0.368262736 * s3, 0.0, 1.0);
}

void main()
{
    vec2 width = fwidth(v_world.xz);
    float minor = grid_lines(v_world.xz, width, 1.0);
    float major = grid_lines(v_world.xz, width, 10.0);
    vec3 albedo = mix(u_ground_color, u_line_color, max(minor * 0.45, major * 0.9));
    float lit = max(u_sun_dir.y, 0.0);
#ifdef SHADOWS
    float shadow = shadow_factor(v_light_clip);
#else
    float shadow = 1.0;
#endif
    vec3 color = albedo * (u_sky_ambient + u_sun_color * lit * shadow);
    color = mix(color, u_haze_color, v_haze);
    frag_color = vec4(linear_to_srgb(color), 1.0);
}
