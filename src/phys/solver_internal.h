// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// What solver.c shares with its wide kernels (solver_wide.c, solver_wide_kernels.h): the contact constraint
// as the step prepares it, and the entry points of the wide path.
#pragma once

#include "body.h"

#include "phys/collision.h" // PH_MAX_MANIFOLD_POINTS

#include <stdbool.h> // bool
#include <stdint.h>  // uint64_t

typedef struct ph_arena ph_arena;

// Fastest speed at which the soft contact pushes overlapping bodies apart (unit: m/s).
#define SOLVER_MAX_PUSH_SPEED 3.0f
// Relative normal speed above which restitution applies (unit: m/s).
#define SOLVER_RESTITUTION_THRESHOLD 1.0f
// Sweeps over the normal rows of one manifold per iteration. One sweep hands most of an impact to the
// first point and tips a landing box into a spin; a few local sweeps share it out like a block solve.
#define SOLVER_NORMAL_PASSES 3
// A contact's anchors follow its bodies' relative motion through the step once that has moved them by this
// fraction of their reach from the bodies' centres (solver.c, rearm).
#define SOLVER_REARM_FRACTION 1e-4f
// Only manifolds closing faster than this get the extra passes; resting contacts, warm-started with the
// impulses that already share their load, converge with one (unit: m/s).
#define SOLVER_IMPACT_SPEED 0.1f

typedef struct softness
{
    float bias_rate; // (unit: 1/s)
    float mass_scale;
    float impulse_scale;
} softness;

// Soft constraint coefficients of a spring at `hertz` with damping ratio zeta over a step h (Catto,
// "Soft constraints", GDC 2011): bias_rate = w / (2 zeta + h w), mass_scale = h w (2 zeta + h w) /
// (1 + h w (2 zeta + h w)), impulse_scale = 1 / (1 + h w (2 zeta + h w)). Zero hertz: rigid, no bias.
static inline softness ph_make_soft(float hertz, float zeta, float h)
{
    if (hertz <= 0.0f)
        return (softness){0.0f, 1.0f, 0.0f};
    float omega = 2.0f * GLM_PIf * hertz;
    float a1 = 2.0f * zeta + h * omega;
    float a2 = h * omega * a1;
    float a3 = 1.0f / (1.0f + a2);
    return (softness){omega / a1, a2 * a3, a3};
}

// One row of a point (normal or a tangent): the direction's angular parts precomputed at preparation,
// with the inertia of the start of the step (as Box2D; the error is second order in the rotation over a
// step), so the inner loops are dot products and scaled adds only.
typedef struct row
{
    ph_vec3 rda, rdb;   // ra x d, rb x d
    ph_vec3 irda, irdb; // I_a^-1 (ra x d), I_b^-1 (rb x d)
    float mass;         // effective mass along d (unit: kg)
    float impulse;      // accumulated (unit: N s)
} row;

typedef struct constraint_point
{
    // The anchors of the normal row, set at the step's start (and moved only as rearm in solver.c says): from
    // each centre of mass to the point, less the
    // part of a round shape's radius (sphere, capsule) along the normal. The contact point of a round shape
    // is not a point of the body but where its core's offset surface faces the other: as the body turns it
    // stays under the core, so the separation is measured from the core point, which does turn with the
    // body (a rolling ball's contact never opens). The radius lies along the normal, so the row's arms
    // r x n are the contact point's.
    ph_vec3 ra, rb;        // (unit: m)
    float base_separation; // separation minus dot(rb - ra, n): add the current anchor gap (unit: m)
    // The scalar path's: the anchors of the step's start, which the separation is measured from, and the
    // shift of A's anchor from them that the rows' arms ra, rb took (solver.c, rearm).
    ph_vec3 ra0, rb0, shift;  // (unit: m)
    float max_normal_impulse; // largest single normal impulse this step (restitution needs contact)
    float approach;           // relative normal speed just before the point closed (unit: m/s)
    float approach_gap;       // separation when `approach` was taken (unit: m)
    float total_impulse;      // normal impulse over the step so far, all sub-steps (unit: N s)
    float bounce_impulse;     // the restitution pass's share of total_impulse (unit: N s)
    float end_separation;     // as the last relax sweep measured it (unit: m)
    row n;
} constraint_point;

