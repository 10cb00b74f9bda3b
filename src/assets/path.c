// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Path strings for the loaders (path.h): files name other files relative to themselves, and we join
// the strings instead of changing the working folder (raylib's lesson: chdir breaks every other
// relative path of the program).
#include "assets/path.h"

#include <ctype.h>  // tolower
#include <stdio.h>  // snprintf
#include <string.h> // strlen, strrchr

static bool is_separator(char c)
{
    return c == '/' || c == '\\';
}

bool path_is_absolute(const char *path)
{
    if (!path || !path[0])
        return false;
    if (is_separator(path[0]))
        return true;
    // A drive letter: "C:\" or "C:/".
    return isalpha((unsigned char)path[0]) && path[1] == ':' && is_separator(path[2]);
}

const char *path_basename(const char *path)
{
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (is_separator(*p))
            base = p + 1;
    return base;
}

bool path_dirname(const char *path, char *out, size_t size)
{
    if (size == 0)
        return false;
    out[0] = '\0';
    const char *base = path_basename(path);
    size_t n = (size_t)(base - path);
    // Keep a lone leading separator ("/a.obj" -> "/"); drop the trailing one otherwise.
    if (n > 1)
        n--;
    if (n >= size)
        return false;
    memcpy(out, path, n);
    out[n] = '\0';
    return true;
}

bool path_join(const char *dir, const char *rel, char *out, size_t size)
{
    if (size == 0)
        return false;
    out[0] = '\0';
    size_t dir_len = (dir && !path_is_absolute(rel)) ? strlen(dir) : 0;
    size_t rel_len = strlen(rel);
    bool need_separator = dir_len > 0 && !is_separator(dir[dir_len - 1]);
    size_t total = dir_len + (need_separator ? 1 : 0) + rel_len;
    if (total >= size)
        return false;
    if (dir_len > 0)
        memcpy(out, dir, dir_len);
    size_t at = dir_len;
    if (need_separator)
        out[at++] = '/';
    // Files written on Windows name siblings as ".\tex.jpg": a backslash is a separator here too.
    for (size_t i = 0; i < rel_len; i++)
        out[at++] = rel[i] == '\\' ? '/' : rel[i];
    out[at] = '\0';
    return true;
}

bool path_join_sibling(const char *base_file, const char *rel, char *out, size_t size)
{
    char dir[PATH_MAX_LENGTH];
    if (!path_dirname(base_file, dir, sizeof dir))
        return false;
    return path_join(dir, rel, out, size);
}

bool path_has_extension(const char *path, const char *ext)
{
    size_t n = strlen(path), m = strlen(ext);
    if (m > n)
        return false;
    for (size_t i = 0; i < m; i++)
        if (tolower((unsigned char)path[n - m + i]) != tolower((unsigned char)ext[i]))
            return false;
    return true;
}
