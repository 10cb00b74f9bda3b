// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The contact solver's wide path: 8 constraints solved side by side in AVX2 lanes (see solver_internal.h).
// Why: the scalar solver spends ~100 cycles per contact point and sweep on dependent scalar arithmetic,
// 85% of a stacking scene's step; the same arithmetic on 8 lanes does 8 constraints for little more.
// Lanes must not share a body that moves, or two lanes would update its velocity from the same old value
// and one update would be lost: the constraints are coloured greedily (Box2D v3 colours its constraint
// graph the same way), and a group takes constraints of one colour only. Bodies that do not move in the
// solver (static, kinematic, asleep: inverse mass 0) are shared freely, since no impulse changes them.
// The per-lane arithmetic is solver.c's: solve() and bounce() row for row, prepare() and refresh_rows()
// operation for operation but for the rows' arms (r x d and I^-1 (r x d), formed with fused multiply-adds),
// and warm_start() summed over a lane's points before the inverse inertias turn the angular part; the sweeps
// use fused multiply-adds, so lanes differ from scalar constraints by rounding. The arms are kept beside
// small groups and worked out in every sweep for large ones (wide_arms_mode), by one function either way, so
// that the choice changes the speed only. Lanes beyond a group's constraints, and points beyond a
// constraint's count, hold zero anchors, masses and impulses and so change nothing. This file is compiled
// with -mavx2 -mfma where the compiler targets x86-64, and its kernels run only when the CPU reports both
// (ph_wide_supported); elsewhere the build has the stubs at the end.
#include "arena.h"
#include "solver_internal.h"

#include <limits.h> // INT_MAX
#include <stddef.h> // offsetof
#include <string.h> // memset, memcpy

// Colours a constraint may take: one bit each in a body's 64-bit mask of colours used.
#define WIDE_MAX_COLORS 64

// ---- Colouring and grouping (plain C) ----

bool ph_wide_build(ph_arena *arena, const ph_body_state *states, int slots, const constraint_head *heads,
                   int count, wide_arms_mode arms, wide_solver *out)
{
    *out = (wide_solver){0};
    if (slots > INT_MAX / (int)sizeof(ph_body_state)) // the groups address states by byte offsets in an int
        return false;
    size_t n = (size_t)(count > 0 ? count : 1), body_count = (size_t)(slots > 0 ? slots : 1);
    out->scalar = ph_arena_alloc(arena, n * sizeof(int));
    out->color = ph_arena_alloc(arena, n * sizeof(int));
    out->order = ph_arena_alloc(arena, n * sizeof(int));
    out->used = ph_arena_alloc(arena, body_count * sizeof(uint64_t));
    if (!out->scalar || !out->color || !out->order || !out->used)
        return false;
    memset(out->used, 0, body_count * sizeof(uint64_t));
    int *color = out->color, *order = out->order;

    // Greedy colouring in contact order: the lowest colour free at both moving bodies.
    // bucket[key + 1] counts the constraints of each key = colour * 4 + (4 - points): sorted by key, a
    // colour's constraints come together, those with the most points first, so that the constraints of
    // a group mostly have the same point count.
    enum
    {
        KEYS = WIDE_MAX_COLORS * PH_MAX_MANIFOLD_POINTS
    };
    // Only the keys of colours that can occur are cleared and summed: a constraint takes at most the
    // colour after those of the constraints before it, and the small scenes that run this every step
    // would otherwise spend more on the 257 buckets than on colouring.
    int bucket[KEYS + 1];
    int key_bound = (count < WIDE_MAX_COLORS ? count : WIDE_MAX_COLORS) * PH_MAX_MANIFOLD_POINTS;
    memset(bucket, 0, (size_t)(key_bound + 1) * sizeof bucket[0]);
    for (int k = 0; k < count; k++)
    {
        const constraint_head *head = &heads[k];
        bool move_a = states[head->a].inv_mass > 0.0f, move_b = states[head->b].inv_mass > 0.0f;
        uint64_t taken = (move_a ? out->used[head->a] : 0) | (move_b ? out->used[head->b] : 0);
        if (taken == ~(uint64_t)0)
        {
            color[k] = -1;
            out->scalar[out->scalar_count++] = k;
            continue;
        }
        int c = __builtin_ctzll(~taken);
        uint64_t bit = (uint64_t)1 << c;
        if (move_a)
            out->used[head->a] |= bit;
        if (move_b)
            out->used[head->b] |= bit;
        color[k] = c;
        out->colors = c + 1 > out->colors ? c + 1 : out->colors;
        bucket[c * PH_MAX_MANIFOLD_POINTS + (PH_MAX_MANIFOLD_POINTS - head->point_count) + 1]++;
    }
    // Groups: each colour's constraints cut into runs of WIDE; a colour's last group may be partial.
    int group_count = 0;
    for (int c = 0; c < out->colors; c++)
    {
        int in_color = 0;
        for (int p = 0; p < PH_MAX_MANIFOLD_POINTS; p++)
            in_color += bucket[c * PH_MAX_MANIFOLD_POINTS + p + 1];
        group_count += (in_color + WIDE - 1) / WIDE;
    }
    for (int i = 1; i <= out->colors * PH_MAX_MANIFOLD_POINTS; i++)
        bucket[i] += bucket[i - 1];
    for (int k = 0; k < count; k++)
    {
        if (color[k] >= 0)
            order[bucket[color[k] * PH_MAX_MANIFOLD_POINTS +
                         (PH_MAX_MANIFOLD_POINTS - heads[k].point_count)]++] = k;
    }
    bool keep =
        arms == WIDE_ARMS_KEPT || (arms == WIDE_ARMS_AUTO && group_count <= WIDE_KEPT_ARMS_MAX_GROUPS);
    out->stride = sizeof(wide_group) + (keep ? sizeof(wide_group_arms) : 0);
    out->groups = group_count > 0 ? ph_arena_alloc(arena, (size_t)group_count * out->stride) : NULL;
    if (group_count > 0 && !out->groups)
        return false;
    out->group_count = group_count;

    // Fill the groups in that order; a group never spans two colours.
    int colored = count - out->scalar_count;
    for (int j = 0, g = -1, lane = WIDE; j < colored; j++, lane++)
    {
        int k = order[j];
        if (lane == WIDE || color[k] != color[order[j - 1]])
        {
            g++;
            lane = 0;
            wide_group *grp = wide_group_at(out, g);
            grp->lanes = 0;
            grp->color = color[k];
            grp->point_count = heads[k].point_count; // the most: sorted by points, descending
            grp->max_passes = 1;
        }
        wide_group *grp = wide_group_at(out, g);
        grp->at_a[lane] = heads[k].a * (int)sizeof(ph_body_state);
        grp->at_b[lane] = heads[k].b * (int)sizeof(ph_body_state);
        grp->contact[lane] = heads[k].contact;
        grp->point_counts[lane] = heads[k].point_count;
        grp->lanes++;
    }
    // Unused lanes: no contact, no points (ph_wide_prepare zeroes them), and lane 0's bodies (which they
    // leave as they are).
    for (int g = 0; g < group_count; g++)
    {
        wide_group *grp = wide_group_at(out, g);
        for (int lane = grp->lanes; lane < WIDE; lane++)
        {
            grp->at_a[lane] = grp->at_a[0];
            grp->at_b[lane] = grp->at_b[0];
            grp->contact[lane] = -1;
            grp->point_counts[lane] = 0;
        }
    }
    return true;
}

