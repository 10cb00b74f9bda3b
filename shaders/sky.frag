// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Sky gradient: horizon colour to zenith colour by the ray's elevation, a darker tone below the
// horizon, and a soft sun disc. The colours arrive gamma-encoded and are blended in display space: a
// gradient is a choice of look, not lighting, and it saves a pow per pixel over a third of the screen.
#version 330 core

in vec3 v_dir;

uniform vec3 u_zenith_color; // all colours gamma-encoded (display space)
uniform vec3 u_horizon_color;
uniform vec3 u_below_color;
uniform vec3 u_sun_dir;   // unit, towards the sun
uniform vec3 u_sun_color;

out vec4 frag_color;

void main()
{
    vec3 d = normalize(v_dir);
    vec3 color;
    if (d.y >= 0.0)
        color = mix(u_horizon_color, u_zenith_color, sqrt(d.y));
    else
        color = mix(u_horizon_color, u_below_color, clamp(-d.y * 4.0, 0.0, 1.0));
    float sun = max(dot(d, u_sun_dir), 0.0);
    // A tight disc (cos of about 1.2 degrees) plus a wide glow.
    float s2 = sun * sun, s4 = s2 * s2, s8 = s4 * s4, s16 = s8 * s8, s32 = s16 * s16;
    color += u_sun_color * (smoothstep(0.9997, 0.9999, sun) + s32 * s32 * 0.2);
    frag_color = vec4(color, 1.0);
}
