// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// GJK distance and intersection between two posed convex shapes (Gilbert, Johnson and Keerthi 1988),
// with the signed-volume sub-algorithm of Montanari, Petrinic and Barbieri, "Improving the GJK
// algorithm for faster and more reliable distance queries between convex objects" (ACM TOG 2017).
// It works on the Minkowski difference B - A posed in A's frame (one rotation per support saved), with
// local supports of each shape; results are turned to world at the end. Spheres and capsules run on
// their cores (point, segment) and get their radius added back, which makes their distances exact. A
// boolean variant (sign tests only) answers intersection queries. EPA (epa.c), the manifold
// (manifold.c) and time of impact (toi.c) build on ph_gjk_run.
#include "phys/gjk.h"

#include <float.h>  // FLT_MAX, DBL_MAX
#include <math.h>   // sqrtf, fabsf, fabs, copysignf
#include <string.h> // memset

// Termination: the gap between the upper bound |v| and the lower bound dot(v/|v|, w) of the distance
// is below this fraction of the distance (Montanari's epsilon_rel, adapted to float precision).
static const float GJK_RELATIVE_TOLERANCE = 1e-5f;
// ... or below this fraction of the shapes' extent, which float rounding of the supports cannot beat.
static const float GJK_ABSOLUTE_TOLERANCE = 2e-7f;
// The origin counts as on the simplex (touching or overlapping) when |v| is below this fraction of the
// largest simplex vertex norm (Montanari's epsilon_tol). Touching within it reports overlap.
static const float GJK_OVERLAP_TOLERANCE = 1e-6f;
// A transform's quaternion may be off unit length by this much and still be accepted.
static const float UNIT_QUATERNION_TOLERANCE = 1e-3f;

bool ph_transform_is_valid(ph_transform xf)
{
    if (!ph_is_finite_vec3(xf.p) || !ph_is_finite_quat(xf.q))
        return false;
    float n2 = glms_quat_dot(xf.q, xf.q);
    return fabsf(n2 - 1.0f) <= UNIT_QUATERNION_TOLERANCE;
}

bool ph_convex_is_valid(const ph_convex *s)
{
    if (!s)
        return false;
    switch (s->type)
    {
    case PH_SHAPE_SPHERE:
        return ph_is_finite_float(s->radius) && s->radius > 0.0f;
    case PH_SHAPE_CAPSULE:
        return ph_is_finite_float(s->radius) && s->radius > 0.0f && ph_is_finite_float(s->half_height) &&
               s->half_height >= 0.0f;
    case PH_SHAPE_BOX:
        return ph_is_finite_vec3(s->half_extents) && s->half_extents.x > 0.0f && s->half_extents.y > 0.0f &&
               s->half_extents.z > 0.0f;
    case PH_SHAPE_HULL:
        return s->hull && s->hull->vertex_count >= 4 && s->hull->vertices && s->hull->adjacency_offsets;
    case PH_SHAPE_TRIANGLE:
        return ph_is_finite_vec3(s->tri[0]) && ph_is_finite_vec3(s->tri[1]) && ph_is_finite_vec3(s->tri[2]);
    case PH_SHAPE_COMPOUND:
    case PH_SHAPE_MESH:
    case PH_SHAPE_COUNT:
        break;
    }
    return false;
}

float ph_convex_extent(const ph_convex *s)
{
    switch (s->type)
    {
    case PH_SHAPE_SPHERE:
        return s->radius;
    case PH_SHAPE_CAPSULE:
        return s->half_height + s->radius;
    case PH_SHAPE_BOX:
        return glms_vec3_norm(s->half_extents);
    case PH_SHAPE_HULL:
    {
        ph_vec3 lo = s->hull->bounds.lo, hi = s->hull->bounds.hi;
        return glms_vec3_norm(glms_vec3_maxv(glms_vec3_abs(lo), glms_vec3_abs(hi)));
    }
    case PH_SHAPE_TRIANGLE:
        return sqrtf(glm_max(glms_vec3_norm2(s->tri[0]),
                             glm_max(glms_vec3_norm2(s->tri[1]), glms_vec3_norm2(s->tri[2]))));
    default:
        return 0.0f;
    }
}

