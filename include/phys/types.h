// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Def structs with their defaults, materials, results, step statistics and the debug-draw interface.
// Every def is made by its ph_default_*_def() (which sets internal_cookie), edited, and passed by
// pointer to a create call that copies it; a def not made that way is rejected with
// PH_ERR_INVALID_ARG. Physics defaults are explicit: zero friction or restitution are real settings.
#pragma once

#include "phys/collision.h"
#include "phys/id.h"
#include "phys/math.h"

#include <stdbool.h> // bool
#include <stdint.h>  // uint32_t

typedef enum ph_body_type
{
    PH_BODY_STATIC,    // infinite mass, never moves
    PH_BODY_KINEMATIC, // moved by its velocity only, pushes dynamic bodies, infinite mass
    PH_BODY_DYNAMIC    // moved by forces and contacts
} ph_body_type;

// The shape of a body. Primitives are values; hulls, compounds and meshes refer to world geometry
// created with ph_world_add_hull/compound/mesh (shared by any number of bodies). A mesh shape is
// only allowed on static bodies.
typedef struct ph_shape
{
    ph_shape_type type;   // SPHERE, CAPSULE, BOX, HULL, COMPOUND or MESH
    ph_vec3 half_extents; // box (unit: m)
    float radius;         // sphere, capsule (unit: m)
    float half_height;    // capsule: half length of the core segment along local y (unit: m)
    ph_geom_id geom;      // hull, compound, mesh
} ph_shape;

ph_shape ph_make_box(ph_vec3 half_extents);
ph_shape ph_make_sphere(float radius);
ph_shape ph_make_capsule(float half_height, float radius);
// A shape that uses world geometry: type is PH_SHAPE_HULL, PH_SHAPE_COMPOUND or PH_SHAPE_MESH and
// must match what geom was created as (checked at body creation).
ph_shape ph_make_geom_shape(ph_shape_type type, ph_geom_id geom);

// Surface and bulk properties. Contacts combine friction as sqrt(fa * fb) and restitution as
// max(ea, eb).
typedef struct ph_material
{
    float density;     // (unit: kg/m^3), > 0; default 1000
    float friction;    // Coulomb coefficient >= 0; default 0.6
    float restitution; // in [0, 1]; default 0
} ph_material;

ph_material ph_default_material(void);

typedef struct ph_body_def
{
    ph_body_type type;        // default PH_BODY_STATIC
    ph_vec3 position;         // origin of the shape's frame, world (unit: m); default 0
    ph_quat orientation;      // unit quaternion; default identity
    ph_vec3 linear_velocity;  // of the centre of mass (unit: m/s); default 0
    ph_vec3 angular_velocity; // world (unit: rad/s); default 0
    float linear_damping;     // (unit: 1/s) >= 0; default 0.01
    float angular_damping;    // (unit: 1/s) >= 0; default 0.05
    float gravity_scale;      // multiplies the world gravity; default 1
    float mass;               // (unit: kg); > 0 scales the shape's mass properties to this mass,
                              // 0 derives them from material.density; default 0
    bool enable_sleep;        // may fall asleep when at rest; default true
    bool is_awake;            // starts awake; default true
    ph_shape shape;           // default: box of half extents 0.5 m
    ph_material material;     // default ph_default_material()
    void *user_data;          // returned by ph_body_get_user_data; default NULL
    // Moving bodies: when not NULL, their mass (kg), centre of mass in the shape frame (m) and inertia
    // about it, shape axes (kg m^2), used instead of the shape's (a hull standing in for a concave solid);
    // mass in [PH_MIN_MASS, PH_MAX_MASS], |centre| <= PH_MAX_SIZE, inertia finite, symmetric, positive
    // definite; def.mass > 0 still scales it; volume unused; read at creation only; default NULL.
    const ph_mass_properties *mass_properties;
    uint32_t internal_cookie;
} ph_body_def;

ph_body_def ph_default_body_def(void);

// Which contact solver a world runs (ph_world_def.simd). The wide paths colour the contact constraints so
// that no two of a colour share a moving body and solve them side by side, one per lane: 8 at a time with
// AVX2 and FMA, 4 with SSE2 (every x86-64) or Neon (every arm64). A path this build or CPU lacks falls back
// to the best one it has (as PH_SIMD_BEST); PH_SIMD_SCALAR, one constraint at a time, runs everywhere.
// Determinism: a path gives the same bits run to run and on any machine that runs that same path. Paths
// differ from each other: the wide ones sweep in another order than the scalar one (colour by colour), and
// AVX2 and Neon fuse multiply-adds where SSE2 rounds twice, so SSE2 and AVX2 runs of one scene differ by
// rounding, which a long simulation amplifies (tests/test_simd.c measures it).
typedef enum ph_simd_path
{
    PH_SIMD_BEST = 0, // the fastest this CPU runs: AVX2, else Neon, else SSE2, else scalar
    PH_SIMD_SCALAR,
    PH_SIMD_SSE2,
    PH_SIMD_AVX2,
    PH_SIMD_NEON,
} ph_simd_path;

