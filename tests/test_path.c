// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Tests of the path helpers (src/assets/path.c): folders, joins, Windows separators, absolute paths,
// extensions and the refusal to overflow.
#include "assets/path.h"
#include "test.h"

#include <string.h> // strcmp

static int path_dirname_cases(void)
{
    char out[64];
    ENSURE(path_dirname("models/a.obj", out, sizeof out) && strcmp(out, "models") == 0);
    ENSURE(path_dirname("a.obj", out, sizeof out) && strcmp(out, "") == 0);
    ENSURE(path_dirname("/a.obj", out, sizeof out) && strcmp(out, "/") == 0);
    ENSURE(path_dirname("/x/y/z.obj", out, sizeof out) && strcmp(out, "/x/y") == 0);
    ENSURE(path_dirname("dir\\b.mtl", out, sizeof out) && strcmp(out, "dir") == 0);
    ENSURE(!path_dirname("abcdefgh/x", out, 4) && strcmp(out, "") == 0);
    ENSURE(strcmp(path_basename("a/b/c.obj"), "c.obj") == 0);
    ENSURE(strcmp(path_basename("c.obj"), "c.obj") == 0);
    return 0;
}

static int path_join_cases(void)
{
    char out[64];
    ENSURE(path_join("models", "a.mtl", out, sizeof out) && strcmp(out, "models/a.mtl") == 0);
    ENSURE(path_join("models/", "a.mtl", out, sizeof out) && strcmp(out, "models/a.mtl") == 0);
    ENSURE(path_join("", "a.mtl", out, sizeof out) && strcmp(out, "a.mtl") == 0);
    ENSURE(path_join(NULL, "a.mtl", out, sizeof out) && strcmp(out, "a.mtl") == 0);
    ENSURE(path_join("models", "/abs/a.mtl", out, sizeof out) && strcmp(out, "/abs/a.mtl") == 0);
    ENSURE(path_join("models", ".\\tex\\a.jpg", out, sizeof out) && strcmp(out, "models/./tex/a.jpg") == 0);
    ENSURE(path_join("scenes", "../models/chair.obj", out, sizeof out) &&
           strcmp(out, "scenes/../models/chair.obj") == 0);
    // Exactly fitting and one byte short.
    ENSURE(path_join("ab", "cd", out, 6) && strcmp(out, "ab/cd") == 0);
    ENSURE(!path_join("ab", "cde", out, 6) && strcmp(out, "") == 0);
    ENSURE(path_join_sibling("scenes/x.json", "../models/a.obj", out, sizeof out) &&
           strcmp(out, "scenes/../models/a.obj") == 0);
    ENSURE(path_join_sibling("x.json", "a.obj", out, sizeof out) && strcmp(out, "a.obj") == 0);
    return 0;
}

static int path_predicates(void)
{
    ENSURE(path_is_absolute("/x") && path_is_absolute("C:\\x") && path_is_absolute("c:/x"));
    ENSURE(path_is_absolute("\\x"));
    ENSURE(!path_is_absolute("x/y") && !path_is_absolute("") && !path_is_absolute(NULL) &&
           !path_is_absolute("C:x"));
    ENSURE(path_has_extension("a/B.OBJ", ".obj") && path_has_extension("s.json", ".json"));
    ENSURE(!path_has_extension("obj", ".obj") && !path_has_extension("a.objx", ".obj"));
    return 0;
}

const test_case test_path_cases[] = {
    {"path_dirname_cases", path_dirname_cases},
    {"path_join_cases", path_join_cases},
    {"path_predicates", path_predicates},
    {0},
};
