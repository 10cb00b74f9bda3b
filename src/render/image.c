// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Pixel readback (screenshots for tests and the --screenshot flag, raw RGB frames for video) and PNG
// writing with stb_image_write, whose implementation is compiled in this file only.

#include "render/image.h"

#include "render/renderer.h"
#include "render/renderer_internal.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h> // stbi_write_png
#pragma GCC diagnostic pop

#include <errno.h>  // errno
#include <stdio.h>  // snprintf
#include <stdlib.h> // malloc, free
#include <string.h> // strerror

// Largest image side accepted (unit: px), far above any window, so width * height * 3 cannot overflow.
#define IMAGE_MAX_SIDE 16384
// Bytes per pixel of the RGB readback.
#define RGB_BYTES 3

bool image_write_png(const char *path, int width, int height, const uint8_t *rgb, char *err, size_t err_size)
{
    char local[8];
    if (!err || err_size == 0)
    {
        err = local;
        err_size = sizeof local;
    }
    err[0] = '\0';
    if (!path || !rgb || width <= 0 || height <= 0 || width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE)
    {
        snprintf(err, err_size, "image_write_png: invalid argument (%dx%d)", width, height);
        return false;
    }
    errno = 0;
    if (!stbi_write_png(path, width, height, RGB_BYTES, rgb, width * RGB_BYTES))
    {
        snprintf(err, err_size, "%s: cannot write the PNG (%s)", path,
                 errno ? strerror(errno) : "stb_image_write failed");
        return false;
    }
    return true;
}

bool renderer_read_rgb(renderer *r, uint8_t *out, size_t out_size)
{
    if (!r || !out || r->width <= 0 || r->height <= 0)
        return false;
    size_t row = (size_t)r->width * RGB_BYTES;
    if (out_size < row * (size_t)r->height)
        return false;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->offscreen.fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, r->width, r->height, GL_RGB, GL_UNSIGNED_BYTE, out);
    // GL's rows start at the bottom; images start at the top. Swap rows in place.
    uint8_t *tmp = malloc(row);
    if (!tmp)
        return false;
    for (int y = 0; y < r->height / 2; y++)
    {
        uint8_t *a = out + (size_t)y * row;
        uint8_t *b = out + (size_t)(r->height - 1 - y) * row;
        memcpy(tmp, a, row);
        memcpy(a, b, row);
        memcpy(b, tmp, row);
    }
    free(tmp);
    return true;
}

bool renderer_screenshot(renderer *r, const char *png_path, char *err, size_t err_size)
{
    char local[8];
    if (!err || err_size == 0)
    {
        err = local;
        err_size = sizeof local;
    }
    err[0] = '\0';
    if (!r || !png_path)
    {
        snprintf(err, err_size, "renderer_screenshot: missing renderer or path");
        return false;
    }
    size_t size = (size_t)r->width * (size_t)r->height * RGB_BYTES;
    uint8_t *rgb = malloc(size);
    if (!rgb)
    {
        snprintf(err, err_size, "renderer_screenshot: out of memory for %dx%d", r->width, r->height);
        return false;
    }
    bool ok = renderer_read_rgb(r, rgb, size);
    if (!ok)
        snprintf(err, err_size, "renderer_screenshot: reading the framebuffer failed");
    else
        ok = image_write_png(png_path, r->width, r->height, rgb, err, err_size);
    free(rgb);
    return ok;
}
