// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Convex hulls: building a ph_hull from a point cloud (faces, edges, vertex adjacency, centroid,
// bounds), simplifying it to a vertex budget, and the support queries GJK and EPA run over it.
//
// Hull construction is delegated to Debian's reentrant qhull (libqhull_r, Barber, Dobkin and
// Huhdanpaa, "The Quickhull algorithm for convex hulls", ACM TOMS 22(4), 1996) rather than a quickhull
// of our own. Why: the hard part of a hull builder is not the algorithm but its robustness to
// duplicate, coplanar, collinear and nearly degenerate input, which qhull handles with facet merging
// after decades of use, while a new implementation would need the same years of failures to get there.
// qhull also merges coplanar triangles into convex polygon faces, which is what the contact manifold
// clips against. The cost is one link dependency (allowed by DESIGN.md) and some care at the boundary:
// - qhull allocates with malloc internally; it is freed before ph_hull_build returns, and the result
//   lives in one block from ph_alloc (counted by ph_byte_count).
// - qhull reports its own errors on stderr. We never open files for it, and we reject flat input
//   ourselves first, so that qhull is only given clouds it can hull.
// - qhull's errors longjmp back into qh_new_qhull only; after it returns we read its structures and
//   call nothing that can fail, ordering face loops ourselves instead of through qh_facet3vertex.
//
// The vertex budget (PH_HULL_DEFAULT_VERTEX_BUDGET) keeps support queries and manifolds cheap. When
// the full hull has more vertices, we keep a subset grown greedily by the farthest point: start from
// a large tetrahedron, then repeatedly add the hull vertex farthest outside the hull of the kept ones
// (the refinement rule of quickhull itself, and of Hausdorff-greedy polytope approximation; batched
// for large budgets, see HULL_SIMPLIFY_BATCH_DIVISOR). The result lies inside the true hull, and
// ph_hull.max_outside_distance reports how far any input point lies outside it.
#include "core.h"

#include "phys/collision.h"

#include <float.h>                 // FLT_MAX
#include <libqhull_r/libqhull_r.h> // qh_new_qhull, qhT, facetT, vertexT
#include <math.h>                  // fabs, sqrt, atan2
#include <stdio.h>                 // snprintf, stderr (qhull's error stream)
#include <stdlib.h>                // qsort
#include <string.h>                // memset, memcpy

// Marks a ph_hull_def made by ph_default_hull_def() ("HULL" in ASCII).
#define HULL_DEF_COOKIE 0x48554C4Cu

// A cloud thinner than this fraction of its extent in some direction has no usable volume and is
// rejected as PH_ERR_DEGENERATE (unit: fraction of the largest bounding-box side). 1e-4 rejects a
// 1 m plate thinner than 0.1 mm, far below anything a rigid body should be.
#define HULL_FLAT_TOLERANCE 1e-4

// qhull merges facets whose centrums lie within this distance of each other's planes (its "C-n"
// pre-merge option), expressed as a fraction of the cloud's extent. Float models carry rounding of a
// few 1e-7 relative; 1e-6 merges those nearly coplanar triangles into one polygon face while keeping
// every real edge of a model. Input points may end up outside the merged faces by a few times this
// (reported in ph_hull.max_outside_distance). 1e-5 was tried and rejected: it merges facets whose
// union is visibly non-convex in projection (a reflex corner of 4e-4 of the extent on sphere samples),
// and the hull's edge graph then stops being convex enough for exact hill-climbing support.
#define HULL_MERGE_TOLERANCE 1e-6

// Each greedy round adds up to (kept vertices / this) points, at least one: the farthest outside
// points of distinct faces, farthest first. Each round costs a qhull run of ~1 ms, so one point per
// round makes a 256-vertex budget slow (~1 s); with 32 the rounds stay single up to 64 kept vertices
// (the default budget is exactly serial greedy) and then add 2..8 points of distinct faces per round
// (256 vertices in ~0.25 s). Divisors of 2..16 were measured to loosen the budget-64 sphere hull by
// 10-40%.
#define HULL_SIMPLIFY_BATCH_DIVISOR 32

// Hulls with more vertices than this are thinned to the supports of this many directions before greedy
// simplification (see support_candidates).
#define HULL_SIMPLIFY_DIRECTIONS 4096

// Greedy simplification stops adding vertices once the farthest remaining point is this close to the
// kept hull (fraction of the extent): the kept hull is then exact within rounding.
#define HULL_SIMPLIFY_TOLERANCE 1e-6

ph_hull_def ph_default_hull_def(void)
{
    ph_hull_def def;
    memset(&def, 0, sizeof def);
    def.vertex_budget = PH_HULL_DEFAULT_VERTEX_BUDGET;
    def.internal_cookie = HULL_DEF_COOKIE;
    return def;
}

// ---- Memory layout ---------------------------------------------------------------------------------

// A hull lives in one block: the struct, then its arrays. The block size follows from the counts, so
// ph_hull_free can hand the size back to the allocator without storing it.
typedef struct hull_layout
{
    size_t vertices, faces, face_indices, edges, adjacency_offsets, adjacency, axis_coords, total;
} hull_layout;

// The length of each axis' run in ph_hull.axis_coords: the vertex count rounded up to whole lanes.
static int axis_run(int vertex_count)
{
    return (vertex_count + PH_HULL_LANES - 1) / PH_HULL_LANES * PH_HULL_LANES;
}

static size_t align_up(size_t n)
{
    size_t a = sizeof(double) > sizeof(void *) ? sizeof(double) : sizeof(void *);
    return (n + a - 1) / a * a;
}

