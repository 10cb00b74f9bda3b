// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// OpenGL loading and error reporting for the renderer: glad is initialised from a loader function the
// game passes in (SDL_GL_GetProcAddress), so this module never includes SDL. In builds with assertions
// (Debug, RelWithDebInfo) KHR_debug output is enabled when the driver offers it; every GL error or
// high-severity debug message is counted and the last one kept, so tests can check "no GL error".
#pragma once

#include <glad/gl.h> // generated GL 3.3 core loader
#include <stdbool.h> // bool

// Loads GL 3.3 core entry points through get_proc; the context must be current. Returns false when the
// context is older than 3.3 or the loader fails. Also enables KHR_debug output in assertion builds.
bool gl_load(void *(*get_proc)(const char *name));

// Drains glGetError; each error is counted, logged to stderr with where, and kept as the last message.
// Returns true when there was none.
bool gl_check(const char *where);

// Errors seen so far (glGetError through gl_check, plus KHR_debug messages of type error).
int gl_error_count(void);
// The last error message, or "" when none.
const char *gl_last_error(void);
// "4.5 (Core Profile) Mesa 22.3.6" and "llvmpipe (LLVM 15.0.6, 256 bits)", or "" before gl_load.
const char *gl_version_string(void);
const char *gl_renderer_string(void);
