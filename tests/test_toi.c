// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Time of impact: analytic times (a sphere flying at a wall, a rotating bar sweeping onto a ball), the
// sweep interpolation, states, and random sweeps that must never step past an impact.
#include "test.h"

#include "phys/collision.h"

#include <string.h> // memset

static ph_quat negate_quat(ph_quat q)
{
    q.x = -q.x;
    q.y = -q.y;
    q.z = -q.z;
    q.w = -q.w;
    return q;
}

static ph_sweep still(ph_vec3 c, ph_quat q)
{
    ph_sweep s;
    s.local_center = glms_vec3_zero();
    s.c0 = s.c1 = c;
    s.q0 = s.q1 = q;
    s.rotation = glms_vec3_zero();
    return s;
}

static float distance_at(const ph_toi_input *in, float t)
{
    ph_gjk_output g;
    ph_transform xa = ph_sweep_transform(&in->sweep_a, t), xb = ph_sweep_transform(&in->sweep_b, t);
    if (ph_gjk_distance(&in->a, xa, &in->b, xb, NULL, &g) == PH_GJK_OVERLAPPING)
        return 0.0f;
    return g.distance;
}

// A random box, capsule or ball (its size random too) for each of pair i's two bodies: A is of kind i % 3,
// B of kind (i / 3) % 3, so consecutive pairs go through the nine combinations.
static void random_shape_pair(uint64_t *rng, int i, ph_convex *a, ph_convex *b)
{
    ph_convex shapes[3] = {
        ph_convex_box(test_rand_vec3(rng, 0.1f, 1.0f)),
        ph_convex_capsule(test_rand_float(rng, 0.1f, 1.0f), test_rand_float(rng, 0.05f, 0.5f)),
        ph_convex_sphere(test_rand_float(rng, 0.05f, 0.8f))};
    *a = shapes[i % 3];
    *b = shapes[(i / 3) % 3];
}

// A turn by a random angle up to max_angle about a random axis.
static ph_quat random_turn(uint64_t *rng, float max_angle)
{
    return glms_quatv(test_rand_float(rng, 0.0f, max_angle),
                      glms_vec3_normalize(test_rand_vec3(rng, -1.0f, 1.0f)));
}

// The sweep's ends and midpoint: c moves linearly, q turns at constant rate, local_center stays put.
static int toi_sweep_transform(void)
{
    ph_sweep s;
    s.local_center = ph_v3(0.1f, 0.2f, -0.3f);
    s.c0 = ph_v3(1.0f, 2.0f, 3.0f);
    s.c1 = ph_v3(3.0f, 2.0f, -1.0f);
    s.q0 = glms_quat_identity();
    s.q1 = glms_quatv(1.2f, ph_v3(0.0f, 0.0f, 1.0f));
    s.rotation = glms_vec3_zero();
    ph_transform x0 = ph_sweep_transform(&s, 0.0f), x1 = ph_sweep_transform(&s, 1.0f);
    ph_transform xh = ph_sweep_transform(&s, 0.5f);
    ENSURE_VEC3_NEAR(ph_transform_point(x0, s.local_center), s.c0, 1e-6f);
    ENSURE_VEC3_NEAR(ph_transform_point(x1, s.local_center), s.c1, 1e-6f);
    ENSURE_VEC3_NEAR(ph_transform_point(xh, s.local_center), ph_v3(2.0f, 2.0f, 1.0f), 1e-6f);
    ph_quat expect = glms_quatv(0.6f, ph_v3(0.0f, 0.0f, 1.0f));
    ENSURE_NEAR(fabsf(glms_quat_dot(xh.q, expect)), 1.0f, 1e-6f);
    // q1 given with the opposite sign still turns the short way.
    s.q1 = negate_quat(s.q1);
    xh = ph_sweep_transform(&s, 0.5f);
    ENSURE_NEAR(fabsf(glms_quat_dot(xh.q, expect)), 1.0f, 1e-6f);
    return 0;
}

// A ball flying along x at a wall stops target short of it: t = (x_contact - x0) / (x1 - x0).
static int toi_sphere_at_wall(void)
{
    const float scales[] = {1e-3f, 1.0f, 1e3f};
    for (int k = 0; k < 3; k++)
    {
        float s = scales[k];
        ph_toi_input in;
        memset(&in, 0, sizeof in);
        in.a = ph_convex_box(ph_v3(0.5f * s, 5.0f * s, 5.0f * s));
        in.b = ph_convex_sphere(0.5f * s);
        in.sweep_a = still(ph_v3(1.5f * s, 0.0f, 0.0f), glms_quat_identity());
        in.sweep_b = still(ph_v3(-5.0f * s, 0.3f * s, 0.0f), glms_quat_identity());
        in.sweep_b.c1 = ph_v3(5.0f * s, 0.3f * s, 0.0f);
        in.t_max = 1.0f;
        in.target_separation = 0.01f * s;
        in.tolerance = 1e-4f * s;
        ph_toi_output out = ph_time_of_impact(&in);
        float expect = (1.0f * s - 0.5f * s - 0.01f * s + 5.0f * s) / (10.0f * s);
        printf("  scale %g: state %d t %.7f (expected %.7f) after %d iterations\n", (double)s, (int)out.state,
               (double)out.t, (double)expect, out.iterations);
        ENSURE(out.state == PH_TOI_HIT);
        ENSURE_NEAR(out.t, expect, 2e-5f);
        float d = distance_at(&in, out.t);
        ENSURE(d >= in.target_separation - in.tolerance);
        ENSURE(d <= in.target_separation + in.tolerance);
    }
    return 0;
}

