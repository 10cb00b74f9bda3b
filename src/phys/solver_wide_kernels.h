// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The wide kernels, written once against simd.h's lanes and built once per instruction set: each of
// solver_wide_avx2.c, solver_wide_sse2.c and solver_wide_neon.c defines its PH_LANES_ macro and includes this
// file, which defines static kernels with the set's suffix and exports them as one table,
// ph_wide_kernels_<set> (solver_wide.c picks the table at run time). Not a header to include anywhere else:
// no include guard, on purpose.
//
// A group holds WIDE (8) lanes whatever the instruction set (solver_internal.h). A set of LANES lanes solves
// a group as WIDE / LANES units of LANES lanes each, side by side like groups of one colour: the lanes of a
// group share no moving body, so any split of them solves them alike. A unit whose lanes are all unused is
// skipped, so a colour of n constraints costs ceil(n / LANES) units on any set, as if it had been grouped
// LANES wide. Every lane's arithmetic is the same on every set; only fw_madd and fw_msub differ (fused on
// AVX2 and Neon, multiply then add on SSE2), and the position update's normalisation, which follows the
// scalar code's (cglm's) on each platform.
//
// The per-lane arithmetic is solver.c's: solve() and bounce() row for row, prepare() and refresh_rows()
// operation for operation but for the rows' arms (r x d and I^-1 (r x d), formed with fw_madd), and
// warm_start() summed over a lane's points before the inverse inertias turn the angular part; the sweeps use
// fw_madd, so lanes differ from scalar constraints by rounding. The arms are kept beside small groups and
// worked out in every sweep for large ones (wide_arms_mode), by one function either way, so that the choice
// changes the speed only. Lanes beyond a group's constraints, and points beyond a constraint's count, hold
// zero anchors, masses and impulses and so change nothing.
#include "simd.h"
#include "solver_internal.h"

#include <stddef.h> // offsetof
#include <string.h> // memcpy

#if defined(PH_LANES_AVX2)
#define WIDE_FN(name) name##_avx2
#elif defined(PH_LANES_SSE2)
#define WIDE_FN(name) name##_sse2
#elif defined(PH_LANES_NEON)
#define WIDE_FN(name) name##_neon
#endif

_Static_assert(WIDE % LANES == 0, "a group is a whole number of units");

// The AVX2 kernels are also built for AVX-512VL and the loader picks that build where the CPU has it: the
// instructions are the same 8-lane ones, but its 32 vector registers hold a group's velocities, normal and
// soft-constraint terms, which spill out of AVX2's 16 (pyramid20's step -6%, large_pyramid's -10 to -15%).
// Clang 14 (Debian 12) crashes on these clones, so clang builds keep the AVX2 build only; so do
// ThreadSanitizer builds, whose instrumented ifunc resolvers run before its runtime starts and crash.
#if defined(PH_LANES_AVX2) && defined(__GNUC__) && !defined(__clang__) && !defined(__AVX512VL__) &&          \
    !defined(__SANITIZE_THREAD__)
#define WIDE_KERNEL static __attribute__((target_clones("arch=x86-64-v4", "default")))
#else
#define WIDE_KERNEL static
#endif

#define WIDE_INLINE FW_INLINE

typedef struct v3w
{
    fw x, y, z;
} v3w;

// Short names for the loads and stores every row is full of.
#define ld(p) fw_load(p)
#define st(p, v) fw_store(p, v)

// Lanes o .. o + LANES - 1 of the three rows of a float[3][WIDE] field (a macro: a function taking const
// float[3][WIDE] would need a cast from the non-const fields in ISO C before C23).
#define LD3(p, o) ((v3w){ld((p)[0] + (o)), ld((p)[1] + (o)), ld((p)[2] + (o))})

WIDE_INLINE fw dot(v3w a, v3w b)
{
    return fw_madd(a.x, b.x, fw_madd(a.y, b.y, a.z * b.z));
}

WIDE_INLINE v3w sub(v3w a, v3w b)
{
    return (v3w){a.x - b.x, a.y - b.y, a.z - b.z};
}

WIDE_INLINE v3w cross(v3w a, v3w b)
{
    return (v3w){fw_msub(a.y, b.z, a.z * b.y), fw_msub(a.z, b.x, a.x * b.z), fw_msub(a.x, b.y, a.y * b.x)};
}

// a + b s
WIDE_INLINE v3w madd(v3w a, v3w b, fw s)
{
    return (v3w){fw_madd(b.x, s, a.x), fw_madd(b.y, s, a.y), fw_madd(b.z, s, a.z)};
}

// The velocities of a unit's bodies, lane by lane (as solver.c's pair_velocity).
typedef struct wide_velocity
{
    v3w va, wa, vb, wb;
    fw inv_mass_a, inv_mass_b;
    fw scale_a, scale_b; // the states' inv_inertia_scale, which rides in the same run of 8 floats
} wide_velocity;

// Body states are read 8 floats at a time, one run per lane, and transposed into one vector per field;
// velocities are written back the same way.
#define FIELD(f) ((int)(offsetof(ph_body_state, f) / sizeof(float)))
_Static_assert(FIELD(inv_mass) == FIELD(v) + 3 && FIELD(w) == FIELD(v) + 4 &&
                   FIELD(inv_inertia_scale) == FIELD(v) + 7,
               "v, inv_mass, w, inv_inertia_scale are one run of 8 floats");
_Static_assert(FIELD(dq) == FIELD(dp) + 4, "dp, pad_dp, dq are one run of 8 floats");
_Static_assert(sizeof(wide_group) % 32 == 0 && offsetof(wide_group, points) % 32 == 0 &&
                   offsetof(wide_group, cold) % 32 == 0,
               "every run of 8 floats of a group is 32-byte aligned");

// The state at byte offset `at` of `states` (a group's at_a, at_b).
WIDE_INLINE float *state_at(const ph_body_state *states, int at)
{
    return (float *)((const char *)states + at);
}

// The run of 8 floats at `field` of the bodies at byte offsets at[0 .. LANES - 1], transposed.
WIDE_INLINE void load_runs_at(const ph_body_state *states, const int *at, int field, fw out[8])
{
    const float *rows[LANES];
    for (int lane = 0; lane < LANES; lane++)
        rows[lane] = state_at(states, at[lane]) + field;
    fw_load_runs(rows, out);
}

// Unit o of group g: its lanes o .. o + LANES - 1.
WIDE_INLINE wide_velocity load_velocity(const ph_body_state *states, const wide_group *g, int o)
{
    fw a[8], b[8];
    load_runs_at(states, g->at_a + o, FIELD(v), a);
    load_runs_at(states, g->at_b + o, FIELD(v), b);
    return (wide_velocity){{a[0], a[1], a[2]},
                           {a[4], a[5], a[6]},
                           {b[0], b[1], b[2]},
                           {b[4], b[5], b[6]},
                           a[3],
                           b[3],
                           a[7],
                           b[7]};
}

// Writes unit o's velocities back (with the inverse masses and inertia scales as read). Lanes beyond the
// group's are not written, and neither are bodies that do not move (still_a, still_b): their lanes go to a
// scratch row. Such a body (the ground) is shared by any number of a colour's constraints, which workers
// solve at the same time; its velocity comes out as it was read, and writing it back from two threads at once
// would be a data race all the same.
WIDE_INLINE void store_velocity(ph_body_state *states, const wide_group *g, int o, const wide_velocity *p)
{
    const fw a[8] = {p->va.x, p->va.y, p->va.z, p->inv_mass_a, p->wa.x, p->wa.y, p->wa.z, p->scale_a};
    const fw b[8] = {p->vb.x, p->vb.y, p->vb.z, p->inv_mass_b, p->wb.x, p->wb.y, p->wb.z, p->scale_b};
    int count = g->lanes - o < LANES ? g->lanes - o : LANES;
    _Alignas(32) float scratch[2][LANES][8];
    float *rows_a[LANES], *rows_b[LANES];
    for (int lane = 0; lane < LANES; lane++)
    {
        unsigned bit = 1u << (o + lane);
        rows_a[lane] = g->still_a & bit ? scratch[0][lane] : state_at(states, g->at_a[o + lane]) + FIELD(v);
        rows_b[lane] = g->still_b & bit ? scratch[1][lane] : state_at(states, g->at_b[o + lane]) + FIELD(v);
    }
    fw_store_runs(rows_a, count, a);
    fw_store_runs(rows_b, count, b);
}

// Units of group g that hold a constraint (a unit of unused lanes only is skipped: it changes nothing).
WIDE_INLINE int units_of(const wide_group *g)
{
    return (g->lanes + LANES - 1) / LANES;
}

// A world inverse inertia per lane: m[c] is float c of the column-major 3x3 matrix (column c / 3, row c % 3).
typedef struct wide_mat3
{
    fw m[9];
} wide_mat3;

WIDE_INLINE wide_mat3 load_inertia(const ph_body_state *states, const int *at)
{
    wide_mat3 r;
    load_runs_at(states, at, FIELD(inv_inertia), r.m);
    float last[LANES];
    for (int lane = 0; lane < LANES; lane++)
        last[lane] = state_at(states, at[lane])[FIELD(inv_inertia) + 8];
    r.m[8] = ld(last);
    return r;
}

// M v with fused multiply-adds (the sweeps).
WIDE_INLINE v3w mulv(const wide_mat3 *m, v3w v)
{
    return (v3w){fw_madd(m->m[0], v.x, fw_madd(m->m[3], v.y, m->m[6] * v.z)),
                 fw_madd(m->m[1], v.x, fw_madd(m->m[4], v.y, m->m[7] * v.z)),
                 fw_madd(m->m[2], v.x, fw_madd(m->m[5], v.y, m->m[8] * v.z))};
}

// The inverse inertias of a unit's bodies, lane by lane (static bodies' are zero): where the group is
// isotropic (wide_group.isotropic) only their scales sa, sb, else the matrices a, b.
typedef struct wide_inertia
{
    bool isotropic;
    fw sa, sb;
    wide_mat3 a, b;
} wide_inertia;

// The inverse inertias of unit o of group g, whose velocities (and with them the inertia scales) are p.
WIDE_INLINE wide_inertia load_inertias(const ph_body_state *states, const wide_group *g, int o,
                                       const wide_velocity *p)
{
    wide_inertia r;
    r.isotropic = g->isotropic;
    if (r.isotropic)
    {
        r.sa = p->scale_a;
        r.sb = p->scale_b;
    }
    else
    {
        r.a = load_inertia(states, g->at_a + o);
        r.b = load_inertia(states, g->at_b + o);
    }
    return r;
}

// The inverse inertia of body a (turn_a) or b (turn_b) applied to r: a product by its scale where the group
// is isotropic (the same as the matrix product but for the sign of a zero), else the matrix product.
WIDE_INLINE v3w turn_a(const wide_inertia *in, v3w r)
{
    return in->isotropic ? (v3w){r.x * in->sa, r.y * in->sa, r.z * in->sa} : mulv(&in->a, r);
}

WIDE_INLINE v3w turn_b(const wide_inertia *in, v3w r)
{
    return in->isotropic ? (v3w){r.x * in->sb, r.y * in->sb, r.z * in->sb} : mulv(&in->b, r);
}

// A row's angular parts, lane by lane: the arms ra x d and rb x d of its direction d, and the bodies'
// inverse inertias applied to them.
typedef struct row_arms
{
    v3w rda, rdb, irda, irdb;
} row_arms;

// The arms of a row along d at anchors ra, rb. Kept arms (wide_kept_arms) and worked-out ones both come
// from here, so the sweeps give the same bits either way.
WIDE_INLINE row_arms arms_of(const wide_inertia *in, v3w ra, v3w rb, v3w d)
{
    row_arms r;
    r.rda = cross(ra, d);
    r.rdb = cross(rb, d);
    r.irda = turn_a(in, r.rda);
    r.irdb = turn_b(in, r.rdb);
    return r;
}

