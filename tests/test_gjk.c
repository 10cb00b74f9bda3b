// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// GJK distance and intersection: analytic distances at scales from 1 mm to 1 km, randomised agreement
// with the brute-force feature-pair distance of tests/reference, warm starting, degenerate input.
#include "reference/geometry_fixtures.h"
#include "reference/sat_reference.h"
#include "test.h"

#include "phys/collision.h"

// Two spheres: distance |c| - r1 - r2, closest points on the line of centres.
static int gjk_sphere_sphere_analytic(void)
{
    for (int k = 0; k < SCALE_COUNT; k++)
    {
        float s = SCALES[k];
        ph_convex a = ph_convex_sphere(0.5f * s), b = ph_convex_sphere(0.25f * s);
        ph_vec3 dir = glms_vec3_normalize(ph_v3(1.0f, 2.0f, -2.0f));
        ph_transform xa = pose(ph_v3(s, -s, 0.5f * s), glms_quat_identity());
        ph_transform xb =
            pose(glms_vec3_add(xa.p, glms_vec3_scale(dir, 1.5f * s)), test_rand_quat(&(uint64_t){7}));
        ph_gjk_output out;
        ENSURE(ph_gjk_distance(&a, xa, &b, xb, NULL, &out) == PH_GJK_SEPARATED);
        printf("  scale %g: distance %.9g (expected %.9g)\n", (double)s, (double)out.distance,
               (double)(0.75f * s));
        ENSURE_NEAR(out.distance, 0.75f * s, REL_TOL * s);
        ENSURE_VEC3_NEAR(out.normal, dir, REL_TOL);
        ENSURE_VEC3_NEAR(out.point_a, glms_vec3_add(xa.p, glms_vec3_scale(dir, 0.5f * s)), REL_TOL * s);
        ENSURE_VEC3_NEAR(out.point_b, glms_vec3_sub(xb.p, glms_vec3_scale(dir, 0.25f * s)), REL_TOL * s);
        // Overlapping and coincident centres.
        xb.p = glms_vec3_add(xa.p, glms_vec3_scale(dir, 0.5f * s));
        ENSURE(ph_gjk_distance(&a, xa, &b, xb, NULL, &out) == PH_GJK_OVERLAPPING);
        ENSURE(ph_gjk_intersect(&a, xa, &b, xb, NULL));
        xb.p = xa.p;
        ENSURE(ph_gjk_distance(&a, xa, &b, xb, NULL, &out) == PH_GJK_OVERLAPPING);
    }
    return 0;
}

// Two boxes under one common rotation, B beside A's +x face with a known gap: face-face distance.
static int gjk_box_box_analytic(void)
{
    uint64_t rng = test_seed();
    for (int k = 0; k < SCALE_COUNT; k++)
    {
        float s = SCALES[k];
        ph_quat q = test_rand_quat(&rng);
        ph_convex a = ph_convex_box(ph_v3(0.5f * s, 0.3f * s, 0.2f * s));
        ph_convex b = ph_convex_box(ph_v3(0.25f * s, 0.1f * s, 0.4f * s));
        ph_vec3 origin = ph_v3(3.0f * s, -2.0f * s, 1.0f * s);
        ph_vec3 x = glms_quat_rotatev(q, ph_v3(1.0f, 0.0f, 0.0f));
        float gaps[] = {0.1f, 0.01f, 1.0f};
        for (int g = 0; g < 3; g++)
        {
            float gap = gaps[g] * s;
            // B offset sideways within the face so the closest features are face against face.
            ph_vec3 local = ph_v3(0.5f * s + 0.25f * s + gap, 0.1f * s, -0.05f * s);
            ph_transform xa = pose(origin, q),
                         xb = pose(glms_vec3_add(origin, glms_quat_rotatev(q, local)), q);
            ph_gjk_output out;
            ENSURE(ph_gjk_distance(&a, xa, &b, xb, NULL, &out) == PH_GJK_SEPARATED);
            printf("  scale %g gap %g: distance %.9g normal (%.6f %.6f %.6f) iterations %d\n", (double)s,
                   (double)gap, (double)out.distance, (double)out.normal.x, (double)out.normal.y,
                   (double)out.normal.z, out.iterations);
            ENSURE_NEAR(out.distance, gap, REL_TOL * s);
            ENSURE_VEC3_NEAR(out.normal, x, REL_TOL);
            ENSURE_NEAR(glms_vec3_distance(out.point_a, out.point_b), out.distance, REL_TOL * s);
            ENSURE(!ph_gjk_intersect(&a, xa, &b, xb, NULL));
        }
        // Corner against corner along the diagonal: distance between the two corners.
        ph_convex c = ph_convex_box(ph_v3(s, s, s));
        ph_transform xa = pose(origin, q);
        ph_vec3 diag = ph_v3(1.0f, 1.0f, 1.0f);
        ph_transform xb =
            pose(glms_vec3_add(origin, glms_quat_rotatev(q, glms_vec3_scale(diag, 2.0f * s + 0.2f * s))), q);
        ph_gjk_output out;
        ENSURE(ph_gjk_distance(&c, xa, &c, xb, NULL, &out) == PH_GJK_SEPARATED);
        ENSURE_NEAR(out.distance, 0.2f * s * sqrtf(3.0f), REL_TOL * s);
        ENSURE_VEC3_NEAR(out.normal, glms_quat_rotatev(q, glms_vec3_normalize(diag)), REL_TOL);
    }
    return 0;
}

