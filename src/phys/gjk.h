// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Narrow-phase internals shared by gjk.c, epa.c, manifold.c and toi.c: the support "proxy" of a
// posed convex shape (optionally reduced to its core: a sphere to its centre, a capsule to its
// segment, the radius kept aside), the core GJK loop and the relative tolerances.
#pragma once

#include "phys/collision.h"

// A posed convex shape as GJK and EPA see it. With core set, spheres and capsules are reduced to a
// point and a segment and `radius` holds the rounding that the caller adds back: the Minkowski
// difference of the full shapes is the cores' difference grown by radius_a + radius_b, so distances
// shrink and depths grow by exactly that sum. This makes sphere and capsule queries exact and cheap.
typedef struct ph_gjk_proxy
{
    const ph_convex *shape;
    ph_transform xf;
    ph_mat3 rot;    // rotation matrix of xf.q: world = rot * local + xf.p
    ph_mat3 rot_t;  // its transpose: local direction = rot_t * world direction
    float radius;   // rounding left out of the core (unit: m); 0 for polyhedra and full shapes
    int hull_start; // the last hull support (vertex index, -1 for none): a large hull's climb starts there
    bool core;      // supports are those of the core shape
    bool identity;  // xf is the identity (the first shape of a pair posed in its own frame)
} ph_gjk_proxy;

// Rotation matrix of q (column-major), without a square root (cglm's glms_quat_mat3 normalises q first).
ph_mat3 ph_quat_to_mat3(ph_quat q);
// True when the shape's parameters are finite and usable (positive sizes, a built hull).
bool ph_convex_is_valid(const ph_convex *shape);
// True when the transform is finite and its quaternion has unit length within a loose tolerance.
bool ph_transform_is_valid(ph_transform xf);
// A length that characterises the shape (its bounding radius about the frame origin, unit: m), used to
// make tolerances relative to the size of what is compared.
float ph_convex_extent(const ph_convex *shape);

void ph_gjk_proxy_init(ph_gjk_proxy *proxy, const ph_convex *shape, ph_transform xf, bool core);
// Poses a pair in A's frame: A at the identity and B at xa^-1 * xb. Each support then costs one rotation
// less, and ph_gjk_run's results come out in A's frame (see ph_gjk_output_to_world).
void ph_gjk_pair_init(ph_gjk_proxy *pa, ph_gjk_proxy *pb, const ph_convex *a, ph_transform xa,
                      const ph_convex *b, ph_transform xb, bool core);
// Moves the points, normal and simplex of a run on a pair posed by ph_gjk_pair_init to world space.
void ph_gjk_output_to_world(ph_gjk_output *out, ph_transform xa);

// Support point in local direction d, in the proxy's local frame.
ph_vec3 ph_gjk_proxy_support_local(ph_gjk_proxy *proxy, ph_vec3 d);
// Support vertex of the Minkowski difference B - A in world direction d.
ph_simplex_vertex ph_gjk_support(ph_gjk_proxy *a, ph_gjk_proxy *b, ph_vec3 d);
// Re-evaluates the world point w of a vertex from its local witnesses.
void ph_gjk_refresh_vertex(const ph_gjk_proxy *a, const ph_gjk_proxy *b, ph_simplex_vertex *v);

// The GJK loop on the proxies as given (cores or full shapes). warm may be NULL. With intersect_only
// it returns PH_GJK_SEPARATED as soon as a plane separates the Minkowski difference from the ball of
// radius `grow` around the origin (distance > grow proven); the other fields are then only
// estimates. out->distance, points and normal are those of the proxies (no radius added).
ph_gjk_status ph_gjk_run(ph_gjk_proxy *a, ph_gjk_proxy *b, const ph_simplex *warm, bool intersect_only,
                         float grow, ph_gjk_output *out);
// ph_gjk_run's full answer for a pair within `limit` of each other; a pair further apart may stop as soon as
// that is proven (a plane separates the ball of radius limit from the difference), with PH_GJK_SEPARATED,
// out->distance above limit, and the points and normal of the simplex reached (the narrow phase's pairs that
// the broadphase found but are apart by more than the margin: most of a pile's).
ph_gjk_status ph_gjk_run_within(ph_gjk_proxy *a, ph_gjk_proxy *b, const ph_simplex *warm, float limit,
                                ph_gjk_output *out);

// Boolean GJK on proxies without rounding: PH_GJK_OVERLAPPING (the final simplex, 1 to 4 vertices, holds the
// origin; touching counts), PH_GJK_SEPARATED, or PH_GJK_MAX_ITERATIONS when undecided. Cheaper than
// ph_gjk_run (sign tests only) when no distance is wanted.
ph_gjk_status ph_gjk_boolean(ph_gjk_proxy *a, ph_gjk_proxy *b, ph_simplex *out_simplex);
