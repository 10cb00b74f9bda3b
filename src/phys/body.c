// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Per-body integration and pose bookkeeping; see body.h. The solver calls these once per sub-step for
// each awake body.
#include "body.h"

// Newton iterations of the gyroscopic update, at most.
#define BODY_GYRO_MAX_PASSES 4
// The iterations stop once the last change of w is below this fraction of |w|.
#define BODY_GYRO_TOLERANCE 1e-6f

bool ph_inertia_is_isotropic(ph_mat3 inertia)
{
    float mean = (inertia.col[0].raw[0] + inertia.col[1].raw[1] + inertia.col[2].raw[2]) / 3.0f;
    if (!(mean > 0.0f))
        return false;
    float deviation = 0.0f;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            deviation = fmaxf(deviation, fabsf(inertia.col[c].raw[r] - (r == c ? mean : 0.0f)));
    return deviation <= 1e-6f * mean;
}

bool ph_inertia_is_diagonal(ph_mat3 inertia)
{
    return inertia.col[0].raw[1] == 0.0f && inertia.col[0].raw[2] == 0.0f && inertia.col[1].raw[0] == 0.0f &&
           inertia.col[1].raw[2] == 0.0f && inertia.col[2].raw[0] == 0.0f && inertia.col[2].raw[1] == 0.0f;
}

ph_transform ph_body_frame(const ph_body *body, ph_vec3 center, ph_quat q)
{
    // A body whose centre of mass is its shape's origin (a box, a sphere, a capsule: most bodies) has p at
    // its centre: the turn of a zero vector is zero, and the turn's normalisation of q (a square root and a
    // division on the way to every body's pose, and every pose of the calendar's sweeps) buys nothing. Bit
    // for bit the same p but for a centre coordinate of -0, which could come out +0 the long way.
    ph_vec3 c = body->local_center;
    if (c.x == 0.0f && c.y == 0.0f && c.z == 0.0f)
        return (ph_transform){center, q};
    return (ph_transform){glms_vec3_sub(center, glms_quat_rotatev(q, c)), q};
}

void ph_body_sync_transform(ph_body *body)
{
    body->xf = ph_body_frame(body, body->center, body->xf.q);
}

ph_aabb ph_body_bounds_at(const ph_body *body, ph_transform xf)
{
    if (body->mesh)
    {
        // Bounds of the mesh's local box under the body transform (the 8 corners).
        ph_aabb local = ph_mesh_bounds(body->mesh);
        ph_aabb out = {xf.p, xf.p};
        for (int i = 0; i < 8; i++)
        {
            ph_vec3 c = ph_v3(i & 1 ? local.hi.x : local.lo.x, i & 2 ? local.hi.y : local.lo.y,
                              i & 4 ? local.hi.z : local.lo.z);
            ph_vec3 w = ph_transform_point(xf, c);
            out.lo = i ? glms_vec3_minv(out.lo, w) : w;
            out.hi = i ? glms_vec3_maxv(out.hi, w) : w;
        }
        return out;
    }
    if (body->compound)
    {
        ph_aabb out = {xf.p, xf.p};
        for (int i = 0; i < body->compound->child_count; i++)
        {
            const ph_compound_child *ch = &body->compound->children[i];
            ph_aabb b = ph_convex_bounds(&ch->shape, ph_transform_mul(xf, ch->local));
            out.lo = i ? glms_vec3_minv(out.lo, b.lo) : b.lo;
            out.hi = i ? glms_vec3_maxv(out.hi, b.hi) : b.hi;
        }
        return out;
    }
    return ph_convex_bounds(&body->convex, xf);
}

// v turned by the quaternion (u, s) of squared length 1 / k: v + 2 k (s u x v + u x (u x v)), Rodrigues'
// formula in quaternion form with the normalisation folded into k. (-u, s) turns the other way.
static inline ph_vec3 turn(ph_vec3 u, float s, float k, ph_vec3 v)
{
    ph_vec3 t = glms_vec3_cross(u, v);
    ph_vec3 tt = glms_vec3_cross(u, t);
    float a = 2.0f * k * s, b = 2.0f * k;
    return ph_v3(v.x + a * t.x + b * tt.x, v.y + a * t.y + b * tt.y, v.z + a * t.z + b * tt.z);
}

// The derivative of x + s I^-1 (x x I x) with respect to x, 1 + s I^-1 ([x]x I - [I x]x), given ix = I x.
static ph_mat3 spin_jacobian(const ph_mat3 *inertia, const ph_mat3 *inv_inertia, ph_vec3 x, ph_vec3 ix,
                             float s)
{
    ph_mat3 jac;
    for (int k = 0; k < 3; k++)
    {
        ph_vec3 e = glms_vec3_zero();
        e.raw[k] = 1.0f;
        ph_vec3 m = glms_vec3_add(glms_vec3_cross(x, inertia->col[k]), glms_vec3_cross(e, ix));
        jac.col[k] = glms_vec3_add(e, glms_vec3_scale(glms_mat3_mulv(*inv_inertia, m), s));
    }
    return jac;
}

