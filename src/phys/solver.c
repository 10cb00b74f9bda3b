// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The contact solver: "soft step" (Catto, "Solver2D", 2024; Box2D v3). Why this scheme: the targets are
// tall stacks and pyramids that must not drift by a centimetre with sleeping off, at a few milliseconds
// per step. Sequential impulses with Baumgarte feed position error into velocity and make stacks bounce;
// split impulses or a position pass (Jolt) cost a second solver. The soft step instead
//   - splits the step into `substeps` sub-steps of h = dt / substeps; each integrates velocities
//     (gravity, forces, gyroscopic torque), warm-starts, runs one iteration with a *soft* constraint
//     (a damped spring of contact_hertz, damping ratio 10, pushing out at most 3 m/s) that removes
//     penetration, integrates positions, then *relaxes* with one rigid iteration without bias so the
//     velocity the spring added is taken out again (no energy gain from overlap);
//   - measures each point's current separation from the bodies' accumulated displacement and rotation,
//     so the position error seen in later sub-steps is exact without running the narrow phase again;
//   - treats a point still apart (s > 0) as speculative: it may approach by s in this sub-step, no more;
//   - applies restitution once after all sub-steps, from the approach speed just before the contact
//     closed, only above PH restitution threshold (1 m/s) so resting contacts do not jitter; the target
//     velocity -e * v_approach with the impulse clamped >= 0 never adds energy for e <= 1.
// Accumulated impulses are clamped (normal >= 0; friction inside the Coulomb cone |f_t| <= mu f_n) and
// warm-started from the previous step (matched through feature ids in contact.c).
// Data layout: the body states are one array of 96-byte structs; the constraints one flat array built in
// the step arena, so the inner loops stream through memory with no pointer chasing.
#include "solver.h"

#include "core.h"
#include "world.h"

#include <string.h> // memset

// Relative normal speed above which restitution applies (unit: m/s).
#define SOLVER_RESTITUTION_THRESHOLD 1.0f
// Damping ratio of the soft contact spring (heavily over-damped: no oscillation).
#define SOLVER_CONTACT_DAMPING_RATIO 10.0f
// Fastest speed at which the soft contact pushes overlapping bodies apart (unit: m/s).
#define SOLVER_MAX_PUSH_SPEED 3.0f
// The spring may not be stiffer than a quarter of the sub-step rate, or the integration goes unstable.
#define SOLVER_MAX_HERTZ_FRACTION 0.25f
// Contacts against static bodies are twice as stiff (the static side cannot share the correction).
#define SOLVER_STATIC_HERTZ_SCALE 2.0f

typedef struct softness
{
    float bias_rate;   // (unit: 1/s)
    float mass_scale;
    float impulse_scale;
} softness;

typedef struct constraint_point
{
    ph_vec3 ra, rb;          // anchors from the centres of mass at the start of the step (unit: m)
    float base_separation;   // separation minus dot(rb - ra, n): add the current anchor gap (unit: m)
    float normal_impulse;    // accumulated (unit: N s)
    float tangent_impulse[2];
    float max_normal_impulse; // largest single normal impulse this step (restitution needs contact)
    float normal_mass;
    float tangent_mass[2];
    float approach;          // relative normal speed just before the point closed (unit: m/s)
} constraint_point;

typedef struct constraint
{
    ph_vec3 normal, t1, t2;
    int a, b; // body slots
    int point_count;
    int contact; // index into world->contacts.items
    float friction, restitution;
    softness soft;
    constraint_point points[PH_MAX_MANIFOLD_POINTS];
} constraint;

// Soft constraint coefficients of a spring at `hertz` with damping ratio zeta over a step h (Catto,
// "Soft constraints", GDC 2011): bias_rate = w / (2 zeta + h w), mass_scale = h w (2 zeta + h w) /
// (1 + h w (2 zeta + h w)), impulse_scale = 1 / (1 + h w (2 zeta + h w)).
static softness make_soft(float hertz, float zeta, float h)
{
    if (hertz <= 0.0f)
        return (softness){ 0.0f, 1.0f, 0.0f };
    float omega = 2.0f * GLM_PIf * hertz;
    float a1 = 2.0f * zeta + h * omega;
    float a2 = h * omega * a1;
    float a3 = 1.0f / (1.0f + a2);
    return (softness){ omega / a1, a2 * a3, a3 };
}

