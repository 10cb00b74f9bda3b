// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// From physics shapes to render instances: primitives map to the scaled built-in meshes (a capsule is a
// cylinder plus two spheres), hulls and static meshes to GPU meshes built from the world's geometry on
// first sight and cached by its address, compounds to one instance per child. renderer_submit_world
// walks the bodies the engine's octree finds inside the camera frustum. The engine's debug views
// (ph_world_debug_draw, ph_world_trace_pair) are collected here into the frame's debug lines too. This file
// is the only part of the renderer that calls the world's queries, so a program that never submits a world
// does not link them.

#include "render/renderer.h"
#include "render/renderer_internal.h"

#include <string.h> // memset

// Point size used for polytope and simplex vertices (unit: px).
#define TRACE_POINT_SIZE 6.0f
// Half length of the cross that marks Minkowski space's origin (unit: m).
#define ORIGIN_CROSS 0.15f

static const uint32_t SIMPLEX_RGBA = 0xffd21fffu;
static const uint32_t POLYTOPE_RGBA = 0x2ee6e6ffu;
static const uint32_t WITNESS_RGBA = 0xff3fd2ffu;
static const uint32_t ORIGIN_RGBA = 0xffffffffu;

// Colours for bodies without one from the game (sRGB, 0xRRGGBBAA), picked by the body's slot.
static const uint32_t BODY_PALETTE[] = {0xe0694aff, 0xe8b04aff, 0x6cbf5aff, 0x4a9fe0ff,
                                        0x9a6ce0ff, 0xe06ca8ff, 0x4ac7c0ff, 0xd9d2c5ff};
static const uint32_t STATIC_BODY_RGBA = 0x8a8d91ff;
// 2^32 / golden ratio, and the bits kept of the product.
#define PALETTE_HASH 2654435761u
#define PALETTE_HASH_SHIFT 16

static vec3s ph_mesh_corner(int triangle, int corner, const void *ctx)
{
    ph_convex tri = ph_mesh_triangle(ctx, triangle);
    return tri.tri[corner];
}

static bool mesh_data_from_ph_mesh(mesh_data *out, const ph_mesh *mesh)
{
    return mesh_data_triangles(out, ph_mesh_triangle_count(mesh), ph_mesh_corner, mesh);
}

// The GPU mesh built from geometry (a ph_hull or ph_mesh), building it the first time. -1 on failure.
static int geometry_mesh(renderer *r, const void *geometry, bool is_hull)
{
    int last = r->last_geometry_mesh;
    if (last >= 0 && last < RENDER_MAX_MESHES && r->meshes[last].origin == MESH_GEOMETRY &&
        r->meshes[last].geometry == geometry)
        return last;
    for (int i = RENDER_BUILTIN_MESH_COUNT; i < RENDER_MAX_MESHES; i++)
    {
        if (r->meshes[i].origin == MESH_GEOMETRY && r->meshes[i].geometry == geometry)
        {
            r->last_geometry_mesh = i;
            return i;
        }
    }
    mesh_data data;
    bool ok = is_hull ? mesh_data_hull(&data, geometry) : mesh_data_from_ph_mesh(&data, geometry);
    if (!ok)
        return -1;
    int handle = render_add_mesh_data(r, &data, geometry);
    mesh_data_free(&data);
    if (handle >= 0)
        r->last_geometry_mesh = handle;
    return handle;
}

