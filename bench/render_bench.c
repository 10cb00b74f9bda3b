// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Renderer benchmark: N boxes scattered over the ground in up to three layers (a settled pile's look),
// each turning a little every frame so the shadow map is redrawn, drawn at 1280x720 through the full
// pipeline (shadow pass, lit instanced pass, ground grid, sky, HUD text) and read back with glFinish.
// Prints one JSON object: wall and process CPU time per frame (mean and minimum), the GL renderer and the
// options. No physics: the frame time of the renderer alone. Needs a GL 3.3 context: runs without a
// display with SDL_VIDEODRIVER=offscreen (Mesa's llvmpipe).
//
//     render_bench [--boxes N] [--frames N] [--size WxH] [--no-shadows] [--no-fxaa] [--shadow-size N]
//                  [--msaa N] [--render-scale S] [--static] [--bare] [--profile] [--readback] [--png out.png]
//
// --profile measures each pass (the GL finishes after each one: the sum exceeds a frame's time a little)
// and prints one more line per pass: draw calls, triangles, fragments shaded (samples passing the depth
// test) and the process's CPU time (both of llvmpipe's threads); --readback reads every frame back into
// memory, as sandbox --timing and recordings do, and prints its time.
//
// --render-scale S draws the 3D passes at S times the width and height (0.5 .. 1,
// render_options.render_scale) and upscales them to the frame in the post pass.
//
// --bare draws the cubes alone (no shadows, ground or sky), the configuration of the reference
// figure for a bare instanced-cube program, so both can be compared on the machine as it is loaded now.
#define _POSIX_C_SOURCE 200809L // clock_gettime, getrusage

#include "render/gl.h"
#include "render/renderer.h"

#include <SDL2/SDL.h>     // window and GL context
#include <stdio.h>        // printf
#include <stdlib.h>       // atoi, getenv
#include <string.h>       // strcmp
#include <sys/resource.h> // getrusage
#include <time.h>         // clock_gettime

// Box half extent (unit: m), the spacing of the scatter per box (unit: m), the layers of the pile.
#define BOX_HALF 0.5f
#define SCATTER_SPACING 0.9f
#define LAYERS 3
// Turn of every box per frame (unit: rad), so the casters change and the shadow map is redrawn.
#define TURN_PER_FRAME 0.01f
// Camera field of view (unit: degrees), near and far planes (unit: m).
#define FOV_DEG 50.0f
#define NEAR_PLANE 0.1f
#define FAR_PLANE 500.0f
static const uint32_t PALETTE[4] = {0xe0694aff, 0xe8b04aff, 0x6cbf5aff, 0x4a9fe0ff};

