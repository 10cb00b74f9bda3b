// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The error record and warning list shared by every loader of the assets module (.obj, .mtl, scene
// JSON, models to bodies). Messages read "file:line: message" for text files and
// "file: entries[3].material.friction: message" for scenes, so the game can print or show them as is.
#pragma once

#include <stddef.h> // size_t
#include <stdio.h>  // FILE

// Largest number of warnings a list keeps; later ones are counted but not stored.
#define ASSET_MAX_WARNINGS 32
// Bytes of one message, with its terminating NUL.
#define ASSET_MESSAGE_SIZE 640

// What went wrong, where. file and line are also given apart (line 0: about the whole file, or a JSON
// file where the path inside the message names the place).
typedef struct asset_error
{
    char file[256];
    int line;
    char text[ASSET_MESSAGE_SIZE]; // the whole message: "models/x.obj:12: face index 9 out of range ..."
} asset_error;

// Warnings of a load or build: a missing .mtl, a flat object made static, an entry skipped.
typedef struct asset_warnings
{
    int count; // all warnings, including the ones not kept
    int kept;  // min(count, ASSET_MAX_WARNINGS)
    char text[ASSET_MAX_WARNINGS][ASSET_MESSAGE_SIZE];
} asset_warnings;

// Fills err (when not NULL) with file, line and "file:line: " + the formatted message ("file: " when
// line is 0). Long messages are truncated, never overflowed.
void asset_error_set(asset_error *err, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

// The message of err without its "file:line: " (or "file: ") prefix, for wrapping it in an error about
// the same file without naming the file twice. Never NULL.
const char *asset_error_message(const asset_error *err);

// Appends a warning formatted like asset_error_set to list (when not NULL).
void asset_error_warn(asset_warnings *list, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

// Opens a file for binary reading; NULL with "(null): no file name" or "file: cannot open: <reason>" in err.
FILE *asset_open_file(const char *path, asset_error *err);
// Reads a whole file into a malloc'd buffer (free it): at most max_bytes + 1 bytes, so that a caller sees
// an oversized file as *out_len > max_bytes. NULL with "file: cannot open: <reason>", "read error" or
// "out of memory" in err.
char *asset_read_file(const char *path, size_t max_bytes, size_t *out_len, asset_error *err);
