// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Time of impact of two moving convex shapes by conservative advancement (Mirtich, "Impulse-based
// Dynamic Simulation of Rigid Body Systems", PhD thesis 1996, ch. 2.3; Zhang, Redon, Lee and Manocha,
// "Continuous collision detection for articulated models using Taylor models and temporal culling",
// SIGGRAPH 2007). GJK (gjk.c) gives the distance d and the closest direction n at time t. Along the
// fixed axis n the separation of the moving shapes shrinks at most at
//     mu = -dot(v_b - v_a, n) + |n x w_a| r_a + |n x w_b| r_b
// per unit of sweep time, where v are the centre-of-mass displacements over the sweep, w the rotation
// vectors (world axis times angle; a sweep turns about a fixed axis), and r the largest distance of each
// shape's core from its centre of mass. mu < 0 when the pair moves apart along n faster than any turn
// can bring a point closer: the separation along n then only grows, and the pair is separated for good. A
// point at offset x from the centre moves along n at dot(n, w x x) = dot(x, n x w) <= |n x w| |x| through
// rotation, so a spin about n itself (a puck turning flat on a wall) does not close the gap. The core is the
// shape without its rounding: a sphere is a point grown by its radius and a capsule a segment, and turning
// the rounding about its centre moves no support point, so a ball rolling along a wall closes nothing either
// (with the full radius, such sliding contacts crawled to the iteration bound and were reported as impacts).
// The distance is at least the separation along n, so advancing by (d - target) / mu can never pass the time
// where the distance reaches target. The calendar (world) calls this per pair to find impacts inside a step.
#include "phys/gjk.h"

#include <float.h>  // FLT_MAX
#include <math.h>   // sqrtf, atan2f, sinf, cosf
#include <string.h> // memset

// Hard bound on distance queries (GJK runs). Pure translation converges in one or two; fast spins need
// more, and when the bound is hit the last safe time is returned with PH_TOI_FAILED.
#define TOI_ITERATION_LIMIT 64
// Most advancement steps along one fixed axis between two distance queries (see ph_time_of_impact).
#define TOI_AXIS_STEPS 16

static bool is_zero_vec3(ph_vec3 v)
{
    return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f;
}

static ph_quat negate_quat(ph_quat q)
{
    q.x = -q.x;
    q.y = -q.y;
    q.z = -q.z;
    q.w = -q.w;
    return q;
}

// A sweep made ready for evaluation at many times (the advancement evaluates both sweeps at every
// iteration): spherical interpolation along the shorter arc, at constant angular velocity, with the
// angle's arctangent and sine taken once; or, for a sweep with its rotation given (any angle), the turn
// about that fixed axis.
typedef struct sweep_path
{
    ph_vec3 local_center, c0, dc; // dc = c1 - c0
    ph_quat q0, q1;               // normalised, q1 on q0's side of the double cover
    float theta;                  // half the rotation angle
    float sin_theta;
    ph_vec3 axis; // unit axis of a given rotation
    bool turns;
    bool given; // turns by theta about axis (sweep->rotation), not along the shorter arc
} sweep_path;

// Without `angle` the path can only be evaluated at its ends, t = 0 and t = 1.
static sweep_path make_path(const ph_sweep *sweep, bool angle)
{
    sweep_path p;
    p.local_center = sweep->local_center;
    p.c0 = sweep->c0;
    p.dc = glms_vec3_sub(sweep->c1, sweep->c0);
    p.q0 = glms_quat_normalize(sweep->q0);
    p.q1 = glms_quat_normalize(sweep->q1);
    p.axis = glms_vec3_zero();
    p.given = !is_zero_vec3(sweep->rotation); // most sweeps: no square root for them
    if (p.given)
    {
        float turn = glms_vec3_norm(sweep->rotation);
        p.turns = true;
        p.axis = glms_vec3_scale(sweep->rotation, 1.0f / turn);
        p.theta = 0.5f * turn;
        p.sin_theta = 0.0f;
        return p;
    }
    float c = glms_quat_dot(p.q0, p.q1);
    if (c < 0.0f)
    {
        p.q1 = negate_quat(p.q1);
        c = -c;
    }
    // Half the rotation angle between them, from the components of q0^-1 q1 (accurate for small angles).
    ph_quat rel = glms_quat_mul(glms_quat_conjugate(p.q0), p.q1);
    float s = sqrtf(rel.x * rel.x + rel.y * rel.y + rel.z * rel.z);
    p.turns = s > 0.0f;
    p.theta = p.turns && angle ? atan2f(s, c) : 0.0f;
    p.sin_theta = p.turns && angle ? sinf(p.theta) : 0.0f;
    return p;
}

