// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Incremental quickhull (Barber, Dobkin and Huhdanpaa 1996) over triangles: a tetrahedron of extreme
// points, every other point put in the outside set of one face it lies above, then, while a face has an
// outside set, its farthest point p is added: the faces p sees (found by a walk from that face over
// neighbours, so they are connected) are removed and the loop of edges around them (the horizon) is joined to
// p by new triangles, which take over the removed faces' outside points. Only the volume is kept, so there
// is no merging of coplanar faces: a point within the tolerance of a face counts as on it and is dropped.
// In floating point a walk can meet a horizon that is not one simple loop (points nearly coplanar with
// several faces); that is reported, not patched, and the caller asks qhull instead.
#include "assets/quickhull.h"

#include <float.h>  // DBL_EPSILON
#include <math.h>   // fabs, fmax, sqrt
#include <stdlib.h> // realloc, free

// A point closer than this fraction of the points' extent to a face's plane is on the face.
#define QUICKHULL_TOLERANCE 1e-9

typedef struct quickhull_face
{
    int v[3];       // corners, counter-clockwise seen from outside
    int nb[3];      // the face across edge i, which runs v[i] -> v[(i + 1) % 3]
    double n[3], d; // outward unit normal and offset: dot(n, x) - d is x's height above the face
    int outside;    // first point of its outside set (work->next links the rest), or -1
    int far;        // the outside point highest above it
    double far_height;
    int mark; // the round that last visited it
    bool alive, visible;
} quickhull_face;

static bool grow(void **array, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return true;
    int cap2 = *cap ? *cap : 64;
    while (cap2 < need)
        cap2 *= 2;
    void *p = realloc(*array, (size_t)cap2 * size);
    if (!p)
        return false;
    *array = p;
    *cap = cap2;
    return true;
}

static double height(const quickhull_face *f, const double *p)
{
    return f->n[0] * p[0] + f->n[1] * p[1] + f->n[2] * p[2] - f->d;
}

// The face's plane from its corners; false when they are (numerically) on one line.
static bool set_plane(quickhull_face *f, const double *pts)
{
    const double *a = pts + 3 * f->v[0], *b = pts + 3 * f->v[1], *c = pts + 3 * f->v[2];
    double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                   e1[0] * e2[1] - e1[1] * e2[0]};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0.0))
        return false;
    for (int k = 0; k < 3; k++)
        f->n[k] = n[k] / len;
    // The offset through the centroid: its rounding is the same for the three corners.
    f->d =
        (f->n[0] * (a[0] + b[0] + c[0]) + f->n[1] * (a[1] + b[1] + c[1]) + f->n[2] * (a[2] + b[2] + c[2])) /
        3.0;
    return true;
}

static void new_face(quickhull_face *f, int a, int b, int c)
{
    f->v[0] = a;
    f->v[1] = b;
    f->v[2] = c;
    f->nb[0] = f->nb[1] = f->nb[2] = -1;
    f->outside = -1;
    f->far = -1;
    f->far_height = 0.0;
    f->mark = 0;
    f->alive = true;
    f->visible = false;
}

// Puts point i (height h above face fi) in that face's outside set.
static void add_outside(quickhull_work *w, int fi, int i, double h)
{
    quickhull_face *f = &w->faces[fi];
    w->next[i] = f->outside;
    f->outside = i;
    if (h > f->far_height)
    {
        f->far_height = h;
        f->far = i;
    }
}

// The index of the edge of face f that runs a -> b, or -1.
static int edge_of(const quickhull_face *f, int a, int b)
{
    for (int e = 0; e < 3; e++)
        if (f->v[e] == a && f->v[(e + 1) % 3] == b)
            return e;
    return -1;
}