static hull_layout layout_for(int vertex_count, int face_count, int index_count, int edge_count)
{
    hull_layout l;
    size_t at = align_up(sizeof(ph_hull));
    l.vertices = at;
    at = align_up(at + sizeof(ph_vec3) * (size_t)vertex_count);
    l.faces = at;
    at = align_up(at + sizeof(ph_hull_face) * (size_t)face_count);
    l.face_indices = at;
    at = align_up(at + sizeof(int) * (size_t)index_count);
    l.edges = at;
    at = align_up(at + sizeof(ph_hull_edge) * (size_t)edge_count);
    l.adjacency_offsets = at;
    at = align_up(at + sizeof(int) * (size_t)(vertex_count + 1));
    l.adjacency = at;
    at = align_up(at + sizeof(int) * (size_t)(2 * edge_count));
    l.axis_coords = at;
    at = align_up(at + sizeof(float) * 3 * (size_t)axis_run(vertex_count));
    l.total = at;
    return l;
}

void ph_hull_free(ph_hull *hull)
{
    if (!hull)
        return;
    hull_layout l = layout_for(hull->vertex_count, hull->face_count,
                               hull->faces[hull->face_count - 1].first_index +
                                   hull->faces[hull->face_count - 1].index_count,
                               hull->edge_count);
    ph_free(hull, l.total);
}

// ---- Double-precision helpers ----------------------------------------------------------------------

typedef struct dvec
{
    double x, y, z;
} dvec;

static dvec dv(double x, double y, double z)
{
    dvec r = {x, y, z};
    return r;
}
static dvec dsub(dvec a, dvec b)
{
    return dv(a.x - b.x, a.y - b.y, a.z - b.z);
}
static dvec dcross(dvec a, dvec b)
{
    return dv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static double ddot(dvec a, dvec b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static dvec dpoint(const double *p)
{
    return dv(p[0], p[1], p[2]);
}
static dvec fv(ph_vec3 v)
{
    return dv((double)v.x, (double)v.y, (double)v.z);
}
static dvec dadd(dvec a, dvec b)
{
    return dv(a.x + b.x, a.y + b.y, a.z + b.z);
}

// ---- Running qhull -------------------------------------------------------------------------------

// One qhull face as read back from qhull: plane and vertex list (indices into the caller's points).
typedef struct qface
{
    dvec normal;
    int first, count; // into the index scratch
} qface;

// The hull of a point set as plain arrays, in scratch memory from ph_alloc.
typedef struct qresult
{
    int face_count;
    qface *faces;
    int index_count;
    int *indices; // point indices, face after face, unordered within a face
    int vertex_count;
    int *vertices; // point indices of hull vertices
} qresult;

static void qresult_free(qresult *r)
{
    ph_free(r->faces, sizeof(qface) * (size_t)r->face_count);
    ph_free(r->indices, sizeof(int) * (size_t)r->index_count);
    ph_free(r->vertices, sizeof(int) * (size_t)r->vertex_count);
    memset(r, 0, sizeof *r);
}

// Hulls count points of pts (x, y, z doubles) with qhull, merging facets within merge_distance.
static ph_status run_qhull(double *pts, int count, double merge_distance, qresult *out)
{
    memset(out, 0, sizeof *out);
    char command[64];
    snprintf(command, sizeof command, "qhull C-%.9g", merge_distance);

    qhT qh_storage;
    qhT *qh = &qh_storage;
    qh_zero(qh, stderr);
    int exitcode = qh_new_qhull(qh, 3, count, pts, False, command, NULL, stderr);
    ph_status status = PH_OK;
    if (exitcode == qh_ERRmem)
        status = PH_ERR_OUT_OF_MEMORY;
    else if (exitcode != qh_ERRnone)
        status = PH_ERR_DEGENERATE;

    if (status == PH_OK)
    {
        facetT *facet;
        vertexT *vertex, **vertexp;
        FORALLfacets
        {
            out->face_count++;
            out->index_count += qh_setsize(qh, facet->vertices);
        }
        FORALLvertices
        {
            out->vertex_count++;
        }
        out->faces = ph_alloc(sizeof(qface) * (size_t)out->face_count);
        out->indices = ph_alloc(sizeof(int) * (size_t)out->index_count);
        out->vertices = ph_alloc(sizeof(int) * (size_t)out->vertex_count);
        if (!out->faces || !out->indices || !out->vertices)
            status = PH_ERR_OUT_OF_MEMORY;
        else
        {
            int f = 0, at = 0;
            FORALLfacets
            {
                qface *qf = &out->faces[f++];
                qf->normal = dpoint(facet->normal);
                qf->first = at;
                FOREACHvertex_(facet->vertices)
                {
                    out->indices[at++] = qh_pointid(qh, vertex->point);
                }
                qf->count = at - qf->first;
            }
            int v = 0;
            FORALLvertices
            {
                out->vertices[v++] = qh_pointid(qh, vertex->point);
            }
        }
    }
    int curlong, totlong;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    if (status != PH_OK)
        qresult_free(out);
    return status;
}

// ---- Degeneracy test and initial tetrahedron -------------------------------------------------------

static int farthest_from_point(const double *pts, const int *ids, int n, dvec a)
{
    int best = 0;
    double best_d = -1.0;
    for (int i = 0; i < n; i++)
    {
        dvec d = dsub(dpoint(pts + 3 * ids[i]), a);
        double s = ddot(d, d);
        if (s > best_d)
        {
            best_d = s;
            best = i;
        }
    }
    return best;
}

// Four points spanning a large tetrahedron (positions in ids[]), chosen as in quickhull's start:
// extreme along x, farthest from it, farthest from their line, farthest from their plane. Returns
// false when the cloud is flat, a line or a point within HULL_FLAT_TOLERANCE of extent.
static bool initial_tetrahedron(const double *pts, const int *ids, int n, double extent, int out[4])
{
    if (n < 4 || !(extent > 0.0))
        return false;
    int i0 = 0;
    for (int i = 1; i < n; i++)
    {
        if (pts[3 * ids[i]] < pts[3 * ids[i0]])
            i0 = i;
    }
    dvec p0 = dpoint(pts + 3 * ids[i0]);
    int i1 = farthest_from_point(pts, ids, n, p0);
    dvec p1 = dpoint(pts + 3 * ids[i1]);
    dvec axis = dsub(p1, p0);
    double axis_len2 = ddot(axis, axis);
    if (!(sqrt(axis_len2) > HULL_FLAT_TOLERANCE * extent))
        return false;

    int i2 = -1;
    double best = -1.0;
    for (int i = 0; i < n; i++)
    {
        dvec c = dcross(axis, dsub(dpoint(pts + 3 * ids[i]), p0));
        double s = ddot(c, c);
        if (s > best)
        {
            best = s;
            i2 = i;
        }
    }
    // |axis x (p - p0)| / |axis| is the distance of p from the line.
    if (!(sqrt(best / axis_len2) > HULL_FLAT_TOLERANCE * extent))
        return false;
    dvec p2 = dpoint(pts + 3 * ids[i2]);
    dvec normal = dcross(axis, dsub(p2, p0));
    double normal_len = sqrt(ddot(normal, normal));

    int i3 = -1;
    best = -1.0;
    for (int i = 0; i < n; i++)
    {
        double s = fabs(ddot(normal, dsub(dpoint(pts + 3 * ids[i]), p0)));
        if (s > best)
        {
            best = s;
            i3 = i;
        }
    }
    if (!(best / normal_len > HULL_FLAT_TOLERANCE * extent))
        return false;
    out[0] = i0;
    out[1] = i1;
    out[2] = i2;
    out[3] = i3;
    return true;
}

// Largest signed distance of point p outside the planes of hull r (its faces' offsets taken as the
// largest offset of their own vertices, so that the hull's vertices are inside), and the face where it
// is reached.
static double outside_distance(const qresult *r, const double *offsets, dvec p, int *out_face)
{
    double worst = -DBL_MAX;
    *out_face = 0;
    for (int f = 0; f < r->face_count; f++)
    {
        double d = ddot(r->faces[f].normal, p) - offsets[f];
        if (d > worst)
        {
            worst = d;
            *out_face = f;
        }
    }
    return worst;
}

// A candidate and its distance outside the kept hull, ranked farthest first.
typedef struct ranked
{
    double distance;
    int index;
} ranked;

static int compare_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->distance != y->distance)
        return (x->distance < y->distance) - (x->distance > y->distance);
    return (x->index > y->index) - (x->index < y->index);
}

