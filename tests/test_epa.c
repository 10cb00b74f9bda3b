// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// EPA penetration: analytic depths and normals (boxes, spheres, capsules, hulls; rotated, deep, coincident
// centres; 1 mm to 1 km) and randomised agreement with the reference separating-axis test.
#include "reference/geometry_fixtures.h"
#include "reference/sat_reference.h"
#include "test.h"

#include "phys/collision.h"

// EPA from GJK's simplex, the way the narrow phase calls it.
static ph_epa_status penetration(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                                 ph_epa_output *out)
{
    ph_gjk_output g;
    ph_gjk_distance(a, xa, b, xb, NULL, &g);
    return ph_epa_penetration(a, xa, b, xb, &g.simplex, out);
}

// The witnesses must be depth apart along the normal.
static int check_witness(const ph_epa_output *out, float tol)
{
    ph_vec3 d = glms_vec3_sub(out->point_a, out->point_b);
    ENSURE_VEC3_NEAR(d, glms_vec3_scale(out->normal, out->depth), tol);
    return 0;
}

// Boxes under a common rotation, overlapping face to face by a known depth; deep; coincident centres.
static int epa_box_box_analytic(void)
{
    uint64_t rng = test_seed();
    for (int k = 0; k < SCALE_COUNT; k++)
    {
        float s = SCALES[k];
        ph_quat q = test_rand_quat(&rng);
        ph_convex a = ph_convex_box(ph_v3(0.5f * s, 0.3f * s, 0.4f * s));
        ph_convex b = ph_convex_box(ph_v3(0.25f * s, 0.2f * s, 0.2f * s));
        ph_vec3 origin = ph_v3(-2.0f * s, 5.0f * s, 1.0f * s);
        ph_vec3 up = glms_quat_rotatev(q, ph_v3(0.0f, 1.0f, 0.0f));
        float depths[] = {1e-3f, 0.05f, 0.15f};
        for (int d = 0; d < 3; d++)
        {
            float depth = depths[d] * s;
            ph_vec3 local = ph_v3(0.1f * s, 0.3f * s + 0.2f * s - depth, -0.05f * s);
            ph_transform xa = pose(origin, q),
                         xb = pose(glms_vec3_add(origin, glms_quat_rotatev(q, local)), q);
            ph_epa_output out;
            ph_epa_status st = penetration(&a, xa, &b, xb, &out);
            printf("  scale %g depth %g: status %d depth %.9g normal (%.6f %.6f %.6f) iterations %d\n",
                   (double)s, (double)depth, (int)st, (double)out.depth, (double)out.normal.x,
                   (double)out.normal.y, (double)out.normal.z, out.iterations);
            ENSURE(st == PH_EPA_OK);
            ENSURE_NEAR(out.depth, depth, REL_TOL * s);
            ENSURE_VEC3_NEAR(out.normal, up, REL_TOL);
            if (check_witness(&out, REL_TOL * s))
                return 1;
        }
        // Coincident centres of a box in a bigger box: the smallest extent sum wins (y: 0.3 + 0.2).
        ph_transform xa = pose(origin, q);
        ph_epa_output out;
        ENSURE(penetration(&a, xa, &b, xa, &out) == PH_EPA_OK);
        ENSURE_NEAR(out.depth, 0.5f * s, REL_TOL * s);
        ENSURE_NEAR(fabsf(glms_vec3_dot(out.normal, up)), 1.0f, REL_TOL);
    }
    return 0;
}