// The initial tetrahedron: the two farthest apart of the axes' extreme points, the point farthest from
// their line, the point farthest from the plane of the three. False when the points span no volume.
static bool initial_simplex(const double *pts, int n, double tol, int out[4])
{
    int ext[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 1; i < n; i++)
        for (int a = 0; a < 3; a++)
        {
            if (pts[3 * i + a] < pts[3 * ext[2 * a] + a])
                ext[2 * a] = i;
            if (pts[3 * i + a] > pts[3 * ext[2 * a + 1] + a])
                ext[2 * a + 1] = i;
        }
    double best = -1.0;
    for (int a = 0; a < 6; a++)
        for (int b = a + 1; b < 6; b++)
        {
            const double *p = pts + 3 * ext[a], *q = pts + 3 * ext[b];
            double d2 =
                (q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]) + (q[2] - p[2]) * (q[2] - p[2]);
            if (d2 > best)
            {
                best = d2;
                out[0] = ext[a];
                out[1] = ext[b];
            }
        }
    if (!(sqrt(best) > tol))
        return false;
    const double *a = pts + 3 * out[0], *b = pts + 3 * out[1];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    best = -1.0;
    for (int i = 0; i < n; i++)
    {
        const double *p = pts + 3 * i;
        double r[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
        double c[3] = {r[1] * u[2] - r[2] * u[1], r[2] * u[0] - r[0] * u[2], r[0] * u[1] - r[1] * u[0]};
        double d2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        if (d2 > best)
        {
            best = d2;
            out[2] = i;
        }
    }
    quickhull_face f;
    new_face(&f, out[0], out[1], out[2]);
    if (!set_plane(&f, pts))
        return false;
    best = 0.0;
    out[3] = -1;
    for (int i = 0; i < n; i++)
    {
        double h = fabs(height(&f, pts + 3 * i));
        if (h > best)
        {
            best = h;
            out[3] = i;
        }
    }
    return out[3] >= 0 && best > tol;
}

// Links the neighbours of faces [0, count) by their shared edges (for the tetrahedron).
static bool link_all(quickhull_face *faces, int count)
{
    for (int f = 0; f < count; f++)
        for (int e = 0; e < 3; e++)
        {
            int a = faces[f].v[e], b = faces[f].v[(e + 1) % 3];
            for (int g = 0; g < count && faces[f].nb[e] < 0; g++)
                if (g != f && edge_of(&faces[g], b, a) >= 0)
                    faces[f].nb[e] = g;
            if (faces[f].nb[e] < 0)
                return false;
        }
    return true;
}

