// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Sun (Lambert + a little Blinn-Phong) with a percentage-closer-filtered shadow map, hemisphere ambient
// (sky colour from above, ground bounce from below), distance haze towards the horizon colour, and
// gamma encoding at the end (lighting is done in linear space). Kept lean: on Mesa's llvmpipe every
// fragment instruction shows in the frame time, and it runs both sides of every branch: the shadow lookup is
// compiled in (SHADOWS defined) or left out, never skipped by a condition.
#version 330 core

in vec3 v_world;
in vec3 v_normal;
in vec3 v_color;
#ifdef SHADOWS
in vec4 v_light_clip;
#endif
in float v_haze;

uniform vec3 u_eye;
uniform vec3 u_sun_dir;   // unit, from the surface towards the sun
uniform vec3 u_sun_color; // linear radiance scale
uniform vec3 u_sky_ambient;
uniform vec3 u_ground_ambient;
uniform vec3 u_haze_color;
uniform sampler2DShadow u_shadow_map;

out vec4 frag_color;

#ifdef SHADOWS
// One hardware-filtered comparison: with linear filtering the sampler compares the four nearest texels
// and blends the results bilinearly (2x2 percentage-closer filtering), the cheapest PCF that hides the
// texel staircase; software rasterisers pay for every extra tap.
float shadow_factor(vec4 light_clip)
{
    vec3 p = light_clip.xyz / light_clip.w * 0.5 + 0.5;
    if (p.z >= 1.0 || any(lessThan(p.xy, vec2(0.0))) || any(greaterThan(p.xy, vec2(1.0))))
        return 1.0;
    return texture(u_shadow_map, p);
}
#endif

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
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_eye - v_world);
    float lit = max(dot(n, u_sun_dir), 0.0);
#ifdef SHADOWS
    float shadow = shadow_factor(v_light_clip);
#else
    float shadow = 1.0;
#endif
    vec3 h = normalize(u_sun_dir + v);
    // Blinn-Phong exponent 48 by squaring (x^32 x^16): multiplies instead of exp2/log2.
    float s1 = max(dot(n, h), 0.0);
    float s2 = s1 * s1, s4 = s2 * s2, s8 = s4 * s4, s16 = s8 * s8;
    float spec = s16 * s16 * s16 * 0.25;
    vec3 ambient = mix(u_ground_ambient, u_sky_ambient, n.y * 0.5 + 0.5);
    vec3 color = v_color * (ambient + u_sun_color * lit * shadow) + u_sun_color * spec * shadow * lit;
    color = mix(color, u_haze_color, v_haze);
    frag_color = vec4(linear_to_srgb(color), 1.0);
}
