// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The engine's math vocabulary: cglm's struct API under physics names, plus the few helpers cglm lacks.
//
// Conventions, stated once:
// - ph_vec3 is vec3s (.x .y .z), ph_quat is versors stored x, y, z, w (w last, cglm/types.h),
//   ph_mat3 is mat3s, column-major: m.col[c].raw[r] is row r of column c.
// - Engine code uses the struct API (glms_*) only, never cglm's array API.
// - Units are SI: m, kg, s, rad.
#pragma once

#include <cglm/struct.h> // vec3s, versors, mat3s and glms_* value functions
#include <math.h>        // sqrtf, isfinite
#include <stdbool.h>     // bool

typedef vec3s ph_vec3;
typedef vec4s ph_vec4;
typedef versors ph_quat;
typedef mat3s ph_mat3;

// A rigid transform: x_world = p + rotate(q, x_local).
typedef struct ph_transform
{
    ph_vec3 p; // translation (unit: m)
    ph_quat q; // unit rotation
} ph_transform;

// An axis-aligned box, lo <= hi componentwise.
typedef struct ph_aabb
{
    ph_vec3 lo; // (unit: m)
    ph_vec3 hi; // (unit: m)
} ph_aabb;

// Whether two boxes overlap (closed intervals; false whenever a coordinate is NaN). The six comparisons are
// combined with & rather than &&: one branch instead of six hard-to-predict ones in the broadphase's and the
// calendar's search loops.
static inline bool ph_aabb_overlaps(const ph_aabb *a, const ph_aabb *b)
{
    return (a->lo.x <= b->hi.x) & (b->lo.x <= a->hi.x) & (a->lo.y <= b->hi.y) & (b->lo.y <= a->hi.y) &
           (a->lo.z <= b->hi.z) & (b->lo.z <= a->hi.z);
}

