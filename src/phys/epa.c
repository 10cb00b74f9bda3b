// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Expanding Polytope Algorithm (van den Bergen, "Proximity queries and penetration depth computation on
// 3D game objects", GDC 2001): the penetration depth of overlapping shapes is the distance from the
// origin to the boundary of the Minkowski difference B - A. Starting from GJK's terminating simplex
// (gjk.c, grown here to a polytope around the origin), the face closest to the origin is pushed out to
// the support point in its normal direction until that support no longer moves it. Everything lives
// in a fixed-capacity polytope on the stack; the horizon of the visible faces is found as the edges
// used by exactly one visible face. Spheres and capsules run on their cores, and the radii are added.
#include "phys/gjk.h"

#include <float.h>  // FLT_MAX
#include <math.h>   // fabsf, sqrtf
#include <string.h> // memset

// Converged when the support along the closest face's normal is within this fraction of the depth...
static const float EPA_RELATIVE_TOLERANCE = 1e-5f;
// ... or within this fraction of the Minkowski difference's extent (float rounding of the supports).
static const float EPA_ABSOLUTE_TOLERANCE = 1e-6f;
// A face sees the new vertex when it lies this fraction of the extent above the face plane; faces
// nearly through the vertex stay, which keeps the polytope convex and the horizon a simple loop.
static const float EPA_VISIBILITY_TOLERANCE = 1e-7f;
// A triangle whose normal is shorter than this fraction of extent^2 has no usable plane.
static const float EPA_FLAT_TOLERANCE = 1e-10f;
// Horizon edges: each visible face contributes at most 3.
#define EPA_MAX_EDGES (3 * PH_EPA_MAX_FACES)
// The edge after edge e of a triangle, and the one after that, without a division: MOD3[e + k] for e + k
// <= 5.
static const int MOD3[6] = {0, 1, 2, 0, 1, 2};

// A triangle of the polytope. Neighbours are packed as 4 * face + edge, the edge (v[e], v[e + 1]) of
// the neighbour that runs the other way; the adjacency makes the horizon a walk over the visible faces
// alone (as in Bullet's and Jolt's EPA) instead of a search over all faces and edges.
typedef struct epa_face
{
    ph_vec3 n;  // outward unit normal (zero for a face too thin to have one)
    float dist; // dot(n, vertex): distance of the plane from the origin (FLT_MAX if no normal)
    int v[3];   // counter-clockwise seen from outside
    int adj[3]; // across edge (v[e], v[e + 1])
    int stamp;  // the iteration that found this face visible
    bool alive;
} epa_face;

typedef struct epa_polytope
{
    ph_simplex_vertex verts[PH_EPA_MAX_VERTICES];
    // The hull vertex each support came from (-1: not a hull, or not known), to warm-start the next one.
    int start_a[PH_EPA_MAX_VERTICES], start_b[PH_EPA_MAX_VERTICES];
    int vert_count;
    epa_face faces[PH_EPA_MAX_FACES];
    // dist of each live face with a normal, FLT_MAX otherwise: the closest-face scan reads this array only.
    float key[PH_EPA_MAX_FACES];
    int face_count;                   // slots in use or freed, 0..PH_EPA_MAX_FACES
    int free_faces[PH_EPA_MAX_FACES]; // freed slots, reused first
    int free_count;
    float extent; // largest vertex norm, for the relative tolerances (unit: m)
} epa_polytope;

static void reset(epa_polytope *p)
{
    p->vert_count = 0;
    p->face_count = 0;
    p->free_count = 0;
    p->extent = 0.0f;
}

static int add_vertex(epa_polytope *p, ph_simplex_vertex v)
{
    if (p->vert_count >= PH_EPA_MAX_VERTICES)
        return -1;
    p->extent = glm_max(p->extent, glms_vec3_norm(v.w));
    p->verts[p->vert_count] = v;
    p->start_a[p->vert_count] = -1;
    p->start_b[p->vert_count] = -1;
    return p->vert_count++;
}

