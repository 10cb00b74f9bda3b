// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Hull building (hull.c): degenerate clouds, structural invariants on random clouds (containment,
// convex outward faces, Euler's formula, edge pairing, adjacency symmetry), the vertex budget, input
// validation, leak-free freeing, and hill-climbing support against brute force.
#include "assets/obj.h"
#include "test.h"

#include "phys/collision.h"

#include <float.h>  // FLT_MAX
#include <stdlib.h> // malloc, free
#include <string.h> // memcmp

// Largest relative distance qhull's coplanar merging may leave an input point outside a face: hull.c
// merges within 1e-6 of the extent, and qhull keeps points within a few merge distances of a facet as
// coplanar rather than making them vertices.
#define CONTAIN_TOLERANCE 4e-6f
// Merged faces are planar to within a few merge tolerances: qhull merges facets whose centrums lie
// within 1e-6 of the extent of each other's planes, so vertices of a merged face spread a few times
// that about its plane.
#define PLANARITY_TOLERANCE 5e-6f
// Convexity and outwardness are checked to float rounding of the vertices (relative to extent).
#define SHAPE_TOLERANCE 1e-5f

static float cloud_extent(const ph_vec3 *pts, int n)
{
    ph_vec3 lo = pts[0], hi = pts[0];
    for (int i = 1; i < n; i++)
    {
        lo = glms_vec3_minv(lo, pts[i]);
        hi = glms_vec3_maxv(hi, pts[i]);
    }
    ph_vec3 s = glms_vec3_sub(hi, lo);
    return fmaxf(fmaxf(s.x, s.y), s.z);
}

static ph_hull *build(const ph_vec3 *pts, int n, int budget, ph_status *status)
{
    ph_hull_def def = ph_default_hull_def();
    def.points = pts;
    def.point_count = n;
    if (budget > 0)
        def.vertex_budget = budget;
    return ph_hull_build(&def, status);
}

static bool loop_has_edge(const ph_hull *h, int f, int a, int b)
{
    const ph_hull_face *face = &h->faces[f];
    for (int k = 0; k < face->index_count; k++)
    {
        int u = h->face_indices[face->first_index + k];
        int w = h->face_indices[face->first_index + (k + 1) % face->index_count];
        if (u == a && w == b)
            return true;
    }
    return false;
}

