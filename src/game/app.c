// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The game loop. Each frame: synthetic script events are pushed, SDL events are handled (tools, camera,
// keys), the physics advances by as many fixed steps as the clock owes (at most APP_MAX_STEPS_PER_FRAME,
// so a slow frame cannot spiral), and the renderer draws poses interpolated between the last two steps
// with alpha = the accumulator's leftover fraction of a step (Fiedler, "Fix your timestep!", 2004).
// With --frames every frame advances exactly one frame of simulated time, which makes runs (and the GL
// tests) reproducible. --headless runs the same world without SDL video or GL. With --reel the demo reel
// (reel.c) drives the level, the camera and the debug views instead of the player; with --record every
// frame advances exactly 1/fps s, is drawn into the renderer's off-screen target of the recording's size
// and goes to the recorder (record.c), whatever the window and the wall clock do.
#define _POSIX_C_SOURCE 200809L // opendir/readdir: listing scenes/*.json

#include "game/app.h"

#include "assets/obj.h"
#include "assets/reel_file.h"
#include "game/camera.h"
#include "game/hud.h"
#include "game/level.h"
#include "game/record.h"
#include "game/reel.h"
#include "game/tools.h"
#include "recipes/recipes.h"
#include "render/gl.h"
#include "render/renderer.h"

#include "phys/phys.h"

#include <SDL2/SDL.h> // window, GL context, events, timers
#include <dirent.h>   // opendir, readdir: the scenes folder
#include <math.h>     // floor, fabs
#include <stdio.h>    // fprintf, printf, FILE
#include <stdlib.h>   // getenv, calloc, free, qsort
#include <string.h>   // strcmp, strlen, strrchr

// Most physics steps one frame may run; the rest of a long frame's debt is dropped (slow motion of the
// whole game instead of a spiral of ever longer frames).
#define APP_MAX_STEPS_PER_FRAME 4
// A step is owed when the accumulator is within this of a whole step (unit: steps), so that 10 frames
// of 0.1x slow motion make exactly one step despite rounding.
#define APP_ACCUMULATOR_EPSILON 1e-6
// The longest frame the clock counts (a debugger pause or a window drag) (unit: s).
#define APP_MAX_FRAME_SECONDS 0.25
// Slow-motion time scale.
#define APP_SLOW_MOTION 0.1f
// Frames left out of --timing averages while caches and the JIT-compiled shaders warm up.
#define APP_TIMING_WARMUP_FRAMES 10
// While minimised the loop sleeps this long per iteration instead of drawing (unit: ms).
#define APP_MINIMISED_WAIT_MS 50
// Most scenes listed for next / previous, and most script events.
#define APP_MAX_SCENES 64
#define APP_MAX_SCRIPT_EVENTS 1024
// The grab spring is drawn as a line of this colour (sRGB 0xRRGGBBAA).
#define APP_GRAB_LINE_RGBA 0xffff40ffu
// Boxes in the "boxes" scene when --boxes is not given.
#define APP_DEFAULT_BOX_COUNT 1000
// A recording reports its progress every this many seconds of video (unit: s).
#define APP_RECORD_PROGRESS_SECONDS 10

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
    int width, height; // drawable (unit: px)
    float ui_scale;    // drawable px per window point (high DPI)
    level lv;
    camera cam;
    tools tl;
    hud hd;
    scene_slot scenes[APP_MAX_SCENES];
    int scene_count, scene_index;
    script_event *script;
    int script_count;
    // time
    double accumulator; // owed physics steps, fractional
    float time_scale;
    bool paused, step_once, quit, minimised, show_help, show_hud, tint_sleeping, pair_view;
    ph_debug_draw debug;
    ph_body_id pair_a, pair_b;
    // input
    int mouse_x, mouse_y; // window points
    bool left_down, right_down, middle_down, grabbing_with_left;
    bool held[KEY_HELD_COUNT];
    // this frame's measurements
    hud_frame frame;
    long long frame_index;
    long long total_steps;
    // --timing
    double sum_frame_ms, sum_physics_ms, sum_render_ms, sum_render_cpu_ms;
    long long timed_frames;
    // --report: bodies at the start
    uint8_t *readback; // --timing: one frame of RGB, read back to wait for the GL
    size_t readback_size;
    obj_model *projectile_model; // the last .obj loaded: thrown as the "model" projectile
    bool projectile_prepared;    // its hull is in the current world (made at the first throw of it)
    ph_body_id *start_ids;
    ph_vec3 *start_pos;
    int start_count;
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

app_config app_default_config(void)
{
    app_config c;
    memset(&c, 0, sizeof c);
    c.width = APP_DEFAULT_WIDTH;
    c.height = APP_DEFAULT_HEIGHT;
    c.seed = 1;
    c.vsync = true;
    c.shadows = true;
    c.hud = true;
    c.fps = RECORD_DEFAULT_FPS;
    return c;
}

static double now_ms(void)
{
    return 1000.0 * (double)SDL_GetPerformanceCounter() / (double)SDL_GetPerformanceFrequency();
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && SDL_strcasecmp(s + n - m, suffix) == 0;
}

// ---- Scenes ---------------------------------------------------------------------------------------------

static int compare_slots(const void *a, const void *b)
{
    return strcmp(((const scene_slot *)a)->path, ((const scene_slot *)b)->path);
}

// The scenes folder: next to the working directory, else in the source tree.
static const char *scenes_folder(void)
{
    DIR *d = opendir("scenes");
    if (d)
    {
        closedir(d);
        return "scenes";
    }
    return SANDBOX_SOURCE_DIR "/scenes";
}

// Built-ins first, then scenes/*.json in name order (the reel file and its own scenes, reel*.json, are
// left to the reel).
static void list_scenes(app *a)
{
    a->scene_count = 0;
    for (int b = 0; b < LEVEL_BUILTIN_COUNT && a->scene_count < APP_MAX_SCENES; b++)
    {
        a->scenes[a->scene_count].builtin = (level_builtin)b;
        a->scenes[a->scene_count].path[0] = '\0';
        a->scene_count++;
    }
    const char *folder = scenes_folder();
    DIR *d = opendir(folder);
    if (!d)
        return;
    int first_file = a->scene_count;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && a->scene_count < APP_MAX_SCENES)
    {
        if (!ends_with(e->d_name, ".json") || strncmp(e->d_name, "reel", strlen("reel")) == 0)
            continue;
        scene_slot *s = &a->scenes[a->scene_count];
        int n = snprintf(s->path, sizeof s->path, "%s/%s", folder, e->d_name);
        if (n > 0 && (size_t)n < sizeof s->path)
            a->scene_count++;
    }
    closedir(d);
    qsort(a->scenes + first_file, (size_t)(a->scene_count - first_file), sizeof a->scenes[0], compare_slots);
}

static void record_start_positions(app *a)
{
    free(a->start_ids);
    free(a->start_pos);
    a->start_ids = NULL;
    a->start_pos = NULL;
    a->start_count = 0;
    int n = 0;
    const ph_body_id *ids = level_list_bodies(&a->lv, &n);
    if (n <= 0)
        return;
    a->start_ids = malloc((size_t)n * sizeof *a->start_ids);
    a->start_pos = malloc((size_t)n * sizeof *a->start_pos);
    if (!a->start_ids || !a->start_pos)
        return;
    for (int i = 0; i < n; i++)
    {
        a->start_ids[i] = ids[i];
        a->start_pos[i] = ph_body_get_position(a->lv.world, ids[i]);
    }
    a->start_count = n;
}