void ph_wide_release(ph_arena *arena, wide_solver *w)
{
    void *blocks[] = {w->groups, w->used, w->order, w->color, w->scalar};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
    {
        if (blocks[i])
            ph_arena_free(arena, blocks[i]);
    }
    *w = (wide_solver){0};
}

// ---- Kernels ----
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

// The two kernels are also built for AVX-512VL and the loader picks that build where the CPU has it: the
// instructions are the same 8-lane ones, but its 32 vector registers hold a group's velocities, normal and
// soft-constraint terms, which spill out of AVX2's 16 (pyramid20's step -6%, large_pyramid's -10 to -15%).
// Clang 14 (Debian 12) crashes on these clones, so clang builds keep the AVX2 build only.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__AVX512VL__)
#define WIDE_KERNEL __attribute__((target_clones("arch=x86-64-v4", "default")))
#else
#define WIDE_KERNEL
#endif

// The kernels' helpers are inlined whatever their size: each is called with 8-lane values in registers, and
// an out-of-line call passes them through memory (with the kernels' many variants, the compiler's own
// limits left some out of line).
#define WIDE_INLINE static inline __attribute__((always_inline))

typedef __m256 f8;
typedef struct v8
{
    f8 x, y, z;
} v8;

WIDE_INLINE f8 ld(const float *p)
{
    return _mm256_loadu_ps(p);
}

WIDE_INLINE void st(float *p, f8 v)
{
    _mm256_storeu_ps(p, v);
}

WIDE_INLINE f8 splat(float s)
{
    return _mm256_set1_ps(s);
}

// The three lanes' rows of a float[3][WIDE] field (a macro: a function taking const float[3][WIDE] would
// need a cast from the non-const fields in ISO C before C23).
#define LD3(p) ((v8){ld((p)[0]), ld((p)[1]), ld((p)[2])})

WIDE_INLINE f8 dot(v8 a, v8 b)
{
    return _mm256_fmadd_ps(a.x, b.x, _mm256_fmadd_ps(a.y, b.y, a.z * b.z));
}

WIDE_INLINE v8 sub(v8 a, v8 b)
{
    return (v8){a.x - b.x, a.y - b.y, a.z - b.z};
}

WIDE_INLINE v8 cross(v8 a, v8 b)
{
    return (v8){_mm256_fmsub_ps(a.y, b.z, a.z * b.y), _mm256_fmsub_ps(a.z, b.x, a.x * b.z),
                _mm256_fmsub_ps(a.x, b.y, a.y * b.x)};
}

// a + b s
WIDE_INLINE v8 madd(v8 a, v8 b, f8 s)
{
    return (v8){_mm256_fmadd_ps(b.x, s, a.x), _mm256_fmadd_ps(b.y, s, a.y), _mm256_fmadd_ps(b.z, s, a.z)};
}

WIDE_INLINE f8 select(f8 if_false, f8 if_true, f8 mask)
{
    return _mm256_blendv_ps(if_false, if_true, mask);
}

// The velocities of a group's bodies, lane by lane (as solver.c's pair_velocity).
typedef struct wide_velocity
{
    v8 va, wa, vb, wb;
    f8 inv_mass_a, inv_mass_b;
    f8 scale_a, scale_b; // the states' inv_inertia_scale, which rides in the same run of 8 floats
} wide_velocity;

// Body states are read 8 floats at a time, one run per lane, and transposed into one vector per field
// (a gather per field costs several times more); velocities are written back the same way.
#define FIELD(f) ((int)(offsetof(ph_body_state, f) / sizeof(float)))
_Static_assert(FIELD(inv_mass) == FIELD(v) + 3 && FIELD(w) == FIELD(v) + 4 &&
                   FIELD(inv_inertia_scale) == FIELD(v) + 7,
               "v, inv_mass, w, inv_inertia_scale are one run of 8 floats");
_Static_assert(FIELD(dq) == FIELD(dp) + 4, "dp, pad_dp, dq are one run of 8 floats");
_Static_assert(sizeof(wide_group) % 32 == 0 && offsetof(wide_group, points) % 32 == 0 &&
                   offsetof(wide_group, cold) % 32 == 0,
               "every run of 8 floats of a group is 32-byte aligned");

// r[i] holds 8 floats of lane i; afterwards r[j] holds float j of every lane (and back: it is its own
// inverse).
WIDE_INLINE void transpose8(f8 r[WIDE])
{
    f8 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    f8 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    f8 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    f8 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    // s0: float 0 of lanes 0-3 | float 4 of lanes 0-3; s1: floats 1 | 5; s2: 2 | 6; s3: 3 | 7; s4-s7 the same
    // for lanes 4-7.
    f8 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)),
       s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    f8 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)),
       s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    f8 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0)),
       s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    f8 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0)),
       s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

// The run of 8 floats at `field` of each lane's body, transposed.
WIDE_INLINE void load_runs(const ph_body_state *states, const int slots[WIDE], int field, f8 out[WIDE])
{
    for (int lane = 0; lane < WIDE; lane++)
        out[lane] = ld((const float *)&states[slots[lane]] + field);
    transpose8(out);
}

// The state at byte offset `at` of `states` (a group's at_a, at_b).
WIDE_INLINE float *state_at(const ph_body_state *states, int at)
{
    return (float *)((const char *)states + at);
}

// load_runs for the bodies at byte offsets `at`.
WIDE_INLINE void load_runs_at(const ph_body_state *states, const int at[WIDE], int field, f8 out[WIDE])
{
    for (int lane = 0; lane < WIDE; lane++)
        out[lane] = ld(state_at(states, at[lane]) + field);
    transpose8(out);
}

WIDE_INLINE wide_velocity load_velocity(const ph_body_state *states, const wide_group *g)
{
    f8 a[WIDE], b[WIDE];
    load_runs_at(states, g->at_a, FIELD(v), a);
    load_runs_at(states, g->at_b, FIELD(v), b);
    return (wide_velocity){{a[0], a[1], a[2]},
                           {a[4], a[5], a[6]},
                           {b[0], b[1], b[2]},
                           {b[4], b[5], b[6]},
                           a[3],
                           b[3],
                           a[7],
                           b[7]};
}

// Writes the velocities back (with the inverse masses and inertia scales as read). Lanes beyond the group's
// are not written; lanes sharing a body that does not move write back the value they read.
WIDE_INLINE void store_velocity(ph_body_state *states, const wide_group *g, const wide_velocity *p)
{
    f8 a[WIDE] = {p->va.x, p->va.y, p->va.z, p->inv_mass_a, p->wa.x, p->wa.y, p->wa.z, p->scale_a};
    f8 b[WIDE] = {p->vb.x, p->vb.y, p->vb.z, p->inv_mass_b, p->wb.x, p->wb.y, p->wb.z, p->scale_b};
    transpose8(a);
    transpose8(b);
    for (int lane = 0; lane < g->lanes; lane++)
    {
        st(state_at(states, g->at_a[lane]) + FIELD(v), a[lane]);
        st(state_at(states, g->at_b[lane]) + FIELD(v), b[lane]);
    }
}

