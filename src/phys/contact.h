// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Contacts: the lifecycle from broadphase pair to persistent contact. A contact is one convex-convex
// part of a body pair (the pair itself for convex bodies; a child of a compound or a triangle of a static
// mesh otherwise), identified by (body a, body b, child a, child b) and kept sorted by that key. Each
// step the broadphase pairs are expanded into candidate parts, merged with last step's contacts (a
// linear merge of two sorted lists, so order is deterministic and lookups need no hash), and every
// contact's manifold is rebuilt by the narrow phase from its GJK cache; accumulated impulses carry over
// to the new manifold through the feature ids, for warm starting. A rebuilt manifold of polyhedra keeps the
// points of the last one that are still within the margin and on the surface they were found on (contact.c,
// kept points), and a manifold of a pair that barely moved is kept whole (recycling).
#pragma once

#include "phys/collision.h"

#include <stdbool.h> // bool
#include <stdint.h>  // uint64_t

typedef struct ph_world ph_world;
typedef struct ph_step_context ph_step_context;

typedef struct ph_contact
{
    uint64_t key; // a << 32 | b (body slots, a < b)
    uint64_t sub; // (child_a + 1) << 32 | (child_b + 1); children -1 for a convex body
    int a, b;     // body slots
    int child_a, child_b;
    float margin; // speculative margin used for this step's manifold (unit: m)
    float friction;
    float restitution;
    // The GJK cache comes before the manifold: a contact without points is carried from step to step by
    // the fields up to its cache's simplex only (contact.c, carry_contact).
    ph_gjk_cache cache;
    ph_manifold manifold;
    float normal_impulse[PH_MAX_MANIFOLD_POINTS]; // accumulated (unit: N s)
    // Friction acts at the manifold's centre (solver.c): its impulse along the manifold's tangents and its
    // twist about the normal, accumulated (unit: N s and N m s). Kept while the pair keeps points.
    float friction_impulse[2];
    float twist_impulse;
    // The manifold's normal force, low-passed over SOLVER_SAG_STEADY_TIME (solver.c, store_impulses): what
    // holds a load up, without the spikes of impacts (unit: N). Kept while the pair keeps touching.
    float steady_force;
    float patch_radius; // ph_contact_patch_radius of the manifold, worked out when it is built (unit: m)
    float radius_a, radius_b; // the parts' round radii (sphere, capsule; else 0) when it was built (unit: m)
    bool turn_a, turn_b; // the part is a sphere off its body's centre of mass (contact.c, eccentric_sphere)
    float total_impulse[PH_MAX_MANIFOLD_POINTS]; // normal impulse over the whole last step (unit: N s)
    // Recycling (contact.c): the state the manifold was built in, so that while the pair barely moves its
    // points can follow the bodies instead of running the narrow phase again.
    bool recyclable;              // a convex pair whose last manifold was built, not recycled
    ph_quat built_q_a, built_q_b; // body orientations then
    ph_vec3 built_offset;         // B's centre of mass in A's frame then (unit: m)
    ph_vec3 built_anchor_a[PH_MAX_MANIFOLD_POINTS]; // points from A's centre of mass, world axes (unit: m)
    ph_vec3 built_anchor_b[PH_MAX_MANIFOLD_POINTS]; // points from B's centre of mass, world axes (unit: m)
    float built_separation[PH_MAX_MANIFOLD_POINTS]; // (unit: m)
} ph_contact;

// A pair (or pair of parts) the step will have a contact for: the key fields of ph_contact only, so the
// candidate list is a twelfth of the contacts' size, and the pair's motion, found once for both phases.
typedef struct ph_contact_candidate
{
    uint64_t key, sub; // as ph_contact's
    int a, b;
    int child_a, child_b;
    float motion; // relative motion of the bodies over the step (unit: m)
    // Index of last step's contact with this key in the set's previous list (-1: a new pair), which the
    // narrow phase carries over itself (contact.c, merge_contacts); unused when the list did not change.
    int source;
} ph_contact_candidate;

// What the passes over every contact after the narrow phase read of each (islands, the solver's selection
// of constraints and its search for columns), kept beside the contacts by ph_contacts_update: each of those
// passes read two cache lines of every 512-byte contact (the key fields and the manifold's head), some 5 MB
// a pass in pile10k, where this is 28 bytes.
typedef struct ph_contact_brief
{
    int a, b;        // body slots, as the contact's
    int point_count; // the manifold's
    ph_vec3 normal;  // the manifold's
    bool touching;   // ph_contact_is_touching
    bool round;  // turn_a or turn_b: its anchor turns with the body, solved one at a time (solver.c, rearm)
    bool bouncy; // restitution > 0 (impact.c: the step's sequence of impacts)
} ph_contact_brief;

typedef struct ph_contact_set
{
    ph_contact *items; // sorted by (key, sub)
    int count;
    int capacity;
    ph_contact_brief *briefs; // briefs[k] for items[k], k < count
    int brief_capacity;
    ph_contact *next; // the other buffer: last step's list while the narrow phase carries it over
    int next_capacity;
    ph_contact_candidate *candidates; // this step's expanded pairs, sorted by (key, sub)
    int candidate_count;
    int candidate_capacity;
    // Last step's candidates, while the narrow phase compares this step's with the contacts: when
    // `keyed`, previous[k] has the key and sub of items[k] for every k < count (the contacts were built
    // from them and not changed since), and the comparison reads these 40 bytes a contact instead of the
    // contacts' 512, whose first cache line was the merge's one miss per contact.
    ph_contact_candidate *previous;
    int previous_capacity;
    bool keyed;
    int recycled_count; // manifolds of this step carried over from an earlier one (no narrow phase)
    int bouncy_count;   // contacts with points and restitution > 0 this step (or fewer, after removals)
} ph_contact_set;

void ph_contact_set_destroy(ph_contact_set *set);
// Builds this step's contacts from ctx->pairs and runs the narrow phase. False when out of memory
// (the contacts of last step are then kept unchanged).
bool ph_contacts_update(ph_step_context *ctx);
// The contact of the pair of convex bodies (slots a < b; their whole shapes, not compound or mesh parts),
// or NULL when there is none this step. Binary search over the sorted set.
const ph_contact *ph_contacts_find(const ph_contact_set *set, int a, int b);
// A contact point closer than this makes a touching contact (unit: m): it joins its bodies into one island
// and wakes a sleeping body; speculative points further apart do neither (unless the awake body moves).
#define PH_CONTACT_TOUCH_DISTANCE 0.005f
bool ph_contact_is_touching(const ph_contact *c);
// Largest error of a recycled manifold's separations (unit: m); see contact.c.
#define PH_CONTACT_RECYCLE_DISTANCE 0.01f
// Drops every contact of body slot (called when it is removed).
void ph_contacts_remove_body(ph_contact_set *set, int slot);
// Two unit tangents completing the manifold normal n to a right-handed basis (deterministic).
void ph_contact_tangents(ph_vec3 n, ph_vec3 *out_t1, ph_vec3 *out_t2);

// The mean distance of a manifold's contact patch from its centre under a uniform pressure (unit: m): the
// arm of the friction torque about the normal (twist). The patch is the convex polygon of the points in the
// plane of the normal, a segment for two points (a quarter of its length), nothing for one (0). A unit
// square gives (sqrt 2 + ln(1 + sqrt 2)) / 6 = 0.3826.
float ph_contact_patch_radius(const ph_manifold *m);
