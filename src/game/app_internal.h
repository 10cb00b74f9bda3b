// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// What the game's files share: the app (the window and GL context, the level, tools, camera and HUD, the
// input state, the reel and the recording) and the functions one file calls in another. app.c owns the
// lifecycle, the scenes and the loop; input.c turns SDL events into tools, camera moves and keys;
// script.c turns --script into SDL events; draw.c draws one frame (the world, the previews, the HUD);
// report.c writes --report and --timing. Internal to src/game.
#pragma once

#include "assets/reel_file.h"
#include "game/app.h"
#include "game/camera.h"
#include "game/history.h"
#include "game/hud.h"
#include "game/impacts.h"
#include "game/joint_tools.h"
#include "game/level.h"
#include "game/record.h"
#include "game/reel.h"
#include "game/resolution.h"
#include "game/sound.h"
#include "game/tools.h"
#include "render/renderer.h"

#include "phys/phys.h"

#include <SDL2/SDL.h> // window, GL context, events
#include <stdbool.h>  // bool
#include <stddef.h>   // size_t
#include <stdint.h>   // uint8_t
#include <stdio.h>    // FILE

// Most scenes listed for next / previous and in the panel, and most models of models/ it offers.
#define APP_MAX_SCENES 64
#define APP_MAX_MODEL_FILES 32
// Frames left out of --timing averages while caches and the JIT-compiled shaders warm up.
#define APP_TIMING_WARMUP_FRAMES 10

struct obj_model; // assets/obj.h

typedef enum script_kind
{
    SCRIPT_MOVE,
    SCRIPT_DOWN,
    SCRIPT_UP,
    SCRIPT_KEY,
    SCRIPT_KEYDOWN,
    SCRIPT_KEYUP,
    SCRIPT_WHEEL,
    SCRIPT_DROP
} script_kind;

typedef struct script_event
{
    int frame;
    script_kind kind;
    int x, y;     // window points
    Uint8 button; // SDL_BUTTON_*
    SDL_Keycode key;
    int wheel;
    char path[256]; // drop: the file
} script_event;

// A scene of the next / previous list: a built-in or a file.
typedef struct scene_slot
{
    level_builtin builtin;
    char path[512]; // "" for a built-in
    char name[64];
    char description[160];
} scene_slot;

enum
{
    KEY_W,
    KEY_A,
    KEY_S,
    KEY_D,
    KEY_Q,
    KEY_E,
    KEY_SHIFT,
    KEY_CTRL,
    KEY_HELD_COUNT
};