// A row of the sweeps: its kept arms (lanes o ..), or its arms ra x d and rb x d worked out (a, b). Kept arms
// are read where they are used, as memory operands of the arithmetic: loaded up front, three units' worth of
// them spilled.
typedef struct row_ref
{
    const wide_arms *kept; // where the group's arms are kept
    int o;                 // the unit's first lane in them
    v3w a, b;              // else
} row_ref;

// The normal row (along d) of point i of unit o of group g; its arms worked out from the point's anchors (as
// arms_of) unless kept. `keep` (whether g's are kept) is a constant where this is inlined.
WIDE_INLINE row_ref row_at(const wide_group *g, int o, bool keep, int i, v3w d)
{
    if (keep)
        return (row_ref){.kept = &wide_kept_arms(g)->normal[i], .o = o};
    return (row_ref){.a = cross(LD3(g->points[i].ra, o), d), .b = cross(LD3(g->points[i].rb, o), d)};
}

// Friction row `which` (0 or 1, along tangent d) at the centres of unit o of group g, as row_at.
WIDE_INLINE row_ref friction_at(const wide_group *g, int o, bool keep, int which, v3w d)
{
    if (keep)
        return (row_ref){.kept = &wide_kept_arms(g)->friction[which], .o = o};
    return (row_ref){.a = cross(LD3(g->fa, o), d), .b = cross(LD3(g->fb, o), d)};
}

// The speed along a row of direction d (row_speed in solver.c).
WIDE_INLINE fw row_speed(const wide_velocity *p, v3w d, bool keep, const row_ref *r)
{
    if (keep)
        return dot(sub(p->vb, p->va), d) + dot(p->wb, LD3(r->kept->rdb, r->o)) -
               dot(p->wa, LD3(r->kept->rda, r->o));
    return dot(sub(p->vb, p->va), d) + dot(p->wb, r->b) - dot(p->wa, r->a);
}

// An impulse along that row (row_apply in solver.c): its arms' turns by the inverse inertias `in` kept or
// worked out (as arms_of).
WIDE_INLINE void row_apply(wide_velocity *p, v3w d, bool keep, const row_ref *r, const wide_inertia *in,
                           fw impulse)
{
    p->va = madd(p->va, d, -impulse * p->inv_mass_a);
    p->wa = madd(p->wa, keep ? LD3(r->kept->irda, r->o) : turn_a(in, r->a), -impulse);
    p->vb = madd(p->vb, d, impulse * p->inv_mass_b);
    p->wb = madd(p->wb, keep ? LD3(r->kept->irdb, r->o) : turn_b(in, r->b), impulse);
}

// conj(q) * v for the unit quaternions (x, y, z, w) of each lane: v - 2 w (u x v) + 2 u x (u x v).
WIDE_INLINE v3w rotate_inverse(v3w u, fw w, v3w v)
{
    v3w t = cross(u, v);
    t = (v3w){t.x + t.x, t.y + t.y, t.z + t.z};
    v3w r = madd(v, t, -w);
    v3w c = cross(u, t);
    return (v3w){r.x + c.x, r.y + c.y, r.z + c.z};
}

// ---- Preparation ----
// Operation for operation what solver.c's prepare() and set_row() do, with separate multiplies and adds
// (no fused multiply-add, the build has -ffp-contract=off), so the lanes hold exactly the constraints the
// scalar path builds.

