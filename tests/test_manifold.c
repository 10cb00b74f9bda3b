// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Contact manifolds: resting boxes (4 points, right depths), the 45-degree octagon reduced to 4, feature
// ids stable under tiny motion, speculative points within the margin, triangles, spheres and capsules,
// every pair of convex types through the dispatch table, and the SAT normal against the reference.
#include "reference/geometry_fixtures.h"
#include "reference/sat_reference.h"
#include "test.h"

#include "phys/collision.h"

#include <string.h> // memset

static void print_manifold(const char *label, const ph_manifold *m)
{
    printf("  %s: %d points, normal (%.6f %.6f %.6f)\n", label, m->point_count, (double)m->normal.x,
           (double)m->normal.y, (double)m->normal.z);
    for (int i = 0; i < m->point_count; i++)
    {
        printf("    (%.6g %.6g %.6g) separation %.6g id %08x\n", (double)m->points[i].point.x,
               (double)m->points[i].point.y, (double)m->points[i].point.z, (double)m->points[i].separation,
               m->points[i].id);
    }
}

// A box resting on a bigger box, sunk by depth: 4 points at B's bottom corners, each at -depth.
static int manifold_box_on_box(void)
{
    uint64_t rng = test_seed();
    for (int k = 0; k < SCALE_COUNT; k++)
    {
        float s = SCALES[k];
        ph_quat q = test_rand_quat(&rng);
        ph_convex ground = ph_convex_box(ph_v3(2.0f * s, 0.5f * s, 2.0f * s));
        ph_convex box = ph_convex_box(ph_v3(0.5f * s, 0.25f * s, 0.3f * s));
        float depth = 0.01f * s;
        ph_vec3 local = ph_v3(0.3f * s, 0.5f * s + 0.25f * s - depth, -0.2f * s);
        ph_transform xa = pose(ph_v3(s, 2.0f * s, -s), q);
        ph_transform xb = pose(ph_transform_point(xa, local), q);
        ph_manifold m;
        ph_collide_convex(&ground, xa, &box, xb, 0.02f * s, NULL, &m);
        print_manifold("box on box", &m);
        ENSURE(m.point_count == 4);
        ENSURE_VEC3_NEAR(m.normal, glms_quat_rotatev(q, ph_v3(0.0f, 1.0f, 0.0f)), REL_TOL);
        for (int i = 0; i < 4; i++)
        {
            ENSURE_NEAR(m.points[i].separation, -depth, REL_TOL * s);
            // The point is midway between the surfaces: half the depth above B's bottom face.
            ph_vec3 pl = ph_inv_transform_point(xa, m.points[i].point);
            ENSURE_NEAR(pl.y, 0.5f * s - 0.5f * depth, REL_TOL * s);
            ENSURE_NEAR(fabsf(pl.x - local.x), 0.5f * s, REL_TOL * s);
            ENSURE_NEAR(fabsf(pl.z - local.z), 0.3f * s, REL_TOL * s);
        }
        // Swapped: the same points, normal reversed.
        ph_manifold r;
        ph_collide_convex(&box, xb, &ground, xa, 0.02f * s, NULL, &r);
        ENSURE(r.point_count == 4);
        ENSURE_VEC3_NEAR(r.normal, glms_vec3_negate(m.normal), REL_TOL);
        for (int i = 0; i < 4; i++)
            ENSURE_NEAR(r.points[i].separation, -depth, REL_TOL * s);
    }
    return 0;
}

// Twice the area of the convex quadrilateral (or triangle) through the points, in the xz-plane.
static float quad_area_xz(const ph_vec3 *p, int n)
{
    // Sort by angle around the centroid, then the shoelace formula.
    ph_vec3 c = glms_vec3_zero();
    for (int i = 0; i < n; i++)
        c = glms_vec3_add(c, glms_vec3_scale(p[i], 1.0f / (float)n));
    ph_vec3 s[4];
    float ang[4];
    for (int i = 0; i < n; i++)
    {
        s[i] = p[i];
        ang[i] = atan2f(p[i].z - c.z, p[i].x - c.x);
    }
    for (int i = 0; i < n; i++)
    {
        for (int j = i + 1; j < n; j++)
        {
            if (ang[j] < ang[i])
            {
                float ta = ang[i];
                ang[i] = ang[j];
                ang[j] = ta;
                ph_vec3 tv = s[i];
                s[i] = s[j];
                s[j] = tv;
            }
        }
    }
    float a = 0.0f;
    for (int i = 0; i < n; i++)
        a += s[i].x * s[(i + 1) % n].z - s[(i + 1) % n].x * s[i].z;
    return fabsf(a);
}

