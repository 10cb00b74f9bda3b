// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Engine-neutral measurements of a benchmark run, shared by physbench (our engine) and bullet_ref
// (Bullet), so that both report the same figures computed by the same code: step-time percentiles,
// drift of stacks, tunnelling through walls, kinetic energy, first-bounce heights of the restitution
// ladder, the spinner's angular momentum and flip, NaN detection, a state hash and peak memory; and the
// verdict on the end state against the recipe's expectations (recipe_expect: settled, standing, nothing
// through the floor or out of the scene, no energy gained), so that a run whose physics went wrong is marked
// as such whichever engine ran it. Each program samples its bodies' states after every step and hands them
// over as plain floats.
#pragma once

#include "recipes/recipes.h"

#include <stdbool.h> // bool
#include <stdint.h>  // uint64_t
#include <stdio.h>   // FILE

// The benchmark registry shared by physbench and bullet_ref, in running order, NULL-terminated:
// issue 4's scenes plus pile10k (issue 8) and the joint scenes (issue 20). Each is built by
// recipe_build(name, seed), which also sets its step count, gravity, time step and sleeping (one source of
// truth in src/recipes/recipes.c).
extern const char *const bench_scene_names[];

// One body at one instant, as the engine reports it.
typedef struct bench_state
{
    float position[3];         // shape origin (unit: m)
    float orientation[4];      // x, y, z, w
    float linear_velocity[3];  // (unit: m/s)
    float angular_velocity[3]; // (unit: rad/s)
    float mass;                // (unit: kg); 0 for static bodies
    float inertia[9];          // world inertia about the centre of mass, row-major (unit: kg m^2)
    bool awake;                // false while the engine has the body asleep
} bench_state;

typedef struct bench_run
{
    const recipe_scene *scene;
    int steps; // steps to run
    int steps_done;
    float *ms_step;        // per step (unit: ms)
    float (*reference)[3]; // positions at drift_after_s (drift)
    bool *tunneled;        // per item: was beyond a tunnel plane at some step
    int *bounce_phase;     // per item: 0 falling, 1 rising after the first bounce, 2 done
    float *bounce_top;     // per item: highest lowest point after the first bounce (unit: m)
    double angular0[3];    // spinner: angular momentum at the start
    float axis0[3];        // spinner: the intermediate axis at the start
    bool flipped;
    double ang_mom_err; // largest relative change of the angular momentum
    double max_drift;
    bool nan;
    double contacts_sum;     // contact points summed over steps (engine-reported)
    int calendar_events_max; // -1 when the engine has no calendar
    double ke_end;
    // End state (see recipe_expect), from the last sample.
    double energy0, energy_end; // kinetic plus potential energy above the floor, at spawn and at the end (J)
    double energy_scale;        // kinetic energy plus |potential energy| at spawn: what gains are measured by
    double mass;                // of the dynamic bodies (unit: kg)
    double mean_height;         // of the dynamic bodies' centres (unit: m)
    float lo[3], hi[3];         // the scene's bounds at spawn: every item's bounding sphere (unit: m)
    int asleep, fell, left;     // dynamic bodies asleep, fallen through the floor, outside the bounds
    double fell_depth;          // the deepest lowest point below the floor's top (unit: m)
} bench_run;

// The verdict on a run's end state: ok, or the reasons it is wrong (sentences, without quotes).
#define BENCH_MAX_REASONS 8
#define BENCH_REASON_SIZE 160
typedef struct bench_verdict
{
    bool ok;
    int reason_count;
    char reasons[BENCH_MAX_REASONS][BENCH_REASON_SIZE];
} bench_verdict;

// Prepares a run of steps steps of scene (which must outlive the run). False when out of memory.
bool bench_run_init(bench_run *run, const recipe_scene *scene, int steps);
void bench_run_free(bench_run *run);
// Records the states of every item (states[i] for scene->items[i]) after step step (0: at spawn,
// before the first step), and that step's time.
void bench_run_sample(bench_run *run, int step, const bench_state *states, float ms_step);
// Judges the end state of a run (its last sample) against its scene's recipe_expect.
void bench_run_judge(const bench_run *run, bench_verdict *out);
// Prints one JSON object on one line: {"engine":..., "scene":..., ...}. scene_name overrides the
// recipe's name when not NULL (e.g. "bullet_wall_ccd"); ms_stage_json is an object text ("{}" when the
// engine has no stages); hash_text is the state hash as text. The line ends with the end state and
// bench_run_judge's verdict: "end_ok" and, when false, "end_reasons".
void bench_run_print(const bench_run *run, FILE *out, const char *engine, const char *scene_name,
                     const char *ms_stage_json, const char *hash_text);
// FNV-1a over the bits of every state: a hash for engines that have none of their own.
uint64_t bench_state_hash(const bench_state *states, int count);
// Peak resident memory of this process (unit: MiB).
double bench_peak_rss_mb(void);
// Monotonic time (unit: ms).
double bench_now_ms(void);
