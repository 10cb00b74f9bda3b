// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Approximate convex decomposition (decompose.h) by greedy plane cuts, in the spirit of hierarchical
// decompositions such as V-HACD and CoACD but much simpler. A piece is the part of the solid inside a
// convex cell (an intersection of half-spaces): its surface is the mesh's triangles clipped to the cell,
// kept as polygons, and its hull is the hull of their corners (the cut faces add no corners that the
// clipped polygons do not already have). Since the cells do not overlap, neither do the hulls, so the
// compound's volume is the sum of theirs. The solid's volume in a cell is estimated from voxel centres
// found inside the mesh by scanlines (parity of crossings), so a piece's excess is its hull's volume
// minus its voxels'. The piece with the largest excess is cut, by whichever of a few axis-aligned
// planes through it leaves the least hull volume on the two sides, until the total excess is under the
// tolerance or the pieces run out. Hull volumes come from
// qhull on at most DECOMPOSE_HULL_POINTS points, spread over the piece and including its extreme points.
#include "assets/decompose.h"

#include "phys/phys.h"

#include <libqhull_r/geom_r.h>     // qh_getarea
#include <libqhull_r/libqhull_r.h> // qh_new_qhull, qhT (hull volumes)
#include <math.h>                  // fabs, fmin, fmax, ceil, floor, sqrt, sin, cos, isfinite
#include <stdio.h>                 // FILE, fopen, fread, fwrite, rename, remove (the cache file)
#include <stdlib.h>                // malloc, realloc, free, qsort
#include <string.h>                // memcpy, memset, strlen

// Points a hull is built from (below the engine's vertex limit, so it never simplifies them).
#define DECOMPOSE_HULL_POINTS 250
// Points of a side's hull when a cut is tried (as many as for the pieces themselves: 120 or 64 left spot,
// the shared cow, 6.6% or 8.2% over its solid instead of 5.4%; measured).
#define DECOMPOSE_TRIAL_POINTS 250
// Polygons of a piece clipped when a cut is tried, at most (an even sample of them). The sides' hulls are
// sampled to DECOMPOSE_TRIAL_POINTS anyway, so a large model's first cuts need not clip all of its
// triangles; but fewer changes the cuts of models of a few thousand triangles, and greedy cutting is
// sensitive to that: 1000 and 2000 left the 2,100-triangle bowl of test_decompose 9% and 8% over its
// solid instead of 4.3% (measured); 2500 leaves it as it was and halves the clipping of a 30k-triangle model.
#define DECOMPOSE_TRIAL_POLYGONS 2500
// Planes tried along each cut direction of a piece: at i / (DECOMPOSE_CUTS + 1) of its extent along it,
// i = 1..DECOMPOSE_CUTS. The directions: the axes and the diagonals of the coordinate planes.
#define DECOMPOSE_CUTS 7
#define DECOMPOSE_DIRECTIONS 9
static const double cut_directions[DECOMPOSE_DIRECTIONS][3] = {{1, 0, 0},
                                                               {0, 1, 0},
                                                               {0, 0, 1},
                                                               {0.70710678, 0.70710678, 0},
                                                               {0.70710678, -0.70710678, 0},
                                                               {0.70710678, 0, 0.70710678},
                                                               {0.70710678, 0, -0.70710678},
                                                               {0, 0.70710678, 0.70710678},
                                                               {0, 0.70710678, -0.70710678}};
// Offset of the scanlines from the voxel centres' rows, in voxels: irrational, so that no line passes
// exactly through the mesh's vertices or edges on a grid (a crossing would count twice or not at all).
#define DECOMPOSE_LINE_JITTER_Y 0.0137
#define DECOMPOSE_LINE_JITTER_Z 0.0071
// A cloud thinner than this fraction of its extent has no volume to measure (its hull is a sliver).
#define DECOMPOSE_FLAT 1e-6
// A best cut saving less than this fraction of the piece's hull volume counts as no gain (see best_cut).
#define DECOMPOSE_SMALL_GAIN 0.02
// Among cuts that save about the same hull volume, one off the piece's middle by a fraction f of its
// extent costs this times f of the piece's hull volume more (so halves are preferred to slivers).
#define DECOMPOSE_OFF_CENTRE_COST 1e-3

decompose_options decompose_default_options(void)
{
    decompose_options o;
    o.max_pieces = DECOMPOSE_DEFAULT_MAX_PIECES;
    o.concavity = DECOMPOSE_DEFAULT_CONCAVITY;
    o.resolution = DECOMPOSE_DEFAULT_RESOLUTION;
    return o;
}

// ---- Growable double arrays ------------------------------------------------------------------------

typedef struct dlist
{
    double *v;
    int n, cap;
} dlist;

static bool dlist_push3(dlist *l, const double *p)
{
    if (l->n + 3 > l->cap)
    {
        int cap = l->cap ? 2 * l->cap : 96;
        while (cap < l->n + 3)
            cap *= 2;
        double *v = realloc(l->v, (size_t)cap * sizeof(double));
        if (!v)
            return false;
        l->v = v;
        l->cap = cap;
    }
    memcpy(l->v + l->n, p, 3 * sizeof(double));
    l->n += 3;
    return true;
}

// ---- Pieces ----------------------------------------------------------------------------------------