static void face_offsets(const qresult *r, const double *pts, double *offsets)
{
    for (int f = 0; f < r->face_count; f++)
    {
        const qface *qf = &r->faces[f];
        double o = -DBL_MAX;
        for (int k = 0; k < qf->count; k++)
        {
            double s = ddot(qf->normal, dpoint(pts + 3 * r->indices[qf->first + k]));
            if (s > o)
                o = s;
        }
        offsets[f] = o;
    }
}

// Greedy farthest-point simplification: from candidates (point ids of pts, all vertices of the full
// hull), picks at most budget of them (written to kept, returned count) as described at the top of the
// file.
static ph_status simplify(double *pts, const int *candidates, int n, int budget, double extent, int *kept,
                          int *out_kept_count)
{
    bool *taken = ph_alloc(sizeof(bool) * (size_t)n);
    double *scratch = ph_alloc(sizeof(double) * 3 * (size_t)budget);
    if (!taken || !scratch)
    {
        ph_free(taken, sizeof(bool) * (size_t)n);
        ph_free(scratch, sizeof(double) * 3 * (size_t)budget);
        return PH_ERR_OUT_OF_MEMORY;
    }
    memset(taken, 0, sizeof(bool) * (size_t)n);

    int tet[4];
    ph_status status = PH_OK;
    int count = 0;
    if (!initial_tetrahedron(pts, candidates, n, extent, tet))
        status = PH_ERR_DEGENERATE;
    for (int i = 0; status == PH_OK && i < 4; i++)
    {
        taken[tet[i]] = true;
        kept[count++] = candidates[tet[i]];
    }

    while (status == PH_OK && count < budget)
    {
        for (int i = 0; i < count; i++)
            memcpy(scratch + 3 * i, pts + 3 * kept[i], 3 * sizeof(double));
        qresult r;
        status = run_qhull(scratch, count, 0.0, &r);
        if (status != PH_OK)
            break;
        double *offsets = ph_alloc(sizeof(double) * (size_t)r.face_count);
        if (!offsets)
        {
            qresult_free(&r);
            status = PH_ERR_OUT_OF_MEMORY;
            break;
        }
        face_offsets(&r, scratch, offsets);
        // Each face's farthest outside candidate (the face it lies farthest above).
        ranked *best = ph_alloc(sizeof(ranked) * (size_t)r.face_count);
        if (!best)
        {
            ph_free(offsets, sizeof(double) * (size_t)r.face_count);
            qresult_free(&r);
            status = PH_ERR_OUT_OF_MEMORY;
            break;
        }
        for (int f = 0; f < r.face_count; f++)
        {
            best[f].distance = HULL_SIMPLIFY_TOLERANCE * extent;
            best[f].index = -1;
        }
        for (int i = 0; i < n; i++)
        {
            if (taken[i])
                continue;
            int face;
            double d = outside_distance(&r, offsets, dpoint(pts + 3 * candidates[i]), &face);
            if (d > best[face].distance)
            {
                best[face].distance = d;
                best[face].index = i;
            }
        }
        qsort(best, (size_t)r.face_count, sizeof(ranked), compare_ranked);
        // Add the farthest points of the most distant faces, up to half as many as are kept (at least
        // one): about log1.5(budget) rounds of qhull instead of one per vertex.
        int room = budget - count, batch = count / HULL_SIMPLIFY_BATCH_DIVISOR;
        if (batch < 1)
            batch = 1;
        if (batch > room)
            batch = room;
        int added = 0;
        for (int f = 0; f < r.face_count && added < batch && best[f].index >= 0; f++)
        {
            taken[best[f].index] = true;
            kept[count++] = candidates[best[f].index];
            added++;
        }
        ph_free(best, sizeof(ranked) * (size_t)r.face_count);
        ph_free(offsets, sizeof(double) * (size_t)r.face_count);
        qresult_free(&r);
        if (added == 0)
            break;
    }
    ph_free(taken, sizeof(bool) * (size_t)n);
    ph_free(scratch, sizeof(double) * 3 * (size_t)budget);
    *out_kept_count = count;
    return status;
}

