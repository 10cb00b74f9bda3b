// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The frame: instances are collected per frame, sorted by mesh (a counting sort on the mesh handle), and
// uploaded once into one instance buffer; then a depth-only sun pass into a shadow map fitted to the
// casters, the lit pass (one instanced draw per mesh), the ground grid (then the ground body under it), the
// sky behind everything, debug lines and HUD text. Rendering goes into a multisampled off-screen target
// resolved into the window when MSAA is asked for (and the window's own framebuffer is not multisampled
// already). With a render scale below 1 the 3D passes draw into a smaller target that the post pass upscales
// (and anti-aliases) into the frame, before the HUD text is drawn at full size.
#define _POSIX_C_SOURCE 200809L // clock_gettime

#include "render/renderer.h"

#include "render/gl.h"
#include "render/renderer_internal.h"

#include <math.h>   // fabsf, floorf, ceilf, powf, roundf
#include <stddef.h> // offsetof
#include <stdio.h>  // snprintf
#include <stdlib.h> // calloc, realloc, free
#include <string.h> // memset, memcpy, strstr
#include <time.h>   // clock_gettime

// Shadow map resolution when render_options.shadow_map_size is 0 (unit: texels per side). The map is
// fitted to the casters, so 1024 keeps a 30 m scene at 3 cm per texel; on llvmpipe every doubling of the
// side costs four times the depth fill of the shadow pass.
#define DEFAULT_SHADOW_MAP_SIZE 1024
// The map's side follows the render scale (render_options.render_scale), so that a shadow texel spans as
// many of the scene's pixels at any scale, and the edges of shadows keep their size on screen after the
// upscale: at 0.5 the pass fills a quarter of the texels. The side is rounded to a multiple of this (unit:
// texels), so that the automatic scale's small steps do not make a new map each time.
#define SHADOW_SIZE_STEP 64
// The shadow map covers the casters, but no farther than this from the point of the view ray nearest
// them (unit: m), so far bodies do not stretch the map over the whole world.
#define SHADOW_MAX_RANGE 60.0f
// The light-space box is rounded out to this step (unit: m) so it changes in jumps rather than every
// frame as bodies move, which would make shadow edges crawl.
#define SHADOW_SNAP 1.0f
// Normal offset of the shadow lookup, in shadow texels (see mesh.vert), and the rasteriser's
// slope-scaled depth bias for the depth pass (glPolygonOffset factor, units).
#define SHADOW_NORMAL_OFFSET_TEXELS 1.5f
#define SHADOW_BIAS_FACTOR 2.0f
#define SHADOW_BIAS_UNITS 4.0f
// Instances larger than this (bounding radius, unit: m) do not take part in fitting the shadow map.
#define SHADOW_FIT_MAX_EXTENT 12.0f
// Distance of the light's eye behind the casters along the sun direction (unit: m).
#define SHADOW_EYE_MARGIN 10.0f
// Haze: the fraction of the horizon colour is 1 - exp(-density * distance) (unit: 1/m); half at 200 m.
#define HAZE_DENSITY 0.0035f
// Shader files are checked for changes at most this often (unit: s).
#define SHADER_POLL_INTERVAL 1.0
// Smallest per-axis instance scale: the normal divides by it (unit: mesh units).
#define MIN_INSTANCE_SCALE 1e-6f
// Upper bound on per-frame elements of one list (instances, line vertices, text vertices).
#define RENDER_MAX_FRAME_ELEMENTS (8 * 1024 * 1024)
// Fewest depth bits of the window's framebuffer drawn into directly (see ensure_msaa).
#define MIN_DEPTH_BITS 24
// Samples of RENDER_MSAA_AUTO on a GPU.
#define AUTO_MSAA_SAMPLES 4
// FNV-1a 64-bit offset basis and prime (Fowler, Noll, Vo).
#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME 1099511628211ull
// Built-in mesh tessellation: sphere slices x stacks, cylinder slices.
#define SPHERE_SLICES 24
#define SPHERE_STACKS 16
#define CYLINDER_SLICES 24
// Sleeping bodies are tinted towards a blue-grey by this fraction; highlighted ones brightened towards
// white by this fraction.
#define SLEEP_TINT 0.55f
// The sRGB transfer curve (IEC 61966-2-1): linear below SRGB_LINEAR_LIMIT, else a 1/2.4 power.
#define SRGB_LINEAR_LIMIT 0.0031308f
#define SRGB_LINEAR_SLOPE 12.92f
#define SRGB_SCALE 1.055f
#define SRGB_OFFSET 0.055f
#define SRGB_GAMMA 2.4f
#define HIGHLIGHT_MIX 0.4f

