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
//     closed, only above SOLVER_RESTITUTION_THRESHOLD (1 m/s) so resting contacts do not jitter; the target
//     velocity -e * v_approach with the impulse clamped >= 0 never adds energy for e <= 1.
// Accumulated impulses are clamped (normal >= 0; friction inside the Coulomb cone |f_t| <= mu f_n) and
// warm-started from the previous step (normal impulses matched through feature ids in contact.c). Friction
// acts at the manifold's centre with a twist row about the normal (solve_constraint says why), as in Box3D
// and Jolt; its twist is bounded by the patch's mean radius under a uniform pressure (the analytic answer
// for a spinning box), where Box3D takes the points' distances. Rows keep the anchors of the step's start
// (refresh_rows), and round shapes' anchors leave out their radius (constraint_point).
// Defaults (types_internal.h): 5 sub-steps, contacts at 45 Hz (static ones twice that, both capped at a
// quarter of the sub-step rate, 75 Hz). Measured on the recipes: 4 sub-steps at 30 Hz let a 10-box tower
// rock by 3 cm (the soft contacts sag g / w^2 per box weight and a tall stack's rocking mode is barely
// damped). Too stiff a spring for the sub-step is worse: between bodies that both move, past about
// w h = 1.1 (w = 2 pi hertz) the Gauss-Seidel sweep feeds energy into a slow mode. pyramid20 (a wall one
// box thick) then rocks out of its plane with growing amplitude: at 60 Hz (w h = 1.26) it stayed calm
// only when the contacts were solved bottom row first, and in most other orders reached 40 J; at 55 Hz it
// grew slowly; at 50 and 45 Hz it settled in every order tried. 45 Hz keeps a margin. Contacts with a
// static body (one moving body, no such coupling) stay calm up to the 0.25 cap (w h = 1.57).
// Tall columns and stacks take more (plan_substeps below): soft contacts make a column of blocks a chain of
// springs and a wall an elastic plate, and past a height that depends on the contact frequency either
// buckles under its own weight.
// Data layout: the body states are one array of 128-byte structs whose first 64 bytes (velocities, inverse
// mass, motion so far), one cache line, are all the sweeps touch. On a wide path (ph_simd_path: AVX2, SSE2,
// Neon), the constraints live only in groups of 8 lanes (solver_wide.c), prepared there straight from the
// contacts, each row with its angular terms kept beside a small scene's groups and worked out from the
// anchors in a big one's; the flat scalar array holds the few constraints the colours could not take, or all
// of them on the scalar path. The groups keep each point's separation between the sweeps that see the same
// positions, and the sub-step's position update of constrained bodies runs 4 or 8 at a time there too, bit
// for bit as the scalar loop.
// Workers (task.h): every per-body loop, the preparation of the groups and each colour of every sweep are
// split among them; a colour's groups share no moving body, so the colours' sweeps, one after another, give
// the bits of one sweep over all the groups. The scalar path and the constraints the colours could not take
// stay on the stepping thread, in their order: the scalar sweep's order is the contacts', and splitting it
// would change the results.
#include "solver.h"

#include "core.h"
#include "solver_internal.h"
#include "world.h"

#include <stdatomic.h> // the sweeps' and integration's flags set by any worker
#include <stdlib.h>    // qsort
#include <string.h>    // memset

// The smallest ranges the workers take (task.h): a colour's groups, bodies, constraints. A range costs a
// claim and a cache line or two passed between cores; these hold a few microseconds of work each, and a
// colour or a list smaller than that runs on the stepping thread alone.
#define SOLVER_MIN_GROUPS 4
#define SOLVER_MIN_BODIES 256
#define SOLVER_MIN_CONSTRAINTS 32
// Sweeps of the restitution pass, the first SOLVER_COMPRESSION_PASSES of them only stopping approaches.
#define SOLVER_RESTITUTION_PASSES 20
#define SOLVER_COMPRESSION_PASSES 4
// Damping ratio of the soft contact spring (heavily over-damped: no oscillation).
#define SOLVER_CONTACT_DAMPING_RATIO 10.0f
// The spring may not be stiffer than a quarter of the sub-step rate, or the integration goes unstable.
#define SOLVER_MAX_HERTZ_FRACTION 0.25f
// Contacts against static bodies are twice as stiff (the static side cannot share the correction).
#define SOLVER_STATIC_HERTZ_SCALE 2.0f
// Columns (plan_substeps): a contact whose normal is within this cosine of the vertical supports the body
// above it (45 degrees).
#define SOLVER_SUPPORT_COS 0.7071f
// Contact frequency at which a column of n unit cubes, each standing on one cube, buckles under its own
// weight, divided by n^1.5 (unit: Hz). From the eigenvalues of the chain of blocks on rotational springs
// of stiffness m_eff w^2 sum(r^2) per joint under gravity: 15 Hz at n = 10, 44 Hz at 20, 126 Hz at 40, all
// within 2% of 0.5 n^1.5; the simulated columns start to lean at the same frequencies. For blocks of
// another height a the frequency scales as 1 / sqrt(a) (the chain's equations are scale-free in g / a).
#define SOLVER_COLUMN_HERTZ 0.5f
// The frequency the step asks for, as a multiple of the buckling frequency.
#define SOLVER_COLUMN_MARGIN 2.0f
// Contact frequency at which a wall one unit cube thick, stacked n cubes high, buckles out of its plane under
// its own weight, divided by n^1.5 (unit: Hz). Soft contacts give a wall a finite bending stiffness (each
// interface a rotational spring of about m_eff w^2 r^2), and an elastic wall under its own weight buckles
// past a height that grows as stiffness^(1/3) (Greenhill), so the frequency it needs grows as n^1.5, as a
// column's does, but far more slowly: the load is shared by a whole row, and a pyramid's tapers. Measured
// on pyramids one cube thick (large_pyramid's layout), each at a sub-step with w h near 0.95, for 2400
// steps: 50 rows lean and fall at 60 Hz and stand at 75 Hz; 100 rows lean at 150 Hz and stand at 220 Hz.
// So 0.19 n^1.5 (67 Hz at 50 rows, 190 at 100). The wall's equations depend on g / (a w^2) alone, so for
// blocks of height a under gravity g the frequency scales as sqrt(g / a).
#define SOLVER_STACK_HERTZ 0.19f
#define SOLVER_STANDARD_GRAVITY 9.81f // (unit: m/s^2) the gravity SOLVER_STACK_HERTZ was measured under
#define SOLVER_STACK_MARGIN 1.3f
// Between two moving bodies the spring must stay below w h = 1 (see the top of this file: past about 1.1 the
// sweep feeds energy into a wall's rocking), so a tall stack's sub-step is h = 1 / (2 pi 0.16 ... hertz).
#define SOLVER_STACK_HERTZ_FRACTION 0.16f
// How far a loaded face contact between unlike masses may sink, as a fraction of the contact patch's mean
// radius (0.38 m for the face of a 1 m cube: 3 mm): a 100 kg box on a 1 kg box asks 90 Hz (19 sub-steps),
// on 1000 times its mass 286 Hz (capped at 32 sub-steps: 154 Hz) (sag_need, plan_substeps), at w h below
// 1/2 (SOLVER_SAG_HERTZ_FRACTION: see there). Measured over 30 s (laws_mass_ratio_stack): the 100 kg box
// 3.8 mm low and 0.01 mm off where it was after the first second (12.5 mm and 2.1 cm before), the 1000 kg
// box 13 mm low and 0.4 mm off (167 mm, 2.5 cm).
#define SOLVER_SAG_FRACTION 0.008f
#define SOLVER_SAG_HERTZ_FRACTION 0.08f
#define SOLVER_SAG_MIN_RATIO 4.0f // (see sag_need)
// (unit: s) the time over which a contact's force is averaged before it asks for stiffness (sag_need).
#define SOLVER_SAG_STEADY_TIME 0.5f
#define SOLVER_SAG_QUICK_WEIGHTS 2.0f // (see sag_need)
// A body turning faster than this angle per step has its world inverse inertia, and the rows of its
// contacts, rebuilt every sub-step (unit: rad). An impulse applied through the inertia of an orientation
// the body has left is not energy-consistent (the angular velocity it gives is not the one its momentum
// asks for); below this angle the error is second order and too small to matter, so resting and slowly
// turning bodies keep the cheaper step-start values.
#define SOLVER_INERTIA_REFRESH_ANGLE 0.02f
// Below this turn per half sub-step (h/2 (|w| + |dw|), unit: rad) a sweep's angular impulses are taken as the
// rows' linear map gives them (keep_row_momentum): their error is of that order relative to the impulse
// (0.1%; under 0.6 rad/s at 5 sub-steps: a settling pile's bodies, which at 1e-4 cost a hull pile's solver a
// third more).
#define SOLVER_STRUCK_TURN 1e-3f
// The same for a body touching one that does not move (static, kinematic, asleep), whose momentum is not the
// pair's to keep (unit: rad; 12 rad/s at 5 sub-steps): corrected, the bodies of a heap of hulls rocking on
// the ground settled otherwise than the rows had them, and 2 of 20 heaps of 200 hulls never fell asleep
// (none at this bound); a bar spinning at 200 rad/s against a post still needs it (the rows' map added 17% to
// the energy of such bars).
#define SOLVER_STRUCK_TURN_HELD 2e-2f

static softness make_soft(float hertz, float zeta, float h)
{
    return ph_make_soft(hertz, zeta, h);
}

static inline float maxf(float a, float b)
{
    return a > b ? a : b;
}