// A unit box turned 45 degrees on an equal box: the overlap of the two squares is an octagon whose 8
// corners all touch; the reduction keeps 4 of them spanning nearly the largest area possible.
static int manifold_rotated_octagon(void)
{
    ph_convex box = ph_convex_box(ph_v3(1.0f, 1.0f, 1.0f));
    float depth = 0.02f;
    ph_transform xa = pose(glms_vec3_zero(), glms_quat_identity());
    ph_transform xb = pose(ph_v3(0.0f, 2.0f - depth, 0.0f), glms_quatv(GLM_PI_4f, ph_v3(0.0f, 1.0f, 0.0f)));
    ph_manifold m;
    ph_collide_convex(&box, xa, &box, xb, 0.01f, NULL, &m);
    print_manifold("45 degrees", &m);
    ENSURE(m.point_count == 4);
    ENSURE_VEC3_NEAR(m.normal, ph_v3(0.0f, 1.0f, 0.0f), 1e-6f);
    // The octagon: the square |x|, |z| <= 1 cut by the diamond |x| + |z| <= sqrt(2).
    float c = sqrtf(2.0f) - 1.0f;
    ph_vec3 oct[8] = {ph_v3(1, 0, c),   ph_v3(c, 0, 1),   ph_v3(-c, 0, 1), ph_v3(-1, 0, c),
                      ph_v3(-1, 0, -c), ph_v3(-c, 0, -1), ph_v3(c, 0, -1), ph_v3(1, 0, -c)};
    float best = 0.0f;
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++)
            for (int k = j + 1; k < 8; k++)
                for (int l = k + 1; l < 8; l++)
                {
                    ph_vec3 q[4] = {oct[i], oct[j], oct[k], oct[l]};
                    best = glm_max(best, quad_area_xz(q, 4));
                }
    ph_vec3 kept[4];
    for (int i = 0; i < 4; i++)
    {
        ENSURE_NEAR(m.points[i].separation, -depth, 1e-5f);
        kept[i] = m.points[i].point;
        // Each kept point is an octagon corner.
        float nearest = 1e9f;
        for (int j = 0; j < 8; j++)
            nearest = glm_min(nearest, hypotf(kept[i].x - oct[j].x, kept[i].z - oct[j].z));
        ENSURE_NEAR(nearest, 0.0f, 1e-5f);
    }
    float area = quad_area_xz(kept, 4);
    printf("  kept area %.6f of the best 4-corner area %.6f\n", (double)area, (double)best);
    ENSURE(area >= 0.9f * best);
    return 0;
}

static int find_id(const ph_manifold *m, uint32_t id)
{
    for (int i = 0; i < m->point_count; i++)
    {
        if (m->points[i].id == id)
            return i;
    }
    return -1;
}

// Tiny motions keep every feature id, and each point moves only a little.
static int manifold_feature_ids_stable(void)
{
    uint64_t rng = test_seed() ^ 0x71ull;
    ph_convex ground = ph_convex_box(ph_v3(3.0f, 0.5f, 3.0f));
    ph_convex box = ph_convex_box(ph_v3(0.5f, 0.5f, 0.5f));
    ph_transform xa = pose(glms_vec3_zero(), glms_quat_identity());
    int checked = 0;
    for (int trial = 0; trial < 50; trial++)
    {
        // Tilted boxes resting on an edge or a face, turned about y.
        ph_quat q = glms_quat_mul(glms_quatv(test_rand_float(&rng, 0.0f, 6.28f), ph_v3(0.0f, 1.0f, 0.0f)),
                                  glms_quatv(test_rand_float(&rng, -0.3f, 0.3f), ph_v3(1.0f, 0.0f, 0.0f)));
        ph_transform xb = pose(ph_v3(0.3f, 0.0f, -0.2f), q);
        ph_aabb bb = ph_convex_bounds(&box, xb);
        xb.p.y = 0.5f - (bb.lo.y - xb.p.y) - 0.005f;
        ph_manifold m0, m1;
        ph_collide_convex(&ground, xa, &box, xb, 0.02f, NULL, &m0);
        ENSURE(m0.point_count >= 2);
        for (int step = 0; step < 5; step++)
        {
            ph_transform moved = xb;
            moved.p = glms_vec3_add(xb.p, test_rand_vec3(&rng, -1e-5f, 1e-5f));
            moved.q = glms_quat_normalize(
                glms_quat_mul(glms_quatv(1e-4f, test_rand_vec3(&rng, -1.0f, 1.0f)), xb.q));
            ph_collide_convex(&ground, xa, &box, moved, 0.02f, NULL, &m1);
            for (int i = 0; i < m0.point_count; i++)
            {
                // Points near the margin may come and go; every other one keeps its id.
                if (m0.points[i].separation > 0.02f - 1e-3f)
                    continue;
                int j = find_id(&m1, m0.points[i].id);
                if (j < 0)
                {
                    print_manifold("before", &m0);
                    print_manifold("after", &m1);
                }
                ENSURE(j >= 0);
                ENSURE(glms_vec3_distance(m0.points[i].point, m1.points[j].point) < 1e-3f);
                checked++;
            }
        }
    }
    printf("  %d point ids matched across tiny motions\n", checked);
    return 0;
}

// Within the margin: points with the gap as separation; beyond it: none. Corner-to-corner: one point at
// the true distance (GJK's), not SAT's lower bound.
static int manifold_speculative(void)
{
    ph_convex box = ph_convex_box(ph_v3(1.0f, 1.0f, 1.0f));
    ph_transform xa = pose(glms_vec3_zero(), glms_quat_identity());
    ph_transform xb = pose(ph_v3(0.2f, 2.03f, 0.1f), glms_quat_identity());
    ph_manifold m;
    ph_collide_convex(&box, xa, &box, xb, 0.05f, NULL, &m);
    ENSURE(m.point_count == 4);
    for (int i = 0; i < 4; i++)
        ENSURE_NEAR(m.points[i].separation, 0.03f, 1e-5f);
    ph_collide_convex(&box, xa, &box, xb, 0.02f, NULL, &m);
    ENSURE(m.point_count == 0);

    ph_vec3 diag = glms_vec3_normalize(ph_v3(1.0f, 1.0f, 1.0f));
    xb.p = glms_vec3_add(ph_v3(2.0f, 2.0f, 2.0f), glms_vec3_scale(diag, 0.04f));
    ph_gjk_cache cache = {0};
    ph_collide_convex(&box, xa, &box, xb, 0.05f, &cache, &m);
    print_manifold("corner to corner", &m);
    ENSURE(m.point_count == 1);
    ENSURE_NEAR(m.points[0].separation, 0.04f, 1e-5f);
    ENSURE_VEC3_NEAR(m.normal, diag, 1e-4f);
    ph_collide_convex(&box, xa, &box, xb, 0.03f, &cache, &m);
    ENSURE(m.point_count == 0);
    return 0;
}