// A capsule lying parallel above a box face, and one standing on its end: distance to the rounded surface.
static int gjk_capsule_box_analytic(void)
{
    for (int k = 0; k < SCALE_COUNT; k++)
    {
        float s = SCALES[k];
        ph_convex box = ph_convex_box(ph_v3(s, 0.5f * s, s));
        ph_convex cap = ph_convex_capsule(0.4f * s, 0.1f * s);
        ph_quat lying = glms_quatv(GLM_PI_2f, ph_v3(0.0f, 0.0f, 1.0f));
        ph_transform xa = pose(glms_vec3_zero(), glms_quat_identity());
        ph_transform xb = pose(ph_v3(0.2f * s, 0.5f * s + 0.1f * s + 0.05f * s, 0.0f), lying);
        ph_gjk_output out;
        ENSURE(ph_gjk_distance(&box, xa, &cap, xb, NULL, &out) == PH_GJK_SEPARATED);
        ENSURE_NEAR(out.distance, 0.05f * s, REL_TOL * s);
        ENSURE_VEC3_NEAR(out.normal, ph_v3(0.0f, 1.0f, 0.0f), REL_TOL);
        ENSURE_NEAR(out.point_b.y, 0.55f * s, REL_TOL * s);
        xb = pose(ph_v3(0.0f, 0.5f * s + 0.5f * s + 0.3f * s, 0.0f), glms_quat_identity());
        ENSURE(ph_gjk_distance(&box, xa, &cap, xb, NULL, &out) == PH_GJK_SEPARATED);
        ENSURE_NEAR(out.distance, 0.3f * s, REL_TOL * s);
        // Penetrating by 0.02 s: overlapping.
        xb = pose(ph_v3(0.0f, 0.5f * s + 0.5f * s - 0.02f * s, 0.0f), glms_quat_identity());
        ENSURE(ph_gjk_distance(&box, xa, &cap, xb, NULL, &out) == PH_GJK_OVERLAPPING);
        ENSURE(ph_gjk_intersect(&box, xa, &cap, xb, NULL));
    }
    return 0;
}

static ph_convex random_box(uint64_t *rng, float scale)
{
    return ph_convex_box(test_rand_vec3(rng, 0.05f * scale, scale));
}

