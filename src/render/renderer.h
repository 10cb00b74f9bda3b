// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The renderer's public surface for the game: one frame is begin_frame (camera), any number of
// submits (instances of meshes, debug lines, HUD text), then draw (shadow pass, lit instanced pass,
// ground grid, sky, debug lines, text). OpenGL 3.3 core through glad; never includes SDL and never
// handles events. The game owns the window and the GL context and makes the context current before
// any call here. Colours are 0xRRGGBBAA, sizes of the window are in drawable pixels, world units are
// metres. Pixel coordinates have their origin at the top-left corner, y down.
//
// A frame, as the game drives it:
//
//     gl_load(SDL_GL_GetProcAddress);                          // once, context current (render/gl.h)
//     renderer *r = renderer_create(SDL_GetBasePath(), err, sizeof err);
//     renderer_resize(r, drawable_w, drawable_h);              // and on every resize
//     render_options opts = renderer_default_options();
//     ...
//     renderer_begin_frame(r, &camera);
//     renderer_submit_world(r, world, 1.0f, body_pose_fn, ctx); // interpolated poses from the game
//     renderer_debug_world(r, world, &debug_flags);             // optional debug views
//     renderer_text(r, 10, 10, 2.0f, 0xffffffff, hud_text);
//     renderer_draw(r, &opts);
//     renderer_screenshot(r, "out.png", err, sizeof err);     // optional, before the swap
//     SDL_GL_SwapWindow(window);
//
// When the world is destroyed (scene reset or change), call renderer_forget_geometry(r).
#pragma once

#include "phys/phys.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t
#include <stdint.h>  // uint32_t, uint8_t

// Built-in mesh handles, valid after renderer_create. Each is a unit shape scaled per instance:
// BOX spans [-1, 1]^3 (scale = half extents), SPHERE has radius 1 (scale = radius), CYLINDER has
// radius 1 and spans y in [-1, 1] (scale = (radius, half_height, radius); a capsule is one cylinder
// plus two spheres, see renderer_submit_shape).
enum
{
    RENDER_MESH_BOX = 0,
    RENDER_MESH_SPHERE = 1,
    RENDER_MESH_CYLINDER = 2,
    RENDER_BUILTIN_MESH_COUNT = 3
};

// Instance flags.
enum
{
    RENDER_FLAG_SLEEPING = 1u << 0,  // tinted towards blue-grey (the sleeping-bodies view)
    RENDER_FLAG_HIGHLIGHT = 1u << 1, // brightened (picked / grabbed body)
    RENDER_FLAG_NO_SHADOW = 1u << 2, // does not cast a shadow
    RENDER_FLAG_GROUND = 1u << 3 // the ground body, whose top face is render_options.ground's plane (a floor
                                 // slab): drawn after the plane, whose depth then hides that face, so the
                                 // face is not shaded under the grid for nothing
};

// Most meshes the renderer holds (built-ins, world geometry and models together).
#define RENDER_MAX_MESHES 256

typedef struct renderer renderer;

// render_options.msaa_samples: let the renderer choose from the GL renderer (the default).
#define RENDER_MSAA_AUTO (-1)
// Smallest render_options.render_scale: below half the frame's width and height the upscaled scene blurs
// more than it saves (the shadow map and the full-size pass that upscales stay).
#define RENDER_SCALE_MIN 0.5f

