// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Body storage, split hot and cold (after Box2D's b2BodySim / b2BodyState): the solver touches only the
// compact ph_body_state array; everything else about a body lives in ph_body. Both are dense arrays
// indexed by the body's slot in the world's id pool. Also the per-body integration of velocities
// (gravity, forces, damping, implicit gyroscopic torque) and positions (quaternion update).
#pragma once

#include "phys/types.h"

#include <stdbool.h> // bool
#include <stdint.h>  // uint32_t

// The solver's view of a body, 128 bytes, in an array on a cache line (ph_alloc). Static and
// sleeping bodies keep zero velocity and zero inverse mass here, so constraints need no branch on body kind.
// The first 64 bytes are what the contact solver's sweeps read and write, as two runs of 8 floats that its
// wide kernels load whole and transpose (solver_wide_kernels.h): velocities and inverse mass, then the motion
// of the step so far; they are one cache line. At 112 bytes (the fields' own size) a state's first half
// straddled two lines in three states of four: the sweeps read 16 states per group, and pile10k's sweeps
// missed a 1 MB cache 9% more often (cachegrind). The padding float after dp is always zero.
typedef struct ph_body_state
{
    ph_vec3 v;               // linear velocity of the centre of mass (unit: m/s)
    float inv_mass;          // (unit: 1/kg)
    ph_vec3 w;               // angular velocity, world (unit: rad/s)
    float inv_inertia_scale; // s where inv_inertia is exactly s I (cubes, spheres; 0 for static and sleeping
                             // bodies), else -1: with the velocities, so that the wide sweeps turn the arms
                             // of such bodies without reading the matrix (ph_body_state_set_inv_inertia)
    ph_vec3 dp;              // displacement of the centre of mass this step so far (unit: m)
    float pad_dp;            // zero
    ph_quat dq;              // rotation this step so far: q = dq * q0
    ph_mat3 inv_inertia;     // world inverse inertia at the start of the step (unit: 1/(kg m^2)); a body in
                         // free flight under no torque keeps an older one, which nothing reads (solve_free)
    float pad_line[7]; // to 128 bytes: unused
} ph_body_state;

_Static_assert(sizeof(ph_body_state) == 128, "a state is two cache lines, the sweeps' half one of them");

// s where m is exactly s I (off-diagonal entries zero, the diagonal's equal), else -1.
static inline float ph_inertia_scale(ph_mat3 m)
{
    bool diagonal =
        m.m01 == 0.0f && m.m02 == 0.0f && m.m10 == 0.0f && m.m12 == 0.0f && m.m20 == 0.0f && m.m21 == 0.0f;
    return diagonal && m.m11 == m.m00 && m.m22 == m.m00 ? m.m00 : -1.0f;
}

// The one way a state's world inverse inertia is set: with its scale.
static inline void ph_body_state_set_inv_inertia(ph_body_state *st, ph_mat3 inv_inertia)
{
    st->inv_inertia = inv_inertia;
    st->inv_inertia_scale = ph_inertia_scale(inv_inertia);
}