static bool submit_convex(renderer *r, const ph_convex *c, ph_transform xf, uint32_t rgba, uint32_t flags)
{
    switch (c->type)
    {
    case PH_SHAPE_BOX:
        return renderer_submit(r, RENDER_MESH_BOX, xf.p, xf.q, c->half_extents, rgba, flags);
    case PH_SHAPE_SPHERE:
    {
        vec3s s = {{c->radius, c->radius, c->radius}};
        return renderer_submit(r, RENDER_MESH_SPHERE, xf.p, xf.q, s, rgba, flags);
    }
    case PH_SHAPE_CAPSULE:
    {
        vec3s s = {{c->radius, c->radius, c->radius}};
        vec3s cyl = {{c->radius, c->half_height, c->radius}};
        vec3s axis = glms_quat_rotatev(xf.q, (vec3s){{0.0f, c->half_height, 0.0f}});
        bool ok = renderer_submit(r, RENDER_MESH_CYLINDER, xf.p, xf.q, cyl, rgba, flags);
        ok = renderer_submit(r, RENDER_MESH_SPHERE, glms_vec3_add(xf.p, axis), xf.q, s, rgba, flags) && ok;
        return renderer_submit(r, RENDER_MESH_SPHERE, glms_vec3_sub(xf.p, axis), xf.q, s, rgba, flags) && ok;
    }
    case PH_SHAPE_HULL:
    {
        if (!c->hull)
            return false;
        int mesh = geometry_mesh(r, c->hull, true);
        return mesh >= 0 && renderer_submit(r, mesh, xf.p, xf.q, (vec3s){{1.0f, 1.0f, 1.0f}}, rgba, flags);
    }
    default:
        return false;
    }
}

bool renderer_submit_shape(renderer *r, const ph_world *world, ph_shape shape, ph_transform xf, uint32_t rgba,
                           uint32_t flags)
{
    if (!r)
        return false;
    switch (shape.type)
    {
    case PH_SHAPE_BOX:
    {
        ph_convex c = ph_convex_box(shape.half_extents);
        return submit_convex(r, &c, xf, rgba, flags);
    }
    case PH_SHAPE_SPHERE:
    {
        ph_convex c = ph_convex_sphere(shape.radius);
        return submit_convex(r, &c, xf, rgba, flags);
    }
    case PH_SHAPE_CAPSULE:
    {
        ph_convex c = ph_convex_capsule(shape.half_height, shape.radius);
        return submit_convex(r, &c, xf, rgba, flags);
    }
    case PH_SHAPE_HULL:
    {
        const ph_hull *hull = world ? ph_world_get_hull(world, shape.geom) : NULL;
        if (!hull)
            return false;
        ph_convex c = ph_convex_hull(hull);
        return submit_convex(r, &c, xf, rgba, flags);
    }
    case PH_SHAPE_COMPOUND:
    {
        const ph_compound *compound = world ? ph_world_get_compound(world, shape.geom) : NULL;
        if (!compound)
            return false;
        bool ok = true;
        for (int i = 0; i < compound->child_count; i++)
        {
            const ph_compound_child *child = &compound->children[i];
            ph_transform cx;
            cx.p = glms_vec3_add(xf.p, glms_quat_rotatev(xf.q, child->local.p));
            cx.q = glms_quat_mul(xf.q, child->local.q);
            ok = submit_convex(r, &child->shape, cx, rgba, flags) && ok;
        }
        return ok;
    }
    case PH_SHAPE_MESH:
    {
        const ph_mesh *mesh = world ? ph_world_get_mesh(world, shape.geom) : NULL;
        int handle = mesh ? geometry_mesh(r, mesh, false) : -1;
        return handle >= 0 &&
               renderer_submit(r, handle, xf.p, xf.q, (vec3s){{1.0f, 1.0f, 1.0f}}, rgba, flags);
    }
    default:
        return false;
    }
}

int renderer_submit_world(renderer *r, const ph_world *world, float margin, render_body_fn *fn, void *ctx)
{
    if (!r || !world)
        return 0;
    ph_vec4 planes[6];
    renderer_frustum_planes(r, planes);
    // Moving every plane outwards by margin: the planes are unit, so d grows by the distance.
    float pad = isfinite(margin) && margin > 0.0f ? margin : 0.0f;
    for (int i = 0; i < 6; i++)
        planes[i].w += pad;
    int total = ph_world_query_frustum(world, planes, r->visible.data, r->visible.capacity);
    if (total > r->visible.capacity)
    {
        if (!RENDER_PUSH_ROOM(r->visible, total))
            return 0;
        total = ph_world_query_frustum(world, planes, r->visible.data, r->visible.capacity);
        if (total > r->visible.capacity)
            total = r->visible.capacity;
    }
    int submitted = 0;
    for (int i = 0; i < total; i++)
    {
        ph_body_id id = r->visible.data[i];
        ph_transform xf = ph_body_get_transform(world, id);
        bool is_static = ph_body_get_type(world, id) == PH_BODY_STATIC;
        int palette_size = (int)(sizeof BODY_PALETTE / sizeof BODY_PALETTE[0]);
        // Knuth's multiplicative hash spreads neighbouring slots (a stack made in order) over the palette.
        uint32_t hash = (id.index1 * PALETTE_HASH) >> PALETTE_HASH_SHIFT;
        uint32_t rgba = is_static ? STATIC_BODY_RGBA : BODY_PALETTE[hash % (uint32_t)palette_size];
        uint32_t flags = (!is_static && !ph_body_is_awake(world, id)) ? RENDER_FLAG_SLEEPING : 0u;
        if (fn && !fn(id, &xf, &rgba, &flags, ctx))
            continue;
        if (renderer_submit_shape(r, world, ph_body_get_shape(world, id), xf, rgba, flags))
            submitted++;
    }
    return submitted;
}