// Each greedy step costs (candidates x faces), so hulls with thousands of vertices (dense scans) are
// first thinned to the support vertices of HULL_SIMPLIFY_DIRECTIONS well-spread directions (a Fibonacci
// lattice on the sphere, spacing ~sqrt(4 pi / N) = 0.055 rad). A vertex that is the support of none of
// them has a normal cone narrower than that spacing: the surface is nearly flat there, and dropping it
// costs at most about extent * spacing^2 / 8 ~ 4e-4 of the extent, well below the error of any
// budget of PH_HULL_MAX_VERTICES or fewer vertices. Smaller hulls use all their vertices.
static int support_candidates(const double *pts, const qresult *full, int *out)
{
    int n = full->vertex_count;
    if (n <= HULL_SIMPLIFY_DIRECTIONS)
    {
        memcpy(out, full->vertices, sizeof(int) * (size_t)n);
        return n;
    }
    int count = 0;
    const double golden_angle = GLM_PI * (3.0 - sqrt(5.0));
    for (int k = 0; k < HULL_SIMPLIFY_DIRECTIONS; k++)
    {
        double y = 1.0 - 2.0 * (k + 0.5) / HULL_SIMPLIFY_DIRECTIONS;
        double r = sqrt(1.0 - y * y), a = golden_angle * k;
        dvec d = dv(r * cos(a), y, r * sin(a));
        int best = full->vertices[0];
        double best_s = ddot(d, dpoint(pts + 3 * best));
        for (int i = 1; i < n; i++)
        {
            double sd = ddot(d, dpoint(pts + 3 * full->vertices[i]));
            if (sd > best_s)
            {
                best_s = sd;
                best = full->vertices[i];
            }
        }
        bool seen = false;
        for (int c = 0; c < count && !seen; c++)
            seen = out[c] == best;
        if (!seen)
            out[count++] = best;
    }
    return count;
}

// ---- From qhull's facets to ph_hull --------------------------------------------------------------

typedef struct angle_key
{
    double angle;
    int index;
} angle_key;

static int compare_angle(const void *a, const void *b)
{
    double x = ((const angle_key *)a)->angle, y = ((const angle_key *)b)->angle;
    return (x > y) - (x < y);
}

// A directed edge a -> b of face f's loop, sorted by its undirected key to find its twin.
typedef struct half_edge
{
    int lo, hi; // min and max vertex
    int from, face;
} half_edge;

static int compare_half_edge(const void *a, const void *b)
{
    const half_edge *x = a, *y = b;
    if (x->lo != y->lo)
        return (x->lo > y->lo) - (x->lo < y->lo);
    return (x->hi > y->hi) - (x->hi < y->hi);
}