// Sphere-sphere, sphere in a box, capsule across a box face: depths from geometry.
static int epa_rounded_analytic(void)
{
    for (int k = 0; k < SCALE_COUNT; k++)
    {
        float s = SCALES[k];
        ph_convex big = ph_convex_sphere(0.5f * s), small = ph_convex_sphere(0.2f * s);
        ph_vec3 dir = glms_vec3_normalize(ph_v3(-1.0f, 0.5f, 2.0f));
        ph_transform xa = pose(ph_v3(s, s, s), glms_quat_identity());
        ph_transform xb = pose(glms_vec3_add(xa.p, glms_vec3_scale(dir, 0.6f * s)), glms_quat_identity());
        ph_epa_output out;
        ENSURE(penetration(&big, xa, &small, xb, &out) == PH_EPA_OK);
        ENSURE_NEAR(out.depth, 0.1f * s, REL_TOL * s);
        ENSURE_VEC3_NEAR(out.normal, dir, REL_TOL);
        if (check_witness(&out, REL_TOL * s))
            return 1;
        // Coincident centres: depth r1 + r2, any normal.
        ENSURE(penetration(&big, xa, &small, xa, &out) == PH_EPA_OK);
        ENSURE_NEAR(out.depth, 0.7f * s, REL_TOL * s);
        ENSURE_NEAR(glms_vec3_norm(out.normal), 1.0f, REL_TOL);

        // Sphere centre inside a box, 0.1 s below the +y face: depth = 0.1 s + r through +y.
        ph_convex box = ph_convex_box(ph_v3(s, 0.5f * s, s));
        ph_quat q = glms_quatv(0.3f, glms_vec3_normalize(ph_v3(1.0f, 1.0f, 0.0f)));
        xa = pose(ph_v3(0.0f, -s, 2.0f * s), q);
        xb = pose(ph_transform_point(xa, ph_v3(0.2f * s, 0.4f * s, -0.3f * s)), glms_quat_identity());
        ENSURE(penetration(&box, xa, &small, xb, &out) == PH_EPA_OK);
        ENSURE_NEAR(out.depth, 0.3f * s, REL_TOL * s);
        ENSURE_VEC3_NEAR(out.normal, glms_quat_rotatev(q, ph_v3(0.0f, 1.0f, 0.0f)), REL_TOL);

        // Capsule lying on a box face, its segment 0.05 s below the face: depth 0.05 s + r.
        ph_convex cap = ph_convex_capsule(0.4f * s, 0.1f * s);
        ph_quat lying = glms_quat_mul(q, glms_quatv(GLM_PI_2f, ph_v3(1.0f, 0.0f, 0.0f)));
        xb = pose(ph_transform_point(xa, ph_v3(0.1f * s, 0.45f * s, 0.0f)), lying);
        ENSURE(penetration(&box, xa, &cap, xb, &out) == PH_EPA_OK);
        ENSURE_NEAR(out.depth, 0.15f * s, REL_TOL * s);
        ENSURE_VEC3_NEAR(out.normal, glms_quat_rotatev(q, ph_v3(0.0f, 1.0f, 0.0f)), REL_TOL);
        // Capsules crossing at right angles, cores touching: depth r1 + r2.
        ph_transform xc = pose(ph_v3(0.0f, 0.0f, 0.0f), glms_quatv(GLM_PI_2f, ph_v3(1.0f, 0.0f, 0.0f)));
        ph_transform xd = pose(ph_v3(0.0f, 0.0f, 0.0f), glms_quatv(GLM_PI_2f, ph_v3(0.0f, 0.0f, 1.0f)));
        ENSURE(penetration(&cap, xc, &cap, xd, &out) == PH_EPA_OK);
        ENSURE_NEAR(out.depth, 0.2f * s, REL_TOL * s);
    }
    return 0;
}

static ph_convex random_box(uint64_t *rng, float scale)
{
    return ph_convex_box(test_rand_vec3(rng, 0.05f * scale, scale));
}

// Compares one overlapping pair against the reference SAT: depth always, normal when the reference's
// best axis is unambiguous. Returns 1 on disagreement.
static int compare_with_sat(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb, float s,
                            double *worst)
{
    sat_reference_result sat;
    sat_reference_query(a, xa, b, xb, &sat);
    ph_epa_output out;
    ph_epa_status st = penetration(a, xa, b, xb, &out);
    double ref = -sat.separation;
    double err = fabs((double)out.depth - ref) / (double)s;
    *worst = err > *worst ? err : *worst;
    if (st != PH_EPA_OK || err > (double)REL_TOL)
    {
        printf("  status %d depth %.9g reference %.9g (scale %g)\n", (int)st, (double)out.depth, ref,
               (double)s);
        ENSURE(st == PH_EPA_OK);
        ENSURE_NEAR(out.depth, ref, REL_TOL * s);
    }
    if (sat.separation - sat.runner_up > 1e-3 * (double)s)
        ENSURE_VEC3_NEAR(out.normal, dvec(sat.normal), 1e-3f);
    if (check_witness(&out, REL_TOL * s))
        return 1;
    return 0;
}

