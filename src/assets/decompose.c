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

#include "assets/quickhull.h"

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
// i = 1..DECOMPOSE_CUTS. The directions: the axes and the diagonals of the coordinate planes. 15 rather than
// 7 (with the merging): the bowl of test_decompose 2.5% over its solid instead of 5.3%, spot 3.4% instead
// of 3.5%, the 30k-triangle blob 1.7% instead of 2.9% (measured; one pass over the corners serves all the
// planes of a direction, so more planes cost little).
#define DECOMPOSE_CUTS 15
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
// Pieces cut past max_pieces (as a multiple of it) before the cheapest merges bring them back (merge_pieces).
// Measured (spot, the low-poly bunny, the bowl of test_decompose, the 30k-triangle blob): 1 (cut to twice
// the pieces) left spot 3.4% over its solid instead of 5.4% with cuts alone, the bowl 2.5% instead of 4.3%.
#define DECOMPOSE_OVERSPLIT 1

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

// The directions of sample_points' extreme points: the axes, the coordinate planes' diagonals and the
// cube's diagonals, both ways.
#define SAMPLE_DIRECTIONS 26
static const double sample_dx[SAMPLE_DIRECTIONS] = {-1, 1, 0, 0, 0, 0,  -1, 1,  -1, 1,  -1, 1, -1,
                                                    1,  0, 0, 0, 0, -1, 1,  -1, 1,  -1, 1,  1, -1};
static const double sample_dy[SAMPLE_DIRECTIONS] = {0, 0,  -1, 1,  0, 0,  -1, 1,  1, -1, 0,  0,  0,
                                                    0, -1, 1,  -1, 1, -1, 1,  -1, 1, 1,  -1, -1, 1};
static const double sample_dz[SAMPLE_DIRECTIONS] = {0,  0,  0, 0, -1, 1,  0, 0, 0,  0,  -1, 1,  1,
                                                    -1, -1, 1, 1, -1, -1, 1, 1, -1, -1, 1,  -1, 1};

