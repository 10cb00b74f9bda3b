// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Exact penetration (ph_penetration): analytic face and edge-edge depths of boxes (rotated, deep, touching,
// coincident centres; 1 mm to 1 km), randomised agreement with the reference separating-axis test on box,
// box-hull and hull-hull pairs, agreement with EPA on every convex type, warm caches giving the cold answer,
// and invalid input.
#include "reference/geometry_fixtures.h"
#include "reference/sat_reference.h"
#include "test.h"

#include "phys/collision.h"

static void print_output(const char *label, ph_epa_status st, const ph_epa_output *out)
{
    printf("  %s: status %d depth %.9g normal (%.6f %.6f %.6f)\n", label, (int)st, (double)out->depth,
           (double)out->normal.x, (double)out->normal.y, (double)out->normal.z);
}

// The witnesses are depth apart along the normal, and the normal is a unit vector.
static int check_witness(const ph_epa_output *out, float tol)
{
    ENSURE_NEAR(glms_vec3_norm(out->normal), 1.0f, 1e-5f);
    ph_vec3 d = glms_vec3_sub(out->point_a, out->point_b);
    ENSURE_VEC3_NEAR(d, glms_vec3_scale(out->normal, out->depth), tol);
    return 0;
}

// Boxes under a random common pose: face into face at known depths, deep, touching, apart, coincident
// centres, and two edges crossing (each box turned 45 degrees about a different axis).
static int penetration_box_analytic(void)
{
    uint64_t rng = test_seed() ^ 0x81ull;
    for (int k = 0; k < SCALE_COUNT; k++)
    {
        float s = SCALES[k];
        ph_quat q = test_rand_quat(&rng);
        ph_transform frame = pose(test_rand_vec3(&rng, -3.0f * s, 3.0f * s), q);
        ph_convex a = ph_convex_box(ph_v3(0.5f * s, 0.3f * s, 0.4f * s));
        ph_convex b = ph_convex_box(ph_v3(0.25f * s, 0.2f * s, 0.2f * s));
        ph_vec3 up = glms_quat_rotatev(q, ph_v3(0.0f, 1.0f, 0.0f));
        const float depths[] = {1e-3f, 0.05f, 0.15f, 0.0f};
        for (int d = 0; d < 4; d++)
        {
            float depth = depths[d] * s;
            ph_transform xb =
                pose(ph_transform_point(frame, ph_v3(0.1f * s, 0.5f * s - depth, -0.05f * s)), frame.q);
            ph_epa_output out;
            ph_epa_status st = ph_penetration(&a, frame, &b, xb, NULL, &out);
            print_output("face into face", st, &out);
            if (depth == 0.0f)
            {
                // Exactly touching: rounding may call it either way, never deeper than rounding.
                ENSURE(st == PH_EPA_OK || st == PH_EPA_SEPARATED);
                ENSURE_NEAR(out.depth, 0.0f, REL_TOL * s);
                continue;
            }
            ENSURE(st == PH_EPA_OK);
            ENSURE_NEAR(out.depth, depth, REL_TOL * s);
            ENSURE_VEC3_NEAR(out.normal, up, REL_TOL);
            if (check_witness(&out, REL_TOL * s))
                return 1;
        }
        // Apart by 0.01 s: separated.
        ph_transform apart = pose(ph_transform_point(frame, ph_v3(0.0f, 0.51f * s, 0.0f)), frame.q);
        ph_epa_output out;
        ENSURE(ph_penetration(&a, frame, &b, apart, NULL, &out) == PH_EPA_SEPARATED);
        // Coincident centres: the smallest extent sum wins (y: 0.3 + 0.2).
        ENSURE(ph_penetration(&a, frame, &b, frame, NULL, &out) == PH_EPA_OK);
        ENSURE_NEAR(out.depth, 0.5f * s, REL_TOL * s);
        ENSURE_NEAR(fabsf(glms_vec3_dot(out.normal, up)), 1.0f, REL_TOL);
        if (check_witness(&out, REL_TOL * s))
            return 1;

        // Edge against edge: A (half extent s) turned 45 degrees about z has an edge along z at x = s sqrt 2;
        // B turned 45 degrees about y has an edge along y at x = -s sqrt 2 from its centre. With B's centre
        // at x = 2 s sqrt 2 - depth the edges cross and every face axis overlaps more (by (depth + s) / sqrt
        // 2 or more), so the depth is that of the edge axis x.
        ph_convex cube = ph_convex_box(ph_v3(s, s, s));
        float depth = 0.1f * s;
        ph_transform xa = pose(frame.p, glms_quat_mul(q, glms_quatv(GLM_PI_4f, ph_v3(0.0f, 0.0f, 1.0f))));
        ph_transform xb = pose(ph_transform_point(frame, ph_v3(2.0f * sqrtf(2.0f) * s - depth, 0.0f, 0.0f)),
                               glms_quat_mul(q, glms_quatv(GLM_PI_4f, ph_v3(0.0f, 1.0f, 0.0f))));
        ph_epa_status st = ph_penetration(&cube, xa, &cube, xb, NULL, &out);
        print_output("edge across edge", st, &out);
        ENSURE(st == PH_EPA_OK);
        ENSURE_NEAR(out.depth, depth, REL_TOL * s);
        ENSURE_VEC3_NEAR(out.normal, glms_quat_rotatev(q, ph_v3(1.0f, 0.0f, 0.0f)), REL_TOL);
        if (check_witness(&out, REL_TOL * s))
            return 1;
        // The witnesses are the crossing point of the edges, on each edge.
        ENSURE_VEC3_NEAR(out.point_a, ph_transform_point(frame, ph_v3(sqrtf(2.0f) * s, 0.0f, 0.0f)),
                         REL_TOL * s);
        // Swapped: the same depth, the normal reversed.
        ph_epa_output rev;
        ENSURE(ph_penetration(&cube, xb, &cube, xa, NULL, &rev) == PH_EPA_OK);
        ENSURE_NEAR(rev.depth, depth, REL_TOL * s);
        ENSURE_VEC3_NEAR(rev.normal, glms_vec3_negate(out.normal), REL_TOL);
    }
    return 0;
}