// A bar of half-length 1 and half-thickness 0.05 turns 90 degrees about z over the sweep; a ball of radius
// 0.1 sits at 0.8 from the pivot at 45 degrees. The bar's face reaches target from the ball when
// sin(45deg - theta) = (0.05 + 0.1 + target) / 0.8, theta = (pi / 2) t.
static int toi_rotating_bar(void)
{
    ph_toi_input in;
    memset(&in, 0, sizeof in);
    in.a = ph_convex_box(ph_v3(1.0f, 0.05f, 0.05f));
    in.b = ph_convex_sphere(0.1f);
    in.sweep_a = still(glms_vec3_zero(), glms_quat_identity());
    in.sweep_a.q1 = glms_quatv(GLM_PI_2f, ph_v3(0.0f, 0.0f, 1.0f));
    in.sweep_b = still(ph_v3(0.8f * cosf(GLM_PI_4f), 0.8f * sinf(GLM_PI_4f), 0.0f), glms_quat_identity());
    in.t_max = 1.0f;
    in.target_separation = 0.005f;
    in.tolerance = 1e-5f;
    ph_toi_output out = ph_time_of_impact(&in);
    float theta = GLM_PI_4f - asinf((0.05f + 0.1f + 0.005f) / 0.8f);
    float expect = theta / GLM_PI_2f;
    printf("  state %d t %.7f (expected %.7f) after %d iterations\n", (int)out.state, (double)out.t,
           (double)expect, out.iterations);
    ENSURE(out.state == PH_TOI_HIT);
    // The closing speed there is about 0.8 * pi/2 per unit t, so a tolerance of 1e-5 m is ~1e-5 in t.
    ENSURE_NEAR(out.t, expect, 5e-5f);
    ENSURE(out.t <= expect + 1e-5f);
    return 0;
}

// A sweep given its rotation turns the long way round: the bar turns +270 degrees (the shorter turn to the
// same end is -90) and meets the ball a quarter turn ahead of it at 45 degrees, which the shorter turn
// never passes.
static int toi_given_rotation_long_way(void)
{
    ph_toi_input in;
    memset(&in, 0, sizeof in);
    in.a = ph_convex_box(ph_v3(1.0f, 0.05f, 0.05f));
    in.b = ph_convex_sphere(0.1f);
    in.sweep_a = still(glms_vec3_zero(), glms_quat_identity());
    in.sweep_a.q1 = glms_quatv(1.5f * GLM_PIf, ph_v3(0.0f, 0.0f, 1.0f));
    in.sweep_b = still(ph_v3(0.8f * cosf(GLM_PI_4f), 0.8f * sinf(GLM_PI_4f), 0.0f), glms_quat_identity());
    in.t_max = 1.0f;
    in.target_separation = 0.005f;
    in.tolerance = 1e-5f;
    ph_toi_output shorter = ph_time_of_impact(&in);
    ENSURE(shorter.state == PH_TOI_SEPARATED);
    in.sweep_a.rotation = ph_v3(0.0f, 0.0f, 1.5f * GLM_PIf);
    ph_toi_output out = ph_time_of_impact(&in);
    float theta = GLM_PI_4f - asinf((0.05f + 0.1f + 0.005f) / 0.8f);
    float expect = theta / (1.5f * GLM_PIf);
    printf("  state %d t %.7f (expected %.7f) after %d iterations\n", (int)out.state, (double)out.t,
           (double)expect, out.iterations);
    ENSURE(out.state == PH_TOI_HIT);
    ENSURE_NEAR(out.t, expect, 5e-5f);
    ENSURE(out.t <= expect + 1e-5f);
    // The path itself: a quarter of the way the bar has turned by 67.5 degrees, and it ends at q1.
    ph_quat mid = ph_sweep_transform(&in.sweep_a, 0.25f).q;
    ENSURE_NEAR(fabsf(glms_quat_dot(mid, glms_quatv(0.375f * GLM_PIf, ph_v3(0, 0, 1)))), 1.0f, 1e-6f);
    ph_quat end = ph_sweep_transform(&in.sweep_a, 1.0f).q;
    ENSURE_NEAR(fabsf(glms_quat_dot(end, in.sweep_a.q1)), 1.0f, 1e-6f);
    ENSURE_VEC3_NEAR(ph_sweep_rotation(&in.sweep_a), in.sweep_a.rotation, 0.0f);
    return 0;
}

