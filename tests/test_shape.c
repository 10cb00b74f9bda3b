// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Convex shapes (shape.c): the support mapping of every shape against brute force over dense surface
// samples, zero directions, and world bounds against transformed samples (containing and tight).
#include "reference/brute_support.h"
#include "test.h"

#include "phys/collision.h"

#include <stdlib.h> // malloc, free
#include <string.h> // memcmp

// Grid steps of the surface samples: the sampling error of a curved surface is about
// R (1 - cos(pi / SAMPLE_RESOLUTION)) ~ 1.2e-3 R, which bounds how far below the true support the best
// sample may be.
#define SAMPLE_RESOLUTION 64
#define SAMPLE_CAPACITY 40000
// Relative float rounding allowed between a support point and the surface (of the shape's size).
#define SURFACE_TOL 1e-5

static ph_hull *random_hull(uint64_t *s, int n)
{
    ph_vec3 pts[128];
    for (int i = 0; i < n; i++)
        pts[i] = glms_vec3_mul(test_rand_vec3(s, -1.0f, 1.0f), ph_v3(1.5f, 0.7f, 1.0f));
    ph_hull_def def = ph_default_hull_def();
    def.points = pts;
    def.point_count = n;
    return ph_hull_build(&def, NULL);
}

static float shape_size(const ph_convex *c)
{
    switch (c->type)
    {
    case PH_SHAPE_SPHERE:
        return c->radius;
    case PH_SHAPE_CAPSULE:
        return c->radius + c->half_height;
    case PH_SHAPE_BOX:
        return glms_vec3_norm(c->half_extents);
    default:
        return 2.0f;
    }
}

// The support point p of direction d is the support: it lies in the shape (signed distance <= 0 up to
// rounding) and no surface sample has a larger dot with d. Together these pin dot(p, d) to the true
// maximum within the sampling error.
static int check_support(const ph_convex *shape, const ph_vec3 *samples, int n, ph_vec3 d)
{
    ph_vec3 p = ph_convex_support(shape, d);
    float size = shape_size(shape);
    double dist = brute_signed_distance(shape, p);
    if (!(dist <= SURFACE_TOL * (double)size && dist >= -SURFACE_TOL * (double)size))
    {
        fprintf(stderr, "shape %d, d (%g %g %g): support (%g %g %g) is %g from the surface\n", shape->type,
                (double)d.x, (double)d.y, (double)d.z, (double)p.x, (double)p.y, (double)p.z, dist);
        return 1;
    }
    ph_vec3 best = brute_best_point(samples, n, d);
    float mine = glms_vec3_dot(p, d), brute = glms_vec3_dot(best, d);
    if (!(mine >= brute - (float)SURFACE_TOL * size * glms_vec3_norm(d)))
    {
        fprintf(stderr, "shape %d, d (%g %g %g): support dot %.9g < sampled %.9g\n", shape->type, (double)d.x,
                (double)d.y, (double)d.z, (double)mine, (double)brute);
        return 1;
    }
    return 0;
}

static int shape_support_matches_brute_force(void)
{
    uint64_t s = test_seed();
    ph_vec3 *samples = malloc(sizeof(ph_vec3) * SAMPLE_CAPACITY);
    ENSURE(samples != NULL);
    ph_hull *hull = random_hull(&s, 100);
    ENSURE(hull != NULL);
    ph_convex shapes[] = {
        ph_convex_sphere(0.8f),
        ph_convex_sphere(250.0f),
        ph_convex_capsule(1.2f, 0.3f),
        ph_convex_capsule(0.01f, 2.0f),
        ph_convex_box(ph_v3(0.5f, 2.0f, 0.1f)),
        ph_convex_box(ph_v3(1e-3f, 1e-3f, 1e-3f)),
        ph_convex_hull(hull),
        ph_convex_triangle(ph_v3(0.0f, 0.0f, 0.0f), ph_v3(2.0f, 0.5f, 0.0f), ph_v3(-1.0f, 1.0f, 3.0f)),
    };
    int rc = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0] && !rc; k++)
    {
        int n = brute_surface_samples(&shapes[k], SAMPLE_RESOLUTION, samples, SAMPLE_CAPACITY);
        if (n > SAMPLE_CAPACITY)
            rc = 1;
        for (int i = 0; i < 1500 && !rc; i++)
        {
            ph_vec3 d = test_rand_vec3(&s, -1.0f, 1.0f);
            // Include axis-aligned and tiny directions, where sign selection and normalisation are tested.
            if (i % 7 == 0)
                d.raw[i % 3] = 0.0f;
            if (i % 11 == 0)
                d = glms_vec3_scale(d, 1e-8f);
            rc = check_support(&shapes[k], samples, n, d);
        }
        // Axis directions exactly.
        for (int a = 0; a < 6 && !rc; a++)
        {
            ph_vec3 d = glms_vec3_zero();
            d.raw[a % 3] = a < 3 ? 1.0f : -1.0f;
            rc = check_support(&shapes[k], samples, n, d);
        }
    }
    free(samples);
    ph_hull_free(hull);
    ENSURE(rc == 0);
    return 0;
}

