// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Static triangle meshes (concave level geometry): validation, dropping of zero-area triangles, and a
// bounding-volume tree of axis-aligned boxes in one flat node array, queried by box (the narrow phase
// asks for the triangles near a body) and by ray (picking). The triangles themselves go to GJK/EPA and
// the manifold code as PH_SHAPE_TRIANGLE convex shapes.
//
// The tree splits at the object median along the longest axis of the triangles' centroids: O(n log^2 n)
// to build, always balanced (depth <= log2(n) + 1, which bounds the traversal stack), and within
// ~10-20% of a surface-area-heuristic tree on the ray and box queries of level geometry, which is
// built once at load time. The triangles are stored in tree order so that a leaf reads a contiguous
// run of indices.
//
// Internal edges. A body sliding over a flat mesh meets, at every seam, the edge of the next triangle, and a
// contact with that triangle alone cannot tell that the edge is hidden by a coplanar neighbour: its normal is
// the side of the body or the edge's, and the body trips ("ghost collisions"). At build time every edge is
// matched with the triangle across it (corners welded by position) and the angle at which that neighbour
// leaves the plane is stored; ph_mesh_triangle hands it to the narrow phase with the triangle (ph_convex
// tri_shared, tri_bend), which keeps a contact at an edge only when the edge is real from the body's side
// (manifold.c). The idea is Box2D's smooth segments (ghost vertices tell a segment which ends are real),
// Box3D's per-triangle edge flags and Jolt's active edges; precomputing the angle rather than a flag lets the
// narrow phase also test that a normal lies between the two faces' normals.
#include "core.h"
#include "shape.h"

#include "phys/collision.h"

#include <math.h>   // sqrtf, copysignf, atan2f, INFINITY
#include <stdlib.h> // qsort
#include <string.h> // memset, memcpy

// Marks a ph_mesh_def made by ph_default_mesh_def() ("MESH" in ASCII).
#define MESH_DEF_COOKIE 0x4D455348u

// Triangles per leaf: small leaves prune better, large ones make shallower trees; 4 is the usual
// balance for triangle tests that cost about as much as a box test.
#define MESH_LEAF_TRIANGLES 4

// A triangle whose height (over its longest edge) is below this fraction of its coordinates' magnitude
// is degenerate: its corners are collinear within float rounding (about 6e-8 of the coordinates, so
// this is ~16 rounding steps) and its normal is noise. Such triangles are dropped.
#define MESH_DEGENERATE_RATIO 1e-6f

// Directions shorter than this cannot be normalised reliably and are rejected (unit: m).
#define MESH_MIN_DIRECTION_LENGTH 1e-12f

// Depth bound of the traversal stack: the median-split tree over at most PH_MESH_MAX_TRIANGLES (2^22)
// triangles is at most 23 levels deep, and a depth-first walk keeps at most one pending sibling per
// level.
#define MESH_STACK_SIZE 64

typedef struct mesh_node
{
    ph_aabb box;
    int first; // leaf: first triangle (tree order); inner: index of the left child, the right is next
    int count; // leaf: number of triangles (> 0); inner: 0
} mesh_node;

struct ph_mesh
{
    int vertex_count;
    ph_vec3 *vertices;
    int triangle_count;
    int *indices;     // 3 per triangle, in tree order
    float *bends;     // 3 per triangle: the neighbour's angle out of the plane at edge k (ph_convex tri_bend)
    unsigned *shared; // per triangle: bit k set when edge k has exactly one neighbour (ph_convex tri_shared)
    unsigned *rim;    // per triangle: bit k set when corner k lies on a real edge (ph_convex tri_rim)
    int node_count;
    int node_capacity;
    mesh_node *nodes; // nodes[0] is the root
};

ph_mesh_def ph_default_mesh_def(void)
{
    ph_mesh_def def;
    memset(&def, 0, sizeof def);
    def.internal_cookie = MESH_DEF_COOKIE;
    return def;
}

