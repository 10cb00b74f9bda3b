// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// File path strings: folder of a path, joining a relative path against a folder, extension tests.
// Pure string work: assets never chdir, they join paths (an .obj's mtllib, a scene's model paths).
#pragma once

#include <stdbool.h> // bool
#include <stddef.h>  // size_t

// Largest path the assets module builds (bytes, with the terminating NUL).
#define PATH_MAX_LENGTH 1024

// True for "/x" (and "C:\x", "C:/x", "\x", so that Windows-style paths in files are not joined).
bool path_is_absolute(const char *path);

// Writes the folder part of path ("models/a.obj" -> "models", "a.obj" -> "", "/a.obj" -> "/") into
// out (size bytes). Returns false (out set to "") when it does not fit.
bool path_dirname(const char *path, char *out, size_t size);

// Joins rel against folder dir ("models" + "a.mtl" -> "models/a.mtl"); an absolute rel or an empty
// dir gives rel unchanged. Backslashes in rel become slashes. Returns false when it does not fit.
bool path_join(const char *dir, const char *rel, char *out, size_t size);

// Joins rel against the folder of the file at base_file (how an .obj finds its .mtl, a scene its
// models). Returns false when it does not fit.
bool path_join_sibling(const char *base_file, const char *rel, char *out, size_t size);

// True when path ends in ext (".obj"), compared without regard to ASCII case.
bool path_has_extension(const char *path, const char *ext);

// The file name part: "models/a.obj" -> "a.obj" (a pointer into path).
const char *path_basename(const char *path);