// The path a world asking for `requested` runs on this build and CPU (never PH_SIMD_BEST).
ph_simd_path ph_simd_resolve(ph_simd_path requested);
const char *ph_simd_path_name(ph_simd_path path); // "best", "scalar", "sse2", "avx2", "neon"

// ---- Workers ----------------------------------------------------------------------------------------
// A step splits its stages (pair finding, the narrow phase, constraint preparation, the solver's colours,
// integration, the calendar's predictions, bounds) into tasks over ranges of items; a game may run them on
// its own job system through ph_world_def.enqueue_task and finish_task (Box2D v3's b2WorldDef has the same
// pair), or let the world run them on its built-in pool of threads. Every result is the same, to the bit, for
// any worker count and any split of the ranges: each range writes only its own items' outputs, and what
// ranges produce together is merged in item order, never in the order they finish.

// Runs items [begin, end) of a task as worker `worker` (in [0, worker_count)). task_context is the pointer
// the engine gave enqueue_task.
typedef void ph_task_fn(int begin, int end, int worker, void *task_context);
// Starts `task` over items [0, item_count) (item_count >= 1), split into ranges of at least min_range items
// (the last may be shorter; one range of all items is allowed), each run once by calling task, on any
// threads, in any order, at the same time or not. Two ranges that run at the same time must have different
// worker indices. Returns a handle for finish_task, or NULL when the whole task already ran (finish_task is
// then not called for it). The engine enqueues from the thread that called ph_world_step, one task at a
// time: it finishes each before it enqueues the next, and never from inside a task.
typedef void *ph_enqueue_task_fn(ph_task_fn *task, int item_count, int min_range, void *task_context,
                                 void *user_context);
// Returns once every range of the task enqueue_task returned `user_task` for has returned (the calling
// thread may run ranges meanwhile, as worker 0 or any index no running range holds).
typedef void ph_finish_task_fn(void *user_task, void *user_context);

typedef struct ph_world_def
{
    ph_vec3 gravity;       // (unit: m/s^2); default (0, -9.81, 0)
    float time_step;       // fixed step of ph_world_step (unit: s); default 1/60
    int solver_iterations; // soft velocity iterations per sub-step (relax adds one); default 1 (see solver.c)
    int substeps;          // solver sub-steps per step, at least; default 5 (see solver.c)
    int max_substeps;    // most sub-steps a step takes to keep tall columns and walls standing; >= substeps;
                         // default 32
    float contact_hertz; // contact softness stiffness (unit: Hz); default 45
    float speculative_margin;     // contacts are made this far apart (unit: m); default 0.02
    int calendar_event_budget;    // most time-of-impact events per step; default 1024
    int calendar_events_per_pair; // most events per pair per step; default 8
    bool enable_sleep;            // default true
    bool enable_calendar;         // in-frame time-of-impact sub-stepping; default true
    ph_simd_path simd;            // the contact solver's path (ph_simd_path); default PH_SIMD_BEST
    // Threads that may run a step's work at once, the caller of ph_world_step included, in [1,
    // PH_MAX_WORKERS]; default 1 (all on the caller's thread). Results are bit-identical for every count.
    // With more than 1 and no callbacks, the world starts worker_count - 1 threads of its own (pthreads),
    // which spin for a few tens of microseconds after each task and then sleep until the next step.
    int worker_count;
    // A job system's task callbacks (see ph_enqueue_task_fn): both set or both NULL; default NULL (the
    // built-in pool). worker_count then bounds the worker indices the job system passes to tasks.
    ph_enqueue_task_fn *enqueue_task;
    ph_finish_task_fn *finish_task;
    void *user_task_context; // passed to enqueue_task and finish_task as user_context; default NULL
    uint32_t internal_cookie;
} ph_world_def;

ph_world_def ph_default_world_def(void);

