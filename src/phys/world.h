// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The world's internal layout and the per-step context shared by the stage modules (contact.c,
// solver.c, island.c, calendar.c). Clients see only the opaque ph_world of phys.h.
#pragma once

#include "arena.h"
#include "body.h"
#include "calendar.h"
#include "contact.h"
#include "id_pool.h"
#include "joint.h"
#include "octree.h"
#include "task.h"

#include "phys/phys.h"

#include <stdint.h> // uint8_t, uint32_t

// Sleep thresholds: an island sleeps when every body stayed below both speeds for PH_SLEEP_TIME.
#define PH_SLEEP_LINEAR_SPEED 0.05f  // (unit: m/s)
#define PH_SLEEP_ANGULAR_SPEED 0.05f // (unit: rad/s)
#define PH_SLEEP_TIME 0.5f           // (unit: s)

typedef enum ph_geom_kind
{
    PH_GEOM_FREE,
    PH_GEOM_HULL,
    PH_GEOM_COMPOUND,
    PH_GEOM_MESH
} ph_geom_kind;

typedef struct ph_geom
{
    ph_geom_kind kind;
    ph_hull *hull;
    ph_compound *compound;
    ph_mesh *mesh;
    float *child_density; // compound: density of each child (unit: kg/m^3)
} ph_geom;

struct ph_world
{
    ph_world_def def;
    ph_error last_error;
    ph_step_stats stats;
    ph_arena arena;
    ph_octree octree;

    ph_id_pool body_ids;
    ph_body *bodies;       // by slot
    ph_body_state *states; // by slot (hot)
    uint8_t *active;       // by slot: 1 for awake non-static bodies (octree pair filter)
    int *stack_depth;      // by slot: bodies in the longest chain of supports ending at it (solver.c)
    int body_capacity;
    int state_capacity;
    int active_capacity;
    int stack_depth_capacity;
    int static_body_count; // live static bodies

    ph_id_pool geom_ids;
    ph_geom *geoms;
    int geom_capacity;

    ph_contact_set contacts;

    ph_id_pool joint_ids;
    ph_joint *joints; // by slot
    int joint_capacity;
    ph_joint_break *joint_breaks; // the last step's
    int joint_break_count, joint_break_capacity;
    int kinematic_joints;   // live joints with a kinematic end (the only ones ph_joints_wake has to look at)
    float joint_need_hertz; // the joints' rigid rows' frequency the last step's forces ask for (joint.c)
    float contact_need_hertz; // the frequency the last step's most loaded face contact asks for (solver.c)
    int *joint_list;          // the step's active joints (ph_joints_prepare)
    int joint_list_count, joint_list_capacity;
    ph_body_state joint_still;  // what a joint reads for the world, a static or a sleeping body: no motion
    ph_joint_batch joint_batch; // the step's joints laid out for the sweeps (ph_joints_prepare)

    ph_calendar calendar; // this step's time-of-impact events and their heap
    ph_tasks tasks;       // the workers the stages split their work among (task.h)

    uint32_t next_island_id;
    uint64_t step_count;
    uint64_t wake_count; // bodies woken since creation (the step retakes its awake list when it changes)
    uint64_t
        wake_visits;   // bodies ph_world_wake_island examined since creation (tests: waking costs the island)
    int locked;        // > 0 while a step, a debug-draw callback or the log hook runs: changes are refused
    bool logging;      // the log hook is running for this world: errors it causes are recorded, not logged
    float last_h;      // the last step's solver sub-step (unit: s); warm-start impulses are per sub-step
    int tree_failures; // octree insertions that failed for lack of memory (bodies then skip collision)
    int wide_arms;     // the wide_arms_mode the solver asks of ph_wide_build: WIDE_ARMS_AUTO (0) but in
                       // tests, which compare the modes
};

// Everything one step passes between its stages (after Box2D's b2StepContext).
typedef struct ph_step_context
{
    ph_world *world;
    ph_arena *arena;
    ph_step_stats *stats;
    float dt;     // (unit: s)
    float inv_dt; // (unit: 1/s)
    int substeps;
    float h; // sub-step (unit: s)
    const ph_octree_pair *pairs;
    int pair_count;
    int *awake; // slots of awake non-static bodies, ascending
    int awake_count;
    unsigned long long ticks; // ph_ticks() at the end of the last timed stage: the start of the next
    // The impacts ph_impacts_sequence applied before the solver, by contact, for ph_impacts_report (arena).
    struct ph_impact_record *impacts;
    int impact_count;
} ph_step_context;

// Records an error in the world (status and message) and sends it to the log hook.
void ph_world_error(const ph_world *world, ph_status status, const char *format, ...);
// The checks of the validity table (phys.h), shared by every module with an API entry point: each records
// PH_ERR_INVALID_ARG with a sentence naming fn and field when it fails.
// False while the world may not change (inside a step, a debug-draw callback or the log hook).
bool ph_world_can_change(const ph_world *world, const char *fn);
bool ph_world_check_range(const ph_world *world, const char *fn, const char *field, float value, float lo,
                          float hi);
bool ph_world_check_vec(const ph_world *world, const char *fn, const char *field, ph_vec3 v); // a position
bool ph_world_check_local_vec(const ph_world *world, const char *fn, const char *field, ph_vec3 v); // local
// A finite quaternion of unit length within tolerance, normalised in place.
bool ph_world_check_quat(const ph_world *world, const char *fn, const char *field, ph_quat *q);
// Wakes the body's sleeping island (every body that fell asleep with it).
void ph_world_wake_island(ph_world *world, int slot);
// The convex shape of child `child` of body `slot` (child -1: the body's own convex shape) and its
// world transform; for a mesh body, child is a triangle index.
void ph_world_child_shape(const ph_world *world, int slot, int child, ph_convex *out_shape,
                          ph_transform *out_xf);
