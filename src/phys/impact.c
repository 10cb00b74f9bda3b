// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Impacts of two bodies (impact.h).
//
// The response of one impact (ph_impact_respond) is the calendar's: compression, Poisson's restitution and
// friction, each of which can only take kinetic energy away. Newton's law (a target of -e v_n at every
// point, solved together with friction) is what most solvers use, but for spinning bodies and several
// points it can add energy (Kane's paradox; Stronge, "Impact Mechanics", ch. 4).
//
// The sequence (ph_impacts_sequence) is for what the solver cannot do: a Newton's cradle. The solver takes
// every contact of a step together, so a ball striking a row of touching balls at e = 1 pushes the whole
// row at once, and restitution then shares the push among the contacts: the row left at (-0.63, 0.11, 0.84,
// 0.84, 0.84) m/s where a cradle sends the last ball off at the striker's 2 m/s and stops the others. The
// impulse of a real cradle runs through the row as a wave, one contact after the other, because each
// collision of steel balls is over before the next ball has moved (Hertzian contacts; the classic model is
// the sequence of two-body impacts, as in Guendelman, Bridson and Fedkiw 2003, whose collision pass comes
// before the contact pass). So before the solver, the contacts of bouncing bodies (restitution > 0) that
// close within the step faster than the solver's restitution threshold are taken as two-body impacts, in
// the contacts' order, and so is then every contact of a body one of them moved, sweep after sweep until
// nothing closes. Each impact only takes energy away, so the sequence does too. The solver then finds the
// pairs separating and leaves them be.
//
// Only impacts between two moving bodies start a sequence: a body bouncing on the ground alone keeps the
// solver's restitution, which lands it on the ground before it leaves (the impacts here happen at the step's
// start, up to the step's closing distance early: a ball 1 cm short of the next one stops there). A moving
// body driven into the ground by a sequence bounces off it within the sequence.
#include "impact.h"

#include "arena.h"
#include "body.h"
#include "contact.h"
#include "solver_internal.h" // SOLVER_RESTITUTION_THRESHOLD
#include "world.h"

#include <string.h> // memset

// Sequential-impulse passes over the manifold of one impact.
#define IMPACT_ITERATIONS 8
// Sweeps of the sequence over the step's bouncing contacts, at most: a row of n touching bodies needs one
// sweep in the contacts' order, n against it. What is left approaching then is the solver's.
#define IMPACT_SWEEPS 64

// One row of an impact: a point and a direction with its arms and effective mass.
typedef struct impact_row
{
    ph_vec3 ra_x_d, rb_x_d;   // (p - c_a) x d, (p - c_b) x d
    ph_vec3 ira_x_d, irb_x_d; // I_a^-1 (p - c_a) x d, I_b^-1 (p - c_b) x d
    ph_vec3 d;
    float mass;
} impact_row;

static impact_row make_row(const ph_impact_body *ra, const ph_impact_body *rb, ph_vec3 p, ph_vec3 d)
{
    impact_row r;
    r.d = d;
    r.ra_x_d = glms_vec3_cross(glms_vec3_sub(p, ra->c), d);
    r.rb_x_d = glms_vec3_cross(glms_vec3_sub(p, rb->c), d);
    r.ira_x_d = glms_mat3_mulv(ra->inv_inertia, r.ra_x_d);
    r.irb_x_d = glms_mat3_mulv(rb->inv_inertia, r.rb_x_d);
    float k =
        ra->inv_mass + rb->inv_mass + glms_vec3_dot(r.ra_x_d, r.ira_x_d) + glms_vec3_dot(r.rb_x_d, r.irb_x_d);
    r.mass = k > 0.0f ? 1.0f / k : 0.0f;
    return r;
}

// Relative velocity of B against A at the row's point along its direction.
static float row_velocity(const impact_row *r, const ph_body_state *sa, const ph_body_state *sb)
{
    return glms_vec3_dot(sb->v, r->d) - glms_vec3_dot(sa->v, r->d) + glms_vec3_dot(sb->w, r->rb_x_d) -
           glms_vec3_dot(sa->w, r->ra_x_d);
}

static void apply_row(const impact_row *r, const ph_impact_body *ra, const ph_impact_body *rb,
                      ph_body_state *sa, ph_body_state *sb, float impulse)
{
    if (ra->dynamic)
    {
        sa->v = glms_vec3_sub(sa->v, glms_vec3_scale(r->d, impulse * ra->inv_mass));
        sa->w = glms_vec3_sub(sa->w, glms_vec3_scale(r->ira_x_d, impulse));
    }
    if (rb->dynamic)
    {
        sb->v = glms_vec3_add(sb->v, glms_vec3_scale(r->d, impulse * rb->inv_mass));
        sb->w = glms_vec3_add(sb->w, glms_vec3_scale(r->irb_x_d, impulse));
    }
}