// x solving I x + s (x x I x) = lb from the guess in x, on the equation multiplied by I^-1 (so that bodies of
// any size stay in float range): x + s I^-1 (x x I x) = I^-1 lb. Newton's method with the Jacobian of the
// guess kept (the chord method): the guess is within O(s |x|) of the root, so the Jacobian barely changes
// on the way, and one 3x3 inverse serves every iteration. False when it has not converged to float
// precision within BODY_GYRO_MAX_PASSES iterations. For any inertia tensor; solve_spin_diagonal is the
// same equation for a tensor in its principal axes.
static bool solve_spin_general(const ph_mat3 *inertia, const ph_mat3 *inv_inertia, ph_vec3 lb, float s,
                               ph_vec3 *x)
{
    ph_vec3 target = glms_mat3_mulv(*inv_inertia, lb);
    ph_vec3 ix = glms_mat3_mulv(*inertia, *x);
    ph_mat3 step = glms_mat3_inv(spin_jacobian(inertia, inv_inertia, *x, ix, s));
    for (int pass = 0; pass < BODY_GYRO_MAX_PASSES; pass++)
    {
        ph_vec3 turned = glms_mat3_mulv(*inv_inertia, glms_vec3_cross(*x, ix));
        ph_vec3 r = glms_vec3_sub(glms_vec3_add(*x, glms_vec3_scale(turned, s)), target);
        ph_vec3 d = glms_mat3_mulv(step, r);
        *x = glms_vec3_sub(*x, d);
        if (glms_vec3_dot(d, d) <= BODY_GYRO_TOLERANCE * BODY_GYRO_TOLERANCE * glms_vec3_dot(*x, *x))
            return true;
        ix = glms_mat3_mulv(*inertia, *x);
    }
    return false;
}

// The same equation for I = diag(m) (a box, a capsule, any shape whose axes are its principal axes, the
// shapes most bodies have): over the cyclic (i, j, k) it reads F_i(x) = x_i + k_i x_j x_k - t_i = 0 with
// k_i = s (m_k - m_j) / m_i and t = lb / m, Euler's equations in midpoint form. The guess is one fixed-point
// pass from t, x_i = t_i - k_i t_j t_k, already within O((s |x|)^2) of the root. Newton's method from there,
// with the Jacobian (1 on the diagonal, k_i x_k and k_i x_j off it) solved by its cofactors. F is quadratic,
// so the residual a Newton step d leaves is exactly F_i(x - d) = k_i d_j d_k: the stopping test reads it
// from d at float precision instead of evaluating F again (where rounding alone is of that size), and one
// step is enough for all but violent spins (about a tenth of the general solve's work). Inlined, as are
// solve_spin and gyro_solve_body: passed to a call, a ph_vec3 built from three floats went through the stack
// and came back in one wider load that waits for the stores (a failed store forwarding; spinner 1.0 -> 0.9
// us per step). The coefficients k come from spin_coefficients, apart so that a loop over sub-steps works
// them out once (inside the loop's branch on the spin, the compiler may not hoist float arithmetic).
// solve_spin_diagonal_t takes t = lb / m itself.
static inline __attribute__((always_inline)) bool solve_spin_diagonal_t(ph_vec3 k, ph_vec3 t, ph_vec3 *x)
{
    float k0 = k.x, k1 = k.y, k2 = k.z;
    float t0 = t.x, t1 = t.y, t2 = t.z;
    float x0 = t0 - k0 * t1 * t2, x1 = t1 - k1 * t2 * t0, x2 = t2 - k2 * t0 * t1;
    float r0 = x0 + k0 * x1 * x2 - t0, r1 = x1 + k1 * x2 * x0 - t1, r2 = x2 + k2 * x0 * x1 - t2;
    const float tol2 = BODY_GYRO_RESIDUAL * BODY_GYRO_RESIDUAL;
    bool converged = r0 * r0 + r1 * r1 + r2 * r2 <= tol2 * (x0 * x0 + x1 * x1 + x2 * x2);
    for (int pass = 0; pass < BODY_GYRO_MAX_PASSES && !converged; pass++)
    {
        // Jacobian rows (1, a01, a02), (a10, 1, a12), (a20, a21, 1); c: its cofactors.
        float a01 = k0 * x2, a02 = k0 * x1, a10 = k1 * x2, a12 = k1 * x0, a20 = k2 * x1, a21 = k2 * x0;
        float c00 = 1.0f - a12 * a21, c01 = a12 * a20 - a10, c02 = a10 * a21 - a20;
        float c10 = a02 * a21 - a01, c11 = 1.0f - a02 * a20, c12 = a01 * a20 - a21;
        float c20 = a01 * a12 - a02, c21 = a02 * a10 - a12, c22 = 1.0f - a01 * a10;
        float det = c00 + a01 * c01 + a02 * c02;
        if (!(fabsf(det) > 1e-6f)) // a turn of radians per sub-step: no reliable root near the guess
            break;
        float inv_det = 1.0f / det;
        float d0 = (c00 * r0 + c10 * r1 + c20 * r2) * inv_det;
        float d1 = (c01 * r0 + c11 * r1 + c21 * r2) * inv_det;
        float d2 = (c02 * r0 + c12 * r1 + c22 * r2) * inv_det;
        x0 -= d0;
        x1 -= d1;
        x2 -= d2;
        float q0 = k0 * d1 * d2, q1 = k1 * d2 * d0, q2 = k2 * d0 * d1; // the residual left
        converged = q0 * q0 + q1 * q1 + q2 * q2 <= tol2 * (x0 * x0 + x1 * x1 + x2 * x2);
        if (!converged)
        {
            r0 = x0 + k0 * x1 * x2 - t0;
            r1 = x1 + k1 * x2 * x0 - t1;
            r2 = x2 + k2 * x0 * x1 - t2;
        }
    }
    *x = ph_v3(x0, x1, x2);
    return converged;
}

