// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Static triangle meshes (mesh.c): box queries return exactly the triangles a brute-force bounds test
// returns, ray casts equal the nearest hit over all triangles, degenerate triangles are dropped,
// input is validated, early stop works, and every byte is freed.
#include "test.h"

#include "phys/collision.h"

#include <stdlib.h> // malloc, free
#include <string.h> // memset

enum
{
    MAX_TRIS = 3000
};

// A triangle soup: clustered small triangles plus a few long ones crossing the scene, and
// (when degenerate_every > 0) zero-area triangles: repeated indices and collinear corners.
static int random_soup(uint64_t *s, int tri_count, int degenerate_every, ph_vec3 *verts, int *idx)
{
    int dropped = 0;
    for (int t = 0; t < tri_count; t++)
    {
        ph_vec3 c = test_rand_vec3(s, -20.0f, 20.0f);
        float size = t % 50 == 0 ? 15.0f : test_rand_float(s, 0.05f, 1.5f);
        for (int k = 0; k < 3; k++)
        {
            verts[3 * t + k] = glms_vec3_add(c, test_rand_vec3(s, -size, size));
            idx[3 * t + k] = 3 * t + k;
        }
        if (degenerate_every > 0 && t % degenerate_every == 1)
        {
            if (t % 2)
                idx[3 * t + 2] = idx[3 * t];
            else
                verts[3 * t + 2] = glms_vec3_lerp(verts[3 * t], verts[3 * t + 1], 0.25f);
            dropped++;
        }
    }
    return dropped;
}

static ph_mesh *build_mesh(const ph_vec3 *verts, int vcount, const int *idx, int tcount, ph_status *st)
{
    ph_mesh_def def = ph_default_mesh_def();
    def.vertices = verts;
    def.vertex_count = vcount;
    def.indices = idx;
    def.triangle_count = tcount;
    return ph_mesh_build(&def, st);
}

static ph_aabb tri_box(ph_convex t)
{
    ph_aabb b;
    b.lo = glms_vec3_minv(glms_vec3_minv(t.tri[0], t.tri[1]), t.tri[2]);
    b.hi = glms_vec3_maxv(glms_vec3_maxv(t.tri[0], t.tri[1]), t.tri[2]);
    return b;
}

