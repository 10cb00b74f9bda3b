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

// A strip of n x 1 squares in the (x, z) plane at height y(x) per column of vertices: y[i] for x = xs[i]. As
// a triangle soup when soup is set (every triangle its own three vertices). Counter-clockwise seen from +y.
static ph_mesh *strip_mesh(const float *xs, const float *ys, int columns, bool soup, ph_vec3 *v, int *idx)
{
    ph_vec3 grid[2 * 8];
    for (int i = 0; i < columns; i++)
    {
        grid[2 * i] = ph_v3(xs[i], ys[i], 0.0f);
        grid[2 * i + 1] = ph_v3(xs[i], ys[i], 1.0f);
    }
    int k = 0;
    for (int i = 0; i + 1 < columns; i++)
    {
        int a = 2 * i, b = a + 1, c = a + 2, d = a + 3; // a (x_i, z 0), b (x_i, z 1), c, d at x_i+1
        int tri[6] = {a, b, c, c, b, d};
        for (int j = 0; j < 6; j++)
            idx[k++] = tri[j];
    }
    int vcount = 2 * columns;
    if (soup)
    {
        for (int j = 0; j < k; j++)
        {
            v[j] = grid[idx[j]];
            idx[j] = j;
        }
        vcount = k;
    }
    else
        for (int j = 0; j < vcount; j++)
            v[j] = grid[j];
    ph_status st;
    return build_mesh(v, vcount, idx, k / 3, &st);
}

// Corner c of mesh triangle t.
static int find_triangle(const ph_mesh *mesh, ph_vec3 c0, ph_vec3 c1, ph_vec3 c2)
{
    for (int t = 0; t < ph_mesh_triangle_count(mesh); t++)
    {
        ph_convex tri = ph_mesh_triangle(mesh, t);
        int hits = 0;
        for (int k = 0; k < 3; k++)
            hits += glms_vec3_eqv(tri.tri[k], c0) || glms_vec3_eqv(tri.tri[k], c1) ||
                    glms_vec3_eqv(tri.tri[k], c2);
        if (hits == 3)
            return t;
    }
    return -1;
}

// The edge of mesh triangle tri from corner p to corner q (either way round), or -1.
static int find_edge(const ph_convex *tri, ph_vec3 p, ph_vec3 q)
{
    for (int k = 0; k < 3; k++)
    {
        ph_vec3 a = tri->tri[k], b = tri->tri[(k + 1) % 3];
        if ((glms_vec3_eqv(a, p) && glms_vec3_eqv(b, q)) || (glms_vec3_eqv(a, q) && glms_vec3_eqv(b, p)))
            return k;
    }
    return -1;
}