static inline ph_vec3 ph_v3(float x, float y, float z)
{
    ph_vec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static inline bool ph_is_finite_float(float x)
{
    return isfinite(x) != 0;
}

static inline bool ph_is_finite_vec3(ph_vec3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static inline bool ph_is_finite_quat(ph_quat q)
{
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}

// Normalise v, or return fallback when |v| is below 1e-20 (no NaN for a zero vector).
static inline ph_vec3 ph_safe_normalize(ph_vec3 v, ph_vec3 fallback)
{
    float len2 = glms_vec3_dot(v, v);
    if (!(len2 > 1e-20f))
        return fallback;
    return glms_vec3_scale(v, 1.0f / sqrtf(len2));
}

// The identity transform.
static inline ph_transform ph_transform_identity(void)
{
    ph_transform t;
    t.p = glms_vec3_zero();
    t.q = glms_quat_identity();
    return t;
}

// x_world = t.p + t.q * x_local.
static inline ph_vec3 ph_transform_point(ph_transform t, ph_vec3 x)
{
    return glms_vec3_add(t.p, glms_quat_rotatev(t.q, x));
}

// x_local = t.q^-1 * (x_world - t.p).
static inline ph_vec3 ph_inv_transform_point(ph_transform t, ph_vec3 x)
{
    return glms_quat_rotatev(glms_quat_conjugate(t.q), glms_vec3_sub(x, t.p));
}

// a * b: first apply b, then a.
static inline ph_transform ph_transform_mul(ph_transform a, ph_transform b)
{
    ph_transform t;
    t.q = glms_quat_normalize(glms_quat_mul(a.q, b.q));
    t.p = ph_transform_point(a, b.p);
    return t;
}

// The cross-product matrix [v]x, so that [v]x * u = v x u.
static inline ph_mat3 ph_skew(ph_vec3 v)
{
    ph_mat3 m = glms_mat3_zero();
    m.col[0].raw[1] = v.z;
    m.col[0].raw[2] = -v.y;
    m.col[1].raw[0] = -v.z;
    m.col[1].raw[2] = v.x;
    m.col[2].raw[0] = v.y;
    m.col[2].raw[1] = -v.x;
    return m;
}

// The inverse of an inertia tensor of any magnitude (unit: 1/(kg m^2)); non-finite entries when it is
// singular. cglm's glms_mat3_inv divides by the determinant, which grows as the cube of the entries and
// overflows float past about 7e12 kg m^2 (a 200 m box of water), leaving an all-zero inverse; here the
// matrix is scaled to entries near 1 first, and the inverse scaled back.
static inline ph_mat3 ph_inverse_inertia(ph_mat3 inertia)
{
    float scale = fabsf(inertia.col[0].raw[0]) + fabsf(inertia.col[1].raw[1]) + fabsf(inertia.col[2].raw[2]);
    if (!(scale > 0.0f) || !ph_is_finite_float(scale))
        return glms_mat3_inv(inertia);
    return glms_mat3_scale(glms_mat3_inv(glms_mat3_scale(inertia, 1.0f / scale)), 1.0f / scale);
}

// The world-space inverse inertia R * I_body^-1 * R^T for orientation q (unit: 1/(kg m^2)).
static inline ph_mat3 ph_world_inv_inertia(ph_quat q, ph_mat3 inv_inertia_body)
{
    ph_mat3 r = glms_quat_mat3(q);
    return glms_mat3_mul(glms_mat3_mul(r, inv_inertia_body), glms_mat3_transpose(r));
}

// (R M R^T) v for the rotation R of unit quaternion q and a body-frame tensor M, without forming R M R^T:
// v turned into the body frame, multiplied, turned back (about half the arithmetic of the matrix form).
static inline ph_vec3 ph_world_tensor_mulv(ph_quat q, ph_mat3 m, ph_vec3 v)
{
    return glms_quat_rotatev(q, glms_mat3_mulv(m, glms_quat_rotatev(glms_quat_conjugate(q), v)));
}

// Integrates orientation q over dt under angular velocity w (world frame, unit: rad/s):
// q' = q + dt/2 * (w, 0) * q, then renormalised. First order; accurate for |w| dt << 1.
static inline ph_quat ph_integrate_rotation(ph_quat q, ph_vec3 w, float dt)
{
    // dq = (w, 0) q written out on the components in the order of cglm's quaternion product (so bit for bit
    // glms_quat_mul's, 0 * q terms included): built as a quaternion, (w, 0) went to the stack as three floats
    // and came back as one 16-byte load, which waits for the narrower stores instead of taking their data (a
    // failed store forwarding, a fifth of the sub-step's position update: restitution_ladder 7.1 -> 6.3 us
    // per step, column40 68 -> 57).
    ph_quat dq;
    dq.x = ((0.0f * q.x + w.x * q.w) + w.y * q.z) - w.z * q.y;
    dq.y = ((0.0f * q.y - w.x * q.z) + w.y * q.w) + w.z * q.x;
    dq.z = ((0.0f * q.z + w.x * q.y) - w.y * q.x) + w.z * q.w;
    dq.w = ((0.0f * q.w - w.x * q.x) - w.y * q.y) - w.z * q.z;
    float h = 0.5f * dt;
    ph_quat r;
    r.x = q.x + h * dq.x;
    r.y = q.y + h * dq.y;
    r.z = q.z + h * dq.z;
    r.w = q.w + h * dq.w;
    return glms_quat_normalize(r);
}

// The same turn as ph_integrate_rotation, written with the body-frame angular velocity wb (w = q wb q^-1):
// (h/2 w, 1) q = q (h/2 wb, 1), so q' = q + dt/2 * q * (wb, 0), on the right. Not renormalised: the caller
// that chains sub-steps normalises once at the end (see ph_body_fly_torque_free). Components written out,
// as in ph_integrate_rotation (no (wb, 0) built in memory).
static inline ph_quat ph_integrate_rotation_body(ph_quat q, ph_vec3 wb, float dt)
{
    float h = 0.5f * dt;
    ph_quat r;
    r.x = q.x + h * ((q.w * wb.x + q.y * wb.z) - q.z * wb.y);
    r.y = q.y + h * ((q.w * wb.y + q.z * wb.x) - q.x * wb.z);
    r.z = q.z + h * ((q.w * wb.z + q.x * wb.y) - q.y * wb.x);
    r.w = q.w - h * ((q.x * wb.x + q.y * wb.y) + q.z * wb.z);
    return r;
}
