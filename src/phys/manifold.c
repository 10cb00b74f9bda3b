// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Contact manifolds between two convex shapes (ph_collide_convex): up to 4 points with separations, a
// shared normal and feature ids stable across frames, for the contact solver. Pairs go through a
// [PH_SHAPE_COUNT][PH_SHAPE_COUNT] table of functions with a flip flag for mirrored pairs (Box2D's
// s_registers). Rounded shapes run GJK/EPA on their cores (gjk.c, epa.c); polyhedra (box, hull,
// triangle) use the separating-axis test with face clipping.
//
// Polyhedra take one of two routes to the contact normal, whichever is exact and cheaper for the pair:
// - Few edge pairs (box-box, box-triangle, triangle-triangle, small hulls): the separating-axis test. The
//   normal of two polyhedra is a face normal or the cross product of two edges, and SAT evaluates exactly
//   those candidates, so its depth and normal are exact to rounding; for boxes it is 15 axes in closed form
//   with an early out at the first separating axis (Gottschalk's OBB test), and edge pairs of hulls are
//   pruned to those forming a face of the Minkowski difference with the Gauss-map test (Gregorius, "The
//   Separating Axis Test between Convex Polyhedra", GDC 2013). SAT also names the features (reference face
//   or edge pair) that clipping and feature ids need. Its separation of separated shapes is a lower bound
//   of the distance, exact unless the closest features are vertex-vertex or vertex-edge; those cases are
//   caught by comparing with GJK's distance and get one speculative point from GJK's closest points.
// - Many edge pairs (hulls): SAT's edge loop grows as E_a * E_b, 8,000 pairs for two 32-vertex hulls,
//   while warm-started GJK (separated) or EPA (overlapping) converges on the exact normal of the Minkowski
//   difference in a few support queries; the normal then selects the reference face (normal_from_gjk_epa).
//
// Face contacts follow Gregorius and Box2D: the reference face is the SAT face, the incident face is the
// other shape's face most anti-parallel to it, the incident polygon is clipped against the side planes
// of the reference face (Sutherland-Hodgman), points farther than the margin are dropped, and more than
// 4 are reduced to the 4 spanning the largest area.
#include "phys/gjk.h"

#include <float.h>  // FLT_MAX
#include <math.h>   // fabsf, sqrtf
#include <string.h> // memset

// SAT picks a face of A over a face of B, and a face over an edge pair, unless the other is better by
// this fraction of the smaller shape's size. The bias keeps the reference feature from flickering between
// nearly equal candidates (resting contacts), at the price of a depth error of at most this much.
static const float FEATURE_BIAS = 1e-4f;
// Between two solid polyhedra, a face wins over an edge pair unless the edge pair is better by this fraction
// of the smaller shape's size (FEATURE_BIAS still decides between the two shapes' faces, and against a mesh's
// triangles, whose edges have their own rules below). An edge
// pair gives one point, a face a polygon: a box wedged between two others on their corners rocked for ever
// on single points (its pivot moving from one to another without an impact, so nothing took the rocking's
// energy), and 4 of 20 random heaps of 200 boxes never slept; with faces preferred by 5e-3 every one slept
// within 12 s. Hysteresis instead (keeping last step's kind) left 1 to 3 of 20 awake. The price is a depth
// error of at most this much where a face is taken over a deeper-reaching edge pair. Only resting contacts
// (the face overlapping by less than this much) prefer it: a deeper overlap leaves along its best axis.
static const float FACE_PREFERENCE = 5e-3f;
// A face serves as reference for a rounded shape's contact when its normal is within this cosine of the
// contact normal (about 2.6 degrees); otherwise the contact is one point at the closest features.
static const float FACE_ALIGN_COS = 0.999f;
// Two capsule axes this close to parallel (sine of the angle) give two contact points.
static const float PARALLEL_SIN = 0.02f;
// Edge pairs whose cross product is shorter than this fraction of |ea||eb| are parallel: their axis is
// covered by the face normals.
static const float PARALLEL_EDGE_TOLERANCE = 1e-5f;
// ph_penetration takes an edge pair over a face only when its separation is larger by this fraction of the
// smaller shape's size (float rounding of axes computed two ways); the depth error is at most this much.
static const float PENETRATION_EDGE_BIAS = 1e-6f;
// A flat shape's edge pair is kept only when both edges reach their shape's extreme along the pair's axis to
// within this fraction of the larger shape's size (float rounding of the projections).
static const float FLAT_SUPPORT_TOLERANCE = 1e-5f;
// Pairs of polyhedra with more edge pairs than this take the GJK/EPA route to the normal instead of SAT
// (box-box: 144, box-triangle: 36; a box against a 20-vertex hull already has about 500).
#define SAT_EDGE_PAIR_BUDGET 150
// GJK's distance must exceed SAT's separation by this fraction of the size before the vertex-vertex
// fallback is used.
static const float SAT_GAP_TOLERANCE = 1e-5f;

// The largest polygon that clipping can produce: an incident face of at most PH_HULL_MAX_VERTICES
// vertices gains at most one vertex per side plane.
#define CLIP_CAPACITY (2 * PH_HULL_MAX_VERTICES + 8)
#define MAX_VIEW_FACES (2 * PH_HULL_MAX_VERTICES)

// Feature ids. Face contacts: bits 0-9 reference face, bit 10 set when the reference face is B's,
// bits 11-12 the clip feature kind, bits 13-21 and 22-30 its two indices, bit 31 clear. Edge-edge
// contacts: bit 31 set, bit 30 clear, bits 0-14 and 15-29 the edge indices. Other single points
// (rounded shapes, closest points): bits 31 and 30 set, low bits a small code.
#define ID_REF_B (1u << 10)
#define ID_KIND_SHIFT 11
#define ID_A_SHIFT 13
#define ID_B_SHIFT 22
#define ID_INDEX_MASK 0x1ffu
#define ID_EDGE_PAIR (1u << 31)
#define ID_SINGLE ((1u << 31) | (1u << 30))
// A single point between two polyhedra (closest features or EPA's witnesses, single_feature_id): ID_SINGLE,
// bit 29, A's supporting vertex along the normal in bits 0-8 and B's in bits 9-17.
#define ID_SINGLE_FEATURES (ID_SINGLE | (1u << 29))
// Capsule points clipped on a face: this bit, the end (bit 0) and the side that cut it plus one (bits 1-9).
#define CAPSULE_END_ID (1u << 20)
enum
{
    CLIP_VERTEX = 0,    // an incident vertex (index a)
    CLIP_EDGE_SIDE = 1, // incident edge starting at vertex a crossing reference side b
    CLIP_SIDE_SIDE = 2  // corner of the reference face between sides a and b
};

// ---- Polyhedron views ---------------------------------------------------------------------------------
// Boxes and triangles are seen through the same arrays as hulls, so that one SAT and one clipper serve
// every polyhedral pair. A box's vertex i has the signs of bits 0, 1, 2 for x, y, z; face 2k is -axis k
// and face 2k + 1 is +axis k, loops counter-clockwise seen from outside.

static const int BOX_FACE_INDICES[24] = {0, 4, 6, 2, 1, 3, 7, 5, 0, 1, 5, 4,
                                         2, 6, 7, 3, 0, 2, 3, 1, 4, 5, 7, 6};
static const ph_hull_edge BOX_EDGES[12] = {
    {0, 1, 2, 4}, {2, 3, 3, 4}, {4, 5, 2, 5}, {6, 7, 3, 5}, {0, 2, 0, 4}, {1, 3, 1, 4},
    {4, 6, 0, 5}, {5, 7, 1, 5}, {0, 4, 0, 2}, {1, 5, 1, 2}, {2, 6, 0, 3}, {3, 7, 1, 3},
};
static const int TRI_FACE_INDICES[6] = {0, 1, 2, 0, 2, 1};
static const ph_hull_edge TRI_EDGES[3] = {{0, 1, 0, 1}, {1, 2, 0, 1}, {2, 0, 0, 1}};

typedef struct poly_view
{
    const ph_vec3 *verts;
    int vert_count;
    const ph_hull_face *faces;
    int face_count;
    const int *face_indices;
    const ph_hull_edge *edges;
    int edge_count;
    const ph_hull *hull; // its supports (ph_hull_support_index) when set
    ph_vec3 centroid;    // an interior point, to orient edge axes outwards
    bool flat;           // a triangle: no interior, edge axes use full projections
    bool is_box;
    ph_vec3 half; // box half extents
    ph_vec3 own_verts[8];
    ph_hull_face own_faces[6];
} poly_view;

static int box_support_index(ph_vec3 d)
{
    return (d.x >= 0.0f ? 1 : 0) | (d.y >= 0.0f ? 2 : 0) | (d.z >= 0.0f ? 4 : 0);
}

// Corner i of the box with half extents h: the signs of bits 0, 1, 2 for x, y, z.
static ph_vec3 box_corner(ph_vec3 h, int i)
{
    return ph_v3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
}

// Fills the view in place (it points into itself). False for a shape that is not a usable polyhedron.
static bool view_init(poly_view *v, const ph_convex *s)
{
    if (s->type == PH_SHAPE_BOX)
    {
        // Every field but the unused own arrays is set: no memset of the whole view on the common path.
        v->hull = NULL;
        v->centroid = glms_vec3_zero();
        v->flat = false;
        ph_vec3 h = s->half_extents;
        for (int i = 0; i < 8; i++)
            v->own_verts[i] = box_corner(h, i);
        for (int f = 0; f < 6; f++)
        {
            int axis = f / 2;
            float sign = (f & 1) ? 1.0f : -1.0f;
            v->own_faces[f].normal = glms_vec3_zero();
            v->own_faces[f].normal.raw[axis] = sign;
            v->own_faces[f].offset = h.raw[axis];
            v->own_faces[f].first_index = 4 * f;
            v->own_faces[f].index_count = 4;
        }
        v->verts = v->own_verts;
        v->vert_count = 8;
        v->faces = v->own_faces;
        v->face_count = 6;
        v->face_indices = BOX_FACE_INDICES;
        v->edges = BOX_EDGES;
        v->edge_count = 12;
        v->is_box = true;
        v->half = h;
        return true;
    }
    memset(v, 0, sizeof *v);
    if (s->type == PH_SHAPE_TRIANGLE)
    {
        ph_vec3 n = glms_vec3_cross(glms_vec3_sub(s->tri[1], s->tri[0]), glms_vec3_sub(s->tri[2], s->tri[0]));
        float len = glms_vec3_norm(n);
        float scale2 = glms_vec3_norm2(glms_vec3_sub(s->tri[1], s->tri[0])) +
                       glms_vec3_norm2(glms_vec3_sub(s->tri[2], s->tri[0]));
        if (!(len > PARALLEL_EDGE_TOLERANCE * scale2))
            return false; // no area: nothing to clip against
        n = glms_vec3_scale(n, 1.0f / len);
        for (int i = 0; i < 3; i++)
            v->own_verts[i] = s->tri[i];
        v->own_faces[0].normal = n;
        v->own_faces[0].offset = glms_vec3_dot(n, s->tri[0]);
        v->own_faces[0].first_index = 0;
        v->own_faces[0].index_count = 3;
        v->own_faces[1].normal = glms_vec3_negate(n);
        v->own_faces[1].offset = -v->own_faces[0].offset;
        v->own_faces[1].first_index = 3;
        v->own_faces[1].index_count = 3;
        v->verts = v->own_verts;
        v->vert_count = 3;
        v->faces = v->own_faces;
        v->face_count = 2;
        v->face_indices = TRI_FACE_INDICES;
        v->edges = TRI_EDGES;
        v->edge_count = 3;
        v->flat = true;
        v->centroid =
            glms_vec3_scale(glms_vec3_add(glms_vec3_add(s->tri[0], s->tri[1]), s->tri[2]), 1.0f / 3.0f);
        return true;
    }
    if (s->type == PH_SHAPE_HULL)
    {
        const ph_hull *h = s->hull;
        if (!h->faces || !h->face_indices || !h->edges || h->face_count < 4 || h->face_count > MAX_VIEW_FACES)
            return false;
        v->verts = h->vertices;
        v->vert_count = h->vertex_count;
        v->faces = h->faces;
        v->face_count = h->face_count;
        v->face_indices = h->face_indices;
        v->edges = h->edges;
        v->edge_count = h->edge_count;
        v->hull = h;
        v->centroid = h->centroid;
        return true;
    }
    return false;
}