// Adds the farthest point of face start's outside set to the hull (round: a fresh visit mark).
static quickhull_status add_point(quickhull_work *w, const double *pts, double tol, int start, int round,
                                  int *face_count)
{
    int p = w->faces[start].far;
    const double *pp = pts + 3 * p;
    // The visible faces, walked depth first from start, so that the horizon edges come out in order
    // around them. Each stack entry: face, next edge to look across, edges left.
    int top = 0, horizon = 0, visible = 0;
    int faces_before = *face_count;
    if (!grow((void **)&w->stack, &w->stack_cap, 3 * (faces_before + 1), sizeof(int)))
        return QUICKHULL_NO_MEMORY;
    w->faces[start].mark = round;
    w->faces[start].visible = true;
    w->stack[0] = start;
    w->stack[1] = 0;
    w->stack[2] = 3;
    top = 1;
    // Room for the horizon's (face, edge) pairs (at most the edges, 3/2 per face) and, after them, the
    // visible faces.
    int edge_room = 2 * (faces_before + 2);
    if (!grow((void **)&w->horizon, &w->horizon_cap, 3 * edge_room, sizeof(int)))
        return QUICKHULL_NO_MEMORY;
    int *visible_list = w->horizon + 2 * edge_room;
    visible_list[visible++] = start;
    while (top > 0)
    {
        int *entry = w->stack + 3 * (top - 1);
        if (entry[2] == 0)
        {
            top--;
            continue;
        }
        int fi = entry[0], e = entry[1];
        entry[1] = (e + 1) % 3;
        entry[2]--;
        int ni = w->faces[fi].nb[e];
        quickhull_face *nf = &w->faces[ni];
        // A neighbour seen before is visible (nothing to do) or the far side of a horizon edge; one seen now
        // is tested first.
        bool first = nf->mark != round;
        if (first)
        {
            nf->mark = round;
            nf->visible = height(nf, pp) > tol;
        }
        if (!nf->visible)
        {
            if (horizon >= edge_room)
                return QUICKHULL_INCONSISTENT;
            w->horizon[2 * horizon] = fi;
            w->horizon[2 * horizon + 1] = e;
            horizon++;
            continue;
        }
        if (!first)
            continue;
        if (visible >= edge_room)
            return QUICKHULL_INCONSISTENT;
        visible_list[visible++] = ni;
        int back = -1;
        for (int k = 0; k < 3; k++)
            if (nf->nb[k] == fi)
                back = k;
        if (back < 0 || top >= faces_before + 1)
            return QUICKHULL_INCONSISTENT;
        int *push = w->stack + 3 * top++;
        push[0] = ni;
        push[1] = (back + 1) % 3;
        push[2] = 2;
    }
    // The horizon must be one simple loop: each edge starts where the last ended, no corner twice.
    if (horizon < 3)
        return QUICKHULL_INCONSISTENT;
    for (int k = 0; k < horizon; k++)
    {
        const quickhull_face *f = &w->faces[w->horizon[2 * k]];
        const quickhull_face *g = &w->faces[w->horizon[2 * ((k + 1) % horizon)]];
        int end = f->v[(w->horizon[2 * k + 1] + 1) % 3],
            next_start = g->v[w->horizon[2 * ((k + 1) % horizon) + 1]];
        if (end != next_start)
            return QUICKHULL_INCONSISTENT;
        // A corner met twice: marked in its w->next entry, which a corner of the hull (in no outside set)
        // does not use.
        int start_v = f->v[w->horizon[2 * k + 1]];
        if (w->next[start_v] == -2 - round)
            return QUICKHULL_INCONSISTENT;
        w->next[start_v] = -2 - round;
    }
    // New faces joining each horizon edge a -> b to p, appended.
    if (!grow((void **)&w->faces, &w->face_cap, faces_before + horizon, sizeof(quickhull_face)))
        return QUICKHULL_NO_MEMORY;
    for (int k = 0; k < horizon; k++)
    {
        int fi = w->horizon[2 * k], e = w->horizon[2 * k + 1];
        int a = w->faces[fi].v[e], b = w->faces[fi].v[(e + 1) % 3], other = w->faces[fi].nb[e];
        int ni = faces_before + k;
        quickhull_face *nf = &w->faces[ni];
        new_face(nf, a, b, p);
        if (!set_plane(nf, pts))
            return QUICKHULL_INCONSISTENT;
        nf->nb[0] = other;
        nf->nb[1] = faces_before + (k + 1) % horizon;
        nf->nb[2] = faces_before + (k + horizon - 1) % horizon;
        int j = edge_of(&w->faces[other], b, a);
        if (j < 0)
            return QUICKHULL_INCONSISTENT;
        w->faces[other].nb[j] = ni;
    }
    *face_count = faces_before + horizon;
    // The removed faces' outside points go to the first new face they lie above, or inside.
    for (int k = 0; k < visible; k++)
    {
        quickhull_face *vf = &w->faces[visible_list[k]];
        vf->alive = false;
        for (int i = vf->outside, next; i >= 0; i = next)
        {
            next = w->next[i];
            if (i == p)
                continue;
            w->next[i] = -1;
            for (int f = faces_before; f < *face_count; f++)
            {
                double h = height(&w->faces[f], pts + 3 * i);
                if (h > tol)
                {
                    add_outside(w, f, i, h);
                    break;
                }
            }
        }
        vf->outside = -1;
    }
    return QUICKHULL_OK;
}