// A box resting on a big triangle (both orders) and a triangle's corner poking into a box.
static int manifold_triangle_box(void)
{
    ph_convex tri =
        ph_convex_triangle(ph_v3(-5.0f, 0.0f, -5.0f), ph_v3(0.0f, 0.0f, 5.0f), ph_v3(5.0f, 0.0f, -5.0f));
    ph_convex box = ph_convex_box(ph_v3(0.5f, 0.5f, 0.5f));
    ph_transform id = pose(glms_vec3_zero(), glms_quat_identity());
    ph_transform xb = pose(ph_v3(0.1f, 0.49f, -0.5f), glms_quatv(0.3f, ph_v3(0.0f, 1.0f, 0.0f)));
    ph_manifold m;
    ph_collide_convex(&tri, id, &box, xb, 0.02f, NULL, &m);
    print_manifold("triangle-box", &m);
    ENSURE(m.point_count == 4);
    ENSURE_VEC3_NEAR(m.normal, ph_v3(0.0f, 1.0f, 0.0f), 1e-5f);
    for (int i = 0; i < 4; i++)
        ENSURE_NEAR(m.points[i].separation, -0.01f, 1e-5f);
    ph_collide_convex(&box, xb, &tri, id, 0.02f, NULL, &m);
    ENSURE(m.point_count == 4);
    ENSURE_VEC3_NEAR(m.normal, ph_v3(0.0f, -1.0f, 0.0f), 1e-5f);

    // The triangle's corner (0, 0, 5) pushed 0.05 into the box's -z face.
    ph_transform xc = pose(ph_v3(0.0f, 0.0f, 5.0f + 0.5f - 0.05f), glms_quat_identity());
    ph_collide_convex(&tri, id, &box, xc, 0.02f, NULL, &m);
    print_manifold("corner into face", &m);
    ENSURE(m.point_count >= 1);
    ENSURE_VEC3_NEAR(m.normal, ph_v3(0.0f, 0.0f, 1.0f), 1e-5f);
    float deepest = 0.0f;
    for (int i = 0; i < m.point_count; i++)
        deepest = glm_min(deepest, m.points[i].separation);
    ENSURE_NEAR(deepest, -0.05f, 1e-5f);
    return 0;
}

// Spheres and capsules: exact separations from the geometry, two points for a capsule lying on a face.
static int manifold_rounded(void)
{
    for (int k = 0; k < SCALE_COUNT; k++)
    {
        float s = SCALES[k];
        ph_convex ball = ph_convex_sphere(0.5f * s), box = ph_convex_box(ph_v3(s, s, s));
        ph_transform xa = pose(ph_v3(0.0f, 0.0f, 0.0f), glms_quat_identity());
        ph_transform xb = pose(ph_v3(0.3f * s, 1.49f * s, 0.2f * s), glms_quat_identity());
        ph_manifold m;
        ph_collide_convex(&box, xa, &ball, xb, 0.02f * s, NULL, &m);
        ENSURE(m.point_count == 1);
        ENSURE_NEAR(m.points[0].separation, -0.01f * s, REL_TOL * s);
        ENSURE_VEC3_NEAR(m.normal, ph_v3(0.0f, 1.0f, 0.0f), REL_TOL);
        ENSURE_VEC3_NEAR(m.points[0].point, ph_v3(0.3f * s, 0.995f * s, 0.2f * s), REL_TOL * s);
        // Sphere centre inside the box.
        xb.p = ph_v3(0.1f * s, 0.8f * s, 0.0f);
        ph_collide_convex(&ball, xb, &box, xa, 0.02f * s, NULL, &m);
        ENSURE(m.point_count == 1);
        ENSURE_NEAR(m.points[0].separation, -0.7f * s, REL_TOL * s);
        ENSURE_VEC3_NEAR(m.normal, ph_v3(0.0f, -1.0f, 0.0f), REL_TOL);

        ph_convex cap = ph_convex_capsule(0.5f * s, 0.2f * s);
        ph_quat lying = glms_quatv(GLM_PI_2f, ph_v3(0.0f, 0.0f, 1.0f));
        ph_transform xc = pose(ph_v3(0.1f * s, s + 0.2f * s - 0.01f * s, 0.3f * s), lying);
        ph_collide_convex(&box, xa, &cap, xc, 0.02f * s, NULL, &m);
        print_manifold("capsule lying on a box", &m);
        ENSURE(m.point_count == 2);
        ENSURE_VEC3_NEAR(m.normal, ph_v3(0.0f, 1.0f, 0.0f), REL_TOL);
        for (int i = 0; i < 2; i++)
            ENSURE_NEAR(m.points[i].separation, -0.01f * s, REL_TOL * s);
        ENSURE_NEAR(fabsf(m.points[0].point.x - m.points[1].point.x), s, REL_TOL * s);
        // Tilted by 30 degrees: one end touches, one point.
        ph_quat tilted = glms_quatv(GLM_PI_2f - 0.5236f, ph_v3(0.0f, 0.0f, 1.0f));
        xc = pose(ph_v3(0.0f, s + 0.2f * s + 0.25f * s - 0.01f * s, 0.0f), tilted);
        ph_collide_convex(&cap, xc, &box, xa, 0.02f * s, NULL, &m);
        ENSURE(m.point_count == 1);
        ENSURE_NEAR(m.points[0].separation, -0.01f * s, 1e-3f * s);
        ENSURE_VEC3_NEAR(m.normal, ph_v3(0.0f, -1.0f, 0.0f), REL_TOL);
        // Two parallel capsules side by side: two points.
        ph_transform xd = pose(ph_v3(0.4f * s - 0.01f * s, 0.2f * s, 0.0f), glms_quat_identity());
        ph_transform xe = pose(ph_v3(0.0f, 0.0f, 0.0f), glms_quat_identity());
        ph_collide_convex(&cap, xe, &cap, xd, 0.02f * s, NULL, &m);
        ENSURE(m.point_count == 2);
        ENSURE_VEC3_NEAR(m.normal, ph_v3(1.0f, 0.0f, 0.0f), REL_TOL);
        for (int i = 0; i < 2; i++)
            ENSURE_NEAR(m.points[i].separation, -0.01f * s, REL_TOL * s);
    }
    return 0;
}

