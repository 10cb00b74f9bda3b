// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Shader files to GL programs: find (base path, then source tree), read, compile, link, and rewrite the
// driver's log into "file:line: message" so an editor or terminal can jump to it. Reloading compares the
// files' modification times (stat) and only swaps the program after a successful link, so a typo while
// editing a shader leaves the last good picture on screen with the error on the HUD.
#define _POSIX_C_SOURCE 200809L // stat's st_mtim

#include "render/shader.h"

#include <ctype.h>    // isdigit
#include <stdio.h>    // fopen, snprintf
#include <stdlib.h>   // malloc, free, strtol
#include <string.h>   // strlen, strncpy
#include <sys/stat.h> // stat

// Largest shader file accepted (unit: bytes); ours are a few kilobytes.
#define SHADER_FILE_MAX (256 * 1024)
// Longest driver info log read back (unit: bytes).
#define SHADER_LOG_MAX 8192

#ifndef SANDBOX_SOURCE_DIR
#define SANDBOX_SOURCE_DIR "."
#endif

// Appends to err at *len, bounded.
static void append(char *err, size_t err_size, size_t *len, const char *text, size_t n)
{
    if (!err || err_size == 0)
        return;
    while (n > 0 && *len + 1 < err_size)
    {
        err[(*len)++] = *text++;
        n--;
    }
    err[*len] = '\0';
}

// Parses a line number at the start of a log line in the common driver formats:
// Mesa "0:12(5): error: ...", NVIDIA "0(12) : error ...", AMD/Intel "ERROR: 0:12: ...".
// On success returns the line number and sets *rest to the message after the location.
static long parse_location(const char *line, const char **rest)
{
    const char *s = line;
    if (strncmp(s, "ERROR: ", 7) == 0)
        s += 7;
    if (!isdigit((unsigned char)*s))
        return -1;
    while (isdigit((unsigned char)*s))
        s++;
    long number = -1;
    if (*s == ':' && isdigit((unsigned char)s[1]))
    {
        char *end = NULL;
        number = strtol(s + 1, &end, 10);
        s = end;
        if (*s == '(')
        {
            while (*s && *s != ')')
                s++;
            if (*s == ')')
                s++;
        }
    }
    else if (*s == '(' && isdigit((unsigned char)s[1]))
    {
        char *end = NULL;
        number = strtol(s + 1, &end, 10);
        s = end;
        if (*s == ')')
            s++;
    }
    else
    {
        return -1;
    }
    while (*s == ' ' || *s == ':')
        s++;
    *rest = s;
    return number;
}

// Rewrites every line of log as "name:line: message" (or "name: message" when no location is found).
static void rewrite_log(const char *name, const char *log, char *err, size_t err_size, size_t *len)
{
    const char *line = log;
    while (*line)
    {
        const char *eol = strchr(line, '\n');
        size_t n = eol ? (size_t)(eol - line) : strlen(line);
        if (n > 0)
        {
            char head[SHADER_PATH_MAX + 32];
            const char *rest = line;
            long number = parse_location(line, &rest);
            if (number >= 0)
                snprintf(head, sizeof head, "%s:%ld: ", name, number);
            else
                snprintf(head, sizeof head, "%s: ", name);
            append(err, err_size, len, head, strlen(head));
            append(err, err_size, len, rest, n - (size_t)(rest - line));
            append(err, err_size, len, "\n", 1);
        }
        line += n;
        if (*line == '\n')
            line++;
    }
}

static GLuint compile_stage(GLenum stage, const char *source, const char *name, char *err, size_t err_size)
{
    GLuint s = glCreateShader(stage);
    glShaderSource(s, 1, &source, NULL);
    glCompileShader(s);
    GLint ok = GL_FALSE;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (ok)
        return s;
    char log[SHADER_LOG_MAX];
    GLsizei log_len = 0;
    glGetShaderInfoLog(s, (GLsizei)sizeof log, &log_len, log);
    log[log_len < (GLsizei)sizeof log ? log_len : (GLsizei)sizeof log - 1] = '\0';
    size_t len = 0;
    if (err && err_size)
        err[0] = '\0';
    rewrite_log(name, log_len > 0 ? log : "compile failed with no log\n", err, err_size, &len);
    glDeleteShader(s);
    return 0;
}