static void set_plane(epa_polytope *p, int slot)
{
    epa_face *f = &p->faces[slot];
    ph_vec3 a = p->verts[f->v[0]].w, b = p->verts[f->v[1]].w, c = p->verts[f->v[2]].w;
    ph_vec3 n = glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a));
    float len2 = glms_vec3_norm2(n);
    float e2 = p->extent * p->extent;
    if (!(len2 > EPA_FLAT_TOLERANCE * e2 * e2))
    {
        f->n = glms_vec3_zero();
        f->dist = FLT_MAX;
        p->key[slot] = FLT_MAX;
        return;
    }
    f->n = glms_vec3_scale(n, 1.0f / sqrtf(len2));
    // The projection of the centroid is less sensitive to which vertex is used.
    f->dist = glms_vec3_dot(f->n, glms_vec3_add(glms_vec3_add(a, b), c)) * (1.0f / 3.0f);
    p->key[slot] = f->dist;
}

static int face_slot(epa_polytope *p)
{
    if (p->free_count > 0)
        return p->free_faces[--p->free_count];
    if (p->face_count >= PH_EPA_MAX_FACES)
        return -1;
    return p->face_count++;
}

// Adds face (i, j, k); with an interior point given, winds it so that its normal points away from it.
static int add_face(epa_polytope *p, int i, int j, int k, const ph_vec3 *interior)
{
    int slot = face_slot(p);
    if (slot < 0)
        return -1;
    epa_face *f = &p->faces[slot];
    f->v[0] = i;
    f->v[1] = j;
    f->v[2] = k;
    f->stamp = -1;
    f->alive = true;
    if (interior)
    {
        ph_vec3 a = p->verts[i].w;
        ph_vec3 n = glms_vec3_cross(glms_vec3_sub(p->verts[j].w, a), glms_vec3_sub(p->verts[k].w, a));
        if (glms_vec3_dot(n, glms_vec3_sub(a, *interior)) < 0.0f)
        {
            f->v[1] = k;
            f->v[2] = j;
        }
    }
    set_plane(p, slot);
    return slot;
}

// Links the faces of the start polytope (at most 5 vertices): every edge a -> b meets one edge b -> a,
// found through a table of the directed edges. False when the winding left the surface open (a start
// polytope too flat to orient), which ends EPA with a degenerate status.
static bool link_faces(epa_polytope *p)
{
    enum
    {
        START_VERTICES = 5
    };
    int directed[START_VERTICES * START_VERTICES];
    for (int k = 0; k < START_VERTICES * START_VERTICES; k++)
        directed[k] = -1;
    if (p->vert_count > START_VERTICES)
        return false;
    for (int f = 0; f < p->face_count; f++)
    {
        for (int e = 0; e < 3; e++)
            directed[p->faces[f].v[e] * START_VERTICES + p->faces[f].v[MOD3[e + 1]]] = 4 * f + e;
    }
    for (int f = 0; f < p->face_count; f++)
    {
        for (int e = 0; e < 3; e++)
        {
            int twin = directed[p->faces[f].v[MOD3[e + 1]] * START_VERTICES + p->faces[f].v[e]];
            if (twin < 0)
                return false;
            p->faces[f].adj[e] = twin;
        }
    }
    return true;
}

typedef struct epa_result
{
    ph_epa_status status;
    ph_vec3 n;   // outward normal of the difference's boundary at the closest point
    float depth; // distance of the origin from that boundary
    ph_vec3 local_a, local_b;
} epa_result;

// Result for the flat or touching case: the boundary passes through the origin along n.
static epa_result touching(ph_vec3 n, const ph_simplex_vertex *v, float depth)
{
    epa_result r;
    r.status = PH_EPA_DEGENERATE;
    r.n = n;
    r.depth = glm_max(depth, 0.0f);
    r.local_a = v->local_a;
    r.local_b = v->local_b;
    return r;
}

// Any unit vector perpendicular to u.
static ph_vec3 perpendicular(ph_vec3 u)
{
    ph_vec3 axis = fabsf(u.x) < 0.57f ? ph_v3(1.0f, 0.0f, 0.0f) : ph_v3(0.0f, 1.0f, 0.0f);
    return ph_safe_normalize(glms_vec3_cross(u, axis), ph_v3(0.0f, 0.0f, 1.0f));
}

