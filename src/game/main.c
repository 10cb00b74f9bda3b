// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The sandbox executable's entry point: parses the command line into an app_config and calls app_run.
// Unusable arguments print one clear message on stderr and exit with status 1.

#include "game/app.h"
#include "game/record.h"
#include "render/renderer.h" // RENDER_SCALE_MIN

#include <errno.h>  // errno, ERANGE
#include <stdint.h> // INT32_MAX, UINT32_MAX
#include <stdio.h>  // fprintf, printf
#include <stdlib.h> // strtol, strtoul, strtof
#include <string.h> // strcmp, strncmp

static const char USAGE[] =
    "usage: sandbox [SCENE.json | MODEL.obj] [options]\n"
    "\n"
    "  SCENE.json          load a scene file (see scenes/); MODEL.obj: drop the model into the default "
    "scene,\n"
    "                      or, for an .obj scene (objects named static*/ground*/compound_*), build it\n"
    "  --size WxH          window size in points (default 1280x720)\n"
    "  --frames N          stop after N frames; each frame then advances exactly one frame of\n"
    "                      simulated time (1/60 s), so runs are reproducible\n"
    "  --screenshot F.png  write the last frame to a PNG\n"
    "  --seed N            seed of random layouts (box rain); default 1\n"
    "  --headless          step the physics without a window and print per-step statistics\n"
    "                      (--frames N steps; default 600)\n"
    "  --scene NAME        a built-in scene: default, first (ground and one cube), boxes\n"
    "  --boxes N           the boxes scene with N boxes (frame-time measurements)\n"
    "  --no-vsync          do not wait for the display's refresh\n"
    "  --no-shadows        draw without the sun's shadow map\n"
    "  --fxaa, --no-fxaa   the anti-aliasing pass where the GL draws no MSAA (default: in recordings and\n"
    "                      screenshots, and on a GPU; off while playing on a software rasteriser)\n"
    "  --sound, --no-sound impact sounds through the audio device (default: on when interactive, off in\n"
    "                      recordings; runs with --frames count the knocks silently unless --sound)\n"
    "  --render-scale S    draw the 3D scene at S (0.5 .. 1) of the window's width and height and upscale\n"
    "                      it (the HUD stays sharp); default: adapted each second to keep the frame under\n"
    "                      16.6 ms on a software rasteriser, 1 on a GPU and in recordings and screenshots\n"
    "  --no-hud            hide the HUD (F8 toggles it)\n"
    "  --timing            print mean frame, physics and render times at exit\n"
    "  --timing-passes     --timing, and the mean time of each pass of the frame (shadow map, meshes, ...,\n"
    "                      the panel, the read-back, the swap); the GL finishes after each pass, which\n"
    "                      costs the overlap of its work with the program's: for finding the costs\n"
    "  --report FILE       write every body alive at the end (where it was made, where it is drawn, its\n"
    "                      pixel and bounds), the bodies removed below the world and the HUD's state,\n"
    "                      for tests\n"
    "  --script S          synthetic input: 'FRAME EVENT ARGS; ...' with EVENT one of\n"
    "                      move X Y | down X Y BUTTON | up X Y BUTTON | key NAME | keydown NAME |\n"
    "                      keyup NAME | wheel CLICKS | drop FILE   (X Y in window points, BUTTON\n"
    "                      left|middle|right, NAME an SDL key name such as F1, Space, Left Ctrl)\n"
    "  --reel [FILE]       play the demo reel (scenes/reel.json, or FILE); it loops; Right / Left skip,\n"
    "                      Space pauses\n"
    "  --record OUT        record the frames instead of showing them: OUT.mp4 (any name ffmpeg knows) is\n"
    "                      H.264 in yuv420p through the ffmpeg program, OUT/ (a trailing slash) numbered\n"
    "                      PNG files; each frame advances exactly 1/fps s of simulated time. With --reel it\n"
    "                      ends with the reel, otherwise it needs --frames N; --size sets the video's size\n"
    "  --fps N             frames per second of the recording (default 60, at most 240)\n"
    "  --help              this text\n"
    "\n"
    "Without a display run headless (SDL_VIDEODRIVER=offscreen sandbox --frames 120 --screenshot out.png)\n"
    "or under a virtual X server (xvfb-run -a sandbox). Press F1 in the window for every key and mouse "
    "action.\n";