// Builds the ph_hull from qhull's result r over pts. Vertices are renumbered densely; each face loop
// is ordered counter-clockwise about its outward normal by angle around the face's mean point (the
// face is convex, so angular order is boundary order); vertices that only two faces share lie on a
// straight edge and are dropped from the loops (a convex polytope's corners have degree >= 3).
static ph_status assemble(const double *pts, int point_count, const qresult *r, ph_hull **out)
{
    ph_status status = PH_OK;
    int *remap = ph_alloc(sizeof(int) * (size_t)point_count);
    int *face_uses = ph_alloc(sizeof(int) * (size_t)point_count);
    int *loops = ph_alloc(sizeof(int) * (size_t)r->index_count);
    int *loop_count = ph_alloc(sizeof(int) * (size_t)r->face_count);
    angle_key *keys = ph_alloc(sizeof(angle_key) * (size_t)r->index_count);
    half_edge *halves = ph_alloc(sizeof(half_edge) * (size_t)r->index_count);
    if (!remap || !face_uses || !loops || !loop_count || !keys || !halves)
        status = PH_ERR_OUT_OF_MEMORY;

    int face_count = 0, index_count = 0, vertex_count = 0;
    if (status == PH_OK)
    {
        for (int i = 0; i < point_count; i++)
        {
            remap[i] = -1;
            face_uses[i] = 0;
        }
        for (int k = 0; k < r->index_count; k++)
            face_uses[r->indices[k]]++;

        // Order each face's loop and drop the straight-edge vertices.
        for (int f = 0; f < r->face_count; f++)
        {
            const qface *qf = &r->faces[f];
            dvec n = qf->normal;
            dvec c = dv(0.0, 0.0, 0.0);
            for (int k = 0; k < qf->count; k++)
            {
                dvec p = dpoint(pts + 3 * r->indices[qf->first + k]);
                c = dadd(c, p);
            }
            c = dv(c.x / qf->count, c.y / qf->count, c.z / qf->count);
            // An orthonormal basis (u, w) of the face plane with u x w = n: angles increase CCW
            // about n.
            dvec helper = fabs(n.x) < 0.57 ? dv(1.0, 0.0, 0.0) : dv(0.0, 1.0, 0.0);
            dvec u = dcross(helper, n);
            double ul = sqrt(ddot(u, u));
            u = dv(u.x / ul, u.y / ul, u.z / ul);
            dvec w = dcross(n, u);
            int m = 0;
            for (int k = 0; k < qf->count; k++)
            {
                int id = r->indices[qf->first + k];
                if (face_uses[id] < 3)
                    continue;
                dvec d = dsub(dpoint(pts + 3 * id), c);
                keys[m].angle = atan2(ddot(d, w), ddot(d, u));
                keys[m].index = id;
                m++;
            }
            if (m < 3)
            {
                status = PH_ERR_DEGENERATE;
                break;
            }
            qsort(keys, (size_t)m, sizeof(angle_key), compare_angle);
            for (int k = 0; k < m; k++)
            {
                int id = keys[k].index;
                if (remap[id] < 0)
                    remap[id] = vertex_count++;
                loops[index_count + k] = remap[id];
            }
            loop_count[face_count++] = m;
            index_count += m;
        }
    }

    // Undirected edges: each half-edge a -> b of a loop must meet exactly one b -> a of another loop.
    int edge_count = 0;
    if (status == PH_OK)
    {
        int at = 0;
        for (int f = 0; f < face_count; f++)
        {
            for (int k = 0; k < loop_count[f]; k++)
            {
                int a = loops[at + k], b = loops[at + (k + 1) % loop_count[f]];
                half_edge *h = &halves[at + k];
                h->lo = a < b ? a : b;
                h->hi = a < b ? b : a;
                h->from = a;
                h->face = f;
            }
            at += loop_count[f];
        }
        qsort(halves, (size_t)index_count, sizeof(half_edge), compare_half_edge);
        if (index_count % 2 != 0)
            status = PH_ERR_DEGENERATE;
        for (int k = 0; status == PH_OK && k < index_count; k += 2)
        {
            const half_edge *h0 = &halves[k], *h1 = &halves[k + 1];
            bool paired =
                h0->lo == h1->lo && h0->hi == h1->hi && h0->from != h1->from && h0->face != h1->face;
            bool unique = k + 2 >= index_count || halves[k + 2].lo != h0->lo || halves[k + 2].hi != h0->hi;
            if (!paired || !unique || h0->lo == h0->hi)
                status = PH_ERR_DEGENERATE;
        }
        edge_count = index_count / 2;
        // Euler's formula for a convex polyhedron; anything else means qhull's facets were not a
        // closed surface, which we report rather than hand on.
        if (status == PH_OK && vertex_count - edge_count + face_count != 2)
            status = PH_ERR_DEGENERATE;
    }

    ph_hull *hull = NULL;
    if (status == PH_OK)
    {
        hull_layout l = layout_for(vertex_count, face_count, index_count, edge_count);
        unsigned char *block = ph_alloc(l.total);
        if (!block)
            status = PH_ERR_OUT_OF_MEMORY;
        else
        {
            memset(block, 0, l.total);
            hull = (ph_hull *)block;
            hull->vertex_count = vertex_count;
            hull->vertices = (ph_vec3 *)(block + l.vertices);
            hull->face_count = face_count;
            hull->faces = (ph_hull_face *)(block + l.faces);
            hull->face_indices = (int *)(block + l.face_indices);
            hull->edge_count = edge_count;
            hull->edges = (ph_hull_edge *)(block + l.edges);
            hull->adjacency_offsets = (int *)(block + l.adjacency_offsets);
            hull->adjacency = (int *)(block + l.adjacency);
            hull->axis_coords = (float *)(block + l.axis_coords);
        }
    }
    if (status == PH_OK)
    {
        for (int i = 0; i < point_count; i++)
        {
            if (remap[i] >= 0)
            {
                const double *p = pts + 3 * i;
                hull->vertices[remap[i]] = ph_v3((float)p[0], (float)p[1], (float)p[2]);
            }
        }
        int run = axis_run(vertex_count);
        for (int v = 0; v < run; v++)
        {
            ph_vec3 p = hull->vertices[v < vertex_count ? v : 0];
            hull->axis_coords[v] = p.x;
            hull->axis_coords[run + v] = p.y;
            hull->axis_coords[2 * run + v] = p.z;
        }
        memcpy(hull->face_indices, loops, sizeof(int) * (size_t)index_count);
        int at = 0;
        for (int f = 0; f < face_count; f++)
        {
            ph_hull_face *face = &hull->faces[f];
            face->first_index = at;
            face->index_count = loop_count[f];
            at += loop_count[f];
        }
        // Edges: f0 is the face whose CCW loop runs v0 -> v1, f1 the one running v1 -> v0.
        for (int e = 0; e < edge_count; e++)
        {
            const half_edge *h0 = &halves[2 * e], *h1 = &halves[2 * e + 1];
            ph_hull_edge *edge = &hull->edges[e];
            edge->v0 = h0->from;
            edge->v1 = h1->from;
            edge->f0 = h0->face;
            edge->f1 = h1->face;
        }
        // Vertex adjacency in compressed rows, from the edges.
        for (int v = 0; v <= vertex_count; v++)
            hull->adjacency_offsets[v] = 0;
        for (int e = 0; e < edge_count; e++)
        {
            hull->adjacency_offsets[hull->edges[e].v0 + 1]++;
            hull->adjacency_offsets[hull->edges[e].v1 + 1]++;
        }
        for (int v = 0; v < vertex_count; v++)
            hull->adjacency_offsets[v + 1] += hull->adjacency_offsets[v];
        // face_uses is free again: reuse it as the fill cursor of each row.
        for (int v = 0; v < vertex_count; v++)
            face_uses[v] = hull->adjacency_offsets[v];
        for (int e = 0; e < edge_count; e++)
        {
            int a = hull->edges[e].v0, b = hull->edges[e].v1;
            hull->adjacency[face_uses[a]++] = b;
            hull->adjacency[face_uses[b]++] = a;
        }
    }

    ph_free(remap, sizeof(int) * (size_t)point_count);
    ph_free(face_uses, sizeof(int) * (size_t)point_count);
    ph_free(loops, sizeof(int) * (size_t)r->index_count);
    ph_free(loop_count, sizeof(int) * (size_t)r->face_count);
    ph_free(keys, sizeof(angle_key) * (size_t)r->index_count);
    ph_free(halves, sizeof(half_edge) * (size_t)r->index_count);
    *out = hull;
    return status;
}

