// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Tests of the renderer. Without GL: the built-in and hull meshes are closed and wound outwards with
// unit normals, user arrays are validated. With GL (an SDL window on Mesa's software rasteriser, no
// display needed): shader errors name file and line, hot reload keeps the last good program, the camera
// helpers agree with each other (projection, pixel rays, frustum planes against a brute-force test),
// and whole frames put boxes, shadows, sky, text and user meshes where the maths says.
#define _POSIX_C_SOURCE 200809L // mkdtemp, utimensat, setenv

#include "render/gl.h"
#include "render/gpu_mesh.h"
#include "render/renderer.h"
#include "render/shader.h"
#include "test.h"
#include "test_render_gl.h"

#include "phys/collision.h"

#include <SDL2/SDL.h> // window and GL context for the GL cases (tests may use SDL; render does not)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h> // stbi_load: reads the screenshot back
#pragma GCC diagnostic pop

#include <fcntl.h>    // AT_FDCWD
#include <stdio.h>    // fopen, snprintf
#include <stdlib.h>   // malloc, free, mkdtemp, setenv
#include <string.h>   // strstr, memcmp
#include <sys/stat.h> // utimensat, mkdir
#include <unistd.h>   // rmdir, unlink

// Window of the GL cases (unit: px): small keeps llvmpipe fast under sanitizers.
#define TEST_WIDTH TEST_GL_WIDTH
#define TEST_HEIGHT TEST_GL_HEIGHT
// Tolerances.
#define NORMAL_TOL 1e-4f   // unit length and agreement of normals
#define PIXEL_TOL 0.02f    // projection round trips (unit: px)
#define PLANE_MARGIN 1e-3f // points this close to a frustum plane are not classified (unit: m)

// ---- Meshes without GL ---------------------------------------------------------------------------------

static vec3s vertex_pos(const mesh_data *m, uint32_t i)
{
    const float *p = m->vertices[i].position;
    return (vec3s){{p[0], p[1], p[2]}};
}

static vec3s vertex_normal(const mesh_data *m, uint32_t i)
{
    const float *n = m->vertices[i].normal;
    return (vec3s){{n[0], n[1], n[2]}};
}

// Every triangle of a convex mesh around inside (a point inside) faces away from inside, and the vertex
// normals are unit. When flat, the vertex normals equal the triangle's normal. Returns 0 when all hold.
static int check_convex_mesh(const mesh_data *m, vec3s inside, bool flat)
{
    ENSURE(m->vertex_count > 0 && m->index_count > 0 && m->index_count % 3 == 0);
    for (int i = 0; i < m->vertex_count; i++)
        ENSURE_NEAR(glms_vec3_norm(vertex_normal(m, (uint32_t)i)), 1.0f, NORMAL_TOL);
    int proper = 0;
    for (int t = 0; t < m->index_count; t += 3)
    {
        uint32_t ia = m->indices[t], ib = m->indices[t + 1], ic = m->indices[t + 2];
        ENSURE(ia < (uint32_t)m->vertex_count && ib < (uint32_t)m->vertex_count &&
               ic < (uint32_t)m->vertex_count);
        vec3s a = vertex_pos(m, ia), b = vertex_pos(m, ib), c = vertex_pos(m, ic);
        vec3s n = glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a));
        float len = glms_vec3_norm(n);
        if (len < 1e-8f)
            continue; // a sphere's pole triangles have no area
        proper++;
        n = glms_vec3_scale(n, 1.0f / len);
        vec3s centroid = glms_vec3_scale(glms_vec3_add(a, glms_vec3_add(b, c)), 1.0f / 3.0f);
        ENSURE(glms_vec3_dot(n, glms_vec3_sub(centroid, inside)) > 0.0f);
        // Smooth normals still point to the same side as the face.
        ENSURE(glms_vec3_dot(n, vertex_normal(m, ia)) > 0.0f);
        if (flat)
            ENSURE_VEC3_NEAR(vertex_normal(m, ia), n, 1e-3f);
    }
    ENSURE(proper > 0);
    return 0;
}

static int mesh_box_closed_outward(void)
{
    mesh_data m;
    ENSURE(mesh_data_box(&m));
    ENSURE(m.vertex_count == 24 && m.index_count == 36);
    int rc = check_convex_mesh(&m, glms_vec3_zero(), true);
    for (int i = 0; i < m.vertex_count && rc == 0; i++)
    {
        vec3s p = vertex_pos(&m, (uint32_t)i);
        float inf = fmaxf(fabsf(p.x), fmaxf(fabsf(p.y), fabsf(p.z)));
        if (fabsf(inf - 1.0f) > 1e-6f)
            rc = 1;
    }
    mesh_data_free(&m);
    ENSURE(rc == 0);
    return 0;
}

static int mesh_sphere_unit_outward(void)
{
    mesh_data m;
    ENSURE(mesh_data_sphere(&m, 24, 16));
    int rc = check_convex_mesh(&m, glms_vec3_zero(), false);
    for (int i = 0; i < m.vertex_count && rc == 0; i++)
        if (fabsf(glms_vec3_norm(vertex_pos(&m, (uint32_t)i)) - 1.0f) > 1e-5f)
            rc = 1;
    mesh_data_free(&m);
    ENSURE(rc == 0);
    ENSURE(!mesh_data_sphere(&m, 2, 16)); // too few slices is refused
    return 0;
}