WIDE_INLINE fw dot_exact(v3w a, v3w b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

WIDE_INLINE v3w cross_exact(v3w a, v3w b)
{
    return (v3w){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

WIDE_INLINE v3w and3(v3w v, fw mask)
{
    return (v3w){fw_and(v.x, mask), fw_and(v.y, mask), fw_and(v.z, mask)};
}

WIDE_INLINE void store3(float dst[3][WIDE], int o, v3w v)
{
    st(dst[0] + o, v.x);
    st(dst[1] + o, v.y);
    st(dst[2] + o, v.z);
}

// Stored under `mask`, zero elsewhere.
WIDE_INLINE void st3(float dst[3][WIDE], int o, v3w v, fw mask)
{
    store3(dst, o, and3(v, mask));
}

// The effective mass of a row with arms r, as set_row() in solver.c forms it.
WIDE_INLINE fw row_mass(const wide_velocity *p, const row_arms *r)
{
    fw k = p->inv_mass_a + p->inv_mass_b + dot_exact(r->rda, r->irda) + dot_exact(r->rdb, r->irdb);
    fw zero = fw_zero();
    return fw_select(zero, fw_splat(1.0f) / k, fw_gt(k, zero));
}

// Kept as worked out, unmasked: a sweep that works them out again must get the same bits.
WIDE_INLINE void arms_store(wide_arms *a, int o, const row_arms *r)
{
    store3(a->rda, o, r->rda);
    store3(a->rdb, o, r->rdb);
    store3(a->irda, o, r->irda);
    store3(a->irdb, o, r->irdb);
}

// The row along d at the (masked) anchors ra, rb: its mass and impulse stored under `mask`, zero elsewhere
// (a new constraint: lanes and points beyond the group's are zero), and its arms kept where `kept` is not
// NULL (as worked out, so that a sweep that works them out again gets the same bits). Returns the arms.
WIDE_INLINE row_arms prepare_row(wide_row *r, wide_arms *kept, int o, const wide_velocity *p,
                                 const wide_inertia *in, v3w ra, v3w rb, v3w d, fw impulse, fw mask)
{
    row_arms arms = arms_of(in, ra, rb, d);
    st(r->mass + o, fw_and(row_mass(p, &arms), mask));
    st(r->impulse + o, fw_and(impulse, mask));
    if (kept)
        arms_store(kept, o, &arms);
    return arms;
}

WIDE_INLINE void blend3(float dst[3][WIDE], int o, v3w v, fw mask)
{
    st(dst[0] + o, fw_select(ld(dst[0] + o), v.x, mask));
    st(dst[1] + o, fw_select(ld(dst[1] + o), v.y, mask));
    st(dst[2] + o, fw_select(ld(dst[2] + o), v.z, mask));
}

// The row rebuilt under `mask` (its mass, and its kept arms if any), the old one kept elsewhere; a rebuilt
// row keeps its impulse.
WIDE_INLINE void refresh_row(wide_row *r, wide_arms *kept, int o, const wide_velocity *p,
                             const wide_inertia *in, v3w ra, v3w rb, v3w d, fw mask)
{
    row_arms arms = arms_of(in, ra, rb, d);
    st(r->mass + o, fw_select(ld(r->mass + o), row_mass(p, &arms), mask));
    if (kept)
    {
        blend3(kept->rda, o, arms.rda, mask);
        blend3(kept->rdb, o, arms.rdb, mask);
        blend3(kept->irda, o, arms.irda, mask);
        blend3(kept->irdb, o, arms.irdb, mask);
    }
}

// The lanes of unit o that have a point i: a lane in use has at least one, an unused lane none
// (ph_wide_build).
WIDE_INLINE fw has_point(const wide_group *g, int o, int i)
{
    return fw_ints_gt(g->point_counts + o, i);
}

// The twist row of unit o along normal n: its effective inertia, stored under `mask` (the old one kept
// elsewhere), and where the arms are kept, I^-1 n of each body (set_twist in solver.c).
WIDE_INLINE void twist_row_of(wide_group *g, wide_group_arms *kept, int o, const wide_inertia *in, v3w n,
                              fw mask)
{
    v3w ian = turn_a(in, n), ibn = turn_b(in, n);
    fw k = dot_exact(n, ian) + dot_exact(n, ibn), zero = fw_zero();
    fw mass = fw_select(zero, fw_splat(1.0f) / k, fw_gt(k, zero));
    st(g->twist_mass + o, fw_select(ld(g->twist_mass + o), mass, mask));
    if (kept)
    {
        blend3(kept->ian, o, ian, mask);
        blend3(kept->ibn, o, ibn, mask);
    }
}

// The anchors stay those of the step's start (see refresh_rows in solver.c): only the masses and the turned
// arms change with the inverse inertias.
WIDE_KERNEL void WIDE_FN(refresh)(const ph_body_state *states, wide_solver *w, const uint8_t *refreshed,
                                  int first, int last)
{
    for (int gi = first; gi < last; gi++)
    {
        wide_group *g = wide_group_at(w, gi);
        // Lanes with a body that solver.c's refresh_spinning marked as turning fast.
        int lanes[WIDE] = {0}, any = 0;
        for (int lane = 0; lane < g->lanes; lane++)
        {
            int a = g->at_a[lane] / (int)sizeof(ph_body_state),
                b = g->at_b[lane] / (int)sizeof(ph_body_state);
            lanes[lane] = -(int)(refreshed[a] | refreshed[b]);
            any |= lanes[lane];
        }
        if (!any)
            continue;
        wide_group_arms *kept = wide_keeps_arms(w) ? wide_kept_arms(g) : NULL;
        for (int u = 0, units = units_of(g); u < units; u++)
        {
            int o = u * LANES;
            wide_velocity p = load_velocity(states, g, o); // for the inverse masses
            wide_inertia in = load_inertias(states, g, o, &p);
            v3w n = LD3(g->normal, o), t1 = LD3(g->t1, o), t2 = LD3(g->t2, o);
            fw lanes_mask = fw_ints_mask(lanes + o);
            for (int i = 0; i < g->point_count; i++)
            {
                const wide_point *wp = &g->points[i];
                refresh_row(&g->points[i].n, kept ? &kept->normal[i] : NULL, o, &p, &in, LD3(wp->ra, o),
                            LD3(wp->rb, o), n, fw_and(lanes_mask, has_point(g, o, i)));
            }
            fw in_use = fw_and(lanes_mask, has_point(g, o, 0));
            refresh_row(&g->f1, kept ? &kept->friction[0] : NULL, o, &p, &in, LD3(g->fa, o), LD3(g->fb, o),
                        t1, in_use);
            refresh_row(&g->f2, kept ? &kept->friction[1] : NULL, o, &p, &in, LD3(g->fa, o), LD3(g->fb, o),
                        t2, in_use);
            twist_row_of(g, kept, o, &in, n, in_use);
        }
    }
}

// One restitution sweep over the groups, lane for lane what bounce() in solver.c does (the lanes of a group
// share no moving body, so side by side is the same as one after the other). True when a point bounced.
WIDE_KERNEL bool WIDE_FN(bounce)(ph_body_state *states, wide_solver *w, float h_scalar, bool compress,
                                 int first, int last)
{
    const fw zero = fw_zero(), sign = fw_splat(-0.0f), h = fw_splat(h_scalar);
    bool bouncing = false;
    for (int gi = first; gi < last; gi++)
    {
        wide_group *g = wide_group_at(w, gi);
        for (int u = 0, units = units_of(g); u < units; u++)
        {
            int o = u * LANES;
            fw restitution = ld(g->restitution + o);
            fw bouncy = fw_neq(restitution, zero);
            if (!fw_any(bouncy))
                continue;
            wide_velocity p = load_velocity(states, g, o);
            wide_inertia in = load_inertias(states, g, o, &p);
            v3w n = LD3(g->normal, o);
            fw accel = ld(g->accel_n + o);
            bool bounced = false;
            // Each lane's compression and push so far, for the pushing sweeps (bounce() in solver.c); padded
            // points hold zeros.
            fw compressed = zero, pushed = zero;
            for (int i = 0; !compress && i < g->point_count; i++)
            {
                compressed =
                    compressed + (ld(g->cold[i].total_impulse + o) - ld(g->cold[i].bounce_impulse + o));
                pushed = pushed + ld(g->cold[i].bounce_impulse + o);
            }
            for (int i = 0; i < g->point_count; i++)
            {
                wide_point *wp = &g->points[i];
                wide_point_cold *wc = &g->cold[i];
                fw approach = ld(wc->approach + o);
                // Closed fast enough, and touched this step (padded points never touched).
                fw fast = fw_ngt(approach, fw_splat(-SOLVER_RESTITUTION_THRESHOLD));
                fw touched = fw_neq(ld(wc->max_normal_impulse + o), zero);
                fw mask = fw_and(bouncy, fw_and(fast, touched));
                if (!fw_any(mask))
                    continue;
                bounced = true;
                // The arms as kept or worked out (arms_of is both).
                row_arms arms = arms_of(&in, LD3(wp->ra, o), LD3(wp->rb, o), n);
                fw vn = dot_exact(p.vb, n) - dot_exact(p.va, n) + dot_exact(p.wb, arms.rdb) -
                        dot_exact(p.wa, arms.rda);
                fw accumulated = ld(wp->n.impulse + o), mass = ld(wp->n.mass + o),
                   total_so_far = ld(wc->total_impulse + o);
                fw impulse;
                if (compress)
                    impulse = fw_max(fw_xor(mass, sign) * vn, zero);
                else
                {
                    fw reach = fw_xor(approach, sign) * h - fw_splat(0.5f) * accel * h * h;
                    fw gap = fw_min(ld(wc->approach_gap + o), fw_max(reach, zero));
                    fw a2 = approach * approach;
                    fw v2 = a2 - fw_splat(2.0f) * accel * gap;
                    fw impact = fw_select(approach, fw_xor(fw_sqrt(v2), sign), fw_gt(v2, a2));
                    // Leaving at e times the impact speed from where the step ends (bounce() in solver.c).
                    fw leave = restitution * impact;
                    fw gap_end = fw_max(ld(g->separation[i] + o), zero);
                    fw leave2 = leave * leave + fw_splat(2.0f) * accel * gap_end;
                    fw target = fw_sqrt(fw_max(leave2, zero));
                    impulse = fw_xor(mass, sign) * (vn - target);
                    impulse = fw_max(accumulated + impulse, zero) - accumulated;
                    // Poisson's bound (bounce() in solver.c).
                    fw allowance = restitution * compressed - pushed;
                    impulse = fw_and(fw_min(impulse, fw_max(allowance, zero)), mask);
                    st(wc->bounce_impulse + o, ld(wc->bounce_impulse + o) + impulse);
                    pushed = pushed + impulse;
                }
                impulse = fw_and(impulse, mask);
                st(wp->n.impulse + o, accumulated + impulse);
                st(wc->total_impulse + o, total_so_far + impulse);
                // row_apply() in solver.c, without fused multiply-adds.
                fw neg = fw_xor(impulse, sign);
                v3w irda = arms.irda, irdb = arms.irdb;
                fw sa = neg * p.inv_mass_a, sb = impulse * p.inv_mass_b;
                p.va = (v3w){p.va.x + n.x * sa, p.va.y + n.y * sa, p.va.z + n.z * sa};
                p.wa = (v3w){p.wa.x + irda.x * neg, p.wa.y + irda.y * neg, p.wa.z + irda.z * neg};
                p.vb = (v3w){p.vb.x + n.x * sb, p.vb.y + n.y * sb, p.vb.z + n.z * sb};
                p.wb = (v3w){p.wb.x + irdb.x * impulse, p.wb.y + irdb.y * impulse, p.wb.z + irdb.z * impulse};
            }
            if (bounced)
            {
                store_velocity(states, g, o, &p);
                bouncing = true;
            }
        }
    }
    return bouncing;
}

// Unit o of group g built from lanes o .. of `in` (ph_wide_prepare). Every unit is built, those of unused
// lanes too, so that a group's lanes beyond its constraints hold zeros on every instruction set.
WIDE_INLINE void prepare_unit(const ph_body_state *states, wide_group *g, wide_group_arms *kept, int o,
                              const wide_input *in, fw warm_scale, fw *out_passes)
{
    const fw zero = fw_zero(), sign = fw_splat(-0.0f);
    fw in_use = has_point(g, o, 0), several = has_point(g, o, 1);

    // Tangents as ph_contact_tangents: from the axis least aligned with n, normalised (zero stays zero).
    v3w n = LD3(in->normal, o);
    fw use_x = fw_ge(fw_andnot(sign, n.x), fw_splat(0.57735f));
    v3w t = {fw_select(zero, n.y, use_x), fw_select(n.z, fw_xor(n.x, sign), use_x),
             fw_select(fw_xor(n.y, sign), zero, use_x)};
    fw norm = fw_sqrt(dot_exact(t, t));
    fw inv_norm = fw_splat(1.0f) / norm, nonzero = fw_neq(norm, zero);
    v3w t1 = {fw_select(zero, t.x * inv_norm, nonzero), fw_select(zero, t.y * inv_norm, nonzero),
              fw_select(zero, t.z * inv_norm, nonzero)};
    v3w t2 = cross_exact(n, t1);
    st3(g->normal, o, n, in_use);
    st3(g->t1, o, t1, in_use);
    st3(g->t2, o, t2, in_use);

    wide_velocity p = load_velocity(states, g, o);
    wide_inertia inertia = load_inertias(states, g, o, &p);
    v3w ca = LD3(in->ca, o), cb = LD3(in->cb, o);
    // The normal rows' anchors leave out the round shapes' radii (constraint_point in solver_internal.h).
    fw radius_a = ld(in->radius_a + o), radius_b = ld(in->radius_b + o);
    v3w centre = {zero, zero, zero}; // the sum of the lane's points, then their mean (prepare() in solver.c)
    fw impact = zero;                // lanes with a point closing faster than SOLVER_IMPACT_SPEED
    for (int i = 0; i < g->point_count; i++)
    {
        wide_point *wp = &g->points[i];
        wide_point_cold *wc = &g->cold[i];
        fw valid = has_point(g, o, i);
        v3w point = LD3(in->point[i], o);
        fw separation = ld(in->separation[i] + o);
        v3w masked = and3(point, valid);
        centre = (v3w){centre.x + masked.x, centre.y + masked.y, centre.z + masked.z};
        v3w ra = sub(point, ca), rb = sub(point, cb);
        fw neg_ra = fw_xor(radius_a, sign);
        ra = (v3w){ra.x + n.x * neg_ra, ra.y + n.y * neg_ra, ra.z + n.z * neg_ra};
        rb = (v3w){rb.x + n.x * radius_b, rb.y + n.y * radius_b, rb.z + n.z * radius_b};
        st(wp->base_separation + o, fw_and(separation - dot_exact(sub(rb, ra), n), valid));
        // The anchors as stored, zero beyond the lanes' points: the rows' arms are worked out from these.
        ra = and3(ra, valid);
        rb = and3(rb, valid);
        st3(wp->ra, o, ra, valid);
        st3(wp->rb, o, rb, valid);
        st(wc->max_normal_impulse + o, zero);
        st(wc->total_impulse + o, zero);
        st(wc->bounce_impulse + o, zero);
        row_arms normal = prepare_row(&wp->n, kept ? &kept->normal[i] : NULL, o, &p, &inertia, ra, rb, n,
                                      warm_scale * ld(in->impulse[i] + o), valid);
        // The approach speed along the normal row just built (row_speed in solver.c).
        fw approach = dot_exact(p.vb, n) - dot_exact(p.va, n) + dot_exact(p.wb, normal.rdb) -
                      dot_exact(p.wa, normal.rda);
        st(wc->approach + o, fw_and(approach, valid));
        st(wc->approach_gap + o, fw_and(fw_max(separation, zero), valid));
        impact = fw_or(impact, fw_and(valid, fw_lt(approach, fw_splat(-SOLVER_IMPACT_SPEED))));
    }
    // Friction at the points' centre, with last step's impulses; unused lanes get zero anchors and rows.
    fw count = fw_ints_to_float(g->point_counts + o);
    fw inv_count = fw_select(zero, fw_splat(1.0f) / count, in_use);
    centre = (v3w){centre.x * inv_count, centre.y * inv_count, centre.z * inv_count};
    v3w fa = and3(sub(centre, ca), in_use), fb = and3(sub(centre, cb), in_use);
    st3(g->fa, o, fa, in_use);
    st3(g->fb, o, fb, in_use);
    prepare_row(&g->f1, kept ? &kept->friction[0] : NULL, o, &p, &inertia, fa, fb, t1,
                warm_scale * ld(in->friction_impulse[0] + o), in_use);
    prepare_row(&g->f2, kept ? &kept->friction[1] : NULL, o, &p, &inertia, fa, fb, t2,
                warm_scale * ld(in->friction_impulse[1] + o), in_use);
    st(g->twist_mass + o, zero);
    twist_row_of(g, kept, o, &inertia, n, in_use);
    st(g->twist_impulse + o, fw_and(warm_scale * ld(in->twist_impulse + o), in_use));
    st(g->twist_radius + o, fw_and(ld(in->twist_radius + o), in_use));
    // How the anchors follow the bodies' relative motion (prepare() and follow_share() in solver.c).
    st3(g->armed, o, (v3w){zero, zero, zero}, in_use);
    fw reach = fw_splat(SOLVER_REARM_FRACTION) * fw_sqrt(dot_exact(fa, fa) + dot_exact(fb, fb));
    fw moving = fw_and(fw_gt(p.inv_mass_a, zero), fw_gt(p.inv_mass_b, zero));
    st(g->rearm_limit2 + o, fw_and(fw_select(fw_splat(INFINITY), reach * reach, moving), in_use));
    fw round_a = fw_gt(radius_a, zero), round_b = fw_gt(radius_b, zero), half = fw_splat(0.5f);
    fw follow = fw_select(fw_select(half, zero, round_b), fw_select(fw_splat(1.0f), half, round_b), round_a);
    st(g->follow_a + o, fw_and(follow, in_use));
    *out_passes = fw_and(
        fw_select(fw_splat(1.0f), fw_splat((float)SOLVER_NORMAL_PASSES), fw_and(impact, several)), in_use);
}

WIDE_KERNEL void WIDE_FN(prepare)(const ph_body_state *states, wide_solver *w, int gi, const wide_input *in,
                                  float warm_scale)
{
    wide_group *g = wide_group_at(w, gi);
    memcpy(g->friction, in->friction, sizeof g->friction);
    memcpy(g->restitution, in->restitution, sizeof g->restitution);
    memcpy(g->accel_n, in->accel_n, sizeof g->accel_n);
    memcpy(g->bias_rate, in->bias_rate, sizeof g->bias_rate);
    memcpy(g->mass_scale, in->mass_scale, sizeof g->mass_scale);
    memcpy(g->impulse_scale, in->impulse_scale, sizeof g->impulse_scale);
    // Whether the group is isotropic is fixed for the step: a refresh turns only a body's own inverse
    // inertia, and s I turned is s I (ph_body_world_inv_inertia keeps an isotropic body's). Decided for the
    // whole group, every lane, so that its units agree on every instruction set.
    g->isotropic = 1;
    for (int lane = 0; lane < WIDE; lane++)
        g->isotropic &= state_at(states, g->at_a[lane])[FIELD(inv_inertia_scale)] >= 0.0f &&
                        state_at(states, g->at_b[lane])[FIELD(inv_inertia_scale)] >= 0.0f;
    wide_group_arms *kept = wide_keeps_arms(w) ? wide_kept_arms(g) : NULL;
    const fw scale = fw_splat(warm_scale);
    for (int o = 0; o < WIDE; o += LANES)
    {
        fw passes;
        prepare_unit(states, g, kept, o, in, scale, &passes);
        st(g->passes + o, passes);
    }
    g->max_passes = 1;
    g->rearmed = 0;
    g->rearm_least2 = INFINITY;
    for (int lane = 0; lane < g->lanes; lane++)
    {
        g->max_passes = (int)g->passes[lane] > g->max_passes ? (int)g->passes[lane] : g->max_passes;
        g->rearm_least2 = fminf(g->rearm_least2, g->rearm_limit2[lane]);
    }
}

WIDE_KERNEL void WIDE_FN(warm_start)(ph_body_state *states, const wide_solver *w, int first, int last)
{
    // Last group first: the sweep before (the last sub-step's relax) ended there, and the groups it left in
    // the caches come first; this then ends on the first groups, where the biased sweep after it starts
    // (pile10k: 5% fewer misses of a 1 MB cache, cachegrind). The sweeps themselves keep one order: a relax
    // sweep in the order opposite to the biased one before it fed energy into piles and toppled column40.
    for (int gi = last - 1; gi >= first; gi--)
    {
        const wide_group *g = wide_group_at(w, gi);
        for (int u = 0, units = units_of(g); u < units; u++)
        {
            int o = u * LANES;
            wide_velocity p = load_velocity(states, g, o);
            wide_inertia in = load_inertias(states, g, o, &p);
            v3w n = LD3(g->normal, o), t1 = LD3(g->t1, o), t2 = LD3(g->t2, o);
            // The rows' impulses summed over the points, linear and angular (about each centre of mass),
            // then applied once: the inverse inertias turn the angular sums instead of each row's arm.
            const fw zero = fw_zero();
            // Friction at the centre, the twist about the normal, then each point's normal impulse.
            v3w linear = {zero, zero, zero};
            linear = madd(madd(linear, t1, ld(g->f1.impulse + o)), t2, ld(g->f2.impulse + o));
            fw twist = ld(g->twist_impulse + o);
            v3w angular_a = madd(cross(LD3(g->fa, o), linear), n, twist);
            v3w angular_b = madd(cross(LD3(g->fb, o), linear), n, twist);
            for (int i = 0; i < g->point_count; i++)
            {
                const wide_point *wp = &g->points[i];
                fw l = ld(wp->n.impulse + o);
                v3w impulse = {n.x * l, n.y * l, n.z * l};
                linear = (v3w){linear.x + impulse.x, linear.y + impulse.y, linear.z + impulse.z};
                v3w ca = cross(LD3(wp->ra, o), impulse), cb = cross(LD3(wp->rb, o), impulse);
                angular_a = (v3w){angular_a.x + ca.x, angular_a.y + ca.y, angular_a.z + ca.z};
                angular_b = (v3w){angular_b.x + cb.x, angular_b.y + cb.y, angular_b.z + cb.z};
            }
            p.va = madd(p.va, linear, -p.inv_mass_a);
            p.wa = sub(p.wa, turn_a(&in, angular_a));
            p.vb = madd(p.vb, linear, p.inv_mass_b);
            v3w ub = turn_b(&in, angular_b);
            p.wb = (v3w){p.wb.x + ub.x, p.wb.y + ub.y, p.wb.z + ub.z};
            store_velocity(states, g, o, &p);
        }
    }
}

// rearm() in solver.c for the lanes of unit o of group g in `far`: their anchors moved by their shares of
// delta, the change of the relative displacement `moved` since they last moved, and the rows rebuilt (in a
// measuring sweep, rarely: moving bodies that slide or roll on each other). na, nb: the normal turned into
// each body's frame of the step's start, as the measuring sweep has them.
static void WIDE_FN(rearm_unit)(const ph_body_state *states, wide_group *g, wide_group_arms *kept, int o,
                                v3w moved, v3w delta, fw far, v3w na, v3w nb)
{
    wide_velocity p = load_velocity(states, g, o); // for the inverse masses
    wide_inertia in = load_inertias(states, g, o, &p);
    v3w n = LD3(g->normal, o), t1 = LD3(g->t1, o), t2 = LD3(g->t2, o);
    fw follow = ld(g->follow_a + o), rest = fw_splat(1.0f) - follow;
    v3w da = {delta.x * rest, delta.y * rest, delta.z * rest};
    v3w db = {delta.x * follow, delta.y * follow, delta.z * follow};
    fw along = dot_exact(da, na) + dot_exact(db, nb);
    for (int i = 0; i < g->point_count; i++)
    {
        wide_point *wp = &g->points[i];
        fw mask = fw_and(far, has_point(g, o, i));
        v3w ra = LD3(wp->ra, o), rb = LD3(wp->rb, o);
        blend3(wp->ra, o, (v3w){ra.x + da.x, ra.y + da.y, ra.z + da.z}, mask);
        blend3(wp->rb, o, sub(rb, db), mask);
        fw base = ld(wp->base_separation + o);
        st(wp->base_separation + o, fw_select(base, base + along, mask));
        refresh_row(&wp->n, kept ? &kept->normal[i] : NULL, o, &p, &in, LD3(wp->ra, o), LD3(wp->rb, o), n,
                    mask);
    }
    v3w fa = LD3(g->fa, o), fb = LD3(g->fb, o);
    blend3(g->fa, o, (v3w){fa.x + da.x, fa.y + da.y, fa.z + da.z}, far);
    blend3(g->fb, o, sub(fb, db), far);
    fa = LD3(g->fa, o);
    fb = LD3(g->fb, o);
    refresh_row(&g->f1, kept ? &kept->friction[0] : NULL, o, &p, &in, fa, fb, t1, far);
    refresh_row(&g->f2, kept ? &kept->friction[1] : NULL, o, &p, &in, fa, fb, t2, far);
    blend3(g->armed, o, moved, far);
}

// rearm_unit for the lanes of unit o of group g whose bodies' relative displacement `moved` has changed by
// more than their limits since their anchors last followed it; whether any did.
static bool WIDE_FN(rearm_if_moved)(const ph_body_state *states, wide_group *g, bool keep, int o, v3w moved,
                                    v3w na, v3w nb)
{
    v3w delta = sub(moved, LD3(g->armed, o));
    fw far = fw_and(fw_gt(dot_exact(delta, delta), ld(g->rearm_limit2 + o)), has_point(g, o, 0));
    if (!fw_any(far))
        return false;
    WIDE_FN(rearm_unit)(states, g, keep ? wide_kept_arms(g) : NULL, o, moved, delta, far, na, nb);
    return true;
}

// Units solved side by side at most (see solve_units): as many as the registers hold with few spills. AVX2's
// and AVX-512's build take 3 (measured, see solve_units). SSE2's 16 registers hold one unit's velocities and
// row terms with spills already, and on large_pyramid one unit at a time spent less in the sweeps than two
// (about 10% in each of three alternating runs) or three. Neon has 32 registers, as AVX-512: 3, by that
// analogy (not measured on arm64 hardware).
#if defined(PH_LANES_SSE2)
#define WIDE_INTERLEAVE 1
#else
#define WIDE_INTERLEAVE 3
#endif

// The sweep of ph_wide_solve over K units side by side (unit k: lanes o[k] .. of group g[k]). Units of one
// colour share no moving body, so their sweeps are independent; each is a long chain of dependent steps (a
// row's impulse needs the velocities the row before left, some 40 cycles of latency per row), and
// interleaving the chains keeps the core busy while each waits. Three rather than two: a colour of 20
// constraints (column40's) is three groups of 8, whose sweep then takes one chain's latency instead of two;
// with AVX-512's 32 registers the third chain costs a few spills, which are off the critical path.
// The caller puts together only units with the same colour, point count and passes.
WIDE_INLINE void solve_units(ph_body_state *states, wide_group *const *g, const int *o, const int K,
                             const bool keep, fw inv_h, bool use_bias, bool measure, bool sum_total)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f), max_push = fw_splat(-SOLVER_MAX_PUSH_SPEED);
    const int point_count = g[0]->point_count, passes = use_bias ? g[0]->max_passes : 1;
    v3w n[WIDE_INTERLEAVE];
    wide_velocity p[WIDE_INTERLEAVE];
    wide_inertia in[WIDE_INTERLEAVE];
    fw lane_passes[WIDE_INTERLEAVE], track_approach[WIDE_INTERLEAVE], bias_rate[WIDE_INTERLEAVE],
        soft_mass[WIDE_INTERLEAVE], soft_impulse[WIDE_INTERLEAVE];
    bool bouncy[WIDE_INTERLEAVE];
    for (int k = 0; k < K; k++)
    {
        n[k] = LD3(g[k]->normal, o[k]);
        if (measure)
        {
            // Current separations from the motion so far (see solve() in solver.c).
            fw ma[8], mb[8]; // dp, pad, dq of each body
            load_runs_at(states, g[k]->at_a + o[k], FIELD(dp), ma);
            load_runs_at(states, g[k]->at_b + o[k], FIELD(dp), mb);
            v3w moved = sub((v3w){mb[0], mb[1], mb[2]}, (v3w){ma[0], ma[1], ma[2]});
            fw shift = dot(moved, n[k]);
            v3w na = rotate_inverse((v3w){ma[4], ma[5], ma[6]}, ma[7], n[k]);
            v3w nb = rotate_inverse((v3w){mb[4], mb[5], mb[6]}, mb[7], n[k]);
            // The anchors follow the bodies' relative motion once it has changed enough (rearm). Until a lane
            // of the group has, its anchors are the step's, and the group's least limit tells whether one may
            // now: most groups (a pile at rest) never read the lanes' limits and shifts.
            if (g[k]->rearmed || fw_any(fw_gt(dot_exact(moved, moved), fw_splat(g[k]->rearm_least2))))
                g[k]->rearmed |= WIDE_FN(rearm_if_moved)(states, g[k], keep, o[k], moved, na, nb);
            for (int i = 0; i < point_count; i++)
            {
                const wide_point *wp = &g[k]->points[i];
                st(g[k]->separation[i] + o[k], shift + dot(LD3(wp->rb, o[k]), nb) -
                                                   dot(LD3(wp->ra, o[k]), na) +
                                                   ld(wp->base_separation + o[k]));
            }
        }
        p[k] = load_velocity(states, g[k], o[k]);
        if (!keep) // the arms are worked out from the anchors and these
            in[k] = load_inertias(states, g[k], o[k], &p[k]);
        lane_passes[k] = ld(g[k]->passes + o[k]);
        fw restitution = ld(g[k]->restitution + o[k]);
        track_approach[k] = use_bias ? zero : fw_gt(restitution, zero);
        // The restitution bookkeeping (largest impulse, approach speed and gap) is read only for lanes that
        // bounce: a unit without one skips it, three loads and stores per point.
        bouncy[k] = fw_any(fw_neq(restitution, zero));
        bias_rate[k] = ld(g[k]->bias_rate + o[k]);
        soft_mass[k] = ld(g[k]->mass_scale + o[k]);
        soft_impulse[k] = ld(g[k]->impulse_scale + o[k]);
    }
    for (int pass = 0; pass < passes; pass++)
    {
        for (int j = 0; j < point_count; j++)
        {
            int i = use_bias ? j : point_count - 1 - j; // padded points change nothing in any order
            for (int k = 0; k < K; k++)
            {
                wide_point *wp = &g[k]->points[i];
                // Read where the measuring sweep stored it rather than copied into a local array first,
                // which the compiler kept on the stack (a copy and a reload per point and sweep).
                fw s = ld(g[k]->separation[i] + o[k]);
                fw apart = fw_gt(s, zero);
                fw bias = s * inv_h, mass_scale = one, impulse_scale = zero;
                if (use_bias)
                {
                    bias = fw_select(fw_max(bias_rate[k] * s, max_push), bias, apart);
                    mass_scale = fw_select(soft_mass[k], one, apart);
                    impulse_scale = fw_select(soft_impulse[k], zero, apart);
                }
                else
                    bias = fw_select(zero, bias, apart);
                row_ref normal = row_at(g[k], o[k], keep, i, n[k]);
                fw vn = row_speed(&p[k], n[k], keep, &normal);
                fw accumulated = ld(wp->n.impulse + o[k]);
                fw impulse = -ld(wp->n.mass + o[k]) * mass_scale * (vn + bias) - impulse_scale * accumulated;
                fw total = fw_max(accumulated + impulse, zero);
                // Lanes that asked for fewer sweeps sit the later ones out. Every lane takes the first: in a
                // lane or point without a constraint, mass and impulse are zero and the max with zero (its
                // second operand, which is also what it returns for a NaN) leaves the zero impulse as it is.
                if (pass > 0)
                    total = fw_select(accumulated, total, fw_lt(fw_splat((float)pass), lane_passes[k]));
                impulse = total - accumulated;
                st(wp->n.impulse + o[k], total);
                if (bouncy[k])
                {
                    wide_point_cold *wc = &g[k]->cold[i];
                    fw max_impulse = fw_max(ld(wc->max_normal_impulse + o[k]), impulse);
                    st(wc->max_normal_impulse + o[k], max_impulse);
                    // Not yet closed this step: the free approach speed and gap (restitution lanes, relax
                    // only).
                    fw open = fw_and(track_approach[k], fw_eq(max_impulse, zero));
                    st(wc->approach + o[k], fw_select(ld(wc->approach + o[k]), vn, open));
                    st(wc->approach_gap + o[k],
                       fw_select(ld(wc->approach_gap + o[k]), fw_max(s, zero), open));
                }
                row_apply(&p[k], n[k], keep, &normal, &in[k], impulse);
            }
        }
    }
    if (sum_total) // the sub-step's last sweep: its impulses are what the sub-step applied (solve_constraint)
        for (int i = 0; i < point_count; i++)
            for (int k = 0; k < K; k++)
                st(g[k]->cold[i].total_impulse + o[k],
                   ld(g[k]->cold[i].total_impulse + o[k]) + ld(g[k]->points[i].n.impulse + o[k]));
    // Friction at the centre and twist, bounded by the lane's summed normal impulse (solve_constraint).
    for (int k = 0; k < K; k++)
    {
        const int ok = o[k];
        fw normal_sum = ld(g[k]->points[0].n.impulse + ok);
        for (int i = 1; i < point_count; i++)
            normal_sum = normal_sum + ld(g[k]->points[i].n.impulse + ok);
        fw limit = ld(g[k]->friction + ok) * normal_sum;
        // Loaded here rather than kept from the start: held through the normal passes they spill.
        v3w t1 = LD3(g[k]->t1, ok), t2 = LD3(g[k]->t2, ok);
        row_ref row1 = friction_at(g[k], ok, keep, 0, t1), row2 = friction_at(g[k], ok, keep, 1, t2);
        fw old1 = ld(g[k]->f1.impulse + ok), old2 = ld(g[k]->f2.impulse + ok);
        fw l1 = old1 - ld(g[k]->f1.mass + ok) * row_speed(&p[k], t1, keep, &row1);
        fw l2 = old2 - ld(g[k]->f2.mass + ok) * row_speed(&p[k], t2, keep, &row2);
        // Clamp to the Coulomb cone |(l1, l2)| <= mu * normal impulse.
        fw len2 = l1 * l1 + l2 * l2;
        fw outside = fw_gt(len2, limit * limit);
        // Only when a lane slides: the square root and division would otherwise sit on the sweep's chain of
        // dependent steps to scale every lane by 1.
        if (fw_any(outside))
        {
            fw scale = fw_select(one, limit / fw_sqrt(len2), outside);
            l1 = l1 * scale;
            l2 = l2 * scale;
        }
        row_apply(&p[k], t1, keep, &row1, &in[k], l1 - old1);
        row_apply(&p[k], t2, keep, &row2, &in[k], l2 - old2);
        st(g[k]->f1.impulse + ok, l1);
        st(g[k]->f2.impulse + ok, l2);
        v3w nk = LD3(g[k]->normal, ok);
        fw twist_limit = limit * ld(g[k]->twist_radius + ok);
        fw old_twist = ld(g[k]->twist_impulse + ok);
        fw twist_speed = dot(p[k].wb, nk) - dot(p[k].wa, nk);
        fw tw = old_twist - ld(g[k]->twist_mass + ok) * twist_speed;
        tw = fw_max(fw_min(tw, twist_limit), fw_xor(twist_limit, fw_splat(-0.0f)));
        fw dtw = tw - old_twist;
        v3w ian = keep ? LD3(wide_kept_arms(g[k])->ian, ok) : turn_a(&in[k], nk);
        v3w ibn = keep ? LD3(wide_kept_arms(g[k])->ibn, ok) : turn_b(&in[k], nk);
        p[k].wa = madd(p[k].wa, ian, fw_xor(dtw, fw_splat(-0.0f)));
        p[k].wb = madd(p[k].wb, ibn, dtw);
        st(g[k]->twist_impulse + ok, tw);
    }
    for (int k = 0; k < K; k++)
        store_velocity(states, g[k], o[k], &p[k]);
}

WIDE_KERNEL void WIDE_FN(solve)(ph_body_state *states, wide_solver *w, float inv_h_scalar, bool use_bias,
                                bool measure, bool sum_total, int begin, int last)
{
    const fw inv_h = fw_splat(inv_h_scalar);
    const bool keep = wide_keeps_arms(w);
    // Runs of up to WIDE_INTERLEAVE units of one colour, point count and passes, taken unit by unit (group
    // gi, unit u) in group order. Units are independent lane by lane, so how the groups are cut into ranges
    // (and so into runs) changes no bit.
    for (int gi = begin, u = 0; gi < last;)
    {
        wide_group *run[WIDE_INTERLEAVE] = {0};
        int at[WIDE_INTERLEAVE] = {0}, k = 0;
        const wide_group *first = wide_group_at(w, gi);
        while (k < WIDE_INTERLEAVE && gi < last)
        {
            wide_group *next = wide_group_at(w, gi);
            if (k > 0 && (next->color != first->color || next->point_count != first->point_count ||
                          next->max_passes != first->max_passes))
                break;
            run[k] = next;
            at[k++] = u * LANES;
            if (++u == units_of(next))
            {
                gi++;
                u = 0;
            }
        }
        // K and whether the arms are kept constants in each call, so that the arrays of solve_units stay in
        // registers and each call has one way to its arms. No call is built with a K above WIDE_INTERLEAVE,
        // the size of those arrays (the compiler would see it overflow them, even where k never gets there).
#define SOLVE_UNITS(K)                                                                                       \
    (keep ? solve_units(states, run, at, K, true, inv_h, use_bias, measure, sum_total)                       \
          : solve_units(states, run, at, K, false, inv_h, use_bias, measure, sum_total))
        if (WIDE_INTERLEAVE >= 3 && k == 3)
            SOLVE_UNITS(WIDE_INTERLEAVE >= 3 ? 3 : 1);
        else if (WIDE_INTERLEAVE >= 2 && k == 2)
            SOLVE_UNITS(WIDE_INTERLEAVE >= 2 ? 2 : 1);
        else
            SOLVE_UNITS(1);
#undef SOLVE_UNITS
    }
}

// ---- Position integration ----
// ph_body_integrate_positions (body.c) for LANES bodies at a time, operation for operation: dp + h v, and
// ph_integrate_rotation's dq + h/2 (w, 0) dq, normalised, with each product and sum as cglm forms it on the
// platform (its quaternion product, its dot product's pairing, division by the square root), so the states
// come out bit for bit as the scalar loop leaves them. The runs of 8 floats are the sweeps' (v, inv_mass,
// w, pad and dp, pad, dq): two transposed loads and one store per LANES bodies.
WIDE_KERNEL int WIDE_FN(integrate_positions)(ph_body_state *states, const int *slots, int count,
                                             float h_scalar)
{
    const fw zero = fw_zero(), h = fw_splat(h_scalar), half_h = fw_splat(0.5f * h_scalar);
    int done = 0;
    for (; done + LANES <= count; done += LANES)
    {
        const float *v_rows[LANES];
        float *m_rows[LANES];
        for (int lane = 0; lane < LANES; lane++)
        {
            v_rows[lane] = (const float *)&states[slots[done + lane]] + FIELD(v);
            m_rows[lane] = (float *)&states[slots[done + lane]] + FIELD(dp);
        }
        fw v[8], m[8];
        fw_load_runs(v_rows, v);
        fw_load_runs((const float *const *)m_rows, m);
        // dp + h v
        m[0] = m[0] + v[0] * h;
        m[1] = m[1] + v[1] * h;
        m[2] = m[2] + v[2] * h;
        // (w, 0) dq as glm_quat_mul_sse2 sums it: the real part of (w, 0) times dq first, then the x, y and z
        // columns.
        fw px = v[4], py = v[5], pz = v[6];
        fw qx = m[4], qy = m[5], qz = m[6], qw = m[7];
        fw rx = zero * qx + px * qw + py * qz - pz * qy;
        fw ry = zero * qy - px * qz + py * qw + pz * qx;
        fw rz = zero * qz + px * qy - py * qx + pz * qw;
        fw rw = zero * qw - px * qx - py * qy - pz * qz;
        qx = qx + half_h * rx;
        qy = qy + half_h * ry;
        qz = qz + half_h * rz;
        qw = qw + half_h * rw;
        // glm_quat_normalize, the identity where |q|^2 is not positive. cglm has one form per platform, and
        // the scalar loop takes the one of the platform it runs on: on x86, |q|^2 as (x^2 + z^2) + (y^2 +
        // w^2) and q divided by |q|; on AArch64, ((x^2 + y^2) + z^2) + w^2 (its vaddvq_f32 as gcc 12 builds
        // it: measured against glms_quat_normalize on 1e5 quaternions) and q times 1 / |q|.
#if defined(PH_LANES_NEON)
        fw dot = ((qx * qx + qy * qy) + qz * qz) + qw * qw;
        fw positive = fw_gt(dot, zero);
        fw inv_norm = fw_splat(1.0f) / fw_sqrt(dot);
        m[4] = fw_and(qx * inv_norm, positive);
        m[5] = fw_and(qy * inv_norm, positive);
        m[6] = fw_and(qz * inv_norm, positive);
        m[7] = fw_select(fw_splat(1.0f), qw * inv_norm, positive);
#else
        fw dot = (qx * qx + qz * qz) + (qy * qy + qw * qw);
        fw positive = fw_gt(dot, zero);
        fw norm = fw_sqrt(dot);
        m[4] = fw_and(qx / norm, positive);
        m[5] = fw_and(qy / norm, positive);
        m[6] = fw_and(qz / norm, positive);
        m[7] = fw_select(fw_splat(1.0f), qw / norm, positive);
#endif
        fw_store_runs(m_rows, LANES, m);
    }
    return done;
}

// ---- Joints: plain point joints (joint.c) ----
// joint.c's warm start and solve_point for each lane of the joint groups, then its store(): the anchors
// turned by each body's rotation so far (as glms_quat_rotatev, which normalises the quaternion first), the
// gap d between them, the point block K = (ma + mb) 1 + [ra]^T Ia [ra] + [rb]^T Ib [rb] solved by its
// cofactors, and the velocities written back under joint.c's caps. The arithmetic is the scalar joint's,
// fused where fw_madd is, so lanes differ from it by rounding (tests/test_joints.c,
// joints_wide_matches_scalar).

WIDE_INLINE v3w add3(v3w a, v3w b)
{
    return (v3w){a.x + b.x, a.y + b.y, a.z + b.z};
}

// v turned by the quaternion (x, y, z, w) of each lane: with q normalised to (u, s),
// 2 (u . v) u + (s^2 - u . u) v + 2 s (u x v).
WIDE_INLINE v3w joint_rotate(const fw *q, v3w v)
{
    fw inv =
        fw_splat(1.0f) / fw_sqrt(fw_madd(q[0], q[0], fw_madd(q[1], q[1], fw_madd(q[2], q[2], q[3] * q[3]))));
    v3w u = {q[0] * inv, q[1] * inv, q[2] * inv};
    fw s = q[3] * inv;
    fw uv = dot(u, v), k = fw_msub(s, s, dot(u, u)), s2 = s + s;
    uv = uv + uv;
    v3w c = cross(u, v);
    return (v3w){fw_madd(c.x, s2, fw_madd(v.x, k, u.x * uv)), fw_madd(c.y, s2, fw_madd(v.y, k, u.y * uv)),
                 fw_madd(c.z, s2, fw_madd(v.z, k, u.z * uv))};
}

// The world inverse inertias of states[0 .. LANES - 1], as load_inertia.
WIDE_INLINE wide_mat3 joint_inertia(ph_body_state *const *states)
{
    wide_mat3 r;
    const float *rows[LANES];
    float last[LANES];
    for (int lane = 0; lane < LANES; lane++)
    {
        rows[lane] = (const float *)states[lane] + FIELD(inv_inertia);
        last[lane] = rows[lane][8];
    }
    fw_load_runs(rows, r.m);
    r.m[8] = ld(last);
    return r;
}

// The upper half of a symmetric 3x3 matrix, lane by lane.
typedef struct wide_sym3
{
    fw xx, xy, xz, yy, yz, zz;
} wide_sym3;

// K += [r]^T I [r] of one body: s (|r|^2 1 - r r^T) where its inverse inertia is s 1 in every lane, else
// column c = (I (r x e_c)) x r (joint.c's add_arm).
WIDE_INLINE void joint_add_arm(wide_sym3 *k, bool isotropic, fw scale, const wide_mat3 *m, v3w r)
{
    if (isotropic)
    {
        fw sx = r.x * scale, sy = r.y * scale, sz = r.z * scale;
        k->xx = k->xx + fw_madd(sy, r.y, sz * r.z);
        k->yy = k->yy + fw_madd(sx, r.x, sz * r.z);
        k->zz = k->zz + fw_madd(sx, r.x, sy * r.y);
        k->xy = k->xy - sx * r.y;
        k->xz = k->xz - sx * r.z;
        k->yz = k->yz - sy * r.z;
        return;
    }
    const fw zero = fw_zero();
    v3w c0 = cross(mulv(m, (v3w){zero, r.z, -r.y}), r);
    v3w c1 = cross(mulv(m, (v3w){-r.z, zero, r.x}), r);
    v3w c2 = cross(mulv(m, (v3w){r.y, -r.x, zero}), r);
    k->xx = k->xx + c0.x;
    k->xy = k->xy + c1.x;
    k->yy = k->yy + c1.y;
    k->xz = k->xz + c2.x;
    k->yz = k->yz + c2.y;
    k->zz = k->zz + c2.z;
}

// v with its length capped at max (joint.c's capped_spin).
WIDE_INLINE v3w joint_cap(v3w v, float max)
{
    fw v2 = dot(v, v);
    fw over = fw_gt(v2, fw_splat(max * max));
    if (!fw_any(over))
        return v;
    fw s = fw_select(fw_splat(1.0f), fw_splat(max) / fw_sqrt(v2), over);
    return (v3w){v.x * s, v.y * s, v.z * s};
}

// The inverse of K (its upper half, as wide_sym3), by its cofactors; 0 where K is singular (joint.c's
// solve_symmetric3).
WIDE_INLINE wide_sym3 joint_inverse(const wide_sym3 *k)
{
    fw c00 = fw_msub(k->yy, k->zz, k->yz * k->yz), c01 = fw_msub(k->xz, k->yz, k->xy * k->zz),
       c02 = fw_msub(k->xy, k->yz, k->xz * k->yy);
    fw det = fw_madd(k->xx, c00, fw_madd(k->xy, c01, k->xz * c02));
    fw regular = fw_gt(fw_andnot(fw_splat(-0.0f), det), fw_splat(1.0e-30f));
    fw inv = fw_and(fw_splat(1.0f) / det, regular);
    return (wide_sym3){inv * c00,
                       inv * c01,
                       inv * c02,
                       inv * fw_msub(k->xx, k->zz, k->xz * k->xz),
                       inv * fw_msub(k->xy, k->xz, k->xx * k->yz),
                       inv * fw_msub(k->xx, k->yy, k->xy * k->xy)};
}

WIDE_INLINE v3w sym_mulv(const wide_sym3 *m, v3w b)
{
    return (v3w){fw_madd(m->xx, b.x, fw_madd(m->xy, b.y, m->xz * b.z)),
                 fw_madd(m->xy, b.x, fw_madd(m->yy, b.y, m->yz * b.z)),
                 fw_madd(m->xz, b.x, fw_madd(m->yz, b.y, m->zz * b.z))};
}

WIDE_INLINE wide_sym3 load_sym(float m[6][WIDE], int o)
{
    return (wide_sym3){ld(m[0] + o), ld(m[1] + o), ld(m[2] + o), ld(m[3] + o), ld(m[4] + o), ld(m[5] + o)};
}

WIDE_INLINE void store_sym(float m[6][WIDE], int o, const wide_sym3 *k)
{
    st(m[0] + o, k->xx);
    st(m[1] + o, k->xy);
    st(m[2] + o, k->xz);
    st(m[3] + o, k->yy);
    st(m[4] + o, k->yz);
    st(m[5] + o, k->zz);
}

// The runs of 8 floats at `field` of the states of lanes o .. o + LANES - 1 of `states`, transposed.
WIDE_INLINE void joint_runs(ph_body_state *const *states, int o, int field, fw out[8])
{
    const float *rows[LANES];
    for (int lane = 0; lane < LANES; lane++)
        rows[lane] = (const float *)states[o + lane] + field;
    fw_load_runs(rows, out);
}

// The bodies of lanes o .. o + LANES - 1 of a joint group: their velocities, inverse masses and inverse
// inertias (only the scales, kept in the runs, where a side's are multiples of the identity in every lane).
typedef struct joint_unit
{
    fw a[8], b[8]; // the runs of v, inv_mass, w, inv_inertia_scale
    v3w va, wa, vb, wb;
    bool iso_a, iso_b;
    wide_mat3 ia, ib;
} joint_unit;

// The unit's velocities, inverse masses and inertia scales (the caller loads the inverse inertias that are
// not multiples of the identity).
WIDE_INLINE void joint_load_velocities(ph_body_state *const *state_a, ph_body_state *const *state_b, int o,
                                       joint_unit *u)
{
    const fw zero = fw_zero();
    joint_runs(state_a, o, FIELD(v), u->a);
    joint_runs(state_b, o, FIELD(v), u->b);
    u->va = (v3w){u->a[0], u->a[1], u->a[2]};
    u->wa = (v3w){u->a[4], u->a[5], u->a[6]};
    u->vb = (v3w){u->b[0], u->b[1], u->b[2]};
    u->wb = (v3w){u->b[4], u->b[5], u->b[6]};
    u->iso_a = !fw_any(fw_lt(u->a[7], zero));
    u->iso_b = !fw_any(fw_lt(u->b[7], zero));
}

WIDE_INLINE void joint_load(ph_body_state *const *state_a, ph_body_state *const *state_b, int o,
                            joint_unit *u)
{
    joint_load_velocities(state_a, state_b, o, u);
    if (!u->iso_a)
        u->ia = joint_inertia(state_a + o);
    if (!u->iso_b)
        u->ib = joint_inertia(state_b + o);
}

// I^-1 t for one side of the unit.
WIDE_INLINE v3w joint_turn(bool iso, fw scale, const wide_mat3 *m, v3w t)
{
    return iso ? (v3w){t.x * scale, t.y * scale, t.z * scale} : mulv(m, t);
}

// joint.c's apply_angular.
WIDE_INLINE void joint_apply_angular(joint_unit *u, v3w impulse)
{
    u->wa = sub(u->wa, joint_turn(u->iso_a, u->a[7], &u->ia, impulse));
    u->wb = add3(u->wb, joint_turn(u->iso_b, u->b[7], &u->ib, impulse));
}

// solve_point at anchors ra, rb with gap d and the inverse block inv_k: the impulse to apply; *acc becomes
// the accumulated impulse.
WIDE_INLINE v3w joint_point(const joint_unit *u, v3w ra, v3w rb, v3w d, const wide_sym3 *inv_k, v3w *acc,
                            fw mass_scale, fw bias, fw impulse_scale)
{
    v3w cdot = sub(add3(u->vb, cross(u->wb, rb)), add3(u->va, cross(u->wa, ra)));
    v3w rhs = {fw_madd(d.x, bias, cdot.x * mass_scale), fw_madd(d.y, bias, cdot.y * mass_scale),
               fw_madd(d.z, bias, cdot.z * mass_scale)};
    v3w x = sym_mulv(inv_k, rhs);
    v3w impulse = {-fw_madd(acc->x, impulse_scale, x.x), -fw_madd(acc->y, impulse_scale, x.y),
                   -fw_madd(acc->z, impulse_scale, x.z)};
    *acc = add3(*acc, impulse);
    return impulse;
}

// The rows' softness for lanes o .. o + LANES - 1 in sweep sw (joint.c's rows_soft): each lane's spring
// (soft[0..2]: bias rate, mass scale, impulse scale) in the biased sweep, rigid without bias in the relax
// sweep. `bias` is the mass scale times the bias rate, as the point and lock rows take it.
typedef struct joint_softness
{
    fw bias_rate, mass_scale, impulse_scale, bias;
} joint_softness;

WIDE_INLINE joint_softness joint_soft(float (*soft)[WIDE], int o, const wide_joint_sweep *sw)
{
    if (!sw->soft)
        return (joint_softness){fw_zero(), fw_splat(1.0f), fw_zero(), fw_zero()};
    joint_softness r = {ld(soft[0] + o), ld(soft[1] + o), ld(soft[2] + o), fw_zero()};
    r.bias = r.mass_scale * r.bias_rate;
    return r;
}

// apply_linear of the point impulse at ra, rb, then store()'s caps, and the velocities written back to the
// states of the unit's lanes whose bodies move (the others' go to scratch).
WIDE_INLINE void joint_write(joint_unit *u, v3w ra, v3w rb, v3w impulse, ph_body_state *const *state_a,
                             ph_body_state *const *state_b, int still_a, int still_b, int o, int lanes,
                             const wide_joint_sweep *sw)
{
    const fw *a = u->a, *b = u->b;
    v3w ta = cross(ra, impulse), tb = cross(rb, impulse);
    ta = joint_turn(u->iso_a, a[7], &u->ia, ta);
    tb = joint_turn(u->iso_b, b[7], &u->ib, tb);
    v3w va = joint_cap(madd(u->va, impulse, -a[3]), sw->max_speed);
    v3w wa = joint_cap(sub(u->wa, ta), sw->max_spin);
    v3w vb = joint_cap(madd(u->vb, impulse, b[3]), sw->max_speed);
    v3w wb = joint_cap(add3(u->wb, tb), sw->max_spin);
    const fw out_a[8] = {va.x, va.y, va.z, a[3], wa.x, wa.y, wa.z, a[7]};
    const fw out_b[8] = {vb.x, vb.y, vb.z, b[3], wb.x, wb.y, wb.z, b[7]};
    int count = lanes - o < LANES ? lanes - o : LANES;
    _Alignas(32) float scratch[2][LANES][8];
    float *rows_a[LANES], *rows_b[LANES];
    for (int lane = 0; lane < LANES; lane++)
    {
        unsigned bit = 1u << (o + lane);
        rows_a[lane] = still_a & bit ? scratch[0][lane] : (float *)state_a[o + lane] + FIELD(v);
        rows_b[lane] = still_b & bit ? scratch[1][lane] : (float *)state_b[o + lane] + FIELD(v);
    }
    fw_store_runs(rows_a, count, out_a);
    fw_store_runs(rows_b, count, out_b);
}

WIDE_KERNEL void WIDE_FN(joint_sweep)(wide_joint_group *groups, int first, int last,
                                      const wide_joint_sweep *sw)
{
    const fw zero = fw_zero();
    for (int gi = first; gi < last; gi++)
    {
        wide_joint_group *g = &groups[gi];
        for (int o = 0; o < g->lanes; o += LANES)
        {
            joint_unit u;
            joint_load(g->state_a, g->state_b, o, &u);
            v3w ra, rb, acc = LD3(g->impulse, o), impulse = acc;
            if (sw->warm_start || !sw->measure)
            {
                ra = sw->at_start ? LD3(g->ra, o) : LD3(g->ra_now, o);
                rb = sw->at_start ? LD3(g->rb, o) : LD3(g->rb_now, o);
            }
            if (!sw->warm_start)
            {
                v3w d;
                wide_sym3 inv_k;
                if (sw->measure)
                {
                    fw ma[8], mb[8];
                    joint_runs(g->state_a, o, FIELD(dp), ma);
                    joint_runs(g->state_b, o, FIELD(dp), mb);
                    ra = joint_rotate(ma + 4, LD3(g->ra, o));
                    rb = joint_rotate(mb + 4, LD3(g->rb, o));
                    d = add3(add3(sub((v3w){mb[0], mb[1], mb[2]}, (v3w){ma[0], ma[1], ma[2]}),
                                  LD3(g->delta_center, o)),
                             sub(rb, ra));
                    fw m = u.a[3] + u.b[3];
                    wide_sym3 k = {m, zero, zero, m, zero, m};
                    joint_add_arm(&k, u.iso_a, u.a[7], &u.ia, ra);
                    joint_add_arm(&k, u.iso_b, u.b[7], &u.ib, rb);
                    inv_k = joint_inverse(&k);
                    store3(g->ra_now, o, ra);
                    store3(g->rb_now, o, rb);
                    store3(g->gap, o, d);
                    store_sym(g->inv_k, o, &inv_k);
                }
                else
                {
                    d = LD3(g->gap, o);
                    inv_k = load_sym(g->inv_k, o);
                }
                joint_softness soft = joint_soft(g->soft, o, sw);
                impulse =
                    joint_point(&u, ra, rb, d, &inv_k, &acc, soft.mass_scale, soft.bias, soft.impulse_scale);
                store3(g->impulse, o, acc);
            }
            joint_write(&u, ra, rb, impulse, g->state_a, g->state_b, g->still_a, g->still_b, o, g->lanes, sw);
        }
    }
}

// ---- Joints: hinges and limited spherical joints (joint.c, wide_limit_group) ----
// joint.c's geometry_of and row_masses for each lane of the limit groups, then its warm start
// (impulses_on_b) and its solve of a revolute joint (solve_friction, solve_axial's limits, solve_hinge_lock,
// solve_point) or of a spherical joint with a cone, a twist range or friction (solve_friction,
// solve_cone_twist, solve_point), then store(). The lanes do
// the scalar joint's arithmetic, fused where fw_madd is, with the quaternions normalised where
// glms_quat_rotatev normalises them, the angles by a polynomial within 3e-7 rad of atan2 (joint_atan2) and
// the lock's block inverted once per geometry where the scalar solve divides by its determinant in each
// sweep, so lanes differ from the scalar joint by rounding (tests/test_joints.c,
// joints_wide_hinges_match_scalar and joints_wide_limits_match_scalar).

// The Hamilton product p q of the lanes' quaternions (x, y, z, w), as glms_quat_mul.
WIDE_INLINE void joint_qmul(const fw *p, const fw *q, fw *out)
{
    out[0] = fw_madd(p[3], q[0], fw_madd(p[0], q[3], fw_msub(p[1], q[2], p[2] * q[1])));
    out[1] = fw_madd(p[3], q[1], fw_madd(p[1], q[3], fw_msub(p[2], q[0], p[0] * q[2])));
    out[2] = fw_madd(p[3], q[2], fw_madd(p[2], q[3], fw_msub(p[0], q[1], p[1] * q[0])));
    out[3] = fw_msub(p[3], q[3], fw_madd(p[0], q[0], fw_madd(p[1], q[1], p[2] * q[2])));
}

// atan2(y, x) lane by lane; `twice`: 2 atan2(y, x) wrapped into (-pi, pi] (joint.c's angle of a relative
// rotation about z, wrap_angle). The ratio of the smaller to the larger of |y|, |x| is in [0, 1]; above
// tan(pi/8) it is taken to (t - 1) / (t + 1) about pi/4, and atan there is Cephes' atanf polynomial (relative
// error under 2e-7); the octant and quadrant are then put back. It is within 2.8e-7 rad of atan2 in double
// (16 million random pairs, a third of them with |y| under 1e-6, zeros among them), where libm's atan2f
// called lane by lane took a twentieth of the ragdolls' step (their CPU time fell 9% without it).
WIDE_INLINE fw joint_atan2(fw y, fw x, bool twice)
{
    const fw sign = fw_splat(-0.0f), zero = fw_zero(), one = fw_splat(1.0f);
    fw ax = fw_andnot(sign, x), ay = fw_andnot(sign, y);
    fw steep = fw_gt(ay, ax);
    fw lo = fw_select(ay, ax, steep), hi = fw_select(ax, ay, steep);
    fw t = fw_and(lo / hi, fw_gt(hi, zero)); // atan2(0, 0) is 0
    fw far = fw_gt(t, fw_splat(0.41421356f));
    t = fw_select(t, (t - one) / (t + one), far);
    fw z = t * t;
    fw p = fw_madd(fw_madd(fw_madd(fw_splat(8.05374449538e-2f), z, fw_splat(-1.38776856032e-1f)), z,
                           fw_splat(1.99777106478e-1f)),
                   z, fw_splat(-3.33329491539e-1f));
    fw a = fw_and(fw_splat(0.78539816f), far) + fw_madd(p * z, t, t);
    a = fw_select(a, fw_splat(1.57079633f) - a, steep);
    a = fw_select(a, fw_splat(GLM_PIf) - a, fw_lt(x, zero));
    a = fw_xor(a, fw_and(y, sign));
    if (!twice)
        return a;
    // 2 a is in [-2 pi, 2 pi]: one turn at most takes it into (-pi, pi].
    const fw pi = fw_splat(GLM_PIf), turn = fw_splat(2.0f * GLM_PIf);
    a = a + a;
    a = fw_select(a, a - turn, fw_gt(a, pi));
    return fw_select(a, a + turn, fw_ngt(a, zero - pi));
}

// joint.c's angular_mass along u: 1 / (u . Ia u + u . Ib u), 0 where that is not above zero.
WIDE_INLINE fw joint_angular_mass(const joint_unit *u, v3w n)
{
    fw k =
        dot(n, joint_turn(u->iso_a, u->a[7], &u->ia, n)) + dot(n, joint_turn(u->iso_b, u->b[7], &u->ib, n));
    return fw_and(fw_splat(1.0f) / k, fw_gt(k, fw_zero()));
}

// geometry_of for lanes o .. o + LANES - 1: the anchors and gap, the frames' z axes, the axes across za, and
// the rows' directions, errors and whether they are solved.
WIDE_INLINE void joint_limit_geometry(wide_limit_group *g, int o)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    fw ma[8], mb[8];
    joint_runs(g->state_a, o, FIELD(dp), ma);
    joint_runs(g->state_b, o, FIELD(dp), mb);
    v3w ra = joint_rotate(ma + 4, LD3(g->ra, o)), rb = joint_rotate(mb + 4, LD3(g->rb, o));
    v3w d = add3(add3(sub((v3w){mb[0], mb[1], mb[2]}, (v3w){ma[0], ma[1], ma[2]}), LD3(g->delta_center, o)),
                 sub(rb, ra));
    store3(g->ra_now, o, ra);
    store3(g->rb_now, o, rb);
    store3(g->gap, o, d);
    fw qa0[4] = {ld(g->qa[0] + o), ld(g->qa[1] + o), ld(g->qa[2] + o), ld(g->qa[3] + o)};
    fw qb0[4] = {ld(g->qb[0] + o), ld(g->qb[1] + o), ld(g->qb[2] + o), ld(g->qb[3] + o)};
    fw qa[4], qb[4], rel[4], conj_a[4];
    joint_qmul(ma + 4, qa0, qa);
    joint_qmul(mb + 4, qb0, qb);
    const v3w z = {zero, zero, one};
    v3w za = joint_rotate(qa, z), zb = joint_rotate(qb, z);
    // conj(qa) qb, the rotation from frame a to frame b in a's frame.
    conj_a[0] = zero - qa[0];
    conj_a[1] = zero - qa[1];
    conj_a[2] = zero - qa[2];
    conj_a[3] = qa[3];
    joint_qmul(conj_a, qb, rel);
    fw bound[3] = {ld(g->bound[0] + o), ld(g->bound[1] + o), ld(g->bound[2] + o)};
    fw enabled[3] = {fw_ints_mask(g->enabled[0] + o), fw_ints_mask(g->enabled[1] + o),
                     fw_ints_mask(g->enabled[2] + o)};
    v3w axis[3];
    fw error[3], solved[3];
    if (g->hinge)
    {
        // across(za): u1 = t x za normalised, t the x axis unless za is near it, then the y axis; u2 = za x
        // u1.
        fw near_x = fw_lt(fw_andnot(fw_splat(-0.0f), za.x), fw_splat(0.57735f));
        v3w t = {fw_and(one, near_x), fw_andnot(near_x, one), zero};
        v3w u1 = cross(t, za);
        fw inv = one / fw_sqrt(dot(u1, u1));
        u1 = (v3w){u1.x * inv, u1.y * inv, u1.z * inv};
        v3w u2 = cross(za, u1), e = cross(za, zb);
        store3(g->across[0], o, u1);
        store3(g->across[1], o, u2);
        st(g->lock_error[0] + o, dot(e, u1));
        st(g->lock_error[1] + o, dot(e, u2));
        // The angle is read only by the limits (a bridge's hinges have none: their rows' errors are unread).
        fw angle = fw_any(enabled[0]) ? joint_atan2(rel[2], rel[3], true) : zero;
        axis[0] = za;
        axis[1] = (v3w){zero - za.x, zero - za.y, zero - za.z};
        axis[2] = (v3w){zero, zero, zero};
        error[0] = angle - bound[0];
        error[1] = bound[1] - angle;
        error[2] = zero;
        solved[0] = enabled[0];
        solved[1] = enabled[1];
        solved[2] = zero;
    }
    else
    {
        // The cone: turning b about za x zb widens the swing.
        v3w swing_cross = cross(za, zb);
        fw sin_swing = fw_sqrt(dot(swing_cross, swing_cross));
        fw swings = fw_gt(sin_swing, fw_splat(1.0e-6f));
        fw s = fw_and(fw_splat(-1.0f) / sin_swing, swings);
        axis[0] = (v3w){swing_cross.x * s, swing_cross.y * s, swing_cross.z * s};
        fw swing = fw_any(enabled[0]) ? fw_and(joint_atan2(sin_swing, dot(za, zb), false), enabled[0]) : zero;
        error[0] = bound[0] - swing;
        solved[0] = fw_and(enabled[0], swings);
        // The twist (joint.c's twist_of): the rate of 2 atan2(rel.z, rel.w) is the relative spin along
        // frame a's z tilted by the swing.
        fw n = fw_madd(rel[3], rel[3], rel[2] * rel[2]);
        fw tilted = fw_gt(n, fw_splat(1.0e-12f));
        fw lx = fw_and(fw_madd(rel[3], rel[1], rel[2] * rel[0]) / n, tilted);
        fw ly = fw_and(fw_msub(rel[2], rel[1], rel[3] * rel[0]) / n, tilted);
        v3w twist_axis = joint_rotate(qa, (v3w){lx, ly, one});
        twist_axis = (v3w){fw_and(twist_axis.x, enabled[1]), fw_and(twist_axis.y, enabled[1]),
                           fw_and(twist_axis.z, enabled[1])};
        fw twist = fw_any(enabled[1]) ? fw_and(joint_atan2(rel[2], rel[3], true), enabled[1]) : zero;
        axis[1] = twist_axis;
        axis[2] = (v3w){zero - twist_axis.x, zero - twist_axis.y, zero - twist_axis.z};
        error[1] = twist - bound[1];
        error[2] = bound[2] - twist;
        solved[1] = enabled[1];
        solved[2] = enabled[2];
    }
    for (int r = 0; r < 3; r++)
    {
        store3(g->axis[r], o, axis[r]);
        st(g->error[r] + o, error[r]);
        st((float *)(void *)(g->solved[r] + o), solved[r]); // the mask's bits, read back by fw_ints_mask
    }
}