// The three stages:
//   1. compression: sequential impulses drive every point's normal velocity to zero (accumulated impulses
//      clamped >= 0), the perfectly inelastic impulse P_c;
//   2. restitution (Poisson's hypothesis): each point whose approach was faster than the threshold gets
//      e P_c more. With complementarity (P_c > 0 only where the normal velocity became 0) the energy after
//      is T_c + e^2 (T_0 - T_c) <= T_0: e = 1 keeps it, e < 1 loses some;
//   3. friction: sequential impulses drive the tangential velocity towards zero inside the Coulomb cone
//      |P_t| <= mu (1 + e) P_c; every such update moves a row's velocity towards zero, so it is dissipative.
static float respond(const ph_impact_body *ra, const ph_impact_body *rb, ph_body_state *sa, ph_body_state *sb,
                     const ph_manifold *m, float e, float mu, float threshold, float *out_impulse)
{
    ph_vec3 t1, t2;
    ph_contact_tangents(m->normal, &t1, &t2);
    impact_row rn[PH_MAX_MANIFOLD_POINTS], rt[PH_MAX_MANIFOLD_POINTS][2];
    float bounce[PH_MAX_MANIFOLD_POINTS], pn[PH_MAX_MANIFOLD_POINTS] = {0};
    float pt[PH_MAX_MANIFOLD_POINTS][2] = {{0}};
    for (int i = 0; i < m->point_count; i++)
    {
        ph_vec3 p = m->points[i].point;
        rn[i] = make_row(ra, rb, p, m->normal);
        rt[i][0] = make_row(ra, rb, p, t1);
        rt[i][1] = make_row(ra, rb, p, t2);
        bounce[i] = row_velocity(&rn[i], sa, sb) < -threshold ? e : 0.0f;
    }
    for (int it = 0; it < IMPACT_ITERATIONS; it++)
    {
        for (int i = 0; i < m->point_count; i++)
        {
            float total = fmaxf(pn[i] - rn[i].mass * row_velocity(&rn[i], sa, sb), 0.0f);
            apply_row(&rn[i], ra, rb, sa, sb, total - pn[i]);
            pn[i] = total;
        }
    }
    float normal = 0.0f;
    for (int i = 0; i < m->point_count; i++)
    {
        apply_row(&rn[i], ra, rb, sa, sb, bounce[i] * pn[i]);
        pn[i] *= 1.0f + bounce[i];
        normal += pn[i];
        if (out_impulse)
            out_impulse[i] += pn[i];
    }
    for (int it = 0; it < IMPACT_ITERATIONS && mu > 0.0f; it++)
    {
        for (int i = 0; i < m->point_count; i++)
        {
            float l1 = pt[i][0] - rt[i][0].mass * row_velocity(&rt[i][0], sa, sb);
            float l2 = pt[i][1] - rt[i][1].mass * row_velocity(&rt[i][1], sa, sb);
            float limit = mu * pn[i], len2 = l1 * l1 + l2 * l2;
            if (len2 > limit * limit)
            {
                float s = limit / sqrtf(len2);
                l1 *= s;
                l2 *= s;
            }
            apply_row(&rt[i][0], ra, rb, sa, sb, l1 - pt[i][0]);
            apply_row(&rt[i][1], ra, rb, sa, sb, l2 - pt[i][1]);
            pt[i][0] = l1;
            pt[i][1] = l2;
        }
    }
    return normal;
}

float ph_impact_respond(const ph_impact_body *ra, const ph_impact_body *rb, ph_body_state *sa,
                        ph_body_state *sb, const ph_manifold *m, float e, float mu, float threshold)
{
    return respond(ra, rb, sa, sb, m, e, mu, threshold, NULL);
}

ph_impact_body ph_impact_body_at(const ph_body *b, ph_vec3 c, ph_quat q)
{
    ph_impact_body r;
    r.c = c;
    r.dynamic = b->type == PH_BODY_DYNAMIC && b->awake;
    r.inv_mass = r.dynamic ? b->inv_mass : 0.0f;
    r.inv_inertia = r.dynamic ? ph_body_world_inv_inertia(b, q) : glms_mat3_zero();
    return r;
}

// Whether contact c has a point that closes within the step (its gap at the relative normal velocity
// there) faster than the restitution threshold: the solver's own test of a speculative point, along the
// normal it would use. Any gap the step closes counts: limited to points within the world's speculative
// margin, a struck cradle's first impact (3 cm away at 3 m/s) went back to the solver, which pushed the whole
// row.
static bool closes(const ph_world *world, const ph_contact *c, float dt)
{
    const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
    const ph_body_state *sa = &world->states[c->a], *sb = &world->states[c->b];
    ph_vec3 n = c->manifold.normal;
    for (int i = 0; i < c->manifold.point_count; i++)
    {
        const ph_manifold_point *p = &c->manifold.points[i];
        ph_vec3 va = glms_vec3_add(sa->v, glms_vec3_cross(sa->w, glms_vec3_sub(p->point, ba->center)));
        ph_vec3 vb = glms_vec3_add(sb->v, glms_vec3_cross(sb->w, glms_vec3_sub(p->point, bb->center)));
        float vn = glms_vec3_dot(glms_vec3_sub(vb, va), n);
        if (vn < -SOLVER_RESTITUTION_THRESHOLD && p->separation + vn * dt < 0.0f)
            return true;
    }
    return false;
}

