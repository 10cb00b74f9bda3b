// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Ray casts (raycast.c): analytic hits on every shape under transforms (distance, point and normal),
// misses, the distance limit, starts inside, input validation, and random rays against two brute-force
// references: the first root of the shape's signed distance along the ray (found in double by
// golden-section search and bisection), and for hulls the same hull's triangles.
#include "reference/brute_support.h"
#include "test.h"

#include "phys/collision.h"

#include <string.h> // memset

// Relative tolerance of analytic hits: float rounding of transforms at coordinates ~10.
#define HIT_TOL 1e-5f

static ph_transform random_xf(uint64_t *s)
{
    ph_transform xf;
    xf.p = test_rand_vec3(s, -10.0f, 10.0f);
    xf.q = test_rand_quat(s);
    return xf;
}

// Casts the local ray (o, d) after moving it by xf, and checks the hit against the local expectation.
static int expect_hit(const ph_convex *shape, ph_transform xf, ph_vec3 o, ph_vec3 d, float max_distance,
                      float t, ph_vec3 local_normal)
{
    ph_vec3 wo = ph_transform_point(xf, o), wd = glms_quat_rotatev(xf.q, d);
    ph_ray_hit hit;
    ENSURE(ph_ray_cast_convex(shape, xf, wo, wd, max_distance, &hit));
    float scale = 1.0f + fabsf(t) + glms_vec3_norm(xf.p);
    ENSURE_NEAR(hit.distance, t, HIT_TOL * scale);
    ENSURE_VEC3_NEAR(hit.point, ph_transform_point(xf, glms_vec3_add(o, glms_vec3_scale(d, t))),
                     HIT_TOL * scale);
    // Curved normals come from the hit position, rounded at the scale of the coordinates.
    ENSURE_VEC3_NEAR(hit.normal, glms_quat_rotatev(xf.q, local_normal), HIT_TOL * scale);
    return 0;
}

static int expect_miss(const ph_convex *shape, ph_transform xf, ph_vec3 o, ph_vec3 d, float max_distance)
{
    ph_ray_hit hit;
    ENSURE(!ph_ray_cast_convex(shape, xf, ph_transform_point(xf, o), glms_quat_rotatev(xf.q, d), max_distance,
                               &hit));
    return 0;
}

static ph_hull *box_hull(ph_vec3 h)
{
    ph_vec3 corners[8];
    for (int i = 0; i < 8; i++)
        corners[i] = ph_v3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
    ph_hull_def def = ph_default_hull_def();
    def.points = corners;
    def.point_count = 8;
    return ph_hull_build(&def, NULL);
}