// Checks every documented invariant of a hull built from pts. Prints the first violation.
static int check_hull(const ph_hull *h, const ph_vec3 *pts, int n, float contain_tol)
{
    float ext = cloud_extent(pts, n);
    float tol = SHAPE_TOLERANCE * ext;
    ENSURE(h->vertex_count >= 4 && h->face_count >= 4 && h->vertex_count <= PH_HULL_MAX_VERTICES);
    // Euler's formula for a convex polyhedron.
    ENSURE(h->vertex_count - h->edge_count + h->face_count == 2);

    // Every hull vertex is one of the input points.
    for (int v = 0; v < h->vertex_count; v++)
    {
        bool found = false;
        for (int i = 0; i < n && !found; i++)
            found = glms_vec3_eqv(h->vertices[v], pts[i]);
        ENSURE(found);
    }

    // The outer radius: the farthest vertex from the centroid.
    float outer = 0.0f;
    for (int v = 0; v < h->vertex_count; v++)
        outer = fmaxf(outer, glms_vec3_distance(h->vertices[v], h->centroid));
    ENSURE_NEAR(h->outer_radius, outer, 1e-6f * (1.0f + outer));

    int index_total = 0;
    for (int f = 0; f < h->face_count; f++)
    {
        const ph_hull_face *face = &h->faces[f];
        ENSURE(face->index_count >= 3);
        ENSURE(face->first_index == index_total);
        index_total += face->index_count;
        ENSURE_NEAR(glms_vec3_norm(face->normal), 1.0f, 1e-5f);
        // Outward: the centroid is inside, below the plane by at least the inner radius.
        ENSURE(glms_vec3_dot(face->normal, h->centroid) - face->offset <= -h->inner_radius + tol);
        ph_vec3 fc = glms_vec3_zero();
        for (int k = 0; k < face->index_count; k++)
        {
            int v = h->face_indices[face->first_index + k];
            ENSURE(v >= 0 && v < h->vertex_count);
            fc = glms_vec3_add(fc, h->vertices[v]);
            // The face's vertices lie on its plane.
            ENSURE_NEAR(glms_vec3_dot(face->normal, h->vertices[v]), face->offset, PLANARITY_TOLERANCE * ext);
        }
        fc = glms_vec3_scale(fc, 1.0f / (float)face->index_count);
        // Convex and counter-clockwise about the outward normal: every corner turns left, up to a
        // vertex that merging left slightly inside the line of its neighbours (by the planarity
        // tolerance; turn . n / |c - a| is that distance).
        for (int k = 0; k < face->index_count; k++)
        {
            int m = face->index_count;
            ph_vec3 a = h->vertices[h->face_indices[face->first_index + k]];
            ph_vec3 b = h->vertices[h->face_indices[face->first_index + (k + 1) % m]];
            ph_vec3 c = h->vertices[h->face_indices[face->first_index + (k + 2) % m]];
            ph_vec3 turn = glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, b));
            float reflex = glms_vec3_dot(turn, face->normal) / glms_vec3_norm(glms_vec3_sub(c, a));
            ENSURE(reflex > -PLANARITY_TOLERANCE * ext);
            // Each edge's outward side is away from the face centre.
            ph_vec3 side = glms_vec3_cross(glms_vec3_sub(b, a), face->normal);
            ENSURE(glms_vec3_dot(side, glms_vec3_sub(a, fc)) > 0.0f);
        }
        // All hull vertices and all input points lie below every face plane.
        for (int v = 0; v < h->vertex_count; v++)
            ENSURE(glms_vec3_dot(face->normal, h->vertices[v]) <= face->offset + contain_tol * ext + tol);
        for (int i = 0; i < n; i++)
        {
            float d = glms_vec3_dot(face->normal, pts[i]) - face->offset;
            ENSURE(d <= h->max_outside_distance + tol);
        }
    }

    // Edges: unique, each in the loop of f0 as v0 -> v1 and of f1 as v1 -> v0.
    ENSURE(2 * h->edge_count == index_total);
    for (int e = 0; e < h->edge_count; e++)
    {
        const ph_hull_edge *edge = &h->edges[e];
        ENSURE(edge->f0 != edge->f1 && edge->v0 != edge->v1);
        ENSURE(loop_has_edge(h, edge->f0, edge->v0, edge->v1));
        ENSURE(loop_has_edge(h, edge->f1, edge->v1, edge->v0));
        for (int g = e + 1; g < h->edge_count; g++)
        {
            const ph_hull_edge *o = &h->edges[g];
            ENSURE(!((o->v0 == edge->v0 && o->v1 == edge->v1) || (o->v0 == edge->v1 && o->v1 == edge->v0)));
        }
    }

    // Adjacency: symmetric, 2E entries, at least 3 neighbours per corner, no self loops.
    ENSURE(h->adjacency_offsets[0] == 0 && h->adjacency_offsets[h->vertex_count] == 2 * h->edge_count);
    for (int v = 0; v < h->vertex_count; v++)
    {
        ENSURE(h->adjacency_offsets[v + 1] - h->adjacency_offsets[v] >= 3);
        for (int k = h->adjacency_offsets[v]; k < h->adjacency_offsets[v + 1]; k++)
        {
            int w = h->adjacency[k];
            ENSURE(w != v && w >= 0 && w < h->vertex_count);
            bool back = false;
            for (int j = h->adjacency_offsets[w]; j < h->adjacency_offsets[w + 1]; j++)
                back = back || h->adjacency[j] == v;
            ENSURE(back);
        }
    }

    // Bounds are those of the vertices, and the centroid is inside them.
    for (int a = 0; a < 3; a++)
    {
        float lo = h->vertices[0].raw[a], hi = lo;
        for (int v = 1; v < h->vertex_count; v++)
        {
            lo = fminf(lo, h->vertices[v].raw[a]);
            hi = fmaxf(hi, h->vertices[v].raw[a]);
        }
        ENSURE(h->bounds.lo.raw[a] == lo && h->bounds.hi.raw[a] == hi);
        ENSURE(h->centroid.raw[a] > lo && h->centroid.raw[a] < hi);
    }
    ENSURE(h->inner_radius > 0.0f);
    return 0;
}

static int hull_cube_corners(void)
{
    ph_vec3 pts[8];
    for (int i = 0; i < 8; i++)
        pts[i] = ph_v3(i & 1 ? 1.0f : -1.0f, i & 2 ? 2.0f : -2.0f, i & 4 ? 0.5f : -0.5f);
    ph_status st = PH_ERR_CAPACITY;
    ph_hull *h = build(pts, 8, 0, &st);
    ENSURE(h && st == PH_OK);
    ENSURE(h->vertex_count == 8 && h->face_count == 6 && h->edge_count == 12);
    for (int f = 0; f < 6; f++)
        ENSURE(h->faces[f].index_count == 4);
    ENSURE_VEC3_NEAR(h->centroid, glms_vec3_zero(), 1e-6f);
    ENSURE_NEAR(h->inner_radius, 0.5f, 1e-6f);
    ENSURE_NEAR(h->outer_radius, sqrtf(1.0f + 4.0f + 0.25f), 1e-6f); // the corners' distance from the centre
    ENSURE_NEAR(h->max_outside_distance, 0.0f, 1e-6f);
    int rc = check_hull(h, pts, 8, 0.0f);
    ph_hull_free(h);
    return rc;
}

