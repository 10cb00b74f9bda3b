// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The renderer's state, shared by the files of the render module (renderer.c draws the frame;
// world_view.c submits physics shapes; debug_draw.c collects lines; text.c builds HUD quads; image.c
// reads pixels back). Not for the game: it sees only renderer.h.
#pragma once

#include "render/gpu_mesh.h"
#include "render/renderer.h"
#include "render/shader.h"

#include <glad/gl.h> // GLuint, GLint

// Longest message kept for the HUD's shader error line (unit: bytes).
#define RENDER_ERROR_MAX SHADER_ERROR_MAX

// Programs the renderer loads: mesh and grid without and with shadows, shadow, sky, lines, text, and the
// post pass's two variants of fxaa (post_variant).
#define PROGRAM_COUNT 10

// The ground square under the camera is cut into GROUND_CELLS x GROUND_CELLS cells so that the haze computed
// per vertex follows the distance closely enough, and along the edges of the shadow map's footprint on the
// ground, so each cell is either drawn with the shadow lookup or without (ground.c).
#define GROUND_CELLS 32
#define GROUND_LINES_MAX (GROUND_CELLS + 3)
#define GROUND_VERTEX_MAX (GROUND_LINES_MAX * GROUND_LINES_MAX)
#define GROUND_INDEX_MAX ((GROUND_LINES_MAX - 1) * (GROUND_LINES_MAX - 1) * 6)

typedef struct ground_mesh
{
    float xz[GROUND_VERTEX_MAX][2]; // world x and z of each vertex (unit: m)
    int vertex_count;
    uint32_t index[GROUND_INDEX_MAX]; // triangles: first the cells in the footprint, then the others
    int lit_count;                    // indices of the cells in the footprint
    int plain_count;                  // indices of the others, after them
} ground_mesh;

// Cuts the ground rectangle lo..hi (x and z, unit: m) along a regular grid of GROUND_CELLS over the square
// of half size half_size around center and along the footprint's edges fp_lo..fp_hi (none when fp_lo is
// NULL: every cell is plain). A cell whose centre lies in the footprint is lit. The cells tile the
// rectangle clipped to the square exactly, with shared vertices, so the two draws leave no cracks.
void ground_mesh_build(ground_mesh *out, const float center[2], float half_size, const float lo[2],
                       const float hi[2], const float *fp_lo, const float *fp_hi);
// The rectangle in x and z (unit: m) that holds the shadow map's footprint on the plane y = height: its
// four corners cast along the sun. False when the sun is too low for a bounded footprint.
bool ground_shadow_footprint(mat4s light_view_proj, vec3s to_sun, float height, float out_lo[2],
                             float out_hi[2]);

// A growable array: data, count, capacity; grown by render_reserve.
#define RENDER_ARRAY(type)                                                                                   \
    struct                                                                                                   \
    {                                                                                                        \
        type *data;                                                                                          \
        int count;                                                                                           \
        int capacity;                                                                                        \
    }

// Makes room for extra more elements of elem_size bytes (doubling). False when out of memory or the
// count would pass the bound on per-frame elements.
bool render_reserve(void **data, int *capacity, int count, int extra, size_t elem_size);
#define RENDER_PUSH_ROOM(arr, extra)                                                                         \
    render_reserve((void **)&(arr).data, &(arr).capacity, (arr).count, (extra), sizeof *(arr).data)

// Sort keys: mesh * 2 + (1 when the instance casts no shadow), plus RENDER_GROUND_KEYS for the ground body
// (RENDER_FLAG_GROUND), drawn after the ground plane. Even keys cast shadows.
#define RENDER_GROUND_KEYS (RENDER_MAX_MESHES * 2)
#define RENDER_KEY_COUNT (RENDER_GROUND_KEYS * 2)

typedef struct pending_instance
{
    int key; // the sort key
    gpu_instance gpu;
} pending_instance;

typedef struct line_vertex
{
    float position[3];
    uint8_t color[4];
    float size; // point size (unit: px)
} line_vertex;

typedef struct text_vertex
{
    float position[2];
    uint8_t color[4];
} text_vertex;

typedef enum mesh_origin
{
    MESH_FREE,
    MESH_BUILTIN,
    MESH_USER,
    MESH_GEOMETRY // built from engine geometry, cached by the geometry's address
} mesh_origin;

typedef struct mesh_slot
{
    gpu_mesh mesh;
    mesh_origin origin;
    const void *geometry; // MESH_GEOMETRY: the ph_hull or ph_mesh it was built from
} mesh_slot;

// Uniform locations, named per program (DESIGN: no locs[] indexed by an enum).
typedef struct lit_uniforms
{
    GLint view_proj, light_view_proj, normal_offset, eye, sun_dir, sun_color, sky_ambient, ground_ambient,
        haze_color, haze_density, shadow_map;
} lit_uniforms;

typedef struct mesh_program
{
    shader_program sp;
    lit_uniforms u;
} mesh_program;

typedef struct grid_program
{
    shader_program sp;
    lit_uniforms u;
    GLint height, ground_color, line_color;
} grid_program;

typedef struct shadow_program
{
    shader_program sp;
    GLint light_view_proj;
} shadow_program;

typedef struct sky_program
{
    shader_program sp;
    GLint inv_view_proj, zenith_color, horizon_color, below_color, sun_dir, sun_color;
} sky_program;

typedef struct lines_program
{
    shader_program sp;
    GLint view_proj, alpha_scale, point_scale;
} lines_program;

typedef struct text_program
{
    shader_program sp;
    GLint screen_size;
} text_program;

