// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Narrow-phase benchmark: our GJK intersection, GJK distance, EPA penetration, exact penetration
// (ph_penetration) and contact manifold against libccd (Debian's libccd 2.1: ccdGJKIntersect,
// ccdGJKPenetration, ccdMPRPenetration) on the same fixed-seed random pairs (rotated boxes; hulls of 32
// random points; half of the pairs overlapping), with accuracy against the brute-force references of
// tests/reference. libccd gets the same support code our GJK uses (branch-free box corners, hill climbing
// over hull vertices), so the comparison is of the algorithms. The machine is shared: every query is timed
// in CPU time of the process (time spent descheduled does not count), over passes interleaved with the other
// queries' passes (a change of load shows in all of them alike), and the fastest pass is kept. One JSON
// object per line; no assertions.
// Usage: collide_bench [box_pairs] [hull_pairs]
#define _POSIX_C_SOURCE 200809L // clock_gettime

#include "reference/sat_reference.h"

#include "phys/collision.h"

#include <ccd/ccd.h> // ccd_t, ccdGJKIntersect, ccdGJKPenetration, ccdMPRPenetration
#include <math.h>    // fabs, isfinite, copysignf
#include <stdio.h>   // printf
#include <stdlib.h>  // malloc, free, atoi
#include <string.h>  // memset
#include <time.h>    // clock_gettime

#define DEFAULT_BOX_PAIRS 100000
#define DEFAULT_HULL_PAIRS 10000
#define HULL_POINTS 32
#define HULL_COUNT 16
// Timing passes per query, interleaved across queries; the fastest pass is reported (the others absorb cache
// and frequency warm-up and the load of other processes).
#define PASSES 5
// libccd's EPA tolerance for the accuracy columns, and its default (also timed).
static const double CCD_TOLERANCE_ACCURATE = 1e-8;
static const double CCD_TOLERANCE_DEFAULT = 1e-4;
// libccd's iteration bound (its default is unbounded).
#define CCD_MAX_ITERATIONS 1000
// Pairs within this fraction of the size of touching are left out of the intersection agreement.
static const double TOUCH_TOLERANCE = 1e-4;
// The accuracy bar: depth and distance within this fraction of the size.
static const double ACCURACY_TOLERANCE = 1e-4;

typedef struct bench_obj
{
    const ph_convex *shape;
    ph_transform xf;
    ph_mat3 rot, rot_t;
    int hull_start; // hill-climbing start; reset before each query
} bench_obj;

typedef struct bench_pair
{
    ph_convex a, b;
    bench_obj oa, ob;
    double size;       // the larger shape extent, for relative errors (unit: m)
    double separation; // reference SAT separation (negative: depth)
    double distance;   // brute-force distance when separated
} bench_pair;

static uint64_t rng_state = 20261122u;

static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static float uniform(float lo, float hi)
{
    return lo + (hi - lo) * (float)(next_u64() >> 40) * (1.0f / 16777216.0f);
}

static ph_quat random_quat(void)
{
    float u1 = uniform(0.0f, 1.0f), u2 = uniform(0.0f, 2.0f * GLM_PIf), u3 = uniform(0.0f, 2.0f * GLM_PIf);
    float a = sqrtf(1.0f - u1), b = sqrtf(u1);
    ph_quat q;
    q.x = a * sinf(u2);
    q.y = a * cosf(u2);
    q.z = b * sinf(u3);
    q.w = b * cosf(u3);
    return q;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

// ---- libccd adapters: the same support mapping, in double ------------------------------------------------

static void ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out)
{
    bench_obj *o = (bench_obj *)obj; // the hill-climbing start is updated, as our proxies do
    ph_vec3 d = ph_v3((float)dir->v[0], (float)dir->v[1], (float)dir->v[2]);
    ph_vec3 local = glms_mat3_mulv(o->rot_t, d), x;
    if (o->shape->type == PH_SHAPE_BOX)
    {
        ph_vec3 h = o->shape->half_extents;
        x = ph_v3(copysignf(h.x, local.x), copysignf(h.y, local.y), copysignf(h.z, local.z));
    }
    else if (o->shape->type == PH_SHAPE_HULL)
    {
        x = o->shape->hull->vertices[ph_hull_support_index(o->shape->hull, local, &o->hull_start)];
    }
    else
    {
        x = ph_convex_support(o->shape, local);
    }
    ph_vec3 p = glms_vec3_add(glms_mat3_mulv(o->rot, x), o->xf.p);
    out->v[0] = (double)p.x;
    out->v[1] = (double)p.y;
    out->v[2] = (double)p.z;
}