static int view_support(const poly_view *v, ph_vec3 d, int *start)
{
    if (v->is_box)
        return box_support_index(d);
    if (v->hull)
        return ph_hull_support_index(v->hull, d, start);
    int best = 0;
    float best_dot = glms_vec3_dot(v->verts[0], d);
    for (int i = 1; i < v->vert_count; i++)
    {
        float s = glms_vec3_dot(v->verts[i], d);
        if (s > best_dot)
        {
            best_dot = s;
            best = i;
        }
    }
    return best;
}

static float view_extent(const poly_view *v)
{
    if (v->is_box)
        return glms_vec3_norm(v->half);
    if (v->hull)
        return v->hull->outer_radius; // the loop below, worked out when the hull was built
    float r2 = 0.0f;
    for (int i = 0; i < v->vert_count; i++)
        r2 = glm_max(r2, glms_vec3_norm2(glms_vec3_sub(v->verts[i], v->centroid)));
    return sqrtf(r2);
}

// Face and vertex accessors that serve full views and the half-extents-only views of two boxes (set up by
// box_views): a box's vertex i and face f follow the layout above.
static ph_vec3 view_vertex(const poly_view *v, int i)
{
    return v->is_box ? box_corner(v->half, i) : v->verts[i];
}

// Face f's outward normal (a box's from its index: face 2k is -axis k, 2k + 1 is +axis k).
static ph_vec3 view_face_normal(const poly_view *v, int f)
{
    if (!v->is_box)
        return v->faces[f].normal;
    ph_vec3 n = glms_vec3_zero();
    n.raw[f / 2] = (f & 1) ? 1.0f : -1.0f;
    return n;
}

static float view_face_offset(const poly_view *v, int f)
{
    return v->is_box ? v->half.raw[f / 2] : v->faces[f].offset;
}

// The vertex loop of face f: its first index, its length in *out_count.
static const int *view_face_loop(const poly_view *v, int f, int *out_count)
{
    if (v->is_box)
    {
        *out_count = 4;
        return BOX_FACE_INDICES + 4 * f;
    }
    *out_count = v->faces[f].index_count;
    return v->face_indices + v->faces[f].first_index;
}

// Views of two boxes for the closed-form SAT and the face contact, which read the half extents alone: no
// vertex, face or edge arrays are built.
static void box_views(poly_view *a, const ph_convex *ca, poly_view *b, const ph_convex *cb)
{
    a->is_box = b->is_box = true;
    a->half = ca->half_extents;
    b->half = cb->half_extents;
    a->hull = b->hull = NULL;
    a->flat = b->flat = false;
    a->centroid = b->centroid = glms_vec3_zero();
    a->face_count = b->face_count = 6;
    a->vert_count = b->vert_count = 8;
}

// A relative pose: x_to = r * x_from + t.
typedef struct rel_pose
{
    ph_mat3 r;
    ph_vec3 t;
} rel_pose;

static ph_vec3 rel_apply(const rel_pose *p, ph_vec3 x)
{
    return glms_vec3_add(glms_mat3_mulv(p->r, x), p->t);
}

// The pose of `from` in the frame of `to`.
static rel_pose rel_between(ph_transform to, ph_transform from)
{
    rel_pose p;
    ph_mat3 rt = glms_mat3_transpose(ph_quat_to_mat3(to.q));
    p.r = glms_mat3_mul(rt, ph_quat_to_mat3(from.q));
    p.t = glms_mat3_mulv(rt, glms_vec3_sub(from.p, to.p));
    return p;
}

static rel_pose rel_inverse(const rel_pose *p)
{
    rel_pose q;
    q.r = glms_mat3_transpose(p->r);
    q.t = glms_vec3_negate(glms_mat3_mulv(q.r, p->t));
    return q;
}

// ---- Output helpers -----------------------------------------------------------------------------------

static void add_point(ph_manifold *m, ph_vec3 point, float separation, uint32_t id)
{
    if (m->point_count >= PH_MAX_MANIFOLD_POINTS)
        return;
    ph_manifold_point *p = &m->points[m->point_count++];
    p->point = point;
    p->separation = separation;
    p->id = id;
}

// One point midway between the surface points pa and pb, with normal n (A to B, world).
static void single_point(ph_manifold *m, ph_vec3 pa, ph_vec3 pb, ph_vec3 n, float separation, uint32_t id)
{
    m->normal = n;
    add_point(m, glms_vec3_scale(glms_vec3_add(pa, pb), 0.5f), separation, id);
}

// ---- Separating-axis test -------------------------------------------------------------------------------

typedef enum sat_kind
{
    SAT_FACE_A,
    SAT_FACE_B,
    SAT_EDGES
} sat_kind;

typedef struct sat_result
{
    sat_kind kind;
    float sep;                  // separation along the axis (negative: penetration) (unit: m)
    int index_a;                // face of A, or edge of A
    int index_b;                // face of B, or edge of B
    ph_vec3 axis;               // edge pairs: unit axis in A's frame, A to B
    ph_vec3 ea0, ea1, eb0, eb1; // edge pairs: the two edges in A's frame
} sat_result;

// Largest separation over the faces of p against q (q posed in p's frame by rel); stops early beyond margin.
static void face_query(const poly_view *p, const poly_view *q, const rel_pose *rel, float margin,
                       float *out_sep, int *out_face)
{
    ph_mat3 rt = glms_mat3_transpose(rel->r);
    int start = -1;
    *out_sep = -FLT_MAX;
    *out_face = 0;
    for (int f = 0; f < p->face_count; f++)
    {
        ph_vec3 n = p->faces[f].normal;
        int vi = view_support(q, glms_mat3_mulv(rt, glms_vec3_negate(n)), &start);
        float s = glms_vec3_dot(n, rel_apply(rel, q->verts[vi])) - p->faces[f].offset;
        if (s > *out_sep)
        {
            *out_sep = s;
            *out_face = f;
            if (s > margin)
                return;
        }
    }
}

// Gauss-map test: do the arcs (a, b) and (c, d) on the unit sphere cross? For edges of A with face
// normals a, b and of B with face normals -c, -d, crossing arcs mean the edges' cross product is a face
// normal of the Minkowski difference, and only those edge pairs can realise the separation.
static bool is_minkowski_face(ph_vec3 a, ph_vec3 b, ph_vec3 c, ph_vec3 d)
{
    ph_vec3 bxa = glms_vec3_cross(b, a), dxc = glms_vec3_cross(d, c);
    float cba = glms_vec3_dot(c, bxa), dba = glms_vec3_dot(d, bxa);
    float adc = glms_vec3_dot(a, dxc), bdc = glms_vec3_dot(b, dxc);
    return cba * dba < 0.0f && adc * bdc < 0.0f && cba * bdc > 0.0f;
}

// Separation along unit axis u (A's frame) from full projections: B on the + side of A. Used for flat
// shapes, whose edges have no interior to orient an axis by. *ha and *lb receive A's highest and B's lowest
// projection on u.
static float projected_separation(const poly_view *a, const poly_view *b, const rel_pose *rel, ph_vec3 u,
                                  float *ha, float *lb)
{
    ph_mat3 rt = glms_mat3_transpose(rel->r);
    int start_a = -1, start_b = -1;
    *ha = glms_vec3_dot(u, a->verts[view_support(a, u, &start_a)]);
    *lb = glms_vec3_dot(
        u, rel_apply(rel, b->verts[view_support(b, glms_mat3_mulv(rt, glms_vec3_negate(u)), &start_b)]));
    return *lb - *ha;
}

static void edge_query(const poly_view *a, const poly_view *b, const rel_pose *rel, sat_result *best)
{
    ph_vec3 bverts[PH_HULL_MAX_VERTICES];
    ph_vec3 bnormals[MAX_VIEW_FACES];
    for (int i = 0; i < b->vert_count; i++)
        bverts[i] = rel_apply(rel, b->verts[i]);
    for (int f = 0; f < b->face_count; f++)
        bnormals[f] = glms_mat3_mulv(rel->r, b->faces[f].normal);
    bool flat = a->flat || b->flat;
    float flat_tol = flat ? FLAT_SUPPORT_TOLERANCE * glm_max(view_extent(a), view_extent(b)) : 0.0f;
    best->sep = -FLT_MAX;
    for (int i = 0; i < a->edge_count; i++)
    {
        const ph_hull_edge *ea = &a->edges[i];
        ph_vec3 a0 = a->verts[ea->v0], a1 = a->verts[ea->v1];
        ph_vec3 da = glms_vec3_sub(a1, a0);
        ph_vec3 na = a->faces[ea->f0].normal, nb = a->faces[ea->f1].normal;
        for (int j = 0; j < b->edge_count; j++)
        {
            const ph_hull_edge *eb = &b->edges[j];
            if (!flat && !is_minkowski_face(na, nb, glms_vec3_negate(bnormals[eb->f0]),
                                            glms_vec3_negate(bnormals[eb->f1])))
                continue;
            ph_vec3 b0 = bverts[eb->v0], b1 = bverts[eb->v1];
            ph_vec3 db = glms_vec3_sub(b1, b0);
            ph_vec3 u = glms_vec3_cross(da, db);
            float len = glms_vec3_norm(u);
            if (!(len > PARALLEL_EDGE_TOLERANCE * glms_vec3_norm(da) * glms_vec3_norm(db)))
                continue;
            u = glms_vec3_scale(u, 1.0f / len);
            float s;
            if (flat)
            {
                float ha, lb, ha_minus, lb_minus;
                float plus = projected_separation(a, b, rel, u, &ha, &lb);
                float minus = projected_separation(a, b, rel, glms_vec3_negate(u), &ha_minus, &lb_minus);
                s = plus;
                if (minus > plus)
                {
                    s = minus;
                    u = glms_vec3_negate(u);
                    ha = ha_minus;
                    lb = lb_minus;
                }
                // The projections give the separation along u, but the contact is made at these two edges:
                // they must be the ones that reach it. Every edge parallel to da (a box has four) gives the
                // same axis and separation, and a pair whose edge lies back from its shape's extreme along u
                // (a box's top edge where its bottom edge touches) puts the contact point inside that shape.
                if (glm_max(glms_vec3_dot(u, a0), glms_vec3_dot(u, a1)) < ha - flat_tol ||
                    glm_min(glms_vec3_dot(u, b0), glms_vec3_dot(u, b1)) > lb + flat_tol)
                    continue;
            }
            else
            {
                // Both edges support their shapes along u (Minkowski face), so the separation is the
                // distance between the two edge lines along u, oriented away from A's interior.
                if (glms_vec3_dot(u, glms_vec3_sub(a0, a->centroid)) < 0.0f)
                    u = glms_vec3_negate(u);
                s = glms_vec3_dot(u, glms_vec3_sub(b0, a0));
            }
            if (s > best->sep)
            {
                best->sep = s;
                best->index_a = i;
                best->index_b = j;
                best->axis = u;
                best->ea0 = a0;
                best->ea1 = a1;
                best->eb0 = b0;
                best->eb1 = b1;
            }
        }
    }
    best->kind = SAT_EDGES;
}