static int toi_states(void)
{
    ph_toi_input in;
    memset(&in, 0, sizeof in);
    in.a = ph_convex_box(ph_v3(1.0f, 1.0f, 1.0f));
    in.b = ph_convex_box(ph_v3(1.0f, 1.0f, 1.0f));
    in.sweep_a = still(glms_vec3_zero(), glms_quat_identity());
    in.sweep_b = still(ph_v3(1.5f, 0.0f, 0.0f), glms_quat_identity());
    in.t_max = 1.0f;
    in.target_separation = 0.01f;
    in.tolerance = 1e-4f;
    ENSURE(ph_time_of_impact(&in).state == PH_TOI_OVERLAPPED);
    // Moving apart: separated, t = t_max.
    in.sweep_b = still(ph_v3(3.0f, 0.0f, 0.0f), glms_quat_identity());
    in.sweep_b.c1 = ph_v3(6.0f, 0.0f, 0.0f);
    in.t_max = 0.7f;
    ph_toi_output out = ph_time_of_impact(&in);
    ENSURE(out.state == PH_TOI_SEPARATED);
    ENSURE_NEAR(out.t, 0.7f, 0.0f);
    // Approaching but not reaching within t_max.
    in.sweep_b.c1 = ph_v3(2.5f, 0.0f, 0.0f);
    in.t_max = 0.5f;
    out = ph_time_of_impact(&in);
    ENSURE(out.state == PH_TOI_SEPARATED);
    // Bad input never crashes.
    in.tolerance = 0.0f;
    ENSURE(ph_time_of_impact(&in).state == PH_TOI_FAILED);
    in.tolerance = 1e-4f;
    in.sweep_b.c1.x = NAN;
    ENSURE(ph_time_of_impact(&in).state == PH_TOI_FAILED);
    ENSURE(ph_time_of_impact(NULL).state == PH_TOI_FAILED);
    return 0;
}

// Random sweeps of boxes, capsules and spheres with random spins: at the answer the distance is at least
// target - tolerance, and no sampled time before the answer comes closer than that either. The bodies start
// on either side and fly towards each other, or (any_direction) each moves up to 4 m in any direction, so
// that pairs moving apart, passing by and closing in slowly are all swept (fewer of those meet). Every
// fourth B turns about its shape's origin.
static int random_never_overshoots(uint64_t salt, bool any_direction, int min_hits)
{
    uint64_t rng = test_seed() ^ salt;
    int hits = 0, fails = 0, queries = 0, sweeps = 0;
    const int samples = 40;
    for (int i = 0; i < 600; i++)
    {
        ph_toi_input in;
        memset(&in, 0, sizeof in);
        random_shape_pair(&rng, i, &in.a, &in.b);
        in.sweep_a.local_center = test_rand_vec3(&rng, -0.1f, 0.1f);
        in.sweep_a.c0 = test_rand_vec3(&rng, -4.0f, -2.0f);
        in.sweep_a.c1 = test_rand_vec3(&rng, -1.0f, 3.0f);
        if (any_direction)
            in.sweep_a.c1 = glms_vec3_add(in.sweep_a.c0, test_rand_vec3(&rng, -4.0f, 4.0f));
        in.sweep_a.q0 = test_rand_quat(&rng);
        in.sweep_a.q1 = glms_quat_mul(random_turn(&rng, 3.0f), in.sweep_a.q0);
        in.sweep_b.local_center = test_rand_vec3(&rng, -0.1f, 0.1f);
        if (i % 4 == 0)
            in.sweep_b.local_center = glms_vec3_zero(); // a ball then turns about its centre
        in.sweep_b.c0 = test_rand_vec3(&rng, 2.0f, 4.0f);
        in.sweep_b.c1 = test_rand_vec3(&rng, -3.0f, 1.0f);
        if (any_direction)
        {
            in.sweep_b.c0 = glms_vec3_add(in.sweep_a.c0, test_rand_vec3(&rng, 0.5f, 2.5f));
            in.sweep_b.c1 = glms_vec3_add(in.sweep_b.c0, test_rand_vec3(&rng, -4.0f, 4.0f));
        }
        in.sweep_b.q0 = test_rand_quat(&rng);
        in.sweep_b.q1 = glms_quat_mul(random_turn(&rng, 3.0f), in.sweep_b.q0);
        in.t_max = 1.0f;
        in.target_separation = 0.02f;
        in.tolerance = 2e-3f;
        ph_toi_output out = ph_time_of_impact(&in);
        queries += out.iterations;
        sweeps++;
        if (out.state == PH_TOI_OVERLAPPED)
            continue;
        float d = distance_at(&in, out.t);
        if (d < in.target_separation - in.tolerance)
        {
            printf("  sweep %d: state %d t %g distance %g below target\n", i, (int)out.state, (double)out.t,
                   (double)d);
            return 1;
        }
        for (int k = 0; k < samples; k++)
        {
            float t = out.t * (float)k / (float)samples;
            float dk = distance_at(&in, t);
            if (dk < in.target_separation - in.tolerance)
            {
                printf("  sweep %d: answer t %g but distance %g at t %g\n", i, (double)out.t, (double)dk,
                       (double)t);
                return 1;
            }
        }
        if (out.state == PH_TOI_HIT)
        {
            ENSURE(d <= in.target_separation + in.tolerance);
            hits++;
        }
        fails += out.state == PH_TOI_FAILED;
    }
    printf("  %d hits, %d iteration-limited, none past an impact; %.2f distance queries per sweep\n", hits,
           fails, (double)queries / (double)sweeps);
    ENSURE(hits > min_hits);
    return 0;
}

