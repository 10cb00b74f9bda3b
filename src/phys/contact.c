// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Contact lifecycle and the narrow phase of the step; see contact.h. The speculative margin of a pair
// grows with the pair's relative motion over the step (Catto, "Continuous collision", GDC 2013:
// speculative contacts), so a body that will reach another within this step already has contact points
// and the solver stops it at the surface instead of letting it sink in by a step's travel. The margin is
// capped; faster pairs are the in-frame calendar's work (calendar.c).
#include "contact.h"

#include "array.h"
#include "core.h"
#include "world.h"

#include <stdatomic.h> // the narrow phase's counts, summed over the workers
#include <stddef.h>    // offsetof
#include <stdlib.h>    // qsort
#include <string.h>    // memcpy, memset

// Most extra speculative distance from relative motion (unit: m). Beyond this the calendar takes over.
#define CONTACT_MAX_MOTION_MARGIN 1.0f
// An old contact point this close to a new one hands over its impulse when feature ids differ (unit: m).
#define CONTACT_MATCH_DISTANCE 0.01f
#define CONTACT_MESH_QUERY_MAX 4096 // most triangles one mesh query may return per part
// Contact recycling keeps a convex pair's manifold while its relative pose stays within
// PH_CONTACT_RECYCLE_DISTANCE of the pose the manifold was built at (contact.h), and neither body has turned
// by more than this angle since (unit: rad; 3 degrees).
#define CONTACT_RECYCLE_ANGLE 0.05f
// Fewest contacts a worker takes at a time in the narrow phase (task.h): a contact's manifold costs about a
// microsecond, a range a claim and some cache lines passed between cores.
#define CONTACT_MIN_RANGE 32
// Kept points (keep_lifted_points): an old point is kept over a rebuild while its two anchors have slid
// apart along the surface by at most this much since the narrow phase found it (unit: m), ...
#define CONTACT_KEEP_DRIFT 0.005f
// ... the new normal is within this cosine of the old one (about 3.6 degrees) ...
#define CONTACT_KEEP_COS 0.998f
// ... and no new point is this close to it (unit: m).
#define CONTACT_KEEP_APART 0.01f
// A manifold polygon with less area than this is a line (ph_contact_patch_radius; unit: m^2).
#define CONTACT_PATCH_MIN_AREA 1e-8f
// A sphere whose centre is further than this fraction of its radius from its body's centre of mass is
// eccentric (eccentric_sphere).
#define CONTACT_ECCENTRIC_FRACTION 1e-3f

typedef struct mesh_collect
{
    ph_contact_set *set;
    int a, b, child_a, mesh_is_a;
    float motion;
    bool overflow;
    int found;
} mesh_collect;

static uint64_t make_sub(int child_a, int child_b)
{
    return ((uint64_t)(uint32_t)(child_a + 1) << 32) | (uint64_t)(uint32_t)(child_b + 1);
}

static bool push_candidate(ph_contact_set *set, int a, int b, int child_a, int child_b, float motion)
{
    if (!ph_array_reserve(set->candidates, set->candidate_capacity, set->candidate_count + 1))
        return false;
    set->candidates[set->candidate_count++] =
        (ph_contact_candidate){((uint64_t)(uint32_t)a << 32) | (uint32_t)b,
                               make_sub(child_a, child_b),
                               a,
                               b,
                               child_a,
                               child_b,
                               motion,
                               -1};
    return true;
}

static ph_aabb aabb_grow(ph_aabb box, float r)
{
    ph_vec3 e = ph_v3(r, r, r);
    box.lo = glms_vec3_sub(box.lo, e);
    box.hi = glms_vec3_add(box.hi, e);
    return box;
}

static bool collect_triangle(int triangle, void *ctx)
{
    mesh_collect *mc = ctx;
    if (mc->found >= CONTACT_MESH_QUERY_MAX)
    {
        mc->overflow = true;
        return false;
    }
    mc->found++;
    bool ok = mc->mesh_is_a ? push_candidate(mc->set, mc->a, mc->b, triangle, mc->child_a, mc->motion)
                            : push_candidate(mc->set, mc->a, mc->b, mc->child_a, triangle, mc->motion);
    if (!ok)
        mc->overflow = true;
    return ok;
}

static int compare_sub(const void *x, const void *y)
{
    const ph_contact_candidate *p = x, *q = y;
    return p->sub < q->sub ? -1 : p->sub > q->sub ? 1 : 0;
}

// Bounds of part `child` of body slot (whole body for -1) in the mesh body's frame.
static ph_aabb part_bounds_in(const ph_world *world, int slot, int child, const ph_body *frame_body)
{
    ph_convex shape;
    ph_transform xf;
    ph_world_child_shape(world, slot, child, &shape, &xf);
    ph_transform inv;
    inv.q = glms_quat_conjugate(frame_body->xf.q);
    inv.p = glms_quat_rotatev(inv.q, glms_vec3_negate(frame_body->xf.p));
    return ph_convex_bounds(&shape, ph_transform_mul(inv, xf));
}