typedef struct agreement
{
    int overlapping, separated;
    double worst; // largest |depth - reference| / scale
} agreement;

// One pair against the reference SAT: the status (outside a touching band), the depth, the normal when the
// reference's best axis is unambiguous, and the witnesses. Returns 1 on disagreement.
static int compare_with_sat(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb, float s,
                            agreement *agr)
{
    sat_reference_result sat;
    sat_reference_query(a, xa, b, xb, &sat);
    ph_epa_output out;
    ph_epa_status st = ph_penetration(a, xa, b, xb, NULL, &out);
    if (fabs(sat.separation) < 1e-4 * (double)s)
        return 0; // touching within rounding: either answer is right
    if (sat.separation > 0.0)
    {
        if (st != PH_EPA_SEPARATED)
            printf("  reference separation %.9g, status %d depth %.9g\n", sat.separation, (int)st,
                   (double)out.depth);
        ENSURE(st == PH_EPA_SEPARATED);
        agr->separated++;
        return 0;
    }
    agr->overlapping++;
    double err = fabs((double)out.depth + sat.separation) / (double)s;
    agr->worst = err > agr->worst ? err : agr->worst;
    if (st != PH_EPA_OK || err > (double)REL_TOL)
    {
        print_output("ours", st, &out);
        printf("  reference depth %.9g (scale %g)\n", -sat.separation, (double)s);
        ENSURE(st == PH_EPA_OK);
        ENSURE_NEAR(out.depth, -sat.separation, REL_TOL * s);
    }
    // The normal is a minimum-depth axis: the reference separation along it is the best one. Where the
    // reference's best axis is unambiguous the normal is that axis too, unless the two are equally deep to
    // 1e-5 of the size, the rounding of poses 10 sizes from the origin (an edge pair close to parallel makes
    // its axis ill-conditioned; both are right).
    double along = sat_reference_axis_separation(a, xa, b, xb, out.normal);
    ENSURE_NEAR(along, sat.separation, REL_TOL * s);
    if (sat.separation - sat.runner_up > 1e-3 * (double)s &&
        fabs(along - sat.separation) > 1e-5 * (double)s &&
        !(glms_vec3_distance(out.normal, dvec(sat.normal)) < 1e-3f))
    {
        print_output("ours", st, &out);
        printf("  reference separation %.9g runner-up %.9g normal (%.6f %.6f %.6f), along ours %.9g\n",
               sat.separation, sat.runner_up, sat.normal[0], sat.normal[1], sat.normal[2], along);
        ENSURE_VEC3_NEAR(out.normal, dvec(sat.normal), 1e-3f);
    }
    // Moving B by depth along the normal leaves it touching: the reference separation along the normal is 0.
    ph_transform moved = xb;
    moved.p = glms_vec3_add(xb.p, glms_vec3_scale(out.normal, out.depth));
    ENSURE_NEAR(sat_reference_axis_separation(a, xa, b, moved, out.normal), 0.0, REL_TOL * s);
    return check_witness(&out, REL_TOL * s);
}

