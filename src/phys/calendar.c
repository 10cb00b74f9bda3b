// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The in-frame time-of-impact calendar (calendar.h). The solver has moved every awake body along a
// straight sweep (centre of mass c0 -> c1, orientation q0 -> q1) over the step. Bodies whose motion is
// larger than the speculative margin look up their neighbours in the octree over that sweep (and, as the
// octree holds the bounds swept before the solver, in the calendar's own lists of the bodies whose sweep
// has left those bounds: pushed by the solver, or turned by an event); a pair that can sink into each other,
// beyond what the solver's speculative contact already held, by more than a fraction of the thinner of the
// two (half its thinnest dimension) is swept with conservative advancement (ph_time_of_impact, toi.c), which
// never reports a time past the first contact. Slow bodies in a pile are the solver's alone: their events
// changed nothing the next step's contacts would not, and in a dense pile each one set off a cascade through
// every touching body (issue 19, item 8: thousands of events a step that froze a falling pile). A pair that
// touches where its sweep starts is an event there only when the response will take an approach out of the
// bodies' velocities (pushed_in), so events at one instant make progress (issue 24, item 8: boxes struck at
// hypervelocity stayed in their pile, their events repeating at t = 0 every step); otherwise the search
// follows it through its overlap, and it is an event where its sweep takes it in deeper by that same fraction
// (a fast tumbling box resting on one corner whose next corners come down through the floor). Every predicted
// impact goes into a binary heap ordered by time. The loop then takes the earliest event; an event made
// before either body last changed its motion is stale (each body carries a version counter, bumped on every
// change) and is dropped. Otherwise both bodies are advanced to the event time, the collision is resolved
// there with the impulse response (restitution above the threshold, Coulomb friction), each body's remaining
// sweep is rebuilt from its new velocity, and the pairs of both bodies are predicted again over the rest of
// the step. This is Box2D v2.4's SolveTOI idea (Catto, "Continuous collision", GDC 2013), kept for every fast
// pair, fast against fast included. The first pass searches only for bodies whose motion some neighbour could
// be thin enough to need (see beyond_reach), so a step in which nothing can tunnel costs one pass over the
// awake bodies. Bounds: at most calendar_events_per_pair events per pair and calendar_event_budget per step.
// Past either, an event is resolved by the fallback: the bodies are clamped at the time of impact (their
// sweep ends there, with the approach removed from their velocity), so nothing passes through; each clamp
// stops at least one moving body, so the fallback work is bounded by the number of bodies.
#include "calendar.h"

#include "arena.h"
#include "array.h"
#include "core.h"
#include "impact.h"
#include "joint.h"
#include "world.h"

#include <stdint.h> // uint8_t
#include <string.h> // memset

// A body whose sweep is shorter than this fraction of the speculative margin never needs the calendar:
// the solver's speculative contacts see everything it can reach.
#define CAL_QUERY_MOTION_FRACTION 1.0f
// A pair is swept when its relative motion exceeds this fraction of the thinner body's half thickness.
#define CAL_SIZE_RATIO 0.5f
// Stop this fraction of the speculative margin apart: the ordinary contact takes over from there.
#define CAL_TARGET_FRACTION 0.5f
// Accepted error of the time of impact, as a fraction of the target separation.
#define CAL_TOLERANCE_FRACTION 0.25f
// A pair already at its target distance when its sweep starts is swept towards this fraction of its gap.
#define CAL_REGAP_FRACTION 0.5f
// Smallest gap worth sweeping again for a pair already at its target distance (unit: m); closer than
// this the pair counts as touching, and the next step's contact solver keeps it apart.
#define CAL_MIN_REGAP 1.0e-4f
// Relative normal speed above which the response applies restitution (unit: m/s), as the solver's.
#define CAL_RESTITUTION_THRESHOLD 1.0f
// Smallest per-pair counter table (a power of two; see pair_entry).
#define CAL_MIN_PAIR_TABLE 64
// Most parts (compound children, mesh triangles) considered on one side of a pair.
#define CAL_MAX_PARTS 64
// Columns of the escape lists (a power of two) and their width along x (unit: m), about a fast body's
// sweep: a search reads the few columns its box spans.
#define CAL_ESCAPE_COLUMNS 256
#define CAL_ESCAPE_COLUMN_WIDTH 4.0f

// The step's broadphase pairs by body, both ways: body s's partners are items[start[s] .. start[s + 1]).
typedef struct pair_lists
{
    int *start;
    int *items;
} pair_lists;

typedef struct cal_state
{
    ph_step_context *ctx;
    ph_world *world;
    ph_calendar *cal; // heap and pair table storage
    int heap_count;
    int max_events; // hard bound on the events of the step
    int pair_mask;  // pair table size - 1; 0 until the first event sets the table up
    bool out_of_memory;
    int processed;
    int resolved;
    float target;
    float tolerance;
    float query_motion;
    pair_lists lists; // the step's broadphase pairs by body
    // motion_of by body slot for the bodies awake when the calendar starts, kept up to date by restart_sweep
    // (the only change of a body's motion here); NaN for the others, which are asked directly (a sleeper an
    // event wakes starts moving without a restart). NULL when the arena could not hold it.
    float *motion;
    // motion_of of each awake body, in awake order (NULL without the first pass's list).
    const float *awake_motion;
    // The motion table and pair lists are made (by the first search that needs them).
    bool prepared;
    // Bodies whose sweep left their proxy (see ph_cal_escape): the octree cannot find them there.
    int escape_head[CAL_ESCAPE_COLUMNS]; // first entry of each column, -1 when empty; set by the first entry
    int escape_count;
    float escape_widest; // largest x extent of an entry's box (unit: m)
} cal_state;

// ---- Heap ordered by (time, a, b) so equal times pop in a deterministic order. ---------------------------

static bool earlier(const ph_cal_event *x, const ph_cal_event *y)
{
    if (x->t != y->t)
        return x->t < y->t;
    if (x->a != y->a)
        return x->a < y->a;
    return x->b < y->b;
}