static inline __attribute__((always_inline)) bool solve_spin_diagonal(ph_vec3 k, ph_vec3 inv_m, ph_vec3 lb,
                                                                      ph_vec3 *x)
{
    return solve_spin_diagonal_t(k, ph_v3(lb.x * inv_m.x, lb.y * inv_m.y, lb.z * inv_m.z), x);
}

static inline ph_vec3 diagonal_of(const ph_mat3 *m)
{
    return ph_v3(m->col[0].raw[0], m->col[1].raw[1], m->col[2].raw[2]);
}

// solve_spin_diagonal's k_i = s (m_k - m_j) / m_i over the cyclic (i, j, k), for I = diag(m).
static inline ph_vec3 spin_coefficients(ph_vec3 m, ph_vec3 inv_m, float s)
{
    return ph_v3(s * (m.z - m.y) * inv_m.x, s * (m.x - m.z) * inv_m.y, s * (m.y - m.x) * inv_m.z);
}

// solve_spin_general from the guess in x or, for an inertia in its principal axes, solve_spin_diagonal (which
// makes its own guess and ignores x's).
static inline __attribute__((always_inline)) bool
solve_spin(const ph_mat3 *inertia, const ph_mat3 *inv_inertia, bool diagonal, ph_vec3 lb, float s, ph_vec3 *x)
{
    if (diagonal)
    {
        ph_vec3 inv_m = diagonal_of(inv_inertia);
        return solve_spin_diagonal(spin_coefficients(diagonal_of(inertia), inv_m, s), inv_m, lb, x);
    }
    return solve_spin_general(inertia, inv_inertia, lb, s, x);
}

// I v, with the 3 products instead of 9 for a diagonal I.
static inline ph_vec3 inertia_mulv(const ph_mat3 *inertia, bool diagonal, ph_vec3 v)
{
    if (diagonal)
        return ph_v3(inertia->col[0].raw[0] * v.x, inertia->col[1].raw[1] * v.y,
                     inertia->col[2].raw[2] * v.z);
    return glms_mat3_mulv(*inertia, v);
}

// Body frame of q and back: q^-1 v q and q v q^-1, exact rotations even for a quaternion a rounding off
// unit length (normalised quaternions are, by an ulp or so: taken as unit, every sub-step's turn into the
// body frame and back scaled the momentum by that much, always the same way, and a free spinning body
// gained 1.6e-7 of its energy per sub-step).
static inline ph_vec3 to_body(ph_quat q, ph_vec3 v)
{
    return turn(ph_v3(-q.x, -q.y, -q.z), q.w, 1.0f / glms_quat_dot(q, q), v);
}

static inline ph_vec3 to_world(ph_quat q, ph_vec3 v)
{
    return turn(ph_v3(q.x, q.y, q.z), q.w, 1.0f / glms_quat_dot(q, q), v);
}

// What the gyroscopic solve of a sub-step h takes of a body-frame inertia, worked out once per call (or per
// step, in ph_body_fly_torque_free's loop over the sub-steps).
typedef struct spin_frame
{
    const ph_mat3 *inertia, *inv_inertia;
    bool diagonal;
    ph_vec3 m, inv_m, k; // diagonal: the principal moments, their inverses, spin_coefficients for s = h/2
    float h;
} spin_frame;

static inline __attribute__((always_inline)) spin_frame
spin_frame_of(const ph_mat3 *inertia, const ph_mat3 *inv_inertia, bool diagonal, float h)
{
    spin_frame f = {inertia, inv_inertia, diagonal, glms_vec3_zero(), glms_vec3_zero(), glms_vec3_zero(), h};
    if (diagonal)
    {
        f.m = diagonal_of(inertia);
        f.inv_m = diagonal_of(inv_inertia);
        f.k = spin_coefficients(f.m, f.inv_m, 0.5f * h);
    }
    return f;
}

// The energy clamp of gyro_solve_body when its solve has not converged (see there). Out of line: rare.
static __attribute__((noinline)) ph_vec3 keep_energy(const ph_mat3 *inertia, const ph_mat3 *inv_inertia,
                                                     ph_vec3 lb, ph_vec3 wb, float h)
{
    // Not converged (a turn of a good part of a radian per sub-step after a violent impact): the energy
    // after the turn, T(k wb) = k^2 wb.I wb / 2 + k^4 (h^2/8) c.I^-1 c with c = wb x I wb (the cross
    // term vanishes), is kept at or below the energy before, so a tumbling body never gains energy.
    ph_vec3 iw = glms_mat3_mulv(*inertia, wb);
    ph_vec3 c = glms_vec3_cross(wb, iw);
    float a = 0.125f * h * h * glms_vec3_dot(c, glms_mat3_mulv(*inv_inertia, c));
    float b = 0.5f * glms_vec3_dot(wb, iw);
    float t = 0.5f * glms_vec3_dot(lb, glms_mat3_mulv(*inv_inertia, lb));
    if (a + b > t && t > 0.0f)
    {
        float k2 = 2.0f * t / (b + sqrtf(b * b + 4.0f * a * t)); // root of a k^4 + b k^2 = t
        wb = glms_vec3_scale(wb, sqrtf(k2));
    }
    return wb;
}

