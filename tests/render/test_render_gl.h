// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The GL fixture shared by the renderer's test files (defined in test_render.c): one hidden SDL window
// with a GL 3.3 core context on Mesa's software rasteriser, one renderer, and frame readback helpers.
#pragma once

#include "render/gl.h"
#include "render/renderer.h"

#include <stdbool.h> // bool

// Size of the test window (unit: px).
#define TEST_GL_WIDTH 320
#define TEST_GL_HEIGHT 240

// The shared renderer (window and context made on first use), or NULL with the reason on stderr.
renderer *test_gl_renderer(void);
// A 50-degree perspective camera at eye looking at target, for the test window's aspect.
render_camera test_gl_camera(vec3s eye, vec3s target);
// Reads the last drawn frame into the fixture's buffer.
bool test_gl_read_frame(renderer *r);
// The colour (0..255 per channel) of the pixel a world point projects to; false outside the window.
bool test_gl_sample_world(const renderer *r, vec3s p, vec3s *out);