// Random separated box pairs: GJK distance against the brute-force minimum over vertex-face and edge-edge
// feature pairs; the closest points must be that far apart and lie on the surfaces.
static int gjk_box_box_random_vs_brute(void)
{
    uint64_t rng = test_seed() ^ 0x51ull;
    const int pairs = 30000;
    int tested = 0;
    double worst = 0.0;
    for (int i = 0; i < pairs; i++)
    {
        float s = SCALES[i % SCALE_COUNT];
        ph_convex a = random_box(&rng, s), b = random_box(&rng, s);
        ph_transform xa = pose(test_rand_vec3(&rng, -s, s), test_rand_quat(&rng));
        ph_transform xb =
            pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -3.0f * s, 3.0f * s)), test_rand_quat(&rng));
        sat_reference_result sat;
        sat_reference_query(&a, xa, &b, xb, &sat);
        if (sat.separation <= 1e-3 * (double)s)
            continue;
        tested++;
        double ra[3], rb[3];
        double ref = sat_reference_distance(&a, xa, &b, xb, ra, rb);
        ph_gjk_output out;
        ph_gjk_status st = ph_gjk_distance(&a, xa, &b, xb, NULL, &out);
        double err = fabs((double)out.distance - ref) / (double)s;
        worst = err > worst ? err : worst;
        if (st != PH_GJK_SEPARATED || err > (double)REL_TOL)
        {
            printf("  pair %d: status %d distance %.9g reference %.9g\n", i, (int)st, (double)out.distance,
                   ref);
            ENSURE(st == PH_GJK_SEPARATED);
            ENSURE_NEAR(out.distance, ref, REL_TOL * s);
        }
        ENSURE_NEAR(glms_vec3_distance(out.point_a, out.point_b), out.distance, REL_TOL * s);
        double pa[3] = {(double)out.point_a.x, (double)out.point_a.y, (double)out.point_a.z};
        double pb[3] = {(double)out.point_b.x, (double)out.point_b.y, (double)out.point_b.z};
        ENSURE_NEAR(sat_reference_point_distance(pa, &a, xa), 0.0, REL_TOL * s);
        ENSURE_NEAR(sat_reference_point_distance(pb, &b, xb), 0.0, REL_TOL * s);
        // The separating normal points from A to B along the closest-point difference.
        ENSURE_VEC3_NEAR(out.normal, glms_vec3_normalize(glms_vec3_sub(dvec(rb), dvec(ra))), 1e-2f);
    }
    printf("  %d separated pairs, worst |distance - reference| / size = %.3g\n", tested, worst);
    ENSURE(tested > pairs / 3);
    return 0;
}

// Spheres against random boxes: distance = brute-force point-to-box distance - radius.
static int gjk_sphere_box_random_vs_brute(void)
{
    uint64_t rng = test_seed() ^ 0x52ull;
    const int pairs = 20000;
    int tested = 0;
    for (int i = 0; i < pairs; i++)
    {
        float s = SCALES[i % SCALE_COUNT];
        ph_convex box = random_box(&rng, s);
        ph_convex ball = ph_convex_sphere(test_rand_float(&rng, 0.01f * s, 0.5f * s));
        ph_transform xa = pose(test_rand_vec3(&rng, -s, s), test_rand_quat(&rng));
        ph_transform xb =
            pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -3.0f * s, 3.0f * s)), test_rand_quat(&rng));
        double c[3] = {(double)xb.p.x, (double)xb.p.y, (double)xb.p.z};
        double ref = sat_reference_point_distance(c, &box, xa) - (double)ball.radius;
        ph_gjk_output out;
        ph_gjk_status st = ph_gjk_distance(&box, xa, &ball, xb, NULL, &out);
        bool hit = ph_gjk_intersect(&box, xa, &ball, xb, NULL);
        if (ref > (double)(REL_TOL * s))
        {
            tested++;
            ENSURE(st == PH_GJK_SEPARATED);
            ENSURE(!hit);
            ENSURE_NEAR(out.distance, ref, REL_TOL * s);
        }
        else if (ref < -(double)(REL_TOL * s))
        {
            ENSURE(st == PH_GJK_OVERLAPPING);
            ENSURE(hit);
        }
    }
    printf("  %d separated sphere-box pairs agree with the point-box reference\n", tested);
    return 0;
}