// Points on the faces, on the edges, inside, and duplicates of the corners must not become vertices
// or split faces: exactly 8 vertices and 6 quads.
static int hull_cube_with_face_and_edge_points(void)
{
    enum
    {
        COUNT = 8 * 3 + 300
    };
    ph_vec3 pts[COUNT];
    int n = 0;
    for (int copy = 0; copy < 3; copy++)
    {
        for (int i = 0; i < 8; i++)
            pts[n++] = ph_v3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f);
    }
    uint64_t s = test_seed();
    for (int i = 0; i < 100; i++)
    {
        // On a face: one coordinate at +-1.
        ph_vec3 p = test_rand_vec3(&s, -1.0f, 1.0f);
        int axis = (int)(test_rand_u64(&s) % 3);
        p.raw[axis] = test_rand_u64(&s) & 1 ? 1.0f : -1.0f;
        pts[n++] = p;
        // On an edge: two coordinates at +-1.
        ph_vec3 q = test_rand_vec3(&s, -1.0f, 1.0f);
        q.raw[axis] = test_rand_u64(&s) & 1 ? 1.0f : -1.0f;
        q.raw[(axis + 1) % 3] = test_rand_u64(&s) & 1 ? 1.0f : -1.0f;
        pts[n++] = q;
        pts[n++] = test_rand_vec3(&s, -0.99f, 0.99f);
    }
    ph_status st;
    ph_hull *h = build(pts, n, 0, &st);
    ENSURE(h && st == PH_OK);
    printf("cube with face/edge points: V %d E %d F %d\n", h->vertex_count, h->edge_count, h->face_count);
    ENSURE(h->vertex_count == 8 && h->face_count == 6 && h->edge_count == 12);
    for (int f = 0; f < 6; f++)
        ENSURE(h->faces[f].index_count == 4);
    int rc = check_hull(h, pts, n, 0.0f);
    ph_hull_free(h);
    return rc;
}

static int hull_rejects_degenerate_clouds(void)
{
    uint64_t s = test_seed();
    ph_vec3 pts[64];
    ph_status st;
    // All on a plane (tilted).
    ph_vec3 u = ph_v3(1.0f, 2.0f, 0.5f), w = ph_v3(-0.3f, 0.1f, 1.0f);
    for (int i = 0; i < 64; i++)
    {
        float a = test_rand_float(&s, -1.0f, 1.0f), b = test_rand_float(&s, -1.0f, 1.0f);
        pts[i] = glms_vec3_add(glms_vec3_scale(u, a), glms_vec3_scale(w, b));
    }
    ENSURE(build(pts, 64, 0, &st) == NULL && st == PH_ERR_DEGENERATE);
    // Collinear.
    for (int i = 0; i < 64; i++)
        pts[i] = glms_vec3_scale(u, test_rand_float(&s, -3.0f, 3.0f));
    ENSURE(build(pts, 64, 0, &st) == NULL && st == PH_ERR_DEGENERATE);
    // One point repeated, and too few points.
    for (int i = 0; i < 64; i++)
        pts[i] = ph_v3(1.0f, 2.0f, 3.0f);
    ENSURE(build(pts, 64, 0, &st) == NULL && st == PH_ERR_DEGENERATE);
    pts[1] = ph_v3(0.0f, 0.0f, 0.0f);
    pts[2] = ph_v3(1.0f, 0.0f, 0.0f);
    ENSURE(build(pts, 3, 0, &st) == NULL && st == PH_ERR_DEGENERATE);
    // A plane with noise far below the flatness tolerance (1e-4 of the extent).
    for (int i = 0; i < 64; i++)
    {
        float a = test_rand_float(&s, -1.0f, 1.0f), b = test_rand_float(&s, -1.0f, 1.0f);
        pts[i] = glms_vec3_add(glms_vec3_scale(u, a), glms_vec3_scale(w, b));
        pts[i].z += test_rand_float(&s, -1e-7f, 1e-7f);
    }
    ENSURE(build(pts, 64, 0, &st) == NULL && st == PH_ERR_DEGENERATE);
    return 0;
}