static void ccd_center(const void *obj, ccd_vec3_t *out)
{
    const bench_obj *o = obj;
    out->v[0] = (double)o->xf.p.x;
    out->v[1] = (double)o->xf.p.y;
    out->v[2] = (double)o->xf.p.z;
}

static ccd_t make_ccd(double epa_tolerance)
{
    ccd_t c;
    CCD_INIT(&c);
    c.support1 = ccd_support;
    c.support2 = ccd_support;
    c.center1 = ccd_center;
    c.center2 = ccd_center;
    c.max_iterations = CCD_MAX_ITERATIONS;
    c.epa_tolerance = epa_tolerance;
    return c;
}

// ---- Pairs ---------------------------------------------------------------------------------------------

static void set_obj(bench_obj *o, const ph_convex *shape, ph_transform xf)
{
    o->shape = shape;
    o->xf = xf;
    o->rot = glms_quat_mat3(xf.q);
    o->rot_t = glms_mat3_transpose(o->rot);
    o->hull_start = -1;
}

static ph_hull *make_hull(void)
{
    ph_vec3 pts[HULL_POINTS];
    ph_vec3 axes = ph_v3(uniform(0.3f, 1.0f), uniform(0.3f, 1.0f), uniform(0.3f, 1.0f));
    for (int i = 0; i < HULL_POINTS; i++)
    {
        ph_vec3 p;
        do
            p = ph_v3(uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f));
        while (glms_vec3_norm2(p) > 1.0f || glms_vec3_norm2(p) < 0.01f);
        p = glms_vec3_normalize(p); // on an ellipsoid: all 32 points are hull vertices
        pts[i] = glms_vec3_mul(p, axes);
    }
    ph_hull_def def = ph_default_hull_def();
    def.points = pts;
    def.point_count = HULL_POINTS;
    return ph_hull_build(&def, NULL);
}

// Random pairs, half overlapping and half separated (by the reference SAT), none nearly touching. The
// overlapping ones fill the first half of the array, the separated ones the second.
static void make_pairs(bench_pair *pairs, int count, bool hulls, ph_hull **hull_set)
{
    int half = count / 2;
    int over = 0, apart = 0;
    while (over + apart < count)
    {
        bench_pair c;
        if (hulls)
        {
            c.a = ph_convex_hull(hull_set[next_u64() % HULL_COUNT]);
            c.b = ph_convex_hull(hull_set[next_u64() % HULL_COUNT]);
        }
        else
        {
            c.a = ph_convex_box(ph_v3(uniform(0.1f, 1.0f), uniform(0.1f, 1.0f), uniform(0.1f, 1.0f)));
            c.b = ph_convex_box(ph_v3(uniform(0.1f, 1.0f), uniform(0.1f, 1.0f), uniform(0.1f, 1.0f)));
        }
        ph_transform xa = {ph_v3(uniform(-5.0f, 5.0f), uniform(-5.0f, 5.0f), uniform(-5.0f, 5.0f)),
                           random_quat()};
        ph_transform xb = {
            glms_vec3_add(xa.p, ph_v3(uniform(-2.0f, 2.0f), uniform(-2.0f, 2.0f), uniform(-2.0f, 2.0f))),
            random_quat()};
        sat_reference_result sat;
        sat_reference_query(&c.a, xa, &c.b, xb, &sat);
        ph_aabb ba = ph_convex_bounds(&c.a, ph_transform_identity()),
                bb = ph_convex_bounds(&c.b, ph_transform_identity());
        c.size = 0.5 * (double)glm_max(glms_vec3_norm(glms_vec3_sub(ba.hi, ba.lo)),
                                       glms_vec3_norm(glms_vec3_sub(bb.hi, bb.lo)));
        c.separation = sat.separation;
        if (fabs(sat.separation) < TOUCH_TOLERANCE * c.size)
            continue;
        bool is_over = sat.separation < 0.0;
        if ((is_over && over >= half) || (!is_over && apart >= count - half))
            continue;
        c.distance = is_over ? 0.0 : sat_reference_distance(&c.a, xa, &c.b, xb, NULL, NULL);
        bench_pair *p = &pairs[is_over ? over++ : half + apart++];
        *p = c;
        set_obj(&p->oa, &p->a, xa);
        set_obj(&p->ob, &p->b, xb);
    }
}

