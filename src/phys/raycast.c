// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Ray casts against every convex shape (sphere, capsule, box, hull, triangle), for mouse picking and
// aiming throws. Rays are moved into the shape's frame, tested there in closed form, and the hit is
// moved back. The triangle and box tests are shared with mesh.c's tree traversal through shape.h.
#include "shape.h"

#include <math.h> // sqrtf, fabsf, INFINITY

// Directions shorter than this cannot be normalised reliably and are rejected (unit: m).
#define RAY_MIN_DIRECTION_LENGTH 1e-12f

// A direction whose length differs from 1 by less than this is taken as unit (float rounding of a
// normalised vector is a few 1e-8).
#define RAY_UNIT_TOLERANCE 1e-6f

// Determinant below which a ray is treated as parallel to a triangle's plane, relative to the product
// of the triangle's edge lengths (the determinant is |e1 x e2| sin of the ray's grazing angle).
#define RAY_PARALLEL_TOLERANCE 1e-9f

static void set_inside(ph_vec3 d, ph_local_hit *out)
{
    out->inside = true;
    out->t = 0.0f;
    out->normal = glms_vec3_negate(d);
}

// Sphere about center: with m = o - center and |d| = 1, |m + t d|^2 = r^2 gives t^2 + 2 b t + c = 0,
// b = m.d, c = |m|^2 - r^2; the entry root is -b - sqrt(b^2 - c). The discriminant b^2 - c is
// computed as r^2 - |m - b d|^2 (r^2 minus the squared distance of the centre from the line), which
// avoids the cancellation of b^2 - c for far starts (Ericson, Real-Time Collision Detection, 5.3.2;
// Haines et al., Ray Tracing Gems ch. 7).
static bool ray_sphere(ph_vec3 center, float r, ph_vec3 o, ph_vec3 d, float max_t, ph_local_hit *out)
{
    ph_vec3 m = glms_vec3_sub(o, center);
    float c = glms_vec3_dot(m, m) - r * r;
    if (c <= 0.0f)
    {
        set_inside(d, out);
        return true;
    }
    float b = glms_vec3_dot(m, d);
    if (b > 0.0f)
        return false; // outside and moving away
    ph_vec3 perp = glms_vec3_sub(m, glms_vec3_scale(d, b));
    float disc = r * r - glms_vec3_dot(perp, perp);
    if (disc < 0.0f)
        return false;
    float t = -b - sqrtf(disc);
    if (t < 0.0f)
        t = 0.0f;
    if (t > max_t)
        return false;
    out->inside = false;
    out->t = t;
    out->normal = ph_safe_normalize(glms_vec3_add(m, glms_vec3_scale(d, t)), glms_vec3_negate(d));
    return true;
}

// Capsule = the union of its lateral cylinder (|y| <= hh) and two end spheres. From a start outside
// all three, the first hit of the union is the first hit among them (each part is convex).
static bool ray_capsule(float hh, float r, ph_vec3 o, ph_vec3 d, float max_t, ph_local_hit *out)
{
    float yc = fmaxf(-hh, fminf(hh, o.y));
    float dx = o.x, dy = o.y - yc, dz = o.z;
    if (dx * dx + dy * dy + dz * dz <= r * r)
    {
        set_inside(d, out);
        return true;
    }
    bool hit = false;
    ph_local_hit best;
    best.t = INFINITY;
    best.normal = glms_vec3_zero();
    best.inside = false;

    // Lateral surface x^2 + z^2 = r^2: a t^2 + 2 b t + c = 0 in the xz components.
    float a = d.x * d.x + d.z * d.z;
    if (a > 0.0f)
    {
        float b = o.x * d.x + o.z * d.z;
        float c = o.x * o.x + o.z * o.z - r * r;
        float disc = b * b - a * c;
        if (disc >= 0.0f && c > 0.0f)
        {
            float t = (-b - sqrtf(disc)) / a;
            float y = o.y + t * d.y;
            if (t >= 0.0f && t <= max_t && fabsf(y) <= hh)
            {
                best.t = t;
                best.normal =
                    ph_safe_normalize(ph_v3(o.x + t * d.x, 0.0f, o.z + t * d.z), glms_vec3_negate(d));
                hit = true;
            }
        }
    }
    for (int end = -1; end <= 1; end += 2)
    {
        ph_local_hit h;
        if (ray_sphere(ph_v3(0.0f, (float)end * hh, 0.0f), r, o, d, max_t, &h) && h.t < best.t)
        {
            best = h;
            hit = true;
        }
    }
    if (hit)
        *out = best;
    return hit;
}

