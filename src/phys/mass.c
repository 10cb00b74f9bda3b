// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Mass properties: analytic for sphere, capsule and box; exact for closed polyhedra (hulls and triangle
// meshes) by the surface-integral method; moving a set by a transform and summing sets with the
// parallel-axis theorem (compounds). Every tensor is the full 3x3 one, never a scalar shortcut.
// Used by body creation (world) and by the .obj loader for compounds.
#include "phys/collision.h"

#include <math.h>   // isfinite
#include <string.h> // memset

// The closed-form integrals below are sums of products of coordinates; their conditioning depends on
// the distance of the shape from the origin, so polyhedra are integrated about a point inside them
// (their vertex mean), in double precision, and moved back at the end.

typedef struct dvec
{
    double x, y, z;
} dvec;

static ph_mass_properties zero_mass(void)
{
    ph_mass_properties m;
    memset(&m, 0, sizeof m);
    m.inertia = glms_mat3_zero();
    return m;
}

static ph_mat3 diagonal(float xx, float yy, float zz)
{
    ph_mat3 m = glms_mat3_zero();
    m.col[0].raw[0] = xx;
    m.col[1].raw[1] = yy;
    m.col[2].raw[2] = zz;
    return m;
}

// cglm 0.8.8 has no matrix sum.
static ph_mat3 mat3_add(ph_mat3 a, ph_mat3 b)
{
    for (int c = 0; c < 3; c++)
        a.col[c] = glms_vec3_add(a.col[c], b.col[c]);
    return a;
}

static bool positive_finite(float x)
{
    return isfinite(x) && x > 0.0f;
}

// ---- Polyhedra: Eberly's surface integrals ---------------------------------------------------------

// Running integrals over a closed surface of 1, x, y, z, x^2, y^2, z^2, xy, yz, zx (volume integrals
// turned into surface integrals by the divergence theorem). After D. Eberly, "Polyhedral Mass
// Properties (Revisited)", Geometric Tools, 2002, which simplifies B. Mirtich, "Fast and Accurate
// Computation of Polyhedral Mass Properties", J. Graphics Tools 1(2), 1996, for triangle faces.
typedef struct integrals
{
    double v[10];
} integrals;

// The per-axis subexpressions of Eberly's derivation for one triangle's coordinates w0, w1, w2:
// f1 = sum w, f2 = sum of degree-2 monomials, f3 = sum of degree-3 monomials, and g_i the partial
// sums needed for the products of inertia.
static void subexpressions(double w0, double w1, double w2, double *f1, double *f2, double *f3, double *g0,
                           double *g1, double *g2)
{
    double t0 = w0 + w1;
    double t1 = w0 * w0;
    double t2 = t1 + w1 * t0;
    *f1 = t0 + w2;
    *f2 = t2 + w2 * *f1;
    *f3 = w0 * t1 + w1 * t2 + w2 * *f2;
    *g0 = *f2 + w0 * (*f1 + w0);
    *g1 = *f2 + w1 * (*f1 + w1);
    *g2 = *f2 + w2 * (*f1 + w2);
}

// Adds triangle (p0, p1, p2), counter-clockwise seen from outside.
static void add_triangle(integrals *in, dvec p0, dvec p1, dvec p2)
{
    double a1 = p1.x - p0.x, b1 = p1.y - p0.y, c1 = p1.z - p0.z;
    double a2 = p2.x - p0.x, b2 = p2.y - p0.y, c2 = p2.z - p0.z;
    // The (unnormalised) outward normal: twice the area times the unit normal.
    double d0 = b1 * c2 - b2 * c1, d1 = a2 * c1 - a1 * c2, d2 = a1 * b2 - a2 * b1;

    double f1x, f2x, f3x, g0x, g1x, g2x;
    double f1y, f2y, f3y, g0y, g1y, g2y;
    double f1z, f2z, f3z, g0z, g1z, g2z;
    subexpressions(p0.x, p1.x, p2.x, &f1x, &f2x, &f3x, &g0x, &g1x, &g2x);
    subexpressions(p0.y, p1.y, p2.y, &f1y, &f2y, &f3y, &g0y, &g1y, &g2y);
    subexpressions(p0.z, p1.z, p2.z, &f1z, &f2z, &f3z, &g0z, &g1z, &g2z);

    in->v[0] += d0 * f1x;
    in->v[1] += d0 * f2x;
    in->v[2] += d1 * f2y;
    in->v[3] += d2 * f2z;
    in->v[4] += d0 * f3x;
    in->v[5] += d1 * f3y;
    in->v[6] += d2 * f3z;
    in->v[7] += d0 * (p0.y * g0x + p1.y * g1x + p2.y * g2x);
    in->v[8] += d1 * (p0.z * g0y + p1.z * g1y + p2.z * g2y);
    in->v[9] += d2 * (p0.x * g0z + p1.x * g1z + p2.x * g2z);
}