static int raycast_analytic_hits(void)
{
    uint64_t s = test_seed();
    ph_vec3 h = ph_v3(1.0f, 2.0f, 3.0f);
    ph_hull *hull = box_hull(h);
    ENSURE(hull != NULL);
    ph_convex sphere = ph_convex_sphere(2.0f), box = ph_convex_box(h), hbox = ph_convex_hull(hull);
    ph_convex capsule = ph_convex_capsule(1.0f, 0.5f);
    ph_convex tri = ph_convex_triangle(ph_v3(0, 0, 0), ph_v3(2, 0, 0), ph_v3(0, 2, 0));
    int rc = 0;
    for (int trial = 0; trial < 20 && !rc; trial++)
    {
        ph_transform xf = trial == 0 ? ph_transform_identity() : random_xf(&s);
        // Sphere: from 10 m away along x, the surface is 8 m off.
        rc |=
            expect_hit(&sphere, xf, ph_v3(-10.0f, 0.0f, 0.0f), ph_v3(1, 0, 0), 100.0f, 8.0f, ph_v3(-1, 0, 0));
        // Off-centre: x^2 + 1.2^2 = 4 gives x = -1.6.
        rc |= expect_hit(&sphere, xf, ph_v3(-10.0f, 1.2f, 0.0f), ph_v3(1, 0, 0), 100.0f, 8.4f,
                         ph_v3(-0.8f, 0.6f, 0.0f));
        // Box and its hull: the -y face from below, the +z face from above.
        for (int k = 0; k < 2; k++)
        {
            const ph_convex *b = k == 0 ? &box : &hbox;
            rc |= expect_hit(b, xf, ph_v3(0.5f, -10.0f, 0.7f), ph_v3(0, 1, 0), 100.0f, 8.0f, ph_v3(0, -1, 0));
            rc |= expect_hit(b, xf, ph_v3(-0.9f, 1.9f, 7.0f), ph_v3(0, 0, -1), 100.0f, 4.0f, ph_v3(0, 0, 1));
            // Diagonal entry through the +x face: from (4, 0, 0) towards (-1, 0.5, 0) normalised.
            ph_vec3 d = glms_vec3_normalize(ph_v3(-1.0f, 0.5f, 0.0f));
            rc |= expect_hit(b, xf, ph_v3(4.0f, 0.0f, 0.0f), d, 100.0f, 3.0f * sqrtf(1.25f), ph_v3(1, 0, 0));
        }
        // Capsule: the side, the top cap on the axis, and the top cap off the axis.
        rc |=
            expect_hit(&capsule, xf, ph_v3(-5.0f, 0.3f, 0.0f), ph_v3(1, 0, 0), 100.0f, 4.5f, ph_v3(-1, 0, 0));
        rc |=
            expect_hit(&capsule, xf, ph_v3(0.0f, 10.0f, 0.0f), ph_v3(0, -1, 0), 100.0f, 8.5f, ph_v3(0, 1, 0));
        rc |= expect_hit(&capsule, xf, ph_v3(0.3f, 10.0f, 0.0f), ph_v3(0, -1, 0), 100.0f, 8.6f,
                         ph_v3(0.6f, 0.8f, 0.0f));
        // Triangle from both sides: the normal faces the ray.
        rc |= expect_hit(&tri, xf, ph_v3(0.5f, 0.5f, 5.0f), ph_v3(0, 0, -1), 100.0f, 5.0f, ph_v3(0, 0, 1));
        rc |= expect_hit(&tri, xf, ph_v3(0.5f, 0.5f, -5.0f), ph_v3(0, 0, 1), 100.0f, 5.0f, ph_v3(0, 0, -1));
    }
    ph_hull_free(hull);
    ENSURE(rc == 0);
    return 0;
}

static int raycast_misses_and_limits(void)
{
    ph_hull *hull = box_hull(ph_v3(1, 1, 1));
    ENSURE(hull != NULL);
    // Each reaches x = -1 on the axis and stays inside |y| <= 1.2, |z| <= 1.
    ph_convex shapes[] = {ph_convex_sphere(1.0f), ph_convex_box(ph_v3(1, 1, 1)), ph_convex_hull(hull),
                          ph_convex_capsule(0.2f, 1.0f)};
    ph_transform xf = ph_transform_identity();
    int rc = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
    {
        // Pointing away, passing beside, parallel to a face outside it, and stopping short.
        rc |= expect_miss(&shapes[k], xf, ph_v3(-5, 0, 0), ph_v3(-1, 0, 0), 100.0f);
        rc |= expect_miss(&shapes[k], xf, ph_v3(-5, 1.5f, 0), ph_v3(1, 0, 0), 100.0f);
        rc |= expect_miss(&shapes[k], xf, ph_v3(-5, 0, 1.01f), ph_v3(1, 0, 0), 100.0f);
        rc |= expect_miss(&shapes[k], xf, ph_v3(-5, 0, 0), ph_v3(1, 0, 0), 3.9f);
        // Exactly reaching the surface hits.
        ph_ray_hit hit;
        ENSURE(ph_ray_cast_convex(&shapes[k], xf, ph_v3(-5, 0, 0), ph_v3(1, 0, 0), 4.0f, &hit));
        ENSURE_NEAR(hit.distance, 4.0f, 1e-6f);
    }
    ph_convex tri = ph_convex_triangle(ph_v3(0, 0, 0), ph_v3(2, 0, 0), ph_v3(0, 2, 0));
    rc |= expect_miss(&tri, xf, ph_v3(1.5f, 1.5f, 5.0f), ph_v3(0, 0, -1), 100.0f); // outside u + v <= 1
    rc |= expect_miss(&tri, xf, ph_v3(0.5f, 0.5f, 1.0f), ph_v3(1, 0, 0), 100.0f);  // parallel to the plane
    rc |= expect_miss(&tri, xf, ph_v3(0.5f, 0.5f, 5.0f), ph_v3(0, 0, 1), 100.0f);  // pointing away
    ph_hull_free(hull);
    ENSURE(rc == 0);
    return 0;
}

