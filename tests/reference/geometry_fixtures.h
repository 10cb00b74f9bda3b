// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Fixtures shared by the geometry tests (gjk, epa, manifold, collide): the accuracy bar, the scales every
// analytic case is run at, poses, and random hulls drawn from the tests' seeded generator (tests/test.h),
// so that a printed seed reproduces them.
#pragma once

#include "phys/collision.h"

#include <stdint.h> // uint64_t

// Depths, distances and points are compared to this fraction of the shapes' size (the 1e-4).
static const float REL_TOL = 1e-4f;
// 1 mm to 1 km.
static const float SCALES[] = {1e-3f, 1.0f, 1e3f};
#define SCALE_COUNT ((int)(sizeof SCALES / sizeof SCALES[0]))

static inline ph_transform pose(ph_vec3 p, ph_quat q)
{
    ph_transform t;
    t.p = p;
    t.q = q;
    return t;
}

// A double-precision reference vector as float.
static inline ph_vec3 dvec(const double d[3])
{
    return ph_v3((float)d[0], (float)d[1], (float)d[2]);
}

// The hull of `points` (at most 64) points uniform in the unit ball, scaled by scale along x,
// y_ratio * scale along y and z_ratio * scale along z (ratios below 1 give hulls that are neither boxes
// nor spheres). Free with ph_hull_free(); NULL if the hull cannot be built.
ph_hull *random_hull(uint64_t *rng, int points, float scale, float y_ratio, float z_ratio);
