// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Joints (joint.c): storage by slot with generational ids, each body's list of its joints, and the joints'
// part of the soft step (ph_solve calls the ph_joints_* solver functions around the contacts' sweeps).
#pragma once

#include "phys/phys.h"

#include <stdbool.h>
#include <stdint.h>

// A loaded joint's rigid rows are a spring that gives by F / (m w^2) under a steady force F, and the sub-step
// rate bounds w: a joint whose load asks for a stiffer spring than JOINT_HERTZ (joint.c) gets at most this
// fraction of the sub-step rate (w h = 1.88), and takes the sub-steps that lets it give by JOINT_MAX_GIVE, up
// to PH_JOINT_MAX_SUBSTEPS. Twice the fraction at half the sub-steps is the same spring at half the cost
// (the sub-steps are the whole world's): 0.3 at 8 sub-steps holds the joint grid's 99 balls as 0.15 at 16
// did, and a chain of 20 links of 1 kg under 10 kg stretches 0.694 mm a joint either way. Past about w h
// = 1.1 one Gauss-Seidel sweep of stiff springs feeds energy into a long chain (a 40-plank bridge at 240 Hz
// and 16 sub-steps flew apart with a single relax sweep, as solver.c says of contacts); the relax sweeps
// below take that energy out again: at 0.3 the bridge under 100 kg opens its hinges by 4.6 mm at 8 sub-steps
// and at 16 (w h = 1.88 in both), the chain under 100 kg stretches 2.9 mm and 0.7 mm. At 0.35 the chain under
// 100 kg stretched 12 mm.
#define PH_JOINT_LOADED_HERTZ_FRACTION 0.3f
// The most sub-steps loaded joints ask for (def.max_substeps bounds it too). 8 with 16 at 0.15 was the same
// spring at the cap; beyond, the measured gain was small where the cost doubles: 20 ragdolls down stairs
// opened their joints by 30.0 mm at 16 and at 32 (what opens them is impacts, not load), a 40-plank bridge
// under 100 kg by 13 mm at 16 and 6 mm at 32 (both at 0.15).
#define PH_JOINT_MAX_SUBSTEPS 8

// Sweeps of the joints' rows in each sub-step's relax pass (solver.c), the first with the contacts. The relax
// pass solves the rows rigidly, with no bias: it takes out of the bodies' relative motion along the rows what
// the biased sweep's spring put there. One Gauss-Seidel sweep does not do that through a long chain (a column
// of the joint grid is 99 joints deep), and the motion it leaves is the compliance of the rows' springs
// ringing: a 100 x 100 joint grid, which sags by F / (m w^2) per joint under its own weight, bounced on that
// compliance for over 10 s (its slowest mode's damping ratio is about 1% of the joint spring's; issue 20).
// What settles it is the number of sweeps in a step: at 16 sub-steps 2 sweeps each settle it by 5 s (it moves
// 3.9 mm after 5 s), at 8 sub-steps 3 each leave it as much (4.1 mm) and 4 each 0.5 mm, where 2 each left it
// bouncing (12 mm). The sweeps also carry an impact through a chain of limbs: 20 ragdolls down stairs (seeds
// 1 to 5) opened their joints by 8 to 18 mm at most with 4 in every sub-step, and seed 1 by 23 mm where the
// steps of more than 10 sub-steps took 3 or 2. They enforce the rigid rows' velocity constraint more exactly,
// not a damping: a swinging pendulum's motion satisfies the rows and keeps its energy
// (joints_pendulum_keeps_amplitude: 0.71% lost over 60 s with one sweep or four).
#define PH_JOINT_RELAX_SWEEPS 4

typedef struct ph_world ph_world;
typedef struct ph_body_state ph_body_state;
typedef struct wide_joint_group wide_joint_group;
typedef struct wide_limit_group wide_limit_group;
typedef struct wide_kernels wide_kernels;

// Colours of the joint groups (one bit each in a body's 64-bit mask; solver_internal.h's WIDE_MAX_COLORS).
#define PH_JOINT_MAX_COLORS 64

// The step's joints as ph_joints_prepare lays them out for the sweeps: on a wide path (ph_simd_path), the
// plain point joints in coloured groups of 8 lanes (solver_internal.h, wide_joint_group), then the hinges and
// the spherical joints with a cone or twist range in theirs (wide_limit_group), each kind coloured apart and
// solved colour by colour, each colour's groups split among the workers; every other joint (and all of them
// on the scalar path) one at a time after the groups, in the list's order. The arrays are the world's, grown
// as needed and kept from step to step.
typedef struct ph_joint_batch
{
    const wide_kernels *kernels; // NULL: no groups this step
    wide_joint_group *groups;
    int group_count, group_capacity;
    int colors;
    int color_first[PH_JOINT_MAX_COLORS + 1]; // groups of colour c: color_first[c] .. color_first[c + 1] - 1
    // The hinges' groups, then the limited spherical joints' (limit_first[0] and [1] as color_first, into
    // `limits`).
    wide_limit_group *limits;
    int limit_count, limit_capacity;
    int limit_colors[2];
    int limit_first[2][PH_JOINT_MAX_COLORS + 1];
    int *rest; // the joints solved one at a time (slots)
    int rest_count, rest_capacity;
    uint64_t *used; // scratch: per kind of group and body slot, the colours its joints took
    int used_capacity;
    int *color,
        *order; // scratch: per listed joint, its kind and colour (-1: none); the grouped ones in order
    int color_capacity, order_capacity;
    // The geometry of each joint solved one at a time (joint.c's joint_geometry, by its place in that list),
    // as the last sweep after the bodies moved found it; NULL: worked out in every sweep.
    struct joint_geometry *geometry;
    int geometry_capacity;
    bool break_due; // a joint's last step's force or torque passed its break limits (ph_joints_finish)
} ph_joint_batch;