static int mesh_cylinder_outward(void)
{
    mesh_data m;
    ENSURE(mesh_data_cylinder(&m, 24));
    int rc = check_convex_mesh(&m, glms_vec3_zero(), false);
    for (int i = 0; i < m.vertex_count && rc == 0; i++)
    {
        vec3s p = vertex_pos(&m, (uint32_t)i);
        if (fabsf(p.y) > 1.0f + 1e-6f || p.x * p.x + p.z * p.z > 1.0f + 1e-5f)
            rc = 1;
    }
    mesh_data_free(&m);
    ENSURE(rc == 0);
    return 0;
}

// Hull meshes from random point clouds: flat, outward, and every hull vertex appears.
static int mesh_hull_matches_faces(void)
{
    uint64_t rng = test_seed();
    for (int trial = 0; trial < 20; trial++)
    {
        ph_vec3 points[40];
        int count = 8 + (int)(test_rand_u64(&rng) % 32);
        for (int i = 0; i < count; i++)
            points[i] = test_rand_vec3(&rng, -1.0f, 1.0f);
        ph_hull_def def = ph_default_hull_def();
        def.points = points;
        def.point_count = count;
        ph_status status = PH_OK;
        ph_hull *hull = ph_hull_build(&def, &status);
        ENSURE(hull != NULL);
        mesh_data m;
        bool built = mesh_data_hull(&m, hull);
        int rc = built ? check_convex_mesh(&m, hull->centroid, true) : 1;
        for (int v = 0; v < hull->vertex_count && rc == 0; v++)
        {
            bool found = false;
            for (int i = 0; i < m.vertex_count && !found; i++)
                found = glms_vec3_distance(vertex_pos(&m, (uint32_t)i), hull->vertices[v]) == 0.0f;
            rc = found ? 0 : 1;
        }
        if (built)
            mesh_data_free(&m);
        ph_hull_free(hull);
        ENSURE(rc == 0);
    }
    return 0;
}

