// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Internal geometry helpers shared by raycast.c and mesh.c (and usable by the world's queries):
// local-space ray tests that the public ray casts wrap with transforms and validation.
#pragma once

#include "phys/collision.h"

// A ray hit in the shape's local frame: distance along the unit direction and the local unit normal.
typedef struct ph_local_hit
{
    float t;        // (unit: m)
    ph_vec3 normal; // local, unit, facing the ray
    bool inside;    // the ray started inside the solid (t = 0, normal = -d)
} ph_local_hit;

// Ray o + t d (d unit, local space) against convex shape, for t in [0, max_t]. A ray starting inside a
// solid shape hits at t = 0 with normal -d. Triangles are two-sided and have no inside.
bool ph_ray_local(const ph_convex *shape, ph_vec3 o, ph_vec3 d, float max_t, ph_local_hit *out);

// Ray o + t d against triangle (a, b, c), both sides (Moller-Trumbore), for t in [0, max_t].
bool ph_ray_triangle(ph_vec3 o, ph_vec3 d, ph_vec3 a, ph_vec3 b, ph_vec3 c, float max_t, ph_local_hit *out);

// Slab test of ray o + t d against box, with inv_d = 1 / d per component (infinite for zero
// components). Returns the entry distance clamped to >= 0 in *out_t_enter when the ray meets the box
// within [0, max_t].
bool ph_ray_aabb(ph_vec3 o, ph_vec3 inv_d, ph_aabb box, float max_t, float *out_t_enter);