// joint.c's solve_limit on one angular row along n: apart (error above zero) it may close by the error in
// this sub-step (speculative), inside it is the sweep's row; the impulse is clamped to keep the accumulated
// one at or above zero, and lanes whose row is not solved neither apply nor accumulate any.
WIDE_INLINE void joint_limit_row(joint_unit *u, v3w n, fw c, fw mass, fw solved, float *acc_at,
                                 const joint_softness *soft, const wide_joint_sweep *sw)
{
    const fw zero = fw_zero();
    fw acc = ld(acc_at);
    fw speed = dot(n, sub(u->wb, u->wa));
    fw apart = fw_gt(c, zero);
    fw bias_rate = fw_select(soft->bias_rate, fw_splat(sw->inv_h), apart);
    fw mass_scale = fw_select(soft->mass_scale, fw_splat(1.0f), apart);
    fw impulse_scale = fw_select(soft->impulse_scale, zero, apart);
    fw x = (zero - mass * mass_scale) * fw_madd(bias_rate, c, speed) - impulse_scale * acc;
    fw total = fw_min(fw_max(acc + x, zero), fw_splat(3.0e38f));
    x = fw_and(total - acc, solved);
    st(acc_at, fw_select(acc, total, solved));
    joint_apply_angular(u, (v3w){n.x * x, n.y * x, n.z * x});
}