// Face planes, bounds, volume centroid and inner radius, from the float vertices the hull keeps (so
// that they agree with what queries see). A face's normal is Newell's normal of its loop (robust for
// polygons whose vertices are not exactly coplanar), and its offset is the largest of its vertices',
// so that every vertex of the face is on or below its plane.
static ph_status finish_geometry(ph_hull *hull)
{
    hull->bounds.lo = hull->bounds.hi = hull->vertices[0];
    for (int v = 1; v < hull->vertex_count; v++)
    {
        hull->bounds.lo = glms_vec3_minv(hull->bounds.lo, hull->vertices[v]);
        hull->bounds.hi = glms_vec3_maxv(hull->bounds.hi, hull->vertices[v]);
    }

    // Volume centroid by signed tetrahedra from a reference point inside (the vertex mean).
    dvec ref = dv(0.0, 0.0, 0.0);
    for (int v = 0; v < hull->vertex_count; v++)
        ref = dadd(ref, fv(hull->vertices[v]));
    ref = dv(ref.x / hull->vertex_count, ref.y / hull->vertex_count, ref.z / hull->vertex_count);
    double volume6 = 0.0;
    dvec moment = dv(0.0, 0.0, 0.0);
    for (int f = 0; f < hull->face_count; f++)
    {
        ph_hull_face *face = &hull->faces[f];
        const int *loop = hull->face_indices + face->first_index;
        dvec normal = dv(0.0, 0.0, 0.0);
        for (int k = 0; k < face->index_count; k++)
        {
            ph_vec3 a = hull->vertices[loop[k]], b = hull->vertices[loop[(k + 1) % face->index_count]];
            normal.x += ((double)a.y - (double)b.y) * ((double)a.z + (double)b.z);
            normal.y += ((double)a.z - (double)b.z) * ((double)a.x + (double)b.x);
            normal.z += ((double)a.x - (double)b.x) * ((double)a.y + (double)b.y);
        }
        double len = sqrt(ddot(normal, normal));
        if (!(len > 0.0))
            return PH_ERR_DEGENERATE;
        normal = dv(normal.x / len, normal.y / len, normal.z / len);
        face->normal = ph_v3((float)normal.x, (float)normal.y, (float)normal.z);
        float offset = -FLT_MAX;
        for (int k = 0; k < face->index_count; k++)
        {
            float s = glms_vec3_dot(face->normal, hull->vertices[loop[k]]);
            if (s > offset)
                offset = s;
        }
        face->offset = offset;

        ph_vec3 a0 = hull->vertices[loop[0]];
        dvec p0 = dsub(fv(a0), ref);
        for (int k = 1; k + 1 < face->index_count; k++)
        {
            ph_vec3 a1 = hull->vertices[loop[k]], a2 = hull->vertices[loop[k + 1]];
            dvec p1 = dsub(fv(a1), ref), p2 = dsub(fv(a2), ref);
            double v6 = ddot(p0, dcross(p1, p2));
            volume6 += v6;
            // The tetrahedron (ref, p0, p1, p2) has its centroid at (p0 + p1 + p2) / 4 from ref.
            moment.x += v6 * (p0.x + p1.x + p2.x);
            moment.y += v6 * (p0.y + p1.y + p2.y);
            moment.z += v6 * (p0.z + p1.z + p2.z);
        }
    }
    if (!(volume6 > 0.0))
        return PH_ERR_DEGENERATE;
    dvec c = dv(ref.x + moment.x / (4.0 * volume6), ref.y + moment.y / (4.0 * volume6),
                ref.z + moment.z / (4.0 * volume6));
    hull->centroid = ph_v3((float)c.x, (float)c.y, (float)c.z);

    float inner = FLT_MAX;
    for (int f = 0; f < hull->face_count; f++)
    {
        float d = hull->faces[f].offset - glms_vec3_dot(hull->faces[f].normal, hull->centroid);
        if (d < inner)
            inner = d;
    }
    hull->inner_radius = inner > 0.0f ? inner : 0.0f;
    float outer2 = 0.0f;
    for (int i = 0; i < hull->vertex_count; i++)
        outer2 = glm_max(outer2, glms_vec3_norm2(glms_vec3_sub(hull->vertices[i], hull->centroid)));
    hull->outer_radius = sqrtf(outer2);
    return PH_OK;
}