// Random overlapping box pairs at three scales: depth and normal against the reference SAT.
static int epa_box_box_random_vs_sat(void)
{
    uint64_t rng = test_seed() ^ 0x61ull;
    const int pairs = 40000;
    int tested = 0;
    double worst = 0.0;
    for (int i = 0; i < pairs; i++)
    {
        float s = SCALES[i % SCALE_COUNT];
        ph_convex a = random_box(&rng, s), b = random_box(&rng, s);
        ph_transform xa = pose(test_rand_vec3(&rng, -s, s), test_rand_quat(&rng));
        float reach = 0.6f * (glms_vec3_norm(a.half_extents) + glms_vec3_norm(b.half_extents));
        ph_transform xb =
            pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -reach, reach)), test_rand_quat(&rng));
        sat_reference_result sat;
        sat_reference_query(&a, xa, &b, xb, &sat);
        if (sat.separation > -1e-3 * (double)s)
            continue;
        tested++;
        if (compare_with_sat(&a, xa, &b, xb, s, &worst))
        {
            printf("  pair %d\n", i);
            return 1;
        }
    }
    printf("  %d overlapping box pairs, worst |depth - reference| / size = %.3g\n", tested, worst);
    ENSURE(tested > pairs / 3);
    return 0;
}

// A box as a hull: corners plus coplanar face and edge points the hull builder merges.
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

// Box hulls sunk face into face by known depths (shallow, deep), coincident centres, and a resting
// manifold of 4 points, at 1 mm to 1 km.
static int epa_hull_hull_analytic(void)
{
    uint64_t rng = test_seed() ^ 0x63ull;
    for (int k = 0; k < SCALE_COUNT; k++)
    {
        float s = SCALES[k];
        ph_hull *ha = hull_box(ph_v3(0.5f * s, 0.3f * s, 0.4f * s)),
                *hb = hull_box(ph_v3(0.25f * s, 0.2f * s, 0.2f * s));
        ENSURE(ha && hb);
        ph_convex a = ph_convex_hull(ha), b = ph_convex_hull(hb);
        ph_quat q = test_rand_quat(&rng);
        ph_vec3 origin = ph_v3(3.0f * s, -s, 0.5f * s);
        ph_vec3 up = glms_quat_rotatev(q, ph_v3(0.0f, 1.0f, 0.0f));
        float depths[] = {1e-3f, 0.1f};
        for (int d = 0; d < 2; d++)
        {
            float depth = depths[d] * s;
            ph_transform xa = pose(origin, q);
            ph_transform xb = pose(ph_transform_point(xa, ph_v3(0.1f * s, 0.5f * s - depth, 0.05f * s)), q);
            ph_epa_output out;
            ENSURE(penetration(&a, xa, &b, xb, &out) == PH_EPA_OK);
            printf("  scale %g: depth %.9g (expected %.9g)\n", (double)s, (double)out.depth, (double)depth);
            ENSURE_NEAR(out.depth, depth, REL_TOL * s);
            ENSURE_VEC3_NEAR(out.normal, up, REL_TOL);
            if (check_witness(&out, REL_TOL * s))
                return 1;
            ph_manifold m;
            ph_collide_convex(&a, xa, &b, xb, 0.01f * s, NULL, &m);
            ENSURE(m.point_count == 4);
            ENSURE_VEC3_NEAR(m.normal, up, REL_TOL);
            for (int i = 0; i < 4; i++)
                ENSURE_NEAR(m.points[i].separation, -depth, REL_TOL * s);
        }
        ph_transform xa = pose(origin, q);
        ph_epa_output out;
        ENSURE(penetration(&a, xa, &b, xa, &out) == PH_EPA_OK);
        ENSURE_NEAR(out.depth, 0.5f * s, REL_TOL * s);
        ph_hull_free(ha);
        ph_hull_free(hb);
    }
    return 0;
}

