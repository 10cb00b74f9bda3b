// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Random hulls for the geometry tests (see geometry_fixtures.h).
#include "reference/geometry_fixtures.h"

#include "test.h"

#define RANDOM_HULL_MAX_POINTS 64

ph_hull *random_hull(uint64_t *rng, int points, float scale, float y_ratio, float z_ratio)
{
    ph_vec3 pts[RANDOM_HULL_MAX_POINTS];
    if (points > RANDOM_HULL_MAX_POINTS)
        points = RANDOM_HULL_MAX_POINTS;
    for (int i = 0; i < points; i++)
    {
        ph_vec3 p;
        do
            p = test_rand_vec3(rng, -1.0f, 1.0f);
        while (glms_vec3_norm2(p) > 1.0f);
        pts[i] = ph_v3(p.x * scale, p.y * y_ratio * scale, p.z * z_ratio * scale);
    }
    ph_hull_def def = ph_default_hull_def();
    def.points = pts;
    def.point_count = points;
    return ph_hull_build(&def, NULL);
}
