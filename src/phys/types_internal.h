// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The documented defaults of the public defs (types.h) as named constants, and the cookies that mark a
// def as made by its ph_default_*_def().
#pragma once

#include "phys/phys.h"

#define PH_BODY_DEF_COOKIE 0x424F4459u     // "BODY"
#define PH_WORLD_DEF_COOKIE 0x574F524Cu    // "WORL"
#define PH_COMPOUND_DEF_COOKIE 0x434D5044u // "CMPD"
#define PH_JOINT_DEF_COOKIE 0x4A4F494Eu    // "JOIN"

#define PH_STANDARD_GRAVITY 9.81f           // (unit: m/s^2)
#define PH_DEFAULT_TIME_STEP (1.0f / 60.0f) // (unit: s)
#define PH_DEFAULT_SOLVER_ITERATIONS 1      // soft iterations per sub-step (relax adds one more)
#define PH_DEFAULT_SUBSTEPS 5
#define PH_DEFAULT_MAX_SUBSTEPS 32
#define PH_DEFAULT_CONTACT_HERTZ 45.0f      // (unit: Hz); w h = 0.94 at 5 sub-steps (see solver.c)
#define PH_DEFAULT_SPECULATIVE_MARGIN 0.02f // (unit: m)
// Time-of-impact events per step before the calendar falls back to clamping bodies at their impact. With
// 64 (the dynamics issue's example) highspeed (5000 bodies at 250 m/s) stopped 85k body-steps dead in its
// 500 steps (590 per step in the first 100) instead of bouncing them; they start the next step touching
// and spinning into each other, the hardest case for the time-of-impact search, and the step cost 45% more
// than with 1024, which that scene no longer reaches (at most 629 events in a step; 1.3k body-steps stopped,
// by the per-pair limit).
#define PH_DEFAULT_CALENDAR_BUDGET 1024
#define PH_DEFAULT_CALENDAR_PER_PAIR 8
#define PH_DEFAULT_DENSITY 1000.0f // water (unit: kg/m^3)
#define PH_DEFAULT_FRICTION 0.6f
#define PH_DEFAULT_LINEAR_DAMPING 0.01f  // (unit: 1/s)
#define PH_DEFAULT_ANGULAR_DAMPING 0.05f // (unit: 1/s)
#define PH_DEFAULT_BOX_HALF 0.5f         // (unit: m)
