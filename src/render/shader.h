// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// GLSL programs in two layers: shader_compile() builds a program from source strings (tests compile
// strings), shader_load() reads two files and calls it. Compile and link errors are rewritten as
// "shaders/mesh.frag:12: error: ..." (Mesa writes "0:12(5): error: ..."). A shader_program remembers
// its files and their modification times so that shader_program_poll() can reload changed files and
// keep the last good program when the new source does not compile.
#pragma once

#include <glad/gl.h> // GLuint
#include <stdbool.h> // bool
#include <stddef.h>  // size_t
#include <time.h>    // time_t

// Longest path this module keeps for a shader file, and the longest error message it writes.
#define SHADER_PATH_MAX 512
#define SHADER_ERROR_MAX 2048
// Longest list of defines a program variant carries (unit: bytes).
#define SHADER_DEFINES_MAX 256

// Compiles and links a vertex and a fragment shader. vs_name and fs_name label the errors (file paths as
// the user should read them). Returns the program, or 0 with the rewritten log in err.
GLuint shader_compile(const char *vs_source, const char *fs_source, const char *vs_name, const char *fs_name,
                      char *err, size_t err_size);

// Reads both files and compiles them. Returns 0 with a message in err when a file cannot be read.
GLuint shader_load(const char *vs_path, const char *fs_path, char *err, size_t err_size);
// The same with defines ("#define SHADOWS 1\n", may be NULL or "") inserted into both sources after their
// #version line, followed by a #line directive so that errors keep the file's own line numbers. One file
// then gives the variants of a program that a software rasteriser needs: it runs both sides of every branch,
// so a feature left out at compile time is the only one that costs nothing.
GLuint shader_load_defines(const char *vs_path, const char *fs_path, const char *defines, char *err,
                           size_t err_size);

// Finds shaders/<name> under base_path, then under the source tree (SANDBOX_SOURCE_DIR) and writes the
// first existing path to out. Returns false when neither exists.
bool shader_find(const char *base_path, const char *name, char *out, size_t out_size);

// A program loaded from files, reloadable.
typedef struct shader_program
{
    GLuint id; // current program (the last good one); 0 until first success
    char vs_path[SHADER_PATH_MAX];
    char fs_path[SHADER_PATH_MAX];
    time_t vs_mtime, fs_mtime; // modification times of the files id was built from or last tried
    long vs_mtime_ns, fs_mtime_ns;
    char defines[SHADER_DEFINES_MAX]; // the variant's defines ("" for none), kept for reloads
} shader_program;

// Finds "<stem>.vert" and "<stem>.frag" (shader_find) and loads them into p. Returns false with err.
bool shader_program_load(shader_program *p, const char *base_path, const char *stem, char *err,
                         size_t err_size);
// The same for a variant: defines as in shader_load_defines (false with err when they do not fit).
bool shader_program_load_variant(shader_program *p, const char *base_path, const char *stem,
                                 const char *defines, char *err, size_t err_size);
// Reloads when either file's modification time changed. Returns 1 when a new program replaced the old
// one (the caller re-reads uniform locations), 0 when nothing changed, -1 when the new source failed
// (message in err; p->id stays the last good program).
int shader_program_poll(shader_program *p, char *err, size_t err_size);
void shader_program_free(shader_program *p);
