// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Demo reel playback: plays a reel_desc (assets/reel_file.h, scenes/reel.json) segment by segment on the
// game's level. Each segment's scene is built through level.h, its camera follows the keyframes, and its
// timed actions go through the same functions the player's tools call (tools_throw_body, level_add_scene),
// so the reel adds no physics of its own. Reel time runs in ticks of one world time step, whatever the
// frame rate, so live play, --frames runs and recordings all play the same history. No SDL and no GL.
#pragma once

#include "assets/reel_file.h"
#include "game/level.h"
#include "game/tools.h"
#include "render/renderer.h"

#include "phys/phys.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t
#include <stdint.h>  // uint32_t

// Most reel ticks one call of reel_advance runs (a live frame that took too long drops the rest of its
// time, as the game's own loop does).
#define REEL_MAX_TICKS_PER_ADVANCE 64
// Bytes of the message of the last failed action or segment.
#define REEL_MESSAGE_SIZE 768

// What the reel plays on: the game's level (replaced at each segment), its tools and renderer, and the
// game's own physics step, which keeps the interpolation poses and the HUD's timings.
typedef struct reel_stage
{
    level *lv;
    tools *tl;
    renderer *r; // NULL: no render meshes (models are still simulated)
    uint32_t seed;
    void (*step)(void *context); // runs one ph_world_step of lv->world
    void *context;
} reel_stage;

// One fired world-changing action (throw, spawn) and the number of physics steps the world had run when
// it fired: the segment's history, replayed by REEL_ACTION_REPLAY.
typedef struct reel_history_entry
{
    long long step;
    int action; // index into the segment's actions
} reel_history_entry;

typedef struct reel_player
{
    const reel_desc *desc; // borrowed; outlives the player
    bool loop;             // after the last segment the first plays again; otherwise the reel finishes
    bool finished;         // the last segment has ended (never when looping), or a segment failed
    bool failed;           // a segment's scene could not be built (message says which)
    bool paused;           // the viewer's pause: reel time and the simulation stop
    int segment;           // playing
    int segments_started;  // counts every start, restarts and skips included

    long long tick;          // reel ticks played into the segment
    long long segment_ticks; // the segment's duration in ticks
    float tick_seconds;      // one tick: the segment world's time step (unit: s)
    double tick_accumulator; // owed ticks, fractional (live frames of any length)
    double step_accumulator; // owed physics steps, fractional (slow motion, replay)
    long long steps;         // physics steps of the segment's world so far
    int next_action;         // first action not fired yet

    float slow_factor;     // time scale of the running slow_motion action
    long long slow_until;  // tick it ends at (0: none running)
    bool action_paused;    // a pause action holds the simulation
    long long pause_until; // tick the pause ends at, -1: until a resume action
    bool replaying;        // playing the segment's history again
    float replay_factor;   // its time scale
    int history_count;
    int history_next; // during a replay: the next entry to fire again
    reel_history_entry history[REEL_MAX_ACTIONS];
    // Physics steps run when reel time reached each replay action's "from" (-1: not yet).
    long long from_step[REEL_MAX_ACTIONS];

    bool views[REEL_VIEW_COUNT]; // the debug views the reel asks for
    ph_body_id pair[2];          // the pair view's bodies
    int views_version;           // bumped whenever the reel sets views or the pair

    char message[REEL_MESSAGE_SIZE]; // the last failed action or segment, "" when none
    int message_version;             // bumped with every new message
} reel_player;

// Starts the reel's first segment on the stage. False with the message in p->message when its scene
// cannot be built.
bool reel_begin(reel_player *p, const reel_desc *desc, bool loop, reel_stage *st);
// Advances reel time by dt (unit: s): runs the ticks it owes, fires actions, steps the physics and moves
// on to the next segment at the end of one. Returns the interpolation factor of the drawn poses between
// the previous and the current physics step. Does nothing while paused or finished.
float reel_advance(reel_player *p, reel_stage *st, double dt);
// Jumps delta segments forward (negative: back; 0 restarts the segment), wrapping around the reel.
bool reel_skip(reel_player *p, reel_stage *st, int delta);

// The camera at the current reel time (between ticks too, for smooth live play).
void reel_camera(const reel_player *p, vec3s *out_eye, vec3s *out_target);
// The current time scale of the simulation (0 while held by a pause action).
float reel_time_scale(const reel_player *p);
// Reel time into the playing segment (unit: s).
float reel_segment_time(const reel_player *p);
// One line for the caption: "3/10  0:04 / 0:07  replay 0.04x  bodies 13  contacts 24  calendar events 2"
// (physics figures, never wall-clock ones, so recordings stay identical from run to run).
void reel_status_text(const reel_player *p, const level *lv, char *out, size_t size);