static void show_error(app *a, const char *text)
{
    fprintf(stderr, "sandbox: %s\n", text);
    hud_message(&a->hd, true, text);
}

// Makes the loaded model throwable in the current world: its convex hull as world geometry (worlds own
// their geometry, so this runs once per level) and, once, its render mesh about the hull's centre of
// mass (the body origin). It runs at the first throw of the model, not at load: the level has just
// built the same model's bodies, and building its hull and render mesh a second time made opening a
// 29k-triangle .obj take 1.6 times as long as the same model through a JSON scene (issue 22, defect 4).
static void prepare_projectile_model(app *a)
{
    if (a->projectile_prepared)
        return;
    a->projectile_prepared = true;
    a->tl.model_geom = PH_NULL_GEOM_ID;
    if (!a->projectile_model)
        return;
    char err[1024] = "";
    if (!level_model_projectile(&a->lv, a->projectile_model, a->r, &a->tl.model_geom, &a->tl.model_mesh, err,
                                sizeof err))
    {
        // The model itself is in the level (as static geometry if it is flat); only throwing it is not
        // possible, so this is a warning and the projectile stays a box or a sphere.
        char text[1200];
        snprintf(text, sizeof text, "warning: %s; it cannot be thrown", err);
        fprintf(stderr, "sandbox: %s\n", text);
        hud_message(&a->hd, false, text);
    }
}

// Loads the scene in a slot (or the file path), replacing the level only when the new one loaded, so a
// bad file leaves the game running on the old scene with the error on screen.
static bool load_scene(app *a, const scene_slot *slot, char *err, size_t err_size)
{
    level next;
    bool ok = slot->path[0]
                  ? level_load_file(&next, slot->path, a->r, a->cfg.seed, err, err_size)
                  : level_load_builtin(&next, slot->builtin,
                                       a->cfg.box_count > 0 ? a->cfg.box_count : APP_DEFAULT_BOX_COUNT,
                                       a->cfg.seed, err, err_size);
    if (!ok)
        return false;
    tools_grab_end(&a->tl);
    a->tl.charging = false;
    level_unload(&a->lv, a->r);
    a->lv = next;
    a->tl.model_geom = PH_NULL_GEOM_ID;
    a->accumulator = 0.0;
    a->pair_view = false;
    camera_init(&a->cam, a->lv.camera_eye, a->lv.camera_target, a->lv.camera_fov);
    if (a->lv.model)
    {
        // A newly loaded model replaces the projectile model (its old render mesh goes with it).
        obj_free(a->projectile_model);
        a->projectile_model = a->lv.model;
        a->lv.model = NULL;
        if (a->tl.model_mesh >= 0 && a->r)
            renderer_remove_mesh(a->r, a->tl.model_mesh);
        a->tl.model_mesh = -1;
    }
    a->projectile_prepared = false; // a new world: the model's hull is made again at its first throw
    if (a->lv.warning[0])
        hud_message(&a->hd, false, a->lv.warning);
    record_start_positions(a);
    return true;
}

static void switch_scene(app *a, int delta)
{
    if (a->scene_count <= 0)
        return;
    char err[1024] = "";
    for (int tries = 0; tries < a->scene_count; tries++)
    {
        a->scene_index = ((a->scene_index + delta) % a->scene_count + a->scene_count) % a->scene_count;
        if (load_scene(a, &a->scenes[a->scene_index], err, sizeof err))
        {
            if (!a->lv.warning[0])
                hud_message(&a->hd, false, a->lv.name);
            return;
        }
        show_error(a, err);
        if (delta == 0)
            return;
    }
}

// ---- Physics --------------------------------------------------------------------------------------------

static void step_once(app *a)
{
    level_begin_step(&a->lv);
    tools_grab_apply(&a->tl, &a->lv);
    double t0 = now_ms();
    ph_world_step(a->lv.world);
    a->frame.physics_ms += (float)(now_ms() - t0);
    const ph_step_stats *s = ph_world_get_stats(a->lv.world);
    if (s)
    {
        for (int i = 0; i < PH_STAGE_COUNT; i++)
            a->frame.stage_ms[i] += s->ms_stage[i];
        a->frame.calendar_events += s->calendar_events;
    }
    a->frame.steps++;
    a->total_steps++;
}

// Advances the accumulator by dt (unit: s) of game time and runs the steps it owes. Returns the
// interpolation factor between the previous and the current step.
static float advance_physics(app *a, double dt)
{
    double h = (double)ph_world_get_time_step(a->lv.world);
    if (!a->paused)
        a->accumulator += dt * (double)a->time_scale / h;
    int owed = (int)floor(a->accumulator + APP_ACCUMULATOR_EPSILON);
    if (owed > APP_MAX_STEPS_PER_FRAME)
    {
        // Drop the debt beyond the cap: the game runs slower than real time instead of spiralling.
        a->accumulator -= (double)(owed - APP_MAX_STEPS_PER_FRAME);
        owed = APP_MAX_STEPS_PER_FRAME;
    }
    for (int i = 0; i < owed; i++)
        step_once(a);
    a->accumulator -= (double)owed;
    if (a->accumulator < 0.0)
        a->accumulator = 0.0;
    if (a->paused && a->step_once)
    {
        step_once(a);
        // Show the stepped state as is: no interpolation back towards the previous one.
        level_begin_step(&a->lv);
    }
    a->step_once = false;
    return (float)a->accumulator;
}

// ---- Input ----------------------------------------------------------------------------------------------

static float aspect(const app *a)
{
    return a->height > 0 ? (float)a->width / (float)a->height : 1.0f;
}

// The camera ray through a point of the window (unit: window points).
static void pointer_ray(const app *a, int x, int y, ph_vec3 *out_origin, ph_vec3 *out_dir)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(a->window, &ww, &wh);
    camera_pixel_ray(&a->cam, (float)x / (float)(ww > 0 ? ww : 1), (float)y / (float)(wh > 0 ? wh : 1),
                     aspect(a), out_origin, out_dir);
}

static void throw_at_pointer(app *a)
{
    ph_vec3 o, d;
    pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
    char err[512] = "";
    if (a->tl.projectile == TOOLS_PROJECTILE_MODEL)
        prepare_projectile_model(a);
    ph_body_id id = tools_throw(&a->tl, &a->lv, o, d, err, sizeof err);
    if (err[0])
        show_error(a, err);
    (void)id;
}

static void spawn_at_pointer(app *a, level_layout layout)
{
    ph_vec3 o, d;
    pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
    char err[512] = "";
    if (!tools_spawn_at(&a->lv, layout, o, d, err, sizeof err))
        show_error(a, err);
}