// The twist friction row of a manifold: a torque about the normal, no force (angular Jacobian n).
typedef struct twist_row
{
    ph_vec3 ian, ibn; // I_a^-1 n, I_b^-1 n
    float mass;       // effective inertia about n (unit: kg m^2)
    float impulse;    // accumulated (unit: N m s)
} twist_row;

typedef struct constraint
{
    ph_vec3 normal, t1, t2;
    int a, b; // body slots
    int point_count;
    int contact; // index into world->contacts.items
    float friction, restitution;
    float accel_n; // relative normal acceleration from gravity, b against a (unit: m/s^2)
    int passes;    // normal sweeps per biased iteration: SOLVER_NORMAL_PASSES for an impact, else 1
    softness soft;
    // Friction at the manifold's centre (see solver.c): two tangent rows and the twist about the normal,
    // bounded by the friction coefficient times the sum of the points' normal impulses, and for the twist
    // that times the mean distance of the contact patch from its centre.
    ph_vec3 fa, fb;     // the centre from each body's centre of mass at the start of the step (unit: m)
    float twist_radius; // (unit: m)
    // How the anchors (the points' and the centre's) follow the bodies' relative motion through the step
    // (solver.c, rearm): the relative displacement dp_b - dp_a they last followed, the square of the change
    // of it that moves them again (infinite where a body does not move), and the share of it the point
    // takes with body a.
    ph_vec3 armed;      // (unit: m)
    float rearm_limit2; // (unit: m^2)
    float follow_a;
    ph_vec3 fa0, fb0;    // fa, fb at the step's start (unit: m)
    bool turn_a, turn_b; // a sphere part, whose anchor (its centre) turns with it
    row f1, f2;
    twist_row twist;
    constraint_point points[PH_MAX_MANIFOLD_POINTS];
} constraint;

// What selecting a contact for the step fixes before its constraint is built: its bodies, its contact and
// its number of points (enough to colour it and to find the bodies it holds).
typedef struct constraint_head
{
    int a, b;    // body slots
    int contact; // index into world->contacts.items
    int point_count;
    bool round; // a sphere part off its body's centre of mass, whose anchor turns with it: solved one at a
                // time (solver.c, rearm)
} constraint_head;

// ---- The velocity sub-step of most bodies ----
// What the sub-step loop reads of an awake dynamic body in a contact constraint, fixed for the step and
// listed once before the sub-steps: its ph_body is 432 bytes, and reading it in every sub-step of 10k
// bodies (pile10k) was a cache miss per body and sub-step, a quarter of ph_solve's own time. A body with an
// isotropic inertia (no gyroscopic term) and no torque integrates from these 24 bytes and its state alone;
// any other takes ph_body_integrate_velocity.
typedef struct solver_motion
{
    ph_body_motion motion;
    int slot; // the body's slot; -1 - slot for a body that takes ph_body_integrate_velocity
} solver_motion;

// The record of `body` at `slot` for sub-steps of length h.
static inline solver_motion solver_motion_of(const ph_body *body, int slot, ph_vec3 gravity, float h)
{
    bool plain = body->isotropic && !ph_body_has_torque(body);
    return (solver_motion){ph_body_motion_of(body, gravity, h), plain ? slot : -1 - slot};
}

// ph_body_integrate_velocity of a body whose record has its slot (isotropic, no torque), operation for
// operation (max_speed = BODY_MAX_ROTATION / h).
static inline void solver_integrate_velocity(const solver_motion *m, ph_body_state *state, float h,
                                             float max_speed)
{
    state->v = ph_body_motion_velocity(&m->motion, state->v, h);
    state->w = ph_body_motion_spin(&m->motion, state->w, max_speed);
}

// ---- The wide path (solver_wide.c, solver_wide_kernels.h) ----
// The constraints are coloured so that no two constraints of a colour share a body that moves, and each
// colour is cut into groups of 8 lanes, one constraint per lane, solved side by side by the kernels of the
// instruction set the world's ph_simd_path picks: AVX2 + FMA takes a group's 8 lanes at once, SSE2 and Neon
// take 4 at a time (solver_wide_kernels.h). A constraint whose bodies have used up every colour, or with a
// sphere part off its body's centre of mass (whose anchor turns with it, solver.c rearm), is solved one at a
// time after the groups, from the scalar array. The arithmetic per lane is the scalar solver's;
// only the order of the Gauss-Seidel sweep differs (colour by colour instead of contact by contact).
// Constraints are prepared straight into their lane (solver.c gathers 8 contacts, ph_wide_prepare builds
// them): the lanes are the only copy. The layout of a group is the same for every instruction set, so that
// solver.c gathers and scatters lanes one way.
#define WIDE 8