// What to draw besides the submitted instances. Zero-initialised means: no shadows, no MSAA, no
// ground, no debug x-ray. Start from renderer_default_options() for the usual look.
typedef struct render_options
{
    bool shadows;        // sun shadow map with PCF
    bool ground;         // infinite-looking ground plane with a 1 m / 10 m grid at ground_height
    float ground_height; // (unit: m)
    bool ground_bounded; // the ground ends: the grid covers only ground_lo .. ground_hi in x and z
    float ground_lo[2];  // smallest x and z of the ground's top face (unit: m)
    float ground_hi[2];  // largest x and z (unit: m)
    bool sky;            // sky gradient behind everything (else clear_rgba)
    uint32_t clear_rgba; // background when sky is off
    int msaa_samples;    // 0 or 1: none; 2, 4, 8: multisampled off-screen target resolved to the window;
                         // RENDER_MSAA_AUTO: 4 on a GPU, none on a software rasteriser (llvmpipe), where
                         // 4x costs about as much as the rest of the frame
    bool fxaa;          // post-process anti-aliasing (shaders/fxaa.frag) where no MSAA is drawn: the software
                        // rasteriser's edges; the HUD text is drawn after it, sharp
    float render_scale; // the 3D passes (meshes, ground, sky, debug lines) are drawn at this share of the
                        // frame's width and height, then upscaled with bilinear filtering by the post pass
                        // (anti-aliased in the same pass with fxaa); the HUD text stays at full size. Clamped
                        // to [RENDER_SCALE_MIN, 1]; 0 means 1 (full size, no extra pass). Fill costs with the
                        // square of it: dynamic resolution for a software rasteriser
    bool debug_xray;    // debug lines also drawn faintly through geometry
    vec3s sun_direction; // direction the light travels (towards the ground), need not be unit
    int shadow_map_size; // texels per side at render_scale 1; 0 means 1024. The map's side shrinks with the
                         // render scale (rounded to 64 texels), so a shadow texel spans as many of the
                         // scene's pixels at any scale
    bool profile_passes; // measure each pass (render_stats.pass): the GL is made to finish after each one,
                         // which costs the overlap of CPU and GL work; for benchmarks, not for play
} render_options;

render_options renderer_default_options(void);

// The camera of one frame. view and proj are the usual right-handed OpenGL matrices (cglm
// glms_lookat / glms_perspective), proj's depth range [-1, 1].
typedef struct render_camera
{
    mat4s view;
    mat4s proj;
    vec3s eye; // world position of the camera (unit: m)
} render_camera;

// The passes of a frame, in drawing order (render_stats.pass).
typedef enum render_pass
{
    RENDER_PASS_SHADOW, // depth of the casters from the sun into the shadow map
    RENDER_PASS_MESHES, // the lit instances
    RENDER_PASS_GROUND, // the ground plane and its grid
    RENDER_PASS_SKY,    // the sky where nothing else was drawn
    RENDER_PASS_LINES,  // debug lines and points
    RENDER_PASS_POST,   // the MSAA resolve, the FXAA pass or the upscale (render_scale) into the final target
    RENDER_PASS_TEXT,   // HUD text and panels
    RENDER_PASS_COUNT
} render_pass;

// The pass's name for reports ("shadow", "meshes", ...); "" for a bad index.
const char *renderer_pass_name(int pass);

// What one pass cost: draw calls and triangles always; samples and ms_cpu with
// render_options.profile_passes (zero otherwise). All zero for a pass not drawn.
typedef struct render_pass_stats
{
    int draw_calls;
    long long triangles; // submitted to the GL (before culling and clipping)
    long long samples;   // fragments that passed the depth test (GL_SAMPLES_PASSED): the shaded ones
    float ms_cpu;        // CPU time of the whole process, the GL's threads included, from the pass's first GL
                         // call until the GL finished it (unit: ms): a software rasteriser's cost
    float ms_wall;       // wall-clock time of the same span (unit: ms): a GPU's cost
} render_pass_stats;

// Frame statistics of the last renderer_draw.
typedef struct render_stats
{
    int instances;            // submitted this frame
    int draw_calls;           // all passes together
    int debug_vertices;       // line and point vertices
    long long triangles;      // submitted to the GL, all passes together
    bool shadow_pass_skipped; // the casters and the light did not change, the last shadow map was reused
    int shadow_map_size;      // texels per side of the shadow map used (0: no shadows drawn)
    float render_scale;       // the scale the 3D passes were drawn at (render_options.render_scale as used: 1
                              // when the smaller target could not be made)
    int scene_width, scene_height; // their size (unit: px)
    float ms_cpu; // CPU time of the renderer_draw call (sorting, uploads, GL calls; the driver may
                  // finish the work later, at the buffer swap) (unit: ms)
    render_pass_stats pass[RENDER_PASS_COUNT]; // per pass, with render_options.profile_passes
} render_stats;

// Creates the renderer: loads and compiles every program from shaders/ (looked up under base_path,
// then under the source tree), builds the built-in meshes and GL objects. The GL 3.3 core context must
// be current and gl_load() must have succeeded. base_path is the executable's folder (SDL_GetBasePath),
// may be NULL. Returns NULL and writes a message such as "shaders/mesh.frag:12: error: ..." to err.
// The window needs no multisampling and no particular depth buffer: MSAA and a 24-bit depth buffer come
// from the renderer's own off-screen target when the window's framebuffer lacks them. Vsync, the sRGB
// attribute and the swap stay with the game (the output is already sRGB-encoded: leave
// GL_FRAMEBUFFER_SRGB disabled).
renderer *renderer_create(const char *base_path, char *err, size_t err_size);
void renderer_destroy(renderer *r);