bool ph_ray_aabb(ph_vec3 o, ph_vec3 inv_d, ph_aabb box, float max_t, float *out_t_enter)
{
    float t0 = 0.0f, t1 = max_t;
    for (int i = 0; i < 3; i++)
    {
        // With inv_d infinite (d_i = 0) the products are +-inf unless o_i is exactly on a slab plane,
        // where 0 * inf is NaN; fminf/fmaxf drop a NaN operand, which treats that case as inside.
        float ta = (box.lo.raw[i] - o.raw[i]) * inv_d.raw[i];
        float tb = (box.hi.raw[i] - o.raw[i]) * inv_d.raw[i];
        t0 = fmaxf(t0, fminf(ta, tb));
        t1 = fminf(t1, fmaxf(ta, tb));
    }
    if (t0 > t1)
        return false;
    *out_t_enter = t0;
    return true;
}

// Slab test with the entering face kept for the normal: the ray enters the box at the largest of the
// per-axis entry distances, through the face of that axis facing the ray. From a start outside, some
// axis has the start outside its slab; that axis either gives a positive entry or a negative exit.
static bool ray_box(ph_vec3 h, ph_vec3 o, ph_vec3 d, float max_t, ph_local_hit *out)
{
    if (fabsf(o.x) <= h.x && fabsf(o.y) <= h.y && fabsf(o.z) <= h.z)
    {
        set_inside(d, out);
        return true;
    }
    float t_enter = -INFINITY, t_exit = INFINITY;
    int axis = -1;
    for (int i = 0; i < 3; i++)
    {
        if (d.raw[i] == 0.0f)
        {
            if (fabsf(o.raw[i]) > h.raw[i])
                return false;
            continue;
        }
        float inv = 1.0f / d.raw[i];
        float ta = (-h.raw[i] - o.raw[i]) * inv, tb = (h.raw[i] - o.raw[i]) * inv;
        float lo = fminf(ta, tb), hi = fmaxf(ta, tb);
        if (lo > t_enter)
        {
            t_enter = lo;
            axis = i;
        }
        t_exit = fminf(t_exit, hi);
    }
    if (axis < 0 || t_enter > t_exit || t_exit < 0.0f || t_enter > max_t)
        return false;
    out->t = fmaxf(t_enter, 0.0f);
    out->normal = glms_vec3_zero();
    out->normal.raw[axis] = d.raw[axis] > 0.0f ? -1.0f : 1.0f;
    return true;
}

// Clip the ray against every face plane (Cyrus-Beck): planes the ray enters raise the entry distance,
// planes it leaves lower the exit distance. No entering plane at all means the start is inside.
static bool ray_hull(const ph_hull *hull, ph_vec3 o, ph_vec3 d, float max_t, ph_local_hit *out)
{
    if (!hull)
        return false;
    float t_enter = 0.0f, t_exit = max_t;
    int face = -1;
    for (int f = 0; f < hull->face_count; f++)
    {
        ph_vec3 n = hull->faces[f].normal;
        float denom = glms_vec3_dot(n, d);
        float dist = hull->faces[f].offset - glms_vec3_dot(n, o); // >= 0 on the inner side
        if (denom == 0.0f)
        {
            if (dist < 0.0f)
                return false;
            continue;
        }
        float t = dist / denom;
        if (denom < 0.0f)
        {
            if (dist < 0.0f && t >= t_enter)
            {
                t_enter = t;
                face = f;
            }
        }
        else if (t < t_exit)
        {
            t_exit = t;
        }
        if (t_enter > t_exit)
            return false;
    }
    if (face < 0)
    {
        set_inside(d, out);
        return true;
    }
    out->t = t_enter;
    out->normal = hull->faces[face].normal;
    return true;
}

