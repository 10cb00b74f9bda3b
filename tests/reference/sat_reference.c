// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The brute-force references of sat_reference.h. Slow on purpose and simple enough to check by eye:
// every candidate axis and every feature pair is tried, in double precision, with no pruning.
#include "reference/sat_reference.h"

#include <float.h> // DBL_MAX
#include <math.h>  // sqrt, fabs

// The largest polyhedron handled (a hull at its vertex limit).
#define REF_MAX_VERTS PH_HULL_MAX_VERTICES
#define REF_MAX_FACES (2 * PH_HULL_MAX_VERTICES)
#define REF_MAX_EDGES (3 * PH_HULL_MAX_VERTICES)
#define REF_MAX_INDICES (6 * PH_HULL_MAX_VERTICES)
// Cross products of nearly parallel edges shorter than this (relative) give no axis.
static const double REF_PARALLEL_TOLERANCE = 1e-9;
// Axes closer than this to the best one count as parallel when looking for the runner-up.
static const double REF_SAME_AXIS_TOLERANCE = 1e-6;

typedef struct ref_poly
{
    int vcount;
    double v[REF_MAX_VERTS][3];
    int fcount;
    double fn[REF_MAX_FACES][3];
    int face_first[REF_MAX_FACES], face_count[REF_MAX_FACES];
    int indices[REF_MAX_INDICES];
    int ecount;
    int e[REF_MAX_EDGES][2];
} ref_poly;

static void to_world(ph_transform xf, ph_vec3 x, double out[3])
{
    ph_vec3 w = ph_transform_point(xf, x);
    out[0] = (double)w.x;
    out[1] = (double)w.y;
    out[2] = (double)w.z;
}