static void pick_pair(app *a)
{
    ph_vec3 o, d;
    pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
    ph_body_id picked = tools_pick(&a->lv, o, d, NULL);
    if (PH_ID_IS_NULL(picked))
    {
        hud_message(&a->hd, false, "GJK/EPA view: point at a body that touches another and press F7");
        return;
    }
    // Its partner: the body of the deepest contact it has in the last step.
    enum
    {
        MAX_CONTACTS = 4096
    };
    static ph_contact_info contacts[MAX_CONTACTS];
    int n = ph_world_get_contacts(a->lv.world, contacts, MAX_CONTACTS);
    n = n < MAX_CONTACTS ? n : MAX_CONTACTS;
    ph_body_id partner = PH_NULL_BODY_ID;
    float deepest = INFINITY;
    for (int i = 0; i < n; i++)
    {
        ph_body_id other = PH_ID_EQUALS(contacts[i].a, picked)   ? contacts[i].b
                           : PH_ID_EQUALS(contacts[i].b, picked) ? contacts[i].a
                                                                 : PH_NULL_BODY_ID;
        if (!PH_ID_IS_NULL(other) && contacts[i].separation < deepest)
        {
            deepest = contacts[i].separation;
            partner = other;
        }
    }
    if (PH_ID_IS_NULL(partner))
    {
        hud_message(&a->hd, false, "GJK/EPA view: that body touches nothing");
        return;
    }
    a->pair_a = picked;
    a->pair_b = partner;
    a->pair_view = true;
}

static void release_input(app *a)
{
    memset(a->held, 0, sizeof a->held);
    a->left_down = a->right_down = a->middle_down = false;
    a->grabbing_with_left = false;
    tools_grab_end(&a->tl);
    a->tl.charging = false;
}

static void set_held(app *a, SDL_Keycode key, bool down)
{
    switch (key)
    {
    case SDLK_w:
        a->held[KEY_W] = down;
        break;
    case SDLK_a:
        a->held[KEY_A] = down;
        break;
    case SDLK_s:
        a->held[KEY_S] = down;
        break;
    case SDLK_d:
        a->held[KEY_D] = down;
        break;
    case SDLK_q:
        a->held[KEY_Q] = down;
        break;
    case SDLK_e:
        a->held[KEY_E] = down;
        break;
    case SDLK_LSHIFT:
    case SDLK_RSHIFT:
        a->held[KEY_SHIFT] = down;
        break;
    case SDLK_LCTRL:
    case SDLK_RCTRL:
        a->held[KEY_CTRL] = down;
        break;
    default:
        break;
    }
}

// ---- Demo reel ------------------------------------------------------------------------------------------

// One physics step of the reel's world: the game's own step, which keeps interpolation and HUD timings.
static void reel_step(void *context)
{
    step_once(context);
}

// Shows a message of the reel that the game has not shown yet (a failed action or segment).
static void show_reel_message(app *a)
{
    if (a->reel.message_version == a->reel_message_seen)
        return;
    a->reel_message_seen = a->reel.message_version;
    if (a->reel.message[0])
        show_error(a, a->reel.message);
}

// Applies the debug views the reel set since the last frame; the F keys change them in between.
static void sync_reel_views(app *a)
{
    if (a->reel.views_version == a->reel_views_seen)
        return;
    a->reel_views_seen = a->reel.views_version;
    const bool *v = a->reel.views;
    a->debug.draw_contacts = v[REEL_VIEW_CONTACTS];
    a->debug.draw_bounds = v[REEL_VIEW_BOUNDS];
    a->debug.draw_octree = v[REEL_VIEW_OCTREE];
    a->tint_sleeping = v[REEL_VIEW_SLEEPING];
    a->debug.draw_calendar = v[REEL_VIEW_CALENDAR];
    a->pair_view = v[REEL_VIEW_PAIR];
    // The simplex and the polytope lie mostly inside the two bodies: draw them through the geometry.
    a->ropts.debug_xray = v[REEL_VIEW_PAIR];
    a->pair_a = a->reel.pair[0];
    a->pair_b = a->reel.pair[1];
}

// The reel's keys. Returns false for the keys that keep their usual meaning while the reel plays (help,
// debug views, HUD, shadows, quit); the tools' keys do nothing, since the reel drives the scene.
static bool on_reel_key(app *a, SDL_Keycode key)
{
    switch (key)
    {
    case SDLK_RIGHT:
    case SDLK_PAGEDOWN:
        reel_skip(&a->reel, &a->stage, 1);
        break;
    case SDLK_LEFT:
    case SDLK_PAGEUP:
        reel_skip(&a->reel, &a->stage, -1);
        break;
    case SDLK_r:
        reel_skip(&a->reel, &a->stage, 0);
        break;
    case SDLK_p:
    case SDLK_SPACE:
        a->reel.paused = !a->reel.paused;
        break;
    case SDLK_ESCAPE:
    case SDLK_F1:
    case SDLK_F2:
    case SDLK_F3:
    case SDLK_F4:
    case SDLK_F5:
    case SDLK_F6:
    case SDLK_F7:
    case SDLK_F8:
    case SDLK_F9:
    case SDLK_F10:
        return false;
    default:
        break;
    }
    return true;
}

static void on_key(app *a, SDL_Keycode key)
{
    ph_vec3 o, d;
    if (a->reel_on && on_reel_key(a, key))
        return;
    switch (key)
    {
    case SDLK_ESCAPE:
        a->quit = true;
        break;
    case SDLK_F1:
        a->show_help = !a->show_help;
        break;
    case SDLK_F2:
        a->debug.draw_contacts = !a->debug.draw_contacts;
        break;
    case SDLK_F3:
        a->debug.draw_bounds = !a->debug.draw_bounds;
        break;
    case SDLK_F4:
        a->debug.draw_octree = !a->debug.draw_octree;
        break;
    case SDLK_F5:
        a->tint_sleeping = !a->tint_sleeping;
        break;
    case SDLK_F6:
        a->debug.draw_calendar = !a->debug.draw_calendar;
        break;
    case SDLK_F7:
        if (a->pair_view)
            a->pair_view = false;
        else
            pick_pair(a);
        break;
    case SDLK_F8:
        a->show_hud = !a->show_hud;
        break;
    case SDLK_F9:
        a->ropts.shadows = !a->ropts.shadows;
        break;
    case SDLK_F10:
        a->ropts.debug_xray = !a->ropts.debug_xray;
        break;
    case SDLK_c:
        camera_toggle_mode(&a->cam);
        break;
    case SDLK_TAB:
        tools_next_projectile(&a->tl);
        break;
    case SDLK_1:
        spawn_at_pointer(a, LEVEL_LAYOUT_TOWER);
        break;
    case SDLK_2:
        spawn_at_pointer(a, LEVEL_LAYOUT_PYRAMID);
        break;
    case SDLK_3:
        spawn_at_pointer(a, LEVEL_LAYOUT_WALL);
        break;
    case SDLK_4:
        spawn_at_pointer(a, LEVEL_LAYOUT_DOMINOES);
        break;
    case SDLK_5:
        spawn_at_pointer(a, LEVEL_LAYOUT_RAIN);
        break;
    case SDLK_x:
    case SDLK_DELETE:
        pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
        if (!tools_delete_at(&a->tl, &a->lv, o, d))
            hud_message(&a->hd, false, "nothing to delete under the pointer (static bodies stay)");
        break;
    case SDLK_p:
    case SDLK_SPACE:
        a->paused = !a->paused;
        break;
    case SDLK_n:
        a->paused = true;
        a->step_once = true;
        break;
    case SDLK_m:
        a->time_scale = a->time_scale < 1.0f ? 1.0f : APP_SLOW_MOTION;
        break;
    case SDLK_r:
        switch_scene(a, 0);
        break;
    case SDLK_PAGEDOWN:
        switch_scene(a, 1);
        break;
    case SDLK_PAGEUP:
        switch_scene(a, -1);
        break;
    default:
        break;
    }
}

