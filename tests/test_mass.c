// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Mass properties (mass.c) against analytic answers: box, sphere, capsule (checked by an independent
// slice-by-slice integration), tetrahedra (closed form), hulls of box corners and of a sampled sphere
// (bounded by the inscribed and circumscribed balls), translation and rotation of the input, and the
// parallel-axis theorem through ph_add_mass.
#include "assets/obj.h"
#include "test.h"

#include "phys/collision.h"

#include <stdlib.h> // malloc, free
#include <string.h> // memset

static int ensure_mat3_near(ph_mat3 a, ph_mat3 b, float tol)
{
    for (int c = 0; c < 3; c++)
    {
        for (int r = 0; r < 3; r++)
        {
            if (!(fabsf(a.col[c].raw[r] - b.col[c].raw[r]) <= tol))
            {
                fprintf(stderr, "tensor entry (%d,%d): %.9g vs %.9g, tol %.3g\n", r, c,
                        (double)a.col[c].raw[r], (double)b.col[c].raw[r], (double)tol);
                return 1;
            }
        }
    }
    return 0;
}

#define ENSURE_MAT3_NEAR(a, b, tol)                                                                          \
    do                                                                                                       \
    {                                                                                                        \
        if (ensure_mat3_near((a), (b), (tol)))                                                               \
        {                                                                                                    \
            TEST_FAIL_HEADER();                                                                              \
            fprintf(stderr, "%s != %s\n", #a, #b);                                                           \
            return 1;                                                                                        \
        }                                                                                                    \
    } while (0)

static ph_mat3 diag(float x, float y, float z)
{
    ph_mat3 m = glms_mat3_zero();
    m.col[0].raw[0] = x;
    m.col[1].raw[1] = y;
    m.col[2].raw[2] = z;
    return m;
}

static int mass_box_analytic(void)
{
    // Half extents (0.5, 1, 1.5), density 2: m = 2 * 8 * 0.75 = 12, I = m/3 (hy^2 + hz^2), ...
    ph_convex box = ph_convex_box(ph_v3(0.5f, 1.0f, 1.5f));
    ph_mass_properties m = ph_compute_mass(&box, 2.0f);
    ENSURE_NEAR(m.mass, 12.0f, 1e-5f);
    ENSURE_NEAR(m.volume, 6.0f, 1e-5f);
    ENSURE_VEC3_NEAR(m.center, glms_vec3_zero(), 0.0f);
    ENSURE_MAT3_NEAR(m.inertia, diag(13.0f, 10.0f, 5.0f), 1e-5f);
    return 0;
}

static int mass_sphere_analytic(void)
{
    // r = 2, density 3: m = 3 * 4/3 pi 8 = 32 pi, I = 2/5 m r^2 = 51.2 pi.
    ph_convex s = ph_convex_sphere(2.0f);
    ph_mass_properties m = ph_compute_mass(&s, 3.0f);
    ENSURE_NEAR(m.mass, 32.0f * GLM_PIf, 1e-4f);
    ENSURE_NEAR(m.volume, 32.0f / 3.0f * GLM_PIf, 1e-4f);
    ENSURE_MAT3_NEAR(m.inertia, diag(51.2f * GLM_PIf, 51.2f * GLM_PIf, 51.2f * GLM_PIf), 1e-3f);
    return 0;
}

// The capsule's mass properties by integrating thin discs along its axis (Simpson's rule), an
// independent route to the hemisphere offsets: a disc of radius a at height y, mass dm, contributes
// dm a^2 / 2 about y and dm (a^2 / 4 + y^2) about x.
static void capsule_by_slices(double hh, double r, double density, double *mass, double *ixx, double *iyy)
{
    const int slices = 20000; // even, for Simpson's rule
    double lo = -hh - r, hi = hh + r, h = (hi - lo) / slices;
    *mass = *ixx = *iyy = 0.0;
    for (int i = 0; i <= slices; i++)
    {
        double y = lo + h * i;
        double off = fabs(y) > hh ? fabs(y) - hh : 0.0;
        double a2 = r * r - off * off;
        if (a2 < 0.0)
            a2 = 0.0;
        double w = (i == 0 || i == slices) ? 1.0 : (i % 2 ? 4.0 : 2.0);
        double dm = density * GLM_PI * a2;
        *mass += w * dm;
        *iyy += w * dm * a2 / 2.0;
        *ixx += w * dm * (a2 / 4.0 + y * y);
    }
    *mass *= h / 3.0;
    *ixx *= h / 3.0;
    *iyy *= h / 3.0;
}

static int mass_capsule_analytic(void)
{
    const float cases[][3] = {{1.0f, 0.5f, 1.0f}, {0.1f, 2.0f, 7.0f}, {3.0f, 0.05f, 1000.0f}};
    for (int k = 0; k < 3; k++)
    {
        float hh = cases[k][0], r = cases[k][1], rho = cases[k][2];
        ph_convex c = ph_convex_capsule(hh, r);
        ph_mass_properties m = ph_compute_mass(&c, rho);
        double mass, ixx, iyy;
        capsule_by_slices((double)hh, (double)r, (double)rho, &mass, &ixx, &iyy);
        printf("capsule hh %g r %g: mass %.7g (slices %.7g), Ixx %.7g (%.7g), Iyy %.7g (%.7g)\n", (double)hh,
               (double)r, (double)m.mass, mass, (double)m.inertia.col[0].raw[0], ixx,
               (double)m.inertia.col[1].raw[1], iyy);
        ENSURE_NEAR(m.mass, mass, 1e-5 * mass);
        ENSURE_NEAR(m.volume * rho, mass, 1e-5 * mass);
        ENSURE_MAT3_NEAR(m.inertia, diag((float)ixx, (float)iyy, (float)ixx), (float)(1e-5 * ixx));
    }
    // With no cylinder it is a sphere.
    ph_convex c = ph_convex_capsule(0.0f, 1.5f), s = ph_convex_sphere(1.5f);
    ph_mass_properties mc = ph_compute_mass(&c, 2.0f), ms = ph_compute_mass(&s, 2.0f);
    ENSURE_NEAR(mc.mass, ms.mass, 1e-5f * ms.mass);
    ENSURE_MAT3_NEAR(mc.inertia, ms.inertia, 1e-5f * ms.inertia.col[0].raw[0]);
    return 0;
}

// Outward-wound triangles of tetrahedron p[0..3].
static void tetra_triangles(const ph_vec3 p[4], int tris[12])
{
    const int faces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
    ph_vec3 e1 = glms_vec3_sub(p[1], p[0]), e2 = glms_vec3_sub(p[2], p[0]), e3 = glms_vec3_sub(p[3], p[0]);
    bool flip = glms_vec3_dot(glms_vec3_cross(e1, e2), e3) < 0.0f;
    for (int f = 0; f < 4; f++)
    {
        tris[3 * f + 0] = faces[f][0];
        tris[3 * f + 1] = flip ? faces[f][2] : faces[f][1];
        tris[3 * f + 2] = flip ? faces[f][1] : faces[f][2];
    }
}

static int mass_tetrahedron_closed_form(void)
{
    // The unit corner tetrahedron: V = 1/6, centre (1/4, 1/4, 1/4), I_xx = 1/80, I_xy = 1/480 (unit
    // density, about the centre).
    ph_vec3 unit[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
    int tris[12];
    tetra_triangles(unit, tris);
    ph_mass_properties m = ph_compute_polyhedron_mass(unit, tris, 4, 1.0f);
    ENSURE_NEAR(m.volume, 1.0f / 6.0f, 1e-7f);
    ENSURE_VEC3_NEAR(m.center, ph_v3(0.25f, 0.25f, 0.25f), 1e-7f);
    ph_mat3 expect = diag(1.0f / 80.0f, 1.0f / 80.0f, 1.0f / 80.0f);
    for (int c = 0; c < 3; c++)
    {
        for (int r = 0; r < 3; r++)
        {
            if (r != c)
                expect.col[c].raw[r] = 1.0f / 480.0f;
        }
    }
    ENSURE_MAT3_NEAR(m.inertia, expect, 1e-8f);

    // Random tetrahedra against Tonon's closed form ("Explicit exact formulas for the 3-D tetrahedron
    // inertia tensor in terms of its vertex coordinates", J. Math. Stat. 1(1), 2004). With vertex
    // offsets r_i from the centroid it reduces to I = rho V / 20 * sum_i (|r_i|^2 E - r_i r_i^T).
    uint64_t s = test_seed();
    for (int trial = 0; trial < 1000; trial++)
    {
        ph_vec3 p[4];
        for (int i = 0; i < 4; i++)
            p[i] = test_rand_vec3(&s, -2.0f, 2.0f);
        double vol =
            (double)glms_vec3_dot(glms_vec3_cross(glms_vec3_sub(p[1], p[0]), glms_vec3_sub(p[2], p[0])),
                                  glms_vec3_sub(p[3], p[0])) /
            6.0;
        vol = fabs(vol);
        if (vol < 0.05)
            continue;
        float rho = test_rand_float(&s, 0.5f, 5.0f);
        tetra_triangles(p, tris);
        m = ph_compute_polyhedron_mass(p, tris, 4, rho);
        ph_vec3 c =
            glms_vec3_scale(glms_vec3_add(glms_vec3_add(p[0], p[1]), glms_vec3_add(p[2], p[3])), 0.25f);
        double t[3][3] = {{0}};
        for (int i = 0; i < 4; i++)
        {
            ph_vec3 r = glms_vec3_sub(p[i], c);
            double r2 = (double)glms_vec3_dot(r, r);
            for (int a = 0; a < 3; a++)
            {
                for (int b = 0; b < 3; b++)
                    t[a][b] += (a == b ? r2 : 0.0) - (double)r.raw[a] * (double)r.raw[b];
            }
        }
        ph_mat3 closed;
        for (int a = 0; a < 3; a++)
        {
            for (int b = 0; b < 3; b++)
                closed.col[b].raw[a] = (float)((double)rho * vol / 20.0 * t[a][b]);
        }
        float scale = closed.col[0].raw[0] + closed.col[1].raw[1] + closed.col[2].raw[2];
        ENSURE_NEAR(m.volume, vol, 1e-5 * vol);
        ENSURE_NEAR(m.mass, (double)rho * vol, 1e-5 * (double)rho * vol);
        ENSURE_VEC3_NEAR(m.center, c, 1e-5f);
        ENSURE_MAT3_NEAR(m.inertia, closed, 1e-5f * scale);
    }
    return 0;
}

static ph_hull *hull_of(const ph_vec3 *pts, int n)
{
    ph_hull_def def = ph_default_hull_def();
    def.points = pts;
    def.point_count = n;
    def.vertex_budget = PH_HULL_MAX_VERTICES;
    return ph_hull_build(&def, NULL);
}

// The hull of a box's corners, rotated and moved, has the box's mass and the rotated tensor.
static int mass_hull_of_box_matches_analytic(void)
{
    uint64_t s = test_seed();
    for (int trial = 0; trial < 50; trial++)
    {
        ph_vec3 h = test_rand_vec3(&s, 0.1f, 2.0f);
        ph_transform xf;
        xf.p = test_rand_vec3(&s, -3.0f, 3.0f);
        xf.q = test_rand_quat(&s);
        ph_vec3 corners[8];
        for (int i = 0; i < 8; i++)
            corners[i] =
                ph_transform_point(xf, ph_v3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z));
        ph_hull *hull = hull_of(corners, 8);
        ENSURE(hull != NULL);
        ph_convex hc = ph_convex_hull(hull), bc = ph_convex_box(h);
        ph_mass_properties mh = ph_compute_mass(&hc, 2.5f);
        ph_mass_properties mb = ph_transform_mass(ph_compute_mass(&bc, 2.5f), xf);
        ph_hull_free(hull);
        float scale = mb.inertia.col[0].raw[0] + mb.inertia.col[1].raw[1] + mb.inertia.col[2].raw[2];
        ENSURE_NEAR(mh.mass, mb.mass, 1e-5f * mb.mass);
        ENSURE_NEAR(mh.volume, mb.volume, 1e-5f * mb.volume);
        ENSURE_VEC3_NEAR(mh.center, mb.center, 1e-5f);
        ENSURE_MAT3_NEAR(mh.inertia, mb.inertia, 1e-5f * scale);
    }
    return 0;
}

// The hull of 256 well-spread points on a sphere of radius R lies between the ball of radius d (its
// nearest face plane) and the ball of radius R; volume and each moment of inertia are monotonic under
// inclusion, so both balls bound the hull's values: the sampling error made explicit.
static int mass_hull_of_sampled_sphere(void)
{
    enum
    {
        N = 256
    };
    const float radius = 1.7f, rho = 3.0f;
    ph_vec3 pts[N];
    // A Fibonacci lattice: points at equal-area latitudes, turned by the golden angle.
    for (int i = 0; i < N; i++)
    {
        float y = 1.0f - 2.0f * ((float)i + 0.5f) / (float)N;
        float a = sqrtf(1.0f - y * y), phi = (float)i * 2.39996323f;
        pts[i] = glms_vec3_scale(ph_v3(a * cosf(phi), y, a * sinf(phi)), radius);
    }
    ph_hull *hull = hull_of(pts, N);
    ENSURE(hull != NULL);
    ENSURE(hull->vertex_count == N);
    float d = INFINITY;
    for (int f = 0; f < hull->face_count; f++)
        d = fminf(d, hull->faces[f].offset);
    ph_convex hc = ph_convex_hull(hull), outer = ph_convex_sphere(radius), inner = ph_convex_sphere(d);
    ph_mass_properties m = ph_compute_mass(&hc, rho);
    ph_mass_properties mo = ph_compute_mass(&outer, rho), mi = ph_compute_mass(&inner, rho);
    ph_hull_free(hull);
    printf("sampled sphere: volume %.6f in [%.6f, %.6f], I_xx %.6f in [%.6f, %.6f]\n", (double)m.volume,
           (double)mi.volume, (double)mo.volume, (double)m.inertia.col[0].raw[0],
           (double)mi.inertia.col[0].raw[0], (double)mo.inertia.col[0].raw[0]);
    ENSURE(m.volume > mi.volume && m.volume < mo.volume);
    ENSURE(m.mass > mi.mass && m.mass < mo.mass);
    float gap = mo.inertia.col[0].raw[0] - mi.inertia.col[0].raw[0];
    for (int a = 0; a < 3; a++)
    {
        ENSURE(m.inertia.col[a].raw[a] > mi.inertia.col[a].raw[a]);
        ENSURE(m.inertia.col[a].raw[a] < mo.inertia.col[a].raw[a]);
        // Products of inertia only come from the shell between the balls: |int xy| <= int (x^2+y^2)/2.
        ENSURE(fabsf(m.inertia.col[(a + 1) % 3].raw[a]) <= 0.5f * gap);
    }
    // The centre stays within the shell's lever: |c| <= R (m_outer - m_inner) / m_inner.
    ENSURE(glms_vec3_norm(m.center) <= radius * (mo.mass - mi.mass) / mi.mass);
    return 0;
}

// Moving the input moves the centre by the same offset and leaves mass and inertia unchanged.
static int mass_translation_invariance(void)
{
    uint64_t s = test_seed();
    ph_vec3 pts[60], moved[60];
    for (int trial = 0; trial < 20; trial++)
    {
        for (int i = 0; i < 60; i++)
            pts[i] = glms_vec3_mul(test_rand_vec3(&s, -1.0f, 1.0f), ph_v3(1.0f, 0.5f, 2.0f));
        ph_vec3 offset = test_rand_vec3(&s, -100.0f, 100.0f);
        for (int i = 0; i < 60; i++)
            moved[i] = glms_vec3_add(pts[i], offset);
        ph_hull *a = hull_of(pts, 60), *b = hull_of(moved, 60);
        ENSURE(a && b);
        ph_convex ca = ph_convex_hull(a), cb = ph_convex_hull(b);
        ph_mass_properties ma = ph_compute_mass(&ca, 1.0f), mb = ph_compute_mass(&cb, 1.0f);
        ph_hull_free(a);
        ph_hull_free(b);
        // The moved points are rounded to float at |x| ~ 100 (steps of 8e-6 m), which bounds the
        // agreement.
        float scale = ma.inertia.col[0].raw[0] + ma.inertia.col[1].raw[1] + ma.inertia.col[2].raw[2];
        ENSURE_NEAR(mb.mass, ma.mass, 1e-4f * ma.mass);
        ENSURE_VEC3_NEAR(mb.center, glms_vec3_add(ma.center, offset), 1e-4f);
        ENSURE_MAT3_NEAR(mb.inertia, ma.inertia, 1e-4f * scale);
    }
    return 0;
}

// Rotating a shape turns its tensor as R I R^T: the rotated box's principal moments are unchanged
// (trace and determinant), and turning back gives the diagonal tensor.
static int mass_rotation_of_inertia(void)
{
    uint64_t s = test_seed();
    ph_convex box = ph_convex_box(ph_v3(0.3f, 0.7f, 1.1f));
    ph_mass_properties m = ph_compute_mass(&box, 1.0f);
    for (int trial = 0; trial < 100; trial++)
    {
        ph_transform xf;
        xf.p = glms_vec3_zero();
        xf.q = test_rand_quat(&s);
        ph_mass_properties r = ph_transform_mass(m, xf);
        float tr = m.inertia.col[0].raw[0] + m.inertia.col[1].raw[1] + m.inertia.col[2].raw[2];
        ENSURE_NEAR(r.inertia.col[0].raw[0] + r.inertia.col[1].raw[1] + r.inertia.col[2].raw[2], tr,
                    1e-5f * tr);
        ENSURE_NEAR(glms_mat3_det(r.inertia), glms_mat3_det(m.inertia), 1e-4f * glms_mat3_det(m.inertia));
        // Symmetric.
        ENSURE_NEAR(r.inertia.col[0].raw[1], r.inertia.col[1].raw[0], 1e-6f);
        ENSURE_NEAR(r.inertia.col[0].raw[2], r.inertia.col[2].raw[0], 1e-6f);
        ENSURE_NEAR(r.inertia.col[1].raw[2], r.inertia.col[2].raw[1], 1e-6f);
        xf.q = glms_quat_conjugate(xf.q);
        ENSURE_MAT3_NEAR(ph_transform_mass(r, xf).inertia, m.inertia, 1e-5f * tr);
        // The angular momentum of a spin w is the same vector in either frame: R (I w) = I' (R w).
        ph_vec3 w = test_rand_vec3(&s, -1.0f, 1.0f);
        ph_quat q = glms_quat_conjugate(xf.q);
        ENSURE_VEC3_NEAR(glms_quat_rotatev(q, glms_mat3_mulv(m.inertia, w)),
                         glms_mat3_mulv(r.inertia, glms_quat_rotatev(q, w)), 1e-5f * tr);
    }
    return 0;
}

// Two unit cubes side by side are a 2 x 1 x 1 box: the parallel-axis terms of ph_add_mass supply the
// difference. Adding a massless set changes nothing.
static int mass_parallel_axis(void)
{
    ph_convex cube = ph_convex_box(ph_v3(0.5f, 0.5f, 0.5f)), slab = ph_convex_box(ph_v3(1.0f, 0.5f, 0.5f));
    ph_transform left = ph_transform_identity(), right = ph_transform_identity();
    left.p = ph_v3(-0.5f + 3.0f, 2.0f, -1.0f);
    right.p = ph_v3(0.5f + 3.0f, 2.0f, -1.0f);
    ph_mass_properties a = ph_transform_mass(ph_compute_mass(&cube, 4.0f), left);
    ph_mass_properties b = ph_transform_mass(ph_compute_mass(&cube, 4.0f), right);
    ph_mass_properties sum = ph_add_mass(a, b);
    ph_mass_properties expect = ph_compute_mass(&slab, 4.0f);
    ENSURE_NEAR(sum.mass, expect.mass, 1e-5f);
    ENSURE_NEAR(sum.volume, expect.volume, 1e-5f);
    ENSURE_VEC3_NEAR(sum.center, ph_v3(3.0f, 2.0f, -1.0f), 1e-6f);
    ENSURE_MAT3_NEAR(sum.inertia, expect.inertia, 1e-5f);

    // Unequal masses, off-axis: sphere + box against the tensor summed by hand about the joint centre.
    ph_convex ball = ph_convex_sphere(0.4f);
    ph_transform at = ph_transform_identity();
    at.p = ph_v3(1.0f, 2.0f, 3.0f);
    ph_mass_properties mb = ph_transform_mass(ph_compute_mass(&ball, 10.0f), at);
    ph_mass_properties mc = ph_compute_mass(&cube, 1.0f);
    ph_mass_properties both = ph_add_mass(mc, mb);
    float mt = mb.mass + mc.mass;
    ph_vec3 c = glms_vec3_scale(at.p, mb.mass / mt);
    ENSURE_VEC3_NEAR(both.center, c, 1e-6f);
    // I_xy of the pair about c: -(m_b (x_b - c_x)(y_b - c_y) + m_c (0 - c_x)(0 - c_y)).
    float ixy = -(mb.mass * (1.0f - c.x) * (2.0f - c.y) + mc.mass * c.x * c.y);
    ENSURE_NEAR(both.inertia.col[1].raw[0], ixy, 1e-5f);
    float ixx = mb.inertia.col[0].raw[0] + mc.inertia.col[0].raw[0] +
                mb.mass * ((2.0f - c.y) * (2.0f - c.y) + (3.0f - c.z) * (3.0f - c.z)) +
                mc.mass * (c.y * c.y + c.z * c.z);
    ENSURE_NEAR(both.inertia.col[0].raw[0], ixx, 1e-5f * ixx);

    ph_mass_properties none;
    memset(&none, 0, sizeof none);
    ph_mass_properties same = ph_add_mass(a, none);
    ENSURE_NEAR(same.mass, a.mass, 0.0f);
    ENSURE_VEC3_NEAR(same.center, a.center, 1e-6f);
    ENSURE_MAT3_NEAR(same.inertia, a.inertia, 1e-6f);
    return 0;
}

static int mass_rejects_bad_input(void)
{
    ph_convex bad[] = {ph_convex_sphere(-1.0f),
                       ph_convex_sphere(NAN),
                       ph_convex_capsule(-0.5f, 1.0f),
                       ph_convex_box(ph_v3(1.0f, 0.0f, 1.0f)),
                       ph_convex_box(ph_v3(1.0f, INFINITY, 1.0f)),
                       ph_convex_hull(NULL),
                       ph_convex_triangle(ph_v3(0, 0, 0), ph_v3(1, 0, 0), ph_v3(0, 1, 0))};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
        ph_mass_properties m = ph_compute_mass(&bad[i], 1.0f);
        ENSURE(m.mass == 0.0f && m.volume == 0.0f && m.inertia.col[0].raw[0] == 0.0f);
    }
    ph_convex ok = ph_convex_box(ph_v3(1, 1, 1));
    ENSURE(ph_compute_mass(&ok, 0.0f).mass == 0.0f);
    ENSURE(ph_compute_mass(&ok, NAN).mass == 0.0f);
    ENSURE(ph_compute_mass(NULL, 1.0f).mass == 0.0f);
    ph_vec3 v[3] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}};
    int open_surface[3] = {0, 1, 2};
    ENSURE(ph_compute_polyhedron_mass(NULL, open_surface, 1, 1.0f).mass == 0.0f);
    ENSURE(ph_compute_polyhedron_mass(v, open_surface, 0, 1.0f).mass == 0.0f);
    // A single triangle encloses no volume.
    ENSURE(ph_compute_polyhedron_mass(v, open_surface, 1, 1.0f).mass == 0.0f);
    int negative[3] = {0, -1, 2};
    ENSURE(ph_compute_polyhedron_mass(v, negative, 1, 1.0f).mass == 0.0f);
    return 0;
}