// ph_body_gyro_solve in the body frame of q1: the carrying wb of body-frame momentum lb, for the sub-step
// f->h.
static inline __attribute__((always_inline)) ph_vec3 gyro_solve_body(const spin_frame *f, ph_vec3 lb)
{
    // Body frame of q1: lb1 = R1^T L. The sub-step turns the body to R2 = R1 C with C the turn of
    // ph_integrate_rotation by h w, (h/2 wb, 1) as a quaternion: the Cayley transform
    // C = (1 - h/2 [wb]x)^-1 (1 + h/2 [wb]x). L fixed in the world makes lb2 = C^T lb1, that is
    // lb2 - lb1 = -h/2 wb x (lb1 + lb2); and wb = I^-1 (lb1 + lb2) / 2 then gives
    //     lb1 = I wb + h/2 wb x I wb,    lb2 = I wb - h/2 wb x I wb.
    // Both |lb| and lb . I^-1 lb (twice the energy) are the same before and after: the cross terms vanish.
    ph_vec3 wb = lb;
    bool converged;
    if (f->diagonal)
        converged = solve_spin_diagonal(f->k, f->inv_m, lb, &wb); // makes its own guess
    else
    {
        wb = glms_mat3_mulv(*f->inv_inertia, lb); // the general form's guess, I^-1 lb
        converged = solve_spin_general(f->inertia, f->inv_inertia, lb, 0.5f * f->h, &wb);
    }
    return converged ? wb : keep_energy(f->inertia, f->inv_inertia, lb, wb, f->h);
}

ph_vec3 ph_body_gyro_solve(ph_quat q1, const ph_mat3 *inertia, const ph_mat3 *inv_inertia, ph_vec3 l, float h)
{
    spin_frame f = spin_frame_of(inertia, inv_inertia, ph_inertia_is_diagonal(*inertia), h);
    return to_world(q1, gyro_solve_body(&f, to_body(q1, l)));
}

// The body-frame momentum at the end of a sub-step h through which wb carried the body: I wb - h/2 wb x I wb,
// given I wb.
static inline ph_vec3 momentum_after_iw(ph_vec3 wb, ph_vec3 iw, float h)
{
    return glms_vec3_sub(iw, glms_vec3_scale(glms_vec3_cross(wb, iw), 0.5f * h));
}

static ph_vec3 momentum_after_body(const ph_mat3 *inertia, bool diagonal, ph_vec3 wb, float h)
{
    return momentum_after_iw(wb, inertia_mulv(inertia, diagonal, wb), h);
}

// Whether the velocity now and the carrying one differ: a dynamic body whose L need not be parallel to w,
// once it has taken a sub-step.
static inline bool carries_spin(const ph_body *body, float h)
{
    return body->type == PH_BODY_DYNAMIC && !body->isotropic && h > 0.0f;
}

ph_vec3 ph_body_angular_velocity_now(const ph_body *body, ph_vec3 w, float h)
{
    if (!carries_spin(body, h))
        return w;
    ph_quat q = body->xf.q;
    ph_vec3 lb = momentum_after_body(&body->inertia_local, body->diagonal, to_body(q, w), h);
    return to_world(q, inertia_mulv(&body->inv_inertia_local, body->diagonal, lb));
}

// The carrying body-frame velocity of body-frame momentum lb, I x + s x x I x = lb (s = -h/2: through a
// sub-step h that ends here). The equation is quadratic, and for a fast spin Newton's method can land on a
// root that turns the body by many radians per sub-step, putting the momentum into a spin about its axis of
// least inertia (a bar struck at 226 rad/s came out of a calendar event at 1e7 rad/s). Such a root, or none,
// is refused for I^-1 lb scaled to the energy of lb at most (keep_energy): never more energy than the
// momentum has.
static ph_vec3 carried_of(const ph_body *body, ph_vec3 lb, float s)
{
    const ph_mat3 *inertia = &body->inertia_local, *inv_inertia = &body->inv_inertia_local;
    ph_vec3 linear = inertia_mulv(inv_inertia, body->diagonal, lb), root = linear;
    if (solve_spin(inertia, inv_inertia, body->diagonal, lb, s, &root) && ph_is_finite_vec3(root) &&
        4.0f * s * s * glms_vec3_dot(root, root) <= BODY_SPIN_ROOT_TURN * BODY_SPIN_ROOT_TURN)
        return root;
    return keep_energy(inertia, inv_inertia, lb, linear, 2.0f * fabsf(s));
}

ph_vec3 ph_body_angular_velocity_carried(const ph_body *body, ph_vec3 w, float h)
{
    if (!carries_spin(body, h))
        return w;
    // The carried wb whose momentum after the sub-step, I wb - h/2 wb x I wb, is I w_now.
    ph_quat q = body->xf.q;
    return to_world(
        q, carried_of(body, inertia_mulv(&body->inertia_local, body->diagonal, to_body(q, w)), -0.5f * h));
}

// The angular velocity w a sub-step h starts from, carried through the sub-step `carried` (0: set since),
// within the most rotation of a sub-step: the gyroscopic solve (implicit in w) is only meaningful there.
// Every w the engine itself leaves is within the cap of the sub-step that made it, so the cap taken is
// the larger of the two (the smaller sub-step's) and this changes nothing but a w set or struck far past
// it: a plank spun at 1e6 rad/s made the solve fail, and its energy clamp, overflowing, stopped the plank
// dead where a cube kept the cap.
static inline ph_vec3 cap_spin_in(ph_vec3 w, float h, float carried)
{
    float shortest = carried > 0.0f && carried < h ? carried : h;
    float max_speed = BODY_MAX_ROTATION / shortest;
    float speed2 = glms_vec3_dot(w, w);
    if (speed2 > max_speed * max_speed)
        w = glms_vec3_scale(w, max_speed / sqrtf(speed2));
    return w;
}

