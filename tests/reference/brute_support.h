// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Brute-force references for convex shapes, shared by tests and benchmarks: dense surface samples of
// every convex shape, the best of a point list in a direction, the shape's exact point-membership test
// and the fan triangulation of a hull. They trade speed for obviousness.
#pragma once

#include "phys/collision.h"

// Writes up to capacity points on the surface of shape (local frame) and returns how many: a grid of
// `resolution` steps per face or per angle for boxes, spheres and capsules; the vertices of hulls and
// triangles (their supports are always vertices). Box corners and capsule/sphere poles are included.
int brute_surface_samples(const ph_convex *shape, int resolution, ph_vec3 *out, int capacity);

// The point of pts[0..n) with the largest dot(p, d) (the first among equals).
ph_vec3 brute_best_point(const ph_vec3 *pts, int n, ph_vec3 d);

// Signed distance from local point p to the surface of solid shape (negative inside), computed in
// double from the shape's definition (hull: the largest face-plane distance, which is exact inside and
// a lower bound of the distance outside; it is zero exactly on the surface). Triangles return the
// unsigned distance to their plane region.
double brute_signed_distance(const ph_convex *shape, ph_vec3 p);

// Fan-triangulates the faces of hull into tris (3 indices each, counter-clockwise seen from outside)
// and returns the triangle count; tris must hold 3 * (index total - 2 * face_count) ints.
int brute_hull_triangles(const ph_hull *hull, int *tris, int capacity);