static void on_drop(app *a, const char *path)
{
    char err[1024] = "";
    scene_slot slot;
    memset(&slot, 0, sizeof slot);
    snprintf(slot.path, sizeof slot.path, "%s", path);
    if (ends_with(path, ".json") || ends_with(path, ".obj"))
    {
        if (load_scene(a, &slot, err, sizeof err))
        {
            if (!a->lv.warning[0])
                hud_message(&a->hd, false, a->lv.name);
        }
        else
            show_error(a, err);
    }
    else
    {
        snprintf(err, sizeof err, "%s: not a scene (.json) or model (.obj)", path);
        show_error(a, err);
    }
}

// Mouse motion, buttons and wheel: the camera and the tools.
static void handle_pointer(app *a, const SDL_Event *e)
{
    ph_vec3 o, d;
    switch (e->type)
    {
    case SDL_MOUSEMOTION:
    {
        int dx = e->motion.x - a->mouse_x, dy = e->motion.y - a->mouse_y;
        a->mouse_x = e->motion.x;
        a->mouse_y = e->motion.y;
        if (a->right_down)
            camera_rotate(&a->cam, (float)dx * a->ui_scale, (float)dy * a->ui_scale);
        if (a->middle_down)
            camera_pan(&a->cam, (float)dx * a->ui_scale, (float)dy * a->ui_scale, a->height);
        break;
    }
    case SDL_MOUSEBUTTONDOWN:
        a->mouse_x = e->button.x;
        a->mouse_y = e->button.y;
        if (e->button.button == SDL_BUTTON_LEFT)
        {
            a->left_down = true;
            pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
            // Ctrl as seen in the events (not SDL_GetModState), so scripted input can grab too.
            if (a->held[KEY_CTRL] && tools_grab_begin(&a->tl, &a->lv, o, d, camera_forward(&a->cam)))
                a->grabbing_with_left = true;
            else
                tools_begin_charge(&a->tl);
        }
        else if (e->button.button == SDL_BUTTON_RIGHT)
            a->right_down = true;
        else if (e->button.button == SDL_BUTTON_MIDDLE)
            a->middle_down = true;
        break;
    case SDL_MOUSEBUTTONUP:
        a->mouse_x = e->button.x;
        a->mouse_y = e->button.y;
        if (e->button.button == SDL_BUTTON_LEFT && a->left_down)
        {
            a->left_down = false;
            if (a->grabbing_with_left)
            {
                tools_grab_end(&a->tl);
                a->grabbing_with_left = false;
            }
            else if (a->tl.charging)
                throw_at_pointer(a);
        }
        else if (e->button.button == SDL_BUTTON_RIGHT)
            a->right_down = false;
        else if (e->button.button == SDL_BUTTON_MIDDLE)
            a->middle_down = false;
        break;
    case SDL_MOUSEWHEEL:
        camera_zoom(&a->cam,
                    (float)(e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e->wheel.y : e->wheel.y));
        break;
    default:
        break;
    }
}

static void handle_event(app *a, const SDL_Event *e)
{
    switch (e->type)
    {
    case SDL_QUIT:
        a->quit = true;
        break;
    case SDL_WINDOWEVENT:
        switch (e->window.event)
        {
        case SDL_WINDOWEVENT_SIZE_CHANGED:
        case SDL_WINDOWEVENT_RESIZED:
        {
            // A recording keeps the size it started with: its frames come from the off-screen target.
            if (a->cfg.record_path)
                break;
            int ww = 1;
            SDL_GL_GetDrawableSize(a->window, &a->width, &a->height);
            SDL_GetWindowSize(a->window, &ww, NULL);
            a->ui_scale = ww > 0 ? (float)a->width / (float)ww : 1.0f;
            if (a->width > 0 && a->height > 0)
                renderer_resize(a->r, a->width, a->height);
            break;
        }
        case SDL_WINDOWEVENT_MINIMIZED:
            a->minimised = true;
            break;
        case SDL_WINDOWEVENT_RESTORED:
        case SDL_WINDOWEVENT_MAXIMIZED:
        case SDL_WINDOWEVENT_SHOWN:
            a->minimised = false;
            break;
        case SDL_WINDOWEVENT_FOCUS_LOST:
            release_input(a);
            break;
        default:
            break;
        }
        break;
    case SDL_KEYDOWN:
        set_held(a, e->key.keysym.sym, true);
        if (!e->key.repeat)
            on_key(a, e->key.keysym.sym);
        break;
    case SDL_KEYUP:
        set_held(a, e->key.keysym.sym, false);
        break;
    case SDL_MOUSEMOTION:
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
    case SDL_MOUSEWHEEL:
        // While the reel plays, its camera path and actions drive the scene, not the pointer.
        if (a->reel_on)
            break;
        handle_pointer(a, e);
        break;
    case SDL_DROPFILE:
        if (e->drop.file)
        {
            if (a->reel_on)
                hud_message(&a->hd, false, "the demo reel is playing: dropped files are not loaded");
            else
                on_drop(a, e->drop.file);
            SDL_free(e->drop.file);
        }
        break;
    default:
        break;
    }
}

// ---- Script ---------------------------------------------------------------------------------------------

static bool parse_button(const char *s, Uint8 *out)
{
    if (strcmp(s, "left") == 0)
        *out = SDL_BUTTON_LEFT;
    else if (strcmp(s, "middle") == 0)
        *out = SDL_BUTTON_MIDDLE;
    else if (strcmp(s, "right") == 0)
        *out = SDL_BUTTON_RIGHT;
    else
        return false;
    return true;
}