// Everything else about a body, 432 bytes. The fields the integration reads every sub-step come first and
// fill 64 bytes (with q0 at offset 48), so a loop over thousands of bodies touches one or two cache lines
// of each instead of the three or four it did when they were spread over the struct.
typedef struct ph_body
{
    ph_body_type type;
    bool awake;
    bool enable_sleep;
    bool isotropic; // inertia a multiple of the identity (cube, sphere): no gyroscopic torque, and
                    // the world inertia is the local one in any orientation
    bool diagonal;  // inertia_local in its principal axes (a box, a capsule, a sphere): the gyroscopic
                    // update takes the short form
    float inv_mass; // (unit: 1/kg)
    float gravity_scale;
    float linear_damping;  // (unit: 1/s)
    float angular_damping; // (unit: 1/s)
    ph_vec3 force;         // accumulated until the end of the next step (unit: N)
    ph_vec3 torque;        // (unit: N m)
    ph_quat q0;            // orientation at the start of the step
    ph_transform xf;       // shape frame (origin and orientation)
    ph_vec3 center;        // centre of mass, world (unit: m)
    ph_vec3 center0;       // centre of mass at the start of the step
    ph_vec3 local_center;  // centre of mass in the shape frame
    ph_mat3 inertia_local; // about the centre of mass, shape axes (unit: kg m^2)
    ph_mat3 inv_inertia_local;
    ph_aabb bounds; // shape bounds at the current pose (unit: m)
    float mass;     // 0 for static and kinematic bodies (unit: kg)
    ph_shape shape;
    ph_convex convex; // resolved convex shape (sphere, capsule, box, hull)
    const ph_compound *compound;
    const ph_mesh *mesh;
    void *user_data;
    ph_material material;
    float min_extent;      // half the thinnest dimension of the shape (unit: m)
    float bound_radius;    // largest distance of the shape from the centre of mass (unit: m)
    float sleep_time;      // time spent below the sleep thresholds (unit: s)
    int proxy;             // octree proxy, -1 when none
    uint32_t sleep_island; // island the body fell asleep with (0 while awake)
    uint32_t version;      // bumped when the calendar changes the body's motion in a step
    float toi_t0;          // calendar: the body's motion this step is known from this time on (fraction)
    ph_quat toi_q0;        // calendar: orientation at toi_t0
    ph_vec3 toi_c0;        // calendar: centre of mass at toi_t0 (unit: m)
    ph_vec3 toi_turn; // calendar: the turn from toi_q0 to the step's end, axis times angle, when it is more
                      // than a quarter revolution (ph_sweep.rotation); zero: the shorter turn (unit: rad)
    int joint_head;   // first joint of the body's list (ph_joint's next_a / next_b), -1 when none
    int sleep_next; // while asleep: the next body of its island, a ring through every member (itself when it
                    // sleeps alone), so that waking walks the island, not the world; in the tail padding
} ph_body;

// Whether an inertia tensor is a multiple of the identity to within float rounding (1e-6 of its scale).
bool ph_inertia_is_isotropic(ph_mat3 inertia);
// Whether an inertia tensor's off-diagonal entries are all exactly zero (shape axes are principal axes).
bool ph_inertia_is_diagonal(ph_mat3 inertia);

// The world inverse inertia of a dynamic body at orientation q: R I^-1 R^T, or I^-1 itself when isotropic.
static inline ph_mat3 ph_body_world_inv_inertia(const ph_body *body, ph_quat q)
{
    return body->isotropic ? body->inv_inertia_local : ph_world_inv_inertia(q, body->inv_inertia_local);
}

// The shape frame of the body with its centre of mass at `center` and orientation q:
// p = center - q * local_center.
ph_transform ph_body_frame(const ph_body *body, ph_vec3 center, ph_quat q);
// Recomputes xf from the centre of mass and orientation (ph_body_frame of its own pose).
void ph_body_sync_transform(ph_body *body);
// World bounds of the body's shape in shape frame xf; ph_body_compute_bounds: at its current pose.
ph_aabb ph_body_bounds_at(const ph_body *body, ph_transform xf);
// Inline, with a convex body's (most bodies') bounds asked of its shape directly: every step asks it of
// every awake body, and the calls through ph_body_bounds_at, the transform passed by value through both,
// cost half as much again as a box's bounds themselves.
static inline ph_aabb ph_body_compute_bounds(const ph_body *body)
{
    if (!body->mesh && !body->compound)
        return ph_convex_bounds(&body->convex, body->xf);
    return ph_body_bounds_at(body, body->xf);
}
// The angular velocity (world, unit: rad/s) that carries a body of body-frame inertia (and its inverse) at
// orientation q1 with angular momentum l (world) through a torque-free sub-step h, keeping l and the kinetic
// energy: the gyroscopic update of ph_body_integrate_velocity (see there). Never of higher energy than l has.
ph_vec3 ph_body_gyro_solve(ph_quat q1, const ph_mat3 *inertia, const ph_mat3 *inv_inertia, ph_vec3 l,
                           float h);
