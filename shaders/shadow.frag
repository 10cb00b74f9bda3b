// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Depth-only pass: the depth buffer is the output, no colour is written.
#version 330 core

void main()
{
}