typedef struct ph_joint
{
    ph_joint_def def;
    int a, b;           // body slots; a = -1: the world
    int next_a, next_b; // the next joint in body a's and body b's lists (-1: the end)
    // The step's frames (ph_joints_prepare): anchors from the centres of mass and the frames' orientations,
    // world, at the step's start; b's centre of mass less a's.
    ph_vec3 ra, rb;
    ph_quat qa, qb;
    ph_vec3 delta_center;
    bool active;            // solved this step (one of its bodies awake and dynamic)
    ph_body_state *sa, *sb; // the states the step reads (world->joint_still for the world, a static body)
    // Accumulated impulses of the last sub-step (warm started; unit: N s, N m s).
    ph_vec3 point_impulse;   // the anchors' meeting (prismatic: the two rows across its axis), world
    ph_vec3 angular_impulse; // the orientation lock (revolute: the two rows across its axis), world
    float axial_impulse;     // distance: the rigid length; spring rows of every kind
    float motor_impulse, lower_impulse, upper_impulse;
    float cone_impulse, twist_lower_impulse, twist_upper_impulse;
    ph_vec3 friction_impulse; // joint friction's angular impulse on body b (world; unit: N m s)
    // What the last step's constraint did to body b, for ph_joint_get_info and breaking.
    ph_vec3 linear, angular; // last sub-step's impulses summed over the rows (unit: N s, N m s)
    bool in_lanes;           // ph_joints_finish took linear and angular from a limit group's lanes
    ph_vec3 force, torque;   // (unit: N, N m)
    ph_vec3 steady_force;    // force low-passed over JOINT_STEADY_TIME: the load it holds, without impacts
    float need_hertz; // the rigid rows' frequency its load asks for: the larger of steady_force and force
    // The rigid rows' spring in this step's biased sweeps (ph_joints_prepare: the joint's own need_hertz at
    // the sub-step): bias rate (unit: 1/s), mass scale and impulse scale, as ph_make_soft gives them.
    float soft[3];
    int projected_steps;     // steps in a row the position projection had to close it (ph_joints_project)
    uint64_t last_projected; // the world's step_count when it last did
} ph_joint;

void ph_joints_destroy_all(ph_world *world);
// Removes the joints of body slot (before the body goes).
void ph_joints_remove_body(ph_world *world, int slot);
// Whether a joint without collide_connected holds bodies a and b together (their contact is skipped).
bool ph_joints_exclude(const ph_world *world, int a, int b);
// Wakes the sleeping islands jointed to an awake dynamic body (before the step lists the awake bodies).
void ph_joints_wake(ph_world *world);
// Joins the islands of jointed awake bodies (island.c's union-find).
void ph_joints_join_islands(const ph_world *world, int *parent, void (*join)(int *parent, int a, int b));

// The solver's part. prepare marks the joints to solve and their bodies in `constrained` (by slot, may be
// NULL) and returns how many; warm_scale scales the stored impulses (this sub-step over the last).
int ph_joints_prepare(ph_world *world, uint8_t *constrained, float h, float warm_scale);
// `at_start`: the step's first sub-step, whose bodies have not moved yet.
void ph_joints_warm_start(ph_world *world, float h, bool at_start);
// `measure`: the bodies moved, or their inverse inertias were refreshed, since the last sweep (the joint
// groups then work out their anchors and blocks again; see solver_internal.h, wide_joint_group).
void ph_joints_solve(ph_world *world, float h, bool use_bias, bool measure);
// After the sub-steps: the anchors of point joints (spherical, revolute, rigid weld) drawn together in
// position (the bodies' states' dp and dq), their velocities untouched.
void ph_joints_project(ph_world *world);
// After the sub-steps: forces and torques from the last sub-step's impulses.
void ph_joints_finish(ph_world *world, float h, float dt);
// Anchors (points), the segment between them, each body's centre to its anchor and the frames' z axes.
void ph_joints_debug_draw(const ph_world *world, const ph_debug_draw *dd);
// After the step: removes the joints whose force or torque passed their break limits, listing them.
void ph_joints_break(ph_world *world);