// A zero direction has every surface point as a valid answer: the result must still lie on the surface
// and be finite.
static int shape_support_zero_direction(void)
{
    ph_convex shapes[] = {ph_convex_sphere(0.8f), ph_convex_capsule(1.2f, 0.3f),
                          ph_convex_box(ph_v3(0.5f, 2.0f, 0.1f)),
                          ph_convex_triangle(ph_v3(0, 0, 0), ph_v3(1, 0, 0), ph_v3(0, 1, 0))};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
    {
        ph_vec3 p = ph_convex_support(&shapes[k], glms_vec3_zero());
        ENSURE(ph_is_finite_vec3(p));
        ENSURE_NEAR(brute_signed_distance(&shapes[k], p), 0.0, 1e-6);
    }
    ph_vec3 p = ph_convex_support(&shapes[0], glms_vec3_zero());
    ENSURE_NEAR(glms_vec3_norm(p), 0.8f, 1e-6f);
    return 0;
}

static int shape_constructors(void)
{
    ph_convex c = ph_convex_capsule(1.5f, 0.25f);
    ENSURE(c.type == PH_SHAPE_CAPSULE && c.half_height == 1.5f && c.radius == 0.25f && c.hull == NULL);
    ph_convex b = ph_convex_box(ph_v3(1, 2, 3));
    ENSURE(b.type == PH_SHAPE_BOX && b.half_extents.y == 2.0f && b.radius == 0.0f);
    ph_convex s = ph_convex_sphere(4.0f);
    ENSURE(s.type == PH_SHAPE_SPHERE && s.radius == 4.0f);
    ph_convex t = ph_convex_triangle(ph_v3(1, 0, 0), ph_v3(0, 1, 0), ph_v3(0, 0, 1));
    ENSURE(t.type == PH_SHAPE_TRIANGLE && t.tri[2].z == 1.0f);
    ph_convex h = ph_convex_hull(NULL);
    ENSURE(h.type == PH_SHAPE_HULL);
    // A hull shape without a hull answers the origin instead of crashing.
    ENSURE_VEC3_NEAR(ph_convex_support(&h, ph_v3(1, 0, 0)), glms_vec3_zero(), 0.0f);
    return 0;
}