// Appends the parts of body pair (a, b) that are within margin of each other, sorted by sub key.
static bool expand_pair(ph_world *world, int a, int b, float motion, float margin)
{
    ph_contact_set *set = &world->contacts;
    const ph_body *ba = &world->bodies[a], *bb = &world->bodies[b];
    int first = set->candidate_count;
    const ph_compound *ca = ba->compound, *cb = bb->compound;
    if (ba->mesh || bb->mesh)
    {
        // A mesh is static, so the other body is not a mesh (static pairs never reach here).
        bool mesh_is_a = ba->mesh != NULL;
        const ph_body *mb = mesh_is_a ? ba : bb;
        int other = mesh_is_a ? b : a;
        const ph_compound *oc = mesh_is_a ? cb : ca;
        int parts = oc ? oc->child_count : 1;
        for (int i = 0; i < parts; i++)
        {
            mesh_collect mc = {set, a, b, oc ? i : -1, mesh_is_a, motion, false, 0};
            ph_aabb box = aabb_grow(part_bounds_in(world, other, oc ? i : -1, mb), margin);
            ph_mesh_query(mb->mesh, box, collect_triangle, &mc);
            if (mc.overflow)
                ph_log(PH_LOG_WARNING, "A mesh query met more than %d triangles; extra ones are ignored.",
                       CONTACT_MESH_QUERY_MAX);
        }
    }
    else if (ca || cb)
    {
        int na = ca ? ca->child_count : 1, nb = cb ? cb->child_count : 1;
        for (int i = 0; i < na; i++)
        {
            ph_convex sa;
            ph_transform xa;
            ph_world_child_shape(world, a, ca ? i : -1, &sa, &xa);
            ph_aabb box_a = aabb_grow(ph_convex_bounds(&sa, xa), margin);
            if (!ph_aabb_overlaps(&box_a, &bb->bounds))
                continue;
            for (int j = 0; j < nb; j++)
            {
                ph_convex sb;
                ph_transform xb;
                ph_world_child_shape(world, b, cb ? j : -1, &sb, &xb);
                ph_aabb box_b = ph_convex_bounds(&sb, xb);
                if (ph_aabb_overlaps(&box_a, &box_b) &&
                    !push_candidate(set, a, b, ca ? i : -1, cb ? j : -1, motion))
                    return false;
            }
        }
    }
    else if (!push_candidate(set, a, b, -1, -1, motion))
        return false;
    int n = set->candidate_count - first;
    if (n > 1)
        qsort(set->candidates + first, (size_t)n, sizeof *set->candidates, compare_sub);
    return true;
}

// Relative motion of the pair over the step, an upper bound on how far their surfaces can approach.
static float pair_motion(const ph_world *world, int a, int b, float dt)
{
    const ph_body_state *sa = &world->states[a], *sb = &world->states[b];
    const ph_body *ba = &world->bodies[a], *bb = &world->bodies[b];
    float lin = glms_vec3_norm(glms_vec3_sub(sb->v, sa->v));
    float ang = glms_vec3_norm(sa->w) * ba->bound_radius + glms_vec3_norm(sb->w) * bb->bound_radius;
    return (lin + ang) * dt;
}

// The speculative margin of a pair that moves this much over the step (unit: m).
static float pair_margin(const ph_world *world, float motion)
{
    return world->def.speculative_margin +
           (motion < CONTACT_MAX_MOTION_MARGIN ? motion : CONTACT_MAX_MOTION_MARGIN);
}

// Four floats, one per anchor, in one vector register (GCC and Clang vector extensions: lane-wise IEEE
// arithmetic, so each lane computes exactly what the scalar code does).
typedef float contact_f4 __attribute__((vector_size(16)));

// glms_quat_rotatev(q, v) of all PH_MAX_MANIFOLD_POINTS anchors v for a unit q at once: cglm's operations in
// its order (u k1 + v k2 + (u x v) k3 with k1 = 2 u.v, k2 = s^2 - u.u, k3 = 2 s), so bit for bit its results
// once q is normalised, which the caller does once per body rather than cglm once per vector; four anchors
// per vector instruction (a point past the manifold's count
// is turned too, and not read: its anchor is one of an earlier build, or the zeros of a new contact). The
// components are gathered into registers, not into arrays: arrays filled by narrower stores and read back
// whole stall on the failed store forwarding, which cost more than the rotations.
static void rotate_anchors(const ph_quat *p, const ph_vec3 *v, ph_vec3 *out)
{
    _Static_assert(PH_MAX_MANIFOLD_POINTS == 4, "one anchor per vector lane");
    float x = p->x, y = p->y, z = p->z, s = p->w;
    float k2s = s * s - (x * x + y * y + z * z), k3s = 2.0f * s;
    contact_f4 vx = {v[0].x, v[1].x, v[2].x, v[3].x};
    contact_f4 vy = {v[0].y, v[1].y, v[2].y, v[3].y};
    contact_f4 vz = {v[0].z, v[1].z, v[2].z, v[3].z};
    contact_f4 ux = {x, x, x, x}, uy = {y, y, y, y}, uz = {z, z, z, z};
    contact_f4 k2 = {k2s, k2s, k2s, k2s}, k3 = {k3s, k3s, k3s, k3s}, two = {2.0f, 2.0f, 2.0f, 2.0f};
    contact_f4 k1 = two * (ux * vx + uy * vy + uz * vz);
    contact_f4 ox = (ux * k1 + vx * k2) + (uy * vz - uz * vy) * k3;
    contact_f4 oy = (uy * k1 + vy * k2) + (uz * vx - ux * vz) * k3;
    contact_f4 oz = (uz * k1 + vz * k2) + (ux * vy - uy * vx) * k3;
    for (int i = 0; i < PH_MAX_MANIFOLD_POINTS; i++)
        out[i] = ph_v3(ox[i], oy[i], oz[i]);
}

