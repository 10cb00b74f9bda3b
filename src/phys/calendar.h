// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The in-frame time-of-impact calendar (see calendar.c): after the solver has moved the bodies over the
// step, pairs whose relative motion was large compared with their size are swept with conservative
// advancement; their impacts are resolved in time order at the time they happen, and the bodies they
// changed are re-predicted, until the step ends or the event budget runs out.
#pragma once

#include "phys/types.h"

#include <stdbool.h> // bool

typedef struct ph_step_context ph_step_context;

typedef struct ph_calendar
{
    ph_calendar_event *events; // the last step's resolved events, in time order
    int event_count;
    int event_capacity;
} ph_calendar;

void ph_calendar_destroy(ph_calendar *calendar);
// Runs the calendar over ctx->awake bodies (their motion center0/q0 -> center/q of this step). False when
// the arena could not hold the event heap (fast bodies are then clamped as a fallback, never lost).
bool ph_calendar_run(ph_step_context *ctx);