// One row of 8 lanes: the effective mass and accumulated impulse of `row`. Its angular parts, the arms
// r x d and their turns I^-1 (r x d), are 12 floats more: kept beside the group where groups are few, and
// worked out in each sweep from the point's anchors, the group's direction and the bodies' inverse
// inertias where they are many (wide_arms_mode). The solver is memory-bound in big scenes (pile10k's groups
// are read 15 times a step): without the arms a point's 42 floats are 13 (with its base separation), for
// ~80 more arithmetic operations per point and sweep, which the core does while it waits for memory anyway
// (pile10k's solver about 13 -> 10 ms; column40, latency-bound in cache, took 34% longer that way).
typedef struct wide_row
{
    float mass[WIDE];
    float impulse[WIDE];
} wide_row;

// What the sweeps read for every point. Apart from the rest of a point (wide_point_cold) so that a sweep
// streams only this.
typedef struct wide_point
{
    float ra[3][WIDE], rb[3][WIDE]; // the normal row's anchors, as constraint_point's (unit: m)
    float base_separation[WIDE];    // separation minus dot(rb - ra, n) (unit: m)
    wide_row n;
} wide_point;

// A row's angular parts, 8 lanes: the arms ra x d and rb x d of its direction d, and the bodies' inverse
// inertias applied to them (see wide_kept_arms).
typedef struct wide_arms
{
    float rda[3][WIDE], rdb[3][WIDE];
    float irda[3][WIDE], irdb[3][WIDE];
} wide_arms;

// The arms of a group's rows: each point's normal row, the two friction rows at the centre, and the twist's
// I^-1 n of each body.
typedef struct wide_group_arms
{
    wide_arms normal[PH_MAX_MANIFOLD_POINTS];
    wide_arms friction[2];
    float ian[3][WIDE], ibn[3][WIDE];
} wide_group_arms;

// What few sweeps read for a point: the impulse over the step (the relax sweeps), and the restitution
// bookkeeping (groups with a bouncing lane only).
typedef struct wide_point_cold
{
    float total_impulse[WIDE];  // (unit: N s)
    float bounce_impulse[WIDE]; // (unit: N s)
    float max_normal_impulse[WIDE];
    float approach[WIDE];
    float approach_gap[WIDE];
} wide_point_cold;

// 8 constraints of one colour. Lanes beyond `lanes`, and points beyond a lane's count, hold zero masses
// and impulses and so change nothing. What every sweep reads comes first, in the order it reads it; what
// few read follows the points.
typedef struct wide_group
{
    float normal[3][WIDE], t1[3][WIDE], t2[3][WIDE];
    float friction[WIDE], restitution[WIDE];
    // Friction at the manifold's centre (constraint's fa, fb, f1, f2, twist).
    float fa[3][WIDE], fb[3][WIDE]; // (unit: m)
    wide_row f1, f2;
    float twist_mass[WIDE];    // (unit: kg m^2)
    float twist_impulse[WIDE]; // (unit: N m s)
    float twist_radius[WIDE];  // (unit: m)
    float bias_rate[WIDE], mass_scale[WIDE], impulse_scale[WIDE];
    float passes[WIDE]; // normal sweeps per biased iteration, per lane
    // The bodies' states as byte offsets into the state array, slot * sizeof(ph_body_state) (unused lanes
    // repeat lane 0's): every sweep reads and writes 16 states, and a slot would cost a shift for each.
    int at_a[WIDE], at_b[WIDE];
    int lanes; // lanes in use
    int color;
    int point_count; // most points of a lane
    int max_passes;
    int rearmed; // a lane's anchors have followed its bodies this step (rearm_unit in a measuring sweep)
    float rearm_least2; // the least of the lanes' rearm_limit2 (unit: m^2)
    int isotropic; // every lane's bodies' inverse inertias are multiples of the identity (cubes, spheres,
                   // static bodies): the sweeps turn the arms by a product with the scale (ph_wide_prepare)
    // Lanes (bit l for lane l) whose body a or b does not move (inverse mass 0: static, kinematic, asleep):
    // the sweeps do not write its velocity back (store_velocity).
    int still_a, still_b;
    // Each point's current separation, as the last sweep after a position update measured it: positions
    // change only between a sub-step's biased sweep and its relax sweep, so the next sub-step's biased
    // sweep finds the relax sweep's values still exact and reads them instead of measuring again.
    // Aligned (the four ints above are half a run): the arena returns 32-byte blocks, and with every run
    // of 8 floats on a multiple of 32 none straddles two cache lines; 16 bytes off, half the loads of a
    // sweep did.
    _Alignas(32) float separation[PH_MAX_MANIFOLD_POINTS][WIDE];
    wide_point points[PH_MAX_MANIFOLD_POINTS];
    wide_point_cold cold[PH_MAX_MANIFOLD_POINTS];
    // How the anchors follow the bodies' relative motion (constraint's armed, rearm_limit2, follow_a): read
    // by the sweeps that measure the separations.
    float armed[3][WIDE];     // (unit: m)
    float rearm_limit2[WIDE]; // (unit: m^2)
    float follow_a[WIDE];
    float accel_n[WIDE];
    int contact[WIDE];      // contact of each lane (-1 unused)
    int point_counts[WIDE]; // points of each lane
} wide_group;