// Moller and Trumbore, "Fast, minimum storage ray/triangle intersection", J. Graphics Tools 2(1),
// 1997: solve o + t d = a + u e1 + v e2 by Cramer's rule; both sides are accepted.
bool ph_ray_triangle(ph_vec3 o, ph_vec3 d, ph_vec3 a, ph_vec3 b, ph_vec3 c, float max_t, ph_local_hit *out)
{
    ph_vec3 e1 = glms_vec3_sub(b, a), e2 = glms_vec3_sub(c, a);
    ph_vec3 p = glms_vec3_cross(d, e2);
    float det = glms_vec3_dot(e1, p);
    float scale = glms_vec3_norm(e1) * glms_vec3_norm(e2);
    if (!(fabsf(det) > RAY_PARALLEL_TOLERANCE * scale))
        return false;
    float inv = 1.0f / det;
    ph_vec3 s = glms_vec3_sub(o, a);
    float u = glms_vec3_dot(s, p) * inv;
    if (u < 0.0f || u > 1.0f)
        return false;
    ph_vec3 q = glms_vec3_cross(s, e1);
    float v = glms_vec3_dot(d, q) * inv;
    if (v < 0.0f || u + v > 1.0f)
        return false;
    float t = glms_vec3_dot(e2, q) * inv;
    if (t < 0.0f || t > max_t)
        return false;
    ph_vec3 n = ph_safe_normalize(glms_vec3_cross(e1, e2), glms_vec3_negate(d));
    if (glms_vec3_dot(n, d) > 0.0f)
        n = glms_vec3_negate(n);
    out->inside = false;
    out->t = t;
    out->normal = n;
    return true;
}

bool ph_ray_local(const ph_convex *shape, ph_vec3 o, ph_vec3 d, float max_t, ph_local_hit *out)
{
    out->inside = false;
    switch (shape->type)
    {
    case PH_SHAPE_SPHERE:
        return ray_sphere(glms_vec3_zero(), shape->radius, o, d, max_t, out);
    case PH_SHAPE_CAPSULE:
        return ray_capsule(shape->half_height, shape->radius, o, d, max_t, out);
    case PH_SHAPE_BOX:
        return ray_box(shape->half_extents, o, d, max_t, out);
    case PH_SHAPE_HULL:
        return ray_hull(shape->hull, o, d, max_t, out);
    case PH_SHAPE_TRIANGLE:
        return ph_ray_triangle(o, d, shape->tri[0], shape->tri[1], shape->tri[2], max_t, out);
    case PH_SHAPE_COMPOUND:
    case PH_SHAPE_MESH:
    case PH_SHAPE_COUNT:
        break;
    }
    return false;
}

bool ph_ray_cast_convex(const ph_convex *shape, ph_transform xf, ph_vec3 origin, ph_vec3 dir,
                        float max_distance, ph_ray_hit *out)
{
    if (!shape || !out || !ph_is_finite_vec3(origin) || !ph_is_finite_vec3(dir) || !ph_is_finite_vec3(xf.p) ||
        !ph_is_finite_quat(xf.q) || !(max_distance >= 0.0f))
        return false;
    // Rays are accepted with any length of direction; distances are measured along the unit one. A
    // direction that is already unit within rounding is used as given, so that an inside start reports
    // exactly -dir.
    float len = glms_vec3_norm(dir);
    if (!(len > RAY_MIN_DIRECTION_LENGTH))
        return false;
    if (fabsf(len - 1.0f) > RAY_UNIT_TOLERANCE)
        dir = glms_vec3_scale(dir, 1.0f / len);
    ph_quat inv = glms_quat_conjugate(xf.q);
    ph_vec3 o = glms_quat_rotatev(inv, glms_vec3_sub(origin, xf.p));
    ph_vec3 d = glms_quat_rotatev(inv, dir);
    ph_local_hit h;
    if (!ph_ray_local(shape, o, d, max_distance, &h))
        return false;
    out->distance = h.t;
    out->point = glms_vec3_add(origin, glms_vec3_scale(dir, h.t));
    // An inside start reports -dir exactly, not a rotated round trip of it.
    out->normal = h.inside ? glms_vec3_negate(dir) : glms_quat_rotatev(xf.q, h.normal);
    return true;
}