static ph_quat path_rotation(const sweep_path *p, float t)
{
    if (!p->turns)
        return p->q0;
    // The weights at the ends are exactly 1 and 0: no sines needed there (the calendar starts most
    // sweeps at t = 0).
    if (t == 0.0f)
        return glms_quat_normalize(p->q0);
    if (t == 1.0f)
        return glms_quat_normalize(p->q1);
    if (p->given)
    {
        float s = sinf(t * p->theta);
        ph_quat turn;
        turn.x = p->axis.x * s;
        turn.y = p->axis.y * s;
        turn.z = p->axis.z * s;
        turn.w = cosf(t * p->theta);
        return glms_quat_normalize(glms_quat_mul(turn, p->q0));
    }
    float k0 = sinf((1.0f - t) * p->theta) / p->sin_theta, k1 = sinf(t * p->theta) / p->sin_theta;
    ph_quat q;
    q.x = k0 * p->q0.x + k1 * p->q1.x;
    q.y = k0 * p->q0.y + k1 * p->q1.y;
    q.z = k0 * p->q0.z + k1 * p->q1.z;
    q.w = k0 * p->q0.w + k1 * p->q1.w;
    return glms_quat_normalize(q);
}

static ph_transform path_transform(const sweep_path *p, float t)
{
    ph_transform xf;
    xf.q = path_rotation(p, t);
    ph_vec3 c = glms_vec3_add(p->c0, glms_vec3_scale(p->dc, t));
    xf.p = glms_vec3_sub(c, glms_quat_rotatev(xf.q, p->local_center));
    return xf;
}

// q1 q0^-1 is the rotation in the world frame; its vector part is sin(angle / 2) times the axis.
ph_vec3 ph_sweep_rotation(const ph_sweep *s)
{
    if (!is_zero_vec3(s->rotation))
        return s->rotation;
    ph_quat rel = glms_quat_mul(glms_quat_normalize(s->q1), glms_quat_conjugate(glms_quat_normalize(s->q0)));
    ph_vec3 v = ph_v3(rel.x, rel.y, rel.z);
    float sin_half = glms_vec3_norm(v);
    if (!(sin_half > 0.0f))
        return glms_vec3_zero();
    float angle = 2.0f * atan2f(sin_half, fabsf(rel.w));
    return glms_vec3_scale(v, angle / sin_half);
}

ph_transform ph_sweep_transform(const ph_sweep *sweep, float t)
{
    sweep_path p = make_path(sweep, t != 0.0f && t != 1.0f);
    return path_transform(&p, t);
}

static float max_vertex_distance(const ph_vec3 *v, int count, ph_vec3 center)
{
    float r2 = 0.0f;
    for (int i = 0; i < count; i++)
        r2 = glm_max(r2, glms_vec3_norm2(glms_vec3_sub(v[i], center)));
    return sqrtf(r2);
}

// Largest distance of the shape's core (without the rounding radius of spheres and capsules) from point c
// of its frame (unit: m).
static float core_radius(const ph_convex *s, ph_vec3 c)
{
    switch (s->type)
    {
    case PH_SHAPE_SPHERE:
        return glms_vec3_norm(c);
    case PH_SHAPE_CAPSULE:
    {
        ph_vec3 ends[2] = {ph_v3(0.0f, -s->half_height, 0.0f), ph_v3(0.0f, s->half_height, 0.0f)};
        return max_vertex_distance(ends, 2, c);
    }
    case PH_SHAPE_BOX:
    {
        ph_vec3 h = s->half_extents;
        ph_vec3 far = ph_v3(fabsf(c.x) + h.x, fabsf(c.y) + h.y, fabsf(c.z) + h.z);
        return glms_vec3_norm(far);
    }
    case PH_SHAPE_HULL:
        return max_vertex_distance(s->hull->vertices, s->hull->vertex_count, c);
    case PH_SHAPE_TRIANGLE:
        return max_vertex_distance(s->tri, 3, c);
    default:
        return 0.0f;
    }
}