ph_hull *ph_hull_build(const ph_hull_def *def, ph_status *out_status)
{
    ph_status status = PH_OK;
    ph_hull *hull = NULL;
    if (!def || def->internal_cookie != HULL_DEF_COOKIE)
    {
        ph_log(PH_LOG_ERROR, "ph_hull_build: def not initialised with ph_default_hull_def().");
        status = PH_ERR_INVALID_ARG;
    }
    else if (!def->points || def->point_count <= 0)
    {
        ph_log(PH_LOG_ERROR, "ph_hull_build: def.points is NULL or def.point_count (%d) is not positive.",
               def->point_count);
        status = PH_ERR_INVALID_ARG;
    }
    else if (def->vertex_budget < 4 || def->vertex_budget > PH_HULL_MAX_VERTICES)
    {
        ph_log(PH_LOG_ERROR, "ph_hull_build: def.vertex_budget (%d) must be in [4, %d].", def->vertex_budget,
               PH_HULL_MAX_VERTICES);
        status = PH_ERR_INVALID_ARG;
    }
    for (int i = 0; status == PH_OK && i < def->point_count; i++)
    {
        if (!ph_is_finite_vec3(def->points[i]))
        {
            ph_log(PH_LOG_ERROR, "ph_hull_build: def.points[%d] is not finite; pass finite coordinates.", i);
            status = PH_ERR_INVALID_ARG;
        }
    }
    if (status != PH_OK)
    {
        if (out_status)
            *out_status = status;
        return NULL;
    }

    int n = def->point_count;
    double *pts = ph_alloc(sizeof(double) * 3 * (size_t)n);
    int *ids = ph_alloc(sizeof(int) * (size_t)n);
    if (!pts || !ids)
        status = PH_ERR_OUT_OF_MEMORY;

    double extent = 0.0;
    if (status == PH_OK)
    {
        ph_vec3 lo = def->points[0], hi = def->points[0];
        for (int i = 0; i < n; i++)
        {
            pts[3 * i + 0] = (double)def->points[i].x;
            pts[3 * i + 1] = (double)def->points[i].y;
            pts[3 * i + 2] = (double)def->points[i].z;
            ids[i] = i;
            lo = glms_vec3_minv(lo, def->points[i]);
            hi = glms_vec3_maxv(hi, def->points[i]);
        }
        ph_vec3 size = glms_vec3_sub(hi, lo);
        extent = fmax(fmax((double)size.x, (double)size.y), (double)size.z);
        int tet[4];
        if (!initial_tetrahedron(pts, ids, n, extent, tet))
        {
            ph_log(PH_LOG_ERROR,
                   "ph_hull_build: the %d points lie on a plane, a line or a point; a hull needs "
                   "volume.",
                   n);
            status = PH_ERR_DEGENERATE;
        }
    }

    qresult full;
    memset(&full, 0, sizeof full);
    if (status == PH_OK)
        status = run_qhull(pts, n, HULL_MERGE_TOLERANCE * extent, &full);

    if (status == PH_OK && full.vertex_count > def->vertex_budget)
    {
        int kept_count = 0;
        int *kept = ph_alloc(sizeof(int) * (size_t)def->vertex_budget);
        int *candidates = ph_alloc(sizeof(int) * (size_t)full.vertex_count);
        if (!kept || !candidates)
            status = PH_ERR_OUT_OF_MEMORY;
        else
        {
            int candidate_count = support_candidates(pts, &full, candidates);
            status =
                simplify(pts, candidates, candidate_count, def->vertex_budget, extent, kept, &kept_count);
        }
        ph_free(candidates, sizeof(int) * (size_t)full.vertex_count);
        qresult_free(&full);
        if (status == PH_OK)
        {
            // Hull the kept subset; point ids stay those of pts, since qhull only sees kept points
            // moved to the front of a scratch copy.
            double *sub = ph_alloc(sizeof(double) * 3 * (size_t)kept_count);
            if (!sub)
                status = PH_ERR_OUT_OF_MEMORY;
            else
            {
                for (int i = 0; i < kept_count; i++)
                    memcpy(sub + 3 * i, pts + 3 * kept[i], 3 * sizeof(double));
                status = run_qhull(sub, kept_count, HULL_MERGE_TOLERANCE * extent, &full);
                for (int k = 0; status == PH_OK && k < full.index_count; k++)
                    full.indices[k] = kept[full.indices[k]];
                for (int k = 0; status == PH_OK && k < full.vertex_count; k++)
                    full.vertices[k] = kept[full.vertices[k]];
                ph_free(sub, sizeof(double) * 3 * (size_t)kept_count);
            }
        }
        ph_free(kept, sizeof(int) * (size_t)def->vertex_budget);
    }

    if (status == PH_OK)
        status = assemble(pts, n, &full, &hull);
    if (status == PH_OK)
        status = finish_geometry(hull);
    if (status == PH_OK)
    {
        // How far the input lies outside the final faces (merging and simplification both allow
        // some): reported, so that callers can judge the approximation.
        float worst = 0.0f;
        for (int i = 0; i < n; i++)
        {
            for (int f = 0; f < hull->face_count; f++)
            {
                float d = glms_vec3_dot(hull->faces[f].normal, def->points[i]) - hull->faces[f].offset;
                if (d > worst)
                    worst = d;
            }
        }
        hull->max_outside_distance = worst;
    }
    else if (hull)
    {
        ph_hull_free(hull);
        hull = NULL;
    }
    if (status == PH_ERR_DEGENERATE && full.face_count > 0)
        ph_log(PH_LOG_ERROR, "ph_hull_build: the hull of the %d points is not a closed convex surface.", n);
    qresult_free(&full);
    ph_free(pts, sizeof(double) * 3 * (size_t)n);
    ph_free(ids, sizeof(int) * (size_t)n);
    if (out_status)
        *out_status = status;
    return hull;
}

// ---- Support queries -------------------------------------------------------------------------------

// Four floats or ints, one per lane (GCC and Clang vector extensions: SSE2 on x86-64, Neon on arm64; each
// lane's arithmetic is the scalar IEEE operation). Loads need only a float's alignment.
typedef float hull_f4 __attribute__((vector_size(16), aligned(4)));
typedef int32_t hull_i4 __attribute__((vector_size(16), aligned(4)));
_Static_assert(PH_HULL_LANES == 4, "the scan's vectors hold PH_HULL_LANES vertices");