static int hull_rejects_bad_input(void)
{
    ph_vec3 pts[5] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}, {{1, 1, 1}}};
    ph_status st = PH_OK;
    ENSURE(ph_hull_build(NULL, &st) == NULL && st == PH_ERR_INVALID_ARG);
    ph_hull_def raw = {pts, 5, 64, 0};
    ENSURE(ph_hull_build(&raw, &st) == NULL && st == PH_ERR_INVALID_ARG);
    ph_hull_def def = ph_default_hull_def();
    ENSURE(def.vertex_budget == PH_HULL_DEFAULT_VERTEX_BUDGET);
    ENSURE(ph_hull_build(&def, &st) == NULL && st == PH_ERR_INVALID_ARG); // no points
    def.points = pts;
    def.point_count = 5;
    def.vertex_budget = 3;
    ENSURE(ph_hull_build(&def, &st) == NULL && st == PH_ERR_INVALID_ARG);
    def.vertex_budget = PH_HULL_MAX_VERTICES + 1;
    ENSURE(ph_hull_build(&def, &st) == NULL && st == PH_ERR_INVALID_ARG);
    def.vertex_budget = 64;
    pts[3].y = NAN;
    ENSURE(ph_hull_build(&def, &st) == NULL && st == PH_ERR_INVALID_ARG);
    pts[3].y = INFINITY;
    ENSURE(ph_hull_build(&def, &st) == NULL && st == PH_ERR_INVALID_ARG);
    pts[3].y = 0.0f;
    ph_hull *h = ph_hull_build(&def, NULL);
    ENSURE(h != NULL && h->vertex_count == 5);
    ph_hull_free(h);
    ph_hull_free(NULL);
    return 0;
}

static int hull_random_clouds(void)
{
    uint64_t s = test_seed();
    enum
    {
        MAX_POINTS = 400
    };
    ph_vec3 pts[MAX_POINTS];
    for (int trial = 0; trial < 60; trial++)
    {
        int kind = trial % 3;
        // Sphere samples keep every point as a vertex: stay within the budget, so that the hull is exact.
        // At least 20 points: a handful of random points can be flat within the 1e-4 flatness bound,
        // which is a correct rejection tested elsewhere.
        int n =
            20 + (int)(test_rand_u64(&s) % (uint64_t)((kind == 1 ? PH_HULL_MAX_VERTICES : MAX_POINTS) - 20));
        float scale = powf(10.0f, test_rand_float(&s, -3.0f, 3.0f));
        ph_vec3 offset = test_rand_vec3(&s, -5.0f * scale, 5.0f * scale);
        ph_vec3 stretch = test_rand_vec3(&s, 0.05f, 1.0f);
        for (int i = 0; i < n; i++)
        {
            ph_vec3 p = test_rand_vec3(&s, -1.0f, 1.0f);
            if (kind == 1)
                p = ph_safe_normalize(p, ph_v3(1.0f, 0.0f, 0.0f)); // on a sphere: every point a vertex
            if (kind == 2 && i % 3 == 0 && i > 0)
                p = pts[i - 1]; // duplicates (pre-scaling copy below)
            p = glms_vec3_mul(p, stretch);
            pts[i] = glms_vec3_add(glms_vec3_scale(p, scale), offset);
            if (kind == 2 && i % 3 == 0 && i > 0)
                pts[i] = pts[i - 1];
        }
        ph_status st;
        ph_hull *h = build(pts, n, PH_HULL_MAX_VERTICES, &st);
        if (!h)
            fprintf(stderr, "trial %d: %d points, scale %g: status %d\n", trial, n, (double)scale, st);
        ENSURE(h && st == PH_OK);
        float outside = h->max_outside_distance;
        if (!(outside <= CONTAIN_TOLERANCE * cloud_extent(pts, n)))
            ph_hull_free(h);
        ENSURE_NEAR(outside, 0.0f, CONTAIN_TOLERANCE * cloud_extent(pts, n));
        if (check_hull(h, pts, n, CONTAIN_TOLERANCE))
        {
            fprintf(stderr, "trial %d: %d points, scale %g, V %d F %d\n", trial, n, (double)scale,
                    h->vertex_count, h->face_count);
            ph_hull_free(h);
            return 1;
        }
        ph_hull_free(h);
    }
    return 0;
}

// A box whose face points are displaced by float-rounding-sized noise (2e-7 relative, what a model
// written with 7 significant digits carries): still a valid hull, and the
// tiny bumps merge into the faces instead of making slivers.
static int hull_nearly_coplanar_noise(void)
{
    uint64_t s = test_seed();
    enum
    {
        COUNT = 8 + 400
    };
    ph_vec3 pts[COUNT];
    int n = 0;
    for (int i = 0; i < 8; i++)
        pts[n++] = ph_v3(i & 1 ? 2.0f : -2.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 3.0f : -3.0f);
    for (int i = 0; i < 400; i++)
    {
        ph_vec3 p = glms_vec3_mul(test_rand_vec3(&s, -1.0f, 1.0f), ph_v3(2.0f, 1.0f, 3.0f));
        int axis = i % 3;
        float half = axis == 0 ? 2.0f : axis == 1 ? 1.0f : 3.0f;
        p.raw[axis] = (i & 4 ? half : -half) * (1.0f + test_rand_float(&s, -2e-7f, 2e-7f));
        pts[n++] = p;
    }
    ph_status st;
    ph_hull *h = build(pts, n, 0, &st);
    ENSURE(h && st == PH_OK);
    printf("noisy box: V %d E %d F %d, max outside %g\n", h->vertex_count, h->edge_count, h->face_count,
           (double)h->max_outside_distance);
    int rc = check_hull(h, pts, n, CONTAIN_TOLERANCE);
    // Merging keeps the faces few: a sliver per noisy point would give hundreds.
    ENSURE(h->face_count <= 12);
    ph_hull_free(h);
    return rc;
}