// Gap between the shapes along the fixed world axis n (unit, from A towards B) at poses xa and xb: B's
// lowest point along n minus A's highest (unit: m). Any axis gives a lower bound of the distance.
static float axis_gap(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb, ph_vec3 n)
{
    ph_vec3 na = glms_quat_rotatev(glms_quat_conjugate(xa.q), n);
    ph_vec3 nb = glms_quat_rotatev(glms_quat_conjugate(xb.q), glms_vec3_negate(n));
    ph_vec3 pa = ph_transform_point(xa, ph_convex_support(a, na));
    ph_vec3 pb = ph_transform_point(xb, ph_convex_support(b, nb));
    return glms_vec3_dot(n, glms_vec3_sub(pb, pa));
}

// Distance of the shapes at poses xa and xb and the closest direction (world, from A towards B): what
// ph_gjk_distance answers, without what the advancement does not need there: the input checks (made once
// for the whole query, and the sweep keeps the poses finite) and the witness points and simplex moved to
// world space (a warm start re-evaluates the simplex from its local witnesses). 0 when overlapping.
static float sweep_distance(const ph_toi_input *in, ph_transform xa, ph_transform xb, ph_gjk_cache *cache,
                            ph_vec3 *out_normal)
{
    ph_gjk_proxy pa, pb;
    ph_gjk_pair_init(&pa, &pb, &in->a, xa, &in->b, xb, true);
    ph_gjk_output g;
    ph_gjk_status st = ph_gjk_run(&pa, &pb, &cache->simplex, false, 0.0f, &g);
    cache->simplex = g.simplex;
    *out_normal = glms_quat_rotatev(xa.q, g.normal);
    float rounding = pa.radius + pb.radius;
    return st == PH_GJK_OVERLAPPING || g.distance <= rounding ? 0.0f : g.distance - rounding;
}

// Longest step over which a gap closing at most at a + b s after a step s (b >= 0; a may be negative, the
// gap then opening at first) cannot fall by more than room > 0: the root of a s + b s^2 / 2 = room, in the
// form without cancellation. A gap that never closes (b = 0, a <= 0) gives an unbounded step.
static float frame_step(float a, float b, float room)
{
    float den = a + sqrtf(a * a + 2.0f * b * room);
    return den > 0.0f ? 2.0f * room / den : FLT_MAX;
}

static bool sweep_valid(const ph_sweep *s)
{
    return ph_is_finite_vec3(s->local_center) && ph_is_finite_vec3(s->rotation) && ph_is_finite_vec3(s->c0) &&
           ph_is_finite_vec3(s->c1) && ph_is_finite_quat(s->q0) && ph_is_finite_quat(s->q1) &&
           glms_quat_norm(s->q0) > 0.5f && glms_quat_norm(s->q1) > 0.5f;
}

// For a pair that starts at distance d within target + tolerance: the target and tolerance of the search
// that goes on (see ph_toi_input.near_fraction). False when the search stops at t = 0.
static bool near_retarget(const ph_toi_input *in, float d, float *target, float *tol)
{
    if (!(in->near_fraction > 0.0f) || !(*target > 0.0f) || !(d > in->near_min_gap) || d > *target + *tol)
        return false;
    float scale = in->near_fraction * d / *target;
    *target *= scale;
    *tol *= scale;
    return true;
}