// A world inverse inertia per lane: m[c] is float c of the column-major 3x3 matrix (column c / 3, row c % 3).
typedef struct wide_mat3
{
    f8 m[9];
} wide_mat3;

WIDE_INLINE wide_mat3 load_inertia(const ph_body_state *states, const int at[WIDE])
{
    wide_mat3 r;
    load_runs_at(states, at, FIELD(inv_inertia), r.m);
    float last[WIDE];
    for (int lane = 0; lane < WIDE; lane++)
        last[lane] = state_at(states, at[lane])[FIELD(inv_inertia) + 8];
    r.m[8] = ld(last);
    return r;
}

// M v with fused multiply-adds (the sweeps).
WIDE_INLINE v8 mulv(const wide_mat3 *m, v8 v)
{
    return (v8){_mm256_fmadd_ps(m->m[0], v.x, _mm256_fmadd_ps(m->m[3], v.y, m->m[6] * v.z)),
                _mm256_fmadd_ps(m->m[1], v.x, _mm256_fmadd_ps(m->m[4], v.y, m->m[7] * v.z)),
                _mm256_fmadd_ps(m->m[2], v.x, _mm256_fmadd_ps(m->m[5], v.y, m->m[8] * v.z))};
}

// The inverse inertias of a group's bodies, lane by lane (static bodies' are zero): where the group is
// isotropic (wide_group.isotropic) only their scales sa, sb, else the matrices a, b.
typedef struct wide_inertia
{
    bool isotropic;
    f8 sa, sb;
    wide_mat3 a, b;
} wide_inertia;

// The inverse inertias of group g's bodies, whose velocities (and with them the inertia scales) are p.
WIDE_INLINE wide_inertia load_inertias(const ph_body_state *states, const wide_group *g,
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
        r.a = load_inertia(states, g->at_a);
        r.b = load_inertia(states, g->at_b);
    }
    return r;
}

// The inverse inertia of body a (turn_a) or b (turn_b) applied to r: a product by its scale where the group
// is isotropic (the same as the matrix product but for the sign of a zero), else the matrix product.
WIDE_INLINE v8 turn_a(const wide_inertia *in, v8 r)
{
    return in->isotropic ? (v8){r.x * in->sa, r.y * in->sa, r.z * in->sa} : mulv(&in->a, r);
}

WIDE_INLINE v8 turn_b(const wide_inertia *in, v8 r)
{
    return in->isotropic ? (v8){r.x * in->sb, r.y * in->sb, r.z * in->sb} : mulv(&in->b, r);
}

// A row's angular parts, lane by lane: the arms ra x d and rb x d of its direction d, and the bodies'
// inverse inertias applied to them.
typedef struct row_arms
{
    v8 rda, rdb, irda, irdb;
} row_arms;

// The arms of a row along d at anchors ra, rb. Kept arms (wide_kept_arms) and worked-out ones both come
// from here, so the sweeps give the same bits either way.
WIDE_INLINE row_arms arms_of(const wide_inertia *in, v8 ra, v8 rb, v8 d)
{
    row_arms r;
    r.rda = cross(ra, d);
    r.rdb = cross(rb, d);
    r.irda = turn_a(in, r.rda);
    r.irdb = turn_b(in, r.rdb);
    return r;
}

// A row of the sweeps: its kept arms, or its arms ra x d and rb x d worked out (a, b). Kept arms are read
// where they are used, as memory operands of the arithmetic: loaded up front, three groups' worth of them
// spilled.
typedef struct row_ref
{
    const wide_arms *kept; // where the group's arms are kept
    v8 a, b;               // else
} row_ref;

// The normal row (along d) of point i of group g; its arms worked out from the point's anchors (as arms_of)
// unless kept. `keep` (whether g's are kept) is a constant where this is inlined.
WIDE_INLINE row_ref row_at(const wide_group *g, bool keep, int i, v8 d)
{
    if (keep)
        return (row_ref){.kept = &wide_kept_arms(g)->normal[i]};
    return (row_ref){.a = cross(LD3(g->points[i].ra), d), .b = cross(LD3(g->points[i].rb), d)};
}

// Friction row `which` (0 or 1, along tangent d) at group g's centres, as row_at.
WIDE_INLINE row_ref friction_at(const wide_group *g, bool keep, int which, v8 d)
{
    if (keep)
        return (row_ref){.kept = &wide_kept_arms(g)->friction[which]};
    return (row_ref){.a = cross(LD3(g->fa), d), .b = cross(LD3(g->fb), d)};
}

// The speed along a row of direction d (row_speed in solver.c).
WIDE_INLINE f8 row_speed(const wide_velocity *p, v8 d, bool keep, const row_ref *r)
{
    if (keep)
        return dot(sub(p->vb, p->va), d) + dot(p->wb, LD3(r->kept->rdb)) - dot(p->wa, LD3(r->kept->rda));
    return dot(sub(p->vb, p->va), d) + dot(p->wb, r->b) - dot(p->wa, r->a);
}

// An impulse along that row (row_apply in solver.c): its arms' turns by the inverse inertias `in` kept or
// worked out (as arms_of).
WIDE_INLINE void row_apply(wide_velocity *p, v8 d, bool keep, const row_ref *r, const wide_inertia *in,
                           f8 impulse)
{
    p->va = madd(p->va, d, -impulse * p->inv_mass_a);
    p->wa = madd(p->wa, keep ? LD3(r->kept->irda) : turn_a(in, r->a), -impulse);
    p->vb = madd(p->vb, d, impulse * p->inv_mass_b);
    p->wb = madd(p->wb, keep ? LD3(r->kept->irdb) : turn_b(in, r->b), impulse);
}

// conj(q) * v for the unit quaternions (x, y, z, w) of each lane: v - 2 w (u x v) + 2 u x (u x v).
WIDE_INLINE v8 rotate_inverse(v8 u, f8 w, v8 v)
{
    v8 t = cross(u, v);
    t = (v8){t.x + t.x, t.y + t.y, t.z + t.z};
    v8 r = madd(v, t, -w);
    v8 c = cross(u, t);
    return (v8){r.x + c.x, r.y + c.y, r.z + c.z};
}

// ---- Preparation ----
// Operation for operation what solver.c's prepare() and set_row() do, with separate multiplies and adds
// (no fused multiply-add, the build has -ffp-contract=off), so the lanes hold exactly the constraints the
// scalar path builds.