static int hull_vertex_budget(void)
{
    uint64_t s = test_seed();
    enum
    {
        COUNT = 2000
    };
    static ph_vec3 pts[COUNT];
    for (int i = 0; i < COUNT; i++)
        pts[i] = glms_vec3_scale(ph_safe_normalize(test_rand_vec3(&s, -1.0f, 1.0f), ph_v3(1, 0, 0)), 3.0f);
    const int budgets[] = {4, 8, 16, 32, 64, 256};
    float previous_error = INFINITY;
    for (int b = 0; b < 6; b++)
    {
        ph_status st;
        ph_hull *h = build(pts, COUNT, budgets[b], &st);
        ENSURE(h && st == PH_OK);
        ENSURE(h->vertex_count <= budgets[b]);
        // Tight: the reported error is the true largest distance outside, and it shrinks with the
        // budget. The best k-vertex polytope inscribed in a sphere of radius R leaves a gap of about
        // R (1 - cos psi) = 2.42 R / k, psi being the covering radius of k points (hexagonal cells of
        // area 4 pi / k, covered by caps 1.21 times larger). We require greedy growth to stay within
        // twice that optimal gap.
        float worst = 0.0f;
        for (int i = 0; i < COUNT; i++)
        {
            for (int f = 0; f < h->face_count; f++)
                worst = fmaxf(worst, glms_vec3_dot(h->faces[f].normal, pts[i]) - h->faces[f].offset);
        }
        printf("budget %d: V %d F %d, max outside %.5f (R = 3)\n", budgets[b], h->vertex_count, h->face_count,
               (double)worst);
        ENSURE_NEAR(h->max_outside_distance, worst, 1e-5f);
        ENSURE(worst < previous_error);
        previous_error = worst;
        if (budgets[b] >= 64)
        {
            ENSURE(h->vertex_count == budgets[b]);
            ENSURE(worst < 2.0f * 3.0f * 2.42f / (float)budgets[b]);
        }
        int rc = check_hull(h, pts, COUNT, 1.0f);
        ph_hull_free(h);
        if (rc)
            return rc;
    }
    return 0;
}

static int hull_frees_every_byte(void)
{
    size_t start = ph_byte_count();
    uint64_t s = test_seed();
    ph_vec3 pts[500];
    for (int i = 0; i < 500; i++)
        pts[i] = test_rand_vec3(&s, -1.0f, 1.0f);
    for (int budget = 8; budget <= 256; budget *= 2)
    {
        ph_hull *h = build(pts, 500, budget, NULL);
        ENSURE(h != NULL);
        ENSURE(ph_byte_count() > start);
        ph_hull_free(h);
        ENSURE(ph_byte_count() == start);
    }
    // Failures free their scratch too.
    pts[0].x = NAN;
    ENSURE(build(pts, 500, 0, NULL) == NULL);
    for (int i = 0; i < 500; i++)
        pts[i].z = 0.0f;
    ENSURE(build(pts, 500, 0, NULL) == NULL);
    ENSURE(ph_byte_count() == start);
    return 0;
}

// Hill climbing from any start agrees with testing every vertex, on random hulls and on 256-point
// sphere samples (the hardest case: every vertex is a support in some direction).
static int hull_support_hill_climbing_matches_brute_force(void)
{
    uint64_t s = test_seed();
    static ph_vec3 pts[256];
    for (int trial = 0; trial < 40; trial++)
    {
        int n = trial % 2 ? 256 : 8 + (int)(test_rand_u64(&s) % 200);
        for (int i = 0; i < n; i++)
        {
            ph_vec3 p = test_rand_vec3(&s, -1.0f, 1.0f);
            pts[i] =
                trial % 2 ? ph_safe_normalize(p, ph_v3(1, 0, 0)) : glms_vec3_mul(p, ph_v3(3.0f, 1.0f, 0.2f));
        }
        ph_hull *h = build(pts, n, PH_HULL_MAX_VERTICES, NULL);
        ENSURE(h != NULL);
        int start = -1;
        for (int k = 0; k < 2000; k++)
        {
            ph_vec3 d = test_rand_vec3(&s, -1.0f, 1.0f);
            if (k % 5 == 0)
                start = (int)(test_rand_u64(&s) % (uint64_t)h->vertex_count);
            int hill = ph_hull_support_index(h, d, &start);
            int brute = ph_hull_support_index_brute(h, d);
            ENSURE(hill == start);
            // Scanned hulls sum each dot as the brute force does and keep the lowest index: the same vertex.
            ENSURE(h->vertex_count > PH_HULL_SCAN_MAX || hill == brute);
            float a = glms_vec3_dot(h->vertices[hill], d), b = glms_vec3_dot(h->vertices[brute], d);
            ENSURE_NEAR(a, b, 1e-6f * glms_vec3_norm(d) * 3.0f);
        }
        // NULL start and out-of-range starts are accepted.
        int bad = h->vertex_count + 5;
        ph_vec3 d = ph_v3(0.3f, -0.2f, 0.9f);
        float expect = glms_vec3_dot(h->vertices[ph_hull_support_index_brute(h, d)], d);
        ENSURE_NEAR(glms_vec3_dot(h->vertices[ph_hull_support_index(h, d, NULL)], d), expect, 1e-6f);
        ENSURE_NEAR(glms_vec3_dot(h->vertices[ph_hull_support_index(h, d, &bad)], d), expect, 1e-6f);
        ph_hull_free(h);
    }
    return 0;
}