ph_vec3 ph_body_angular_velocity_change(const ph_body *body, ph_vec3 w, float h, ph_vec3 dw_now)
{
    if (!carries_spin(body, h))
        return dw_now;
    // w_now = I^-1 (I wb - h/2 wb x I wb) in the body frame: its derivative is spin_jacobian with s = -h/2.
    ph_quat q = body->xf.q;
    ph_vec3 wb = to_body(q, w);
    ph_mat3 jac = spin_jacobian(&body->inertia_local, &body->inv_inertia_local, wb,
                                glms_mat3_mulv(body->inertia_local, wb), -0.5f * h);
    return to_world(q, glms_mat3_mulv(glms_mat3_inv(jac), to_body(q, dw_now)));
}

// M^-1 v for an invertible M, in double precision: M is an inverse inertia whose ratio of extreme moments
// may be large (a thin plank's), where float cofactors lose digits that the angular impulse recovered from a
// change of velocity would carry into the momentum (a heap of bouncing planks gained 7e-5 of its energy).
static ph_vec3 inverse_mulv(const ph_mat3 *m, ph_vec3 v)
{
    double a[3][3];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            a[c][r] = (double)m->col[c].raw[r];
    // Column-major a[c][r]; the cofactors of the transpose make the inverse's columns.
    double c00 = a[1][1] * a[2][2] - a[2][1] * a[1][2], c01 = a[2][1] * a[0][2] - a[0][1] * a[2][2],
           c02 = a[0][1] * a[1][2] - a[1][1] * a[0][2];
    double det = a[0][0] * c00 + a[1][0] * c01 + a[2][0] * c02;
    if (!(det != 0.0))
        return glms_vec3_zero();
    double c10 = a[2][0] * a[1][2] - a[1][0] * a[2][2], c11 = a[0][0] * a[2][2] - a[2][0] * a[0][2],
           c12 = a[1][0] * a[0][2] - a[0][0] * a[1][2];
    double c20 = a[1][0] * a[2][1] - a[2][0] * a[1][1], c21 = a[2][0] * a[0][1] - a[0][0] * a[2][1],
           c22 = a[0][0] * a[1][1] - a[1][0] * a[0][1];
    double x = (double)v.x, y = (double)v.y, z = (double)v.z;
    return ph_v3((float)((c00 * x + c10 * y + c20 * z) / det), (float)((c01 * x + c11 * y + c21 * z) / det),
                 (float)((c02 * x + c12 * y + c22 * z) / det));
}

ph_vec3 ph_body_angular_velocity_struck(const ph_body *body, ph_quat q, const ph_mat3 *row_inv_inertia,
                                        ph_vec3 w0, ph_vec3 w1, float h, bool turned)
{
    if (!carries_spin(body, h) || glms_vec3_eqv(w0, w1))
        return w1;
    // Body frame of q: the momentum of w0, lb = I wb + s wb x I wb (s = h/2 before the sub-step's turn, -h/2
    // after it), plus the angular impulse the rows applied; then the wb of that momentum, x = I^-1 (lb - s x
    // x I x) by fixed-point passes from w1, which is within the impulse's second order of it: each pass
    // shrinks the error by about s |x| times the body's anisotropy (under 0.4 where the turn is capped, a few
    // hundredths for most spins), and two are within float rounding of the momentum's for the impulses the
    // rows give (laws_random_impacts_keep_momentum: 3e-5). The full solve where a pass would turn the body by
    // more than a root may (carried_of).
    float s = turned ? -0.5f * h : 0.5f * h;
    const ph_mat3 *inertia = &body->inertia_local, *inv_inertia = &body->inv_inertia_local;
    bool diagonal = body->diagonal;
    ph_vec3 wb = to_body(q, w0), x = to_body(q, w1);
    ph_vec3 iw = inertia_mulv(inertia, diagonal, wb);
    ph_vec3 impulse = to_body(q, inverse_mulv(row_inv_inertia, glms_vec3_sub(w1, w0)));
    ph_vec3 lb = glms_vec3_add(glms_vec3_add(iw, glms_vec3_scale(glms_vec3_cross(wb, iw), s)), impulse);
    for (int pass = 0; pass < BODY_STRUCK_PASSES; pass++)
    {
        ph_vec3 ix = inertia_mulv(inertia, diagonal, x);
        x = inertia_mulv(inv_inertia, diagonal,
                         glms_vec3_sub(lb, glms_vec3_scale(glms_vec3_cross(x, ix), s)));
    }
    if (ph_is_finite_vec3(x) &&
        4.0f * s * s * glms_vec3_dot(x, x) <= BODY_SPIN_ROOT_TURN * BODY_SPIN_ROOT_TURN)
        return to_world(q, x);
    return to_world(q, carried_of(body, lb, s));
}

// Body-frame momentum lb at orientation `from`, in the body frame of `to`. The kinetic energy of a momentum
// at an orientation is lb . I^-1 lb / 2 in its body frame: moved without a force, a body must not gain it,
// so a momentum that lies nearer the axis of least inertia at `to` keeps its direction and the energy it had
// (the chord of a body's sweep is not the path of a free body: a plank struck while spinning at 200 rad/s
// went on at 1800).
static ph_vec3 momentum_moved(const ph_body *body, ph_vec3 lb, ph_quat from, ph_quat to)
{
    const ph_mat3 *inv_inertia = &body->inv_inertia_local;
    ph_vec3 lb_to = to_body(to, to_world(from, lb));
    float before = glms_vec3_dot(lb, inertia_mulv(inv_inertia, body->diagonal, lb));
    float after = glms_vec3_dot(lb_to, inertia_mulv(inv_inertia, body->diagonal, lb_to));
    return after > before ? glms_vec3_scale(lb_to, sqrtf(before / after)) : lb_to;
}