WIDE_INLINE f8 dot_exact(v8 a, v8 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

WIDE_INLINE v8 cross_exact(v8 a, v8 b)
{
    return (v8){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

WIDE_INLINE void store3(float dst[3][WIDE], v8 v)
{
    st(dst[0], v.x);
    st(dst[1], v.y);
    st(dst[2], v.z);
}

// Stored under `mask`, zero elsewhere.
WIDE_INLINE void st3(float dst[3][WIDE], v8 v, f8 mask)
{
    store3(dst, (v8){_mm256_and_ps(v.x, mask), _mm256_and_ps(v.y, mask), _mm256_and_ps(v.z, mask)});
}

// The effective mass of a row with arms r, as set_row() in solver.c forms it.
WIDE_INLINE f8 row_mass(const wide_velocity *p, const row_arms *r)
{
    f8 k = p->inv_mass_a + p->inv_mass_b + dot_exact(r->rda, r->irda) + dot_exact(r->rdb, r->irdb);
    f8 zero = _mm256_setzero_ps();
    return select(zero, splat(1.0f) / k, _mm256_cmp_ps(k, zero, _CMP_GT_OQ));
}

// Kept as worked out, unmasked: a sweep that works them out again must get the same bits.
WIDE_INLINE void arms_store(wide_arms *a, const row_arms *r)
{
    store3(a->rda, r->rda);
    store3(a->rdb, r->rdb);
    store3(a->irda, r->irda);
    store3(a->irdb, r->irdb);
}

// The row along d at the (masked) anchors ra, rb: its mass and impulse stored under `mask`, zero elsewhere
// (a new constraint: lanes and points beyond the group's are zero), and its arms kept where `kept` is not
// NULL (as worked out, so that a sweep that works them out again gets the same bits). Returns the arms.
WIDE_INLINE row_arms prepare_row(wide_row *r, wide_arms *kept, const wide_velocity *p, const wide_inertia *in,
                                 v8 ra, v8 rb, v8 d, f8 impulse, f8 mask)
{
    row_arms arms = arms_of(in, ra, rb, d);
    st(r->mass, _mm256_and_ps(row_mass(p, &arms), mask));
    st(r->impulse, _mm256_and_ps(impulse, mask));
    if (kept)
        arms_store(kept, &arms);
    return arms;
}

WIDE_INLINE void blend3(float dst[3][WIDE], v8 v, f8 mask)
{
    st(dst[0], select(ld(dst[0]), v.x, mask));
    st(dst[1], select(ld(dst[1]), v.y, mask));
    st(dst[2], select(ld(dst[2]), v.z, mask));
}

// The row rebuilt under `mask` (its mass, and its kept arms if any), the old one kept elsewhere; a rebuilt
// row keeps its impulse.
WIDE_INLINE void refresh_row(wide_row *r, wide_arms *kept, const wide_velocity *p, const wide_inertia *in,
                             v8 ra, v8 rb, v8 d, f8 mask)
{
    row_arms arms = arms_of(in, ra, rb, d);
    st(r->mass, select(ld(r->mass), row_mass(p, &arms), mask));
    if (kept)
    {
        blend3(kept->rda, arms.rda, mask);
        blend3(kept->rdb, arms.rdb, mask);
        blend3(kept->irda, arms.irda, mask);
        blend3(kept->irdb, arms.irdb, mask);
    }
}

// -1 / 0 per lane as a lane mask.
WIDE_INLINE f8 lane_mask(const int flags[WIDE])
{
    return _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)flags));
}

// The lanes that have a point i: a lane in use has at least one, an unused lane none (ph_wide_build).
WIDE_INLINE f8 has_point(const wide_group *g, int i)
{
    __m256i counts = _mm256_loadu_si256((const __m256i *)g->point_counts);
    return _mm256_castsi256_ps(_mm256_cmpgt_epi32(counts, _mm256_set1_epi32(i)));
}

// The twist row of a group along normal n: its effective inertia, stored under `mask` (the old one kept
// elsewhere), and where the arms are kept, I^-1 n of each body (set_twist in solver.c).
WIDE_INLINE void twist_row_of(wide_group *g, wide_group_arms *kept, const wide_inertia *in, v8 n, f8 mask)
{
    v8 ian = turn_a(in, n), ibn = turn_b(in, n);
    f8 k = dot_exact(n, ian) + dot_exact(n, ibn), zero = _mm256_setzero_ps();
    f8 mass = select(zero, splat(1.0f) / k, _mm256_cmp_ps(k, zero, _CMP_GT_OQ));
    st(g->twist_mass, select(ld(g->twist_mass), mass, mask));
    if (kept)
    {
        blend3(kept->ian, ian, mask);
        blend3(kept->ibn, ibn, mask);
    }
}

// The anchors stay those of the step's start (see refresh_rows in solver.c): only the masses and the turned
// arms change with the inverse inertias.
WIDE_KERNEL void ph_wide_refresh(const ph_body_state *states, wide_solver *w, const uint8_t *refreshed)
{
    for (int gi = 0; gi < w->group_count; gi++)
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
        wide_velocity p = load_velocity(states, g); // for the inverse masses
        wide_inertia in = load_inertias(states, g, &p);
        v8 n = LD3(g->normal), t1 = LD3(g->t1), t2 = LD3(g->t2);
        wide_group_arms *kept = wide_keeps_arms(w) ? wide_kept_arms(g) : NULL;
        f8 lanes_mask = lane_mask(lanes);
        for (int i = 0; i < g->point_count; i++)
        {
            const wide_point *wp = &g->points[i];
            refresh_row(&g->points[i].n, kept ? &kept->normal[i] : NULL, &p, &in, LD3(wp->ra), LD3(wp->rb), n,
                        _mm256_and_ps(lanes_mask, has_point(g, i)));
        }
        f8 in_use = _mm256_and_ps(lanes_mask, has_point(g, 0));
        refresh_row(&g->f1, kept ? &kept->friction[0] : NULL, &p, &in, LD3(g->fa), LD3(g->fb), t1, in_use);
        refresh_row(&g->f2, kept ? &kept->friction[1] : NULL, &p, &in, LD3(g->fa), LD3(g->fb), t2, in_use);
        twist_row_of(g, kept, &in, n, in_use);
    }
}