// Scene colours, linear RGB.
static const vec3s SUN_COLOR = {{1.45f, 1.36f, 1.22f}};
static const vec3s SKY_AMBIENT = {{0.22f, 0.27f, 0.36f}};
static const vec3s GROUND_AMBIENT = {{0.10f, 0.09f, 0.08f}};
static const vec3s ZENITH_COLOR = {{0.18f, 0.32f, 0.62f}};
static const vec3s HORIZON_COLOR = {{0.62f, 0.70f, 0.80f}};
static const vec3s BELOW_COLOR = {{0.25f, 0.24f, 0.23f}};
static const vec3s SLEEP_COLOR = {{0.42f, 0.47f, 0.62f}};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// FNV-1a, 64 bits: a hash of the bytes for the shadow pass's change test.
static uint64_t hash_bytes(const void *data, size_t size)
{
    const unsigned char *p = data;
    uint64_t h = FNV_OFFSET;
    for (size_t i = 0; i < size; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

bool render_reserve(void **data, int *capacity, int count, int extra, size_t elem_size)
{
    if (extra < 0 || count > RENDER_MAX_FRAME_ELEMENTS - extra)
        return false;
    int need = count + extra;
    if (need <= *capacity)
        return true;
    int cap = *capacity > 0 ? *capacity : 256;
    while (cap < need)
        cap *= 2;
    void *p = realloc(*data, (size_t)cap * elem_size);
    if (!p)
        return false;
    *data = p;
    *capacity = cap;
    return true;
}

render_options renderer_default_options(void)
{
    render_options o;
    memset(&o, 0, sizeof o);
    o.shadows = true;
    o.ground = true;
    o.ground_height = 0.0f;
    o.sky = true;
    o.clear_rgba = 0x202428ffu;
    o.msaa_samples = RENDER_MSAA_AUTO;
    o.fxaa = true;
    o.render_scale = 1.0f;
    o.debug_xray = true;
    o.sun_direction = (vec3s){{0.55f, -1.0f, -0.35f}};
    o.shadow_map_size = DEFAULT_SHADOW_MAP_SIZE;
    return o;
}

// ---- Programs -----------------------------------------------------------------------------------------

static void get_lit_uniforms(GLuint p, lit_uniforms *u)
{
    u->view_proj = glGetUniformLocation(p, "u_view_proj");
    u->light_view_proj = glGetUniformLocation(p, "u_light_view_proj");
    u->normal_offset = glGetUniformLocation(p, "u_normal_offset");
    u->eye = glGetUniformLocation(p, "u_eye");
    u->sun_dir = glGetUniformLocation(p, "u_sun_dir");
    u->sun_color = glGetUniformLocation(p, "u_sun_color");
    u->sky_ambient = glGetUniformLocation(p, "u_sky_ambient");
    u->ground_ambient = glGetUniformLocation(p, "u_ground_ambient");
    u->haze_color = glGetUniformLocation(p, "u_haze_color");
    u->haze_density = glGetUniformLocation(p, "u_haze_density");
    u->shadow_map = glGetUniformLocation(p, "u_shadow_map");
}

// Reads every program's uniform locations (after a load or a reload).
static void get_uniforms(renderer *r)
{
    for (int v = 0; v < 2; v++)
    {
        get_lit_uniforms(r->mesh_prog[v].sp.id, &r->mesh_prog[v].u);
        grid_program *grid = &r->grid_prog[v];
        get_lit_uniforms(grid->sp.id, &grid->u);
        grid->height = glGetUniformLocation(grid->sp.id, "u_height");
        grid->ground_color = glGetUniformLocation(grid->sp.id, "u_ground_color");
        grid->line_color = glGetUniformLocation(grid->sp.id, "u_line_color");
    }
    r->shadow_prog.light_view_proj = glGetUniformLocation(r->shadow_prog.sp.id, "u_light_view_proj");
    GLuint s = r->sky_prog.sp.id;
    r->sky_prog.inv_view_proj = glGetUniformLocation(s, "u_inv_view_proj");
    r->sky_prog.zenith_color = glGetUniformLocation(s, "u_zenith_color");
    r->sky_prog.horizon_color = glGetUniformLocation(s, "u_horizon_color");
    r->sky_prog.below_color = glGetUniformLocation(s, "u_below_color");
    r->sky_prog.sun_dir = glGetUniformLocation(s, "u_sun_dir");
    r->sky_prog.sun_color = glGetUniformLocation(s, "u_sun_color");
    r->lines_prog.view_proj = glGetUniformLocation(r->lines_prog.sp.id, "u_view_proj");
    r->lines_prog.alpha_scale = glGetUniformLocation(r->lines_prog.sp.id, "u_alpha_scale");
    r->lines_prog.point_scale = glGetUniformLocation(r->lines_prog.sp.id, "u_point_scale");
    r->text_prog.screen_size = glGetUniformLocation(r->text_prog.sp.id, "u_screen_size");
    for (int v = 0; v < POST_VARIANT_COUNT; v++)
    {
        post_program *post = &r->post_prog[v];
        post->source = glGetUniformLocation(post->sp.id, "u_source");
        post->texel = glGetUniformLocation(post->sp.id, "u_texel");
    }
}

// The programs in a fixed order, with their file stems and the defines of their variants.
static int program_list(renderer *r, shader_program **out, const char **stems, const char **defines)
{
    shader_program *list[] = {&r->mesh_prog[0].sp,         &r->mesh_prog[1].sp,
                              &r->grid_prog[0].sp,         &r->grid_prog[1].sp,
                              &r->shadow_prog.sp,          &r->sky_prog.sp,
                              &r->lines_prog.sp,           &r->text_prog.sp,
                              &r->post_prog[POST_FXAA].sp, &r->post_prog[POST_UPSCALE].sp};
    static const char *names[] = {"mesh", "mesh",  "grid", "grid", "shadow",
                                  "sky",  "lines", "text", "fxaa", "fxaa"};
    static const char *shadowed = "#define SHADOWS 1";
    static const char *upscale = "#define UPSCALE 1";
    const char *variants[] = {"", shadowed, "", shadowed, "", "", "", "", "", upscale};
    int n = (int)(sizeof list / sizeof list[0]);
    for (int i = 0; i < n; i++)
    {
        out[i] = list[i];
        stems[i] = names[i];
        defines[i] = variants[i];
    }
    return n;
}

bool renderer_reload_shaders(renderer *r)
{
    if (!r)
        return false;
    shader_program *programs[PROGRAM_COUNT];
    const char *stems[PROGRAM_COUNT], *defines[PROGRAM_COUNT];
    int n = program_list(r, programs, stems, defines);
    bool reloaded = false;
    for (int i = 0; i < n; i++)
    {
        int result = shader_program_poll(programs[i], r->program_errors[i], sizeof r->program_errors[i]);
        if (result > 0)
        {
            reloaded = true;
            r->program_errors[i][0] = '\0';
        }
    }
    // The HUD shows the first program still failing; the message clears once every file compiles.
    r->shader_error[0] = '\0';
    for (int i = 0; i < n && !r->shader_error[0]; i++)
        snprintf(r->shader_error, sizeof r->shader_error, "%s", r->program_errors[i]);
    if (reloaded)
        get_uniforms(r);
    return reloaded;
}

// ---- Targets ------------------------------------------------------------------------------------------

static bool create_shadow_map(renderer *r, int size)
{
    if (r->shadow_fbo)
    {
        glDeleteFramebuffers(1, &r->shadow_fbo);
        glDeleteTextures(1, &r->shadow_depth);
        r->shadow_fbo = 0;
        r->shadow_depth = 0;
    }
    glGenTextures(1, &r->shadow_depth);
    glBindTexture(GL_TEXTURE_2D, r->shadow_depth);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size, size, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT,
                 NULL);
    // Linear filtering on a comparison sampler gives the hardware's 2x2 PCF per tap.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    glGenFramebuffers(1, &r->shadow_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, r->shadow_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r->shadow_depth, 0);
    glDrawBuffer(GL_NONE);
    glReadBuffer(GL_NONE);
    bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    r->shadow_size = ok ? size : 0;
    r->shadow_key = 0;
    return ok;
}

static void free_target(render_target *t)
{
    if (t->fbo)
        glDeleteFramebuffers(1, &t->fbo);
    if (t->color && t->color_texture)
        glDeleteTextures(1, &t->color);
    else if (t->color)
        glDeleteRenderbuffers(1, &t->color);
    if (t->depth)
        glDeleteRenderbuffers(1, &t->depth);
    t->fbo = t->color = t->depth = 0;
    t->width = t->height = 0;
}

// Makes a target of width x height with an RGBA8 colour and a 24-bit depth buffer, multisampled when
// samples > 0; with color_texture its colour is a texture read with bilinear filtering (the anti-aliasing
// pass's taps between pixels need it), and samples must be 0. False (and nothing made) when the GL cannot
// complete it.
static bool create_target(render_target *t, int samples, int width, int height, bool color_texture)
{
    t->color_texture = color_texture;
    glGenFramebuffers(1, &t->fbo);
    glGenRenderbuffers(1, &t->depth);
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    if (color_texture)
    {
        glGenTextures(1, &t->color);
        glBindTexture(GL_TEXTURE_2D, t->color);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t->color, 0);
    }
    else
    {
        glGenRenderbuffers(1, &t->color);
        glBindRenderbuffer(GL_RENDERBUFFER, t->color);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, t->color);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, t->depth);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, t->depth);
    bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    t->width = width;
    t->height = height;
    if (!ok)
        free_target(t);
    return ok;
}