static float dist_to_line2(ph_vec3 p, ph_vec3 a, ph_vec3 b)
{
    ph_vec3 ab = glms_vec3_sub(b, a);
    float ab2 = glms_vec3_norm2(ab);
    ph_vec3 ap = glms_vec3_sub(p, a);
    if (ab2 <= 0.0f)
        return glms_vec3_norm2(ap);
    return glms_vec3_norm2(glms_vec3_cross(ab, ap)) / ab2;
}

// Builds the start polytope around the origin from GJK's simplex (which contains the origin, maybe on
// its boundary). A point or segment is grown to a triangle through supports in perpendicular directions,
// a triangle to the double pyramid over it (supports on both sides), which encloses the origin if
// the difference has volume. Returns false with *r filled when the difference is flat or the origin is on
// its boundary: the depth is then 0 (or the tiny support distance) along the flat direction.
static bool build_start(epa_polytope *p, ph_gjk_proxy *a, ph_gjk_proxy *b, const ph_simplex *s, epa_result *r)
{
    ph_simplex_vertex v[4];
    int count = s->count;
    for (int i = 0; i < count; i++)
        v[i] = s->v[i];
    float extent = 0.0f;
    for (int i = 0; i < count; i++)
        extent = glm_max(extent, glms_vec3_norm(v[i].w));

    if (count == 4)
    {
        float vol =
            glms_vec3_dot(glms_vec3_sub(v[1].w, v[0].w),
                          glms_vec3_cross(glms_vec3_sub(v[2].w, v[0].w), glms_vec3_sub(v[3].w, v[0].w)));
        if (fabsf(vol) <= EPA_FLAT_TOLERANCE * extent * extent * extent)
            count = 3; // flat: continue from the first face
    }
    if (count == 1)
    {
        // The origin is (within tolerance) a point of the difference: extend along the six axes.
        static const ph_vec3 axes[6] = {{{1, 0, 0}},  {{-1, 0, 0}}, {{0, 1, 0}},
                                        {{0, -1, 0}}, {{0, 0, 1}},  {{0, 0, -1}}};
        float best = 0.0f;
        for (int i = 0; i < 6; i++)
        {
            ph_simplex_vertex c = ph_gjk_support(a, b, axes[i]);
            float d2 = glms_vec3_norm2(glms_vec3_sub(c.w, v[0].w));
            if (d2 > best)
            {
                best = d2;
                v[1] = c;
            }
        }
        if (!(best > 0.0f))
        {
            *r = touching(ph_v3(0.0f, 1.0f, 0.0f), &v[0], 0.0f);
            return false;
        }
        extent = glm_max(extent, glms_vec3_norm(v[1].w));
        count = 2;
    }
    if (count == 2)
    {
        ph_vec3 u = ph_safe_normalize(glms_vec3_sub(v[1].w, v[0].w), ph_v3(1.0f, 0.0f, 0.0f));
        ph_vec3 d1 = perpendicular(u);
        ph_vec3 d2 = glms_vec3_cross(u, d1);
        ph_vec3 dirs[4] = {d1, glms_vec3_negate(d1), d2, glms_vec3_negate(d2)};
        float best = 0.0f;
        for (int i = 0; i < 4; i++)
        {
            ph_simplex_vertex c = ph_gjk_support(a, b, dirs[i]);
            float dl = dist_to_line2(c.w, v[0].w, v[1].w);
            if (dl > best)
            {
                best = dl;
                v[2] = c;
            }
        }
        if (!(best > EPA_FLAT_TOLERANCE * extent * extent))
        {
            // The difference is a segment: any direction across it has zero depth.
            *r = touching(d1, &v[0], 0.0f);
            return false;
        }
        extent = glm_max(extent, glms_vec3_norm(v[2].w));
        count = 3;
    }
    if (count == 3)
    {
        ph_vec3 n = glms_vec3_cross(glms_vec3_sub(v[1].w, v[0].w), glms_vec3_sub(v[2].w, v[0].w));
        n = ph_safe_normalize(n, ph_v3(0.0f, 1.0f, 0.0f));
        ph_simplex_vertex up = ph_gjk_support(a, b, n);
        ph_simplex_vertex down = ph_gjk_support(a, b, glms_vec3_negate(n));
        float h_up = glms_vec3_dot(glms_vec3_sub(up.w, v[0].w), n);
        float h_down = -glms_vec3_dot(glms_vec3_sub(down.w, v[0].w), n);
        float flat =
            EPA_ABSOLUTE_TOLERANCE * glm_max(extent, glm_max(glms_vec3_norm(up.w), glms_vec3_norm(down.w)));
        if (h_up <= flat || h_down <= flat)
        {
            // The triangle's plane (through the origin) supports the difference on one side or both.
            if (h_up <= h_down)
                *r = touching(n, &up, glms_vec3_dot(up.w, n));
            else
                *r = touching(glms_vec3_negate(n), &down, -glms_vec3_dot(down.w, n));
            return false;
        }
        reset(p);
        for (int i = 0; i < 3; i++)
            add_vertex(p, v[i]);
        int iu = add_vertex(p, up), id = add_vertex(p, down);
        ph_vec3 c = glms_vec3_scale(glms_vec3_add(glms_vec3_add(v[0].w, v[1].w), v[2].w), 1.0f / 3.0f);
        for (int i = 0; i < 3; i++)
        {
            add_face(p, i, (i + 1) % 3, iu, &c);
            add_face(p, i, (i + 1) % 3, id, &c);
        }
        return true;
    }
    reset(p);
    ph_vec3 c = glms_vec3_zero();
    for (int i = 0; i < 4; i++)
    {
        add_vertex(p, v[i]);
        c = glms_vec3_add(c, glms_vec3_scale(v[i].w, 0.25f));
    }
    add_face(p, 0, 1, 2, &c);
    add_face(p, 0, 3, 1, &c);
    add_face(p, 0, 2, 3, &c);
    add_face(p, 1, 3, 2, &c);
    return true;
}