// Ties: a cube's support along an axis is a whole face (4 vertices at the same dot), along a face diagonal an
// edge. The scan answers the brute force's vertex (the lowest index) for each of the 26 directions of the
// cube's faces, edges and corners, at scales from 1 mm to 1 km, 4 lanes or not (5, 8 and 13 vertices: a
// square pyramid, the cube, the cube with a roof on one face and a point below).
static int hull_support_scan_ties(void)
{
    static const float SCALES[] = {1e-3f, 1.0f, 1e3f};
    for (int si = 0; si < 3; si++)
    {
        for (int shape = 0; shape < 3; shape++)
        {
            float k = SCALES[si];
            ph_vec3 pts[13];
            int n = 0;
            for (int c = 0; c < 8; c++)
                if (shape != 0 || (c & 2)) // the pyramid keeps the top square only
                    pts[n++] = ph_v3((c & 1 ? k : -k), (c & 2 ? k : -k), (c & 4 ? k : -k));
            if (shape == 0)
                pts[n++] = ph_v3(0.0f, -k, 0.0f);
            if (shape == 2)
            {
                pts[n++] = ph_v3(0.0f, 2.0f * k, 0.0f);
                pts[n++] = ph_v3(0.3f * k, -1.5f * k, 0.2f * k);
            }
            ph_hull *h = build(pts, n, 0, NULL);
            ENSURE(h != NULL);
            ENSURE(h->vertex_count <= PH_HULL_SCAN_MAX);
            for (int x = -1; x <= 1; x++)
                for (int y = -1; y <= 1; y++)
                    for (int z = -1; z <= 1; z++)
                    {
                        if (!x && !y && !z)
                            continue;
                        ph_vec3 d = ph_v3((float)x, (float)y, (float)z);
                        int start = -1;
                        ENSURE(ph_hull_support_index(h, d, &start) == ph_hull_support_index_brute(h, d));
                        ENSURE(start == ph_hull_support_index_brute(h, d));
                    }
            ph_hull_free(h);
        }
    }
    return 0;
}

// ph_hull_bounds is the bounds of every vertex turned and moved as glms_mat3_mulv and glms_vec3_add place it,
// bit for bit, on random hulls of 4 to 256 vertices at random poses far from and near the origin.
static int hull_bounds_match_vertices(void)
{
    uint64_t s = test_seed() ^ 0xb0d5ull;
    static ph_vec3 pts[300];
    for (int trial = 0; trial < 60; trial++)
    {
        int n = 4 + (int)(test_rand_u64(&s) % 296);
        for (int i = 0; i < n; i++)
            pts[i] = glms_vec3_mul(test_rand_vec3(&s, -1.0f, 1.0f), ph_v3(2.0f, 0.5f, 1.0f));
        ph_hull *h = build(pts, n, PH_HULL_MAX_VERTICES, NULL);
        ENSURE(h != NULL);
        for (int k = 0; k < 20; k++)
        {
            float far = k % 2 ? 1e4f : 3.0f;
            ph_transform xf;
            xf.p = test_rand_vec3(&s, -far, far);
            xf.q = test_rand_quat(&s);
            ph_mat3 r = glms_quat_mat3(xf.q);
            ph_aabb want = {{{FLT_MAX, FLT_MAX, FLT_MAX}}, {{-FLT_MAX, -FLT_MAX, -FLT_MAX}}};
            for (int v = 0; v < h->vertex_count; v++)
            {
                ph_vec3 p = glms_vec3_add(xf.p, glms_mat3_mulv(r, h->vertices[v]));
                want.lo = glms_vec3_minv(want.lo, p);
                want.hi = glms_vec3_maxv(want.hi, p);
            }
            ph_aabb got = ph_hull_bounds(h, xf);
            ENSURE(memcmp(&got, &want, sizeof got) == 0);
            ph_convex c = ph_convex_hull(h);
            ph_aabb through = ph_convex_bounds(&c, xf);
            ENSURE(memcmp(&through, &want, sizeof got) == 0);
        }
        ph_hull_free(h);
    }
    return 0;
}