// A piece: convex polygons (the surface clipped to its cell) and the voxel centres inside it.
typedef struct piece
{
    dlist corners; // 3 doubles per polygon corner
    int *poly_len; // corners per polygon, in order
    int poly_count, poly_cap;
    int *cells; // indices of solid voxel centres
    int cell_count;
    ph_vec3 hull_points[DECOMPOSE_HULL_POINTS]; // the points its hull is made from (extreme_points)
    int hull_count;
    double hull;   // hull volume (unit: m^3)
    double excess; // hull minus the solid's volume in it, >= 0
    bool final;    // no cut helps
} piece;

static void piece_free(piece *p)
{
    free(p->corners.v);
    free(p->poly_len);
    free(p->cells);
    memset(p, 0, sizeof *p);
}

static bool piece_add_poly(piece *p, const double *pts, int n)
{
    if (p->poly_count == p->poly_cap)
    {
        int cap = p->poly_cap ? 2 * p->poly_cap : 64;
        int *len = realloc(p->poly_len, (size_t)cap * sizeof(int));
        if (!len)
            return false;
        p->poly_len = len;
        p->poly_cap = cap;
    }
    for (int i = 0; i < n; i++)
        if (!dlist_push3(&p->corners, pts + 3 * i))
            return false;
    p->poly_len[p->poly_count++] = n;
    return true;
}

// The index of the farthest of the n points (3 doubles each) along each of the count directions (dx, dy,
// dz: their components), into best. One pass over the points with the directions in the inner loop,
// branch-free and with the indices kept as doubles (exact below 2^53) so that the compiler turns it into
// vector code: a pass per direction, branching on each comparison, was a sixth of the decomposition's time.
static void farthest_along(const double *restrict pts, int n, const double *restrict dx,
                           const double *restrict dy, const double *restrict dz, int count, int *best)
{
    double far[DECOMPOSE_HULL_POINTS], at[DECOMPOSE_HULL_POINTS];
    for (int d = 0; d < count; d++)
    {
        far[d] = -(double)INFINITY;
        at[d] = 0.0;
    }
    for (int i = 0; i < n; i++)
    {
        double x = pts[3 * i], y = pts[3 * i + 1], z = pts[3 * i + 2], index = (double)i;
        for (int d = 0; d < count; d++)
        {
            double v = dx[d] * x + dy[d] * y + dz[d] * z;
            bool gt = v > far[d];
            far[d] = gt ? v : far[d];
            at[d] = gt ? index : at[d];
        }
    }
    for (int d = 0; d < count; d++)
        best[d] = (int)at[d];
}

static ph_vec3 point_at(const double *pts, int i)
{
    return ph_v3((float)pts[3 * i], (float)pts[3 * i + 1], (float)pts[3 * i + 2]);
}

// Picks at most max of the n points (3 doubles each) into out (floats), quickly: the extreme points
// along the axes and the diagonals first (both ways), so the hull keeps its reach, then evenly spread ones.
static int sample_points(const double *pts, int n, ph_vec3 *out, int max)
{
    enum
    {
        SAMPLE_DIRECTIONS = 26
    };
    static const double dx[SAMPLE_DIRECTIONS] = {-1, 1, 0, 0, 0, 0,  -1, 1,  -1, 1,  -1, 1, -1,
                                                 1,  0, 0, 0, 0, -1, 1,  -1, 1,  -1, 1,  1, -1};
    static const double dy[SAMPLE_DIRECTIONS] = {0, 0,  -1, 1,  0, 0,  -1, 1,  1, -1, 0,  0,  0,
                                                 0, -1, 1,  -1, 1, -1, 1,  -1, 1, 1,  -1, -1, 1};
    static const double dz[SAMPLE_DIRECTIONS] = {0,  0,  0, 0, -1, 1,  0, 0, 0,  0,  -1, 1,  1,
                                                 -1, -1, 1, 1, -1, -1, 1, 1, -1, -1, 1,  -1, 1};
    int k = 0;
    if (n <= max)
    {
        for (int i = 0; i < n; i++)
            out[k++] = point_at(pts, i);
        return k;
    }
    int best[SAMPLE_DIRECTIONS];
    farthest_along(pts, n, dx, dy, dz, SAMPLE_DIRECTIONS, best);
    for (int d = 0; d < SAMPLE_DIRECTIONS; d++)
        out[k++] = point_at(pts, best[d]);
    int rest = max - k;
    for (int j = 0; j < rest; j++)
        out[k++] = point_at(pts, (int)((long long)j * n / rest));
    return k;
}

// Picks at most max (at most DECOMPOSE_HULL_POINTS) of the n points (3 doubles each) into out: the
// farthest point along each of max directions spread evenly over the sphere (a Fibonacci lattice), so that
// their hull is close to the hull of all of them (every direction's extent within 1 - cos of about 13
// degrees / 2 for 250, in practice well under 1% of the volume) where an even spread would cut off the
// corners between samples.
static int extreme_points(const double *pts, int n, ph_vec3 *out, int max)
{
    if (n <= max)
        return sample_points(pts, n, out, max);
    const double golden = 2.39996322972865332; // pi (3 - sqrt 5)
    double dx[DECOMPOSE_HULL_POINTS], dy[DECOMPOSE_HULL_POINTS], dz[DECOMPOSE_HULL_POINTS];
    int best[DECOMPOSE_HULL_POINTS];
    for (int d = 0; d < max; d++)
    {
        double y = 1.0 - (2.0 * d + 1.0) / max, r = sqrt(fmax(0.0, 1.0 - y * y)), a = golden * d;
        dx[d] = r * cos(a);
        dy[d] = y;
        dz[d] = r * sin(a);
    }
    farthest_along(pts, n, dx, dy, dz, max, best);
    for (int d = 0; d < max; d++)
        out[d] = point_at(pts, best[d]);
    return max;
}

