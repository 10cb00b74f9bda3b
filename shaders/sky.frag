// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Sky gradient: horizon colour to zenith colour by the ray's elevation, a darker tone below the
// horizon, and a soft sun disc. Linear colours, gamma-encoded at the end.
#version 330 core

in vec3 v_dir;

uniform vec3 u_zenith_color;
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
        color = mix(u_horizon_color, u_zenith_color, pow(d.y, 0.5));
    else
        color = mix(u_horizon_color, u_below_color, clamp(-d.y * 4.0, 0.0, 1.0));
    float sun = max(dot(d, u_sun_dir), 0.0);
    // A tight disc (cos of about 1.2 degrees) plus a wide glow.
    color += u_sun_color * (smoothstep(0.9997, 0.9999, sun) * 4.0 + pow(sun, 64.0) * 0.15);
    frag_color = vec4(pow(color, vec3(1.0 / 2.2)), 1.0);
}