static int mesh_arrays_validated(void)
{
    const float positions[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const float colors[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 2, -1, 0.5f};
    const uint32_t tet[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    mesh_data m;
    ENSURE(mesh_data_from_arrays(&m, positions, NULL, colors, 4, tet, 12));
    ENSURE(m.vertex_count == 12); // flat normals unshare the corners
    vec3s inside = {{0.2f, 0.2f, 0.2f}};
    int rc = check_convex_mesh(&m, inside, true);
    // Vertex 3's colour (2, -1, 0.5) is clamped to bytes (255, 0, 128); it is the third corner of
    // triangle 1 (index 5 after unsharing).
    bool colour_ok =
        m.vertices[5].color[0] == 255 && m.vertices[5].color[1] == 0 && m.vertices[5].color[2] == 128;
    mesh_data_free(&m);
    ENSURE(rc == 0);
    ENSURE(colour_ok);

    const uint32_t out_of_range[3] = {0, 1, 4};
    ENSURE(!mesh_data_from_arrays(&m, positions, NULL, NULL, 4, out_of_range, 3));
    ENSURE(!mesh_data_from_arrays(&m, positions, NULL, NULL, 4, tet, 11)); // not whole triangles
    float bad[12];
    memcpy(bad, positions, sizeof bad);
    bad[4] = NAN;
    ENSURE(!mesh_data_from_arrays(&m, bad, NULL, NULL, 4, tet, 12));
    ENSURE(!mesh_data_from_arrays(&m, NULL, NULL, NULL, 4, tet, 12));
    ENSURE(!mesh_data_from_arrays(&m, positions, NULL, NULL, 0, tet, 12));
    return 0;
}

// ---- GL context shared by the GL cases ------------------------------------------------------------------

static SDL_Window *window;
static SDL_GLContext context;
static renderer *shared_renderer;

// Frees the renderer (its leaks would be ours). The context and SDL stay up to the process exit: SDL_Quit
// would unload Mesa, and LeakSanitizer could then no longer name (and the suppressions no longer match)
// the driver's own one-time allocations.
static void close_gl(void)
{
    renderer_destroy(shared_renderer);
    shared_renderer = NULL;
}

// Opens the window and context once; prints why when it cannot (the GL cases then fail).
static bool open_gl(void)
{
    static int state; // 0 untried, 1 ready, -1 failed
    if (state)
        return state > 0;
    state = -1;
    if (!getenv("SDL_VIDEODRIVER") && !getenv("DISPLAY"))
        setenv("SDL_VIDEODRIVER", "offscreen", 1);
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
    {
        fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
        return false;
    }
    atexit(close_gl);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    window = SDL_CreateWindow("render_tests", 0, 0, TEST_WIDTH, TEST_HEIGHT,
                              SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    context = window ? SDL_GL_CreateContext(window) : NULL;
    if (!context)
    {
        fprintf(stderr, "no GL 3.3 core context: %s\n", SDL_GetError());
        return false;
    }
    if (!gl_load(SDL_GL_GetProcAddress))
    {
        fprintf(stderr, "gl_load failed\n");
        return false;
    }
    state = 1;
    return true;
}

renderer *test_gl_renderer(void)
{
    if (!open_gl())
        return NULL;
    if (!shared_renderer)
    {
        char err[SHADER_ERROR_MAX];
        shared_renderer = renderer_create(NULL, err, sizeof err);
        if (!shared_renderer)
            fprintf(stderr, "renderer_create: %s\n", err);
        else
            renderer_resize(shared_renderer, TEST_WIDTH, TEST_HEIGHT);
    }
    return shared_renderer;
}

render_camera test_gl_camera(vec3s eye, vec3s target)
{
    render_camera c;
    c.eye = eye;
    c.view = glms_lookat(eye, target, (vec3s){{0.0f, 1.0f, 0.0f}});
    c.proj = glms_perspective(glm_rad(50.0f), (float)TEST_WIDTH / (float)TEST_HEIGHT, 0.1f, 200.0f);
    return c;
}

// The frame as RGB, top row first.
static uint8_t frame[TEST_WIDTH * TEST_HEIGHT * 3];

bool test_gl_read_frame(renderer *r)
{
    return renderer_read_rgb(r, frame, sizeof frame);
}

static vec3s pixel_at(int x, int y)
{
    x = x < 0 ? 0 : (x >= TEST_WIDTH ? TEST_WIDTH - 1 : x);
    y = y < 0 ? 0 : (y >= TEST_HEIGHT ? TEST_HEIGHT - 1 : y);
    const uint8_t *p = &frame[((size_t)y * TEST_WIDTH + (size_t)x) * 3];
    return (vec3s){{(float)p[0], (float)p[1], (float)p[2]}};
}

// The colour at a world point's pixel; false when it projects outside the window.
bool test_gl_sample_world(const renderer *r, vec3s p, vec3s *out)
{
    float x, y;
    if (!renderer_project(r, p, &x, &y) || x < 0.0f || y < 0.0f || x >= TEST_WIDTH || y >= TEST_HEIGHT)
        return false;
    *out = pixel_at((int)x, (int)y);
    return true;
}

static float luminance(vec3s c)
{
    return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

// The standard test scene: camera looking slightly down at a box on the ground, sun at 45 degrees from
// -x, so the box's shadow falls towards +x.
static const vec3s SCENE_EYE = {{0.0f, 3.0f, 8.0f}};
static const vec3s SCENE_TARGET = {{0.0f, 0.5f, 0.0f}};

static render_options scene_options(void)
{
    render_options o = renderer_default_options();
    o.sun_direction = (vec3s){{1.0f, -1.0f, 0.0f}};
    o.msaa_samples = 0;
    o.fxaa = false; // the pixel checks below read exact colours at edges; frame_fxaa_smooths_edges tests it
    return o;
}

// ---- GL cases --------------------------------------------------------------------------------------------

static int shader_errors_name_file_and_line(void)
{
    ENSURE(open_gl());
    const char *vs = "#version 330 core\nvoid main()\n{\n    gl_Position = vec4(0.0);\n}\n";
    const char *fs = "#version 330 core\nout vec4 c;\nvoid main()\n{\n    c = vec4(undefined_name);\n}\n";
    char err[SHADER_ERROR_MAX];
    GLuint p = shader_compile(vs, fs, "shaders/test.vert", "shaders/test.frag", err, sizeof err);
    ENSURE(p == 0);
    if (!strstr(err, "shaders/test.frag:5: "))
    {
        fprintf(stderr, "error text: %s\n", err);
        ENSURE(!"the message names shaders/test.frag line 5");
    }
    ENSURE(strstr(err, "undefined_name") != NULL);
    const char *good_fs = "#version 330 core\nout vec4 c;\nvoid main()\n{\n    c = vec4(1.0);\n}\n";
    p = shader_compile(vs, good_fs, "v", "f", err, sizeof err);
    ENSURE(p != 0);
    ENSURE(err[0] == '\0');
    glDeleteProgram(p);
    ENSURE(shader_load("/nonexistent/a.vert", "/nonexistent/a.frag", err, sizeof err) == 0);
    ENSURE(strstr(err, "/nonexistent/a.vert") != NULL);
    ENSURE(gl_check("shader test"));
    return 0;
}

static bool write_text(const char *path, const char *text, long mtime_s)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fputs(text, f) >= 0;
    ok = fclose(f) == 0 && ok;
    // Distinct, explicit modification times, so the reload does not depend on the clock's resolution.
    struct timespec times[2] = {{mtime_s, 0}, {mtime_s, 0}};
    return ok && utimensat(AT_FDCWD, path, times, 0) == 0;
}

static int shader_hot_reload_keeps_last_good(void)
{
    ENSURE(open_gl());
    char dir[] = "/tmp/render_tests_XXXXXX";
    ENSURE(mkdtemp(dir) != NULL);
    char shaders[256], vs_path[300], fs_path[300];
    snprintf(shaders, sizeof shaders, "%s/shaders", dir);
    ENSURE(mkdir(shaders, 0700) == 0);
    snprintf(vs_path, sizeof vs_path, "%s/t.vert", shaders);
    snprintf(fs_path, sizeof fs_path, "%s/t.frag", shaders);
    const char *vs = "#version 330 core\nvoid main()\n{\n    gl_Position = vec4(0.0);\n}\n";
    const char *fs1 = "#version 330 core\nout vec4 c;\nvoid main()\n{\n    c = vec4(1.0);\n}\n";
    const char *broken = "#version 330 core\nout vec4 c;\nvoid main()\n{\n    c = vec4(1.0)\n}\n";
    const char *fs2 =
        "#version 330 core\nout vec4 c;\nuniform float u_new;\nvoid main()\n{\n    c = vec4(u_new);\n}\n";
    int rc = 0;
    shader_program p;
    char err[SHADER_ERROR_MAX];
    if (!write_text(vs_path, vs, 1000) || !write_text(fs_path, fs1, 1000) ||
        !shader_program_load(&p, dir, "t", err, sizeof err))
    {
        fprintf(stderr, "load: %s\n", err);
        rc = 1;
    }
    GLuint first = rc == 0 ? p.id : 0;
    if (rc == 0 && shader_program_poll(&p, err, sizeof err) != 0)
        rc = 2; // nothing changed yet
    if (rc == 0 && (!write_text(fs_path, broken, 2000) || shader_program_poll(&p, err, sizeof err) != -1 ||
                    p.id != first || !strstr(err, "t.frag:")))
        rc = 3; // the broken file is reported and the last good program stays
    if (rc == 0 && shader_program_poll(&p, err, sizeof err) != 0)
        rc = 4; // the broken file is tried once per save, not once per poll
    if (rc == 0 && (!write_text(fs_path, fs2, 3000) || shader_program_poll(&p, err, sizeof err) != 1 ||
                    p.id == first || glGetUniformLocation(p.id, "u_new") < 0))
        rc = 5; // the fixed file replaces the program
    shader_program_free(&p);
    unlink(vs_path);
    unlink(fs_path);
    rmdir(shaders);
    rmdir(dir);
    if (rc)
        fprintf(stderr, "hot reload step %d failed: %s\n", rc, err);
    ENSURE(rc == 0);
    ENSURE(gl_check("hot reload test"));
    return 0;
}

// renderer_project, renderer_pixel_ray and renderer_frustum_planes describe the same camera.
static int camera_helpers_agree(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    render_camera cam = test_gl_camera((vec3s){{3.0f, 4.0f, 9.0f}}, (vec3s){{-1.0f, 0.5f, 0.0f}});
    renderer_begin_frame(r, &cam);
    ph_vec4 planes[6];
    renderer_frustum_planes(r, planes);
    uint64_t rng = test_seed();
    int inside = 0, outside = 0;
    for (int i = 0; i < 2000; i++)
    {
        vec3s p = test_rand_vec3(&rng, -30.0f, 30.0f);
        bool by_planes = true, near_plane = false;
        for (int k = 0; k < 6; k++)
        {
            ENSURE_NEAR(glms_vec3_norm((vec3s){{planes[k].x, planes[k].y, planes[k].z}}), 1.0f, NORMAL_TOL);
            float d = planes[k].x * p.x + planes[k].y * p.y + planes[k].z * p.z + planes[k].w;
            by_planes = by_planes && d >= 0.0f;
            near_plane = near_plane || fabsf(d) < PLANE_MARGIN;
        }
        if (near_plane)
            continue;
        float x, y;
        bool by_projection =
            renderer_project(r, p, &x, &y) && x >= 0.0f && x <= TEST_WIDTH && y >= 0.0f && y <= TEST_HEIGHT;
        ENSURE(by_planes == by_projection);
        if (by_planes)
        {
            inside++;
            vec3s origin, dir;
            renderer_pixel_ray(r, x, y, &origin, &dir);
            ENSURE_NEAR(glms_vec3_norm(dir), 1.0f, NORMAL_TOL);
            // p lies on the ray through its own pixel: its distance from the ray line is tiny.
            vec3s op = glms_vec3_sub(p, origin);
            vec3s off = glms_vec3_sub(op, glms_vec3_scale(dir, glms_vec3_dot(op, dir)));
            ENSURE(glms_vec3_dot(op, dir) > 0.0f);
            ENSURE_NEAR(glms_vec3_norm(off) / glms_vec3_norm(op), 0.0f, 1e-4f);
        }
        else
        {
            outside++;
        }
    }
    ENSURE(inside > 50 && outside > 50); // both sides were exercised
    // A point straight behind the camera does not project.
    vec3s behind = glms_vec3_add(cam.eye, glms_vec3_sub(cam.eye, (vec3s){{-1.0f, 0.5f, 0.0f}}));
    ENSURE(!renderer_project(r, behind, NULL, NULL));
    return 0;
}

// Draws the standard scene with one box (colour rgba, flags) and reads it back.
static int draw_box_scene(renderer *r, const render_options *o, uint32_t rgba, uint32_t flags)
{
    render_camera cam = test_gl_camera(SCENE_EYE, SCENE_TARGET);
    renderer_begin_frame(r, &cam);
    ENSURE(renderer_submit(r, RENDER_MESH_BOX, (vec3s){{0.0f, 0.5f, 0.0f}}, glms_quat_identity(),
                           (vec3s){{0.5f, 0.5f, 0.5f}}, rgba, flags));
    renderer_draw(r, o);
    ENSURE(test_gl_read_frame(r));
    return 0;
}

static int frame_box_sky_ground_and_shadow(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    int errors = gl_error_count();
    render_options o = scene_options();
    ENSURE(draw_box_scene(r, &o, 0xd02020ff, 0) == 0);
    ENSURE(renderer_get_stats(r)->instances == 1);

    // The box's front face, where the physics puts it, is red.
    vec3s box;
    ENSURE(test_gl_sample_world(r, (vec3s){{0.0f, 0.5f, 0.5f}}, &box));
    ENSURE(box.x > 1.5f * box.y && box.x > 1.5f * box.z && box.x > 60.0f);
    // The top row shows sky: blue dominates.
    vec3s sky = pixel_at(TEST_WIDTH / 2, 2);
    ENSURE(sky.z > sky.x && sky.z > 100.0f);
    // Ground in the box's shadow (towards +x) is darker than open ground at the same distance.
    vec3s shade, open;
    ENSURE(test_gl_sample_world(r, (vec3s){{1.25f, 0.0f, 0.25f}}, &shade));
    ENSURE(test_gl_sample_world(r, (vec3s){{-1.75f, 0.0f, 0.25f}}, &open));
    if (!(luminance(shade) < 0.7f * luminance(open)))
    {
        fprintf(stderr, "shadow %.0f vs open ground %.0f\n", (double)luminance(shade),
                (double)luminance(open));
        ENSURE(!"the shadow is darker");
    }
    // The same casters again: the shadow pass is skipped and the picture is the same. A moved box
    // draws it again.
    static uint8_t first[sizeof frame];
    memcpy(first, frame, sizeof frame);
    ENSURE(!renderer_get_stats(r)->shadow_pass_skipped);
    ENSURE(draw_box_scene(r, &o, 0xd02020ff, 0) == 0);
    ENSURE(renderer_get_stats(r)->shadow_pass_skipped);
    ENSURE(memcmp(first, frame, sizeof frame) == 0);
    render_camera cam = test_gl_camera(SCENE_EYE, SCENE_TARGET);
    renderer_begin_frame(r, &cam);
    ENSURE(renderer_submit(r, RENDER_MESH_BOX, (vec3s){{0.0f, 0.5f, 0.1f}}, glms_quat_identity(),
                           (vec3s){{0.5f, 0.5f, 0.5f}}, 0xd02020ff, 0));
    renderer_draw(r, &o);
    ENSURE(!renderer_get_stats(r)->shadow_pass_skipped);
    // Without shadows that ground is lit like the rest.
    o.shadows = false;
    ENSURE(draw_box_scene(r, &o, 0xd02020ff, 0) == 0);
    ENSURE(test_gl_sample_world(r, (vec3s){{1.25f, 0.0f, 0.25f}}, &shade));
    ENSURE(luminance(shade) > 0.85f * luminance(open));
    // A box flagged as casting no shadow leaves the ground lit.
    o.shadows = true;
    ENSURE(draw_box_scene(r, &o, 0xd02020ff, RENDER_FLAG_NO_SHADOW) == 0);
    ENSURE(test_gl_sample_world(r, (vec3s){{1.25f, 0.0f, 0.25f}}, &shade));
    ENSURE(luminance(shade) > 0.85f * luminance(open));
    ENSURE(gl_error_count() == errors);
    return 0;
}

static int frame_msaa_and_ground_off(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    int errors = gl_error_count();
    render_options o = scene_options();
    o.msaa_samples = 4;
    ENSURE(draw_box_scene(r, &o, 0x20d020ff, 0) == 0);
    vec3s box;
    ENSURE(test_gl_sample_world(r, (vec3s){{0.0f, 0.5f, 0.5f}}, &box));
    ENSURE(box.y > 1.5f * box.x && box.y > 1.5f * box.z);
    // No sky and no ground: the clear colour everywhere but the box.
    o.sky = false;
    o.ground = false;
    o.clear_rgba = 0x102030ffu;
    ENSURE(draw_box_scene(r, &o, 0x20d020ff, 0) == 0);
    vec3s corner = pixel_at(3, TEST_HEIGHT - 3);
    ENSURE_VEC3_NEAR(corner, ((vec3s){{16.0f, 32.0f, 48.0f}}), 1.0f);
    ENSURE(gl_error_count() == errors);
    return 0;
}

// Many boxes submitted in a shuffled order, several meshes interleaved: each box shows its own colour
// (the per-mesh sort loses and mixes up no instance).
static int frame_instances_keep_their_colours(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    render_options o = scene_options();
    o.shadows = false;
    static const uint32_t palette[6] = {0xff0000ff, 0x00ff00ff, 0x0000ffff,
                                        0xffff00ff, 0xff00ffff, 0x00ffffff};
    enum
    {
        GRID = 5,
        COUNT = GRID * GRID
    };
    int order[COUNT];
    for (int i = 0; i < COUNT; i++)
        order[i] = i;
    uint64_t rng = test_seed();
    for (int i = COUNT - 1; i > 0; i--)
    {
        int j = (int)(test_rand_u64(&rng) % (uint64_t)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    // Top-down camera over a 5 x 5 grid of boxes 2 m apart.
    render_camera cam = test_gl_camera((vec3s){{0.0f, 16.0f, 0.01f}}, glms_vec3_zero());
    renderer_begin_frame(r, &cam);
    for (int k = 0; k < COUNT; k++)
    {
        int i = order[k];
        vec3s p = {{(float)(i % GRID - GRID / 2) * 2.0f, 0.5f, (float)(i / GRID - GRID / 2) * 2.0f}};
        // Every third box is a sphere, so two meshes' ranges interleave in the submission.
        int mesh = i % 3 == 0 ? RENDER_MESH_SPHERE : RENDER_MESH_BOX;
        ENSURE(renderer_submit(r, mesh, p, glms_quat_identity(), (vec3s){{0.5f, 0.5f, 0.5f}}, palette[i % 6],
                               0));
    }
    renderer_draw(r, &o);
    ENSURE(test_gl_read_frame(r));
    for (int i = 0; i < COUNT; i++)
    {
        vec3s top = {{(float)(i % GRID - GRID / 2) * 2.0f, 1.0f, (float)(i / GRID - GRID / 2) * 2.0f}};
        vec3s c;
        ENSURE(test_gl_sample_world(r, top, &c));
        uint8_t want[4] = {(uint8_t)(palette[i % 6] >> 24), (uint8_t)(palette[i % 6] >> 16),
                           (uint8_t)(palette[i % 6] >> 8), 0};
        // Channels that are on in the palette colour are bright, the others dark.
        for (int ch = 0; ch < 3; ch++)
        {
            float v = c.raw[ch];
            if (want[ch] ? !(v > 120.0f) : !(v < 90.0f))
            {
                fprintf(stderr, "box %d channel %d = %.0f (want %s)\n", i, ch, (double)v,
                        want[ch] ? "on" : "off");
                ENSURE(!"box colour");
            }
        }
    }
    return 0;
}

// A user mesh (a tetrahedron from arrays) is drawn where it is submitted; bad submissions are refused.
static int frame_user_mesh_and_validation(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    const float positions[12] = {-1, 0, -1, 1, 0, -1, 0, 0, 1, 0, 2, 0};
    const uint32_t indices[12] = {0, 1, 2, 0, 3, 1, 1, 3, 2, 2, 3, 0};
    ENSURE(renderer_add_mesh(r, positions, NULL, 4, indices, 11) == -1);
    int mesh = renderer_add_mesh(r, positions, NULL, 4, indices, 12);
    ENSURE(mesh >= RENDER_BUILTIN_MESH_COUNT);
    render_options o = scene_options();
    render_camera cam = test_gl_camera(SCENE_EYE, SCENE_TARGET);
    renderer_begin_frame(r, &cam);
    ENSURE(!renderer_submit(r, -1, glms_vec3_zero(), glms_quat_identity(), glms_vec3_one(), 0xffffffff, 0));
    ENSURE(!renderer_submit(r, RENDER_MAX_MESHES, glms_vec3_zero(), glms_quat_identity(), glms_vec3_one(),
                            0xffffffff, 0));
    ENSURE(!renderer_submit(r, RENDER_MESH_BOX, (vec3s){{NAN, 0.0f, 0.0f}}, glms_quat_identity(),
                            glms_vec3_one(), 0xffffffff, 0));
    ENSURE(renderer_submit(r, mesh, glms_vec3_zero(), glms_quat_identity(), glms_vec3_one(), 0x2040e0ff, 0));
    renderer_draw(r, &o);
    ENSURE(test_gl_read_frame(r));
    ENSURE(renderer_get_stats(r)->instances == 1);
    vec3s c;
    ENSURE(test_gl_sample_world(r, (vec3s){{0.0f, 0.7f, 0.1f}},
                                &c)); // on the front faces, inside the tetrahedron
    ENSURE(c.z > 1.5f * c.x && c.z > 1.2f * c.y);
    renderer_remove_mesh(r, mesh);
    renderer_begin_frame(r, &cam);
    ENSURE(!renderer_submit(r, mesh, glms_vec3_zero(), glms_quat_identity(), glms_vec3_one(), 0x2040e0ff, 0));
    return 0;
}

// HUD text changes pixels where it is drawn and nowhere else; the screenshot PNG equals the readback.
static int frame_text_and_screenshot(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    render_options o = scene_options();
    ENSURE(draw_box_scene(r, &o, 0xd02020ff, 0) == 0);
    static uint8_t plain[sizeof frame];
    memcpy(plain, frame, sizeof frame);
    render_camera cam = test_gl_camera(SCENE_EYE, SCENE_TARGET);
    renderer_begin_frame(r, &cam);
    ENSURE(renderer_submit(r, RENDER_MESH_BOX, (vec3s){{0.0f, 0.5f, 0.0f}}, glms_quat_identity(),
                           (vec3s){{0.5f, 0.5f, 0.5f}}, 0xd02020ff, 0));
    const char *text = "HELLO 123";
    float scale = 2.0f;
    float tw = renderer_text_width(text, scale), th = renderer_text_height(text, scale);
    ENSURE(tw > 20.0f && th > 8.0f);
    // Bytes without a glyph (control characters, UTF-8) are drawn as '?', never read out of the table.
    ENSURE(renderer_text_width("\t\x01\xff\xc3\xa9", scale) == renderer_text_width("?????", scale));
    ENSURE(renderer_text_width(NULL, scale) == 0.0f);
    renderer_text(r, 10.0f, 10.0f, scale, 0x000000ff, text);
    renderer_draw(r, &o);
    ENSURE(test_gl_read_frame(r));
    int changed_inside = 0, changed_outside = 0;
    for (int y = 0; y < TEST_HEIGHT; y++)
    {
        for (int x = 0; x < TEST_WIDTH; x++)
        {
            size_t i = ((size_t)y * TEST_WIDTH + (size_t)x) * 3;
            bool changed = memcmp(&frame[i], &plain[i], 3) != 0;
            bool in_box = x >= 9 && x <= 11 + (int)tw && y >= 9 && y <= 11 + (int)th;
            changed_inside += changed && in_box;
            changed_outside += changed && !in_box;
        }
    }
    ENSURE(changed_inside > 50);
    ENSURE(changed_outside == 0);

    // World-anchored text lands at the point's pixel; behind the camera it is dropped.
    renderer_begin_frame(r, &cam);
    renderer_text_world(r, (vec3s){{0.0f, 0.5f, 0.0f}}, 0.0f, 0.0f, scale, 0x000000ff, text);
    renderer_text_world(r, (vec3s){{0.0f, 0.5f, 40.0f}}, 0.0f, 0.0f, scale, 0x000000ff, text);
    float px, py;
    ENSURE(renderer_project(r, (vec3s){{0.0f, 0.5f, 0.0f}}, &px, &py));
    renderer_draw(r, &o);
    ENSURE(test_gl_read_frame(r));
    int dark = 0;
    for (int y = (int)py; y < (int)(py + th) && y < TEST_HEIGHT; y++)
        for (int x = (int)px; x < (int)(px + tw) && x < TEST_WIDTH; x++)
            dark += luminance(pixel_at(x, y)) < 20.0f;
    ENSURE(dark > 30);

    char path[] = "/tmp/render_tests_shot_XXXXXX";
    int fd = mkstemp(path);
    ENSURE(fd >= 0);
    close(fd);
    char err[256];
    bool ok = renderer_screenshot(r, path, err, sizeof err);
    int w = 0, h = 0, n = 0;
    unsigned char *png = ok ? stbi_load(path, &w, &h, &n, 3) : NULL;
    bool same = png && w == TEST_WIDTH && h == TEST_HEIGHT && memcmp(png, frame, sizeof frame) == 0;
    stbi_image_free(png);
    unlink(path);
    if (!ok)
        fprintf(stderr, "screenshot: %s\n", err);
    ENSURE(ok);
    ENSURE(same);
    ENSURE(!renderer_screenshot(r, "/nonexistent/dir/x.png", err, sizeof err));
    ENSURE(strstr(err, "/nonexistent/dir/x.png") != NULL);
    return 0;
}

static bool copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    FILE *out = in ? fopen(to, "wb") : NULL;
    bool ok = in && out;
    char buf[4096];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    if (in)
        fclose(in);
    if (out)
        ok = fclose(out) == 0 && ok;
    return ok;
}

// A renderer whose shaders live in a temporary copy: breaking mesh.frag reports "mesh.frag:LINE" and
// keeps drawing with the last good program; repairing it clears the message.
static int renderer_hot_reload_reports_and_recovers(void)
{
    ENSURE(open_gl());
    static const char *names[] = {"mesh.vert",   "mesh.frag", "grid.vert", "grid.frag",  "shadow.vert",
                                  "shadow.frag", "sky.vert",  "sky.frag",  "lines.vert", "lines.frag",
                                  "text.vert",   "text.frag", "fxaa.vert", "fxaa.frag"};
    enum
    {
        NAME_COUNT = sizeof names / sizeof names[0]
    };
    char dir[] = "/tmp/render_tests_XXXXXX";
    ENSURE(mkdtemp(dir) != NULL);
    char shaders[256];
    snprintf(shaders, sizeof shaders, "%s/shaders", dir);
    ENSURE(mkdir(shaders, 0700) == 0);
    char paths[NAME_COUNT][320];
    bool copied = true;
    for (int i = 0; i < NAME_COUNT; i++)
    {
        char from[512];
        snprintf(paths[i], sizeof paths[i], "%s/%s", shaders, names[i]);
        copied = copied && shader_find(NULL, names[i], from, sizeof from) && copy_file(from, paths[i]);
    }
    char err[SHADER_ERROR_MAX];
    renderer *r = copied ? renderer_create(dir, err, sizeof err) : NULL;
    int rc = r ? 0 : 1;
    render_options o = scene_options();
    render_camera cam = test_gl_camera(SCENE_EYE, SCENE_TARGET);
    static uint8_t before[sizeof frame];
    if (rc == 0)
    {
        renderer_resize(r, TEST_WIDTH, TEST_HEIGHT);
        renderer_begin_frame(r, &cam);
        renderer_submit(r, RENDER_MESH_BOX, (vec3s){{0.0f, 0.5f, 0.0f}}, glms_quat_identity(),
                        (vec3s){{0.5f, 0.5f, 0.5f}}, 0xd02020ff, 0);
        renderer_draw(r, &o);
        rc = test_gl_read_frame(r) ? 0 : 2;
        memcpy(before, frame, sizeof frame);
    }
    // Break mesh.frag (a later modification time than the copy's).
    if (rc == 0)
    {
        FILE *f = fopen(paths[1], "ab");
        rc = f && fputs("\nthis is not GLSL\n", f) >= 0 && fclose(f) == 0 ? 0 : 3;
        struct timespec times[2] = {{4000000000L, 0}, {4000000000L, 0}};
        rc = rc == 0 && utimensat(AT_FDCWD, paths[1], times, 0) == 0 ? 0 : 3;
    }
    if (rc == 0 && (renderer_reload_shaders(r) || !strstr(renderer_shader_error(r), "mesh.frag:")))
        rc = 4;
    if (rc == 0)
    {
        renderer_begin_frame(r, &cam);
        renderer_submit(r, RENDER_MESH_BOX, (vec3s){{0.0f, 0.5f, 0.0f}}, glms_quat_identity(),
                        (vec3s){{0.5f, 0.5f, 0.5f}}, 0xd02020ff, 0);
        renderer_draw(r, &o);
        rc = test_gl_read_frame(r) && memcmp(before, frame, sizeof frame) == 0 ? 0 : 5;
    }
    // Repair it: the program reloads and the message clears.
    if (rc == 0)
    {
        char from[512];
        rc = shader_find(NULL, "mesh.frag", from, sizeof from) && copy_file(from, paths[1]) ? 0 : 6;
        struct timespec times[2] = {{4000000100L, 0}, {4000000100L, 0}};
        rc = rc == 0 && utimensat(AT_FDCWD, paths[1], times, 0) == 0 ? 0 : 6;
    }
    if (rc == 0 && (!renderer_reload_shaders(r) || renderer_shader_error(r)[0] != '\0'))
        rc = 7;
    if (rc)
        fprintf(stderr, "renderer hot reload step %d failed: %s | %s\n", rc,
                r ? renderer_shader_error(r) : "", r ? "" : err);
    renderer_destroy(r);
    for (int i = 0; i < NAME_COUNT; i++)
        unlink(paths[i]);
    rmdir(shaders);
    rmdir(dir);
    ENSURE(rc == 0);
    return 0;
}

// A floor body whose top is the ground plane (as scenes make them) shows the grid, not z-fighting:
// every pixel along a grid line is darker than the cell beside it.
static int frame_grid_over_floor_body(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    render_options o = scene_options();
    o.shadows = false;
    // A low camera: the floor is seen at a grazing angle, where depth precision is worst.
    render_camera cam = test_gl_camera((vec3s){{0.0f, 1.2f, 8.0f}}, (vec3s){{0.0f, 0.0f, 0.0f}});
    renderer_begin_frame(r, &cam);
    ENSURE(renderer_submit(r, RENDER_MESH_BOX, (vec3s){{0.0f, -0.5f, 0.0f}}, glms_quat_identity(),
                           (vec3s){{30.0f, 0.5f, 30.0f}}, 0x8a8d91ff, 0));
    renderer_draw(r, &o);
    ENSURE(test_gl_read_frame(r));
    if (getenv("RENDER_TEST_SHOT"))
        renderer_screenshot(r, getenv("RENDER_TEST_SHOT"), NULL, 0);
    int checked = 0;
    for (int i = 0; i < 12; i++)
    {
        // Along the line x = -2 m, between the lines z = k m; the cell beside it is at x = -2.5 m.
        float z = 0.25f + 0.5f * (float)i;
        vec3s line, cell;
        float lx, ly;
        if (!renderer_project(r, (vec3s){{-2.0f, 0.0f, z}}, &lx, &ly) || ly < 0.0f || ly >= TEST_HEIGHT)
            continue;
        // The anti-aliased line is about a pixel wide around lx: take the darkest of the three pixels.
        line = pixel_at((int)lx, (int)ly);
        for (int dx = -1; dx <= 1; dx += 2)
        {
            vec3s p = pixel_at((int)lx + dx, (int)ly);
            line = luminance(p) < luminance(line) ? p : line;
        }
        if (!test_gl_sample_world(r, (vec3s){{-2.5f, 0.0f, z}}, &cell))
            continue;
        if (!(luminance(line) < luminance(cell) - 4.0f))
        {
            fprintf(stderr, "z = %.1f: line %.0f, cell %.0f\n", (double)z, (double)luminance(line),
                    (double)luminance(cell));
            ENSURE(!"the grid line shows on the floor body");
        }
        checked++;
    }
    ENSURE(checked >= 8);
    return 0;
}

// The anti-aliasing pass (render_options.fxaa): a bright box turned 30 degrees on a dark clear colour, no
// sky, ground or shadow. Without the pass every pixel is the clear colour or a face's flat shade; with it,
// pixels on the box's outline take colours between the two (the staircase is smoothed), and every pixel the
// pass changes lies on an outline: within one pixel of a pixel of another colour in the plain frame. Flat
// areas stay exactly as they were.
static int frame_fxaa_smooths_edges(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    int errors = gl_error_count();
    render_options o = scene_options();
    o.shadows = false;
    o.sky = false;
    o.ground = false;
    o.clear_rgba = 0x101010ffu;
    render_camera cam = test_gl_camera(SCENE_EYE, SCENE_TARGET);
    static uint8_t plain[sizeof frame];
    for (int pass = 0; pass < 2; pass++)
    {
        o.fxaa = pass == 1;
        renderer_begin_frame(r, &cam);
        ENSURE(renderer_submit(r, RENDER_MESH_BOX, (vec3s){{0.0f, 0.5f, 0.0f}},
                               glms_quatv(0.52f, (vec3s){{0.3f, 1.0f, 0.2f}}), (vec3s){{0.5f, 0.5f, 0.5f}},
                               0xf0f0f0ff, 0));
        renderer_draw(r, &o);
        ENSURE(test_gl_read_frame(r));
        if (pass == 0)
            memcpy(plain, frame, sizeof frame);
    }
    long changed = 0, off_edge = 0;
    for (int y = 1; y < TEST_HEIGHT - 1; y++)
        for (int x = 1; x < TEST_WIDTH - 1; x++)
        {
            const uint8_t *p = plain + 3 * (y * TEST_WIDTH + x), *q = frame + 3 * (y * TEST_WIDTH + x);
            if (memcmp(p, q, 3) == 0)
                continue;
            changed++;
            bool edge = false;
            for (int dy = -1; dy <= 1 && !edge; dy++)
                for (int dx = -1; dx <= 1 && !edge; dx++)
                    edge = memcmp(p, plain + 3 * ((y + dy) * TEST_WIDTH + x + dx), 3) != 0;
            off_edge += !edge;
        }
    fprintf(stderr, "  fxaa: %ld pixels changed, %ld of them off an edge\n", changed, off_edge);
    ENSURE(changed > 50);
    ENSURE(off_edge == 0);
    ENSURE(gl_error_count() == errors);
    return 0;
}

const test_case test_render_cases[] = {
    {"render_mesh_box_closed_outward", mesh_box_closed_outward},
    {"render_mesh_sphere_unit_outward", mesh_sphere_unit_outward},
    {"render_mesh_cylinder_outward", mesh_cylinder_outward},
    {"render_mesh_hull_matches_faces", mesh_hull_matches_faces},
    {"render_mesh_arrays_validated", mesh_arrays_validated},
    {"render_shader_errors_name_file_and_line", shader_errors_name_file_and_line},
    {"render_shader_hot_reload_keeps_last_good", shader_hot_reload_keeps_last_good},
    {"render_renderer_hot_reload_reports_and_recovers", renderer_hot_reload_reports_and_recovers},
    {"render_camera_helpers_agree", camera_helpers_agree},
    {"render_frame_box_sky_ground_and_shadow", frame_box_sky_ground_and_shadow},
    {"render_frame_msaa_and_ground_off", frame_msaa_and_ground_off},
    {"render_frame_grid_over_floor_body", frame_grid_over_floor_body},
    {"render_frame_instances_keep_their_colours", frame_instances_keep_their_colours},
    {"render_frame_user_mesh_and_validation", frame_user_mesh_and_validation},
    {"render_frame_text_and_screenshot", frame_text_and_screenshot},
    {"render_frame_fxaa_smooths_edges", frame_fxaa_smooths_edges},
    {0},
};