// True when the k points (3 doubles each) lie within DECOMPOSE_FLAT of their extent of one plane: the
// corners of a large tetrahedron (the farthest pair of the axis extremes, the point farthest from their
// line, the point farthest from that plane) span no volume. qhull is never given such a cloud (it reports
// its initial simplex as flat on stderr).
static bool is_flat(const double *p, int k)
{
    int ext[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 1; i < k; i++)
        for (int a = 0; a < 3; a++)
        {
            if (p[3 * i + a] < p[3 * ext[2 * a] + a])
                ext[2 * a] = i;
            if (p[3 * i + a] > p[3 * ext[2 * a + 1] + a])
                ext[2 * a + 1] = i;
        }
    int i0 = ext[0], i1 = ext[1];
    double best = -1.0;
    for (int a = 0; a < 6; a++)
        for (int b = a + 1; b < 6; b++)
        {
            double d[3] = {p[3 * ext[b]] - p[3 * ext[a]], p[3 * ext[b] + 1] - p[3 * ext[a] + 1],
                           p[3 * ext[b] + 2] - p[3 * ext[a] + 2]};
            double l = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (l > best)
            {
                best = l;
                i0 = ext[a];
                i1 = ext[b];
            }
        }
    double extent = sqrt(best);
    if (!(extent > 0.0))
        return true;
    const double *a = p + 3 * i0;
    double u[3] = {p[3 * i1] - a[0], p[3 * i1 + 1] - a[1], p[3 * i1 + 2] - a[2]};
    // The point farthest from the line a + t u: the largest |u x (p - a)|.
    double far = 0.0, nrm[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < k; i++)
    {
        double w[3] = {p[3 * i] - a[0], p[3 * i + 1] - a[1], p[3 * i + 2] - a[2]};
        double c[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        double l = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        if (l > far)
        {
            far = l;
            memcpy(nrm, c, sizeof c);
        }
    }
    if (!(sqrt(far) > DECOMPOSE_FLAT * extent * extent))
        return true;
    double len = sqrt(far), top = 0.0;
    for (int i = 0; i < k; i++)
    {
        double d = fabs(nrm[0] * (p[3 * i] - a[0]) + nrm[1] * (p[3 * i + 1] - a[1]) +
                        nrm[2] * (p[3 * i + 2] - a[2]));
        top = fmax(top, d / len);
    }
    return !(top > DECOMPOSE_FLAT * extent);
}

// Volume of the hull of the k points (at most DECOMPOSE_HULL_POINTS; points: room for them in doubles); 0
// when they span no volume. Only the volume is wanted, so qhull is run directly (with its default facet
// merging, and its own area and volume sums) rather than through the engine's hull build, whose face
// loops, adjacency and check of every point against every face cost as much again.
static double hull_volume(const ph_vec3 *pts, int k, double *points)
{
    if (k < 4)
        return 0.0;
    for (int i = 0; i < k; i++)
        for (int c = 0; c < 3; c++)
            points[3 * i + c] = (double)pts[i].raw[c];
    if (is_flat(points, k))
        return 0.0;
    qhT qh_storage;
    qhT *qh = &qh_storage;
    qh_zero(qh, stderr);
    char command[] = "qhull";
    double v = 0.0;
    if (qh_new_qhull(qh, 3, k, points, False, command, NULL, stderr) == qh_ERRnone)
    {
        qh_getarea(qh, qh->facet_list);
        v = qh->totvol;
    }
    int curlong, totlong;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    return v;
}

// Clips the convex polygon (n corners) against the plane dot(nrm, x) = d: the part in front (>= d) into
// front, the part behind into back; returns their corner counts through nf and nb.
static void clip_poly(const double *poly, int n, const double nrm[3], double d, double *front, int *nf,
                      double *back, int *nb)
{
    *nf = *nb = 0;
    for (int i = 0; i < n; i++)
    {
        const double *a = poly + 3 * i, *b = poly + 3 * ((i + 1) % n);
        double da = nrm[0] * a[0] + nrm[1] * a[1] + nrm[2] * a[2] - d;
        double db = nrm[0] * b[0] + nrm[1] * b[1] + nrm[2] * b[2] - d;
        if (da >= 0.0)
            memcpy(front + 3 * (*nf)++, a, 3 * sizeof(double));
        if (da <= 0.0)
            memcpy(back + 3 * (*nb)++, a, 3 * sizeof(double));
        if ((da > 0.0 && db < 0.0) || (da < 0.0 && db > 0.0))
        {
            double t = da / (da - db), x[3];
            for (int k = 0; k < 3; k++)
                x[k] = a[k] + t * (b[k] - a[k]);
            memcpy(front + 3 * (*nf)++, x, sizeof x);
            memcpy(back + 3 * (*nb)++, x, sizeof x);
        }
    }
    if (*nf < 3)
        *nf = 0;
    if (*nb < 3)
        *nb = 0;
}

// The state of one decomposition.
typedef struct decomposer
{
    const double *centres; // solid voxel centres, 3 doubles each
    double cell_volume;
    ph_vec3 *scratch; // DECOMPOSE_HULL_POINTS
    double *points;   // DECOMPOSE_HULL_POINTS, 3 doubles each (for qhull)
    double *clip;     // room for two clipped polygons of the longest polygon
    int clip_cap;
    dlist side[2]; // corners on each side of a candidate plane
    dlist all;     // a piece's corners and voxel centres
} decomposer;

static bool ensure_clip(decomposer *dc, int n)
{
    if (6 * (n + 2) <= dc->clip_cap)
        return true;
    int cap = 6 * (n + 2) * 2;
    double *c = realloc(dc->clip, (size_t)cap * sizeof(double));
    if (!c)
        return false;
    dc->clip = c;
    dc->clip_cap = cap;
    return true;
}

// Hull volumes on the two sides of a plane through piece p (corners only, not split into polygons).
static bool plane_cost(decomposer *dc, const piece *p, const double nrm[3], double d, double *out_cost)
{
    dc->side[0].n = dc->side[1].n = 0;
    const double *poly = p->corners.v;
    // Only an even sample of the polygons is clipped: the sides' hulls are taken from a sample anyway.
    int stride = p->poly_count > DECOMPOSE_TRIAL_POLYGONS ? p->poly_count / DECOMPOSE_TRIAL_POLYGONS : 1;
    for (int i = 0; i < p->poly_count; i++)
    {
        int n = p->poly_len[i], nf, nb;
        if (i % stride != 0)
        {
            poly += 3 * n;
            continue;
        }
        if (!ensure_clip(dc, n))
            return false;
        double *front = dc->clip, *back = dc->clip + 3 * (n + 2);
        clip_poly(poly, n, nrm, d, front, &nf, back, &nb);
        for (int k = 0; k < nf; k++)
            if (!dlist_push3(&dc->side[0], front + 3 * k))
                return false;
        for (int k = 0; k < nb; k++)
            if (!dlist_push3(&dc->side[1], back + 3 * k))
                return false;
        poly += 3 * n;
    }
    *out_cost = 0.0;
    for (int side = 0; side < 2; side++)
    {
        int k = sample_points(dc->side[side].v, dc->side[side].n / 3, dc->scratch, DECOMPOSE_TRIAL_POINTS);
        *out_cost += hull_volume(dc->scratch, k, dc->points);
    }
    return true;
}

// The points whose hull is the piece's: its surface corners and its voxel centres. A cell's corner
// that lies inside the solid (where three cuts meet) is a corner of the piece but of none of its
// surface polygons (the octants of a cube would each lose a sixth without it); the voxel centres near
// it stand in for it, to half a voxel. In dc->all; false when out of memory.
static bool piece_points(decomposer *dc, const piece *p)
{
    dc->all.n = 0;
    for (int i = 0; i < p->corners.n; i += 3)
        if (!dlist_push3(&dc->all, p->corners.v + i))
            return false;
    for (int i = 0; i < p->cell_count; i++)
        if (!dlist_push3(&dc->all, dc->centres + 3 * p->cells[i]))
            return false;
    return true;
}

static bool measure(decomposer *dc, piece *p)
{
    if (!piece_points(dc, p))
        return false;
    p->hull_count = extreme_points(dc->all.v, dc->all.n / 3, p->hull_points, DECOMPOSE_HULL_POINTS);
    p->hull = hull_volume(p->hull_points, p->hull_count, dc->points);
    p->excess = fmax(0.0, p->hull - (double)p->cell_count * dc->cell_volume);
    return true;
}

// Cuts p by the plane into front and back (p is left as it was).
static bool cut(decomposer *dc, const piece *p, const double nrm[3], double d, piece *front, piece *back)
{
    memset(front, 0, sizeof *front);
    memset(back, 0, sizeof *back);
    const double *poly = p->corners.v;
    for (int i = 0; i < p->poly_count; i++)
    {
        int n = p->poly_len[i], nf, nb;
        if (!ensure_clip(dc, n))
            return false;
        double *f = dc->clip, *b = dc->clip + 3 * (n + 2);
        clip_poly(poly, n, nrm, d, f, &nf, b, &nb);
        if ((nf && !piece_add_poly(front, f, nf)) || (nb && !piece_add_poly(back, b, nb)))
            return false;
        poly += 3 * n;
    }
    front->cells = malloc((size_t)(p->cell_count + 1) * sizeof(int));
    back->cells = malloc((size_t)(p->cell_count + 1) * sizeof(int));
    if (!front->cells || !back->cells)
        return false;
    for (int i = 0; i < p->cell_count; i++)
    {
        const double *c = dc->centres + 3 * p->cells[i];
        piece *to = nrm[0] * c[0] + nrm[1] * c[1] + nrm[2] * c[2] >= d ? front : back;
        to->cells[to->cell_count++] = p->cells[i];
    }
    return measure(dc, front) && measure(dc, back);
}

// The cut of p that leaves the least hull volume: false in *found when none saves enough.
static bool best_cut(decomposer *dc, const piece *p, double nrm[3], double *d, bool *found)
{
    double lo[DECOMPOSE_DIRECTIONS], hi[DECOMPOSE_DIRECTIONS];
    for (int a = 0; a < DECOMPOSE_DIRECTIONS; a++)
    {
        lo[a] = (double)INFINITY;
        hi[a] = -(double)INFINITY;
        const double *n = cut_directions[a];
        for (int i = 0; i < p->corners.n; i += 3)
        {
            double x = n[0] * p->corners.v[i] + n[1] * p->corners.v[i + 1] + n[2] * p->corners.v[i + 2];
            lo[a] = fmin(lo[a], x);
            hi[a] = fmax(hi[a], x);
        }
    }
    // The two sides' hulls lie in the piece's hull and apart, so no cut costs more than the piece. A
    // single cut of a bowl saves nothing (each half's hull still spans its hollow), but the halves' cuts
    // do: so the best cut is taken even without a gain, preferring planes near the middle, as long as
    // the piece holds some of the solid's volume to cut.
    double best = (double)INFINITY;
    *found = false;
    if (p->cell_count < 2)
        return true;
    for (int axis = 0; axis < DECOMPOSE_DIRECTIONS; axis++)
        for (int c = 1; c <= DECOMPOSE_CUTS; c++)
        {
            double n[3] = {cut_directions[axis][0], cut_directions[axis][1], cut_directions[axis][2]};
            double at = lo[axis] + (hi[axis] - lo[axis]) * c / (DECOMPOSE_CUTS + 1);
            double cost;
            if (!plane_cost(dc, p, n, at, &cost))
                return false;
            cost += DECOMPOSE_OFF_CENTRE_COST * p->hull * fabs((double)c / (DECOMPOSE_CUTS + 1) - 0.5);
            if (cost < best)
            {
                best = cost;
                memcpy(nrm, n, sizeof n);
                *d = at;
                *found = true;
            }
        }
    if (best > p->hull * (1.0 - DECOMPOSE_SMALL_GAIN))
    {
        // No cut gains much (a bowl's first cuts): which one wins is then chance, and a sliver cut off
        // a curved shell leaves the rest no better. Halve the piece across its longest direction
        // instead, so that the shell is cut into even sectors whose own cuts then pay.
        int longest = 0;
        for (int a = 1; a < DECOMPOSE_DIRECTIONS; a++)
            if (hi[a] - lo[a] > (hi[longest] - lo[longest]) * (1.0 + 1e-9))
                longest = a;
        memcpy(nrm, cut_directions[longest], 3 * sizeof(double));
        *d = 0.5 * (lo[longest] + hi[longest]);
    }
    return true;
}

// ---- Solid voxels ----------------------------------------------------------------------------------

typedef struct line_hit
{
    int line;
    double x;
} line_hit;

static int compare_hit(const void *a, const void *b)
{
    const line_hit *p = a, *q = b;
    if (p->line != q->line)
        return (p->line > q->line) - (p->line < q->line);
    return (p->x > q->x) - (p->x < q->x);
}

// Voxel centres inside the closed surface: along each x row of the grid, the crossings with the
// triangles sorted, and the centres between the 1st and 2nd, 3rd and 4th, ... inside. Returns the
// centres (3 doubles each, malloc'd) and their count in *out_count; NULL when out of memory.
static double *solid_cells(const ph_vec3 *v, const int *tris, int tri_count, const double lo[3], double h,
                           const int dims[3], int *out_count)
{
    line_hit *hits = NULL;
    int hit_count = 0, hit_cap = 0;
    for (int t = 0; t < tri_count; t++)
    {
        const ph_vec3 *a = &v[tris[3 * t]], *b = &v[tris[3 * t + 1]], *c = &v[tris[3 * t + 2]];
        double ay = (double)a->y, by = (double)b->y, cy = (double)c->y;
        double az = (double)a->z, bz = (double)b->z, cz = (double)c->z;
        double ylo = fmin(ay, fmin(by, cy)), yhi = fmax(ay, fmax(by, cy));
        double zlo = fmin(az, fmin(bz, cz)), zhi = fmax(az, fmax(bz, cz));
        int j0 = (int)ceil((ylo - lo[1]) / h - 0.5 - DECOMPOSE_LINE_JITTER_Y);
        int j1 = (int)floor((yhi - lo[1]) / h - 0.5 - DECOMPOSE_LINE_JITTER_Y);
        int k0 = (int)ceil((zlo - lo[2]) / h - 0.5 - DECOMPOSE_LINE_JITTER_Z);
        int k1 = (int)floor((zhi - lo[2]) / h - 0.5 - DECOMPOSE_LINE_JITTER_Z);
        j0 = j0 < 0 ? 0 : j0;
        k0 = k0 < 0 ? 0 : k0;
        j1 = j1 >= dims[1] ? dims[1] - 1 : j1;
        k1 = k1 >= dims[2] ? dims[2] - 1 : k1;
        // The triangle in the yz plane: barycentric coordinates of each row's (y, z).
        double e1y = by - ay, e1z = bz - az;
        double e2y = cy - ay, e2z = cz - az;
        double det = e1y * e2z - e1z * e2y;
        if (det == 0.0)
            continue; // edge-on to the rows: crossed by none of them
        for (int j = j0; j <= j1; j++)
            for (int k = k0; k <= k1; k++)
            {
                double y = lo[1] + (j + 0.5 + DECOMPOSE_LINE_JITTER_Y) * h - ay;
                double z = lo[2] + (k + 0.5 + DECOMPOSE_LINE_JITTER_Z) * h - az;
                double u = (y * e2z - z * e2y) / det, w = (e1y * z - e1z * y) / det;
                if (u < 0.0 || w < 0.0 || u + w > 1.0)
                    continue;
                if (hit_count == hit_cap)
                {
                    int cap = hit_cap ? 2 * hit_cap : 1024;
                    line_hit *nh = realloc(hits, (size_t)cap * sizeof *nh);
                    if (!nh)
                    {
                        free(hits);
                        return NULL;
                    }
                    hits = nh;
                    hit_cap = cap;
                }
                hits[hit_count].line = j * dims[2] + k;
                double ax = (double)a->x;
                hits[hit_count].x = ax + u * ((double)b->x - ax) + w * ((double)c->x - ax);
                hit_count++;
            }
    }
    qsort(hits, (size_t)hit_count, sizeof *hits, compare_hit);
    dlist cells = {0};
    bool ok = true;
    for (int i = 0; ok && i + 1 < hit_count;)
    {
        int line = hits[i].line, end = i;
        while (end < hit_count && hits[end].line == line)
            end++;
        int j = line / dims[2], k = line % dims[2];
        for (int s = i; ok && s + 1 < end; s += 2)
        {
            int x0 = (int)ceil((hits[s].x - lo[0]) / h - 0.5),
                x1 = (int)floor((hits[s + 1].x - lo[0]) / h - 0.5);
            for (int x = x0 < 0 ? 0 : x0; ok && x <= x1 && x < dims[0]; x++)
            {
                double p[3] = {lo[0] + (x + 0.5) * h, lo[1] + (j + 0.5) * h, lo[2] + (k + 0.5) * h};
                ok = dlist_push3(&cells, p);
            }
        }
        i = end;
    }
    free(hits);
    if (!ok)
    {
        free(cells.v);
        return NULL;
    }
    *out_count = cells.n / 3;
    return cells.v ? cells.v : malloc(sizeof(double));
}

// The corners of the hull of the k points into out (at most k of them): what the engine keeps of them, so
// that a load from the cache hulls each piece from its corners alone (a hull build costs in proportion
// to its points, and a load builds each piece's hull twice: for its mass, then in the world). The points
// themselves where the engine cannot hull them (the model's builder then leaves the piece out).
static int hull_corners(const ph_vec3 *pts, int k, ph_vec3 *out)
{
    ph_hull_def def = ph_default_hull_def();
    def.points = pts;
    def.point_count = k;
    def.vertex_budget = PH_HULL_MAX_VERTICES;
    ph_status status = PH_OK;
    ph_hull *hull = k >= 4 ? ph_hull_build(&def, &status) : NULL;
    bool corners = hull && hull->vertex_count >= 4 && hull->vertex_count <= k;
    int n = corners ? hull->vertex_count : k;
    memcpy(out, corners ? hull->vertices : pts, (size_t)n * sizeof(ph_vec3));
    if (hull)
        ph_hull_free(hull);
    return n;
}

// ---- Public ----------------------------------------------------------------------------------------

decompose_result *decompose_mesh(const ph_vec3 *vertices, int vertex_count, const int *tris, int tri_count,
                                 const decompose_options *options, const char **reason)
{
    static const char *const no_volume = "the surface encloses no volume (open, flat or inside out)";
    static const char *const bad_index = "a triangle's index is out of range";
    static const char *const no_memory = "out of memory";
    decompose_options o = options ? *options : decompose_default_options();
    if (o.max_pieces < 1 || o.max_pieces > DECOMPOSE_MAX_PIECES)
        o.max_pieces = DECOMPOSE_DEFAULT_MAX_PIECES;
    if (!(o.concavity >= 0.0f) || !(o.concavity <= 1.0f))
        o.concavity = DECOMPOSE_DEFAULT_CONCAVITY;
    if (o.resolution < 8 || o.resolution > DECOMPOSE_MAX_RESOLUTION)
        o.resolution = DECOMPOSE_DEFAULT_RESOLUTION;
    const char *why = no_memory;
    if (!vertices || !tris || tri_count <= 0 || vertex_count <= 0)
    {
        if (reason)
            *reason = no_volume;
        return NULL;
    }
    for (int i = 0; i < 3 * tri_count; i++)
        if (tris[i] < 0 || tris[i] >= vertex_count)
        {
            if (reason)
                *reason = bad_index;
            return NULL;
        }
    ph_mass_properties solid = ph_compute_polyhedron_mass(vertices, tris, tri_count, 1.0f);
    if (!(solid.volume > 0.0f))
    {
        // Wound inside out (the cuts and the voxels do not care which way): its volume the other way.
        int *reversed = malloc((size_t)tri_count * 3 * sizeof(int));
        for (int t = 0; reversed && t < tri_count; t++)
        {
            reversed[3 * t] = tris[3 * t];
            reversed[3 * t + 1] = tris[3 * t + 2];
            reversed[3 * t + 2] = tris[3 * t + 1];
        }
        if (reversed)
            solid = ph_compute_polyhedron_mass(vertices, reversed, tri_count, 1.0f);
        free(reversed);
    }
    if (!(solid.volume > 0.0f))
    {
        if (reason)
            *reason = no_volume;
        return NULL;
    }
    double lo[3] = {(double)INFINITY, (double)INFINITY, (double)INFINITY},
           hi[3] = {-(double)INFINITY, -(double)INFINITY, -(double)INFINITY};
    for (int i = 0; i < 3 * tri_count; i++)
        for (int k = 0; k < 3; k++)
        {
            lo[k] = fmin(lo[k], (double)vertices[tris[i]].raw[k]);
            hi[k] = fmax(hi[k], (double)vertices[tris[i]].raw[k]);
        }
    double longest = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    double h = longest / o.resolution;
    int dims[3];
    for (int k = 0; k < 3; k++)
        dims[k] = (int)ceil((hi[k] - lo[k]) / h) + 1;

    decomposer dc = {0};
    piece *pieces = calloc((size_t)o.max_pieces, sizeof(piece));
    int piece_count = 0, cell_count = 0;
    double *centres = solid_cells(vertices, tris, tri_count, lo, h, dims, &cell_count);
    dc.centres = centres;
    dc.cell_volume = h * h * h;
    dc.scratch = malloc(DECOMPOSE_HULL_POINTS * sizeof(ph_vec3));
    dc.points = malloc(DECOMPOSE_HULL_POINTS * 3 * sizeof(double));
    decompose_result *result = NULL;
    bool ok = pieces && centres && dc.scratch && dc.points;

    // The first piece: every triangle, every cell.
    if (ok)
    {
        piece *p = &pieces[piece_count++];
        for (int t = 0; ok && t < tri_count; t++)
        {
            double tri[9];
            for (int c = 0; c < 3; c++)
                for (int k = 0; k < 3; k++)
                    tri[3 * c + k] = (double)vertices[tris[3 * t + c]].raw[k];
            ok = piece_add_poly(p, tri, 3);
        }
        p->cells = malloc((size_t)(cell_count + 1) * sizeof(int));
        ok = ok && p->cells;
        for (int i = 0; ok && i < cell_count; i++)
            p->cells[i] = i;
        p->cell_count = cell_count;
        ok = ok && measure(&dc, p);
    }
    double budget = (double)o.concavity * (double)solid.volume;
    while (ok && piece_count < o.max_pieces)
    {
        // The hulls' excess over the solid, exactly (the pieces do not overlap); the voxels only rank
        // the pieces.
        double total = -(double)solid.volume;
        int worst = -1;
        for (int i = 0; i < piece_count; i++)
        {
            total += pieces[i].hull;
            if (!pieces[i].final && (worst < 0 || pieces[i].excess > pieces[worst].excess))
                worst = i;
        }
        if (total <= budget || worst < 0)
            break;
        double nrm[3], d = 0.0;
        bool found = false;
        ok = best_cut(&dc, &pieces[worst], nrm, &d, &found);
        if (!ok)
            break;
        if (!found)
        {
            pieces[worst].final = true;
            continue;
        }
        piece front, back;
        ok = cut(&dc, &pieces[worst], nrm, d, &front, &back);
        if (!ok)
        {
            piece_free(&front);
            piece_free(&back);
            break;
        }
        piece_free(&pieces[worst]);
        pieces[worst] = front;
        if (back.poly_count > 0)
            pieces[piece_count++] = back;
        else
            piece_free(&back);
    }

    // The result: each piece's sample of corners, in one allocation.
    if (ok)
    {
        size_t head =
            (sizeof(decompose_result) + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
        size_t ints = ((size_t)piece_count * 2 * sizeof(int) + sizeof(max_align_t) - 1) /
                      sizeof(max_align_t) * sizeof(max_align_t);
        result = malloc(head + ints + (size_t)piece_count * DECOMPOSE_HULL_POINTS * sizeof(ph_vec3));
        ok = result != NULL;
    }
    if (ok)
    {
        size_t head =
            (sizeof(decompose_result) + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
        size_t ints = ((size_t)piece_count * 2 * sizeof(int) + sizeof(max_align_t) - 1) /
                      sizeof(max_align_t) * sizeof(max_align_t);
        result->first = (int *)((char *)result + head);
        result->count = result->first + piece_count;
        result->points = (ph_vec3 *)((char *)result + head + ints);
        result->piece_count = 0;
        result->hull_volume = 0.0f;
        result->solid_volume = solid.volume;
        int at = 0;
        for (int i = 0; i < piece_count; i++)
        {
            if (pieces[i].poly_count == 0 || !(pieces[i].hull > 0.0))
                continue;
            int n = hull_corners(pieces[i].hull_points, pieces[i].hull_count, result->points + at);
            result->first[result->piece_count] = at;
            result->count[result->piece_count] = n;
            result->piece_count++;
            result->hull_volume += (float)pieces[i].hull;
            at += n;
        }
    }
    for (int i = 0; pieces && i < piece_count; i++)
        piece_free(&pieces[i]);
    free(pieces);
    free(centres);
    free(dc.scratch);
    free(dc.points);
    free(dc.clip);
    free(dc.side[0].v);
    free(dc.side[1].v);
    free(dc.all.v);
    if (!ok)
    {
        free(result);
        result = NULL;
    }
    if (!ok && reason)
        *reason = why;
    return ok ? result : NULL;
}

void decompose_free(decompose_result *result)
{
    free(result);
}

// ---- Cache -----------------------------------------------------------------------------------------

// The cache file: magic, version, key, piece count, then the pieces' point counts, their points (3
// floats each) and the two volumes, in this machine's byte order (a file from another machine has
// another key only by chance; it fails the size and finiteness checks otherwise, or is just wrong
// hulls, never a crash).
#define DECOMPOSE_CACHE_MAGIC 0x43445048u // "PHDC"
// Bumped whenever the algorithm or the format changes, so old files stop matching.
#define DECOMPOSE_CACHE_VERSION 2u

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
    {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

uint64_t decompose_key(const ph_vec3 *vertices, int vertex_count, const int *tris, int tri_count,
                       const decompose_options *options)
{
    decompose_options o = options ? *options : decompose_default_options();
    uint32_t version = DECOMPOSE_CACHE_VERSION;
    uint64_t h = 14695981039346656037ull;
    h = fnv(h, &version, sizeof version);
    h = fnv(h, &o.max_pieces, sizeof o.max_pieces);
    h = fnv(h, &o.concavity, sizeof o.concavity);
    h = fnv(h, &o.resolution, sizeof o.resolution);
    h = fnv(h, &vertex_count, sizeof vertex_count);
    h = fnv(h, &tri_count, sizeof tri_count);
    if (vertices && vertex_count > 0)
        h = fnv(h, vertices, (size_t)vertex_count * sizeof(ph_vec3));
    if (tris && tri_count > 0)
        h = fnv(h, tris, (size_t)tri_count * 3 * sizeof(int));
    return h;
}

decompose_result *decompose_cache_read(const char *path, uint64_t key)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        return NULL;
    uint32_t head[2];
    uint64_t file_key;
    int32_t pieces;
    decompose_result *r = NULL;
    int32_t *counts = NULL;
    if (fread(head, sizeof head, 1, f) != 1 || head[0] != DECOMPOSE_CACHE_MAGIC ||
        head[1] != DECOMPOSE_CACHE_VERSION || fread(&file_key, sizeof file_key, 1, f) != 1 ||
        file_key != key || fread(&pieces, sizeof pieces, 1, f) != 1 || pieces < 1 ||
        pieces > DECOMPOSE_MAX_PIECES)
        goto done;
    counts = malloc((size_t)pieces * sizeof(int32_t));
    if (!counts || fread(counts, sizeof(int32_t), (size_t)pieces, f) != (size_t)pieces)
        goto done;
    int total = 0;
    for (int i = 0; i < pieces; i++)
    {
        if (counts[i] < 4 || counts[i] > DECOMPOSE_HULL_POINTS)
            goto done;
        total += counts[i];
    }
    size_t head_size =
        (sizeof(decompose_result) + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    size_t ints = ((size_t)pieces * 2 * sizeof(int) + sizeof(max_align_t) - 1) / sizeof(max_align_t) *
                  sizeof(max_align_t);
    r = malloc(head_size + ints + (size_t)total * sizeof(ph_vec3));
    if (!r)
        goto done;
    r->piece_count = pieces;
    r->first = (int *)((char *)r + head_size);
    r->count = r->first + pieces;
    r->points = (ph_vec3 *)((char *)r + head_size + ints);
    for (int i = 0, at = 0; i < pieces; i++)
    {
        r->first[i] = at;
        r->count[i] = counts[i];
        at += counts[i];
    }
    float volumes[2];
    bool ok = true;
    for (int i = 0; ok && i < total; i++)
    {
        float xyz[3];
        ok = fread(xyz, sizeof xyz, 1, f) == 1 && isfinite(xyz[0]) && isfinite(xyz[1]) && isfinite(xyz[2]);
        if (ok)
            r->points[i] = ph_v3(xyz[0], xyz[1], xyz[2]);
    }
    char extra;
    ok = ok && fread(volumes, sizeof volumes, 1, f) == 1 && isfinite(volumes[0]) && isfinite(volumes[1]) &&
         fread(&extra, 1, 1, f) == 0; // nothing after the volumes
    if (!ok)
    {
        free(r);
        r = NULL;
        goto done;
    }
    r->hull_volume = volumes[0];
    r->solid_volume = volumes[1];
done:
    free(counts);
    fclose(f);
    return r;
}

bool decompose_cache_write(const char *path, uint64_t key, const decompose_result *r)
{
    if (!path || !r || r->piece_count < 1)
        return false;
    size_t n = strlen(path);
    char *tmp = malloc(n + 5);
    if (!tmp)
        return false;
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp", 5);
    FILE *f = fopen(tmp, "wb");
    bool ok = f != NULL;
    uint32_t head[2] = {DECOMPOSE_CACHE_MAGIC, DECOMPOSE_CACHE_VERSION};
    int32_t pieces = r->piece_count;
    ok = ok && fwrite(head, sizeof head, 1, f) == 1 && fwrite(&key, sizeof key, 1, f) == 1 &&
         fwrite(&pieces, sizeof pieces, 1, f) == 1;
    for (int i = 0; ok && i < pieces; i++)
    {
        int32_t c = r->count[i];
        ok = fwrite(&c, sizeof c, 1, f) == 1;
    }
    for (int i = 0; ok && i < pieces; i++)
        for (int k = 0; ok && k < r->count[i]; k++)
        {
            const ph_vec3 *p = &r->points[r->first[i] + k];
            float xyz[3] = {p->x, p->y, p->z};
            ok = fwrite(xyz, sizeof xyz, 1, f) == 1;
        }
    float volumes[2] = {r->hull_volume, r->solid_volume};
    ok = ok && fwrite(volumes, sizeof volumes, 1, f) == 1;
    if (f && fclose(f) != 0)
        ok = false;
    ok = ok && rename(tmp, path) == 0;
    if (!ok && f)
        remove(tmp);
    free(tmp);
    return ok;
}