// ---- Queries -------------------------------------------------------------------------------------------

typedef struct timing
{
    double ns;       // per pair, fastest pass
    double max_err;  // largest |value - reference| / size
    int wrong;       // intersection answers that disagree with the reference
    int not_finite;  // NaN or infinite results
    int failed;      // overlapping pairs reported as not overlapping (left out of max_err)
    int inexact;     // results off by more than ACCURACY_TOLERANCE * size
    double checksum; // keeps the optimiser honest
} timing;

typedef enum query_kind
{
    Q_OURS_INTERSECT,
    Q_CCD_INTERSECT,
    Q_OURS_DISTANCE,
    Q_OURS_EPA,
    Q_CCD_EPA,
    Q_CCD_MPR,
    Q_OURS_PENETRATION,
    Q_OURS_MANIFOLD
} query_kind;

typedef struct query
{
    query_kind kind;
    int first, count; // the pairs it runs on
    double ccd_tolerance;
    timing t;
} query;

// One timing pass of query q (the first also checks the answers into q->t).
static void run_pass(query *q, bench_pair *pairs, bool check)
{
    query_kind kind = q->kind;
    int first = q->first, count = q->count;
    timing t = q->t;
    ccd_t ccd = make_ccd(q->ccd_tolerance);
    double start = now_ns();
    for (int i = first; i < first + count; i++)
    {
        bench_pair *p = &pairs[i];
        double value = 0.0, reference = 0.0;
        bool is_value = false;
        switch (kind)
        {
        case Q_OURS_INTERSECT:
        {
            bool hit = ph_gjk_intersect(&p->a, p->oa.xf, &p->b, p->ob.xf, NULL);
            t.checksum += hit;
            if (check && hit != (p->separation < 0.0))
                t.wrong++;
            break;
        }
        case Q_CCD_INTERSECT:
        {
            p->oa.hull_start = p->ob.hull_start = -1;
            bool hit = ccdGJKIntersect(&p->oa, &p->ob, &ccd) != 0;
            t.checksum += hit;
            if (check && hit != (p->separation < 0.0))
                t.wrong++;
            break;
        }
        case Q_OURS_DISTANCE:
        {
            ph_gjk_output out;
            ph_gjk_distance(&p->a, p->oa.xf, &p->b, p->ob.xf, NULL, &out);
            value = (double)out.distance;
            reference = p->distance;
            is_value = true;
            break;
        }
        case Q_OURS_EPA:
        case Q_OURS_PENETRATION:
        {
            ph_epa_output out;
            ph_epa_status st = kind == Q_OURS_EPA
                                   ? ph_epa_penetration(&p->a, p->oa.xf, &p->b, p->ob.xf, NULL, &out)
                                   : ph_penetration(&p->a, p->oa.xf, &p->b, p->ob.xf, NULL, &out);
            value = (double)out.depth;
            reference = -p->separation;
            is_value = st != PH_EPA_SEPARATED;
            if (check && !is_value)
                t.failed++;
            if (check && is_value && !ph_is_finite_vec3(out.normal))
                t.not_finite++;
            break;
        }
        case Q_CCD_EPA:
        case Q_CCD_MPR:
        {
            ccd_real_t depth = 0.0;
            ccd_vec3_t dir, pos;
            p->oa.hull_start = p->ob.hull_start = -1;
            int rc = kind == Q_CCD_EPA ? ccdGJKPenetration(&p->oa, &p->ob, &ccd, &depth, &dir, &pos)
                                       : ccdMPRPenetration(&p->oa, &p->ob, &ccd, &depth, &dir, &pos);
            value = depth;
            if (check && rc == 0 && (!isfinite(dir.v[0]) || !isfinite(dir.v[1]) || !isfinite(dir.v[2])))
                t.not_finite++;
            reference = -p->separation;
            is_value = rc == 0;
            if (check && rc != 0)
                t.failed++;
            break;
        }
        case Q_OURS_MANIFOLD:
        {
            ph_manifold m;
            ph_collide_convex(&p->a, p->oa.xf, &p->b, p->ob.xf, 0.0f, NULL, &m);
            value = m.point_count > 0 ? (double)m.points[0].separation : 0.0;
            break;
        }
        }
        if (is_value)
        {
            t.checksum += value;
            if (check)
            {
                if (!isfinite(value))
                    t.not_finite++;
                double err = fabs(value - reference) / p->size;
                t.max_err = err > t.max_err ? err : t.max_err;
                t.inexact += err > ACCURACY_TOLERANCE;
            }
        }
    }
    double ns = (now_ns() - start) / (double)count;
    t.ns = ns < t.ns ? ns : t.ns;
    q->t = t;
}