// Contact recycling (the idea of Box2D v3.2 / Box3D, "contact recycling"; the persistent manifolds of
// PhysX and Bullet are its ancestors). A manifold built for a pair that then barely moves is kept: the
// world normal stays, each point's anchors turn with their body, and the separation follows the bodies'
// motion exactly as the solver's sub-steps measure it, s = s0 + n . ((c_b + r_b) - (c_a + r_a)), so the
// narrow phase is skipped for resting contacts, most of a stack's pairs (pyramid1240: 6.0 -> 1.5 ms per
// step). The distance bound is also the largest error of a kept separation: a feature that is not in the
// kept manifold can have come at most that much closer; Box3D allows 5 cm, we half the speculative margin.
// Pairs with compound or mesh parts and fast pairs always run the narrow phase.
static bool can_recycle(const ph_world *world, const ph_contact *c, float motion)
{
    if (!c->recyclable || c->child_a >= 0 || c->child_b >= 0 || motion > world->def.speculative_margin)
        return false;
    const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
    // |dot(q, q0)| = cos(angle / 2), so 1 - dot^2 = sin^2(angle / 2), about (angle / 2)^2.
    const float half = 0.5f * CONTACT_RECYCLE_ANGLE;
    float da = glms_quat_dot(ba->xf.q, c->built_q_a), db = glms_quat_dot(bb->xf.q, c->built_q_b);
    if (1.0f - da * da > half * half || 1.0f - db * db > half * half)
        return false;
    ph_quat inv_a = glms_quat_conjugate(ba->xf.q);
    ph_vec3 offset = glms_quat_rotatev(inv_a, glms_vec3_sub(bb->center, ba->center));
    float moved = glms_vec3_distance(offset, c->built_offset);
    // Relative rotation since the build: twice the vector part of q_rel q_rel0^-1 is about its angle.
    ph_quat rel = glms_quat_mul(inv_a, bb->xf.q),
            rel0 = glms_quat_mul(glms_quat_conjugate(c->built_q_a), c->built_q_b);
    ph_quat turn = glms_quat_mul(rel, glms_quat_conjugate(rel0));
    float angle = 2.0f * sqrtf(turn.x * turn.x + turn.y * turn.y + turn.z * turn.z);
    // The points lie on the moving bodies; a static body's own extent (a whole floor) does not count.
    float reach =
        fmaxf(ba->inv_mass > 0.0f ? ba->bound_radius : 0.0f, bb->inv_mass > 0.0f ? bb->bound_radius : 0.0f);
    return moved + angle * reach < PH_CONTACT_RECYCLE_DISTANCE;
}

// The anchors of the manifold c was last built with, turned with their bodies since (world axes).
static void turned_anchors(const ph_world *world, const ph_contact *c, ph_vec3 *ra, ph_vec3 *rb)
{
    const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
    ph_quat turn_a = glms_quat_normalize(glms_quat_mul(ba->xf.q, glms_quat_conjugate(c->built_q_a)));
    ph_quat turn_b = glms_quat_normalize(glms_quat_mul(bb->xf.q, glms_quat_conjugate(c->built_q_b)));
    rotate_anchors(&turn_a, c->built_anchor_a, ra);
    rotate_anchors(&turn_b, c->built_anchor_b, rb);
}

// Moves a kept manifold's points with their bodies and updates their separations.
static void recycle(const ph_world *world, ph_contact *c)
{
    const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
    ph_vec3 ra[PH_MAX_MANIFOLD_POINTS], rb[PH_MAX_MANIFOLD_POINTS];
    turned_anchors(world, c, ra, rb);
    ph_vec3 n = c->manifold.normal;
    for (int i = 0; i < c->manifold.point_count; i++)
    {
        ph_vec3 pa = glms_vec3_add(ba->center, ra[i]);
        ph_vec3 pb = glms_vec3_add(bb->center, rb[i]);
        ph_manifold_point *mp = &c->manifold.points[i];
        mp->separation = c->built_separation[i] + glms_vec3_dot(glms_vec3_sub(pb, pa), n);
        mp->point = glms_vec3_scale(glms_vec3_add(pa, pb), 0.5f);
    }
}

// Kept points. The narrow phase gives the features of two polyhedra that touch now: one reference face, or
// one pair of edges. A body rocking between two supports (a hull of a heap on two edges of another, tipping
// from one to the next and back) loses the support it lifted off at the next rebuild, and when it rocks
// back that support joins the manifold only once it is the deepest feature: 1 to 2 mm into the other body,
// found a step or two late. The push out of that overlap lifted the body a little at every rock, more than
// the impact at the support took from the rocking, and a heap of 200 hulls (seed 3 of 20 on the SSE2
// path) took 47 s to fall asleep. Persistent manifolds (Bullet's) keep such points; here a rebuilt manifold
// of fewer than 4 points keeps its last build's points that the narrow phase did not find again while they
// are within the margin, their anchors have not slid apart along the surface by more than CONTACT_KEEP_DRIFT
// since they were found (the surface under them is still the one they were found on), and the normal has
// not turned: the lifted support is then a speculative point, and the body comes back onto it as it does
// onto a support it never left. A kept point keeps its anchors and separation from when it was found, so
// its drift and separation are measured from there however many rebuilds keep it.
typedef struct kept_point
{
    ph_vec3 ra, rb; // anchors from A's and B's centres of mass now, world axes (unit: m)
    float s0;       // separation when found, with n . (c_b + rb - c_a - ra) the change since (unit: m)
    uint32_t id;
} kept_point;

// After the rebuild, while c's anchors and build state are still the old manifold's (old: its points and
// normal): appends to the new manifold the old points it lacks (ids and places) that may be kept, while it
// has room and its normal is the old one's, their anchors and first separations written to kept[] and
// marked in appended[] by the slot each took.
static void keep_lifted_points(const ph_world *world, ph_contact *c, const ph_manifold *old, kept_point *kept,
                               const kept_point **appended)
{
    ph_manifold *m = &c->manifold;
    if (!c->recyclable || old->point_count == 0 || old->point_count >= PH_MAX_MANIFOLD_POINTS ||
        m->point_count == 0 || m->point_count >= PH_MAX_MANIFOLD_POINTS ||
        glms_vec3_dot(m->normal, old->normal) < CONTACT_KEEP_COS)
        return;
    const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
    ph_vec3 ra[PH_MAX_MANIFOLD_POINTS], rb[PH_MAX_MANIFOLD_POINTS];
    turned_anchors(world, c, ra, rb);
    int fresh = m->point_count;
    for (int i = 0; i < old->point_count && m->point_count < PH_MAX_MANIFOLD_POINTS; i++)
    {
        ph_vec3 pa = glms_vec3_add(ba->center, ra[i]), pb = glms_vec3_add(bb->center, rb[i]);
        ph_vec3 d = glms_vec3_sub(pb, pa);
        float along = glms_vec3_dot(d, old->normal);
        ph_vec3 slide = glms_vec3_sub(d, glms_vec3_scale(old->normal, along));
        if (c->built_separation[i] + along > c->margin ||
            glms_vec3_norm2(slide) > CONTACT_KEEP_DRIFT * CONTACT_KEEP_DRIFT)
            continue;
        ph_vec3 point = glms_vec3_scale(glms_vec3_add(pa, pb), 0.5f);
        uint32_t id = old->points[i].id;
        bool found = false;
        for (int f = 0; f < fresh && !found; f++)
            found = m->points[f].id == id ||
                    glms_vec3_distance2(m->points[f].point, point) < CONTACT_KEEP_APART * CONTACT_KEEP_APART;
        if (found)
            continue;
        kept_point *k = &kept[m->point_count];
        *k = (kept_point){ra[i], rb[i], c->built_separation[i], id};
        ph_manifold_point *mp = &m->points[m->point_count];
        mp->point = point;
        mp->separation = k->s0 + glms_vec3_dot(d, m->normal);
        mp->id = id;
        appended[m->point_count++] = k;
    }
}

