// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Reading validated values out of JSON (cJSON) for the scene and reel loaders: one error format
// ("file: context: path: message"), typed getters with ranges, key checks, and reading and parsing a
// whole file with line and column for syntax errors.
#pragma once

#include "assets/asset_error.h"

#include <cjson/cJSON.h> // cJSON
#include <stdbool.h>     // bool
#include <stddef.h>      // size_t

// Where errors go. context is a prefix inside the file (e.g. a reel segment's name), "" when none.
typedef struct json_reader
{
    const char *file;
    asset_error *err;
    const char *context;
} json_reader;

// Records "file: context: path: message" (empty parts left out) and returns false.
bool json_fail(json_reader *r, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
// "a number", "a string", "an array", "an object", "a boolean" or "null", for messages.
const char *json_type_name(const cJSON *item);
// Every key of obj must be in allowed (NULL-terminated) and appear once.
bool json_check_keys(json_reader *r, const cJSON *obj, const char *path, const char *const *allowed);
// A finite number in (lo or [lo, hi]; lo_open makes the lower bound strict.
bool json_get_float(json_reader *r, const cJSON *item, const char *path, float lo, bool lo_open, float hi,
                    float *out);
bool json_get_string(json_reader *r, const cJSON *item, const char *path, const char **out);
// A string that must be one of names[0..count); *out is its index.
bool json_get_choice(json_reader *r, const cJSON *item, const char *path, const char *const *names, int count,
                     int *out);
// Parses len bytes of JSON text (at most max_bytes); NULL with "file:line: JSON syntax error at column
// C" on error. Free the result with cJSON_Delete.
cJSON *json_parse_text(json_reader *r, const char *buf, size_t len, size_t max_bytes);