static int closest_face(const epa_polytope *p)
{
    int best = -1;
    float best_dist = FLT_MAX;
    for (int f = 0; f < p->face_count; f++)
    {
        if (p->key[f] < best_dist)
        {
            best_dist = p->key[f];
            best = f;
        }
    }
    return best;
}

// Barycentric witnesses of the origin's projection on face f.
static void face_witness(const epa_polytope *p, const epa_face *f, epa_result *r)
{
    ph_vec3 a = p->verts[f->v[0]].w, b = p->verts[f->v[1]].w, c = p->verts[f->v[2]].w;
    ph_vec3 q = glms_vec3_scale(f->n, f->dist);
    ph_vec3 n = glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a));
    float nn = glms_vec3_norm2(n);
    float l[3] = {1.0f, 0.0f, 0.0f};
    if (nn > 0.0f)
    {
        l[0] = glms_vec3_dot(glms_vec3_cross(glms_vec3_sub(b, q), glms_vec3_sub(c, q)), n) / nn;
        l[1] = glms_vec3_dot(glms_vec3_cross(glms_vec3_sub(c, q), glms_vec3_sub(a, q)), n) / nn;
        l[2] = 1.0f - l[0] - l[1];
    }
    r->local_a = glms_vec3_zero();
    r->local_b = glms_vec3_zero();
    for (int i = 0; i < 3; i++)
    {
        r->local_a = glms_vec3_add(r->local_a, glms_vec3_scale(p->verts[f->v[i]].local_a, l[i]));
        r->local_b = glms_vec3_add(r->local_b, glms_vec3_scale(p->verts[f->v[i]].local_b, l[i]));
    }
    r->n = f->n;
    r->depth = glm_max(f->dist, 0.0f);
}

// A horizon edge a -> b of a visible face, and the hidden face across it (packed 4 * face + edge).
typedef struct epa_edge
{
    int a, b;
    int outer;
} epa_edge;