// One restitution sweep over the groups, lane for lane what bounce() in solver.c does (the lanes of a group
// share no moving body, so side by side is the same as one after the other). True when a point bounced.
WIDE_KERNEL bool ph_wide_bounce(ph_body_state *states, wide_solver *w, float h_scalar, bool compress)
{
    const f8 zero = _mm256_setzero_ps(), sign = splat(-0.0f), h = splat(h_scalar);
    bool bouncing = false;
    for (int gi = 0; gi < w->group_count; gi++)
    {
        wide_group *g = wide_group_at(w, gi);
        f8 restitution = ld(g->restitution);
        f8 bouncy = _mm256_cmp_ps(restitution, zero, _CMP_NEQ_UQ);
        if (_mm256_movemask_ps(bouncy) == 0)
            continue;
        wide_velocity p = load_velocity(states, g);
        wide_inertia in = load_inertias(states, g, &p);
        v8 n = LD3(g->normal);
        f8 accel = ld(g->accel_n);
        int bounced = 0;
        // Each lane's compression and push so far, for the pushing sweeps (bounce() in solver.c); padded
        // points hold zeros.
        f8 compressed = zero, pushed = zero;
        for (int i = 0; !compress && i < g->point_count; i++)
        {
            compressed = compressed + (ld(g->cold[i].total_impulse) - ld(g->cold[i].bounce_impulse));
            pushed = pushed + ld(g->cold[i].bounce_impulse);
        }
        for (int i = 0; i < g->point_count; i++)
        {
            wide_point *wp = &g->points[i];
            wide_point_cold *wc = &g->cold[i];
            f8 approach = ld(wc->approach);
            // Closed fast enough, and touched this step (padded points never touched).
            f8 fast = _mm256_cmp_ps(approach, splat(-SOLVER_RESTITUTION_THRESHOLD), _CMP_NGT_UQ);
            f8 touched = _mm256_cmp_ps(ld(wc->max_normal_impulse), zero, _CMP_NEQ_UQ);
            f8 mask = _mm256_and_ps(bouncy, _mm256_and_ps(fast, touched));
            int m = _mm256_movemask_ps(mask);
            if (m == 0)
                continue;
            bounced |= m;
            // The arms as kept or worked out (arms_of is both).
            row_arms arms = arms_of(&in, LD3(wp->ra), LD3(wp->rb), n);
            f8 vn = dot_exact(p.vb, n) - dot_exact(p.va, n) + dot_exact(p.wb, arms.rdb) -
                    dot_exact(p.wa, arms.rda);
            f8 accumulated = ld(wp->n.impulse), mass = ld(wp->n.mass), total_so_far = ld(wc->total_impulse);
            f8 impulse;
            if (compress)
                impulse = _mm256_max_ps(_mm256_xor_ps(mass, sign) * vn, zero);
            else
            {
                f8 reach = _mm256_xor_ps(approach, sign) * h - splat(0.5f) * accel * h * h;
                f8 gap = _mm256_min_ps(ld(wc->approach_gap), _mm256_max_ps(reach, zero));
                f8 a2 = approach * approach;
                f8 v2 = a2 - splat(2.0f) * accel * gap;
                f8 impact = select(approach, _mm256_xor_ps(_mm256_sqrt_ps(v2), sign),
                                   _mm256_cmp_ps(v2, a2, _CMP_GT_OQ));
                // Leaving at e times the impact speed from where the step ends (bounce() in solver.c).
                f8 leave = restitution * impact;
                f8 gap_end = _mm256_max_ps(ld(g->separation[i]), zero);
                f8 leave2 = leave * leave + splat(2.0f) * accel * gap_end;
                f8 target = _mm256_sqrt_ps(_mm256_max_ps(leave2, zero));
                impulse = _mm256_xor_ps(mass, sign) * (vn - target);
                impulse = _mm256_max_ps(accumulated + impulse, zero) - accumulated;
                // Poisson's bound (bounce() in solver.c).
                f8 allowance = restitution * compressed - pushed;
                impulse = _mm256_and_ps(_mm256_min_ps(impulse, _mm256_max_ps(allowance, zero)), mask);
                st(wc->bounce_impulse, ld(wc->bounce_impulse) + impulse);
                pushed = pushed + impulse;
            }
            impulse = _mm256_and_ps(impulse, mask);
            st(wp->n.impulse, accumulated + impulse);
            st(wc->total_impulse, total_so_far + impulse);
            // row_apply() in solver.c, without fused multiply-adds.
            f8 neg = _mm256_xor_ps(impulse, sign);
            v8 irda = arms.irda, irdb = arms.irdb;
            f8 sa = neg * p.inv_mass_a, sb = impulse * p.inv_mass_b;
            p.va = (v8){p.va.x + n.x * sa, p.va.y + n.y * sa, p.va.z + n.z * sa};
            p.wa = (v8){p.wa.x + irda.x * neg, p.wa.y + irda.y * neg, p.wa.z + irda.z * neg};
            p.vb = (v8){p.vb.x + n.x * sb, p.vb.y + n.y * sb, p.vb.z + n.z * sb};
            p.wb = (v8){p.wb.x + irdb.x * impulse, p.wb.y + irdb.y * impulse, p.wb.z + irdb.z * impulse};
        }
        if (bounced)
        {
            store_velocity(states, g, &p);
            bouncing = true;
        }
    }
    return bouncing;
}