// The models in ../shared/testdata/obj (real files written by others), loaded with the project's .obj
// parser: the hull of every file's positions, and of every object of the multi-object files, keeps
// all invariants, at the full budget and at the default budget of 64.
static obj_model *load_shared(const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/obj/%s", SHARED_TESTDATA_DIR, file);
    obj_model *m = NULL;
    asset_error err;
    if (!obj_load(path, NULL, &m, &err))
        fprintf(stderr, "%s\n", err.text);
    return m;
}

// Positions used by triangles [first, first + count) of model m, into out (capacity cap); returns
// how many (duplicates kept: the hull must cope with them).
static int model_points(const obj_model *m, int first, int count, ph_vec3 *out, int cap)
{
    int n = 0;
    for (int t = first; t < first + count; t++)
    {
        for (int k = 0; k < 3 && n < cap; k++)
        {
            const float *p = m->positions + 3 * m->triangles[t].corner[k].position;
            out[n++] = ph_v3(p[0], p[1], p[2]);
        }
    }
    return n;
}

static int hull_real_models(void)
{
    REQUIRE_SHARED_TESTDATA();
    const char *files[] = {"cube.obj",       "low_poly_bunny.obj", "cornell_box.obj", "spot_control_mesh.obj",
                           "test_map01.obj", "spider.obj"};
    enum
    {
        CAP = 8192
    };
    ph_vec3 *pts = malloc(sizeof(ph_vec3) * CAP);
    ENSURE(pts != NULL);
    int rc = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0] && !rc; f++)
    {
        obj_model *m = load_shared(files[f]);
        if (!m)
        {
            free(pts);
            ENSURE(m != NULL);
        }
        // The whole file, then each object of multi-object files.
        for (int o = -1; o < (m->object_count > 1 ? m->object_count : 0) && !rc; o++)
        {
            int first = o < 0 ? 0 : m->objects[o].first_triangle;
            int count = o < 0 ? m->triangle_count : m->objects[o].triangle_count;
            int n = model_points(m, first, count, pts, CAP);
            if (n == 0)
                continue; // cornell_box's front_wall has no face
            for (int pass = 0; pass < 2 && !rc; pass++)
            {
                int budget = pass == 0 ? PH_HULL_MAX_VERTICES : PH_HULL_DEFAULT_VERTEX_BUDGET;
                ph_status st;
                ph_hull *h = build(pts, n, budget, &st);
                const char *name = o < 0 ? "(all)" : m->objects[o].name;
                float ext = cloud_extent(pts, n);
                if (!h)
                {
                    // Only flat objects (cornell_box's walls) may be rejected, and only as degenerate.
                    ph_vec3 n0 = glms_vec3_normalize(
                        glms_vec3_cross(glms_vec3_sub(pts[1], pts[0]), glms_vec3_sub(pts[2], pts[0])));
                    bool flat = true;
                    for (int i = 0; i < n; i++)
                        flat = flat && fabsf(glms_vec3_dot(n0, glms_vec3_sub(pts[i], pts[0]))) < 1e-4f * ext;
                    if (!(flat && st == PH_ERR_DEGENERATE))
                    {
                        fprintf(stderr, "%s %s: status %d\n", files[f], name, st);
                        rc = 1;
                    }
                    continue;
                }
                printf("%s %s budget %d: %d points -> V %d E %d F %d, max outside %.3g\n", files[f], name,
                       budget, n, h->vertex_count, h->edge_count, h->face_count,
                       (double)h->max_outside_distance);
                bool exact = h->vertex_count < budget;
                if (exact && !(h->max_outside_distance <= CONTAIN_TOLERANCE * ext))
                    rc = 1;
                rc |= check_hull(h, pts, n, exact ? CONTAIN_TOLERANCE : h->max_outside_distance / ext);
                ph_hull_free(h);
            }
        }
        if (!rc && f == 0)
        {
            // cube.obj: 8 corners, 12 edge midpoints and 6 face centres hull to exactly the cube.
            int n = model_points(m, 0, m->triangle_count, pts, CAP);
            ph_hull *h = build(pts, n, 0, NULL);
            rc |= !(h && h->vertex_count == 8 && h->face_count == 6 && h->edge_count == 12);
            for (int i = 0; h && i < 6; i++)
                rc |= h->faces[i].index_count != 4;
            ph_hull_free(h);
        }
        obj_free(m);
    }
    free(pts);
    ENSURE(rc == 0);
    return 0;
}