static inline float dot3(ph_vec3 a, ph_vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline ph_vec3 cross3(ph_vec3 a, ph_vec3 b)
{
    return ph_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static inline ph_vec3 madd(ph_vec3 a, ph_vec3 b, float s)
{
    return ph_v3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s);
}

// q * v for a unit quaternion: v + 2 w (u x v) + 2 u x (u x v), u the vector part.
static inline ph_vec3 rotate(ph_quat q, ph_vec3 v)
{
    ph_vec3 u = ph_v3(q.x, q.y, q.z);
    ph_vec3 t = cross3(u, v);
    t = ph_v3(2.0f * t.x, 2.0f * t.y, 2.0f * t.z);
    return madd(madd(v, t, q.w), cross3(u, t), 1.0f);
}

// The Jacobian and effective mass of a row; the accumulated impulse is left as it is.
static void set_row(row *r, const ph_body_state *sa, const ph_body_state *sb, ph_vec3 ra, ph_vec3 rb,
                    ph_vec3 d)
{
    r->rda = cross3(ra, d);
    r->rdb = cross3(rb, d);
    r->irda = glms_mat3_mulv(sa->inv_inertia, r->rda);
    r->irdb = glms_mat3_mulv(sb->inv_inertia, r->rdb);
    float k = sa->inv_mass + sb->inv_mass + dot3(r->rda, r->irda) + dot3(r->rdb, r->irdb);
    r->mass = k > 0.0f ? 1.0f / k : 0.0f;
}

static void make_row(row *r, const ph_body_state *sa, const ph_body_state *sb, ph_vec3 ra, ph_vec3 rb,
                     ph_vec3 d, float impulse)
{
    set_row(r, sa, sb, ra, rb, d);
    r->impulse = impulse;
}

// The twist row of a manifold with normal n; the accumulated impulse is left as it is.
static void set_twist(twist_row *t, const ph_body_state *sa, const ph_body_state *sb, ph_vec3 n)
{
    t->ian = glms_mat3_mulv(sa->inv_inertia, n);
    t->ibn = glms_mat3_mulv(sb->inv_inertia, n);
    float k = dot3(n, t->ian) + dot3(n, t->ibn);
    t->mass = k > 0.0f ? 1.0f / k : 0.0f;
}

// The velocities of a constraint's two bodies, copied into locals while its rows are solved and written
// back once: through the state pointers every row's update would be stored and reloaded (the compiler
// must assume the two states may alias), which cost more than the arithmetic.
typedef struct pair_velocity
{
    ph_vec3 va, wa, vb, wb;
    float inv_mass_a, inv_mass_b;
} pair_velocity;

static inline pair_velocity load_pair(const ph_body_state *sa, const ph_body_state *sb)
{
    return (pair_velocity){sa->v, sa->w, sb->v, sb->w, sa->inv_mass, sb->inv_mass};
}

static inline void store_pair(const pair_velocity *p, ph_body_state *sa, ph_body_state *sb)
{
    sa->v = p->va;
    sa->w = p->wa;
    sb->v = p->vb;
    sb->w = p->wb;
}

// Relative velocity of B against A along a row's direction d.
static inline float row_speed(const row *r, const pair_velocity *p, ph_vec3 d)
{
    return dot3(p->vb, d) - dot3(p->va, d) + dot3(p->wb, r->rdb) - dot3(p->wa, r->rda);
}

static inline void row_apply(const row *r, pair_velocity *p, ph_vec3 d, float impulse)
{
    p->va = madd(p->va, d, -impulse * p->inv_mass_a);
    p->wa = madd(p->wa, r->irda, -impulse);
    p->vb = madd(p->vb, d, impulse * p->inv_mass_b);
    p->wb = madd(p->wb, r->irdb, impulse);
}

// The relative angular velocity of B against A about the normal, and a twist impulse applied.
static inline float twist_speed(const pair_velocity *p, ph_vec3 n)
{
    return dot3(p->wb, n) - dot3(p->wa, n);
}

static inline void twist_apply(const twist_row *t, pair_velocity *p, float impulse)
{
    p->wa = madd(p->wa, t->ian, -impulse);
    p->wb = madd(p->wb, t->ibn, impulse);
}

// The contacts the step solves: touching or speculative, with at least one awake dynamic body. Returns how
// many heads it wrote.
static int select_constraints(const ph_world *world, constraint_head *heads)
{
    int n = 0;
    for (int k = 0; k < world->contacts.count; k++)
    {
        const ph_contact_brief *c = &world->contacts.briefs[k];
        if (c->point_count == 0)
            continue;
        if (world->states[c->a].inv_mass == 0.0f && world->states[c->b].inv_mass == 0.0f)
            continue;
        if (!world->active[c->a] && !world->active[c->b]) // awake non-static: bodies[].awake, 1 byte a body
            continue;
        heads[n++] = (constraint_head){c->a, c->b, k, c->point_count, c->round};
    }
    return n;
}

// What preparing a constraint needs from the step besides its contact.
typedef struct prepare_params
{
    softness soft, static_soft;
    float impulse_scale; // stored impulses are per sub-step: this sub-step's length over the last one's
} prepare_params;

static prepare_params prepare_params_of(const ph_step_context *ctx, float contact_hertz)
{
    const ph_world *world = ctx->world;
    // Static contacts are stiffer but obey the same cap: past a quarter of the sub-step rate they jitter.
    float static_hertz = fminf(SOLVER_STATIC_HERTZ_SCALE * contact_hertz, SOLVER_MAX_HERTZ_FRACTION / ctx->h);
    return (prepare_params){make_soft(contact_hertz, SOLVER_CONTACT_DAMPING_RATIO, ctx->h),
                            make_soft(static_hertz, SOLVER_CONTACT_DAMPING_RATIO, ctx->h),
                            world->last_h > 0.0f ? ctx->h / world->last_h : 1.0f};
}

// The softness and the relative normal acceleration from gravity of a contact (b against a).
static softness contact_softness(const ph_world *world, const prepare_params *params, const ph_contact *c)
{
    const ph_body_state *sa = &world->states[c->a], *sb = &world->states[c->b];
    return (sa->inv_mass == 0.0f || sb->inv_mass == 0.0f) ? params->static_soft : params->soft;
}

static float contact_accel(const ph_world *world, const ph_contact *c)
{
    const ph_body_state *sa = &world->states[c->a], *sb = &world->states[c->b];
    const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
    float ga = sa->inv_mass > 0.0f && ba->type == PH_BODY_DYNAMIC ? ba->gravity_scale : 0.0f;
    float gb = sb->inv_mass > 0.0f && bb->type == PH_BODY_DYNAMIC ? bb->gravity_scale : 0.0f;
    return (gb - ga) * dot3(world->def.gravity, c->manifold.normal);
}

// The share of the bodies' relative motion a contact point takes with body a (rearm): a round body's contact
// point stays under its centre; between two round bodies or two others, half.
static float follow_share(float radius_a, float radius_b)
{
    return (radius_a > 0.0f) == (radius_b > 0.0f) ? 0.5f : radius_a > 0.0f ? 1.0f : 0.0f;
}

// Builds the constraint of contact `k` (a selected one) into `con`. ph_wide_prepare (solver_wide_kernels.h)
// does the same for a group's lanes: a change here is a change there.
static void prepare(const ph_world *world, const prepare_params *params, int k, constraint *con)
{
    const ph_contact *c = &world->contacts.items[k];
    const ph_body_state *sa = &world->states[c->a], *sb = &world->states[c->b];
    con->a = c->a;
    con->b = c->b;
    con->contact = k;
    con->normal = c->manifold.normal;
    ph_contact_tangents(con->normal, &con->t1, &con->t2);
    con->friction = c->friction;
    con->restitution = c->restitution;
    con->soft = contact_softness(world, params, c);
    con->accel_n = contact_accel(world, c);
    con->point_count = c->manifold.point_count;
    con->passes = 1;
    ph_vec3 ca = world->bodies[c->a].center, cb = world->bodies[c->b].center;
    pair_velocity pv = load_pair(sa, sb);
    float scale = params->impulse_scale;
    ph_vec3 centre = glms_vec3_zero();
    for (int i = 0; i < con->point_count; i++)
        centre = glms_vec3_add(centre, c->manifold.points[i].point);
    centre = glms_vec3_scale(centre, 1.0f / (float)con->point_count);
    con->fa = glms_vec3_sub(centre, ca);
    con->fb = glms_vec3_sub(centre, cb);
    con->twist_radius = c->patch_radius;
    con->armed = glms_vec3_zero();
    con->fa0 = con->fa;
    con->fb0 = con->fb;
    con->turn_a = c->turn_a;
    con->turn_b = c->turn_b;
    float reach = SOLVER_REARM_FRACTION * sqrtf(dot3(con->fa, con->fa) + dot3(con->fb, con->fb));
    bool moving_a = sa->inv_mass > 0.0f, moving_b = sb->inv_mass > 0.0f;
    bool turns = (con->turn_a && moving_a) || (con->turn_b && moving_b);
    con->rearm_limit2 = (moving_a && moving_b) || turns ? reach * reach : INFINITY;
    con->follow_a = follow_share(c->radius_a, c->radius_b);
    make_row(&con->f1, sa, sb, con->fa, con->fb, con->t1, scale * c->friction_impulse[0]);
    make_row(&con->f2, sa, sb, con->fa, con->fb, con->t2, scale * c->friction_impulse[1]);
    set_twist(&con->twist, sa, sb, con->normal);
    con->twist.impulse = scale * c->twist_impulse;
    for (int i = 0; i < con->point_count; i++)
    {
        const ph_manifold_point *mp = &c->manifold.points[i];
        constraint_point *cp = &con->points[i];
        cp->ra = madd(glms_vec3_sub(mp->point, ca), con->normal, -c->radius_a);
        cp->rb = madd(glms_vec3_sub(mp->point, cb), con->normal, c->radius_b);
        cp->base_separation = mp->separation - dot3(glms_vec3_sub(cp->rb, cp->ra), con->normal);
        cp->ra0 = cp->ra;
        cp->rb0 = cp->rb;
        cp->shift = glms_vec3_zero();
        cp->max_normal_impulse = 0.0f;
        cp->total_impulse = 0.0f;
        cp->bounce_impulse = 0.0f;
        cp->end_separation = mp->separation;
        make_row(&cp->n, sa, sb, cp->ra, cp->rb, con->normal, scale * c->normal_impulse[i]);
        cp->approach = row_speed(&cp->n, &pv, con->normal);
        if (con->point_count > 1 && cp->approach < -SOLVER_IMPACT_SPEED)
            con->passes = SOLVER_NORMAL_PASSES;
        cp->approach_gap = fmaxf(mp->separation, 0.0f);
    }
}

static void put_lane3(float dst[3][WIDE], int lane, ph_vec3 v)
{
    dst[0][lane] = v.x;
    dst[1][lane] = v.y;
    dst[2][lane] = v.z;
}

// What ph_wide_prepare needs of a group's contacts, transposed.
static void gather_group(const ph_world *world, const prepare_params *params, const wide_group *g,
                         wide_input *in)
{
    // A full group whose lanes all have the group's points writes every field ph_wide_prepare reads (it
    // reads no point past the group's count): only other groups need the zeros (most of a big scene's
    // groups are full, and clearing the 1.4 KB was a tenth of this loop).
    bool full = g->lanes == WIDE;
    for (int lane = 0; full && lane < WIDE; lane++)
        full = g->point_counts[lane] == g->point_count;
    if (!full)
        memset(in, 0, sizeof *in);
    for (int lane = 0; lane < g->lanes; lane++)
    {
        const ph_contact *c = &world->contacts.items[g->contact[lane]];
        put_lane3(in->normal, lane, c->manifold.normal);
        in->friction[lane] = c->friction;
        in->restitution[lane] = c->restitution;
        in->accel_n[lane] = contact_accel(world, c);
        softness soft = contact_softness(world, params, c);
        in->bias_rate[lane] = soft.bias_rate;
        in->mass_scale[lane] = soft.mass_scale;
        in->impulse_scale[lane] = soft.impulse_scale;
        put_lane3(in->ca, lane, world->bodies[c->a].center);
        put_lane3(in->cb, lane, world->bodies[c->b].center);
        in->radius_a[lane] = c->radius_a;
        in->radius_b[lane] = c->radius_b;
        in->friction_impulse[0][lane] = c->friction_impulse[0];
        in->friction_impulse[1][lane] = c->friction_impulse[1];
        in->twist_impulse[lane] = c->twist_impulse;
        in->twist_radius[lane] = c->patch_radius;
        for (int i = 0; i < c->manifold.point_count; i++)
        {
            put_lane3(in->point[i], lane, c->manifold.points[i].point);
            in->separation[i][lane] = c->manifold.points[i].separation;
            in->impulse[i][lane] = c->normal_impulse[i];
        }
    }
}

// The step's constraints: in the wide groups' lanes where there is a wide solver, else (and for the ones
// its colours could not take) in the scalar array `cons`, in the order of wide->scalar.
typedef struct constraint_set
{
    const constraint_head *heads;
    wide_solver *wide; // NULL: every constraint is scalar, cons[k] for heads[k]
    constraint *cons;
    int scalar_count;
} constraint_set;

// Bodies ahead whose first cache lines the loops over the awake bodies ask for (prefetch_body).
#define SOLVER_BODY_AHEAD 8

// Asks for the first `lines` cache lines of a body. The loops over the awake bodies at the start and the end
// of ph_solve read 200 of its 432 bytes, and the hardware prefetchers did not keep up with a stride of 432
// bytes (pile10k: the first reads of each body were a quarter of ph_solve's own time).
static void prefetch_body(const ph_body *body, int lines)
{
    for (int k = 0; k < lines; k++)
        PH_PREFETCH((const char *)body + 64 * k);
}

// Groups ahead whose contacts and bodies prepare_all asks the caches for (PH_PREFETCH): enough for the
// requests to arrive before the group is gathered, few enough that they are not evicted first.
#define SOLVER_GATHER_AHEAD 4

// Asks for the cache lines of a contact that hold its impulses (read by the gather, written by
// store_impulses).
static void prefetch_impulses(const ph_contact *c)
{
    PH_PREFETCH(&c->normal_impulse[0]);
    PH_PREFETCH(&c->friction_impulse[0]);
}

// Asks for the cache lines gather_group reads of group g's contacts and bodies. The groups list contacts by
// colour, in no order the hardware prefetchers can follow: in pile10k each lane's contact (4 lines of 8) and
// bodies missed the caches, and the gather waited for them one after another.
static void prefetch_group(const ph_world *world, const wide_group *g)
{
    for (int lane = 0; lane < g->lanes; lane++)
    {
        const ph_contact *c = &world->contacts.items[g->contact[lane]];
        PH_PREFETCH(c);
        PH_PREFETCH(&c->manifold);
        PH_PREFETCH(&c->manifold.points[PH_MAX_MANIFOLD_POINTS - 1]);
        prefetch_impulses(c);
        const ph_contact_brief *b = &world->contacts.briefs[g->contact[lane]];
        PH_PREFETCH(&world->bodies[b->a].center);
        PH_PREFETCH(&world->bodies[b->b].center);
        PH_PREFETCH(&world->bodies[b->a]);
        PH_PREFETCH(&world->bodies[b->b]);
    }
}

typedef struct prepare_task
{
    const ph_world *world;
    const prepare_params *params;
    constraint_set *set;
} prepare_task;

// Scalar constraints begin .. end - 1: each written from its own contact.
static void prepare_scalars(int begin, int end, int worker, void *context)
{
    const prepare_task *t = context;
    const constraint_set *set = t->set;
    (void)worker;
    for (int i = begin; i < end; i++)
        prepare(t->world, t->params, set->heads[set->wide ? set->wide->scalar[i] : i].contact, &set->cons[i]);
}

// Groups begin .. end - 1: each gathered from its lanes' contacts and written alone.
static void prepare_groups(int begin, int end, int worker, void *context)
{
    const prepare_task *t = context;
    wide_solver *wide = t->set->wide;
    wide_input in;
    (void)worker;
    for (int g = begin; g < end; g++)
    {
        if (g + SOLVER_GATHER_AHEAD < end)
            prefetch_group(t->world, wide_group_at(wide, g + SOLVER_GATHER_AHEAD));
        gather_group(t->world, t->params, wide_group_at(wide, g), &in);
        ph_wide_prepare(t->world->states, wide, g, &in, t->params->impulse_scale);
    }
}

static void prepare_all(const ph_world *world, const prepare_params *params, constraint_set *set)
{
    prepare_task t = {world, params, set};
    ph_parallel_for(&world->tasks, set->scalar_count, SOLVER_MIN_CONSTRAINTS, prepare_scalars, &t);
    if (set->wide)
        ph_parallel_for(&world->tasks, set->wide->group_count, SOLVER_MIN_GROUPS, prepare_groups, &t);
}

// Rebuilds the rows of a constraint with the bodies' current inverse inertias (ph_wide_refresh does the same
// for lanes). The anchors are not turned with their bodies: a contact's two impulses then act at one point of
// space, and the pair's angular momentum is kept; anchors turned with each body would put them at two points
// once the bodies turn apart, and the contact point of a round body does not turn with it anyway (they move
// only with the bodies' relative displacement, rearm).
static void refresh_rows_of(const ph_body_state *sa, const ph_body_state *sb, constraint *con)
{
    for (int i = 0; i < con->point_count; i++)
        set_row(&con->points[i].n, sa, sb, con->points[i].ra, con->points[i].rb, con->normal);
    set_row(&con->f1, sa, sb, con->fa, con->fb, con->t1);
    set_row(&con->f2, sa, sb, con->fa, con->fb, con->t2);
    set_twist(&con->twist, sa, sb, con->normal);
}

static void refresh_rows(const ph_body_state *states, constraint *con)
{
    refresh_rows_of(&states[con->a], &states[con->b], con);
}

// Moves a constraint's anchors with its bodies' motion since the step's start, and rebuilds its rows
// (ph_wide_solve's rearm_unit does the same for lanes, but for round parts). A contact's two impulses must
// act at one point of space, or they apply a torque to the pair as well: anchors fixed to each body's centre
// are carried apart by the bodies' relative motion through the sub-steps (boxes sliding over each other at
// 2 m/s: 3 cm in a 60 Hz step), and an off-centre impact of two free boxes changed their angular momentum
// about a fixed point by up to 0.9%. The point moves with the bodies in the shares follow_a and 1 - follow_a,
// so that c_a + r_a = c_b + r_b again: A's arm by (1 - follow_a) d, d = dp_b - dp_a, and B's by -follow_a d.
// The share is the round part's where one of them is round (its contact point stays under its centre: the
// other share would give a rolling ball's normal force a lever), else half. A sphere's anchor (its centre, a
// point of the body) also turns with it: held where it was at the step's start, the arm of a sphere off its
// body's centre of mass (a weighted ball, a compound's sphere) is not the lever its contact has as the body
// turns, and a weighted ball rocking on the ground gained 12.5 J in 20 s. A capsule's anchor is the nearest
// point of its segment, which slides along it as the capsule tips: turned as a point of the body, a capsule
// rolling over a triangle mesh took spin kicks of 0.115 rad/s at the triangles' edges (0.089 held), past
// the 0.1 of issue 19, so a capsule off its centre of mass still gains energy as it rocks. The
// separation is measured from the step's anchors (ra0, rb0, turned with the bodies), so re-arming moves where
// the impulses act, not what they push against. Only pairs of moving bodies or with a moving round part (a
// static body's arm does not matter), and only once an arm would move by SOLVER_REARM_FRACTION of the
// anchors' reach (rearm_limit2): contacts at rest, most of a pile's, never re-arm.
static void rearm(const ph_body_state *sa, const ph_body_state *sb, constraint *con)
{
    if (con->rearm_limit2 == INFINITY) // against a static body, with no sphere that turns: nothing follows
        return;
    ph_vec3 d = glms_vec3_sub(sb->dp, sa->dp);
    ph_vec3 moved = glms_vec3_sub(d, con->armed);
    bool far = dot3(moved, moved) > con->rearm_limit2;
    float follow = con->follow_a, rest = 1.0f - follow;
    ph_vec3 shifts[PH_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < con->point_count; i++)
    {
        const constraint_point *cp = &con->points[i];
        ph_vec3 shift = glms_vec3_scale(d, rest);
        if (con->turn_a && sa->inv_mass > 0.0f)
            shift = madd(shift, glms_vec3_sub(rotate(sa->dq, cp->ra0), cp->ra0), follow);
        if (con->turn_b && sb->inv_mass > 0.0f)
            shift = madd(shift, glms_vec3_sub(rotate(sb->dq, cp->rb0), cp->rb0), rest);
        shifts[i] = shift;
        ph_vec3 change = glms_vec3_sub(shift, cp->shift);
        far = far || dot3(change, change) > con->rearm_limit2;
    }
    if (!far)
        return;
    con->armed = d;
    ph_vec3 mean = glms_vec3_zero();
    for (int i = 0; i < con->point_count; i++)
    {
        constraint_point *cp = &con->points[i];
        cp->shift = shifts[i];
        cp->ra = glms_vec3_add(cp->ra0, shifts[i]);
        cp->rb = glms_vec3_sub(glms_vec3_add(cp->rb0, shifts[i]), d);
        mean = glms_vec3_add(mean, shifts[i]);
    }
    mean = glms_vec3_scale(mean, 1.0f / (float)con->point_count);
    con->fa = glms_vec3_add(con->fa0, mean);
    con->fb = glms_vec3_sub(glms_vec3_add(con->fb0, mean), d);
    refresh_rows_of(sa, sb, con);
}

typedef struct refresh_task
{
    ph_world *world;
    constraint_set *set;
    const int *dynamic;
    const uint8_t *constrained;
    uint8_t *refreshed;
    float limit;
    atomic_int any;
} refresh_task;

// Bodies dynamic[begin .. end): each writes its own mark and state.
static void refresh_bodies(int begin, int end, int worker, void *context)
{
    refresh_task *t = context;
    (void)worker;
    ph_body_state *states = t->world->states;
    float limit = t->limit;
    int any = 0;
    for (int i = begin; i < end; i++)
    {
        int slot = t->dynamic[i];
        ph_body_state *st = &states[slot];
        t->refreshed[slot] = 0;
        if (dot3(st->w, st->w) <= limit * limit)
            continue;
        // During the step only constraint rows and an applied torque read the world inverse inertia: a body
        // in free flight (most of a fast, sparse scene) keeps the step's.
        const ph_body *body = &t->world->bodies[slot];
        if (body->isotropic)
            continue;
        t->refreshed[slot] =
            !t->constrained || t->constrained[slot] || dot3(body->torque, body->torque) > 0.0f;
        if (t->refreshed[slot])
        {
            ph_quat q = glms_quat_normalize(glms_quat_mul(st->dq, body->q0));
            ph_body_state_set_inv_inertia(st, ph_body_world_inv_inertia(body, q));
            any = 1;
        }
    }
    if (any)
        atomic_store_explicit(&t->any, 1, memory_order_relaxed);
}

// Scalar constraints begin .. end: each rebuilds its own rows from its bodies' marks and states.
static void refresh_scalars(int begin, int end, int worker, void *context)
{
    refresh_task *t = context;
    (void)worker;
    for (int i = begin; i < end; i++)
    {
        constraint *con = &t->set->cons[i];
        if (t->refreshed[con->a] || t->refreshed[con->b])
            refresh_rows(t->world->states, con);
    }
}

// Wide groups begin .. end, likewise.
static void refresh_groups(int begin, int end, int worker, void *context)
{
    refresh_task *t = context;
    (void)worker;
    ph_wide_refresh(t->world->states, t->set->wide, t->refreshed, begin, end);
}

// Bodies that turn by more than SOLVER_INERTIA_REFRESH_ANGLE per step take the world inverse inertia of
// their current orientation (q = dq q0), and the constraints they are in rebuild their rows (refresh_rows),
// keeping the accumulated impulses; an isotropic body's inverse inertia is the same in every orientation.
// The rows' inertia is the body's as it turns, down to SOLVER_INERTIA_REFRESH_ANGLE: at 0.05 rad per step
// (3 rad/s), a plank set spinning at up to 3 rad/s by an off-centre impact changed the pair's angular
// momentum by 0.33%, 0.02% at 0.02 (laws_impact_momentum). `refreshed` marks them by slot. `dynamic` lists
// the awake dynamic bodies that may spin (all of them, or those ph_solve noted turning fast): the scan reads
// their states only, and a body only when it spins. Marks of bodies not listed must already be clear.
static bool refresh_spinning(ph_step_context *ctx, constraint_set *set, const int *dynamic, int dynamic_count,
                             const uint8_t *constrained, uint8_t *refreshed)
{
    ph_world *world = ctx->world;
    // On the workers, each body, constraint and group writing only its own: the same bits for any count.
    refresh_task t = {world, set, dynamic, constrained, refreshed, SOLVER_INERTIA_REFRESH_ANGLE / ctx->dt, 0};
    atomic_init(&t.any, 0);
    ph_parallel_for(&world->tasks, dynamic_count, SOLVER_MIN_BODIES, refresh_bodies, &t);
    if (!atomic_load_explicit(&t.any, memory_order_relaxed))
        return false;
    ph_parallel_for(&world->tasks, set->scalar_count, SOLVER_MIN_CONSTRAINTS, refresh_scalars, &t);
    if (set->wide)
        ph_parallel_for(&world->tasks, set->wide->group_count, SOLVER_MIN_GROUPS, refresh_groups, &t);
    return true;
}

static void warm_start_constraint(ph_body_state *states, constraint *con)
{
    ph_body_state *sa = &states[con->a], *sb = &states[con->b];
    pair_velocity pv = load_pair(sa, sb);
    for (int i = 0; i < con->point_count; i++)
    {
        constraint_point *cp = &con->points[i];
        row_apply(&cp->n, &pv, con->normal, cp->n.impulse);
    }
    row_apply(&con->f1, &pv, con->t1, con->f1.impulse);
    row_apply(&con->f2, &pv, con->t2, con->f2.impulse);
    twist_apply(&con->twist, &pv, con->twist.impulse);
    store_pair(&pv, sa, sb);
}

// One iteration of one constraint. With use_bias the soft spring removes overlap; without it (relax) the
// constraint is rigid on velocity only. Speculative points (s > 0) allow an approach of s per sub-step in
// both.
// `sum_total`: the sub-step's last sweep, whose normal impulses are what the sub-step applied (the warm start
// applies the last sub-step's, and the sweeps' changes bring them to these), summed into the step's total.
static void solve_constraint(ph_body_state *states, constraint *con, float inv_h, bool use_bias,
                             bool sum_total)
{
    ph_body_state *sa = &states[con->a], *sb = &states[con->b];
    ph_vec3 dp = glms_vec3_sub(sb->dp, sa->dp);
    ph_vec3 n = con->normal;
    // Current separations from the motion so far (the anchors move with their body's rotation); they
    // change only when positions are integrated, so once per call. n . (R r) = (R^T n) . r: the normal
    // is turned into each body's step-start frame once for all the points.
    float sep[PH_MAX_MANIFOLD_POINTS];
    float shift = dot3(dp, n);
    ph_vec3 na = rotate(glms_quat_conjugate(sa->dq), n), nb = rotate(glms_quat_conjugate(sb->dq), n);
    rearm(sa, sb, con);
    for (int i = 0; i < con->point_count; i++)
    {
        const constraint_point *cp = &con->points[i];
        sep[i] = shift + dot3(cp->rb0, nb) - dot3(cp->ra0, na) + cp->base_separation;
    }
    pair_velocity pv = load_pair(sa, sb);
    int passes = use_bias ? con->passes : 1;
    // The approach speed before a point closes matters to restitution only.
    bool track_approach = !use_bias && con->restitution > 0.0f;
    for (int pass = 0; pass < passes; pass++)
        for (int j = 0; j < con->point_count; j++)
        {
            // Relax visits the points in reverse order: the symmetric Gauss-Seidel sweep cancels the bias
            // towards the first point that a one-directional sweep has.
            int i = use_bias ? j : con->point_count - 1 - j;
            constraint_point *cp = &con->points[i];
            float s = sep[i];
            float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
            if (s > 0.0f)
                bias = s * inv_h;
            else if (use_bias)
            {
                bias = maxf(con->soft.bias_rate * s, -SOLVER_MAX_PUSH_SPEED);
                mass_scale = con->soft.mass_scale;
                impulse_scale = con->soft.impulse_scale;
            }
            float vn = row_speed(&cp->n, &pv, n);
            float impulse = -cp->n.mass * mass_scale * (vn + bias) - impulse_scale * cp->n.impulse;
            float total = maxf(cp->n.impulse + impulse, 0.0f);
            impulse = total - cp->n.impulse;
            cp->n.impulse = total;
            cp->max_normal_impulse = maxf(cp->max_normal_impulse, impulse);
            if (!use_bias)
                cp->end_separation = s;
            if (track_approach && cp->max_normal_impulse == 0.0f)
            {
                cp->approach = vn; // not yet closed this step: the free approach speed and gap
                cp->approach_gap = fmaxf(s, 0.0f);
            }
            row_apply(&cp->n, &pv, n, impulse);
        }
    for (int i = 0; sum_total && i < con->point_count; i++)
        con->points[i].total_impulse += con->points[i].n.impulse;
    // Friction acts at the manifold's centre, as one force in the tangent plane bounded by the Coulomb cone
    // of the whole manifold's normal impulse, and one torque about the normal (twist) bounded by that times
    // the patch's mean radius: under a uniform pressure each element of the patch resists sliding with mu
    // times its share of the load, so the force sums to mu N and the torque to mu N times the mean distance
    // of the patch from its centre. Friction at each point instead (the corners of a face) made a spinning
    // box stop twice too fast (its corners are farther out than the patch's mean), and a manifold holds 3
    // friction rows instead of 2 per point.
    // Friction is solved even when the normal impulses are all zero: the clamp then takes back the
    // warm-started impulses, which would otherwise keep spinning a body that left contact. It is solved in
    // both iterations: in the relax iteration only, a 100-row pyramid's flanks slide off under their load.
    float normal_sum = 0.0f;
    for (int i = 0; i < con->point_count; i++)
        normal_sum += con->points[i].n.impulse;
    float limit = con->friction * normal_sum;
    float l1 = con->f1.impulse - con->f1.mass * row_speed(&con->f1, &pv, con->t1);
    float l2 = con->f2.impulse - con->f2.mass * row_speed(&con->f2, &pv, con->t2);
    float len2 = l1 * l1 + l2 * l2;
    if (len2 > limit * limit)
    {
        float scale = limit / sqrtf(len2);
        l1 *= scale;
        l2 *= scale;
    }
    row_apply(&con->f1, &pv, con->t1, l1 - con->f1.impulse);
    row_apply(&con->f2, &pv, con->t2, l2 - con->f2.impulse);
    con->f1.impulse = l1;
    con->f2.impulse = l2;
    float twist_limit = limit * con->twist_radius;
    float tw = con->twist.impulse - con->twist.mass * twist_speed(&pv, n);
    tw = tw > twist_limit ? twist_limit : tw < -twist_limit ? -twist_limit : tw;
    twist_apply(&con->twist, &pv, tw - con->twist.impulse);
    con->twist.impulse = tw;
    store_pair(&pv, sa, sb);
}

// A sweep of the wide groups (warm start, solve or restitution) over a range of them.
typedef enum sweep_kind
{
    SWEEP_WARM_START,
    SWEEP_SOLVE,
    SWEEP_BOUNCE,
} sweep_kind;

typedef struct sweep_task
{
    ph_body_state *states;
    wide_solver *wide;
    sweep_kind kind;
    int first; // the first group of the colour being swept
    float inv_h, h;
    bool use_bias, measure, sum_total, compress;
    atomic_bool bounced; // SWEEP_BOUNCE: a point bounced in some range
} sweep_task;

static void sweep_range(int begin, int end, int worker, void *context)
{
    sweep_task *t = context;
    int first = t->first + begin, last = t->first + end;
    (void)worker;
    switch (t->kind)
    {
    case SWEEP_WARM_START:
        ph_wide_warm_start(t->states, t->wide, first, last);
        break;
    case SWEEP_SOLVE:
        ph_wide_solve(t->states, t->wide, t->inv_h, t->use_bias, t->measure, t->sum_total, first, last);
        break;
    case SWEEP_BOUNCE:
        if (ph_wide_bounce(t->states, t->wide, t->h, t->compress, first, last))
            atomic_store_explicit(&t->bounced, true, memory_order_relaxed);
        break;
    }
}

// One sweep of the wide groups as one call with one worker; with more, colour by colour (the last colour
// first for a warm start, which runs its groups backwards), each colour's groups split among the workers.
// The groups of a colour share no moving body, so the split changes no bit (solver_internal.h).
static void sweep_groups(const ph_tasks *tasks, sweep_task *t)
{
    wide_solver *w = t->wide;
    if (tasks->worker_count == 1)
    {
        t->first = 0;
        sweep_range(0, w->group_count, 0, t);
        return;
    }
    for (int i = 0; i < w->colors; i++)
    {
        int c = t->kind == SWEEP_WARM_START ? w->colors - 1 - i : i;
        t->first = w->color_first[c];
        ph_parallel_for(tasks, w->color_first[c + 1] - t->first, SOLVER_MIN_GROUPS, sweep_range, t);
    }
}

// One sweep over the constraints: the wide groups, then the scalar constraints one at a time.
static void warm_start(const ph_tasks *tasks, ph_body_state *states, const constraint_set *set)
{
    if (set->wide)
    {
        sweep_task t = {.states = states, .wide = set->wide, .kind = SWEEP_WARM_START};
        sweep_groups(tasks, &t);
    }
    for (int i = 0; i < set->scalar_count; i++)
        warm_start_constraint(states, &set->cons[i]);
}

// `measure`: the first sweep since the bodies last moved (see ph_wide_solve); `sum_total`: the sub-step's
// last (solve_constraint).
static void solve(const ph_tasks *tasks, ph_body_state *states, const constraint_set *set, float inv_h,
                  bool use_bias, bool measure, bool sum_total)
{
    if (set->wide)
    {
        sweep_task t = {.states = states,
                        .wide = set->wide,
                        .kind = SWEEP_SOLVE,
                        .inv_h = inv_h,
                        .use_bias = use_bias,
                        .measure = measure,
                        .sum_total = sum_total};
        sweep_groups(tasks, &t);
    }
    for (int i = 0; i < set->scalar_count; i++)
        solve_constraint(states, &set->cons[i], inv_h, use_bias, sum_total);
}

// One restitution sweep over a constraint's points that closed fast enough; false when none did
// (ph_wide_bounce does the same for lanes). A compressing sweep only stops what still approaches (an impact
// late in the step leaves its points closing, as the speculative contacts allowed); the others push apart,
// towards -e times the impact speed, by Poisson's bound: the impulse that pushes apart is at most e times
// the one that stopped the approach (the compression), over the manifold. The velocity target alone is
// Newton's restitution, which is energy-safe for one contact only: where several close in one step, each
// aimed at its own approach speed, a row of balls left with more energy than it came with. The compression
// is the points' impulse over the step before the pushing sweeps; the compressing sweeps come first so
// that it is shared among a face's points as the approach is (in one pass, the first point of a box
// landing flat took most of it, and the box left spinning).
static bool bounce(ph_body_state *states, constraint *con, float h, bool compress)
{
    bool bouncing = false;
    ph_body_state *sa = &states[con->a], *sb = &states[con->b];
    pair_velocity pv = load_pair(sa, sb);
    // The manifold's compression and push so far (pushing sweeps only): the bound holds for the contact as a
    // whole (a face lands on its corners as the approach shares the load, and may leave on them in other
    // shares).
    float compressed = 0.0f, pushed = 0.0f;
    for (int i = 0; !compress && i < con->point_count; i++)
    {
        compressed += con->points[i].total_impulse - con->points[i].bounce_impulse;
        pushed += con->points[i].bounce_impulse;
    }
    for (int i = 0; i < con->point_count; i++)
    {
        constraint_point *cp = &con->points[i];
        if (cp->approach > -SOLVER_RESTITUTION_THRESHOLD || cp->max_normal_impulse == 0.0f)
            continue;
        bouncing = true;
        float vn = row_speed(&cp->n, &pv, con->normal);
        float impulse;
        if (compress)
            impulse = maxf(-cp->n.mass * vn, 0.0f);
        else
        {
            // The contact closed inside the next sub-step, after falling the gap under the constant
            // relative acceleration: the speed at impact is sqrt(v^2 - 2 a gap) (energy, exact for a free
            // flight), not the speed at the sub-step's start. The gap was closed within one sub-step, so it
            // is at most what that sub-step can close.
            float reach = -cp->approach * h - 0.5f * con->accel_n * h * h;
            float gap = fminf(cp->approach_gap, fmaxf(reach, 0.0f));
            float v2 = cp->approach * cp->approach - 2.0f * con->accel_n * gap;
            float impact = v2 > cp->approach * cp->approach ? -sqrtf(v2) : cp->approach;
            // The bodies leave the contact at e times that speed, but the step ends with them still apart
            // by the gap the speculative contact had left: by the time they are there they have lost (or
            // gained) what the relative acceleration takes over that gap, or the rebound starts higher
            // than the contact and gains energy.
            float leave = con->restitution * impact;
            float leave2 = leave * leave + 2.0f * con->accel_n * fmaxf(cp->end_separation, 0.0f);
            float target = leave2 > 0.0f ? sqrtf(leave2) : 0.0f;
            impulse = -cp->n.mass * (vn - target);
            impulse = maxf(cp->n.impulse + impulse, 0.0f) - cp->n.impulse;
            impulse = fminf(impulse, maxf(con->restitution * compressed - pushed, 0.0f));
            cp->bounce_impulse += impulse;
            pushed += impulse;
        }
        cp->n.impulse += impulse;
        cp->total_impulse += impulse;
        row_apply(&cp->n, &pv, con->normal, impulse);
    }
    store_pair(&pv, sa, sb);
    return bouncing;
}

// Restitution changes velocities by as much as the approach speed, which one Gauss-Seidel sweep over the
// points of a face does not distribute evenly; a few sweeps converge the face's points together, first
// stopping the approach (SOLVER_COMPRESSION_PASSES), then pushing apart. Lanes are read out whole and
// written back: only bouncing materials pay for it.
static void restitution(const ph_tasks *tasks, ph_body_state *states, const constraint_set *set, float h)
{
    wide_solver *wide = set->wide;
    // Whether any point bounces does not change between sweeps: when the first finds none, the step is done.
    bool bouncing = true;
    for (int pass = 0; pass < SOLVER_RESTITUTION_PASSES && bouncing; pass++)
    {
        bool compress = pass < SOLVER_COMPRESSION_PASSES;
        bouncing = false;
        if (wide)
        {
            sweep_task t = {
                .states = states, .wide = wide, .kind = SWEEP_BOUNCE, .h = h, .compress = compress};
            atomic_init(&t.bounced, false);
            sweep_groups(tasks, &t);
            bouncing = atomic_load_explicit(&t.bounced, memory_order_relaxed);
        }
        for (int i = 0; i < set->scalar_count; i++)
        {
            if (set->cons[i].restitution != 0.0f)
                bouncing = bounce(states, &set->cons[i], h, compress) || bouncing;
        }
    }
}

// The stiffness (w^2) a face contact between two moving bodies of unlike masses asks for so that it holds
// its load within a tolerance (issue 19, item 3: mass ratios). A soft contact holds a force F by overlapping
// F / (w^2 sum of its points' effective masses), so a heavy body on a light one (whose small effective mass
// sets the spring) sinks into it in proportion to the ratio: 12 cm into a 1 kg box under 1000 kg at 45 Hz.
// Only pairs whose masses differ by SOLVER_SAG_MIN_RATIO or more ask: a stack or heap of like bodies sags by
// a few millimetres under its own weight, and letting them ask (with the patch as the length) gave a heap of
// 1000 boxes 20 sub-steps on average, for slivers of contact carrying a neighbour's weight. Contacts of fewer
// than 3 points (an edge, a point: no face to sink into) do not ask either.
// The force is the contact's steady force (its last sub-step's impulse over the sub-step, low-passed over
// SOLVER_SAG_STEADY_TIME): an impact's spike would ask for many sub-steps for nothing, and the step's own
// force, read back, swung the plan between 5 and 14 sub-steps from one step to the next (stiffer contacts
// push harder for a step), and a 100 kg box walked off its 1 kg support. A force up to twice the heavier
// body's weight is taken at once (SOLVER_SAG_QUICK_WEIGHTS: a heavy body set down on a light one sinks while
// the contact learns its load, 11.6 mm under 100 kg on 1 kg when it learnt at four times the slow rate), and
// a new contact under a heavier body resting on it (its normal within 45 degrees of `up`) starts from that
// body's weight: its first step's force is only what the contact had built by its end (a seventh of the
// weight), and the 100 kg box sank 6.7 mm before its contact asked for more.
static float sag_need(const ph_body_state *sa, const ph_body_state *sb, ph_contact *c, float impulse,
                      float mass, float radius, float inv_h, float blend, ph_vec3 up, float weight)
{
    float lo = fminf(sa->inv_mass, sb->inv_mass), hi = fmaxf(sa->inv_mass, sb->inv_mass);
    float force = impulse * inv_h, steady = c->steady_force + (force - c->steady_force) * blend;
    if (lo > 0.0f)
    {
        float held = fminf(force, SOLVER_SAG_QUICK_WEIGHTS * weight / lo);
        float along = dot3(c->manifold.normal, up); // the normal points from a to b
        float above = sb->inv_mass == lo ? along : -along;
        if (c->steady_force == 0.0f && above > SOLVER_SUPPORT_COS)
            held = fmaxf(held, above * weight / lo);
        steady = fmaxf(steady, held);
    }
    c->steady_force = steady;
    // Two moving bodies only: on a static (or sleeping) body a contact sinks by g / w^2 whatever the mass.
    if (c->manifold.point_count < 3 || !(mass > 0.0f) || !(radius > 0.0f) || !(lo > 0.0f) ||
        !(hi >= SOLVER_SAG_MIN_RATIO * lo))
        return 0.0f;
    return c->steady_force / (mass * SOLVER_SAG_FRACTION * radius);
}

typedef struct store_task
{
    ph_world *world;
    const wide_solver *wide;
    float inv_h, blend, gravity;
    ph_vec3 up;  // against gravity (zero without it)
    float *need; // per group: the most its lanes ask (sag_need)
} store_task;

// store_impulses for groups begin .. end - 1, each lane writing its own contact.
static void store_groups(int begin, int end, int worker, void *context)
{
    const store_task *t = context;
    ph_world *world = t->world;
    const ph_body_state *states = world->states;
    const wide_solver *wide = t->wide;
    (void)worker;
    for (int g = begin; g < end; g++)
    {
        const wide_group *grp = wide_group_at(wide, g);
        // The contacts of a later group, whose impulses are written in no order the prefetchers follow.
        if (g + SOLVER_GATHER_AHEAD < end)
        {
            const wide_group *ahead = wide_group_at(wide, g + SOLVER_GATHER_AHEAD);
            for (int lane = 0; lane < ahead->lanes; lane++)
                prefetch_impulses(&world->contacts.items[ahead->contact[lane]]);
        }
        float need = 0.0f;
        for (int lane = 0; lane < grp->lanes; lane++)
        {
            ph_contact *c = &world->contacts.items[grp->contact[lane]];
            float load = 0.0f, mass = 0.0f;
            for (int p = 0; p < grp->point_counts[lane]; p++)
            {
                c->normal_impulse[p] = grp->points[p].n.impulse[lane];
                load += grp->points[p].n.impulse[lane];
                mass += grp->points[p].n.mass[lane];
            }
            const ph_body_state *sa = (const ph_body_state *)((const char *)states + grp->at_a[lane]);
            const ph_body_state *sb = (const ph_body_state *)((const char *)states + grp->at_b[lane]);
            need = fmaxf(need, sag_need(sa, sb, c, load, mass, grp->twist_radius[lane], t->inv_h, t->blend,
                                        t->up, t->gravity));
            c->friction_impulse[0] = grp->f1.impulse[lane];
            c->friction_impulse[1] = grp->f2.impulse[lane];
            c->twist_impulse = grp->twist_impulse[lane];
        }
        t->need[g] = need;
    }
}

// Warm starting reuses the impulse that held the contact over a sub-step. Notes the stiffness the most loaded
// face contact asks for (sag_need) in world->contact_need_hertz, for the next step's plan: the groups note
// theirs each, and the most is taken here, in group order (a maximum, so any order would give it).
static void store_impulses(ph_world *world, const constraint_set *set, float h, float dt)
{
    const ph_body_state *states = world->states;
    float inv_h = 1.0f / h, need = 0.0f, blend = fminf(dt / SOLVER_SAG_STEADY_TIME, 1.0f);
    float gravity = glms_vec3_norm(world->def.gravity);
    ph_vec3 up = gravity > 0.0f ? glms_vec3_scale(world->def.gravity, -1.0f / gravity) : glms_vec3_zero();
    for (int i = 0; i < set->scalar_count; i++)
    {
        const constraint *con = &set->cons[i];
        ph_contact *c = &world->contacts.items[con->contact];
        float load = 0.0f, mass = 0.0f;
        for (int p = 0; p < con->point_count; p++)
        {
            c->normal_impulse[p] = con->points[p].n.impulse;
            load += con->points[p].n.impulse;
            mass += con->points[p].n.mass;
        }
        need = fmaxf(need, sag_need(&states[con->a], &states[con->b], c, load, mass, con->twist_radius, inv_h,
                                    blend, up, gravity));
        c->friction_impulse[0] = con->f1.impulse;
        c->friction_impulse[1] = con->f2.impulse;
        c->twist_impulse = con->twist.impulse;
    }
    const wide_solver *wide = set->wide;
    int groups = wide ? wide->group_count : 0;
    float *group_need = groups > 0 ? ph_arena_alloc(&world->arena, (size_t)groups * sizeof(float)) : NULL;
    if (group_need)
    {
        store_task t = {world, wide, inv_h, blend, gravity, up, group_need};
        ph_parallel_for(&world->tasks, groups, SOLVER_MIN_GROUPS, store_groups, &t);
        for (int g = 0; g < groups; g++)
            need = fmaxf(need, group_need[g]);
        ph_arena_free(&world->arena, group_need);
    }
    else if (groups > 0)
    {
        // Out of memory for the notes: one range, its most noted in place of the array.
        float one = 0.0f;
        store_task t = {world, wide, inv_h, blend, gravity, up, &one};
        for (int g = 0; g < groups; g++)
        {
            store_groups(g, g + 1, 0, &t);
            need = fmaxf(need, one);
        }
    }
    world->contact_need_hertz = sqrtf(need) / (2.0f * GLM_PIf);
}

// store_totals for groups begin .. end - 1.
static void store_group_totals(int begin, int end, int worker, void *context)
{
    const store_task *t = context;
    (void)worker;
    for (int g = begin; g < end; g++)
    {
        const wide_group *grp = wide_group_at(t->wide, g);
        for (int lane = 0; lane < grp->lanes; lane++)
        {
            ph_contact *c = &t->world->contacts.items[grp->contact[lane]];
            for (int p = 0; p < grp->point_counts[lane]; p++)
                c->total_impulse[p] = grp->cold[p].total_impulse[lane];
        }
    }
}

// What each point's normal impulse came to over the whole step, sub-steps and restitution (the contacts'
// total_impulse, which the API reports).
static void store_totals(ph_world *world, const constraint_set *set)
{
    for (int i = 0; i < set->scalar_count; i++)
    {
        const constraint *con = &set->cons[i];
        ph_contact *c = &world->contacts.items[con->contact];
        for (int p = 0; p < con->point_count; p++)
            c->total_impulse[p] = con->points[p].total_impulse;
    }
    if (set->wide)
    {
        store_task t = {.world = world, .wide = set->wide};
        ph_parallel_for(&world->tasks, set->wide->group_count, SOLVER_MIN_GROUPS, store_group_totals, &t);
    }
}

// What the plan reads of this step's stacking (find_stacks).
typedef struct stacks
{
    int column;          // bodies in the longest free-standing column
    float column_rise;   // the height that column spans along gravity (unit: m)
    int tallest;         // bodies in the tallest stack
    float tallest_block; // the height along gravity of the block at that stack's top (unit: m)
} stacks;

// One pass over the contacts for both of the plan's measures of stacking:
// - The longest free-standing column: a chain of awake dynamic bodies each touching only the one body it
//   rests on and at most one body resting on it, and the height the chain spans along gravity. A body
//   resting on two or more bodies (a pyramid, a wall in running bond) or leaning on a neighbour (a pile)
//   breaks the chain: its support is wider than its own base, and such structures do not buckle like a
//   column.
// - The tallest stack: the most moving bodies in a chain of supports of any plan (each resting on the next,
//   within 45 degrees of gravity), and the height of a block at its top along gravity. A body's depth is one
//   more than its deepest support's. The depths are kept from step to step (world->stack_depth) and each
//   step works them out once, from the last step's depths of the supports and this step's where the
//   contacts came in order: exact for a stack that has stood a few steps, one level a step behind where it
//   grows or loses a support, and a pass over the contacts instead of an order of the bodies by height
//   (their positions are cache misses in a big scene). A body resting on a sleeping or static one starts a
//   chain.
// A sleeping body ends either: the solver holds it still, as a static one (the states' inverse masses say
// which bodies move, read instead of the 432-byte bodies, a cache miss each in a big scene).
static stacks find_stacks(ph_step_context *ctx)
{
    ph_world *world = ctx->world;
    stacks out = {0};
    float g = glms_vec3_norm(world->def.gravity);
    int slots = world->body_ids.slot_count;
    if (g <= 0.0f || slots == 0)
        return out;
    ph_vec3 up = glms_vec3_scale(world->def.gravity, -1.0f / g);
    // support[slot]: -1 no support yet, -2 several, else the one supporting slot. depth: chain length.
    // touching: contacts with points; carried: bodies resting on it.
    // foot: the lowest body of a numbered body's chain. stack: this step's stack depth (0: held still).
    int *support = ph_arena_alloc(ctx->arena, (size_t)slots * 6 * sizeof(int));
    if (!support)
        return out;
    int *depth = support + slots, *touching = depth + slots, *carried = touching + slots,
        *foot = carried + slots, *stack = foot + slots;
    const int *last_stack = world->stack_depth;
    for (int i = 0; i < slots; i++)
    {
        support[i] = -1;
        depth[i] = touching[i] = carried[i] = 0;
        stack[i] = world->states[i].inv_mass > 0.0f ? 1 : 0;
    }
    for (int k = 0; k < world->contacts.count; k++)
    {
        const ph_contact_brief *c = &world->contacts.briefs[k];
        if (c->point_count == 0)
            continue;
        touching[c->a]++;
        touching[c->b]++;
        float along = glms_vec3_dot(c->normal, up); // normal from a to b
        int below = along > SOLVER_SUPPORT_COS ? c->a : along < -SOLVER_SUPPORT_COS ? c->b : -1;
        if (below < 0)
            continue;
        int above = below == c->a ? c->b : c->a;
        if (!(world->states[above].inv_mass > 0.0f)) // not awake and dynamic: the solver holds it still
            continue;
        support[above] = support[above] == -1 || support[above] == below ? below : -2;
        carried[below]++;
        if (stack[below] > 0)
        {
            int d = (last_stack[below] > stack[below] ? last_stack[below] : stack[below]) + 1;
            stack[above] = d > stack[above] ? d : stack[above];
        }
    }
    // Only bodies touching nothing but their support and at most one body on top stay in a column. A stack
    // cannot be deeper than the bodies: a cycle of supports (a tangle) stops growing there.
    int top = -1;
    for (int i = 0; i < slots; i++)
    {
        if (support[i] >= 0 && (carried[i] > 1 || touching[i] != 1 + carried[i]))
            support[i] = -2;
        int d = stack[i] < slots ? stack[i] : slots;
        world->stack_depth[i] = d;
        if (d > out.tallest)
        {
            out.tallest = d;
            top = i;
        }
    }
    if (top >= 0)
    {
        ph_aabb b = world->bodies[top].bounds;
        ph_vec3 e = glms_vec3_sub(b.hi, b.lo);
        out.tallest_block = fabsf(up.x) * e.x + fabsf(up.y) * e.y + fabsf(up.z) * e.z;
    }
    // Chain lengths, following each body's single support down; depth -1 marks a body on the current path,
    // so a cycle of supports (possible only in a tangle) ends the chain instead of looping.
    for (int start = 0; start < slots; start++)
    {
        if (depth[start] != 0 || !(world->states[start].inv_mass > 0.0f) || support[start] == -1)
            continue;
        int path = start, length = 0, last = start;
        while (path >= 0 && depth[path] == 0 && world->states[path].inv_mass > 0.0f)
        {
            depth[path] = -1;
            length++;
            last = path;
            path = support[path] >= 0 ? support[path] : -1;
        }
        // The path ends on a numbered chain (which it extends) or at its own lowest body.
        int base = path >= 0 && depth[path] > 0 ? depth[path] : 0;
        int chain_foot = base > 0 ? foot[path] : last;
        // Number the path from its foot up.
        int d = base + length;
        for (int s = start; s >= 0 && depth[s] == -1; s = support[s] >= 0 ? support[s] : -1)
        {
            depth[s] = d--;
            foot[s] = chain_foot;
        }
        if (base + length > out.column)
        {
            out.column = base + length;
            // Height from the chain's foot to its top along gravity.
            out.column_rise = glms_vec3_dot(
                glms_vec3_sub(world->bodies[start].center, world->bodies[chain_foot].center), up);
        }
    }
    ph_arena_free(ctx->arena, support);
    return out;
}

// The contact frequency that makes blocks of height `block` (unit: m) sag, under the world's gravity, by the
// same share of their height as unit cubes under Earth's gravity at def.contact_hertz (issue 19, item 6:
// size). A stack's sag is g / w^2 per block of load, a length: at a fixed frequency a tower of 1 cm cubes
// sags as far as one of 1 m cubes, a hundred times its share, and it fell; a rocking stack's equations depend
// on g / (a w^2) alone, so w scales as sqrt(g / a). Towers of 10 cubes from 1 cm to 50 m then drift by less
// than 1% of a cube over 10 s after their first second (0.06% to 0.76%; 10 cm cubes drifted 2.2%, 1 cm
// ones 5.3%).
// A stack or column of fewer blocks sags by a few blocks' load only (a small box on another: 0.1% of it at
// the default frequency), so it keeps that.
#define SOLVER_SCALED_DEPTH 4
static float scaled_hertz(const ph_world *world, float block)
{
    float g = glms_vec3_norm(world->def.gravity);
    return world->def.contact_hertz * sqrtf(g / (SOLVER_STANDARD_GRAVITY * block));
}

// The sub-steps in [lo, hi] that let a spring of `hertz` be `fraction` of the sub-step rate, worked out in
// float and clamped before the conversion (a fuzzed joint load asked for 2e15 Hz, past an int).
static int substeps_for(float hertz, float dt, float fraction, int lo, int hi)
{
    float want = ceilf(hertz * dt / fraction);
    if (!(want > (float)lo))
        return lo;
    return want >= (float)hi ? hi : (int)want;
}

// Takes the sub-steps (up to `most`) that keep a contact frequency `need` (unit: Hz) within `fraction` of the
// sub-step rate, and returns the frequency that sub-step allows of it (need, or less where `most` is too
// few).
static float take_substeps(ph_step_context *ctx, float need, float fraction, int most)
{
    int substeps = substeps_for(need, ctx->dt, fraction, ctx->world->def.substeps, most);
    if (substeps > ctx->substeps)
    {
        ctx->substeps = substeps;
        ctx->h = ctx->dt / (float)substeps;
    }
    return fminf(need, fraction / ctx->h);
}

// Sub-steps and contact frequency of this step: def.substeps and def.contact_hertz, unless a tall column or
// stack, a stack of small blocks, a loaded contact between unlike masses or a loaded joint asks for more
// (each rule below says why); each takes the sub-steps its frequency needs, up to def.max_substeps.
static float plan_substeps(ph_step_context *ctx)
{
    ph_world *world = ctx->world;
    int most = world->def.max_substeps;
    float hertz = world->def.contact_hertz;
    stacks st = find_stacks(ctx);
    ctx->stats->longest_column = st.column;
    ctx->stats->tallest_stack = st.tallest;
    // A free-standing column: its buckling frequency, at up to a quarter of the sub-step rate (one chain, no
    // sweep feeding energy into a wall's rocking); and a column of small blocks the frequency of its size.
    if (st.column > 1 && st.column_rise > 0.0f)
    {
        float block = st.column_rise / (float)(st.column - 1);
        float need = SOLVER_COLUMN_MARGIN * SOLVER_COLUMN_HERTZ * powf((float)st.column, 1.5f) / sqrtf(block);
        if (need > hertz)
            hertz = fmaxf(hertz, take_substeps(ctx, need, SOLVER_MAX_HERTZ_FRACTION, most));
        float scaled = st.column >= SOLVER_SCALED_DEPTH ? scaled_hertz(world, block) : 0.0f;
        if (scaled > hertz)
            hertz = fmaxf(hertz, take_substeps(ctx, scaled, SOLVER_STACK_HERTZ_FRACTION, most));
    }
    // Tall stacks of any plan (walls, pyramids): the frequency that keeps a wall one block thick standing,
    // and a stack of small blocks the frequency of its size, at w h below 1.
    if (st.tallest > 1 && st.tallest_block > 0.0f)
    {
        float need = SOLVER_STACK_MARGIN * SOLVER_STACK_HERTZ * powf((float)st.tallest, 1.5f) *
                     sqrtf(glms_vec3_norm(world->def.gravity) / (SOLVER_STANDARD_GRAVITY * st.tallest_block));
        if (st.tallest >= SOLVER_SCALED_DEPTH)
            need = fmaxf(need, scaled_hertz(world, st.tallest_block));
        if (need > hertz)
            hertz = fmaxf(hertz, take_substeps(ctx, need, SOLVER_STACK_HERTZ_FRACTION, most));
    }
    // Loaded face contacts: the frequency that holds the heaviest load within its tolerance, from the last
    // step's steady forces (sag_need), at w h below 1/2: between a light body and a heavy one the light one
    // is pressed by two springs, and at w h = 0.94 a 100 kg box walked 1.6 cm in 30 s on its 1 kg support
    // (0.2 mm at 0.5).
    if (world->contact_need_hertz > hertz)
        hertz = fmaxf(hertz, take_substeps(ctx, world->contact_need_hertz, SOLVER_SAG_HERTZ_FRACTION, most));
    // Loaded joints: the sub-steps their rigid rows' spring needs to give by less than a tolerance
    // (joint.c, JOINT_MAX_GIVE), from the last step's forces; the joints set their own frequency.
    if (world->joint_ids.live_count > 0 && world->joint_need_hertz > 0.0f)
    {
        int joint_most = most < PH_JOINT_MAX_SUBSTEPS ? most : PH_JOINT_MAX_SUBSTEPS;
        take_substeps(ctx, world->joint_need_hertz, PH_JOINT_LOADED_HERTZ_FRACTION,
                      joint_most > world->def.substeps ? joint_most : world->def.substeps);
    }
    ctx->stats->solver_substeps = ctx->substeps;
    return fminf(hertz, SOLVER_MAX_HERTZ_FRACTION / ctx->h);
}

// All the sub-steps of one awake body in no contact constraint (dynamic in free flight, or kinematic): with
// no constraint, nothing reads or writes its state between its sub-steps, so it runs them at once instead of
// one per pass over the bodies (its ph_body and state are then read once per step, not in every sub-step;
// 10k falling boxes are spread over megabytes). Bit for bit what the general sub-step loop does to it (a
// test checks): the same velocity and position updates in the same order, the carried sub-step of the
// first (world->last_h) and the world inverse inertia refreshed where refresh_spinning would refresh it, for
// a body turning faster than SOLVER_INERTIA_REFRESH_ANGLE per step with an applied torque (with no
// constraint, the torque is all that reads it). A kinematic body takes the plain dp += h v, as in the
// general path's state-only loop. A body that flies steady (ph_body_flies_steady) is fly_all's, which pairs
// them. The exception is a dynamic body under no torque that turns gyroscopically: it keeps its rotation in
// the body frame through the step (ph_body_fly_torque_free), the same motion as the sub-step loop up to
// float rounding (a test bounds the difference), for half the arithmetic.
static void fly(const ph_step_context *ctx, ph_body *body, ph_body_state *st)
{
    const ph_world *world = ctx->world;
    ph_vec3 gravity = world->def.gravity;
    float h = ctx->h, spin_limit = SOLVER_INERTIA_REFRESH_ANGLE / ctx->dt;
    bool dynamic = body->type == PH_BODY_DYNAMIC;
    PH_ASSERT(!ph_body_flies_steady(body, st->w));
    if (dynamic && !ph_body_has_torque(body))
    {
        // A torque-free tumbling body (not steady, so it turns gyroscopically: the spinner, bodies thrown
        // spinning): the same sub-steps with the rotation kept in the body frame; no inertia refresh, which
        // only a torque reads.
        ph_body_fly_torque_free(body, st, gravity, h, ctx->substeps, world->last_h);
        return;
    }
    for (int s = 0; s < ctx->substeps; s++)
    {
        if (dynamic)
        {
            ph_body_integrate_velocity(body, st, gravity, h, s > 0 ? h : world->last_h);
            if (s > 0 && dot3(st->w, st->w) > spin_limit * spin_limit &&
                dot3(body->torque, body->torque) > 0.0f)
                ph_body_state_set_inv_inertia(
                    st,
                    ph_body_world_inv_inertia(body, glms_quat_normalize(glms_quat_mul(st->dq, body->q0))));
        }
        ph_body_integrate_position(body, st, gravity, h, true);
    }
}

// What fly_all does with each body before it flies and once it has flown (NULL: nothing).
typedef void (*flight_fn)(ph_body *body, ph_body_state *st);

// fly() for the bodies in `slots`, those that fly steady two at a time (ph_body_fly_steady_pair: the same
// results, their dependent chains interleaved), each between `start` and `flown`; the bodies are
// independent, so the order in which they fly, and which of them pair up, does not matter.
static void fly_range(const ph_step_context *ctx, const int *slots, int count, flight_fn start,
                      flight_fn flown)
{
    ph_world *world = ctx->world;
    int pending = -1; // a steady body waiting for a partner
    for (int i = 0; i < count; i++)
    {
        int slot = slots[i];
        ph_body *body = &world->bodies[slot];
        ph_body_state *st = &world->states[slot];
        if (start)
            start(body, st);
        if (!ph_body_flies_steady(body, st->w))
            fly(ctx, body, st);
        else if (pending < 0)
        {
            pending = slot;
            continue;
        }
        else
        {
            ph_body_fly_steady_pair(&world->bodies[pending], &world->states[pending], body, st,
                                    world->def.gravity, ctx->h, ctx->substeps);
            if (flown)
                flown(&world->bodies[pending], &world->states[pending]);
            pending = -1;
        }
        if (flown)
            flown(body, st);
    }
    if (pending >= 0)
    {
        ph_body_fly_steady(&world->bodies[pending], &world->states[pending], world->def.gravity, ctx->h,
                           ctx->substeps);
        if (flown)
            flown(&world->bodies[pending], &world->states[pending]);
    }
}

typedef struct fly_task
{
    const ph_step_context *ctx;
    const int *slots;
    flight_fn start, flown;
} fly_task;

static void fly_task_range(int begin, int end, int worker, void *context)
{
    const fly_task *t = context;
    (void)worker;
    fly_range(t->ctx, t->slots + begin, end - begin, t->start, t->flown);
}

// fly_range over the workers.
static void fly_all(const ph_step_context *ctx, const int *slots, int count, flight_fn start, flight_fn flown)
{
    fly_task t = {ctx, slots, start, flown};
    ph_parallel_for(&ctx->world->tasks, count, SOLVER_MIN_BODIES, fly_task_range, &t);
}

// solve_free's start of a body's step: from where it is, with the world inverse inertia of there for a body
// under a torque. In free flight only a torque reads that inertia (fly), and the next step sets it again
// before any constraint is built with it, so a body under no torque keeps the one it has (a tenth of a lone
// spinning body's step).
static void start_free(ph_body *body, ph_body_state *st)
{
    if (body->type == PH_BODY_DYNAMIC && ph_body_has_torque(body))
        ph_body_state_set_inv_inertia(st, ph_body_world_inv_inertia(body, body->xf.q));
    body->center0 = body->center;
    body->q0 = body->xf.q;
    st->dp = glms_vec3_zero();
    st->dq = glms_quat_identity();
}

// solve_free's end of a body's step: its pose from the step's motion, its forces cleared.
static void finish_free(ph_body *body, ph_body_state *st)
{
    body->center = glms_vec3_add(body->center0, st->dp);
    body->xf.q = glms_quat_normalize(glms_quat_mul(st->dq, body->q0));
    ph_body_sync_transform(body);
    body->force = glms_vec3_zero();
    body->torque = glms_vec3_zero();
}

// ph_solve for a step without contact constraints (a body in free flight, bodies far apart, or only sleeping
// or kinematic ones in contact): each awake body flies through the step, and nothing of the constraint
// machinery (arrays, groups, sweeps, the sub-steps' clock reads) is set up for none; a lone spinning body's
// step was mostly that. The same results as the general path. Timed whole as integration, from t_start.
static bool solve_free(ph_step_context *ctx, unsigned long long t_start)
{
    ph_world *world = ctx->world;
    fly_all(ctx, ctx->awake, ctx->awake_count, start_free, finish_free);
    world->last_h = ctx->h;
    ctx->ticks = ph_ticks();
    ctx->stats->ms_stage[PH_STAGE_INTEGRATE] += ph_ticks_to_ms(ctx->ticks - t_start);
    return true;
}

// Overlaps the soft contacts could not hold within the step are taken out of the positions, as the joints'
// gaps are (joint.c, ph_joints_project): a body 1000 times as dense as the three boxes it was dropped on,
// from 1 m, pushed them 22 cm into each other and into the ground in the steps before the contacts' sag rule
// (sag_need) had learnt its weight (issue 19, item 3 asks for 5 cm at most). After the sub-steps, a contact
// whose deepest point is more than SOLVER_PROJECT_DEPTH in moves its bodies apart along its normal by the
// excess, and they stop approaching along it: the soft spring that let it sink that far would otherwise
// carry the heavy body on into the stack through the next step. Nothing turns. Shares by inverse mass
// cannot do it: the light box between the heavy body and the ground takes nearly all of every move, and
// passes of them only push the overlap up and down the stack (the boxes were squeezed out sideways). So,
// as in shock propagation (Guendelman, Bridson and Fedkiw, 2003), the contacts are taken from the bottom up,
// and of a pair one above the other (the normal within 45 degrees of up) only the upper body moves: the
// lower one has already been put where it rests. Pairs side by side share the move by inverse mass. Every
// contact of the step is a candidate, not only those deep at first: a box moved up may be pushed deep into
// the heavy body above it (taking only the first ones, 6 of 21 drop heights over 10 cm sank past 5 cm, to
// 57 mm, and in one a box went through another; with all of them every one ends at 2 cm). Jointed bodies are
// left to their joints (moved alone, the ragdolls' limbs opened their joints by 25 mm). Only in a step where
// two moving bodies whose masses differ by SOLVER_SAG_MIN_RATIO or more touch: between like bodies the soft
// contacts hold (an overlap of a heap's landing is pushed out by the next steps' contacts, as designed), and
// moving them there changed which heaps of hulls settled (one of 16 then rocked on for ever). Resting
// contacts, whose overlap is millimetres even at a mass ratio of 1000 (13 mm), are never moved, and a scene
// where no contact can be that deep pays one pass of cheap bounds.
#define SOLVER_PROJECT_DEPTH 0.02f // (unit: m)
#define SOLVER_PROJECT_PASSES 4

static float contact_depth_now(const ph_world *world, const ph_contact *c)
{
    const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
    const ph_body_state *sa = &world->states[c->a], *sb = &world->states[c->b];
    ph_vec3 n = c->manifold.normal;
    float shift = dot3(glms_vec3_sub(sb->dp, sa->dp), n), least = INFINITY;
    for (int i = 0; i < c->manifold.point_count; i++)
    {
        const ph_manifold_point *mp = &c->manifold.points[i];
        ph_vec3 ra = glms_vec3_sub(mp->point, ba->center0), rb = glms_vec3_sub(mp->point, bb->center0);
        float turn =
            dot3(glms_vec3_sub(rotate(sb->dq, rb), rb), n) - dot3(glms_vec3_sub(rotate(sa->dq, ra), ra), n);
        least = fminf(least, mp->separation + shift + turn);
    }
    return least;
}

// A bound below which contact c cannot have sunk this step: its shallowest start less the bodies' relative
// shift and the most their turns (angle at most 2 |dq.xyz|, near enough for these small turns) can move a
// point within their bound radii.
static float contact_depth_bound(const ph_world *world, const ph_contact *c)
{
    const ph_body_state *sa = &world->states[c->a], *sb = &world->states[c->b];
    float least = INFINITY;
    for (int i = 0; i < c->manifold.point_count; i++)
        least = fminf(least, c->manifold.points[i].separation);
    float turn_a = 2.0f * sqrtf(sa->dq.x * sa->dq.x + sa->dq.y * sa->dq.y + sa->dq.z * sa->dq.z),
          turn_b = 2.0f * sqrtf(sb->dq.x * sb->dq.x + sb->dq.y * sb->dq.y + sb->dq.z * sb->dq.z);
    return least - glms_vec3_norm(glms_vec3_sub(sb->dp, sa->dp)) - turn_a * world->bodies[c->a].bound_radius -
           turn_b * world->bodies[c->b].bound_radius;
}

typedef struct deep_contact
{
    float height; // of its first point along up (unit: m)
    int k;
    bool projected; // moved apart in some pass
} deep_contact;

static int lower_first(const void *x, const void *y)
{
    const deep_contact *a = x, *b = y;
    return a->height < b->height ? -1 : a->height > b->height ? 1 : a->k - b->k;
}

// Whether project_deep_contacts may move contact c's bodies: touching, one of them moving, neither jointed.
static bool projectable(const ph_world *world, const ph_contact *c)
{
    return c->manifold.point_count > 0 &&
           world->states[c->a].inv_mass + world->states[c->b].inv_mass > 0.0f &&
           world->bodies[c->a].joint_head < 0 && world->bodies[c->b].joint_head < 0;
}

// Contact c's bodies' inverse masses for a move apart along its normal: of a pair one above the other (the
// normal within 45 degrees of `up`) only the upper body moves, unless the lower alone can.
static void support_shares(const ph_world *world, const ph_contact *c, ph_vec3 up, float *ma, float *mb)
{
    *ma = world->states[c->a].inv_mass;
    *mb = world->states[c->b].inv_mass;
    float along = dot3(c->manifold.normal, up); // the normal points from a to b
    if (along > SOLVER_SUPPORT_COS && *mb > 0.0f)
        *ma = 0.0f;
    else if (along<-SOLVER_SUPPORT_COS && * ma> 0.0f)
        *mb = 0.0f;
}

// project_deep_contacts' stop of contact c's approach at its deepest point (of the bodies' poses now): an
// impulse along its normal there, on the bodies support_shares lets move.
static void stop_deep_contact(ph_world *world, const ph_contact *c, ph_vec3 up)
{
    const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
    ph_body_state *sa = &world->states[c->a], *sb = &world->states[c->b];
    ph_vec3 n = c->manifold.normal;
    int deepest = 0;
    for (int i = 1; i < c->manifold.point_count; i++)
        if (c->manifold.points[i].separation < c->manifold.points[deepest].separation)
            deepest = i;
    // The point moves with body a; b's arm reaches the same point.
    ph_vec3 ra = rotate(sa->dq, glms_vec3_sub(c->manifold.points[deepest].point, ba->center0));
    ph_vec3 rb = glms_vec3_sub(glms_vec3_add(glms_vec3_add(ba->center0, sa->dp), ra),
                               glms_vec3_add(bb->center0, sb->dp));
    float ma, mb;
    support_shares(world, c, up, &ma, &mb);
    ph_vec3 rna = cross3(ra, n), rnb = cross3(rb, n);
    ph_vec3 ira = ma > 0.0f ? glms_mat3_mulv(sa->inv_inertia, rna) : glms_vec3_zero();
    ph_vec3 irb = mb > 0.0f ? glms_mat3_mulv(sb->inv_inertia, rnb) : glms_vec3_zero();
    float approach = dot3(
        n, glms_vec3_sub(glms_vec3_add(sb->v, cross3(sb->w, rb)), glms_vec3_add(sa->v, cross3(sa->w, ra))));
    float k = ma + mb + dot3(rna, ira) + dot3(rnb, irb);
    if (!(approach < 0.0f) || !(k > 0.0f))
        return;
    float impulse = -approach / k;
    sa->v = madd(sa->v, n, -impulse * ma);
    sa->w = madd(sa->w, ira, -impulse);
    sb->v = madd(sb->v, n, impulse * mb);
    sb->w = madd(sb->w, irb, impulse);
}

typedef struct deep_survey
{
    const ph_world *world;
    atomic_int candidates;
    atomic_int deep, uneven;
} deep_survey;

// Contacts begin .. end: how many may be moved, whether one of them may have sunk past the limit, and whether
// two moving bodies of unlike masses touch (sums and ors: the same for any split).
static void survey_deep_contacts(int begin, int end, int worker, void *context)
{
    deep_survey *t = context;
    (void)worker;
    const ph_world *world = t->world;
    const ph_contact_set *set = &world->contacts;
    bool deep = false, uneven = false;
    int candidates = 0;
    for (int k = begin; k < end; k++)
    {
        const ph_contact *c = &set->items[k];
        if (!projectable(world, c))
            continue;
        candidates++;
        float ma = world->states[c->a].inv_mass, mb = world->states[c->b].inv_mass;
        uneven |= ma > 0.0f && mb > 0.0f && fmaxf(ma, mb) >= SOLVER_SAG_MIN_RATIO * fminf(ma, mb);
        deep |= contact_depth_bound(world, c) <= -SOLVER_PROJECT_DEPTH;
    }
    atomic_fetch_add_explicit(&t->candidates, candidates, memory_order_relaxed);
    if (deep)
        atomic_store_explicit(&t->deep, 1, memory_order_relaxed);
    if (uneven)
        atomic_store_explicit(&t->uneven, 1, memory_order_relaxed);
}

static void project_deep_contacts(ph_step_context *ctx)
{
    ph_world *world = ctx->world;
    const ph_contact_set *set = &world->contacts;
    float g = glms_vec3_norm(world->def.gravity);
    ph_vec3 up = g > 0.0f ? glms_vec3_scale(world->def.gravity, -1.0f / g) : glms_vec3_zero();
    deep_survey survey = {.world = world};
    atomic_init(&survey.candidates, 0);
    atomic_init(&survey.deep, 0);
    atomic_init(&survey.uneven, 0);
    ph_parallel_for(&world->tasks, set->count, SOLVER_MIN_CONSTRAINTS, survey_deep_contacts, &survey);
    if (!atomic_load_explicit(&survey.deep, memory_order_relaxed) ||
        !atomic_load_explicit(&survey.uneven, memory_order_relaxed))
        return;
    int candidates = atomic_load_explicit(&survey.candidates, memory_order_relaxed);
    // Every contact that may be moved, from the bottom up: moving a lower body up may push it deep into one
    // above it whose contact was shallow before (a light box pushed up under the heavy body on it).
    deep_contact *list = ph_arena_alloc(ctx->arena, (size_t)candidates * sizeof *list);
    if (!list)
        return; // no memory for the list: the overlaps stay the next step's contacts' to push out
    int count = 0;
    for (int k = 0; k < set->count; k++)
        if (projectable(world, &set->items[k]))
            list[count++] = (deep_contact){dot3(set->items[k].manifold.points[0].point, up), k, false};
    qsort(list, (size_t)count, sizeof *list, lower_first);
    bool moved = true;
    for (int pass = 0; pass < SOLVER_PROJECT_PASSES && moved; pass++)
    {
        moved = false;
        for (int i = 0; i < count; i++)
        {
            const ph_contact *c = &set->items[list[i].k];
            float excess = -SOLVER_PROJECT_DEPTH - contact_depth_now(world, c);
            if (!(excess > 0.0f))
                continue;
            float ma, mb;
            support_shares(world, c, up, &ma, &mb);
            float share = excess / (ma + mb);
            ph_body_state *sa = &world->states[c->a], *sb = &world->states[c->b];
            sa->dp = madd(sa->dp, c->manifold.normal, -share * ma);
            sb->dp = madd(sb->dp, c->manifold.normal, share * mb);
            list[i].projected = moved = true;
        }
    }
    // A contact the soft springs let sink that far is rigid for the rest of the step: its bodies stop
    // approaching along its normal at its deepest point, from the bottom up as their positions were (the
    // heavy body stops on the stack as on the ground below it, instead of driving on into it through the next
    // step). One impulse at one point of space, so that two free bodies keep their momentum, angular too:
    // stopping their centres instead (a force through each centre) changed a pair's angular momentum by 2.5%.
    for (int i = 0; i < count; i++)
    {
        if (!list[i].projected)
            continue;
        const ph_contact *c = &set->items[list[i].k];
        stop_deep_contact(world, c, up);
    }
    ph_arena_free(ctx->arena, list);
}

// A sub-step's velocity integration of the bodies in contact constraints, over a range of them.
typedef struct velocity_task
{
    ph_world *world;
    const int *dynamic;
    const solver_motion *motion;
    uint8_t *spin; // note_spin: 1 for each listed body that turns fast enough to be refreshed
    float h, carried, max_speed, spin_limit;
    bool note_spin;
    atomic_int spinners; // bodies marked in spin, by every range
} velocity_task;

static void integrate_velocities(int begin, int end, int worker, void *context)
{
    velocity_task *t = context;
    ph_world *world = t->world;
    int spinners = 0;
    (void)worker;
    for (int i = begin; i < end; i++)
    {
        int slot = t->dynamic[i];
        ph_body_state *st = &world->states[slot];
        if (t->motion && t->motion[i].slot >= 0)
            solver_integrate_velocity(&t->motion[i], st, t->h, t->max_speed);
        else
            ph_body_integrate_velocity(&world->bodies[slot], st, world->def.gravity, t->h, t->carried);
        if (t->note_spin)
        {
            t->spin[i] = dot3(st->w, st->w) > t->spin_limit * t->spin_limit;
            spinners += t->spin[i];
        }
    }
    if (spinners > 0)
        atomic_fetch_add_explicit(&t->spinners, spinners, memory_order_relaxed);
}

// A sub-step's position integration of the bodies that step on their state alone, over a range of them: the
// wide kernels take them `lanes` at a time, bit for bit as the scalar loop, so where the ranges cut the list
// changes nothing.
typedef struct position_task
{
    ph_body_state *states;
    const int *slots;
    const wide_kernels *kernels;
    float h;
} position_task;

static void integrate_positions(int begin, int end, int worker, void *context)
{
    const position_task *t = context;
    const int *slots = t->slots + begin;
    int count = end - begin;
    (void)worker;
    int wide_done = ph_wide_integrate_positions(t->kernels, t->states, slots, count, t->h);
    ph_body_integrate_positions(t->states, slots + wide_done, count - wide_done, t->h);
}

// The end of the step for awake bodies begin .. end - 1: their poses from the step's motion, their forces
// cleared.
static void finish_poses(int begin, int end, int worker, void *context)
{
    const ph_step_context *ctx = context;
    ph_world *world = ctx->world;
    (void)worker;
    for (int i = begin; i < end; i++)
    {
        int slot = ctx->awake[i];
        if (i + SOLVER_BODY_AHEAD < end)
            prefetch_body(&world->bodies[ctx->awake[i + SOLVER_BODY_AHEAD]], 3);
        ph_body *body = &world->bodies[slot];
        ph_body_state *st = &world->states[slot];
        body->center = glms_vec3_add(body->center0, st->dp);
        body->xf.q = glms_quat_normalize(glms_quat_mul(st->dq, body->q0));
        ph_body_sync_transform(body);
        body->force = glms_vec3_zero();
        body->torque = glms_vec3_zero();
    }
}

// What a body is to the sub-steps (ph_solve's lists): dynamic or not, and in free flight (dynamic, in no
// constraint, when the step lists the bodies that step on their state).
enum
{
    BODY_DYNAMIC = 1,
    BODY_FLYING = 2,
};

static int body_kind(const ph_world *world, int slot, const uint8_t *constrained, bool listed)
{
    bool is_dynamic = world->bodies[slot].type == PH_BODY_DYNAMIC;
    bool flying = listed && constrained && !constrained[slot] && is_dynamic;
    return (is_dynamic ? BODY_DYNAMIC : 0) | (flying ? BODY_FLYING : 0);
}

// The start of the step of awake bodies begin .. end - 1: the world inverse inertia of where a dynamic body
// is, the step's start pose and no motion yet; each body's kind into kinds[i] and the velocity sub-step's
// record of a dynamic body that takes the sub-steps into motion[i] (either NULL: not noted).
typedef struct start_task
{
    const ph_step_context *ctx;
    const uint8_t *constrained;
    bool listed; // the step lists the bodies that step on their state (ph_solve's `stepped`)
    int *kinds;
    solver_motion *motion;
} start_task;

static void start_bodies(int begin, int end, int worker, void *context)
{
    const start_task *t = context;
    const ph_step_context *ctx = t->ctx;
    ph_world *world = ctx->world;
    (void)worker;
    for (int i = begin; i < end; i++)
    {
        int slot = ctx->awake[i];
        if (i + SOLVER_BODY_AHEAD < end)
            prefetch_body(&world->bodies[ctx->awake[i + SOLVER_BODY_AHEAD]], 4);
        ph_body *body = &world->bodies[slot];
        ph_body_state *st = &world->states[slot];
        int kind = body_kind(world, slot, t->constrained, t->listed);
        if (kind & BODY_DYNAMIC)
            ph_body_state_set_inv_inertia(st, ph_body_world_inv_inertia(body, body->xf.q));
        body->center0 = body->center;
        body->q0 = body->xf.q;
        st->dp = glms_vec3_zero();
        st->dq = glms_quat_identity();
        if (t->kinds)
            t->kinds[i] = kind;
        if (t->motion && kind == BODY_DYNAMIC)
            t->motion[i] = solver_motion_of(body, slot, world->def.gravity, ctx->h);
    }
}

// The rows' angular impulses on spinning bodies as changes of momentum, exactly: after a sweep of the rows
// (the solve, the relax, a deep contact's stop, restitution), each body of `turners` (dynamic, not isotropic,
// not jointed) whose spin, with the change the sweep made to it from before[i], turns it by more than
// SOLVER_STRUCK_TURN per half sub-step takes ph_body_angular_velocity_struck's; before[i] then holds the
// velocity the next sweep starts from. The rows turn an impulse into a change of velocity with a map linear
// about the velocity at their start; an impact that sets a body spinning within one sweep (a box struck off
// centre, leaving at 9 rad/s) changed the pair's angular momentum by 0.4% that way. `turned`: after the
// sub-step's turn.
typedef struct momentum_task
{
    ph_world *world;
    const int *turners;
    ph_vec3 *before;
    const uint8_t *constrained;
    float h;
    bool turned;
} momentum_task;

static void keep_row_momentum_range(int begin, int end, int worker, void *context)
{
    const momentum_task *t = context;
    (void)worker;
    float least = 2.0f * SOLVER_STRUCK_TURN / t->h, least_held = 2.0f * SOLVER_STRUCK_TURN_HELD / t->h;
    for (int i = begin; i < end; i++)
    {
        const ph_body *body = &t->world->bodies[t->turners[i]];
        ph_body_state *st = &t->world->states[t->turners[i]];
        ph_vec3 w0 = t->before[i];
        ph_vec3 change = glms_vec3_sub(st->w, w0);
        float spin = sqrtf(dot3(w0, w0)) + sqrtf(dot3(change, change));
        bool held = t->constrained && (t->constrained[t->turners[i]] & 2);
        if (spin > (held ? least_held : least) && !glms_vec3_eqv(st->w, w0))
        {
            ph_quat q = glms_quat_normalize(glms_quat_mul(st->dq, body->q0));
            st->w = ph_body_angular_velocity_struck(body, q, &st->inv_inertia, w0, st->w, t->h, t->turned);
        }
        t->before[i] = st->w;
    }
}

// On the workers: each body's correction reads and writes its own state alone, so the split changes no bit.
static void keep_row_momentum(ph_world *world, const int *turners, int count, ph_vec3 *before, float h,
                              bool turned, const uint8_t *constrained)
{
    momentum_task t = {world, turners, before, constrained, h, turned};
    ph_parallel_for(&world->tasks, count, SOLVER_MIN_BODIES, keep_row_momentum_range, &t);
}

bool ph_solve(ph_step_context *ctx)
{
    ph_world *world = ctx->world;
    ph_body_state *states = world->states;
    // The solver's time runs from the end of the last timed stage (the end of one stage is the start of the
    // next), and its own last clock read ends it.
    unsigned long long t_start = ctx->ticks;

    int max_cons = world->contacts.count;
    int joints = world->joint_ids.live_count;
    if (max_cons == 0 && joints == 0)
    {
        // No contact at all: what plan_substeps finds in a world without contacts, without its pass over the
        // slots.
        ctx->stats->longest_column = 0;
        ctx->stats->tallest_stack = 0;
        ctx->stats->solver_substeps = ctx->substeps;
        return solve_free(ctx, t_start);
    }
    constraint_head *heads =
        ph_arena_alloc(ctx->arena, (size_t)(max_cons > 0 ? max_cons : 1) * sizeof *heads);
    int count = heads ? select_constraints(world, heads) : 0;
    float hertz = plan_substeps(ctx);
    if (heads && count == 0 && joints == 0)
    {
        ph_arena_free(ctx->arena, heads);
        return solve_free(ctx, t_start);
    }
    // Bodies in a contact constraint integrate positions exactly as their constraints assume.
    // Zeroed: static bodies' slots are never written and must read as "not refreshed".
    int slots = world->body_ids.slot_count;
    size_t slot_bytes = (size_t)(slots > 0 ? slots : 1);
    uint8_t *constrained = ph_arena_alloc(ctx->arena, slot_bytes);
    uint8_t *refreshed = ph_arena_alloc(ctx->arena, slot_bytes);
    if (constrained)
    {
        memset(constrained, 0, slot_bytes);
        for (int k = 0; k < count; k++)
        {
            // Bit 2: the body touches one that does not move (keep_row_momentum leaves it out).
            bool a_still = states[heads[k].a].inv_mass == 0.0f, b_still = states[heads[k].b].inv_mass == 0.0f;
            constrained[heads[k].a] |= (uint8_t)(b_still ? 3 : 1);
            constrained[heads[k].b] |= (uint8_t)(a_still ? 3 : 1);
        }
    }
    // Joints: their frames for the step, their bodies marked constrained (they take the sub-steps).
    if (joints > 0)
        ph_joints_prepare(world, constrained, ctx->h, world->last_h > 0.0f ? ctx->h / world->last_h : 1.0f);
    if (refreshed)
        memset(refreshed, 0, slot_bytes);
    // The awake dynamic bodies that take the sub-steps, listed once with what their velocity sub-step
    // reads (solver_motion): the sub-step loops then need not read each ph_body (a cache miss per body in
    // big scenes). Positions: the awake bodies in free flight (dynamic, in no constraint) follow their
    // parabola and need their ph_body; every other awake body (constrained or kinematic) steps on its state
    // alone, in one tight loop over `stepped`. The bodies in free flight run their whole step at once (fly)
    // before the sub-steps, which then loop over the constrained bodies only. All sorted out in one pass over
    // the bodies, which reads each ph_body once (the solver's setup below streams megabytes of contacts and
    // groups, and a second pass found the bodies out of cache again).
    size_t awake_n = (size_t)(ctx->awake_count > 0 ? ctx->awake_count : 1);
    int *dynamic = ph_arena_alloc(ctx->arena, awake_n * sizeof(int));
    solver_motion *motion = ph_arena_alloc(ctx->arena, awake_n * sizeof *motion);
    int *stepped = ph_arena_alloc(ctx->arena, awake_n * sizeof(int));
    int dynamic_count = 0, stepped_count = 0, flying_count = 0; // flying: from the end of `stepped` down
    // Each body's start of the step on the workers, which note its kind (in `dynamic`, by awake index) and
    // its motion record (in `motion`, by awake index); the lists are then made in awake order here.
    start_task st = {ctx, constrained, stepped != NULL, dynamic, motion};
    ph_parallel_for(&world->tasks, ctx->awake_count, SOLVER_MIN_BODIES, start_bodies, &st);
    for (int i = 0; i < ctx->awake_count; i++)
    {
        int slot = ctx->awake[i];
        int kind = dynamic ? dynamic[i] : body_kind(world, slot, constrained, stepped != NULL);
        bool flying = (kind & BODY_FLYING) != 0;
        if (stepped)
        {
            if (flying)
                stepped[ctx->awake_count - 1 - flying_count++] = slot;
            else
                stepped[stepped_count++] = slot;
        }
        // A body in free flight flies (whenever one does, fly_first below), and takes no sub-step. The lists
        // fill from their starts, behind the index read (dynamic_count <= i).
        if ((kind & BODY_DYNAMIC) && dynamic && !flying)
        {
            if (motion)
                motion[dynamic_count] = motion[i];
            dynamic[dynamic_count++] = slot;
        }
    }
    const int *flying = stepped ? stepped + ctx->awake_count - flying_count : NULL;
    bool fly_first = flying_count > 0 && dynamic;

    // The wide path where the world allows it, the CPU has it and the arena holds its groups.
    wide_solver wide = {0};
    constraint_set set = {heads, NULL, NULL, count};
    const wide_kernels *kernels = ph_wide_kernels_for(world->def.simd);
    if (count > 0 && kernels)
    {
        if (ph_wide_build(ctx->arena, states, slots, heads, count, (wide_arms_mode)world->wide_arms, kernels,
                          &wide))
        {
            set.wide = &wide;
            set.scalar_count = wide.scalar_count;
        }
        else
            ph_wide_release(ctx->arena, &wide);
    }
    set.cons =
        set.scalar_count > 0 ? ph_arena_alloc(ctx->arena, (size_t)set.scalar_count * sizeof *set.cons) : NULL;
    bool ok = heads && dynamic && (set.scalar_count == 0 || set.cons);
    if (!ok)
    {
        ph_log(PH_LOG_ERROR, "The step could not allocate its solver arrays (%d contact constraints); %s.",
               heads ? set.scalar_count : max_cons, dynamic ? "they are skipped" : "no body moves this step");
        set.scalar_count = 0;
    }
    prepare_params params = prepare_params_of(ctx, hertz);
    prepare_all(world, &params, &set);

    // The bodies that turn fast enough for refresh_spinning, noted as their velocities are integrated (the
    // state is at hand then) so that it need not scan every state again; their marks in `refreshed` are
    // cleared before the next sub-step's list replaces them.
    int *spinning = ph_arena_alloc(ctx->arena, (size_t)(dynamic_count > 0 ? dynamic_count : 1) * sizeof(int));
    uint8_t *spin =
        spinning ? ph_arena_alloc(ctx->arena, (size_t)(dynamic_count > 0 ? dynamic_count : 1)) : NULL;
    if (!spin && spinning)
    {
        ph_arena_free(ctx->arena, spinning);
        spinning = NULL;
    }
    int spinning_count = 0;
    bool spin_noted = false; // `spinning` lists the last sub-step's spinning bodies
    // The bodies whose momentum is not linear in their angular velocity (keep_row_momentum), and their
    // velocities before each sweep. Not jointed ones: the correction moves a body's velocity off what the
    // rows solved for by a term of order h w dw, which a joint's rows then see as a drift (20 ragdolls down
    // the stairs opened a joint by 21 mm with it, 8.6 mm without; issue 20 allows 20), so a jointed body
    // exchanges momentum with its partners as the rows' first-order map gives it.
    int *turners =
        dynamic ? ph_arena_alloc(ctx->arena, (size_t)(dynamic_count > 0 ? dynamic_count : 1) * sizeof(int))
                : NULL;
    ph_vec3 *before =
        turners ? ph_arena_alloc(ctx->arena, (size_t)(dynamic_count > 0 ? dynamic_count : 1) * sizeof *before)
                : NULL;
    int turner_count = 0;
    for (int i = 0; before && i < dynamic_count; i++)
        if (states[dynamic[i]].inv_inertia_scale < 0.0f &&
            world->bodies[dynamic[i]].type == PH_BODY_DYNAMIC && world->bodies[dynamic[i]].joint_head < 0)
            turners[turner_count++] = dynamic[i];
    float spin_limit = SOLVER_INERTIA_REFRESH_ANGLE / ctx->dt;
    float inv_h = 1.0f / ctx->h, max_speed = BODY_MAX_ROTATION / ctx->h;
    // Integration is timed apart from the solver: ticks are summed and converted once. The relax sweep
    // ends each sub-step, so the clock is read three times per sub-step, not four: the read before the
    // velocity integration of the next is the one after this sub-step's relax sweep.
    unsigned long long integrate_ticks = 0, t0 = ph_ticks();
    if (fly_first)
        fly_all(ctx, flying, flying_count, NULL, NULL);
    for (int s = 0; s < ctx->substeps; s++)
    {
        // The sub-step through which the angular velocities carried the bodies last.
        float carried = s > 0 ? ctx->h : world->last_h;
        bool note_spin = s > 0 && refreshed && spinning;
        spin_noted = note_spin;
        if (note_spin)
        {
            for (int i = 0; i < spinning_count; i++)
                refreshed[spinning[i]] = 0;
            spinning_count = 0;
        }
        velocity_task vt = {.world = world,
                            .dynamic = dynamic,
                            .motion = motion,
                            .spin = spin,
                            .h = ctx->h,
                            .carried = carried,
                            .max_speed = max_speed,
                            .spin_limit = spin_limit,
                            .note_spin = note_spin};
        atomic_init(&vt.spinners, 0);
        ph_parallel_for(&world->tasks, dynamic_count, SOLVER_MIN_BODIES, integrate_velocities, &vt);
        // The spinners in list order, from the marks the ranges left.
        for (int i = 0; atomic_load_explicit(&vt.spinners, memory_order_relaxed) > 0 && i < dynamic_count;
             i++)
            if (spin[i])
                spinning[spinning_count++] = dynamic[i];
        for (int i = 0; i < turner_count; i++)
            before[i] = states[turners[i]].w;
        unsigned long long t1 = ph_ticks();
        integrate_ticks += t1 - t0;
        // The joints measure their geometry again in the first sweep of the step and after the bodies
        // moved; an inertia refreshed since then changes their blocks too.
        bool inertia_changed =
            refreshed && s > 0 &&
            refresh_spinning(ctx, &set, note_spin ? spinning : dynamic,
                             note_spin ? spinning_count : dynamic_count, constrained, refreshed);
        if (joints > 0)
            ph_joints_warm_start(world, ctx->h, s == 0);
        warm_start(&world->tasks, states, &set);
        // The bodies last moved before the step's first sweep and before each relax sweep: those sweeps
        // measure the separations, the others reuse them (the wide path keeps them per group).
        for (int it = 0; it < world->def.solver_iterations; it++)
        {
            if (joints > 0)
                ph_joints_solve(world, ctx->h, true, it == 0 && (s == 0 || inertia_changed));
            solve(&world->tasks, states, &set, inv_h, true, s == 0 && it == 0, false);
        }
        keep_row_momentum(world, turners, turner_count, before, ctx->h, false, constrained);
        t0 = ph_ticks();
        if (stepped)
        {
            position_task pt = {states, stepped, kernels, ctx->h};
            ph_parallel_for(&world->tasks, stepped_count, SOLVER_MIN_BODIES, integrate_positions, &pt);
            for (int i = 0; !fly_first && i < flying_count; i++)
                ph_body_integrate_position(&world->bodies[flying[i]], &states[flying[i]], world->def.gravity,
                                           ctx->h, true);
        }
        else
        {
            for (int i = 0; i < ctx->awake_count; i++)
            {
                int slot = ctx->awake[i];
                ph_body_integrate_position(&world->bodies[slot], &states[slot], world->def.gravity, ctx->h,
                                           constrained && !constrained[slot]);
            }
        }
        t1 = ph_ticks();
        integrate_ticks += t1 - t0;
        for (int it = 0; it < world->def.solver_iterations; it++)
        {
            if (joints > 0)
                ph_joints_solve(world, ctx->h, false, it == 0);
            solve(&world->tasks, states, &set, inv_h, false, it == 0, it == world->def.solver_iterations - 1);
        }
        // More relax sweeps of the joints alone (joint.h says why).
        for (int it = 1; joints > 0 && it < PH_JOINT_RELAX_SWEEPS; it++)
            ph_joints_solve(world, ctx->h, false, false);
        keep_row_momentum(world, turners, turner_count, before, ctx->h, true, constrained);
        t0 = ph_ticks();
    }
    // Warm starting reuses the impulse that held the contact over a sub-step; the restitution kick is a
    // one-off and would push a separating body again in every sub-step of the next step.
    store_impulses(world, &set, ctx->h, ctx->dt);
    if (joints > 0)
    {
        ph_joints_finish(world, ctx->h, ctx->dt);
        ph_joints_project(world);
    }
    project_deep_contacts(ctx);
    keep_row_momentum(world, turners, turner_count, before, ctx->h, true, constrained);
    world->last_h = ctx->h;
    // Restitution acts at the step's end: the rows of spinning bodies take the inertia of where they turned
    // to (the bodies noted spinning in the last sub-step, else all).
    const int *turning = spin_noted ? spinning : dynamic;
    int turning_count = spin_noted ? spinning_count : dynamic_count;
    if (refreshed)
        refresh_spinning(ctx, &set, turning, turning_count, constrained, refreshed);
    restitution(&world->tasks, states, &set, ctx->h);
    keep_row_momentum(world, turners, turner_count, before, ctx->h, true, constrained);
    store_totals(world, &set);
    if (set.wide)
        ctx->stats->solver_colors = wide.colors;

    ph_parallel_for(&world->tasks, ctx->awake_count, SOLVER_MIN_BODIES, finish_poses, ctx);
    if (before)
        ph_arena_free(ctx->arena, before);
    if (turners)
        ph_arena_free(ctx->arena, turners);
    if (spin)
        ph_arena_free(ctx->arena, spin);
    if (spinning)
        ph_arena_free(ctx->arena, spinning);
    if (set.cons)
        ph_arena_free(ctx->arena, set.cons);
    if (set.wide)
        ph_wide_release(ctx->arena, set.wide);
    if (stepped)
        ph_arena_free(ctx->arena, stepped);
    if (motion)
        ph_arena_free(ctx->arena, motion);
    if (dynamic)
        ph_arena_free(ctx->arena, dynamic);
    if (refreshed)
        ph_arena_free(ctx->arena, refreshed);
    if (constrained)
        ph_arena_free(ctx->arena, constrained);
    if (heads)
        ph_arena_free(ctx->arena, heads);
    float integrate_ms = ph_ticks_to_ms(integrate_ticks);
    ctx->ticks = ph_ticks();
    float total_ms = ph_ticks_to_ms(ctx->ticks - t_start);
    ctx->stats->ms_stage[PH_STAGE_INTEGRATE] += integrate_ms;
    ctx->stats->ms_stage[PH_STAGE_SOLVER] += total_ms - integrate_ms;
    return ok;
}