// Stages of ph_world_step, timed into ph_step_stats.ms_stage.
typedef enum ph_stage
{
    PH_STAGE_BROADPHASE,  // octree update and pair finding
    PH_STAGE_NARROWPHASE, // GJK/EPA per pair
    PH_STAGE_MANIFOLD,    // manifold building and contact bookkeeping
    PH_STAGE_SOLVER,      // constraint preparation, warm start and impulse iterations
    PH_STAGE_INTEGRATE,   // velocity and position integration
    PH_STAGE_CALENDAR,    // time-of-impact events inside the step
    PH_STAGE_SLEEP,       // the bodies' bounds at their new poses, islands and sleeping
    PH_STAGE_COUNT
} ph_stage;

const char *ph_stage_name(ph_stage stage); // "broadphase", ..., never NULL

// Statistics of the last step; valid until the next ph_world_step.
typedef struct ph_step_stats
{
    int body_count;
    int awake_body_count;
    int sleeping_body_count;
    int pair_count;     // broadphase pairs
    int manifold_count; // touching or speculative pairs
    int pairs_dropped;  // broadphase pairs beyond PH_MAX_PAIRS_PER_BODY or PH_MAX_PAIRS_PER_STEP (a capacity
                        // error)
    int contact_point_count;
    int sequenced_impacts; // two-body impacts taken one after another before the solver (a Newton's cradle)
    int calendar_events;   // time-of-impact events resolved this step
    int calendar_kept;     // events the solver had already taken: their response changed no velocity and the
                           // solver left the two apart, so its ends stand (not counted in calendar_events)
    int calendar_substeps; // advances from one event to the next
    int calendar_sweeps;   // pairs of parts swept by the calendar's time of impact (queries made)
    int solver_substeps;   // solver sub-steps this step (more than def.substeps for a tall column or stack)
    int solver_colors;     // constraint colours of the 8-lane solver (0 when it did not run)
    int longest_column;    // bodies in the longest free-standing column (each touching only the one
                           // body it rests on and at most one resting on it)
    int tallest_stack;     // bodies in the longest chain of moving bodies each resting on the one below
    int calendar_budget_hits; // times the budget ran out and the clamp fallback was used
    int gjk_iteration_limit_hits;
    int epa_fallbacks;       // EPA overflow or degenerate results
    int allocation_failures; // allocations the hook refused during the step (out of memory: the stages that
                             // met them degraded, as ph_world_step says; the step logs how many)
    float ms_stage[PH_STAGE_COUNT];
    float ms_total;
} ph_step_stats;

// A time-of-impact event of the last step, for the HUD and debug drawing.
typedef struct ph_calendar_event
{
    float time;     // into the step (unit: s)
    ph_vec3 point;  // world contact point (unit: m)
    ph_vec3 normal; // from a towards b
    ph_body_id a, b;
    bool clamped; // resolved by the budget fallback
} ph_calendar_event;

// A contact point for debug drawing and tests.
typedef struct ph_contact_info
{
    ph_body_id a, b;
    ph_vec3 point;        // world (unit: m)
    ph_vec3 normal;       // from a towards b
    float separation;     // negative when penetrating (unit: m)
    float normal_impulse; // over the whole last step the pair was solved in, all sub-steps and restitution
                          // (unit: N s): a resting body's points sum to its weight times the step
} ph_contact_info;

typedef struct ph_ray_result
{
    ph_body_id body;
    float distance; // (unit: m)
    ph_vec3 point;
    ph_vec3 normal;
} ph_ray_result;

// GJK simplex and EPA polytope of one pair, for the debug view; filled by ph_world_trace_pair.
typedef struct ph_pair_trace
{
    ph_gjk_status gjk_status;
    ph_epa_status epa_status;
    bool overlapping;
    ph_simplex simplex;         // GJK's final simplex (Minkowski space B - A)
    ph_polytope_trace polytope; // EPA's final polytope (when overlapping)
    ph_vec3 normal;             // from a towards b
    float distance;             // separation (> 0) or -depth (unit: m)
    ph_vec3 point_a, point_b;   // witness points, world
} ph_pair_trace;

// ---- Joints ----------------------------------------------------------------------------------------

typedef enum ph_joint_type
{
    PH_JOINT_DISTANCE,  // keeps the anchors between min_length and max_length (a rod, a rope, a spring)
    PH_JOINT_SPHERICAL, // ball and socket: the anchors meet; optional swing cone and twist range
    PH_JOINT_REVOLUTE,  // hinge about the frames' z axes: the anchors meet and the z axes stay aligned
    PH_JOINT_PRISMATIC, // slider along frame a's z axis: no relative rotation, no motion off the axis
    PH_JOINT_WELD,      // the frames stay together (rigid, or a spring in translation and rotation)
    PH_JOINT_TYPE_COUNT
} ph_joint_type;