static void run_all(query *queries, int count, bench_pair *pairs)
{
    for (int i = 0; i < count; i++)
    {
        memset(&queries[i].t, 0, sizeof queries[i].t);
        queries[i].t.ns = 1e30;
    }
    for (int pass = 0; pass < PASSES; pass++)
    {
        for (int i = 0; i < count; i++)
            run_pass(&queries[i], pairs, pass == 0);
    }
}

static void report(const char *shapes, int box_or_hull_pairs, bench_pair *pairs)
{
    int over = box_or_hull_pairs / 2, apart = box_or_hull_pairs - over;
    enum
    {
        OI,
        CI,
        OD,
        OE,
        CE,
        CD,
        CM,
        OP,
        OM,
        QUERY_COUNT
    };
    query q[QUERY_COUNT] = {
        [OI] = {Q_OURS_INTERSECT, 0, box_or_hull_pairs, CCD_TOLERANCE_DEFAULT, {0}},
        [CI] = {Q_CCD_INTERSECT, 0, box_or_hull_pairs, CCD_TOLERANCE_DEFAULT, {0}},
        [OD] = {Q_OURS_DISTANCE, over, apart, CCD_TOLERANCE_DEFAULT, {0}},
        [OE] = {Q_OURS_EPA, 0, over, CCD_TOLERANCE_DEFAULT, {0}},
        [CE] = {Q_CCD_EPA, 0, over, CCD_TOLERANCE_ACCURATE, {0}},
        [CD] = {Q_CCD_EPA, 0, over, CCD_TOLERANCE_DEFAULT, {0}},
        [CM] = {Q_CCD_MPR, 0, over, CCD_TOLERANCE_DEFAULT, {0}},
        [OP] = {Q_OURS_PENETRATION, 0, over, CCD_TOLERANCE_DEFAULT, {0}},
        [OM] = {Q_OURS_MANIFOLD, 0, over, CCD_TOLERANCE_DEFAULT, {0}},
    };
    run_all(q, QUERY_COUNT, pairs);
    timing oi = q[OI].t, ci = q[CI].t, od = q[OD].t, oe = q[OE].t, ce = q[CE].t, cd = q[CD].t, cm = q[CM].t,
           op = q[OP].t, om = q[OM].t;
    printf("{\"query\":\"gjk_intersect\",\"shapes\":\"%s\",\"pairs\":%d,\"ns_ours\":%.1f,\"ns_libccd\":%.1f,"
           "\"ratio\":%.3f,\"wrong_ours\":%d,\"wrong_libccd\":%d}\n",
           shapes, box_or_hull_pairs, oi.ns, ci.ns, oi.ns / ci.ns, oi.wrong, ci.wrong);

    printf("{\"query\":\"gjk_distance\",\"shapes\":\"%s\",\"pairs\":%d,\"ns_ours\":%.1f,\"ns_libccd\":null,"
           "\"ratio\":null,\"max_err_ours\":%.3g,\"max_err_libccd\":null,"
           "\"note\":\"libccd 2.1 has no distance query; reference: brute-force feature pairs\"}\n",
           shapes, apart, od.ns, od.max_err);

    printf("{\"query\":\"epa\",\"shapes\":\"%s\",\"pairs\":%d,\"ns_ours\":%.1f,\"ns_libccd\":%.1f,\"ratio\":%"
           ".3f,"
           "\"ns_libccd_default_tol\":%.1f,\"ratio_default_tol\":%.3f,\"max_err_ours\":%.3g,\"max_err_"
           "libccd\":%.3g,"
           "\"max_err_libccd_default_tol\":%.3g,\"nan_libccd\":%d,\"nan_libccd_default_tol\":%d,"
           "\"failed_ours\":%d,\"failed_libccd\":%d,\"failed_libccd_default_tol\":%d,\"inexact_ours\":%d,"
           "\"inexact_libccd\":%d,\"inexact_libccd_default_tol\":%d}\n",
           shapes, over, oe.ns, ce.ns, oe.ns / ce.ns, cd.ns, oe.ns / cd.ns, oe.max_err, ce.max_err,
           cd.max_err, ce.not_finite, cd.not_finite, oe.failed, ce.failed, cd.failed, oe.inexact, ce.inexact,
           cd.inexact);

    printf("{\"query\":\"mpr\",\"shapes\":\"%s\",\"pairs\":%d,\"ns_ours\":%.1f,\"ns_libccd\":%.1f,\"ratio\":%"
           ".3f,"
           "\"max_err_ours\":%.3g,\"max_err_libccd\":%.3g,\"failed_libccd\":%d,\"inexact_libccd\":%d,"
           "\"note\":\"ours is EPA; libccd is ccdMPRPenetration\"}\n",
           shapes, over, oe.ns, cm.ns, oe.ns / cm.ns, oe.max_err, cm.max_err, cm.failed, cm.inexact);

    printf("{\"query\":\"penetration\",\"shapes\":\"%s\",\"pairs\":%d,\"ns_ours\":%.1f,\"ns_libccd\":%.1f,"
           "\"ratio\":%.3f,\"max_err_ours\":%.3g,\"max_err_libccd\":%.3g,\"failed_ours\":%d,\"failed_"
           "libccd\":%d,"
           "\"nan_ours\":%d,\"inexact_ours\":%d,\"inexact_libccd\":%d,\"note\":\"ours: ph_penetration (exact "
           "depth, "
           "normal and witness points: SAT for boxes and small hulls, GJK+EPA otherwise); libccd: "
           "ccdMPRPenetration\"}\n",
           shapes, over, op.ns, cm.ns, op.ns / cm.ns, op.max_err, cm.max_err, op.failed, cm.failed,
           op.not_finite, op.inexact, cm.inexact);

    printf(
        "{\"query\":\"manifold\",\"shapes\":\"%s\",\"pairs\":%d,\"ns_ours\":%.1f,\"ns_libccd\":%.1f,"
        "\"ratio\":%.3f,\"note\":\"ours: full contact manifold (normal and up to 4 clipped points); libccd: "
        "ccdMPRPenetration (one approximate depth, normal and point)\"}\n",
        shapes, over, om.ns, cm.ns, om.ns / cm.ns);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int box_pairs = argc > 1 ? atoi(argv[1]) : DEFAULT_BOX_PAIRS;
    int hull_pairs = argc > 2 ? atoi(argv[2]) : DEFAULT_HULL_PAIRS;
    if (box_pairs < 2 || hull_pairs < 2)
    {
        fprintf(stderr, "usage: collide_bench [box_pairs >= 2] [hull_pairs >= 2]\n");
        return 1;
    }
    bench_pair *pairs = malloc(sizeof *pairs * (size_t)(box_pairs > hull_pairs ? box_pairs : hull_pairs));
    if (!pairs)
        return 1;
    make_pairs(pairs, box_pairs, false, NULL);
    report("box-box", box_pairs, pairs);

    ph_hull *hulls[HULL_COUNT];
    for (int i = 0; i < HULL_COUNT; i++)
    {
        hulls[i] = make_hull();
        if (!hulls[i])
        {
            fprintf(stderr, "hull build failed\n");
            return 1;
        }
    }
    make_pairs(pairs, hull_pairs, true, hulls);
    report("hull-hull", hull_pairs, pairs);
    for (int i = 0; i < HULL_COUNT; i++)
        ph_hull_free(hulls[i]);
    free(pairs);
    return 0;
}