quickhull_status quickhull_volume(const double *pts, int n, quickhull_work *w, double *out_volume)
{
    *out_volume = 0.0;
    if (n < 4)
        return QUICKHULL_FLAT;
    double lo[3] = {pts[0], pts[1], pts[2]}, hi[3] = {pts[0], pts[1], pts[2]}, reach = 0.0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
        {
            double x = pts[3 * i + k];
            lo[k] = x < lo[k] ? x : lo[k];
            hi[k] = x > hi[k] ? x : hi[k];
            reach = fmax(reach, fabs(x));
        }
    double extent = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    if (!(extent > 0.0) || !isfinite(extent) || !isfinite(reach))
        return QUICKHULL_FLAT;
    // The tolerance, and the rounding of a height computed far from the origin.
    double tol = QUICKHULL_TOLERANCE * extent + 8.0 * DBL_EPSILON * reach;
    int s[4] = {0, 0, 0, 0};
    if (!initial_simplex(pts, n, tol, s))
        return QUICKHULL_FLAT;
    if (!grow((void **)&w->faces, &w->face_cap, 4 * n + 16, sizeof(quickhull_face)) ||
        !grow((void **)&w->next, &w->point_cap, n, sizeof(int)))
        return QUICKHULL_NO_MEMORY;
    for (int i = 0; i < n; i++)
        w->next[i] = -1;
    quickhull_face probe;
    new_face(&probe, s[0], s[1], s[2]);
    set_plane(&probe, pts);
    if (height(&probe, pts + 3 * s[3]) > 0.0)
    {
        int t = s[1];
        s[1] = s[2];
        s[2] = t;
    }
    // Now s[3] lies below the face (s0, s1, s2), which therefore faces outward; the other three follow.
    new_face(&w->faces[0], s[0], s[1], s[2]);
    new_face(&w->faces[1], s[0], s[3], s[1]);
    new_face(&w->faces[2], s[1], s[3], s[2]);
    new_face(&w->faces[3], s[2], s[3], s[0]);
    int face_count = 4;
    for (int f = 0; f < 4; f++)
        if (!set_plane(&w->faces[f], pts))
            return QUICKHULL_FLAT;
    if (!link_all(w->faces, 4))
        return QUICKHULL_INCONSISTENT;
    for (int i = 0; i < n; i++)
    {
        if (i == s[0] || i == s[1] || i == s[2] || i == s[3])
            continue;
        for (int f = 0; f < 4; f++)
        {
            double h = height(&w->faces[f], pts + 3 * i);
            if (h > tol)
            {
                add_outside(w, f, i, h);
                break;
            }
        }
    }
    // Faces only get outside points when they are made, so one pass in order of making finds them all.
    int round = 0;
    for (int f = 0; f < face_count; f++)
    {
        if (!w->faces[f].alive || w->faces[f].outside < 0)
            continue;
        quickhull_status st = add_point(w, pts, tol, f, ++round, &face_count);
        if (st != QUICKHULL_OK)
            return st;
    }
    // The volume: tetrahedra from a point inside (the first tetrahedron's centroid) to each face.
    double c[3];
    for (int k = 0; k < 3; k++)
        c[k] = 0.25 * (pts[3 * s[0] + k] + pts[3 * s[1] + k] + pts[3 * s[2] + k] + pts[3 * s[3] + k]);
    double six = 0.0;
    for (int f = 0; f < face_count; f++)
    {
        const quickhull_face *fc = &w->faces[f];
        if (!fc->alive)
            continue;
        const double *a = pts + 3 * fc->v[0], *b = pts + 3 * fc->v[1], *d = pts + 3 * fc->v[2];
        double u[3] = {a[0] - c[0], a[1] - c[1], a[2] - c[2]}, v[3] = {b[0] - c[0], b[1] - c[1], b[2] - c[2]},
               x[3] = {d[0] - c[0], d[1] - c[1], d[2] - c[2]};
        six += u[0] * (v[1] * x[2] - v[2] * x[1]) + u[1] * (v[2] * x[0] - v[0] * x[2]) +
               u[2] * (v[0] * x[1] - v[1] * x[0]);
    }
    *out_volume = six / 6.0;
    return QUICKHULL_OK;
}

void quickhull_work_free(quickhull_work *w)
{
    free(w->faces);
    free(w->next);
    free(w->stack);
    free(w->horizon);
    *w = (quickhull_work){0};
}