// A joint between body_a (or the static world, when body_a is null) and body_b. Each body has a frame
// (anchor point and axes) given in its shape frame (the world's frame is the world itself); what the joint
// holds together is defined on these frames, and the joint acts where they are at creation (it does not
// snap the bodies together: a revolute joint whose anchors are apart pulls them together, softly). Only
// the fields of the joint's type are read. Angles in radians, lengths in metres.
typedef struct ph_joint_def
{
    ph_joint_type type;
    ph_body_id body_a; // null: the joint holds body_b to the world (frame_a then in world coordinates)
    ph_body_id body_b; // a dynamic body (or kinematic, when body_a is dynamic)
    ph_transform frame_a, frame_b; // default identity
    bool collide_connected;        // the two bodies still collide with each other; default false
    // Breaking: the joint is removed in the first step whose constraint force (unit: N) or torque (unit:
    // N m) exceeds these (0: never), and ph_world_get_joint_breaks reports it. Default 0.
    float break_force, break_torque;

    // PH_JOINT_DISTANCE: the anchors' distance stays in [min_length, max_length]; with min_length ==
    // max_length (the default: both 1 m) a rigid rod, with min_length 0 a rope. With the spring on, the
    // distance is pulled towards `length` by a spring of spring_hertz inside those limits.
    float length, min_length, max_length;

    // A spring (distance: towards `length`; revolute and prismatic: towards spring_target, an angle or a
    // position along the axis; weld: spring_hertz softens the translation, angular_hertz the rotation).
    // Frequency (unit: Hz) and damping ratio; default off, 0 Hz, damping ratio 1.
    bool enable_spring;
    float spring_hertz, spring_damping_ratio, spring_target;
    float angular_hertz, angular_damping_ratio; // weld only

    // Revolute (angle about z, from frame a to frame b) and prismatic (position of b's anchor along a's z
    // axis): limits [lower, upper] and a motor driving the relative speed to motor_speed (rad/s or m/s)
    // with at most max_motor_force (N m for a hinge, N for a slider). Default off, limits 0.
    bool enable_limit;
    float lower, upper;
    bool enable_motor;
    float motor_speed, max_motor_force;

    // Spherical: the angle between the frames' z axes stays within cone_angle (in [0, pi)), and the twist
    // about z within [twist_lower, twist_upper] (in (-pi, pi)). Default off.
    bool enable_cone;
    float cone_angle;
    bool enable_twist;
    float twist_lower, twist_upper;

    // Spherical and revolute: joint friction, the largest torque (unit: N m) that resists the bodies' turn
    // relative to each other (a ragdoll's joints, a stiff hinge): below it the joint holds its angle, above
    // it slides against this torque. Default 0: frictionless.
    float max_friction_torque;

    void *user_data;
    uint32_t internal_cookie;
} ph_joint_def;

ph_joint_def ph_default_joint_def(ph_joint_type type);

// A joint the last step broke (and removed): its id, now stale, its bodies and the force and torque that
// broke it.
typedef struct ph_joint_break
{
    ph_joint_id joint;
    ph_body_id body_a, body_b;
    float force, torque; // (unit: N, N m)
    void *user_data;
} ph_joint_break;

// Where a joint is, for drawing and inspection.
typedef struct ph_joint_info
{
    ph_joint_type type;
    ph_body_id body_a, body_b;
    ph_vec3 anchor_a, anchor_b; // the frames' origins, world (unit: m)
    ph_vec3 axis_a, axis_b;     // the frames' z axes, world
    ph_vec3 force;              // constraint force on body b over the last step (unit: N)
    ph_vec3 torque;             // constraint torque on body b about its anchor (unit: N m)
    float angle;                // revolute: the hinge angle; spherical: the swing angle (unit: rad)
    float position;             // prismatic: along the axis; distance: the length (unit: m)
} ph_joint_info;

// Debug drawing: the engine calls these with world-space geometry; colours are 0xRRGGBBAA.
typedef struct ph_debug_draw
{
    void (*draw_segment)(ph_vec3 a, ph_vec3 b, uint32_t rgba, void *context);
    void (*draw_point)(ph_vec3 p, float size_px, uint32_t rgba, void *context);
    bool draw_contacts; // contact points and normals, each normal longer by 0.3 m per factor of ten of
                        // its point's force above 100 N (ph_contact_info.normal_impulse over the step)
    bool draw_bounds;   // body bounding boxes
    bool draw_octree;   // octree nodes that hold bodies
    bool draw_calendar; // the last step's time-of-impact events
    void *context;
    bool draw_joints; // joint anchors, the segment between them and their axes (last: older positional
                      // initialisers stay valid)
} ph_debug_draw;
