// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Formatting of the assets module's error records and warning lists (asset_error.h).
#include "assets/asset_error.h"

#include <errno.h>   // errno
#include <stdarg.h>  // va_list
#include <stdbool.h> // bool
#include <stdio.h>   // FILE, fopen, fread, snprintf, vsnprintf
#include <stdlib.h>  // malloc, free
#include <string.h>  // strlen, strncmp, strerror

// "file:line: " (or "file: ") + the message, truncated to size.
static void format(char *out, size_t size, const char *file, int line, const char *fmt, va_list args)
{
    int n = line > 0 ? snprintf(out, size, "%s:%d: ", file, line) : snprintf(out, size, "%s: ", file);
    if (n < 0)
    {
        out[0] = '\0';
        return;
    }
    if ((size_t)n < size)
        vsnprintf(out + n, size - (size_t)n, fmt, args);
}

void asset_error_set(asset_error *err, const char *file, int line, const char *fmt, ...)
{
    if (!err)
        return;
    if (!file)
        file = "(memory)";
    snprintf(err->file, sizeof err->file, "%s", file);
    err->line = line;
    va_list args;
    va_start(args, fmt);
    format(err->text, sizeof err->text, file, line, fmt, args);
    va_end(args);
}

const char *asset_error_message(const asset_error *err)
{
    if (!err)
        return "";
    const char *t = err->text;
    size_t n = strlen(err->file);
    if (n == 0 || strncmp(t, err->file, n) != 0 || t[n] != ':')
        return t;
    t += n + 1;
    if (err->line > 0)
    {
        while (*t >= '0' && *t <= '9')
            t++;
        if (*t == ':')
            t++;
    }
    return *t == ' ' ? t + 1 : t;
}

void asset_error_warn(asset_warnings *list, const char *file, int line, const char *fmt, ...)
{
    if (!list)
        return;
    if (!file)
        file = "(memory)";
    if (list->kept < ASSET_MAX_WARNINGS)
    {
        va_list args;
        va_start(args, fmt);
        format(list->text[list->kept], sizeof list->text[0], file, line, fmt, args);
        va_end(args);
        list->kept++;
    }
    list->count++;
}

FILE *asset_open_file(const char *path, asset_error *err)
{
    if (!path)
    {
        asset_error_set(err, "(null)", 0, "no file name");
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        asset_error_set(err, path, 0, "cannot open: %s", strerror(errno));
    return f;
}

char *asset_read_file(const char *path, size_t max_bytes, size_t *out_len, asset_error *err)
{
    *out_len = 0;
    FILE *f = asset_open_file(path, err);
    if (!f)
        return NULL;
    // One byte more than allowed, so that an oversized file is seen as such by the parser.
    char *buf = malloc(max_bytes + 1);
    size_t len = buf ? fread(buf, 1, max_bytes + 1, f) : 0;
    bool read_error = ferror(f) != 0;
    fclose(f);
    if (!buf || read_error)
    {
        asset_error_set(err, path, 0, "%s", buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    *out_len = len;
    return buf;
}