// x dx + y dy + z dz of vertices v .. v + 3, summed in glms_vec3_dot's order.
static inline hull_f4 lane_dots(const float *xs, const float *ys, const float *zs, int v, hull_f4 dx,
                                hull_f4 dy, hull_f4 dz)
{
    return *(const hull_f4 *)(xs + v) * dx + *(const hull_f4 *)(ys + v) * dy +
           *(const hull_f4 *)(zs + v) * dz;
}

// a where mask is set (all ones), b elsewhere.
static inline hull_f4 select_f4(hull_i4 mask, hull_f4 a, hull_f4 b)
{
    return (hull_f4)(((hull_i4)a & mask) | ((hull_i4)b & ~mask));
}

// Every vertex, four at a time: each lane keeps its largest dot and the first index that reached it, then
// the lanes agree on the largest, and on the lowest index among equals. The dot is summed as
// glms_vec3_dot sums it, so the answer is ph_hull_support_index_brute's, bit for bit. Padded lanes repeat
// vertex 0, which an earlier lane always holds with the same value and a lower index.
static int support_scan(const ph_hull *hull, ph_vec3 d)
{
    int run = axis_run(hull->vertex_count);
    const float *xs = hull->axis_coords, *ys = xs + run, *zs = ys + run;
    hull_f4 dx = {d.x, d.x, d.x, d.x}, dy = {d.y, d.y, d.y, d.y}, dz = {d.z, d.z, d.z, d.z};
    hull_f4 best = lane_dots(xs, ys, zs, 0, dx, dy, dz);
    hull_i4 index = {0, 1, 2, 3}, best_index = index;
    const hull_i4 step = {PH_HULL_LANES, PH_HULL_LANES, PH_HULL_LANES, PH_HULL_LANES};
    for (int v = PH_HULL_LANES; v < run; v += PH_HULL_LANES)
    {
        index += step;
        hull_f4 s = lane_dots(xs, ys, zs, v, dx, dy, dz);
        hull_i4 better = s > best; // all ones where s is larger (a NaN is never larger)
        best = select_f4(better, s, best);
        best_index = (index & better) | (best_index & ~better);
    }
    int winner = best_index[0];
    float top = best[0];
    for (int k = 1; k < PH_HULL_LANES; k++)
    {
        if (best[k] > top || (best[k] == top && best_index[k] < winner))
        {
            top = best[k];
            winner = best_index[k];
        }
    }
    return winner;
}

ph_aabb ph_hull_bounds(const ph_hull *hull, ph_transform xf)
{
    ph_mat3 r = glms_quat_mat3(xf.q);
    int run = axis_run(hull->vertex_count);
    const float *xs = hull->axis_coords, *ys = xs + run, *zs = ys + run;
    float lo[3], hi[3];
    for (int i = 0; i < 3; i++)
    {
        // World axis i of every vertex: glms_mat3_mulv's row i, then the origin added, as aabb_of_points did
        // one vertex at a time.
        float c0 = r.raw[0][i], c1 = r.raw[1][i], c2 = r.raw[2][i], origin = xf.p.raw[i];
        hull_f4 m0 = {c0, c0, c0, c0}, m1 = {c1, c1, c1, c1}, m2 = {c2, c2, c2, c2};
        hull_f4 o = {origin, origin, origin, origin};
        hull_f4 low = o + lane_dots(xs, ys, zs, 0, m0, m1, m2);
        hull_f4 high = low;
        for (int v = PH_HULL_LANES; v < run; v += PH_HULL_LANES)
        {
            hull_f4 w = o + lane_dots(xs, ys, zs, v, m0, m1, m2);
            low = select_f4(w < low, w, low);
            high = select_f4(w > high, w, high);
        }
        lo[i] = fminf(fminf(low[0], low[1]), fminf(low[2], low[3]));
        hi[i] = fmaxf(fmaxf(high[0], high[1]), fmaxf(high[2], high[3]));
    }
    return (ph_aabb){ph_v3(lo[0], lo[1], lo[2]), ph_v3(hi[0], hi[1], hi[2])};
}

// Hill climbing over the vertex graph, for hulls too large to scan. On a convex polytope the function
// x -> dot(x, d) has no local maximum over the vertex graph other than the global one (the vertices whose
// value beats the current one form a face of the polytope adjacent to it), so walking to any better
// neighbour ends at a support vertex. The value strictly increases with every move, so no vertex is
// visited twice and the walk takes at most vertex_count moves. Scanning a small hull whole costs less than
// the walk's unpredictable branches (convex_pile5120's hulls of about 30 vertices: the support was a tenth of
// the step).
int ph_hull_support_index(const ph_hull *hull, ph_vec3 d, int *inout_start)
{
    if (hull->vertex_count <= PH_HULL_SCAN_MAX)
    {
        int v = support_scan(hull, d);
        if (inout_start)
            *inout_start = v;
        return v;
    }
    int v = inout_start ? *inout_start : -1;
    if (v < 0 || v >= hull->vertex_count)
        v = 0;
    float best = glms_vec3_dot(hull->vertices[v], d);
    for (int moves = 0; moves < hull->vertex_count; moves++)
    {
        int next = -1;
        for (int k = hull->adjacency_offsets[v]; k < hull->adjacency_offsets[v + 1]; k++)
        {
            int n = hull->adjacency[k];
            float s = glms_vec3_dot(hull->vertices[n], d);
            if (s > best)
            {
                best = s;
                next = n;
            }
        }
        if (next < 0)
            break;
        v = next;
    }
    if (inout_start)
        *inout_start = v;
    return v;
}

int ph_hull_support_index_brute(const ph_hull *hull, ph_vec3 d)
{
    int best_index = 0;
    float best = glms_vec3_dot(hull->vertices[0], d);
    for (int i = 1; i < hull->vertex_count; i++)
    {
        float s = glms_vec3_dot(hull->vertices[i], d);
        if (s > best)
        {
            best = s;
            best_index = i;
        }
    }
    return best_index;
}