// The impact's angular impulse as a change of angular momentum (ph_body_angular_velocity_struck): the state's
// angular velocity is the one that carried the body through its last sub-step, not I^-1 of its momentum now,
// and the two differ by h/2 w x I w (a plank-like hull set spinning at 4 rad/s by a cube at e = 1, its
// impulse added to the carrying velocity, changed the pair's angular momentum by 0.1% at 5 sub-steps). w0:
// its carrying velocity before impact r changed it.
static void keep_momentum(ph_world *world, int slot, const ph_impact_body *r, ph_vec3 w0)
{
    const ph_body *b = &world->bodies[slot];
    ph_body_state *st = &world->states[slot];
    if (r->dynamic)
        st->w = ph_body_angular_velocity_struck(b, b->xf.q, &r->inv_inertia, w0, st->w, world->last_h, true);
}

static bool moving_dynamic(const ph_world *world, int slot)
{
    return world->bodies[slot].type == PH_BODY_DYNAMIC && world->active[slot];
}

int ph_impacts_sequence(ph_step_context *ctx)
{
    ph_world *world = ctx->world;
    ph_contact_set *set = &world->contacts;
    if (set->bouncy_count == 0)
        return 0;
    // The bouncing contacts with points whose dynamic bodies are all awake (a sleeping body is the solver's
    // to wake and hold).
    ph_impact_record *record = ph_arena_alloc(ctx->arena, sizeof *record * (size_t)set->bouncy_count);
    uint8_t *moved = ph_arena_alloc(ctx->arena, (size_t)world->body_ids.slot_count + 1);
    if (!record || !moved)
    {
        ph_arena_free(ctx->arena, moved);
        ph_arena_free(ctx->arena, record);
        return 0; // out of memory: the solver alone takes the step's impacts, as before this pass
    }
    int n = 0;
    for (int k = 0; k < set->count; k++)
    {
        const ph_contact_brief *c = &set->briefs[k];
        if (!c->bouncy || c->point_count == 0)
            continue;
        const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
        bool asleep =
            (ba->type == PH_BODY_DYNAMIC && !ba->awake) || (bb->type == PH_BODY_DYNAMIC && !bb->awake);
        if (!asleep && (moving_dynamic(world, c->a) || moving_dynamic(world, c->b)) && n < set->bouncy_count)
            record[n++] = (ph_impact_record){.contact = k};
    }
    memset(moved, 0, (size_t)world->body_ids.slot_count + 1);
    int impacts = 0;
    for (int sweep = 0; sweep < IMPACT_SWEEPS && n > 0; sweep++)
    {
        bool any = false;
        for (int i = 0; i < n; i++)
        {
            const ph_contact *c = &set->items[record[i].contact];
            bool pair = moving_dynamic(world, c->a) && moving_dynamic(world, c->b);
            if (!(pair || moved[c->a] || moved[c->b]) || !closes(world, c, ctx->dt))
                continue;
            const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
            ph_impact_body ra = ph_impact_body_at(ba, ba->center, ba->xf.q);
            ph_impact_body rb = ph_impact_body_at(bb, bb->center, bb->xf.q);
            ph_vec3 wa = world->states[c->a].w, wb = world->states[c->b].w;
            respond(&ra, &rb, &world->states[c->a], &world->states[c->b], &c->manifold, c->restitution,
                    c->friction, SOLVER_RESTITUTION_THRESHOLD, record[i].impulse);
            keep_momentum(world, c->a, &ra, wa);
            keep_momentum(world, c->b, &rb, wb);
            moved[c->a] |= ra.dynamic; // a static body's other contacts are not moved by this
            moved[c->b] |= rb.dynamic;
            any = true;
            impacts++;
        }
        if (!any)
            break;
    }
    ph_arena_free(ctx->arena, moved);
    if (impacts == 0)
    {
        ph_arena_free(ctx->arena, record);
        return 0;
    }
    ctx->impacts = record;
    ctx->impact_count = n;
    ctx->stats->sequenced_impacts = impacts;
    return impacts;
}

void ph_impacts_report(ph_step_context *ctx)
{
    if (!ctx->impacts)
        return;
    ph_contact_set *set = &ctx->world->contacts;
    for (int i = 0; i < ctx->impact_count; i++)
    {
        ph_contact *c = &set->items[ctx->impacts[i].contact];
        for (int p = 0; p < c->manifold.point_count; p++)
            c->total_impulse[p] += ctx->impacts[i].impulse[p];
    }
    ph_arena_free(ctx->arena, ctx->impacts);
    ctx->impacts = NULL;
    ctx->impact_count = 0;
}