// Up to this many groups the rows' arms are kept (WIDE_ARMS_AUTO). Few groups stay in the core's caches,
// where the sweeps are bound by arithmetic and latency, and reading the arms is cheaper than working them
// out; many groups stream from memory, where the 4.6 KB of arms per group cost more than the arithmetic.
// pyramid20's ~55 groups run as fast either way; column40 and the ladder have a handful.
#define WIDE_KEPT_ARMS_MAX_GROUPS 64

// Whether the rows' arms are kept (4.6 KB after each group, worked out once at preparation) or worked out
// in every sweep from the points' anchors and the bodies' inverse inertias. Either gives the same bits.
typedef enum wide_arms_mode
{
    WIDE_ARMS_AUTO, // kept for up to WIDE_KEPT_ARMS_MAX_GROUPS groups
    WIDE_ARMS_KEPT,
    WIDE_ARMS_WORKED_OUT,
} wide_arms_mode;

// Colours a constraint may take: one bit each in a body's 64-bit mask of colours used.
#define WIDE_MAX_COLORS 64

// Greedy colouring, for contacts (solver_wide.c) and joints (joint.c) alike: the lowest colour free at both
// moving bodies (their masks of colours used, `used` by body slot), marked used at them; -1 when one of them
// has every colour already (the constraint is then solved one at a time).
static inline int wide_take_color(uint64_t *used, int a, int b, bool move_a, bool move_b)
{
    uint64_t taken = (move_a ? used[a] : 0) | (move_b ? used[b] : 0);
    if (taken == ~(uint64_t)0)
        return -1;
    int c = __builtin_ctzll(~taken);
    uint64_t bit = (uint64_t)1 << c;
    if (move_a)
        used[a] |= bit;
    if (move_b)
        used[b] |= bit;
    return c;
}

typedef struct wide_solver
{
    wide_group *groups; // group_count of them, `stride` bytes apart: use wide_group_at
    size_t stride;      // sizeof(wide_group), and where the arms are kept, a wide_group_arms after each
    int group_count;
    int colors; // colours used
    // The groups of colour c are color_first[c] .. color_first[c + 1] - 1: no two of them share a body that
    // moves, so a colour's groups may be solved by several workers at once.
    int color_first[WIDE_MAX_COLORS + 1];
    int *scalar; // head of each scalar constraint, in the order they are solved
    int scalar_count;
    int *color, *order; // scratch of ph_wide_build: colour of each constraint, constraints in group order
    uint64_t *used;     // scratch: per body slot, the colours its constraints took
    const struct wide_kernels *kernels; // the instruction set that solves the groups
} wide_solver;