// Uses s = 2 / |q|^2, which keeps it a rotation for a quaternion of any length without a square root.
ph_mat3 ph_quat_to_mat3(ph_quat q)
{
    float s = 2.0f / (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    float xs = q.x * s, ys = q.y * s, zs = q.z * s;
    float wx = q.w * xs, wy = q.w * ys, wz = q.w * zs;
    float xx = q.x * xs, xy = q.x * ys, xz = q.x * zs;
    float yy = q.y * ys, yz = q.y * zs, zz = q.z * zs;
    ph_mat3 m;
    m.col[0] = ph_v3(1.0f - (yy + zz), xy + wz, xz - wy);
    m.col[1] = ph_v3(xy - wz, 1.0f - (xx + zz), yz + wx);
    m.col[2] = ph_v3(xz + wy, yz - wx, 1.0f - (xx + yy));
    return m;
}

static ph_mat3 transpose(ph_mat3 m)
{
    ph_mat3 t;
    t.col[0] = ph_v3(m.col[0].x, m.col[1].x, m.col[2].x);
    t.col[1] = ph_v3(m.col[0].y, m.col[1].y, m.col[2].y);
    t.col[2] = ph_v3(m.col[0].z, m.col[1].z, m.col[2].z);
    return t;
}

void ph_gjk_proxy_init(ph_gjk_proxy *p, const ph_convex *shape, ph_transform xf, bool core)
{
    p->shape = shape;
    p->xf = xf;
    p->rot = ph_quat_to_mat3(xf.q);
    p->rot_t = transpose(p->rot);
    p->identity = false;
    p->hull_start = -1;
    p->core = core && (shape->type == PH_SHAPE_SPHERE || shape->type == PH_SHAPE_CAPSULE);
    p->radius = p->core ? shape->radius : 0.0f;
}

void ph_gjk_pair_init(ph_gjk_proxy *pa, ph_gjk_proxy *pb, const ph_convex *a, ph_transform xa,
                      const ph_convex *b, ph_transform xb, bool core)
{
    pa->shape = a;
    pa->xf.p = glms_vec3_zero();
    pa->xf.q = glms_quat_identity();
    pa->rot = pa->rot_t = glms_mat3_identity();
    pa->hull_start = -1;
    pa->core = core && (a->type == PH_SHAPE_SPHERE || a->type == PH_SHAPE_CAPSULE);
    pa->radius = pa->core ? a->radius : 0.0f;
    pa->identity = true;
    // B in A's frame: rotation Ra^T Rb, translation Ra^T (pb - pa).
    ph_mat3 ra_t = transpose(ph_quat_to_mat3(xa.q));
    ph_mat3 rb = ph_quat_to_mat3(xb.q);
    pb->shape = b;
    pb->rot = glms_mat3_mul(ra_t, rb);
    pb->rot_t = transpose(pb->rot);
    pb->xf.p = glms_mat3_mulv(ra_t, glms_vec3_sub(xb.p, xa.p));
    pb->xf.q = glms_quat_mul(glms_quat_conjugate(xa.q), xb.q);
    pb->identity = false;
    pb->hull_start = -1;
    pb->core = core && (b->type == PH_SHAPE_SPHERE || b->type == PH_SHAPE_CAPSULE);
    pb->radius = pb->core ? b->radius : 0.0f;
}

void ph_gjk_output_to_world(ph_gjk_output *out, ph_transform xa)
{
    out->point_a = ph_transform_point(xa, out->point_a);
    out->point_b = ph_transform_point(xa, out->point_b);
    out->normal = glms_quat_rotatev(xa.q, out->normal);
    for (int i = 0; i < out->simplex.count; i++)
        out->simplex.v[i].w = glms_quat_rotatev(xa.q, out->simplex.v[i].w);
}

ph_vec3 ph_gjk_proxy_support_local(ph_gjk_proxy *p, ph_vec3 d)
{
    const ph_convex *s = p->shape;
    switch (s->type)
    {
    case PH_SHAPE_BOX:
    {
        // Inlined here because boxes are the common case: each coordinate takes the sign of d. copysignf
        // is branch-free; random directions would mispredict a branch half of the time.
        ph_vec3 h = s->half_extents;
        return ph_v3(copysignf(h.x, d.x), copysignf(h.y, d.y), copysignf(h.z, d.z));
    }
    case PH_SHAPE_HULL:
        return s->hull->vertices[ph_hull_support_index(s->hull, d, &p->hull_start)];
    case PH_SHAPE_SPHERE:
        if (p->core)
            return glms_vec3_zero();
        break;
    case PH_SHAPE_CAPSULE:
        if (p->core)
            return ph_v3(0.0f, d.y >= 0.0f ? s->half_height : -s->half_height, 0.0f);
        break;
    default:
        break;
    }
    return ph_convex_support(s, d);
}

static ph_vec3 to_world(const ph_gjk_proxy *p, ph_vec3 x)
{
    if (p->identity)
        return x;
    return glms_vec3_add(glms_mat3_mulv(p->rot, x), p->xf.p);
}

ph_simplex_vertex ph_gjk_support(ph_gjk_proxy *a, ph_gjk_proxy *b, ph_vec3 d)
{
    ph_simplex_vertex v;
    ph_vec3 da = a->identity ? glms_vec3_negate(d) : glms_mat3_mulv(a->rot_t, glms_vec3_negate(d));
    ph_vec3 db = b->identity ? d : glms_mat3_mulv(b->rot_t, d);
    v.local_a = ph_gjk_proxy_support_local(a, da);
    v.local_b = ph_gjk_proxy_support_local(b, db);
    v.w = glms_vec3_sub(to_world(b, v.local_b), to_world(a, v.local_a));
    return v;
}

void ph_gjk_refresh_vertex(const ph_gjk_proxy *a, const ph_gjk_proxy *b, ph_simplex_vertex *v)
{
    v->w = glms_vec3_sub(to_world(b, v->local_b), to_world(a, v->local_a));
}

// ---- Signed-volume sub-algorithm ----------------------------------------------------------------------
// Each solver finds the point of the simplex closest to the origin as barycentric weights lambda over its
// vertices, zero for the vertices not in the supporting sub-simplex. Instead of Johnson's determinant
// recursion over all sub-simplices it computes signed volumes (areas) of the projection of the origin
// and only descends into the faces (edges) whose opposite weight has the wrong sign; a flat or
// degenerate simplex makes every sign "wrong" and all faces are tried, which is what makes it robust.
// The solver runs in double precision: the simplex of a 1 km slab against a 1 m hull has vertices a
// thousand times farther from the origin than its distance, and float areas and volumes lose the few
// digits that decide on which side the origin lies (GJK then stalls and reports a false separation).
// The supports stay in float; only this small, hot but cheap step is widened.

typedef struct dvec3
{
    double x, y, z;
} dvec3;

static dvec3 dv(ph_vec3 v)
{
    dvec3 d = {(double)v.x, (double)v.y, (double)v.z};
    return d;
}

static dvec3 dsub(dvec3 a, dvec3 b)
{
    dvec3 d = {a.x - b.x, a.y - b.y, a.z - b.z};
    return d;
}

static double ddot(dvec3 a, dvec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

static dvec3 dcross(dvec3 a, dvec3 b)
{
    dvec3 d = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return d;
}

static dvec3 dscale(dvec3 a, double k)
{
    dvec3 d = {a.x * k, a.y * k, a.z * k};
    return d;
}

static double dcomp(dvec3 a, int i)
{
    return i == 0 ? a.x : (i == 1 ? a.y : a.z);
}

static double segment_closest(dvec3 s0, dvec3 s1, double lambda[2])
{
    dvec3 t = dsub(s1, s0);
    double tt = ddot(t, t);
    double u = tt > 0.0 ? -ddot(s0, t) / tt : 0.0;
    if (u <= 0.0)
    {
        lambda[0] = 1.0;
        lambda[1] = 0.0;
        return ddot(s0, s0);
    }
    if (u >= 1.0)
    {
        lambda[0] = 0.0;
        lambda[1] = 1.0;
        return ddot(s1, s1);
    }
    lambda[0] = 1.0 - u;
    lambda[1] = u;
    dvec3 p = {s0.x + t.x * u, s0.y + t.y * u, s0.z + t.z * u};
    return ddot(p, p);
}

// Twice the signed area of the projection of triangle (p, q, r) on the coordinate plane (i, j).
static double area2(dvec3 p, dvec3 q, dvec3 r, int i, int j)
{
    return (dcomp(q, i) - dcomp(p, i)) * (dcomp(r, j) - dcomp(p, j)) -
           (dcomp(q, j) - dcomp(p, j)) * (dcomp(r, i) - dcomp(p, i));
}

static double triangle_closest(const dvec3 s[3], double lambda[3])
{
    dvec3 n = dcross(dsub(s[1], s[0]), dsub(s[2], s[0]));
    double nn = ddot(n, n);
    int wrong_sign[3] = {1, 1, 1};
    if (nn > 0.0)
    {
        // Project the origin on the plane, then compare signed areas in the coordinate plane where the
        // triangle's projection is largest (the best-conditioned one).
        dvec3 p0 = dscale(n, ddot(s[0], n) / nn);
        int k = 0;
        if (fabs(n.y) > fabs(dcomp(n, k)))
            k = 1;
        if (fabs(n.z) > fabs(dcomp(n, k)))
            k = 2;
        int i = (k + 1) % 3, j = (k + 2) % 3;
        double mu = area2(s[0], s[1], s[2], i, j);
        double c[3] = {area2(p0, s[1], s[2], i, j), area2(s[0], p0, s[2], i, j), area2(s[0], s[1], p0, i, j)};
        for (int m = 0; m < 3; m++)
            wrong_sign[m] = !(c[m] * mu > 0.0);
        if (!wrong_sign[0] && !wrong_sign[1] && !wrong_sign[2])
        {
            double sum = c[0] + c[1] + c[2];
            for (int m = 0; m < 3; m++)
                lambda[m] = c[m] / sum;
            return ddot(p0, p0);
        }
    }
    // Outside: the closest point is on an edge opposite a vertex whose weight has the wrong sign, and only
    // those edges are tried. A degenerate triangle tries all three.
    double best = DBL_MAX;
    for (int m = 0; m < 3; m++)
    {
        if (wrong_sign[m] == 0)
            continue;
        int e0 = (m + 1) % 3, e1 = (m + 2) % 3;
        double l2[2];
        double d2 = segment_closest(s[e0], s[e1], l2);
        if (d2 < best)
        {
            best = d2;
            lambda[m] = 0.0;
            lambda[e0] = l2[0];
            lambda[e1] = l2[1];
        }
    }
    return best;
}

static double triple(dvec3 a, dvec3 b, dvec3 c)
{
    return ddot(a, dcross(b, c));
}

static double tetrahedron_closest(const dvec3 s[4], double lambda[4])
{
    // Volumes of the tetrahedra with vertex m replaced by the origin; they sum to the full volume.
    dvec3 o = {0.0, 0.0, 0.0};
    double c[4];
    c[0] = triple(s[1], s[2], s[3]);
    c[1] = triple(dsub(o, s[0]), dsub(s[2], s[0]), dsub(s[3], s[0]));
    c[2] = triple(dsub(s[1], s[0]), dsub(o, s[0]), dsub(s[3], s[0]));
    c[3] = triple(dsub(s[1], s[0]), dsub(s[2], s[0]), dsub(o, s[0]));
    double vol = c[0] + c[1] + c[2] + c[3];
    bool inside = true;
    for (int m = 0; m < 4; m++)
        inside = inside && c[m] * vol > 0.0;
    if (inside)
    {
        for (int m = 0; m < 4; m++)
            lambda[m] = c[m] / vol;
        return 0.0;
    }
    double best = DBL_MAX;
    for (int m = 0; m < 4; m++)
    {
        if (c[m] * vol > 0.0)
            continue; // the origin is on the inner side of the face opposite m
        dvec3 f[3];
        int idx[3], k = 0;
        for (int q = 0; q < 4; q++)
        {
            if (q != m)
            {
                idx[k] = q;
                f[k++] = s[q];
            }
        }
        double l3[3];
        double d2 = triangle_closest(f, l3);
        if (d2 < best)
        {
            best = d2;
            lambda[m] = 0.0;
            for (int q = 0; q < 3; q++)
                lambda[idx[q]] = l3[q];
        }
    }
    return best;
}

// Writes into out the vertices of in with non-zero weight (their weights into lambda) and returns the
// closest point v (out_v2: its squared length, from the double-precision solve).
static ph_vec3 solve_simplex(const ph_simplex *in, ph_simplex *out, float lambda[4], float *out_v2)
{
    dvec3 pts[4];
    double l[4] = {1.0, 0.0, 0.0, 0.0};
    for (int i = 0; i < in->count; i++)
        pts[i] = dv(in->v[i].w);
    switch (in->count)
    {
    case 1:
        break;
    case 2:
        segment_closest(pts[0], pts[1], l);
        break;
    case 3:
        triangle_closest(pts, l);
        break;
    default:
        tetrahedron_closest(pts, l);
        break;
    }
    out->count = 0;
    dvec3 v = {0.0, 0.0, 0.0};
    for (int i = 0; i < in->count; i++)
    {
        if (l[i] > 0.0)
        {
            lambda[out->count] = (float)l[i];
            out->v[out->count++] = in->v[i];
            v.x += pts[i].x * l[i];
            v.y += pts[i].y * l[i];
            v.z += pts[i].z * l[i];
        }
    }
    if (out->count == 0)
    {
        // Only rounding can get here (all weights zero); keep the first vertex.
        lambda[0] = 1.0f;
        out->v[0] = in->v[0];
        out->count = 1;
        v = pts[0];
    }
    *out_v2 = (float)ddot(v, v);
    return ph_v3((float)v.x, (float)v.y, (float)v.z);
}

static void witness_points(const ph_gjk_proxy *a, const ph_gjk_proxy *b, const ph_simplex *s,
                           const float lambda[4], ph_gjk_output *out)
{
    ph_vec3 la = glms_vec3_zero(), lb = glms_vec3_zero();
    for (int i = 0; i < s->count; i++)
    {
        la = glms_vec3_add(la, glms_vec3_scale(s->v[i].local_a, lambda[i]));
        lb = glms_vec3_add(lb, glms_vec3_scale(s->v[i].local_b, lambda[i]));
    }
    out->point_a = to_world(a, la);
    out->point_b = to_world(b, lb);
}

// The GJK loop: stops with PH_GJK_SEPARATED as soon as a plane separates the Minkowski difference from the
// ball of radius `stop` around the origin (stop is `grow` for ph_gjk_run's intersect_only, the limit of
// ph_gjk_run_within, infinite for the full answer).
static ph_gjk_status gjk_loop(ph_gjk_proxy *a, ph_gjk_proxy *b, const ph_simplex *warm, bool intersect_only,
                              float stop, ph_gjk_output *out)
{
    // Two buffers in turn: the simplex before solving (the last reduced simplex plus the new vertex) and
    // after. When a new vertex makes no progress, the previous reduced simplex is the first one without its
    // last vertex, so no copy is kept.
    ph_simplex buffers[2];
    ph_simplex *cur = &buffers[0], *reduced = &buffers[1];
    cur->count = 0;
    if (warm && warm->count >= 1 && warm->count <= 4)
    {
        *cur = *warm;
        for (int i = 0; i < cur->count; i++)
            ph_gjk_refresh_vertex(a, b, &cur->v[i]);
    }
    else
    {
        // Start towards the origin from the difference of the frame origins.
        ph_vec3 d = glms_vec3_sub(a->xf.p, b->xf.p);
        if (glms_vec3_norm2(d) <= 0.0f)
            d = ph_v3(1.0f, 0.0f, 0.0f);
        cur->v[0] = ph_gjk_support(a, b, d);
        cur->count = 1;
    }

    float max_w2 = 0.0f;
    for (int i = 0; i < cur->count; i++)
        max_w2 = glm_max(max_w2, glms_vec3_norm2(cur->v[i].w));

    float lambda[4] = {1.0f, 0.0f, 0.0f, 0.0f}, prev_lambda[4] = {1.0f, 0.0f, 0.0f, 0.0f};
    float prev_v2 = FLT_MAX;
    float stop2 = stop * stop; // infinite for no early stop: then no product compares above it
    ph_gjk_status status = PH_GJK_MAX_ITERATIONS;
    const ph_simplex *result = cur;
    const float *result_lambda = lambda;
    int iter = 0;
    for (; iter < PH_GJK_ITERATION_LIMIT; iter++)
    {
        float v2;
        ph_vec3 v = solve_simplex(cur, reduced, lambda, &v2);
        result = reduced;
        result_lambda = lambda;
        if (reduced->count == 4 || v2 <= GJK_OVERLAP_TOLERANCE * GJK_OVERLAP_TOLERANCE * max_w2)
        {
            status = PH_GJK_OVERLAPPING;
            break;
        }
        if (v2 >= prev_v2)
        {
            // No progress: rounding has made the last vertex useless. The previous simplex stands.
            cur->count--;
            result = cur;
            result_lambda = prev_lambda;
            status = PH_GJK_SEPARATED;
            break;
        }
        prev_v2 = v2;
        memcpy(prev_lambda, lambda, sizeof lambda);

        ph_simplex_vertex w = ph_gjk_support(a, b, glms_vec3_negate(v));
        float vw = glms_vec3_dot(v, w.w);
        // The plane through w normal to v bounds the difference: its distance to the origin, vw / |v|,
        // is a lower bound of the distance (upper bound: |v|).
        if (vw > 0.0f && vw * vw > stop2 * v2)
        {
            status = PH_GJK_SEPARATED;
            iter++;
            break;
        }
        max_w2 = glm_max(max_w2, glms_vec3_norm2(w.w));
        float gap = v2 - vw;
        if (gap <= GJK_RELATIVE_TOLERANCE * v2 ||
            gap * gap <= GJK_ABSOLUTE_TOLERANCE * GJK_ABSOLUTE_TOLERANCE * max_w2 * v2)
        {
            status = PH_GJK_SEPARATED;
            iter++;
            break;
        }
        bool duplicate = false;
        for (int i = 0; i < reduced->count; i++)
            duplicate = duplicate || glms_vec3_eqv(reduced->v[i].w, w.w);
        if (duplicate)
        {
            status = PH_GJK_SEPARATED;
            iter++;
            break;
        }
        reduced->v[reduced->count++] = w;
        ph_simplex *tmp = cur;
        cur = reduced;
        reduced = tmp;
    }
    ph_vec3 v = glms_vec3_zero();
    for (int i = 0; i < result->count; i++)
        v = glms_vec3_add(v, glms_vec3_scale(result->v[i].w, result_lambda[i]));
    out->status = status;
    out->iterations = iter;
    out->simplex = *result;
    out->distance = status == PH_GJK_OVERLAPPING ? 0.0f : glms_vec3_norm(v);
    if (intersect_only)
    {
        // The caller needs the answer and the distance estimate only.
        out->point_a = out->point_b = out->normal = glms_vec3_zero();
        return status;
    }
    witness_points(a, b, result, result_lambda, out);
    out->normal =
        status == PH_GJK_OVERLAPPING ? glms_vec3_zero() : ph_safe_normalize(v, ph_v3(0.0f, 1.0f, 0.0f));
    return status;
}

ph_gjk_status ph_gjk_run(ph_gjk_proxy *a, ph_gjk_proxy *b, const ph_simplex *warm, bool intersect_only,
                         float grow, ph_gjk_output *out)
{
    return gjk_loop(a, b, warm, intersect_only, intersect_only ? grow : INFINITY, out);
}

ph_gjk_status ph_gjk_run_within(ph_gjk_proxy *a, ph_gjk_proxy *b, const ph_simplex *warm, float limit,
                                ph_gjk_output *out)
{
    return gjk_loop(a, b, warm, false, limit, out);
}

static bool inputs_valid(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb)
{
    return ph_convex_is_valid(a) && ph_convex_is_valid(b) && ph_transform_is_valid(xa) &&
           ph_transform_is_valid(xb);
}

ph_gjk_status ph_gjk_distance(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                              ph_gjk_cache *cache, ph_gjk_output *out)
{
    if (!out)
        return PH_GJK_DEGENERATE;
    memset(out, 0, sizeof *out);
    if (!inputs_valid(a, xa, b, xb))
    {
        out->status = PH_GJK_DEGENERATE;
        return out->status;
    }
    ph_gjk_proxy pa, pb;
    ph_gjk_pair_init(&pa, &pb, a, xa, b, xb, true);
    ph_gjk_run(&pa, &pb, cache ? &cache->simplex : NULL, false, 0.0f, out);
    ph_gjk_output_to_world(out, xa);
    if (cache)
        cache->simplex = out->simplex;

    float rounding = pa.radius + pb.radius;
    if (rounding > 0.0f)
    {
        // Grow the cores back: the closest points move along the normal by each radius.
        if (out->status != PH_GJK_OVERLAPPING && out->distance > rounding)
        {
            out->point_a = glms_vec3_add(out->point_a, glms_vec3_scale(out->normal, pa.radius));
            out->point_b = glms_vec3_sub(out->point_b, glms_vec3_scale(out->normal, pb.radius));
            out->distance -= rounding;
        }
        else
        {
            out->status = PH_GJK_OVERLAPPING;
            out->distance = 0.0f;
        }
    }
    return out->status;
}

// ---- Boolean GJK -----------------------------------------------------------------------------------------
// For a yes/no answer on shapes without rounding the closest point is not needed, only on which side of
// each simplex feature the origin lies. This is the classic boolean form of GJK (as in libccd and in
// Casey Muratori's "Implementing GJK", 2006): keep the sub-simplex whose Voronoi region holds the origin
// using sign tests of cross and dot products (no division, no square root), search towards the origin
// from it, stop with "separated" when a support fails to pass the origin, and with "overlapping" when a
// tetrahedron encloses it. The origin on a simplex feature counts as overlapping (touching).

typedef enum bool_step
{
    BOOL_CONTINUE,
    BOOL_OVERLAP
} bool_step;

static ph_vec3 cross_aba(ph_vec3 ab, ph_vec3 ao)
{
    // (ab x ao) x ab: perpendicular to ab, towards ao.
    return glms_vec3_cross(glms_vec3_cross(ab, ao), ab);
}

// Line [a (newest), b]. Updates the simplex and the search direction.
static bool_step bool_line(ph_simplex_vertex *s, int *count, ph_vec3 *d)
{
    ph_vec3 a = s[0].w, ab = glms_vec3_sub(s[1].w, a), ao = glms_vec3_negate(a);
    if (glms_vec3_dot(ab, ao) > 0.0f)
    {
        *d = cross_aba(ab, ao);
        *count = 2;
        return glms_vec3_norm2(*d) > 0.0f ? BOOL_CONTINUE : BOOL_OVERLAP; // origin on the segment
    }
    *count = 1;
    *d = ao;
    return BOOL_CONTINUE;
}

// Triangle [a (newest), b, c].
static bool_step bool_triangle(ph_simplex_vertex *s, int *count, ph_vec3 *d)
{
    ph_vec3 a = s[0].w, ab = glms_vec3_sub(s[1].w, a), ac = glms_vec3_sub(s[2].w, a);
    ph_vec3 ao = glms_vec3_negate(a), abc = glms_vec3_cross(ab, ac);
    if (glms_vec3_dot(glms_vec3_cross(abc, ac), ao) > 0.0f)
    {
        if (glms_vec3_dot(ac, ao) > 0.0f)
        {
            s[1] = s[2]; // [a, c]
            *count = 2;
            *d = cross_aba(ac, ao);
            return glms_vec3_norm2(*d) > 0.0f ? BOOL_CONTINUE : BOOL_OVERLAP;
        }
        return bool_line(s, count, d); // [a, b]
    }
    if (glms_vec3_dot(glms_vec3_cross(ab, abc), ao) > 0.0f)
        return bool_line(s, count, d);
    float side = glms_vec3_dot(abc, ao);
    *count = 3;
    if (side > 0.0f)
    {
        *d = abc;
    }
    else if (side < 0.0f)
    {
        // Keep the winding such that the origin is above (a, b, c) in the tetrahedron step.
        ph_simplex_vertex t = s[1];
        s[1] = s[2];
        s[2] = t;
        *d = glms_vec3_negate(abc);
    }
    else
    {
        return BOOL_OVERLAP; // the origin lies in the triangle
    }
    return glms_vec3_norm2(*d) > 0.0f ? BOOL_CONTINUE : BOOL_OVERLAP;
}

// Tetrahedron [a (newest), b, c, d] with the origin above triangle (b, c, d) towards a. The origin is
// inside unless it is outside one of the three faces through a.
static bool_step bool_tetrahedron(ph_simplex_vertex *s, int *count, ph_vec3 *d)
{
    ph_vec3 a = s[0].w, ab = glms_vec3_sub(s[1].w, a), ac = glms_vec3_sub(s[2].w, a),
            ad = glms_vec3_sub(s[3].w, a);
    ph_vec3 ao = glms_vec3_negate(a);
    ph_vec3 abc = glms_vec3_cross(ab, ac), acd = glms_vec3_cross(ac, ad), adb = glms_vec3_cross(ad, ab);
    if (glms_vec3_dot(abc, ao) > 0.0f)
    {
        *count = 3; // [a, b, c]
        return bool_triangle(s, count, d);
    }
    if (glms_vec3_dot(acd, ao) > 0.0f)
    {
        s[1] = s[2];
        s[2] = s[3]; // [a, c, d]
        *count = 3;
        return bool_triangle(s, count, d);
    }
    if (glms_vec3_dot(adb, ao) > 0.0f)
    {
        ph_simplex_vertex b = s[1];
        s[1] = s[3];
        s[2] = b; // [a, d, b]
        *count = 3;
        return bool_triangle(s, count, d);
    }
    return BOOL_OVERLAP;
}

ph_gjk_status ph_gjk_boolean(ph_gjk_proxy *a, ph_gjk_proxy *b, ph_simplex *out_simplex)
{
    ph_simplex_vertex s[4];
    int count = 1;
    ph_vec3 d = glms_vec3_sub(a->xf.p, b->xf.p);
    if (glms_vec3_norm2(d) <= 0.0f)
        d = ph_v3(1.0f, 0.0f, 0.0f);
    s[0] = ph_gjk_support(a, b, d);
    d = glms_vec3_negate(s[0].w);
    ph_gjk_status status = PH_GJK_MAX_ITERATIONS;
    if (glms_vec3_norm2(d) <= 0.0f)
        status = PH_GJK_OVERLAPPING; // the first support is the origin: touching
    for (int iter = 0; iter < PH_GJK_ITERATION_LIMIT && status == PH_GJK_MAX_ITERATIONS; iter++)
    {
        ph_simplex_vertex w = ph_gjk_support(a, b, d);
        if (glms_vec3_dot(w.w, d) < 0.0f)
        {
            status = PH_GJK_SEPARATED; // the plane through w normal to d separates the origin
            break;
        }
        // Newest first.
        for (int i = count; i > 0; i--)
            s[i] = s[i - 1];
        s[0] = w;
        count++;
        bool_step step = count == 2
                             ? bool_line(s, &count, &d)
                             : (count == 3 ? bool_triangle(s, &count, &d) : bool_tetrahedron(s, &count, &d));
        if (step == BOOL_OVERLAP)
            status = PH_GJK_OVERLAPPING;
    }
    out_simplex->count = count;
    for (int i = 0; i < count; i++)
        out_simplex->v[i] = s[i];
    return status;
}

bool ph_gjk_intersect(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                      ph_gjk_cache *cache)
{
    if (!inputs_valid(a, xa, b, xb))
        return false;
    ph_gjk_proxy pa, pb;
    ph_gjk_pair_init(&pa, &pb, a, xa, b, xb, true);
    float rounding = pa.radius + pb.radius;
    bool warm = cache && cache->simplex.count > 0;
    if (rounding == 0.0f && !warm)
    {
        ph_simplex s;
        ph_gjk_status status = ph_gjk_boolean(&pa, &pb, &s);
        if (status != PH_GJK_MAX_ITERATIONS)
        {
            if (cache)
            {
                for (int i = 0; i < s.count; i++)
                    s.v[i].w = glms_quat_rotatev(xa.q, s.v[i].w);
                cache->simplex = s;
            }
            return status == PH_GJK_OVERLAPPING;
        }
    }
    // Rounded shapes (the distance of the cores decides), warm starts, and the rare undecided boolean run.
    ph_gjk_output out;
    ph_gjk_status status = ph_gjk_run(&pa, &pb, warm ? &cache->simplex : NULL, true, rounding, &out);
    if (cache)
    {
        ph_gjk_output_to_world(&out, xa);
        cache->simplex = out.simplex;
    }
    if (status == PH_GJK_OVERLAPPING)
        return true;
    // Separated beyond the rounding (proved by a plane), or converged near the origin.
    return out.distance <= rounding;
}