// Whether a spin w changes the momentum of the body differently from a multiple of w (above the gyroscopic
// threshold, not isotropic).
static inline bool spins_off_axis(const ph_body *body, ph_vec3 w, float h)
{
    return carries_spin(body, h) && glms_vec3_dot(w, w) >= BODY_GYRO_MIN_SPEED * BODY_GYRO_MIN_SPEED;
}

ph_vec3 ph_body_spin_moved(const ph_body *body, ph_quat from, ph_quat to, ph_vec3 w, float h)
{
    if (!spins_off_axis(body, w, h))
        return w;
    ph_vec3 lb = momentum_after_body(&body->inertia_local, body->diagonal, to_body(from, w), h);
    return to_world(to, carried_of(body, momentum_moved(body, lb, from, to), -0.5f * h));
}

ph_vec3 ph_body_spin_now_moved(const ph_body *body, ph_quat from, ph_quat to, ph_vec3 w, float h)
{
    if (!spins_off_axis(body, w, h))
        return w;
    ph_vec3 lb = momentum_after_body(&body->inertia_local, body->diagonal, to_body(from, w), h);
    return to_world(
        to, inertia_mulv(&body->inv_inertia_local, body->diagonal, momentum_moved(body, lb, from, to)));
}

ph_vec3 ph_body_spin_carried_moved(const ph_body *body, ph_quat from, ph_quat to, ph_vec3 w_now, float h)
{
    if (!spins_off_axis(body, w_now, h))
        return w_now;
    ph_vec3 lb = inertia_mulv(&body->inertia_local, body->diagonal, to_body(from, w_now));
    return to_world(to, carried_of(body, momentum_moved(body, lb, from, to), -0.5f * h));
}

bool ph_body_turn_free(const ph_body *body, ph_quat *q, ph_vec3 *w, float time, float h)
{
    if (!spins_off_axis(body, *w, h) || !(time > 0.0f))
        return false;
    // The momentum the body carries (ph_body_angular_velocity_now's), then sub-steps of at most h of the
    // torque-free flow (ph_body_gyro_step's: the implicit midpoint turn), which keep it, and the carrying
    // velocity of that momentum for a sub-step h at the end.
    const ph_mat3 *inertia = &body->inertia_local, *inv_inertia = &body->inv_inertia_local;
    ph_quat r = *q;
    ph_vec3 l = to_world(r, momentum_after_body(inertia, body->diagonal, to_body(r, *w), h));
    int n = (int)ceilf(time / h);
    n = n < 1 ? 1 : n > BODY_TURN_FREE_MAX_STEPS ? BODY_TURN_FREE_MAX_STEPS : n;
    float hs = time / (float)n;
    ph_vec3 spin = *w;
    for (int k = 0; k < n; k++)
    {
        spin = ph_body_gyro_solve(r, inertia, inv_inertia, l, hs);
        r = ph_integrate_rotation(r, spin, hs);
    }
    spin = to_world(r, carried_of(body, to_body(r, l), -0.5f * h));
    *q = r;
    *w = spin;
    return true;
}

ph_vec3 ph_body_gyro_step(const ph_body *body, const ph_body_state *state, float h, float carried)
{
    // Gyroscopic torque. The angular velocity w is the one that carries the body through a sub-step (the
    // position update turns it by h w), like v for the centre; the angular momentum L the body has at a
    // sub-step's start and end follows from it (ph_body_gyro_solve). Each sub-step starts from the momentum
    // the last one ended with (torques and impulses added) and takes the w of the implicit midpoint rule on
    // Euler's equations in the body frame, with the orientation turned as ph_integrate_rotation turns it
    // (its quaternion update is the Cayley transform of h w): a Lie-Poisson integrator that keeps both |L|
    // and the kinetic energy to float precision whatever the step (Austin, Krishnaprasad and Wang, "Almost
    // Poisson integration of rigid body systems", J. Comput. Phys. 1993). Forms that take the w at the end
    // of the turn, like the implicit-Euler update Bullet makes once per step, lose energy every step and
    // drift towards the axis of largest inertia: a box spun about its intermediate axis stops flipping.
    // An isotropic body has L parallel to w in every orientation: the torque-free flow leaves w as it is.
    // All in the body frame of q1: one turn in and one out, sharing q1's 1 / |q1|^2.
    ph_quat q1 = glms_quat_normalize(glms_quat_mul(state->dq, body->q0));
    ph_vec3 u = ph_v3(q1.x, q1.y, q1.z), u_back = ph_v3(-q1.x, -q1.y, -q1.z);
    float k = 1.0f / glms_quat_dot(q1, q1);
    ph_vec3 lb = momentum_after_body(&body->inertia_local, body->diagonal,
                                     turn(u_back, q1.w, k, cap_spin_in(state->w, h, carried)), carried);
    if (ph_body_has_torque(body))
    {
        ph_vec3 tb = turn(u_back, q1.w, k, body->torque);
        lb = ph_v3(lb.x + tb.x * h, lb.y + tb.y * h, lb.z + tb.z * h);
    }
    spin_frame f = spin_frame_of(&body->inertia_local, &body->inv_inertia_local, body->diagonal, h);
    return turn(u, q1.w, k, gyro_solve_body(&f, lb));
}