// Records the state a freshly built manifold belongs to, for recycling.
static void remember_build(const ph_world *world, ph_contact *c)
{
    const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
    // Not a pair with a round part (sphere, capsule): its contact point is not a point of either body. It
    // stays under the core as the body rolls, where a kept manifold's anchors stay behind, the other body's
    // where it was built: the normal force then acts behind the rolling core, its arm growing with the roll,
    // and a capsule lying still on the ground, given a spin of 1e-4 rad/s by rounding, began to roll by
    // itself (its spin doubling every four steps) and rolled on at 1.3 rad/s; the ragdolls' limbs on the
    // stairs rocked for ever. The narrow phase of such pairs is cheap.
    c->recyclable = c->child_a < 0 && c->child_b < 0 && c->manifold.point_count > 0 && c->radius_a == 0.0f &&
                    c->radius_b == 0.0f;
    if (!c->recyclable)
        return;
    c->built_q_a = ba->xf.q;
    c->built_q_b = bb->xf.q;
    c->built_offset = glms_quat_rotatev(glms_quat_conjugate(ba->xf.q), glms_vec3_sub(bb->center, ba->center));
    for (int i = 0; i < c->manifold.point_count; i++)
    {
        const ph_manifold_point *mp = &c->manifold.points[i];
        c->built_anchor_a[i] = glms_vec3_sub(mp->point, ba->center);
        c->built_anchor_b[i] = glms_vec3_sub(mp->point, bb->center);
        c->built_separation[i] = mp->separation;
    }
}

// Integral of the distance from the origin over the triangle (origin, p, q) in the plane, for the edge from
// p to q: with the edge on the line at distance d from the origin and t the coordinate along it from the
// foot of the perpendicular, the triangle is r < d / cos(psi) with tan(psi) = t / d, so the integral of r
// r dr dpsi is d^3 / 3 times the integral of sec^3, which gives (d / 6) [t sqrt(d^2 + t^2) + d^2
// asinh(t / d)] from t_p to t_q. Returns it, and the triangle's area in *area; both signed by the edge's
// orientation about the origin.
static float edge_distance_integral(float px, float py, float qx, float qy, float *area)
{
    float ex = qx - px, ey = qy - py;
    float len = sqrtf(ex * ex + ey * ey);
    float cross = px * qy - py * qx;
    *area = 0.5f * cross;
    if (len <= 0.0f)
        return 0.0f;
    float d = fabsf(cross) / len;
    float tp = (px * ex + py * ey) / len, tq = (qx * ex + qy * ey) / len;
    float sign = cross < 0.0f ? -1.0f : 1.0f;
    if (d <= 0.0f)
        return 0.0f;
    float fq = tq * sqrtf(d * d + tq * tq) + d * d * asinhf(tq / d);
    float fp = tp * sqrtf(d * d + tp * tp) + d * d * asinhf(tp / d);
    return sign * d / 6.0f * (fq - fp);
}

// The radius a round shape's surface lies at from its core (a point or a segment), which the solver's
// separations leave out (solver_internal.h, constraint_point); 0 for shapes with corners.
static float round_radius(const ph_convex *shape)
{
    return shape->type == PH_SHAPE_SPHERE || shape->type == PH_SHAPE_CAPSULE ? shape->radius : 0.0f;
}

// Whether a part is a sphere whose centre is off its body's centre of mass (a weighted ball, a compound's
// sphere): the solver turns its contact anchor with the body (solver.c, rearm). A centred sphere's anchor is
// the centre of mass itself, which no turn moves.
static bool eccentric_sphere(const ph_world *world, int slot, const ph_convex *part, ph_transform xf)
{
    if (part->type != PH_SHAPE_SPHERE)
        return false;
    ph_vec3 off = glms_vec3_sub(xf.p, world->bodies[slot].center);
    float least = CONTACT_ECCENTRIC_FRACTION * part->radius;
    return glms_vec3_dot(off, off) > least * least;
}

// A number that orders directions (x, y) as atan2f(y, x) orders them, cut where atan2f is (-pi below the
// negative x axis, pi above it), without its cost: the position along the unit diamond |x| + |y| = 1, in
// (-2, 2] (a quarter turn is 1). The origin gives 0, as atan2f(0, 0).
static float pseudo_angle(float y, float x)
{
    float sum = fabsf(x) + fabsf(y);
    if (!(sum > 0.0f))
        return 0.0f;
    float t = y / sum; // in [-1, 1]: sin-like, increasing with the angle on the right half
    if (x >= 0.0f)
        return t;
    return signbit(y) ? -2.0f - t : 2.0f - t;
}