// Each triangle knows the angle of its neighbour across every edge: 0 across a flat seam, a right angle at a
// step's riser (positive at the floor, whose counter-clockwise side faces up the riser: a concave edge seen
// from above), none at the border; corners on real edges are marked. An indexed mesh and the same triangles
// as a soup (corners welded by position) agree.
static int mesh_edge_adjacency(void)
{
    // Floor from x = -2 to 0 (two squares), a riser at x = 0 up to 0.5, a top from x = 0 to 1.
    const float xs[] = {-2.0f, -1.0f, 0.0f, 0.0f, 1.0f};
    const float ys[] = {0.0f, 0.0f, 0.0f, 0.5f, 0.5f};
    for (int soup = 0; soup < 2; soup++)
    {
        ph_vec3 v[48];
        int idx[48];
        ph_mesh *mesh = strip_mesh(xs, ys, 5, soup != 0, v, idx);
        ENSURE(mesh != NULL);
        ENSURE(ph_mesh_triangle_count(mesh) == 8);
        // The floor's triangle (x -1..0, z 0..1) touching the riser along x = 0 from (0, 0, 0) to (0, 0, 1).
        ph_vec3 f0 = ph_v3(-1, 0, 1), p = ph_v3(0, 0, 0), q = ph_v3(0, 0, 1);
        int t = find_triangle(mesh, f0, p, q);
        ENSURE(t >= 0);
        ph_convex tri = ph_mesh_triangle(mesh, t);
        int riser = find_edge(&tri, p, q);
        ENSURE(riser >= 0);
        ENSURE(tri.tri_shared & (1u << riser));
        ENSURE_NEAR(tri.tri_bend[riser], 0.5f * GLM_PIf, 1e-5f);
        // Its diagonal to the other floor triangle of the square is a flat seam; its edge at z = 1 a border.
        int seam = find_edge(&tri, f0, p);
        ENSURE(seam >= 0 && (tri.tri_shared & (1u << seam)));
        ENSURE_NEAR(tri.tri_bend[seam], 0.0f, 1e-6f);
        int border = find_edge(&tri, f0, q);
        ENSURE(border >= 0 && !(tri.tri_shared & (1u << border)));
        // The top's triangle at the riser's upper edge: a convex edge seen from above (the riser drops away).
        int top = find_triangle(mesh, ph_v3(0, 0.5f, 0), ph_v3(0, 0.5f, 1), ph_v3(1, 0.5f, 0));
        ENSURE(top >= 0);
        ph_convex tt = ph_mesh_triangle(mesh, top);
        int lip = find_edge(&tt, ph_v3(0, 0.5f, 0), ph_v3(0, 0.5f, 1));
        ENSURE(lip >= 0 && (tt.tri_shared & (1u << lip)));
        ENSURE_NEAR(tt.tri_bend[lip], -0.5f * GLM_PIf, 1e-5f);
        // Every corner of this small strip lies on a border or the step: all marked.
        ENSURE(tri.tri_rim == 7u && tt.tri_rim == 7u);
        ph_mesh_free(mesh);
    }
    // A flat 2 x 1 strip seen from a 3 x 1 one: the middle square's diagonal has no real edge at its ends
    // only if they are inner vertices, and a strip has none; a plain triangle knows no neighbours.
    ph_convex plain = ph_convex_triangle(ph_v3(0, 0, 0), ph_v3(0, 0, 1), ph_v3(1, 0, 0));
    ENSURE(plain.tri_shared == 0u && plain.tri_rim == 0u);
    return 0;
}

// A box about to slide over the seam between two squares of a flat mesh, sunk 1 mm into it: against the next
// square's triangles taken alone, the narrow phase makes its leading face's contact with their edge (a
// sideways normal, the trip); as triangles of the mesh, their contacts are the face's (up) or none.
static int mesh_seam_contact_is_the_face(void)
{
    const float xs[] = {0.0f, 1.0f, 2.0f};
    const float ys[] = {0.0f, 0.0f, 0.0f};
    ph_vec3 v[24];
    int idx[24];
    ph_mesh *mesh = strip_mesh(xs, ys, 3, false, v, idx);
    ENSURE(mesh != NULL);
    // Well inside the strip's borders (real edges, whose contacts are the border's to make).
    ph_convex box = ph_convex_box(ph_v3(0.3f, 0.3f, 0.3f));
    ph_transform xb = ph_transform_identity();
    xb.p = ph_v3(0.69f, 0.299f, 0.5f); // leading face at x = 0.99, 1 cm before the seam at x = 1
    const float margin = 0.02f;
    int sideways_alone = 0;
    for (int t = 0; t < ph_mesh_triangle_count(mesh); t++)
    {
        ph_convex tri = ph_mesh_triangle(mesh, t);
        ph_convex alone = ph_convex_triangle(tri.tri[0], tri.tri[1], tri.tri[2]);
        ph_manifold m;
        ph_collide_convex(&box, xb, &alone, ph_transform_identity(), margin, NULL, &m);
        if (m.point_count > 0 && fabsf(m.normal.y) < 0.5f)
            sideways_alone++;
        ph_collide_convex(&box, xb, &tri, ph_transform_identity(), margin, NULL, &m);
        ENSURE(m.point_count == 0 || fabsf(m.normal.y) > 0.9999f);
        for (int i = 0; i < m.point_count; i++)
            ENSURE_NEAR(m.points[i].separation, -0.001f, 1e-5f); // the box's depth below the plane
    }
    ENSURE(sideways_alone > 0); // the configuration is the trip's
    ph_mesh_free(mesh);
    return 0;
}