// ---- Engine debug views ---------------------------------------------------------------------------------

static void draw_segment_cb(ph_vec3 a, ph_vec3 b, uint32_t rgba, void *context)
{
    renderer_line(context, a, b, rgba);
}

static void draw_point_cb(ph_vec3 p, float size_px, uint32_t rgba, void *context)
{
    renderer_point(context, p, size_px, rgba);
}

void renderer_debug_world(renderer *r, const ph_world *world, const ph_debug_draw *flags)
{
    if (!r || !world || !flags)
        return;
    ph_debug_draw dd = *flags;
    dd.draw_segment = draw_segment_cb;
    dd.draw_point = draw_point_cb;
    dd.context = r;
    ph_world_debug_draw(world, &dd);
}

ph_status renderer_debug_pair(renderer *r, const ph_world *world, ph_body_id a, ph_body_id b,
                              ph_pair_trace *out_trace)
{
    if (!r || !world)
        return PH_ERR_INVALID_ARG;
    ph_pair_trace trace;
    memset(&trace, 0, sizeof trace);
    ph_status status = ph_world_trace_pair(world, a, b, &trace);
    if (out_trace)
        *out_trace = trace;
    if (status != PH_OK)
        return status;
    // Minkowski space is drawn with its origin between the witness points, so a simplex that encloses
    // the origin visibly sits around the contact.
    vec3s anchor = glms_vec3_scale(glms_vec3_add(trace.point_a, trace.point_b), 0.5f);
    for (int axis = 0; axis < 3; axis++)
    {
        vec3s d = glms_vec3_zero();
        d.raw[axis] = ORIGIN_CROSS;
        renderer_line(r, glms_vec3_sub(anchor, d), glms_vec3_add(anchor, d), ORIGIN_RGBA);
    }
    renderer_line(r, trace.point_a, trace.point_b, WITNESS_RGBA);
    renderer_point(r, trace.point_a, TRACE_POINT_SIZE, WITNESS_RGBA);
    renderer_point(r, trace.point_b, TRACE_POINT_SIZE, WITNESS_RGBA);

    int n = trace.simplex.count;
    n = n < 0 ? 0 : (n > 4 ? 4 : n);
    for (int i = 0; i < n; i++)
    {
        vec3s p = glms_vec3_add(anchor, trace.simplex.v[i].w);
        renderer_point(r, p, TRACE_POINT_SIZE, SIMPLEX_RGBA);
        for (int j = i + 1; j < n; j++)
            renderer_line(r, p, glms_vec3_add(anchor, trace.simplex.v[j].w), SIMPLEX_RGBA);
    }
    if (trace.overlapping)
    {
        int tris = trace.polytope.triangle_count;
        tris = tris < 0 ? 0 : (tris > PH_TRACE_MAX_TRIANGLES ? PH_TRACE_MAX_TRIANGLES : tris);
        for (int t = 0; t < tris; t++)
        {
            for (int e = 0; e < 3; e++)
            {
                vec3s p = glms_vec3_add(anchor, trace.polytope.triangles[t][e]);
                vec3s q = glms_vec3_add(anchor, trace.polytope.triangles[t][(e + 1) % 3]);
                renderer_line(r, p, q, POLYTOPE_RGBA);
            }
        }
    }
    return PH_OK;
}