// The heap grows (through the counted allocator) when a step predicts more events than any step before;
// once the world has warmed up it never allocates. False only when out of memory.
static bool heap_push(cal_state *cs, ph_cal_event e)
{
    ph_calendar *cal = cs->cal;
    if (!ph_array_reserve(cal->heap, cal->heap_capacity, cs->heap_count + 1))
        return false;
    ph_cal_event *heap = cal->heap;
    int i = cs->heap_count++;
    while (i > 0)
    {
        int parent = (i - 1) / 2;
        if (!earlier(&e, &heap[parent]))
            break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = e;
    return true;
}

static ph_cal_event heap_pop(cal_state *cs)
{
    ph_cal_event *heap = cs->cal->heap;
    ph_cal_event top = heap[0];
    ph_cal_event last = heap[--cs->heap_count];
    int i = 0;
    for (;;)
    {
        int l = 2 * i + 1, r = l + 1, m = i;
        const ph_cal_event *best = &last;
        if (l < cs->heap_count && earlier(&heap[l], best))
        {
            m = l;
            best = &heap[l];
        }
        if (r < cs->heap_count && earlier(&heap[r], best))
            m = r;
        if (m == i)
            break;
        heap[i] = heap[m];
        i = m;
    }
    if (cs->heap_count > 0)
        heap[i] = last;
    return top;
}

// ---- Bodies and their sweeps ------------------------------------------------------------------------

static bool moving(const ph_body *b)
{
    return b->awake && b->type != PH_BODY_STATIC;
}

static bool jointed(const ph_body *b)
{
    return b->joint_head >= 0 && moving(b);
}

// A turn of more than a quarter revolution over a sweep is given to it as a rotation vector (ph_sweep's
// rotation): the shorter turn between the ends is the body's own only up to half a revolution, and the
// response reads the spin the body has, so the two must agree on it.
#define CAL_GIVEN_TURN (0.5f * GLM_PIf)

// q turned by the world rotation vector `turn` (axis times angle): the exact turn at constant angular
// velocity, for any angle.
static ph_quat turned(ph_quat q, ph_vec3 turn)
{
    float angle = glms_vec3_norm(turn);
    if (!(angle > 0.0f))
        return q;
    float s = sinf(0.5f * angle) / angle;
    ph_quat r;
    r.x = turn.x * s;
    r.y = turn.y * s;
    r.z = turn.z * s;
    r.w = cosf(0.5f * angle);
    return glms_quat_normalize(glms_quat_mul(r, q));
}

// The turn the solver gave a body over the step, from q0 to q1, as the rotation vector nearest to w dt
// (its spin at the end times the step) among those that take q0 to q1 (the shorter turn plus whole
// revolutions about its axis); zero (the shorter turn) when the spin turns it by less than CAL_GIVEN_TURN.
static ph_vec3 solver_turn(ph_quat q0, ph_quat q1, ph_vec3 w_dt)
{
    if (glms_vec3_norm(w_dt) <= CAL_GIVEN_TURN)
        return glms_vec3_zero();
    ph_sweep s;
    memset(&s, 0, sizeof s);
    s.q0 = q0;
    s.q1 = q1;
    ph_vec3 r = ph_sweep_rotation(&s);
    float angle = glms_vec3_norm(r);
    ph_vec3 k = angle > 0.0f ? glms_vec3_scale(r, 1.0f / angle) : glms_vec3_normalize(w_dt);
    float laps = roundf((glms_vec3_dot(w_dt, k) - angle) / (2.0f * GLM_PIf));
    ph_vec3 turn = glms_vec3_scale(k, angle + 2.0f * GLM_PIf * laps);
    return glms_vec3_norm(turn) > CAL_GIVEN_TURN ? turn : glms_vec3_zero();
}

// The turn body b still makes after step fraction t >= toi_t0 (zero: the shorter one to its end).
static ph_vec3 turn_after(const ph_body *b, float t);

// The body's own sweep over [toi_t0, 1] (a still sweep for bodies that do not move).
static ph_sweep body_sweep(const ph_body *b)
{
    ph_sweep s;
    s.local_center = b->local_center;
    s.c1 = b->center;
    s.q1 = b->xf.q;
    s.c0 = moving(b) ? b->toi_c0 : b->center;
    s.q0 = moving(b) ? b->toi_q0 : b->xf.q;
    s.rotation = moving(b) ? b->toi_turn : glms_vec3_zero();
    return s;
}

// Fraction of body b's own sweep (from toi_t0 to the step's end) reached at step fraction t >= toi_t0.
static float sweep_fraction(const ph_body *b, float t)
{
    float alpha = moving(b) && b->toi_t0 < 1.0f ? (t - b->toi_t0) / (1.0f - b->toi_t0) : 1.0f;
    return alpha < 0.0f ? 0.0f : alpha > 1.0f ? 1.0f : alpha;
}

static ph_vec3 turn_after(const ph_body *b, float t)
{
    if (!moving(b))
        return glms_vec3_zero();
    return glms_vec3_scale(b->toi_turn, 1.0f - sweep_fraction(b, t));
}

// Centre of mass of body b at step fraction t >= toi_t0: the sweep moves it on a straight line, so no
// rotation is needed (the bounding-sphere test of every neighbour reads only this).
static ph_vec3 center_at(const ph_body *b, float t)
{
    // body_sweep's ends without building the whole sweep (this runs twice for every pair looked at).
    ph_vec3 c0 = moving(b) ? b->toi_c0 : b->center;
    return glms_vec3_add(c0, glms_vec3_scale(glms_vec3_sub(b->center, c0), sweep_fraction(b, t)));
}

// Centre of mass and orientation of body b at step fraction t >= toi_t0. Most poses are asked for where a
// sweep starts (every body in the first pass, a body just restarted by an event): there, and where it
// ends, the orientation is given and needs no interpolation.
static void pose_at(const ph_body *b, float t, ph_vec3 *out_c, ph_quat *out_q)
{
    ph_sweep s = body_sweep(b);
    float alpha = sweep_fraction(b, t);
    if (alpha == 0.0f)
        *out_q = glms_quat_normalize(s.q0);
    else if (alpha == 1.0f)
        *out_q = glms_quat_normalize(s.q1);
    else
        *out_q = ph_sweep_transform(&s, alpha).q;
    *out_c = center_at(b, t);
}

// The angle body b turns over its sweep (unit: rad), at least: its spin at the end of the sweep times the
// step, or the turn from where its sweep starts to where it ends where that is larger. The solver's spin at
// the end can be far below the turn it made during the step: a box struck on one corner spins up, and its
// next corner, coming down, slows it again; measured by its end spin alone, that box's other corners were too
// slow to be searched, and went through the floor. The turn from q0 to q1 is 2 asin(sqrt(1 - (q0.q1)^2)); it
// is at least its chord 2 sqrt(1 - (q0.q1)^2), so the arcsine is only taken where that passes the spin's
// turn.
static float turn_of(const ph_body *b, const ph_body_state *st, float dt)
{
    float spin = glms_vec3_norm(st->w) * dt;
    ph_quat q0 = b->toi_q0, q1 = b->xf.q;
    float dot = q0.x * q1.x + q0.y * q1.y + q0.z * q1.z + q0.w * q1.w;
    float s2 = 1.0f - dot * dot;
    if (!(4.0f * s2 > spin * spin))
        return spin;
    return 2.0f * asinf(fminf(sqrtf(s2), 1.0f));
}

static float motion_of(const ph_body *b, const ph_body_state *st, float dt)
{
    if (!moving(b))
        return 0.0f;
    return glms_vec3_distance(b->center, b->center0) + turn_of(b, st, dt) * b->bound_radius;
}

// motion_of, read from the calendar's table where it holds the body (the same value, computed once).
static float body_motion(const cal_state *cs, int slot)
{
    if (cs->motion)
    {
        float m = cs->motion[slot];
        if (m == m)
            return m;
    }
    return motion_of(&cs->world->bodies[slot], &cs->world->states[slot], cs->ctx->dt);
}

// A comparison, not fmaxf (a call into libm without SSE4.1): the margin is finite and positive, so for
// every min_extent, NaN included, both give the same value.
static float thickness(const ph_world *world, const ph_body *b)
{
    float m = world->def.speculative_margin;
    return b->min_extent > m ? b->min_extent : m;
}

// Bounds of the body over the rest of its sweep from t, grown by the speculative margin. A point of the body
// moves as c(s) + R(s) p: it stays within |p| theta of c(s) + R(t) p, theta the angle the body still turns,
// and that point lies in the bounds at t moved along the centre's path. So those bounds, swept by the
// centre's motion and grown by theta times the body's radius, hold the whole sweep, as the broadphase
// builds its proxies (the bounds at t and at the end alone miss a bar swinging between them). A ball turning
// about its centre fills the same bounds in every orientation.
static ph_aabb swept_bounds(const ph_world *world, const ph_body *b, float t)
{
    ph_vec3 c;
    ph_quat q;
    pose_at(b, t, &c, &q);
    ph_aabb now = ph_body_bounds_at(b, ph_body_frame(b, c, q));
    float m = world->def.speculative_margin;
    ph_vec3 grow = ph_v3(m, m, m), move = glms_vec3_zero();
    bool ball = !b->mesh && !b->compound && b->convex.type == PH_SHAPE_SPHERE &&
                glms_vec3_norm2(b->local_center) == 0.0f;
    if (moving(b))
        move = glms_vec3_sub(b->center, c);
    if (moving(b) && !ball)
    {
        // The rest of the sweep turns the body by theta about axis k (ph_sweep_rotation: theta k). A point's
        // turn moves it in the plane normal to k, by at most r theta, so by at most r theta sqrt(1 - k_j^2)
        // along world axis j.
        ph_sweep rest = {.q0 = q, .q1 = b->xf.q, .rotation = turn_after(b, t)};
        ph_vec3 rot = ph_sweep_rotation(&rest);
        float theta = glms_vec3_norm(rot);
        if (theta > 0.0f)
        {
            float reach = theta * b->bound_radius;
            ph_vec3 k = glms_vec3_scale(rot, 1.0f / theta);
            for (int a = 0; a < 3; a++)
                grow.raw[a] += reach * sqrtf(fmaxf(0.0f, 1.0f - k.raw[a] * k.raw[a]));
        }
    }
    ph_aabb out = {glms_vec3_minv(now.lo, glms_vec3_add(now.lo, move)),
                   glms_vec3_maxv(now.hi, glms_vec3_add(now.hi, move))};
    out.lo = glms_vec3_sub(out.lo, grow);
    out.hi = glms_vec3_add(out.hi, grow);
    return out;
}

// The convex part `part` of body b with the sweep of that part's frame from pose (c0, q0), its pose at step
// fraction t, to the end.
static void part_sweep(const ph_world *world, int slot, int part, float t, ph_vec3 c0, ph_quat q0,
                       ph_convex *out_shape, ph_sweep *out_sweep)
{
    const ph_body *b = &world->bodies[slot];
    ph_quat q1 = moving(b) ? b->xf.q : q0;
    // A world rotation vector: the same for the body's frame and for a child's frame fixed in it.
    out_sweep->rotation = turn_after(b, t);
    out_sweep->c0 = c0;
    out_sweep->c1 = moving(b) ? b->center : c0;
    if (!b->compound)
    {
        // The part's frame is the body's (a convex shape, or a mesh triangle given in the mesh's frame).
        *out_shape = b->mesh ? ph_mesh_triangle(b->mesh, part) : b->convex;
        out_sweep->local_center = b->local_center;
        out_sweep->q0 = glms_quat_normalize(q0);
        out_sweep->q1 = glms_quat_normalize(q1);
        return;
    }
    // A compound child: its frame is `local` in the body's frame.
    *out_shape = b->compound->children[part].shape;
    ph_transform local = b->compound->children[part].local;
    ph_transform inv_local;
    inv_local.q = glms_quat_conjugate(local.q);
    inv_local.p = glms_quat_rotatev(inv_local.q, glms_vec3_negate(local.p));
    out_sweep->local_center = ph_transform_point(inv_local, b->local_center);
    out_sweep->q0 = glms_quat_normalize(glms_quat_mul(q0, local.q));
    out_sweep->q1 = glms_quat_normalize(glms_quat_mul(q1, local.q));
}

typedef struct part_list
{
    int items[CAL_MAX_PARTS];
    int count;
} part_list;

static bool add_part(int triangle, void *ctx)
{
    part_list *pl = ctx;
    if (pl->count >= CAL_MAX_PARTS)
        return false;
    pl->items[pl->count++] = triangle;
    return true;
}

// The parts of body `slot` that body `other` may reach over the rest of its sweep from t.
static void parts_of(const ph_world *world, int slot, int other, float t, part_list *out)
{
    const ph_body *b = &world->bodies[slot];
    out->count = 0;
    if (b->mesh)
    {
        ph_aabb other_box = swept_bounds(world, &world->bodies[other], t);
        // The mesh is static: bring the box into its frame (the 8 corners' bounds).
        ph_transform inv;
        inv.q = glms_quat_conjugate(b->xf.q);
        inv.p = glms_quat_rotatev(inv.q, glms_vec3_negate(b->xf.p));
        ph_aabb local = {ph_transform_point(inv, other_box.lo), ph_transform_point(inv, other_box.lo)};
        for (int i = 1; i < 8; i++)
        {
            ph_vec3 c =
                ph_v3(i & 1 ? other_box.hi.x : other_box.lo.x, i & 2 ? other_box.hi.y : other_box.lo.y,
                      i & 4 ? other_box.hi.z : other_box.lo.z);
            ph_vec3 w = ph_transform_point(inv, c);
            local.lo = glms_vec3_minv(local.lo, w);
            local.hi = glms_vec3_maxv(local.hi, w);
        }
        ph_mesh_query(b->mesh, local, add_part, out);
    }
    else if (b->compound)
    {
        for (int i = 0; i < b->compound->child_count && out->count < CAL_MAX_PARTS; i++)
            out->items[out->count++] = i;
    }
    else
        out->items[out->count++] = -1;
}

// ---- Prediction -------------------------------------------------------------------------------------

// The counter of pair (a, b). The table is set up by the step's first event, so steps without fast bodies
// never touch it; it holds at least twice the most events a step can process, so it never fills. NULL only
// when out of memory (the event is then clamped).
static ph_cal_pair_count *pair_entry(cal_state *cs, int a, int b)
{
    ph_calendar *cal = cs->cal;
    if (cs->pair_mask == 0)
    {
        // The table stays between steps, all zero (each step clears the entries it filled): it is cleared
        // whole only when it grows, not at every step's first event.
        int table = CAL_MIN_PAIR_TABLE;
        while (table < 2 * cs->max_events)
            table *= 2;
        if (table > cal->pair_table)
        {
            if (!ph_array_reserve(cal->pairs, cal->pair_capacity, table))
                return NULL;
            memset(cal->pairs, 0, (size_t)table * sizeof *cal->pairs);
            cal->pair_table = table;
        }
        cs->pair_mask = cal->pair_table - 1;
    }
    uint64_t key = ((uint64_t)(uint32_t)(a + 1) << 32) | (uint32_t)(b + 1);
    uint64_t h = key * 0x9e3779b97f4a7c15ull; // Fibonacci hashing
    for (int probe = 0; probe <= cs->pair_mask; probe++)
    {
        uint64_t at = (h + (uint64_t)probe) & (uint64_t)cs->pair_mask;
        ph_cal_pair_count *e = &cal->pairs[at];
        if (e->key == key)
            return e;
        if (e->key == 0)
        {
            if (!ph_array_reserve(cal->pair_used, cal->pair_used_capacity, cal->pair_used_count + 1))
                return NULL;
            cal->pair_used[cal->pair_used_count++] = (int)at;
            e->key = key;
            return e;
        }
    }
    return NULL;
}

// Radius about the centre of mass that holds the body's shape in every orientation (unit: m). bound_radius
// (the corner of the shape's local bounds) serves every shape; a ball's own radius is sqrt(3) times smaller,
// and with it the test below is exact for two balls: a pair of balls that passes it does meet.
static float reach_radius(const ph_body *b)
{
    if (b->mesh || b->compound)
        return b->bound_radius;
    if (b->convex.type == PH_SHAPE_SPHERE)
        return fminf(b->bound_radius, b->convex.radius + glms_vec3_norm(b->local_center));
    if (b->convex.type == PH_SHAPE_CAPSULE)
        return fminf(b->bound_radius,
                     b->convex.half_height + b->convex.radius + glms_vec3_norm(b->local_center));
    return b->bound_radius;
}

// Whether the bounding spheres of two bodies (reach_radius about the centre of mass) come within `gap` of
// each other over the rest of their sweeps. The centres move on straight lines from (ca, cb) to their end
// positions, so the closest approach is the minimum of a quadratic: exact, and it rejects most neighbours
// without a time-of-impact query.
static bool spheres_meet(const ph_body *ba, const ph_body *bb, ph_vec3 ca, ph_vec3 cb, float gap)
{
    ph_vec3 d0 = glms_vec3_sub(cb, ca);
    ph_vec3 d1 = glms_vec3_sub(bb->center, ba->center);
    ph_vec3 e = glms_vec3_sub(d1, d0);
    float ee = glms_vec3_dot(e, e);
    float s = ee > 0.0f ? -glms_vec3_dot(d0, e) / ee : 0.0f;
    s = s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
    ph_vec3 closest = glms_vec3_add(d0, glms_vec3_scale(e, s));
    float reach = reach_radius(ba) + reach_radius(bb) + gap;
    return glms_vec3_dot(closest, closest) <= reach * reach;
}

// Whether body b's bounding sphere (reach_radius about its centre of mass) stays more than `gap` outside the
// box of body a, which does not move, over the rest of b's sweep from centre cb. A wall or floor is a box
// whose bounding sphere holds every body near it, so spheres_meet passes every such pair; the box's own
// slabs tell most of them apart. In a's frame b's centre moves on a straight line, so along each face axis
// it spans the interval between its two ends, and b's points lie within reach_radius of it: when on one
// axis that interval, grown by the reach and the gap, misses the slab [-h, h], nothing of b comes within
// gap of a (the slab holds the box).
static bool outside_still_box(const ph_body *a, const ph_body *b, ph_vec3 cb, float gap)
{
    if (moving(a) || a->mesh || a->compound || a->convex.type != PH_SHAPE_BOX)
        return false;
    ph_quat inv = glms_quat_conjugate(a->xf.q);
    ph_vec3 p0 = glms_quat_rotatev(inv, glms_vec3_sub(cb, a->xf.p));
    ph_vec3 p1 = glms_quat_rotatev(inv, glms_vec3_sub(b->center, a->xf.p));
    float r = reach_radius(b) + gap;
    for (int k = 0; k < 3; k++)
    {
        float h = a->convex.half_extents.raw[k] + r;
        if (fminf(p0.raw[k], p1.raw[k]) > h || fmaxf(p0.raw[k], p1.raw[k]) < -h)
            return true;
    }
    return false;
}

// Whether two touching parts of bodies a and b (posed at the start of their sweeps, step fraction tc) move
// into each other over the rest of the step, at some point of their contact, by more than the target gap and
// more than a pair apart may sink in without an event (CAL_SIZE_RATIO of the thinner body, see sinks_in).
// The solver made every touching pair of the step stop approaching, so only a pair with a body an event has
// changed (version > 0) is asked: an event changes velocities after the solver, and a ball lying on the
// floor that a fast body strikes from above is driven into the floor, where nothing but an event now would
// stop it (the time of impact cannot see it: the pair starts closer than any target). The approach is read
// from the bodies' velocities at the contact's points, as the response (respond) reads it: an event here
// always takes away an approach of more than that depth / rest at one of its points, so it makes progress. A
// test on the sweeps instead would see the solver's path of a body no event has touched (its sub-steps'
// positions, not its final velocity), find an approach the response cannot remove, and repeat the event
// to the pair's limit (in a dense pile, a cascade of such events through every touching body).
static bool pushed_in(const cal_state *cs, int a, int b, float tc, const ph_toi_input *in)
{
    const ph_world *world = cs->world;
    const ph_body *ba = &world->bodies[a], *bb = &world->bodies[b];
    if (ba->version == 0 && bb->version == 0)
        return false;
    const ph_sweep *sa = &in->sweep_a, *sb = &in->sweep_b;
    ph_manifold m;
    ph_collide_convex(&in->a, ph_sweep_transform(sa, 0.0f), &in->b, ph_sweep_transform(sb, 0.0f),
                      world->def.speculative_margin, NULL, &m);
    ph_vec3 zero = glms_vec3_zero();
    ph_vec3 va = moving(ba) ? world->states[a].v : zero, wa = moving(ba) ? world->states[a].w : zero;
    ph_vec3 vb = moving(bb) ? world->states[b].v : zero, wb = moving(bb) ? world->states[b].w : zero;
    float rest = (1.0f - tc) * cs->ctx->dt;
    float thin = fminf(thickness(world, ba), thickness(world, bb));
    float depth = fmaxf(cs->target, CAL_SIZE_RATIO * thin);
    for (int i = 0; i < m.point_count; i++)
    {
        ph_vec3 p = m.points[i].point;
        ph_vec3 pa = glms_vec3_add(va, glms_vec3_cross(wa, glms_vec3_sub(p, sa->c0)));
        ph_vec3 pb = glms_vec3_add(vb, glms_vec3_cross(wb, glms_vec3_sub(p, sb->c0)));
        if (glms_vec3_dot(glms_vec3_sub(pb, pa), m.normal) * rest < -depth)
            return true;
    }
    return false;
}

// The start of the part of the step that a prediction of pair (a, b) from t_from covers: the later of t_from
// and the moving bodies' sweep starts (a body's motion before its sweep start is history).
static float pair_start(const ph_body *ba, const ph_body *bb, float t_from)
{
    float tc = t_from;
    if (moving(ba) && ba->toi_t0 > tc)
        tc = ba->toi_t0;
    if (moving(bb) && bb->toi_t0 > tc)
        tc = bb->toi_t0;
    return tc;
}

// Whether bodies a and b can come into each other by more than `limit` over the rest of their sweeps from
// t_from, beyond what the solver's contact for the pair already held (unit: m). Any point of a body moves at
// most its centre's displacement plus its turn times its radius, so the gap between the two closes by at most
// the relative displacement of the centres plus both turns (the turn taken as turn_of, as motion_of). In the
// first pass (initial) the motion is the solver's: a pair with a contact of margin M had no feature pair
// closer than M at the step's start that the contact did not hold (its manifold took every point within M,
// and a kept manifold is at most PH_CONTACT_RECYCLE_DISTANCE off), so the solver let it close by no more than
// the rest. A pair that can sink into each other by less than a fraction of the thinner body's size is the
// solver's alone: the next step's contact pushes it back out on the side it came from (Catto, GDC 2013:
// speculative contacts need continuous collision only for bodies fast for their size). After an event the
// velocities are no longer the solver's, and nothing is taken off. The contact is looked up only for a pair
// that moves more than the limit (most pairs of bodies falling side by side do not).
static bool sinks_in(const cal_state *cs, int a, int b, float t_from, bool initial, float limit)
{
    const ph_world *world = cs->world;
    const ph_body *ba = &world->bodies[a], *bb = &world->bodies[b];
    float tc = pair_start(ba, bb, t_from);
    float rest = (1.0f - tc) * cs->ctx->dt;
    ph_vec3 da = moving(ba) ? glms_vec3_sub(ba->center, center_at(ba, tc)) : glms_vec3_zero();
    ph_vec3 db = moving(bb) ? glms_vec3_sub(bb->center, center_at(bb, tc)) : glms_vec3_zero();
    float dt = cs->ctx->dt;
    float spin = (moving(ba) ? turn_of(ba, &world->states[a], dt) * ba->bound_radius : 0.0f) +
                 (moving(bb) ? turn_of(bb, &world->states[b], dt) * bb->bound_radius : 0.0f);
    float depth = glms_vec3_norm(glms_vec3_sub(db, da)) + spin * (rest / dt);
    if (depth <= limit || !initial)
        return depth > limit;
    const ph_contact *c = ph_contacts_find(&world->contacts, a < b ? a : b, a < b ? b : a);
    float held = c ? c->margin - PH_CONTACT_RECYCLE_DISTANCE : 0.0f;
    return depth - (held > 0.0f ? held : 0.0f) > limit;
}

// Where a first-pass search on a worker puts its predictions, instead of the heap: a buffer of the worker's,
// which the stepping thread then pushes search by search, in the order the searches would have run one after
// another (first_searches), so the heap sees the same pushes whatever the worker count.
#define CAL_SINK_EVENTS 256

typedef struct event_sink
{
    ph_cal_event *items; // room of them
    int room;
    int count;
    bool full; // an event found no room: the search runs again on the stepping thread
    long long sweeps;
} event_sink;

// Sweeps pair (a, b), a < b, from time t_from and queues the earliest impact of their parts, unless it cannot
// sink into each other by more than CAL_SIZE_RATIO of the thinner body (sinks_in; initial: in the first
// pass). Into `sink` when not NULL (a worker's first-pass search), else into the heap.
static void predict(cal_state *cs, int a, int b, float t_from, bool initial, event_sink *sink)
{
    ph_world *world = cs->world;
    const ph_body *ba = &world->bodies[a], *bb = &world->bodies[b];
    if (!moving(ba) && !moving(bb))
        return;
    float tc = pair_start(ba, bb, t_from);
    if (tc >= 1.0f)
        return;
    ph_vec3 ca = center_at(ba, tc), cb = center_at(bb, tc);
    float gap = cs->target + cs->tolerance;
    if (!spheres_meet(ba, bb, ca, cb, gap) || outside_still_box(ba, bb, cb, gap) ||
        outside_still_box(bb, ba, ca, gap))
        return;
    float thin = fminf(thickness(world, ba), thickness(world, bb));
    if (!sinks_in(cs, a, b, t_from, initial, CAL_SIZE_RATIO * thin))
        return;
    ph_quat qa, qb;
    pose_at(ba, tc, &ca, &qa);
    pose_at(bb, tc, &cb, &qb);
    part_list pa, pb;
    parts_of(world, a, b, tc, &pa);
    parts_of(world, b, a, tc, &pb);
    ph_cal_event best = {2.0f, a, b, -1, -1, ba->version, bb->version};
    for (int i = 0; i < pa.count; i++)
    {
        for (int j = 0; j < pb.count; j++)
        {
            ph_toi_input in;
            memset(&in, 0, sizeof in);
            part_sweep(world, a, pa.items[i], tc, ca, qa, &in.a, &in.sweep_a);
            part_sweep(world, b, pb.items[j], tc, cb, qb, &in.b, &in.sweep_b);
            in.t_max = 1.0f;
            in.target_separation = cs->target;
            in.tolerance = cs->tolerance;
            // Already at (or inside) the target gap when this sweep starts: a pair just resolved, or resting.
            // The solver has run, so nothing else would stop it if it closes in further (a tumbling box
            // bringing its next corner to a wall): the sweep goes on towards half its starting gap.
            in.near_fraction = CAL_REGAP_FRACTION;
            in.near_min_gap = CAL_MIN_REGAP;
            // Touching when the sweep starts (a resting pair, or one just resolved): the contact solver holds
            // the features that touch, but not the others that the sweep may bring down through the other
            // body (a fast tumbling box's next corner); the search follows the pair through its overlap and
            // reports the time it has sunk in by as much as a pair apart may (sinks_in).
            in.overlap_allowance = CAL_SIZE_RATIO * thin;
            ph_toi_output out = ph_time_of_impact(&in);
            if (sink)
                sink->sweeps++;
            else
                cs->ctx->stats->calendar_sweeps++;
            float t;
            if (out.touching_at_start && pushed_in(cs, a, b, tc, &in))
                t = tc; // an event of this step has since driven one body into the other
            else
            {
                if (out.state != PH_TOI_HIT && out.state != PH_TOI_FAILED)
                    continue;
                if (out.t >= 1.0f)
                    continue;
                t = tc + out.t * (1.0f - tc);
            }
            if (t < best.t)
            {
                best.t = t;
                best.part_a = pa.items[i];
                best.part_b = pb.items[j];
            }
        }
    }
    if (!(best.t < 1.0f))
        return;
    if (!sink)
    {
        if (!heap_push(cs, best))
            cs->out_of_memory = true;
    }
    else if (sink->count < sink->room)
        sink->items[sink->count++] = best;
    else
        sink->full = true;
}

typedef struct query_ctx
{
    cal_state *cs;
    int self;
    int skip;
    float t;
    bool initial;
    bool inside;      // the querying body's sweep (its box without the margin) lies inside its own proxy
    float motion;     // motion_of the querying body (its state does not change during its search)
    event_sink *sink; // predict's
} query_ctx;

static bool visit_neighbour(int body_index, void *ctx)
{
    query_ctx *q = ctx;
    cal_state *cs = q->cs;
    ph_world *world = cs->world;
    int i = q->self, j = body_index;
    if (j == i || j == q->skip)
        return true;
    const ph_body *bi = &world->bodies[i], *bj = &world->bodies[j];
    float mi = q->motion, mj = body_motion(cs, j);
    // In the first pass a pair of two querying bodies is swept once, from the lower slot j, when j's search
    // is sure to see this body: i's sweep lies inside i's proxy, so if the two can come within the margin,
    // j's swept box (j's sweep grown by the margin) overlaps i's proxy. A body the solver sent outside its
    // proxy (one pushed along by a fast body) can be invisible to j's search, and sweeps the pair itself.
    if (q->initial && q->inside && mj > cs->query_motion && j < i)
        return true;
    // The sum of the motions bounds the pair's depth (sinks_in, which predict asks after its cheaper
    // tests).
    float thin = fminf(thickness(world, bi), thickness(world, bj));
    if (mi + mj <= CAL_SIZE_RATIO * thin)
        return true;
    // Bodies that do not collide (jointed, their joint says so) have no impact either: a bridge's hinged
    // planks overlap at their hinges, and their events froze the deck at every step.
    if (world->joint_ids.live_count > 0 && ph_joints_exclude(world, i, j))
        return true;
    predict(cs, i < j ? i : j, i < j ? j : i, q->t, q->initial, q->sink);
    return true;
}

// Built in the step's arena (freed by free_pair_lists, in reverse order); start is NULL when the arena
// could not hold them (every body then queries the octree).
static pair_lists make_pair_lists(ph_step_context *ctx)
{
    pair_lists pl = {NULL, NULL};
    int slots = ctx->world->body_ids.slot_count;
    if (!ctx->pairs)
        return pl;
    pl.start = ph_arena_alloc(ctx->arena, (size_t)(slots + 1) * sizeof *pl.start);
    if (!pl.start)
        return pl;
    pl.items = ph_arena_alloc(ctx->arena, (size_t)(2 * ctx->pair_count + 1) * sizeof *pl.items);
    if (!pl.items)
    {
        ph_arena_free(ctx->arena, pl.start);
        pl.start = NULL;
        return pl;
    }
    memset(pl.start, 0, (size_t)(slots + 1) * sizeof *pl.start);
    for (int i = 0; i < ctx->pair_count; i++)
    {
        pl.start[ctx->pairs[i].a]++;
        pl.start[ctx->pairs[i].b]++;
    }
    // start[s] becomes the end of s's run, then each item is placed by moving it back to the run's start.
    for (int s = 1; s <= slots; s++)
        pl.start[s] += pl.start[s - 1];
    for (int i = ctx->pair_count - 1; i >= 0; i--)
    {
        pl.items[--pl.start[ctx->pairs[i].a]] = ctx->pairs[i].b;
        pl.items[--pl.start[ctx->pairs[i].b]] = ctx->pairs[i].a;
    }
    return pl;
}

static void free_pair_lists(ph_step_context *ctx, pair_lists *pl)
{
    if (!pl->start)
        return;
    ph_arena_free(ctx->arena, pl->items);
    ph_arena_free(ctx->arena, pl->start);
}

static bool aabb_contains(ph_aabb outer, ph_aabb inner)
{
    return inner.lo.x >= outer.lo.x && inner.lo.y >= outer.lo.y && inner.lo.z >= outer.lo.z &&
           inner.hi.x <= outer.hi.x && inner.hi.y <= outer.hi.y && inner.hi.z <= outer.hi.z;
}

// Index of the x column of coordinate x, clamped so that any finite x has one.
static float column_index(float x)
{
    float c = floorf(x / CAL_ESCAPE_COLUMN_WIDTH);
    return c < -1.0e6f ? -1.0e6f : c > 1.0e6f ? 1.0e6f : c;
}

// The escape list of x column c.
static int column_list(float c)
{
    return (int)c & (CAL_ESCAPE_COLUMNS - 1);
}

static bool aabb_is_finite(ph_aabb b)
{
    return ph_is_finite_vec3(b.lo) && ph_is_finite_vec3(b.hi);
}

// Records that body slot sweeps through box, outside its proxy, from now on (until its version changes).
static void add_escape(cal_state *cs, int slot, ph_aabb box)
{
    if (!aabb_is_finite(box)) // like a proxy with non-finite bounds: in no search
        return;
    ph_calendar *cal = cs->cal;
    if (!ph_array_reserve(cal->escapes, cal->escape_capacity, cs->escape_count + 1))
    {
        cs->out_of_memory = true;
        return;
    }
    if (cs->escape_count == 0)
    {
        for (int i = 0; i < CAL_ESCAPE_COLUMNS; i++)
            cs->escape_head[i] = -1;
    }
    int column = column_list(column_index(box.lo.x));
    ph_cal_escape *e = &cal->escapes[cs->escape_count];
    e->box = box;
    e->slot = slot;
    e->version = cs->world->bodies[slot].version;
    e->next = cs->escape_head[column];
    cs->escape_head[column] = cs->escape_count++;
    cs->escape_widest = fmaxf(cs->escape_widest, box.hi.x - box.lo.x);
}

// Visits the bodies outside their proxies whose current sweep box meets box and whose proxy does not (those
// the search through the proxies has visited already).
static void visit_escapes(cal_state *cs, ph_aabb box, query_ctx *q)
{
    if (cs->escape_count == 0 || !aabb_is_finite(box))
        return;
    const ph_world *world = cs->world;
    const ph_octree *tree = &world->octree;
    // An entry meeting box starts at most escape_widest left of it. Consecutive columns have distinct
    // lists; a box spanning a full turn of them reads every list once.
    float first = column_index(box.lo.x - cs->escape_widest), last = column_index(box.hi.x);
    int columns =
        last - first + 1.0f >= (float)CAL_ESCAPE_COLUMNS ? CAL_ESCAPE_COLUMNS : (int)(last - first) + 1;
    int start = column_list(first);
    for (int c = 0; c < columns; c++)
    {
        for (int i = cs->escape_head[(start + c) & (CAL_ESCAPE_COLUMNS - 1)]; i >= 0;
             i = cs->cal->escapes[i].next)
        {
            const ph_cal_escape *e = &cs->cal->escapes[i];
            const ph_body *other = &world->bodies[e->slot];
            if (e->version != other->version || !ph_aabb_overlaps(&box, &e->box) ||
                ph_aabb_overlaps(&box, ph_octree_live_bounds(tree, other->proxy)))
                continue;
            visit_neighbour(e->slot, q);
        }
    }
}

// The first search of the step makes what searches read: the motion table (NaN, all bits set, but for the
// awake bodies) and the pair lists, in that order in the arena (release_searches frees them in reverse). A
// step whose first pass searches nothing makes neither.
static void prepare_searches(cal_state *cs)
{
    if (cs->prepared)
        return;
    cs->prepared = true;
    ph_step_context *ctx = cs->ctx;
    int slots = cs->world->body_ids.slot_count;
    if (cs->awake_motion)
        cs->motion = ph_arena_alloc(ctx->arena, (size_t)slots * sizeof *cs->motion);
    if (cs->motion)
    {
        memset(cs->motion, 0xff, (size_t)slots * sizeof *cs->motion);
        for (int i = 0; i < ctx->awake_count; i++)
            cs->motion[ctx->awake[i]] = cs->awake_motion[i];
    }
    cs->lists = make_pair_lists(ctx);
}

static void release_searches(cal_state *cs)
{
    if (!cs->prepared)
        return;
    free_pair_lists(cs->ctx, &cs->lists);
    if (cs->motion)
        ph_arena_free(cs->ctx->arena, cs->motion);
    cs->motion = NULL;
    cs->prepared = false;
}

// Whether the first search of convex body `slot` (its sweep from the step's start) is sure to do nothing: its
// sweep lies inside its proxy and no other proxy meets its search box. Then it reads no escape list, records
// no escape and visits no neighbour (visit_neighbour turns down the body itself), so leaving it out is the
// same step, bit for bit. Most fast bodies of a small scene are falling or flying through empty space, and
// this answers for them without swept_bounds' pose, frame, bounds and rotation angle. It reads a box that
// holds the search box instead, from what the step already has:
//  - the body's bounds at the step's start are its bounds at the end of the last step (the solver starts its
//    sweep there: center0 = center, q0 = xf.q); swept_bounds poses it again with q0 normalized, which differs
//    by an ulp or two of the quaternion, so every side is pushed out by eps, 1e-5 of the magnitudes involved
//    (a hundred times the rounding of the dozen operations on each side);
//  - the rest of the turn, theta, is at most pi sin(theta / 2) (sin x >= 2 x / pi on [0, pi / 2]), and for
//    the unit quaternions q0 and q1, sin(theta / 2) = sqrt(1 - (q0 . q1)^2); 4e-6 under the root covers the
//    rounding of both quaternions (about 1e-7 each; an angle bound of 6 mrad at least).
// A body that rotates or moves near other bodies fails the test, and searches as before.
static bool quiet_first_search(const cal_state *cs, int slot)
{
    const ph_world *world = cs->world;
    const ph_body *b = &world->bodies[slot];
    if (b->mesh || b->compound || !moving(b))
        return false;
    if (b->proxy < 0) // no proxy: no search box lies inside it
        return false;
    float m = world->def.speculative_margin;
    ph_quat q0 = b->toi_q0, q1 = b->xf.q;
    float dot = q0.x * q1.x + q0.y * q1.y + q0.z * q1.z + q0.w * q1.w;
    float s2 = 1.0f - dot * dot;
    float turn = fmaxf(GLM_PIf * sqrtf((s2 > 0.0f ? s2 : 0.0f) + 4.0e-6f), glms_vec3_norm(b->toi_turn)) *
                 b->bound_radius;
    const ph_octree *tree = &world->octree;
    const ph_aabb *proxy = ph_octree_live_bounds(tree, b->proxy);
    ph_aabb now = b->bounds;
    ph_vec3 move = glms_vec3_sub(b->center, b->toi_c0);
    // Sums of magnitudes bound the largest (a NaN makes the box non-finite, turned down below).
    ph_vec3 lo = glms_vec3_abs(now.lo), hi = glms_vec3_abs(now.hi), mv = glms_vec3_abs(move);
    float size = lo.x + lo.y + lo.z + hi.x + hi.y + hi.z + mv.x + mv.y + mv.z;
    float eps = 1.0e-5f * (size + b->bound_radius + m);
    float grow = turn + eps;
    ph_aabb sweep = {glms_vec3_minv(now.lo, glms_vec3_add(now.lo, move)),
                     glms_vec3_maxv(now.hi, glms_vec3_add(now.hi, move))};
    sweep.lo = glms_vec3_subs(sweep.lo, grow);
    sweep.hi = glms_vec3_adds(sweep.hi, grow);
    if (!aabb_contains(*proxy, sweep)) // false for a non-finite box
        return false;
    ph_aabb box = {glms_vec3_subs(sweep.lo, m + eps), glms_vec3_adds(sweep.hi, m + eps)};
    // The pair lists once made (a body searched before): every proxy meeting a box inside the body's proxy
    // meets the proxy, so it is one of the body's broadphase pairs. Before, a box query: a step whose bodies
    // are all quiet never makes the lists.
    const pair_lists *pl = &cs->lists;
    if (pl->start && aabb_contains(*proxy, box) && ph_octree_pairs_complete(tree, b->proxy))
    {
        for (int k = pl->start[slot]; k < pl->start[slot + 1]; k++)
            if (ph_aabb_overlaps(&box, ph_octree_live_bounds(tree, world->bodies[pl->items[k]].proxy)))
                return false;
        return true;
    }
    return !ph_octree_box_meets_other(tree, box, slot);
}

// Predicts the pairs of body `slot` with the bodies its sweep from t may reach (skipping body `skip`):
// those whose octree proxies overlap its swept box, read from the step's broadphase pairs where possible.
// When the box lies inside the body's own proxy (the solver left its sweep inside the bounds the
// broadphase swept, as for nearly every body in flight, and a body stopped by an event stays inside
// them) and that proxy was active in the step's pair search, every proxy overlapping the box overlaps
// the body's proxy too, so it is one of the body's broadphase pairs: filtering those by the box finds the
// same bodies as an octree query. The order differs, which does not matter: one call predicts each pair
// once, and the heap orders the events by (time, a, b).
// Which parts of a search predict_body_part runs: a search on the stepping thread runs the whole; a worker's
// first-pass search the neighbours' part alone, into its sink (it reads the world and the searches' tables,
// which no search changes), and the stepping thread then, in the search's turn, the escape lists' part (which
// reads and writes the lists, in order) before it pushes what the worker found: the pushes of the whole
// search, in its order.
typedef enum search_part
{
    SEARCH_WHOLE,
    SEARCH_NEIGHBOURS,
    SEARCH_ESCAPES
} search_part;

// Returns whether the search has an escape lists' part.
static bool predict_body_part(cal_state *cs, int slot, int skip, float t, bool initial, event_sink *sink,
                              search_part part)
{
    prepare_searches(cs);
    ph_world *world = cs->world;
    const ph_octree *tree = &world->octree;
    const ph_body *b = &world->bodies[slot];
    const pair_lists *pl = &cs->lists;
    ph_aabb box = swept_bounds(world, b, t);
    ph_aabb proxy = ph_octree_get_bounds(tree, b->proxy);
    // The sweep itself (the box without the margin) inside the proxy is what other searches need to find
    // the body through its proxy (every search box is a sweep grown by the margin, more than the distance
    // of any event); reading the broadphase pairs needs the whole box inside. A falling body is often a
    // little outside (gravity added g dt^2 after the proxy was swept) but well within the margin.
    float m = world->def.speculative_margin;
    ph_aabb sweep = {glms_vec3_add(box.lo, ph_v3(m, m, m)), glms_vec3_sub(box.hi, ph_v3(m, m, m))};
    bool swept_inside = aabb_contains(proxy, sweep);
    bool escapes = !initial || !swept_inside;
    query_ctx q = {cs, slot, skip, t, initial, swept_inside, body_motion(cs, slot), sink};
    // Bodies outside their proxies are found through the escape lists: after an event every search reads
    // them; in the first pass only a body outside its own proxy needs to (a pair with one body inside its
    // proxy is found by the other's search through that proxy), and it meets the ones recorded before it.
    if (part != SEARCH_NEIGHBOURS)
    {
        if (escapes)
            visit_escapes(cs, box, &q);
        if (!swept_inside)
            add_escape(cs, slot, box);
    }
    if (part == SEARCH_ESCAPES)
        return escapes;
    bool pairs_hold = aabb_contains(proxy, box) && ph_octree_pairs_complete(tree, b->proxy);
    if (!pl->start || !pairs_hold)
    {
        ph_octree_query_box(tree, box, visit_neighbour, &q);
        return escapes;
    }
    for (int k = pl->start[slot]; k < pl->start[slot + 1]; k++)
    {
        int other = pl->items[k];
        if (ph_aabb_overlaps(&box, ph_octree_live_bounds(tree, world->bodies[other].proxy)))
            visit_neighbour(other, &q);
    }
    return escapes;
}

static void predict_body(cal_state *cs, int slot, int skip, float t, bool initial)
{
    predict_body_part(cs, slot, skip, t, initial, NULL, SEARCH_WHOLE);
}

// A first search (from the step's start): left out when quiet_first_search answers for it. Apart from
// predict_body so that a quiet body (most of them) costs no entry into that large function.
static void first_search(cal_state *cs, int slot)
{
    if (!quiet_first_search(cs, slot))
        predict_body(cs, slot, -1, 0.0f, true);
}

// ---- Resolution -------------------------------------------------------------------------------------

// The response at the event (ph_impact_respond: compression, Poisson's restitution, friction, each of which
// only takes kinetic energy away; the calendar applies it many times in a step to the same fast bodies). A
// body's angular velocity is its sweep's end's carrying one: the response takes the angular velocity now of
// its momentum at the event's pose (ph_body_spin_now_moved), and gives back the carrying velocity at the end
// of the momentum it leaves there.
static void respond(ph_world *world, int a, int b, const ph_manifold *m, float t, bool inelastic)
{
    const ph_body *ba = &world->bodies[a], *bb = &world->bodies[b];
    ph_body_state *sa = &world->states[a], *sb = &world->states[b];
    ph_vec3 ca, cb;
    ph_quat qa, qb;
    pose_at(ba, t, &ca, &qa);
    pose_at(bb, t, &cb, &qb);
    ph_impact_body ra = ph_impact_body_at(ba, ca, qa), rb = ph_impact_body_at(bb, cb, qb);
    float e = inelastic ? 0.0f : fmaxf(ba->material.restitution, bb->material.restitution);
    float mu = sqrtf(ba->material.friction * bb->material.friction);
    float h = world->last_h;
    ph_vec3 wa = sa->w, wb = sb->w;
    ph_vec3 wa_t = ph_body_spin_now_moved(ba, ba->xf.q, qa, wa, h),
            wb_t = ph_body_spin_now_moved(bb, bb->xf.q, qb, wb, h);
    sa->w = wa_t;
    sb->w = wb_t;
    ph_impact_respond(&ra, &rb, sa, sb, m, e, mu, CAL_RESTITUTION_THRESHOLD);
    // Back to the carrying velocity at the sweep's end, unless the response changed nothing.
    sa->w = glms_vec3_eqv(sa->w, wa_t) ? wa : ph_body_spin_carried_moved(ba, qa, ba->xf.q, sa->w, h);
    sb->w = glms_vec3_eqv(sb->w, wb_t) ? wb : ph_body_spin_carried_moved(bb, qb, bb->xf.q, sb->w, h);
}

// Restarts body slot's sweep at time t with its current velocity; frozen bodies end the step at t.
static void restart_sweep(cal_state *cs, int slot, float t, bool frozen)
{
    ph_body *b = &cs->world->bodies[slot];
    if (!moving(b))
        return;
    ph_vec3 c;
    ph_quat q;
    pose_at(b, t, &c, &q);
    ph_body_state *st = &cs->world->states[slot];
    float rest = (1.0f - t) * cs->ctx->dt;
    b->toi_t0 = t;
    b->toi_c0 = c;
    b->toi_q0 = q;
    b->center = frozen ? c : glms_vec3_add(c, glms_vec3_scale(st->v, rest));
    // The exact turn at the body's spin (not the sub-step's first-order one, which over the rest of a step
    // turns a fast spinner by 2 atan(|w| rest / 2), a fraction of |w| rest: the response would then read a
    // spin that is not the sweep's), or where its momentum is not its spin times a constant, the turn that
    // keeps its momentum (ph_body_turn_free: at a fixed spin, a hull plank struck spinning at 16 rad/s
    // changed the pair's angular momentum by 0.27%), swept as the turn from here to there nearest to its
    // spin's. Its angular velocity is taken from the end of its sweep to here first (ph_body_spin_moved).
    float h = cs->world->last_h;
    if (b->type == PH_BODY_DYNAMIC)
        st->w = ph_body_spin_moved(b, b->xf.q, q, st->w, h);
    ph_vec3 turn = glms_vec3_scale(st->w, rest);
    ph_quat end = q;
    ph_vec3 w = st->w;
    if (frozen)
        b->xf.q = q;
    else if (b->type == PH_BODY_DYNAMIC && ph_body_turn_free(b, &end, &w, rest, h))
    {
        turn = solver_turn(q, end, turn);
        b->xf.q = end;
        st->w = w;
    }
    else
        b->xf.q = turned(q, turn);
    b->toi_turn = !frozen && glms_vec3_norm(turn) > CAL_GIVEN_TURN ? turn : glms_vec3_zero();
    ph_body_sync_transform(b);
    b->version++;
    if (cs->motion)
        cs->motion[slot] = motion_of(b, st, cs->ctx->dt);
}

static void record(cal_state *cs, const ph_cal_event *e, const ph_manifold *m, bool clamped)
{
    ph_world *world = cs->world;
    ph_calendar *cal = &world->calendar;
    if (!ph_array_reserve(cal->events, cal->event_capacity, cal->event_count + 1))
        return;
    ph_calendar_event *out = &cal->events[cal->event_count++];
    out->time = e->t * cs->ctx->dt;
    out->normal = m->normal;
    out->point = glms_vec3_zero();
    for (int i = 0; i < m->point_count; i++)
        out->point =
            glms_vec3_add(out->point, glms_vec3_scale(m->points[i].point, 1.0f / (float)m->point_count));
    out->a = (ph_body_id){(uint32_t)e->a + 1u, ph_id_pool_generation(&world->body_ids, e->a)};
    out->b = (ph_body_id){(uint32_t)e->b + 1u, ph_id_pool_generation(&world->body_ids, e->b)};
    out->clamped = clamped;
}

// The contact of event e's two parts at the event time (out_m), and the response to it: inelastic when clamp.
static void respond_at(cal_state *cs, const ph_cal_event *e, bool clamp, ph_manifold *out_m)
{
    ph_world *world = cs->world;
    ph_convex sa, sb;
    ph_sweep wa, wb;
    ph_vec3 ca, cb;
    ph_quat qa, qb;
    pose_at(&world->bodies[e->a], e->t, &ca, &qa);
    pose_at(&world->bodies[e->b], e->t, &cb, &qb);
    part_sweep(world, e->a, e->part_a, e->t, ca, qa, &sa, &wa);
    part_sweep(world, e->b, e->part_b, e->t, cb, qb, &sb, &wb);
    ph_collide_convex(&sa, ph_sweep_transform(&wa, 0.0f), &sb, ph_sweep_transform(&wb, 0.0f),
                      world->def.speculative_margin, NULL, out_m);
    if (out_m->point_count > 0)
        respond(world, e->a, e->b, out_m, e->t, clamp);
}

static void freeze_all(cal_state *cs, float t);

// Stops every body jointed, through any chain of joints, to body `slot` where it is at step fraction t (those
// whose sweep starts later keep it), and looks again for what may meet them. A jointed body is held by its
// joints: an event that moved it alone would tear them open (a ragdoll's forearm struck on the ground
// opened its elbow by 30 cm). Stopped together at one instant, the group keeps its joints as its sweeps
// had them, and the next step's solver takes it on from there.
static void hold_jointed_group(cal_state *cs, int slot, float t)
{
    ph_world *world = cs->world;
    ph_step_context *ctx = cs->ctx;
    int slots = world->body_ids.slot_count;
    // The searches' tables first: predict_body would otherwise take them from the arena above these two
    // (the arena frees in reverse order only).
    prepare_searches(cs);
    uint8_t *seen = ph_arena_alloc(ctx->arena, (size_t)slots);
    int *stack = seen ? ph_arena_alloc(ctx->arena, (size_t)slots * sizeof *stack) : NULL;
    if (!stack)
    {
        if (seen)
            ph_arena_free(ctx->arena, seen);
        freeze_all(cs, t); // no memory to walk the group: everything stops, which is safe
        return;
    }
    memset(seen, 0, (size_t)slots);
    int top = 0;
    stack[top++] = slot;
    seen[slot] = 1;
    while (top > 0)
    {
        int at = stack[--top];
        ph_body *b = &world->bodies[at];
        if (moving(b) && b->toi_t0 <= t)
        {
            restart_sweep(cs, at, t, true);
            predict_body(cs, at, -1, t, false);
        }
        for (int k = b->joint_head; k >= 0;)
        {
            const ph_joint *j = &world->joints[k];
            int other = j->a == at ? j->b : j->a;
            if (other >= 0 && !seen[other] && moving(&world->bodies[other]))
            {
                seen[other] = 1;
                stack[top++] = other;
            }
            k = j->a == at ? j->next_a : j->next_b;
        }
    }
    ph_arena_free(ctx->arena, stack);
    ph_arena_free(ctx->arena, seen);
}

// Whether the solver took event e's pair this step (it had a contact with points) and left the event's two
// parts apart at the step's end, or overlapping by no more than a pair may sink in without an event
// (CAL_SIZE_RATIO of the thinner body), neither body having moved more than its thickness. A pair the solver
// did not take may end apart on the wrong side (a fast body through a thin wall).
static bool ends_held(const cal_state *cs, const ph_cal_event *e)
{
    const ph_world *world = cs->world;
    const ph_contact *c =
        ph_contacts_find(&world->contacts, e->a < e->b ? e->a : e->b, e->a < e->b ? e->b : e->a);
    if (!c || c->manifold.point_count == 0)
        return false;
    // Bodies fast for their size (a chord of several times a body's size is not the solver's path in any
    // sense) must end apart and on the side of the solver's contact: bodies at 250 m/s once ended inside
    // walls, and a body through a thin wall ends on its other side.
    bool fast = false;
    for (int k = 0; k < 2; k++)
    {
        int slot = k ? e->b : e->a;
        const ph_body *b = &world->bodies[slot];
        fast = fast || (moving(b) && motion_of(b, &world->states[slot], cs->ctx->dt) > thickness(world, b));
    }
    ph_convex sa, sb;
    ph_sweep wa, wb;
    ph_vec3 ca, cb;
    ph_quat qa, qb;
    pose_at(&world->bodies[e->a], 1.0f, &ca, &qa);
    pose_at(&world->bodies[e->b], 1.0f, &cb, &qb);
    part_sweep(world, e->a, e->part_a, 1.0f, ca, qa, &sa, &wa);
    part_sweep(world, e->b, e->part_b, 1.0f, cb, qb, &sb, &wb);
    ph_manifold m;
    ph_collide_convex(&sa, ph_sweep_transform(&wa, 0.0f), &sb, ph_sweep_transform(&wb, 0.0f), 0.0f, NULL, &m);
    float thin = fminf(thickness(world, &world->bodies[e->a]), thickness(world, &world->bodies[e->b]));
    for (int i = 0; i < m.point_count; i++)
        if (m.points[i].separation < (fast ? 0.0f : -CAL_SIZE_RATIO * thin))
            return false;
    if (!fast)
        return true;
    ph_gjk_output g;
    if (ph_gjk_distance(&sa, ph_sweep_transform(&wa, 0.0f), &sb, ph_sweep_transform(&wb, 0.0f), NULL, &g) !=
        PH_GJK_SEPARATED)
        return false;
    ph_vec3 n = c->a == e->a ? c->manifold.normal : glms_vec3_negate(c->manifold.normal);
    return glms_vec3_dot(g.normal, n) > 0.0f;
}

static void resolve(cal_state *cs, const ph_cal_event *e, bool clamp)
{
    ph_world *world = cs->world;
    ph_manifold m;
    // An event of a jointed body is inelastic and stops its group (hold_jointed_group).
    bool hold = jointed(&world->bodies[e->a]) || jointed(&world->bodies[e->b]);
    ph_body_state *sa = &world->states[e->a], *sb = &world->states[e->b];
    ph_vec3 va = sa->v, wa = sa->w, vb = sb->v, wb = sb->w;
    respond_at(cs, e, clamp || hold, &m);
    // An event whose response changed no velocity, between bodies the solver left apart at the step's end, is
    // the straight sweep's alone: a contact the solver took in the step bends the bodies' path, and the chord
    // from where they started to where they ended can pass through each other where the path did not.
    // Restarted, the bodies would be moved on from the chord at their end velocities, to other places than
    // the solver's with no force to move them: two boxes that met off centre changed their angular momentum
    // by 2.9% in one such event (issue 19, item 1). The solver's ends stand; where the solver did not take
    // the pair, or they overlap deeper than a pair may sink in (a tumbling box whose other corners swing into
    // the floor), the event goes on as any.
    if (!clamp && !hold && m.point_count > 0 && glms_vec3_eqv(sa->v, va) && glms_vec3_eqv(sa->w, wa) &&
        glms_vec3_eqv(sb->v, vb) && glms_vec3_eqv(sb->w, wb) && ends_held(cs, e))
    {
        cs->ctx->stats->calendar_kept++;
        return;
    }
    // Sleeping bodies take the hit as static ones and wake for the next step.
    for (int k = 0; k < 2; k++)
    {
        int slot = k ? e->b : e->a;
        if (!world->bodies[slot].awake && world->bodies[slot].type != PH_BODY_STATIC)
            ph_world_wake_island(world, slot);
    }
    restart_sweep(cs, e->a, e->t, clamp || hold || m.point_count == 0);
    restart_sweep(cs, e->b, e->t, clamp || hold || m.point_count == 0);
    for (int k = 0; k < 2; k++)
    {
        int slot = k ? e->b : e->a;
        if (jointed(&world->bodies[slot]))
            hold_jointed_group(cs, slot, e->t);
    }
    if (m.point_count == 0)
    {
        // No contact at the reported time (a numerical corner case): stopping both keeps them apart.
        m.normal = ph_v3(0.0f, 1.0f, 0.0f);
    }
    record(cs, e, &m, clamp || m.point_count == 0);
    cs->ctx->stats->calendar_substeps++;
    if (clamp)
        cs->ctx->stats->calendar_budget_hits++;
    else
        cs->ctx->stats->calendar_events++;
    // Only a body whose motion changed has new events to find: a static body (a wall whose swept box
    // reaches hundreds of bodies) keeps every prediction it had.
    bool a_changed = moving(&world->bodies[e->a]);
    if (a_changed)
        predict_body(cs, e->a, -1, e->t, false);
    if (moving(&world->bodies[e->b]))
        predict_body(cs, e->b, a_changed ? e->a : -1, e->t, false);
}

// Without memory for more events the step cannot keep track of impacts: every moving body ends its step
// where it is at time t, which all events before t have made safe (nothing passes through anything).
static void freeze_all(cal_state *cs, float t)
{
    ph_step_context *ctx = cs->ctx;
    for (int i = 0; i < ctx->awake_count; i++)
    {
        const ph_body *b = &cs->world->bodies[ctx->awake[i]];
        if (b->toi_t0 < t)
            restart_sweep(cs, ctx->awake[i], t, true);
    }
    cs->heap_count = 0;
    ctx->stats->calendar_budget_hits++;
}

// The first pass over the awake bodies. Most steps of most scenes move nothing far (every motion within the
// speculative margin: no search at all), and in a small scene the few bodies that do move far often move
// little compared with everything they could meet; such a body's searches would visit its neighbours only to
// have visit_neighbour's size test turn every one of them down, so they are left out (see beyond_reach).
typedef struct first_pass
{
    int *fast;     // awake bodies moving more than query_motion, in awake order; NULL when the arena is full
    float *motion; // their motion_of
    int *deferred; // those whose searches are left out (beyond_reach)
    float *awake_motion; // motion_of of every awake body, in awake order
    int *search;         // the fast bodies searched, not deferred (first_searches)
    int fast_count;
    int deferred_count;
    float top[2];   // the two largest motions of awake bodies, top[0] >= top[1] (unit: m)
    int top_slot;   // the body of top[0]
    float thinnest; // smallest thickness of any body, or < 0 until beyond_reach first needs it (unit: m)
} first_pass;

// Lists the fast bodies and the largest motions. False when no body moved far enough to search (the arrays
// are then given back): the calendar has nothing to do.
// Also starts every awake body's sweep at the beginning of the step.
static bool first_pass_begin(cal_state *cs, first_pass *fp)
{
    ph_step_context *ctx = cs->ctx;
    ph_world *world = cs->world;
    memset(fp, 0, sizeof *fp);
    fp->top_slot = -1;
    fp->thinnest = -1.0f;
    // A body alone in its world has nothing to meet: no list, no search (see beyond_reach).
    bool alone = world->body_ids.live_count <= 1;
    size_t n = (size_t)ctx->awake_count + 1;
    fp->fast = alone ? NULL : ph_arena_alloc(ctx->arena, n * (3 * sizeof(int) + 2 * sizeof(float)));
    if (fp->fast)
    {
        fp->deferred = fp->fast + n;
        fp->search = fp->deferred + n;
        fp->motion = (float *)(fp->search + n);
        fp->awake_motion = fp->motion + n;
    }
    for (int i = 0; i < ctx->awake_count; i++)
    {
        int slot = ctx->awake[i];
        ph_body *b = &world->bodies[slot];
        b->toi_t0 = 0.0f;
        b->toi_c0 = b->center0;
        b->toi_q0 = b->q0;
        b->toi_turn = solver_turn(b->q0, b->xf.q, glms_vec3_scale(world->states[slot].w, ctx->dt));
        b->version = 0;
        float m = motion_of(b, &world->states[slot], ctx->dt);
        if (fp->fast)
            fp->awake_motion[i] = m;
        if (m > fp->top[0])
        {
            fp->top[1] = fp->top[0];
            fp->top[0] = m;
            fp->top_slot = slot;
        }
        else if (m > fp->top[1])
            fp->top[1] = m;
        if (m > cs->query_motion && fp->fast)
        {
            fp->fast[fp->fast_count] = slot;
            fp->motion[fp->fast_count++] = m;
        }
    }
    if (alone)
        return false;
    if (!fp->fast)
        return true; // without the list (the arena is full) every awake body is looked at
    if (fp->fast_count == 0)
    {
        ph_arena_free(ctx->arena, fp->fast);
        fp->fast = NULL;
        return false;
    }
    cs->awake_motion = fp->awake_motion;
    return true;
}

static void first_pass_end(cal_state *cs, first_pass *fp)
{
    cs->awake_motion = NULL;
    if (fp->fast)
        ph_arena_free(cs->ctx->arena, fp->fast);
}

// Smallest thickness of any body in the world (unit: m; infinite in an empty world).
static float thinnest_body(const ph_world *world)
{
    // A comparison for fminf (a call into libm): a thickness is never NaN (see thickness), so the minimum is
    // the same.
    float thin = INFINITY;
    for (int i = 0; i < world->body_ids.slot_count; i++)
        if (ph_id_pool_is_live(&world->body_ids, i))
        {
            float t = thickness(world, &world->bodies[i]);
            thin = t < thin ? t : thin;
        }
    return thin;
}

// Whether visit_neighbour's size test turns down every pair of fast body fp->fast[k] in the first pass, so
// that its search can be left out: in a world of one body there is no pair; otherwise any partner j moves at
// most the largest motion of the other bodies (0 when not awake) and is at least the thinnest body thick, so
// m_k + m_j <= m_k + max_other <= CAL_SIZE_RATIO min(thickness_k, thinnest) <= CAL_SIZE_RATIO
// min(thickness_k, thickness_j). Float sums, products by CAL_SIZE_RATIO and minimums are monotonic: the bound
// holds as computed, so the step is the same, bit for bit, with or without the search.
static bool beyond_reach(cal_state *cs, first_pass *fp, int k)
{
    const ph_world *world = cs->world;
    int slot = fp->fast[k];
    if (world->body_ids.live_count <= 1)
        return true;
    float reach = fp->motion[k] + (slot == fp->top_slot ? fp->top[1] : fp->top[0]);
    if (!(reach <= CAL_SIZE_RATIO * thickness(world, &world->bodies[slot])))
        return false;
    if (fp->thinnest < 0.0f)
        fp->thinnest = thinnest_body(world);
    return reach <= CAL_SIZE_RATIO * fp->thinnest;
}

// Fewest fast bodies a worker takes at a time in the first pass (task.h).
#define CAL_MIN_SEARCHES 64

// What a worker's first-pass search left: nothing to do (quiet); its neighbours' predictions in its worker's
// sink, with or without an escape lists' part for the stepping thread; or the whole search for the stepping
// thread (its sink was full).
enum
{
    SEARCH_QUIET,
    SEARCH_BUFFERED,
    SEARCH_BUFFERED_ESCAPES,
    SEARCH_SERIAL
};

typedef struct search_task
{
    cal_state *cs;
    const int *slots;
    event_sink *sinks; // one a worker
    uint8_t *state;    // per search: SEARCH_*
    int *first;        // per buffered search: its first event in its worker's sink
    int *count;        // and how many
    uint8_t *worker;   // and which worker's
} search_task;

// Each search on its own: quiet_first_search's answer, else the search's neighbours' part into the worker's
// sink (predict_body_part).
static void run_searches(int begin, int end, int worker, void *context)
{
    const search_task *t = context;
    event_sink *sink = &t->sinks[worker];
    for (int i = begin; i < end; i++)
    {
        if (quiet_first_search(t->cs, t->slots[i]))
        {
            t->state[i] = SEARCH_QUIET;
            continue;
        }
        int first = sink->count;
        long long sweeps = sink->sweeps;
        sink->full = false;
        bool escapes = predict_body_part(t->cs, t->slots[i], -1, 0.0f, true, sink, SEARCH_NEIGHBOURS);
        if (!sink->full)
        {
            t->state[i] = escapes ? SEARCH_BUFFERED_ESCAPES : SEARCH_BUFFERED;
            t->first[i] = first;
            t->count[i] = sink->count - first;
            t->worker[i] = (uint8_t)worker;
        }
        else
        {
            // Run again, whole, in its turn: what it predicted here is dropped, and its sweeps not counted
            // twice.
            t->state[i] = SEARCH_SERIAL;
            sink->count = first;
            sink->sweeps = sweeps;
        }
    }
}

// The searches of fp->search[0 .. count) on the workers, their results taken in order on this thread: every
// heap push happens in the order of the loop of one thread (so the heap, and the step, are the same bit for
// bit for any worker count), and the parts left to this thread run in their search's turn. False when the
// arena could not hold the bookkeeping (nothing done: the caller runs them one after another).
static bool parallel_searches(cal_state *cs, first_pass *fp, int count)
{
    ph_step_context *ctx = cs->ctx;
    const ph_tasks *tasks = &cs->world->tasks;
    int workers = tasks->worker_count;
    _Static_assert(PH_MAX_WORKERS <= 256, "a search's worker is kept in a byte");
    int room = cs->cal->sink_room > 0 ? cs->cal->sink_room : cs->cal->sink_room < 0 ? 0 : CAL_SINK_EVENTS;
    size_t per_search = 2 * sizeof(int) + 2;
    size_t bytes = (size_t)workers * (sizeof(event_sink) + (size_t)room * sizeof(ph_cal_event)) +
                   (size_t)count * per_search;
    prepare_searches(cs); // first: its tables outlive the block, freed below (the arena frees in reverse)
    unsigned char *block = ph_arena_alloc(ctx->arena, bytes);
    if (!block)
        return false;
    event_sink *sinks = (event_sink *)block;
    ph_cal_event *events = (ph_cal_event *)(sinks + workers);
    for (int w = 0; w < workers; w++)
        sinks[w] = (event_sink){events + (size_t)w * (size_t)room, room, 0, false, 0};
    int *first = (int *)(events + (size_t)workers * (size_t)room);
    int *counts = first + count;
    uint8_t *state = (uint8_t *)(counts + count), *worker = state + count;
    search_task t = {cs, fp->search, sinks, state, first, counts, worker};
    ph_parallel_for(&cs->world->tasks, count, CAL_MIN_SEARCHES, run_searches, &t);
    for (int w = 0; w < workers; w++)
        ctx->stats->calendar_sweeps += sinks[w].sweeps;
    for (int i = 0; i < count; i++)
    {
        cs->cal->worker_searches += state[i] != SEARCH_QUIET;
        cs->cal->escape_parts += state[i] == SEARCH_BUFFERED_ESCAPES;
        cs->cal->reruns += state[i] == SEARCH_SERIAL;
    }
    for (int i = 0; i < count && !cs->out_of_memory; i++)
    {
        if (state[i] == SEARCH_SERIAL)
            predict_body(cs, fp->search[i], -1, 0.0f, true);
        if (state[i] == SEARCH_BUFFERED_ESCAPES)
            predict_body_part(cs, fp->search[i], -1, 0.0f, true, NULL, SEARCH_ESCAPES);
        if (state[i] == SEARCH_BUFFERED || state[i] == SEARCH_BUFFERED_ESCAPES)
            for (int k = 0; k < counts[i] && !cs->out_of_memory; k++)
                if (!heap_push(cs, sinks[worker[i]].items[first[i] + k]))
                    cs->out_of_memory = true;
    }
    ph_arena_free(ctx->arena, block);
    return true;
}

// The first pass over the fast bodies (fp->fast), as the loop `beyond_reach ? defer : first_search` over them
// in order: which are left out is decided here, in order; the others are searched on the workers when there
// are enough of them (parallel_searches: quiet_first_search reads the step's bodies, proxies and pairs, and
// nothing a search changes, so its answer is the same on a worker as in its turn), else here, in order.
static void first_searches(cal_state *cs, first_pass *fp)
{
    int count = 0;
    for (int i = 0; i < fp->fast_count; i++)
    {
        if (beyond_reach(cs, fp, i))
            fp->deferred[fp->deferred_count++] = fp->fast[i];
        else
            fp->search[count++] = fp->fast[i];
    }
    if (ph_tasks_split(&cs->world->tasks, count, CAL_MIN_SEARCHES) && parallel_searches(cs, fp, count))
        return;
    for (int i = 0; i < count && !cs->out_of_memory; i++)
        first_search(cs, fp->search[i]);
}

bool ph_calendar_run(ph_step_context *ctx)
{
    ph_world *world = ctx->world;
    ph_calendar *cal = &world->calendar;
    cal->event_count = 0;
    cal->worker_searches = cal->escape_parts = cal->reruns = 0;
    // Field by field: the escape lists' heads (a kilobyte) are set up by the first add_escape only.
    cal_state cs;
    cs.ctx = ctx;
    cs.world = world;
    cs.cal = cal;
    cs.heap_count = 0;
    // Hard bound on the loop: the budget, plus one clamp per awake body (each clamp stops one), plus slack.
    cs.max_events = world->def.calendar_event_budget + 2 * ctx->awake_count + CAL_MAX_PARTS;
    cs.pair_mask = 0;
    cs.out_of_memory = false;
    cs.processed = 0;
    cs.resolved = 0;
    cs.target = CAL_TARGET_FRACTION * world->def.speculative_margin;
    cs.tolerance = CAL_TOLERANCE_FRACTION * cs.target;
    cs.query_motion = CAL_QUERY_MOTION_FRACTION * world->def.speculative_margin;
    cs.lists = (pair_lists){NULL, NULL};
    cs.motion = NULL;
    cs.awake_motion = NULL;
    cs.prepared = false;
    cs.escape_count = 0;
    cs.escape_widest = 0.0f;
    first_pass fp;
    if (!first_pass_begin(&cs, &fp))
        return true; // nothing moved far enough to need the calendar: no search, no event
    if (fp.fast)
        first_searches(&cs, &fp);
    else // without the list (the arena is full): every awake body, one after another
        for (int i = 0; i < ctx->awake_count && !cs.out_of_memory; i++)
        {
            int slot = ctx->awake[i];
            if (motion_of(&world->bodies[slot], &world->states[slot], ctx->dt) > cs.query_motion)
                first_search(&cs, slot);
        }
    // A deferred body has no pair the first pass would sweep, but a body whose motion an event changes
    // may reach it later through its escape entry: when any event is coming, the deferred searches run
    // now, before the first event, as they would have in the loop above (they visit nothing else).
    for (int i = 0; i < fp.deferred_count && cs.heap_count > 0 && !cs.out_of_memory; i++)
        first_search(&cs, fp.deferred[i]);
    if (cs.out_of_memory)
        freeze_all(&cs, 0.0f);
    while (cs.heap_count > 0 && cs.processed < cs.max_events)
    {
        ph_cal_event e = heap_pop(&cs);
        if (e.version_a != world->bodies[e.a].version || e.version_b != world->bodies[e.b].version)
            continue; // stale: one of the bodies changed its motion after this prediction
        cs.processed++;
        ph_cal_pair_count *pc = pair_entry(&cs, e.a, e.b);
        bool clamp = cs.resolved >= world->def.calendar_event_budget || !pc ||
                     pc->count >= world->def.calendar_events_per_pair;
        if (pc)
            pc->count++;
        if (!clamp)
            cs.resolved++;
        resolve(&cs, &e, clamp);
        if (cs.out_of_memory)
            freeze_all(&cs, e.t);
    }
    release_searches(&cs);
    first_pass_end(&cs, &fp);
    for (int i = 0; i < cal->pair_used_count; i++)
        cal->pairs[cal->pair_used[i]] = (ph_cal_pair_count){0, 0};
    cal->pair_used_count = 0;
    // Anything left (only past the hard bound) is clamped where it stands at its event, never through, with
    // the approach taken out of the pair's velocities as by any clamp: a body stopped without it would start
    // the next step driving into the same contact at the same speed, and be stopped again.
    while (cs.heap_count > 0)
    {
        ph_cal_event e = heap_pop(&cs);
        if (e.version_a != world->bodies[e.a].version || e.version_b != world->bodies[e.b].version)
            continue;
        ph_manifold m;
        respond_at(&cs, &e, true, &m);
        restart_sweep(&cs, e.a, e.t, true);
        restart_sweep(&cs, e.b, e.t, true);
        ctx->stats->calendar_budget_hits++;
    }
    return !cs.out_of_memory;
}

void ph_calendar_destroy(ph_calendar *calendar)
{
    ph_array_free(calendar->events, calendar->event_capacity);
    ph_array_free(calendar->heap, calendar->heap_capacity);
    ph_array_free(calendar->pairs, calendar->pair_capacity);
    ph_array_free(calendar->pair_used, calendar->pair_used_capacity);
    calendar->pair_table = 0;
    calendar->pair_used_count = 0;
    ph_array_free(calendar->escapes, calendar->escape_capacity);
    calendar->event_count = 0;
}