static int raycast_inside_start(void)
{
    uint64_t s = test_seed();
    ph_hull *hull = box_hull(ph_v3(1, 2, 0.5f));
    ENSURE(hull != NULL);
    ph_convex shapes[] = {ph_convex_sphere(1.0f), ph_convex_box(ph_v3(1, 2, 0.5f)), ph_convex_hull(hull),
                          ph_convex_capsule(0.5f, 0.5f)};
    for (int trial = 0; trial < 200; trial++)
    {
        ph_transform xf = random_xf(&s);
        const ph_convex *shape = &shapes[trial % 4];
        ph_vec3 local = test_rand_vec3(&s, -0.3f, 0.3f);
        ph_vec3 origin = ph_transform_point(xf, local);
        ph_vec3 dir = glms_vec3_normalize(test_rand_vec3(&s, -1.0f, 1.0f));
        ph_ray_hit hit;
        ENSURE(ph_ray_cast_convex(shape, xf, origin, dir, 10.0f, &hit));
        ENSURE(hit.distance == 0.0f);
        ENSURE_VEC3_NEAR(hit.point, origin, 0.0f);
        ENSURE_VEC3_NEAR(hit.normal, glms_vec3_negate(dir), 0.0f);
    }
    ph_hull_free(hull);
    return 0;
}

static int raycast_rejects_bad_input(void)
{
    ph_convex sphere = ph_convex_sphere(1.0f);
    ph_transform xf = ph_transform_identity();
    ph_ray_hit hit;
    ENSURE(!ph_ray_cast_convex(&sphere, xf, ph_v3(NAN, 0, 0), ph_v3(1, 0, 0), 10.0f, &hit));
    ENSURE(!ph_ray_cast_convex(&sphere, xf, ph_v3(-5, 0, 0), ph_v3(0, 0, 0), 10.0f, &hit));
    ENSURE(!ph_ray_cast_convex(&sphere, xf, ph_v3(-5, 0, 0), ph_v3(INFINITY, 0, 0), 10.0f, &hit));
    ENSURE(!ph_ray_cast_convex(&sphere, xf, ph_v3(-5, 0, 0), ph_v3(1, 0, 0), -1.0f, &hit));
    ENSURE(!ph_ray_cast_convex(&sphere, xf, ph_v3(-5, 0, 0), ph_v3(1, 0, 0), NAN, &hit));
    ENSURE(!ph_ray_cast_convex(NULL, xf, ph_v3(-5, 0, 0), ph_v3(1, 0, 0), 10.0f, &hit));
    ENSURE(!ph_ray_cast_convex(&sphere, xf, ph_v3(-5, 0, 0), ph_v3(1, 0, 0), 10.0f, NULL));
    xf.q.w = NAN;
    ENSURE(!ph_ray_cast_convex(&sphere, xf, ph_v3(-5, 0, 0), ph_v3(1, 0, 0), 10.0f, &hit));
    // A direction of any length is accepted; distances are along the unit direction.
    xf = ph_transform_identity();
    ENSURE(ph_ray_cast_convex(&sphere, xf, ph_v3(-5, 0, 0), ph_v3(3, 0, 0), 10.0f, &hit));
    ENSURE_NEAR(hit.distance, 4.0f, 1e-6f);
    return 0;
}