static int toi_random_never_overshoots(void)
{
    return random_never_overshoots(0x81ull, false, 100);
}

static int toi_random_any_direction_never_overshoots(void)
{
    return random_never_overshoots(0x82ull, true, 20);
}

// Motions that never close the gap must not crawl: a ball spinning fast while it slides along a wall just
// outside the target gap (its surface turns about its centre), and a box turning flat on a wall about the
// wall's normal (every point moves parallel to the wall). Bounding the rotation by the full radius in every
// direction made both advance by tiny steps until the iteration bound, reported as a (false) impact.
static int toi_sliding_spin_is_separated(void)
{
    ph_toi_input in;
    memset(&in, 0, sizeof in);
    in.a = ph_convex_box(ph_v3(5.0f, 0.1f, 5.0f)); // a wall whose top face is y = 0.1
    in.sweep_a = still(glms_vec3_zero(), glms_quat_identity());
    in.t_max = 1.0f;
    in.target_separation = 0.01f;
    in.tolerance = 0.0025f;
    // The ball: radius 0.5, 0.02 above the wall, sliding 3 m and turning 4 rad about an axis in the wall.
    in.b = ph_convex_sphere(0.5f);
    in.sweep_b = still(ph_v3(-1.5f, 0.62f, 0.0f), glms_quat_identity());
    in.sweep_b.c1 = ph_v3(1.5f, 0.62f, 0.0f);
    in.sweep_b.q1 = glms_quatv(4.0f, ph_v3(0.0f, 0.0f, 1.0f));
    ph_toi_output out = ph_time_of_impact(&in);
    printf("  spinning ball: state %d after %d iterations\n", (int)out.state, out.iterations);
    ENSURE(out.state == PH_TOI_SEPARATED);
    ENSURE(out.iterations <= 2);
    // The box: half extents 0.5 x 0.05 x 0.3, flat on the wall 0.02 above it, turning 3 rad about y.
    in.b = ph_convex_box(ph_v3(0.5f, 0.05f, 0.3f));
    in.sweep_b = still(ph_v3(0.0f, 0.17f, 0.0f), glms_quat_identity());
    in.sweep_b.c1 = ph_v3(2.0f, 0.17f, 1.0f);
    in.sweep_b.q1 = glms_quatv(3.0f, ph_v3(0.0f, 1.0f, 0.0f));
    out = ph_time_of_impact(&in);
    printf("  turning box: state %d after %d iterations\n", (int)out.state, out.iterations);
    ENSURE(out.state == PH_TOI_SEPARATED);
    ENSURE(out.iterations <= 2);
    return 0;
}

// A box tumbling away from a wall it has just bounced off (0.03 m apart, leaving at 4 m per sweep while
// turning 1 rad, so no point of it comes closer than its start along the normal) is separated after one
// distance query. With the translation's sign dropped, the turn alone made it advance in small steps.
static int toi_receding_spin_is_separated(void)
{
    ph_toi_input in;
    memset(&in, 0, sizeof in);
    in.a = ph_convex_box(ph_v3(5.0f, 0.1f, 5.0f)); // top face y = 0.1
    in.sweep_a = still(glms_vec3_zero(), glms_quat_identity());
    in.b = ph_convex_box(ph_v3(0.25f, 0.5f, 0.5f));
    in.sweep_b = still(ph_v3(0.0f, 0.63f, 0.0f), glms_quat_identity());
    in.sweep_b.c1 = ph_v3(0.5f, 4.63f, 0.0f);
    in.sweep_b.q1 = glms_quatv(1.0f, ph_v3(0.0f, 0.0f, 1.0f));
    in.t_max = 1.0f;
    in.target_separation = 0.01f;
    in.tolerance = 0.0025f;
    ph_toi_output out = ph_time_of_impact(&in);
    printf("  receding tumbling box: state %d after %d iterations\n", (int)out.state, out.iterations);
    ENSURE(out.state == PH_TOI_SEPARATED);
    ENSURE(out.iterations == 1);
    return 0;
}