// Parses "FRAME EVENT ARGS; ..." (see --help). False with a message naming the bad command.
static bool parse_script(app *a, const char *text, char *err, size_t err_size)
{
    a->script = calloc(APP_MAX_SCRIPT_EVENTS, sizeof *a->script);
    if (!a->script)
    {
        snprintf(err, err_size, "--script: out of memory");
        return false;
    }
    const char *p = text;
    int index = 0;
    while (*p)
    {
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char cmd[256];
        if (len >= sizeof cmd)
        {
            snprintf(err, err_size, "--script: command %d is too long", index + 1);
            return false;
        }
        memcpy(cmd, p, len);
        cmd[len] = '\0';
        p = end ? end + 1 : p + len;
        char word[32] = "", arg[64] = "";
        int frame = -1, x = 0, y = 0, used = 0;
        if (sscanf(cmd, " %d %31s%n", &frame, word, &used) < 2)
        {
            bool blank = true;
            for (const char *c = cmd; *c; c++)
                blank = blank && (*c == ' ' || *c == '\t' || *c == '\n');
            if (blank)
                continue;
            snprintf(err, err_size, "--script: command %d '%s': expected 'FRAME EVENT ARGS'", index + 1, cmd);
            return false;
        }
        if (a->script_count >= APP_MAX_SCRIPT_EVENTS || frame < 0)
        {
            snprintf(err, err_size, "--script: command %d '%s': bad frame or too many commands", index + 1,
                     cmd);
            return false;
        }
        script_event *ev = &a->script[a->script_count];
        ev->frame = frame;
        const char *rest = cmd + used;
        bool ok = false;
        if (strcmp(word, "move") == 0)
        {
            ev->kind = SCRIPT_MOVE;
            ok = sscanf(rest, "%d %d", &x, &y) == 2;
        }
        else if (strcmp(word, "down") == 0 || strcmp(word, "up") == 0)
        {
            ev->kind = word[0] == 'd' ? SCRIPT_DOWN : SCRIPT_UP;
            ok = sscanf(rest, "%d %d %63s", &x, &y, arg) == 3 && parse_button(arg, &ev->button);
        }
        else if (strcmp(word, "key") == 0 || strcmp(word, "keydown") == 0 || strcmp(word, "keyup") == 0)
        {
            ev->kind = strcmp(word, "key") == 0
                           ? SCRIPT_KEY
                           : (strcmp(word, "keydown") == 0 ? SCRIPT_KEYDOWN : SCRIPT_KEYUP);
            // The key name is the rest of the command, spaces included ("Left Ctrl"), trimmed.
            while (*rest == ' ' || *rest == '\t')
                rest++;
            snprintf(arg, sizeof arg, "%s", rest);
            for (size_t n = strlen(arg);
                 n > 0 && (arg[n - 1] == ' ' || arg[n - 1] == '\t' || arg[n - 1] == '\n'); n--)
                arg[n - 1] = '\0';
            ok = arg[0] && (ev->key = SDL_GetKeyFromName(arg)) != SDLK_UNKNOWN;
        }
        else if (strcmp(word, "drop") == 0)
        {
            ev->kind = SCRIPT_DROP;
            ok = sscanf(rest, " %255s", ev->path) == 1;
        }
        else if (strcmp(word, "wheel") == 0)
        {
            ev->kind = SCRIPT_WHEEL;
            ok = sscanf(rest, "%d", &ev->wheel) == 1;
        }
        if (!ok)
        {
            snprintf(err, err_size, "--script: command %d '%s': unknown event or bad arguments", index + 1,
                     cmd);
            return false;
        }
        ev->x = x;
        ev->y = y;
        a->script_count++;
        index++;
    }
    return true;
}

static void push_key(app *a, SDL_Keycode key, bool down)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.windowID = SDL_GetWindowID(a->window);
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.sym = key;
    e.key.keysym.scancode = SDL_GetScancodeFromKey(key);
    SDL_PushEvent(&e);
}

// Pushes this frame's scripted events into SDL's queue: they are handled exactly like real input.
static void push_script_events(app *a)
{
    Uint32 window_id = SDL_GetWindowID(a->window);
    for (int i = 0; i < a->script_count; i++)
    {
        const script_event *s = &a->script[i];
        if (s->frame != a->frame_index)
            continue;
        SDL_Event e;
        memset(&e, 0, sizeof e);
        switch (s->kind)
        {
        case SCRIPT_MOVE:
            e.type = SDL_MOUSEMOTION;
            e.motion.windowID = window_id;
            e.motion.x = s->x;
            e.motion.y = s->y;
            SDL_PushEvent(&e);
            break;
        case SCRIPT_DOWN:
        case SCRIPT_UP:
            e.type = s->kind == SCRIPT_DOWN ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
            e.button.windowID = window_id;
            e.button.button = s->button;
            e.button.state = s->kind == SCRIPT_DOWN ? SDL_PRESSED : SDL_RELEASED;
            e.button.clicks = 1;
            e.button.x = s->x;
            e.button.y = s->y;
            SDL_PushEvent(&e);
            break;
        case SCRIPT_KEY:
            push_key(a, s->key, true);
            push_key(a, s->key, false);
            break;
        case SCRIPT_KEYDOWN:
            push_key(a, s->key, true);
            break;
        case SCRIPT_KEYUP:
            push_key(a, s->key, false);
            break;
        case SCRIPT_DROP:
            // As SDL delivers a dropped file: a copy the handler frees with SDL_free.
            e.type = SDL_DROPFILE;
            e.drop.windowID = window_id;
            e.drop.file = SDL_strdup(s->path);
            if (e.drop.file && SDL_PushEvent(&e) != 1)
                SDL_free(e.drop.file);
            break;
        case SCRIPT_WHEEL:
            e.type = SDL_MOUSEWHEEL;
            e.wheel.windowID = window_id;
            e.wheel.y = s->wheel;
            SDL_PushEvent(&e);
            break;
        }
    }
}

// ---- Drawing --------------------------------------------------------------------------------------------

static void debug_views_text(const app *a, char *out, size_t size)
{
    snprintf(out, size, "%s%s%s%s%s%s", a->debug.draw_contacts ? "contacts " : "",
             a->debug.draw_bounds ? "bounds " : "", a->debug.draw_octree ? "octree " : "",
             a->tint_sleeping ? "sleeping " : "", a->debug.draw_calendar ? "calendar " : "",
             a->pair_view ? "gjk/epa " : "");
}

// Reads the frame just drawn back and hands it to the recorder; a failure ends the run with status 1.
static void record_current_frame(app *a)
{
    char err[1024] = "";
    if (!renderer_read_rgb(a->r, a->frame_rgb, a->frame_rgb_size))
        snprintf(err, sizeof err, "--record %s: reading the frame back failed", a->cfg.record_path);
    else if (record_frame(a->rec, a->frame_rgb, err, sizeof err))
    {
        int frames = record_frame_count(a->rec);
        if (frames % (APP_RECORD_PROGRESS_SECONDS * a->cfg.fps) == 0)
        {
            double wall_s = (now_ms() - a->record_start_ms) / 1000.0, video_s = (double)frames / a->cfg.fps;
            printf("recording %s: %d frames (%.0f s of video) in %.1f s\n", a->cfg.record_path, frames,
                   video_s, wall_s);
            fflush(stdout);
        }
        return;
    }
    fprintf(stderr, "sandbox: %s\n", err);
    a->record_failed = true;
    a->quit = true;
}