// Two balls whose centres of mass are their centres: turning moves no point of their surfaces' envelope,
// and the centres move on straight lines, so the distance is |D + t E| - r for the centres' offset D at
// t = 0, its change E over the sweep and r the sum of the radii. It first reaches target at the smaller
// root of |D + t E|^2 = (r + target)^2, taken in the form c / (-b + sqrt(b^2 - a c)) that does not cancel.
// False when the pair is not two such balls, or when rounding put the answer outside the tolerance (the
// advancement then answers).
static bool ball_pair_toi(const ph_toi_input *in, float t_max, ph_toi_output *out)
{
    if (in->a.type != PH_SHAPE_SPHERE || in->b.type != PH_SHAPE_SPHERE ||
        !is_zero_vec3(in->sweep_a.local_center) || !is_zero_vec3(in->sweep_b.local_center))
        return false;
    float target = in->target_separation, tol = in->tolerance, r = in->a.radius + in->b.radius;
    ph_vec3 d = glms_vec3_sub(in->sweep_b.c0, in->sweep_a.c0);
    ph_vec3 e = glms_vec3_sub(glms_vec3_sub(in->sweep_b.c1, in->sweep_b.c0),
                              glms_vec3_sub(in->sweep_a.c1, in->sweep_a.c0));
    float gap = glms_vec3_norm(d) - r;
    if (in->overlap_allowance > 0.0f && gap <= in->near_min_gap)
        return false; // followed through its overlap by the advancement
    out->iterations = 1;
    out->touching_at_start = gap <= in->near_min_gap;
    out->separation = glm_max(gap, 0.0f);
    out->t = 0.0f;
    near_retarget(in, out->separation, &target, &tol);
    if (gap < target - tol)
    {
        out->state = PH_TOI_OVERLAPPED;
        return true;
    }
    if (gap <= target + tol)
    {
        out->state = PH_TOI_HIT;
        return true;
    }
    float reach = r + target;
    float a = glms_vec3_dot(e, e), b = glms_vec3_dot(d, e), c = glms_vec3_dot(d, d) - reach * reach;
    float disc = b * b - a * c;
    float t = b < 0.0f && disc >= 0.0f ? c / (sqrtf(disc) - b) : t_max;
    if (!(t < t_max))
    {
        out->state = PH_TOI_SEPARATED;
        out->t = t_max;
        return true;
    }
    float sep = glms_vec3_norm(glms_vec3_add(d, glms_vec3_scale(e, t))) - r;
    if (!(sep >= target - tol && sep <= target + tol))
        return false;
    out->state = PH_TOI_HIT;
    out->t = t;
    out->separation = sep;
    return true;
}

// Whether the sweep of a body's centre of mass (body) passes through mesh triangle `tri` (tri_shared set,
// swept by tri_sweep) within [0, t_max]. A mesh triangle is a piece of a surface: its neighbours and the
// speculative contacts (whose margin grows with the step's motion) catch every approach of a body but one,
// its centre passing through the surface within a step, the tunnelling that sweeps are for. So, as Box2D v3
// sweeps the segments of a chain, only a sweep whose centre crosses the triangle's plane inside the triangle
// is searched. Without this a body sliding over a flat mesh meets the next triangle's edge at every seam as
// an impact (the distance to that triangle closes to zero at the seam), and the calendar stops it there.
static bool centre_passes_triangle(const ph_convex *tri, const ph_sweep *tri_sweep, const ph_sweep *body,
                                   float t_max)
{
    sweep_path pt = make_path(tri_sweep, true);
    ph_transform x0 = path_transform(&pt, 0.0f), x1 = path_transform(&pt, t_max);
    ph_vec3 c0 = body->c0,
            c1 = glms_vec3_add(body->c0, glms_vec3_scale(glms_vec3_sub(body->c1, body->c0), t_max));
    ph_vec3 v[3];
    for (int i = 0; i < 3; i++)
        v[i] = ph_transform_point(x0, tri->tri[i]);
    ph_vec3 n = glms_vec3_cross(glms_vec3_sub(v[1], v[0]), glms_vec3_sub(v[2], v[0]));
    float s0 = glms_vec3_dot(glms_vec3_sub(c0, v[0]), n);
    float s1 = glms_vec3_dot(glms_vec3_sub(c1, ph_transform_point(x1, tri->tri[0])),
                             glms_quat_rotatev(glms_quat_mul(x1.q, glms_quat_conjugate(x0.q)), n));
    if ((s0 > 0.0f && s1 > 0.0f) || (s0 < 0.0f && s1 < 0.0f) || s0 == s1)
        return false;
    // Where the centre meets the plane (posed at the start: a static mesh does not move), inside all three
    // edges' planes: the edges' outward normals are (v[k+1] - v[k]) x n for the counter-clockwise winding.
    ph_vec3 c = glms_vec3_add(c0, glms_vec3_scale(glms_vec3_sub(c1, c0), s0 / (s0 - s1)));
    for (int k = 0; k < 3; k++)
    {
        ph_vec3 side = glms_vec3_cross(glms_vec3_sub(v[(k + 1) % 3], v[k]), n);
        if (glms_vec3_dot(glms_vec3_sub(c, v[k]), side) > 0.0f)
            return false;
    }
    return true;
}