// Walks the faces that see w, depth first from the visible face f0 across the edges of each face in
// turn, stamping them; every edge into a hidden face is a horizon edge. Entering each face through one
// edge and leaving through the next two in counter-clockwise order lists the horizon as one closed
// counter-clockwise loop (checked: numerically non-convex corners can break it). The visible faces go to
// visible (their count to *out_visible). Returns the edge count, or -1 when the horizon is not a simple
// loop or does not fit.
static int find_horizon(epa_polytope *p, int f0, ph_vec3 w, float vis_tol, int stamp, epa_edge *edges,
                        int *visible, int *out_visible)
{
    typedef struct frame
    {
        int face, entry, k;
    } frame;
    frame stack[PH_EPA_MAX_FACES];
    int top = 1, count = 0;
    // The first face leaves through all three edges (k = 1..3 after entry 2), the others through two.
    stack[0] = (frame){f0, 2, 1};
    p->faces[f0].stamp = stamp;
    visible[0] = f0;
    int visible_count = 1;
    while (top > 0)
    {
        frame *fr = &stack[top - 1];
        if (fr->k > (top == 1 ? 3 : 2))
        {
            top--;
            continue;
        }
        int e = MOD3[fr->entry + fr->k];
        fr->k++;
        const epa_face *face = &p->faces[fr->face];
        int packed = face->adj[e];
        epa_face *g = &p->faces[packed >> 2];
        if (g->stamp == stamp)
            continue;
        if (glms_vec3_dot(g->n, glms_vec3_sub(w, p->verts[g->v[0]].w)) > vis_tol)
        {
            if (top >= PH_EPA_MAX_FACES)
                return -1;
            g->stamp = stamp;
            visible[visible_count++] = packed >> 2;
            stack[top++] = (frame){packed >> 2, packed & 3, 1};
            continue;
        }
        if (count >= EPA_MAX_EDGES)
            return -1;
        edges[count++] = (epa_edge){face->v[e], face->v[MOD3[e + 1]], packed};
    }
    *out_visible = visible_count;
    if (count < 3)
        return -1;
    for (int k = 0; k + 1 < count; k++)
    {
        if (edges[k].b != edges[k + 1].a)
            return -1;
    }
    if (edges[count - 1].b != edges[0].a)
        return -1;
    return count;
}

// Replaces the visible faces by the fan from vertex wi over the horizon. False (polytope unchanged) when
// the fan does not fit.
static bool rebuild(epa_polytope *p, int wi, const int *visible, int visible_count, const epa_edge *edges,
                    int count)
{
    if (count > p->free_count + visible_count + (PH_EPA_MAX_FACES - p->face_count))
        return false;
    for (int i = 0; i < visible_count; i++)
    {
        p->faces[visible[i]].alive = false;
        p->key[visible[i]] = FLT_MAX;
        p->free_faces[p->free_count++] = visible[i];
    }
    int slots[EPA_MAX_EDGES];
    for (int k = 0; k < count; k++)
        slots[k] = add_face(p, edges[k].a, edges[k].b, wi, NULL);
    // Edge 0 of each new face is its horizon edge, edge 1 (b -> w) meets edge 2 (w -> a) of the next.
    for (int k = 0; k < count; k++)
    {
        epa_face *f = &p->faces[slots[k]];
        f->adj[0] = edges[k].outer;
        p->faces[edges[k].outer >> 2].adj[edges[k].outer & 3] = 4 * slots[k];
        f->adj[1] = 4 * slots[k + 1 < count ? k + 1 : 0] + 2;
        f->adj[2] = 4 * slots[k > 0 ? k - 1 : count - 1] + 1;
    }
    return true;
}