// 100,000 random box pairs at three scales (half of them within reach of overlapping), then box-hull and
// hull-hull pairs, all against the reference SAT.
static int penetration_random_vs_sat(void)
{
    uint64_t rng = test_seed() ^ 0x82ull;
    agreement boxes = {0, 0, 0.0}, hulls = {0, 0, 0.0};
    for (int i = 0; i < 100000; i++)
    {
        float s = SCALES[i % SCALE_COUNT];
        ph_convex a = ph_convex_box(test_rand_vec3(&rng, 0.05f * s, s));
        ph_convex b = ph_convex_box(test_rand_vec3(&rng, 0.05f * s, s));
        ph_transform xa = pose(test_rand_vec3(&rng, -10.0f * s, 10.0f * s), test_rand_quat(&rng));
        float reach = 0.7f * (glms_vec3_norm(a.half_extents) + glms_vec3_norm(b.half_extents));
        ph_transform xb =
            pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -reach, reach)), test_rand_quat(&rng));
        if (compare_with_sat(&a, xa, &b, xb, s, &boxes))
        {
            printf("  box pair %d\n", i);
            return 1;
        }
    }
    printf("  box-box: %d overlapping, %d separated; worst |depth - reference| / size = %.3g\n",
           boxes.overlapping, boxes.separated, boxes.worst);
    ENSURE(boxes.overlapping > 30000 && boxes.separated > 10000);
    for (int h = 0; h < 30; h++)
    {
        float s = SCALES[h % SCALE_COUNT];
        // Hulls of 5 to 34 points: the smallest take SAT against a box, the others GJK and EPA.
        ph_hull *ha = random_hull(&rng, 5 + h, s, 0.7f, 0.9f),
                *hb = random_hull(&rng, 5 + (h * 7) % 30, s, 0.7f, 0.9f);
        ENSURE(ha && hb);
        ph_convex a = ph_convex_hull(ha), b = ph_convex_hull(hb);
        for (int i = 0; i < 400; i++)
        {
            ph_convex other = (i & 1) ? b : ph_convex_box(test_rand_vec3(&rng, 0.05f * s, s));
            ph_transform xa = pose(test_rand_vec3(&rng, -s, s), test_rand_quat(&rng));
            ph_transform xb = pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -s, s)), test_rand_quat(&rng));
            bool box_first = (i & 2) != 0;
            int fail = box_first ? compare_with_sat(&other, xb, &a, xa, s, &hulls)
                                 : compare_with_sat(&a, xa, &other, xb, s, &hulls);
            if (fail)
            {
                printf("  hull %d pair %d (%d points)\n", h, i, ha->vertex_count);
                return 1;
            }
        }
        ph_hull_free(ha);
        ph_hull_free(hb);
    }
    printf("  hull pairs: %d overlapping, %d separated; worst |depth - reference| / size = %.3g\n",
           hulls.overlapping, hulls.separated, hulls.worst);
    ENSURE(hulls.overlapping > 3000);
    return 0;
}