// Closest points of segments p0p1 and q0q1 (Ericson, Real-Time Collision Detection, 5.1.9).
static void closest_segments(ph_vec3 p0, ph_vec3 p1, ph_vec3 q0, ph_vec3 q1, ph_vec3 *cp, ph_vec3 *cq)
{
    ph_vec3 d1 = glms_vec3_sub(p1, p0), d2 = glms_vec3_sub(q1, q0), r = glms_vec3_sub(p0, q0);
    float a = glms_vec3_dot(d1, d1), e = glms_vec3_dot(d2, d2), f = glms_vec3_dot(d2, r);
    float s = 0.0f, t = 0.0f;
    if (a > 0.0f && e > 0.0f)
    {
        float c = glms_vec3_dot(d1, r), b = glms_vec3_dot(d1, d2);
        float denom = a * e - b * b;
        s = denom > 0.0f ? glm_clamp((b * f - c * e) / denom, 0.0f, 1.0f) : 0.0f;
        t = (b * s + f) / e;
        if (t < 0.0f)
        {
            t = 0.0f;
            s = glm_clamp(-c / a, 0.0f, 1.0f);
        }
        else if (t > 1.0f)
        {
            t = 1.0f;
            s = glm_clamp((b - c) / a, 0.0f, 1.0f);
        }
    }
    else if (e > 0.0f)
    {
        t = glm_clamp(f / e, 0.0f, 1.0f);
    }
    else if (a > 0.0f)
    {
        s = glm_clamp(-glms_vec3_dot(d1, r) / a, 0.0f, 1.0f);
    }
    *cp = glms_vec3_add(p0, glms_vec3_scale(d1, s));
    *cq = glms_vec3_add(q0, glms_vec3_scale(d2, t));
}

// ---- Clipping and reduction ---------------------------------------------------------------------------

typedef struct clip_vertex
{
    ph_vec3 p;
    uint32_t feature; // kind and indices, see CLIP_*
    int next_edge;    // the polygon continues from here along incident edge (start vertex) >= 0 ...
    int next_side;    // ... or along reference side plane >= 0
} clip_vertex;

static uint32_t clip_feature(int kind, int a, int b)
{
    return ((uint32_t)kind << ID_KIND_SHIFT) | (((uint32_t)a & ID_INDEX_MASK) << ID_A_SHIFT) |
           (((uint32_t)b & ID_INDEX_MASK) << ID_B_SHIFT);
}

// The point where segment p -> q crosses side plane `side`, with its feature from what p -> q runs along.
static clip_vertex intersect(const clip_vertex *p, const clip_vertex *q, float dp, float dq, int side)
{
    clip_vertex x;
    float t = dp / (dp - dq);
    x.p = glms_vec3_add(p->p, glms_vec3_scale(glms_vec3_sub(q->p, p->p), t));
    if (p->next_edge >= 0)
        x.feature = clip_feature(CLIP_EDGE_SIDE, p->next_edge, side);
    else
        x.feature = clip_feature(CLIP_SIDE_SIDE, glm_min(p->next_side, side), glm_max(p->next_side, side));
    x.next_edge = -1;
    x.next_side = -1;
    return x;
}

// Sutherland-Hodgman against the half-space dot(n, x) <= offset. Returns the new count.
static int clip_polygon(const clip_vertex *in, int count, clip_vertex *out, ph_vec3 n, float offset, int side)
{
    int k = 0;
    for (int i = 0; i < count && k < CLIP_CAPACITY - 1; i++)
    {
        const clip_vertex *p = &in[i];
        const clip_vertex *q = &in[(i + 1) % count];
        float dp = glms_vec3_dot(n, p->p) - offset, dq = glms_vec3_dot(n, q->p) - offset;
        if (dp <= 0.0f)
        {
            if (dq > 0.0f)
            {
                out[k] = intersect(p, q, dp, dq, side);
                out[k].next_side = side; // leaving: the polygon follows the plane
                k++;
            }
        }
        if (dq <= 0.0f)
        {
            if (dp > 0.0f)
            {
                out[k] = intersect(p, q, dp, dq, side);
                out[k].next_edge = p->next_edge; // entering: it follows what p -> q ran along
                out[k].next_side = p->next_side;
                k++;
            }
            out[k++] = *q;
        }
    }
    return k;
}

typedef struct candidate
{
    ph_vec3 p; // on the incident surface, reference frame
    float sep;
    uint32_t id;
} candidate;

// Twice the signed area of (a, b, c) seen along n.
static float signed_area(ph_vec3 a, ph_vec3 b, ph_vec3 c, ph_vec3 n)
{
    return glms_vec3_dot(glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a)), n);
}

// Keeps 4 of count > 4 candidates: the deepest, the farthest from it, the one making the largest
// triangle with them, and the one adding the most area to that triangle, each measure weighed by how near
// the candidate is to touching (near_weight). Returns the indices.
// Near weight: 1 for a candidate within REDUCE_NEAR (a fraction of the margin) of the deepest one, falling
// to REDUCE_FAR_WEIGHT as it lies a margin further. By area alone, a box tilted on another kept the far
// corners of the clipped polygon, 1 to 2 cm apart, over its points 0.5 mm from touching: the box rocked
// onto a point that was in no manifold, found it 1.7 mm deep a step later, and the push out of that
// overlap kept a heap of 1000 boxes rocking for 30 s. Resting faces (every candidate within the near band)
// keep the choice by area alone.
#define REDUCE_NEAR 0.1f
#define REDUCE_FAR_WEIGHT 0.2f

static float near_weight(float sep, float deepest, float margin)
{
    float above = sep - deepest - REDUCE_NEAR * margin;
    return above <= 0.0f ? 1.0f : glm_max(REDUCE_FAR_WEIGHT, 1.0f - above / margin);
}

static void reduce_to_four(const candidate *c, int count, ph_vec3 n, float margin, int keep[4])
{
    int i0 = 0;
    for (int i = 1; i < count; i++)
    {
        if (c[i].sep < c[i0].sep)
            i0 = i;
    }
    float weight[CLIP_CAPACITY]; // near_weight of each candidate, read by each of the three choices below
    for (int i = 0; i < count; i++)
        weight[i] = near_weight(c[i].sep, c[i0].sep, margin);
    int i1 = -1;
    float best = -1.0f;
    for (int i = 0; i < count; i++)
    {
        float d = glms_vec3_norm2(glms_vec3_sub(c[i].p, c[i0].p)) * weight[i] * weight[i];
        if (i != i0 && d > best)
        {
            best = d;
            i1 = i;
        }
    }
    int i2 = -1;
    best = -1.0f;
    float orient = 1.0f;
    for (int i = 0; i < count; i++)
    {
        if (i == i0 || i == i1)
            continue;
        float area = signed_area(c[i0].p, c[i1].p, c[i].p, n);
        float weighed = fabsf(area) * weight[i];
        if (weighed > best)
        {
            best = weighed;
            i2 = i;
            orient = area >= 0.0f ? 1.0f : -1.0f;
        }
    }
    // The fourth point lies outside one edge of the triangle; the area it adds is that of the triangle it
    // forms with that edge (negative signed area relative to the triangle's orientation).
    int i3 = -1;
    best = 0.0f;
    const int tri[3] = {i0, i1, i2};
    for (int i = 0; i < count; i++)
    {
        if (i == i0 || i == i1 || i == i2)
            continue;
        float gain = 0.0f;
        for (int e = 0; e < 3; e++)
            gain = glm_max(gain, -orient * signed_area(c[tri[e]].p, c[tri[(e + 1) % 3]].p, c[i].p, n));
        gain *= weight[i];
        if (i3 < 0 || gain > best)
        {
            best = gain;
            i3 = i;
        }
    }
    keep[0] = i0;
    keep[1] = i1;
    keep[2] = i2;
    keep[3] = i3;
}

// Face contact: the reference face ref_face of `ref` against `inc` (posed in ref's frame by rel). xf_ref
// maps the reference frame to world. The manifold normal is the reference face normal, turned to point
// from A to B (ref_is_b flips it).
static void face_contact(const poly_view *ref, const poly_view *inc, const rel_pose *rel, int ref_face,
                         ph_transform xf_ref, bool ref_is_b, float margin, ph_manifold *m)
{
    ph_vec3 n = view_face_normal(ref, ref_face);
    float ref_offset = view_face_offset(ref, ref_face);
    // Incident face: the most anti-parallel to n (compared in the incident shape's frame).
    ph_vec3 n_inc = glms_mat3_mulv(glms_mat3_transpose(rel->r), n);
    int inc_face = 0;
    float min_dot = FLT_MAX;
    for (int f = 0; f < inc->face_count; f++)
    {
        float d = glms_vec3_dot(view_face_normal(inc, f), n_inc);
        if (d < min_dot)
        {
            min_dot = d;
            inc_face = f;
        }
    }
    _Static_assert(CLIP_CAPACITY > PH_HULL_MAX_VERTICES, "clip buffers hold any face");
    clip_vertex buf0[CLIP_CAPACITY], buf1[CLIP_CAPACITY];
    int inc_count, ref_count;
    const int *inc_loop = view_face_loop(inc, inc_face, &inc_count);
    int count = 0;
    for (int k = 0; k < inc_count && count < PH_HULL_MAX_VERTICES; k++)
    {
        int v = inc_loop[k];
        buf0[count].p = rel_apply(rel, view_vertex(inc, v));
        buf0[count].feature = clip_feature(CLIP_VERTEX, v, 0);
        buf0[count].next_edge = v;
        buf0[count].next_side = -1;
        count++;
    }
    clip_vertex *in = buf0, *out = buf1;
    const int *loop = view_face_loop(ref, ref_face, &ref_count);
    for (int k = 0; k < ref_count && count > 0; k++)
    {
        ph_vec3 v0 = view_vertex(ref, loop[k]), v1 = view_vertex(ref, loop[k + 1 < ref_count ? k + 1 : 0]);
        // Side plane through the edge, facing out of the face (counter-clockwise loop seen along n).
        ph_vec3 side = glms_vec3_cross(glms_vec3_sub(v1, v0), n);
        count = clip_polygon(in, count, out, side, glms_vec3_dot(side, v0), k);
        clip_vertex *tmp = in;
        in = out;
        out = tmp;
    }

    candidate cand[CLIP_CAPACITY];
    int cand_count = 0;
    uint32_t base = (uint32_t)ref_face | (ref_is_b ? ID_REF_B : 0u);
    for (int i = 0; i < count; i++)
    {
        float s = glms_vec3_dot(n, in[i].p) - ref_offset;
        if (s <= margin)
        {
            cand[cand_count].p = in[i].p;
            cand[cand_count].sep = s;
            cand[cand_count].id = base | in[i].feature;
            cand_count++;
        }
    }
    if (cand_count == 0)
    {
        // Deep overlaps can leave the incident face wholly outside the reference face's side planes; the
        // incident shape's deepest vertex along -n (the one that set SAT's separation) is the contact then.
        ph_mat3 rt = glms_mat3_transpose(rel->r);
        int v = view_support(inc, glms_mat3_mulv(rt, glms_vec3_negate(n)), NULL);
        ph_vec3 p = rel_apply(rel, view_vertex(inc, v));
        float sep = glms_vec3_dot(n, p) - ref_offset;
        if (sep <= margin)
        {
            cand[0].p = p;
            cand[0].sep = sep;
            cand[0].id = base | clip_feature(CLIP_VERTEX, v, 0);
            cand_count = 1;
        }
    }
    int keep[4] = {0, 1, 2, 3};
    int kept = cand_count;
    if (cand_count > PH_MAX_MANIFOLD_POINTS)
    {
        reduce_to_four(cand, cand_count, n, margin, keep);
        kept = PH_MAX_MANIFOLD_POINTS;
    }
    ph_mat3 rot = ph_quat_to_mat3(xf_ref.q);
    ph_vec3 nw = glms_mat3_mulv(rot, n);
    m->normal = ref_is_b ? glms_vec3_negate(nw) : nw;
    for (int i = 0; i < kept; i++)
    {
        const candidate *c = &cand[keep[i]];
        // Midway between the incident point and its projection on the reference plane.
        ph_vec3 mid = glms_vec3_sub(c->p, glms_vec3_scale(n, 0.5f * c->sep));
        add_point(m, glms_vec3_add(xf_ref.p, glms_mat3_mulv(rot, mid)), c->sep, c->id);
    }
}