// solve_hinge_lock: the 2x2 block on the axes across za, its accumulated impulse kept as a world vector.
WIDE_INLINE void joint_lock(joint_unit *u, wide_limit_group *g, int o, fw mass_scale, fw bias,
                            fw impulse_scale)
{
    v3w w = sub(u->wb, u->wa), u1 = LD3(g->across[0], o), u2 = LD3(g->across[1], o);
    fw b1 = fw_madd(ld(g->lock_error[0] + o), bias, dot(w, u1) * mass_scale);
    fw b2 = fw_madd(ld(g->lock_error[1] + o), bias, dot(w, u2) * mass_scale);
    fw k11 = ld(g->lock_inv[0] + o), k12 = ld(g->lock_inv[1] + o), k22 = ld(g->lock_inv[2] + o);
    fw x1 = fw_madd(k11, b1, k12 * b2), x2 = fw_madd(k12, b1, k22 * b2);
    v3w acc = LD3(g->lock_impulse, o);
    fw a1 = dot(acc, u1), a2 = dot(acc, u2);
    fw i1 = -fw_madd(a1, impulse_scale, x1), i2 = -fw_madd(a2, impulse_scale, x2);
    store3(g->lock_impulse, o,
           madd((v3w){u1.x * (a1 + i1), u1.y * (a1 + i1), u1.z * (a1 + i1)}, u2, a2 + i2));
    joint_apply_angular(u, madd((v3w){u1.x * i1, u1.y * i1, u1.z * i1}, u2, i2));
}