static bool overlap(ph_aabb a, ph_aabb b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

typedef struct collect
{
    int count;
    int limit; // stop after this many (0: never)
    unsigned char *seen;
    int duplicates;
} collect;

static bool collect_fn(int triangle, void *ctx)
{
    collect *c = ctx;
    if (c->seen[triangle])
        c->duplicates++;
    c->seen[triangle] = 1;
    c->count++;
    return c->limit == 0 || c->count < c->limit;
}

static int mesh_query_matches_brute_force(void)
{
    uint64_t s = test_seed();
    ph_vec3 *verts = malloc(sizeof(ph_vec3) * 3 * MAX_TRIS);
    int *idx = malloc(sizeof(int) * 3 * MAX_TRIS);
    unsigned char *seen = malloc(MAX_TRIS);
    ENSURE(verts && idx && seen);
    int rc = 0;
    for (int trial = 0; trial < 6 && !rc; trial++)
    {
        int n = trial == 0 ? 1 : 50 + (int)(test_rand_u64(&s) % (MAX_TRIS - 50));
        int dropped = random_soup(&s, n, 7, verts, idx);
        ph_status st;
        ph_mesh *mesh = build_mesh(verts, 3 * n, idx, n, &st);
        if (n == 1 && dropped == 0)
            ENSURE(mesh && st == PH_OK);
        if (!mesh)
            continue;
        ENSURE(ph_mesh_triangle_count(mesh) == n - dropped);
        int m = ph_mesh_triangle_count(mesh);
        // The bounds are the union of the kept triangles'.
        ph_aabb all = tri_box(ph_mesh_triangle(mesh, 0));
        for (int i = 1; i < m; i++)
        {
            ph_aabb b = tri_box(ph_mesh_triangle(mesh, i));
            all.lo = glms_vec3_minv(all.lo, b.lo);
            all.hi = glms_vec3_maxv(all.hi, b.hi);
        }
        ENSURE_VEC3_NEAR(ph_mesh_bounds(mesh).lo, all.lo, 0.0f);
        ENSURE_VEC3_NEAR(ph_mesh_bounds(mesh).hi, all.hi, 0.0f);
        for (int q = 0; q < 300 && !rc; q++)
        {
            ph_aabb box;
            ph_vec3 c = test_rand_vec3(&s, -25.0f, 25.0f);
            // Boxes from empty points (zero size) to half the scene.
            ph_vec3 h = q % 10 == 0 ? glms_vec3_zero() : test_rand_vec3(&s, 0.0f, q % 3 == 0 ? 12.0f : 2.0f);
            box.lo = glms_vec3_sub(c, h);
            box.hi = glms_vec3_add(c, h);
            memset(seen, 0, MAX_TRIS);
            collect col = {0, 0, seen, 0};
            ph_mesh_query(mesh, box, collect_fn, &col);
            int expected = 0;
            for (int i = 0; i < m; i++)
            {
                bool want = overlap(tri_box(ph_mesh_triangle(mesh, i)), box);
                expected += want;
                if (want != (seen[i] != 0))
                {
                    fprintf(stderr, "trial %d query %d: triangle %d reported %d, brute force %d\n", trial, q,
                            i, seen[i], want);
                    rc = 1;
                }
            }
            if (col.duplicates != 0 || col.count != expected)
                rc = 1;
        }
        // Stopping early: fn returning false ends the query after that call.
        ph_aabb everything = ph_mesh_bounds(mesh);
        memset(seen, 0, MAX_TRIS);
        collect stop = {0, 3, seen, 0};
        ph_mesh_query(mesh, everything, collect_fn, &stop);
        ENSURE(stop.count == (m < 3 ? m : 3));
        ph_mesh_free(mesh);
    }
    free(verts);
    free(idx);
    free(seen);
    ENSURE(rc == 0);
    return 0;
}

static int mesh_ray_matches_brute_force(void)
{
    uint64_t s = test_seed();
    ph_vec3 *verts = malloc(sizeof(ph_vec3) * 3 * MAX_TRIS);
    int *idx = malloc(sizeof(int) * 3 * MAX_TRIS);
    ENSURE(verts && idx);
    int n = 2000, hits = 0;
    random_soup(&s, n, 0, verts, idx);
    ph_mesh *mesh = build_mesh(verts, 3 * n, idx, n, NULL);
    ENSURE(mesh != NULL);
    int m = ph_mesh_triangle_count(mesh);
    for (int q = 0; q < 1000; q++)
    {
        ph_transform xf;
        xf.p = test_rand_vec3(&s, -5.0f, 5.0f);
        xf.q = test_rand_quat(&s);
        ph_vec3 o = ph_transform_point(xf, test_rand_vec3(&s, -30.0f, 30.0f));
        ph_vec3 d = glms_vec3_normalize(test_rand_vec3(&s, -1.0f, 1.0f));
        float max_t = test_rand_float(&s, 1.0f, 80.0f);
        ph_ray_hit hit, best, h;
        bool got = ph_ray_cast_mesh(mesh, xf, o, d, max_t, &hit);
        bool any = false;
        memset(&best, 0, sizeof best);
        best.distance = INFINITY;
        float second = INFINITY; // the next triangle's distance, to recognise ties
        for (int i = 0; i < m; i++)
        {
            ph_convex tri = ph_mesh_triangle(mesh, i);
            if (ph_ray_cast_convex(&tri, xf, o, d, max_t, &h))
            {
                if (h.distance < best.distance)
                {
                    second = best.distance;
                    best = h;
                    any = true;
                }
                else if (h.distance < second)
                    second = h.distance;
            }
        }
        ENSURE(got == any);
        if (!got)
            continue;
        hits++;
        ENSURE_NEAR(hit.distance, best.distance, 1e-5f * (1.0f + best.distance));
        ENSURE_VEC3_NEAR(hit.point, best.point, 1e-4f);
        // The same triangle, unless two triangles are hit at nearly the same distance.
        if (second - best.distance > 1e-3f)
            ENSURE_VEC3_NEAR(hit.normal, best.normal, 1e-4f);
        ENSURE(glms_vec3_dot(hit.normal, d) <= 0.0f);
    }
    printf("mesh rays: %d of 1000 hit\n", hits);
    ENSURE(hits > 100);
    ph_mesh_free(mesh);
    free(verts);
    free(idx);
    return 0;
}

// A flat grid of quads at height z0: a downward ray hits at the analytic height, with normal +z; an
// upward ray from below sees the back side with normal -z.
static int mesh_grid_analytic(void)
{
    enum
    {
        N = 20
    };
    static ph_vec3 verts[(N + 1) * (N + 1)];
    static int idx[6 * N * N];
    const float z0 = 1.25f, cell = 0.5f;
    for (int j = 0; j <= N; j++)
    {
        for (int i = 0; i <= N; i++)
            verts[j * (N + 1) + i] = ph_v3((float)i * cell, (float)j * cell, z0);
    }
    int t = 0;
    for (int j = 0; j < N; j++)
    {
        for (int i = 0; i < N; i++)
        {
            int a = j * (N + 1) + i, b = a + 1, c = a + N + 1, d = c + 1;
            int quad[6] = {a, b, d, a, d, c};
            memcpy(idx + 6 * t, quad, sizeof quad);
            t++;
        }
    }
    ph_mesh *mesh = build_mesh(verts, (N + 1) * (N + 1), idx, 2 * N * N, NULL);
    ENSURE(mesh != NULL);
    ENSURE(ph_mesh_triangle_count(mesh) == 2 * N * N);
    ph_transform xf = ph_transform_identity();
    uint64_t s = test_seed();
    for (int q = 0; q < 200; q++)
    {
        ph_vec3 p = ph_v3(test_rand_float(&s, 0.01f, N * cell - 0.01f),
                          test_rand_float(&s, 0.01f, N * cell - 0.01f), 10.0f);
        ph_ray_hit hit;
        ENSURE(ph_ray_cast_mesh(mesh, xf, p, ph_v3(0, 0, -1), 100.0f, &hit));
        ENSURE_NEAR(hit.distance, 10.0f - z0, 1e-5f);
        ENSURE_VEC3_NEAR(hit.normal, ph_v3(0, 0, 1), 1e-6f);
        p.z = -3.0f;
        ENSURE(ph_ray_cast_mesh(mesh, xf, p, ph_v3(0, 0, 1), 100.0f, &hit));
        ENSURE_NEAR(hit.distance, 3.0f + z0, 1e-5f);
        ENSURE_VEC3_NEAR(hit.normal, ph_v3(0, 0, -1), 1e-6f);
        // Too short, and outside the grid.
        ENSURE(!ph_ray_cast_mesh(mesh, xf, p, ph_v3(0, 0, 1), 4.0f, &hit));
        p.x += N * cell;
        ENSURE(!ph_ray_cast_mesh(mesh, xf, p, ph_v3(0, 0, 1), 100.0f, &hit));
    }
    ph_mesh_free(mesh);
    return 0;
}

static int mesh_rejects_bad_input(void)
{
    ph_vec3 v[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
    int idx[6] = {0, 1, 2, 0, 2, 3};
    ph_status st = PH_OK;
    size_t start = ph_byte_count();
    ENSURE(ph_mesh_build(NULL, &st) == NULL && st == PH_ERR_INVALID_ARG);
    ph_mesh_def raw;
    memset(&raw, 0, sizeof raw);
    raw.vertices = v;
    raw.vertex_count = 4;
    raw.indices = idx;
    raw.triangle_count = 2;
    ENSURE(ph_mesh_build(&raw, &st) == NULL && st == PH_ERR_INVALID_ARG); // not from the default
    ENSURE(build_mesh(v, 4, idx, 0, &st) == NULL && st == PH_ERR_INVALID_ARG);
    ENSURE(build_mesh(NULL, 4, idx, 2, &st) == NULL && st == PH_ERR_INVALID_ARG);
    ENSURE(build_mesh(v, 3, idx, 2, &st) == NULL && st == PH_ERR_INVALID_ARG); // index 3 out of range
    idx[4] = -1;
    ENSURE(build_mesh(v, 4, idx, 2, &st) == NULL && st == PH_ERR_INVALID_ARG);
    idx[4] = 2;
    v[3].y = NAN;
    ENSURE(build_mesh(v, 4, idx, 2, &st) == NULL && st == PH_ERR_INVALID_ARG);
    v[3].y = 0.0f;
    ENSURE(build_mesh(v, 4, idx, PH_MESH_MAX_TRIANGLES + 1, &st) == NULL && st == PH_ERR_CAPACITY);
    // Every triangle degenerate.
    int flat[6] = {0, 0, 1, 0, 1, 1};
    ENSURE(build_mesh(v, 4, flat, 2, &st) == NULL && st == PH_ERR_DEGENERATE);
    ENSURE(ph_byte_count() == start);

    ph_mesh *mesh = build_mesh(v, 4, idx, 2, &st);
    ENSURE(mesh && st == PH_OK);
    ENSURE(ph_byte_count() > start);
    // Out-of-range triangle numbers and bad queries are harmless.
    ph_convex bad = ph_mesh_triangle(mesh, 7);
    ENSURE(bad.type == PH_SHAPE_TRIANGLE);
    ph_aabb nan_box = {{{NAN, 0, 0}}, {{1, 1, 1}}};
    unsigned char seen[4] = {0};
    collect col = {0, 0, seen, 0};
    ph_mesh_query(mesh, nan_box, collect_fn, &col);
    ENSURE(col.count == 0);
    ph_mesh_query(mesh, nan_box, NULL, NULL);
    ph_ray_hit hit;
    ENSURE(
        !ph_ray_cast_mesh(mesh, ph_transform_identity(), ph_v3(0.2f, 0.2f, 5), ph_v3(0, 0, 0), 10.0f, &hit));
    ENSURE(
        !ph_ray_cast_mesh(mesh, ph_transform_identity(), ph_v3(NAN, 0.2f, 5), ph_v3(0, 0, -1), 10.0f, &hit));
    ENSURE(
        ph_ray_cast_mesh(mesh, ph_transform_identity(), ph_v3(0.2f, 0.2f, 5), ph_v3(0, 0, -1), 10.0f, &hit));
    ENSURE(ph_mesh_triangle_count(NULL) == 0);
    ph_mesh_free(mesh);
    ph_mesh_free(NULL);
    ENSURE(ph_byte_count() == start);
    return 0;
}

const test_case test_mesh_cases[] = {
    {"mesh_query_matches_brute_force", mesh_query_matches_brute_force},
    {"mesh_ray_matches_brute_force", mesh_ray_matches_brute_force},
    {"mesh_grid_analytic", mesh_grid_analytic},
    {"mesh_rejects_bad_input", mesh_rejects_bad_input},
    {0},
};
