// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The reel player. Reel time advances in ticks of one world time step; at every tick boundary the actions
// due fire, then the simulation runs the steps the time scale owes (one per tick at full speed, one every
// 1/factor ticks in slow motion). Frames only decide how many ticks to run, so a live run at any frame
// rate, a --frames run and a recording at any --fps play the very same physics.
//
// Replay ("rewind to reel time `from` and play the history again at factor") rebuilds the segment's scene
// and steps it again, re-firing the throws and spawns of the first play before the same step numbers.
// The engine is deterministic (same build, same inputs, same steps: same state), so this reproduces the
// history exactly at the cost of re-simulating up to `from` once, in one frame. The alternative, a
// snapshot of every body per step, would need a save/restore API the engine does not have and memory
// that grows with the segment; the re-simulation needs neither, and `from` is short in practice.

#include "game/reel.h"

#include <math.h>   // ceil, floor, llround
#include <stdarg.h> // va_list: messages
#include <stdio.h>  // snprintf, vsnprintf
#include <string.h> // memset, memcpy

// An action or keyframe time within this fraction of a tick after a tick boundary belongs to that tick,
// so that 1.0 s is tick 60 of 1/60 s despite rounding (unit: ticks).
#define REEL_TICK_EPSILON 1e-4
// A step is owed when the step accumulator is within this of a whole step, so that 25 ticks at 0.04x make
// exactly one step despite rounding (unit: steps).
#define REEL_STEP_EPSILON 1e-6
// Bytes of an action's or a build's own error message.
#define REEL_ERROR_SIZE 512

static const reel_segment *current(const reel_player *p)
{
    return &p->desc->segments[p->segment];
}

// The first tick at or after reel time t into the segment (unit: s).
static long long time_to_tick(const reel_player *p, float t)
{
    return (long long)ceil((double)t / (double)p->tick_seconds - REEL_TICK_EPSILON);
}

// Sets the message "reel.json: segments[3] (\"thin wall\"): <what>".
static void set_message(reel_player *p, const char *format, ...)
{
    char what[REEL_ERROR_SIZE];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    if (snprintf(p->message, sizeof p->message, "%s: segments[%d] (\"%s\"): %s", p->desc->file, p->segment,
                 current(p)->name, what) < 0)
        p->message[0] = '\0';
    p->message_version++;
}

// ---- Building a segment's world ------------------------------------------------------------------------

// Replaces the stage's level with a fresh build of the segment's scene. On failure the old level stays,
// the message says why, and the reel is finished.
static bool rebuild(reel_player *p, reel_stage *st)
{
    const reel_segment *s = current(p);
    char err[REEL_ERROR_SIZE] = "";
    level next;
    bool ok = false;
    if (s->scene_kind == REEL_SCENE_RECIPE)
        ok = level_load_recipe(&next, s->recipe, st->seed, err, sizeof err);
    else if (s->scene)
        ok = level_load_scene(&next, s->scene, st->r, st->seed, err, sizeof err);
    else
        snprintf(err, sizeof err, "%.400s: the scene was not loaded with the reel", s->scene_path);
    if (!ok)
    {
        set_message(p, "%s", err);
        p->failed = p->finished = true;
        return false;
    }
    // The old world's bodies and geometry go with it: nothing of the tools may point into it.
    tools_grab_end(st->tl);
    st->tl->charging = false;
    st->tl->model_geom = PH_NULL_GEOM_ID;
    level_unload(st->lv, st->r);
    *st->lv = next;
    p->steps = 0;
    p->step_accumulator = 0.0;
    return true;
}

// ---- Actions -------------------------------------------------------------------------------------------

// A throw or a spawn, through the player's own tools and the level's spawning.
static bool apply_world_action(reel_player *p, reel_stage *st, int index, char *err, size_t err_size)
{
    const reel_action *a = &current(p)->actions[index];
    if (a->kind == REEL_ACTION_SPAWN)
        return level_add_scene(st->lv, a->spawn, st->r, err, err_size);
    tools_throw_def def = {
        .projectile =
            a->throw_.shape == REEL_PROJECTILE_SPHERE ? TOOLS_PROJECTILE_SPHERE : TOOLS_PROJECTILE_BOX,
        .position = a->throw_.from,
        .direction = a->throw_.direction,
        .speed = a->throw_.speed,
        .size = a->throw_.size,
        .density = a->throw_.density,
    };
    return !PH_ID_IS_NULL(tools_throw_body(st->tl, st->lv, &def, err, err_size));
}

// The body whose origin is nearest to point, the ground plane and `except` left out; null when none.
static ph_body_id nearest_body(level *lv, ph_vec3 point, ph_body_id except)
{
    int n = 0;
    const ph_body_id *ids = level_list_bodies(lv, &n);
    ph_body_id best = PH_NULL_BODY_ID;
    float best_d2 = INFINITY;
    for (int i = 0; i < n; i++)
    {
        level_body *b = level_get_body(lv, ids[i]);
        if (PH_ID_EQUALS(ids[i], except) || (b && b->tag == LEVEL_TAG_GROUND))
            continue;
        float d2 = glms_vec3_distance2(ph_body_get_position(lv->world, ids[i]), point);
        if (d2 < best_d2)
        {
            best_d2 = d2;
            best = ids[i];
        }
    }
    return best;
}