// K += the inverse inertia of one body (joint.c's Ia + Ib for friction).
WIDE_INLINE void joint_add_inertia(wide_sym3 *k, bool isotropic, fw scale, const wide_mat3 *m)
{
    if (isotropic)
    {
        k->xx = k->xx + scale;
        k->yy = k->yy + scale;
        k->zz = k->zz + scale;
        return;
    }
    k->xx = k->xx + m->m[0];
    k->xy = k->xy + m->m[3];
    k->xz = k->xz + m->m[6];
    k->yy = k->yy + m->m[4];
    k->yz = k->yz + m->m[7];
    k->zz = k->zz + m->m[8];
}

// joint.c's solve_friction for lanes o .. o + LANES - 1 (the most impulse `most`, 0 in lanes without).
WIDE_INLINE void joint_friction(joint_unit *u, wide_limit_group *g, int o, fw most)
{
    wide_sym3 inv = load_sym(g->friction_inv, o);
    v3w acc = LD3(g->friction_impulse, o);
    v3w total = add3(acc, sym_mulv(&inv, sub(u->wa, u->wb)));
    fw n2 = dot(total, total);
    fw scale = fw_select(fw_splat(1.0f), most / fw_sqrt(n2), fw_gt(n2, most * most));
    total = (v3w){total.x * scale, total.y * scale, total.z * scale};
    store3(g->friction_impulse, o, total);
    joint_apply_angular(u, sub(total, acc));
}