static float effective_mass(const ph_body_state *sa, const ph_body_state *sb, ph_vec3 ra, ph_vec3 rb, ph_vec3 d)
{
    ph_vec3 ca = glms_vec3_cross(ra, d), cb = glms_vec3_cross(rb, d);
    float k = sa->inv_mass + sb->inv_mass + glms_vec3_dot(ca, glms_mat3_mulv(sa->inv_inertia, ca)) +
              glms_vec3_dot(cb, glms_mat3_mulv(sb->inv_inertia, cb));
    return k > 0.0f ? 1.0f / k : 0.0f;
}

static ph_vec3 relative_velocity(const ph_body_state *sa, const ph_body_state *sb, ph_vec3 ra, ph_vec3 rb)
{
    ph_vec3 va = glms_vec3_add(sa->v, glms_vec3_cross(sa->w, ra));
    ph_vec3 vb = glms_vec3_add(sb->v, glms_vec3_cross(sb->w, rb));
    return glms_vec3_sub(vb, va);
}

static void apply_impulse(ph_body_state *sa, ph_body_state *sb, ph_vec3 ra, ph_vec3 rb, ph_vec3 p)
{
    sa->v = glms_vec3_sub(sa->v, glms_vec3_scale(p, sa->inv_mass));
    sa->w = glms_vec3_sub(sa->w, glms_mat3_mulv(sa->inv_inertia, glms_vec3_cross(ra, p)));
    sb->v = glms_vec3_add(sb->v, glms_vec3_scale(p, sb->inv_mass));
    sb->w = glms_vec3_add(sb->w, glms_mat3_mulv(sb->inv_inertia, glms_vec3_cross(rb, p)));
}

// Builds the constraints of touching or speculative contacts with at least one awake dynamic body.
static int prepare(ph_step_context *ctx, constraint *cons, float contact_hertz)
{
    ph_world *world = ctx->world;
    softness soft = make_soft(contact_hertz, SOLVER_CONTACT_DAMPING_RATIO, ctx->h);
    softness static_soft =
        make_soft(SOLVER_STATIC_HERTZ_SCALE * contact_hertz, SOLVER_CONTACT_DAMPING_RATIO, ctx->h);
    int n = 0;
    for (int k = 0; k < world->contacts.count; k++)
    {
        const ph_contact *c = &world->contacts.items[k];
        if (c->manifold.point_count == 0)
            continue;
        const ph_body_state *sa = &world->states[c->a], *sb = &world->states[c->b];
        if (sa->inv_mass == 0.0f && sb->inv_mass == 0.0f)
            continue;
        if (!world->bodies[c->a].awake && !world->bodies[c->b].awake)
            continue;
        constraint *con = &cons[n++];
        con->a = c->a;
        con->b = c->b;
        con->contact = k;
        con->normal = c->manifold.normal;
        ph_contact_tangents(con->normal, &con->t1, &con->t2);
        con->friction = c->friction;
        con->restitution = c->restitution;
        con->soft = (sa->inv_mass == 0.0f || sb->inv_mass == 0.0f) ? static_soft : soft;
        con->point_count = c->manifold.point_count;
        ph_vec3 ca = world->bodies[c->a].center, cb = world->bodies[c->b].center;
        for (int i = 0; i < con->point_count; i++)
        {
            const ph_manifold_point *mp = &c->manifold.points[i];
            constraint_point *cp = &con->points[i];
            cp->ra = glms_vec3_sub(mp->point, ca);
            cp->rb = glms_vec3_sub(mp->point, cb);
            cp->base_separation = mp->separation - glms_vec3_dot(glms_vec3_sub(cp->rb, cp->ra), con->normal);
            cp->normal_impulse = c->normal_impulse[i];
            cp->tangent_impulse[0] = c->tangent_impulse[i][0];
            cp->tangent_impulse[1] = c->tangent_impulse[i][1];
            cp->max_normal_impulse = 0.0f;
            cp->normal_mass = effective_mass(sa, sb, cp->ra, cp->rb, con->normal);
            cp->tangent_mass[0] = effective_mass(sa, sb, cp->ra, cp->rb, con->t1);
            cp->tangent_mass[1] = effective_mass(sa, sb, cp->ra, cp->rb, con->t2);
            cp->approach = glms_vec3_dot(relative_velocity(sa, sb, cp->ra, cp->rb), con->normal);
        }
    }
    return n;
}