// What a free-flight sub-step h of a torque-free dynamic body reads of it, worked out once per step: its
// motion record, the parabola's correction (h^2/2) and the most turn of a sub-step.
typedef struct flight
{
    ph_body_motion motion;
    float h, fall, max_speed;
} flight;

static inline flight flight_of(const ph_body *body, ph_vec3 gravity, float h)
{
    return (flight){ph_body_motion_of(body, gravity, h), h, 0.5f * h * h, BODY_MAX_ROTATION / h};
}

// The linear half of a free-flight sub-step, operation for operation as ph_body_integrate_velocity and
// ph_body_integrate_position(free_flight) do it: the velocity step, then the parabola's step added to dp.
// It reads nothing of the rotation, so it may run before the angular half.
static inline void flight_move(const flight *f, ph_vec3 *v, ph_vec3 *dp)
{
    float h = f->h;
    ph_vec3 u = ph_body_motion_velocity(&f->motion, *v, h);
    ph_vec3 a = f->motion.accel;
    ph_vec3 step = ph_v3(u.x * h, u.y * h, u.z * h);
    step = ph_v3(step.x - a.x * f->fall, step.y - a.y * f->fall, step.z - a.z * f->fall);
    *v = u;
    *dp = ph_v3(dp->x + step.x, dp->y + step.y, dp->z + step.z);
}

// ph_body_fly_steady for N bodies side by side (N a constant of each caller): each body's sub-steps are a
// chain of dependent operations (the turn's normalisation, a square root and a division, waits for the
// last), and two chains interleaved keep the core busy while each waits. Per body, bit for bit the loop of
// one.
static inline __attribute__((always_inline)) void fly_steady_n(const ph_body *const *body,
                                                               ph_body_state *const *state, const int N,
                                                               ph_vec3 gravity, float h, int substeps)
{
    // The sub-step loop (ph_body_integrate_velocity, then ph_body_integrate_position in free flight) for a
    // body whose w only the cap and damping change: no torque, and no gyroscopic term (isotropic, or slower
    // than BODY_GYRO_MIN_SPEED, which it stays as the cap and damping only slow it). Bit for bit that loop,
    // with the state in registers and the body read once (restitution_ladder's bodies between bounces).
    flight f[2];
    ph_vec3 v[2], w[2], dp[2];
    ph_quat dq[2];
    bool still[2];
    for (int k = 0; k < N; k++)
    {
        f[k] = flight_of(body[k], gravity, h);
        v[k] = state[k]->v;
        w[k] = state[k]->w;
        dp[k] = state[k]->dp;
        dq[k] = state[k]->dq;
        // A body that does not turn at all (w zero: the cap and damping keep it zero) from the identity
        // (every step starts there) stays at the identity bit for bit: each sub-step's turn adds
        // h/2 (0, 0, 0, 0) and normalises (0, 0, 0, 1), unchanged. Only its centre moves (a box dropped
        // flat, a crate carried level).
        still[k] = w[k].x == 0.0f && w[k].y == 0.0f && w[k].z == 0.0f && dq[k].x == 0.0f && dq[k].y == 0.0f &&
                   dq[k].z == 0.0f && dq[k].w == 1.0f;
    }
    for (int s = 0; s < substeps; s++)
        for (int k = 0; k < N; k++)
        {
            flight_move(&f[k], &v[k], &dp[k]);
            if (still[k])
                continue;
            w[k] = ph_body_motion_spin(&f[k].motion, w[k], f[k].max_speed);
            dq[k] = ph_integrate_rotation(dq[k], w[k], h);
        }
    for (int k = 0; k < N; k++)
    {
        state[k]->v = v[k];
        state[k]->w = w[k];
        state[k]->dp = dp[k];
        state[k]->dq = dq[k];
    }
}

void ph_body_fly_steady(const ph_body *body, ph_body_state *state, ph_vec3 gravity, float h, int substeps)
{
    fly_steady_n(&body, &state, 1, gravity, h, substeps);
}

void ph_body_fly_steady_pair(const ph_body *body_a, ph_body_state *state_a, const ph_body *body_b,
                             ph_body_state *state_b, ph_vec3 gravity, float h, int substeps)
{
    const ph_body *body[2] = {body_a, body_b};
    ph_body_state *state[2] = {state_a, state_b};
    fly_steady_n(body, state, 2, gravity, h, substeps);
}

