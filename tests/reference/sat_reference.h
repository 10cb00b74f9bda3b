// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Brute-force references for the narrow phase, in double precision, shared by the tests and
// bench/collide_bench.c: the separating-axis test over every face normal and every edge-edge cross
// product of two polyhedra (boxes, hulls, triangles), and the distance between polyhedra or from a
// point to a polyhedron by trying every vertex-face and edge-edge feature pair.
#pragma once

#include "phys/collision.h"

typedef struct sat_reference_result
{
    // Largest separation over all axes (unit: m): > 0 separated (a lower bound of the distance),
    // <= 0 overlapping with penetration depth -separation.
    double separation;
    double normal[3]; // unit axis of the largest separation, oriented from A to B
    // Largest separation over the axes not parallel to normal: when it is close to separation the
    // minimum-depth axis is ambiguous and normals should not be compared.
    double runner_up;
} sat_reference_result;

// SAT over all axes. Returns false when a shape is not a box, hull or triangle.
bool sat_reference_query(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                         sat_reference_result *out);

// Separation of B from A along the unit world axis (B on the + side): min over B - max over A.
double sat_reference_axis_separation(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                                     ph_vec3 axis);

// Distance between separated polyhedra (boxes, hulls, triangles) by trying every vertex-face and
// edge-edge pair; closest points in out_a and out_b (may be NULL). Meaningless for overlapping shapes.
double sat_reference_distance(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                              double out_a[3], double out_b[3]);

// Distance from a world point to a polyhedron (0 when the point is inside).
double sat_reference_point_distance(const double point[3], const ph_convex *shape, ph_transform xf);