// row_masses for lanes o .. o + LANES - 1 of unit u, at the geometry joint_limit_geometry kept: the point
// block's inverse, the rows' effective masses (0 where a row is not solved), the hinge lock's block,
// inverted (solve2's: 0 where it is singular), and friction's block where a lane has friction.
WIDE_INLINE void joint_limit_masses(wide_limit_group *g, int o, const joint_unit *u)
{
    const fw zero = fw_zero();
    fw m = u->a[3] + u->b[3];
    wide_sym3 k = {m, zero, zero, m, zero, m};
    joint_add_arm(&k, u->iso_a, u->a[7], &u->ia, LD3(g->ra_now, o));
    joint_add_arm(&k, u->iso_b, u->b[7], &u->ib, LD3(g->rb_now, o));
    wide_sym3 inv_k = joint_inverse(&k);
    store_sym(g->inv_k, o, &inv_k);
    for (int e = 0; e < 9; e++)
    {
        if (!u->iso_a)
            st(g->inertia_a[e] + o, u->ia.m[e]);
        if (!u->iso_b)
            st(g->inertia_b[e] + o, u->ib.m[e]);
    }
    for (int r = 0; r < 3; r++)
        st(g->mass[r] + o, fw_and(joint_angular_mass(u, LD3(g->axis[r], o)), fw_ints_mask(g->solved[r] + o)));
    if (fw_any(fw_gt(ld(g->friction + o), zero)))
    {
        wide_sym3 f = {zero, zero, zero, zero, zero, zero};
        joint_add_inertia(&f, u->iso_a, u->a[7], &u->ia);
        joint_add_inertia(&f, u->iso_b, u->b[7], &u->ib);
        wide_sym3 inv_f = joint_inverse(&f);
        store_sym(g->friction_inv, o, &inv_f);
    }
    if (!g->hinge)
        return;
    v3w u1 = LD3(g->across[0], o), u2 = LD3(g->across[1], o);
    v3w ia1 = joint_turn(u->iso_a, u->a[7], &u->ia, u1), ia2 = joint_turn(u->iso_a, u->a[7], &u->ia, u2);
    v3w ib1 = joint_turn(u->iso_b, u->b[7], &u->ib, u1), ib2 = joint_turn(u->iso_b, u->b[7], &u->ib, u2);
    fw k11 = dot(u1, ia1) + dot(u1, ib1), k12 = dot(u1, ia2) + dot(u1, ib2),
       k22 = dot(u2, ia2) + dot(u2, ib2);
    fw det = fw_msub(k11, k22, k12 * k12);
    fw inv = fw_and(fw_splat(1.0f) / det, fw_gt(fw_andnot(fw_splat(-0.0f), det), fw_splat(1.0e-30f)));
    st(g->lock_inv[0] + o, inv * k22);
    st(g->lock_inv[1] + o, zero - inv * k12);
    st(g->lock_inv[2] + o, inv * k11);
}