// Picks at most max of the n points (3 doubles each) into out (floats), quickly: the extreme points
// along the axes and the diagonals first (both ways), so the hull keeps its reach, then evenly spread ones.
static int sample_points(const double *pts, int n, ph_vec3 *out, int max)
{
    const double *dx = sample_dx, *dy = sample_dy, *dz = sample_dz;
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

// Volume of the hull of the k points (3 doubles each); 0 when they span no volume. Our own quickhull
// (quickhull.c) first: a decomposition asks thousands of these, and qhull's set-up alone costs more than
// that whole hull. qhull (default facet merging, its own volume sum) where rounding left ours inconsistent
// (about 1 cloud in 20,000 of the degenerate ones it is tested on).
static double hull_volume_of(double *points, int k, quickhull_work *work)
{
    if (k < 4 || is_flat(points, k))
        return 0.0;
    double v = 0.0;
    quickhull_status st = quickhull_volume(points, k, work, &v);
    if (st == QUICKHULL_OK || st == QUICKHULL_FLAT)
        return v;
    qhT qh_storage;
    qhT *qh = &qh_storage;
    qh_zero(qh, stderr);
    char command[] = "qhull";
    v = 0.0;
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

// The same for points in floats (points: room for k of them in doubles).
static double hull_volume(const ph_vec3 *pts, int k, double *points, quickhull_work *work)
{
    for (int i = 0; i < k; i++)
        for (int c = 0; c < 3; c++)
            points[3 * i + c] = (double)pts[i].raw[c];
    return hull_volume_of(points, k, work);
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
    quickhull_work hull;
    // The trial cuts of one direction (family_costs): the sampled corners sorted by slab, each corner's
    // slab, and the points where each plane crosses the polygons.
    double *sorted;
    int *slab;
    int sorted_cap;
    dlist cross[DECOMPOSE_CUTS];
    double far_value[DECOMPOSE_CUTS + 1][SAMPLE_DIRECTIONS]; // each slab's extremes (family_costs)
    int far_at[DECOMPOSE_CUTS + 1][SAMPLE_DIRECTIONS];
    // The voxel grid: each solid cell's grid index, the cell at each grid index (-1: outside the solid),
    // and the piece each cell is in (its index in the pieces).
    int dims[3];
    int *cell_grid, *cell_at, *owner;
    // Open-addressing table of the corners already taken by piece_points (indices into all, -1: empty).
    int *seen;
    int seen_cap;
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

// The sample of one side of a trial plane: the points sorted[lo, hi) (3 doubles each), which are slabs
// first_slab to last_slab, and the m points cross where the plane crosses the polygons.
typedef struct side_sample
{
    const double *sorted, *cross;
    int lo, hi, m;
    int first_slab, last_slab;
} side_sample;

static const double *side_point(const side_sample *s, int i)
{
    int range = s->hi - s->lo;
    return i < range ? s->sorted + 3 * (s->lo + i) : s->cross + 3 * (i - range);
}

// At most max points of the side into out (3 doubles each): all of them when they are few, else, as
// sample_points takes them, its farthest points along the sample directions (from each slab's and the
// crossings', kept by family_costs), then evenly spread ones.
static int take_side(const decomposer *dc, const side_sample *s, const double *cross_value,
                     const int *cross_at, double *out, int max)
{
    int n = s->hi - s->lo + s->m, k = 0;
    if (n <= max)
    {
        for (int i = 0; i < n; i++)
            memcpy(out + 3 * k++, side_point(s, i), 3 * sizeof(double));
        return k;
    }
    for (int d = 0; d < SAMPLE_DIRECTIONS; d++)
    {
        double best = -(double)INFINITY;
        const double *q = NULL;
        for (int b = s->first_slab; b <= s->last_slab; b++)
            if (dc->far_at[b][d] >= 0 && dc->far_value[b][d] > best)
            {
                best = dc->far_value[b][d];
                q = s->sorted + 3 * dc->far_at[b][d];
            }
        if (cross_at[d] >= 0 && cross_value[d] > best)
            q = s->cross + 3 * cross_at[d];
        if (q)
            memcpy(out + 3 * k++, q, 3 * sizeof(double));
    }
    int rest = max - k;
    for (int j = 0; j < rest; j++)
        memcpy(out + 3 * k++, side_point(s, (int)((long long)j * n / rest)), 3 * sizeof(double));
    return k;
}

// The hull volumes on the two sides of each of the DECOMPOSE_CUTS parallel planes dot(nrm, x) = at[c]
// (ascending) through piece p, summed into cost[c]. A side's hull is taken from a sample of its points (the
// polygons' corners on that side and their crossings with the plane; take_side): the corners are
// sorted once by the slab between planes they fall in, so that one pass over them serves all the planes
// (each plane's sides are runs of slabs) instead of a clip of every polygon by every plane. Only an even
// sample of the polygons is read (DECOMPOSE_TRIAL_POLYGONS).
static bool family_costs(decomposer *dc, const piece *p, const double nrm[3], const double at[DECOMPOSE_CUTS],
                         double cost[DECOMPOSE_CUTS])
{
    int stride = p->poly_count > DECOMPOSE_TRIAL_POLYGONS ? p->poly_count / DECOMPOSE_TRIAL_POLYGONS : 1;
    int corners = 0;
    for (int i = 0; i < p->poly_count; i += stride)
        corners += p->poly_len[i];
    if (corners > dc->sorted_cap)
    {
        double *sorted = realloc(dc->sorted, (size_t)corners * 3 * sizeof(double));
        if (sorted)
            dc->sorted = sorted;
        int *slab = realloc(dc->slab, (size_t)corners * sizeof(int));
        if (slab)
            dc->slab = slab;
        if (!sorted || !slab)
            return false;
        dc->sorted_cap = corners;
    }
    for (int c = 0; c < DECOMPOSE_CUTS; c++)
        dc->cross[c].n = 0;
    // Each corner's slab: the number of planes at or below it (so it is in front of planes [0, slab)).
    // Where an edge runs between slabs, its crossings with the planes between; a corner on a plane is
    // on both of its sides, as clip_poly has it.
    int start[DECOMPOSE_CUTS + 2] = {0};
    const double *poly = p->corners.v;
    for (int i = 0, k = 0; i < p->poly_count; i++)
    {
        int n = p->poly_len[i];
        if (i % stride == 0)
        {
            for (int j = 0; j < n; j++)
            {
                const double *a = poly + 3 * j;
                double pa = nrm[0] * a[0] + nrm[1] * a[1] + nrm[2] * a[2];
                int s = 0;
                while (s < DECOMPOSE_CUTS && at[s] <= pa)
                    s++;
                dc->slab[k + j] = s;
                start[s + 1]++;
                if (s > 0 && pa == at[s - 1] && !dlist_push3(&dc->cross[s - 1], a))
                    return false;
            }
            for (int j = 0; j < n; j++)
            {
                int sa = dc->slab[k + j], sb = dc->slab[k + (j + 1) % n];
                if (sa == sb)
                    continue;
                const double *a = poly + 3 * j, *b = poly + 3 * ((j + 1) % n);
                double pa = nrm[0] * a[0] + nrm[1] * a[1] + nrm[2] * a[2];
                double pb = nrm[0] * b[0] + nrm[1] * b[1] + nrm[2] * b[2];
                for (int c = sa < sb ? sa : sb; c < (sa < sb ? sb : sa); c++)
                {
                    double t = (at[c] - pa) / (pb - pa), x[3];
                    for (int q = 0; q < 3; q++)
                        x[q] = a[q] + t * (b[q] - a[q]);
                    if (!dlist_push3(&dc->cross[c], x))
                        return false;
                }
            }
            k += n;
        }
        poly += 3 * n;
    }
    // The corners sorted by slab (counting sort), and each slab's extremes along the trial directions.
    for (int s = 0; s <= DECOMPOSE_CUTS; s++)
        start[s + 1] += start[s];
    int fill[DECOMPOSE_CUTS + 1];
    const int dirs = SAMPLE_DIRECTIONS;
    for (int s = 0; s <= DECOMPOSE_CUTS; s++)
    {
        fill[s] = start[s];
        for (int d = 0; d < dirs; d++)
        {
            dc->far_value[s][d] = -(double)INFINITY;
            dc->far_at[s][d] = -1;
        }
    }
    const double *tx = sample_dx, *ty = sample_dy, *tz = sample_dz;
    poly = p->corners.v;
    for (int i = 0, k = 0; i < p->poly_count; i++)
    {
        int n = p->poly_len[i];
        for (int j = 0; i % stride == 0 && j < n; j++)
        {
            int s = dc->slab[k++], at_index = fill[s]++;
            const double *a = poly + 3 * j;
            double *to = dc->sorted + 3 * at_index;
            to[0] = a[0];
            to[1] = a[1];
            to[2] = a[2];
            double *restrict fv = dc->far_value[s];
            int *restrict fa = dc->far_at[s];
            double x = a[0], y = a[1], z = a[2];
            for (int d = 0; d < dirs; d++)
            {
                double v = tx[d] * x + ty[d] * y + tz[d] * z;
                bool gt = v > fv[d];
                fv[d] = gt ? v : fv[d];
                fa[d] = gt ? at_index : fa[d];
            }
        }
        poly += 3 * n;
    }
    for (int c = 0; c < DECOMPOSE_CUTS; c++)
    {
        const dlist *cross = &dc->cross[c];
        int m = cross->n / 3;
        double cross_value[SAMPLE_DIRECTIONS];
        int cross_at[SAMPLE_DIRECTIONS];
        for (int d = 0; d < dirs; d++)
        {
            cross_value[d] = -(double)INFINITY;
            cross_at[d] = -1;
        }
        for (int i = 0; i < m; i++)
        {
            const double *a = cross->v + 3 * i;
            for (int d = 0; d < dirs; d++)
            {
                double v = tx[d] * a[0] + ty[d] * a[1] + tz[d] * a[2];
                bool gt = v > cross_value[d];
                cross_value[d] = gt ? v : cross_value[d];
                cross_at[d] = gt ? i : cross_at[d];
            }
        }
        // In front of plane c: slabs c + 1 and up; behind it: slabs 0 to c.
        side_sample sides[2] = {
            {dc->sorted, cross->v, start[c + 1], start[DECOMPOSE_CUTS + 1], m, c + 1, DECOMPOSE_CUTS},
            {dc->sorted, cross->v, 0, start[c + 1], m, 0, c}};
        cost[c] = 0.0;
        for (int side = 0; side < 2; side++)
        {
            int k = take_side(dc, &sides[side], cross_value, cross_at, dc->points, DECOMPOSE_TRIAL_POINTS);
            cost[c] += hull_volume_of(dc->points, k, &dc->hull);
        }
    }
    return true;
}

// The points whose hull is the piece's: its surface corners and its voxel centres. A cell's corner
// that lies inside the solid (where three cuts meet) is a corner of the piece but of none of its
// surface polygons (the octants of a cube would each lose a sixth without it); the voxel centres near
// it stand in for it, to half a voxel. In dc->all; false when out of memory. Only what can be extreme along
// some direction is taken, in the order it comes, so that extreme_points picks the same points as from all
// of them and several times faster: each corner once (a surface's vertex is the corner of about six
// polygons), and only the cells on the piece's boundary (a cell whose six neighbours are in the piece has
// one farther along any direction: the neighbour along the direction's largest component).
static bool piece_points(decomposer *dc, const piece *p, int id)
{
    dc->all.n = 0;
    int need = 16;
    while (need < 2 * (p->corners.n / 3))
        need *= 2;
    if (need > dc->seen_cap)
    {
        int *seen = realloc(dc->seen, (size_t)need * sizeof(int));
        if (!seen)
            return false;
        dc->seen = seen;
        dc->seen_cap = need;
    }
    unsigned mask = (unsigned)need - 1u;
    for (int i = 0; i < need; i++)
        dc->seen[i] = -1;
    for (int i = 0; i < p->corners.n; i += 3)
    {
        const double *c = p->corners.v + i;
        uint64_t bits[3];
        memcpy(bits, c, sizeof bits);
        uint64_t key = (bits[0] * 0x9e3779b97f4a7c15ull) ^ (bits[1] * 0xc2b2ae3d27d4eb4full) ^
                       (bits[2] * 0x165667b19e3779f9ull);
        unsigned slot = (unsigned)(key ^ key >> 29 ^ key >> 47) & mask;
        bool fresh = true;
        while (dc->seen[slot] >= 0)
        {
            if (memcmp(dc->all.v + 3 * dc->seen[slot], c, 3 * sizeof(double)) == 0)
            {
                fresh = false;
                break;
            }
            slot = (slot + 1u) & mask;
        }
        if (!fresh)
            continue;
        dc->seen[slot] = dc->all.n / 3;
        if (!dlist_push3(&dc->all, c))
            return false;
    }
    int sx = 1, sy = dc->dims[0], sz = dc->dims[0] * dc->dims[1];
    for (int i = 0; i < p->cell_count; i++)
    {
        int g = dc->cell_grid[p->cells[i]];
        int x = g % dc->dims[0], y = (g / dc->dims[0]) % dc->dims[1], z = g / sz;
        bool inner =
            x > 0 && x + 1 < dc->dims[0] && y > 0 && y + 1 < dc->dims[1] && z > 0 && z + 1 < dc->dims[2];
        const int step[6] = {sx, -sx, sy, -sy, sz, -sz};
        for (int k = 0; inner && k < 6; k++)
        {
            int c = dc->cell_at[g + step[k]];
            inner = c >= 0 && dc->owner[c] == id;
        }
        if (!inner && !dlist_push3(&dc->all, dc->centres + 3 * p->cells[i]))
            return false;
    }
    return true;
}

static bool measure(decomposer *dc, piece *p, int id)
{
    if (!piece_points(dc, p, id))
        return false;
    p->hull_count = extreme_points(dc->all.v, dc->all.n / 3, p->hull_points, DECOMPOSE_HULL_POINTS);
    p->hull = hull_volume(p->hull_points, p->hull_count, dc->points, &dc->hull);
    p->excess = fmax(0.0, p->hull - (double)p->cell_count * dc->cell_volume);
    return true;
}

// Cuts p by the plane into front and back (p is left as it was), which become pieces front_id and back_id.
static bool cut(decomposer *dc, const piece *p, const double nrm[3], double d, int front_id, int back_id,
                piece *front, piece *back)
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
        bool in_front = nrm[0] * c[0] + nrm[1] * c[1] + nrm[2] * c[2] >= d;
        piece *to = in_front ? front : back;
        to->cells[to->cell_count++] = p->cells[i];
        dc->owner[p->cells[i]] = in_front ? front_id : back_id;
    }
    return measure(dc, front, front_id) && measure(dc, back, back_id);
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
    {
        const double *n = cut_directions[axis];
        double at[DECOMPOSE_CUTS], cost[DECOMPOSE_CUTS];
        for (int c = 0; c < DECOMPOSE_CUTS; c++)
            at[c] = lo[axis] + (hi[axis] - lo[axis]) * (c + 1) / (DECOMPOSE_CUTS + 1);
        if (!family_costs(dc, p, n, at, cost))
            return false;
        for (int c = 0; c < DECOMPOSE_CUTS; c++)
        {
            double total = cost[c] + DECOMPOSE_OFF_CENTRE_COST * p->hull *
                                         fabs((double)(c + 1) / (DECOMPOSE_CUTS + 1) - 0.5);
            if (total < best)
            {
                best = total;
                memcpy(nrm, n, 3 * sizeof(double));
                *d = at[c];
                *found = true;
            }
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

// ---- Merging ---------------------------------------------------------------------------------------

// The hull of pieces a and b together: its volume, and (when out is not NULL) its points as measure takes
// them (the extremes of both pieces' hull points). dc->all holds the union.
static double merged_hull(decomposer *dc, const piece *a, const piece *b, ph_vec3 *out, int *out_count)
{
    dc->all.n = 0;
    for (int pass = 0; pass < 2; pass++)
    {
        const piece *p = pass ? b : a;
        for (int i = 0; i < p->hull_count; i++)
        {
            double q[3] = {(double)p->hull_points[i].x, (double)p->hull_points[i].y,
                           (double)p->hull_points[i].z};
            if (!dlist_push3(&dc->all, q))
                return -1.0;
        }
    }
    int n = dc->all.n / 3;
    if (out)
    {
        *out_count = extreme_points(dc->all.v, n, out, DECOMPOSE_HULL_POINTS);
        return hull_volume(out, *out_count, dc->points, &dc->hull);
    }
    return hull_volume_of(dc->all.v, n, &dc->hull);
}

// Whether the bounds of two pieces' hull points come within margin of each other (pieces apart cannot merge
// cheaply: their hull spans the gap).
static bool pieces_near(const piece *a, const piece *b, double margin)
{
    for (int k = 0; k < 3; k++)
    {
        float alo = INFINITY, ahi = -INFINITY, blo = INFINITY, bhi = -INFINITY;
        for (int i = 0; i < a->hull_count; i++)
        {
            alo = fminf(alo, a->hull_points[i].raw[k]);
            ahi = fmaxf(ahi, a->hull_points[i].raw[k]);
        }
        for (int i = 0; i < b->hull_count; i++)
        {
            blo = fminf(blo, b->hull_points[i].raw[k]);
            bhi = fmaxf(bhi, b->hull_points[i].raw[k]);
        }
        if ((double)alo > (double)bhi + margin || (double)blo > (double)ahi + margin)
            return false;
    }
    return true;
}

// Merges pieces, the pair whose joint hull adds the least volume to theirs first, until target are left.
// Cutting greedily past the target and merging back (as V-HACD does) undoes the cuts that bought least:
// a cut that paid when it was made can be worth less than a later one elsewhere. Near pairs only (within
// margin: a voxel), unless none is left.
static bool merge_pieces(decomposer *dc, piece *pieces, int *piece_count, int target, double margin)
{
    int n = *piece_count;
    double *cost = malloc((size_t)n * (size_t)n * sizeof(double));
    if (!cost)
        return false;
    bool ok = true, any_pair = false;
    for (int i = 0; ok && i < n; i++)
        for (int j = i + 1; ok && j < n; j++)
        {
            cost[i * n + j] = (double)INFINITY;
            if (!pieces_near(&pieces[i], &pieces[j], margin))
                continue;
            double v = merged_hull(dc, &pieces[i], &pieces[j], NULL, NULL);
            ok = v >= 0.0;
            cost[i * n + j] = v - pieces[i].hull - pieces[j].hull;
        }
    int count = n;
    bool *gone = calloc((size_t)n, sizeof(bool));
    ok = ok && gone;
    while (ok && count > target)
    {
        int bi = -1, bj = -1;
        double best = (double)INFINITY;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; !gone[i] && j < n; j++)
                if (!gone[j] && cost[i * n + j] < best)
                {
                    best = cost[i * n + j];
                    bi = i;
                    bj = j;
                }
        if (bi < 0)
        {
            // No near pair left: every pair, whatever it costs.
            if (any_pair)
                break;
            any_pair = true;
            for (int i = 0; ok && i < n; i++)
                for (int j = i + 1; ok && !gone[i] && j < n; j++)
                    if (!gone[j])
                    {
                        double v = merged_hull(dc, &pieces[i], &pieces[j], NULL, NULL);
                        ok = v >= 0.0;
                        cost[i * n + j] = v - pieces[i].hull - pieces[j].hull;
                    }
            continue;
        }
        piece *a = &pieces[bi];
        ph_vec3 merged[DECOMPOSE_HULL_POINTS];
        int merged_count = 0;
        double v = merged_hull(dc, a, &pieces[bj], merged, &merged_count);
        ok = v >= 0.0;
        memcpy(a->hull_points, merged, (size_t)merged_count * sizeof(ph_vec3));
        a->hull_count = merged_count;
        a->hull = v;
        gone[bj] = true;
        count--;
        for (int k = 0; ok && k < n; k++)
        {
            if (gone[k] || k == bi)
                continue;
            int i = k < bi ? k : bi, j = k < bi ? bi : k;
            cost[i * n + j] = (double)INFINITY;
            if (!any_pair && !pieces_near(&pieces[i], &pieces[j], margin))
                continue;
            double w = merged_hull(dc, &pieces[i], &pieces[j], NULL, NULL);
            ok = w >= 0.0;
            cost[i * n + j] = w - pieces[i].hull - pieces[j].hull;
        }
    }
    // The pieces left, packed.
    int at = 0;
    for (int i = 0; ok && i < n; i++)
    {
        if (gone[i])
        {
            piece_free(&pieces[i]);
            continue;
        }
        if (at != i)
        {
            pieces[at] = pieces[i];
            memset(&pieces[i], 0, sizeof pieces[i]);
        }
        at++;
    }
    if (ok)
        *piece_count = at;
    free(gone);
    free(cost);
    return ok && at <= target;
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
    ph_mass_properties as_wound = solid;
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
    int split_cap = o.max_pieces * (1 + DECOMPOSE_OVERSPLIT);
    piece *pieces = calloc((size_t)split_cap, sizeof(piece));
    int piece_count = 0, cell_count = 0;
    double *centres = solid_cells(vertices, tris, tri_count, lo, h, dims, &cell_count);
    dc.centres = centres;
    dc.cell_volume = h * h * h;
    memcpy(dc.dims, dims, sizeof dims);
    size_t grid_size = (size_t)dims[0] * (size_t)dims[1] * (size_t)dims[2];
    dc.cell_at = malloc(grid_size * sizeof(int));
    dc.cell_grid = malloc((size_t)(cell_count + 1) * sizeof(int));
    dc.owner = calloc((size_t)(cell_count + 1), sizeof(int)); // all in the first piece
    for (size_t g = 0; dc.cell_at && g < grid_size; g++)
        dc.cell_at[g] = -1;
    for (int i = 0; centres && dc.cell_at && dc.cell_grid && i < cell_count; i++)
    {
        // A centre is at (index + 1/2) voxels from lo: the floor of its position is its index.
        int g[3];
        for (int k = 0; k < 3; k++)
        {
            g[k] = (int)floor((centres[3 * i + k] - lo[k]) / h);
            g[k] = g[k] < 0 ? 0 : (g[k] >= dims[k] ? dims[k] - 1 : g[k]);
        }
        dc.cell_grid[i] = g[0] + dims[0] * (g[1] + dims[1] * g[2]);
        dc.cell_at[dc.cell_grid[i]] = i;
    }
    dc.scratch = malloc(DECOMPOSE_HULL_POINTS * sizeof(ph_vec3));
    dc.points = malloc(DECOMPOSE_HULL_POINTS * 3 * sizeof(double));
    decompose_result *result = NULL;
    bool ok = pieces && centres && dc.scratch && dc.points && dc.cell_at && dc.cell_grid && dc.owner;

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
        ok = ok && measure(&dc, p, 0);
    }
    double budget = (double)o.concavity * (double)solid.volume;
    while (ok && piece_count < split_cap)
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
        // Past max_pieces the cuts go on to split_cap whatever the excess: they are there to be merged.
        if ((piece_count <= o.max_pieces && total <= budget) || worst < 0)
            break;
        double nrm[3] = {0.0, 0.0, 1.0}, d = 0.0;
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
        ok = cut(&dc, &pieces[worst], nrm, d, worst, piece_count, &front, &back);
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

    if (ok && piece_count > o.max_pieces)
        ok = merge_pieces(&dc, pieces, &piece_count, o.max_pieces, h);

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
        result->mesh_mass = as_wound;
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
    free(dc.sorted);
    free(dc.slab);
    free(dc.cell_at);
    free(dc.cell_grid);
    free(dc.owner);
    free(dc.seen);
    for (int c = 0; c < DECOMPOSE_CUTS; c++)
        free(dc.cross[c].v);
    quickhull_work_free(&dc.hull);
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
#define DECOMPOSE_CACHE_VERSION 3u

uint64_t decompose_key_add(uint64_t key, const void *data, size_t bytes)
{
    const unsigned char *p = data;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8)
    {
        uint64_t w;
        memcpy(&w, p + i, sizeof w);
        key ^= w * 0x9e3779b97f4a7c15ull;
        key = (key << 27 | key >> 37) * 0xc2b2ae3d27d4eb4full;
    }
    for (; i < bytes; i++)
    {
        key ^= p[i];
        key *= 1099511628211ull; // FNV-1a's prime for the last bytes
    }
    return key;
}

uint64_t decompose_key_start(const decompose_options *options)
{
    decompose_options o = options ? *options : decompose_default_options();
    uint32_t version = DECOMPOSE_CACHE_VERSION;
    uint64_t h = 14695981039346656037ull;
    h = decompose_key_add(h, &version, sizeof version);
    h = decompose_key_add(h, &o.max_pieces, sizeof o.max_pieces);
    h = decompose_key_add(h, &o.concavity, sizeof o.concavity);
    return decompose_key_add(h, &o.resolution, sizeof o.resolution);
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
    float volumes[2], mass[14];
    bool ok = true;
    // The points in one read (ph_vec3 is three floats, as the file has them), then checked.
    _Static_assert(sizeof(ph_vec3) == 3 * sizeof(float), "ph_vec3 is read as three floats");
    ok = fread(r->points, sizeof(ph_vec3), (size_t)total, f) == (size_t)total;
    for (int i = 0; ok && i < total; i++)
        ok = isfinite(r->points[i].x) && isfinite(r->points[i].y) && isfinite(r->points[i].z);
    char extra;
    ok = ok && fread(volumes, sizeof volumes, 1, f) == 1 && isfinite(volumes[0]) && isfinite(volumes[1]) &&
         fread(mass, sizeof mass, 1, f) == 1 && fread(&extra, 1, 1, f) == 0; // nothing after the mass
    for (int i = 0; ok && i < 14; i++)
        ok = isfinite(mass[i]);
    if (!ok)
    {
        free(r);
        r = NULL;
        goto done;
    }
    r->hull_volume = volumes[0];
    r->solid_volume = volumes[1];
    r->mesh_mass.mass = mass[0];
    r->mesh_mass.volume = mass[1];
    memcpy(r->mesh_mass.center.raw, mass + 2, 3 * sizeof(float));
    for (int c = 0; c < 3; c++)
        memcpy(r->mesh_mass.inertia.raw[c], mass + 5 + 3 * c, 3 * sizeof(float));
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
    float volumes[2] = {r->hull_volume, r->solid_volume}, mass[14];
    mass[0] = r->mesh_mass.mass;
    mass[1] = r->mesh_mass.volume;
    memcpy(mass + 2, r->mesh_mass.center.raw, 3 * sizeof(float));
    for (int c = 0; c < 3; c++)
        memcpy(mass + 5 + 3 * c, r->mesh_mass.inertia.raw[c], 3 * sizeof(float));
    ok = ok && fwrite(volumes, sizeof volumes, 1, f) == 1 && fwrite(mass, sizeof mass, 1, f) == 1;
    if (f && fclose(f) != 0)
        ok = false;
    ok = ok && rename(tmp, path) == 0;
    if (!ok && f)
        remove(tmp);
    free(tmp);
    return ok;
}