// A lopsided ball (centre of mass 0.2 m off its centre) falls 1 m onto a wall while turning 6 rad about an
// axis in the wall's plane. The wall's normal stays the closest direction all the way down, but the
// rotation bound (0.2 m times 6 rad) is larger than the fall: each advancement covers about half of the
// remaining gap. Those steps are taken along the fixed normal with two support points each, so the whole
// sweep needs two distance queries (it needed 5, one per advancement).
static int toi_lopsided_ball_few_queries(void)
{
    ph_toi_input in;
    memset(&in, 0, sizeof in);
    in.a = ph_convex_box(ph_v3(5.0f, 0.1f, 5.0f)); // top face y = 0.1
    in.sweep_a = still(glms_vec3_zero(), glms_quat_identity());
    in.b = ph_convex_sphere(0.5f);
    in.sweep_b = still(ph_v3(0.0f, 1.1f, 0.0f), glms_quat_identity());
    in.sweep_b.local_center = ph_v3(0.2f, 0.0f, 0.0f);
    in.sweep_b.c1 = ph_v3(0.3f, -0.1f, 0.0f);
    in.sweep_b.q1 = glms_quatv(6.0f, ph_v3(0.0f, 0.0f, 1.0f));
    in.t_max = 1.0f;
    in.target_separation = 0.01f;
    in.tolerance = 1e-4f;
    ph_toi_output out = ph_time_of_impact(&in);
    float d = distance_at(&in, out.t);
    printf("  lopsided ball: state %d t %.5f distance %.5f after %d distance queries\n", (int)out.state,
           (double)out.t, (double)d, out.iterations);
    ENSURE(out.state == PH_TOI_HIT);
    ENSURE(d >= in.target_separation - in.tolerance && d <= in.target_separation + in.tolerance);
    for (int k = 0; k < 200; k++)
        ENSURE(distance_at(&in, out.t * (float)k / 200.0f) >= in.target_separation - in.tolerance);
    ENSURE(out.iterations <= 3);
    return 0;
}

// Random pairs of balls (centres of mass at their centres, turning as they fly) against the exact answer in
// double precision: the first t where |D + t E| = r + target. Each is answered in one step, with no
// advancement: the state matches, a hit lies within 1e-5 of the exact time, and no sampled time before it
// comes closer than target - tolerance.
static int toi_ball_pairs_exact(void)
{
    uint64_t rng = test_seed() ^ 0x83ull;
    int hits = 0, separated = 0, overlapped = 0;
    for (int i = 0; i < 400; i++)
    {
        ph_toi_input in;
        memset(&in, 0, sizeof in);
        in.a = ph_convex_sphere(test_rand_float(&rng, 0.05f, 1.0f));
        in.b = ph_convex_sphere(test_rand_float(&rng, 0.05f, 1.0f));
        in.sweep_a = still(test_rand_vec3(&rng, -3.0f, 3.0f), test_rand_quat(&rng));
        in.sweep_a.c1 = test_rand_vec3(&rng, -3.0f, 3.0f);
        in.sweep_a.q1 = test_rand_quat(&rng);
        in.sweep_b = still(test_rand_vec3(&rng, -3.0f, 3.0f), test_rand_quat(&rng));
        in.sweep_b.c1 = glms_vec3_add(in.sweep_a.c1, test_rand_vec3(&rng, -2.0f, 2.0f)); // near A's end
        in.t_max = test_rand_float(&rng, 0.5f, 1.0f);
        in.target_separation = 0.02f;
        in.tolerance = 2e-3f;
        ph_toi_output out = ph_time_of_impact(&in);
        // The reference, in double.
        double d[3], e[3], dd = 0.0, de = 0.0, ee = 0.0;
        for (int k = 0; k < 3; k++)
        {
            d[k] = (double)in.sweep_b.c0.raw[k] - (double)in.sweep_a.c0.raw[k];
            e[k] = ((double)in.sweep_b.c1.raw[k] - (double)in.sweep_b.c0.raw[k]) -
                   ((double)in.sweep_a.c1.raw[k] - (double)in.sweep_a.c0.raw[k]);
            dd += d[k] * d[k];
            de += d[k] * e[k];
            ee += e[k] * e[k];
        }
        double r = (double)in.a.radius + (double)in.b.radius, reach = r + (double)in.target_separation;
        double gap = sqrt(dd) - r, disc = de * de - ee * (dd - reach * reach);
        double t_ref = de < 0.0 && disc >= 0.0 ? (-de - sqrt(disc)) / ee : 2.0;
        ENSURE(out.iterations == 1);
        if (gap < (double)(in.target_separation - in.tolerance))
        {
            ENSURE(out.state == PH_TOI_OVERLAPPED);
            overlapped++;
            continue;
        }
        if (gap <= (double)(in.target_separation + in.tolerance))
        {
            ENSURE(out.state == PH_TOI_HIT && out.t == 0.0f);
            hits++;
            continue;
        }
        if (t_ref >= (double)in.t_max)
        {
            ENSURE(out.state == PH_TOI_SEPARATED);
            ENSURE(out.t == in.t_max);
            separated++;
            continue;
        }
        ENSURE(out.state == PH_TOI_HIT);
        ENSURE_NEAR(out.t, (float)t_ref, 1e-5f);
        float dist = distance_at(&in, out.t);
        ENSURE(dist >= in.target_separation - in.tolerance && dist <= in.target_separation + in.tolerance);
        for (int k = 0; k < 40; k++)
            ENSURE(distance_at(&in, out.t * (float)k / 40.0f) >= in.target_separation - in.tolerance);
        hits++;
    }
    printf("  %d hits, %d separated, %d overlapped, each in one step\n", hits, separated, overlapped);
    ENSURE(hits > 50 && separated > 50);
    return 0;
}