static void free_msaa(renderer *r)
{
    free_target(&r->msaa);
    r->msaa_samples = r->msaa_width = r->msaa_height = 0;
}

// Makes the multisampled target width x height (the 3D passes' size) with the sample count; false when it
// cannot be made (then the frame is drawn straight into the window without MSAA).
static bool ensure_msaa(renderer *r, int samples, int width, int height)
{
    if (samples > r->max_samples)
        samples = r->max_samples;
    if (samples <= 1)
        samples = 0;
    // Without multisampling the window's framebuffer is used directly, unless its depth buffer is too
    // coarse for a 0.1 m .. 500 m perspective: then a single-sample target with a 24-bit depth buffer.
    // The off-screen target has its own 24-bit depth buffer and no samples.
    bool offscreen = r->offscreen.fbo != 0;
    bool shallow_depth = !offscreen && r->default_depth_bits < MIN_DEPTH_BITS;
    if ((samples == 0 && !shallow_depth) || (!offscreen && r->default_fb_multisampled))
    {
        free_msaa(r);
        return false;
    }
    if (r->msaa.fbo && r->msaa_samples == samples && r->msaa_width == width && r->msaa_height == height)
        return true;
    free_msaa(r);
    if (!create_target(&r->msaa, samples, width, height, false))
        return false;
    r->msaa_samples = samples;
    r->msaa_width = width;
    r->msaa_height = height;
    return true;
}

// Makes t, a source of the post pass, width x height (the 3D passes' size) with a colour texture; false when
// the GL cannot make it (the frame is then drawn without the pass, at full size).
static bool ensure_post(render_target *t, int width, int height)
{
    if (t->fbo && t->width == width && t->height == height)
        return true;
    free_target(t);
    return create_target(t, 0, width, height, true);
}

bool renderer_set_offscreen(renderer *r, int width, int height)
{
    if (!r)
        return false;
    free_target(&r->offscreen);
    if (width <= 0 || height <= 0)
        return true;
    if (!create_target(&r->offscreen, 0, width, height, false))
        return false;
    r->width = width;
    r->height = height;
    return true;
}

// ---- Lifetime -----------------------------------------------------------------------------------------

static int add_mesh_data(renderer *r, const mesh_data *data, mesh_origin origin, const void *geometry)
{
    for (int i = 0; i < RENDER_MAX_MESHES; i++)
    {
        if (r->meshes[i].origin != MESH_FREE)
            continue;
        if (!gpu_mesh_create(&r->meshes[i].mesh, data, r->instance_vbo))
            return -1;
        r->meshes[i].origin = origin;
        r->meshes[i].geometry = geometry;
        return i;
    }
    return -1;
}

int render_add_mesh_data(renderer *r, const mesh_data *data, const void *geometry)
{
    return add_mesh_data(r, data, geometry ? MESH_GEOMETRY : MESH_USER, geometry);
}

static bool create_builtins(renderer *r)
{
    mesh_data data;
    bool ok = mesh_data_box(&data) && add_mesh_data(r, &data, MESH_BUILTIN, NULL) == RENDER_MESH_BOX;
    mesh_data_free(&data);
    ok = ok && mesh_data_sphere(&data, SPHERE_SLICES, SPHERE_STACKS) &&
         add_mesh_data(r, &data, MESH_BUILTIN, NULL) == RENDER_MESH_SPHERE;
    mesh_data_free(&data);
    ok = ok && mesh_data_cylinder(&data, CYLINDER_SLICES) &&
         add_mesh_data(r, &data, MESH_BUILTIN, NULL) == RENDER_MESH_CYLINDER;
    mesh_data_free(&data);
    return ok;
}

static void create_buffers(renderer *r)
{
    glGenBuffers(1, &r->instance_vbo);

    // Debug lines: position, colour, point size (attributes 0, 1, 2 of lines.vert).
    glGenVertexArrays(1, &r->lines_vao);
    glGenBuffers(1, &r->lines_vbo);
    glBindVertexArray(r->lines_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->lines_vbo);
    GLsizei ls = (GLsizei)sizeof(line_vertex);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, ls, (const void *)offsetof(line_vertex, position));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, ls, (const void *)offsetof(line_vertex, color));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, ls, (const void *)offsetof(line_vertex, size));

    // HUD text: pixel position and colour (text.vert).
    glGenVertexArrays(1, &r->text_vao);
    glGenBuffers(1, &r->text_vbo);
    glBindVertexArray(r->text_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->text_vbo);
    GLsizei ts = (GLsizei)sizeof(text_vertex);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, ts, (const void *)offsetof(text_vertex, position));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, ts, (const void *)offsetof(text_vertex, color));

    render_ground_create(r);

    // Core profile needs a bound vertex array even for an attribute-less draw.
    glGenVertexArrays(1, &r->empty_vao);
    glBindVertexArray(0);
    glGenQueries(RENDER_PASS_COUNT, r->pass_query);
}

renderer *renderer_create(const char *base_path, char *err, size_t err_size)
{
    char local[8];
    if (!err || err_size == 0)
    {
        err = local;
        err_size = sizeof local;
    }
    err[0] = '\0';
    if (!glCreateProgram)
    {
        snprintf(err, err_size,
                 "renderer_create: OpenGL is not loaded (call gl_load with the context current)");
        return NULL;
    }
    renderer *r = calloc(1, sizeof *r);
    if (!r)
    {
        snprintf(err, err_size, "renderer_create: out of memory");
        return NULL;
    }
    snprintf(r->base_path, sizeof r->base_path, "%s", base_path ? base_path : "");
    r->width = r->height = 1;
    r->camera.view = glms_mat4_identity();
    r->camera.proj = glms_mat4_identity();
    r->view_proj = r->inv_view_proj = r->light_view_proj = glms_mat4_identity();
    shader_program *programs[PROGRAM_COUNT];
    const char *stems[PROGRAM_COUNT], *defines[PROGRAM_COUNT];
    int n = program_list(r, programs, stems, defines);
    for (int i = 0; i < n; i++)
    {
        if (!shader_program_load_variant(programs[i], r->base_path, stems[i], defines[i], err, err_size))
        {
            renderer_destroy(r);
            return NULL;
        }
    }
    get_uniforms(r);
    create_buffers(r);
    if (!create_builtins(r))
    {
        snprintf(err, err_size, "renderer_create: could not build the built-in meshes");
        renderer_destroy(r);
        return NULL;
    }
    glGetIntegerv(GL_MAX_SAMPLES, &r->max_samples);
    GLint sample_buffers = 0;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glGetIntegerv(GL_SAMPLE_BUFFERS, &sample_buffers);
    r->default_fb_multisampled = sample_buffers > 0;
    GLint depth_bits = 0, depth_type = GL_NONE;
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_DEPTH, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
                                          &depth_type);
    if (depth_type != GL_NONE)
        glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_DEPTH, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE,
                                              &depth_bits);
    r->default_depth_bits = depth_bits;
    const char *gl_renderer = gl_renderer_string();
    bool software = strstr(gl_renderer, "llvmpipe") || strstr(gl_renderer, "softpipe") ||
                    strstr(gl_renderer, "SWR") || strstr(gl_renderer, "SwiftShader");
    r->software = software;
    r->auto_samples = software ? 0 : AUTO_MSAA_SAMPLES;
    r->last_poll_s = now_seconds();
    if (!gl_check("renderer_create"))
    {
        snprintf(err, err_size, "%s", gl_last_error());
        renderer_destroy(r);
        return NULL;
    }
    return r;
}

