// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Convex shape values (sphere, capsule, box, hull, triangle): constructors, the support mapping that
// GJK, EPA and time of impact consume, and world bounds for the broadphase. Hull supports and bounds go
// through hull.c (a scan of a small hull's vertices, a climb over a large one's edges); mass properties live
// in mass.c and ray casts in raycast.c.
#include "phys/collision.h"

#include <math.h>   // fabsf
#include <string.h> // memset

// Direction used when a support query gets a zero direction: any surface point is a valid answer
// then, and a fixed one keeps results deterministic.
static const ph_vec3 ZERO_DIRECTION_FALLBACK = {{0.0f, 1.0f, 0.0f}};

static ph_convex blank(ph_shape_type type)
{
    ph_convex c;
    memset(&c, 0, sizeof c);
    c.type = type;
    return c;
}

ph_convex ph_convex_sphere(float radius)
{
    ph_convex c = blank(PH_SHAPE_SPHERE);
    c.radius = radius;
    return c;
}

ph_convex ph_convex_capsule(float half_height, float radius)
{
    ph_convex c = blank(PH_SHAPE_CAPSULE);
    c.half_height = half_height;
    c.radius = radius;
    return c;
}

ph_convex ph_convex_box(ph_vec3 half_extents)
{
    ph_convex c = blank(PH_SHAPE_BOX);
    c.half_extents = half_extents;
    return c;
}

ph_convex ph_convex_hull(const ph_hull *hull)
{
    ph_convex c = blank(PH_SHAPE_HULL);
    c.hull = hull;
    return c;
}

ph_convex ph_convex_triangle(ph_vec3 a, ph_vec3 b, ph_vec3 c)
{
    ph_convex t = blank(PH_SHAPE_TRIANGLE);
    t.tri[0] = a;
    t.tri[1] = b;
    t.tri[2] = c;
    return t;
}

// The support of a Minkowski sum is the sum of the supports, so a capsule is its segment's support
// (the end whose y has the sign of d.y) plus the sphere's, and a sphere is radius * d / |d|.
ph_vec3 ph_convex_support(const ph_convex *shape, ph_vec3 d)
{
    switch (shape->type)
    {
    case PH_SHAPE_SPHERE:
        return glms_vec3_scale(ph_safe_normalize(d, ZERO_DIRECTION_FALLBACK), shape->radius);
    case PH_SHAPE_CAPSULE:
    {
        ph_vec3 p = glms_vec3_scale(ph_safe_normalize(d, ZERO_DIRECTION_FALLBACK), shape->radius);
        p.y += d.y >= 0.0f ? shape->half_height : -shape->half_height;
        return p;
    }
    case PH_SHAPE_BOX:
    {
        // Each coordinate of a box's support is chosen independently: the face of the sign of d.
        ph_vec3 h = shape->half_extents;
        return ph_v3(d.x >= 0.0f ? h.x : -h.x, d.y >= 0.0f ? h.y : -h.y, d.z >= 0.0f ? h.z : -h.z);
    }
    case PH_SHAPE_HULL:
    {
        const ph_hull *hull = shape->hull;
        if (!hull || hull->vertex_count <= 0)
            return glms_vec3_zero();
        return hull->vertices[ph_hull_support_index(hull, d, NULL)];
    }
    case PH_SHAPE_TRIANGLE:
    {
        int best = 0;
        float best_dot = glms_vec3_dot(shape->tri[0], d);
        for (int i = 1; i < 3; i++)
        {
            float s = glms_vec3_dot(shape->tri[i], d);
            if (s > best_dot)
            {
                best_dot = s;
                best = i;
            }
        }
        return shape->tri[best];
    }
    case PH_SHAPE_COMPOUND:
    case PH_SHAPE_MESH:
    case PH_SHAPE_COUNT:
        break;
    }
    // Compounds and meshes are not convex: the narrow phase splits them into children first.
    return glms_vec3_zero();
}

static ph_aabb aabb_around(ph_vec3 center, ph_vec3 extent)
{
    ph_aabb b;
    b.lo = glms_vec3_sub(center, extent);
    b.hi = glms_vec3_add(center, extent);
    return b;
}

// The rotation is turned into a matrix once (9 products per point instead of a quaternion rotation's
// ~20), since the broadphase asks for every body's bounds every step.
static ph_aabb aabb_of_points(const ph_vec3 *pts, int count, ph_transform xf)
{
    ph_mat3 r = glms_quat_mat3(xf.q);
    ph_aabb b;
    b.lo = b.hi = glms_vec3_add(xf.p, glms_mat3_mulv(r, pts[0]));
    for (int i = 1; i < count; i++)
    {
        ph_vec3 p = glms_vec3_add(xf.p, glms_mat3_mulv(r, pts[i]));
        b.lo = glms_vec3_minv(b.lo, p);
        b.hi = glms_vec3_maxv(b.hi, p);
    }
    return b;
}

// World bounds. A box's extent along world axis i is sum_j |R_ij| h_j (the rotated box's support in
// +e_i). Hulls and triangles transform every vertex, which is exact; a hull has at most
// PH_HULL_MAX_VERTICES vertices.
ph_aabb ph_convex_bounds(const ph_convex *shape, ph_transform xf)
{
    switch (shape->type)
    {
    case PH_SHAPE_SPHERE:
    {
        float r = shape->radius;
        return aabb_around(xf.p, ph_v3(r, r, r));
    }
    case PH_SHAPE_CAPSULE:
    {
        ph_vec3 axis = glms_quat_rotatev(xf.q, ph_v3(0.0f, shape->half_height, 0.0f));
        float r = shape->radius;
        ph_vec3 extent = ph_v3(fabsf(axis.x) + r, fabsf(axis.y) + r, fabsf(axis.z) + r);
        return aabb_around(xf.p, extent);
    }
    case PH_SHAPE_BOX:
    {
        // |R| h, R = glms_quat_mat3(q) entry by entry with its operations (so bit for bit its matrix), kept
        // in registers: built as a matrix in memory, its entries were stored one by one and read back two
        // at a time, and those reads wait for the stores (a failed store forwarding, a third of the time
        // of this function, which the broadphase and the calendar call for every body every step).
        float norm = glm_quat_norm(xf.q.raw);
        float s = norm > 0.0f ? 2.0f / norm : 0.0f;
        float x = xf.q.x, y = xf.q.y, z = xf.q.z, w = xf.q.w;
        float xx = s * x * x, xy = s * x * y, wx = s * w * x;
        float yy = s * y * y, yz = s * y * z, wy = s * w * y;
        float zz = s * z * z, xz = s * x * z, wz = s * w * z;
        ph_vec3 h = shape->half_extents;
        ph_vec3 e = ph_v3(fabsf(1.0f - yy - zz) * h.x + fabsf(xy - wz) * h.y + fabsf(xz + wy) * h.z,
                          fabsf(xy + wz) * h.x + fabsf(1.0f - xx - zz) * h.y + fabsf(yz - wx) * h.z,
                          fabsf(xz - wy) * h.x + fabsf(yz + wx) * h.y + fabsf(1.0f - xx - yy) * h.z);
        return aabb_around(xf.p, e);
    }
    case PH_SHAPE_HULL:
        if (shape->hull && shape->hull->vertex_count > 0)
            return ph_hull_bounds(shape->hull, xf);
        break;
    case PH_SHAPE_TRIANGLE:
        return aabb_of_points(shape->tri, 3, xf);
    case PH_SHAPE_COMPOUND:
    case PH_SHAPE_MESH:
    case PH_SHAPE_COUNT:
        break;
    }
    return aabb_around(xf.p, glms_vec3_zero());
}