// During a replay: fires the history's throws and spawns that the first play fired before the step the
// world is at now. Firing them as soon as the step count reaches theirs (rather than just before the next
// step) changes nothing for the physics and shows the new bodies at once, as the first play did.
static void fire_history(reel_player *p, reel_stage *st)
{
    while (p->history_next < p->history_count && p->history[p->history_next].step <= p->steps)
    {
        char err[REEL_ERROR_SIZE] = "";
        int action = p->history[p->history_next++].action;
        if (!apply_world_action(p, st, action, err, sizeof err))
            set_message(p, "replay: actions[%d]: %s", action, err);
    }
}

// Plays the history again from the state at reel time `from`: see the top of the file.
static bool start_replay(reel_player *p, reel_stage *st, int index)
{
    const reel_action *a = &current(p)->actions[index];
    long long target = p->from_step[index] < 0 ? 0 : p->from_step[index];
    if (!rebuild(p, st))
        return false;
    p->replaying = true;
    p->history_next = 0;
    fire_history(p, st);
    // Bounded: target is at most the steps the first play ran, at most one per tick of the segment.
    for (long long s = 0; s < target; s++)
    {
        st->step(st->context);
        p->steps++;
        fire_history(p, st);
    }
    p->replay_factor = a->factor;
    // Slow motion and pauses of the first play end here: the replay has its own time scale.
    p->slow_until = 0;
    p->action_paused = false;
    return true;
}

static void fire(reel_player *p, reel_stage *st, int index)
{
    const reel_segment *s = current(p);
    const reel_action *a = &s->actions[index];
    char err[REEL_ERROR_SIZE] = "";
    bool ok = true;
    switch (a->kind)
    {
    case REEL_ACTION_THROW:
    case REEL_ACTION_SPAWN:
        ok = apply_world_action(p, st, index, err, sizeof err);
        // A replay plays again what the first play did; actions during a replay are not history.
        if (!p->replaying && p->history_count < REEL_MAX_ACTIONS)
            p->history[p->history_count++] = (reel_history_entry){p->steps, index};
        break;
    case REEL_ACTION_PAUSE:
        p->action_paused = true;
        p->pause_until = a->duration > 0.0f ? p->tick + time_to_tick(p, a->duration) : -1;
        break;
    case REEL_ACTION_RESUME:
        p->action_paused = false;
        break;
    case REEL_ACTION_SLOW_MOTION:
        p->slow_factor = a->factor;
        p->slow_until = p->tick + time_to_tick(p, a->duration);
        break;
    case REEL_ACTION_TOGGLE_VIEW:
        p->views[a->view] = a->on;
        p->views_version++;
        break;
    case REEL_ACTION_PICK_PAIR:
        p->pair[0] = nearest_body(st->lv, a->pair[0], PH_NULL_BODY_ID);
        p->pair[1] = nearest_body(st->lv, a->pair[1], p->pair[0]);
        p->views_version++;
        ok = !PH_ID_IS_NULL(p->pair[0]) && !PH_ID_IS_NULL(p->pair[1]);
        if (!ok)
            snprintf(err, sizeof err, "no two bodies to pick");
        break;
    case REEL_ACTION_REPLAY:
        start_replay(p, st, index);
        break;
    default:
        break;
    }
    if (!ok)
        set_message(p, "actions[%d] (%s): %s", index, reel_action_name(a->kind), err);
}

// At a tick boundary: notes the step count for the replays whose `from` is now, then fires the actions
// due (in file order for equal times).
static void fire_due(reel_player *p, reel_stage *st)
{
    const reel_segment *s = current(p);
    for (int i = 0; i < s->action_count; i++)
        if (s->actions[i].kind == REEL_ACTION_REPLAY && p->from_step[i] < 0 &&
            time_to_tick(p, s->actions[i].from) <= p->tick)
            p->from_step[i] = p->steps;
    while (!p->finished && p->next_action < s->action_count &&
           time_to_tick(p, s->actions[p->next_action].time) <= p->tick)
        fire(p, st, p->next_action++);
}

// ---- Segments and ticks --------------------------------------------------------------------------------

static bool start_segment(reel_player *p, reel_stage *st, int index)
{
    p->segment = index;
    p->segments_started++;
    if (!rebuild(p, st))
        return false;
    const reel_segment *s = current(p);
    p->tick = 0;
    p->tick_seconds = ph_world_get_time_step(st->lv->world);
    long long ticks = llround((double)s->duration / (double)p->tick_seconds);
    p->segment_ticks = ticks > 0 ? ticks : 1;
    p->next_action = 0;
    p->slow_factor = 1.0f;
    p->slow_until = 0;
    p->action_paused = false;
    p->replaying = false;
    p->replay_factor = 1.0f;
    p->history_count = 0;
    p->history_next = 0;
    for (int i = 0; i < REEL_MAX_ACTIONS; i++)
        p->from_step[i] = -1;
    memcpy(p->views, s->views, sizeof p->views);
    p->pair[0] = p->pair[1] = PH_NULL_BODY_ID;
    p->views_version++;
    fire_due(p, st);
    return !p->finished;
}

