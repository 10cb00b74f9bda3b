// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Impact feedback: a short flash and a ring of dust where a contact's impulse is large. The engine reports
// each contact point's normal impulse over the step (ph_contact_info.normal_impulse); divided by the
// lighter moving body's mass it is the speed that point's push changed, which is about g times the step
// (0.16 m/s) for a body at rest whatever it weighs, and metres a second for a hit. No SDL.
#pragma once

#include "game/level.h"
#include "render/renderer.h"

#include <stdbool.h> // bool

// Impacts shown at once; a new one takes the place of the oldest.
#define IMPACTS_MAX 64
// A point whose push changed its lighter body's speed by at least this is an impact (unit: m/s).
#define IMPACTS_MIN_SPEED_CHANGE 1.5f
// How long one is shown (unit: s of game time).
#define IMPACTS_SECONDS 0.4f

typedef struct impact
{
    ph_vec3 point, normal;
    float strength; // the speed change (unit: m/s)
    float age;      // (unit: s)
} impact;

typedef struct impacts
{
    bool on;
    impact items[IMPACTS_MAX];
    int next;  // where the next one goes
    int total; // impacts seen since the start (for --report)
} impacts;

void impacts_init(impacts *im);
// After each physics step: the large impulses of the level's contacts of that step (level_update_contacts).
void impacts_collect(impacts *im, level *lv);
// Ages them by dt of game time (0 while paused).
void impacts_advance(impacts *im, float dt_seconds);
// Draws the live ones as renderer lines and points.
void impacts_draw(const impacts *im, renderer *r);
