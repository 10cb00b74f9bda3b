// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Flat colour; u_alpha_scale fades the second, see-through pass of the debug x-ray view.
#version 330 core

in vec4 v_color;

uniform float u_alpha_scale;

out vec4 frag_color;

void main()
{
    frag_color = vec4(v_color.rgb, v_color.a * u_alpha_scale);
}