static void warm_start(ph_body_state *states, constraint *cons, int count)
{
    for (int k = 0; k < count; k++)
    {
        constraint *con = &cons[k];
        ph_body_state *sa = &states[con->a], *sb = &states[con->b];
        for (int i = 0; i < con->point_count; i++)
        {
            constraint_point *cp = &con->points[i];
            ph_vec3 p = glms_vec3_scale(con->normal, cp->normal_impulse);
            p = glms_vec3_add(p, glms_vec3_scale(con->t1, cp->tangent_impulse[0]));
            p = glms_vec3_add(p, glms_vec3_scale(con->t2, cp->tangent_impulse[1]));
            apply_impulse(sa, sb, cp->ra, cp->rb, p);
        }
    }
}

// One iteration over all constraints. With use_bias the soft spring removes overlap; without it (relax)
// the constraint is rigid on velocity only. Speculative points (s > 0) allow an approach of s per
// sub-step in both.
static void solve(ph_body_state *states, constraint *cons, int count, float inv_h, bool use_bias)
{
    for (int k = 0; k < count; k++)
    {
        constraint *con = &cons[k];
        ph_body_state *sa = &states[con->a], *sb = &states[con->b];
        ph_vec3 dp = glms_vec3_sub(sb->dp, sa->dp);
        ph_vec3 n = con->normal;
        float total_normal = 0.0f;
        for (int i = 0; i < con->point_count; i++)
        {
            constraint_point *cp = &con->points[i];
            // Current separation from the motion so far: the anchors move with their body's rotation.
            ph_vec3 pra = glms_quat_rotatev(sa->dq, cp->ra), prb = glms_quat_rotatev(sb->dq, cp->rb);
            ph_vec3 d = glms_vec3_add(dp, glms_vec3_sub(prb, pra));
            float s = glms_vec3_dot(d, n) + cp->base_separation;
            float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
            if (s > 0.0f)
                bias = s * inv_h;
            else if (use_bias)
            {
                bias = fmaxf(con->soft.bias_rate * s, -SOLVER_MAX_PUSH_SPEED);
                mass_scale = con->soft.mass_scale;
                impulse_scale = con->soft.impulse_scale;
            }
            float vn = glms_vec3_dot(relative_velocity(sa, sb, cp->ra, cp->rb), n);
            float impulse = -cp->normal_mass * mass_scale * (vn + bias) - impulse_scale * cp->normal_impulse;
            float total = fmaxf(cp->normal_impulse + impulse, 0.0f);
            impulse = total - cp->normal_impulse;
            cp->normal_impulse = total;
            cp->max_normal_impulse = fmaxf(cp->max_normal_impulse, impulse);
            if (!use_bias && total == 0.0f)
                cp->approach = vn; // still open after this sub-step: the free approach speed
            total_normal += total;
            apply_impulse(sa, sb, cp->ra, cp->rb, glms_vec3_scale(n, impulse));
        }
        if (con->friction == 0.0f || total_normal == 0.0f)
            continue;
        for (int i = 0; i < con->point_count; i++)
        {
            constraint_point *cp = &con->points[i];
            ph_vec3 dv = relative_velocity(sa, sb, cp->ra, cp->rb);
            float l1 = cp->tangent_impulse[0] - cp->tangent_mass[0] * glms_vec3_dot(dv, con->t1);
            float l2 = cp->tangent_impulse[1] - cp->tangent_mass[1] * glms_vec3_dot(dv, con->t2);
            // Clamp to the Coulomb cone |(l1, l2)| <= mu * normal impulse.
            float limit = con->friction * cp->normal_impulse;
            float len2 = l1 * l1 + l2 * l2;
            if (len2 > limit * limit)
            {
                float scale = limit / sqrtf(len2);
                l1 *= scale;
                l2 *= scale;
            }
            ph_vec3 p = glms_vec3_add(glms_vec3_scale(con->t1, l1 - cp->tangent_impulse[0]),
                                      glms_vec3_scale(con->t2, l2 - cp->tangent_impulse[1]));
            cp->tangent_impulse[0] = l1;
            cp->tangent_impulse[1] = l2;
            apply_impulse(sa, sb, cp->ra, cp->rb, p);
        }
    }
}

