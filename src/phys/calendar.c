// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Placeholder-free first part of the calendar: storage only until ph_time_of_impact lands.
#include "calendar.h"

#include "array.h"
#include "world.h"

void ph_calendar_destroy(ph_calendar *calendar)
{
    ph_array_free(calendar->events, calendar->event_capacity);
    calendar->event_count = 0;
}

bool ph_calendar_run(ph_step_context *ctx)
{
    ctx->world->calendar.event_count = 0;
    return true;
}