// Intersection agrees with the reference SAT on random box pairs (skipping |separation| < tolerance).
static int gjk_intersect_random_vs_sat(void)
{
    uint64_t rng = test_seed() ^ 0x53ull;
    const int pairs = 20000;
    int over = 0, apart = 0;
    for (int i = 0; i < pairs; i++)
    {
        float s = SCALES[i % SCALE_COUNT];
        ph_convex a = random_box(&rng, s), b = random_box(&rng, s);
        ph_transform xa = pose(test_rand_vec3(&rng, -s, s), test_rand_quat(&rng));
        ph_transform xb =
            pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -2.0f * s, 2.0f * s)), test_rand_quat(&rng));
        sat_reference_result sat;
        sat_reference_query(&a, xa, &b, xb, &sat);
        if (fabs(sat.separation) < (double)(REL_TOL * s))
            continue;
        bool expect = sat.separation < 0.0;
        bool got = ph_gjk_intersect(&a, xa, &b, xb, NULL);
        if (got != expect)
        {
            printf("  pair %d: intersect %d, reference separation %.9g\n", i, (int)got, sat.separation);
            return 1;
        }
        over += expect;
        apart += !expect;
    }
    printf("  %d overlapping and %d separated pairs agree\n", over, apart);
    ENSURE(over > 1000 && apart > 1000);
    return 0;
}

// A cached simplex from the previous pose makes a slightly moved pair converge in a couple of iterations
// to the same answer as a cold start.
static int gjk_warm_start(void)
{
    uint64_t rng = test_seed() ^ 0x54ull;
    int warm_total = 0, cold_total = 0, runs = 0;
    for (int i = 0; i < 500; i++)
    {
        ph_convex a = random_box(&rng, 1.0f), b = random_box(&rng, 1.0f);
        ph_transform xa = pose(glms_vec3_zero(), test_rand_quat(&rng));
        ph_transform xb = pose(test_rand_vec3(&rng, -3.0f, 3.0f), test_rand_quat(&rng));
        ph_gjk_cache cache = {0};
        ph_gjk_output out;
        if (ph_gjk_distance(&a, xa, &b, xb, &cache, &out) != PH_GJK_SEPARATED || out.distance < 0.05f)
            continue;
        xb.p = glms_vec3_add(xb.p, ph_v3(1e-4f, -2e-4f, 1e-4f));
        ph_gjk_output warm, cold;
        ph_gjk_distance(&a, xa, &b, xb, &cache, &warm);
        ph_gjk_distance(&a, xa, &b, xb, NULL, &cold);
        ENSURE(warm.status == PH_GJK_SEPARATED);
        ENSURE_NEAR(warm.distance, cold.distance, 1e-5f);
        warm_total += warm.iterations;
        cold_total += cold.iterations;
        runs++;
    }
    double mean_warm = (double)warm_total / runs, mean_cold = (double)cold_total / runs;
    printf("  %d pairs: mean iterations warm %.2f, cold %.2f\n", runs, mean_warm, mean_cold);
    ENSURE(runs > 100);
    ENSURE(mean_warm <= 2.0);
    ENSURE(mean_warm < mean_cold);
    return 0;
}