static void restitution(ph_body_state *states, constraint *cons, int count)
{
    for (int k = 0; k < count; k++)
    {
        constraint *con = &cons[k];
        if (con->restitution == 0.0f)
            continue;
        ph_body_state *sa = &states[con->a], *sb = &states[con->b];
        for (int i = 0; i < con->point_count; i++)
        {
            constraint_point *cp = &con->points[i];
            if (cp->approach > -SOLVER_RESTITUTION_THRESHOLD || cp->max_normal_impulse == 0.0f)
                continue;
            float vn = glms_vec3_dot(relative_velocity(sa, sb, cp->ra, cp->rb), con->normal);
            float impulse = -cp->normal_mass * (vn + con->restitution * cp->approach);
            float total = fmaxf(cp->normal_impulse + impulse, 0.0f);
            impulse = total - cp->normal_impulse;
            cp->normal_impulse = total;
            apply_impulse(sa, sb, cp->ra, cp->rb, glms_vec3_scale(con->normal, impulse));
        }
    }
}

static void store_impulses(ph_world *world, const constraint *cons, int count)
{
    for (int k = 0; k < count; k++)
    {
        const constraint *con = &cons[k];
        ph_contact *c = &world->contacts.items[con->contact];
        for (int i = 0; i < con->point_count; i++)
        {
            c->normal_impulse[i] = con->points[i].normal_impulse;
            c->tangent_impulse[i][0] = con->points[i].tangent_impulse[0];
            c->tangent_impulse[i][1] = con->points[i].tangent_impulse[1];
        }
    }
}

bool ph_solve(ph_step_context *ctx)
{
    ph_world *world = ctx->world;
    ph_body_state *states = world->states;
    unsigned long long t_start = ph_ticks();
    float integrate_ms = 0.0f;

    int max_cons = world->contacts.count;
    constraint *cons = max_cons > 0 ? ph_arena_alloc(ctx->arena, (size_t)max_cons * sizeof *cons) : NULL;
    bool ok = max_cons == 0 || cons != NULL;
    if (!ok)
        ph_log(PH_LOG_ERROR, "The step could not allocate %d contact constraints; contacts are skipped.",
               max_cons);
    float substep_rate = 1.0f / ctx->h;
    float hertz = fminf(world->def.contact_hertz, SOLVER_MAX_HERTZ_FRACTION * substep_rate);
    int count = ok ? prepare(ctx, cons, hertz) : 0;

    for (int i = 0; i < ctx->awake_count; i++)
    {
        int slot = ctx->awake[i];
        ph_body *body = &world->bodies[slot];
        ph_body_state *st = &states[slot];
        body->center0 = body->center;
        body->q0 = body->xf.q;
        st->dp = glms_vec3_zero();
        st->dq = glms_quat_identity();
    }
    float inv_h = 1.0f / ctx->h;
    for (int s = 0; s < ctx->substeps; s++)
    {
        unsigned long long t0 = ph_ticks();
        for (int i = 0; i < ctx->awake_count; i++)
        {
            int slot = ctx->awake[i];
            if (world->bodies[slot].type == PH_BODY_DYNAMIC)
                ph_body_integrate_velocity(&world->bodies[slot], &states[slot], world->def.gravity, ctx->h);
        }
        integrate_ms += ph_ticks_to_ms(ph_ticks() - t0);
        warm_start(states, cons, count);
        solve(states, cons, count, inv_h, true);
        t0 = ph_ticks();
        for (int i = 0; i < ctx->awake_count; i++)
        {
            int slot = ctx->awake[i];
            ph_body_integrate_position(&world->bodies[slot], &states[slot], ctx->h);
        }
        integrate_ms += ph_ticks_to_ms(ph_ticks() - t0);
        solve(states, cons, count, inv_h, false);
    }
    restitution(states, cons, count);
    store_impulses(world, cons, count);

    for (int i = 0; i < ctx->awake_count; i++)
    {
        int slot = ctx->awake[i];
        ph_body *body = &world->bodies[slot];
        ph_body_state *st = &states[slot];
        body->center = glms_vec3_add(body->center0, st->dp);
        body->xf.q = glms_quat_normalize(glms_quat_mul(st->dq, body->q0));
        ph_body_sync_transform(body);
        body->force = glms_vec3_zero();
        body->torque = glms_vec3_zero();
    }
    if (cons)
        ph_arena_free(ctx->arena, cons);
    float total_ms = ph_ticks_to_ms(ph_ticks() - t_start);
    ctx->stats->ms_stage[PH_STAGE_INTEGRATE] += integrate_ms;
    ctx->stats->ms_stage[PH_STAGE_SOLVER] += total_ms - integrate_ms;
    return ok;
}
