// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The heads-up display: frame time, physics time per stage, bodies awake and asleep, contacts, calendar
// events per frame, time scale, the throw charge, messages (errors stay on screen), the help overlay
// (F1) listing every key and mouse action, and the demo reel's captions. Figures are smoothed so they can be
// read. Draws through the renderer's text and rectangles; knows nothing of SDL.
#pragma once

#include "render/renderer.h"

#include "phys/phys.h"

#include <stdbool.h> // bool

// What one frame measured, fed to hud_update.
typedef struct hud_frame
{
    float frame_ms;                 // whole frame, wall clock (unit: ms)
    float physics_ms;               // ph_world_step calls of this frame, wall clock (unit: ms)
    float render_ms;                // drawing and presenting (unit: ms)
    int steps;                      // physics steps this frame
    float stage_ms[PH_STAGE_COUNT]; // summed over this frame's steps, engine timers (unit: ms)
    int calendar_events;            // summed over this frame's steps
    int body_count, awake_count, sleeping_count;
    int contact_count;         // contact points of the last step
    int removed_count;         // bodies removed below the world since the level was loaded
    int joint_count;           // joints in the world
    int instances, draw_calls; // renderer statistics of the frame
    float render_scale;        // the 3D scene's share of the width and height it was drawn at (1: full size)
    bool render_scale_auto;    // chosen by the game to keep the frame in its budget (resolution.h)
    float present_ms; // the buffer swap: presenting, and waiting for the display's refresh (unit: ms)
} hud_frame;

// What the player set, shown as state lines.
typedef struct hud_status
{
    float time_scale;
    bool paused;
    const char *camera_mode; // "orbit" or "fly"
    const char *projectile;  // "box", "sphere", "model"
    const char *scene;       // the scene's name
    bool charging;
    float charge_speed;       // (unit: m/s)
    float charge_max_speed;   // (unit: m/s)
    const char *debug_views;  // list of the debug views on, "" when none
    const char *shader_error; // the renderer's last shader reload error, "" or NULL when none
    const char *tool_prompt;  // what the joint tool's next click does, "" or NULL when none
} hud_status;

typedef struct hud
{
    hud_frame smooth; // exponential moving averages
    bool has_frame;
    char message[512];     // the last error or notice
    float message_seconds; // how long the message stays
    bool message_is_error;
} hud;

void hud_init(hud *h);
// Folds one frame into the smoothed figures.
void hud_update(hud *h, const hud_frame *frame, float dt_seconds);
// Shows a message (an error is red and stays longer).
void hud_message(hud *h, bool is_error, const char *text);
// Draws the stats panel, the state, the charge bar and the message; width, height in drawable px.
void hud_draw(const hud *h, renderer *r, const hud_status *status, int width, int height, float ui_scale);
// Draws the crosshair at the pointer (x, y in drawable px): a white cross with a dark outline and an
// open centre, so what it points at stays visible.
void hud_draw_crosshair(renderer *r, float x, float y, float ui_scale);
// The first-start hint: one line at the bottom centre of the frame.
#define HUD_FIRST_HINT                                                                                       \
    "Click to throw at the pointer, hold to throw harder  -  right drag: look around  -  1-5: spawn  -  "    \
    "F11: panel  -  F1: every key"
void hud_draw_hint(renderer *r, const char *text, int width, int height, float ui_scale);
// Draws the help overlay listing every key and mouse action.
void hud_draw_help(renderer *r, int width, int height, float ui_scale);
// Draws the demo reel's caption at the bottom of the frame: the title, its line of explanation and a status
// line (segment, time, time scale, physics figures). Sized from the frame's height, so that recordings
// of any size show the same layout; shrunk where a line would not fit the width.
void hud_draw_caption(renderer *r, const char *title, const char *line, const char *status, int width,
                      int height);