// One physics step; during a replay, then the history's actions due at the new step count.
static void run_step(reel_player *p, reel_stage *st)
{
    st->step(st->context);
    p->steps++;
    if (p->replaying)
        fire_history(p, st);
}

static void run_tick(reel_player *p, reel_stage *st)
{
    p->step_accumulator += (double)reel_time_scale(p);
    int owed = (int)floor(p->step_accumulator + REEL_STEP_EPSILON);
    p->step_accumulator -= (double)owed;
    if (p->step_accumulator < 0.0)
        p->step_accumulator = 0.0;
    for (int i = 0; i < owed; i++)
        run_step(p, st);
    p->tick++;
    if (p->tick < p->segment_ticks)
    {
        fire_due(p, st);
        return;
    }
    int next = p->segment + 1;
    if (next >= p->desc->segment_count)
    {
        if (!p->loop)
        {
            p->finished = true;
            return;
        }
        next = 0;
    }
    start_segment(p, st, next);
}

bool reel_begin(reel_player *p, const reel_desc *desc, bool loop, reel_stage *st)
{
    memset(p, 0, sizeof *p);
    p->desc = desc;
    p->loop = loop;
    if (!desc || desc->segment_count < 1)
    {
        snprintf(p->message, sizeof p->message, "the reel has no segments");
        p->failed = p->finished = true;
        return false;
    }
    return start_segment(p, st, 0);
}

float reel_time_scale(const reel_player *p)
{
    if (p->action_paused && (p->pause_until < 0 || p->tick < p->pause_until))
        return 0.0f;
    if (p->tick < p->slow_until)
        return p->slow_factor;
    return p->replaying ? p->replay_factor : 1.0f;
}

float reel_advance(reel_player *p, reel_stage *st, double dt)
{
    if (!p->paused && !p->finished && dt > 0.0)
    {
        p->tick_accumulator += dt / (double)p->tick_seconds;
        int owed = (int)floor(p->tick_accumulator + REEL_STEP_EPSILON);
        if (owed > REEL_MAX_TICKS_PER_ADVANCE)
        {
            p->tick_accumulator -= (double)(owed - REEL_MAX_TICKS_PER_ADVANCE);
            owed = REEL_MAX_TICKS_PER_ADVANCE;
        }
        for (int i = 0; i < owed && !p->finished; i++)
        {
            p->tick_accumulator -= 1.0;
            run_tick(p, st);
        }
        if (p->tick_accumulator < 0.0)
            p->tick_accumulator = 0.0;
    }
    // Poses are drawn between the last two steps by the fraction of a step that reel time has covered
    // since (the tick's own fraction counts at the current time scale).
    double alpha = p->step_accumulator + p->tick_accumulator * (double)reel_time_scale(p);
    return (float)(alpha < 0.0 ? 0.0 : (alpha > 1.0 ? 1.0 : alpha));
}

bool reel_skip(reel_player *p, reel_stage *st, int delta)
{
    if (!p->desc || p->desc->segment_count < 1)
        return false;
    int n = p->desc->segment_count;
    p->tick_accumulator = 0.0;
    p->finished = p->failed = false;
    return start_segment(p, st, ((p->segment + delta) % n + n) % n);
}

float reel_segment_time(const reel_player *p)
{
    return (float)(((double)p->tick + p->tick_accumulator) * (double)p->tick_seconds);
}

void reel_camera(const reel_player *p, vec3s *out_eye, vec3s *out_target)
{
    reel_camera_at(current(p), reel_segment_time(p), out_eye, out_target);
}

void reel_status_text(const reel_player *p, const level *lv, char *out, size_t size)
{
    const reel_segment *s = current(p);
    float scale = reel_time_scale(p);
    char mode[64] = "";
    if (p->paused)
        snprintf(mode, sizeof mode, "   PAUSED");
    else if (scale <= 0.0f)
        snprintf(mode, sizeof mode, "   simulation paused");
    else if (p->replaying)
        snprintf(mode, sizeof mode, "   REPLAY %.2gx", (double)scale);
    else if (scale < 1.0f)
        snprintf(mode, sizeof mode, "   slow motion %.2gx", (double)scale);
    int n = snprintf(out, size, "%d/%d   %.1f / %.0f s%s", p->segment + 1, p->desc->segment_count,
                     (double)reel_segment_time(p), (double)s->duration, mode);
    const ph_step_stats *st = lv->world ? ph_world_get_stats(lv->world) : NULL;
    if (st && n > 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, "   bodies %d (asleep %d)   contacts %d   calendar events %d",
                 st->body_count, st->sleeping_body_count, st->contact_point_count, st->calendar_events);
}