// The drawable size in pixels (SDL_GL_GetDrawableSize), > 0; call on every resize. Ignored while an
// off-screen target is set (renderer_set_offscreen).
void renderer_resize(renderer *r, int width, int height);
// Draws every later frame into a target of width x height pixels that the renderer owns, instead of the
// window, and reads frames back from it (renderer_read_rgb, renderer_screenshot). Video recording uses it:
// the frames' size then depends on neither the window's size nor its pixel density, and no pixel of
// them can be lost to another window covering this one. Width or height <= 0 goes back to the window
// (call renderer_resize with the drawable size then). Returns false, drawing into the window as before,
// when the target cannot be made.
bool renderer_set_offscreen(renderer *r, int width, int height);

// Starts a frame: clears the instance, debug and text lists and sets the camera. Also polls the
// shader files about once a second and reloads those that changed (see renderer_shader_error).
void renderer_begin_frame(renderer *r, const render_camera *camera);

// Adds one instance of mesh (a built-in or a renderer_add_mesh* handle) at a position and orientation
// (normalised here) with a per-axis scale of the mesh (sizes: the sign is ignored). Alpha is ignored:
// instances are opaque. Returns false for a bad handle, a NaN or infinite input, or when the per-frame
// instance capacity could not grow (the instance is dropped).
bool renderer_submit(renderer *r, int mesh, vec3s position, versors orientation, vec3s scale, uint32_t rgba,
                     uint32_t flags);

// Adds the instances that draw a physics shape under transform xf: box, sphere, capsule directly;
// hull, compound (one instance per child) and static mesh through a GPU mesh built from the world's
// geometry the first time it is seen and cached by geometry id. world may be NULL for primitives.
// Returns false when the shape cannot be drawn (stale geometry id, capacity).
bool renderer_submit_shape(renderer *r, const ph_world *world, ph_shape shape, ph_transform xf, uint32_t rgba,
                           uint32_t flags);

// The game's view of one body for renderer_submit_world: fill *out_xf (the interpolated pose), *rgba and
// *flags, and return true to draw it, false to skip it (for example the ground body when the grid is
// drawn instead). The defaults passed in are the body's current pose, a colour from its id and
// RENDER_FLAG_SLEEPING when it sleeps.
typedef bool render_body_fn(ph_body_id body, ph_transform *out_xf, uint32_t *rgba, uint32_t *flags,
                            void *ctx);

// Submits every body in the camera's frustum, found through the engine's octree
// (ph_world_query_frustum), padded by margin (unit: m) so an interpolated pose that trails the
// current bounds is still drawn. fn may be NULL (current poses, default colours). Returns the number of
// bodies submitted.
int renderer_submit_world(renderer *r, const ph_world *world, float margin, render_body_fn *fn, void *ctx);

// A user mesh (a model's render mesh): vertex_count positions (xyz) and normals (xyz, may be NULL for
// flat normals computed per triangle, which then unshares the vertices), index_count indices (a
// multiple of 3, each < vertex_count). Returns a mesh handle >= RENDER_BUILTIN_MESH_COUNT, or -1 on
// invalid input or when RENDER_MAX_MESHES are in use.
int renderer_add_mesh(renderer *r, const float *positions, const float *normals, int vertex_count,
                      const uint32_t *indices, int index_count);
// The same with per-vertex colours (linear RGB in [0, 1], 3 floats per vertex, e.g. model_mesh.colors)
// that multiply the instance colour; colors NULL is white.
int renderer_add_mesh_colored(renderer *r, const float *positions, const float *normals, const float *colors,
                              int vertex_count, const uint32_t *indices, int index_count);
// Frees a user mesh (a handle from renderer_add_mesh*); built-in handles and bad handles are ignored.
void renderer_remove_mesh(renderer *r, int mesh);
// Frees the GPU meshes built from world geometry (hulls, static meshes) by renderer_submit_shape. The
// cache is keyed by the geometry's address, so call this whenever the world is destroyed (scene reset or
// change) before a new world is drawn.
void renderer_forget_geometry(renderer *r);