// The post pass's programs, variants of shaders/fxaa.frag: the anti-aliasing filter (at the scene's size),
// and the bilinear upscale of a scene drawn at render_options.render_scale to the frame's size.
typedef enum post_variant
{
    POST_FXAA,
    POST_UPSCALE,
    POST_VARIANT_COUNT
} post_variant;

typedef struct post_program
{
    shader_program sp;
    GLint source, texel;
} post_program;

// A framebuffer with one colour and one depth buffer: the multisampled target, the post pass's sources (their
// colour a texture the pass reads; smaller than the frame when scaled), the off-screen target.
typedef struct render_target
{
    GLuint fbo, color, depth;
    bool color_texture; // color is a texture (else a renderbuffer)
    int width, height;  // (unit: px)
} render_target;

struct renderer
{
    char base_path[SHADER_PATH_MAX];
    int width, height;

    render_camera camera;
    mat4s view_proj, inv_view_proj;
    mat4s light_view_proj;

    mesh_program mesh_prog[2]; // [1] with the shadow lookup, [0] without
    grid_program grid_prog[2];
    shadow_program shadow_prog;
    sky_program sky_prog;
    lines_program lines_prog;
    text_program text_prog;
    post_program post_prog[POST_VARIANT_COUNT];
    char program_errors[PROGRAM_COUNT][RENDER_ERROR_MAX]; // the last failed reload per program, or ""
    char shader_error[RENDER_ERROR_MAX];
    double last_poll_s;

    mesh_slot meshes[RENDER_MAX_MESHES];

    RENDER_ARRAY(pending_instance) pending;
    RENDER_ARRAY(gpu_instance) sorted;
    RENDER_ARRAY(int) order;    // sort scratch: depth buckets and indices
    RENDER_ARRAY(float) depth;  // sort scratch: view depth per instance (unit: m)
    vec3s caster_lo, caster_hi; // bounds of this frame's shadow casters (unit: m)
    uint64_t caster_hash;       // order-independent hash of this frame's casters
    uint64_t shadow_key;        // what the shadow map holds (casters, light, size); 0: nothing valid
    GLuint instance_vbo;
    int instance_vbo_capacity; // in instances

    RENDER_ARRAY(ph_body_id) visible; // scratch for renderer_submit_world's frustum query
    int last_geometry_mesh;           // the last geometry-cache hit, tried first

    RENDER_ARRAY(line_vertex) lines; // pairs
    RENDER_ARRAY(line_vertex) points;
    GLuint lines_vao, lines_vbo;
    int lines_vbo_capacity; // in vertices

    RENDER_ARRAY(text_vertex) text; // triangles
    GLuint text_vao, text_vbo;
    int text_vbo_capacity;
    void *text_scratch; // stb_easy_font output buffer
    size_t text_scratch_size;

    GLuint ground_vao, ground_vbo, ground_ebo;
    ground_mesh ground; // this frame's
    GLuint empty_vao;   // the sky's attribute-less triangle

    GLuint shadow_fbo, shadow_depth;
    int shadow_size;

    render_target msaa;
    int msaa_samples, msaa_width, msaa_height;
    render_target post;    // the post pass's source: the scene (render_options.fxaa, render_scale)
    render_target post_aa; // the scene anti-aliased at its own size, when it is then upscaled
    int max_samples;
    int auto_samples; // what RENDER_MSAA_AUTO means on this GL renderer
    bool default_fb_multisampled;
    bool software;          // a software rasteriser (llvmpipe, softpipe, SWR, SwiftShader)
    int default_depth_bits; // of the window's framebuffer

    // renderer_set_offscreen: the frame's final target instead of the window (fbo 0: the window).
    render_target offscreen;

    render_stats stats;
    bool profiling;                       // this frame measures its passes (render_options.profile_passes)
    GLuint pass_query[RENDER_PASS_COUNT]; // GL_SAMPLES_PASSED per pass, while profiling
    double pass_t0, pass_w0;              // process CPU and wall time at the current pass's start (unit: s)
};

// 0xRRGGBBAA to bytes r, g, b, a.
void render_rgba_bytes(uint32_t rgba, uint8_t out[4]);
// Adds a mesh; geometry (a ph_hull or ph_mesh address) marks it as cached world geometry, NULL as a user
// mesh. Returns the handle or -1.
int render_add_mesh_data(renderer *r, const mesh_data *data, const void *geometry);
// Sets the uniforms shared by the lit programs (mesh and grid).
void render_set_lit_uniforms(const renderer *r, const lit_uniforms *u, vec3s to_sun, float normal_offset);
void render_set_vec3(GLint location, vec3s v);
// Draws the ground (ground.c) as its cells: those in the shadow map's footprint with the shadowed grid
// program, the others with the plain one. Returns false when nothing was drawn.
void render_ground_create(renderer *r);
void render_ground_draw(renderer *r, const render_options *opts, vec3s to_sun, bool shadows,
                        float normal_offset);

// Pass accounting (render_stats.pass): begin and end bracket a pass's GL calls (while profiling they
// finish the GL and read the clock and the sample count); render_count_draw adds one draw call of
// triangles to the pass.
void render_pass_begin(renderer *r, render_pass pass);
void render_pass_end(renderer *r, render_pass pass);
void render_count_draw(renderer *r, render_pass pass, long long triangles);
// debug_draw.c and text.c helpers used by renderer.c.
void render_text_upload_and_draw(renderer *r);
// point_scale: the scene's pixels per frame pixel (render_options.render_scale), so points keep their size.
void render_lines_draw(renderer *r, bool xray, float point_scale);
