// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Brute-force O(n^2) references for the broadphase, shared by tests/test_octree.c and benchmarks:
// every pair of bounds tested against every other (Jolt's BroadPhaseBruteForce idea), and box, ray and
// frustum queries by testing every body. They take plain arrays indexed by body index, so they share
// nothing with the octree they check.
#pragma once

#include "phys/math.h"

#include <stdbool.h> // bool
#include <stdint.h>  // uint8_t

typedef struct brute_pair
{
    int a, b; // body indices, a < b
} brute_pair;

// The bodies a reference looks at: body i exists when live[i]; static[i] and active[i] as the octree
// takes them (a static body is never active; active may be NULL: every non-static body is active).
// A body whose bounds are not finite takes part in no pair and no query, as in the octree.
typedef struct brute_bodies
{
    const ph_aabb *bounds;
    const bool *live;
    const bool *is_static;
    const uint8_t *active;
    int count; // body indices 0 .. count - 1
} brute_bodies;

// Every overlapping pair (closed intervals) except static-static and inactive-inactive, as a < b in
// (a, b) order. Writes up to capacity pairs; returns the total.
int brute_pairs(const brute_bodies *bodies, brute_pair *out, int capacity);
// Bodies whose bounds overlap box, ascending. Returns the total, writes up to capacity.
int brute_query_box(const brute_bodies *bodies, ph_aabb box, int *out, int capacity);
// Bodies whose bounds are not wholly outside any of the planes (a x + b y + c z + d >= 0 inside).
int brute_query_frustum(const brute_bodies *bodies, const ph_vec4 planes[6], int *out, int capacity);
// Bodies whose bounds the segment origin + t dir, 0 <= t <= max_t, touches, with the entry parameter in
// out_t (may be NULL); computed in double precision.
int brute_query_ray(const brute_bodies *bodies, ph_vec3 origin, ph_vec3 dir, float max_t, int *out,
                    float *out_t, int capacity);
