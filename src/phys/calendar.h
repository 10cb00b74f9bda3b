// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The in-frame time-of-impact calendar (see calendar.c): after the solver has moved the bodies over the
// step, pairs whose relative motion was large compared with their size are swept with conservative
// advancement; their impacts are resolved in time order at the time they happen, and the bodies they
// changed are re-predicted, until the step ends or the event budget runs out.
#pragma once

#include "phys/types.h"

#include <stdbool.h> // bool
#include <stdint.h>  // uint32_t, uint64_t

typedef struct ph_step_context ph_step_context;

// A predicted impact of bodies a < b (slots) and their parts, at fraction t of the step; the versions are
// the bodies' motion counters when it was predicted (an event of an older motion is stale).
typedef struct ph_cal_event
{
    float t;
    int a, b;
    int part_a, part_b;
    uint32_t version_a, version_b;
} ph_cal_event;

// Events resolved for one pair this step (open addressing; key 0 = empty).
typedef struct ph_cal_pair_count
{
    uint64_t key;
    int count;
} ph_cal_pair_count;

// A body whose sweep for the rest of the step left its octree proxy (pushed by the solver, or turned by an
// event): its box over that sweep, for the calendar's own neighbour searches; valid while the body's
// version is unchanged. Entries are chained per column of the world's x axis.
typedef struct ph_cal_escape
{
    ph_aabb box;
    int slot;
    uint32_t version;
    int next;
} ph_cal_escape;

typedef struct ph_calendar
{
    ph_calendar_event *events; // the last step's resolved events, in time order
    int event_count;
    int event_capacity;
    // Working storage kept between steps, so it only grows while the world warms up.
    ph_cal_event *heap; // binary heap of predicted events
    int heap_capacity;
    ph_cal_pair_count *pairs; // per-pair event counters; all zero between steps
    int pair_capacity;
    int pair_table; // entries of pairs in use as the hash table (a power of two; 0 before the first event)
    int *pair_used; // the entries this step has filled, cleared when it ends
    int pair_used_count;
    int pair_used_capacity;
    ph_cal_escape *escapes; // bodies outside their proxies this step
    int escape_capacity;
    // The last step's first pass on the workers (calendar.c, parallel_searches): the searches run there,
    // those of them with an escape lists' part left to the stepping thread, and those run again whole on it
    // (their worker's room for predictions ran out). The room is sink_room predictions a worker,
    // CAL_SINK_EVENTS when 0, none when negative (tests: every search that predicts an impact runs again).
    int worker_searches, escape_parts, reruns;
    int sink_room;
} ph_calendar;

void ph_calendar_destroy(ph_calendar *calendar);
// Runs the calendar over ctx->awake bodies (their motion center0/q0 -> center/q of this step). False when
// the arena could not hold the event heap (fast bodies are then clamped as a fallback, never lost).
bool ph_calendar_run(ph_step_context *ctx);