// The two sweeps as the advancement reads them: paths, the relative displacement of the centres (B's minus
// A's), the rotation vectors and the core radii.
typedef struct toi_motion
{
    sweep_path a, b;
    ph_vec3 v_rel, wa, wb;
    float ra, rb;
} toi_motion;

// Largest rate (per unit of sweep time) at which the gap between the shapes along the fixed world axis n
// (from A towards B) can close, anywhere in the sweep: see the top of this file. Their overlap along n grows
// at most as fast.
static float closing_along(const toi_motion *m, ph_vec3 n)
{
    return -glms_vec3_dot(m->v_rel, n) + glms_vec3_norm(glms_vec3_cross(n, m->wa)) * m->ra +
           glms_vec3_norm(glms_vec3_cross(n, m->wb)) * m->rb;
}

// Follows a pair that touches or overlaps at time *t (see ph_toi_input.overlap_allowance), d and n its
// distance and closest direction there. The depth of the overlap is the least overlap along any axis, and
// along a fixed axis n the overlap grows at most at closing_along (a point of either shape moves along n no
// faster), so from a depth p measured along its own axis n the depth cannot pass the limit before (limit - p)
// / closing; after that step the overlap along n (two support points) bounds the depth again, and a new depth
// is measured only when that bound nears the limit or the pair may have come apart. True with the answer in
// out; false when the pair is more than near_min_gap apart at the new *t, with its distance and direction
// there in *d and *n (the ordinary advancement goes on from there).
static bool follow_overlap(const ph_toi_input *in, const toi_motion *m, float t_max, ph_gjk_cache *cache,
                           float *io_t, float *d, ph_vec3 *n, ph_toi_output *out)
{
    float t = *io_t, tol = in->tolerance, limit = 0.0f;
    for (bool first = true; out->iterations < TOI_ITERATION_LIMIT; first = false)
    {
        ph_transform xa = path_transform(&m->a, t), xb = path_transform(&m->b, t);
        if (!first)
        {
            *d = sweep_distance(in, xa, xb, cache, n);
            out->iterations++;
        }
        out->t = t;
        out->separation = *d;
        if (*d > in->near_min_gap)
        {
            *io_t = t;
            return false;
        }
        // Touching: overlap -d along the closest direction. Overlapping: the depth along its own axis.
        float overlap = -*d;
        ph_epa_output pen;
        if (*d <= 0.0f && ph_penetration(&in->a, xa, &in->b, xb, cache, &pen) != PH_EPA_SEPARATED)
        {
            overlap = pen.depth;
            *n = pen.normal;
        }
        if (first)
            limit = fmaxf(overlap, 0.0f) + in->overlap_allowance;
        if (overlap >= limit - tol)
        {
            out->state = PH_TOI_HIT;
            return true;
        }
        // Shapes that touch at a point or along an edge can leave no axis to measure along (GJK's direction
        // is not defined where the distance is 0): then the depth grows at most as fast as any point moves,
        // and is measured again after the step that bound allows.
        bool axis = fabsf(glms_vec3_norm2(*n) - 1.0f) < 1e-3f;
        float closing =
            axis ? closing_along(m, *n)
                 : glms_vec3_norm(m->v_rel) + glms_vec3_norm(m->wa) * m->ra + glms_vec3_norm(m->wb) * m->rb;
        if (!(closing > 0.0f))
        {
            // The overlap along n, and so the depth, never grows past its value now.
            out->state = PH_TOI_SEPARATED;
            out->t = t_max;
            return true;
        }
        for (int k = 0; k < (axis ? TOI_AXIS_STEPS : 1); k++)
        {
            t += (limit - overlap) / closing;
            if (t >= t_max)
            {
                out->state = PH_TOI_SEPARATED;
                out->t = t_max;
                return true;
            }
            if (!axis)
                break;
            xa = path_transform(&m->a, t);
            xb = path_transform(&m->b, t);
            overlap = -axis_gap(&in->a, xa, &in->b, xb, *n);
            if (overlap >= limit - tol || overlap < -in->near_min_gap)
                break;
        }
    }
    out->state = PH_TOI_FAILED;
    return true;
}