GLuint shader_compile(const char *vs_source, const char *fs_source, const char *vs_name, const char *fs_name,
                      char *err, size_t err_size)
{
    if (err && err_size)
        err[0] = '\0';
    if (!vs_source || !fs_source)
    {
        if (err && err_size)
            snprintf(err, err_size, "shader_compile: missing source");
        return 0;
    }
    vs_name = vs_name ? vs_name : "vertex shader";
    fs_name = fs_name ? fs_name : "fragment shader";
    GLuint vs = compile_stage(GL_VERTEX_SHADER, vs_source, vs_name, err, err_size);
    if (!vs)
        return 0;
    GLuint fs = compile_stage(GL_FRAGMENT_SHADER, fs_source, fs_name, err, err_size);
    if (!fs)
    {
        glDeleteShader(vs);
        return 0;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok)
    {
        char log[SHADER_LOG_MAX];
        GLsizei log_len = 0;
        glGetProgramInfoLog(program, (GLsizei)sizeof log, &log_len, log);
        log[log_len < (GLsizei)sizeof log ? log_len : (GLsizei)sizeof log - 1] = '\0';
        char name[2 * SHADER_PATH_MAX + 8];
        snprintf(name, sizeof name, "%s + %s", vs_name, fs_name);
        size_t len = 0;
        rewrite_log(name, log_len > 0 ? log : "link failed with no log\n", err, err_size, &len);
        glDeleteProgram(program);
        return 0;
    }
    return program;
}

