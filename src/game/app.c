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
#include "assets/obj.h"
#include "game/app_internal.h"
#include "game/save.h"
#include "recipes/recipes.h"
#include "render/gl.h"

#include <SDL2/SDL.h> // window, GL context, events, timers
#include <math.h>     // floor, fabs
#include <stdio.h>    // fprintf, printf, FILE
#include <stdlib.h>   // getenv, calloc, free
#include <string.h>   // strcmp, strlen, strrchr, memset

// Most physics steps one frame may run; the rest of a long frame's debt is dropped (slow motion of the
// whole game instead of a spiral of ever longer frames).
#define APP_MAX_STEPS_PER_FRAME 4
// A step is owed when the accumulator is within this of a whole step (unit: steps), so that 10 frames
// of 0.1x slow motion make exactly one step despite rounding.
#define APP_ACCUMULATOR_EPSILON 1e-6
// The longest frame the clock counts (a debugger pause or a window drag) (unit: s).
#define APP_MAX_FRAME_SECONDS 0.25
// While minimised the loop sleeps this long per iteration instead of drawing (unit: ms).
#define APP_MINIMISED_WAIT_MS 50
// Boxes in the "boxes" scene when --boxes is not given.
#define APP_DEFAULT_BOX_COUNT 1000
// A recording reports its progress every this many seconds of video (unit: s).
#define APP_RECORD_PROGRESS_SECONDS 10

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

double app_now_ms(void)
{
    return 1000.0 * (double)SDL_GetPerformanceCounter() / (double)SDL_GetPerformanceFrequency();
}

bool app_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && SDL_strcasecmp(s + n - m, suffix) == 0;
}

// ---- Scenes ---------------------------------------------------------------------------------------------

void app_show_error(app *a, const char *text)
{
    fprintf(stderr, "sandbox: %s\n", text);
    hud_message(&a->hd, true, text);
}