// The step's plain point joints (joint.c: a spherical joint without cone or twist, whose one block is the
// three rows that hold its anchors together) in groups of WIDE lanes, one joint per lane, coloured as the
// contacts are so that no two lanes of a colour share a body that moves. A grid of ten thousand balls is
// twenty thousand of them, solved three times per sub-step: one joint at a time they read a 1 KB ph_joint
// and two states through pointers each (geometry_of was 29% of joint_grid's step); here a sweep streams
// 576 bytes per 8 joints. The anchors are the step's start's, turned by each body's rotation so far in every
// sweep, as joint.c's anchors_of turns them.
typedef struct wide_joint_group
{
    _Alignas(32) float ra[3][WIDE], rb[3][WIDE]; // anchors from the centres of mass at the step's start (m)
    float delta_center[3][WIDE];                 // centre of mass b less a at the step's start (unit: m)
    float impulse[3][WIDE];                      // accumulated point impulse, world (unit: N s)
    float soft[3][WIDE]; // the rows' spring in the biased sweep: ph_joint's soft (bias rate, mass, impulse)
    // The anchors turned to the bodies' poses, the gap between them (anchor b - anchor a) and the inverse of
    // the point block there (its upper half: xx, xy, xz, yy, yz, zz), as the last measuring sweep found them
    // (wide_joint_sweep.measure). Positions change only between a sub-step's biased sweep and its relax
    // sweep, so the relax sweep's values serve the next sub-step's warm start and biased sweep, which then
    // read neither the bodies' motion nor their inertias. The step's first warm start reads ra, rb instead.
    float ra_now[3][WIDE], rb_now[3][WIDE], gap[3][WIDE]; // (unit: m)
    float inv_k[6][WIDE];                                 // (unit: 1/kg)
    ph_body_state *state_a[WIDE], *state_b[WIDE]; // the states the step reads (unused lanes: lane 0's)
    int joint[WIDE];                              // slot of each lane's joint
    int lanes;
    // Lanes (bit l for lane l) whose body a or b does not move (inverse mass 0: the world, static,
    // kinematic): its state is read, never written, so that any number of a colour's lanes may share it.
    int still_a, still_b;
} wide_joint_group;

// The rows of hinges (revolute joints without spring or motor) and of spherical joints with a swing cone,
// twist range or friction (a ragdoll's), in groups of WIDE lanes, one joint per lane, coloured as the point
// joints are; a group holds one kind. The kernels work out each lane's geometry (joint.c's geometry_of: the
// anchors, the frames' axes, the angles) and its rows' blocks and masses (row_masses) when and where joint.c
// works out those of the joints solved one at a time, and keep them for the sweeps until the bodies move
// again.
typedef struct wide_limit_group
{
    // The step's start's frames, as joint.c's ph_joint keeps them: anchors from the centres of mass, centre
    // of mass b less a, the frames' orientations (x, y, z, w), world.
    _Alignas(32) float ra[3][WIDE], rb[3][WIDE], delta_center[3][WIDE]; // (unit: m)
    float qa[4][WIDE], qb[4][WIDE];
    // Each row's limit (revolute: lower and upper, none; spherical: the cone's angle, the twist range's lower
    // and upper ends) and whether the joint enables it (-1) or not (0).
    float bound[3][WIDE]; // (unit: rad)
    int enabled[3][WIDE];
    // The point rows at the bodies' poses: anchors from the centres of mass, the gap anchor b - anchor a, the
    // inverse of the point block (upper half: xx, xy, xz, yy, yz, zz) and the accumulated impulse (world).
    float ra_now[3][WIDE], rb_now[3][WIDE], gap[3][WIDE]; // (unit: m)
    float inv_k[6][WIDE];                                 // (unit: 1/kg)
    float impulse[3][WIDE];                               // (unit: N s)
    float soft[3][WIDE];                                  // as wide_joint_group's
    // The bodies' world inverse inertias (column-major) where the last masses pass found them not multiples
    // of the identity in every lane of the unit, for the solving sweeps after it, which then gather only the
    // velocities. The warm start reads the states' (their inertias may have been refreshed since).
    float inertia_a[9][WIDE], inertia_b[9][WIDE]; // (unit: 1/(kg m^2))
    // Three one-sided angular rows, solved in this order before the lock and the point rows (revolute: the
    // angle's lower and upper limits, and none; spherical: the cone, the twist range's lower and upper
    // ends): the direction the row's impulse turns body b about (world; the warm start applies the
    // accumulated impulse along it whether or not the row is solved, as joint.c's impulses_on_b does), its
    // error (the joint's distance from the limit), effective mass and accumulated impulse, and whether the
    // row is solved (-1) or not (0) in each lane.
    float axis[3][3][WIDE];
    float error[3][WIDE];         // (unit: rad)
    float mass[3][WIDE];          // (unit: kg m^2)
    float limit_impulse[3][WIDE]; // (unit: N m s)
    int solved[3][WIDE];
    // A hinge's lock, the two rows that keep the z axes aligned: the axes u1, u2 across frame a's z axis,
    // the errors (za x zb) . u, the inverse of their 2x2 block (k11, k12, k22) and the accumulated impulse
    // (world, across za).
    float across[2][3][WIDE], lock_error[2][WIDE];
    float lock_inv[3][WIDE];     // (unit: kg m^2)
    float lock_impulse[3][WIDE]; // (unit: N m s)
    // Joint friction (joint.c's solve_friction): the most impulse a sub-step may hold (max_friction_torque
    // times the sub-step; 0: none), the inverse of Ia + Ib (upper half) and the accumulated impulse (world).
    float friction[WIDE];                         // (unit: N m s)
    float friction_inv[6][WIDE];                  // (unit: kg m^2)
    float friction_impulse[3][WIDE];              // (unit: N m s)
    ph_body_state *state_a[WIDE], *state_b[WIDE]; // the states the step reads (unused lanes: lane 0's)
    int joint[WIDE];                              // slot of each lane's joint
    int lanes;
    int still_a, still_b; // as wide_joint_group's
    bool hinge;           // the lanes are hinges (the lock is solved)
} wide_limit_group;

