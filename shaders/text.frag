// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Flat colour with alpha blending (panels are translucent).
#version 330 core

in vec4 v_color;

out vec4 frag_color;

void main()
{
    frag_color = v_color;
}