// Makes the loaded model throwable in the current world: its convex hull as world geometry (worlds own
// their geometry, so this runs once per level) and, once, its render mesh about the hull's centre of
// mass (the body origin). It runs at the first throw of the model, not at load: the level has just
// built the same model's bodies, and building its hull and render mesh a second time made opening a
// 29k-triangle .obj take 1.6 times as long as the same model through a JSON scene (issue 22, defect 4).
// A size chosen in the panel since makes both again at that size.
void app_prepare_projectile_model(app *a)
{
    bool same_size = a->projectile_prepared_size == a->tl.size;
    if (a->projectile_prepared && same_size)
        return;
    if (!same_size)
        app_keep_projectile_mesh(a);
    a->projectile_prepared = true;
    a->projectile_prepared_size = a->tl.size;
    a->tl.model_geom = PH_NULL_GEOM_ID;
    if (!a->projectile_model)
        return;
    char err[1024] = "";
    if (!level_model_projectile(&a->lv, a->projectile_model, a->r, a->tl.size, &a->tl.model_geom,
                                &a->tl.model_mass, &a->tl.model_mass_from_mesh, &a->tl.model_mesh, err,
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

// The projectile model's render mesh goes to the level, which frees it with its world: bodies thrown with it
// are still drawn with it when the projectile model or its size changes.
void app_keep_projectile_mesh(app *a)
{
    if (a->tl.model_mesh >= 0 && a->r && !level_track_mesh(&a->lv, a->tl.model_mesh))
        renderer_remove_mesh(a->r, a->tl.model_mesh);
    a->tl.model_mesh = -1;
}

// Makes model (owned from now on) the projectile model, replacing the old one; its hull and render mesh are
// made at its first throw.
void app_use_projectile_model(app *a, struct obj_model *model)
{
    obj_free(a->projectile_model);
    a->projectile_model = model;
    app_keep_projectile_mesh(a);
    a->projectile_prepared = false;
}

// Loads the scene in a slot (or the file path), replacing the level only when the new one loaded, so a
// bad file leaves the game running on the old scene with the error on screen.
bool app_load_scene(app *a, const scene_slot *slot_in, char *err, size_t err_size)
{
    scene_slot copy = *slot_in; // slot_in may be a->current itself
    const scene_slot *slot = &copy;
    level next;
    bool ok = save_is_save_file(slot->path) ? save_load(&next, slot->path, a->cfg.seed, err, err_size)
              : slot->path[0]
                  ? level_load_file(&next, slot->path, a->r, a->cfg.seed, err, err_size)
                  : level_load_builtin(&next, slot->builtin,
                                       a->cfg.box_count > 0 ? a->cfg.box_count : APP_DEFAULT_BOX_COUNT,
                                       a->cfg.seed, err, err_size);
    if (!ok)
        return false;
    app_forget_world(a);
    level_unload(&a->lv, a->r);
    a->lv = next;
    a->substeps = level_world_substeps(); // a save brings its own
    a->accumulator = 0.0;
    camera_init(&a->cam, a->lv.camera_eye, a->lv.camera_target, a->lv.camera_fov);
    camera_set_floor(&a->cam, a->lv.has_ground, a->lv.ground.hi.y);
    if (a->lv.model)
    {
        // A newly loaded model replaces the projectile model.
        app_use_projectile_model(a, a->lv.model);
        a->lv.model = NULL;
    }
    if (a->lv.warning[0])
        hud_message(&a->hd, false, a->lv.warning);
    a->current = copy;
    return true;
}

void app_switch_scene(app *a, int delta)
{
    if (a->scene_count <= 0)
        return;
    char err[1024] = "";
    for (int tries = 0; tries < a->scene_count; tries++)
    {
        a->scene_index = ((a->scene_index + delta) % a->scene_count + a->scene_count) % a->scene_count;
        if (app_load_scene(a, &a->scenes[a->scene_index], err, sizeof err))
        {
            if (!a->lv.warning[0])
                hud_message(&a->hd, false, a->lv.name);
            return;
        }
        app_show_error(a, err);
        if (delta == 0)
            return;
    }
}

// R: the scene loaded last again (a dropped scene or the one given on the command line included), without
// what was added to it since.
void app_reset_scene(app *a)
{
    char err[1024] = "";
    if (!app_load_scene(a, &a->current, err, sizeof err))
        app_show_error(a, err);
    else if (!a->lv.warning[0])
        hud_message(&a->hd, false, a->lv.name);
}

// ---- Physics --------------------------------------------------------------------------------------------

// A knock for each of the step's new impacts (impacts.c; those past `seen`), the strongest
// SOUND_MAX_PER_STEP of them.
static void knock_new_impacts(app *a, int seen)
{
    int fresh = a->imp.total - seen;
    if (fresh <= 0)
        return;
    fresh = fresh < IMPACTS_MAX ? fresh : IMPACTS_MAX;
    float strength[IMPACTS_MAX];
    for (int i = 0; i < fresh; i++)
        strength[i] = a->imp.items[(a->imp.next - 1 - i + IMPACTS_MAX) % IMPACTS_MAX].strength;
    for (int n = 0; n < SOUND_MAX_PER_STEP && n < fresh; n++)
    {
        int best = n;
        for (int i = n + 1; i < fresh; i++)
            best = strength[i] > strength[best] ? i : best;
        float s = strength[best];
        strength[best] = strength[n];
        strength[n] = s;
        sound_knock(&a->snd, s);
    }
}

static void step_once(app *a)
{
    level_begin_step(&a->lv);
    tools_grab_apply(&a->tl, &a->lv);
    double t0 = app_now_ms();
    ph_world_step(a->lv.world);
    a->frame.physics_ms += (float)(app_now_ms() - t0);
    level_remove_fallen(&a->lv);
    level_update_contacts(&a->lv);
    int seen = a->imp.total;
    impacts_collect(&a->imp, &a->lv);
    knock_new_impacts(a, seen);
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
        app_show_error(a, a->reel.message);
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

// ---- Recording
// ---------------------------------------------------------------------------------------------

// Reads the frame just drawn back and hands it to the recorder; a failure ends the run with status 1.
void app_record_current_frame(app *a)
{
    char err[1024] = "";
    if (!renderer_read_rgb(a->r, a->frame_rgb, a->frame_rgb_size))
        snprintf(err, sizeof err, "--record %s: reading the frame back failed", a->cfg.record_path);
    else if (record_frame(a->rec, a->frame_rgb, err, sizeof err))
    {
        int frames = record_frame_count(a->rec);
        if (frames % (APP_RECORD_PROGRESS_SECONDS * a->cfg.fps) == 0)
        {
            double wall_s = (app_now_ms() - a->record_start_ms) / 1000.0,
                   video_s = (double)frames / a->cfg.fps;
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
        double t0 = app_now_ms();
        ph_world_step(a->lv.world);
        total += app_now_ms() - t0;
        level_remove_fallen(&a->lv);
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
    if (a->cfg.report_path && !app_write_report(a, 1.0f))
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
    a->ropts.profile_passes = a->cfg.timing_passes;
    // The anti-aliasing pass where it is wanted: asked for, or by default in recordings and screenshots (the
    // look is what they are for) and on a GPU (a fraction of a millisecond there); not while playing on a
    // software rasteriser, where it costs 15 to 35 ms a frame at 1280x720 (render_bench --no-fxaa).
    a->ropts.fxaa =
        a->cfg.fxaa > 0 ||
        (a->cfg.fxaa == 0 && (a->cfg.record_path || a->cfg.screenshot_path || !renderer_is_software(a->r)));
    // 4x multisampling where the GL is a GPU; none on a software rasteriser, where it costs as much as
    // the rest of the frame (the renderer decides from the GL renderer string).
    a->ropts.msaa_samples = RENDER_MSAA_AUTO;
    // Dynamic resolution (resolution.h): the scale asked for; else, on a software rasteriser while playing,
    // adapted each second to the frame budget (fill is most of the frame there, and goes with the square of
    // the scale); else full size. Recordings and screenshots keep the full scale unless asked, so that they
    // stay sharp and the same from run to run.
    bool auto_scale = a->cfg.render_scale == 0.0f && renderer_is_software(a->r) && !a->cfg.record_path &&
                      !a->cfg.screenshot_path;
    resolution_init(&a->res, auto_scale, a->cfg.render_scale > 0.0f ? a->cfg.render_scale : 1.0f);
    a->ropts.render_scale = a->res.scale;
    a->ropts.ground = true;
    a->ropts.ground_height = 0.0f;
    a->debug.draw_joints = true; // joints are part of what the player builds: drawn unless J hides them
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
    a->record_start_ms = app_now_ms();
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
    double wall_s = (app_now_ms() - a->record_start_ms) / 1000.0, video_s = (double)frames / a->cfg.fps;
    printf("recorded %d frames (%dx%d at %d fps: %.2f s of video) to %s in %.1f s: %.2f s of wall time per "
           "second of video\n",
           frames, a->width, a->height, a->cfg.fps, video_s, a->cfg.record_path, wall_s,
           video_s > 0.0 ? wall_s / video_s : 0.0);
    return true;
}

// ---- The loop -------------------------------------------------------------------------------------------

// The HUD's body counts when the world's statistics do not describe it yet (a scene loaded while
// paused has not stepped): counted through the body queries.
static void count_bodies(app *a)
{
    int n = 0, awake = 0, moving = 0;
    const ph_body_id *ids = level_list_bodies(&a->lv, &n);
    for (int i = 0; i < n; i++)
    {
        if (ph_body_get_type(a->lv.world, ids[i]) == PH_BODY_STATIC)
            continue;
        moving++;
        awake += ph_body_is_awake(a->lv.world, ids[i]);
    }
    a->frame.body_count = n;
    a->frame.awake_count = awake;
    a->frame.sleeping_count = moving - awake;
}

static int run_window(app *a)
{
    if (a->cfg.record_path && !begin_recording(a))
        return 1;
    double last = app_now_ms();
    float alpha = 1.0f;
    while (!a->quit)
    {
        double frame_start = app_now_ms();
        double wall_s = (frame_start - last) / 1000.0;
        last = frame_start;
        memset(&a->frame, 0, sizeof a->frame);
        if (a->script_count > 0)
            app_push_script_events(a);
        SDL_Event e;
        while (SDL_PollEvent(&e))
            app_handle_event(a, &e);
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
        app_panel_build(a, (float)dt);
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
                app_pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
                tools_grab_move(&a->tl, o, d);
            }
            alpha = advance_physics(a, dt);
        }
        bool frozen_time = a->reel_on ? a->reel.paused : a->paused;
        impacts_advance(&a->imp, frozen_time
                                     ? 0.0f
                                     : (float)dt * (a->reel_on ? reel_time_scale(&a->reel) : a->time_scale));
        const ph_step_stats *s = ph_world_get_stats(a->lv.world);
        if (s)
        {
            a->frame.body_count = s->body_count;
            a->frame.awake_count = s->awake_body_count;
            a->frame.sleeping_count = s->sleeping_body_count;
        }
        a->frame.contact_count = a->lv.contact_count;
        a->frame.removed_count = a->lv.removed_count;
        a->frame.joint_count = ph_world_get_joint_count(a->lv.world);
        if (!s || s->body_count != ph_world_get_body_count(a->lv.world))
            count_bodies(a);
        bool last_frame = a->cfg.frames > 0 && a->frame_index + 1 >= a->cfg.frames;
        app_draw_frame(a, alpha, last_frame);
        a->frame.frame_ms = (float)(app_now_ms() - frame_start);
        // The frame's work, its presenting left out: with vsync the swap waits for the display.
        if (resolution_update(&a->res, a->frame.frame_ms, a->frame.frame_ms - a->frame.present_ms))
            a->ropts.render_scale = a->res.scale;
        hud_update(&a->hd, &a->frame, (float)dt);
        app_add_timing(a);
        a->frame_index++;
        if (last_frame)
            break;
    }
    int status = a->reel.failed || a->record_failed ? 1 : 0;
    if (a->cfg.report_path && !app_write_report(a, alpha))
        status = 1;
    if (gl_error_count() > 0)
        fprintf(stderr, "sandbox: %d OpenGL errors, the last: %s\n", gl_error_count(), gl_last_error());
    if (a->cfg.timing)
        app_print_timing(a);
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
        snprintf(path, sizeof path, "%s/reel.json", app_scenes_folder());
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
    if (default_file && !app_load_scene(a, &first, err, sizeof err))
    {
        // The default scene file is only the preferred default: fall back to the built-in one.
        app_show_error(a, err);
        memset(&first, 0, sizeof first);
        first.builtin = LEVEL_BUILTIN_DEFAULT;
        a->scene_index = LEVEL_BUILTIN_DEFAULT;
    }
    if (!a->lv.world && !app_load_scene(a, &first, err, sizeof err))
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
    a.model_scale = 1.0f;
    a.substeps = level_world_substeps();
    // A recording leaves the HUD out: its wall-clock figures would differ between two recordings.
    a.show_hud = config->hud && !config->record_path;
    a.hint = !config->reel && !config->record_path;
    tools_init(&a.tl);
    history_init(&a.hist);
    impacts_init(&a.imp);
    // Sound where a player listens: not in recordings or headless runs, nor in scripted runs (--frames, the
    // tests) unless asked for; with no device the knocks are still made and counted, silently.
    bool listening = !config->headless && !config->record_path && config->sound >= 0 &&
                     (config->frames == 0 || config->sound > 0);
    sound_init(&a.snd, listening);
    a.snd.on = config->sound >= 0 && !config->record_path;
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
    if (a.cfg.script && !app_parse_script(&a, a.cfg.script, err, sizeof err))
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
        app_list_scenes(&a);
        if (!a.cfg.headless)
            app_panel_init(&a);
        status = a.reel_on ? run_reel(&a) : run_scenes(&a);
    }
    if (a.tl.model_mesh >= 0 && a.r)
        renderer_remove_mesh(a.r, a.tl.model_mesh);
    sound_close(&a.snd);
    level_unload(&a.lv, a.r);
    obj_free(a.projectile_model);
    reel_free(a.reel_data);
    free(a.readback);
    free(a.frame_rgb);
    app_panel_shutdown(&a);
    history_free(&a.hist);
    if (!a.cfg.headless)
        close_window(&a);
    free(a.script);
    return status;
}