// Touching, very thin and very large shapes, and bad input: a status always, never a NaN.
static int gjk_degenerate_cases(void)
{
    ph_convex unit = ph_convex_box(ph_v3(1.0f, 1.0f, 1.0f));
    ph_transform xa = pose(glms_vec3_zero(), glms_quat_identity());
    ph_transform xb = pose(ph_v3(2.0f, 0.5f, 0.0f), glms_quat_identity());
    ph_gjk_output out;
    ph_gjk_status st = ph_gjk_distance(&unit, xa, &unit, xb, NULL, &out);
    printf("  touching boxes: status %d distance %g\n", (int)st, (double)out.distance);
    ENSURE(out.distance <= 1e-5f);

    // A sheet 1e-4 thick under a 1 km slab.
    ph_convex sheet = ph_convex_box(ph_v3(1.0f, 1e-4f, 1.0f));
    ph_convex slab = ph_convex_box(ph_v3(1000.0f, 10.0f, 1000.0f));
    ph_transform xs = pose(ph_v3(3.0f, -10.0f - 0.5f - 1e-4f, 7.0f), test_rand_quat(&(uint64_t){3}));
    xs.q = glms_quat_identity();
    st = ph_gjk_distance(&slab, xa, &sheet, xs, NULL, &out);
    ENSURE(st == PH_GJK_SEPARATED);
    ENSURE_NEAR(out.distance, 0.5f, 1e-4f * 1000.0f);
    ENSURE_VEC3_NEAR(out.normal, ph_v3(0.0f, -1.0f, 0.0f), 1e-4f);

    // Segment-like capsules crossing: overlapping; parallel at a distance.
    ph_convex cap = ph_convex_capsule(1.0f, 0.1f);
    ph_transform xc = pose(ph_v3(0.0f, 0.0f, 0.0f), glms_quatv(GLM_PI_2f, ph_v3(1.0f, 0.0f, 0.0f)));
    ENSURE(ph_gjk_distance(&cap, xa, &cap, xc, NULL, &out) == PH_GJK_OVERLAPPING);
    xc = pose(ph_v3(0.5f, 0.3f, 0.0f), glms_quat_identity());
    ENSURE(ph_gjk_distance(&cap, xa, &cap, xc, NULL, &out) == PH_GJK_SEPARATED);
    ENSURE_NEAR(out.distance, 0.3f, 1e-6f);

    // Bad input: NaN position, non-unit quaternion, negative size, NULL hull.
    ph_transform bad = xb;
    bad.p.x = NAN;
    ENSURE(ph_gjk_distance(&unit, xa, &unit, bad, NULL, &out) == PH_GJK_DEGENERATE);
    ENSURE(!ph_gjk_intersect(&unit, xa, &unit, bad, NULL));
    bad = xb;
    bad.q.w = 3.0f;
    ENSURE(ph_gjk_distance(&unit, xa, &unit, bad, NULL, &out) == PH_GJK_DEGENERATE);
    ph_convex neg = ph_convex_box(ph_v3(-1.0f, 1.0f, 1.0f));
    ENSURE(ph_gjk_distance(&neg, xa, &unit, xb, NULL, &out) == PH_GJK_DEGENERATE);
    ph_convex nohull = ph_convex_hull(NULL);
    ENSURE(ph_gjk_distance(&nohull, xa, &unit, xb, NULL, &out) == PH_GJK_DEGENERATE);
    ENSURE(ph_gjk_distance(&unit, xa, &unit, xb, NULL, NULL) == PH_GJK_DEGENERATE);
    return 0;
}

// A box as a hull: the 8 corners plus face centres and edge midpoints (coplanar points the hull merges).
static ph_hull *hull_box(ph_vec3 h)
{
    ph_vec3 pts[27];
    int n = 0;
    for (int i = -1; i <= 1; i++)
        for (int j = -1; j <= 1; j++)
            for (int k = -1; k <= 1; k++)
                pts[n++] = ph_v3((float)i * h.x, (float)j * h.y, (float)k * h.z);
    ph_hull_def def = ph_default_hull_def();
    def.points = pts;
    def.point_count = n;
    return ph_hull_build(&def, NULL);
}

// An octahedron with tips at distance r on the axes.
static ph_hull *hull_octahedron(float r)
{
    ph_vec3 pts[6] = {ph_v3(r, 0, 0),  ph_v3(-r, 0, 0), ph_v3(0, r, 0),
                      ph_v3(0, -r, 0), ph_v3(0, 0, r),  ph_v3(0, 0, -r)};
    ph_hull_def def = ph_default_hull_def();
    def.points = pts;
    def.point_count = 6;
    return ph_hull_build(&def, NULL);
}