// Whether a joint sweep's rows are soft (each lane's spring, the groups' soft) or rigid, and the caps
// joint.c's store() puts on the velocities it writes.
typedef struct wide_joint_sweep
{
    bool soft;                 // the biased sweep: each lane's spring; else rigid rows without bias
    float inv_h;               // the limits' speculative rate while apart (joint.c's solve_limit; unit: 1/s)
    float max_speed, max_spin; // (unit: m/s, rad/s)
    bool warm_start;           // apply the accumulated impulses instead of solving the rows
    bool measure;  // a solving sweep after the bodies moved (or their inertias were refreshed): it works out
                   // the anchors, gap and block from the states and keeps them; otherwise it reads them
    bool at_start; // a warm start before the bodies' first move: the anchors are the step's start's (ra, rb)
} wide_joint_sweep;

// What preparing a group reads from the world, lane by lane: solver.c gathers it, ph_wide_prepare does the
// arithmetic. Lanes beyond the group's, and points beyond a lane's, are zero.
typedef struct wide_input
{
    float normal[3][WIDE];
    float friction[WIDE], restitution[WIDE], accel_n[WIDE];
    float bias_rate[WIDE], mass_scale[WIDE], impulse_scale[WIDE]; // the lane's softness
    float ca[3][WIDE], cb[3][WIDE];                               // centres of mass (unit: m)
    float radius_a[WIDE], radius_b[WIDE];                         // round shapes' radii (unit: m)
    float point[PH_MAX_MANIFOLD_POINTS][3][WIDE];                 // manifold points, world (unit: m)
    float separation[PH_MAX_MANIFOLD_POINTS][WIDE];               // (unit: m)
    float impulse[PH_MAX_MANIFOLD_POINTS][WIDE];                  // last step's normal impulses (unit: N s)
    float friction_impulse[2][WIDE], twist_impulse[WIDE];         // last step's (unit: N s, N m s)
    float twist_radius[WIDE];                                     // (unit: m)
} wide_input;

// Group gi of w.
static inline wide_group *wide_group_at(const wide_solver *w, int gi)
{
    return (wide_group *)((char *)w->groups + (size_t)gi * w->stride);
}

// Whether w keeps the rows' arms (after each group: its stride says so).
static inline bool wide_keeps_arms(const wide_solver *w)
{
    return w->stride > sizeof(wide_group);
}

// The kept arms of group g (only where wide_keeps_arms): right after it, so that the sweeps reach them from
// the group's address (a register more per group, for three groups side by side, spilled).
static inline wide_group_arms *wide_kept_arms(const wide_group *g)
{
    return (wide_group_arms *)(g + 1);
}