WIDE_KERNEL void ph_wide_prepare(const ph_body_state *states, wide_solver *w, int gi, const wide_input *in,
                                 float warm_scale_scalar)
{
    wide_group *g = wide_group_at(w, gi);
    const f8 zero = _mm256_setzero_ps(), sign = splat(-0.0f);
    const f8 warm_scale = splat(warm_scale_scalar);
    f8 in_use = has_point(g, 0), several = has_point(g, 1);

    // Tangents as ph_contact_tangents: from the axis least aligned with n, normalised (zero stays zero).
    v8 n = LD3(in->normal);
    f8 use_x = _mm256_cmp_ps(_mm256_andnot_ps(sign, n.x), splat(0.57735f), _CMP_GE_OQ);
    v8 t = {select(zero, n.y, use_x), select(n.z, _mm256_xor_ps(n.x, sign), use_x),
            select(_mm256_xor_ps(n.y, sign), zero, use_x)};
    f8 norm = _mm256_sqrt_ps(dot_exact(t, t));
    f8 inv_norm = splat(1.0f) / norm, nonzero = _mm256_cmp_ps(norm, zero, _CMP_NEQ_UQ);
    v8 t1 = {select(zero, t.x * inv_norm, nonzero), select(zero, t.y * inv_norm, nonzero),
             select(zero, t.z * inv_norm, nonzero)};
    v8 t2 = cross_exact(n, t1);
    st3(g->normal, n, in_use);
    st3(g->t1, t1, in_use);
    st3(g->t2, t2, in_use);
    memcpy(g->friction, in->friction, sizeof g->friction);
    memcpy(g->restitution, in->restitution, sizeof g->restitution);
    memcpy(g->accel_n, in->accel_n, sizeof g->accel_n);
    memcpy(g->bias_rate, in->bias_rate, sizeof g->bias_rate);
    memcpy(g->mass_scale, in->mass_scale, sizeof g->mass_scale);
    memcpy(g->impulse_scale, in->impulse_scale, sizeof g->impulse_scale);

    wide_velocity p = load_velocity(states, g);
    // Whether the group is isotropic is fixed for the step: a refresh turns only a body's own inverse
    // inertia, and s I turned is s I (ph_body_world_inv_inertia keeps an isotropic body's).
    g->isotropic = _mm256_movemask_ps(_mm256_and_ps(_mm256_cmp_ps(p.scale_a, zero, _CMP_GE_OQ),
                                                    _mm256_cmp_ps(p.scale_b, zero, _CMP_GE_OQ))) == 0xff;
    wide_inertia inertia = load_inertias(states, g, &p);
    wide_group_arms *kept = wide_keeps_arms(w) ? wide_kept_arms(g) : NULL;
    v8 ca = LD3(in->ca), cb = LD3(in->cb);
    // The normal rows' anchors leave out the round shapes' radii (constraint_point in solver_internal.h).
    f8 radius_a = ld(in->radius_a), radius_b = ld(in->radius_b);
    v8 centre = {zero, zero, zero}; // the sum of the lane's points, then their mean (prepare() in solver.c)
    f8 impact = zero;               // lanes with a point closing faster than SOLVER_IMPACT_SPEED
    for (int i = 0; i < g->point_count; i++)
    {
        wide_point *wp = &g->points[i];
        wide_point_cold *wc = &g->cold[i];
        f8 valid = has_point(g, i);
        v8 point = LD3(in->point[i]);
        f8 separation = ld(in->separation[i]);
        v8 masked = {_mm256_and_ps(point.x, valid), _mm256_and_ps(point.y, valid),
                     _mm256_and_ps(point.z, valid)};
        centre = (v8){centre.x + masked.x, centre.y + masked.y, centre.z + masked.z};
        v8 ra = sub(point, ca), rb = sub(point, cb);
        f8 neg_ra = _mm256_xor_ps(radius_a, sign);
        ra = (v8){ra.x + n.x * neg_ra, ra.y + n.y * neg_ra, ra.z + n.z * neg_ra};
        rb = (v8){rb.x + n.x * radius_b, rb.y + n.y * radius_b, rb.z + n.z * radius_b};
        st(wp->base_separation, _mm256_and_ps(separation - dot_exact(sub(rb, ra), n), valid));
        // The anchors as stored, zero beyond the lanes' points: the rows' arms are worked out from these.
        ra = (v8){_mm256_and_ps(ra.x, valid), _mm256_and_ps(ra.y, valid), _mm256_and_ps(ra.z, valid)};
        rb = (v8){_mm256_and_ps(rb.x, valid), _mm256_and_ps(rb.y, valid), _mm256_and_ps(rb.z, valid)};
        st3(wp->ra, ra, valid);
        st3(wp->rb, rb, valid);
        st(wc->max_normal_impulse, zero);
        st(wc->total_impulse, zero);
        st(wc->bounce_impulse, zero);
        row_arms normal = prepare_row(&wp->n, kept ? &kept->normal[i] : NULL, &p, &inertia, ra, rb, n,
                                      warm_scale * ld(in->impulse[i]), valid);
        // The approach speed along the normal row just built (row_speed in solver.c).
        f8 approach = dot_exact(p.vb, n) - dot_exact(p.va, n) + dot_exact(p.wb, normal.rdb) -
                      dot_exact(p.wa, normal.rda);
        st(wc->approach, _mm256_and_ps(approach, valid));
        st(wc->approach_gap, _mm256_and_ps(_mm256_max_ps(separation, zero), valid));
        impact = _mm256_or_ps(
            impact, _mm256_and_ps(valid, _mm256_cmp_ps(approach, splat(-SOLVER_IMPACT_SPEED), _CMP_LT_OQ)));
    }
    // Friction at the points' centre, with last step's impulses; unused lanes get zero anchors and rows.
    f8 count = _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)g->point_counts));
    f8 inv_count = select(zero, splat(1.0f) / count, in_use);
    centre = (v8){centre.x * inv_count, centre.y * inv_count, centre.z * inv_count};
    v8 fa = sub(centre, ca), fb = sub(centre, cb);
    fa = (v8){_mm256_and_ps(fa.x, in_use), _mm256_and_ps(fa.y, in_use), _mm256_and_ps(fa.z, in_use)};
    fb = (v8){_mm256_and_ps(fb.x, in_use), _mm256_and_ps(fb.y, in_use), _mm256_and_ps(fb.z, in_use)};
    st3(g->fa, fa, in_use);
    st3(g->fb, fb, in_use);
    prepare_row(&g->f1, kept ? &kept->friction[0] : NULL, &p, &inertia, fa, fb, t1,
                warm_scale * ld(in->friction_impulse[0]), in_use);
    prepare_row(&g->f2, kept ? &kept->friction[1] : NULL, &p, &inertia, fa, fb, t2,
                warm_scale * ld(in->friction_impulse[1]), in_use);
    st(g->twist_mass, zero);
    twist_row_of(g, kept, &inertia, n, in_use);
    st(g->twist_impulse, _mm256_and_ps(warm_scale * ld(in->twist_impulse), in_use));
    st(g->twist_radius, _mm256_and_ps(ld(in->twist_radius), in_use));
    f8 passes = select(splat(1.0f), splat((float)SOLVER_NORMAL_PASSES), _mm256_and_ps(impact, several));
    st(g->passes, _mm256_and_ps(passes, in_use));
    g->max_passes = 1;
    for (int lane = 0; lane < g->lanes; lane++)
        g->max_passes = (int)g->passes[lane] > g->max_passes ? (int)g->passes[lane] : g->max_passes;
}

WIDE_KERNEL void ph_wide_warm_start(ph_body_state *states, const wide_solver *w)
{
    // Last group first: the sweep before (the last sub-step's relax) ended there, and the groups it left in
    // the caches come first; this then ends on the first groups, where the biased sweep after it starts
    // (pile10k: 5% fewer misses of a 1 MB cache, cachegrind). The sweeps themselves keep one order: a relax
    // sweep in the order opposite to the biased one before it fed energy into piles and toppled column40.
    for (int gi = w->group_count - 1; gi >= 0; gi--)
    {
        const wide_group *g = wide_group_at(w, gi);
        wide_velocity p = load_velocity(states, g);
        wide_inertia in = load_inertias(states, g, &p);
        v8 n = LD3(g->normal), t1 = LD3(g->t1), t2 = LD3(g->t2);
        // The rows' impulses summed over the points, linear and angular (about each centre of mass), then
        // applied once: the inverse inertias turn the angular sums instead of each row's arm.
        const f8 zero = _mm256_setzero_ps();
        // Friction at the centre, the twist about the normal, then each point's normal impulse.
        v8 linear = {zero, zero, zero};
        linear = madd(madd(linear, t1, ld(g->f1.impulse)), t2, ld(g->f2.impulse));
        f8 twist = ld(g->twist_impulse);
        v8 angular_a = madd(cross(LD3(g->fa), linear), n, twist);
        v8 angular_b = madd(cross(LD3(g->fb), linear), n, twist);
        for (int i = 0; i < g->point_count; i++)
        {
            const wide_point *wp = &g->points[i];
            f8 l = ld(wp->n.impulse);
            v8 impulse = {n.x * l, n.y * l, n.z * l};
            linear = (v8){linear.x + impulse.x, linear.y + impulse.y, linear.z + impulse.z};
            v8 ca = cross(LD3(wp->ra), impulse), cb = cross(LD3(wp->rb), impulse);
            angular_a = (v8){angular_a.x + ca.x, angular_a.y + ca.y, angular_a.z + ca.z};
            angular_b = (v8){angular_b.x + cb.x, angular_b.y + cb.y, angular_b.z + cb.z};
        }
        p.va = madd(p.va, linear, -p.inv_mass_a);
        p.wa = sub(p.wa, turn_a(&in, angular_a));
        p.vb = madd(p.vb, linear, p.inv_mass_b);
        v8 ub = turn_b(&in, angular_b);
        p.wb = (v8){p.wb.x + ub.x, p.wb.y + ub.y, p.wb.z + ub.z};
        store_velocity(states, g, &p);
    }
}

// Groups solved side by side at most (see solve_groups).
#define WIDE_INTERLEAVE 3