// The angular velocity a body has at the end of a sub-step h through which w carried it (I^-1 of its
// momentum there), and the inverse: the w that leaves it with angular velocity w_now. The API reads and
// writes these; the state keeps the carrying one. With h = 0 (before the first step) both are w.
ph_vec3 ph_body_angular_velocity_now(const ph_body *body, ph_vec3 w, float h);
ph_vec3 ph_body_angular_velocity_carried(const ph_body *body, ph_vec3 w_now, float h);
// The change of the carrying angular velocity w that changes the velocity now by dw_now (an impulse), to
// first order: the impulses of the API are small beside w, and a round trip through the two conversions
// would cost float precision of w itself.
ph_vec3 ph_body_angular_velocity_change(const ph_body *body, ph_vec3 w, float h, ph_vec3 dw_now);
// The carrying angular velocity of a body at orientation q after rows turning their angular impulses by
// row_inv_inertia changed it from w0 to w1, before its sub-step's turn or after it (`turned`, as in
// ph_body_row_inv_inertia): the one whose momentum is w0's plus those impulses exactly. The rows' map is
// linear about w0, and the momentum is not linear in w: a box struck still and left spinning at 10 rad/s in
// one sweep changed the pair's angular momentum by 0.45% through the rows' map alone.
ph_vec3 ph_body_angular_velocity_struck(const ph_body *body, ph_quat q, const ph_mat3 *row_inv_inertia,
                                        ph_vec3 w0, ph_vec3 w1, float h, bool turned);
// The carrying angular velocity (through sub-steps h) at orientation `to` of the angular momentum that w has
// at `from`: what a body keeps when it is set back or on along its path to another orientation (the
// calendar's events), where its momentum is not its spin times a constant.
ph_vec3 ph_body_spin_moved(const ph_body *body, ph_quat from, ph_quat to, ph_vec3 w, float h);
// The same momentum as an angular velocity now (I^-1 of it, ph_body_angular_velocity_now) at `to`, and back:
// the carrying velocity at `to` of the momentum that w_now is at `from`. An impact's response works on the
// velocity now, whose kinetic energy and momentum are a rigid body's own; on the carrying one, which differs
// by h/2 w x I w, a response that takes energy away in its own measure added 21% to a plank spinning at 200
// rad/s.
ph_vec3 ph_body_spin_now_moved(const ph_body *body, ph_quat from, ph_quat to, ph_vec3 w, float h);
ph_vec3 ph_body_spin_carried_moved(const ph_body *body, ph_quat from, ph_quat to, ph_vec3 w_now, float h);
// Turns a body that is free of torque from orientation *q over `time`, carrying angular velocity *w through
// sub-steps h before and after (as the step leaves it): the orientation it reaches and the carrying velocity
// there, both of the same angular momentum (a turn at a fixed spin, as the calendar's sweep after an event
// was, changes the momentum of a body whose spin is not along a principal axis). False, and nothing changed,
// for a body whose momentum is its spin times a constant (isotropic, or still): the fixed turn is exact
// there.
bool ph_body_turn_free(const ph_body *body, ph_quat *q, ph_vec3 *w, float time, float h);
// Fixed-point passes of ph_body_angular_velocity_struck (see there).
#define BODY_STRUCK_PASSES 2
// The most turn in one sub-step (unit: rad) of a carrying angular velocity solved from a momentum: twice what
// the solver lets a body turn (BODY_MAX_ROTATION); the gyroscopic equation's other roots turn by far more.
#define BODY_SPIN_ROOT_TURN (0.5f * GLM_PIf)
// Sub-steps ph_body_turn_free takes at most.
#define BODY_TURN_FREE_MAX_STEPS 64
// Below this angular speed the gyroscopic term (second order in w) is skipped: its effect over a sub-step
// is under 1e-6 of w (unit: rad/s).
#define BODY_GYRO_MIN_SPEED 1e-3f
// The gyroscopic solve for an inertia in its principal axes stops once the residual left is below this
// fraction of |w|: float precision (body.c, solve_spin_diagonal).
#define BODY_GYRO_RESIDUAL 1e-7f
// Most rotation of a body in one sub-step (unit: rad): pi/4, 236 rad/s at 5 sub-steps of a 60 Hz step.
#define BODY_MAX_ROTATION (0.25f * GLM_PIf)

static inline bool ph_body_has_torque(const ph_body *body)
{
    return body->torque.x != 0.0f || body->torque.y != 0.0f || body->torque.z != 0.0f;
}