void ph_mesh_free(ph_mesh *mesh)
{
    if (!mesh)
        return;
    ph_free(mesh->vertices, sizeof(ph_vec3) * (size_t)mesh->vertex_count);
    ph_free(mesh->indices, sizeof(int) * 3 * (size_t)mesh->triangle_count);
    ph_free(mesh->bends, sizeof(float) * 3 * (size_t)mesh->triangle_count);
    ph_free(mesh->shared, sizeof(unsigned) * (size_t)mesh->triangle_count);
    ph_free(mesh->rim, sizeof(unsigned) * (size_t)mesh->triangle_count);
    ph_free(mesh->nodes, sizeof(mesh_node) * (size_t)mesh->node_capacity);
    ph_free(mesh, sizeof(ph_mesh));
}

static ph_aabb triangle_box(const ph_vec3 *v, const int *tri)
{
    ph_aabb b;
    b.lo = glms_vec3_minv(glms_vec3_minv(v[tri[0]], v[tri[1]]), v[tri[2]]);
    b.hi = glms_vec3_maxv(glms_vec3_maxv(v[tri[0]], v[tri[1]]), v[tri[2]]);
    return b;
}

static ph_aabb box_union(ph_aabb a, ph_aabb b)
{
    ph_aabb r;
    r.lo = glms_vec3_minv(a.lo, b.lo);
    r.hi = glms_vec3_maxv(a.hi, b.hi);
    return r;
}

// ---- Tree building ---------------------------------------------------------------------------------

// A triangle during the build: its centroid key on the split axis, its box and its input position.
typedef struct build_item
{
    float key;
    int tri;
    ph_aabb box;
    ph_vec3 centroid;
} build_item;

static int compare_key(const void *a, const void *b)
{
    const build_item *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->tri > y->tri) - (x->tri < y->tri); // deterministic order for equal keys
}

// Builds the subtree of items[first, first + count) into node index `at`. Children are appended to
// the node array; the median split halves the count, so the recursion depth is log2(n) + 1.
static void build_node(ph_mesh *mesh, build_item *items, int at, int first, int count)
{
    mesh_node *node = &mesh->nodes[at];
    ph_aabb box = items[first].box;
    ph_vec3 clo = items[first].centroid, chi = clo;
    for (int i = first + 1; i < first + count; i++)
    {
        box = box_union(box, items[i].box);
        clo = glms_vec3_minv(clo, items[i].centroid);
        chi = glms_vec3_maxv(chi, items[i].centroid);
    }
    node->box = box;
    if (count <= MESH_LEAF_TRIANGLES)
    {
        node->first = first;
        node->count = count;
        return;
    }
    ph_vec3 size = glms_vec3_sub(chi, clo);
    int axis = size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
    for (int i = first; i < first + count; i++)
        items[i].key = items[i].centroid.raw[axis];
    qsort(items + first, (size_t)count, sizeof(build_item), compare_key);
    int left = mesh->node_count;
    mesh->node_count += 2;
    node->first = left;
    node->count = 0;
    int half = count / 2;
    build_node(mesh, items, left, first, half);
    build_node(mesh, items, left + 1, first + half, count - half);
}

// ---- Edge adjacency ----------------------------------------------------------------------------------

// A vertex during welding: corners at the same position are one vertex, whatever their indices.
typedef struct weld_item
{
    ph_vec3 p;
    int index;
} weld_item;

static int compare_position(const void *a, const void *b)
{
    const weld_item *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x->p.raw[k] != y->p.raw[k])
            return x->p.raw[k] < y->p.raw[k] ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

// A triangle's edge keyed by its welded corners (lo < hi).
typedef struct edge_item
{
    int lo, hi;
    int tri, k;
} edge_item;