void renderer_destroy(renderer *r)
{
    if (!r)
        return;
    shader_program *programs[PROGRAM_COUNT];
    const char *stems[PROGRAM_COUNT], *defines[PROGRAM_COUNT];
    int n = program_list(r, programs, stems, defines);
    for (int i = 0; i < n; i++)
        shader_program_free(programs[i]);
    for (int i = 0; i < RENDER_MAX_MESHES; i++)
        gpu_mesh_free(&r->meshes[i].mesh);
    GLuint buffers[] = {r->instance_vbo, r->lines_vbo, r->text_vbo, r->ground_vbo, r->ground_ebo};
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++)
        if (buffers[i])
            glDeleteBuffers(1, &buffers[i]);
    GLuint arrays[] = {r->lines_vao, r->text_vao, r->ground_vao, r->empty_vao};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (arrays[i])
            glDeleteVertexArrays(1, &arrays[i]);
    if (r->pass_query[0])
        glDeleteQueries(RENDER_PASS_COUNT, r->pass_query);
    if (r->shadow_fbo)
        glDeleteFramebuffers(1, &r->shadow_fbo);
    if (r->shadow_depth)
        glDeleteTextures(1, &r->shadow_depth);
    free_msaa(r);
    free_target(&r->post);
    free_target(&r->post_aa);
    free_target(&r->offscreen);
    free(r->pending.data);
    free(r->sorted.data);
    free(r->lines.data);
    free(r->points.data);
    free(r->visible.data);
    free(r->order.data);
    free(r->depth.data);
    free(r->text.data);
    free(r->text_scratch);
    free(r);
}

void renderer_resize(renderer *r, int width, int height)
{
    // The off-screen target keeps its own size whatever the window does.
    if (!r || width <= 0 || height <= 0 || r->offscreen.fbo)
        return;
    r->width = width;
    r->height = height;
}

bool renderer_is_software(const renderer *r)
{
    return r && r->software;
}

void renderer_finish(renderer *r)
{
    if (r)
        glFinish();
}

void renderer_get_size(const renderer *r, int *out_width, int *out_height)
{
    if (out_width)
        *out_width = r ? r->width : 0;
    if (out_height)
        *out_height = r ? r->height : 0;
}

const render_stats *renderer_get_stats(const renderer *r)
{
    return r ? &r->stats : NULL;
}

const char *renderer_shader_error(const renderer *r)
{
    return r ? r->shader_error : "";
}

// ---- Frame --------------------------------------------------------------------------------------------

void renderer_begin_frame(renderer *r, const render_camera *camera)
{
    if (!r)
        return;
    if (camera)
    {
        r->camera = *camera;
        r->view_proj = glms_mat4_mul(camera->proj, camera->view);
        r->inv_view_proj = glms_mat4_inv(r->view_proj);
    }
    r->pending.count = 0;
    r->lines.count = 0;
    r->points.count = 0;
    r->text.count = 0;
    r->caster_hash = 0;
    r->caster_lo = (vec3s){{INFINITY, INFINITY, INFINITY}};
    r->caster_hi = (vec3s){{-INFINITY, -INFINITY, -INFINITY}};
    double t = now_seconds();
    if (t - r->last_poll_s >= SHADER_POLL_INTERVAL)
    {
        r->last_poll_s = t;
        renderer_reload_shaders(r);
    }
}

static float unit_clamp(float x)
{
    return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}

// Linear to sRGB, the exact piecewise curve (IEC 61966-2-1) that the shaders approximate.
static float srgb_encode(float c)
{
    c = unit_clamp(c);
    return c <= SRGB_LINEAR_LIMIT ? c * SRGB_LINEAR_SLOPE
                                  : SRGB_SCALE * powf(c, 1.0f / SRGB_GAMMA) - SRGB_OFFSET;
}

static uint8_t to_byte(float x)
{
    return (uint8_t)lrintf(unit_clamp(x) * 255.0f);
}

void render_rgba_bytes(uint32_t rgba, uint8_t out[4])
{
    out[0] = (uint8_t)(rgba >> 24);
    out[1] = (uint8_t)(rgba >> 16);
    out[2] = (uint8_t)(rgba >> 8);
    out[3] = (uint8_t)rgba;
}

bool renderer_submit(renderer *r, int mesh, vec3s position, versors orientation, vec3s scale, uint32_t rgba,
                     uint32_t flags)
{
    if (!r || mesh < 0 || mesh >= RENDER_MAX_MESHES || r->meshes[mesh].origin == MESH_FREE)
        return false;
    float qlen = sqrtf(orientation.x * orientation.x + orientation.y * orientation.y +
                       orientation.z * orientation.z + orientation.w * orientation.w);
    if (!glms_vec3_isvalid(position) || !glms_vec3_isvalid(scale) || !isfinite(qlen))
        return false;
    if (!RENDER_PUSH_ROOM(r->pending, 1))
        return false;
    versors q = glms_quat_identity();
    if (qlen > 0.0f)
        for (int i = 0; i < 4; i++)
            q.raw[i] = orientation.raw[i] / qlen;
    pending_instance *p = &r->pending.data[r->pending.count++];
    bool casts = (flags & RENDER_FLAG_NO_SHADOW) == 0;
    p->key = mesh * 2 + (casts ? 0 : 1) + ((flags & RENDER_FLAG_GROUND) ? RENDER_GROUND_KEYS : 0);
    float max_scale = 0.0f;
    for (int i = 0; i < 3; i++)
    {
        p->gpu.position[i] = position.raw[i];
        // A mirroring (negative) scale would turn the faces inside out for the culling: sizes only.
        float s = fmaxf(fabsf(scale.raw[i]), MIN_INSTANCE_SCALE);
        p->gpu.scale[i] = s;
        max_scale = fmaxf(s, max_scale);
    }
    for (int i = 0; i < 4; i++)
        p->gpu.orientation[i] = q.raw[i];
    uint8_t c[4];
    render_rgba_bytes(rgba, c);
    float rgb[3] = {(float)c[0] / 255.0f, (float)c[1] / 255.0f, (float)c[2] / 255.0f};
    // Tints are mixed in sRGB, the space the colours were picked in.
    for (int i = 0; i < 3; i++)
    {
        if (flags & RENDER_FLAG_SLEEPING)
            rgb[i] += (srgb_encode(SLEEP_COLOR.raw[i]) - rgb[i]) * SLEEP_TINT;
        if (flags & RENDER_FLAG_HIGHLIGHT)
            rgb[i] += (1.0f - rgb[i]) * HIGHLIGHT_MIX;
        p->gpu.color[i] = to_byte(rgb[i]);
    }
    p->gpu.color[3] = c[3];
    if (casts)
    {
        uint64_t h = hash_bytes(&p->gpu, offsetof(gpu_instance, color)) ^ (uint64_t)p->key;
        r->caster_hash += h * FNV_PRIME;
    }
    float extent = r->meshes[mesh].mesh.radius * max_scale;
    // Huge instances (a floor slab, a terrain mesh) still cast into the map but do not size it: fitted
    // to them, the map would spread its texels over the whole floor.
    if (casts && extent <= SHADOW_FIT_MAX_EXTENT)
    {
        vec3s e = {{extent, extent, extent}};
        r->caster_lo = glms_vec3_minv(r->caster_lo, glms_vec3_sub(position, e));
        r->caster_hi = glms_vec3_maxv(r->caster_hi, glms_vec3_add(position, e));
    }
    return true;
}

