// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Validated JSON reading shared by scene.c and reel_file.c (see json_read.h).
#include "assets/json_read.h"

#include <math.h>   // isfinite
#include <stdarg.h> // va_list
#include <stdio.h>  // vsnprintf
#include <string.h> // strcmp

bool json_fail(json_reader *r, const char *path, const char *fmt, ...)
{
    char text[ASSET_MESSAGE_SIZE];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    const char *ctx = r->context ? r->context : "";
    bool has_path = path && path[0];
    asset_error_set(r->err, r->file, 0, "%s%s%s%s%s", ctx, ctx[0] ? ": " : "", has_path ? path : "",
                    has_path ? ": " : "", text);
    return false;
}

const char *json_type_name(const cJSON *item)
{
    if (cJSON_IsNumber(item))
        return "a number";
    if (cJSON_IsString(item))
        return "a string";
    if (cJSON_IsArray(item))
        return "an array";
    if (cJSON_IsObject(item))
        return "an object";
    if (cJSON_IsBool(item))
        return "a boolean";
    return "null";
}

bool json_check_keys(json_reader *r, const cJSON *obj, const char *path, const char *const *allowed)
{
    // An empty path at the top of the file (no context either) is named, so the message says where.
    const char *where = path[0] || (r->context && r->context[0]) ? path : "top level";
    for (const cJSON *c = obj->child; c; c = c->next)
    {
        bool known = false;
        for (const char *const *k = allowed; *k && !known; k++)
            known = c->string && strcmp(c->string, *k) == 0;
        if (!known)
            return json_fail(r, where, "unknown key '%.64s'", c->string ? c->string : "");
        for (const cJSON *d = c->next; d; d = d->next)
            if (d->string && strcmp(d->string, c->string) == 0)
                return json_fail(r, where, "duplicate key '%.64s'", c->string);
    }
    return true;
}

bool json_get_float(json_reader *r, const cJSON *item, const char *path, float lo, bool lo_open, float hi,
                    float *out)
{
    if (!cJSON_IsNumber(item))
        return json_fail(r, path, "must be a number, got %s", json_type_name(item));
    double v = item->valuedouble;
    if (!isfinite(v))
        return json_fail(r, path, "must be finite");
    if (lo_open ? !(v > (double)lo) : !(v >= (double)lo))
        return json_fail(r, path, "must be %s %g, got %g", lo_open ? ">" : ">=", (double)lo, v);
    if (!(v <= (double)hi))
        return json_fail(r, path, "must be <= %g, got %g", (double)hi, v);
    *out = (float)v;
    return true;
}

bool json_get_string(json_reader *r, const cJSON *item, const char *path, const char **out)
{
    if (!cJSON_IsString(item) || !item->valuestring)
        return json_fail(r, path, "must be a string, got %s", json_type_name(item));
    *out = item->valuestring;
    return true;
}

bool json_get_choice(json_reader *r, const cJSON *item, const char *path, const char *const *names, int count,
                     int *out)
{
    const char *s = NULL;
    if (!json_get_string(r, item, path, &s))
        return false;
    for (int i = 0; i < count; i++)
        if (strcmp(s, names[i]) == 0)
        {
            *out = i;
            return true;
        }
    char list[256] = "";
    for (int i = 0; i < count; i++)
    {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s'%s'", i ? ", " : "", names[i]);
    }
    return json_fail(r, path, "must be one of %s, got '%.64s'", list, s);
}

// The line and column of a byte offset, for JSON syntax errors.
static void line_of(const char *buf, size_t offset, int *line, int *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset; i++)
    {
        if (buf[i] == '\n')
        {
            (*line)++;
            *column = 1;
        }
        else
            (*column)++;
    }
}

cJSON *json_parse_text(json_reader *r, const char *buf, size_t len, size_t max_bytes)
{
    if (!buf && len > 0)
    {
        json_fail(r, NULL, "no data");
        return NULL;
    }
    if (len > max_bytes)
    {
        json_fail(r, NULL, "file larger than %zu bytes", max_bytes);
        return NULL;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(buf ? buf : "", len, &end, false);
    if (!root)
    {
        size_t offset = end && buf && end >= buf && end <= buf + len ? (size_t)(end - buf) : 0;
        int line, column;
        line_of(buf ? buf : "", offset, &line, &column);
        asset_error_set(r->err, r->file, line, "JSON syntax error at column %d", column);
    }
    return root;
}