static int compare_edge(const void *a, const void *b)
{
    const edge_item *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    if (x->tri != y->tri)
        return x->tri < y->tri ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

// Corner i (0..2, wrapping) of triangle t.
static ph_vec3 corner(const ph_mesh *mesh, int t, int i)
{
    return mesh->vertices[mesh->indices[3 * t + i % 3]];
}

// The angle at which triangle u, sharing edge k of triangle t, leaves t's plane: in the plane across the
// edge, the direction from the edge into u measured from t's outward direction, positive towards t's winding
// normal. A coplanar neighbour gives 0; one that bends away from the front (a convex edge seen from the
// front, concave from the back) a negative angle.
static float edge_bend(const ph_mesh *mesh, int t, int k, int u)
{
    ph_vec3 a = corner(mesh, t, k), b = corner(mesh, t, k + 1), c = corner(mesh, t, k + 2);
    ph_vec3 e = glms_vec3_normalize(glms_vec3_sub(b, a));
    ph_vec3 n = glms_vec3_normalize(glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a)));
    ph_vec3 out = glms_vec3_cross(e, n);
    // u's corner off the shared edge is the one farthest from the edge's line (the other two lie on it).
    ph_vec3 into = glms_vec3_zero();
    for (int i = 0; i < 3; i++)
    {
        ph_vec3 r = glms_vec3_sub(corner(mesh, u, i), a);
        ph_vec3 d = glms_vec3_sub(r, glms_vec3_scale(e, glms_vec3_dot(r, e)));
        if (glms_vec3_norm2(d) > glms_vec3_norm2(into))
            into = d;
    }
    return atan2f(glms_vec3_dot(into, n), glms_vec3_dot(into, out));
}

// Fills mesh->shared and mesh->bends (triangles in tree order). Edges are matched by their welded corners: an
// edge of exactly two triangles is shared; one of a single triangle (a border) or of three or more (a
// non-manifold seam, which no single neighbour hides) stays a real edge. Kept triangles have area, so their
// normals and edge directions are well defined.
static ph_status build_adjacency(ph_mesh *mesh)
{
    int n = mesh->triangle_count, nv = mesh->vertex_count;
    weld_item *weld = ph_alloc(sizeof(weld_item) * (size_t)nv);
    int *canon = ph_alloc(sizeof(int) * (size_t)nv);
    edge_item *edges = ph_alloc(sizeof(edge_item) * 3 * (size_t)n);
    ph_status status = weld && canon && edges ? PH_OK : PH_ERR_OUT_OF_MEMORY;
    if (status == PH_OK)
    {
        for (int i = 0; i < nv; i++)
            weld[i] = (weld_item){mesh->vertices[i], i};
        qsort(weld, (size_t)nv, sizeof *weld, compare_position);
        for (int i = 0, first = 0; i < nv; i++)
        {
            if (!glms_vec3_eqv(weld[i].p, weld[first].p))
                first = i;
            canon[weld[i].index] = weld[first].index;
        }
        for (int t = 0; t < n; t++)
            for (int k = 0; k < 3; k++)
            {
                int p = canon[mesh->indices[3 * t + k]], q = canon[mesh->indices[3 * t + (k + 1) % 3]];
                edges[3 * t + k] = (edge_item){p < q ? p : q, p < q ? q : p, t, k};
            }
        qsort(edges, 3 * (size_t)n, sizeof *edges, compare_edge);
        memset(mesh->shared, 0, sizeof(unsigned) * (size_t)n);
        for (int i = 0; i < 3 * n; i++)
            mesh->bends[i] = 0.0f;
        for (int i = 0; i < 3 * n;)
        {
            int j = i + 1;
            while (j < 3 * n && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi)
                j++;
            if (j - i == 2)
                for (int e = i; e < j; e++)
                {
                    const edge_item *ed = &edges[e], *other = &edges[e == i ? i + 1 : i];
                    mesh->shared[ed->tri] |= 1u << ed->k;
                    mesh->bends[3 * ed->tri + ed->k] = edge_bend(mesh, ed->tri, ed->k, other->tri);
                }
            i = j;
        }
        // Corners on a real edge: the welded vertices of every border, non-manifold or folded edge (weld's
        // positions are free again; its index field now marks them).
        for (int v = 0; v < nv; v++)
            weld[v].index = 0;
        for (int t = 0; t < n; t++)
            for (int k = 0; k < 3; k++)
                if (!(mesh->shared[t] & (1u << k)) || fabsf(mesh->bends[3 * t + k]) > PH_TRIANGLE_FLAT_ANGLE)
                {
                    weld[canon[mesh->indices[3 * t + k]]].index = 1;
                    weld[canon[mesh->indices[3 * t + (k + 1) % 3]]].index = 1;
                }
        for (int t = 0; t < n; t++)
        {
            mesh->rim[t] = 0u;
            for (int k = 0; k < 3; k++)
                if (weld[canon[mesh->indices[3 * t + k]]].index)
                    mesh->rim[t] |= 1u << k;
        }
    }
    ph_free(weld, sizeof(weld_item) * (size_t)nv);
    ph_free(canon, sizeof(int) * (size_t)nv);
    ph_free(edges, sizeof(edge_item) * 3 * (size_t)n);
    return status;
}