float ph_contact_patch_radius(const ph_manifold *m)
{
    int n = m->point_count;
    if (n < 2)
        return 0.0f;
    ph_vec3 c = glms_vec3_zero();
    for (int i = 0; i < n; i++)
        c = glms_vec3_add(c, m->points[i].point);
    c = glms_vec3_scale(c, 1.0f / (float)n);
    if (n == 2) // a line of uniform pressure: the mean distance from its middle is a quarter of its length
        return 0.25f * glms_vec3_distance(m->points[0].point, m->points[1].point);
    // The points in the plane of the normal, ordered by angle about their centroid (the clipping's reduction
    // keeps no order): the polygon they span is the patch.
    ph_vec3 t1, t2;
    ph_contact_tangents(m->normal, &t1, &t2);
    float x[PH_MAX_MANIFOLD_POINTS], y[PH_MAX_MANIFOLD_POINTS], angle[PH_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < n; i++)
    {
        ph_vec3 r = glms_vec3_sub(m->points[i].point, c);
        x[i] = glms_vec3_dot(r, t1);
        y[i] = glms_vec3_dot(r, t2);
        angle[i] = pseudo_angle(y[i], x[i]);
    }
    for (int i = 1; i < n; i++) // insertion sort of at most 4
        for (int j = i; j > 0 && angle[j] < angle[j - 1]; j--)
        {
            float ta = angle[j], tx = x[j], ty = y[j];
            angle[j] = angle[j - 1], x[j] = x[j - 1], y[j] = y[j - 1];
            angle[j - 1] = ta, x[j - 1] = tx, y[j - 1] = ty;
        }
    float integral = 0.0f, area = 0.0f;
    for (int i = 0; i < n; i++)
    {
        int k = (i + 1) % n;
        float a;
        integral += edge_distance_integral(x[i], y[i], x[k], y[k], &a);
        area += a;
    }
    // A degenerate polygon (points on a line) has no area: the line's longest extent stands in.
    if (area <= CONTACT_PATCH_MIN_AREA)
    {
        float longest = 0.0f;
        for (int i = 0; i < n; i++)
            for (int k = i + 1; k < n; k++)
                longest = fmaxf(longest, glms_vec3_distance(m->points[i].point, m->points[k].point));
        return 0.25f * longest;
    }
    return integral / area;
}

void ph_contact_tangents(ph_vec3 n, ph_vec3 *out_t1, ph_vec3 *out_t2)
{
    // Pick the axis least aligned with n so the cross product is well conditioned (0.57735 = 1/sqrt 3:
    // some component is always at least that large).
    ph_vec3 t = fabsf(n.x) >= 0.57735f ? ph_v3(n.y, -n.x, 0.0f) : ph_v3(0.0f, n.z, -n.y);
    *out_t1 = glms_vec3_normalize(t);
    *out_t2 = glms_vec3_cross(n, *out_t1);
}

// Carries accumulated impulses from the old manifold to the new one: by feature id first; a point whose
// id is new takes the impulse of the nearest unclaimed old point within CONTACT_MATCH_DISTANCE. The
// fallback matters for aligned faces (a box resting squarely on another): there a corner coincides with
// an edge of the other face, and a tiny tilt changes which features the clipping names, while the
// point itself has not moved; losing the warm start there makes stacks wobble.
static void match_impulses(ph_contact *c, const ph_contact *old)
{
    bool used[PH_MAX_MANIFOLD_POINTS] = {false, false, false, false};
    int source[PH_MAX_MANIFOLD_POINTS];
    int n = c->manifold.point_count, m = old->manifold.point_count;
    for (int i = 0; i < n; i++)
    {
        source[i] = -1;
        for (int j = 0; j < m; j++)
        {
            if (!used[j] && old->manifold.points[j].id == c->manifold.points[i].id)
            {
                source[i] = j;
                used[j] = true;
                break;
            }
        }
    }
    for (int i = 0; i < n; i++)
    {
        if (source[i] >= 0)
            continue;
        float best = CONTACT_MATCH_DISTANCE * CONTACT_MATCH_DISTANCE;
        for (int j = 0; j < m; j++)
        {
            float d2 = glms_vec3_distance2(old->manifold.points[j].point, c->manifold.points[i].point);
            if (!used[j] && d2 <= best)
            {
                best = d2;
                source[i] = j;
            }
        }
        if (source[i] >= 0)
            used[source[i]] = true;
    }
    for (int i = 0; i < n; i++)
    {
        int j = source[i];
        c->normal_impulse[i] = j >= 0 ? old->normal_impulse[j] : 0.0f;
        c->total_impulse[i] = 0.0f; // until the solver reports this step's
    }
    // The friction impulses belong to the manifold as a whole: a pair that keeps touching keeps them; one
    // that had no points starts from none (a carried contact without points kept no impulses).
    if (m == 0)
    {
        c->friction_impulse[0] = c->friction_impulse[1] = 0.0f;
        c->twist_impulse = 0.0f;
        c->steady_force = 0.0f;
    }
}

bool ph_contact_is_touching(const ph_contact *c)
{
    for (int i = 0; i < c->manifold.point_count; i++)
        if (c->manifold.points[i].separation < PH_CONTACT_TOUCH_DISTANCE)
            return true;
    return false;
}

// Faster than the sleep thresholds.
static bool is_moving(const ph_world *world, int slot)
{
    const ph_body_state *st = &world->states[slot];
    return glms_vec3_norm2(st->v) > PH_SLEEP_LINEAR_SPEED * PH_SLEEP_LINEAR_SPEED ||
           glms_vec3_norm2(st->w) > PH_SLEEP_ANGULAR_SPEED * PH_SLEEP_ANGULAR_SPEED;
}

typedef struct contact_key
{
    uint64_t key, sub;
} contact_key;

// The key and sub of last step's contact k: from last step's candidates when the set is keyed (see
// ph_contact_set), else from the contact itself.
static inline contact_key old_key(const ph_contact_set *set, bool keyed, int k)
{
    return keyed ? (contact_key){set->previous[k].key, set->previous[k].sub}
                 : (contact_key){set->items[k].key, set->items[k].sub};
}

// True when this step's candidates are last step's contacts, one for one (a resting stack, a pile, a box on
// the floor: most steps of most scenes): the set is already this step's, in order, and the merge would only
// copy every contact (some 500 bytes each) to the other buffer.
static bool same_contacts(const ph_contact_set *set, bool keyed)
{
    if (set->candidate_count != set->count)
        return false;
    for (int k = 0; k < set->count; k++)
    {
        contact_key old = old_key(set, keyed, k);
        if (old.key != set->candidates[k].key || old.sub != set->candidates[k].sub)
            return false;
    }
    return true;
}

