// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The engine's public API: world, geometry, bodies, queries and statistics. The only header most
// clients include.
//
// Ownership: the world owns every body and geometry created in it; ph_world_destroy frees all of it.
// Errors: mutators return ph_status; creators return a null id on failure; getters return zero values
// on a stale id. In every case the reason is recorded in ph_world_last_error() and sent to the log
// hook. Pointers returned by getters of transient data are valid until the next ph_world_step.
#pragma once

#include "phys/base.h"
#include "phys/collision.h"
#include "phys/id.h"
#include "phys/math.h"
#include "phys/types.h"

#include <stdbool.h> // bool
#include <stdint.h>  // uint64_t

typedef struct ph_world ph_world;

// ---- Validity ranges -------------------------------------------------------------------------------
//
// Every input of this API is checked against this one table. A value outside it is refused with
// PH_ERR_INVALID_ARG (creators return a null id, ph_world_create NULL) and a sentence naming the field, its
// value and the range; nothing in the world changes. Vectors are checked component by component.
//
//   input                                                      range                     unit
//   positions, points, ray origins, query boxes, gravity       |x| < PH_MAX_COORDINATE   m, m/s^2
//   linear velocities (defs, setters, after an impulse)        |v| < PH_MAX_SPEED        m/s
//   angular velocities (defs, setters, after an impulse)       |w| < PH_MAX_SPEED        rad/s
//   velocity change of a step's accumulated force or torque    |dv|, |dw| < PH_MAX_SPEED m/s, rad/s
//   forces, torques, impulses themselves                       finite                    N, N m, N s
//   box half extents, sphere and capsule radii                 [PH_MIN_SIZE, PH_MAX_SIZE] m
//   capsule half height                                        [0, PH_MAX_SIZE]          m
//   hull and mesh vertices, compound child offsets (local)     |x| <= PH_MAX_SIZE        m
//   mass of a dynamic body (def.mass, or density x volume)     [PH_MIN_MASS, PH_MAX_MASS] kg
//   density (material, compound child)                         (0, PH_MAX_DENSITY]       kg/m^3
//   friction, damping                                          finite, >= 0
//   restitution                                                [0, 1]
//   gravity scale                                              |s| <= PH_MAX_GRAVITY_SCALE
//   time step                                                  [PH_MIN_TIME_STEP, PH_MAX_TIME_STEP] s
//   sub-steps, most sub-steps, solver iterations               [1, PH_MAX_SUBSTEPS]
//   workers                                                    [1, PH_MAX_WORKERS]
//   contact stiffness                                          [0, PH_MAX_CONTACT_HERTZ] Hz
//   speculative margin                                         (0, PH_MAX_SPECULATIVE_MARGIN] m
//   calendar event budget                                      [0, PH_MAX_CALENDAR_BUDGET]
//   calendar events per pair                                   [1, PH_MAX_CALENDAR_BUDGET]
//   compound children                                          [1, PH_MAX_COMPOUND_CHILDREN]
//   broadphase pairs a step keeps (not an input: a capacity)   PH_MAX_PAIRS_PER_BODY x awake bodies,
//                                                              PH_MAX_PAIRS_PER_STEP in all
//   hull vertex budget, mesh triangles                         see collision.h
//
// Float precision sets most bounds: at 1e7 m a float's step is 1 m, so contacts mean nothing beyond; a
// shape larger than 1e4 m (a float step of 1 mm on its surface) or a mass outside 1e-9..1e12 kg makes the
// contact solver's products overflow or lose every digit.
#define PH_MAX_COORDINATE 1e7f         // (unit: m), exclusive
#define PH_MAX_SPEED 1e7f              // (unit: m/s and rad/s), exclusive
#define PH_MIN_SIZE 1e-4f              // (unit: m)
#define PH_MAX_SIZE 1e4f               // (unit: m)
#define PH_MIN_MASS 1e-9f              // (unit: kg), a microgram
#define PH_MAX_MASS 1e12f              // (unit: kg)
#define PH_MAX_DENSITY 1e6f            // (unit: kg/m^3), beyond osmium by far
#define PH_MAX_GRAVITY_SCALE 1e3f      // multiplies the world gravity
#define PH_MIN_TIME_STEP 1e-4f         // (unit: s)
#define PH_MAX_TIME_STEP 0.1f          // (unit: s)
#define PH_MAX_SUBSTEPS 64             // sub-steps and solver iterations
#define PH_MAX_WORKERS 64              // ph_world_def.worker_count
#define PH_MAX_CONTACT_HERTZ 1e4f      // (unit: Hz)
#define PH_MAX_SPECULATIVE_MARGIN 1.0f // (unit: m)
#define PH_MAX_CALENDAR_BUDGET 65536   // time-of-impact events per step
#define PH_MAX_COMPOUND_CHILDREN 4096
// Bodies piled on one spot overlap pairwise: n bodies give n (n - 1) / 2 pairs, each a contact and a
// manifold (about 2 KB), so 2,000 bodies at one point once took 4 GB. A body in a dense pile of its equals
// touches 26 (the neighbours in a cubic lattice) and its swept bounds a few more. A pair is kept while one
// awake body of the two has fewer than 32 pairs, which keeps every pair of such a pile and of a hub (a
// ground, or a platform under a hundred boxes) while bounding n awake bodies at one spot to 32 n pairs.
// Past either cap the step keeps the pairs found first in the broadphase's deterministic walk, drops the
// rest, counts them in ph_step_stats.pairs_dropped and logs one capacity error.
#define PH_MAX_PAIRS_PER_BODY 32
// 262,144 pairs (about 0.6 GB of contacts) serve a settled pile of 50,000 awake boxes at 4 pairs a body.
#define PH_MAX_PAIRS_PER_STEP 262144