ph_mesh *ph_mesh_build(const ph_mesh_def *def, ph_status *out_status)
{
    ph_status status = PH_OK;
    if (!def || def->internal_cookie != MESH_DEF_COOKIE)
    {
        ph_log(PH_LOG_ERROR, "ph_mesh_build: def not initialised with ph_default_mesh_def().");
        status = PH_ERR_INVALID_ARG;
    }
    else if (!def->vertices || def->vertex_count <= 0 || !def->indices || def->triangle_count <= 0)
    {
        ph_log(PH_LOG_ERROR,
               "ph_mesh_build: the def needs vertices and indices (vertex_count %d, "
               "triangle_count %d).",
               def->vertex_count, def->triangle_count);
        status = PH_ERR_INVALID_ARG;
    }
    else if (def->triangle_count > PH_MESH_MAX_TRIANGLES || def->vertex_count > 3 * PH_MESH_MAX_TRIANGLES)
    {
        ph_log(PH_LOG_ERROR, "ph_mesh_build: %d triangles over %d vertices exceed the limit of %d triangles.",
               def->triangle_count, def->vertex_count, PH_MESH_MAX_TRIANGLES);
        status = PH_ERR_CAPACITY;
    }
    for (int i = 0; status == PH_OK && i < def->vertex_count; i++)
    {
        if (!ph_is_finite_vec3(def->vertices[i]))
        {
            ph_log(PH_LOG_ERROR, "ph_mesh_build: vertices[%d] is not finite.", i);
            status = PH_ERR_INVALID_ARG;
        }
    }
    for (int i = 0; status == PH_OK && i < 3 * def->triangle_count; i++)
    {
        if (def->indices[i] < 0 || def->indices[i] >= def->vertex_count)
        {
            ph_log(PH_LOG_ERROR, "ph_mesh_build: indices[%d] = %d is outside [0, %d).", i, def->indices[i],
                   def->vertex_count);
            status = PH_ERR_INVALID_ARG;
        }
    }
    if (status != PH_OK)
    {
        if (out_status)
            *out_status = status;
        return NULL;
    }

    // Keep the triangles with area.
    const ph_vec3 *v = def->vertices;
    build_item *items = ph_alloc(sizeof(build_item) * (size_t)def->triangle_count);
    int kept = 0;
    if (!items)
        status = PH_ERR_OUT_OF_MEMORY;
    for (int t = 0; status == PH_OK && t < def->triangle_count; t++)
    {
        const int *tri = def->indices + 3 * t;
        ph_vec3 e0 = glms_vec3_sub(v[tri[1]], v[tri[0]]), e1 = glms_vec3_sub(v[tri[2]], v[tri[1]]);
        ph_vec3 e2 = glms_vec3_sub(v[tri[0]], v[tri[2]]);
        float longest =
            sqrtf(fmaxf(fmaxf(glms_vec3_dot(e0, e0), glms_vec3_dot(e1, e1)), glms_vec3_dot(e2, e2)));
        float magnitude = 0.0f;
        for (int k = 0; k < 3; k++)
            magnitude = fmaxf(magnitude, glms_vec3_max(glms_vec3_abs(v[tri[k]])));
        // Doubled area = longest edge * height.
        float doubled_area = glms_vec3_norm(glms_vec3_cross(e0, e1));
        if (!(doubled_area > MESH_DEGENERATE_RATIO * (magnitude + longest) * longest))
            continue;
        build_item *it = &items[kept++];
        it->tri = t;
        it->box = triangle_box(v, tri);
        it->centroid =
            glms_vec3_scale(glms_vec3_add(glms_vec3_add(v[tri[0]], v[tri[1]]), v[tri[2]]), 1.0f / 3.0f);
        it->key = 0.0f;
    }
    if (status == PH_OK && kept == 0)
    {
        ph_log(PH_LOG_ERROR, "ph_mesh_build: all %d triangles have zero area.", def->triangle_count);
        status = PH_ERR_DEGENERATE;
    }

    ph_mesh *mesh = NULL;
    if (status == PH_OK)
    {
        mesh = ph_alloc(sizeof(ph_mesh));
        if (mesh)
        {
            memset(mesh, 0, sizeof *mesh);
            mesh->vertex_count = def->vertex_count;
            mesh->triangle_count = kept;
            mesh->node_capacity = 2 * kept - 1;
            mesh->vertices = ph_alloc(sizeof(ph_vec3) * (size_t)mesh->vertex_count);
            mesh->indices = ph_alloc(sizeof(int) * 3 * (size_t)kept);
            mesh->bends = ph_alloc(sizeof(float) * 3 * (size_t)kept);
            mesh->shared = ph_alloc(sizeof(unsigned) * (size_t)kept);
            mesh->rim = ph_alloc(sizeof(unsigned) * (size_t)kept);
            mesh->nodes = ph_alloc(sizeof(mesh_node) * (size_t)mesh->node_capacity);
        }
        if (!mesh || !mesh->vertices || !mesh->indices || !mesh->bends || !mesh->shared || !mesh->rim ||
            !mesh->nodes)
            status = PH_ERR_OUT_OF_MEMORY;
    }
    if (status == PH_OK)
    {
        memcpy(mesh->vertices, def->vertices, sizeof(ph_vec3) * (size_t)mesh->vertex_count);
        mesh->node_count = 1;
        build_node(mesh, items, 0, 0, kept);
        PH_ASSERT(mesh->node_count <= mesh->node_capacity);
        for (int i = 0; i < kept; i++)
            memcpy(mesh->indices + 3 * i, def->indices + 3 * items[i].tri, 3 * sizeof(int));
        status = build_adjacency(mesh);
    }
    if (status != PH_OK)
    {
        ph_mesh_free(mesh);
        mesh = NULL;
    }
    ph_free(items, sizeof(build_item) * (size_t)def->triangle_count);
    if (out_status)
        *out_status = status;
    return mesh;
}