// Hill-climbing starts for the support along face f's normal (a hull too large to scan climbs): the new
// support lies above the face, so the hull vertices that its own vertices came from are a few moves from it
// (against the last query's answer, which can be across the hull: the closest face jumps around as the
// polytope grows).
static void warm_start(const epa_polytope *p, const epa_face *f, ph_gjk_proxy *a, ph_gjk_proxy *b)
{
    ph_vec3 na = a->identity ? glms_vec3_negate(f->n) : glms_mat3_mulv(a->rot_t, glms_vec3_negate(f->n));
    ph_vec3 nb = b->identity ? f->n : glms_mat3_mulv(b->rot_t, f->n);
    float best_a = -FLT_MAX, best_b = -FLT_MAX;
    for (int i = 0; i < 3; i++)
    {
        int v = f->v[i];
        float sa = glms_vec3_dot(p->verts[v].local_a, na), sb = glms_vec3_dot(p->verts[v].local_b, nb);
        if (p->start_a[v] >= 0 && sa > best_a)
        {
            best_a = sa;
            a->hull_start = p->start_a[v];
        }
        if (p->start_b[v] >= 0 && sb > best_b)
        {
            best_b = sb;
            b->hull_start = p->start_b[v];
        }
    }
}

static epa_result expand(epa_polytope *p, ph_gjk_proxy *a, ph_gjk_proxy *b, int *out_iterations)
{
    epa_result r;
    memset(&r, 0, sizeof r);
    r.status = PH_EPA_MAX_ITERATIONS;
    epa_edge edges[EPA_MAX_EDGES];
    int visible[PH_EPA_MAX_FACES], visible_count = 0;
    int iter = 0;
    int f = closest_face(p);
    // A start polytope whose faces could not be wound into a closed surface (too flat to orient) is not
    // expanded; its closest face is the estimate.
    int limit = link_faces(p) ? PH_EPA_ITERATION_LIMIT : 0;
    bool hulls = a->shape->type == PH_SHAPE_HULL || b->shape->type == PH_SHAPE_HULL;
    if (limit == 0)
        r.status = PH_EPA_DEGENERATE;
    for (; iter < limit; iter++)
    {
        f = closest_face(p);
        if (f < 0)
        {
            r.status = PH_EPA_DEGENERATE;
            break;
        }
        epa_face *face = &p->faces[f];
        if (hulls)
            warm_start(p, face, a, b);
        ph_simplex_vertex w = ph_gjk_support(a, b, face->n);
        float dw = glms_vec3_dot(w.w, face->n);
        float extent = glm_max(p->extent, glms_vec3_norm(w.w));
        if (dw - face->dist <= EPA_RELATIVE_TOLERANCE * fabsf(face->dist) + EPA_ABSOLUTE_TOLERANCE * extent)
        {
            r.status = PH_EPA_OK;
            break;
        }
        // The faces that see w (the closest one always does: dw > its distance) are replaced by the fan
        // from w over their horizon.
        int count =
            find_horizon(p, f, w.w, EPA_VISIBILITY_TOLERANCE * extent, iter, edges, visible, &visible_count);
        if (count < 0)
        {
            // Rounding made the visible region other than a disc: the polytope so far is the answer.
            r.status = PH_EPA_DEGENERATE;
            break;
        }
        int wi = add_vertex(p, w);
        if (wi >= 0)
        {
            p->start_a[wi] = a->hull_start;
            p->start_b[wi] = b->hull_start;
        }
        if (wi < 0 || !rebuild(p, wi, visible, visible_count, edges, count))
        {
            r.status = PH_EPA_OVERFLOW;
            break;
        }
    }
    *out_iterations = iter;
    if (r.status != PH_EPA_OK)
        f = closest_face(p);
    if (f >= 0)
    {
        ph_epa_status status = r.status;
        face_witness(p, &p->faces[f], &r);
        r.status = status;
    }
    return r;
}

static void fill_trace(const epa_polytope *p, bool built, ph_quat frame, ph_polytope_trace *trace)
{
    trace->triangle_count = 0;
    if (!built)
        return;
    for (int f = 0; f < p->face_count && trace->triangle_count < PH_TRACE_MAX_TRIANGLES; f++)
    {
        if (!p->faces[f].alive)
            continue;
        for (int i = 0; i < 3; i++)
            trace->triangles[trace->triangle_count][i] =
                glms_quat_rotatev(frame, p->verts[p->faces[f].v[i]].w);
        trace->triangle_count++;
    }
}