static void sub(const double a[3], const double b[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a[i] - b[i];
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static void face_normal(ref_poly *p, int f)
{
    // Newell's method over the loop: robust for any planar polygon.
    double n[3] = {0, 0, 0};
    int first = p->face_first[f], count = p->face_count[f];
    for (int i = 0; i < count; i++)
    {
        const double *c = p->v[p->indices[first + i]];
        const double *d = p->v[p->indices[first + (i + 1) % count]];
        n[0] += (c[1] - d[1]) * (c[2] + d[2]);
        n[1] += (c[2] - d[2]) * (c[0] + d[0]);
        n[2] += (c[0] - d[0]) * (c[1] + d[1]);
    }
    double len = sqrt(dot(n, n));
    for (int i = 0; i < 3; i++)
        p->fn[f][i] = len > 0.0 ? n[i] / len : 0.0;
}

static void add_face(ref_poly *p, const int *loop, int count)
{
    int f = p->fcount++;
    p->face_first[f] = f == 0 ? 0 : p->face_first[f - 1] + p->face_count[f - 1];
    p->face_count[f] = count;
    for (int i = 0; i < count; i++)
        p->indices[p->face_first[f] + i] = loop[i];
    face_normal(p, f);
}

static bool make_poly(const ph_convex *s, ph_transform xf, ref_poly *p)
{
    p->vcount = p->fcount = p->ecount = 0;
    if (s->type == PH_SHAPE_BOX)
    {
        ph_vec3 h = s->half_extents;
        for (int i = 0; i < 8; i++)
        {
            ph_vec3 c = ph_v3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
            to_world(xf, c, p->v[p->vcount++]);
        }
        // Counter-clockwise from outside: -x, +x, -y, +y, -z, +z.
        static const int loops[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                        {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
        for (int f = 0; f < 6; f++)
            add_face(p, loops[f], 4);
        static const int edges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                         {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
        for (int e = 0; e < 12; e++)
        {
            p->e[e][0] = edges[e][0];
            p->e[e][1] = edges[e][1];
        }
        p->ecount = 12;
        return true;
    }
    if (s->type == PH_SHAPE_TRIANGLE)
    {
        for (int i = 0; i < 3; i++)
            to_world(xf, s->tri[i], p->v[p->vcount++]);
        static const int front[3] = {0, 1, 2}, back[3] = {0, 2, 1};
        add_face(p, front, 3);
        add_face(p, back, 3);
        for (int e = 0; e < 3; e++)
        {
            p->e[e][0] = e;
            p->e[e][1] = (e + 1) % 3;
        }
        p->ecount = 3;
        return true;
    }
    if (s->type == PH_SHAPE_HULL && s->hull && s->hull->vertex_count <= REF_MAX_VERTS &&
        s->hull->face_count <= REF_MAX_FACES && s->hull->edge_count <= REF_MAX_EDGES)
    {
        const ph_hull *h = s->hull;
        for (int i = 0; i < h->vertex_count; i++)
            to_world(xf, h->vertices[i], p->v[p->vcount++]);
        int total = 0;
        for (int f = 0; f < h->face_count; f++)
        {
            if (total + h->faces[f].index_count > REF_MAX_INDICES)
                return false;
            add_face(p, h->face_indices + h->faces[f].first_index, h->faces[f].index_count);
            total += h->faces[f].index_count;
        }
        for (int e = 0; e < h->edge_count; e++)
        {
            p->e[e][0] = h->edges[e].v0;
            p->e[e][1] = h->edges[e].v1;
        }
        p->ecount = h->edge_count;
        return true;
    }
    return false;
}

static void project(const ref_poly *p, const double axis[3], double *lo, double *hi)
{
    *lo = DBL_MAX;
    *hi = -DBL_MAX;
    for (int i = 0; i < p->vcount; i++)
    {
        double s = dot(p->v[i], axis);
        *lo = s < *lo ? s : *lo;
        *hi = s > *hi ? s : *hi;
    }
}

// Tests one axis; keeps the best and the runner-up among non-parallel axes.
static void test_axis(const ref_poly *a, const ref_poly *b, const double axis[3], sat_reference_result *best)
{
    double alo, ahi, blo, bhi;
    project(a, axis, &alo, &ahi);
    project(b, axis, &blo, &bhi);
    double plus = blo - ahi;  // separation with B on the + side
    double minus = alo - bhi; // with B on the - side
    double s = plus >= minus ? plus : minus;
    double sign = plus >= minus ? 1.0 : -1.0;
    double same = fabs(dot(axis, best->normal));
    if (s > best->separation)
    {
        if (same < 1.0 - REF_SAME_AXIS_TOLERANCE && best->separation > best->runner_up)
            best->runner_up = best->separation;
        best->separation = s;
        for (int i = 0; i < 3; i++)
            best->normal[i] = sign * axis[i];
    }
    else if (same < 1.0 - REF_SAME_AXIS_TOLERANCE && s > best->runner_up)
    {
        best->runner_up = s;
    }
}

bool sat_reference_query(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                         sat_reference_result *out)
{
    static ref_poly pa, pb;
    if (!make_poly(a, xa, &pa) || !make_poly(b, xb, &pb))
        return false;
    out->separation = -DBL_MAX;
    out->runner_up = -DBL_MAX;
    out->normal[0] = out->normal[1] = out->normal[2] = 0.0;
    for (int f = 0; f < pa.fcount; f++)
        test_axis(&pa, &pb, pa.fn[f], out);
    for (int f = 0; f < pb.fcount; f++)
        test_axis(&pa, &pb, pb.fn[f], out);
    for (int i = 0; i < pa.ecount; i++)
    {
        double ea[3];
        sub(pa.v[pa.e[i][1]], pa.v[pa.e[i][0]], ea);
        for (int j = 0; j < pb.ecount; j++)
        {
            double eb[3], n[3];
            sub(pb.v[pb.e[j][1]], pb.v[pb.e[j][0]], eb);
            cross(ea, eb, n);
            double len = sqrt(dot(n, n));
            if (len <= REF_PARALLEL_TOLERANCE * sqrt(dot(ea, ea) * dot(eb, eb)))
                continue;
            for (int k = 0; k < 3; k++)
                n[k] /= len;
            test_axis(&pa, &pb, n, out);
        }
    }
    return true;
}

double sat_reference_axis_separation(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                                     ph_vec3 axis)
{
    static ref_poly pa, pb;
    if (!make_poly(a, xa, &pa) || !make_poly(b, xb, &pb))
        return -DBL_MAX;
    double u[3] = {(double)axis.x, (double)axis.y, (double)axis.z};
    double len = sqrt(dot(u, u));
    for (int i = 0; i < 3; i++)
        u[i] /= len;
    double alo, ahi, blo, bhi;
    project(&pa, u, &alo, &ahi);
    project(&pb, u, &blo, &bhi);
    return blo - ahi;
}

// Ericson, Real-Time Collision Detection, 5.1.5: closest point on triangle abc to p.
static void closest_on_triangle(const double p[3], const double a[3], const double b[3], const double c[3],
                                double out[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    sub(b, a, ab);
    sub(c, a, ac);
    sub(p, a, ap);
    double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0)
    {
        for (int i = 0; i < 3; i++)
            out[i] = a[i];
        return;
    }
    sub(p, b, bp);
    double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3)
    {
        for (int i = 0; i < 3; i++)
            out[i] = b[i];
        return;
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0)
    {
        double v = d1 / (d1 - d3);
        for (int i = 0; i < 3; i++)
            out[i] = a[i] + v * ab[i];
        return;
    }
    sub(p, c, cp);
    double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6)
    {
        for (int i = 0; i < 3; i++)
            out[i] = c[i];
        return;
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0)
    {
        double w = d2 / (d2 - d6);
        for (int i = 0; i < 3; i++)
            out[i] = a[i] + w * ac[i];
        return;
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
    {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int i = 0; i < 3; i++)
            out[i] = b[i] + w * (c[i] - b[i]);
        return;
    }
    double denom = 1.0 / (va + vb + vc);
    double v = vb * denom, w = vc * denom;
    for (int i = 0; i < 3; i++)
        out[i] = a[i] + ab[i] * v + ac[i] * w;
}

static double clamp01(double x)
{
    return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x);
}

// Ericson 5.1.9: closest points of segments p1q1 and p2q2.
static void closest_segments(const double p1[3], const double q1[3], const double p2[3], const double q2[3],
                             double c1[3], double c2[3])
{
    double d1[3], d2[3], r[3];
    sub(q1, p1, d1);
    sub(q2, p2, d2);
    sub(p1, p2, r);
    double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    double s = 0.0, t = 0.0;
    if (a <= 0.0 && e <= 0.0)
    {
        s = t = 0.0;
    }
    else if (a <= 0.0)
    {
        t = clamp01(f / e);
    }
    else
    {
        double c = dot(d1, r);
        if (e <= 0.0)
        {
            s = clamp01(-c / a);
        }
        else
        {
            double b = dot(d1, d2), denom = a * e - b * b;
            s = denom > 0.0 ? clamp01((b * f - c * e) / denom) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0)
            {
                t = 0.0;
                s = clamp01(-c / a);
            }
            else if (t > 1.0)
            {
                t = 1.0;
                s = clamp01((b - c) / a);
            }
        }
    }
    for (int i = 0; i < 3; i++)
    {
        c1[i] = p1[i] + d1[i] * s;
        c2[i] = p2[i] + d2[i] * t;
    }
}

static double dist2(const double a[3], const double b[3])
{
    double d[3];
    sub(a, b, d);
    return dot(d, d);
}

// Closest point of the polyhedron's surface to p, through every face's triangle fan.
static double point_surface(const ref_poly *poly, const double p[3], double out[3])
{
    double best = DBL_MAX;
    for (int f = 0; f < poly->fcount; f++)
    {
        int first = poly->face_first[f];
        const double *a = poly->v[poly->indices[first]];
        for (int k = 1; k + 1 < poly->face_count[f]; k++)
        {
            double c[3];
            closest_on_triangle(p, a, poly->v[poly->indices[first + k]],
                                poly->v[poly->indices[first + k + 1]], c);
            double d = dist2(p, c);
            if (d < best)
            {
                best = d;
                for (int i = 0; i < 3; i++)
                    out[i] = c[i];
            }
        }
    }
    return best;
}

double sat_reference_distance(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                              double out_a[3], double out_b[3])
{
    static ref_poly pa, pb;
    if (!make_poly(a, xa, &pa) || !make_poly(b, xb, &pb))
        return -1.0;
    double best = DBL_MAX, ba[3] = {0, 0, 0}, bb[3] = {0, 0, 0};
    double c[3];
    for (int i = 0; i < pa.vcount; i++)
    {
        double d = point_surface(&pb, pa.v[i], c);
        if (d < best)
        {
            best = d;
            for (int k = 0; k < 3; k++)
            {
                ba[k] = pa.v[i][k];
                bb[k] = c[k];
            }
        }
    }
    for (int i = 0; i < pb.vcount; i++)
    {
        double d = point_surface(&pa, pb.v[i], c);
        if (d < best)
        {
            best = d;
            for (int k = 0; k < 3; k++)
            {
                ba[k] = c[k];
                bb[k] = pb.v[i][k];
            }
        }
    }
    for (int i = 0; i < pa.ecount; i++)
    {
        for (int j = 0; j < pb.ecount; j++)
        {
            double c1[3], c2[3];
            closest_segments(pa.v[pa.e[i][0]], pa.v[pa.e[i][1]], pb.v[pb.e[j][0]], pb.v[pb.e[j][1]], c1, c2);
            double d = dist2(c1, c2);
            if (d < best)
            {
                best = d;
                for (int k = 0; k < 3; k++)
                {
                    ba[k] = c1[k];
                    bb[k] = c2[k];
                }
            }
        }
    }
    for (int k = 0; k < 3; k++)
    {
        if (out_a)
            out_a[k] = ba[k];
        if (out_b)
            out_b[k] = bb[k];
    }
    return sqrt(best);
}

double sat_reference_point_distance(const double point[3], const ph_convex *shape, ph_transform xf)
{
    static ref_poly p;
    if (!make_poly(shape, xf, &p))
        return -1.0;
    if (shape->type != PH_SHAPE_TRIANGLE)
    {
        bool inside = true;
        for (int f = 0; f < p.fcount && inside; f++)
        {
            double d[3];
            sub(point, p.v[p.indices[p.face_first[f]]], d);
            inside = dot(d, p.fn[f]) <= 0.0;
        }
        if (inside)
            return 0.0;
    }
    double c[3];
    return sqrt(point_surface(&p, point, c));
}
