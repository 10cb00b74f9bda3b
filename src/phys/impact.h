// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Impacts of two bodies at a manifold (impact.c): the response the calendar gives an event, and the step's
// sequence of impacts between bouncing bodies that the solver then takes on (a Newton's cradle).
#pragma once

#include "phys/collision.h"

#include <stdbool.h> // bool

typedef struct ph_body ph_body;
typedef struct ph_body_state ph_body_state;
typedef struct ph_step_context ph_step_context;

// A body as an impact sees it: its centre of mass and inverse mass and world inverse inertia where the
// impact happens; a body that is not dynamic (static, kinematic, asleep) takes no impulse.
typedef struct ph_impact_body
{
    ph_vec3 c;
    float inv_mass;
    ph_mat3 inv_inertia;
    bool dynamic;
} ph_impact_body;

// Body b as an impact sees it with its centre of mass at c and orientation q.
ph_impact_body ph_impact_body_at(const ph_body *b, ph_vec3 c, ph_quat q);

// The impact of bodies a and b at manifold m (normal from a to b) on their velocities sa, sb, in three
// stages that can each only take kinetic energy away: compression to no approach at any point, then
// Poisson's restitution (e times the compression at each point whose approach was faster than threshold),
// then Coulomb friction within mu times the normal impulse. Returns the normal impulse it applied
// (unit: N s).
float ph_impact_respond(const ph_impact_body *a, const ph_impact_body *b, ph_body_state *sa,
                        ph_body_state *sb, const ph_manifold *m, float e, float mu, float threshold);

// The normal impulses the sequence applied at one contact's points (unit: N s).
typedef struct ph_impact_record
{
    int contact;
    float impulse[PH_MAX_MANIFOLD_POINTS];
} ph_impact_record;

// Before the solver: the step's impacts between bouncing bodies (contacts of restitution > 0 closing
// within the step faster than the solver's restitution threshold), taken one pair after another as
// ph_impact_respond, and then every contact of a body an impact moved, until none closes. Keeps what it
// applied in ctx->impacts (from the arena) for ph_impacts_report. Returns how many impacts it applied.
int ph_impacts_sequence(ph_step_context *ctx);

// After the solver has stored its contacts' impulses over the step: adds the sequence's to them (what the
// API reports is every impulse of the step) and frees the record.
void ph_impacts_report(ph_step_context *ctx);