// Hulls with known answers: box hulls face to face under a common rotation, octahedra tip to tip, and an
// octahedron's tip against a box hull's face, at 1 mm to 1 km.
static int gjk_hull_hull_analytic(void)
{
    uint64_t rng = test_seed() ^ 0x56ull;
    for (int k = 0; k < SCALE_COUNT; k++)
    {
        float s = SCALES[k];
        ph_hull *box = hull_box(ph_v3(0.5f * s, 0.3f * s, 0.2f * s));
        ph_hull *oct = hull_octahedron(0.4f * s);
        ENSURE(box && oct);
        ENSURE(box->face_count == 6);
        ph_convex cb = ph_convex_hull(box), co = ph_convex_hull(oct);
        ph_quat q = test_rand_quat(&rng);
        ph_vec3 origin = ph_v3(s, 2.0f * s, -s);
        float gap = 0.05f * s;
        ph_transform xa = pose(origin, q);
        ph_transform xb = pose(ph_transform_point(xa, ph_v3(0.05f * s, 0.6f * s + gap, 0.0f)), q);
        ph_gjk_output out;
        ENSURE(ph_gjk_distance(&cb, xa, &cb, xb, NULL, &out) == PH_GJK_SEPARATED);
        printf("  scale %g: box hulls %.9g (expected %.9g)\n", (double)s, (double)out.distance, (double)gap);
        ENSURE_NEAR(out.distance, gap, REL_TOL * s);
        ENSURE_VEC3_NEAR(out.normal, glms_quat_rotatev(q, ph_v3(0.0f, 1.0f, 0.0f)), REL_TOL);
        // Octahedra tip to tip along A's z axis.
        xb = pose(ph_transform_point(xa, ph_v3(0.0f, 0.0f, 0.8f * s + gap)), q);
        ENSURE(ph_gjk_distance(&co, xa, &co, xb, NULL, &out) == PH_GJK_SEPARATED);
        ENSURE_NEAR(out.distance, gap, REL_TOL * s);
        ENSURE_VEC3_NEAR(out.normal, glms_quat_rotatev(q, ph_v3(0.0f, 0.0f, 1.0f)), REL_TOL);
        // Octahedron tip down onto the box hull's +y face.
        xb = pose(ph_transform_point(xa, ph_v3(0.1f * s, 0.3f * s + 0.4f * s + gap, 0.05f * s)), q);
        ENSURE(ph_gjk_distance(&cb, xa, &co, xb, NULL, &out) == PH_GJK_SEPARATED);
        ENSURE_NEAR(out.distance, gap, REL_TOL * s);
        ENSURE_VEC3_NEAR(out.point_b, ph_transform_point(xa, ph_v3(0.1f * s, 0.3f * s + gap, 0.05f * s)),
                         REL_TOL * s);
        ph_hull_free(box);
        ph_hull_free(oct);
    }
    return 0;
}

// Random hull pairs (and hull against sphere): GJK distance against the brute-force references.
static int gjk_hull_random_vs_brute(void)
{
    uint64_t rng = test_seed() ^ 0x55ull;
    int tested = 0;
    for (int h = 0; h < 100; h++)
    {
        float s = SCALES[h % SCALE_COUNT];
        ph_hull *ha = random_hull(&rng, 12 + h % 20, s, 0.6f, 0.8f),
                *hb = random_hull(&rng, 8 + h % 24, s, 0.6f, 0.8f);
        ENSURE(ha && hb);
        ph_convex a = ph_convex_hull(ha), b = ph_convex_hull(hb);
        ph_convex ball = ph_convex_sphere(0.2f * s);
        for (int i = 0; i < 40; i++)
        {
            ph_transform xa = pose(test_rand_vec3(&rng, -s, s), test_rand_quat(&rng));
            ph_transform xb =
                pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -3.0f * s, 3.0f * s)), test_rand_quat(&rng));
            sat_reference_result sat;
            sat_reference_query(&a, xa, &b, xb, &sat);
            ph_gjk_output out;
            ph_gjk_status st = ph_gjk_distance(&a, xa, &b, xb, NULL, &out);
            if (sat.separation > 1e-3 * (double)s)
            {
                double ref = sat_reference_distance(&a, xa, &b, xb, NULL, NULL);
                ENSURE(st == PH_GJK_SEPARATED);
                ENSURE(!ph_gjk_intersect(&a, xa, &b, xb, NULL));
                ENSURE_NEAR(out.distance, ref, REL_TOL * s);
                tested++;
            }
            else if (sat.separation < -1e-3 * (double)s)
            {
                ENSURE(st == PH_GJK_OVERLAPPING);
                ENSURE(ph_gjk_intersect(&a, xa, &b, xb, NULL));
            }
            double c[3] = {(double)xb.p.x, (double)xb.p.y, (double)xb.p.z};
            double ref = sat_reference_point_distance(c, &a, xa) - (double)ball.radius;
            st = ph_gjk_distance(&a, xa, &ball, xb, NULL, &out);
            if (ref > 1e-3 * (double)s)
            {
                ENSURE(st == PH_GJK_SEPARATED);
                ENSURE_NEAR(out.distance, ref, REL_TOL * s);
                tested++;
            }
        }
        ph_hull_free(ha);
        ph_hull_free(hb);
    }
    printf("  %d separated hull pairs agree with the brute-force distance\n", tested);
    ENSURE(tested > 2000);
    return 0;
}

