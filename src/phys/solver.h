// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The contact solver and the integration of the awake bodies over one step (see solver.c for the scheme).
#pragma once

#include <stdbool.h> // bool

typedef struct ph_step_context ph_step_context;

// Integrates velocities and positions of ctx->awake bodies over the step, solving the contacts of
// world->contacts. Leaves every awake body's centre and orientation at the end of the step and its
// start-of-step pose in center0 / q0. False when the arena could not hold the constraints (the bodies
// are then integrated without contacts and the failure is logged). Times itself from ctx->ticks (the end of
// the last stage) and leaves its own last clock read there.
bool ph_solve(ph_step_context *ctx);