static float min_extent(const poly_view *a, const poly_view *b)
{
    return glm_min(view_extent(a), view_extent(b));
}

// ---- Polyhedron pairs -----------------------------------------------------------------------------------

// Box-box SAT in closed form (Gottschalk's OBB test; Ericson, Real-Time Collision Detection, 4.4.1): faces
// of A, faces of B, then the 9 edge directions. With R = rel->r (B's axes in A's frame) the axis e_i x c_j
// has length sqrt(1 - R_ij^2) and its projections are sums of two entries of |R| each, so no axis is formed
// or normalised unless it wins. The supporting edges of the winning edge axis are found only when it
// beats both face axes, the only case in which a caller uses them.
static bool box_box_sat(ph_vec3 ha, ph_vec3 hb, const rel_pose *rel, float margin, sat_result *fa,
                        sat_result *fb, sat_result *fe)
{
    // Plain float arrays (not the vector unions) keep the operands in registers: m[i][j] = R_ij, the
    // component along A's axis i of B's axis j.
    float m[3][3], am[3][3];
    const float a_h[3] = {ha.x, ha.y, ha.z}, b_h[3] = {hb.x, hb.y, hb.z};
    const float t[3] = {rel->t.x, rel->t.y, rel->t.z};
    for (int i = 0; i < 3; i++)
    {
        for (int j = 0; j < 3; j++)
        {
            m[i][j] = rel->r.col[j].raw[i];
            am[i][j] = fabsf(m[i][j]);
        }
    }
    fa->kind = SAT_FACE_A;
    fa->sep = -FLT_MAX;
    for (int k = 0; k < 3; k++)
    {
        // Radius of B along A's axis k: sum_j |R_kj| hb_j.
        float rb = am[k][0] * b_h[0] + am[k][1] * b_h[1] + am[k][2] * b_h[2];
        float s = fabsf(t[k]) - a_h[k] - rb;
        if (s > fa->sep)
        {
            fa->sep = s;
            fa->index_a = 2 * k + (t[k] > 0.0f ? 1 : 0);
        }
    }
    if (fa->sep > margin)
        return false;
    fb->kind = SAT_FACE_B;
    fb->sep = -FLT_MAX;
    for (int j = 0; j < 3; j++)
    {
        float ra = am[0][j] * a_h[0] + am[1][j] * a_h[1] + am[2][j] * a_h[2];
        float tj = m[0][j] * t[0] + m[1][j] * t[1] + m[2][j] * t[2]; // B's centre from A along B's axis j
        float s = fabsf(tj) - b_h[j] - ra;
        if (s > fb->sep)
        {
            fb->sep = s;
            fb->index_b = 2 * j + (tj < 0.0f ? 1 : 0); // B's face that looks at A
        }
    }
    if (fb->sep > margin)
        return false;
    fe->kind = SAT_EDGES;
    fe->sep = -FLT_MAX;
    // The best separation is kept as the fraction best_s / best_len and compared cross-multiplied, so that
    // no division sits on the loop's dependency chain.
    static const int NEXT[3] = {1, 2, 0}, PREV[3] = {2, 0, 1};
    int best_i = -1, best_j = -1;
    float best_s = -1.0f, best_len = 0.0f, best_tu = 0.0f;
    for (int i = 0; i < 3; i++)
    {
        int i1 = NEXT[i], i2 = PREV[i];
        for (int j = 0; j < 3; j++)
        {
            int j1 = NEXT[j], j2 = PREV[j];
            // e_i x c_j has components 0, -R_i2j, R_i1j at i, i1, i2.
            float len2 = m[i1][j] * m[i1][j] + m[i2][j] * m[i2][j];
            if (!(len2 > PARALLEL_EDGE_TOLERANCE * PARALLEL_EDGE_TOLERANCE))
                continue;
            float len = sqrtf(len2);
            float ra = a_h[i1] * am[i2][j] + a_h[i2] * am[i1][j];
            float rb = b_h[j1] * am[i][j2] + b_h[j2] * am[i][j1];
            float tu = t[i2] * m[i1][j] - t[i1] * m[i2][j];
            float s = fabsf(tu) - ra - rb; // times len
            if (best_i < 0 || s * best_len > best_s * len)
            {
                best_s = s;
                best_i = i;
                best_j = j;
                best_len = len;
                best_tu = tu;
            }
        }
    }
    if (best_i >= 0)
        fe->sep = best_s / best_len;
    if (fe->sep > margin)
        return false;
    if (best_i >= 0 && fe->sep > glm_max(fa->sep, fb->sep))
    {
        int i = best_i, j = best_j, i1 = NEXT[i], i2 = PREV[i];
        ph_vec3 u = glms_vec3_zero();
        u.raw[i1] = -m[i2][j] / best_len;
        u.raw[i2] = m[i1][j] / best_len;
        fe->axis = best_tu >= 0.0f ? u : glms_vec3_negate(u);
        // The supporting edges: A's along axis i through its support vertex in +axis, B's along its axis j
        // through its support vertex in -axis.
        int va = box_support_index(fe->axis) & ~(1 << i);
        ph_mat3 rt = glms_mat3_transpose(rel->r);
        int vb = box_support_index(glms_mat3_mulv(rt, glms_vec3_negate(fe->axis))) & ~(1 << j);
        fe->ea0 = box_corner(ha, va);
        fe->ea1 = box_corner(ha, va | (1 << i));
        fe->eb0 = rel_apply(rel, box_corner(hb, vb));
        fe->eb1 = rel_apply(rel, box_corner(hb, vb | (1 << j)));
        // Edge ids: the axis and the start vertex (a box edge is fixed by both).
        fe->index_a = i * 8 + va;
        fe->index_b = j * 8 + vb;
    }
    return true;
}

// Separation along face f of p against q (q posed in p's frame by rel): one support query.
static float face_separation(const poly_view *p, const poly_view *q, const rel_pose *rel, int f)
{
    ph_vec3 n = p->faces[f].normal;
    int vi = view_support(q, glms_mat3_mulv(glms_mat3_transpose(rel->r), glms_vec3_negate(n)), NULL);
    return glms_vec3_dot(n, rel_apply(rel, q->verts[vi])) - p->faces[f].offset;
}

// The face of p whose normal is closest to direction d (p's frame).
static int most_aligned_face(const poly_view *p, ph_vec3 d)
{
    int best = 0;
    float best_dot = -FLT_MAX;
    for (int f = 0; f < p->face_count; f++)
    {
        float x = glms_vec3_dot(p->faces[f].normal, d);
        if (x > best_dot)
        {
            best_dot = x;
            best = f;
        }
    }
    return best;
}

// The id of a single point between two polyhedra: the vertices of A and B that reach furthest towards each
// other along the normal n (A to B, A's frame). One code for every single point would make two supports of
// a body rocking between them the same point to warm starting and to contact.c's kept points.
static uint32_t single_feature_id(const poly_view *a, const poly_view *b, const rel_pose *rel, ph_vec3 n)
{
    int va = view_support(a, n, NULL);
    int vb = view_support(b, glms_mat3_mulv(glms_mat3_transpose(rel->r), glms_vec3_negate(n)), NULL);
    return ID_SINGLE_FEATURES | ((uint32_t)va & ID_INDEX_MASK) | (((uint32_t)vb & ID_INDEX_MASK) << 9);
}

// Polyhedra with many edges: SAT's edge pairs grow as E_a * E_b (8,000 for two 32-vertex hulls), while GJK
// and EPA converge on the exact normal of the Minkowski difference in a few supports. The normal then picks
// the features: the face of A most aligned with it and the face of B most aligned with its reverse are
// tried as reference faces, each with its own exact separation (one support query); the better one is used
// when it is within FEATURE_BIAS of the true separation (a face contact, clipped as usual), otherwise the
// contact is edge against edge (or vertex), and GJK's or EPA's witness points give its single point.
static void normal_from_gjk_epa(const poly_view *a, const ph_convex *ca, ph_transform xa, const poly_view *b,
                                const ph_convex *cb, ph_transform xb, const rel_pose *rel,
                                const ph_gjk_output *g, float margin, ph_manifold *m)
{
    ph_vec3 n, pa, pb;
    float sep;
    if (g->status != PH_GJK_OVERLAPPING)
    {
        n = g->normal;
        sep = g->distance;
        pa = g->point_a;
        pb = g->point_b;
    }
    else
    {
        ph_epa_output e;
        ph_epa_penetration(ca, xa, cb, xb, &g->simplex, &e);
        n = e.normal;
        sep = -e.depth;
        pa = e.point_a;
        pb = e.point_b;
    }
    ph_vec3 na = glms_quat_rotatev(glms_quat_conjugate(xa.q), n);                   // A's frame
    ph_vec3 nb = glms_mat3_mulv(glms_mat3_transpose(rel->r), glms_vec3_negate(na)); // B's frame, reversed
    int fa = most_aligned_face(a, na), fb = most_aligned_face(b, nb);
    rel_pose inv = rel_inverse(rel);
    float sa = face_separation(a, b, rel, fa), sb = face_separation(b, a, &inv, fb);
    float bias = FEATURE_BIAS * min_extent(a, b);
    if (glm_max(sa, sb) >= sep - bias)
    {
        if (sb > sa + bias)
            face_contact(b, a, &inv, fb, xb, true, margin, m);
        else
            face_contact(a, b, rel, fa, xa, false, margin, m);
        if (m->point_count > 0)
            return;
    }
    if (sep <= margin)
        single_point(m, pa, pb, n, sep, single_feature_id(a, b, rel, na));
}

// The separating-axis test of two polyhedra (B posed in A's frame by rel): the best face of A, face of B
// and edge pair. False as soon as one axis separates them by more than margin (the others are then unset).
static bool run_sat(const poly_view *a, const poly_view *b, const rel_pose *rel, float margin, sat_result *fa,
                    sat_result *fb, sat_result *fe)
{
    memset(fa, 0, sizeof *fa);
    memset(fb, 0, sizeof *fb);
    memset(fe, 0, sizeof *fe);
    if (a->is_box && b->is_box)
        return box_box_sat(a->half, b->half, rel, margin, fa, fb, fe);
    rel_pose inv = rel_inverse(rel);
    fa->kind = SAT_FACE_A;
    face_query(a, b, rel, margin, &fa->sep, &fa->index_a);
    if (fa->sep > margin)
        return false;
    fb->kind = SAT_FACE_B;
    face_query(b, a, &inv, margin, &fb->sep, &fb->index_b);
    if (fb->sep > margin)
        return false;
    edge_query(a, b, rel, fe);
    return fe->sep <= margin;
}

static void collide_single(const ph_convex *ca, ph_transform xa, const ph_convex *cb, ph_transform xb,
                           float margin, ph_gjk_cache *cache, ph_manifold *m);