// A sphere against a box has a closed form (manifold.c, collide_sphere_box): random poses around the faces,
// edges and corners, and centres inside, against GJK's distance and EPA's depth; the normal and the point
// agree with the surfaces, the mirrored call gives the reversed normal, and the GJK cache is left alone.
static int manifold_sphere_box_closed_form(void)
{
    uint64_t rng = test_seed() ^ 0x5b0full;
    const float margin = 0.05f;
    for (int trial = 0; trial < 400; trial++)
    {
        ph_convex box = ph_convex_box(test_rand_vec3(&rng, 0.1f, 1.0f));
        ph_convex ball = ph_convex_sphere(test_rand_float(&rng, 0.05f, 0.6f));
        ph_transform xb = pose(test_rand_vec3(&rng, -2.0f, 2.0f), test_rand_quat(&rng));
        // A centre within 0.3 m of the box's surface, inside or out.
        ph_vec3 h = box.half_extents;
        ph_vec3 local = test_rand_vec3(&rng, -1.3f, 1.3f);
        local = ph_v3(local.x * h.x, local.y * h.y, local.z * h.z);
        ph_transform xa = pose(ph_transform_point(xb, local), test_rand_quat(&rng));
        ph_gjk_cache cache;
        memset(&cache, 0, sizeof cache);
        ph_manifold m, r;
        ph_collide_convex(&ball, xa, &box, xb, margin, &cache, &m);
        ph_collide_convex(&box, xb, &ball, xa, margin, &cache, &r);
        ENSURE(cache.simplex.count == 0);
        ENSURE(m.point_count == r.point_count);
        ph_gjk_output g;
        ph_gjk_distance(&ball, xa, &box, xb, NULL, &g);
        float tol = 1e-4f;
        if (g.status != PH_GJK_OVERLAPPING)
        {
            float sep = g.distance;
            ENSURE(m.point_count == (sep <= margin ? 1 : 0));
            if (m.point_count == 0 || fabsf(sep - margin) < tol)
                continue;
            ENSURE_NEAR(m.points[0].separation, sep, tol);
            if (sep > 1e-3f)
                ENSURE_VEC3_NEAR(m.normal, g.normal, 1e-3f);
            ENSURE_VEC3_NEAR(m.points[0].point, glms_vec3_scale(glms_vec3_add(g.point_a, g.point_b), 0.5f),
                             tol);
        }
        else
        {
            ph_epa_output e;
            ph_epa_penetration(&ball, xa, &box, xb, NULL, &e);
            ENSURE(e.status == PH_EPA_OK);
            ENSURE(m.point_count == 1);
            ENSURE_NEAR(m.points[0].separation, -e.depth, tol);
        }
        ENSURE_NEAR(glms_vec3_norm(m.normal), 1.0f, 1e-5f);
        ENSURE_VEC3_NEAR(r.normal, glms_vec3_negate(m.normal), 1e-6f);
        ENSURE_NEAR(r.points[0].separation, m.points[0].separation, 1e-6f);
        // The box's point: the contact point less half the separation along the normal lies on its surface.
        ph_vec3 on_box =
            glms_vec3_sub(m.points[0].point, glms_vec3_scale(m.normal, -0.5f * m.points[0].separation));
        ph_vec3 q = glms_quat_rotatev(glms_quat_conjugate(xb.q), glms_vec3_sub(on_box, xb.p));
        float outside = fmaxf(fmaxf(fabsf(q.x) - h.x, fabsf(q.y) - h.y), fabsf(q.z) - h.z);
        ENSURE_NEAR(outside, 0.0f, tol);
    }
    return 0;
}