// Slabs up to 1 km wide and sheets 1e-4 thick against 1 m hulls: the simplex vertices lie a thousand times
// farther from the origin than the distance, where a float sub-algorithm used to stall and report a false
// separation. Status, intersection and distance against the references.
static int gjk_large_and_thin_vs_reference(void)
{
    uint64_t rng = test_seed() ^ 0x57ull;
    ph_hull *hull = random_hull(&rng, 24, 1.0f, 0.6f, 0.8f);
    ENSURE(hull);
    ph_convex h = ph_convex_hull(hull);
    int over = 0, apart = 0;
    for (int i = 0; i < 4000; i++)
    {
        float wide = (i & 1) ? 1000.0f : 1.0f, thin = (i & 2) ? 1e-4f : 1.0f;
        ph_convex slab = ph_convex_box(ph_v3(test_rand_float(&rng, 0.5f, 1.0f) * wide,
                                             test_rand_float(&rng, 0.1f, 1.0f) * thin,
                                             test_rand_float(&rng, 0.5f, 1.0f) * wide));
        ph_transform xa = pose(test_rand_vec3(&rng, -1.0f, 1.0f), test_rand_quat(&rng));
        ph_transform xb = pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -2.0f, 2.0f)), test_rand_quat(&rng));
        sat_reference_result sat;
        sat_reference_query(&slab, xa, &h, xb, &sat);
        // Touching within GJK's tolerance (1e-6 of the difference's extent) may go either way.
        double size = (double)glm_max(1.0f, glms_vec3_norm(slab.half_extents));
        if (fabs(sat.separation) < 1e-5 * size)
            continue;
        ph_gjk_output out;
        ph_gjk_status st = ph_gjk_distance(&slab, xa, &h, xb, NULL, &out);
        bool hit = ph_gjk_intersect(&slab, xa, &h, xb, NULL);
        if (sat.separation < 0.0)
        {
            if (st != PH_GJK_OVERLAPPING)
                printf("  pair %d: reference depth %.9g, GJK status %d distance %.9g\n", i, -sat.separation,
                       (int)st, (double)out.distance);
            ENSURE(st == PH_GJK_OVERLAPPING);
            ENSURE(hit);
            over++;
        }
        else
        {
            double ref = sat_reference_distance(&slab, xa, &h, xb, NULL, NULL);
            if (st != PH_GJK_SEPARATED)
                printf("  pair %d: reference distance %.9g, GJK status %d\n", i, ref, (int)st);
            ENSURE(st == PH_GJK_SEPARATED);
            ENSURE(!hit);
            // Relative to the slab's size, as everywhere: float supports of a 1 km box carry ~1e-4 m.
            ENSURE_NEAR(out.distance, ref, (double)REL_TOL * size);
            apart++;
        }
    }
    ph_hull_free(hull);
    printf("  %d overlapping and %d separated slab-hull pairs agree\n", over, apart);
    ENSURE(over > 500 && apart > 500);
    return 0;
}

const test_case test_gjk_cases[] = {
    {"gjk_sphere_sphere_analytic", gjk_sphere_sphere_analytic},
    {"gjk_box_box_analytic", gjk_box_box_analytic},
    {"gjk_capsule_box_analytic", gjk_capsule_box_analytic},
    {"gjk_box_box_random_vs_brute", gjk_box_box_random_vs_brute},
    {"gjk_sphere_box_random_vs_brute", gjk_sphere_box_random_vs_brute},
    {"gjk_intersect_random_vs_sat", gjk_intersect_random_vs_sat},
    {"gjk_warm_start", gjk_warm_start},
    {"gjk_degenerate_cases", gjk_degenerate_cases},
    {"gjk_hull_hull_analytic", gjk_hull_hull_analytic},
    {"gjk_hull_random_vs_brute", gjk_hull_random_vs_brute},
    {"gjk_large_and_thin_vs_reference", gjk_large_and_thin_vs_reference},
    {0},
};