// Whether two boxes lie apart by more than the margin along a face normal of one of them, by a lower bound
// of box_box_sat's face separations: the other box's extent along the normal is at most its circumradius.
// When the bound clears the margin by more than any rounding of either computation (a ten-thousandth of the
// lengths involved, where float rounding is some ten-millionths), box_box_sat finds a face separation past
// the margin too and the manifold is the same empty one: no relative pose and no SAT for most of the box
// pairs the broadphase reports (two thirds of highspeed's box pairs; ~600 instructions each).
static bool boxes_apart(ph_vec3 ha, ph_transform xa, ph_vec3 hb, ph_transform xb, float margin)
{
    ph_vec3 d = glms_vec3_sub(xb.p, xa.p);
    float ra = glms_vec3_norm(ha), rb = glms_vec3_norm(hb);
    float slack = margin + 1e-4f * (glms_vec3_norm(d) + ra + rb);
    ph_vec3 ta = glms_quat_rotatev(glms_quat_conjugate(xa.q), d); // B's centre in A's frame
    ph_vec3 tb = glms_quat_rotatev(glms_quat_conjugate(xb.q), d); // and the offset along B's axes
    float sa = fmaxf(fmaxf(fabsf(ta.x) - ha.x, fabsf(ta.y) - ha.y), fabsf(ta.z) - ha.z) - rb;
    float sb = fmaxf(fmaxf(fabsf(tb.x) - hb.x, fabsf(tb.y) - hb.y), fabsf(tb.z) - hb.z) - ra;
    return sa > slack || sb > slack;
}

static void collide_polyhedra(const ph_convex *ca, ph_transform xa, const ph_convex *cb, ph_transform xb,
                              float margin, ph_gjk_cache *cache, ph_manifold *m)
{
    poly_view a, b;
    if (ca->type == PH_SHAPE_BOX && cb->type == PH_SHAPE_BOX)
    {
        if (boxes_apart(ca->half_extents, xa, cb->half_extents, xb, margin))
            return;
        box_views(&a, ca, &b, cb);
    }
    else if (!view_init(&a, ca) || !view_init(&b, cb))
    {
        // A sliver triangle has no reliable face plane to clip against: one point from GJK or EPA.
        collide_single(ca, xa, cb, xb, margin, cache, m);
        return;
    }
    bool both_boxes = a.is_box && b.is_box;
    ph_gjk_output g;
    bool have_gjk = false;
    if (!both_boxes)
    {
        // Warm-started GJK first: pairs the broadphase reports but that are apart by more than the margin
        // (most of them) cost an iteration or two and skip SAT.
        ph_gjk_proxy pa, pb;
        ph_gjk_pair_init(&pa, &pb, ca, xa, cb, xb, false);
        ph_gjk_run_within(&pa, &pb, cache ? &cache->simplex : NULL, margin, &g);
        ph_gjk_output_to_world(&g, xa);
        if (cache)
            cache->simplex = g.simplex;
        if (g.status != PH_GJK_OVERLAPPING && g.distance > margin)
            return;
        have_gjk = true;
    }

    rel_pose rel = rel_between(xa, xb); // B in A's frame
    if (!both_boxes && a.edge_count * b.edge_count > SAT_EDGE_PAIR_BUDGET)
    {
        normal_from_gjk_epa(&a, ca, xa, &b, cb, xb, &rel, &g, margin, m);
        return;
    }
    sat_result fa, fb, fe;
    if (!run_sat(&a, &b, &rel, margin, &fa, &fb, &fe))
        return;

    float size = min_extent(&a, &b);
    float bias = FEATURE_BIAS * size;
    float face_sep = glm_max(fa.sep, fb.sep);
    float best_sep = glm_max(face_sep, fe.sep);
    if (best_sep > 0.0f)
    {
        // Separated within the margin: SAT's separation is exact unless the closest features are a vertex
        // and a vertex or an edge; then GJK's distance is larger and its closest points are the contact.
        if (!have_gjk)
        {
            ph_gjk_proxy pa, pb;
            ph_gjk_pair_init(&pa, &pb, ca, xa, cb, xb, false);
            ph_gjk_run(&pa, &pb, cache ? &cache->simplex : NULL, false, 0.0f, &g);
            ph_gjk_output_to_world(&g, xa);
            if (cache)
                cache->simplex = g.simplex;
        }
        if (g.status != PH_GJK_OVERLAPPING && g.distance > best_sep + SAT_GAP_TOLERANCE * size)
        {
            if (g.distance <= margin)
                single_point(
                    m, g.point_a, g.point_b, g.normal, g.distance,
                    single_feature_id(&a, &b, &rel, glms_quat_rotatev(glms_quat_conjugate(xa.q), g.normal)));
            return;
        }
    }
    // Resting contacts only (a face overlapping by less than the preference): a deep overlap leaves along its
    // true best axis.
    bool prefer_face =
        ca->type != PH_SHAPE_TRIANGLE && cb->type != PH_SHAPE_TRIANGLE && face_sep > -FACE_PREFERENCE * size;
    if (fe.sep > face_sep + (prefer_face ? FACE_PREFERENCE * size : bias))
    {
        ph_vec3 pa, pb;
        closest_segments(fe.ea0, fe.ea1, fe.eb0, fe.eb1, &pa, &pb);
        ph_vec3 mid = glms_vec3_scale(glms_vec3_add(pa, pb), 0.5f);
        m->normal = glms_quat_rotatev(xa.q, fe.axis);
        uint32_t id =
            ID_EDGE_PAIR | ((uint32_t)fe.index_a & 0x7fffu) | (((uint32_t)fe.index_b & 0x7fffu) << 15);
        add_point(m, ph_transform_point(xa, mid), fe.sep, id);
        return;
    }
    if (fb.sep > fa.sep + bias)
    {
        rel_pose inv = rel_inverse(&rel);
        face_contact(&b, &a, &inv, fb.index_b, xb, true, margin, m);
    }
    else
    {
        face_contact(&a, &b, &rel, fa.index_a, xa, false, margin, m);
    }
}

// ---- Rounded shapes -------------------------------------------------------------------------------------

typedef struct rounded_result
{
    bool contact;   // within the margin
    ph_vec3 normal; // A to B, world
    ph_vec3 pa, pb; // surface points (rounding included)
    float sep;      // separation of the full shapes
} rounded_result;

// GJK on the cores with radii added back; EPA on the cores when they overlap.
static rounded_result rounded_query(const ph_convex *ca, ph_transform xa, const ph_convex *cb,
                                    ph_transform xb, float margin, ph_gjk_cache *cache)
{
    rounded_result r;
    memset(&r, 0, sizeof r);
    ph_gjk_proxy pa, pb;
    ph_gjk_pair_init(&pa, &pb, ca, xa, cb, xb, true);
    float rounding = pa.radius + pb.radius;
    ph_gjk_output g;
    ph_gjk_run_within(&pa, &pb, cache ? &cache->simplex : NULL, margin + rounding, &g);
    ph_gjk_output_to_world(&g, xa);
    if (cache)
        cache->simplex = g.simplex;
    if (g.status != PH_GJK_OVERLAPPING)
    {
        r.sep = g.distance - rounding;
        if (r.sep > margin)
            return r;
        r.contact = true;
        r.normal = g.normal;
        r.pa = glms_vec3_add(g.point_a, glms_vec3_scale(g.normal, pa.radius));
        r.pb = glms_vec3_sub(g.point_b, glms_vec3_scale(g.normal, pb.radius));
        return r;
    }
    ph_epa_output e;
    ph_epa_penetration(ca, xa, cb, xb, &g.simplex, &e);
    r.contact = true;
    r.sep = -e.depth;
    r.normal = e.normal;
    r.pa = e.point_a;
    r.pb = e.point_b;
    return r;
}

static void collide_spheres(const ph_convex *ca, ph_transform xa, const ph_convex *cb, ph_transform xb,
                            float margin, ph_gjk_cache *cache, ph_manifold *m)
{
    (void)cache;
    ph_vec3 d = glms_vec3_sub(xb.p, xa.p);
    float dist = glms_vec3_norm(d);
    float sep = dist - ca->radius - cb->radius;
    if (sep > margin)
        return;
    ph_vec3 n = ph_safe_normalize(d, ph_v3(0.0f, 1.0f, 0.0f));
    ph_vec3 pa = glms_vec3_add(xa.p, glms_vec3_scale(n, ca->radius));
    ph_vec3 pb = glms_vec3_sub(xb.p, glms_vec3_scale(n, cb->radius));
    single_point(m, pa, pb, n, sep, ID_SINGLE);
}

// A sphere (A) against a box (B), in closed form: the sphere's centre in the box's frame, clamped to the
// box, is the box's closest point (Ericson, "Real-Time Collision Detection", 5.1.3); a centre inside the box
// leaves through the nearest face. GJK on the sphere's core point gave the same answer to its tolerance in
// a few iterations and support calls, ~1900 instructions a pair against ~100 here, and the pairs of a
// scene of thrown balls and boxes are mostly this kind. The GJK cache is left as it is: nothing reads it.
static void collide_sphere_box(const ph_convex *ca, ph_transform xa, const ph_convex *cb, ph_transform xb,
                               float margin, ph_gjk_cache *cache, ph_manifold *m)
{
    (void)cache;
    ph_vec3 h = cb->half_extents;
    ph_vec3 p = glms_quat_rotatev(glms_quat_conjugate(xb.q), glms_vec3_sub(xa.p, xb.p));
    ph_vec3 c = ph_v3(glm_clamp(p.x, -h.x, h.x), glm_clamp(p.y, -h.y, h.y), glm_clamp(p.z, -h.z, h.z));
    ph_vec3 face; // the box's closest point (box frame)
    ph_vec3 out;  // unit, from the box towards the sphere's centre (box frame)
    float sep;
    if (c.x != p.x || c.y != p.y || c.z != p.z)
    {
        ph_vec3 d = glms_vec3_sub(p, c);
        float dist = glms_vec3_norm(d);
        sep = dist - ca->radius;
        if (sep > margin)
            return;
        face = c;
        out = ph_safe_normalize(d, ph_v3(0.0f, 1.0f, 0.0f));
    }
    else
    {
        // The shallowest face (the first of equals); its depth is the centre's distance to it.
        float dx = h.x - fabsf(p.x), dy = h.y - fabsf(p.y), dz = h.z - fabsf(p.z);
        int axis = dx <= dy && dx <= dz ? 0 : dy <= dz ? 1 : 2;
        float depth = axis == 0 ? dx : axis == 1 ? dy : dz;
        sep = -depth - ca->radius;
        face = p;
        out = glms_vec3_zero();
        float side = p.raw[axis] >= 0.0f ? 1.0f : -1.0f;
        face.raw[axis] = side * h.raw[axis];
        out.raw[axis] = side;
    }
    ph_vec3 n = glms_vec3_negate(glms_quat_rotatev(xb.q, out)); // A (sphere) to B (box)
    ph_vec3 pa = glms_vec3_add(xa.p, glms_vec3_scale(n, ca->radius));
    ph_vec3 pb = ph_transform_point(xb, face);
    single_point(m, pa, pb, n, sep, ID_SINGLE);
}

// One point at the closest (or deepest) features: spheres against anything, and the fallback for
// degenerate polyhedra.
static void collide_single(const ph_convex *ca, ph_transform xa, const ph_convex *cb, ph_transform xb,
                           float margin, ph_gjk_cache *cache, ph_manifold *m)
{
    rounded_result r = rounded_query(ca, xa, cb, xb, margin, cache);
    if (r.contact)
        single_point(m, r.pa, r.pb, r.normal, r.sep, ID_SINGLE);
}