int ph_mesh_triangle_count(const ph_mesh *mesh)
{
    return mesh ? mesh->triangle_count : 0;
}

ph_aabb ph_mesh_bounds(const ph_mesh *mesh)
{
    if (!mesh)
    {
        ph_aabb empty;
        empty.lo = empty.hi = glms_vec3_zero();
        return empty;
    }
    return mesh->nodes[0].box;
}

ph_convex ph_mesh_triangle(const ph_mesh *mesh, int i)
{
    if (!mesh || i < 0 || i >= mesh->triangle_count)
        return ph_convex_triangle(glms_vec3_zero(), glms_vec3_zero(), glms_vec3_zero());
    const int *tri = mesh->indices + 3 * i;
    ph_convex t = ph_convex_triangle(mesh->vertices[tri[0]], mesh->vertices[tri[1]], mesh->vertices[tri[2]]);
    t.tri_shared = mesh->shared[i];
    t.tri_rim = mesh->rim[i];
    for (int k = 0; k < 3; k++)
        t.tri_bend[k] = mesh->bends[3 * i + k];
    return t;
}

void ph_mesh_query(const ph_mesh *mesh, ph_aabb box, ph_mesh_query_fn *fn, void *ctx)
{
    if (!mesh || !fn || !ph_is_finite_vec3(box.lo) || !ph_is_finite_vec3(box.hi))
        return;
    int stack[MESH_STACK_SIZE];
    int top = 0;
    stack[top++] = 0;
    while (top > 0)
    {
        const mesh_node *node = &mesh->nodes[stack[--top]];
        if (!ph_aabb_overlaps(&node->box, &box))
            continue;
        if (node->count > 0)
        {
            for (int i = node->first; i < node->first + node->count; i++)
            {
                ph_aabb tri = triangle_box(mesh->vertices, mesh->indices + 3 * i);
                if (ph_aabb_overlaps(&tri, &box) && !fn(i, ctx))
                    return;
            }
            continue;
        }
        PH_ASSERT(top + 2 <= MESH_STACK_SIZE);
        stack[top++] = node->first + 1;
        stack[top++] = node->first;
    }
}