// Two boxes within the margin always get a contact, however far their centres (manifold.c skips SAT for boxes
// apart along a face normal by more than the margin, from a bound that must never skip such a pair): random
// boxes and walls (one long box) with the other box placed near a random point of its surface, at distances
// around the margin, against the brute-force distance in double.
static int manifold_box_pairs_near_margin(void)
{
    uint64_t rng = test_seed() ^ 0xb0b0ull;
    const float margin = 0.04f;
    int near = 0, far = 0;
    for (int trial = 0; trial < 2000; trial++)
    {
        bool wall = trial & 1;
        ph_convex a = ph_convex_box(wall ? ph_v3(50.0f, 0.1f, 50.0f) : test_rand_vec3(&rng, 0.1f, 1.0f));
        ph_convex b = ph_convex_box(test_rand_vec3(&rng, 0.05f, 0.8f));
        ph_transform xa =
            pose(test_rand_vec3(&rng, -5.0f, 5.0f), wall ? glms_quat_identity() : test_rand_quat(&rng));
        // A point on A's surface (a random point of the box pushed out to a face), then B beyond it along the
        // outward normal by its own circumradius and a random gap, turned at random.
        ph_vec3 h = a.half_extents, local = test_rand_vec3(&rng, -1.0f, 1.0f);
        local = ph_v3(local.x * h.x, local.y * h.y, local.z * h.z);
        int axis = (int)test_rand_float(&rng, 0.0f, 2.999f);
        float side = test_rand_float(&rng, -1.0f, 1.0f) < 0.0f ? -1.0f : 1.0f;
        local.raw[axis] = side * h.raw[axis];
        ph_vec3 out = glms_vec3_zero();
        out.raw[axis] = side;
        float lift = test_rand_float(&rng, 0.0f, 1.0f) * glms_vec3_norm(b.half_extents) +
                     test_rand_float(&rng, -0.02f, 0.1f);
        ph_vec3 cb = ph_transform_point(xa, glms_vec3_add(local, glms_vec3_scale(out, lift)));
        ph_transform xb = pose(cb, test_rand_quat(&rng));
        sat_reference_result r;
        ENSURE(sat_reference_query(&a, xa, &b, xb, &r));
        if (r.separation <= 0.0)
            continue;
        double dist = sat_reference_distance(&a, xa, &b, xb, NULL, NULL);
        ph_manifold m;
        ph_collide_convex(&a, xa, &b, xb, margin, NULL, &m);
        if (dist <= (double)margin - 1e-4)
        {
            if (m.point_count == 0)
                printf("  trial %d: boxes %.5f m apart, margin %.3f, no contact\n", trial, dist,
                       (double)margin);
            ENSURE(m.point_count >= 1);
            near++;
        }
        else if (dist > (double)margin + 1e-4)
        {
            ENSURE(m.point_count == 0);
            far++;
        }
    }
    printf("  %d pairs within the margin, %d beyond\n", near, far);
    ENSURE(near > 50 && far > 200);
    return 0;
}

// Hulls within the margin always get a contact, and hulls beyond it none, with the pair's GJK cache carried
// from query to query as the narrow phase carries it: GJK stops as soon as it proves a pair apart by more
// than the margin (ph_gjk_run_within), leaving an unfinished simplex in the cache for the next query to start
// from. Random hulls, B placed along a random direction at gaps around the margin (and every other query far
// away), against the brute-force distance in double; a capsule against a hull too (the rounded shapes' query
// stops at the margin plus the radius).
static double segment_distance(const ph_convex *shape, ph_transform xf, ph_vec3 c0, ph_vec3 c1, float t)
{
    ph_vec3 p = glms_vec3_lerp(c0, c1, t);
    double q[3] = {(double)p.x, (double)p.y, (double)p.z};
    return sat_reference_point_distance(q, shape, xf);
}

