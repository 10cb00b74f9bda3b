// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Brute-force shape references (see brute_support.h): surface sampling, best point, signed distance and
// hull triangulation, written for obviousness rather than speed.
#include "reference/brute_support.h"

#include <math.h> // cos, sin, sqrt, fabs

static int push(ph_vec3 *out, int count, int capacity, ph_vec3 p)
{
    if (count < capacity)
        out[count] = p;
    return count + 1;
}

// Points of the sphere of radius r about c on a latitude-longitude grid, poles included; only the
// hemisphere with sign(y) == side when side != 0 (capsule caps).
static int sphere_grid(ph_vec3 c, float r, int res, int side, ph_vec3 *out, int count, int capacity)
{
    for (int i = 0; i <= res; i++)
    {
        double lat = GLM_PI * ((double)i / res - 0.5); // -pi/2 .. pi/2
        if (side != 0 && (side > 0 ? lat < 0.0 : lat > 0.0))
            continue;
        int ring = i == 0 || i == res ? 1 : 2 * res;
        for (int j = 0; j < ring; j++)
        {
            double lon = 2.0 * GLM_PI * j / ring;
            ph_vec3 p = ph_v3((float)(cos(lat) * cos(lon)), (float)sin(lat), (float)(cos(lat) * sin(lon)));
            count = push(out, count, capacity, glms_vec3_add(c, glms_vec3_scale(p, r)));
        }
    }
    return count;
}

int brute_surface_samples(const ph_convex *shape, int resolution, ph_vec3 *out, int capacity)
{
    int count = 0;
    int res = resolution < 2 ? 2 : resolution;
    switch (shape->type)
    {
    case PH_SHAPE_SPHERE:
        return sphere_grid(glms_vec3_zero(), shape->radius, res, 0, out, 0, capacity);
    case PH_SHAPE_CAPSULE:
    {
        float hh = shape->half_height, r = shape->radius;
        count = sphere_grid(ph_v3(0.0f, hh, 0.0f), r, res, 1, out, count, capacity);
        count = sphere_grid(ph_v3(0.0f, -hh, 0.0f), r, res, -1, out, count, capacity);
        for (int i = 0; i <= res; i++)
        {
            float y = -hh + 2.0f * hh * (float)i / (float)res;
            for (int j = 0; j < 2 * res; j++)
            {
                double lon = 2.0 * GLM_PI * j / (2 * res);
                count = push(out, count, capacity, ph_v3(r * (float)cos(lon), y, r * (float)sin(lon)));
            }
        }
        return count;
    }
    case PH_SHAPE_BOX:
    {
        ph_vec3 h = shape->half_extents;
        // A grid on each of the six faces, edges and corners included.
        for (int axis = 0; axis < 3; axis++)
        {
            for (int s = -1; s <= 1; s += 2)
            {
                for (int i = 0; i <= res; i++)
                {
                    for (int j = 0; j <= res; j++)
                    {
                        ph_vec3 p;
                        int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
                        p.raw[axis] = (float)s * h.raw[axis];
                        p.raw[a1] = h.raw[a1] * (2.0f * (float)i / (float)res - 1.0f);
                        p.raw[a2] = h.raw[a2] * (2.0f * (float)j / (float)res - 1.0f);
                        count = push(out, count, capacity, p);
                    }
                }
            }
        }
        return count;
    }
    case PH_SHAPE_HULL:
        for (int v = 0; shape->hull && v < shape->hull->vertex_count; v++)
            count = push(out, count, capacity, shape->hull->vertices[v]);
        return count;
    case PH_SHAPE_TRIANGLE:
        for (int v = 0; v < 3; v++)
            count = push(out, count, capacity, shape->tri[v]);
        return count;
    case PH_SHAPE_COMPOUND:
    case PH_SHAPE_MESH:
    case PH_SHAPE_COUNT:
        break;
    }
    return 0;
}

ph_vec3 brute_best_point(const ph_vec3 *pts, int n, ph_vec3 d)
{
    int best = 0;
    for (int i = 1; i < n; i++)
    {
        if (glms_vec3_dot(pts[i], d) > glms_vec3_dot(pts[best], d))
            best = i;
    }
    return pts[best];
}

double brute_signed_distance(const ph_convex *shape, ph_vec3 p)
{
    double x = (double)p.x, y = (double)p.y, z = (double)p.z;
    switch (shape->type)
    {
    case PH_SHAPE_SPHERE:
        return sqrt(x * x + y * y + z * z) - (double)shape->radius;
    case PH_SHAPE_CAPSULE:
    {
        double hh = (double)shape->half_height;
        double yc = y > hh ? hh : (y < -hh ? -hh : y);
        return sqrt(x * x + (y - yc) * (y - yc) + z * z) - (double)shape->radius;
    }
    case PH_SHAPE_BOX:
    {
        // Exact box distance: outside part from the clamped excess, inside part from the largest.
        double q[3] = {fabs(x) - (double)shape->half_extents.x, fabs(y) - (double)shape->half_extents.y,
                       fabs(z) - (double)shape->half_extents.z};
        double out2 = 0.0, inside = q[0];
        for (int i = 0; i < 3; i++)
        {
            if (q[i] > 0.0)
                out2 += q[i] * q[i];
            if (q[i] > inside)
                inside = q[i];
        }
        return out2 > 0.0 ? sqrt(out2) : inside;
    }
    case PH_SHAPE_HULL:
    {
        double worst = -(double)INFINITY;
        for (int f = 0; shape->hull && f < shape->hull->face_count; f++)
        {
            const ph_hull_face *face = &shape->hull->faces[f];
            double d = (double)face->normal.x * x + (double)face->normal.y * y + (double)face->normal.z * z -
                       (double)face->offset;
            if (d > worst)
                worst = d;
        }
        return worst;
    }
    case PH_SHAPE_TRIANGLE:
    {
        ph_vec3 n = glms_vec3_normalize(glms_vec3_cross(glms_vec3_sub(shape->tri[1], shape->tri[0]),
                                                        glms_vec3_sub(shape->tri[2], shape->tri[0])));
        return fabs((double)glms_vec3_dot(n, glms_vec3_sub(p, shape->tri[0])));
    }
    case PH_SHAPE_COMPOUND:
    case PH_SHAPE_MESH:
    case PH_SHAPE_COUNT:
        break;
    }
    return (double)INFINITY;
}

int brute_hull_triangles(const ph_hull *hull, int *tris, int capacity)
{
    int count = 0;
    for (int f = 0; f < hull->face_count; f++)
    {
        const ph_hull_face *face = &hull->faces[f];
        const int *loop = hull->face_indices + face->first_index;
        for (int k = 1; k + 1 < face->index_count; k++)
        {
            if (3 * (count + 1) <= capacity)
            {
                tris[3 * count + 0] = loop[0];
                tris[3 * count + 1] = loop[k];
                tris[3 * count + 2] = loop[k + 1];
            }
            count++;
        }
    }
    return count;
}
