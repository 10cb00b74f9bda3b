// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Formatting of the assets module's error records and warning lists (asset_error.h).
#include "assets/asset_error.h"

#include <stdarg.h> // va_list
#include <stdio.h>  // snprintf, vsnprintf
#include <string.h> // strlen

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