// The wide kernels of one instruction set (solver_wide_kernels.h, built once per set): the same as
// prepare(), refresh_rows(), bounce(), warm_start() and solve() in solver.c over the grouped constraints, and
// ph_body_integrate_positions for bodies `lanes` at a time. Called through the ph_wide_ functions below.
typedef struct wide_kernels
{
    int lanes; // LANES of the set: 8 (AVX2) or 4 (SSE2, Neon)
    void (*prepare)(const ph_body_state *states, wide_solver *w, int g, const wide_input *in,
                    float warm_scale);
    void (*refresh)(const ph_body_state *states, wide_solver *w, const uint8_t *refreshed, int first,
                    int last);
    bool (*bounce)(ph_body_state *states, wide_solver *w, float h, bool compress, int first, int last);
    void (*warm_start)(ph_body_state *states, const wide_solver *w, int first, int last);
    void (*solve)(ph_body_state *states, wide_solver *w, float inv_h, bool use_bias, bool measure,
                  bool sum_total, int first, int last);
    int (*integrate_positions)(ph_body_state *states, const int *slots, int count, float h);
    // joint.c's warm start or solve_point (sweep->warm_start) and store() over joint groups first .. last
    // - 1.
    void (*joint_sweep)(wide_joint_group *groups, int first, int last, const wide_joint_sweep *sweep);
    // joint.c's warm start, or its solve of a revolute or limited spherical joint's rows (its axial limits or
    // cone and twist, the hinge lock, solve_point), and store() over limit groups first .. last - 1.
    void (*joint_limit_sweep)(wide_limit_group *groups, int first, int last, const wide_joint_sweep *sweep);
    // joint.c's geometry_of (`geometry`: the bodies moved) and row_masses (`masses`: they moved or their
    // inverse inertias changed) for the lanes of limit groups first .. last - 1, kept in the groups.
    void (*joint_limit_measure)(wide_limit_group *groups, int first, int last, bool geometry, bool masses);
} wide_kernels;

// The kernels that run `path` on this build and CPU (ph_simd_resolve), or NULL for the scalar path.
const wide_kernels *ph_wide_kernels_for(ph_simd_path path);
// Colours the `count` constraints of `heads` and lays out their groups in `out` (its arrays on the arena;
// release with ph_wide_release) for `kernels`, which the ph_wide_ calls on `out` then use: each lane knows
// its bodies, contact and point count (unused lanes: lane 0's bodies, no contact, no points), and the rest
// waits for ph_wide_prepare. `states` tells which bodies move (inverse mass above zero). False when the arena
// is full: the caller then solves everything as scalars.
bool ph_wide_build(ph_arena *arena, const ph_body_state *states, int slots, const constraint_head *heads,
                   int count, wide_arms_mode arms, const wide_kernels *kernels, wide_solver *out);
void ph_wide_release(ph_arena *arena, wide_solver *w);

// Builds group `g`'s constraints from `in`, as solver.c's prepare() does one at a time (the same operations
// but for the rows' arms, which the lanes form with fw_madd); `warm_scale` scales the stored impulses.
static inline void ph_wide_prepare(const ph_body_state *states, wide_solver *w, int g, const wide_input *in,
                                   float warm_scale)
{
    w->kernels->prepare(states, w, g, in, warm_scale);
}

// The calls below work on groups first .. last - 1; a sweep is the same whether it runs over all the groups
// at once or over each colour's (in colour order) cut into any ranges, run side by side.

// refresh_rows() in solver.c for every lane with a body marked in `refreshed` (by slot).
static inline void ph_wide_refresh(const ph_body_state *states, wide_solver *w, const uint8_t *refreshed,
                                   int first, int last)
{
    w->kernels->refresh(states, w, refreshed, first, last);
}

// One restitution sweep over the groups, as bounce() in solver.c per lane; true when a point bounced.
static inline bool ph_wide_bounce(ph_body_state *states, wide_solver *w, float h, bool compress, int first,
                                  int last)
{
    return w->kernels->bounce(states, w, h, compress, first, last);
}

// The same as warm_start in solver.c over the grouped constraints, last group first.
static inline void ph_wide_warm_start(ph_body_state *states, const wide_solver *w, int first, int last)
{
    w->kernels->warm_start(states, w, first, last);
}

// The same as solve in solver.c over the grouped constraints. `measure`: the bodies have moved since the last
// sweep, which measures the separations again (from the motion so far, as solve() in solver.c) and keeps them
// for the sweeps after it; otherwise it reads them.
static inline void ph_wide_solve(ph_body_state *states, wide_solver *w, float inv_h, bool use_bias,
                                 bool measure, bool sum_total, int first, int last)
{
    w->kernels->solve(states, w, inv_h, use_bias, measure, sum_total, first, last);
}

// ph_body_integrate_positions for the first count - count % lanes of `slots`, `kernels->lanes` at a time and
// bit for bit the same; returns how many it integrated (the caller does the rest). None without kernels.
static inline int ph_wide_integrate_positions(const wide_kernels *kernels, ph_body_state *states,
                                              const int *slots, int count, float h)
{
    return kernels ? kernels->integrate_positions(states, slots, count, h) : 0;
}