// A contact that kept last step's contact: the whole contact (some 500 bytes) when it has points or a
// manifold to recycle. Most contacts of a fast scene have neither (broadphase pairs apart by more than
// their margin: about 5 in 6 in highspeed), and of those only the key fields and the GJK cache's vertices
// in use are read again before the narrow phase rebuilds the manifold: every reader of the points, the
// normal and the impulses stops at the point count, which is zero, and the narrow phase writes the normal.
// Copying that much, the cache first in the struct for it, moves a fifth of the bytes.
static void carry_contact(ph_contact *dst, const ph_contact *src)
{
    int vertices = src->cache.simplex.count;
    if (src->manifold.point_count > 0 || src->recyclable || vertices < 0 || vertices > 4)
    {
        *dst = *src;
        return;
    }
    memcpy(dst, src,
           offsetof(ph_contact, cache.simplex.v) + (size_t)vertices * sizeof src->cache.simplex.v[0]);
    dst->manifold.point_count = 0;
    dst->recyclable = false;
}

// Merges last step's sorted contacts with this step's sorted candidates: names each candidate's source, the
// index of last step's contact with its key (-1 for a new pair), and swaps the buffers, so that set->next
// holds last step's list and set->items the room for this step's, which the narrow phase fills contact by
// contact (fill_contact) right before it rebuilds each. Copying there rather than here saves a pass over
// the whole set (some 500 bytes a contact, 20 MB a step in pile10k): a contact is read from last step's
// list once and written once, still in cache when the narrow phase works on it. False when out of memory
// (the set unchanged).
static bool merge_contacts(ph_contact_set *set, bool keyed)
{
    if (!ph_array_reserve(set->next, set->next_capacity, set->candidate_count))
        return false;
    int i = 0;
    for (int k = 0; k < set->candidate_count; k++)
    {
        ph_contact_candidate *cand = &set->candidates[k];
        contact_key old = {0, 0};
        while (i < set->count && ((old = old_key(set, keyed, i)).key < cand->key ||
                                  (old.key == cand->key && old.sub < cand->sub)))
            i++;
        if (i < set->count && old.key == cand->key && old.sub == cand->sub)
            cand->source = i++;
        else
            cand->source = -1;
    }
    ph_contact *tmp = set->items;
    int tmp_cap = set->capacity;
    set->items = set->next;
    set->capacity = set->next_capacity;
    set->next = tmp;
    set->next_capacity = tmp_cap;
    set->count = set->candidate_count;
    return true;
}

// Contact k of a merged set: last step's contact of its pair carried over, or a new one.
static void fill_contact(ph_contact_set *set, int k)
{
    const ph_contact_candidate *cand = &set->candidates[k];
    ph_contact *c = &set->items[k];
    if (cand->source >= 0)
    {
        carry_contact(c, &set->next[cand->source]);
        return;
    }
    // A new contact: no points, no simplex, nothing to recycle; the rest is as carry_contact leaves it
    // (unread until the narrow phase writes it).
    memset(c, 0, offsetof(ph_contact, cache.simplex.v));
    c->manifold.point_count = 0;
    c->recyclable = false;
    c->key = cand->key;
    c->sub = cand->sub;
    c->a = cand->a;
    c->b = cand->b;
    c->child_a = cand->child_a;
    c->child_b = cand->child_b;
}

// What a broadphase pair makes of candidates: none (its bodies' joint keeps them apart), the pair itself (two
// convex bodies), or parts (a compound or a mesh: expand_pair).
typedef enum pair_kind
{
    PAIR_JOINTED,
    PAIR_CONVEX,
    PAIR_PARTS,
} pair_kind;

typedef struct pair_survey
{
    float motion; // pair_motion (unit: m)
    pair_kind kind;
} pair_survey;

typedef struct survey_task
{
    const ph_world *world;
    const ph_octree_pair *pairs;
    float dt;
    pair_survey *out;
} survey_task;

static void survey_pairs(int begin, int end, int worker, void *context)
{
    const survey_task *t = context;
    const ph_world *world = t->world;
    (void)worker;
    for (int i = begin; i < end; i++)
    {
        int a = t->pairs[i].a, b = t->pairs[i].b;
        const ph_body *ba = &world->bodies[a], *bb = &world->bodies[b];
        // Jointed bodies do not collide unless the joint says so (a world without joints skips the read of
        // both bodies' lists, a cache line each in a big scene).
        if (world->joint_ids.live_count > 0 && ph_joints_exclude(world, a, b))
            t->out[i] = (pair_survey){0.0f, PAIR_JOINTED};
        else
            t->out[i] = (pair_survey){pair_motion(world, a, b, t->dt),
                                      ba->mesh || bb->mesh || ba->compound || bb->compound ? PAIR_PARTS
                                                                                           : PAIR_CONVEX};
    }
}

// The narrow phase of contacts over a range of them (ph_contacts_update), for the workers.
typedef struct narrow_task
{
    ph_world *world;
    float dt;
    bool merged;   // the set was merged: each contact is filled from last step's list first
    uint8_t *wake; // per contact: 1 when it may wake a sleeping body (wake_touched decides)
    atomic_int manifolds, points, recycled, wakers, bouncy; // summed over the ranges (integers: any order)
} narrow_task;

// Whether body slot sleeps (a static body never does).
static bool is_sleeping(const ph_body *b)
{
    return !b->awake && b->type != PH_BODY_STATIC;
}

// An awake body wakes a sleeping one (and its whole island) when they touch, or before they touch when it is
// on the move (a speculative contact, so that the impact is not lost on a body that acts as static for a
// step). A quiet awake neighbour a few millimetres away does not: it is in another island, and waking the
// sleeper every time it settled would keep a pile awake for ever. Run on the stepping thread in contact order
// (a wake changes which bodies later contacts find asleep), for the contacts the narrow phase marked.
static void wake_touched(ph_world *world, const ph_contact_brief *c)
{
    const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
    bool wa = ba->awake && ba->type != PH_BODY_STATIC, wb = bb->awake && bb->type != PH_BODY_STATIC;
    if (wa && is_sleeping(bb) && (c->touching || is_moving(world, c->a)))
        ph_world_wake_island(world, c->b);
    else if (wb && is_sleeping(ba) && (c->touching || is_moving(world, c->b)))
        ph_world_wake_island(world, c->a);
}