void ph_body_fly_torque_free(const ph_body *body, ph_body_state *state, ph_vec3 gravity, float h,
                             int substeps, float carried)
{
    // The sub-step loop (ph_body_integrate_velocity, then ph_body_integrate_position in free flight), with
    // the rotation kept in the body frame from the first sub-step to the last. What the world-frame chain
    // does in sub-step k, from orientation q (unit) and carrying w:
    //   wb = R(q)^T w,  lb = I wb - h'/2 wb x I wb (momentum_after_body, h' the sub-step carried),
    //   wb+ = gyro_solve_body(lb),  w+ = R(q) wb+ (capped, damped),  q+ = normalise((h/2 w+, 1) q).
    // Two identities make its turns into and out of the body frame cancel between sub-steps:
    // - The turn on the left by the world w+ is the turn on the right by wb+: with w+ = q (wb+, 0) q^-1,
    //   (h/2 w+, 1) q = q (h/2 wb+, 1) q^-1 q = q (h/2 wb+, 1) (ph_integrate_rotation_body).
    // - That turn is about wb+ itself: the Cayley rotation C of (h/2 wb+, 1) keeps wb+, so the next
    //   sub-step's R(q+)^T w+ = C^T R(q)^T R(q) wb+ = wb+. Its body-frame momentum I wb+ - h/2 wb+ x I wb+
    //   is then formed from wb+ directly, in the frame of q+, which is where gyro_solve_body's lb2 lives.
    // So wb is turned in once (at the step's start orientation) and out once (at its end); in between each
    // sub-step is the solve and the momentum of the body frame alone. The cap (on |wb| = |w|), the damping
    // (a scale) and the gyroscopic threshold read wb as they read w. Normalising q after every sub-step or
    // only at the end gives the same orientation: the product is bilinear, and each normalisation divides
    // by a positive number. Unnormalised, |q| grows by sqrt(1 + (h |wb| / 2)^2) per sub-step, at most
    // 1.074 under BODY_MAX_ROTATION: 97 after 64 sub-steps (the most a world takes), far inside float range,
    // and rounding is relative. The results differ from the world-frame chain by rounding only (a test
    // bounds the difference). Only for a dynamic body that turns gyroscopically and has no torque: the torque
    // is applied in the world frame and needs the orientation of each sub-step, and so does the solver's
    // refresh of the world inverse inertia, which only a torque reads in free flight.
    const ph_mat3 *inertia = &body->inertia_local;
    bool diagonal = body->diagonal;
    spin_frame f = spin_frame_of(inertia, &body->inv_inertia_local, diagonal, h);
    ph_vec3 k_carried = diagonal ? spin_coefficients(f.m, f.inv_m, 0.5f * carried) : glms_vec3_zero();
    flight fl = flight_of(body, gravity, h);
    // q0 is unit to an ulp or so, and to_body and to_world turn exactly by a quaternion of any length (their
    // 1 / |q|^2): neither end waits for a normalisation.
    ph_quat q0 = body->q0, q = q0;
    ph_vec3 wb = to_body(q0, cap_spin_in(state->w, h, carried)), v = state->v, dp = state->dp;
    for (int s = 0; s < substeps; s++)
    {
        // ph_body_integrate_velocity's, then ph_body_integrate_position's, the linear half first.
        flight_move(&fl, &v, &dp);
        if (glms_vec3_dot(wb, wb) > BODY_GYRO_MIN_SPEED * BODY_GYRO_MIN_SPEED)
        {
            float hc = s > 0 ? h : carried;
            if (diagonal)
            {
                // The momentum over m, t = lb / m, straight from wb: (wb x I wb)_i = (m_k - m_j) wb_j wb_k
                // over the cyclic (i, j, k), so t_i = wb_i - (hc/2) (m_k - m_j) / m_i wb_j wb_k, with the
                // coefficients of the solve (those of the sub-step carried, for the first). Three
                // dependent operations where I wb, the cross product, the momentum and lb / m took five
                // (the chain from one sub-step's wb to the next's is the loop's whole time).
                ph_vec3 kc = s > 0 ? f.k : k_carried;
                ph_vec3 t =
                    ph_v3(wb.x - kc.x * wb.y * wb.z, wb.y - kc.y * wb.z * wb.x, wb.z - kc.z * wb.x * wb.y);
                ph_vec3 x;
                if (solve_spin_diagonal_t(f.k, t, &x))
                    wb = x;
                else
                    wb =
                        keep_energy(inertia, f.inv_inertia, momentum_after_body(inertia, true, wb, hc), x, h);
            }
            else
                wb = gyro_solve_body(&f, momentum_after_iw(wb, glms_mat3_mulv(*inertia, wb), hc));
        }
        wb = ph_body_motion_spin(&fl.motion, wb, fl.max_speed);
        q = ph_integrate_rotation_body(q, wb, h);
    }
    state->v = v;
    state->dp = dp;
    state->w = to_world(q, wb);
    // The rotation of the step, q = dq q0: dq = q q0^-1, q0 unit.
    state->dq = glms_quat_mul(glms_quat_normalize(q), glms_quat_conjugate(q0));
}

// The sub-step's motion of a state: its centre moved by `step`, its orientation turned by h w.
static inline void advance(ph_body_state *state, ph_vec3 step, float h)
{
    state->dp = ph_v3(state->dp.x + step.x, state->dp.y + step.y, state->dp.z + step.z);
    state->dq = ph_integrate_rotation(state->dq, state->w, h);
}

void ph_body_integrate_position(const ph_body *body, ph_body_state *state, ph_vec3 gravity, float h,
                                bool free_flight)
{
    ph_vec3 step = ph_v3(state->v.x * h, state->v.y * h, state->v.z * h);
    if (free_flight && body->type == PH_BODY_DYNAMIC)
    {
        ph_vec3 accel = ph_body_accel(body, gravity);
        float s = 0.5f * h * h;
        step = ph_v3(step.x - accel.x * s, step.y - accel.y * s, step.z - accel.z * s);
    }
    advance(state, step, h);
}

void ph_body_integrate_positions(ph_body_state *states, const int *slots, int count, float h)
{
    for (int i = 0; i < count; i++)
    {
        ph_body_state *state = &states[slots[i]];
        advance(state, ph_v3(state->v.x * h, state->v.y * h, state->v.z * h), h);
    }
}