// Real models from ../shared/testdata/obj, whose volumes and centroids SOURCES.md lists (computed there
// by an independent script): closed meshes through ph_compute_polyhedron_mass, and the convex objects
// of test_map01 also through their hulls, which must agree with their own triangles.
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

// Mass properties of triangles [first, first + count) of m at density 1, and optionally of the hull of
// their corners.
static ph_mass_properties model_mass(const obj_model *m, int first, int count, ph_mass_properties *hull_mass)
{
    ph_vec3 *v = malloc(sizeof(ph_vec3) * (size_t)m->position_count);
    int *tris = malloc(sizeof(int) * 3 * (size_t)count);
    ph_vec3 *pts = malloc(sizeof(ph_vec3) * 3 * (size_t)count);
    ph_mass_properties r;
    memset(&r, 0, sizeof r);
    if (v && tris && pts)
    {
        for (int i = 0; i < m->position_count; i++)
            v[i] = ph_v3(m->positions[3 * i], m->positions[3 * i + 1], m->positions[3 * i + 2]);
        for (int t = 0; t < count; t++)
        {
            for (int k = 0; k < 3; k++)
            {
                tris[3 * t + k] = m->triangles[first + t].corner[k].position;
                pts[3 * t + k] = v[tris[3 * t + k]];
            }
        }
        r = ph_compute_polyhedron_mass(v, tris, count, 1.0f);
        if (hull_mass)
        {
            ph_hull *h = hull_of(pts, 3 * count);
            ph_convex c = ph_convex_hull(h);
            memset(hull_mass, 0, sizeof *hull_mass);
            if (h)
                *hull_mass = ph_compute_mass(&c, 1.0f);
            ph_hull_free(h);
        }
    }
    free(v);
    free(tris);
    free(pts);
    return r;
}