static int manifold_hull_pairs_near_margin(void)
{
    uint64_t rng = test_seed() ^ 0x4b11ull;
    const float margin = 0.04f;
    int near = 0, far = 0, capsule_near = 0, capsule_far = 0;
    for (int h = 0; h < 40; h++)
    {
        ph_hull *ha = random_hull(&rng, 8 + h % 40, 1.0f, 0.7f, 0.9f),
                *hb = random_hull(&rng, 6 + h % 30, 0.6f, 1.0f, 0.5f);
        ENSURE(ha && hb);
        ph_convex a = ph_convex_hull(ha), b = ph_convex_hull(hb);
        ph_convex cap = ph_convex_capsule(0.4f, 0.25f);
        ph_gjk_cache cache, cap_cache;
        memset(&cache, 0, sizeof cache);
        memset(&cap_cache, 0, sizeof cap_cache);
        ph_transform xa = pose(test_rand_vec3(&rng, -3.0f, 3.0f), test_rand_quat(&rng));
        for (int i = 0; i < 100; i++)
        {
            ph_vec3 u = ph_safe_normalize(test_rand_vec3(&rng, -1.0f, 1.0f), ph_v3(0.0f, 1.0f, 0.0f));
            ph_quat qb = test_rand_quat(&rng);
            // Centre distance along u that leaves about `gap` between the supports along u.
            ph_vec3 ua = glms_quat_rotatev(glms_quat_conjugate(xa.q), u);
            ph_vec3 ub = glms_quat_rotatev(glms_quat_conjugate(qb), glms_vec3_negate(u));
            float reach_a = glms_vec3_dot(ha->vertices[ph_hull_support_index_brute(ha, ua)], ua);
            float reach_b = glms_vec3_dot(hb->vertices[ph_hull_support_index_brute(hb, ub)], ub);
            float gap = i % 2 ? test_rand_float(&rng, 2.0f, 6.0f) : test_rand_float(&rng, -0.005f, 0.045f);
            ph_transform xb = pose(glms_vec3_add(xa.p, glms_vec3_scale(u, reach_a + reach_b + gap)), qb);
            sat_reference_result r;
            ENSURE(sat_reference_query(&a, xa, &b, xb, &r));
            if (r.separation > 0.0)
            {
                double dist = sat_reference_distance(&a, xa, &b, xb, NULL, NULL);
                ph_manifold m;
                ph_collide_convex(&a, xa, &b, xb, margin, &cache, &m);
                if (dist <= (double)margin - 1e-4)
                {
                    if (m.point_count == 0)
                        printf("  hulls %d query %d: %.5f m apart, no contact\n", h, i, dist);
                    ENSURE(m.point_count >= 1);
                    near++;
                }
                else if (dist > (double)margin + 1e-4)
                {
                    ENSURE(m.point_count == 0);
                    far++;
                }
            }
            // The capsule's segment (along its local y) at the same place: distance = segment to hull -
            // radius.
            ph_vec3 axis = glms_quat_rotatev(qb, ph_v3(0.0f, cap.half_height, 0.0f));
            ph_vec3 c0 = glms_vec3_sub(xb.p, axis), c1 = glms_vec3_add(xb.p, axis);
            // The distance to a convex solid is convex along a segment: a ternary search finds its least.
            float lo = 0.0f, hi = 1.0f;
            for (int k = 0; k < 80; k++)
            {
                float t1 = lo + (hi - lo) / 3.0f, t2 = hi - (hi - lo) / 3.0f;
                if (segment_distance(&a, xa, c0, c1, t1) <= segment_distance(&a, xa, c0, c1, t2))
                    hi = t2;
                else
                    lo = t1;
            }
            double best = segment_distance(&a, xa, c0, c1, 0.5f * (lo + hi));
            double cap_dist = best - (double)cap.radius;
            ph_manifold m;
            ph_collide_convex(&a, xa, &cap, xb, margin, &cap_cache, &m);
            if (cap_dist <= (double)margin - 1e-4 && cap_dist > 0.0)
            {
                ENSURE(m.point_count >= 1);
                capsule_near++;
            }
            else if (cap_dist > (double)margin + 1e-4)
            {
                ENSURE(m.point_count == 0);
                capsule_far++;
            }
        }
        ph_hull_free(ha);
        ph_hull_free(hb);
    }
    printf("  hulls: %d pairs within the margin, %d beyond; capsule: %d within, %d beyond\n", near, far,
           capsule_near, capsule_far);
    ENSURE(near > 150 && far > 1500 && capsule_near > 100 && capsule_far > 1500);
    return 0;
}

// Every pair of convex types: a contact with the normal from A towards B when overlapping, none when far.
static int manifold_dispatch_all_pairs(void)
{
    uint64_t rng = test_seed() ^ 0x72ull;
    ph_hull *hull = random_hull(&rng, 20, 0.6f, 1.0f, 1.0f);
    ENSURE(hull);
    ph_convex shapes[5] = {
        ph_convex_sphere(0.5f), ph_convex_capsule(0.3f, 0.3f), ph_convex_box(ph_v3(0.5f, 0.4f, 0.3f)),
        ph_convex_hull(hull),
        ph_convex_triangle(ph_v3(-0.6f, -0.2f, 0.0f), ph_v3(0.6f, -0.1f, 0.1f), ph_v3(0.0f, 0.5f, -0.1f))};
    for (int i = 0; i < 5; i++)
    {
        for (int j = 0; j < 5; j++)
        {
            for (int trial = 0; trial < 20; trial++)
            {
                ph_transform xa = pose(test_rand_vec3(&rng, -1.0f, 1.0f), test_rand_quat(&rng));
                ph_vec3 dir = glms_vec3_normalize(test_rand_vec3(&rng, -1.0f, 1.0f));
                ph_transform xb = pose(glms_vec3_add(xa.p, glms_vec3_scale(dir, 0.3f)), test_rand_quat(&rng));
                ph_manifold m;
                ph_collide_convex(&shapes[i], xa, &shapes[j], xb, 0.01f, NULL, &m);
                ph_gjk_output g;
                ph_gjk_distance(&shapes[i], xa, &shapes[j], xb, NULL, &g);
                if (g.status == PH_GJK_OVERLAPPING)
                {
                    if (m.point_count == 0)
                        printf("  pair %d-%d trial %d: no contact for overlapping shapes\n", i, j, trial);
                    ENSURE(m.point_count >= 1);
                    ENSURE_NEAR(glms_vec3_norm(m.normal), 1.0f, 1e-4f);
                    // Moving B a little along the normal must not increase the overlap: the separation along
                    // the normal of the true geometry grows (checked with EPA's depth).
                    ph_epa_output e0, e1;
                    ph_epa_penetration(&shapes[i], xa, &shapes[j], xb, NULL, &e0);
                    ph_transform moved = xb;
                    moved.p = glms_vec3_add(xb.p, glms_vec3_scale(m.normal, 0.01f));
                    ph_epa_penetration(&shapes[i], xa, &shapes[j], moved, NULL, &e1);
                    if (e0.status == PH_EPA_OK && e1.status == PH_EPA_OK && e1.depth > e0.depth + 1e-4f)
                    {
                        printf("  pair %d-%d: moving B along the normal deepened %g -> %g\n", i, j,
                               (double)e0.depth, (double)e1.depth);
                        return 1;
                    }
                }
                xb.p = glms_vec3_add(xa.p, glms_vec3_scale(dir, 5.0f));
                ph_collide_convex(&shapes[i], xa, &shapes[j], xb, 0.01f, NULL, &m);
                ENSURE(m.point_count == 0);
            }
        }
    }
    ph_hull_free(hull);
    return 0;
}

