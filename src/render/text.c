// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// HUD text with stb_easy_font (Debian's libstb-dev): it turns a string into screen-space quads of a
// small bitmap-like font, which are scaled, turned into triangles and drawn in one call after the 3D
// scene, in submission order with the panels (renderer_rect), alpha-blended, in window pixels.

#include "render/renderer.h"
#include "render/renderer_internal.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_easy_font.h> // stb_easy_font_print, stb_easy_font_width, stb_easy_font_height
#pragma GCC diagnostic pop

#include <stdlib.h> // malloc, realloc, free
#include <string.h> // memcpy

// stb_easy_font writes 4 vertices of 16 bytes per quad and uses at most about this many quads per
// character (its densest glyphs); the scratch buffer is sized from it.
#define EASY_FONT_VERTEX_BYTES 16
#define EASY_FONT_MAX_QUADS_PER_CHAR 8
// Longest string drawn by one renderer_text call (unit: characters); longer text is cut.
#define TEXT_MAX_CHARS 16384
// The characters stb_easy_font has glyphs for: ' ' .. '~'.
#define FIRST_GLYPH 32
#define LAST_GLYPH 126

// A copy of text[0 .. len) that stb_easy_font can read: its glyph table covers the printable ASCII
// characters only and is indexed without a check, so any other byte (a tab, UTF-8, a control
// character) becomes '?'; newlines stay.
static char *sanitized_copy(const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    for (size_t i = 0; i < len; i++)
    {
        unsigned char c = (unsigned char)text[i];
        copy[i] = (c == '\n' || (c >= FIRST_GLYPH && c <= LAST_GLYPH)) ? (char)c : '?';
    }
    copy[len] = '\0';
    return copy;
}

static size_t bounded_length(const char *text)
{
    size_t len = 0;
    while (len < TEXT_MAX_CHARS && text[len])
        len++;
    return len;
}

static void push_quad(renderer *r, const float x[4], const float y[4], const uint8_t color[4])
{
    static const int corners[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 6; i++)
    {
        text_vertex *v = &r->text.data[r->text.count++];
        v->position[0] = x[corners[i]];
        v->position[1] = y[corners[i]];
        memcpy(v->color, color, 4);
    }
}

void renderer_rect(renderer *r, float x, float y, float w, float h, uint32_t rgba)
{
    if (!r || !(w > 0.0f) || !(h > 0.0f) || !RENDER_PUSH_ROOM(r->text, 6))
        return;
    uint8_t color[4];
    render_rgba_bytes(rgba, color);
    float xs[4] = {x, x + w, x + w, x};
    float ys[4] = {y, y, y + h, y + h};
    push_quad(r, xs, ys, color);
}

void renderer_text(renderer *r, float x, float y, float scale, uint32_t rgba, const char *text)
{
    if (!r || !text || !(scale > 0.0f))
        return;
    size_t len = bounded_length(text);
    if (len == 0)
        return;
    size_t need = (len + 1) * EASY_FONT_MAX_QUADS_PER_CHAR * 4 * EASY_FONT_VERTEX_BYTES;
    if (need > r->text_scratch_size)
    {
        void *p = realloc(r->text_scratch, need);
        if (!p)
            return;
        r->text_scratch = p;
        r->text_scratch_size = need;
    }
    char *copy = sanitized_copy(text, len);
    if (!copy)
        return;
    int quads = stb_easy_font_print(0.0f, 0.0f, copy, NULL, r->text_scratch, (int)r->text_scratch_size);
    free(copy);
    if (quads <= 0 || !RENDER_PUSH_ROOM(r->text, quads * 6))
        return;
    uint8_t color[4];
    render_rgba_bytes(rgba, color);
    const unsigned char *bytes = r->text_scratch;
    for (int q = 0; q < quads; q++)
    {
        float xs[4], ys[4];
        for (int c = 0; c < 4; c++)
        {
            float v[2];
            memcpy(v, bytes + (size_t)(q * 4 + c) * EASY_FONT_VERTEX_BYTES, sizeof v);
            xs[c] = x + v[0] * scale;
            ys[c] = y + v[1] * scale;
        }
        push_quad(r, xs, ys, color);
    }
}

void renderer_text_world(renderer *r, vec3s world_point, float dx, float dy, float scale, uint32_t rgba,
                         const char *text)
{
    float x, y;
    if (r && renderer_project(r, world_point, &x, &y))
        renderer_text(r, x + dx, y + dy, scale, rgba, text);
}

float renderer_text_width(const char *text, float scale)
{
    char *copy = text ? sanitized_copy(text, bounded_length(text)) : NULL;
    float w = copy ? (float)stb_easy_font_width(copy) * scale : 0.0f;
    free(copy);
    return w;
}

float renderer_text_height(const char *text, float scale)
{
    char *copy = text ? sanitized_copy(text, bounded_length(text)) : NULL;
    float h = copy ? (float)stb_easy_font_height(copy) * scale : 0.0f;
    free(copy);
    return h;
}

void render_text_upload_and_draw(renderer *r)
{
    glBindBuffer(GL_ARRAY_BUFFER, r->text_vbo);
    if (r->text.count > r->text_vbo_capacity)
    {
        int cap = r->text_vbo_capacity > 0 ? r->text_vbo_capacity : 4096;
        while (cap < r->text.count)
            cap *= 2;
        r->text_vbo_capacity = cap;
    }
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->text_vbo_capacity * sizeof(text_vertex)), NULL,
                 GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)r->text.count * sizeof(text_vertex)),
                    r->text.data);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(r->text_prog.sp.id);
    glUniform2f(r->text_prog.screen_size, (float)r->width, (float)r->height);
    glBindVertexArray(r->text_vao);
    glDrawArrays(GL_TRIANGLES, 0, r->text.count);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
}