// ---- Callbacks -------------------------------------------------------------------------------------
//
// The debug-draw callbacks (ph_world_debug_draw) and the log hook (ph_set_log) may read the world through
// getters and queries, but must not change it: while one runs, and during ph_world_step, every call that
// changes the world (create, destroy, set, apply, wake, step, ph_world_destroy) is refused with
// PH_ERR_INVALID_ARG (creators return a null id; ph_world_destroy does nothing) and a message saying so.
// The allocator and assert hooks must not call the engine at all.

typedef struct ph_error
{
    ph_status status;
    char message[256]; // one sentence naming the argument or field and its value
} ph_error;

// ---- World -----------------------------------------------------------------------------------------

// NULL on invalid def or out of memory (reported through the log hook only).
ph_world *ph_world_create(const ph_world_def *def);
void ph_world_destroy(ph_world *world);
// Advances by the def's fixed time step: broadphase, narrow phase, solver, the in-frame time-of-impact
// calendar and sleeping. Makes no heap allocation once the world has warmed up.
void ph_world_step(ph_world *world);
ph_error ph_world_last_error(const ph_world *world);
ph_status ph_world_set_gravity(ph_world *world, ph_vec3 gravity);
ph_vec3 ph_world_get_gravity(const ph_world *world);
float ph_world_get_time_step(const ph_world *world);
// The sub-step the last step ended with (unit: s; 0 before the first step). A body's angular velocity is
// given and taken as it is now (ph_body_get_angular_velocity), while the step carries the one the last
// sub-step turned the body by; for a spinning body whose inertia is not a multiple of the identity the two
// differ, through this sub-step. A saved world made again sets it before its bodies (h in [0, time_step]),
// so that each carries what it carried and the hash is the saved world's.
float ph_world_get_last_substep(const ph_world *world);
ph_status ph_world_set_last_substep(ph_world *world, float h);
const ph_step_stats *ph_world_get_stats(const ph_world *world);
// A hash of every body's state (position, orientation, velocities, sleep): equal hashes after the same
// steps from the same build mean bit-identical simulations.
uint64_t ph_world_hash(const ph_world *world);