// Structured clouds that stress coplanarity and precision: a 10x10x10 lattice (every point on a face,
// edge or inside), the lattice far from the origin, tiny and huge scales, a thin slab just thicker than
// the flatness bound, a prism of 64-gons (many coplanar cap points), and 4 corners repeated 100 times.
static int hull_structured_clouds(void)
{
    enum
    {
        CAP = 1000
    };
    static ph_vec3 pts[CAP];
    const float scales[] = {1e-3f, 1.0f, 1e3f};
    const float offsets[] = {0.0f, 0.0f, 0.0f, 1e3f};
    int rc = 0;
    for (int k = 0; k < 4 && !rc; k++)
    {
        float scale = k < 3 ? scales[k] : 1.0f;
        int n = 0;
        for (int i = 0; i < 10; i++)
        {
            for (int j = 0; j < 10; j++)
            {
                for (int l = 0; l < 10; l++)
                    pts[n++] = ph_v3(offsets[k] + scale * (float)i, offsets[k] + scale * (float)j,
                                     offsets[k] + scale * (float)l);
            }
        }
        ph_hull *h = build(pts, n, 0, NULL);
        ENSURE(h != NULL);
        printf("lattice scale %g offset %g: V %d F %d\n", (double)scale, (double)offsets[k], h->vertex_count,
               h->face_count);
        rc = h->vertex_count != 8 || h->face_count != 6 || check_hull(h, pts, n, CONTAIN_TOLERANCE);
        ph_hull_free(h);
    }
    ENSURE(rc == 0);

    // A slab 2e-4 thick per unit of extent: above the 1e-4 flatness bound, so it is a (thin) hull.
    uint64_t s = test_seed();
    for (int i = 0; i < 200; i++)
        pts[i] =
            ph_v3(test_rand_float(&s, -1.0f, 1.0f), test_rand_float(&s, -1.0f, 1.0f), i % 2 ? 2e-4f : -2e-4f);
    ph_hull *slab = build(pts, 200, 0, NULL);
    ENSURE(slab != NULL);
    rc = check_hull(slab, pts, 200, CONTAIN_TOLERANCE);
    ph_hull_free(slab);
    ENSURE(rc == 0);

    // A prism over a regular 64-gon, with extra points on the caps: 128 vertices, 64 quads and 2 caps.
    int n = 0;
    for (int i = 0; i < 64; i++)
    {
        float a = 2.0f * GLM_PIf * (float)i / 64.0f;
        pts[n++] = ph_v3(cosf(a), -0.5f, sinf(a));
        pts[n++] = ph_v3(cosf(a), 0.5f, sinf(a));
        pts[n++] = ph_v3(0.5f * cosf(a), 0.5f, 0.5f * sinf(a));
    }
    ph_hull *prism = build(pts, n, PH_HULL_MAX_VERTICES, NULL);
    ENSURE(prism != NULL);
    printf("64-gon prism: V %d E %d F %d\n", prism->vertex_count, prism->edge_count, prism->face_count);
    rc =
        prism->vertex_count != 128 || prism->face_count != 66 || check_hull(prism, pts, n, CONTAIN_TOLERANCE);
    for (int f = 0; f < prism->face_count && !rc; f++)
    {
        int want = fabsf(prism->faces[f].normal.y) > 0.5f ? 64 : 4;
        rc = prism->faces[f].index_count != want;
    }
    ph_hull_free(prism);
    ENSURE(rc == 0);

    // Four corners of a tetrahedron, each repeated 100 times.
    const ph_vec3 tet[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
    for (int i = 0; i < 400; i++)
        pts[i] = tet[i % 4];
    ph_hull *t = build(pts, 400, 0, NULL);
    ENSURE(t != NULL);
    rc = t->vertex_count != 4 || t->face_count != 4 || check_hull(t, pts, 400, CONTAIN_TOLERANCE);
    ph_hull_free(t);
    ENSURE(rc == 0);
    return 0;
}

const test_case test_hull_cases[] = {
    {"hull_cube_corners", hull_cube_corners},
    {"hull_cube_with_face_and_edge_points", hull_cube_with_face_and_edge_points},
    {"hull_rejects_degenerate_clouds", hull_rejects_degenerate_clouds},
    {"hull_rejects_bad_input", hull_rejects_bad_input},
    {"hull_random_clouds", hull_random_clouds},
    {"hull_nearly_coplanar_noise", hull_nearly_coplanar_noise},
    {"hull_vertex_budget", hull_vertex_budget},
    {"hull_frees_every_byte", hull_frees_every_byte},
    {"hull_support_hill_climbing_matches_brute_force", hull_support_hill_climbing_matches_brute_force},
    {"hull_support_scan_ties", hull_support_scan_ties},
    {"hull_bounds_match_vertices", hull_bounds_match_vertices},
    {"hull_structured_clouds", hull_structured_clouds},
    {"hull_real_models", hull_real_models},
    {0},
};