// Draws the frame into the window's framebuffer (or the MSAA target, then resolved): shadow pass, lit
// instanced pass (one draw call per mesh), ground grid, sky, debug lines and points, then text.
void renderer_draw(renderer *r, const render_options *opts);

const render_stats *renderer_get_stats(const renderer *r);

// The message of the last failed shader reload ("shaders/mesh.frag:12: error: ..."), or "" when the
// programs in use match the files on disk. The last good program stays in use while this is set.
const char *renderer_shader_error(const renderer *r);
// Checks the shader files now (not waiting for the once-a-second poll); true when one was reloaded.
bool renderer_reload_shaders(renderer *r);

// ---- Debug lines and points (world space, drawn after the 3D pass) -----------------------------------

void renderer_line(renderer *r, vec3s a, vec3s b, uint32_t rgba);
void renderer_point(renderer *r, vec3s p, float size_px, uint32_t rgba);
// Collects the engine's debug views (contacts, bounds, octree, calendar events as chosen in the flags
// of dd; its callbacks and context are filled in here) into this frame's lines and points.
void renderer_debug_world(renderer *r, const ph_world *world, const ph_debug_draw *flags);
// Draws the GJK simplex and the EPA polytope of the pair (a, b) in place: Minkowski space (B - A) is
// drawn with its origin at the midpoint of the two witness points, with the origin marked by a small
// cross, and the witness points joined by a segment. Returns the trace's status (PH_OK when drawn).
ph_status renderer_debug_pair(renderer *r, const ph_world *world, ph_body_id a, ph_body_id b,
                              ph_pair_trace *out_trace);

// ---- HUD text (pixels, top-left origin; drawn last, over everything) ---------------------------------

// Draws text with stb_easy_font at pixel (x, y), scale 1 = about 7 pixels per capital letter height;
// '\n' starts a new line.
void renderer_text(renderer *r, float x, float y, float scale, uint32_t rgba, const char *text);
// Text anchored at a world point (labels such as a calendar event's time in the frame): drawn at the
// point's pixel, offset by (dx, dy) pixels; nothing when the point is behind the camera.
void renderer_text_world(renderer *r, vec3s world_point, float dx, float dy, float scale, uint32_t rgba,
                         const char *text);
// Width and height in pixels that renderer_text would use for text at scale.
float renderer_text_width(const char *text, float scale);
float renderer_text_height(const char *text, float scale);
// A filled rectangle behind text (panels), drawn in submission order with the text.
void renderer_rect(renderer *r, float x, float y, float w, float h, uint32_t rgba);

// ---- Readback and test hooks ---------------------------------------------------------------------------

// Writes the window's framebuffer (or the off-screen target) as drawn by the last renderer_draw (call
// before swapping buffers) to a PNG. Returns false with a message in err.
bool renderer_screenshot(renderer *r, const char *png_path, char *err, size_t err_size);
// Reads the framebuffer as tightly packed RGB, top row first (for video frames). out must hold
// width * height * 3 bytes; returns false when out_size is too small.
bool renderer_read_rgb(renderer *r, uint8_t *out, size_t out_size);
// Whether the GL renderer rasterises in software (Mesa's llvmpipe, softpipe, SWR; Google's SwiftShader): no
// MSAA by default there, and a full-screen pass costs as much as the scene's geometry.
bool renderer_is_software(const renderer *r);
// Waits until the GL has drawn everything asked of it so far (glFinish): what a frame cost, measured apart
// from presenting it (the swap may also wait for the display's refresh).
void renderer_finish(renderer *r);
void renderer_get_size(const renderer *r, int *out_width, int *out_height);

// Projects a world point with this frame's camera to pixel coordinates (top-left origin, y down).
// Returns false when the point is behind the camera or outside the depth range.
bool renderer_project(const renderer *r, vec3s world_point, float *out_x, float *out_y);
// The world ray through pixel (x, y): origin at the near plane, unit direction.
void renderer_pixel_ray(const renderer *r, float x, float y, vec3s *out_origin, vec3s *out_dir);
// The six frustum planes of this frame's camera, (a, b, c, d) with a x + b y + c z + d >= 0 inside and
// (a, b, c) unit, in the form ph_world_query_frustum takes.
void renderer_frustum_planes(const renderer *r, ph_vec4 out_planes[6]);