// ---- Geometry (world-owned, shared by bodies) ------------------------------------------------------

ph_geom_id ph_world_add_hull(ph_world *world, const ph_hull_def *def);
// Children: convex shapes (box, sphere, capsule, or hull geometry of this world) with local transforms.
typedef struct ph_compound_child_def
{
    ph_shape shape;     // convex: BOX, SPHERE, CAPSULE or HULL
    ph_transform local; // child frame in the compound's frame
    float density;      // (unit: kg/m^3) > 0
} ph_compound_child_def;
typedef struct ph_compound_def
{
    const ph_compound_child_def *children; // copied
    int child_count;
    uint32_t internal_cookie;
} ph_compound_def;
ph_compound_def ph_default_compound_def(void);
ph_geom_id ph_world_add_compound(ph_world *world, const ph_compound_def *def);
ph_geom_id ph_world_add_mesh(ph_world *world, const ph_mesh_def *def);
// Read-only views for rendering and tests; NULL for a stale id or another kind of geometry.
const ph_hull *ph_world_get_hull(const ph_world *world, ph_geom_id geom);
const ph_compound *ph_world_get_compound(const ph_world *world, ph_geom_id geom);
const ph_mesh *ph_world_get_mesh(const ph_world *world, ph_geom_id geom);

// ---- Bodies ----------------------------------------------------------------------------------------

ph_body_id ph_body_create(ph_world *world, const ph_body_def *def);
// Removes the body and wakes what touched it.
ph_status ph_body_destroy(ph_world *world, ph_body_id body);
bool ph_body_is_valid(const ph_world *world, ph_body_id body);
int ph_world_get_body_count(const ph_world *world);
// Fills out with up to capacity live body ids in creation-slot order; returns the number of live bodies.
int ph_world_get_bodies(const ph_world *world, ph_body_id *out, int capacity);

ph_body_type ph_body_get_type(const ph_world *world, ph_body_id body);
ph_shape ph_body_get_shape(const ph_world *world, ph_body_id body);
ph_material ph_body_get_material(const ph_world *world, ph_body_id body);
ph_transform ph_body_get_transform(const ph_world *world, ph_body_id body); // shape frame
ph_vec3 ph_body_get_position(const ph_world *world, ph_body_id body);       // shape frame origin
ph_quat ph_body_get_orientation(const ph_world *world, ph_body_id body);
ph_vec3 ph_body_get_center_of_mass(const ph_world *world, ph_body_id body); // world
ph_vec3 ph_body_get_linear_velocity(const ph_world *world, ph_body_id body);
ph_vec3 ph_body_get_angular_velocity(const ph_world *world, ph_body_id body);
float ph_body_get_mass(const ph_world *world, ph_body_id body);            // 0 for static and kinematic
ph_mat3 ph_body_get_world_inertia(const ph_world *world, ph_body_id body); // about the centre of mass
ph_aabb ph_body_get_bounds(const ph_world *world, ph_body_id body);
bool ph_body_is_awake(const ph_world *world, ph_body_id body);
void *ph_body_get_user_data(const ph_world *world, ph_body_id body);

// Teleports the body (wakes it and what touches it).
ph_status ph_body_set_transform(ph_world *world, ph_body_id body, ph_vec3 position, ph_quat orientation);
ph_status ph_body_set_linear_velocity(ph_world *world, ph_body_id body, ph_vec3 v);
ph_status ph_body_set_angular_velocity(ph_world *world, ph_body_id body, ph_vec3 w);
// The angular velocity the step carries (ph_world_get_last_substep says how it differs from the one now), as
// the world keeps it: for saving a body and making it again to the bit. Setting it wakes the body.
ph_vec3 ph_body_get_carried_spin(const ph_world *world, ph_body_id body);
ph_status ph_body_set_carried_spin(ph_world *world, ph_body_id body, ph_vec3 w);
ph_status ph_body_set_user_data(ph_world *world, ph_body_id body, void *user_data);
// Force (unit: N) and torque (unit: N m) accumulate until the end of the next step.
ph_status ph_body_apply_force(ph_world *world, ph_body_id body, ph_vec3 force);
ph_status ph_body_apply_force_at_point(ph_world *world, ph_body_id body, ph_vec3 force, ph_vec3 point);
ph_status ph_body_apply_torque(ph_world *world, ph_body_id body, ph_vec3 torque);
// Impulses (unit: N s) change velocity at once and wake the body.
ph_status ph_body_apply_impulse(ph_world *world, ph_body_id body, ph_vec3 impulse);
ph_status ph_body_apply_impulse_at_point(ph_world *world, ph_body_id body, ph_vec3 impulse, ph_vec3 point);
ph_status ph_body_wake(ph_world *world, ph_body_id body);