// A sphere (A) against a triangle (B), in closed form (issue 24, defect 11): GJK on the sphere's core point
// stops at a tolerance relative to the triangle's size, which for a triangle 2e4 m wide (the vertex limit)
// exceeds a small sphere's radius, and near an edge let spheres fall through. Here the centre is projected
// on the triangle's plane (its distance from the plane has the rounding of one vertex's coordinates, a
// millimetre at 1e4 m); inside the triangle that is the closest point, else the closest point of the
// nearest edge. The triangle is two-sided, as for GJK. The GJK cache is left as it is: nothing reads it.
static void collide_sphere_triangle(const ph_convex *ca, ph_transform xa, const ph_convex *cb,
                                    ph_transform xb, float margin, ph_gjk_cache *cache, ph_manifold *m)
{
    (void)cache;
    const ph_vec3 *v = cb->tri;
    ph_vec3 p = glms_quat_rotatev(glms_quat_conjugate(xb.q), glms_vec3_sub(xa.p, xb.p));
    ph_vec3 n = glms_vec3_cross(glms_vec3_sub(v[1], v[0]), glms_vec3_sub(v[2], v[0]));
    float len = glms_vec3_norm(n);
    if (!(len > 0.0f))
    {
        collide_single(ca, xa, cb, xb, margin, cache, m); // a sliver: GJK copes with the segment it is
        return;
    }
    n = glms_vec3_scale(n, 1.0f / len);
    float dist = glms_vec3_dot(n, glms_vec3_sub(p, v[0]));
    ph_vec3 q = glms_vec3_sub(p, glms_vec3_scale(n, dist)); // the centre on the plane
    bool inside = true;
    for (int k = 0; k < 3 && inside; k++)
    {
        ph_vec3 e = glms_vec3_sub(v[(k + 1) % 3], v[k]);
        inside = glms_vec3_dot(glms_vec3_cross(e, glms_vec3_sub(q, v[k])), n) >= 0.0f;
    }
    ph_vec3 closest = q; // the triangle's closest point (triangle frame)
    ph_vec3 out;         // unit, from the triangle towards the sphere's centre (triangle frame)
    float sep;
    if (inside)
    {
        sep = fabsf(dist) - ca->radius;
        out = dist >= 0.0f ? n : glms_vec3_negate(n);
    }
    else
    {
        float best = FLT_MAX;
        for (int k = 0; k < 3; k++)
        {
            ph_vec3 e = glms_vec3_sub(v[(k + 1) % 3], v[k]);
            float t = glm_clamp(glms_vec3_dot(glms_vec3_sub(p, v[k]), e) / glms_vec3_dot(e, e), 0.0f, 1.0f);
            ph_vec3 c = glms_vec3_add(v[k], glms_vec3_scale(e, t));
            float d2 = glms_vec3_norm2(glms_vec3_sub(p, c));
            if (d2 < best)
            {
                best = d2;
                closest = c;
            }
        }
        ph_vec3 d = glms_vec3_sub(p, closest);
        sep = sqrtf(best) - ca->radius;
        out = ph_safe_normalize(d, dist >= 0.0f ? n : glms_vec3_negate(n));
    }
    if (sep > margin)
        return;
    ph_vec3 nw = glms_vec3_negate(glms_quat_rotatev(xb.q, out)); // A (sphere) to B (triangle)
    ph_vec3 pa = glms_vec3_add(xa.p, glms_vec3_scale(nw, ca->radius));
    ph_vec3 pb = ph_transform_point(xb, closest);
    single_point(m, pa, pb, nw, sep, ID_SINGLE);
}

static void collide_capsules(const ph_convex *ca, ph_transform xa, const ph_convex *cb, ph_transform xb,
                             float margin, ph_gjk_cache *cache, ph_manifold *m)
{
    (void)cache;
    ph_vec3 ua = glms_quat_rotatev(xa.q, ph_v3(0.0f, ca->half_height, 0.0f));
    ph_vec3 ub = glms_quat_rotatev(xb.q, ph_v3(0.0f, cb->half_height, 0.0f));
    ph_vec3 p0 = glms_vec3_sub(xa.p, ua), p1 = glms_vec3_add(xa.p, ua);
    ph_vec3 q0 = glms_vec3_sub(xb.p, ub), q1 = glms_vec3_add(xb.p, ub);
    float rounding = ca->radius + cb->radius;
    ph_vec3 cp, cq;
    closest_segments(p0, p1, q0, q1, &cp, &cq);
    ph_vec3 d = glms_vec3_sub(cq, cp);
    float dist = glms_vec3_norm(d);
    if (dist - rounding > margin)
        return;
    ph_vec3 n;
    float size = glm_max(ca->half_height + ca->radius, cb->half_height + cb->radius);
    if (dist > SAT_GAP_TOLERANCE * size)
    {
        n = glms_vec3_scale(d, 1.0f / dist);
    }
    else
    {
        // Cores cross: the normal is across both axes, turned from A towards B.
        n = ph_safe_normalize(glms_vec3_cross(ua, ub), ph_v3(0.0f, 0.0f, 0.0f));
        if (glms_vec3_norm2(n) == 0.0f)
        {
            ph_vec3 axis = ph_safe_normalize(ua, ph_v3(0.0f, 1.0f, 0.0f));
            n = ph_safe_normalize(
                glms_vec3_cross(axis, fabsf(axis.x) < 0.57f ? ph_v3(1, 0, 0) : ph_v3(0, 1, 0)),
                ph_v3(0.0f, 0.0f, 1.0f));
        }
        if (glms_vec3_dot(n, glms_vec3_sub(xb.p, xa.p)) < 0.0f)
            n = glms_vec3_negate(n);
    }
    m->normal = n;
    // Nearly parallel axes that overlap along their length: two points at the ends of the overlap.
    float la = glms_vec3_norm(ua), lb = glms_vec3_norm(ub);
    ph_vec3 cross = glms_vec3_cross(ua, ub);
    if (la > 0.0f && lb > 0.0f && glms_vec3_norm(cross) <= PARALLEL_SIN * la * lb)
    {
        ph_vec3 axis = glms_vec3_scale(ua, 1.0f / la);
        float t0 = glms_vec3_dot(glms_vec3_sub(q0, xa.p), axis),
              t1 = glms_vec3_dot(glms_vec3_sub(q1, xa.p), axis);
        float lo = glm_max(-la, glm_min(t0, t1)), hi = glm_min(la, glm_max(t0, t1));
        if (hi > lo)
        {
            float ts[2] = {lo, hi};
            for (int k = 0; k < 2; k++)
            {
                ph_vec3 p = glms_vec3_add(xa.p, glms_vec3_scale(axis, ts[k]));
                ph_vec3 pq, qq;
                closest_segments(p, p, q0, q1, &pq, &qq);
                float s = glms_vec3_dot(glms_vec3_sub(qq, p), n) - rounding;
                if (s <= margin)
                {
                    ph_vec3 sa = glms_vec3_add(p, glms_vec3_scale(n, ca->radius));
                    ph_vec3 sb = glms_vec3_sub(qq, glms_vec3_scale(n, cb->radius));
                    add_point(m, glms_vec3_scale(glms_vec3_add(sa, sb), 0.5f), s,
                              ID_SINGLE | (uint32_t)(2 + k));
                }
            }
            if (m->point_count > 0)
                return;
        }
    }
    ph_vec3 sa = glms_vec3_add(cp, glms_vec3_scale(n, ca->radius));
    ph_vec3 sb = glms_vec3_sub(cq, glms_vec3_scale(n, cb->radius));
    single_point(m, sa, sb, n, dist - rounding, ID_SINGLE);
}

// The points of a capsule (A) on face `face` of polyhedron view b (posed by xb): the capsule's segment
// clipped against the face's side planes, each end kept when within the margin of the face's plane. The
// normal is the face's, turned to point from A to B. Returns the number of points (0: the segment misses the
// face's prism).
static int capsule_face_points(const ph_convex *ca, ph_transform xa, const poly_view *b, int face,
                               ph_transform xb, float margin, ph_manifold *out)
{
    memset(out, 0, sizeof *out);
    const ph_hull_face *rf = &b->faces[face];
    rel_pose rel = rel_between(xb, xa); // capsule in B's frame
    ph_vec3 p0 = rel_apply(&rel, ph_v3(0.0f, -ca->half_height, 0.0f));
    ph_vec3 p1 = rel_apply(&rel, ph_v3(0.0f, ca->half_height, 0.0f));
    // Clip the segment's parameter range against the face's side planes; each end remembers the side
    // that cut it (or none) for its feature id.
    float t[2] = {0.0f, 1.0f};
    int cut[2] = {-1, -1};
    const int *loop = b->face_indices + rf->first_index;
    for (int k = 0; k < rf->index_count; k++)
    {
        ph_vec3 v0 = b->verts[loop[k]], v1 = b->verts[loop[(k + 1) % rf->index_count]];
        ph_vec3 side = glms_vec3_cross(glms_vec3_sub(v1, v0), rf->normal);
        float off = glms_vec3_dot(side, v0);
        float d0 = glms_vec3_dot(side, p0) - off, d1 = glms_vec3_dot(side, p1) - off;
        if (d0 > 0.0f && d1 > 0.0f)
            return 0;
        if (d0 > 0.0f && d0 / (d0 - d1) > t[0])
        {
            t[0] = d0 / (d0 - d1);
            cut[0] = k;
        }
        else if (d1 > 0.0f && d0 / (d0 - d1) < t[1])
        {
            t[1] = d0 / (d0 - d1);
            cut[1] = k;
        }
    }
    out->normal = glms_quat_rotatev(xb.q, glms_vec3_negate(rf->normal));
    int ends = t[1] - t[0] > 0.0f ? 2 : 1;
    for (int i = 0; i < ends && t[0] <= t[1]; i++)
    {
        ph_vec3 p = glms_vec3_add(p0, glms_vec3_scale(glms_vec3_sub(p1, p0), t[i]));
        float s = glms_vec3_dot(rf->normal, p) - rf->offset - ca->radius;
        if (s > margin)
            continue;
        ph_vec3 mid = glms_vec3_sub(p, glms_vec3_scale(rf->normal, ca->radius + 0.5f * s));
        uint32_t id = ID_SINGLE | CAPSULE_END_ID | (uint32_t)i | ((uint32_t)(cut[i] + 1) << 1);
        add_point(out, ph_transform_point(xb, mid), s, id);
    }
    return out->point_count;
}

// A capsule (A) against a polyhedron (B). When B has a face aligned with the contact normal, the capsule's
// segment is clipped against that face's side planes: a capsule lying on a face gets two points; a
// tilted one keeps only the end within the margin.
static void collide_capsule_polyhedron(const ph_convex *ca, ph_transform xa, const ph_convex *cb,
                                       ph_transform xb, float margin, ph_gjk_cache *cache, ph_manifold *m)
{
    rounded_result r = rounded_query(ca, xa, cb, xb, margin, cache);
    if (!r.contact)
        return;
    poly_view b;
    if (view_init(&b, cb))
    {
        // B's face whose outward normal is closest to -normal.
        ph_vec3 nb = glms_quat_rotatev(glms_quat_conjugate(xb.q), glms_vec3_negate(r.normal));
        int face = -1;
        float best = FACE_ALIGN_COS;
        for (int f = 0; f < b.face_count; f++)
        {
            float d = glms_vec3_dot(b.faces[f].normal, nb);
            if (d >= best)
            {
                best = d;
                face = f;
            }
        }
        ph_manifold tmp;
        if (face >= 0 && capsule_face_points(ca, xa, &b, face, xb, margin, &tmp) > 0)
        {
            *m = tmp;
            return;
        }
    }
    single_point(m, r.pa, r.pb, r.normal, r.sep, ID_SINGLE);
}

// A point counts as inside the triangle's prism when it is outside no side plane by more than this fraction
// of the triangle's size: the clipped points lie on the side planes to float rounding, while the fallback
// point of face_contact (the deepest vertex of a shape that overlaps the prism nowhere) lies a visible
// distance outside, beyond an edge whose neighbour makes that contact itself.
static const float PRISM_TOLERANCE = 1e-5f;