// The constant acceleration of gravity and the applied force (unit: m/s^2).
static inline ph_vec3 ph_body_accel(const ph_body *body, ph_vec3 gravity)
{
    float gs = body->gravity_scale, im = body->inv_mass;
    return ph_v3(gravity.x * gs + body->force.x * im, gravity.y * gs + body->force.y * im,
                 gravity.z * gs + body->force.z * im);
}

// Whether the body's angular velocity w changes by the gyroscopic term: not for an isotropic body (L is
// parallel to w in every orientation), nor below BODY_GYRO_MIN_SPEED.
static inline bool ph_body_turns_gyroscopically(const ph_body *body, ph_vec3 w)
{
    return !body->isotropic && glms_vec3_dot(w, w) > BODY_GYRO_MIN_SPEED * BODY_GYRO_MIN_SPEED;
}

// What a velocity sub-step h reads of a dynamic body, fixed for the step and worked out once: the constant
// acceleration (ph_body_accel) and the damping factors over h, 1 / (1 + h c), exactly 1 for an undamped body
// (a product by 1 leaves a velocity bit for bit as skipping it does). The loops that step many bodies (the
// solver's over constrained ones, the free flights of body.c) read these 20 bytes instead of the ph_body.
typedef struct ph_body_motion
{
    ph_vec3 accel;  // (unit: m/s^2)
    float lin, ang; // damping over one sub-step
} ph_body_motion;

static inline ph_body_motion ph_body_motion_of(const ph_body *body, ph_vec3 gravity, float h)
{
    float lin = body->linear_damping != 0.0f ? 1.0f / (1.0f + h * body->linear_damping) : 1.0f;
    float ang = body->angular_damping != 0.0f ? 1.0f / (1.0f + h * body->angular_damping) : 1.0f;
    return (ph_body_motion){ph_body_accel(body, gravity), lin, ang};
}

// ph_body_integrate_velocity's linear part, operation for operation: v + a h, then damped.
static inline ph_vec3 ph_body_motion_velocity(const ph_body_motion *m, ph_vec3 v, float h)
{
    ph_vec3 u = ph_v3(v.x + m->accel.x * h, v.y + m->accel.y * h, v.z + m->accel.z * h);
    if (m->lin == 1.0f) // undamped: the same bits, and no product on the chain from one sub-step to the next
        return u;
    return ph_v3(u.x * m->lin, u.y * m->lin, u.z * m->lin);
}

// Its angular part for a body that neither turns gyroscopically nor has a torque (or after its gyroscopic
// step): the cap on a sub-step's turn (max_speed = BODY_MAX_ROTATION / h), then damping. Both scale w, so a
// body-frame w reads the same.
static inline ph_vec3 ph_body_motion_spin(const ph_body_motion *m, ph_vec3 w, float max_speed)
{
    float speed2 = glms_vec3_dot(w, w);
    if (speed2 > max_speed * max_speed)
        w = glms_vec3_scale(w, max_speed / sqrtf(speed2));
    if (m->ang == 1.0f)
        return w;
    return ph_v3(w.x * m->ang, w.y * m->ang, w.z * m->ang);
}

// The angular velocity after a sub-step h of the gyroscopic term and torque, for a body that
// ph_body_turns_gyroscopically (see body.c).
ph_vec3 ph_body_gyro_step(const ph_body *body, const ph_body_state *state, float h, float carried);

// All `substeps` sub-steps h of a dynamic body in free flight (no contact constraint) that has no torque and
// turns gyroscopically (ph_body_turns_gyroscopically; still checked in each sub-step, as damping slows it):
// ph_body_integrate_velocity then ph_body_integrate_position(free_flight) in each, the first carried through
// `carried`, with the rotation kept in the body frame between them (see body.c): the same motion as that loop
// up to float rounding, without its two turns per sub-step. Starts from dq = identity and dp as the state has
// it.
void ph_body_fly_torque_free(const ph_body *body, ph_body_state *state, ph_vec3 gravity, float h,
                             int substeps, float carried);