// Every convex type against every other: the same depth as EPA (rounded shapes go through it), a unit
// normal and consistent witnesses; a warm cache (primed at this pose, or one step earlier) gives the cold
// answer.
static int penetration_all_types_and_cache(void)
{
    uint64_t rng = test_seed() ^ 0x83ull;
    ph_hull *hull = random_hull(&rng, 20, 0.6f, 0.7f, 0.9f);
    ENSURE(hull);
    ph_convex shapes[4] = {ph_convex_sphere(0.5f), ph_convex_capsule(0.3f, 0.3f),
                           ph_convex_box(ph_v3(0.5f, 0.4f, 0.3f)), ph_convex_hull(hull)};
    int compared = 0;
    for (int i = 0; i < 4; i++)
    {
        for (int j = 0; j < 4; j++)
        {
            for (int trial = 0; trial < 200; trial++)
            {
                ph_transform xa = pose(test_rand_vec3(&rng, -1.0f, 1.0f), test_rand_quat(&rng));
                ph_transform xb =
                    pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -0.6f, 0.6f)), test_rand_quat(&rng));
                ph_epa_output cold, epa, warm;
                ph_epa_status st = ph_penetration(&shapes[i], xa, &shapes[j], xb, NULL, &cold);
                ph_epa_status se = ph_epa_penetration(&shapes[i], xa, &shapes[j], xb, NULL, &epa);
                if (st == PH_EPA_SEPARATED || se == PH_EPA_SEPARATED)
                {
                    // Only a touching pair may be called separated by one and overlapping by the other.
                    ENSURE(st == se || glm_max(cold.depth, epa.depth) < 1e-4f);
                    continue;
                }
                ENSURE(st == PH_EPA_OK);
                ENSURE_NEAR(cold.depth, epa.depth, REL_TOL);
                if (check_witness(&cold, REL_TOL))
                    return 1;
                // A cache primed at a pose one step earlier, then at this pose.
                ph_gjk_cache cache = {0};
                ph_gjk_output g;
                ph_transform before = xb;
                before.p = glms_vec3_add(xb.p, test_rand_vec3(&rng, -0.02f, 0.02f));
                ph_gjk_distance(&shapes[i], xa, &shapes[j], before, &cache, &g);
                for (int rep = 0; rep < 2; rep++)
                {
                    ENSURE(ph_penetration(&shapes[i], xa, &shapes[j], xb, &cache, &warm) == PH_EPA_OK);
                    ENSURE_NEAR(warm.depth, cold.depth, REL_TOL);
                    if (check_witness(&warm, REL_TOL))
                        return 1;
                    ph_gjk_distance(&shapes[i], xa, &shapes[j], xb, &cache, &g);
                }
                compared++;
            }
        }
    }
    ph_hull_free(hull);
    printf("  %d overlapping pairs of every type agree with EPA, cold and warm\n", compared);
    ENSURE(compared > 1000);
    return 0;
}

static int penetration_invalid_input(void)
{
    ph_convex box = ph_convex_box(ph_v3(1.0f, 1.0f, 1.0f));
    ph_transform xa = pose(glms_vec3_zero(), glms_quat_identity());
    ph_transform xb = pose(ph_v3(0.0f, 1.9f, 0.0f), glms_quat_identity());
    ph_epa_output out;
    ENSURE(ph_penetration(&box, xa, &box, xb, NULL, NULL) == PH_EPA_DEGENERATE);
    ph_transform bad = xb;
    bad.p.x = NAN;
    ENSURE(ph_penetration(&box, xa, &box, bad, NULL, &out) == PH_EPA_DEGENERATE);
    ENSURE(ph_is_finite_vec3(out.normal));
    ph_convex zero = ph_convex_box(ph_v3(1.0f, 0.0f, 1.0f));
    ENSURE(ph_penetration(&zero, xa, &box, xb, NULL, &out) == PH_EPA_DEGENERATE);
    ph_convex compound = box;
    compound.type = PH_SHAPE_COMPOUND;
    ENSURE(ph_penetration(&compound, xa, &box, xb, NULL, &out) == PH_EPA_DEGENERATE);
    ENSURE(ph_penetration(&box, xa, &box, xb, NULL, &out) == PH_EPA_OK);
    ENSURE_NEAR(out.depth, 0.1f, 1e-5f);
    return 0;
}

const test_case test_collide_cases[] = {
    {"penetration_box_analytic", penetration_box_analytic},
    {"penetration_random_vs_sat", penetration_random_vs_sat},
    {"penetration_all_types_and_cache", penetration_all_types_and_cache},
    {"penetration_invalid_input", penetration_invalid_input},
    {0},
};