// World bounds contain every transformed surface sample and touch the extreme ones: each face of the
// box is within the sampling error of a sample (exact for boxes, hulls and triangles, whose extremes
// are sampled corners).
static int shape_bounds_contain_and_touch(void)
{
    uint64_t s = test_seed();
    ph_vec3 *samples = malloc(sizeof(ph_vec3) * SAMPLE_CAPACITY);
    ENSURE(samples != NULL);
    ph_hull *hull = random_hull(&s, 60);
    ENSURE(hull != NULL);
    ph_convex shapes[] = {
        ph_convex_sphere(0.8f),
        ph_convex_capsule(1.2f, 0.3f),
        ph_convex_box(ph_v3(0.5f, 2.0f, 0.1f)),
        ph_convex_hull(hull),
        ph_convex_triangle(ph_v3(0.0f, 0.0f, 0.0f), ph_v3(2.0f, 0.5f, 0.0f), ph_v3(-1.0f, 1.0f, 3.0f)),
    };
    int rc = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0] && !rc; k++)
    {
        int n = brute_surface_samples(&shapes[k], SAMPLE_RESOLUTION, samples, SAMPLE_CAPACITY);
        bool curved = shapes[k].type == PH_SHAPE_SPHERE || shapes[k].type == PH_SHAPE_CAPSULE;
        // A latitude-longitude grid misses the extreme of a rotated curved surface by up to
        // R (1 - cos(pi / res)) per angle, twice for both angles.
        float sampling =
            curved ? 2.0f * shape_size(&shapes[k]) * (1.0f - cosf(GLM_PIf / SAMPLE_RESOLUTION)) : 0.0f;
        for (int trial = 0; trial < 50 && !rc; trial++)
        {
            ph_transform xf;
            xf.p = test_rand_vec3(&s, -10.0f, 10.0f);
            xf.q = test_rand_quat(&s);
            ph_aabb b = ph_convex_bounds(&shapes[k], xf);
            ph_vec3 lo = ph_v3(INFINITY, INFINITY, INFINITY), hi = ph_v3(-INFINITY, -INFINITY, -INFINITY);
            for (int i = 0; i < n; i++)
            {
                ph_vec3 w = ph_transform_point(xf, samples[i]);
                lo = glms_vec3_minv(lo, w);
                hi = glms_vec3_maxv(hi, w);
            }
            float tol = 1e-5f * (10.0f + shape_size(&shapes[k]));
            for (int a = 0; a < 3; a++)
            {
                if (!(b.lo.raw[a] <= lo.raw[a] + tol && b.hi.raw[a] >= hi.raw[a] - tol &&
                      b.lo.raw[a] >= lo.raw[a] - sampling - tol && b.hi.raw[a] <= hi.raw[a] + sampling + tol))
                {
                    fprintf(stderr, "shape %zu axis %d: bounds [%g, %g], samples [%g, %g], sampling %g\n", k,
                            a, (double)b.lo.raw[a], (double)b.hi.raw[a], (double)lo.raw[a], (double)hi.raw[a],
                            (double)sampling);
                    rc = 1;
                }
            }
        }
    }
    free(samples);
    ph_hull_free(hull);
    ENSURE(rc == 0);
    return 0;
}

// A box's world bounds are its centre -/+ |R| h with R = glms_quat_mat3(q), bit for bit (ph_convex_bounds
// writes the matrix out on registers instead of building it), for random boxes, poses and quaternions a
// little off unit length, as integration leaves them.
static int shape_box_bounds_are_rotated_extents(void)
{
    uint64_t rng = test_seed();
    int mismatches = 0;
    for (int i = 0; i < 1000; i++)
    {
        ph_convex box = ph_convex_box(test_rand_vec3(&rng, 0.01f, 10.0f));
        ph_transform xf;
        xf.p = test_rand_vec3(&rng, -100.0f, 100.0f);
        xf.q = test_rand_quat(&rng);
        float len = test_rand_float(&rng, 0.999f, 1.001f);
        xf.q = (ph_quat){.raw = {xf.q.x * len, xf.q.y * len, xf.q.z * len, xf.q.w * len}};
        ph_mat3 r = glms_quat_mat3(xf.q);
        ph_vec3 h = box.half_extents, e;
        for (int k = 0; k < 3; k++)
            e.raw[k] =
                fabsf(r.col[0].raw[k]) * h.x + fabsf(r.col[1].raw[k]) * h.y + fabsf(r.col[2].raw[k]) * h.z;
        ph_aabb expect = {glms_vec3_sub(xf.p, e), glms_vec3_add(xf.p, e)};
        ph_aabb got = ph_convex_bounds(&box, xf);
        if (memcmp(&expect, &got, sizeof got) != 0 && mismatches++ < 3)
            fprintf(stderr,
                    "case %d: lo (%.9g %.9g %.9g) hi (%.9g %.9g %.9g), expected (%.9g %.9g %.9g) (%.9g %.9g "
                    "%.9g)\n",
                    i, (double)got.lo.x, (double)got.lo.y, (double)got.lo.z, (double)got.hi.x,
                    (double)got.hi.y, (double)got.hi.z, (double)expect.lo.x, (double)expect.lo.y,
                    (double)expect.lo.z, (double)expect.hi.x, (double)expect.hi.y, (double)expect.hi.z);
    }
    ENSURE(mismatches == 0);
    return 0;
}

const test_case test_shape_cases[] = {
    {"shape_box_bounds_are_rotated_extents", shape_box_bounds_are_rotated_extents},
    {"shape_support_matches_brute_force", shape_support_matches_brute_force},
    {"shape_support_zero_direction", shape_support_zero_direction},
    {"shape_constructors", shape_constructors},
    {"shape_bounds_contain_and_touch", shape_bounds_contain_and_touch},
    {0},
};