int renderer_add_mesh(renderer *r, const float *positions, const float *normals, int vertex_count,
                      const uint32_t *indices, int index_count)
{
    return renderer_add_mesh_colored(r, positions, normals, NULL, vertex_count, indices, index_count);
}

int renderer_add_mesh_colored(renderer *r, const float *positions, const float *normals, const float *colors,
                              int vertex_count, const uint32_t *indices, int index_count)
{
    if (!r)
        return -1;
    mesh_data data;
    if (!mesh_data_from_arrays(&data, positions, normals, colors, vertex_count, indices, index_count))
        return -1;
    int handle = add_mesh_data(r, &data, MESH_USER, NULL);
    mesh_data_free(&data);
    return handle;
}

void renderer_remove_mesh(renderer *r, int mesh)
{
    if (!r || mesh < RENDER_BUILTIN_MESH_COUNT || mesh >= RENDER_MAX_MESHES ||
        r->meshes[mesh].origin == MESH_FREE)
        return;
    gpu_mesh_free(&r->meshes[mesh].mesh);
    memset(&r->meshes[mesh], 0, sizeof r->meshes[mesh]);
    r->shadow_key = 0; // the handle may be reused by another mesh with the same instances
}

void renderer_forget_geometry(renderer *r)
{
    if (!r)
        return;
    for (int i = 0; i < RENDER_MAX_MESHES; i++)
        if (r->meshes[i].origin == MESH_GEOMETRY)
            renderer_remove_mesh(r, i);
}

// Sorts this frame's instances by key into r->sorted and fills first[key], count[key]. Within a key they
// go front to back: llvmpipe (like GPUs) tests depth before shading, so near boxes drawn first spare
// the shading of the boxes they hide, which in a pile is most of them. Both sorts are counting sorts
// (an LSD radix sort: depth bucket first, then the stable pass on the key), linear in the count.
static void sort_instances(renderer *r, int *first, int *count)
{
    enum
    {
        DEPTH_BUCKETS = 1024
    };
    int n = r->pending.count;
    memset(count, 0, sizeof(int) * RENDER_KEY_COUNT);
    r->sorted.count = 0;
    if (n == 0 || !RENDER_PUSH_ROOM(r->sorted, n) || !RENDER_PUSH_ROOM(r->order, 2 * n) ||
        !RENDER_PUSH_ROOM(r->depth, n))
        return;
    float *depth = r->depth.data;
    int *bucket = r->order.data; // n depth buckets
    int *by_depth = bucket + n;  // n instance indices in depth order
    // Depth along the view direction: the third row of the view matrix gives -z_view.
    mat4s v = r->camera.view;
    float dmin = INFINITY, dmax = -INFINITY;
    for (int i = 0; i < n; i++)
    {
        const float *p = r->pending.data[i].gpu.position;
        float d = -(v.raw[0][2] * p[0] + v.raw[1][2] * p[1] + v.raw[2][2] * p[2] + v.raw[3][2]);
        depth[i] = d;
        dmin = fminf(dmin, d);
        dmax = fmaxf(dmax, d);
    }
    float scale = dmax > dmin ? (float)(DEPTH_BUCKETS - 1) / (dmax - dmin) : 0.0f;
    int depth_count[DEPTH_BUCKETS] = {0};
    for (int i = 0; i < n; i++)
    {
        int b = (int)((depth[i] - dmin) * scale);
        b = b < 0 ? 0 : (b >= DEPTH_BUCKETS ? DEPTH_BUCKETS - 1 : b);
        bucket[i] = b;
        depth_count[b]++;
    }
    int offset = 0;
    for (int b = 0; b < DEPTH_BUCKETS; b++)
    {
        int c = depth_count[b];
        depth_count[b] = offset;
        offset += c;
    }
    for (int i = 0; i < n; i++)
        by_depth[depth_count[bucket[i]]++] = i;
    for (int i = 0; i < n; i++)
        count[r->pending.data[i].key]++;
    offset = 0;
    for (int k = 0; k < RENDER_KEY_COUNT; k++)
    {
        first[k] = offset;
        offset += count[k];
    }
    int fill[RENDER_KEY_COUNT];
    memcpy(fill, first, sizeof fill);
    for (int j = 0; j < n; j++)
    {
        const pending_instance *p = &r->pending.data[by_depth[j]];
        r->sorted.data[fill[p->key]++] = p->gpu;
    }
    r->sorted.count = n;
}

static void upload_instances(renderer *r)
{
    glBindBuffer(GL_ARRAY_BUFFER, r->instance_vbo);
    if (r->sorted.count > r->instance_vbo_capacity)
    {
        int cap = r->instance_vbo_capacity > 0 ? r->instance_vbo_capacity : 1024;
        while (cap < r->sorted.count)
            cap *= 2;
        r->instance_vbo_capacity = cap;
    }
    // Orphaning the old storage lets the driver keep drawing last frame's data while this one uploads.
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->instance_vbo_capacity * sizeof(gpu_instance)), NULL,
                 GL_STREAM_DRAW);
    if (r->sorted.count > 0)
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)r->sorted.count * sizeof(gpu_instance)),
                        r->sorted.data);
}

static vec3s sun_towards(const render_options *opts)
{
    vec3s d = glms_vec3_negate(opts->sun_direction);
    float len = glms_vec3_norm(d);
    if (!(len > 0.0f) || !isfinite(len))
        return glms_vec3_normalize((vec3s){{0.45f, 1.0f, 0.3f}});
    return glms_vec3_scale(d, 1.0f / len);
}