bool ph_ray_cast_mesh(const ph_mesh *mesh, ph_transform xf, ph_vec3 origin, ph_vec3 dir, float max_distance,
                      ph_ray_hit *out)
{
    if (!mesh || !out || !ph_is_finite_vec3(origin) || !ph_is_finite_vec3(dir) || !ph_is_finite_vec3(xf.p) ||
        !ph_is_finite_quat(xf.q) || !(max_distance >= 0.0f))
        return false;
    // As ph_ray_cast_convex: any length of direction, distances along the unit one.
    float len = glms_vec3_norm(dir);
    if (!(len > MESH_MIN_DIRECTION_LENGTH))
        return false;
    dir = glms_vec3_scale(dir, 1.0f / len);
    ph_quat inv = glms_quat_conjugate(xf.q);
    ph_vec3 o = glms_quat_rotatev(inv, glms_vec3_sub(origin, xf.p));
    ph_vec3 d = glms_quat_rotatev(inv, dir);
    ph_vec3 inv_d;
    for (int i = 0; i < 3; i++)
        inv_d.raw[i] = d.raw[i] != 0.0f ? 1.0f / d.raw[i] : copysignf(INFINITY, d.raw[i]);

    // Depth-first, nearer child first, pruning boxes entered beyond the closest hit so far.
    float best_t = max_distance;
    ph_vec3 best_normal = glms_vec3_zero();
    bool hit = false;
    int stack[MESH_STACK_SIZE];
    int top = 0;
    stack[top++] = 0;
    while (top > 0)
    {
        const mesh_node *node = &mesh->nodes[stack[--top]];
        float t_enter;
        if (!ph_ray_aabb(o, inv_d, node->box, best_t, &t_enter))
            continue;
        if (node->count > 0)
        {
            for (int i = node->first; i < node->first + node->count; i++)
            {
                const int *tri = mesh->indices + 3 * i;
                ph_local_hit h;
                if (ph_ray_triangle(o, d, mesh->vertices[tri[0]], mesh->vertices[tri[1]],
                                    mesh->vertices[tri[2]], best_t, &h) &&
                    (!hit || h.t < best_t))
                {
                    best_t = h.t;
                    best_normal = h.normal;
                    hit = true;
                }
            }
            continue;
        }
        float t_left, t_right;
        bool left = ph_ray_aabb(o, inv_d, mesh->nodes[node->first].box, best_t, &t_left);
        bool right = ph_ray_aabb(o, inv_d, mesh->nodes[node->first + 1].box, best_t, &t_right);
        PH_ASSERT(top + 2 <= MESH_STACK_SIZE);
        if (left && right)
        {
            // Push the farther first so that the nearer is popped first.
            bool left_first = t_left <= t_right;
            stack[top++] = left_first ? node->first + 1 : node->first;
            stack[top++] = left_first ? node->first : node->first + 1;
        }
        else if (left)
            stack[top++] = node->first;
        else if (right)
            stack[top++] = node->first + 1;
    }
    if (!hit)
        return false;
    out->distance = best_t;
    out->point = glms_vec3_add(origin, glms_vec3_scale(dir, best_t));
    out->normal = glms_quat_rotatev(xf.q, best_normal);
    return true;
}
