// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// PNG writing through stb_image_write (Debian's libstb-dev); the only file that compiles its
// implementation is image.c. Used by renderer_screenshot and by tests that save pictures.
#pragma once

#include <stdbool.h> // bool
#include <stddef.h>  // size_t
#include <stdint.h>  // uint8_t

// Writes width x height tightly packed RGB pixels, top row first, as a PNG. False with a message in err.
bool image_write_png(const char *path, int width, int height, const uint8_t *rgb, char *err, size_t err_size);