// Pairs that start just within target + tolerance of each other (random boxes, capsules and lopsided balls,
// moved along their closest direction to a random starting distance d0), swept with near_fraction 0.5:
// the answer is that of a second query towards 0.5 d0 (the tolerance scaled alike), in one call; it never
// passes that new target; and with near_fraction 0 such pairs are answered at t = 0.
static int toi_near_start_goes_on(void)
{
    uint64_t rng = test_seed() ^ 0x84ull;
    int goes_on = 0, hits = 0;
    for (int i = 0; i < 300; i++)
    {
        ph_toi_input in;
        memset(&in, 0, sizeof in);
        random_shape_pair(&rng, i, &in.a, &in.b);
        in.sweep_a.local_center = test_rand_vec3(&rng, -0.1f, 0.1f);
        in.sweep_a.c0 = glms_vec3_zero();
        in.sweep_a.c1 = test_rand_vec3(&rng, -1.0f, 1.0f);
        in.sweep_a.q0 = test_rand_quat(&rng);
        in.sweep_a.q1 = glms_quat_mul(random_turn(&rng, 2.0f), in.sweep_a.q0);
        in.sweep_b.local_center = test_rand_vec3(&rng, -0.1f, 0.1f);
        in.sweep_b.c0 = glms_vec3_scale(glms_vec3_normalize(test_rand_vec3(&rng, -1.0f, 1.0f)), 3.0f);
        in.sweep_b.q0 = test_rand_quat(&rng);
        in.sweep_b.q1 = glms_quat_mul(random_turn(&rng, 2.0f), in.sweep_b.q0);
        // Move B along the closest direction to the chosen starting distance.
        ph_gjk_output g;
        ENSURE(ph_gjk_distance(&in.a, ph_sweep_transform(&in.sweep_a, 0.0f), &in.b,
                               ph_sweep_transform(&in.sweep_b, 0.0f), NULL, &g) == PH_GJK_SEPARATED);
        in.target_separation = 0.02f;
        in.tolerance = 2e-3f;
        float d0 =
            test_rand_float(&rng, 0.4f * in.target_separation, in.target_separation + 0.9f * in.tolerance);
        in.sweep_b.c0 = glms_vec3_add(in.sweep_b.c0, glms_vec3_scale(g.normal, d0 - g.distance));
        in.sweep_b.c1 = glms_vec3_add(in.sweep_b.c0, test_rand_vec3(&rng, -1.0f, 1.0f));
        in.t_max = 1.0f;
        d0 = distance_at(&in, 0.0f);
        ph_toi_output plain = ph_time_of_impact(&in);
        ENSURE(plain.t == 0.0f && (plain.state == PH_TOI_HIT || plain.state == PH_TOI_OVERLAPPED));
        in.near_fraction = 0.5f;
        in.near_min_gap = 1e-4f;
        ph_toi_output out = ph_time_of_impact(&in);
        ph_toi_input again = in;
        again.near_fraction = 0.0f;
        float scale = 0.5f * plain.separation / in.target_separation;
        again.target_separation *= scale;
        again.tolerance *= scale;
        ph_toi_output second = ph_time_of_impact(&again);
        if (out.state != second.state || out.t != second.t || out.iterations != second.iterations)
        {
            printf("  pair %d (d0 %g): state %d t %g after %d, second query state %d t %g after %d\n", i,
                   (double)d0, (int)out.state, (double)out.t, out.iterations, (int)second.state,
                   (double)second.t, second.iterations);
            return 1;
        }
        for (int k = 0; k <= 40; k++)
            ENSURE(distance_at(&in, out.t * (float)k / 40.0f) >= again.target_separation - again.tolerance);
        goes_on += out.t > 0.0f;
        hits += out.state == PH_TOI_HIT && out.t > 0.0f;
    }
    printf("  %d of 300 went on past t = 0, %d of them to a hit\n", goes_on, hits);
    ENSURE(goes_on > 100 && hits > 20);
    return 0;
}