// The same loop for a dynamic body in free flight with no torque that does not turn gyroscopically
// (isotropic, or slower than BODY_GYRO_MIN_SPEED): bit for bit that loop, its state kept in registers through
// the step.
void ph_body_fly_steady(const ph_body *body, ph_body_state *state, ph_vec3 gravity, float h, int substeps);
// Two such bodies at once, each bit for bit as alone (their sub-steps interleaved, so that one's chain of
// dependent operations runs while the other's waits).
void ph_body_fly_steady_pair(const ph_body *body_a, ph_body_state *state_a, const ph_body *body_b,
                             ph_body_state *state_b, ph_vec3 gravity, float h, int substeps);
// Whether ph_body_fly_steady is the whole free flight of a body: dynamic, no torque, no gyroscopic turn.
static inline bool ph_body_flies_steady(const ph_body *body, ph_vec3 w)
{
    return body->type == PH_BODY_DYNAMIC && !ph_body_has_torque(body) &&
           !ph_body_turns_gyroscopically(body, w);
}

// One sub-step h of velocity integration for a dynamic body: gravity and forces (semi-implicit), torque and
// the gyroscopic term (implicit midpoint, ph_body_gyro_step), the most rotation a sub-step allows, and
// damping (exact decay factor of dv/dt = -c v over h, as 1 / (1 + c h)). `carried`: the sub-step through
// which the body's angular velocity carried it last (0 when that velocity was set since). Inline: most
// bodies (cubes, spheres, resting ones, no torque, no damping) take a few adds, and the solver's loop over
// thousands of them then hoists the division for the most rotation out of the loop and makes no call.
static inline void ph_body_integrate_velocity(const ph_body *body, ph_body_state *state, ph_vec3 gravity,
                                              float h, float carried)
{
    // The scaled adds are written out in cglm's order (same results, fewer instructions than chaining its
    // scale and add).
    ph_vec3 accel = ph_body_accel(body, gravity);
    ph_vec3 v = ph_v3(state->v.x + accel.x * h, state->v.y + accel.y * h, state->v.z + accel.z * h);
    ph_vec3 w = state->w;
    if (ph_body_turns_gyroscopically(body, w))
        w = ph_body_gyro_step(body, state, h, carried);
    else if (ph_body_has_torque(body))
    {
        ph_vec3 alpha = glms_mat3_mulv(state->inv_inertia, body->torque);
        w = ph_v3(w.x + alpha.x * h, w.y + alpha.y * h, w.z + alpha.z * h);
    }
    // Most rotation in one sub-step (Box2D v3 and Jolt cap it alike): beyond it the orientation update,
    // the contact anchors and the time-of-impact sweeps all lose their meaning.
    float max_speed = BODY_MAX_ROTATION / h;
    float speed2 = glms_vec3_dot(w, w);
    if (speed2 > max_speed * max_speed)
        w = glms_vec3_scale(w, max_speed / sqrtf(speed2));
    // Damping: the exact solution of dv/dt = -c v decays by exp(-c h); 1 / (1 + c h) is its stable
    // first-order (implicit) form. Undamped bodies (most) skip the divisions.
    if (body->linear_damping != 0.0f)
    {
        float lin = 1.0f / (1.0f + h * body->linear_damping);
        v = ph_v3(v.x * lin, v.y * lin, v.z * lin);
    }
    if (body->angular_damping != 0.0f)
    {
        float ang = 1.0f / (1.0f + h * body->angular_damping);
        w = ph_v3(w.x * ang, w.y * ang, w.z * ang);
    }
    state->v = v;
    state->w = w;
}
// One sub-step of position integration: dp += h v, and for a body in free flight (no contact
// constraint this step) also - h^2/2 a, with a the constant acceleration (gravity and force) the velocity
// step added, so a free flight follows the exact parabola (plain semi-implicit Euler lands h v / 2 low at
// the top of a throw); a constrained body keeps dp += h v, which is what its contacts solved for.
// dq from w (quaternion). The world inverse
// inertia in state stays that of the start of the step (the solver's constraints are built with it).
void ph_body_integrate_position(const ph_body *body, ph_body_state *state, ph_vec3 gravity, float h,
                                bool free_flight);
// ph_body_integrate_position without free flight for the bodies at `slots`, reading their states only: the
// solver's loop over the constrained and kinematic bodies of every sub-step, which need nothing of ph_body.
void ph_body_integrate_positions(ph_body_state *states, const int *slots, int count, float h);