// Pairs ahead whose bodies narrow_range asks the caches for: a pair reads three cache lines of each of its
// two bodies (pose, shape, mesh or compound: ph_world_child_shape), 464-byte bodies at scattered addresses,
// and the first of those reads were most of ph_world_child_shape's time (convex_pile5120 steps 1.2-1.5%
// faster with the requests).
#define NARROW_AHEAD 2

static void prefetch_pair_bodies(const ph_world *world, const ph_contact_candidate *next)
{
    const char *a = (const char *)&world->bodies[next->a], *b = (const char *)&world->bodies[next->b];
    PH_PREFETCH(a + offsetof(ph_body, xf));
    PH_PREFETCH(a + offsetof(ph_body, convex));
    PH_PREFETCH(a + offsetof(ph_body, mesh));
    PH_PREFETCH(b + offsetof(ph_body, xf));
    PH_PREFETCH(b + offsetof(ph_body, convex));
    PH_PREFETCH(b + offsetof(ph_body, mesh));
}

// Contacts begin .. end - 1: each rebuilt from its own candidate and last step's contact, writing only
// itself and its brief. Contact k is candidate k, whose pair motion is still the bodies'.
static void narrow_range(int begin, int end, int worker, void *context)
{
    narrow_task *t = context;
    ph_world *world = t->world;
    ph_contact_set *set = &world->contacts;
    int manifolds = 0, points = 0, recycled = 0, wakers = 0, bouncy = 0;
    (void)worker;
    for (int k = begin; k < end; k++)
    {
        if (k + NARROW_AHEAD < end)
            prefetch_pair_bodies(world, &set->candidates[k + NARROW_AHEAD]);
        if (t->merged)
            fill_contact(set, k);
        ph_contact *c = &set->items[k];
        const ph_body *ba = &world->bodies[c->a], *bb = &world->bodies[c->b];
        float motion = set->candidates[k].motion;
        c->margin = pair_margin(world, motion);
        // The pair's friction and restitution, for a new contact only: a body's material is fixed at its
        // creation, and a carried contact has the same bodies (a destroyed body's contacts are removed), so
        // it keeps the values computed when it was new. Reading the materials (a cache line of each body
        // that nothing else here needs) was a tenth of the stage in pile10k.
        if (t->merged && set->candidates[k].source < 0)
        {
            c->friction = sqrtf(ba->material.friction * bb->material.friction);
            c->restitution = ba->material.restitution > bb->material.restitution ? ba->material.restitution
                                                                                 : bb->material.restitution;
        }
        if (can_recycle(world, c, motion))
        {
            recycle(world, c);
            recycled++;
        }
        else
        {
            ph_contact old;
            old.manifold.point_count = c->manifold.point_count;
            old.manifold.normal = c->manifold.normal;
            if (old.manifold.point_count > 0) // match_impulses reads no further than the count
            {
                memcpy(old.manifold.points, c->manifold.points, sizeof old.manifold.points);
                memcpy(old.normal_impulse, c->normal_impulse, sizeof old.normal_impulse);
            }
            // The parts' shapes and poses, needed only here: a recycled manifold follows the bodies.
            ph_convex sa, sb;
            ph_transform xa, xb;
            ph_world_child_shape(world, c->a, c->child_a, &sa, &xa);
            ph_world_child_shape(world, c->b, c->child_b, &sb, &xb);
            ph_collide_convex(&sa, xa, &sb, xb, c->margin, &c->cache, &c->manifold);
            kept_point kept[PH_MAX_MANIFOLD_POINTS];
            const kept_point *appended[PH_MAX_MANIFOLD_POINTS] = {NULL, NULL, NULL, NULL};
            keep_lifted_points(world, c, &old.manifold, kept, appended);
            match_impulses(c, &old);
            // The twist's arm; only friction reads it (a frictionless pair skips the polygon's integral).
            c->patch_radius = c->friction > 0.0f ? ph_contact_patch_radius(&c->manifold) : 0.0f;
            c->radius_a = round_radius(&sa);
            c->radius_b = round_radius(&sb);
            c->turn_a = eccentric_sphere(world, c->a, &sa, xa);
            c->turn_b = eccentric_sphere(world, c->b, &sb, xb);
            remember_build(world, c);
            // A kept point's anchors and separation stay those of when it was found.
            for (int i = 0; c->recyclable && i < c->manifold.point_count; i++)
            {
                if (!appended[i])
                    continue;
                c->built_anchor_a[i] = appended[i]->ra;
                c->built_anchor_b[i] = appended[i]->rb;
                c->built_separation[i] = appended[i]->s0;
            }
        }
        // A contact without points has no normal to speak of (a carried one keeps no manifold).
        bool has_points = c->manifold.point_count > 0, touch = has_points && ph_contact_is_touching(c);
        set->briefs[k] = (ph_contact_brief){c->a,
                                            c->b,
                                            c->manifold.point_count,
                                            has_points ? c->manifold.normal : glms_vec3_zero(),
                                            touch,
                                            c->turn_a || c->turn_b,
                                            has_points && c->restitution > 0.0f};
        // Waking only ever makes a sleeping body awake, so a contact whose bodies are not asleep now cannot
        // wake one later in the step's order either.
        t->wake[k] = has_points && (is_sleeping(ba) || is_sleeping(bb));
        wakers += t->wake[k];
        if (has_points)
        {
            manifolds++;
            points += c->manifold.point_count;
            bouncy += c->restitution > 0.0f;
        }
    }
    atomic_fetch_add_explicit(&t->manifolds, manifolds, memory_order_relaxed);
    atomic_fetch_add_explicit(&t->bouncy, bouncy, memory_order_relaxed);
    atomic_fetch_add_explicit(&t->points, points, memory_order_relaxed);
    atomic_fetch_add_explicit(&t->recycled, recycled, memory_order_relaxed);
    atomic_fetch_add_explicit(&t->wakers, wakers, memory_order_relaxed);
}