ph_epa_status ph_epa_penetration_traced(const ph_convex *a, ph_transform xa, const ph_convex *b,
                                        ph_transform xb, const ph_simplex *simplex, ph_epa_output *out,
                                        ph_polytope_trace *trace)
{
    if (!out)
        return PH_EPA_DEGENERATE;
    memset(out, 0, sizeof *out);
    out->normal = ph_v3(0.0f, 1.0f, 0.0f);
    if (trace)
        trace->triangle_count = 0;
    if (!ph_convex_is_valid(a) || !ph_convex_is_valid(b) || !ph_transform_is_valid(xa) ||
        !ph_transform_is_valid(xb))
    {
        out->status = PH_EPA_DEGENERATE;
        return out->status;
    }
    ph_gjk_proxy pa, pb;
    ph_gjk_pair_init(&pa, &pb, a, xa, b, xb, true);
    float rounding = pa.radius + pb.radius;

    // GJK on the cores, warm-started from the given simplex: a terminating tetrahedron around the origin
    // is accepted at once, and anything else is checked rather than trusted.
    ph_gjk_output g;
    // Cold polyhedra: boolean GJK (sign tests only) finds a simplex around the origin. Otherwise GJK in
    // intersection mode stops at the first plane that proves a separation beyond the rounding.
    bool decided = false;
    if (!simplex && rounding == 0.0f)
    {
        memset(&g, 0, sizeof g);
        g.status = ph_gjk_boolean(&pa, &pb, &g.simplex);
        g.distance = 1.0f; // only read when separated: any positive value
        decided = g.status != PH_GJK_MAX_ITERATIONS;
    }
    if (!decided)
        ph_gjk_run(&pa, &pb, simplex, true, rounding, &g);
    if (g.status != PH_GJK_OVERLAPPING && rounding > 0.0f && g.distance <= rounding)
        ph_gjk_run(&pa, &pb, &g.simplex, false, 0.0f, &g); // rounded shapes touching: exact core distance
    // The polytope lives in A's frame (ph_gjk_pair_init); results are turned to world at the end.
    ph_gjk_output g_world = g;
    ph_gjk_output_to_world(&g_world, xa);
    epa_result r;
    if (g.status != PH_GJK_OVERLAPPING)
    {
        if (g.distance >= rounding)
        {
            out->status = PH_EPA_SEPARATED;
            out->iterations = g.iterations;
            return out->status;
        }
        // Cores apart, rounded shapes overlapping: exact from the closest points of the cores.
        out->status = PH_EPA_OK;
        out->depth = rounding - g.distance;
        out->normal = g_world.normal;
        out->point_a = glms_vec3_add(g_world.point_a, glms_vec3_scale(g_world.normal, pa.radius));
        out->point_b = glms_vec3_sub(g_world.point_b, glms_vec3_scale(g_world.normal, pb.radius));
        out->iterations = g.iterations;
        return out->status;
    }

    epa_polytope poly;
    bool built = build_start(&poly, &pa, &pb, &g.simplex, &r);
    int iterations = 0;
    if (built)
        r = expand(&poly, &pa, &pb, &iterations);
    if (trace)
        fill_trace(&poly, built, xa.q, trace);
    // The boundary's outward normal n points from B's side to A's (B - A), so A-to-B is -n.
    out->status = r.status;
    if (rounding > 0.0f && r.status == PH_EPA_DEGENERATE)
        out->status = PH_EPA_OK; // flat cores (crossing segments): depth 0 is exact, radii do the rest
    out->normal = glms_quat_rotatev(xa.q, glms_vec3_negate(r.n));
    out->depth = r.depth + rounding;
    out->point_a = ph_transform_point(xa, r.local_a);
    out->point_b = ph_transform_point(xb, r.local_b);
    out->point_a = glms_vec3_add(out->point_a, glms_vec3_scale(out->normal, pa.radius));
    out->point_b = glms_vec3_sub(out->point_b, glms_vec3_scale(out->normal, pb.radius));
    out->iterations = g.iterations + iterations;
    return out->status;
}

ph_epa_status ph_epa_penetration(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                                 const ph_simplex *simplex, ph_epa_output *out)
{
    return ph_epa_penetration_traced(a, xa, b, xb, simplex, out, NULL);
}