// Point p (world) in the frame of transform x.
static ph_vec3 to_local(ph_transform x, ph_vec3 p)
{
    return glms_quat_rotatev(glms_quat_conjugate(x.q), glms_vec3_sub(p, x.p));
}

// Whether local point p (triangle view t's frame) projects into the triangle (within PRISM_TOLERANCE).
static bool in_prism(const poly_view *t, ph_vec3 p)
{
    ph_vec3 n = t->faces[0].normal;
    float tol = PRISM_TOLERANCE * view_extent(t);
    for (int k = 0; k < 3; k++)
    {
        ph_vec3 v0 = t->verts[k], v1 = t->verts[(k + 1) % 3];
        ph_vec3 side = glms_vec3_normalize(glms_vec3_cross(glms_vec3_sub(v1, v0), n));
        if (glms_vec3_dot(side, glms_vec3_sub(p, v0)) > tol)
            return false;
    }
    return true;
}

// The contact of `shape` (A, posed by xs) with one face of triangle `tri` (B, posed by xt), the normal being
// that face's: the winding normal (counter-clockwise side), or its opposite when back is set. The points are
// the shape's part facing the triangle (a polyhedron's most anti-parallel face, a capsule's segment, a
// sphere's centre) clipped to the triangle's prism, with separations along the face normal; a shape beside
// the prism gets none (the neighbouring triangles make that contact). out->normal points from A to B.
static void triangle_face_contact(const ph_convex *shape, ph_transform xs, const ph_convex *tri,
                                  ph_transform xt, bool back, float margin, ph_manifold *out)
{
    memset(out, 0, sizeof *out);
    out->normal = ph_v3(0.0f, 1.0f, 0.0f);
    poly_view t;
    if (!view_init(&t, tri))
        return; // a sliver: no face to speak of
    int face = back ? 1 : 0;
    ph_vec3 n = t.faces[face].normal;
    if (shape->type == PH_SHAPE_CAPSULE)
    {
        capsule_face_points(shape, xs, &t, face, xt, margin, out);
        return;
    }
    if (shape->type == PH_SHAPE_SPHERE)
    {
        ph_vec3 c = to_local(xt, xs.p);
        float s = glms_vec3_dot(n, c) - t.faces[face].offset - shape->radius;
        if (s > margin || !in_prism(&t, c))
            return;
        ph_vec3 mid = glms_vec3_sub(c, glms_vec3_scale(n, shape->radius + 0.5f * s));
        out->normal = glms_quat_rotatev(xt.q, glms_vec3_negate(n));
        add_point(out, ph_transform_point(xt, mid), s, ID_SINGLE);
        return;
    }
    poly_view v;
    if (!view_init(&v, shape))
        return;
    rel_pose rel = rel_between(xt, xs); // the shape in the triangle's frame
    ph_manifold m;
    memset(&m, 0, sizeof m);
    face_contact(&t, &v, &rel, face, xt, true, margin, &m);
    out->normal = m.normal;
    for (int i = 0; i < m.point_count; i++)
        if (in_prism(&t, to_local(xt, m.points[i].point)))
            out->points[out->point_count++] = m.points[i];
}

// ---- Internal edges of meshes -----------------------------------------------------------------------------
// A mesh triangle knows the angle at which each neighbour leaves its plane (ph_convex tri_shared, tri_bend,
// from mesh.c). The contact of a body with one triangle is made as if the triangle were alone, so where the
// body slides over a seam its leading face meets the next triangle's edge and SAT or GJK report that edge's
// or the body's side as the normal: the body trips on a flat floor. The fix follows Box2D's smooth segments,
// Box3D's triangle edge flags and Jolt's active edges: a contact whose normal is not the triangle's face
// normal is kept only where it touches a real edge (a border, or one whose neighbour is not coplanar) and its
// normal lies in that edge's normal cone, between the two faces' normals (so on the side from which the edge
// is convex). Any other is the face's: rebuilt against the face, as a plane would make it, and left to the
// neighbours where the body is not over this triangle. Face contacts need care too where the mesh is not
// flat: one that touches the face only at rims concave from the body's side (the body outside the wedge the
// two faces make) or only at corners where other triangles' real edges end is dropped, the triangles that own
// those edges making the contact; and a point on a flat seam, which both triangles make, is kept by one.

// A neighbour within PH_TRIANGLE_FLAT_ANGLE of the triangle's plane hides the shared edge from both sides.
static const float FLAT_EDGE_ANGLE = PH_TRIANGLE_FLAT_ANGLE;
// A contact normal within this cosine of the triangle's face normal (0.8 degree) is the face's, kept as made.
static const float FACE_NORMAL_COS = 0.9999f;
// A contact point is at an edge when its place on the triangle lies inside the edge by no more than this
// fraction of the triangle's longest edge: points at an edge lie on it to float rounding (clip points) or to
// GJK's tolerance (closest points), far below this.
static const float EDGE_TOUCH_RATIO = 1e-3f;
// The widest band about a seam in which a point is taken for a twin of the neighbour's (unit: m).
static const float SEAM_TWIN_TOUCH = 1e-3f;
// A normal is in an edge's cone when it points out of both triangles at the edge to within this cosine (0.06
// degree): either face normal lies on the cone's boundary, where rounding puts the product either side of 0.
static const float EDGE_CONE_TOLERANCE = 1e-3f;

// An interior point of the shape in its frame: which side of a triangle the shape is on.
static ph_vec3 shape_center(const ph_convex *s)
{
    if (s->type == PH_SHAPE_HULL)
        return s->hull->centroid;
    if (s->type == PH_SHAPE_TRIANGLE)
        return glms_vec3_scale(glms_vec3_add(glms_vec3_add(s->tri[0], s->tri[1]), s->tri[2]), 1.0f / 3.0f);
    return glms_vec3_zero();
}

// Whether edge k of triangle t can be a real edge: a border, or a neighbour that leaves the triangle's plane
// by more than the flat angle. Whether a contact there is the edge's is the normal cone's to say, which tells
// a convex edge (a cone on the body's side) from a concave one (the cone on the other side) whichever side
// the body is on: a body straddling the plane of a closed mesh's side (a box sliding off a table, its front
// over the table's side) is on the inside of that side while it touches the side's top edge from above.
static bool edge_is_real(const ph_convex *t, int k)
{
    return !(t->tri_shared & (1u << k)) || fabsf(t->tri_bend[k]) > FLAT_EDGE_ANGLE;
}

// Whether mesh-space point a comes before b (x, then y, then z).
static bool before(ph_vec3 a, ph_vec3 b)
{
    return a.x != b.x ? a.x < b.x : a.y != b.y ? a.y < b.y : a.z < b.z;
}

// Both triangles at a flat seam clip a body's face or segment at the seam and each makes a point there: one
// point counted twice, which moves the centre of pressure wherever the seams cross under the body (a box
// sliding across seams turns about the vertical, a rolling capsule rocks). The point is kept by one of the
// two only: the one along whose winding the seam runs from its lesser corner to the greater (neighbours wound
// alike run it in opposite directions).
static void drop_seam_twins(const ph_convex *tri, const ph_vec3 *v, const ph_vec3 *out, ph_vec3 ct,
                            float touch, unsigned flat, ph_manifold *m)
{
    int kept = 0;
    for (int i = 0; i < m->point_count; i++)
    {
        const ph_manifold_point *p = &m->points[i];
        ph_vec3 on_tri = glms_vec3_sub(p->point, glms_vec3_scale(ct, 0.5f * p->separation));
        int edges = 0, edge = -1;
        for (int k = 0; k < 3; k++)
            if (glms_vec3_dot(glms_vec3_sub(on_tri, v[k]), out[k]) >= -touch)
            {
                edges++;
                edge = k;
            }
        bool twin = edges == 1 && (flat & (1u << edge)) && (tri->tri_shared & (1u << edge)) &&
                    !before(tri->tri[edge], tri->tri[(edge + 1) % 3]);
        if (!twin)
            m->points[kept++] = *p;
    }
    m->point_count = kept;
}

// Corrects manifold m of mesh triangle tri (posed by xt) and shape `other` (posed by xo), tri being A when
// tri_is_a: see above.
static void smooth_triangle_contact(const ph_convex *tri, ph_transform xt, const ph_convex *other,
                                    ph_transform xo, bool tri_is_a, float margin, ph_manifold *m)
{
    if (m->point_count == 0)
        return;
    ph_vec3 v[3];
    for (int i = 0; i < 3; i++)
        v[i] = ph_transform_point(xt, tri->tri[i]);
    ph_vec3 n = ph_safe_normalize(glms_vec3_cross(glms_vec3_sub(v[1], v[0]), glms_vec3_sub(v[2], v[0])),
                                  glms_vec3_zero());
    if (glms_vec3_norm2(n) == 0.0f)
        return;
    // ct: the contact normal from the triangle towards the body.
    ph_vec3 ct = tri_is_a ? m->normal : glms_vec3_negate(m->normal);
    bool face = fabsf(glms_vec3_dot(ct, n)) >= FACE_NORMAL_COS;
    float longest = 0.0f;
    for (int k = 0; k < 3; k++)
        longest = glm_max(longest, glms_vec3_distance(v[k], v[(k + 1) % 3]));
    float touch = EDGE_TOUCH_RATIO * longest;
    // Edge k holds normal ct when it is a real edge and ct lies in its normal cone: ct points out of the
    // triangle across it and, unless it is a border, not into the neighbour, which leaves the edge in
    // direction into = cos(phi) out + sin(phi) n. The cone lies on the side from which the edge is convex.
    // From the other side the edge is concave, and a face normal there is the face's only for a body inside
    // the wedge the two faces make: on the inner side of the neighbour's plane, whose normal there is
    // -sin(phi) out + cos(phi) n on the side of n (negated on the other).
    ph_vec3 out[3];
    unsigned holds = 0u, wedge = 0u;
    bool back = glms_vec3_dot(ct, n) < 0.0f;
    ph_vec3 centre = ph_transform_point(xo, shape_center(other));
    for (int k = 0; k < 3; k++)
    {
        out[k] = glms_vec3_normalize(glms_vec3_cross(glms_vec3_sub(v[(k + 1) % 3], v[k]), n));
        if (!edge_is_real(tri, k))
            continue;
        float phi = tri->tri_bend[k], c = cosf(phi), sn = sinf(phi);
        ph_vec3 into = glms_vec3_add(glms_vec3_scale(out[k], c), glms_vec3_scale(n, sn));
        if (glms_vec3_dot(ct, out[k]) >= -EDGE_CONE_TOLERANCE &&
            (!(tri->tri_shared & (1u << k)) || glms_vec3_dot(ct, into) <= EDGE_CONE_TOLERANCE))
            holds |= 1u << k;
        ph_vec3 inner = glms_vec3_add(glms_vec3_scale(out[k], -sn), glms_vec3_scale(n, c));
        if (back)
            inner = glms_vec3_negate(inner);
        if ((tri->tri_shared & (1u << k)) && glms_vec3_dot(glms_vec3_sub(centre, v[k]), inner) >= 0.0f)
            wedge |= 1u << k;
    }
    unsigned flat = 0u;
    for (int k = 0; k < 3; k++)
        if (!edge_is_real(tri, k))
            flat |= 1u << k;
    // Each point's place on the triangle (its midpoint moved back by half the separation along the normal) is
    // at edge k when inside it by less than the tolerance, or beyond it (a vertex is at both its edges). A
    // face normal is supported by a point inside the face, or at edges that are flat seams, hold it, or are
    // concave with the body in their wedge, unless it is a corner between flat seams where another triangle's
    // real edge ends (its own edges cannot tell from which side the body comes); another normal by a point at
    // an edge that holds it.
    bool supported = false, at_rim = true;
    for (int i = 0; i < m->point_count && !supported; i++)
    {
        const ph_manifold_point *p = &m->points[i];
        ph_vec3 on_tri = glms_vec3_sub(p->point, glms_vec3_scale(ct, 0.5f * p->separation));
        unsigned here = 0u;
        for (int k = 0; k < 3; k++)
            if (glms_vec3_dot(glms_vec3_sub(on_tri, v[k]), out[k]) >= -touch)
                here |= 1u << k;
        bool rim_corner = false; // at a corner between flat seams where another triangle's real edge ends
        for (int k = 0; k < 3; k++)
        {
            unsigned corner_edges = (1u << k) | (1u << ((k + 2) % 3)); // the edges that meet at corner k
            if ((here & corner_edges) == corner_edges && (flat & corner_edges) == corner_edges &&
                (tri->tri_rim & (1u << k)))
                rim_corner = true;
        }
        at_rim = at_rim && rim_corner;
        if (face)
            supported = (here & ~(holds | flat | (wedge & ~holds))) == 0u && !rim_corner;
        else
            supported = (here & holds) != 0u;
    }
    if (supported)
    {
        if (face)
        {
            // A twin lies on the seam to rounding, however wide the triangles: the ratio's band is 28 m
            // wide at the vertex limit (issue 24, defect 11), where it took the only point of a body on
            // one triangle up to metres from the seam for a twin the neighbour never made, and the body
            // fell through. The band is at most SEAM_TWIN_TOUCH, or 16 ulps of the coordinates beyond.
            float reach = fmaxf(fmaxf(fabsf(v[0].x), fabsf(v[0].y)), fabsf(v[0].z));
            for (int k = 1; k < 3; k++)
                reach = fmaxf(reach, fmaxf(fmaxf(fabsf(v[k].x), fabsf(v[k].y)), fabsf(v[k].z)));
            float twin_touch = fminf(touch, fmaxf(SEAM_TWIN_TOUCH, 16.0f * FLT_EPSILON * reach));
            drop_seam_twins(tri, v, out, ct, twin_touch, flat, m);
        }
        return;
    }
    if (face || at_rim)
    {
        // A face normal only at edges concave from the body's side: the body touches the face's rim from the
        // side its neighbour covers (a box on a table, its front flush with the table's side, touches the
        // side's top edge with the side's inner face). The neighbour's face holds the body. And a contact
        // only at corners where other triangles' real edges end is theirs to make (a box sliding off a table
        // touches the corners of the side's triangles; the triangles along the table's edge hold it).
        m->point_count = 0;
        return;
    }
    // The face on the body's side (its interior point's: a tilted sideways normal says nothing reliable).
    triangle_face_contact(other, xo, tri, xt, glms_vec3_dot(glms_vec3_sub(centre, v[0]), n) < 0.0f, margin,
                          m);
    if (tri_is_a)
        m->normal = glms_vec3_negate(m->normal);
}