// Random pairs moving together, where the bound from one body's frame takes the long steps: A (box, capsule
// or lopsided ball) turns up to 2 rad, and B starts 1 mm to 0.3 m from it along a random direction and is
// carried along the chord of A's turn, plus a random drift and spin of its own. No sampled time before an
// answer comes closer than target - tolerance, and a hit is within tolerance of target.
static int toi_random_riding_never_overshoots(void)
{
    uint64_t rng = test_seed() ^ 0x85ull;
    int hits = 0, queries = 0;
    for (int i = 0; i < 400; i++)
    {
        ph_toi_input in;
        memset(&in, 0, sizeof in);
        random_shape_pair(&rng, i, &in.a, &in.b);
        in.sweep_a.local_center = test_rand_vec3(&rng, -0.1f, 0.1f);
        in.sweep_a.c0 = test_rand_vec3(&rng, -1.0f, 1.0f);
        in.sweep_a.c1 = glms_vec3_add(in.sweep_a.c0, test_rand_vec3(&rng, -2.0f, 2.0f));
        in.sweep_a.q0 = test_rand_quat(&rng);
        ph_quat turn = random_turn(&rng, 2.0f);
        in.sweep_a.q1 = glms_quat_mul(turn, in.sweep_a.q0);
        in.sweep_b.local_center = i % 4 == 0 ? glms_vec3_zero() : test_rand_vec3(&rng, -0.1f, 0.1f);
        in.sweep_b.q0 = test_rand_quat(&rng);
        in.sweep_b.q1 = glms_quat_mul(random_turn(&rng, 0.5f), in.sweep_b.q0);
        // B just outside A at the start, then carried with A's motion and turn.
        ph_vec3 dir = glms_vec3_normalize(test_rand_vec3(&rng, -1.0f, 1.0f));
        in.sweep_b.c0 = glms_vec3_add(in.sweep_a.c0, glms_vec3_scale(dir, 3.0f));
        ph_gjk_output g;
        ENSURE(ph_gjk_distance(&in.a, ph_sweep_transform(&in.sweep_a, 0.0f), &in.b,
                               ph_sweep_transform(&in.sweep_b, 0.0f), NULL, &g) == PH_GJK_SEPARATED);
        float gap0 = test_rand_float(&rng, 0.001f, 0.3f);
        in.sweep_b.c0 = glms_vec3_add(in.sweep_b.c0, glms_vec3_scale(g.normal, gap0 - g.distance));
        ph_vec3 arm = glms_quat_rotatev(turn, glms_vec3_sub(in.sweep_b.c0, in.sweep_a.c0));
        in.sweep_b.c1 = glms_vec3_add(glms_vec3_add(in.sweep_a.c1, arm), test_rand_vec3(&rng, -0.2f, 0.2f));
        in.t_max = 1.0f;
        in.target_separation = 0.02f;
        in.tolerance = 2e-3f;
        ph_toi_output out = ph_time_of_impact(&in);
        queries += out.iterations;
        if (out.state == PH_TOI_OVERLAPPED || (out.state == PH_TOI_HIT && out.t == 0.0f))
            continue;
        for (int k = 0; k <= 100; k++)
        {
            float t = out.t * (float)k / 100.0f;
            float dk = distance_at(&in, t);
            if (dk < in.target_separation - in.tolerance)
            {
                printf("  pair %d: answer state %d t %g but distance %g at t %g\n", i, (int)out.state,
                       (double)out.t, (double)dk, (double)t);
                return 1;
            }
        }
        if (out.state == PH_TOI_HIT)
        {
            float d = distance_at(&in, out.t);
            ENSURE(d <= in.target_separation + in.tolerance);
            hits++;
        }
    }
    printf("  %d hits, none past an impact; %.2f distance queries per pair\n", hits, (double)queries / 400.0);
    ENSURE(hits > 50);
    return 0;
}

// A ball riding on a tumbling box: the box turns 0.3 rad about z over the sweep and the ball, 0.02 above
// its top face, is carried along the chord of the same turn, so the two move together (the gap dips by
// the chord's sagitta, about 5 mm, never to the target of 1 cm). Bounding each body's rotation on its own,
// the box's corners seem to close the gap at 0.3 * 0.75 m per sweep and the advancement crawls; seen from
// the box's frame the ball hardly moves, and a few distance queries show the pair separated.
static int toi_ball_riding_tumbling_box(void)
{
    ph_toi_input in;
    memset(&in, 0, sizeof in);
    in.a = ph_convex_box(ph_v3(0.5f, 0.25f, 0.5f));
    in.sweep_a = still(glms_vec3_zero(), glms_quat_identity());
    in.sweep_a.q1 = glms_quatv(0.3f, ph_v3(0.0f, 0.0f, 1.0f));
    in.b = ph_convex_sphere(0.2f);
    ph_vec3 c0 = ph_v3(0.0f, 0.25f + 0.2f + 0.02f, 0.0f);
    in.sweep_b = still(c0, glms_quat_identity());
    in.sweep_b.c1 = glms_quat_rotatev(in.sweep_a.q1, c0);
    in.t_max = 1.0f;
    in.target_separation = 0.01f;
    in.tolerance = 0.0025f;
    ph_toi_output out = ph_time_of_impact(&in);
    float closest = 1.0f;
    for (int k = 0; k <= 100; k++)
        closest = fminf(closest, distance_at(&in, (float)k / 100.0f));
    printf("  riding ball: state %d after %d distance queries; closest sampled distance %.4f\n",
           (int)out.state, out.iterations, (double)closest);
    ENSURE(closest > in.target_separation + in.tolerance);
    ENSURE(out.state == PH_TOI_SEPARATED);
    ENSURE(out.iterations <= 4);
    return 0;
}

// The overlap of the pair at fraction t of its sweeps: the penetration depth where the shapes overlap, minus
// their distance where they do not (unit: m).
static float overlap_at(const ph_toi_input *in, float t)
{
    ph_transform xa = ph_sweep_transform(&in->sweep_a, t), xb = ph_sweep_transform(&in->sweep_b, t);
    ph_epa_output pen;
    if (ph_penetration(&in->a, xa, &in->b, xb, NULL, &pen) != PH_EPA_SEPARATED)
        return pen.depth;
    return -distance_at(in, t);
}