static void draw_frame(app *a, float alpha, bool last_frame)
{
    double t0 = now_ms();
    render_camera rc = camera_render_camera(&a->cam, aspect(a));
    renderer_begin_frame(a->r, &rc);
    level_submit(&a->lv, a->r, alpha, a->tint_sleeping);
    if (a->debug.draw_contacts || a->debug.draw_bounds || a->debug.draw_octree || a->debug.draw_calendar)
        renderer_debug_world(a->r, a->lv.world, &a->debug);
    if (a->pair_view)
    {
        if (ph_body_is_valid(a->lv.world, a->pair_a) && ph_body_is_valid(a->lv.world, a->pair_b))
            renderer_debug_pair(a->r, a->lv.world, a->pair_a, a->pair_b, NULL);
        else
            a->pair_view = false;
    }
    if (a->tl.grabbing && ph_body_is_valid(a->lv.world, a->tl.grabbed))
    {
        ph_transform xf = level_interpolate(&a->lv, a->tl.grabbed, alpha);
        renderer_line(a->r, ph_transform_point(xf, a->tl.grab_local), a->tl.grab_target, APP_GRAB_LINE_RGBA);
    }
    if (a->show_hud && !a->show_help)
    {
        char views[128];
        debug_views_text(a, views, sizeof views);
        hud_status st = {
            .time_scale = a->reel_on ? reel_time_scale(&a->reel) : a->time_scale,
            .paused = a->reel_on ? a->reel.paused : a->paused,
            .camera_mode = a->cam.mode == CAMERA_ORBIT ? "orbit" : "fly",
            .projectile = tools_projectile_name(a->tl.projectile),
            .scene = a->reel_on ? a->reel.desc->segments[a->reel.segment].name : a->lv.name,
            .charging = a->tl.charging,
            .charge_speed = tools_charge_speed(&a->tl),
            .charge_max_speed = TOOLS_MAX_THROW_SPEED,
            .debug_views = views,
            .shader_error = renderer_shader_error(a->r),
        };
        hud_draw(&a->hd, a->r, &st, a->width, a->height, a->ui_scale);
    }
    if (a->reel_on && !a->show_help)
    {
        const reel_segment *seg = &a->reel.desc->segments[a->reel.segment];
        char status[256];
        reel_status_text(&a->reel, &a->lv, status, sizeof status);
        hud_draw_caption(a->r, seg->title, seg->line, status, a->width, a->height);
    }
    if (a->show_help)
        hud_draw_help(a->r, a->width, a->height, a->ui_scale);
    renderer_draw(a->r, &a->ropts);
    if (a->rec)
        record_current_frame(a);
    if (last_frame && a->cfg.screenshot_path)
    {
        char err[512] = "";
        if (!renderer_screenshot(a->r, a->cfg.screenshot_path, err, sizeof err))
            fprintf(stderr, "sandbox: %s\n", err);
    }
    if (a->cfg.timing && a->readback)
    {
        // Reading the frame back waits until the GL has finished drawing it: without a display the
        // swap below need not wait, and the frame time would count only the submission.
        renderer_read_rgb(a->r, a->readback, a->readback_size);
    }
    const render_stats *rs = renderer_get_stats(a->r);
    a->frame.instances = rs->instances;
    a->frame.draw_calls = rs->draw_calls;
    // A recording draws off screen into a hidden window: there is nothing to show, and nothing to wait for.
    if (!a->rec)
        SDL_GL_SwapWindow(a->window);
    a->frame.render_ms = (float)(now_ms() - t0);
    if (a->frame_index >= APP_TIMING_WARMUP_FRAMES)
        a->sum_render_cpu_ms += (double)rs->ms_cpu;
}

// ---- Report (for tests) ---------------------------------------------------------------------------------

static bool write_report(app *a, float alpha)
{
    FILE *f = fopen(a->cfg.report_path, "w");
    if (!f)
    {
        fprintf(stderr, "sandbox: %s: cannot write the report\n", a->cfg.report_path);
        return false;
    }
    fprintf(f, "size %d %d\nframes %lld\nsteps %lld\ngl_errors %d\neye %.4f %.4f %.4f\nfov %.4f\n", a->width,
            a->height, a->frame_index, a->total_steps, a->r ? gl_error_count() : 0, (double)a->cam.eye.x,
            (double)a->cam.eye.y, (double)a->cam.eye.z, (double)glm_deg(a->cam.fov_y));
    if (a->lv.world)
        fprintf(f, "state_hash %016llx\n", (unsigned long long)ph_world_hash(a->lv.world));
    if (a->reel_on)
        fprintf(f, "reel_segment %d\nreel_segments_started %d\nreel_time %.4f\n", a->reel.segment,
                a->reel.segments_started, (double)reel_segment_time(&a->reel));
    // One line per body alive at the start: slot, tag, start position, the drawn (interpolated) position
    // of the last frame and where it projects in the screenshot (-1 -1 when not visible or gone).
    for (int i = 0; i < a->start_count; i++)
    {
        ph_body_id id = a->start_ids[i];
        level_body *b = level_get_body(&a->lv, id);
        if (!b || !ph_body_is_valid(a->lv.world, id))
            continue;
        ph_transform xf = level_interpolate(&a->lv, id, alpha);
        float px = -1.0f, py = -1.0f;
        if (a->r && !renderer_project(a->r, xf.p, &px, &py))
            px = py = -1.0f;
        ph_vec3 s = a->start_pos[i];
        fprintf(f, "body %u %s %.4f %.4f %.4f %.4f %.4f %.4f %.1f %.1f\n", id.index1, level_tag_name(b->tag),
                (double)s.x, (double)s.y, (double)s.z, (double)xf.p.x, (double)xf.p.y, (double)xf.p.z,
                (double)px, (double)py);
    }
    fclose(f);
    return true;
}

// ---- Timing ---------------------------------------------------------------------------------------------

static void add_timing(app *a)
{
    if (a->frame_index < APP_TIMING_WARMUP_FRAMES)
        return;
    a->sum_frame_ms += (double)a->frame.frame_ms;
    a->sum_physics_ms += (double)a->frame.physics_ms;
    a->sum_render_ms += (double)a->frame.render_ms;
    a->timed_frames++;
}

static void print_timing(const app *a)
{
    if (a->timed_frames <= 0)
    {
        printf("timing: too few frames (the first %d are warm-up)\n", APP_TIMING_WARMUP_FRAMES);
        return;
    }
    double n = (double)a->timed_frames;
    printf("timing: %lld frames at %dx%d, %d bodies, shadows %s: frame %.2f ms, physics %.2f ms, "
           "render %.2f ms (renderer_draw %.2f ms; the rest is waiting for the GL to finish, read back, and "
           "presenting)\n",
           a->timed_frames, a->width, a->height, ph_world_get_body_count(a->lv.world),
           a->ropts.shadows ? "on" : "off", a->sum_frame_ms / n, a->sum_physics_ms / n, a->sum_render_ms / n,
           a->sum_render_cpu_ms / n);
}

// ---- Headless -------------------------------------------------------------------------------------------

static int run_headless(app *a)
{
    int steps = a->cfg.frames > 0 ? a->cfg.frames : APP_DEFAULT_HEADLESS_STEPS;
    printf("# step ms_total");
    for (int s = 0; s < PH_STAGE_COUNT; s++)
        printf(" ms_%s", ph_stage_name((ph_stage)s));
    printf(" bodies awake asleep pairs manifolds contacts calendar_events calendar_budget_hits\n");
    double total = 0.0;
    for (int i = 0; i < steps; i++)
    {
        level_begin_step(&a->lv);
        double t0 = now_ms();
        ph_world_step(a->lv.world);
        total += now_ms() - t0;
        a->total_steps++;
        const ph_step_stats *s = ph_world_get_stats(a->lv.world);
        if (!s)
            continue;
        printf("%d %.3f", i + 1, (double)s->ms_total);
        for (int k = 0; k < PH_STAGE_COUNT; k++)
            printf(" %.3f", (double)s->ms_stage[k]);
        printf(" %d %d %d %d %d %d %d %d\n", s->body_count, s->awake_body_count, s->sleeping_body_count,
               s->pair_count, s->manifold_count, s->contact_point_count, s->calendar_events,
               s->calendar_budget_hits);
    }
    printf("# %d steps of %s in %.1f ms (%.3f ms per step), state hash %016llx\n", steps, a->lv.name, total,
           total / (double)steps, (unsigned long long)ph_world_hash(a->lv.world));
    a->frame_index = steps;
    if (a->cfg.report_path && !write_report(a, 1.0f))
        return 1;
    return 0;
}

// ---- Window ---------------------------------------------------------------------------------------------