// Random overlapping hull pairs and hull-box pairs against the reference SAT.
static int epa_hull_random_vs_sat(void)
{
    uint64_t rng = test_seed() ^ 0x62ull;
    int tested = 0;
    double worst = 0.0;
    for (int h = 0; h < 60; h++)
    {
        float s = SCALES[h % SCALE_COUNT];
        ph_hull *ha = random_hull(&rng, 8 + h % 25, s, 0.7f, 0.9f),
                *hb = random_hull(&rng, 8 + (h * 7) % 25, s, 0.7f, 0.9f);
        ENSURE(ha && hb);
        ph_convex a = ph_convex_hull(ha), b = ph_convex_hull(hb);
        for (int i = 0; i < 100; i++)
        {
            ph_convex other = (i & 1) ? b : random_box(&rng, s);
            ph_transform xa = pose(test_rand_vec3(&rng, -s, s), test_rand_quat(&rng));
            ph_transform xb = pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -s, s)), test_rand_quat(&rng));
            sat_reference_result sat;
            sat_reference_query(&a, xa, &other, xb, &sat);
            if (sat.separation > -1e-3 * (double)s)
                continue;
            tested++;
            if (compare_with_sat(&a, xa, &other, xb, s, &worst))
            {
                printf("  hull %d pair %d\n", h, i);
                return 1;
            }
        }
        ph_hull_free(ha);
        ph_hull_free(hb);
    }
    printf("  %d overlapping hull pairs, worst |depth - reference| / size = %.3g\n", tested, worst);
    ENSURE(tested > 2000);
    return 0;
}

// Separated input, NULL simplex, the trace, touching boxes and bad input.
static int epa_status_and_trace(void)
{
    ph_convex unit = ph_convex_box(ph_v3(1.0f, 1.0f, 1.0f));
    ph_transform xa = pose(glms_vec3_zero(), glms_quat_identity());
    ph_transform xb = pose(ph_v3(2.5f, 0.0f, 0.0f), glms_quat_identity());
    ph_epa_output out;
    ENSURE(ph_epa_penetration(&unit, xa, &unit, xb, NULL, &out) == PH_EPA_SEPARATED);

    xb.p = ph_v3(1.5f, 0.2f, -0.1f);
    ph_polytope_trace trace;
    ENSURE(ph_epa_penetration_traced(&unit, xa, &unit, xb, NULL, &out, &trace) == PH_EPA_OK);
    ENSURE_NEAR(out.depth, 0.5f, 1e-5f);
    ENSURE_VEC3_NEAR(out.normal, ph_v3(1.0f, 0.0f, 0.0f), 1e-5f);
    printf("  trace: %d triangles after %d iterations\n", trace.triangle_count, out.iterations);
    ENSURE(trace.triangle_count >= 4);

    // Exactly touching faces: depth 0 (libccd returns a NaN normal here).
    xb.p = ph_v3(2.0f, 0.3f, 0.0f);
    ph_epa_status st = ph_epa_penetration(&unit, xa, &unit, xb, NULL, &out);
    printf("  touching: status %d depth %g normal (%g %g %g)\n", (int)st, (double)out.depth,
           (double)out.normal.x, (double)out.normal.y, (double)out.normal.z);
    ENSURE(ph_is_finite_vec3(out.normal));
    ENSURE_NEAR(out.depth, 0.0f, 1e-5f);

    ph_transform bad = xb;
    bad.q.x = NAN;
    ENSURE(ph_epa_penetration(&unit, xa, &unit, bad, NULL, &out) == PH_EPA_DEGENERATE);
    ENSURE(ph_epa_penetration(&unit, xa, &unit, xb, NULL, NULL) == PH_EPA_DEGENERATE);
    return 0;
}

const test_case test_epa_cases[] = {
    {"epa_box_box_analytic", epa_box_box_analytic},
    {"epa_rounded_analytic", epa_rounded_analytic},
    {"epa_box_box_random_vs_sat", epa_box_box_random_vs_sat},
    {"epa_hull_hull_analytic", epa_hull_hull_analytic},
    {"epa_hull_random_vs_sat", epa_hull_random_vs_sat},
    {"epa_status_and_trace", epa_status_and_trace},
    {0},
};
