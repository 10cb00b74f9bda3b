// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// HUD text and panels in pixels (top-left origin, y down) mapped to clip space.
#version 330 core

layout(location = 0) in vec2 a_position; // (unit: px)
layout(location = 1) in vec4 a_color;    // sRGB bytes

uniform vec2 u_screen_size; // (unit: px)

out vec4 v_color;

void main()
{
    vec2 ndc = a_position / u_screen_size * 2.0 - 1.0;
    v_color = a_color;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