bool ph_contacts_update(ph_step_context *ctx)
{
    ph_world *world = ctx->world;
    ph_contact_set *set = &world->contacts;
    unsigned long long t0 = ctx->ticks; // the broadphase's end

    // This step's candidates go to the other buffer: last step's stay, to compare with (ph_contact_set).
    // The set is keyed again only once the contacts are this step's.
    bool keyed = set->keyed;
    set->keyed = false;
    ph_contact_candidate *previous = set->previous;
    int previous_capacity = set->previous_capacity;
    set->previous = set->candidates;
    set->previous_capacity = set->candidate_capacity;
    set->candidates = previous;
    set->candidate_capacity = previous_capacity;
    set->candidate_count = 0;
    if (ctx->pair_count == 0)
    {
        // No pair, so no contact survives and none is built (a lone body, or bodies far apart): the stage
        // ends here, untimed, as its two clock reads would cost more than its work; what little it did
        // falls into the next stage's time.
        set->count = 0;
        set->recycled_count = 0;
        set->keyed = true;
        return true;
    }
    // Each pair's motion and kind on the workers (the reads of both bodies' states and shapes, cache misses
    // in a big scene), then its candidates in pair order here.
    pair_survey *survey = ph_arena_alloc(ctx->arena, (size_t)ctx->pair_count * sizeof *survey);
    if (!survey)
        return false;
    survey_task st = {world, ctx->pairs, ctx->dt, survey};
    ph_parallel_for(&world->tasks, ctx->pair_count, CONTACT_MIN_RANGE, survey_pairs, &st);
    bool expanded = ph_array_reserve(set->candidates, set->candidate_capacity, ctx->pair_count);
    for (int i = 0; expanded && i < ctx->pair_count; i++)
    {
        int a = ctx->pairs[i].a, b = ctx->pairs[i].b;
        float motion = survey[i].motion;
        if (survey[i].kind == PAIR_CONVEX)
            expanded = push_candidate(set, a, b, -1, -1, motion);
        else if (survey[i].kind == PAIR_PARTS)
            expanded = expand_pair(world, a, b, motion, pair_margin(world, motion));
    }
    ph_arena_free(ctx->arena, survey);
    if (!expanded)
        return false;
    if (!ph_array_reserve(set->briefs, set->brief_capacity, set->candidate_count))
        return false;
    bool merged = !same_contacts(set, keyed);
    if (merged && !merge_contacts(set, keyed))
        return false;
    unsigned long long t1 = ph_ticks();

    // Narrow phase: a manifold per contact, impulses matched by feature id, over the workers. Waking is left
    // to the stepping thread, in contact order, after them: it changes the world beyond one contact.
    uint8_t *wake = ph_arena_alloc(ctx->arena, (size_t)(set->count > 0 ? set->count : 1));
    if (!wake)
        return false;
    narrow_task t = {.world = world, .dt = ctx->dt, .merged = merged, .wake = wake};
    atomic_init(&t.manifolds, 0);
    atomic_init(&t.points, 0);
    atomic_init(&t.recycled, 0);
    atomic_init(&t.wakers, 0);
    atomic_init(&t.bouncy, 0);
    ph_parallel_for(&world->tasks, set->count, CONTACT_MIN_RANGE, narrow_range, &t);
    for (int k = 0; atomic_load_explicit(&t.wakers, memory_order_relaxed) > 0 && k < set->count; k++)
        if (wake[k])
            wake_touched(world, &set->briefs[k]);
    ph_arena_free(ctx->arena, wake);
    unsigned long long t2 = ph_ticks();
    set->keyed = true; // the contacts are the candidates, one for one
    set->recycled_count = atomic_load_explicit(&t.recycled, memory_order_relaxed);
    set->bouncy_count = atomic_load_explicit(&t.bouncy, memory_order_relaxed);
    ctx->stats->manifold_count = atomic_load_explicit(&t.manifolds, memory_order_relaxed);
    ctx->stats->contact_point_count = atomic_load_explicit(&t.points, memory_order_relaxed);
    ctx->stats->ms_stage[PH_STAGE_MANIFOLD] += ph_ticks_to_ms(t1 - t0);
    ctx->stats->ms_stage[PH_STAGE_NARROWPHASE] += ph_ticks_to_ms(t2 - t1);
    ctx->ticks = t2;
    return true;
}

const ph_contact *ph_contacts_find(const ph_contact_set *set, int a, int b)
{
    uint64_t key = ((uint64_t)(uint32_t)a << 32) | (uint32_t)b, sub = make_sub(-1, -1);
    int lo = 0, hi = set->count;
    while (lo < hi)
    {
        int mid = lo + (hi - lo) / 2;
        const ph_contact *c = &set->items[mid];
        if (c->key < key || (c->key == key && c->sub < sub))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < set->count && set->items[lo].key == key && set->items[lo].sub == sub)
        return &set->items[lo];
    return NULL;
}

void ph_contacts_remove_body(ph_contact_set *set, int slot)
{
    int n = 0;
    for (int i = 0; i < set->count; i++)
        if (set->items[i].a != slot && set->items[i].b != slot)
        {
            set->briefs[n] = set->briefs[i];
            set->items[n++] = set->items[i];
        }
    set->count = n;
    set->keyed = false; // contacts were removed: last step's candidates no longer match them
}

void ph_contact_set_destroy(ph_contact_set *set)
{
    ph_array_free(set->items, set->capacity);
    ph_array_free(set->briefs, set->brief_capacity);
    ph_array_free(set->next, set->next_capacity);
    ph_array_free(set->candidates, set->candidate_capacity);
    ph_array_free(set->previous, set->previous_capacity);
    set->keyed = false;
    set->count = 0;
    set->candidate_count = 0;
}