WIDE_KERNEL void WIDE_FN(joint_limit_measure)(wide_limit_group *groups, int first, int last, bool geometry,
                                              bool masses)
{
    for (int gi = first; gi < last; gi++)
    {
        wide_limit_group *g = &groups[gi];
        for (int o = 0; o < g->lanes; o += LANES)
        {
            if (geometry)
                joint_limit_geometry(g, o);
            if (masses)
            {
                joint_unit u;
                joint_load(g->state_a, g->state_b, o, &u);
                joint_limit_masses(g, o, &u);
            }
        }
    }
}

WIDE_KERNEL void WIDE_FN(joint_limit_sweep)(wide_limit_group *groups, int first, int last,
                                            const wide_joint_sweep *sw)
{
    const fw zero = fw_zero();
    for (int gi = first; gi < last; gi++)
    {
        wide_limit_group *g = &groups[gi];
        for (int o = 0; o < g->lanes; o += LANES)
        {
            joint_unit u;
            v3w ra = LD3(g->ra_now, o), rb = LD3(g->rb_now, o), acc = LD3(g->impulse, o), impulse = acc;
            if (sw->warm_start)
            {
                joint_load(g->state_a, g->state_b, o, &u);
                v3w turn = add3(g->hinge ? LD3(g->lock_impulse, o) : (v3w){zero, zero, zero},
                                LD3(g->friction_impulse, o));
                for (int r = 0; r < 3; r++)
                    turn = madd(turn, LD3(g->axis[r], o), ld(g->limit_impulse[r] + o));
                joint_apply_angular(&u, turn);
            }
            else
            {
                // The inverse inertias the last masses pass kept: a solving sweep follows one whenever they
                // changed, as it follows one whenever the bodies moved.
                joint_load_velocities(g->state_a, g->state_b, o, &u);
                for (int e = 0; !u.iso_a && e < 9; e++)
                    u.ia.m[e] = ld(g->inertia_a[e] + o);
                for (int e = 0; !u.iso_b && e < 9; e++)
                    u.ib.m[e] = ld(g->inertia_b[e] + o);
                joint_softness soft = joint_soft(g->soft, o, sw);
                fw most = ld(g->friction + o);
                if (fw_any(fw_gt(most, zero)))
                    joint_friction(&u, g, o, most);
                for (int r = 0; r < 3; r++)
                {
                    fw solved = fw_ints_mask(g->solved[r] + o);
                    if (fw_any(solved))
                        joint_limit_row(&u, LD3(g->axis[r], o), ld(g->error[r] + o), ld(g->mass[r] + o),
                                        solved, g->limit_impulse[r] + o, &soft, sw);
                }
                if (g->hinge)
                    joint_lock(&u, g, o, soft.mass_scale, soft.bias, soft.impulse_scale);
                wide_sym3 inv_k = load_sym(g->inv_k, o);
                impulse = joint_point(&u, ra, rb, LD3(g->gap, o), &inv_k, &acc, soft.mass_scale, soft.bias,
                                      soft.impulse_scale);
                store3(g->impulse, o, acc);
            }
            joint_write(&u, ra, rb, impulse, g->state_a, g->state_b, g->still_a, g->still_b, o, g->lanes, sw);
        }
    }
}

const wide_kernels WIDE_FN(ph_wide_kernels) = {
    .lanes = LANES,
    .prepare = WIDE_FN(prepare),
    .refresh = WIDE_FN(refresh),
    .bounce = WIDE_FN(bounce),
    .warm_start = WIDE_FN(warm_start),
    .solve = WIDE_FN(solve),
    .integrate_positions = WIDE_FN(integrate_positions),
    .joint_sweep = WIDE_FN(joint_sweep),
    .joint_limit_sweep = WIDE_FN(joint_limit_sweep),
    .joint_limit_measure = WIDE_FN(joint_limit_measure),
};
