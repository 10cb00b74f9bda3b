// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// GL loading (glad) from the game's loader function, the glGetError drain used after each pass, and
// KHR_debug output. The project's glad is generated for GL 3.3 core with no extensions, so the KHR_debug
// entry point is fetched here by hand when the driver lists the extension (Mesa does, on every context).

#include "render/gl.h"

#include <stdio.h>  // fprintf, snprintf
#include <string.h> // memcpy, strcmp

// Longest error message kept for gl_last_error.
#define GL_MESSAGE_MAX 512

// KHR_debug, from the GL 4.3 / KHR_debug specification (values are the registry's enumerants).
#define GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR 0x8242
#define GL_DEBUG_OUTPUT_KHR 0x92E0
#define GL_DEBUG_TYPE_ERROR_KHR 0x824C
#define GL_DEBUG_SEVERITY_HIGH_KHR 0x9146
#define GL_DEBUG_SEVERITY_NOTIFICATION_KHR 0x826B
#define GL_DEBUG_SOURCE_SHADER_COMPILER_KHR 0x8248

typedef void (*debug_proc)(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                           const GLchar *message, const void *user);
typedef void (*debug_message_callback_fn)(debug_proc callback, const void *user);

typedef void *(*get_proc_fn)(const char *name);

static int error_count;
static char last_error[GL_MESSAGE_MAX];
static char version_string[GL_MESSAGE_MAX];
static char renderer_string[GL_MESSAGE_MAX];

// glad wants a function returning a function pointer; SDL returns void *. The conversion of an object
// pointer to a function pointer is done through memcpy, which is what POSIX dlsym users rely on too.
static GLADapiproc load_adapter(void *user, const char *name)
{
    get_proc_fn get = NULL;
    memcpy(&get, user, sizeof get);
    void *p = get(name);
    GLADapiproc f = NULL;
    memcpy(&f, &p, sizeof f);
    return f;
}

static void record(const char *message)
{
    error_count++;
    snprintf(last_error, sizeof last_error, "%s", message);
    fprintf(stderr, "gl: %s\n", message);
}

static void debug_callback(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                           const GLchar *message, const void *user)
{
    (void)id;
    (void)length;
    (void)user;
    // A shader that does not compile is reported by shader.c with its file and line (and, while hot
    // reloading, is an expected state of the user's file), so it is not counted as a GL error here.
    if (source == GL_DEBUG_SOURCE_SHADER_COMPILER_KHR)
        return;
    if (type == GL_DEBUG_TYPE_ERROR_KHR || severity == GL_DEBUG_SEVERITY_HIGH_KHR)
    {
        record(message);
    }
    else if (severity != GL_DEBUG_SEVERITY_NOTIFICATION_KHR)
    {
        // Performance and portability remarks: worth seeing while developing, not errors.
        fprintf(stderr, "gl debug: %s\n", message);
    }
}

static bool has_extension(const char *name)
{
    GLint count = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &count);
    for (GLint i = 0; i < count; i++)
    {
        const char *ext = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i);
        if (ext && strcmp(ext, name) == 0)
            return true;
    }
    return false;
}

static void enable_debug_output(get_proc_fn get)
{
    if (!has_extension("GL_KHR_debug"))
        return;
    void *p = get("glDebugMessageCallback");
    if (!p)
        return;
    debug_message_callback_fn set_callback = NULL;
    memcpy(&set_callback, &p, sizeof set_callback);
    set_callback(debug_callback, NULL);
    glEnable(GL_DEBUG_OUTPUT_KHR);
    // Synchronous so that a message arrives inside the call that caused it (a debugger's stack shows it).
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR);
}

bool gl_load(void *(*get_proc)(const char *name))
{
    if (!get_proc)
        return false;
    int version = gladLoadGLUserPtr(load_adapter, &get_proc);
    if (version == 0)
        return false;
    if (GLAD_VERSION_MAJOR(version) < 3 ||
        (GLAD_VERSION_MAJOR(version) == 3 && GLAD_VERSION_MINOR(version) < 3))
        return false;
    const char *v = (const char *)glGetString(GL_VERSION);
    const char *r = (const char *)glGetString(GL_RENDERER);
    snprintf(version_string, sizeof version_string, "%s", v ? v : "");
    snprintf(renderer_string, sizeof renderer_string, "%s", r ? r : "");
#ifdef PH_ENABLE_ASSERT
    enable_debug_output(get_proc);
#else
    (void)enable_debug_output;
#endif
    // A fresh context may hold an error from the window system's own set-up; start counting from here.
    while (glGetError() != GL_NO_ERROR)
    {
    }
    return true;
}

static const char *error_name(GLenum e)
{
    switch (e)
    {
    case GL_INVALID_ENUM:
        return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
        return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
        return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
        return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
        return "GL_OUT_OF_MEMORY";
    default:
        return "unknown GL error";
    }
}

bool gl_check(const char *where)
{
    bool ok = true;
    // glGetError returns one flag per call; a bounded loop, since a lost context can keep returning one.
    enum
    {
        MAX_DRAINED = 16
    };
    for (int i = 0; i < MAX_DRAINED; i++)
    {
        GLenum e = glGetError();
        if (e == GL_NO_ERROR)
            break;
        char message[GL_MESSAGE_MAX];
        snprintf(message, sizeof message, "%s: %s (0x%04x)", where ? where : "?", error_name(e), (unsigned)e);
        record(message);
        ok = false;
    }
    return ok;
}

int gl_error_count(void)
{
    return error_count;
}

const char *gl_last_error(void)
{
    return last_error;
}

const char *gl_version_string(void)
{
    return version_string;
}

const char *gl_renderer_string(void)
{
    return renderer_string;
}