// Turns the integrals (taken about origin) into mass properties at the given density.
static ph_mass_properties finish(const integrals *in, dvec origin, float density)
{
    // The normalising constants of the integrals of degree 0, 1, 2 and the mixed terms.
    const double k0 = 1.0 / 6.0, k1 = 1.0 / 24.0, k2 = 1.0 / 60.0, k3 = 1.0 / 120.0;
    double volume = in->v[0] * k0;
    if (!(volume > 0.0) || !isfinite(volume))
        return zero_mass();
    double rho = (double)density;
    double mass = rho * volume;
    double cx = in->v[1] * k1 / volume, cy = in->v[2] * k1 / volume, cz = in->v[3] * k1 / volume;
    double xx = rho * in->v[4] * k2, yy = rho * in->v[5] * k2, zz = rho * in->v[6] * k2;
    double xy = rho * in->v[7] * k3, yz = rho * in->v[8] * k3, zx = rho * in->v[9] * k3;

    // Inertia about the centre of mass: I = int(|r|^2 E - r r^T) dm, shifted by the parallel-axis
    // theorem from the integration origin to the centre.
    double ixx = yy + zz - mass * (cy * cy + cz * cz);
    double iyy = zz + xx - mass * (cz * cz + cx * cx);
    double izz = xx + yy - mass * (cx * cx + cy * cy);
    double ixy = -(xy - mass * cx * cy);
    double iyz = -(yz - mass * cy * cz);
    double izx = -(zx - mass * cz * cx);

    ph_mass_properties m;
    m.mass = (float)mass;
    m.volume = (float)volume;
    m.center = ph_v3((float)(cx + origin.x), (float)(cy + origin.y), (float)(cz + origin.z));
    m.inertia = diagonal((float)ixx, (float)iyy, (float)izz);
    m.inertia.col[0].raw[1] = m.inertia.col[1].raw[0] = (float)ixy;
    m.inertia.col[1].raw[2] = m.inertia.col[2].raw[1] = (float)iyz;
    m.inertia.col[2].raw[0] = m.inertia.col[0].raw[2] = (float)izx;
    return m;
}

static dvec relative(ph_vec3 p, dvec origin)
{
    dvec r = {(double)p.x - origin.x, (double)p.y - origin.y, (double)p.z - origin.z};
    return r;
}

ph_mass_properties ph_compute_polyhedron_mass(const ph_vec3 *vertices, const int *tri_indices, int tri_count,
                                              float density)
{
    if (!vertices || !tri_indices || tri_count <= 0 || !positive_finite(density))
        return zero_mass();
    // The origin of integration: the mean of the triangle corners, inside a closed surface's bounds.
    dvec origin = {0.0, 0.0, 0.0};
    for (int i = 0; i < 3 * tri_count; i++)
    {
        if (tri_indices[i] < 0 || !ph_is_finite_vec3(vertices[tri_indices[i]]))
            return zero_mass();
        origin.x += (double)vertices[tri_indices[i]].x;
        origin.y += (double)vertices[tri_indices[i]].y;
        origin.z += (double)vertices[tri_indices[i]].z;
    }
    double inv = 1.0 / (3.0 * tri_count);
    origin.x *= inv;
    origin.y *= inv;
    origin.z *= inv;

    integrals in;
    memset(&in, 0, sizeof in);
    for (int t = 0; t < tri_count; t++)
    {
        const int *tri = tri_indices + 3 * t;
        add_triangle(&in, relative(vertices[tri[0]], origin), relative(vertices[tri[1]], origin),
                     relative(vertices[tri[2]], origin));
    }
    return finish(&in, origin, density);
}

// A hull's faces are convex polygons, so a fan from their first vertex triangulates them.
static ph_mass_properties hull_mass(const ph_hull *hull, float density)
{
    if (!hull || hull->face_count < 4)
        return zero_mass();
    dvec origin = {(double)hull->centroid.x, (double)hull->centroid.y, (double)hull->centroid.z};
    integrals in;
    memset(&in, 0, sizeof in);
    for (int f = 0; f < hull->face_count; f++)
    {
        const ph_hull_face *face = &hull->faces[f];
        const int *loop = hull->face_indices + face->first_index;
        dvec p0 = relative(hull->vertices[loop[0]], origin);
        for (int k = 1; k + 1 < face->index_count; k++)
        {
            add_triangle(&in, p0, relative(hull->vertices[loop[k]], origin),
                         relative(hull->vertices[loop[k + 1]], origin));
        }
    }
    return finish(&in, origin, density);
}

// ---- Analytic shapes -------------------------------------------------------------------------------

// Solid sphere: m = rho 4/3 pi r^3, I = 2/5 m r^2 about every axis.
static ph_mass_properties sphere_mass(float r, float density)
{
    ph_mass_properties m = zero_mass();
    m.volume = 4.0f / 3.0f * GLM_PIf * r * r * r;
    m.mass = density * m.volume;
    float i = 0.4f * m.mass * r * r;
    m.inertia = diagonal(i, i, i);
    return m;
}