static bool open_window(app *a)
{
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0)
    {
        fprintf(stderr,
                "sandbox: cannot start SDL video (%s). Without a display, run headless: "
                "SDL_VIDEODRIVER=offscreen sandbox --frames 120 --screenshot out.png, or under a virtual X "
                "server: xvfb-run -a sandbox\n",
                SDL_GetError());
        return false;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    int context_flags = SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG;
#ifdef PH_ENABLE_ASSERT
    context_flags |= SDL_GL_CONTEXT_DEBUG_FLAG; // KHR_debug messages reach gl.c's error count
#endif
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, context_flags);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    // The renderer draws into its own multisampled target and resolves it into the window, so the
    // window's framebuffer needs no samples of its own (that would multisample twice).
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, 0);
    SDL_GL_SetAttribute(SDL_GL_FRAMEBUFFER_SRGB_CAPABLE, 0);
    // A recording draws into the renderer's off-screen target: its window only carries the GL context.
    Uint32 window_flags = a->cfg.record_path
                              ? SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN
                              : SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    a->window = SDL_CreateWindow("rigid-body sandbox", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                 a->cfg.width, a->cfg.height, window_flags);
    if (!a->window)
    {
        fprintf(stderr, "sandbox: cannot open a window: %s\n", SDL_GetError());
        return false;
    }
    a->gl = SDL_GL_CreateContext(a->window);
    if (!a->gl)
    {
        fprintf(stderr, "sandbox: cannot create an OpenGL 3.3 core context: %s\n", SDL_GetError());
        return false;
    }
    if (!gl_load(SDL_GL_GetProcAddress))
    {
        fprintf(stderr, "sandbox: OpenGL 3.3 core is not available (got %s)\n", gl_version_string());
        return false;
    }
    bool vsync = a->cfg.vsync && !a->cfg.record_path;
    if (SDL_GL_SetSwapInterval(vsync ? 1 : 0) != 0 && vsync)
        fprintf(stderr, "sandbox: vsync is not available here (%s); running without it\n", SDL_GetError());
    char *base = SDL_GetBasePath();
    char err[1024] = "";
    a->r = renderer_create(base, err, sizeof err);
    SDL_free(base);
    if (!a->r)
    {
        fprintf(stderr, "sandbox: %s\n", err);
        return false;
    }
    int ww = 1;
    SDL_GL_GetDrawableSize(a->window, &a->width, &a->height);
    SDL_GetWindowSize(a->window, &ww, NULL);
    a->ui_scale = ww > 0 ? (float)a->width / (float)ww : 1.0f;
    renderer_resize(a->r, a->width, a->height);
    if (a->cfg.record_path)
    {
        // Frames of exactly the recording's size, whatever the window's pixel density.
        if (!renderer_set_offscreen(a->r, a->cfg.width, a->cfg.height))
        {
            fprintf(stderr, "sandbox: --record: cannot make a %dx%d off-screen target\n", a->cfg.width,
                    a->cfg.height);
            return false;
        }
        a->width = a->cfg.width;
        a->height = a->cfg.height;
        a->ui_scale = 1.0f;
        a->frame_rgb_size = (size_t)a->width * (size_t)a->height * 3u;
        a->frame_rgb = malloc(a->frame_rgb_size);
        if (!a->frame_rgb)
        {
            fprintf(stderr, "sandbox: --record: out of memory for %dx%d frames\n", a->width, a->height);
            return false;
        }
    }
    if (a->cfg.timing)
    {
        // The largest drawable the window may get: a resize beyond it skips the wait (read_rgb refuses).
        a->readback_size = (size_t)a->width * (size_t)a->height * 3u;
        a->readback = malloc(a->readback_size);
    }
    a->ropts = renderer_default_options();
    a->ropts.shadows = a->cfg.shadows;
    // 4x multisampling where the GL is a GPU; none on a software rasteriser, where it costs as much as
    // the rest of the frame (the renderer decides from the GL renderer string).
    a->ropts.msaa_samples = RENDER_MSAA_AUTO;
    a->ropts.ground = true;
    a->ropts.ground_height = 0.0f;
    return true;
}

static void close_window(app *a)
{
    if (a->r)
        renderer_destroy(a->r);
    a->r = NULL;
#if defined(__SANITIZE_ADDRESS__)
    // Under AddressSanitizer the context, window and SDL stay up until the process exits: destroying them
    // unloads Mesa, after which LeakSanitizer can no longer name the driver's one-time allocations and
    // the suppressions (tests/render/lsan.supp) stop matching them. Everything of ours is freed above.
    (void)a;
#else
    if (a->gl)
        SDL_GL_DeleteContext(a->gl);
    if (a->window)
        SDL_DestroyWindow(a->window);
    SDL_Quit();
#endif
}

// ---- Recording ------------------------------------------------------------------------------------------

static bool begin_recording(app *a)
{
    char err[1024] = "";
    a->rec = record_begin(a->cfg.record_path, a->width, a->height, a->cfg.fps, err, sizeof err);
    if (!a->rec)
    {
        fprintf(stderr, "sandbox: %s\n", err);
        return false;
    }
    a->record_start_ms = now_ms();
    return true;
}

// Finishes the recording (waiting for ffmpeg to write the file) and says how long it took per second of
// video.
static bool end_recording(app *a)
{
    int frames = record_frame_count(a->rec);
    char err[1024] = "";
    bool ok = record_end(a->rec, err, sizeof err);
    a->rec = NULL;
    if (!ok)
    {
        fprintf(stderr, "sandbox: %s\n", err);
        return false;
    }
    double wall_s = (now_ms() - a->record_start_ms) / 1000.0, video_s = (double)frames / a->cfg.fps;
    printf("recorded %d frames (%dx%d at %d fps: %.2f s of video) to %s in %.1f s: %.2f s of wall time per "
           "second of video\n",
           frames, a->width, a->height, a->cfg.fps, video_s, a->cfg.record_path, wall_s,
           video_s > 0.0 ? wall_s / video_s : 0.0);
    return true;
}

// ---- The loop -------------------------------------------------------------------------------------------