// Reads a whole file into a NUL-terminated buffer the caller frees. NULL with a message on failure.
static char *read_file(const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
    {
        snprintf(err, err_size, "%s: cannot open the shader file", path);
        return NULL;
    }
    char *buf = malloc(SHADER_FILE_MAX + 1);
    if (!buf)
    {
        fclose(f);
        snprintf(err, err_size, "%s: out of memory", path);
        return NULL;
    }
    size_t n = fread(buf, 1, SHADER_FILE_MAX + 1, f);
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed || n > SHADER_FILE_MAX)
    {
        snprintf(err, err_size, "%s: %s", path, failed ? "read error" : "file larger than 256 KiB");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

// source with defines inserted after its #version line and a #line directive that gives the next line its
// number in the file (GLSL: the line after the directive has the number given). NULL when out of memory.
static char *with_defines(const char *source, const char *defines)
{
    const char *version = strstr(source, "#version");
    const char *eol = version ? strchr(version, '\n') : NULL;
    size_t head = eol ? (size_t)(eol - source) + 1 : 0;
    int line = 1;
    for (size_t i = 0; i < head; i++)
        line += source[i] == '\n';
    char directive[32];
    snprintf(directive, sizeof directive, "\n#line %d\n", line);
    size_t size = strlen(source) + strlen(defines) + strlen(directive) + 1;
    char *out = malloc(size);
    if (!out)
        return NULL;
    snprintf(out, size, "%.*s%s%s%s", (int)head, source, defines, directive, source + head);
    return out;
}

GLuint shader_load(const char *vs_path, const char *fs_path, char *err, size_t err_size)
{
    return shader_load_defines(vs_path, fs_path, NULL, err, err_size);
}

GLuint shader_load_defines(const char *vs_path, const char *fs_path, const char *defines, char *err,
                           size_t err_size)
{
    char local[8];
    if (!err || err_size == 0)
    {
        err = local;
        err_size = sizeof local;
    }
    err[0] = '\0';
    if (!vs_path || !fs_path)
    {
        snprintf(err, err_size, "shader_load: missing path");
        return 0;
    }
    char *vs = read_file(vs_path, err, err_size);
    if (!vs)
        return 0;
    char *fs = read_file(fs_path, err, err_size);
    if (!fs)
    {
        free(vs);
        return 0;
    }
    if (defines && defines[0])
    {
        char *vs_variant = with_defines(vs, defines), *fs_variant = with_defines(fs, defines);
        free(vs);
        free(fs);
        vs = vs_variant;
        fs = fs_variant;
        if (!vs || !fs)
        {
            free(vs);
            free(fs);
            snprintf(err, err_size, "%s: out of memory", fs_path);
            return 0;
        }
    }
    GLuint program = shader_compile(vs, fs, vs_path, fs_path, err, err_size);
    free(vs);
    free(fs);
    return program;
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool shader_find(const char *base_path, const char *name, char *out, size_t out_size)
{
    if (!name || !out || out_size == 0)
        return false;
    // SDL_GetBasePath ends with a separator; a path given by hand may not.
    if (base_path && base_path[0])
    {
        size_t n = strlen(base_path);
        const char *sep = base_path[n - 1] == '/' ? "" : "/";
        int w = snprintf(out, out_size, "%s%sshaders/%s", base_path, sep, name);
        if (w > 0 && (size_t)w < out_size && file_exists(out))
            return true;
    }
    int w = snprintf(out, out_size, "%s/shaders/%s", SANDBOX_SOURCE_DIR, name);
    return w > 0 && (size_t)w < out_size && file_exists(out);
}

static void file_mtime(const char *path, time_t *sec, long *nsec)
{
    struct stat st;
    if (stat(path, &st) == 0)
    {
        *sec = st.st_mtim.tv_sec;
        *nsec = st.st_mtim.tv_nsec;
    }
    else
    {
        *sec = 0;
        *nsec = 0;
    }
}

bool shader_program_load(shader_program *p, const char *base_path, const char *stem, char *err,
                         size_t err_size)
{
    return shader_program_load_variant(p, base_path, stem, NULL, err, err_size);
}

bool shader_program_load_variant(shader_program *p, const char *base_path, const char *stem,
                                 const char *defines, char *err, size_t err_size)
{
    char local[8];
    if (!err || err_size == 0)
    {
        err = local;
        err_size = sizeof local;
    }
    err[0] = '\0';
    if (!p || !stem)
    {
        snprintf(err, err_size, "shader_program_load: missing argument");
        return false;
    }
    memset(p, 0, sizeof *p);
    int w = snprintf(p->defines, sizeof p->defines, "%s", defines ? defines : "");
    if (w < 0 || (size_t)w >= sizeof p->defines)
    {
        snprintf(err, err_size, "shaders/%s: defines longer than %d bytes", stem, SHADER_DEFINES_MAX - 1);
        return false;
    }
    char name[SHADER_PATH_MAX];
    snprintf(name, sizeof name, "%s.vert", stem);
    if (!shader_find(base_path, name, p->vs_path, sizeof p->vs_path))
    {
        snprintf(err, err_size, "shaders/%s: not found next to the executable nor in the source tree (%s)",
                 name, SANDBOX_SOURCE_DIR);
        return false;
    }
    snprintf(name, sizeof name, "%s.frag", stem);
    if (!shader_find(base_path, name, p->fs_path, sizeof p->fs_path))
    {
        snprintf(err, err_size, "shaders/%s: not found next to the executable nor in the source tree (%s)",
                 name, SANDBOX_SOURCE_DIR);
        return false;
    }
    file_mtime(p->vs_path, &p->vs_mtime, &p->vs_mtime_ns);
    file_mtime(p->fs_path, &p->fs_mtime, &p->fs_mtime_ns);
    p->id = shader_load_defines(p->vs_path, p->fs_path, p->defines, err, err_size);
    return p->id != 0;
}

int shader_program_poll(shader_program *p, char *err, size_t err_size)
{
    if (!p || !p->vs_path[0])
        return 0;
    time_t vs_sec, fs_sec;
    long vs_ns, fs_ns;
    file_mtime(p->vs_path, &vs_sec, &vs_ns);
    file_mtime(p->fs_path, &fs_sec, &fs_ns);
    if (vs_sec == p->vs_mtime && vs_ns == p->vs_mtime_ns && fs_sec == p->fs_mtime && fs_ns == p->fs_mtime_ns)
        return 0;
    // Remember the times tried, so a broken file is compiled once per save, not once per poll.
    p->vs_mtime = vs_sec;
    p->vs_mtime_ns = vs_ns;
    p->fs_mtime = fs_sec;
    p->fs_mtime_ns = fs_ns;
    GLuint program = shader_load_defines(p->vs_path, p->fs_path, p->defines, err, err_size);
    if (!program)
        return -1;
    if (p->id)
        glDeleteProgram(p->id);
    p->id = program;
    return 1;
}

void shader_program_free(shader_program *p)
{
    if (p && p->id)
    {
        glDeleteProgram(p->id);
        p->id = 0;
    }
}
