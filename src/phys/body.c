// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Per-body integration and pose bookkeeping; see body.h. The solver calls these once per sub-step for
// each awake body.
#include "body.h"

// Below this angular speed the gyroscopic term (second order in w) is skipped: its effect over a sub-step
// is under 1e-6 of w (unit: rad/s).
#define BODY_GYRO_MIN_SPEED 1e-3f
// Fixed-point passes of the implicit gyroscopic update.
#define BODY_GYRO_PASSES 2
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

void ph_body_sync_transform(ph_body *body)
{
    body->xf.p = glms_vec3_sub(body->center, glms_quat_rotatev(body->xf.q, body->local_center));
}

ph_aabb ph_body_compute_bounds(const ph_body *body)
{
    if (body->mesh)
    {
        // Bounds of the mesh's local box under the body transform (the 8 corners).
        ph_aabb local = ph_mesh_bounds(body->mesh);
        ph_aabb out = {body->xf.p, body->xf.p};
        for (int i = 0; i < 8; i++)
        {
            ph_vec3 c = ph_v3(i & 1 ? local.hi.x : local.lo.x, i & 2 ? local.hi.y : local.lo.y,
                              i & 4 ? local.hi.z : local.lo.z);
            ph_vec3 w = ph_transform_point(body->xf, c);
            out.lo = i ? glms_vec3_minv(out.lo, w) : w;
            out.hi = i ? glms_vec3_maxv(out.hi, w) : w;
        }
        return out;
    }
    if (body->compound)
    {
        ph_aabb out = {body->xf.p, body->xf.p};
        for (int i = 0; i < body->compound->child_count; i++)
        {
            const ph_compound_child *ch = &body->compound->children[i];
            ph_aabb b = ph_convex_bounds(&ch->shape, ph_transform_mul(body->xf, ch->local));
            out.lo = i ? glms_vec3_minv(out.lo, b.lo) : b.lo;
            out.hi = i ? glms_vec3_maxv(out.hi, b.hi) : b.hi;
        }
        return out;
    }
    return ph_convex_bounds(&body->convex, body->xf);
}

void ph_body_integrate_velocity(const ph_body *body, ph_body_state *state, ph_vec3 gravity, float h)
{
    ph_vec3 accel = glms_vec3_add(glms_vec3_scale(gravity, body->gravity_scale),
                                  glms_vec3_scale(body->force, body->inv_mass));
    ph_vec3 v = glms_vec3_add(state->v, glms_vec3_scale(accel, h));
    ph_vec3 w = glms_vec3_add(state->w, glms_vec3_scale(glms_mat3_mulv(state->inv_inertia, body->torque), h));

    // Gyroscopic torque, implicit in the orientation. Without torque the world angular momentum
    // L = R I_b R^T w is constant while R turns, so the new velocity solves w2 = I(q2)^-1 L with q2 the
    // orientation that w2 itself produces over the sub-step (the same ph_integrate_rotation the position
    // update applies). Two fixed-point passes from w1 solve it to O(h^3) per sub-step; because L is
    // mapped, not integrated, |w| stays bounded whatever the spin (the explicit form w x I w blows up),
    // and the torque-free drift of L is far below Catto's one-Newton-step form ("Physics for game
    // programmers: numerical methods", GDC 2015), which loses momentum at high spin.
    // The torque-free flow also keeps the kinetic energy T = w.L / 2. When a sub-step turns the body far
    // (hundreds of rad/s after a violent impact), the fixed point lands on an orientation of higher
    // energy; the excess is numerical and is taken out, so a tumbling body can never gain energy.
    // An isotropic body has L parallel to w in every orientation: the torque-free flow leaves w as it is.
    if (!body->isotropic && glms_vec3_dot(w, w) > BODY_GYRO_MIN_SPEED * BODY_GYRO_MIN_SPEED)
    {
        ph_quat q1 = glms_quat_normalize(glms_quat_mul(state->dq, body->q0));
        ph_vec3 l = ph_world_tensor_mulv(q1, body->inertia_local, w); // R I R^T w
        float twice_t1 = glms_vec3_dot(w, l);
        for (int pass = 0; pass < BODY_GYRO_PASSES; pass++)
        {
            ph_quat q2 = ph_integrate_rotation(q1, w, h);
            w = ph_world_tensor_mulv(q2, body->inv_inertia_local, l);
        }
        // Energy at the orientation the position update will reach with this w.
        ph_quat q_end = ph_integrate_rotation(q1, w, h);
        float twice_t2 = glms_vec3_dot(w, ph_world_tensor_mulv(q_end, body->inertia_local, w));
        if (twice_t2 > twice_t1 && twice_t1 > 0.0f)
            w = glms_vec3_scale(w, sqrtf(twice_t1 / twice_t2));
    }
    // Most rotation in one sub-step (Box2D v3 and Jolt cap it alike): beyond it the orientation update,
    // the contact anchors and the time-of-impact sweeps all lose their meaning.
    float max_speed = BODY_MAX_ROTATION / h;
    float speed2 = glms_vec3_dot(w, w);
    if (speed2 > max_speed * max_speed)
        w = glms_vec3_scale(w, max_speed / sqrtf(speed2));

    // Damping: the exact solution of dv/dt = -c v decays by exp(-c h); 1 / (1 + c h) is its stable
    // first-order (implicit) form.
    v = glms_vec3_scale(v, 1.0f / (1.0f + h * body->linear_damping));
    w = glms_vec3_scale(w, 1.0f / (1.0f + h * body->angular_damping));
    state->v = v;
    state->w = w;
}

void ph_body_integrate_position(const ph_body *body, ph_body_state *state, ph_vec3 gravity, float h,
                                bool free_flight)
{
    ph_vec3 step = glms_vec3_scale(state->v, h);
    if (free_flight && body->type == PH_BODY_DYNAMIC)
    {
        ph_vec3 accel = glms_vec3_add(glms_vec3_scale(gravity, body->gravity_scale),
                                      glms_vec3_scale(body->force, body->inv_mass));
        step = glms_vec3_sub(step, glms_vec3_scale(accel, 0.5f * h * h));
    }
    state->dp = glms_vec3_add(state->dp, step);
    state->dq = ph_integrate_rotation(state->dq, state->w, h);
}
