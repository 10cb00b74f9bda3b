// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The application: the command-line configuration (filled by main.c) and app_run, which owns the SDL
// window and GL context, the event pump, the fixed-step physics loop with interpolated drawing, the
// tools, camera and HUD, the demo reel and recording; or, with --headless, steps the physics alone and
// prints per-step statistics.
#pragma once

#include <stdbool.h> // bool
#include <stdint.h>  // uint32_t

// Default window size in screen points (--size).
#define APP_DEFAULT_WIDTH 1280
#define APP_DEFAULT_HEIGHT 720
// Largest window side accepted by --size (unit: px).
#define APP_MAX_SIZE 16384
// Most boxes --boxes accepts.
#define APP_MAX_BOXES 100000
// Steps --headless runs when --frames is not given (10 s at the default 60 Hz).
#define APP_DEFAULT_HEADLESS_STEPS 600

typedef struct app_config
{
    const char *input_path;      // scene .json or model .obj; NULL: the default scene
    const char *scene_name;      // --scene NAME: a built-in scene (default, first, boxes)
    int box_count;               // --boxes N: the "boxes" scene with N boxes (0: not asked)
    int width, height;           // --size WxH (unit: screen points)
    int frames;                  // --frames N: stop after N frames (0: run until quit)
    const char *screenshot_path; // --screenshot FILE.png: the last frame
    const char *report_path;     // --report FILE: body positions (start, end, projected pixel) for tests
    const char *script;          // --script "FRAME EVENT ARGS; ...": synthetic input events
    uint32_t seed;               // --seed N: random layouts (rain)
    bool headless;               // --headless: physics only, per-step statistics on stdout
    bool vsync;                  // on unless --no-vsync
    bool shadows;                // on unless --no-shadows
    int fxaa;           // 1 --fxaa, -1 --no-fxaa, 0 (default): on in recordings, screenshots and on a GPU
    int sound;          // impact sounds: 0 by default (a device when interactive), 1 --sound, -1 --no-sound
    bool timing;        // --timing: print frame, physics and render times at exit
    bool timing_passes; // --timing-passes: --timing, and the mean time of each of the frame's passes (the GL
                        // is made to finish after each one, render_options.profile_passes)
    float render_scale; // --render-scale S: the 3D scene drawn at S of the width and height (0.5 .. 1) and
                        // upscaled; 0 (default): adapted to the frame budget on a software rasteriser while
                        // playing, 1 on a GPU and in recordings and screenshots
    bool hud;           // on unless --no-hud
    bool reel;          // --reel [FILE]: play the demo reel
    const char *reel_path;   // its file; NULL: scenes/reel.json
    const char *record_path; // --record FILE.mp4 | FOLDER/: record the frames (a video or PNG files)
    int fps;                 // --fps N: frames per second of the recording (default 60)
} app_config;

app_config app_default_config(void);

// Runs the game (or the headless simulation) until quit or --frames. Returns the process exit status:
// 0 on success, 1 when the input cannot be used or no window/GL context can be made.
int app_run(const app_config *config);