// The sweep of ph_wide_solve over K groups side by side. Groups of one colour share no moving body, so
// their sweeps are independent; each is a long chain of dependent steps (a row's impulse needs the
// velocities the row before left, some 40 cycles of latency per row), and interleaving the chains keeps
// the core busy while each waits. Three rather than two: a colour of 20 constraints (column40's) is three
// groups, whose sweep then takes one chain's latency instead of two; with AVX-512's 32 registers the
// third chain costs a few spills, which are off the critical path.
// The caller groups only groups with the same colour, point count and passes.
WIDE_INLINE void solve_groups(ph_body_state *states, wide_group *const *g, const int K, const bool keep,
                              f8 inv_h, bool use_bias, bool measure, bool sum_total)
{
    const f8 zero = _mm256_setzero_ps(), one = splat(1.0f), max_push = splat(-SOLVER_MAX_PUSH_SPEED);
    const int point_count = g[0]->point_count, passes = use_bias ? g[0]->max_passes : 1;
    v8 n[WIDE_INTERLEAVE];
    wide_velocity p[WIDE_INTERLEAVE];
    wide_inertia in[WIDE_INTERLEAVE];
    f8 lane_passes[WIDE_INTERLEAVE], track_approach[WIDE_INTERLEAVE], bias_rate[WIDE_INTERLEAVE],
        soft_mass[WIDE_INTERLEAVE], soft_impulse[WIDE_INTERLEAVE];
    bool bouncy[WIDE_INTERLEAVE];
    for (int k = 0; k < K; k++)
    {
        n[k] = LD3(g[k]->normal);
        if (measure)
        {
            // Current separations from the motion so far (see solve() in solver.c).
            f8 ma[WIDE], mb[WIDE]; // dp, pad, dq of each body
            load_runs_at(states, g[k]->at_a, FIELD(dp), ma);
            load_runs_at(states, g[k]->at_b, FIELD(dp), mb);
            f8 shift = dot(sub((v8){mb[0], mb[1], mb[2]}, (v8){ma[0], ma[1], ma[2]}), n[k]);
            v8 na = rotate_inverse((v8){ma[4], ma[5], ma[6]}, ma[7], n[k]);
            v8 nb = rotate_inverse((v8){mb[4], mb[5], mb[6]}, mb[7], n[k]);
            for (int i = 0; i < point_count; i++)
            {
                const wide_point *wp = &g[k]->points[i];
                st(g[k]->separation[i],
                   shift + dot(LD3(wp->rb), nb) - dot(LD3(wp->ra), na) + ld(wp->base_separation));
            }
        }
        p[k] = load_velocity(states, g[k]);
        if (!keep) // the arms are worked out from the anchors and these
            in[k] = load_inertias(states, g[k], &p[k]);
        lane_passes[k] = ld(g[k]->passes);
        track_approach[k] = use_bias ? zero : _mm256_cmp_ps(ld(g[k]->restitution), zero, _CMP_GT_OQ);
        // The restitution bookkeeping (largest impulse, approach speed and gap) is read only for lanes that
        // bounce: a group without one skips it, three loads and stores per point.
        bouncy[k] = _mm256_movemask_ps(_mm256_cmp_ps(ld(g[k]->restitution), zero, _CMP_NEQ_UQ)) != 0;
        bias_rate[k] = ld(g[k]->bias_rate);
        soft_mass[k] = ld(g[k]->mass_scale);
        soft_impulse[k] = ld(g[k]->impulse_scale);
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
                f8 s = ld(g[k]->separation[i]);
                f8 apart = _mm256_cmp_ps(s, zero, _CMP_GT_OQ);
                f8 bias = s * inv_h, mass_scale = one, impulse_scale = zero;
                if (use_bias)
                {
                    bias = select(_mm256_max_ps(bias_rate[k] * s, max_push), bias, apart);
                    mass_scale = select(soft_mass[k], one, apart);
                    impulse_scale = select(soft_impulse[k], zero, apart);
                }
                else
                    bias = select(zero, bias, apart);
                row_ref normal = row_at(g[k], keep, i, n[k]);
                f8 vn = row_speed(&p[k], n[k], keep, &normal);
                f8 accumulated = ld(wp->n.impulse);
                f8 impulse = -ld(wp->n.mass) * mass_scale * (vn + bias) - impulse_scale * accumulated;
                f8 total = _mm256_max_ps(accumulated + impulse, zero);
                // Lanes that asked for fewer sweeps sit the later ones out. Every lane takes the first: in a
                // lane or point without a constraint, mass and impulse are zero and the max with zero (its
                // second operand, which is also what it returns for a NaN) leaves the zero impulse as it is.
                if (pass > 0)
                    total = select(accumulated, total,
                                   _mm256_cmp_ps(splat((float)pass), lane_passes[k], _CMP_LT_OQ));
                impulse = total - accumulated;
                st(wp->n.impulse, total);
                if (bouncy[k])
                {
                    wide_point_cold *wc = &g[k]->cold[i];
                    f8 max_impulse = _mm256_max_ps(ld(wc->max_normal_impulse), impulse);
                    st(wc->max_normal_impulse, max_impulse);
                    // Not yet closed this step: the free approach speed and gap (restitution lanes, relax
                    // only).
                    f8 open = _mm256_and_ps(track_approach[k], _mm256_cmp_ps(max_impulse, zero, _CMP_EQ_OQ));
                    st(wc->approach, select(ld(wc->approach), vn, open));
                    st(wc->approach_gap, select(ld(wc->approach_gap), _mm256_max_ps(s, zero), open));
                }
                row_apply(&p[k], n[k], keep, &normal, &in[k], impulse);
            }
        }
    }
    if (sum_total) // the sub-step's last sweep: its impulses are what the sub-step applied (solve_constraint)
        for (int i = 0; i < point_count; i++)
            for (int k = 0; k < K; k++)
                st(g[k]->cold[i].total_impulse,
                   ld(g[k]->cold[i].total_impulse) + ld(g[k]->points[i].n.impulse));
    // Friction at the centre and twist, bounded by the lane's summed normal impulse (solve_constraint).
    for (int k = 0; k < K; k++)
    {
        f8 normal_sum = ld(g[k]->points[0].n.impulse);
        for (int i = 1; i < point_count; i++)
            normal_sum = normal_sum + ld(g[k]->points[i].n.impulse);
        f8 limit = ld(g[k]->friction) * normal_sum;
        // Loaded here rather than kept from the start: held through the normal passes they spill.
        v8 t1 = LD3(g[k]->t1), t2 = LD3(g[k]->t2);
        row_ref row1 = friction_at(g[k], keep, 0, t1), row2 = friction_at(g[k], keep, 1, t2);
        f8 old1 = ld(g[k]->f1.impulse), old2 = ld(g[k]->f2.impulse);
        f8 l1 = old1 - ld(g[k]->f1.mass) * row_speed(&p[k], t1, keep, &row1);
        f8 l2 = old2 - ld(g[k]->f2.mass) * row_speed(&p[k], t2, keep, &row2);
        // Clamp to the Coulomb cone |(l1, l2)| <= mu * normal impulse.
        f8 len2 = l1 * l1 + l2 * l2;
        f8 outside = _mm256_cmp_ps(len2, limit * limit, _CMP_GT_OQ);
        // Only when a lane slides: the square root and division would otherwise sit on the sweep's chain of
        // dependent steps to scale every lane by 1.
        if (_mm256_movemask_ps(outside) != 0)
        {
            f8 scale = select(one, limit / _mm256_sqrt_ps(len2), outside);
            l1 = l1 * scale;
            l2 = l2 * scale;
        }
        row_apply(&p[k], t1, keep, &row1, &in[k], l1 - old1);
        row_apply(&p[k], t2, keep, &row2, &in[k], l2 - old2);
        st(g[k]->f1.impulse, l1);
        st(g[k]->f2.impulse, l2);
        v8 nk = LD3(g[k]->normal);
        f8 twist_limit = limit * ld(g[k]->twist_radius);
        f8 old_twist = ld(g[k]->twist_impulse);
        f8 twist_speed = dot(p[k].wb, nk) - dot(p[k].wa, nk);
        f8 tw = old_twist - ld(g[k]->twist_mass) * twist_speed;
        tw = _mm256_max_ps(_mm256_min_ps(tw, twist_limit), _mm256_xor_ps(twist_limit, splat(-0.0f)));
        f8 dtw = tw - old_twist;
        v8 ian = keep ? LD3(wide_kept_arms(g[k])->ian) : turn_a(&in[k], nk);
        v8 ibn = keep ? LD3(wide_kept_arms(g[k])->ibn) : turn_b(&in[k], nk);
        p[k].wa = madd(p[k].wa, ian, _mm256_xor_ps(dtw, splat(-0.0f)));
        p[k].wb = madd(p[k].wb, ibn, dtw);
        st(g[k]->twist_impulse, tw);
    }
    for (int k = 0; k < K; k++)
        store_velocity(states, g[k], &p[k]);
}