// ---- Dispatch -------------------------------------------------------------------------------------------

typedef void collide_fn(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                        float margin, ph_gjk_cache *cache, ph_manifold *m);

typedef struct collide_entry
{
    collide_fn *fn;
    bool flip; // call fn(b, a) and turn the normal around
} collide_entry;

// Rows: A's type, columns: B's type, in ph_shape_type order (sphere, capsule, box, hull, triangle).
// Compound and mesh are not convex: the world splits them into children before the narrow phase.
static const collide_entry COLLIDE_TABLE[PH_SHAPE_COUNT][PH_SHAPE_COUNT] = {
    [PH_SHAPE_SPHERE] = {{collide_spheres, false},
                         {collide_single, false},
                         {collide_sphere_box, false},
                         {collide_single, false},
                         {collide_sphere_triangle, false}},
    [PH_SHAPE_CAPSULE] = {{collide_single, true},
                          {collide_capsules, false},
                          {collide_capsule_polyhedron, false},
                          {collide_capsule_polyhedron, false},
                          {collide_capsule_polyhedron, false}},
    [PH_SHAPE_BOX] = {{collide_sphere_box, true},
                      {collide_capsule_polyhedron, true},
                      {collide_polyhedra, false},
                      {collide_polyhedra, false},
                      {collide_polyhedra, false}},
    [PH_SHAPE_HULL] = {{collide_single, true},
                       {collide_capsule_polyhedron, true},
                       {collide_polyhedra, false},
                       {collide_polyhedra, false},
                       {collide_polyhedra, false}},
    [PH_SHAPE_TRIANGLE] = {{collide_sphere_triangle, true},
                           {collide_capsule_polyhedron, true},
                           {collide_polyhedra, false},
                           {collide_polyhedra, false},
                           {collide_polyhedra, false}},
};

// Runs fn for the mirrored pair (B, A) and turns its normal around.
static void collide_flipped(collide_fn *fn, const ph_convex *a, ph_transform xa, const ph_convex *b,
                            ph_transform xb, float margin, ph_gjk_cache *cache, ph_manifold *out)
{
    // The cache holds the simplex of B - A; the mirrored call works on A - B, so its vertices swap sides.
    ph_gjk_cache mirrored;
    if (cache)
    {
        mirrored.simplex.count = cache->simplex.count;
        for (int i = 0; i < cache->simplex.count && i < 4; i++)
        {
            mirrored.simplex.v[i].local_a = cache->simplex.v[i].local_b;
            mirrored.simplex.v[i].local_b = cache->simplex.v[i].local_a;
            mirrored.simplex.v[i].w = glms_vec3_negate(cache->simplex.v[i].w);
        }
    }
    fn(b, xb, a, xa, margin, cache ? &mirrored : NULL, out);
    out->normal = glms_vec3_negate(out->normal);
    if (cache)
    {
        cache->simplex.count = mirrored.simplex.count;
        for (int i = 0; i < mirrored.simplex.count && i < 4; i++)
        {
            cache->simplex.v[i].local_a = mirrored.simplex.v[i].local_b;
            cache->simplex.v[i].local_b = mirrored.simplex.v[i].local_a;
            cache->simplex.v[i].w = glms_vec3_negate(mirrored.simplex.v[i].w);
        }
    }
}

void ph_collide_convex(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb, float margin,
                       ph_gjk_cache *cache, ph_manifold *out)
{
    if (!out)
        return;
    out->point_count = 0;
    out->normal = ph_v3(0.0f, 1.0f, 0.0f);
    if (!ph_convex_is_valid(a) || !ph_convex_is_valid(b) || !ph_transform_is_valid(xa) ||
        !ph_transform_is_valid(xb) || !ph_is_finite_float(margin) || margin < 0.0f)
        return;
    const collide_entry *e = &COLLIDE_TABLE[a->type][b->type];
    if (!e->fn)
        return;
    if (!e->flip)
        e->fn(a, xa, b, xb, margin, cache, out);
    else
        collide_flipped(e->fn, a, xa, b, xb, margin, cache, out);
    if (a->type == PH_SHAPE_TRIANGLE && a->tri_shared)
        smooth_triangle_contact(a, xa, b, xb, true, margin, out);
    else if (b->type == PH_SHAPE_TRIANGLE && b->tri_shared)
        smooth_triangle_contact(b, xb, a, xa, false, margin, out);
}

// ---- Penetration ----------------------------------------------------------------------------------------

static ph_vec3 view_support_point(const poly_view *v, ph_vec3 d)
{
    return view_vertex(v, view_support(v, d, NULL));
}

// Witness points and normal of SAT's deepest axis (A's frame; A's world rotation ra and position pa turn
// them to world). A face axis is met by the other shape's deepest vertex, projected on the face plane for
// the first shape's witness; an edge pair by the closest points of its two edges, which SAT's
// Minkowski-face pruning (or, for boxes, the supporting edges) puts inside both segments. Reads only the
// half extents of boxes.
static void sat_witness(const poly_view *a, const poly_view *b, const rel_pose *rel, const sat_result *s,
                        const ph_mat3 *ra, ph_vec3 pa_world, ph_epa_output *out)
{
    float depth = glm_max(-s->sep, 0.0f);
    ph_vec3 n, pa, pb;
    if (s->kind == SAT_EDGES)
    {
        n = s->axis;
        closest_segments(s->ea0, s->ea1, s->eb0, s->eb1, &pa, &pb);
    }
    else if (s->kind == SAT_FACE_A)
    {
        n = view_face_normal(a, s->index_a);
        pb = rel_apply(
            rel, view_support_point(b, glms_mat3_mulv(glms_mat3_transpose(rel->r), glms_vec3_negate(n))));
        pa = glms_vec3_add(pb, glms_vec3_scale(n, depth));
    }
    else
    {
        n = glms_vec3_negate(glms_mat3_mulv(rel->r, view_face_normal(b, s->index_b)));
        pa = view_support_point(a, n);
        pb = glms_vec3_sub(pa, glms_vec3_scale(n, depth));
    }
    out->status = PH_EPA_OK;
    out->depth = depth;
    out->normal = glms_mat3_mulv(*ra, n);
    out->point_a = glms_vec3_add(pa_world, glms_mat3_mulv(*ra, pa));
    out->point_b = glms_vec3_add(pa_world, glms_mat3_mulv(*ra, pb));
}

ph_epa_status ph_penetration(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                             ph_gjk_cache *cache, ph_epa_output *out)
{
    if (!out)
        return PH_EPA_DEGENERATE;
    memset(out, 0, sizeof *out);
    out->normal = ph_v3(0.0f, 1.0f, 0.0f);
    if (!ph_convex_is_valid(a) || !ph_convex_is_valid(b) || !ph_transform_is_valid(xa) ||
        !ph_transform_is_valid(xb))
    {
        out->status = PH_EPA_DEGENERATE;
        return out->status;
    }
    // Solid polyhedra with few edge pairs: SAT's largest separation over the face normals and the edge pairs
    // that form faces of the Minkowski difference is exactly the depth (triangles, having no inside, go to
    // EPA, which reports their flat cases). Two boxes need no vertex or face arrays: their views are the
    // half extents alone.
    poly_view va, vb;
    bool boxes = a->type == PH_SHAPE_BOX && b->type == PH_SHAPE_BOX;
    bool sat = false;
    if (boxes)
    {
        box_views(&va, a, &vb, b);
        sat = true;
    }
    else if ((a->type == PH_SHAPE_BOX || a->type == PH_SHAPE_HULL) &&
             (b->type == PH_SHAPE_BOX || b->type == PH_SHAPE_HULL))
    {
        sat = view_init(&va, a) && view_init(&vb, b) && va.edge_count * vb.edge_count <= SAT_EDGE_PAIR_BUDGET;
    }
    if (!sat)
        return ph_epa_penetration(a, xa, b, xb, cache && cache->simplex.count > 0 ? &cache->simplex : NULL,
                                  out);
    ph_mat3 ra = ph_quat_to_mat3(xa.q), ra_t = glms_mat3_transpose(ra);
    rel_pose rel;
    rel.r = glms_mat3_mul(ra_t, ph_quat_to_mat3(xb.q));
    rel.t = glms_mat3_mulv(ra_t, glms_vec3_sub(xb.p, xa.p));
    sat_result fa, fb, fe;
    bool overlap = boxes ? box_box_sat(va.half, vb.half, &rel, 0.0f, &fa, &fb, &fe)
                         : run_sat(&va, &vb, &rel, 0.0f, &fa, &fb, &fe);
    if (!overlap)
    {
        out->status = PH_EPA_SEPARATED;
        return out->status;
    }
    // An edge axis must beat the faces by more than rounding: parallel boxes have edge axes equal to face
    // axes, whose supporting "edges" do not meet.
    const sat_result *best = fa.sep >= fb.sep ? &fa : &fb;
    if (fe.sep > best->sep + PENETRATION_EDGE_BIAS * min_extent(&va, &vb))
        best = &fe;
    sat_witness(&va, &vb, &rel, best, &ra, xa.p, out);
    return out->status;
}
