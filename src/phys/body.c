// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Per-body integration and pose bookkeeping; see body.h. The solver calls these once per sub-step for
// each awake body.
#include "body.h"

// Below this angular speed the gyroscopic term (second order in w) is skipped: its effect over a sub-step
// is under 1e-6 of w (unit: rad/s).
#define BODY_GYRO_MIN_SPEED 1e-3f
// Fixed-point passes of the implicit gyroscopic update: at least two, at most this many.
#define BODY_GYRO_MAX_PASSES 4
// The passes stop once the estimated remaining change of w is below this fraction of |w|.
#define BODY_GYRO_TOLERANCE 1e-6f
// Most rotation of a body in one sub-step (unit: rad): pi/4, 236 rad/s at 5 sub-steps of a 60 Hz step.
#define BODY_MAX_ROTATION (0.25f * GLM_PIf)

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

ph_transform ph_body_frame(const ph_body *body, ph_vec3 center, ph_quat q)
{
    return (ph_transform){glms_vec3_sub(center, glms_quat_rotatev(q, body->local_center)), q};
}

void ph_body_sync_transform(ph_body *body)
{
    body->xf = ph_body_frame(body, body->center, body->xf.q);
}

ph_aabb ph_body_compute_bounds(const ph_body *body)
{
    return ph_body_bounds_at(body, body->xf);
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

// The constant acceleration of gravity and the applied force (unit: m/s^2).
static inline ph_vec3 body_accel(const ph_body *body, ph_vec3 gravity)
{
    float gs = body->gravity_scale, im = body->inv_mass;
    return ph_v3(gravity.x * gs + body->force.x * im, gravity.y * gs + body->force.y * im,
                 gravity.z * gs + body->force.z * im);
}

ph_vec3 ph_body_gyro_solve(ph_quat q1, const ph_mat3 *inertia, const ph_mat3 *inv_inertia, ph_vec3 w, float h)
{
    // In the frame of q1 (body axes at the start of the sub-step): wb = R1^T w and Lb = R1^T L = I wb.
    // The orientation update q2 = normalise(q1 + h/2 (w, 0) q1) is q1 p with p = (h/2 wb, 1), since
    // (w, 0) q1 = q1 (wb, 0); so R2 = R1 R(p), and w2 = R2 I^-1 R2^T L becomes
    // wb2 = R(p) I^-1 R(p)^T Lb: the same fixed point, without a world-frame rotation per pass.
    ph_vec3 u1 = ph_v3(q1.x, q1.y, q1.z);
    ph_vec3 wb = turn(glms_vec3_negate(u1), q1.w, 1.0f, w);
    ph_vec3 lb = glms_mat3_mulv(*inertia, wb);
    float twice_t1 = glms_vec3_dot(wb, lb);
    // First guess: to first order in h, R(p) I^-1 R(p)^T Lb = wb + h I^-1 (Lb x wb), the explicit Euler step
    // of Euler's equations; the passes then start O(h^2) from the fixed point instead of O(h), which saves
    // one of them.
    ph_vec3 euler = glms_mat3_mulv(*inv_inertia, glms_vec3_cross(lb, wb));
    wb = ph_v3(wb.x + h * euler.x, wb.y + h * euler.y, wb.z + h * euler.z);
    // The passes contract geometrically, by about h |w| times the anisotropy of I each: after changes d1
    // and d2 (ratio r = |d2| / |d1| < 1) the rest of the way is about |d2| r / (1 - r), and the passes
    // stop once that is below the tolerance (two passes for slow bodies and mostly for the physbench spinner
    // at 8 rad/s).
    float prev_change = 0.0f;
    for (int pass = 0; pass < BODY_GYRO_MAX_PASSES; pass++)
    {
        ph_vec3 u = glms_vec3_scale(wb, 0.5f * h);
        float k = 1.0f / (1.0f + glms_vec3_dot(u, u));
        ph_vec3 next = turn(u, 1.0f, k, glms_mat3_mulv(*inv_inertia, turn(glms_vec3_negate(u), 1.0f, k, lb)));
        ph_vec3 d = glms_vec3_sub(next, wb);
        float change = sqrtf(glms_vec3_dot(d, d));
        wb = next;
        if (pass > 0 && change < prev_change &&
            change * change <= BODY_GYRO_TOLERANCE * (prev_change - change) * sqrtf(glms_vec3_dot(wb, wb)))
            break;
        prev_change = change;
    }
    // The energy at the orientation the position update reaches with this w, q1 (h/2 wb, 1): that turn is
    // about wb itself, which it leaves unchanged, so the energy is wb . I wb in the q1 frame.
    float twice_t2 = glms_vec3_dot(wb, glms_mat3_mulv(*inertia, wb));
    if (twice_t2 > twice_t1 && twice_t1 > 0.0f)
        wb = glms_vec3_scale(wb, sqrtf(twice_t1 / twice_t2));
    return turn(u1, q1.w, 1.0f, wb);
}

void ph_body_integrate_velocity(const ph_body *body, ph_body_state *state, ph_vec3 gravity, float h)
{
    // The scaled adds are written out in cglm's order (same results, fewer instructions than chaining its
    // scale and add).
    ph_vec3 accel = body_accel(body, gravity);
    ph_vec3 alpha = glms_mat3_mulv(state->inv_inertia, body->torque);
    ph_vec3 v = ph_v3(state->v.x + accel.x * h, state->v.y + accel.y * h, state->v.z + accel.z * h);
    ph_vec3 w = ph_v3(state->w.x + alpha.x * h, state->w.y + alpha.y * h, state->w.z + alpha.z * h);

    // Gyroscopic torque, implicit in the orientation. Without torque the world angular momentum
    // L = R I_b R^T w is constant while R turns, so the new velocity solves w2 = I(q2)^-1 L with q2 the
    // orientation that w2 itself produces over the sub-step (the same ph_integrate_rotation the position
    // update applies). Fixed-point passes from w1 solve it to float precision (ph_body_gyro_solve); because L
    // is mapped, not integrated, |w| stays bounded whatever the spin (the explicit form w x I w blows up),
    // and the torque-free drift of L is far below Catto's one-Newton-step form ("Physics for game
    // programmers: numerical methods", GDC 2015), which loses momentum at high spin.
    // The torque-free flow also keeps the kinetic energy T = w.L / 2. When a sub-step turns the body far
    // (hundreds of rad/s after a violent impact), the fixed point lands on an orientation of higher
    // energy; the excess is numerical and is taken out, so a tumbling body can never gain energy.
    // An isotropic body has L parallel to w in every orientation: the torque-free flow leaves w as it is.
    if (!body->isotropic && glms_vec3_dot(w, w) > BODY_GYRO_MIN_SPEED * BODY_GYRO_MIN_SPEED)
    {
        ph_quat q1 = glms_quat_normalize(glms_quat_mul(state->dq, body->q0));
        w = ph_body_gyro_solve(q1, &body->inertia_local, &body->inv_inertia_local, w, h);
    }
    // Most rotation in one sub-step (Box2D v3 and Jolt cap it alike): beyond it the orientation update,
    // the contact anchors and the time-of-impact sweeps all lose their meaning.
    float max_speed = BODY_MAX_ROTATION / h;
    float speed2 = glms_vec3_dot(w, w);
    if (speed2 > max_speed * max_speed)
        w = glms_vec3_scale(w, max_speed / sqrtf(speed2));

    // Damping: the exact solution of dv/dt = -c v decays by exp(-c h); 1 / (1 + c h) is its stable
    // first-order (implicit) form.
    float lin = 1.0f / (1.0f + h * body->linear_damping), ang = 1.0f / (1.0f + h * body->angular_damping);
    state->v = ph_v3(v.x * lin, v.y * lin, v.z * lin);
    state->w = ph_v3(w.x * ang, w.y * ang, w.z * ang);
}

void ph_body_integrate_position(const ph_body *body, ph_body_state *state, ph_vec3 gravity, float h,
                                bool free_flight)
{
    ph_vec3 step = ph_v3(state->v.x * h, state->v.y * h, state->v.z * h);
    if (free_flight && body->type == PH_BODY_DYNAMIC)
    {
        ph_vec3 accel = body_accel(body, gravity);
        float s = 0.5f * h * h;
        step = ph_v3(step.x - accel.x * s, step.y - accel.y * s, step.z - accel.z * s);
    }
    state->dp = ph_v3(state->dp.x + step.x, state->dp.y + step.y, state->dp.z + step.z);
    state->dq = ph_integrate_rotation(state->dq, state->w, h);
}