ph_toi_output ph_time_of_impact(const ph_toi_input *in)
{
    ph_toi_output out;
    memset(&out, 0, sizeof out);
    out.state = PH_TOI_FAILED;
    if (!in || !ph_convex_is_valid(&in->a) || !ph_convex_is_valid(&in->b) || !sweep_valid(&in->sweep_a) ||
        !sweep_valid(&in->sweep_b) || !ph_is_finite_float(in->t_max) ||
        !ph_is_finite_float(in->target_separation) || !ph_is_finite_float(in->tolerance) ||
        in->tolerance <= 0.0f || in->target_separation < 0.0f || in->t_max < 0.0f ||
        !(in->near_fraction >= 0.0f && in->near_fraction < 1.0f) || !ph_is_finite_float(in->near_min_gap) ||
        !(in->overlap_allowance >= 0.0f && in->overlap_allowance < FLT_MAX))
        return out;
    float t_max = glm_min(in->t_max, 1.0f);
    if ((in->a.type == PH_SHAPE_TRIANGLE && in->a.tri_shared &&
         !centre_passes_triangle(&in->a, &in->sweep_a, &in->sweep_b, t_max)) ||
        (in->b.type == PH_SHAPE_TRIANGLE && in->b.tri_shared &&
         !centre_passes_triangle(&in->b, &in->sweep_b, &in->sweep_a, t_max)))
    {
        out.state = PH_TOI_SEPARATED;
        out.t = t_max;
        return out;
    }
    if (ball_pair_toi(in, t_max, &out))
        return out;
    float target = in->target_separation, tol = in->tolerance;
    float ra = core_radius(&in->a, in->sweep_a.local_center);
    float rb = core_radius(&in->b, in->sweep_b.local_center);
    ph_vec3 wa = ph_sweep_rotation(&in->sweep_a), wb = ph_sweep_rotation(&in->sweep_b);
    // A ball turning about its own centre is the same set of points in every orientation: it is posed
    // without interpolating its rotation (its core radius, and so its rotation bound, is 0 already), so its
    // path needs no angle (an arctangent and a sine).
    bool ball_a = ra == 0.0f && in->a.type == PH_SHAPE_SPHERE,
         ball_b = rb == 0.0f && in->b.type == PH_SHAPE_SPHERE;
    sweep_path path_a = make_path(&in->sweep_a, !ball_a), path_b = make_path(&in->sweep_b, !ball_b);
    if (ball_a)
        path_a.turns = false;
    if (ball_b)
        path_b.turns = false;
    ph_vec3 v_rel = glms_vec3_sub(glms_vec3_sub(in->sweep_b.c1, in->sweep_b.c0),
                                  glms_vec3_sub(in->sweep_a.c1, in->sweep_a.c0));

    toi_motion mo = {path_a, path_b, v_rel, wa, wb, ra, rb};
    ph_gjk_cache cache;
    memset(&cache, 0, sizeof cache);
    float t = 0.0f;
    ph_transform xa = path_transform(&path_a, t), xb = path_transform(&path_b, t);
    ph_vec3 n;
    float d = sweep_distance(in, xa, xb, &cache, &n);
    out.iterations = 1;
    out.separation = d;
    out.touching_at_start = d <= in->near_min_gap;
    if (out.touching_at_start && in->overlap_allowance > 0.0f)
    {
        if (follow_overlap(in, &mo, t_max, &cache, &t, &d, &n, &out))
            return out;
        xa = path_transform(&path_a, t);
        xb = path_transform(&path_b, t);
    }
    near_retarget(in, d, &target, &tol);
    if (t == 0.0f && d < target - tol)
    {
        out.state = PH_TOI_OVERLAPPED;
        return out;
    }
    for (bool fresh = true; out.iterations < TOI_ITERATION_LIMIT || fresh; fresh = false)
    {
        if (!fresh)
        {
            d = sweep_distance(in, xa, xb, &cache, &n);
            out.iterations++;
        }
        out.separation = d;
        if (d <= target + tol)
        {
            out.state = PH_TOI_HIT;
            out.t = t;
            return out;
        }
        // The translation term keeps its sign: a pair moving apart along n faster than its rotation can
        // bring any point closer never reaches target (a pair bouncing off each other, tumbling or not,
        // is done here instead of crawling to t_max by the rotation bound alone).
        float closing = closing_along(&mo, n);
        if (!(closing > 0.0f))
        {
            out.state = PH_TOI_SEPARATED;
            out.t = t_max;
            return out;
        }
        // Seen from A's frame, A stands still and the axis n is fixed in it. B's centre moves there at
        // u = v_rel - w_a x (c_b - c_a) in world terms and B turns at w_b - w_a, so the gap along that axis
        // falls at most at -n_a(s).u(s) + |w_b - w_a| r_b, where n_a(s) is the axis turning with A. That
        // rate starts at -n.u and grows at most at |w_a| |u| + |w_a x v_rel| (u itself changes at
        // w_a x v_rel, so |u| <= |u0| + |w_a x v_rel| over a sweep), a bound b: the gap falls by at most
        // a s + b s^2 / 2 over a step s. For a pair turning together (a box tumbling over another, a ball
        // riding a spinning box) this is far below the world-frame bound, which adds both rotations in
        // full. The same holds from B's frame with the roles swapped.
        float room = d - target;
        ph_vec3 dc = glms_vec3_sub(glms_vec3_add(path_b.c0, glms_vec3_scale(path_b.dc, t)),
                                   glms_vec3_add(path_a.c0, glms_vec3_scale(path_a.dc, t)));
        float spin = glms_vec3_norm(glms_vec3_sub(wb, wa));
        ph_vec3 ua = glms_vec3_sub(v_rel, glms_vec3_cross(wa, dc)),
                ub = glms_vec3_sub(v_rel, glms_vec3_cross(wb, dc));
        float ga = glms_vec3_norm(glms_vec3_cross(wa, v_rel)),
              gb = glms_vec3_norm(glms_vec3_cross(wb, v_rel));
        float step_a = frame_step(-glms_vec3_dot(n, ua) + spin * rb,
                                  glms_vec3_norm(wa) * (glms_vec3_norm(ua) + ga) + ga, room);
        float step_b = frame_step(-glms_vec3_dot(n, ub) + spin * ra,
                                  glms_vec3_norm(wb) * (glms_vec3_norm(ub) + gb) + gb, room);
        float frame = glm_max(step_a, step_b);
        // Advance to where the distance could first reach target, never past it. The world bound holds for
        // the gap s along the fixed axis n over the whole sweep, and s is a lower bound of the distance, so
        // the same step can be taken again from the gap along n at the new time: two support points
        // instead of a GJK run. The first step takes the longer of that and the frame bound's. The closest
        // direction is asked for again once the gap along n is within tolerance of target (n no longer
        // separates well, or the pair is about to hit).
        float s = d;
        for (int k = 0; k < TOI_AXIS_STEPS; k++)
        {
            float step = (s - target) / closing;
            t += k == 0 ? glm_max(step, frame) : step;
            if (t >= t_max)
            {
                out.state = PH_TOI_SEPARATED;
                out.t = t_max;
                return out;
            }
            xa = path_transform(&path_a, t);
            xb = path_transform(&path_b, t);
            s = axis_gap(&in->a, xa, &in->b, xb, n);
            if (s <= target + tol)
                break;
        }
        out.t = t;
    }
    out.state = PH_TOI_FAILED;
    return out;
}