static int mass_real_models(void)
{
    REQUIRE_SHARED_TESTDATA();
    obj_model *bunny = load_shared("low_poly_bunny.obj");
    ENSURE(bunny != NULL);
    ph_mass_properties hb;
    ph_mass_properties b = model_mass(bunny, 0, bunny->triangle_count, &hb);
    obj_free(bunny);
    printf("bunny: volume %.6f, centre (%.5f %.5f %.5f); hull volume %.6f\n", (double)b.volume,
           (double)b.center.x, (double)b.center.y, (double)b.center.z, (double)hb.volume);
    ENSURE_NEAR(b.volume, 5.97041f, 2e-5f);
    ENSURE_VEC3_NEAR(b.center, ph_v3(-0.41834f, 0.73644f, 0.21707f), 2e-5f);
    // The hull contains the (non-convex) bunny.
    ENSURE(hb.volume > b.volume);

    obj_model *cube = load_shared("cube.obj");
    ENSURE(cube != NULL);
    ph_mass_properties hc;
    ph_mass_properties c = model_mass(cube, 0, cube->triangle_count, &hc);
    obj_free(cube);
    ph_convex box = ph_convex_box(ph_v3(1, 1, 1));
    ph_mass_properties exact = ph_compute_mass(&box, 1.0f);
    ENSURE_NEAR(c.volume, 8.0f, 1e-5f);
    ENSURE_NEAR(hc.volume, 8.0f, 1e-5f);
    ENSURE_MAT3_NEAR(c.inertia, exact.inertia, 1e-5f);
    ENSURE_MAT3_NEAR(hc.inertia, exact.inertia, 1e-5f);

    // The spot's quads and pentagons are not planar, so its volume depends on how they are split (any
    // triangulation gives 0.815 to 0.884; SOURCES.md's 0.844791 is the fan from the first vertex, and the
    // loader ear-clips). So the reference here is the same triangles' signed tetrahedra from the origin,
    // summed in double: volume and centre.
    obj_model *spot = load_shared("spot_control_mesh.obj");
    ENSURE(spot != NULL);
    ph_mass_properties sp = model_mass(spot, 0, spot->triangle_count, NULL);
    double vol = 0.0, moment[3] = {0.0, 0.0, 0.0};
    for (int t = 0; t < spot->triangle_count; t++)
    {
        double p[3][3];
        for (int k = 0; k < 3; k++)
        {
            const float *q = spot->positions + 3 * spot->triangles[t].corner[k].position;
            p[k][0] = (double)q[0];
            p[k][1] = (double)q[1];
            p[k][2] = (double)q[2];
        }
        double v6 = p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) -
                    p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0]) +
                    p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0]);
        vol += v6 / 6.0;
        for (int k = 0; k < 3; k++)
            moment[k] += v6 / 6.0 * (p[0][k] + p[1][k] + p[2][k]) / 4.0;
    }
    obj_free(spot);
    printf("spot: volume %.6f (tetra sum %.6f), centre (%.5f %.5f %.5f)\n", (double)sp.volume, vol,
           (double)sp.center.x, (double)sp.center.y, (double)sp.center.z);
    ENSURE(vol > 0.815 && vol < 0.885);
    ENSURE_NEAR(sp.volume, vol, 1e-5 * vol);
    ENSURE_VEC3_NEAR(sp.center,
                     ph_v3((float)(moment[0] / vol), (float)(moment[1] / vol), (float)(moment[2] / vol)),
                     1e-5f);

    obj_model *map = load_shared("test_map01.obj");
    ENSURE(map != NULL);
    const float volumes[] = {1600.0f, 8.0f, 39.99995f, 0.1377661f, 0.1377661f, 0.1377661f, 0.1377661f};
    int rc = map->object_count == 7 ? 0 : 1;
    for (int o = 0; o < map->object_count && !rc; o++)
    {
        ph_mass_properties h;
        ph_mass_properties t =
            model_mass(map, map->objects[o].first_triangle, map->objects[o].triangle_count, &h);
        printf("test_map01 %s: volume %.7g (listed %.7g), hull %.7g\n", map->objects[o].name,
               (double)t.volume, (double)volumes[o], (double)h.volume);
        float scale = t.inertia.col[0].raw[0] + t.inertia.col[1].raw[1] + t.inertia.col[2].raw[2];
        if (!(fabsf(t.volume - volumes[o]) <= 1e-5f * volumes[o] &&
              fabsf(h.volume - volumes[o]) <= 1e-5f * volumes[o] &&
              glms_vec3_norm(glms_vec3_sub(t.center, h.center)) <=
                  1e-5f * (1.0f + glms_vec3_norm(t.center)) &&
              ensure_mat3_near(t.inertia, h.inertia, 1e-5f * scale) == 0))
            rc = 1;
    }
    obj_free(map);
    ENSURE(rc == 0);
    return 0;
}

const test_case test_mass_cases[] = {
    {"mass_box_analytic", mass_box_analytic},
    {"mass_sphere_analytic", mass_sphere_analytic},
    {"mass_capsule_analytic", mass_capsule_analytic},
    {"mass_tetrahedron_closed_form", mass_tetrahedron_closed_form},
    {"mass_hull_of_box_matches_analytic", mass_hull_of_box_matches_analytic},
    {"mass_hull_of_sampled_sphere", mass_hull_of_sampled_sphere},
    {"mass_translation_invariance", mass_translation_invariance},
    {"mass_rotation_of_inertia", mass_rotation_of_inertia},
    {"mass_parallel_axis", mass_parallel_axis},
    {"mass_rejects_bad_input", mass_rejects_bad_input},
    {"mass_real_models", mass_real_models},
    {0},
};