// Fits the sun's orthographic projection around the casters (clamped near the camera) and the ground
// they shade. Returns false when there is nothing to cast a shadow.
static bool fit_light(renderer *r, const render_options *opts, vec3s to_sun, float *out_texel_world)
{
    vec3s lo = r->caster_lo, hi = r->caster_hi;
    if (!(lo.x <= hi.x))
        return false;
    // Focus: the point of the view ray nearest the casters' centre (the eye when they are behind).
    vec3s forward = {{-r->camera.view.raw[0][2], -r->camera.view.raw[1][2], -r->camera.view.raw[2][2]}};
    vec3s mid = glms_vec3_scale(glms_vec3_add(lo, hi), 0.5f);
    float along = fmaxf(glms_vec3_dot(glms_vec3_sub(mid, r->camera.eye), forward), 0.0f);
    vec3s focus = glms_vec3_add(r->camera.eye, glms_vec3_scale(forward, along));
    vec3s range = {{SHADOW_MAX_RANGE, SHADOW_MAX_RANGE, SHADOW_MAX_RANGE}};
    lo = glms_vec3_maxv(lo, glms_vec3_sub(focus, range));
    hi = glms_vec3_minv(hi, glms_vec3_add(focus, range));
    if (!(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z))
        return false;
    vec3s center = glms_vec3_scale(glms_vec3_add(lo, hi), 0.5f);
    vec3s up = fabsf(to_sun.y) > 0.99f ? (vec3s){{0.0f, 0.0f, 1.0f}} : (vec3s){{0.0f, 1.0f, 0.0f}};
    float radius = glms_vec3_distance(lo, hi) * 0.5f;
    vec3s light_eye = glms_vec3_add(center, glms_vec3_scale(to_sun, radius + SHADOW_EYE_MARGIN));
    mat4s light_view = glms_lookat(light_eye, center, up);
    // Light-space bounds of the caster box's corners and of their shadows on the ground.
    vec3s ls_lo = {{INFINITY, INFINITY, INFINITY}}, ls_hi = {{-INFINITY, -INFINITY, -INFINITY}};
    for (int i = 0; i < 8; i++)
    {
        vec3s c = {{(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z}};
        vec3s pts[2] = {c, c};
        if (opts->ground && to_sun.y > 0.0f && c.y > opts->ground_height)
            pts[1] = glms_vec3_sub(c, glms_vec3_scale(to_sun, (c.y - opts->ground_height) / to_sun.y));
        for (int k = 0; k < 2; k++)
        {
            vec3s l = glms_mat4_mulv3(light_view, pts[k], 1.0f);
            ls_lo = glms_vec3_minv(ls_lo, l);
            ls_hi = glms_vec3_maxv(ls_hi, l);
        }
    }
    // x, y only from the casters would suffice; the ground points do not widen the useful area much and
    // keep the code to one loop. Round out to the snap step so the map moves in jumps.
    float x0 = floorf(ls_lo.x / SHADOW_SNAP) * SHADOW_SNAP, x1 = ceilf(ls_hi.x / SHADOW_SNAP) * SHADOW_SNAP;
    float y0 = floorf(ls_lo.y / SHADOW_SNAP) * SHADOW_SNAP, y1 = ceilf(ls_hi.y / SHADOW_SNAP) * SHADOW_SNAP;
    // View space looks down -z: near and far are the negated z range, widened by a metre each way.
    float near_z = -ls_hi.z - 1.0f, far_z = -ls_lo.z + 1.0f;
    mat4s light_proj = glms_ortho(x0, x1, y0, y1, near_z, far_z);
    r->light_view_proj = glms_mat4_mul(light_proj, light_view);
    float extent = fmaxf(x1 - x0, y1 - y0);
    *out_texel_world = extent / (float)r->shadow_size;
    return true;
}

static vec3s encode_gamma(vec3s c)
{
    vec3s out;
    for (int i = 0; i < 3; i++)
        out.raw[i] = srgb_encode(c.raw[i]);
    return out;
}

void render_set_vec3(GLint loc, vec3s v)
{
    glUniform3f(loc, v.x, v.y, v.z);
}

void render_set_lit_uniforms(const renderer *r, const lit_uniforms *u, vec3s to_sun, float normal_offset)
{
    glUniformMatrix4fv(u->view_proj, 1, GL_FALSE, r->view_proj.raw[0]);
    glUniformMatrix4fv(u->light_view_proj, 1, GL_FALSE, r->light_view_proj.raw[0]);
    glUniform1f(u->normal_offset, normal_offset);
    render_set_vec3(u->eye, r->camera.eye);
    render_set_vec3(u->sun_dir, to_sun);
    render_set_vec3(u->sun_color, SUN_COLOR);
    render_set_vec3(u->sky_ambient, SKY_AMBIENT);
    render_set_vec3(u->ground_ambient, GROUND_AMBIENT);
    render_set_vec3(u->haze_color, HORIZON_COLOR);
    glUniform1f(u->haze_density, HAZE_DENSITY);
    glUniform1i(u->shadow_map, 0);
}

// ---- Pass accounting -------------------------------------------------------------------------------------

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *renderer_pass_name(int pass)
{
    static const char *names[RENDER_PASS_COUNT] = {"shadow", "meshes", "ground", "sky",
                                                   "lines",  "post",   "text"};
    return pass >= 0 && pass < RENDER_PASS_COUNT ? names[pass] : "";
}

void render_pass_begin(renderer *r, render_pass pass)
{
    if (!r->profiling)
        return;
    // The GL works behind the calls: finishing here leaves the previous pass out of this one's time.
    glFinish();
    r->pass_t0 = cpu_seconds();
    r->pass_w0 = now_seconds();
    glBeginQuery(GL_SAMPLES_PASSED, r->pass_query[pass]);
}

void render_pass_end(renderer *r, render_pass pass)
{
    if (!r->profiling)
        return;
    glEndQuery(GL_SAMPLES_PASSED);
    glFinish();
    r->stats.pass[pass].ms_cpu += (float)((cpu_seconds() - r->pass_t0) * 1000.0);
    r->stats.pass[pass].ms_wall += (float)((now_seconds() - r->pass_w0) * 1000.0);
    GLuint64 samples = 0;
    glGetQueryObjectui64v(r->pass_query[pass], GL_QUERY_RESULT, &samples);
    r->stats.pass[pass].samples += (long long)samples;
}

void render_count_draw(renderer *r, render_pass pass, long long triangles)
{
    r->stats.pass[pass].draw_calls++;
    r->stats.pass[pass].triangles += triangles;
}

// The scale of the 3D passes, render_options.render_scale clamped to [RENDER_SCALE_MIN, 1] (0 or NaN: 1), and
// their target's size: the frame's scaled, rounded to whole pixels, at least one.
static float scene_size(const renderer *r, float render_scale, int *out_width, int *out_height)
{
    float s = render_scale > 0.0f ? fminf(fmaxf(render_scale, RENDER_SCALE_MIN), 1.0f) : 1.0f;
    *out_width = (int)fmaxf(roundf((float)r->width * s), 1.0f);
    *out_height = (int)fmaxf(roundf((float)r->height * s), 1.0f);
    return s;
}

// The shadow map's side for render_options.shadow_map_size (0: the default) at the render scale: in
// proportion, rounded to SHADOW_SIZE_STEP, never larger than the side asked for (unit: texels).
static int shadow_map_side(int asked, float scale)
{
    int size = asked > 0 ? asked : DEFAULT_SHADOW_MAP_SIZE;
    if (scale >= 1.0f || size <= SHADOW_SIZE_STEP)
        return size;
    int steps = (int)lroundf((float)size * scale / (float)SHADOW_SIZE_STEP);
    return steps < 1 ? SHADOW_SIZE_STEP : (steps * SHADOW_SIZE_STEP < size ? steps * SHADOW_SIZE_STEP : size);
}

// One draw of the post pass: a variant of shaders/fxaa.frag reads the source's colour over the whole of the
// framebuffer fbo, width x height: the filter at the source's size, or the upscale to the frame's.
static void draw_post(renderer *r, post_variant variant, const render_target *source, GLuint fbo, int width,
                      int height)
{
    const post_program *prog = &r->post_prog[variant];
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glViewport(0, 0, width, height);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(prog->sp.id);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, source->color);
    glUniform1i(prog->source, 0);
    glUniform2f(prog->texel, 1.0f / (float)width, 1.0f / (float)height);
    glBindVertexArray(r->empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glEnable(GL_DEPTH_TEST);
    render_count_draw(r, RENDER_PASS_POST, 1);
}

// Whether any key in [key_lo, key_hi) has instances.
static bool any_instances(const int *count, int key_lo, int key_hi)
{
    for (int k = key_lo; k < key_hi; k++)
        if (count[k] > 0)
            return true;
    return false;
}

// Draws the instances of every key in [key_lo, key_hi) whose keys step by key_step, one instanced draw
// per key.
static void draw_instances(renderer *r, render_pass pass, const int *first, const int *count, int key_lo,
                           int key_hi, int key_step)
{
    for (int k = key_lo; k < key_hi; k += key_step)
    {
        if (count[k] <= 0)
            continue;
        const gpu_mesh *mesh = &r->meshes[(k % RENDER_GROUND_KEYS) / 2].mesh;
        gpu_mesh_draw_instanced(mesh, r->instance_vbo, first[k], count[k]);
        render_count_draw(r, pass, (long long)(mesh->index_count / 3) * count[k]);
    }
}

void renderer_draw(renderer *r, const render_options *opts)
{
    if (!r)
        return;
    double t0 = now_seconds();
    render_options defaults = renderer_default_options();
    if (!opts)
        opts = &defaults;
    memset(r->stats.pass, 0, sizeof r->stats.pass);
    r->profiling = opts->profile_passes && r->pass_query[0] != 0;
    int first[RENDER_KEY_COUNT], count[RENDER_KEY_COUNT];
    sort_instances(r, first, count);
    upload_instances(r);
    vec3s to_sun = sun_towards(opts);

    // The 3D passes' size, which the shadow map's follows.
    int scene_w, scene_h;
    float scale = scene_size(r, opts->render_scale, &scene_w, &scene_h);

    // Sun shadow pass.
    bool shadows = false;
    float texel_world = 0.0f;
    if (opts->shadows)
    {
        int size = shadow_map_side(opts->shadow_map_size, scale);
        if (size != r->shadow_size)
            create_shadow_map(r, size);
        shadows = r->shadow_size > 0 && fit_light(r, opts, to_sun, &texel_world);
    }
    // The shadow map only changes when a caster or the light's frame does: a settled scene (sleeping
    // piles, a tower waiting to be hit) skips the whole pass. The key sums a hash per caster, so it does
    // not depend on the submission or sort order.
    uint64_t shadow_key = 0;
    if (shadows)
    {
        shadow_key = r->caster_hash ^ hash_bytes(r->light_view_proj.raw, sizeof r->light_view_proj.raw) ^
                     (uint64_t)r->shadow_size;
        shadow_key += shadow_key == 0; // 0 means "no valid map"
    }
    bool shadow_drawn = false;
    if (shadows && shadow_key != r->shadow_key)
    {
        render_pass_begin(r, RENDER_PASS_SHADOW);
        r->shadow_key = shadow_key;
        shadow_drawn = true;
        glBindFramebuffer(GL_FRAMEBUFFER, r->shadow_fbo);
        glViewport(0, 0, r->shadow_size, r->shadow_size);
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glDepthMask(GL_TRUE);
        glClear(GL_DEPTH_BUFFER_BIT);
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(SHADOW_BIAS_FACTOR, SHADOW_BIAS_UNITS);
        glUseProgram(r->shadow_prog.sp.id);
        glUniformMatrix4fv(r->shadow_prog.light_view_proj, 1, GL_FALSE, r->light_view_proj.raw[0]);
        draw_instances(r, RENDER_PASS_SHADOW, first, count, 0, RENDER_KEY_COUNT, 2); // even keys cast
        glDisable(GL_POLYGON_OFFSET_FILL);
        render_pass_end(r, RENDER_PASS_SHADOW);
    }
    else if (!shadows)
    {
        r->light_view_proj = glms_mat4_identity();
    }
    r->stats.shadow_pass_skipped = shadows && !shadow_drawn;
    r->stats.shadow_map_size = shadows ? r->shadow_size : 0;

    // Main target: the frame's size, or smaller by the render scale, when the post pass upscales it.
    render_pass_begin(r, RENDER_PASS_MESHES);
    int samples = opts->msaa_samples == RENDER_MSAA_AUTO ? r->auto_samples : opts->msaa_samples;
    bool scaled = scene_w != r->width || scene_h != r->height;
    bool msaa = ensure_msaa(r, samples, scene_w, scene_h);
    bool fxaa = opts->fxaa && !msaa;
    // Scaled and anti-aliased, the filter runs at the scene's size (its cost goes with the square of the
    // scale) into a second target, which the upscale reads.
    bool post = (fxaa || scaled) && ensure_post(&r->post, scene_w, scene_h) &&
                (!scaled || !fxaa || ensure_post(&r->post_aa, scene_w, scene_h));
    if (scaled && !post)
    {
        // No smaller target: the frame is drawn at full size, as without a render scale (with this frame's
        // shadow map as small as the scale asked for).
        scene_w = r->width;
        scene_h = r->height;
        scaled = false;
        scale = 1.0f;
        msaa = ensure_msaa(r, samples, scene_w, scene_h);
        post = fxaa && ensure_post(&r->post, scene_w, scene_h);
    }
    fxaa = fxaa && post;
    glBindFramebuffer(GL_FRAMEBUFFER, msaa ? r->msaa.fbo : post ? r->post.fbo : r->offscreen.fbo);
    glViewport(0, 0, scene_w, scene_h);
    uint8_t clear[4];
    render_rgba_bytes(opts->clear_rgba, clear);
    glClearColor((float)clear[0] / 255.0f, (float)clear[1] / 255.0f, (float)clear[2] / 255.0f, 1.0f);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glDisable(GL_BLEND);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, r->shadow_depth);
    float normal_offset = texel_world * SHADOW_NORMAL_OFFSET_TEXELS;

    const mesh_program *mesh_prog = &r->mesh_prog[shadows ? 1 : 0];
    glUseProgram(mesh_prog->sp.id);
    render_set_lit_uniforms(r, &mesh_prog->u, to_sun, normal_offset);
    draw_instances(r, RENDER_PASS_MESHES, first, count, 0, RENDER_GROUND_KEYS, 1);
    render_pass_end(r, RENDER_PASS_MESHES);

    if (opts->ground)
    {
        render_pass_begin(r, RENDER_PASS_GROUND);
        render_ground_draw(r, opts, to_sun, shadows, normal_offset);
        render_pass_end(r, RENDER_PASS_GROUND);
    }
    // The ground body after the plane: its top face, under the plane's grid, fails the depth test before it
    // is shaded; drawn before the plane it was shaded over most of the ground only to be covered.
    if (any_instances(count, RENDER_GROUND_KEYS, RENDER_KEY_COUNT))
    {
        render_pass_begin(r, RENDER_PASS_MESHES);
        glUseProgram(mesh_prog->sp.id);
        render_set_lit_uniforms(r, &mesh_prog->u, to_sun, normal_offset);
        draw_instances(r, RENDER_PASS_MESHES, first, count, RENDER_GROUND_KEYS, RENDER_KEY_COUNT, 1);
        render_pass_end(r, RENDER_PASS_MESHES);
    }

    if (opts->sky)
    {
        render_pass_begin(r, RENDER_PASS_SKY);
        glUseProgram(r->sky_prog.sp.id);
        glUniformMatrix4fv(r->sky_prog.inv_view_proj, 1, GL_FALSE, r->inv_view_proj.raw[0]);
        render_set_vec3(r->sky_prog.zenith_color, encode_gamma(ZENITH_COLOR));
        render_set_vec3(r->sky_prog.horizon_color, encode_gamma(HORIZON_COLOR));
        render_set_vec3(r->sky_prog.below_color, encode_gamma(BELOW_COLOR));
        render_set_vec3(r->sky_prog.sun_dir, to_sun);
        render_set_vec3(r->sky_prog.sun_color, encode_gamma(SUN_COLOR));
        glDepthFunc(GL_LEQUAL);
        glDepthMask(GL_FALSE);
        glBindVertexArray(r->empty_vao);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDepthMask(GL_TRUE);
        glDepthFunc(GL_LESS);
        render_count_draw(r, RENDER_PASS_SKY, 1);
        render_pass_end(r, RENDER_PASS_SKY);
    }

    float point_scale = (float)scene_h / (float)r->height;
    if (r->lines.count > 0 || r->points.count > 0)
    {
        render_pass_begin(r, RENDER_PASS_LINES);
        render_lines_draw(r, false, point_scale);
        if (opts->debug_xray)
            render_lines_draw(r, true, point_scale);
        render_pass_end(r, RENDER_PASS_LINES);
    }

    if (msaa || post)
        render_pass_begin(r, RENDER_PASS_POST);
    if (msaa)
    {
        // The resolve keeps the size: into the post pass's source when it upscales, else into the frame.
        GLuint resolved = post ? r->post.fbo : r->offscreen.fbo;
        glBindFramebuffer(GL_READ_FRAMEBUFFER, r->msaa.fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolved);
        glBlitFramebuffer(0, 0, scene_w, scene_h, 0, 0, scene_w, scene_h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, r->offscreen.fbo);
        render_count_draw(r, RENDER_PASS_POST, 0);
    }
    if (fxaa)
    {
        // The filter into the frame, or into the upscale's source.
        const render_target *aa = scaled ? &r->post_aa : &r->offscreen;
        draw_post(r, POST_FXAA, &r->post, aa->fbo, scene_w, scene_h);
    }
    if (scaled)
        draw_post(r, POST_UPSCALE, fxaa ? &r->post_aa : &r->post, r->offscreen.fbo, r->width, r->height);
    if (msaa || post)
        render_pass_end(r, RENDER_PASS_POST);

    if (r->text.count > 0)
    {
        render_pass_begin(r, RENDER_PASS_TEXT);
        render_text_upload_and_draw(r);
        render_count_draw(r, RENDER_PASS_TEXT, r->text.count / 3);
        render_pass_end(r, RENDER_PASS_TEXT);
    }
    glBindVertexArray(0);
    glUseProgram(0);
    gl_check("renderer_draw");

    r->stats.instances = r->pending.count;
    r->stats.draw_calls = 0;
    r->stats.triangles = 0;
    for (int p = 0; p < RENDER_PASS_COUNT; p++)
    {
        r->stats.draw_calls += r->stats.pass[p].draw_calls;
        r->stats.triangles += r->stats.pass[p].triangles;
    }
    r->stats.debug_vertices = r->lines.count + r->points.count;
    r->stats.render_scale = scaled ? scale : 1.0f;
    r->stats.scene_width = scene_w;
    r->stats.scene_height = scene_h;
    r->stats.ms_cpu = (float)((now_seconds() - t0) * 1000.0);
}