// A box tipping over the edge of a table (a top at y = 0 ending at x = 0 in a side down to y = -4), at poses
// from mesh_edges_table_edge_tips, sunk 4 and 16 mm into the top's triangle at the edge. The pair's best axis
// is the table's edge against the box's bottom edge along x, but every edge of the box along x gives that
// axis and that separation through the flat triangle's projections: the contact was once made at the box's
// top edge, half a metre above the table (0.03, 0.50, -0.10), and held the box up there. Every point must lie
// on the triangle: in its plane and its prism, to within the margin.
static int mesh_table_edge_contact_on_triangle(void)
{
    const float xs[] = {-1.0f, 0.0f, 0.0f};
    const float ys[] = {0.0f, 0.0f, -4.0f};
    ph_vec3 v[24];
    int idx[24];
    ph_mesh *mesh = strip_mesh(xs, ys, 3, false, v, idx);
    ENSURE(mesh != NULL);
    int t = find_triangle(mesh, ph_v3(0, 0, 0), ph_v3(-1, 0, 1), ph_v3(0, 0, 1));
    ENSURE(t >= 0);
    ph_convex tri = ph_mesh_triangle(mesh, t);
    int lip = find_edge(&tri, ph_v3(0, 0, 0), ph_v3(0, 0, 1));
    ENSURE(lip >= 0 && (tri.tri_shared & (1u << lip)));
    ENSURE_NEAR(tri.tri_bend[lip], -0.5f * GLM_PIf, 1e-5f); // a real, convex edge
    ph_convex box = ph_convex_box(ph_v3(0.5f, 0.5f, 0.5f));
    const ph_transform poses[2] = {
        {ph_v3(0.142374054f, 0.491609067f, 0.3000606f),
         {{0.00300455932f, 0.000425524631f, -0.0291051026f, 0.999571741f}}},
        {ph_v3(0.18400161f, 0.481413186f, 0.300382465f),
         {{0.0124230832f, 0.00173290097f, -0.0455356278f, 0.998884022f}}},
    };
    const float margin = 0.055f;
    ph_transform xt = ph_transform_identity();
    for (int pose = 0; pose < 2; pose++)
        for (int order = 0; order < 2; order++)
        {
            ph_manifold m;
            if (order == 0) // as the world makes it: the mesh is A
                ph_collide_convex(&tri, xt, &box, poses[pose], margin, NULL, &m);
            else
                ph_collide_convex(&box, poses[pose], &tri, xt, margin, NULL, &m);
            ENSURE(m.point_count > 0); // the box rests on the edge
            for (int i = 0; i < m.point_count; i++)
            {
                ph_vec3 p = m.points[i].point;
                ENSURE_NEAR(p.y, 0.0f, margin);
                ENSURE(p.x <= margin && p.z <= 1.0f + margin);
                ENSURE((p.x + p.z) * (float)GLM_SQRT1_2 >= -margin); // the diagonal (0, 0, 0) to (-1, 0, 1)
                ENSURE(m.points[i].separation <= 0.0f);
            }
        }
    ph_mesh_free(mesh);
    return 0;
}

const test_case test_mesh_cases[] = {
    {"mesh_query_matches_brute_force", mesh_query_matches_brute_force},
    {"mesh_ray_matches_brute_force", mesh_ray_matches_brute_force},
    {"mesh_grid_analytic", mesh_grid_analytic},
    {"mesh_rejects_bad_input", mesh_rejects_bad_input},
    {"mesh_edge_adjacency", mesh_edge_adjacency},
    {"mesh_seam_contact_is_the_face", mesh_seam_contact_is_the_face},
    {"mesh_table_edge_contact_on_triangle", mesh_table_edge_contact_on_triangle},
    {0},
};