// ---- Joints ----------------------------------------------------------------------------------------
//
// Joints are owned by the world and solved in the same soft sub-stepped solver as contacts (warm started,
// relaxed). A joint wakes its bodies when made, changed or removed; jointed bodies form one island, which
// sleeps and wakes as a whole. Removing a body removes its joints. Limits of the validity table apply to
// the frames (|x| <= PH_MAX_SIZE), lengths (finite, >= 0), frequencies and damping ratios (finite, >= 0),
// forces (finite, >= 0); lower <= upper.

ph_joint_id ph_joint_create(ph_world *world, const ph_joint_def *def);
ph_status ph_joint_destroy(ph_world *world, ph_joint_id joint);
bool ph_joint_is_valid(const ph_world *world, ph_joint_id joint);
int ph_world_get_joint_count(const ph_world *world);
// Fills out with up to capacity live joint ids in slot order; returns the number of live joints.
int ph_world_get_joints(const ph_world *world, ph_joint_id *out, int capacity);
ph_status ph_joint_get_info(const ph_world *world, ph_joint_id joint, ph_joint_info *out);
ph_joint_def ph_joint_get_def(const ph_world *world, ph_joint_id joint); // a copy; zeroed for a stale id
// Motor and spring settings of a live joint (checked as at creation); they wake its bodies.
ph_status ph_joint_set_motor(ph_world *world, ph_joint_id joint, bool enable, float speed, float max_force);
ph_status ph_joint_set_spring(ph_world *world, ph_joint_id joint, bool enable, float hertz,
                              float damping_ratio, float target);
// The joints the last step broke; valid until the next step.
const ph_joint_break *ph_world_get_joint_breaks(const ph_world *world, int *out_count);

// ---- Queries ---------------------------------------------------------------------------------------

// Closest body hit by the ray (unit direction) within max_distance; false when none.
bool ph_world_cast_ray(const ph_world *world, ph_vec3 origin, ph_vec3 dir, float max_distance,
                       ph_ray_result *out);
// Bodies whose bounds overlap box; fills up to capacity ids, returns how many overlap in all.
int ph_world_query_box(const ph_world *world, ph_aabb box, ph_body_id *out, int capacity);
// Bodies whose bounds are inside or crossing the frustum given by 6 planes (a, b, c, d) with
// a x + b y + c z + d >= 0 inside; fills up to capacity, returns the total (through the octree).
int ph_world_query_frustum(const ph_world *world, const ph_vec4 planes[6], ph_body_id *out, int capacity);

// Contact points of the last step: fills up to capacity, returns the total.
int ph_world_get_contacts(const ph_world *world, ph_contact_info *out, int capacity);
// Time-of-impact events of the last step; valid until the next step.
const ph_calendar_event *ph_world_get_calendar_events(const ph_world *world, int *out_count);
// Draws what debug_draw asks for through its callbacks, which must not change the world (see Callbacks:
// such calls are refused while they run).
void ph_world_debug_draw(const ph_world *world, const ph_debug_draw *debug_draw);
// GJK simplex and EPA polytope for the pair (a, b) in their current poses.
ph_status ph_world_trace_pair(const ph_world *world, ph_body_id a, ph_body_id b, ph_pair_trace *out);