static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// User + system time of every thread of the process (llvmpipe rasterises on worker threads).
static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
           (double)u.ru_stime.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
    int boxes = 1000, frames = 60, width = 1280, height = 720, msaa = RENDER_MSAA_AUTO, shadow_size = 0;
    bool shadows = true, still = false, bare = false, fxaa = true, profile = false, readback = false;
    float render_scale = 1.0f;
    const char *png = NULL;
    for (int i = 1; i < argc; i++)
    {
        bool more = i + 1 < argc;
        if (!strcmp(argv[i], "--boxes") && more)
            boxes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--frames") && more)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && more)
            sscanf(argv[++i], "%dx%d", &width, &height);
        else if (!strcmp(argv[i], "--shadow-size") && more)
            shadow_size = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--msaa") && more)
            msaa = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--render-scale") && more)
            render_scale = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--png") && more)
            png = argv[++i];
        else if (!strcmp(argv[i], "--no-shadows"))
            shadows = false;
        else if (!strcmp(argv[i], "--no-fxaa"))
            fxaa = false;
        else if (!strcmp(argv[i], "--bare"))
            bare = true;
        else if (!strcmp(argv[i], "--static"))
            still = true;
        else if (!strcmp(argv[i], "--profile"))
            profile = true;
        else if (!strcmp(argv[i], "--readback"))
            readback = true;
        else
        {
            fprintf(stderr, "usage: render_bench [--boxes N] [--frames N] [--size WxH] [--no-shadows] "
                            "[--no-fxaa] [--shadow-size N] [--msaa N] [--render-scale S] [--static] [--bare] "
                            "[--profile] [--readback] [--png out.png]\n");
            return 2;
        }
    }
    if (boxes < 0 || frames < 2 || width <= 0 || height <= 0 ||
        !(render_scale >= RENDER_SCALE_MIN && render_scale <= 1.0f))
    {
        fprintf(stderr,
                "render_bench: boxes >= 0, frames >= 2, a positive size and a render scale in [%.1f, 1] "
                "are needed\n",
                (double)RENDER_SCALE_MIN);
        return 2;
    }
    if (!getenv("SDL_VIDEODRIVER") && !getenv("DISPLAY"))
        setenv("SDL_VIDEODRIVER", "offscreen", 1);
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
    {
        fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_Window *window =
        SDL_CreateWindow("render_bench", 0, 0, width, height, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    SDL_GLContext context = window ? SDL_GL_CreateContext(window) : NULL;
    if (!context || !gl_load(SDL_GL_GetProcAddress))
    {
        fprintf(stderr, "no GL 3.3 core context: %s\n", SDL_GetError());
        return 1;
    }
    SDL_GL_SetSwapInterval(0);
    char err[2048];
    renderer *r = renderer_create(SDL_GetBasePath(), err, sizeof err);
    if (!r)
    {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    renderer_resize(r, width, height);
    render_options opts = renderer_default_options();
    opts.shadows = shadows;
    opts.msaa_samples = msaa;
    opts.fxaa = fxaa;
    opts.render_scale = render_scale;
    opts.shadow_map_size = shadow_size;
    opts.profile_passes = profile;
    if (bare)
    {
        // The reference point: instanced lit cubes only, no shadows, ground or sky.
        opts.shadows = shadows = false;
        opts.ground = false;
        opts.sky = false;
    }

    // A square area holding boxes / LAYERS boxes per layer at the spacing, seen from its corner.
    float extent = sqrtf((float)boxes / (float)LAYERS) * SCATTER_SPACING * 1.6f + 2.0f;
    render_camera cam;
    cam.eye = (vec3s){{extent * 0.8f, extent * 0.55f, extent * 0.9f}};
    cam.view = glms_lookat(cam.eye, (vec3s){{0.0f, 0.5f, 0.0f}}, (vec3s){{0.0f, 1.0f, 0.0f}});
    cam.proj = glms_perspective(glm_rad(FOV_DEG), (float)width / (float)height, NEAR_PLANE, FAR_PLANE);
    uint8_t *pixels = readback ? malloc((size_t)width * (size_t)height * 3) : NULL;
    double wall_sum = 0.0, cpu_sum = 0.0, wall_min = 1e30, cpu_min = 1e30, readback_sum = 0.0;
    render_pass_stats pass_sum[RENDER_PASS_COUNT] = {{0}};
    int skipped = 0;
    for (int f = 0; f < frames; f++)
    {
        double w0 = wall_seconds(), c0 = cpu_seconds();
        renderer_begin_frame(r, &cam);
        for (int i = 0; i < boxes; i++)
        {
            // Knuth's multiplicative hash gives each box a fixed pseudo-random spot, layer and turn.
            uint32_t h = (uint32_t)i * 2654435761u;
            float u = (float)(h & 1023u) / 1023.0f - 0.5f, v = (float)((h >> 10) & 1023u) / 1023.0f - 0.5f;
            vec3s p = {{u * extent, BOX_HALF + (float)((h >> 20) % LAYERS) * 2.0f * BOX_HALF, v * extent}};
            float angle = (float)(h >> 22) * 1e-3f + (still ? 0.0f : TURN_PER_FRAME * (float)f);
            versors q = glms_quatv(angle, (vec3s){{0.0f, 1.0f, 0.0f}});
            renderer_submit(r, RENDER_MESH_BOX, p, q, (vec3s){{BOX_HALF, BOX_HALF, BOX_HALF}}, PALETTE[i % 4],
                            0);
        }
        renderer_text(r, 10.0f, 10.0f, 2.0f, 0xffffffff, "render_bench");
        renderer_draw(r, &opts);
        glFinish();
        double c1 = cpu_seconds();
        // What sandbox --timing and a recording add: the frame read back into memory.
        if (pixels)
            renderer_read_rgb(r, pixels, (size_t)width * (size_t)height * 3);
        double wall = wall_seconds() - w0, cpu = cpu_seconds() - c0;
        const render_stats *rs = renderer_get_stats(r);
        skipped += rs->shadow_pass_skipped;
        if (f == 0)
            continue; // the first frame compiles shader variants
        readback_sum += cpu_seconds() - c1;
        for (int p = 0; p < RENDER_PASS_COUNT; p++)
        {
            pass_sum[p].draw_calls += rs->pass[p].draw_calls;
            pass_sum[p].triangles += rs->pass[p].triangles;
            pass_sum[p].samples += rs->pass[p].samples;
            pass_sum[p].ms_cpu += rs->pass[p].ms_cpu;
            pass_sum[p].ms_wall += rs->pass[p].ms_wall;
        }
        wall_sum += wall;
        cpu_sum += cpu;
        wall_min = wall < wall_min ? wall : wall_min;
        cpu_min = cpu < cpu_min ? cpu : cpu_min;
    }
    if (png && !renderer_screenshot(r, png, err, sizeof err))
        fprintf(stderr, "%s\n", err);
    int n = frames - 1;
    printf("{\"bench\": \"render\", \"renderer\": \"%s\", \"width\": %d, \"height\": %d, \"boxes\": %d, "
           "\"bare\": %s, \"shadows\": %s, \"shadow_size\": %d, \"msaa\": %d, \"fxaa\": %s, "
           "\"render_scale\": %.2f, \"moving\": %s, "
           "\"frames\": %d, "
           "\"shadow_passes_skipped\": %d, "
           "\"ms_wall_mean\": %.2f, \"ms_wall_min\": %.2f, \"ms_cpu_mean\": %.2f, \"ms_cpu_min\": %.2f, "
           "\"gl_errors\": %d}\n",
           gl_renderer_string(), width, height, boxes, bare ? "true" : "false", shadows ? "true" : "false",
           shadow_size, msaa, fxaa ? "true" : "false", (double)renderer_get_stats(r)->render_scale,
           still ? "false" : "true", n, skipped, wall_sum / n * 1e3, wall_min * 1e3, cpu_sum / n * 1e3,
           cpu_min * 1e3, gl_error_count());
    if (readback)
        printf("{\"bench\": \"render_readback\", \"ms_cpu_mean\": %.2f}\n", readback_sum / n * 1e3);
    for (int p = 0; p < RENDER_PASS_COUNT; p++)
    {
        if (pass_sum[p].draw_calls == 0)
            continue;
        printf("{\"bench\": \"render_pass\", \"pass\": \"%s\", \"draw_calls\": %.1f, \"triangles\": %lld, "
               "\"samples\": %lld, \"ms_cpu_mean\": %.2f, \"ms_wall_mean\": %.2f}\n",
               renderer_pass_name(p), (double)pass_sum[p].draw_calls / n, pass_sum[p].triangles / n,
               pass_sum[p].samples / n, (double)pass_sum[p].ms_cpu / n, (double)pass_sum[p].ms_wall / n);
    }
    free(pixels);
    renderer_destroy(r);
    SDL_GL_DeleteContext(context);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return 0;
}