// The manifold normal of random overlapping polyhedra must be a minimum-depth axis: the reference
// separation along it equals the reference SAT's best (within the feature bias), and the deepest point's
// separation is never shallower than the true penetration along it.
static int manifold_normal_vs_sat(void)
{
    uint64_t rng = test_seed() ^ 0x73ull;
    int tested = 0;
    double worst = 0.0;
    ph_hull *hulls[8];
    for (int h = 0; h < 8; h++)
    {
        hulls[h] = random_hull(&rng, 8 + 4 * h, 1.0f, 1.0f, 1.0f);
        ENSURE(hulls[h]);
    }
    for (int i = 0; i < 20000; i++)
    {
        // Kinds 0, 1: box-box at three scales; 2: box-hull; 3: hull-hull (hulls of unit size).
        int kind = (i / 3) % 4;
        float s = kind >= 2 ? 1.0f : SCALES[i % SCALE_COUNT];
        ph_convex a, b;
        if (kind == 3)
        {
            a = ph_convex_hull(hulls[i % 8]);
            b = ph_convex_hull(hulls[(i / 8) % 8]);
        }
        else
        {
            a = ph_convex_box(test_rand_vec3(&rng, 0.05f * s, s));
            b = kind == 2 ? ph_convex_hull(hulls[i % 8]) : ph_convex_box(test_rand_vec3(&rng, 0.05f * s, s));
        }
        ph_transform xa = pose(test_rand_vec3(&rng, -s, s), test_rand_quat(&rng));
        ph_transform xb = pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -s, s)), test_rand_quat(&rng));
        sat_reference_result sat;
        sat_reference_query(&a, xa, &b, xb, &sat);
        if (sat.separation > -1e-3 * (double)s)
            continue;
        ph_manifold m;
        ph_collide_convex(&a, xa, &b, xb, 0.01f * s, NULL, &m);
        if (m.point_count == 0)
            printf("  pair %d (kind %d): no points, reference separation %.9g\n", i, kind, sat.separation);
        ENSURE(m.point_count >= 1);
        double along = sat_reference_axis_separation(&a, xa, &b, xb, m.normal);
        double err = fabs(along - sat.separation) / (double)s;
        // A resting contact (an overlap under 5e-3 of the smaller size, itself under s) takes a face over an
        // edge pair better by up to 5e-3 of that size (manifold.c, FACE_PREFERENCE); deeper ones the best
        // axis.
        bool resting = sat.separation > -5e-3 * (double)s;
        if (!resting)
            worst = err > worst ? err : worst;
        if (err > (resting ? 5.2e-3 : 2e-4))
        {
            printf("  pair %d (kind %d): separation along the normal %.9g, reference best %.9g\n", i, kind,
                   along, sat.separation);
            print_manifold("manifold", &m);
            return 1;
        }
        float deepest = FLT_MAX;
        for (int p = 0; p < m.point_count; p++)
            deepest = glm_min(deepest, m.points[p].separation);
        ENSURE((double)deepest >= along - 2e-4 * (double)s);
        tested++;
    }
    for (int h = 0; h < 8; h++)
        ph_hull_free(hulls[h]);
    printf(
        "  %d overlapping pairs; worst |reference separation along our normal - best| / size = %.3g (deeper "
        "than the resting contacts' face preference)\n",
        tested, worst);
    ENSURE(tested > 5000);
    return 0;
}