typedef struct app
{
    app_config cfg;
    SDL_Window *window;
    SDL_GLContext gl;
    renderer *r;
    render_options ropts;
    resolution res;    // the render scale: --render-scale, or adapted to the frame budget
    int width, height; // drawable (unit: px)
    float ui_scale;    // drawable px per window point (high DPI)
    level lv;
    camera cam;
    tools tl;
    joint_tools jt; // weld, rope, hinge, break (G T H B)
    hud hd;
    history hist;            // undo and redo of spawns, throws, deletes and freezes
    impacts imp;             // flashes where contacts hit hard
    sound snd;               // and knocks
    bool screenshot_pending; // F12: the frame being drawn goes to screenshots/
    int screenshot_count;
    bool show_panel, panel_started; // the settings panel (F11), and whether ImGui could start
    int substeps;                   // the world's solver sub-steps (the panel's; worlds are made with it)
    char model_files[APP_MAX_MODEL_FILES][512]; // models/*.obj, offered as projectiles
    int model_file_count;
    scene_slot scenes[APP_MAX_SCENES];
    int scene_count, scene_index;
    scene_slot current; // the scene loaded last: R loads it again
    script_event *script;
    int script_count;
    // time
    double accumulator; // owed physics steps, fractional
    float time_scale;
    float model_scale; // of a dropped .obj (the panel's "model scale"; 1: as its file has it)
    bool paused, step_once, quit, minimised, show_help, show_hud, tint_sleeping, pair_view;
    bool show_shapes; // models drawn as their collision shapes (O), not their own meshes
    ph_debug_draw debug;
    ph_body_id pair_a, pair_b;
    // input
    int mouse_x, mouse_y; // window points
    bool left_down, right_down, middle_down, grabbing_with_left;
    bool held[KEY_HELD_COUNT];
    bool pointer_seen;     // the pointer has moved or clicked in the window (the crosshair shows)
    bool hint;             // the first-start hint is on screen (until the first click or key)
    int spawn_preview;     // a spawn key (1-5) is held: its layout + 1, shown at the pointer; 0 when none
    SDL_Keycode spawn_key; // that key: releasing it spawns
    // this frame's measurements
    hud_frame frame;
    long long frame_index;
    long long total_steps;
    // --timing
    double sum_frame_ms, sum_physics_ms, sum_render_ms, sum_render_cpu_ms, sum_render_scale;
    // --timing-passes: wall time per renderer pass, then the game's parts of the frame around them
    double sum_pass_ms[RENDER_PASS_COUNT], sum_submit_ms, sum_panel_ms, sum_readback_ms, sum_present_ms;
    double sum_pass_cpu_ms[RENDER_PASS_COUNT]; // and the process's CPU time per pass
    long long timed_frames;
    double timing_cpu_start_ms; // the process's CPU time when the timed frames began (unit: ms)
    uint8_t *readback;          // --timing: one frame of RGB, read back to wait for the GL
    size_t readback_size;
    struct obj_model *projectile_model; // the last .obj loaded: thrown as the "model" projectile
    bool projectile_prepared;           // its hull is in the current world (made at the first throw of it)
    float projectile_prepared_size;     // the tools' size it was made at (0: the model's own)
    // --reel
    bool reel_on;
    reel_desc *reel_data; // the loaded reel file (owned)
    reel_player reel;
    reel_stage stage;
    int reel_views_seen, reel_message_seen;
    // --record
    record *rec;
    uint8_t *frame_rgb; // one frame read back for the recorder
    size_t frame_rgb_size;
    double record_start_ms;
    bool record_failed;
} app;

// app.c
double app_now_ms(void);
bool app_ends_with(const char *s, const char *suffix);
void app_show_error(app *a, const char *text);
void app_prepare_projectile_model(app *a);
void app_use_projectile_model(app *a, struct obj_model *model);
void app_keep_projectile_mesh(app *a);
bool app_load_scene(app *a, const scene_slot *slot_in, char *err, size_t err_size);
void app_switch_scene(app *a, int delta);
void app_reset_scene(app *a);
void app_record_current_frame(app *a);
// edit.c
void app_forget_world(app *a);
void app_spawn_at_pointer(app *a, level_layout layout);
void app_throw_at_pointer(app *a);
void app_delete_at_pointer(app *a);
void app_toggle_freeze(app *a);
void app_undo(app *a, bool redo);
void app_quick_save(app *a);
void app_quick_load(app *a);
void app_set_substeps(app *a, int substeps);
void app_save_screenshot(app *a);
// scene_list.c
const char *app_scenes_folder(void);
void app_list_scenes(app *a);
void app_list_models(app *a);
// panel.c
void app_panel_init(app *a);
void app_panel_shutdown(app *a);
bool app_panel_event(app *a, const SDL_Event *e); // true: the panel took it
void app_panel_build(app *a, float dt_seconds);
void app_panel_render(app *a);
void app_panel_report(app *a, FILE *f);
// input.c
float app_aspect(const app *a);
void app_pointer_ray(const app *a, int x, int y, ph_vec3 *out_origin, ph_vec3 *out_dir);
void app_handle_event(app *a, const SDL_Event *e);
// script.c
bool app_parse_script(app *a, const char *text, char *err, size_t err_size);
void app_push_script_events(app *a);
// draw.c
void app_draw_frame(app *a, float alpha, bool last_frame);
// report.c
bool app_write_report(app *a, float alpha);
void app_add_timing(app *a);
void app_print_timing(const app *a);