WIDE_KERNEL void ph_wide_solve(ph_body_state *states, wide_solver *w, float inv_h_scalar, bool use_bias,
                               bool measure, bool sum_total)
{
    const f8 inv_h = splat(inv_h_scalar);
    for (int gi = 0; gi < w->group_count;)
    {
        wide_group *run[WIDE_INTERLEAVE] = {wide_group_at(w, gi)};
        int k = 1;
        for (; k < WIDE_INTERLEAVE && gi + k < w->group_count; k++)
        {
            wide_group *next = wide_group_at(w, gi + k);
            if (next->color != run[0]->color || next->point_count != run[0]->point_count ||
                next->max_passes != run[0]->max_passes)
                break;
            run[k] = next;
        }
        // K and whether the arms are kept constants in each call, so that the arrays of solve_groups stay in
        // registers and each call has one way to its arms.
        bool keep = wide_keeps_arms(w);
        if (k == 3)
            keep ? solve_groups(states, run, 3, true, inv_h, use_bias, measure, sum_total)
                 : solve_groups(states, run, 3, false, inv_h, use_bias, measure, sum_total);
        else if (k == 2)
            keep ? solve_groups(states, run, 2, true, inv_h, use_bias, measure, sum_total)
                 : solve_groups(states, run, 2, false, inv_h, use_bias, measure, sum_total);
        else
            keep ? solve_groups(states, run, 1, true, inv_h, use_bias, measure, sum_total)
                 : solve_groups(states, run, 1, false, inv_h, use_bias, measure, sum_total);
        gi += k;
    }
}

// ---- Position integration ----
// ph_body_integrate_positions (body.c) for 8 bodies at a time, operation for operation: dp + h v, and
// ph_integrate_rotation's dq + h/2 (w, 0) dq, normalised, with each product and sum as cglm's SSE code
// forms it (its quaternion product, its dot product's pairing, division by the square root), so the states
// come out bit for bit as the scalar loop leaves them. The runs of 8 floats are the sweeps' (v, inv_mass,
// w, pad and dp, pad, dq): two transposed loads and one store per 8 bodies.
WIDE_KERNEL int ph_wide_integrate_positions(ph_body_state *states, const int *slots, int count,
                                            float h_scalar)
{
    const f8 zero = _mm256_setzero_ps(), h = splat(h_scalar), half_h = splat(0.5f * h_scalar);
    int done = 0;
    for (; done + WIDE <= count; done += WIDE)
    {
        const int *lanes = slots + done;
        f8 v[WIDE], m[WIDE];
        load_runs(states, lanes, FIELD(v), v);
        load_runs(states, lanes, FIELD(dp), m);
        // dp + h v
        m[0] = m[0] + v[0] * h;
        m[1] = m[1] + v[1] * h;
        m[2] = m[2] + v[2] * h;
        // (w, 0) dq as glm_quat_mul_sse2 sums it: the real part of (w, 0) times dq first, then the x, y and z
        // columns.
        f8 px = v[4], py = v[5], pz = v[6];
        f8 qx = m[4], qy = m[5], qz = m[6], qw = m[7];
        f8 rx = zero * qx + px * qw + py * qz - pz * qy;
        f8 ry = zero * qy - px * qz + py * qw + pz * qx;
        f8 rz = zero * qz + px * qy - py * qx + pz * qw;
        f8 rw = zero * qw - px * qx - py * qy - pz * qz;
        qx = qx + half_h * rx;
        qy = qy + half_h * ry;
        qz = qz + half_h * rz;
        qw = qw + half_h * rw;
        // glm_quat_normalize: |q|^2 as (x^2 + z^2) + (y^2 + w^2); the identity where it is not positive.
        f8 dot = (qx * qx + qz * qz) + (qy * qy + qw * qw);
        f8 positive = _mm256_cmp_ps(dot, zero, _CMP_GT_OQ);
        f8 norm = _mm256_sqrt_ps(dot);
        m[4] = _mm256_and_ps(qx / norm, positive);
        m[5] = _mm256_and_ps(qy / norm, positive);
        m[6] = _mm256_and_ps(qz / norm, positive);
        m[7] = select(splat(1.0f), qw / norm, positive);
        transpose8(m);
        for (int lane = 0; lane < WIDE; lane++)
            st((float *)&states[lanes[lane]] + FIELD(dp), m[lane]);
    }
    return done;
}

bool ph_wide_supported(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

#else // no AVX2 in this build: the scalar solver does everything

bool ph_wide_supported(void)
{
    return false;
}

int ph_wide_integrate_positions(ph_body_state *states, const int *slots, int count, float h)
{
    (void)states;
    (void)slots;
    (void)count;
    (void)h;
    return 0;
}

void ph_wide_prepare(const ph_body_state *states, wide_solver *w, int g, const wide_input *in,
                     float warm_scale)
{
    (void)states;
    (void)w;
    (void)g;
    (void)in;
    (void)warm_scale;
}

void ph_wide_refresh(const ph_body_state *states, wide_solver *w, const uint8_t *refreshed)
{
    (void)states;
    (void)w;
    (void)refreshed;
}

bool ph_wide_bounce(ph_body_state *states, wide_solver *w, float h, bool compress)
{
    (void)compress;
    (void)states;
    (void)w;
    (void)h;
    return false;
}

void ph_wide_warm_start(ph_body_state *states, const wide_solver *w)
{
    (void)states;
    (void)w;
}

void ph_wide_solve(ph_body_state *states, wide_solver *w, float inv_h, bool use_bias, bool measure,
                   bool sum_total)
{
    (void)states;
    (void)w;
    (void)inv_h;
    (void)use_bias;
    (void)measure;
    (void)sum_total;
}

#endif
