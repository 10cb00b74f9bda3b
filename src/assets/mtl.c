// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The .mtl material library parser (obj.h): newmtl, Kd (diffuse colour) and d / Tr (opacity); every
// other statement (Ka, Ks, Ns, illum, texture maps) is skipped, since the sandbox draws flat colours.
// The .obj loader calls it for each mtllib file; its errors become warnings there.
#include "assets/obj.h"
#include "assets/text.h"

#include <stdarg.h> // va_list
#include <stdio.h>  // vsnprintf
#include <stdlib.h> // malloc, realloc, free
#include <string.h> // memcpy, memcmp

// Materials in one .mtl file at most.
#define MTL_MAX_MATERIALS 4096
// Defaults of a material that does not set Kd or d (the .mtl format's own defaults for Kd are 0.8).
#define MTL_DEFAULT_DIFFUSE 0.8f
#define MTL_DEFAULT_OPACITY 1.0f

typedef struct mtl_parser
{
    const char *name;
    int line;
    asset_error *err;
    obj_material *materials; // names hold offsets into pool until the end
    size_t *name_offsets;
    int count, cap;
    char *pool;
    size_t pool_len, pool_cap;
} mtl_parser;

static bool mtl_fail(mtl_parser *mp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool mtl_fail(mtl_parser *mp, const char *fmt, ...)
{
    char text[ASSET_MESSAGE_SIZE];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    asset_error_set(mp->err, mp->name, mp->line, "%s", text);
    return false;
}

// Reads exactly `want` numbers (or 1..want when at_least_one) into out.
static bool read_numbers(mtl_parser *mp, const char *p, const char *e, const char *what, float *out, int want)
{
    int n = 0;
    for (;;)
    {
        p = text_skip_space(p, e);
        if (text_at_end(p, e))
            break;
        double v;
        const char *q = text_parse_number(p, e, &v);
        if (!q || !text_is_token_end(q, e))
            return mtl_fail(mp, "%s: non-numeric value", what);
        if (n == want)
            return mtl_fail(mp, "%s: too many numbers (expected %d)", what, want);
        if (!isfinite(v))
            return mtl_fail(mp, "%s: NaN or infinite value", what);
        out[n++] = (float)v;
        p = q;
    }
    if (n != want)
        return mtl_fail(mp, "%s: expected %d numbers, got %d", what, want, n);
    return true;
}

static float clamp01(float x)
{
    return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}

static bool new_material(mtl_parser *mp, const char *p, const char *e)
{
    p = text_skip_space(p, e);
    const char *t = e;
    while (t > p && text_is_space(t[-1]))
        t--;
    size_t n = (size_t)(t - p);
    if (n == 0)
        return mtl_fail(mp, "newmtl without a name");
    if (n > OBJ_MAX_NAME_LENGTH)
        return mtl_fail(mp, "newmtl: name longer than %d bytes", OBJ_MAX_NAME_LENGTH);
    if (mp->count >= MTL_MAX_MATERIALS)
        return mtl_fail(mp, "more than %d materials", MTL_MAX_MATERIALS);
    if (mp->count == mp->cap)
    {
        int cap = mp->cap ? mp->cap * 2 : 16;
        obj_material *m = realloc(mp->materials, (size_t)cap * sizeof *m);
        if (!m)
            return mtl_fail(mp, "out of memory");
        mp->materials = m;
        size_t *o = realloc(mp->name_offsets, (size_t)cap * sizeof *o);
        if (!o)
            return mtl_fail(mp, "out of memory");
        mp->name_offsets = o;
        mp->cap = cap;
    }
    if (mp->pool_len + n + 1 > mp->pool_cap)
    {
        size_t cap = mp->pool_cap ? mp->pool_cap : 256;
        while (cap < mp->pool_len + n + 1)
            cap *= 2;
        char *pool = realloc(mp->pool, cap);
        if (!pool)
            return mtl_fail(mp, "out of memory");
        mp->pool = pool;
        mp->pool_cap = cap;
    }
    memcpy(mp->pool + mp->pool_len, p, n);
    mp->pool[mp->pool_len + n] = '\0';
    mp->name_offsets[mp->count] = mp->pool_len;
    mp->pool_len += n + 1;
    obj_material *m = &mp->materials[mp->count++];
    m->name = NULL;
    m->diffuse[0] = m->diffuse[1] = m->diffuse[2] = MTL_DEFAULT_DIFFUSE;
    m->opacity = MTL_DEFAULT_OPACITY;
    return true;
}

static bool mtl_line(mtl_parser *mp, const char *p, const char *e)
{
    p = text_skip_space(p, e);
    if (text_at_end(p, e))
        return true;
    const char *k = p;
    while (p < e && !text_is_space(*p))
        p++;
    size_t n = (size_t)(p - k);
    if (n == 6 && memcmp(k, "newmtl", 6) == 0)
        return new_material(mp, p, e);
    bool kd = n == 2 && memcmp(k, "Kd", 2) == 0;
    bool d = n == 1 && k[0] == 'd';
    bool tr = n == 2 && memcmp(k, "Tr", 2) == 0;
    if (!kd && !d && !tr)
        return true;
    if (mp->count == 0)
        return mtl_fail(mp, "%.*s before any newmtl", (int)n, k);
    obj_material *m = &mp->materials[mp->count - 1];
    if (kd)
    {
        float rgb[3];
        // "Kd spectral file" and "Kd xyz ..." forms are not colours we can use: skip them.
        const char *q = text_skip_space(p, e);
        if (q < e && (*q == 's' || *q == 'x'))
            return true;
        if (!read_numbers(mp, p, e, "Kd", rgb, 3))
            return false;
        for (int i = 0; i < 3; i++)
            m->diffuse[i] = clamp01(rgb[i]);
        return true;
    }
    // "d -halo 0.5" is a variant of d: skip the option word.
    const char *q = text_skip_space(p, e);
    if (q < e && *q == '-')
    {
        while (q < e && !text_is_space(*q))
            q++;
        p = q;
    }
    float v;
    if (!read_numbers(mp, p, e, d ? "d" : "Tr", &v, 1))
        return false;
    m->opacity = clamp01(d ? v : 1.0f - v);
    return true;
}

bool mtl_parse(const char *buf, size_t len, const char *name, mtl_library **out_library,
               asset_error *out_error)
{
    if (!out_library)
        return false;
    *out_library = NULL;
    mtl_parser mp;
    memset(&mp, 0, sizeof mp);
    mp.name = name ? name : "(memory)";
    mp.err = out_error;
    bool ok = buf || len == 0;
    if (!ok)
        mtl_fail(&mp, "no data");
    const char *p = buf, *end = buf ? buf + len : buf;
    while (ok && p < end)
    {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        mp.line++;
        if (e - p > OBJ_MAX_LINE_LENGTH)
            ok = mtl_fail(&mp, "line longer than %d bytes", OBJ_MAX_LINE_LENGTH);
        else
            ok = mtl_line(&mp, p, e);
        p = nl ? nl + 1 : end;
    }
    mtl_library *lib = NULL;
    if (ok)
    {
        // One allocation: the library, its materials, then the names.
        size_t head =
            (sizeof(mtl_library) + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
        size_t size = head + (size_t)mp.count * sizeof(obj_material) + mp.pool_len;
        lib = malloc(size);
        if (!lib)
            ok = mtl_fail(&mp, "out of memory");
        else
        {
            lib->material_count = mp.count;
            lib->materials = (obj_material *)((char *)lib + head);
            char *names = (char *)(lib->materials + mp.count);
            if (mp.pool_len)
                memcpy(names, mp.pool, mp.pool_len);
            for (int i = 0; i < mp.count; i++)
            {
                lib->materials[i] = mp.materials[i];
                lib->materials[i].name = names + mp.name_offsets[i];
            }
        }
    }
    free(mp.materials);
    free(mp.name_offsets);
    free(mp.pool);
    *out_library = lib;
    return ok;
}

void mtl_free(mtl_library *library)
{
    free(library);
}