// ---- Camera helpers -----------------------------------------------------------------------------------

bool renderer_project(const renderer *r, vec3s world_point, float *out_x, float *out_y)
{
    if (!r)
        return false;
    vec4s clip = glms_mat4_mulv(r->view_proj, (vec4s){{world_point.x, world_point.y, world_point.z, 1.0f}});
    if (!(clip.w > 0.0f))
        return false;
    vec3s ndc = {{clip.x / clip.w, clip.y / clip.w, clip.z / clip.w}};
    if (ndc.z < -1.0f || ndc.z > 1.0f)
        return false;
    if (out_x)
        *out_x = (ndc.x * 0.5f + 0.5f) * (float)r->width;
    if (out_y)
        *out_y = (0.5f - ndc.y * 0.5f) * (float)r->height;
    return true;
}

void renderer_pixel_ray(const renderer *r, float x, float y, vec3s *out_origin, vec3s *out_dir)
{
    if (!r)
        return;
    float nx = x / (float)r->width * 2.0f - 1.0f;
    float ny = 1.0f - y / (float)r->height * 2.0f;
    vec4s a = glms_mat4_mulv(r->inv_view_proj, (vec4s){{nx, ny, -1.0f, 1.0f}});
    vec4s b = glms_mat4_mulv(r->inv_view_proj, (vec4s){{nx, ny, 1.0f, 1.0f}});
    vec3s pa = glms_vec3_scale((vec3s){{a.x, a.y, a.z}}, 1.0f / a.w);
    vec3s pb = glms_vec3_scale((vec3s){{b.x, b.y, b.z}}, 1.0f / b.w);
    if (out_origin)
        *out_origin = pa;
    if (out_dir)
        *out_dir = glms_vec3_normalize(glms_vec3_sub(pb, pa));
}

void renderer_frustum_planes(const renderer *r, ph_vec4 out_planes[6])
{
    if (!r || !out_planes)
        return;
    // Gribb and Hartmann, "Fast extraction of viewing frustum planes from the world-view-projection
    // matrix" (2001): with rows r0..r3 of M, the planes are r3 + r0, r3 - r0, r3 + r1, r3 - r1, r3 + r2,
    // r3 - r2 (left, right, bottom, top, near, far), inside where positive. cglm is column-major: row i
    // of M is (m[0][i], m[1][i], m[2][i], m[3][i]).
    const mat4s m = r->view_proj;
    for (int p = 0; p < 6; p++)
    {
        int row = p / 2;
        float sign = (p % 2 == 0) ? 1.0f : -1.0f;
        vec4s plane;
        for (int c = 0; c < 4; c++)
            plane.raw[c] = m.raw[c][3] + sign * m.raw[c][row];
        float len = sqrtf(plane.x * plane.x + plane.y * plane.y + plane.z * plane.z);
        out_planes[p] = len > 0.0f ? glms_vec4_scale(plane, 1.0f / len) : plane;
    }
}