// Pairs that overlap where their sweeps start (random boxes, capsules and balls pushed up to 3 cm into each
// other, turning up to 3 rad and moving up to 1 m), followed through the overlap (overlap_allowance): checked
// against the overlap sampled at 2000 points of the sweep. limit = the overlap at t = 0 plus the allowance.
// A HIT comes no later than the first sample past limit, and where the pair still overlaps there, within
// tolerance of limit; SEPARATED only when no sample passes limit. With no allowance the answer is at t = 0.
#define FOLLOW_SAMPLES 2000
static int toi_follows_overlap(void)
{
    uint64_t rng = test_seed() ^ 0x0f0full;
    int sinks = 0, clear = 0, apart = 0;
    for (int i = 0; i < 200; i++)
    {
        ph_toi_input in;
        memset(&in, 0, sizeof in);
        random_shape_pair(&rng, i, &in.a, &in.b);
        in.sweep_a.c0 = glms_vec3_zero();
        in.sweep_a.c1 = test_rand_vec3(&rng, -0.5f, 0.5f);
        in.sweep_a.q0 = test_rand_quat(&rng);
        in.sweep_a.q1 = glms_quat_mul(random_turn(&rng, 3.0f), in.sweep_a.q0);
        in.sweep_b.c0 = glms_vec3_scale(glms_vec3_normalize(test_rand_vec3(&rng, -1.0f, 1.0f)), 3.0f);
        in.sweep_b.q0 = test_rand_quat(&rng);
        in.sweep_b.q1 = glms_quat_mul(random_turn(&rng, 3.0f), in.sweep_b.q0);
        ph_gjk_output g;
        ENSURE(ph_gjk_distance(&in.a, ph_sweep_transform(&in.sweep_a, 0.0f), &in.b,
                               ph_sweep_transform(&in.sweep_b, 0.0f), NULL, &g) == PH_GJK_SEPARATED);
        float push = test_rand_float(&rng, 0.0f, 0.03f);
        in.sweep_b.c0 = glms_vec3_sub(in.sweep_b.c0, glms_vec3_scale(g.normal, g.distance + push));
        in.sweep_b.c1 = glms_vec3_add(in.sweep_b.c0, test_rand_vec3(&rng, -0.5f, 0.5f));
        in.t_max = 1.0f;
        in.target_separation = 0.02f;
        in.tolerance = 2e-3f;
        in.near_fraction = 0.5f;
        in.near_min_gap = 1e-4f;
        ph_toi_output at_start = ph_time_of_impact(&in);
        ENSURE(at_start.touching_at_start && at_start.t == 0.0f &&
               (at_start.state == PH_TOI_HIT || at_start.state == PH_TOI_OVERLAPPED));
        in.overlap_allowance = test_rand_float(&rng, 0.02f, 0.2f);
        ph_toi_output out = ph_time_of_impact(&in);
        ENSURE(out.touching_at_start);
        float limit = fmaxf(overlap_at(&in, 0.0f), 0.0f) + in.overlap_allowance;
        float first_past = 2.0f;
        for (int k = 1; k <= FOLLOW_SAMPLES && first_past > 1.0f; k++)
        {
            float t = (float)k / FOLLOW_SAMPLES;
            if (overlap_at(&in, t) > limit + 1e-4f)
                first_past = t;
        }
        if (out.state == PH_TOI_SEPARATED)
        {
            ENSURE(first_past > 1.0f);
            clear++;
            continue;
        }
        ENSURE(out.state == PH_TOI_HIT || out.state == PH_TOI_FAILED);
        if (out.t > first_past)
        {
            printf("  pair %d: answer %g after the overlap passed %g at %g\n", i, (double)out.t,
                   (double)limit, (double)first_past);
            return 1;
        }
        float overlap = overlap_at(&in, out.t);
        if (out.state == PH_TOI_HIT && overlap > 0.0f)
        {
            ENSURE(overlap >= limit - in.tolerance - 1e-4f);
            sinks++;
        }
        else
            apart++; // came apart, then met again: the ordinary search's answer, checked above
    }
    printf("  %d sink in, %d never do, %d come apart and meet again\n", sinks, clear, apart);
    ENSURE(sinks > 20 && clear > 20);
    return 0;
}

const test_case test_toi_cases[] = {
    {"toi_sweep_transform", toi_sweep_transform},
    {"toi_sphere_at_wall", toi_sphere_at_wall},
    {"toi_rotating_bar", toi_rotating_bar},
    {"toi_given_rotation_long_way", toi_given_rotation_long_way},
    {"toi_states", toi_states},
    {"toi_random_never_overshoots", toi_random_never_overshoots},
    {"toi_random_any_direction_never_overshoots", toi_random_any_direction_never_overshoots},
    {"toi_receding_spin_is_separated", toi_receding_spin_is_separated},
    {"toi_lopsided_ball_few_queries", toi_lopsided_ball_few_queries},
    {"toi_ball_pairs_exact", toi_ball_pairs_exact},
    {"toi_near_start_goes_on", toi_near_start_goes_on},
    {"toi_ball_riding_tumbling_box", toi_ball_riding_tumbling_box},
    {"toi_random_riding_never_overshoots", toi_random_riding_never_overshoots},
    {"toi_sliding_spin_is_separated", toi_sliding_spin_is_separated},
    {"toi_follows_overlap", toi_follows_overlap},
    {0},
};