// The first t in [0, max_t] where the signed distance of o + t d is <= 0, in double, or -1 when there
// is none. The signed distance of a convex solid is convex along a line, so golden-section search finds
// its minimum and bisection the root before it. *out_min is the smallest distance found (to skip rays
// that graze the surface, where both answers are legitimately fragile).
static double brute_first_root(const ph_convex *shape, ph_vec3 o, ph_vec3 d, double max_t, double *out_min)
{
#define AT(t)                                                                                                \
    ph_v3((float)((double)o.x + (t) * (double)d.x), (float)((double)o.y + (t) * (double)d.y),                \
          (float)((double)o.z + (t) * (double)d.z))
    if (brute_signed_distance(shape, o) <= 0.0)
    {
        *out_min = 0.0;
        return 0.0;
    }
    const double golden = 0.6180339887498949;
    double a = 0.0, b = max_t;
    for (int i = 0; i < 200; i++)
    {
        double c = b - golden * (b - a), e = a + golden * (b - a);
        if (brute_signed_distance(shape, AT(c)) < brute_signed_distance(shape, AT(e)))
            b = e;
        else
            a = c;
    }
    double t_min = 0.5 * (a + b);
    *out_min = brute_signed_distance(shape, AT(t_min));
    if (brute_signed_distance(shape, AT(max_t)) <= 0.0 && *out_min > 0.0)
    {
        t_min = max_t;
        *out_min = brute_signed_distance(shape, AT(max_t));
    }
    if (*out_min > 0.0)
        return -1.0;
    double lo = 0.0, hi = t_min;
    for (int i = 0; i < 200; i++)
    {
        double mid = 0.5 * (lo + hi);
        if (brute_signed_distance(shape, AT(mid)) > 0.0)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
#undef AT
}

static int raycast_random_rays_match_brute_force(void)
{
    uint64_t s = test_seed();
    ph_vec3 pts[40];
    for (int i = 0; i < 40; i++)
        pts[i] = glms_vec3_mul(test_rand_vec3(&s, -1.0f, 1.0f), ph_v3(1.0f, 0.6f, 1.4f));
    ph_hull_def def = ph_default_hull_def();
    def.points = pts;
    def.point_count = 40;
    ph_hull *hull = ph_hull_build(&def, NULL);
    ENSURE(hull != NULL);
    ph_convex shapes[] = {ph_convex_sphere(1.3f), ph_convex_capsule(0.8f, 0.4f),
                          ph_convex_box(ph_v3(0.4f, 1.1f, 0.7f)), ph_convex_hull(hull)};
    int compared = 0, skipped = 0;
    for (int trial = 0; trial < 8000; trial++)
    {
        const ph_convex *shape = &shapes[trial % 4];
        ph_transform xf = random_xf(&s);
        // Local rays from a shell around the shape towards a random point near it.
        ph_vec3 o = glms_vec3_scale(glms_vec3_normalize(test_rand_vec3(&s, -1.0f, 1.0f)),
                                    test_rand_float(&s, 0.5f, 4.0f));
        ph_vec3 target = test_rand_vec3(&s, -1.5f, 1.5f);
        ph_vec3 d = ph_safe_normalize(glms_vec3_sub(target, o), ph_v3(1, 0, 0));
        float max_t = test_rand_float(&s, 1.0f, 8.0f);
        double min_dist;
        double t_ref = brute_first_root(shape, o, d, (double)max_t, &min_dist);
        // Rays passing within 1e-4 of the surface, or ending within 1e-4 of it, are ambiguous in float.
        if (fabs(min_dist) < 1e-4 ||
            fabs(brute_signed_distance(shape, glms_vec3_add(o, glms_vec3_scale(d, max_t)))) < 1e-4)
        {
            skipped++;
            continue;
        }
        compared++;
        ph_ray_hit hit;
        bool got =
            ph_ray_cast_convex(shape, xf, ph_transform_point(xf, o), glms_quat_rotatev(xf.q, d), max_t, &hit);
        if (got != (t_ref >= 0.0))
        {
            fprintf(stderr, "trial %d shape %d: cast %d, brute root %g (closest %g)\n", trial, shape->type,
                    got, t_ref, min_dist);
        }
        ENSURE(got == (t_ref >= 0.0));
        if (!got)
            continue;
        // Float rounding of the moved ray (coordinates up to ~20) shifts the hit along the ray by that
        // rounding over the cosine of incidence.
        float incidence = fabsf(glms_vec3_dot(hit.normal, glms_quat_rotatev(xf.q, d)));
        double tol = 2e-6 * (1.0 + t_ref + (double)glms_vec3_norm(xf.p)) / fmax((double)incidence, 1e-2);
        if (hit.distance > 0.0f && !(fabs((double)hit.distance - t_ref) <= tol))
            fprintf(stderr, "trial %d shape %d: incidence cosine %g\n", trial, shape->type,
                    (double)incidence);
        ENSURE_NEAR(hit.distance, t_ref, tol);
        // The hit point is on the surface (or the start, inside), the normal unit and facing the ray.
        ph_vec3 local = ph_inv_transform_point(xf, hit.point);
        if (hit.distance > 0.0f)
            ENSURE_NEAR(brute_signed_distance(shape, local), 0.0, 3e-5);
        ENSURE_NEAR(glms_vec3_norm(hit.normal), 1.0f, 1e-5f);
        ENSURE(glms_vec3_dot(hit.normal, glms_quat_rotatev(xf.q, d)) <= 1e-6f);
    }
    printf("random rays: %d compared, %d grazing skipped\n", compared, skipped);
    ENSURE(compared > 7000);
    ph_hull_free(hull);
    return 0;
}

// A hull cast equals the nearest hit among its own faces' triangles, for rays starting outside.
static int raycast_hull_matches_its_triangles(void)
{
    uint64_t s = test_seed();
    int tris[3 * 2 * PH_HULL_MAX_VERTICES * 3];
    for (int trial = 0; trial < 20; trial++)
    {
        ph_vec3 pts[100];
        for (int i = 0; i < 100; i++)
            pts[i] = glms_vec3_mul(test_rand_vec3(&s, -1.0f, 1.0f), test_rand_vec3(&s, 0.3f, 2.0f));
        ph_hull_def def = ph_default_hull_def();
        def.points = pts;
        def.point_count = 100;
        ph_hull *hull = ph_hull_build(&def, NULL);
        ENSURE(hull != NULL);
        int n = brute_hull_triangles(hull, tris, (int)(sizeof tris / sizeof tris[0]));
        ENSURE(3 * n <= (int)(sizeof tris / sizeof tris[0]));
        ph_convex shape = ph_convex_hull(hull);
        for (int k = 0; k < 500; k++)
        {
            ph_transform xf = random_xf(&s);
            ph_vec3 o = glms_vec3_scale(glms_vec3_normalize(test_rand_vec3(&s, -1.0f, 1.0f)), 5.0f);
            ph_vec3 d = glms_vec3_normalize(glms_vec3_sub(test_rand_vec3(&s, -1.0f, 1.0f), o));
            ph_vec3 wo = ph_transform_point(xf, o), wd = glms_quat_rotatev(xf.q, d);
            ph_ray_hit hit, best;
            memset(&best, 0, sizeof best);
            best.distance = INFINITY;
            bool any = false;
            for (int t = 0; t < n; t++)
            {
                ph_convex tri =
                    ph_convex_triangle(hull->vertices[tris[3 * t]], hull->vertices[tris[3 * t + 1]],
                                       hull->vertices[tris[3 * t + 2]]);
                if (ph_ray_cast_convex(&tri, xf, wo, wd, 20.0f, &hit) && hit.distance < best.distance)
                {
                    best = hit;
                    any = true;
                }
            }
            bool got = ph_ray_cast_convex(&shape, xf, wo, wd, 20.0f, &hit);
            // Rays through a triangle's edge or corner may slip between two triangles in float; those
            // are found by the hull and accepted when the hull's hit point lies on its surface.
            if (got && !any)
            {
                ENSURE_NEAR(brute_signed_distance(&shape, ph_inv_transform_point(xf, hit.point)), 0.0, 1e-5);
                continue;
            }
            ENSURE(got == any);
            if (!got)
                continue;
            ENSURE_NEAR(hit.distance, best.distance, 2e-5f * (1.0f + best.distance));
            ENSURE_VEC3_NEAR(hit.point, best.point, 1e-4f);
            // The normal is that of a face whose plane holds the hit point (on an edge either face's).
            ph_vec3 ln = glms_quat_rotatev(glms_quat_conjugate(xf.q), hit.normal);
            ph_vec3 lp = ph_inv_transform_point(xf, hit.point);
            bool on_face = false;
            for (int f = 0; f < hull->face_count && !on_face; f++)
            {
                on_face = glms_vec3_dot(ln, hull->faces[f].normal) > 0.99999f &&
                          fabsf(glms_vec3_dot(hull->faces[f].normal, lp) - hull->faces[f].offset) < 1e-4f;
            }
            ENSURE(on_face);
        }
        ph_hull_free(hull);
    }
    return 0;
}

const test_case test_raycast_cases[] = {
    {"raycast_analytic_hits", raycast_analytic_hits},
    {"raycast_misses_and_limits", raycast_misses_and_limits},
    {"raycast_inside_start", raycast_inside_start},
    {"raycast_rejects_bad_input", raycast_rejects_bad_input},
    {"raycast_random_rays_match_brute_force", raycast_random_rays_match_brute_force},
    {"raycast_hull_matches_its_triangles", raycast_hull_matches_its_triangles},
    {0},
};