static int run_window(app *a)
{
    if (a->cfg.record_path && !begin_recording(a))
        return 1;
    double last = now_ms();
    float alpha = 1.0f;
    while (!a->quit)
    {
        double frame_start = now_ms();
        double wall_s = (frame_start - last) / 1000.0;
        last = frame_start;
        memset(&a->frame, 0, sizeof a->frame);
        if (a->script_count > 0)
            push_script_events(a);
        SDL_Event e;
        while (SDL_PollEvent(&e))
            handle_event(a, &e);
        if (a->quit)
            break;
        if (a->minimised && a->cfg.frames == 0 && !a->rec)
        {
            SDL_Delay(APP_MINIMISED_WAIT_MS);
            continue;
        }
        // --record: exactly one video frame of simulated time per frame; --frames: one step's worth;
        // otherwise the wall clock's time.
        double dt = a->cfg.record_path  ? 1.0 / (double)a->cfg.fps
                    : a->cfg.frames > 0 ? (double)ph_world_get_time_step(a->lv.world)
                                        : (wall_s < APP_MAX_FRAME_SECONDS ? wall_s : APP_MAX_FRAME_SECONDS);
        if (a->reel_on)
        {
            // The first frame shows the reel at time 0.
            alpha = reel_advance(&a->reel, &a->stage, a->frame_index == 0 ? 0.0 : dt);
            show_reel_message(a);
            if (a->reel.finished)
                break;
            sync_reel_views(a);
            vec3s eye, target;
            reel_camera(&a->reel, &eye, &target);
            camera_init(&a->cam, eye, target, a->lv.camera_fov);
        }
        else
        {
            vec3s move = {{(float)(a->held[KEY_D] - a->held[KEY_A]), (float)(a->held[KEY_E] - a->held[KEY_Q]),
                           (float)(a->held[KEY_W] - a->held[KEY_S])}};
            camera_fly(&a->cam, move, (float)dt, a->held[KEY_SHIFT]);
            tools_update_charge(&a->tl, (float)dt);
            if (a->tl.grabbing)
            {
                ph_vec3 o, d;
                pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
                tools_grab_move(&a->tl, o, d);
            }
            alpha = advance_physics(a, dt);
        }
        const ph_step_stats *s = ph_world_get_stats(a->lv.world);
        if (s)
        {
            a->frame.body_count = s->body_count;
            a->frame.awake_count = s->awake_body_count;
            a->frame.sleeping_count = s->sleeping_body_count;
            a->frame.contact_count = s->contact_point_count;
        }
        bool last_frame = a->cfg.frames > 0 && a->frame_index + 1 >= a->cfg.frames;
        draw_frame(a, alpha, last_frame);
        a->frame.frame_ms = (float)(now_ms() - frame_start);
        hud_update(&a->hd, &a->frame, (float)dt);
        add_timing(a);
        a->frame_index++;
        if (last_frame)
            break;
    }
    int status = a->reel.failed || a->record_failed ? 1 : 0;
    if (a->cfg.report_path && !write_report(a, alpha))
        status = 1;
    if (gl_error_count() > 0)
        fprintf(stderr, "sandbox: %d OpenGL errors, the last: %s\n", gl_error_count(), gl_last_error());
    if (a->cfg.timing)
        print_timing(a);
    if (a->rec && !end_recording(a))
        status = 1;
    return status;
}

// Reads the reel file (scenes/reel.json unless --reel names one) and checks every segment, its scene
// files and models included, before any window opens: a bad reel is rejected at once.
static bool load_reel(app *a)
{
    char path[1024];
    if (a->cfg.reel_path)
        snprintf(path, sizeof path, "%s", a->cfg.reel_path);
    else
        snprintf(path, sizeof path, "%s/reel.json", scenes_folder());
    reel_options options = reel_default_options();
    options.recipe_names = recipe_scene_names();
    asset_error err;
    memset(&err, 0, sizeof err);
    if (!reel_load(path, &options, &a->reel_data, &err))
    {
        fprintf(stderr, "sandbox: %s\n", err.text);
        return false;
    }
    a->reel_on = true;
    return true;
}

static int run_reel(app *a)
{
    a->stage = (reel_stage){
        .lv = &a->lv, .tl = &a->tl, .r = a->r, .seed = a->cfg.seed, .step = reel_step, .context = a};
    // Live, the reel loops; a recording ends with the reel's last segment.
    if (!reel_begin(&a->reel, a->reel_data, !a->cfg.record_path, &a->stage))
    {
        fprintf(stderr, "sandbox: %s\n", a->reel.message);
        return 1;
    }
    a->reel_message_seen = a->reel.message_version;
    return run_window(a);
}

// True when SDL can be expected to find a display (or was told which video driver to use).
static bool display_available(void)
{
    return getenv("SDL_VIDEODRIVER") || getenv("DISPLAY") || getenv("WAYLAND_DISPLAY");
}

// The sandbox without the reel: the scene named on the command line, else scenes/default.json, else the
// built-in default.
static int run_scenes(app *a)
{
    char err[1024] = "";
    scene_slot first;
    memset(&first, 0, sizeof first);
    first.builtin = LEVEL_BUILTIN_DEFAULT;
    if (a->cfg.input_path)
        snprintf(first.path, sizeof first.path, "%s", a->cfg.input_path);
    else if (a->cfg.scene_name)
    {
        int b = 0;
        while (b < LEVEL_BUILTIN_COUNT &&
               strcmp(level_builtin_name((level_builtin)b), a->cfg.scene_name) != 0)
            b++;
        if (b == LEVEL_BUILTIN_COUNT)
        {
            fprintf(stderr, "sandbox: --scene %s: unknown built-in scene (default, first, boxes)\n",
                    a->cfg.scene_name);
            return 1;
        }
        first.builtin = (level_builtin)b;
        a->scene_index = b;
    }
    if (!a->cfg.input_path && !a->cfg.scene_name)
    {
        // The default scene is scenes/default.json where it can be found, else the built-in one.
        for (int i = 0; i < a->scene_count; i++)
        {
            const char *slash = strrchr(a->scenes[i].path, '/');
            if (slash && strcmp(slash + 1, "default.json") == 0)
            {
                first = a->scenes[i];
                a->scene_index = i;
            }
        }
    }
    bool default_file = !a->cfg.input_path && !a->cfg.scene_name && first.path[0];
    if (default_file && !load_scene(a, &first, err, sizeof err))
    {
        // The default scene file is only the preferred default: fall back to the built-in one.
        show_error(a, err);
        memset(&first, 0, sizeof first);
        first.builtin = LEVEL_BUILTIN_DEFAULT;
        a->scene_index = LEVEL_BUILTIN_DEFAULT;
    }
    if (!a->lv.world && !load_scene(a, &first, err, sizeof err))
    {
        fprintf(stderr, "sandbox: %s\n", err);
        return 1;
    }
    return a->cfg.headless ? run_headless(a) : run_window(a);
}

int app_run(const app_config *config)
{
    static app a; // large (scene list, buffers); one per process
    memset(&a, 0, sizeof a);
    a.cfg = *config;
    a.time_scale = 1.0f;
    // A recording leaves the HUD out: its wall-clock figures would differ between two recordings.
    a.show_hud = config->hud && !config->record_path;
    tools_init(&a.tl);
    hud_init(&a.hd);
    if (!a.cfg.headless && !display_available() && a.cfg.record_path)
    {
        // A recording shows nothing: without a display, SDL's offscreen driver still makes a GL context
        // (through EGL, on Mesa's software rasteriser when there is no GPU).
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    }
    else if (!a.cfg.headless && !display_available())
    {
        fprintf(stderr,
                "sandbox: no display found: run 'SDL_VIDEODRIVER=offscreen sandbox --frames 120 "
                "--screenshot out.png', 'xvfb-run -a sandbox', or 'sandbox --headless --frames 600'\n");
        return 1;
    }
    char err[1024] = "";
    bool ready = true;
    if (a.cfg.script && !parse_script(&a, a.cfg.script, err, sizeof err))
    {
        fprintf(stderr, "sandbox: %s\n", err);
        ready = false;
    }
    // Each of these says on stderr why it failed.
    ready = ready && (!a.cfg.reel || load_reel(&a));
    ready = ready && (a.cfg.headless || open_window(&a));
    int status = 1;
    if (ready)
    {
        list_scenes(&a);
        status = a.reel_on ? run_reel(&a) : run_scenes(&a);
    }
    if (a.tl.model_mesh >= 0 && a.r)
        renderer_remove_mesh(a.r, a.tl.model_mesh);
    level_unload(&a.lv, a.r);
    obj_free(a.projectile_model);
    reel_free(a.reel_data);
    free(a.readback);
    free(a.frame_rgb);
    if (!a.cfg.headless)
        close_window(&a);
    free(a.script);
    free(a.start_ids);
    free(a.start_pos);
    return status;
}