// Parses a whole decimal integer in [lo, hi]; false for anything else.
static bool parse_int(const char *s, long lo, long hi, long *out)
{
    if (!s || !*s)
        return false;
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno == ERANGE || *end != '\0' || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_size(const char *s, int *out_w, int *out_h)
{
    if (!s)
        return false;
    const char *x = strchr(s, 'x');
    if (!x || x == s)
        return false;
    char w_text[32];
    size_t n = (size_t)(x - s);
    if (n >= sizeof w_text)
        return false;
    memcpy(w_text, s, n);
    w_text[n] = '\0';
    long w = 0, h = 0;
    if (!parse_int(w_text, 1, APP_MAX_SIZE, &w) || !parse_int(x + 1, 1, APP_MAX_SIZE, &h))
        return false;
    *out_w = (int)w;
    *out_h = (int)h;
    return true;
}

// Parses a decimal number in [lo, hi]; false for anything else (NaN included).
static bool parse_float(const char *s, float lo, float hi, float *out)
{
    if (!s || !*s)
        return false;
    char *end = NULL;
    float v = strtof(s, &end);
    if (*end != '\0' || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "sandbox: %s%s%s\n(run 'sandbox --help' for the options)\n", what, arg ? ": " : "",
            arg ? arg : "");
    return 1;
}

int main(int argc, char **argv)
{
    app_config cfg = app_default_config();
    bool fps_given = false;
    for (int i = 1; i < argc; i++)
    {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        long v = 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
        {
            fputs(USAGE, stdout);
            return 0;
        }
        else if (strcmp(a, "--size") == 0)
        {
            if (!parse_size(next, &cfg.width, &cfg.height))
                return usage_error("--size needs WxH with sides in 1..16384, got", next ? next : "nothing");
            i++;
        }
        else if (strcmp(a, "--frames") == 0)
        {
            if (!parse_int(next, 1, INT32_MAX, &v))
                return usage_error("--frames needs a positive whole number, got", next ? next : "nothing");
            cfg.frames = (int)v;
            i++;
        }
        else if (strcmp(a, "--seed") == 0)
        {
            if (!parse_int(next, 0, UINT32_MAX, &v))
                return usage_error("--seed needs a whole number in 0..4294967295, got",
                                   next ? next : "nothing");
            cfg.seed = (uint32_t)v;
            i++;
        }
        else if (strcmp(a, "--boxes") == 0)
        {
            if (!parse_int(next, 1, APP_MAX_BOXES, &v))
                return usage_error("--boxes needs a whole number in 1..100000, got", next ? next : "nothing");
            cfg.box_count = (int)v;
            cfg.scene_name = "boxes";
            i++;
        }
        else if (strcmp(a, "--render-scale") == 0)
        {
            if (!parse_float(next, RENDER_SCALE_MIN, 1.0f, &cfg.render_scale))
                return usage_error("--render-scale needs a number in 0.5..1, got", next ? next : "nothing");
            i++;
        }
        else if (strcmp(a, "--fps") == 0)
        {
            if (!parse_int(next, 1, RECORD_MAX_FPS, &v))
                return usage_error("--fps needs a whole number in 1..240, got", next ? next : "nothing");
            cfg.fps = (int)v;
            fps_given = true;
            i++;
        }
        else if (strcmp(a, "--reel") == 0)
        {
            cfg.reel = true;
            // The reel file is optional: a following argument that is not an option is taken for it.
            if (next && strncmp(next, "--", 2) != 0)
            {
                cfg.reel_path = next;
                i++;
            }
        }
        else if (strcmp(a, "--screenshot") == 0 || strcmp(a, "--report") == 0 || strcmp(a, "--script") == 0 ||
                 strcmp(a, "--scene") == 0 || strcmp(a, "--record") == 0)
        {
            if (!next || !*next)
                return usage_error("missing value after", a);
            if (strcmp(a, "--screenshot") == 0)
                cfg.screenshot_path = next;
            else if (strcmp(a, "--report") == 0)
                cfg.report_path = next;
            else if (strcmp(a, "--script") == 0)
                cfg.script = next;
            else if (strcmp(a, "--record") == 0)
                cfg.record_path = next;
            else
                cfg.scene_name = next;
            i++;
        }
        else if (strcmp(a, "--headless") == 0)
            cfg.headless = true;
        else if (strcmp(a, "--no-vsync") == 0)
            cfg.vsync = false;
        else if (strcmp(a, "--no-shadows") == 0)
            cfg.shadows = false;
        else if (strcmp(a, "--no-fxaa") == 0)
            cfg.fxaa = -1;
        else if (strcmp(a, "--fxaa") == 0)
            cfg.fxaa = 1;
        else if (strcmp(a, "--sound") == 0)
            cfg.sound = 1;
        else if (strcmp(a, "--no-sound") == 0)
            cfg.sound = -1;
        else if (strcmp(a, "--no-hud") == 0)
            cfg.hud = false;
        else if (strcmp(a, "--timing") == 0)
            cfg.timing = true;
        else if (strcmp(a, "--timing-passes") == 0)
            cfg.timing = cfg.timing_passes = true;
        else if (strncmp(a, "--", 2) == 0)
            return usage_error("unknown option", a);
        else if (cfg.input_path)
            return usage_error("only one scene or model file may be given; second one", a);
        else
            cfg.input_path = a;
    }
    if (cfg.headless && (cfg.screenshot_path || cfg.script || cfg.reel || cfg.record_path))
        return usage_error("--headless has no window: --screenshot, --script, --reel and --record need one",
                           NULL);
    if (cfg.reel && (cfg.input_path || cfg.scene_name))
        return usage_error("--reel plays the scenes of its own file: give no scene, model or --scene", NULL);
    if (cfg.record_path && !cfg.reel && cfg.frames == 0)
        return usage_error("--record without --reel needs --frames N (it would never end)", NULL);
    if (fps_given && !cfg.record_path)
        return usage_error("--fps is the recording's frame rate: it needs --record", NULL);
    return app_run(&cfg);
}