// Random pairs of every convex type with extreme proportions (sheets 1e-4 thick, 1 km slabs, zero-length
// capsules, slivers of triangles), coincident and exactly touching poses: never a NaN, never more than 4
// points, unit normals, and a contact whenever EPA finds a real overlap.
static int manifold_robust_random(void)
{
    uint64_t rng = test_seed() ^ 0x74ull;
    ph_hull *hull = random_hull(&rng, 24, 1.0f, 1.0f, 1.0f);
    ENSURE(hull);
    int contacts = 0;
    for (int i = 0; i < 20000; i++)
    {
        ph_convex shapes[2];
        for (int k = 0; k < 2; k++)
        {
            float big = (test_rand_u64(&rng) % 8 == 0) ? 1000.0f : 1.0f;
            float thin = (test_rand_u64(&rng) % 6 == 0) ? 1e-4f : 1.0f;
            switch (test_rand_u64(&rng) % 5)
            {
            case 0:
                shapes[k] = ph_convex_sphere(test_rand_float(&rng, 0.01f, 1.0f) * big);
                break;
            case 1:
                shapes[k] = ph_convex_capsule(
                    (test_rand_u64(&rng) % 4 == 0) ? 0.0f : test_rand_float(&rng, 0.0f, 1.0f) * big,
                    test_rand_float(&rng, 0.01f, 0.5f));
                break;
            case 2:
                shapes[k] = ph_convex_box(ph_v3(test_rand_float(&rng, 0.01f, 1.0f) * big,
                                                test_rand_float(&rng, 0.01f, 1.0f) * thin,
                                                test_rand_float(&rng, 0.01f, 1.0f) * big));
                break;
            case 3:
                shapes[k] = ph_convex_hull(hull);
                break;
            default:
            {
                ph_vec3 p0 = test_rand_vec3(&rng, -big, big), p1 = test_rand_vec3(&rng, -big, big);
                ph_vec3 p2 = glms_vec3_add(glms_vec3_lerp(p0, p1, test_rand_float(&rng, 0.0f, 1.0f)),
                                           glms_vec3_scale(test_rand_vec3(&rng, -1.0f, 1.0f), thin));
                shapes[k] = ph_convex_triangle(p0, p1, p2);
                break;
            }
            }
        }
        ph_transform xa = pose(test_rand_vec3(&rng, -1.0f, 1.0f), test_rand_quat(&rng));
        ph_transform xb = pose(glms_vec3_add(xa.p, test_rand_vec3(&rng, -1.5f, 1.5f)), test_rand_quat(&rng));
        uint64_t special = test_rand_u64(&rng) % 10;
        if (special == 0)
            xb = xa; // coincident
        else if (special == 1)
            xb.q = xa.q; // aligned
        ph_gjk_cache cache = {0};
        ph_manifold m;
        for (int rep = 0; rep < 2; rep++)
        {
            ph_collide_convex(&shapes[0], xa, &shapes[1], xb, 0.02f, &cache, &m);
            ENSURE(m.point_count >= 0 && m.point_count <= PH_MAX_MANIFOLD_POINTS);
            if (m.point_count > 0)
            {
                ENSURE(ph_is_finite_vec3(m.normal));
                ENSURE_NEAR(glms_vec3_norm(m.normal), 1.0f, 1e-3f);
            }
            for (int p = 0; p < m.point_count; p++)
            {
                ENSURE(ph_is_finite_vec3(m.points[p].point));
                ENSURE(ph_is_finite_float(m.points[p].separation));
                ENSURE(m.points[p].separation <= 0.02f + 1e-4f);
            }
        }
        ph_epa_output e;
        if (ph_epa_penetration(&shapes[0], xa, &shapes[1], xb, NULL, &e) == PH_EPA_OK && e.depth > 1e-3f)
        {
            if (m.point_count == 0)
                printf("  pair %d: types %d-%d overlap by %g but no contact\n", i, (int)shapes[0].type,
                       (int)shapes[1].type, (double)e.depth);
            ENSURE(m.point_count > 0);
            contacts++;
        }
    }
    ph_hull_free(hull);
    printf("  20000 random pairs without a NaN; %d overlapping ones all with contacts\n", contacts);
    return 0;
}

static int manifold_invalid_input(void)
{
    ph_convex box = ph_convex_box(ph_v3(1.0f, 1.0f, 1.0f));
    ph_transform xa = pose(glms_vec3_zero(), glms_quat_identity());
    ph_transform xb = pose(ph_v3(0.0f, 1.9f, 0.0f), glms_quat_identity());
    ph_manifold m;
    ph_collide_convex(&box, xa, &box, xb, -1.0f, NULL, &m);
    ENSURE(m.point_count == 0);
    ph_collide_convex(&box, xa, &box, xb, NAN, NULL, &m);
    ENSURE(m.point_count == 0);
    xb.p.y = INFINITY;
    ph_collide_convex(&box, xa, &box, xb, 0.01f, NULL, &m);
    ENSURE(m.point_count == 0);
    // A collinear triangle is a segment: one point from GJK/EPA where it pierces the box, none when far.
    ph_convex flat = ph_convex_triangle(ph_v3(0, 0, 0), ph_v3(1, 0, 0), ph_v3(2, 0, 0));
    xb.p.y = 0.5f;
    ph_collide_convex(&flat, xa, &box, xb, 0.01f, NULL, &m);
    ENSURE(m.point_count == 1);
    ENSURE(ph_is_finite_vec3(m.normal) && ph_is_finite_float(m.points[0].separation));
    xb.p.y = 5.0f;
    ph_collide_convex(&flat, xa, &box, xb, 0.01f, NULL, &m);
    ENSURE(m.point_count == 0);
    ph_convex compound = box;
    compound.type = PH_SHAPE_COMPOUND;
    ph_collide_convex(&compound, xa, &box, xb, 0.01f, NULL, &m);
    ENSURE(m.point_count == 0);
    ph_collide_convex(&box, xa, &box, xb, 0.01f, NULL, NULL);
    return 0;
}

const test_case test_manifold_cases[] = {
    {"manifold_box_on_box", manifold_box_on_box},
    {"manifold_rotated_octagon", manifold_rotated_octagon},
    {"manifold_feature_ids_stable", manifold_feature_ids_stable},
    {"manifold_speculative", manifold_speculative},
    {"manifold_triangle_box", manifold_triangle_box},
    {"manifold_rounded", manifold_rounded},
    {"manifold_sphere_box_closed_form", manifold_sphere_box_closed_form},
    {"manifold_box_pairs_near_margin", manifold_box_pairs_near_margin},
    {"manifold_hull_pairs_near_margin", manifold_hull_pairs_near_margin},
    {"manifold_dispatch_all_pairs", manifold_dispatch_all_pairs},
    {"manifold_normal_vs_sat", manifold_normal_vs_sat},
    {"manifold_robust_random", manifold_robust_random},
    {"manifold_invalid_input", manifold_invalid_input},
    {0},
};