// Solid box of half extents h: m = rho 8 hx hy hz, I_xx = m (hy^2 + hz^2) / 3 (the usual
// m (a^2 + b^2) / 12 with full side lengths a = 2 hy, b = 2 hz), and so on.
static ph_mass_properties box_mass(ph_vec3 h, float density)
{
    ph_mass_properties m = zero_mass();
    m.volume = 8.0f * h.x * h.y * h.z;
    m.mass = density * m.volume;
    float k = m.mass / 3.0f;
    m.inertia =
        diagonal(k * (h.y * h.y + h.z * h.z), k * (h.z * h.z + h.x * h.x), k * (h.x * h.x + h.y * h.y));
    return m;
}

// Capsule along y: a cylinder of radius r and length 2 hh, plus two hemispheres of radius r.
// - Cylinder (mass mc): I_yy = mc r^2 / 2, I_xx = mc (r^2 / 4 + (2 hh)^2 / 12).
// - Hemisphere (mass mh = rho 2/3 pi r^3): about the centre of its sphere, I = 2/5 mh r^2 on every
//   axis; its own centroid sits 3r/8 from the flat face. Moving the x axis from the sphere centre to
//   the centroid (-mh (3r/8)^2) and then to the capsule centre, hh + 3r/8 away (+mh (hh + 3r/8)^2),
//   gives mh (2/5 r^2 + hh^2 + 3/4 hh r) per hemisphere. I_yy is unchanged by shifts along y.
static ph_mass_properties capsule_mass(float hh, float r, float density)
{
    float mc = density * GLM_PIf * r * r * 2.0f * hh;
    float mh = density * 2.0f / 3.0f * GLM_PIf * r * r * r;
    ph_mass_properties m = zero_mass();
    m.mass = mc + 2.0f * mh;
    m.volume = GLM_PIf * r * r * 2.0f * hh + 4.0f / 3.0f * GLM_PIf * r * r * r;
    float iyy = 0.5f * mc * r * r + 2.0f * 0.4f * mh * r * r;
    float ixx = mc * (0.25f * r * r + hh * hh / 3.0f) + 2.0f * mh * (0.4f * r * r + hh * hh + 0.75f * hh * r);
    m.inertia = diagonal(ixx, iyy, ixx);
    return m;
}

ph_mass_properties ph_compute_mass(const ph_convex *shape, float density)
{
    if (!shape || !positive_finite(density))
        return zero_mass();
    switch (shape->type)
    {
    case PH_SHAPE_SPHERE:
        if (positive_finite(shape->radius))
            return sphere_mass(shape->radius, density);
        break;
    case PH_SHAPE_CAPSULE:
        // A capsule of zero half height is a sphere, which the formula handles.
        if (positive_finite(shape->radius) && isfinite(shape->half_height) && shape->half_height >= 0.0f)
            return capsule_mass(shape->half_height, shape->radius, density);
        break;
    case PH_SHAPE_BOX:
        if (positive_finite(shape->half_extents.x) && positive_finite(shape->half_extents.y) &&
            positive_finite(shape->half_extents.z))
            return box_mass(shape->half_extents, density);
        break;
    case PH_SHAPE_HULL:
        return hull_mass(shape->hull, density);
    case PH_SHAPE_TRIANGLE:
    case PH_SHAPE_COMPOUND:
    case PH_SHAPE_MESH:
    case PH_SHAPE_COUNT:
        break;
    }
    return zero_mass();
}

// ---- Moving and combining --------------------------------------------------------------------------

// The tensor turns as R I R^T; the centre moves as a point.
ph_mass_properties ph_transform_mass(ph_mass_properties m, ph_transform xf)
{
    ph_mat3 r = glms_quat_mat3(glms_quat_normalize(xf.q));
    m.center = ph_transform_point(xf, m.center);
    m.inertia = glms_mat3_mul(glms_mat3_mul(r, m.inertia), glms_mat3_transpose(r));
    return m;
}

// The tensor of a point mass m at offset d from a reference: m (|d|^2 E - d d^T), which the
// parallel-axis theorem adds when moving a tensor from a body's centre to another point.
static ph_mat3 point_inertia(float mass, ph_vec3 d)
{
    ph_mat3 t;
    float d2 = glms_vec3_dot(d, d);
    for (int c = 0; c < 3; c++)
    {
        for (int r = 0; r < 3; r++)
            t.col[c].raw[r] = mass * ((r == c ? d2 : 0.0f) - d.raw[r] * d.raw[c]);
    }
    return t;
}

ph_mass_properties ph_add_mass(ph_mass_properties a, ph_mass_properties b)
{
    ph_mass_properties m = zero_mass();
    m.mass = a.mass + b.mass;
    m.volume = a.volume + b.volume;
    if (!(m.mass > 0.0f))
        return m;
    m.center = glms_vec3_scale(
        glms_vec3_add(glms_vec3_scale(a.center, a.mass), glms_vec3_scale(b.center, b.mass)), 1.0f / m.mass);
    ph_mat3 ia = mat3_add(a.inertia, point_inertia(a.mass, glms_vec3_sub(a.center, m.center)));
    ph_mat3 ib = mat3_add(b.inertia, point_inertia(b.mass, glms_vec3_sub(b.center, m.center)));
    m.inertia = mat3_add(ia, ib);
    return m;
}
