// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Whole simulations against the laws of classical mechanics (issue 19): friction over a contact patch
// (twist and sliding), rolling without a gap or slip, momentum through impacts, tall walls that stand. Every
// expected value is derived here from the physics, with the derivation beside it; the engine is reached
// through its public API only.
#include "recipes/recipes.h"
#include "recipes/spawn.h"
#include "test.h"

#include "phys/contact.h" // ph_contact_patch_radius (white box)
#include "phys/phys.h"

#include <stdlib.h> // malloc

#define LAWS_G 9.81f
#define LAWS_DT (1.0f / 60.0f)

static ph_world *laws_world(ph_vec3 gravity)
{
    ph_world_def wd = ph_default_world_def();
    wd.gravity = gravity;
    return ph_world_create(&wd);
}

// A static box as ground, its top face at y = 0, with friction mu.
static ph_body_id laws_ground(ph_world *w, float mu)
{
    ph_body_def d = ph_default_body_def();
    d.position = ph_v3(0, -1, 0);
    d.shape = ph_make_box(ph_v3(100, 1, 100));
    d.material.friction = mu;
    return ph_body_create(w, &d);
}

// A dynamic body with no damping and no sleep.
static ph_body_def laws_body(ph_shape shape, ph_vec3 position, float mu)
{
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.shape = shape;
    d.position = position;
    d.material.friction = mu;
    d.linear_damping = 0.0f;
    d.angular_damping = 0.0f;
    d.enable_sleep = false;
    return d;
}

// Mean distance from the centre of a rectangle of half sides hx, hz, by the midpoint rule on a fine grid
// (a brute-force reference for the closed form the engine uses).
static double rectangle_mean_radius(double hx, double hz)
{
    const int n = 400;
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
        {
            double x = -hx + (i + 0.5) * 2.0 * hx / n, z = -hz + (k + 0.5) * 2.0 * hz / n;
            sum += sqrt(x * x + z * z);
        }
    return sum / ((double)n * n);
}

// Mean distance from the centroid of the triangle (a, b, c) in the plane, by the midpoint rule on a fine
// grid of barycentric cells.
static double triangle_mean_radius(const double a[2], const double b[2], const double c[2], const double o[2])
{
    const int n = 600;
    double sum = 0.0;
    int cells = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n - i; k++)
        {
            double u = (i + 1.0 / 3.0) / n, v = (k + 1.0 / 3.0) / n, w = 1.0 - u - v;
            double x = u * a[0] + v * b[0] + w * c[0] - o[0], y = u * a[1] + v * b[1] + w * c[1] - o[1];
            sum += sqrt(x * x + y * y);
            cells++;
        }
    return sum / cells;
}

// The twist arm of a manifold (ph_contact_patch_radius) against the brute-force mean distance of its patch:
// a square (the closed form (sqrt 2 + ln(1 + sqrt 2)) / 6), a rectangle turned in a tilted plane with its
// points in scrambled order, a triangle, a segment (a quarter of its length) and a single point (0).
static int laws_patch_radius(void)
{
    ph_manifold m = {0};
    m.normal = ph_v3(0, 1, 0);
    m.point_count = 4;
    const float sq[4][2] = {{0.5f, 0.5f}, {-0.5f, -0.5f}, {0.5f, -0.5f}, {-0.5f, 0.5f}};
    for (int i = 0; i < 4; i++)
        m.points[i].point = ph_v3(sq[i][0] + 3.0f, 2.0f, sq[i][1] - 1.0f);
    ENSURE_NEAR(ph_contact_patch_radius(&m), (sqrt(2.0) + log(1.0 + sqrt(2.0))) / 6.0, 1e-5);
    // A 2 x 0.6 rectangle in the plane of a tilted normal, corners out of order.
    ph_quat q = glms_quatv(0.7f, glms_vec3_normalize(ph_v3(1, 0.2f, -0.5f)));
    m.normal = glms_quat_rotatev(q, ph_v3(0, 1, 0));
    const float rect[4][2] = {{1.0f, 0.3f}, {-1.0f, -0.3f}, {-1.0f, 0.3f}, {1.0f, -0.3f}};
    for (int i = 0; i < 4; i++)
        m.points[i].point = glms_quat_rotatev(q, ph_v3(rect[i][0], 0.0f, rect[i][1]));
    ENSURE_NEAR(ph_contact_patch_radius(&m), rectangle_mean_radius(1.0, 0.3), 1e-4);
    // A triangle, about its centroid.
    m.normal = ph_v3(0, 1, 0);
    m.point_count = 3;
    const double ta[2] = {0.0, 0.0}, tb[2] = {2.0, 0.0}, tc[2] = {0.3, 1.2};
    const double o[2] = {(ta[0] + tb[0] + tc[0]) / 3.0, (ta[1] + tb[1] + tc[1]) / 3.0};
    m.points[0].point = ph_v3((float)ta[0], 0, (float)ta[1]);
    m.points[1].point = ph_v3((float)tb[0], 0, (float)tb[1]);
    m.points[2].point = ph_v3((float)tc[0], 0, (float)tc[1]);
    ENSURE_NEAR(ph_contact_patch_radius(&m), triangle_mean_radius(ta, tb, tc, o), 1e-3);
    m.point_count = 2;
    m.points[1].point = ph_v3(0, 0, 1.6f);
    ENSURE_NEAR(ph_contact_patch_radius(&m), 0.4, 1e-6);
    m.point_count = 1;
    ENSURE(ph_contact_patch_radius(&m) == 0.0f);
    return 0;
}

// Steps until the body's spin about y falls below 1% of w0; returns the time (s), or -1 past max_s.
static float spin_stop_time(ph_world *w, ph_body_id b, float w0, float max_s)
{
    for (int s = 1; s <= (int)(max_s / LAWS_DT); s++)
    {
        ph_world_step(w);
        if (fabsf(ph_body_get_angular_velocity(w, b).y) < 0.01f * w0)
            return (float)s * LAWS_DT;
    }
    return -1.0f;
}

// A flat body spinning about the vertical on the ground under uniform pressure: each patch element dA
// carries mu (m g / A) dA of friction at distance r, so the torque is mu m g <r> with <r> the patch's mean
// distance from its centre, and the spin falls at mu m g <r> / I_y, stopping after w0 I_y / (mu m g <r>).
// For a unit cube <r> = (sqrt 2 + ln(1 + sqrt 2)) / 6 = 0.3826 m and I_y = m / 6: 11.26 rad/s^2, 0.888 s
// from 10 rad/s. Friction at the four corners alone would stop it in 0.48 s.
static int twist_case(ph_vec3 half, float mu, float w0)
{
    ph_world *w = laws_world(ph_v3(0, -LAWS_G, 0));
    ENSURE(!PH_ID_IS_NULL(laws_ground(w, mu)));
    ph_body_def d = laws_body(ph_make_box(half), ph_v3(0, half.y, 0), mu);
    ph_body_id b = ph_body_create(w, &d);
    ENSURE(!PH_ID_IS_NULL(b));
    for (int s = 0; s < 30; s++) // settle first
        ph_world_step(w);
    ENSURE(ph_body_set_angular_velocity(w, b, ph_v3(0, w0, 0)) == PH_OK);
    double r_mean = rectangle_mean_radius((double)half.x, (double)half.z);
    double hx = (double)half.x, hz = (double)half.z;
    double inertia_y = 4.0 * (hx * hx + hz * hz) / 12.0; // per unit mass
    double expected = (double)w0 * inertia_y / ((double)mu * (double)LAWS_G * r_mean);
    float t = spin_stop_time(w, b, w0, 5.0f);
    fprintf(stderr, "  twist %.2f x %.2f x %.2f: stops in %.3f s, analytic %.3f s (mean radius %.4f m)\n",
            2.0 * hx, 2.0 * (double)half.y, 2.0 * hz, (double)t, expected, r_mean);
    ENSURE(t > 0.0f);
    ENSURE_NEAR(t, expected, 0.1 * expected);
    // It turned in place: the centre stayed put.
    ph_vec3 p = ph_body_get_position(w, b);
    ENSURE(fabsf(p.x) < 0.01f && fabsf(p.z) < 0.01f);
    ph_world_destroy(w);
    return 0;
}

static int laws_twist_cube(void)
{
    return twist_case(ph_v3(0.5f, 0.5f, 0.5f), 0.5f, 10.0f);
}

static int laws_twist_plank(void)
{
    return twist_case(ph_v3(1.0f, 0.1f, 0.5f), 0.5f, 10.0f);
}

// A box sliding on the ground decelerates at mu g (Coulomb), along a straight line, without turning.
static int laws_sliding_box(void)
{
    const float mu = 0.5f, v0 = 5.0f;
    const ph_vec3 dirs[] = {{{1, 0, 0}}, {{0, 0, 1}}, {{0.6f, 0, 0.8f}}};
    for (int k = 0; k < 3; k++)
    {
        ph_world *w = laws_world(ph_v3(0, -LAWS_G, 0));
        ENSURE(!PH_ID_IS_NULL(laws_ground(w, mu)));
        ph_body_def d = laws_body(ph_make_box(ph_v3(0.5f, 0.5f, 0.5f)), ph_v3(0, 0.5f, 0), mu);
        ph_body_id b = ph_body_create(w, &d);
        for (int s = 0; s < 30; s++)
            ph_world_step(w);
        ph_vec3 dir = dirs[k];
        ENSURE(ph_body_set_linear_velocity(w, b, glms_vec3_scale(dir, v0)) == PH_OK);
        ph_vec3 start = ph_body_get_position(w, b);
        // Measured over 0.5 s well inside the slide (it lasts v0 / (mu g) = 1.02 s).
        ph_world_step(w);
        float v_a = glms_vec3_dot(ph_body_get_linear_velocity(w, b), dir);
        const int steps = 30;
        float spin = 0.0f;
        for (int s = 0; s < steps; s++)
        {
            ph_world_step(w);
            spin = fmaxf(spin, glms_vec3_norm(ph_body_get_angular_velocity(w, b)));
        }
        float v_b = glms_vec3_dot(ph_body_get_linear_velocity(w, b), dir);
        float decel = (v_a - v_b) / ((float)steps * LAWS_DT);
        ph_vec3 moved = glms_vec3_sub(ph_body_get_position(w, b), start);
        float off_line =
            glms_vec3_norm(glms_vec3_sub(moved, glms_vec3_scale(dir, glms_vec3_dot(moved, dir))));
        fprintf(stderr,
                "  slide along (%.1f, %.1f, %.1f): deceleration %.4f m/s^2 (mu g %.4f), off line %.2e m,"
                " spin %.2e rad/s\n",
                (double)dir.x, (double)dir.y, (double)dir.z, (double)decel, (double)(mu * LAWS_G),
                (double)off_line, (double)spin);
        ENSURE_NEAR(decel, mu * LAWS_G, 0.01f * mu * LAWS_G);
        ENSURE(off_line < 1e-3f);
        ENSURE(spin < 0.01f);
        ph_world_destroy(w);
    }
    return 0;
}

// A round body rolling on flat ground: its lowest point touches the ground throughout, so its centre stays
// at its radius and it neither sinks nor hops (issue 19, item 1: within 1 mm, |v_y| < 0.01 m/s).
static int rolling_flat_case(ph_shape shape, float radius, ph_quat q, const char *name)
{
    const float v0 = 5.0f;
    ph_world *w = laws_world(ph_v3(0, -LAWS_G, 0));
    ENSURE(!PH_ID_IS_NULL(laws_ground(w, 0.6f)));
    ph_body_def d = laws_body(shape, ph_v3(-40, radius, 0), 0.6f);
    d.orientation = q;
    d.linear_velocity = ph_v3(v0, 0, 0);
    d.angular_velocity = ph_v3(0, 0, -v0 / radius); // rolling: v = -w_z r
    ph_body_id b = ph_body_create(w, &d);
    ENSURE(!PH_ID_IS_NULL(b));
    float low = 1e9f, high = -1e9f, vy = 0.0f;
    for (int s = 0; s < 120; s++)
    {
        ph_world_step(w);
        float y = ph_body_get_position(w, b).y;
        low = fminf(low, y);
        high = fmaxf(high, y);
        vy = fmaxf(vy, fabsf(ph_body_get_linear_velocity(w, b).y));
    }
    fprintf(stderr, "  %s rolling at %.0f m/s: centre height %.5f..%.5f m (radius %.3f), |v_y| <= %.4f m/s\n",
            name, (double)v0, (double)low, (double)high, (double)radius, (double)vy);
    ENSURE_NEAR(low, radius, 1e-3f);
    ENSURE_NEAR(high, radius, 1e-3f);
    ENSURE(vy < 0.01f);
    ph_world_destroy(w);
    return 0;
}

static int laws_rolling_sphere_flat(void)
{
    return rolling_flat_case(ph_make_sphere(0.5f), 0.5f, glms_quat_identity(), "sphere");
}

static int laws_rolling_capsule_flat(void)
{
    // The capsule's core segment along z (its local y turned onto z), rolling about it.
    ph_quat q = glms_quatv(GLM_PI_2f, ph_v3(1, 0, 0));
    return rolling_flat_case(ph_make_capsule(0.5f, 0.3f), 0.3f, q, "capsule");
}

// A solid sphere rolling without slipping down an incline of angle theta accelerates at g sin(theta) /
// (1 + I / (m r^2)) = 5/7 g sin(theta), and its contact point does not slide: v = w r.
static int laws_rolling_incline(void)
{
    const float theta = GLM_PIf / 6.0f, r = 0.5f, mu = 0.6f;
    ph_world *w = laws_world(ph_v3(0, -LAWS_G, 0));
    // The incline: a slab turned by theta about z, its top face through the origin, falling towards +x.
    ph_quat q = glms_quatv(-theta, ph_v3(0, 0, 1));
    ph_vec3 down = ph_v3(cosf(theta), -sinf(theta), 0), up_n = ph_v3(sinf(theta), cosf(theta), 0);
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_box(ph_v3(100, 1, 20));
    g.orientation = q;
    g.position = glms_vec3_scale(up_n, -1.0f);
    g.material.friction = mu;
    ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &g)));
    ph_body_def d = laws_body(ph_make_sphere(r), glms_vec3_scale(up_n, r), mu);
    ph_body_id b = ph_body_create(w, &d);
    ENSURE(!PH_ID_IS_NULL(b));
    for (int s = 0; s < 6; s++)
        ph_world_step(w);
    float v_a = glms_vec3_dot(ph_body_get_linear_velocity(w, b), down);
    const int steps = 90;
    for (int s = 0; s < steps; s++)
        ph_world_step(w);
    ph_vec3 v = ph_body_get_linear_velocity(w, b);
    float v_b = glms_vec3_dot(v, down);
    float accel = (v_b - v_a) / ((float)steps * LAWS_DT);
    float expected = 5.0f / 7.0f * LAWS_G * sinf(theta);
    // Rolling: the contact point's velocity v + w x (-r n) is zero.
    ph_vec3 wv = ph_body_get_angular_velocity(w, b);
    ph_vec3 slip_v = glms_vec3_add(v, glms_vec3_cross(wv, glms_vec3_scale(up_n, -r)));
    float slip = glms_vec3_norm(slip_v) / glms_vec3_norm(v);
    fprintf(stderr, "  incline 30 deg: acceleration %.4f m/s^2 (5/7 g sin = %.4f), slip %.4f%%\n",
            (double)accel, (double)expected, 100.0 * (double)slip);
    ENSURE_NEAR(accel, expected, 0.01f * expected);
    ENSURE(slip < 0.005f);
    ph_world_destroy(w);
    return 0;
}

// Linear momentum and angular momentum about the origin.
typedef struct laws_momentum
{
    ph_vec3 p, l;
} laws_momentum;

// Linear and angular momentum of two bodies about the origin, from the API alone (world inertia and
// angular velocity now).
static laws_momentum pair_momentum(const ph_world *w, const ph_body_id *ids)
{
    laws_momentum m = {glms_vec3_zero(), glms_vec3_zero()};
    for (int i = 0; i < 2; i++)
    {
        ph_vec3 p = glms_vec3_scale(ph_body_get_linear_velocity(w, ids[i]), ph_body_get_mass(w, ids[i]));
        ph_vec3 spin =
            glms_mat3_mulv(ph_body_get_world_inertia(w, ids[i]), ph_body_get_angular_velocity(w, ids[i]));
        m.p = glms_vec3_add(m.p, p);
        m.l = glms_vec3_add(m.l,
                            glms_vec3_add(glms_vec3_cross(ph_body_get_center_of_mass(w, ids[i]), p), spin));
    }
    return m;
}

// Two free bodies (no gravity) meet off centre, a cube and a turned plank (a box, then a hull of the same
// reach with slanted faces and its centre of mass off its origin), at restitution 0 to 1: a contact's
// impulses are equal and opposite at one point, so the pair's linear momentum and its angular momentum about
// a fixed point are kept (issue 19, item 1: within 0.1%). They meet, slide over each other and spin apart
// (the plank at up to 33 rad/s): anchors carried apart by the bodies' relative motion through the step, row
// inertias of the step's start for a turning plank, or restitution's angular impulse taken as a change of
// velocity rather than of momentum, each broke the angular momentum by 0.1% to 0.9% here. Every solver path.
// At 20 m/s a bouncing impact is taken before the solver as one two-body impact (impact.c), whose angular
// impulse must change each body's angular momentum now, not the velocity that carried it through the last
// sub-step (the hull plank left spinning at 4 rad/s: 0.1%); an inelastic one is the solver's and the
// calendar's. The rows' map from an angular impulse to a change of velocity is linear about the velocity a
// sweep starts from, and the momentum is not linear in it (0.13% at 10 m/s); the calendar moved a spinning
// body along its chord at a fixed spin, which changes its momentum where the spin is off its principal axes
// (0.28%). Both now keep it (solver.c, keep_row_momentum; calendar.c, restart_sweep).
static int laws_impact_momentum(void)
{
    const ph_simd_path paths[] = {PH_SIMD_SCALAR, PH_SIMD_BEST};
    const float speeds[] = {3.0f, 20.0f};
    int sequenced = 0;
    for (int path = 0; path < 2; path++)
        for (int fast = 0; fast < 2; fast++)
            for (int hull = 0; hull < 2; hull++)
                for (int k = 0; k <= 4; k++)
                {
                    ph_world_def wd = ph_default_world_def();
                    wd.gravity = ph_v3(0, 0, 0);
                    wd.simd = paths[path];
                    ph_world *w = ph_world_create(&wd);
                    ENSURE(w != NULL);
                    float e = 0.25f * (float)k;
                    ph_body_def a =
                        laws_body(ph_make_box(ph_v3(0.5f, 0.5f, 0.5f)), ph_v3(-4.0f, 0.35f, 0.2f), 0.4f);
                    a.material.restitution = e;
                    a.linear_velocity = ph_v3(speeds[fast], 0, 0);
                    ph_shape plank = ph_make_box(ph_v3(0.8f, 0.3f, 0.4f));
                    if (hull)
                    {
                        ph_vec3 corners[8];
                        int n = 0;
                        for (int x = -1; x <= 1; x += 2)
                            for (int y = -1; y <= 1; y += 2)
                                for (int z = -1; z <= 1; z += 2)
                                    corners[n++] =
                                        ph_v3(0.8f * (float)x + (y > 0 ? 0.3f : 0.0f), 0.3f * (float)y,
                                              0.4f * (float)z * (x > 0 ? 0.5f : 1.0f));
                        ph_hull_def hd = ph_default_hull_def();
                        hd.points = corners;
                        hd.point_count = n;
                        plank = ph_make_geom_shape(PH_SHAPE_HULL, ph_world_add_hull(w, &hd));
                    }
                    ph_body_def b = laws_body(plank, ph_v3(1.0f, -0.3f, -0.1f), 0.4f);
                    b.material.restitution = e;
                    b.orientation = glms_quatv(0.3f, glms_vec3_normalize(ph_v3(0.2f, 1.0f, 0.1f)));
                    b.linear_velocity = ph_v3(-speeds[fast] / 3.0f, 0, 0);
                    ph_body_id ids[2] = {ph_body_create(w, &a), ph_body_create(w, &b)};
                    ENSURE(!PH_ID_IS_NULL(ids[0]) && !PH_ID_IS_NULL(ids[1]));
                    laws_momentum before = pair_momentum(w, ids);
                    float touched = 0.0f, spin = 0.0f;
                    int events = 0, impacts = 0;
                    for (int s = 0; s < 90; s++)
                    {
                        ph_world_step(w);
                        const ph_step_stats *st = ph_world_get_stats(w);
                        events += st->calendar_events + st->calendar_kept;
                        impacts += st->sequenced_impacts;
                        ph_contact_info c[8];
                        int n = ph_world_get_contacts(w, c, 8);
                        for (int i = 0; i < n && i < 8; i++)
                            touched += c[i].normal_impulse;
                        spin = fmaxf(spin, glms_vec3_norm(ph_body_get_angular_velocity(w, ids[1])));
                    }
                    laws_momentum after = pair_momentum(w, ids);
                    float dp = glms_vec3_norm(glms_vec3_sub(after.p, before.p)) / glms_vec3_norm(before.p);
                    float dl = glms_vec3_norm(glms_vec3_sub(after.l, before.l)) / glms_vec3_norm(before.l);
                    fprintf(
                        stderr,
                        "  %s, %s at %.0f m/s, e = %.2f: impulse %.1f N s, %d impacts before the solver, %d "
                        "calendar events, plank spin up to %.1f rad/s; momentum changed: linear %.2e, "
                        "angular %.2e (relative)\n",
                        ph_simd_path_name(ph_simd_resolve(paths[path])), hull ? "hull" : "box",
                        (double)speeds[fast], (double)e, (double)touched, impacts, events, (double)spin,
                        (double)dp, (double)dl);
                    ENSURE(touched > 1.0f); // they did meet
                    sequenced += impacts;
                    ENSURE(dp < 1e-3f);
                    ENSURE(dl < 1e-3f);
                    ph_world_destroy(w);
                }
    ENSURE(sequenced > 0); // the impacts before the solver were tried
    return 0;
}

// A small generator for the random cases below (the tests' own, so that each case is the same on every
// machine).
static float laws_random(uint64_t *state, float lo, float hi)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (float)((*state >> 40) & 0xffffff) / 16777216.0f;
}

static ph_quat laws_random_turn(uint64_t *state)
{
    ph_vec3 axis = ph_v3(laws_random(state, -1, 1), laws_random(state, -1, 1), laws_random(state, -1, 1));
    return glms_quatv(laws_random(state, 0.0f, 3.1f), glms_vec3_normalize(glms_vec3_adds(axis, 1e-3f)));
}

// The same law over random pairs: boxes and hulls of random proportions (hulls of 24 random points, their
// centres of mass off their origins), random turns and spins of up to 5 rad/s about any axis, friction 0 to
// 0.8, restitution 0 to 1, meeting off centre at 2 to 10 m/s; 90 steps, through whatever the step does (the
// solver, the impacts before it, the calendar, a deep contact's stop). Linear and angular momentum within
// 0.1%, on the scalar path and the best the CPU has. Before the rows' impulses were kept as changes of
// momentum, the worst of these changed it by 1.3%; before a deep contact was stopped at a point (not at the
// bodies' centres), by 2.5%.
static int laws_random_impacts_keep_momentum(void)
{
    const ph_simd_path paths[] = {PH_SIMD_SCALAR, PH_SIMD_BEST};
    for (int path = 0; path < 2; path++)
    {
        uint64_t rng = 20261127;
        float worst_p = 0.0f, worst_l = 0.0f;
        int met = 0;
        for (int k = 0; k < 40; k++)
        {
            ph_world_def wd = ph_default_world_def();
            wd.gravity = ph_v3(0, 0, 0);
            wd.simd = paths[path];
            ph_world *w = ph_world_create(&wd);
            ENSURE(w != NULL);
            float e = laws_random(&rng, 0.0f, 1.0f);
            ph_body_def d[2];
            for (int i = 0; i < 2; i++)
            {
                d[i] =
                    laws_body(ph_make_box(ph_v3(laws_random(&rng, 0.2f, 0.8f), laws_random(&rng, 0.2f, 0.8f),
                                                laws_random(&rng, 0.2f, 0.8f))),
                              ph_v3(0, 0, 0), laws_random(&rng, 0.0f, 0.8f));
                if ((k + i) % 3 == 2)
                {
                    ph_vec3 points[24];
                    for (int j = 0; j < 24; j++)
                        points[j] = ph_v3(laws_random(&rng, -0.7f, 0.7f), laws_random(&rng, -0.5f, 0.5f),
                                          laws_random(&rng, -0.4f, 0.4f));
                    ph_hull_def hd = ph_default_hull_def();
                    hd.points = points;
                    hd.point_count = 24;
                    d[i].shape = ph_make_geom_shape(PH_SHAPE_HULL, ph_world_add_hull(w, &hd));
                }
                d[i].material.restitution = e;
                d[i].orientation = laws_random_turn(&rng);
                d[i].angular_velocity =
                    ph_v3(laws_random(&rng, -3, 3), laws_random(&rng, -3, 3), laws_random(&rng, -3, 3));
            }
            d[0].position = ph_v3(-2.0f, laws_random(&rng, -0.5f, 0.5f), laws_random(&rng, -0.5f, 0.5f));
            d[1].position = ph_v3(1.0f, laws_random(&rng, -0.5f, 0.5f), laws_random(&rng, -0.5f, 0.5f));
            d[0].linear_velocity = ph_v3(laws_random(&rng, 2, 6), laws_random(&rng, -0.5f, 0.5f), 0);
            d[1].linear_velocity = ph_v3(laws_random(&rng, -4, 0), 0, laws_random(&rng, -0.5f, 0.5f));
            ph_body_id ids[2] = {ph_body_create(w, &d[0]), ph_body_create(w, &d[1])};
            ENSURE(!PH_ID_IS_NULL(ids[0]) && !PH_ID_IS_NULL(ids[1]));
            laws_momentum before = pair_momentum(w, ids);
            bool touched = false;
            for (int s = 0; s < 90; s++)
            {
                ph_world_step(w);
                touched = touched || ph_world_get_stats(w)->contact_point_count > 0;
            }
            laws_momentum after = pair_momentum(w, ids);
            met += touched;
            worst_p =
                fmaxf(worst_p, glms_vec3_norm(glms_vec3_sub(after.p, before.p)) / glms_vec3_norm(before.p));
            worst_l =
                fmaxf(worst_l, glms_vec3_norm(glms_vec3_sub(after.l, before.l)) / glms_vec3_norm(before.l));
            ph_world_destroy(w);
        }
        fprintf(stderr,
                "  %s: %d of 40 random pairs met; momentum changed by at most: linear %.2e, angular %.2e\n",
                ph_simd_path_name(ph_simd_resolve(paths[path])), met, (double)worst_p, (double)worst_l);
        ENSURE(met >= 35); // most pairs meet (the others pass each other by)
        ENSURE(worst_p < 1e-3f);
        ENSURE(worst_l < 1e-3f);
    }
    return 0;
}

// Thin bars and plates (up to 40 to 1) spinning at 20 to 230 rad/s about random axes, thrown among posts
// and each other with random restitution and friction, no gravity: the calendar takes many of their impacts.
// Their kinetic energy never rises (by more than float rounding) in 120 steps. Moved back along its sweep to
// an event at a fixed angular momentum, such a body could gain energy many times over (a plank went on at
// 1800 rad/s), and at a fixed spin the momentum changed instead; the solver's map from angular impulse to
// change of velocity, linear in it, added up to 58% at these spins.
static int laws_fast_spinners_never_gain_energy(void)
{
    uint64_t rng = 7;
    float worst = 0.0f;
    int events = 0;
    for (int k = 0; k < 30; k++)
    {
        ph_world_def wd = ph_default_world_def();
        wd.gravity = ph_v3(0, 0, 0);
        ph_world *w = ph_world_create(&wd);
        ENSURE(w != NULL);
        ph_body_def post = ph_default_body_def();
        post.type = PH_BODY_STATIC;
        for (int p = 0; p < 6; p++)
        {
            post.shape = ph_make_box(ph_v3(0.05f, 0.05f, 0.05f + laws_random(&rng, 0, 1)));
            post.position = ph_v3(laws_random(&rng, -1.5f, 1.5f), laws_random(&rng, -1.5f, 1.5f),
                                  laws_random(&rng, -0.3f, 0.3f));
            ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &post)));
        }
        ph_body_id ids[4];
        for (int b = 0; b < 4; b++)
        {
            // At the corners of a square round the posts, clear of them and of each other (an overlap at the
            // start is pushed out, which is energy the test does not mean), thrown inwards.
            ph_vec3 corner =
                ph_v3(b & 1 ? 2.5f : -2.5f, b & 2 ? 2.5f : -2.5f, laws_random(&rng, -0.5f, 0.5f));
            ph_body_def d =
                laws_body(ph_make_box(ph_v3(laws_random(&rng, 0.3f, 1.2f), laws_random(&rng, 0.03f, 0.2f),
                                            laws_random(&rng, 0.03f, 0.4f))),
                          corner, laws_random(&rng, 0.0f, 0.8f));
            d.material.restitution = laws_random(&rng, 0.0f, 1.0f);
            d.orientation = laws_random_turn(&rng);
            ph_vec3 axis =
                ph_v3(laws_random(&rng, -1, 1), laws_random(&rng, -1, 1), laws_random(&rng, -1, 1));
            d.angular_velocity =
                glms_vec3_scale(glms_vec3_normalize(glms_vec3_adds(axis, 1e-3f)), laws_random(&rng, 20, 230));
            d.linear_velocity = glms_vec3_add(
                glms_vec3_scale(corner, -laws_random(&rng, 1.0f, 3.0f)),
                ph_v3(laws_random(&rng, -2, 2), laws_random(&rng, -2, 2), laws_random(&rng, -2, 2)));
            ids[b] = ph_body_create(w, &d);
            ENSURE(!PH_ID_IS_NULL(ids[b]));
        }
        float start = 0.0f;
        for (int s = 0; s <= 120; s++)
        {
            float energy = 0.0f;
            for (int b = 0; b < 4; b++)
            {
                ph_vec3 v = ph_body_get_linear_velocity(w, ids[b]),
                        spin = ph_body_get_angular_velocity(w, ids[b]);
                energy +=
                    0.5f * ph_body_get_mass(w, ids[b]) * glms_vec3_dot(v, v) +
                    0.5f * glms_vec3_dot(spin, glms_mat3_mulv(ph_body_get_world_inertia(w, ids[b]), spin));
            }
            if (s == 0)
                start = energy;
            else
                worst = fmaxf(worst, energy / start - 1.0f);
            if (s < 120)
            {
                ph_world_step(w);
                events += ph_world_get_stats(w)->calendar_events;
            }
        }
        ph_world_destroy(w);
    }
    fprintf(
        stderr,
        "  30 scenes of fast spinners: %d calendar events; kinetic energy rose by at most %.2e of itself\n",
        events, (double)worst);
    ENSURE(events > 30); // the calendar took part
    ENSURE(worst < 1e-5f);
    return 0;
}

static float kinetic_energy(const ph_world *w, const ph_body_id *ids, int n)
{
    float ke = 0.0f;
    for (int i = 0; i < n; i++)
    {
        // Spheres of radius r: I = 2/5 m r^2; the caller's bodies are all such spheres of one radius.
        float m = ph_body_get_mass(w, ids[i]);
        ph_vec3 v = ph_body_get_linear_velocity(w, ids[i]), om = ph_body_get_angular_velocity(w, ids[i]);
        ke += 0.5f * m * glms_vec3_dot(v, v) + 0.5f * 0.4f * m * 0.25f * glms_vec3_dot(om, om);
    }
    return ke;
}

// Spheres of radius 0.5 m at the given centres, no gravity, no friction, restitution e; the first moves
// at v0 along x. Returns the largest kinetic energy after the start over the ratio to the start's, and the
// velocities along x at the end in out_v.
static float sphere_impact(const ph_vec3 *centres, int n, float e, float v0, float *out_v)
{
    ph_world *w = laws_world(ph_v3(0, 0, 0));
    ph_body_id ids[16];
    for (int i = 0; i < n; i++)
    {
        ph_body_def d = laws_body(ph_make_sphere(0.5f), centres[i], 0.0f);
        d.material.restitution = e;
        d.linear_velocity = ph_v3(i == 0 ? v0 : 0.0f, 0, 0);
        ids[i] = ph_body_create(w, &d);
    }
    float ke0 = kinetic_energy(w, ids, n), worst = 0.0f;
    for (int s = 0; s < 60; s++)
    {
        ph_world_step(w);
        worst = fmaxf(worst, kinetic_energy(w, ids, n) / ke0);
    }
    for (int i = 0; out_v && i < n; i++)
        out_v[i] = ph_body_get_linear_velocity(w, ids[i]).x;
    ph_world_destroy(w);
    return worst;
}

// However many contacts close in one step, restitution never adds energy (issue 19, item 2): a row of five
// spheres with 1 cm gaps struck at 2 m/s, a row of touching spheres, and a sphere into a hexagonal cluster,
// for e from 0 to 1. Kinetic energy may only fall (to float rounding, 1e-4).
static int laws_restitution_never_adds_energy(void)
{
    const float es[] = {0.0f, 0.3f, 0.7f, 1.0f};
    ph_vec3 gapped[5], touching[5], cluster[8];
    for (int i = 0; i < 5; i++)
    {
        gapped[i] = ph_v3(1.01f * (float)i, 0.5f, 0);
        touching[i] = ph_v3((float)i + (i > 0 ? 0.01f : 0.0f), 0.5f, 0);
    }
    // The striker left of a hexagonal cluster (a centre and its six neighbours in the xz plane).
    cluster[0] = ph_v3(-1.05f, 0.5f, 0.1f);
    cluster[1] = ph_v3(1.0f, 0.5f, 0);
    for (int k = 0; k < 6; k++)
    {
        float a = (float)k * GLM_PIf / 3.0f;
        cluster[2 + k] = ph_v3(1.0f + 1.001f * cosf(a), 0.5f, 1.001f * sinf(a));
    }
    for (int k = 0; k < 4; k++)
    {
        float v[8];
        float row = sphere_impact(gapped, 5, es[k], 2.0f, v);
        float row_touching = sphere_impact(touching, 5, es[k], 2.0f, NULL);
        float hex = sphere_impact(cluster, 8, es[k], 3.0f, NULL);
        fprintf(
            stderr,
            "  e = %.1f: kinetic energy at most x%.5f (gapped row; ends %.2f %.2f %.2f %.2f %.2f m/s), x%.5f "
            "(touching row), x%.5f (cluster)\n",
            (double)es[k], (double)row, (double)v[0], (double)v[1], (double)v[2], (double)v[3], (double)v[4],
            (double)row_touching, (double)hex);
        ENSURE(row <= 1.0001f);
        ENSURE(row_touching <= 1.0001f);
        ENSURE(hex <= 1.0001f);
    }
    return 0;
}

// A Newton's cradle (issue 19, item 2): five equal balls at e = 1 with no friction, in a row, the first
// struck at 2 m/s, in zero gravity. The balls' impacts come one after another, each between two equal balls
// at e = 1, which trade velocities: the striker stops and the last ball leaves at 2 m/s, the others stay
// (momentum and energy alone would allow a whole family of outcomes, the row moving off together among
// them). A row of touching balls with the striker 1 cm away, and a row with 1 cm gaps. Then the cradle the
// game spawns (recipe_add_cradle: steel balls on rods under gravity, the first lifted 0.8 rad): the last ball
// swings up as high as the first fell, and the middle ones stay where they hang.
static int laws_newtons_cradle(void)
{
    ph_vec3 gapped[5], touching[5];
    for (int i = 0; i < 5; i++)
    {
        gapped[i] = ph_v3(1.01f * (float)i, 0.5f, 0);
        touching[i] = ph_v3((float)i + (i > 0 ? 0.01f : 0.0f), 0.5f, 0);
    }
    for (int row = 0; row < 2; row++)
    {
        float v[5];
        float most = sphere_impact(row ? gapped : touching, 5, 1.0f, 2.0f, v);
        fprintf(stderr, "  %s row: ends at %.3f %.3f %.3f %.3f %.3f m/s (kinetic energy at most x%.5f)\n",
                row ? "gapped" : "touching", (double)v[0], (double)v[1], (double)v[2], (double)v[3],
                (double)v[4], (double)most);
        ENSURE(most <= 1.0001f);
        ENSURE(fabsf(v[4] - 2.0f) < 0.02f); // the last ball leaves at the striker's speed, within 1%
        for (int i = 0; i < 4; i++)
            ENSURE(fabsf(v[i]) < 0.02f);
    }

    recipe_scene scene;
    recipe_scene_init(&scene, "cradle");
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    ENSURE(recipe_add_cradle(&scene, origin, 5, 0.8f));
    ph_world_def wd = spawn_world_def(&scene);
    ph_world *w = ph_world_create(&wd);
    ENSURE(w != NULL);
    ph_body_id ids[64];
    ENSURE(scene.item_count <= 64);
    ENSURE(spawn_recipe(w, &scene, ids) == PH_OK);
    int balls[5], n = 0;
    for (int i = 0; i < scene.item_count; i++)
        if (scene.items[i].type != RECIPE_STATIC && n < 5)
            balls[n++] = i;
    ENSURE(n == 5);
    float start[5], top[5];
    for (int k = 0; k < 5; k++)
        start[k] = top[k] = ph_body_get_position(w, ids[balls[k]]).y;
    float rest = start[1]; // the hanging height (the second ball is not lifted)
    // Half a swing down, the strike, and the last ball's swing up: 1.5 s. The row hangs still long enough to
    // fall asleep before the strike, and the strike must reach its far end in the step it happens: in the
    // step the row first moves, the last ball leaves with the striker's speed and the second stays.
    float striker = 0.0f;
    bool struck = false, asleep = false;
    for (int s = 0; s < 90; s++)
    {
        striker = fmaxf(striker, fabsf(ph_body_get_linear_velocity(w, ids[balls[0]]).x));
        asleep |= !ph_body_is_awake(w, ids[balls[4]]);
        ph_world_step(w);
        for (int k = 0; k < 5; k++)
            top[k] = fmaxf(top[k], ph_body_get_position(w, ids[balls[k]]).y);
        float second = fabsf(ph_body_get_linear_velocity(w, ids[balls[1]]).x);
        float last = fabsf(ph_body_get_linear_velocity(w, ids[balls[4]]).x);
        if (!struck && (second > 0.1f || last > 0.1f))
        {
            struck = true;
            fprintf(stderr,
                    "  hanging cradle: the step of the strike (at %.3f m/s) leaves the second ball at %.3f, "
                    "the last at %.3f m/s\n",
                    (double)striker, (double)second, (double)last);
            ENSURE(last > 0.99f * striker && second < 0.01f * striker);
        }
    }
    ENSURE(struck && asleep);
    float fell = start[0] - rest, rose = top[4] - rest;
    fprintf(stderr,
            "  hanging cradle: the first ball fell %.4f m, the last rose %.4f m, the middle ones %.4f %.4f "
            "%.4f m\n",
            (double)fell, (double)rose, (double)(top[1] - rest), (double)(top[2] - rest),
            (double)(top[3] - rest));
    ENSURE(fabsf(rose - fell) < 0.02f * fell);
    for (int k = 1; k < 4; k++)
        ENSURE(top[k] - rest < 0.01f);
    ph_world_destroy(w);
    recipe_scene_free(&scene);
    return 0;
}

// A heap of bouncing bodies (spheres, boxes and capsules, restitution 0.5 to 1, friction 0 to 0.6) thrown
// about in a walled box under gravity, with walls and floor of restitution 1: a flurry of impacts, in rows
// and clusters, most of them taken one after another before the solver (impact.c). Nothing in the scene
// adds energy, so its mechanical energy (kinetic, both linear and angular, plus potential) may not rise
// from one step to the next beyond float rounding (1e-5 of it).
#define BOUNCY_BODIES 120
#define BOUNCY_STEPS 300
static int laws_bouncy_heap_never_gains_energy(void)
{
    uint64_t rng = 0xb0c5u;
    ph_world *w = laws_world(ph_v3(0, -LAWS_G, 0));
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_box(ph_v3(10.0f, 0.5f, 10.0f));
    g.position = ph_v3(0, -0.5f, 0);
    g.material.restitution = 1.0f;
    ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &g)));
    for (int k = 0; k < 4; k++)
    {
        ph_body_def wall = g;
        wall.shape = ph_make_box(k < 2 ? ph_v3(0.25f, 3.0f, 3.0f) : ph_v3(3.0f, 3.0f, 0.25f));
        float side = k % 2 ? 2.75f : -2.75f;
        wall.position = k < 2 ? ph_v3(side, 3.0f, 0) : ph_v3(0, 3.0f, side);
        ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &wall)));
    }
    ph_body_id ids[BOUNCY_BODIES];
    for (int i = 0; i < BOUNCY_BODIES; i++)
    {
        int kind = i % 3;
        ph_shape shape = kind == 0   ? ph_make_sphere(0.25f)
                         : kind == 1 ? ph_make_box(ph_v3(0.2f, 0.25f, 0.15f))
                                     : ph_make_capsule(0.12f, 0.15f);
        ph_body_def d = laws_body(shape,
                                  ph_v3((float)(i % 8) * 0.6f - 2.1f, 0.5f + (float)(i / 64) * 0.6f,
                                        (float)((i / 8) % 8) * 0.6f - 2.1f),
                                  test_rand_float(&rng, 0.0f, 0.6f));
        d.orientation = test_rand_quat(&rng);
        d.linear_velocity = test_rand_vec3(&rng, -3.0f, 3.0f);
        d.material.restitution = test_rand_float(&rng, 0.5f, 1.0f);
        ids[i] = ph_body_create(w, &d);
        ENSURE(!PH_ID_IS_NULL(ids[i]));
    }
    double last = 0.0, worst = 0.0;
    int impacts = 0;
    for (int s = 0; s < BOUNCY_STEPS; s++)
    {
        ph_world_step(w);
        impacts += ph_world_get_stats(w)->sequenced_impacts;
        double energy = 0.0;
        for (int i = 0; i < BOUNCY_BODIES; i++)
        {
            float m = ph_body_get_mass(w, ids[i]);
            ph_vec3 v = ph_body_get_linear_velocity(w, ids[i]), om = ph_body_get_angular_velocity(w, ids[i]);
            ph_mat3 inertia = ph_body_get_world_inertia(w, ids[i]);
            float e = 0.5f * m * glms_vec3_dot(v, v) + 0.5f * glms_vec3_dot(om, glms_mat3_mulv(inertia, om)) +
                      m * LAWS_G * ph_body_get_center_of_mass(w, ids[i]).y;
            energy += (double)e;
        }
        if (s > 0)
            worst = fmax(worst, (energy - last) / last);
        last = energy;
    }
    fprintf(stderr,
            "  bouncing heap: %d impacts taken one after another; mechanical energy rose by at most %.2e of "
            "itself in a step\n",
            impacts, worst);
    ENSURE(impacts > 100);
    ENSURE(worst < 1e-5);
    ph_world_destroy(w);
    return 0;
}

// A box dropped flat lands on four points at once and leaves at e times its impact speed, so it comes back
// up to e^2 of the height it fell (energy: m g h); with e = 1 to where it fell from, no higher. The apex is
// read at the steps, which may miss the top by g dt^2 / 8 = 0.3 mm.
static int laws_restitution_flat_box(void)
{
    const float es[] = {0.5f, 1.0f};
    for (int k = 0; k < 2; k++)
    {
        ph_world *w = laws_world(ph_v3(0, -LAWS_G, 0));
        ph_body_def g = ph_default_body_def();
        g.position = ph_v3(0, -1, 0);
        g.shape = ph_make_box(ph_v3(20, 1, 20));
        g.material.restitution = es[k];
        ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &g)));
        const float drop = 1.0f;
        ph_body_def d = laws_body(ph_make_box(ph_v3(0.5f, 0.5f, 0.5f)), ph_v3(0, 0.5f + drop, 0), 0.5f);
        d.material.restitution = es[k];
        ph_body_id b = ph_body_create(w, &d);
        float apex = 0.0f;
        bool rising = false;
        for (int s = 0; s < 120; s++)
        {
            ph_world_step(w);
            float vy = ph_body_get_linear_velocity(w, b).y;
            float y = ph_body_get_position(w, b).y - 0.5f;
            if (vy > 0.5f)
                rising = true;
            if (rising)
                apex = fmaxf(apex, y);
            if (rising && vy < 0.0f)
                break;
        }
        float most = es[k] * es[k] * drop;
        fprintf(stderr, "  box dropped flat from %.2f m, e = %.1f: rebounds to %.4f m (e^2 h = %.4f m)\n",
                (double)drop, (double)es[k], (double)apex, (double)most);
        ENSURE(rising);
        ENSURE(apex <= most * 1.005f);
        ENSURE(apex >= most * 0.98f);
        ph_world_destroy(w);
    }
    return 0;
}

// A planar pyramid one cube thick (large_pyramid's layout) of `rows` rows of cubes of edge `edge`, under
// `g_scale` times Earth's gravity, sleeping off, stepped for `seconds`: a rigid wall stands for ever (its
// weight's line never leaves its base), so after the first second, while its contacts settle, nothing may
// move by 1% of a cube and its kinetic energy may not grow. Returns the drift (m) and the growth (the largest
// kinetic energy after 2 s over the largest between 1 s and 2 s).
static int run_wall(int rows, float edge, float g_scale, float seconds, float *out_drift, float *out_growth,
                    int *out_substeps)
{
    // The layout is large_pyramid's (recipe_add_pyramid), undamped and never asleep.
    recipe_scene scene;
    recipe_scene_init(&scene, "wall");
    scene.enable_sleep = false;
    recipe_material m = recipe_default_material();
    const float ground_half[3] = {100.0f, 1.0f, 100.0f}, half[3] = {0.5f * edge, 0.5f * edge, 0.5f * edge};
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    ENSURE(recipe_add_ground(&scene, ground_half, 0.0f, m) &&
           recipe_add_pyramid(&scene, origin, rows, half, 0.0f, m));
    for (int i = 0; i < scene.item_count; i++)
        scene.items[i].linear_damping = scene.items[i].angular_damping = 0.0f;
    ph_world *w = laws_world(ph_v3(0, -LAWS_G * g_scale, 0));
    ENSURE(w != NULL);
    int n = scene.item_count;
    ph_body_id *ids = malloc((size_t)n * sizeof *ids);
    ph_vec3 *p1 = malloc((size_t)n * sizeof *p1);
    ENSURE(ids && p1);
    ENSURE(spawn_recipe(w, &scene, ids) == PH_OK);
    recipe_scene_free(&scene);
    int steps = (int)(seconds / LAWS_DT), second = (int)(1.0f / LAWS_DT);
    float drift = 0.0f, settled_ke = 0.0f, late_ke = 0.0f;
    int substeps = 0;
    for (int s = 1; s <= steps; s++)
    {
        ph_world_step(w);
        if (s == second)
            for (int i = 0; i < n; i++)
                p1[i] = ph_body_get_position(w, ids[i]);
        if (s < second)
            continue;
        substeps = ph_world_get_stats(w)->solver_substeps;
        float ke = 0.0f;
        for (int i = 0; i < n; i++)
        {
            ph_vec3 v = ph_body_get_linear_velocity(w, ids[i]);
            ke += 0.5f * ph_body_get_mass(w, ids[i]) * glms_vec3_norm2(v);
            drift = fmaxf(drift, glms_vec3_norm(glms_vec3_sub(ph_body_get_position(w, ids[i]), p1[i])));
        }
        if (s <= 2 * second)
            settled_ke = fmaxf(settled_ke, ke);
        else
            late_ke = fmaxf(late_ke, ke);
    }
    *out_drift = drift;
    *out_growth = late_ke / fmaxf(settled_ke, 1e-12f);
    *out_substeps = substeps;
    free(ids);
    free(p1);
    ph_world_destroy(w);
    return 0;
}

// Tall walls stand (issue 19, item 0). Soft contacts make a wall one block thick an elastic column that
// buckles out of its plane past a height set by their frequency; the solver finds the tallest stack and
// stiffens the contacts for it. A wall's equations depend on n and g / (a w^2) alone, so a 25-row pyramid
// of 1 m cubes under 8 g asks what a 50-row one asks under 1 g (measured: it fell flat within 5 s at the
// default 45 Hz), and 0.25 m cubes under 2 g ask the same again; large_pyramid itself (100 rows) is
// physbench's.
static int laws_tall_wall_stands(void)
{
    const struct
    {
        float edge, g_scale;
    } walls[] = {{1.0f, 8.0f}, {0.25f, 2.0f}};
    for (size_t i = 0; i < sizeof walls / sizeof walls[0]; i++)
    {
        float drift, growth;
        int substeps;
        ENSURE(run_wall(25, walls[i].edge, walls[i].g_scale, 12.0f, &drift, &growth, &substeps) == 0);
        fprintf(stderr,
                "  25 rows of %.2f m cubes under %.0f g, 12 s at %d sub-steps: drift %.3f%% of a cube "
                "after 1 s, kinetic energy after 2 s at most %.2f times its most in the second before\n",
                (double)walls[i].edge, (double)walls[i].g_scale, substeps,
                100.0 * (double)drift / (double)walls[i].edge, (double)growth);
        ENSURE(drift < 0.01f * walls[i].edge);
        ENSURE(growth <= 1.0f);
    }
    return 0;
}

// Mass ratios (issue 19, item 3): a heavy box set down on a light one on the ground, sleeping off, for 30 s.
// Rigid boxes would hold the heavy one's centre at 1.5 m for ever; a soft contact sinks by its load over its
// stiffness, and a light body's small effective mass made that stiffness small (the solver now stiffens such
// contacts: solver.c, sag_need, from forces averaged over half a second, a new contact under a heavier body
// from its weight). Targets, over the whole 30 s: at 100 : 1 the heavy box at most 5 mm low, at 1000 : 1 at
// most 2 cm; at any ratio, after the first second, neither box more than 1 cm from where it was.
static int laws_mass_ratio_stack(void)
{
    const float ratios[] = {10.0f, 30.0f, 100.0f, 1000.0f};
    for (size_t k = 0; k < sizeof ratios / sizeof ratios[0]; k++)
    {
        ph_world *w = laws_world(ph_v3(0, -LAWS_G, 0));
        ENSURE(w != NULL);
        ENSURE(!PH_ID_IS_NULL(laws_ground(w, 0.6f)));
        ph_body_def d = laws_body(ph_make_box(ph_v3(0.5f, 0.5f, 0.5f)), ph_v3(0, 0.5f, 0), 0.6f);
        d.mass = 1.0f;
        ph_body_id light = ph_body_create(w, &d);
        d.position = ph_v3(0, 1.5f, 0);
        d.mass = ratios[k];
        ph_body_id heavy = ph_body_create(w, &d);
        ENSURE(!PH_ID_IS_NULL(light) && !PH_ID_IS_NULL(heavy));
        float low = 0.0f, first_low = 0.0f, drift = 0.0f;
        int second = (int)(1.0f / LAWS_DT);
        ph_vec3 light0 = ph_v3(0, 0.5f, 0), heavy0 = ph_v3(0, 1.5f, 0);
        for (int s = 1; s <= 30 * second; s++)
        {
            ph_world_step(w);
            ph_vec3 pl = ph_body_get_position(w, light), ph = ph_body_get_position(w, heavy);
            if (s == second)
            {
                light0 = pl;
                heavy0 = ph;
            }
            first_low = fmaxf(first_low, 1.5f - ph.y);
            if (s > second)
                low = fmaxf(low, 1.5f - ph.y);
            if (s > second)
                drift = fmaxf(drift, fmaxf(glms_vec3_norm(glms_vec3_sub(pl, light0)),
                                           glms_vec3_norm(glms_vec3_sub(ph, heavy0))));
        }
        fprintf(stderr,
                "  %4.0f : 1 stack, 30 s: after the first second the heavy box at most %.2f mm low, drift "
                "%.2f mm "
                "(in the first second %.2f mm low)\n",
                (double)ratios[k], 1000.0 * (double)low, 1000.0 * (double)drift, 1000.0 * (double)first_low);
        ENSURE(drift < 0.01f);
        // The sag holds from the first step: a new contact under a heavier body starts from its weight
        // (solver.c, sag_need).
        if (ratios[k] == 100.0f)
            ENSURE(low < 0.005f && first_low < 0.005f);
        if (ratios[k] == 1000.0f)
            ENSURE(low < 0.02f && first_low < 0.02f);
        ph_world_destroy(w);
    }
    return 0;
}

// A body 1000 times as dense as a stack of three boxes, dropped about 1 m onto it (issue 19, item 3): the
// stack must hold it (contacts cannot let one body through another), each box staying on the one below, and
// no box is pushed into another or into the ground by more than 5 cm, even for one step. It was 22 cm in the
// steps after the impact, before the contacts had learnt the load, until deep overlaps were projected out
// (solver.c, project_deep_contacts); before the mass-ratio stiffening the heavy box went through the stack.
// Where in a step the heavy body lands changes how deep it gets before the step ends, so it is dropped from 9
// heights over 10 cm: of 21 heights over that range, 6 sank past 5 cm (to 57 mm) and in one a box went
// through another while the projection took only the contacts deep from the start.
static int laws_heavy_drop_holds(void)
{
    float worst_all = 0.0f;
    for (int h = -4; h <= 4; h++)
    {
        ph_world *w = laws_world(ph_v3(0, -LAWS_G, 0));
        ENSURE(w != NULL);
        ENSURE(!PH_ID_IS_NULL(laws_ground(w, 0.6f)));
        ph_body_id ids[4];
        for (int i = 0; i < 3; i++)
        {
            ph_body_def d =
                laws_body(ph_make_box(ph_v3(0.5f, 0.5f, 0.5f)), ph_v3(0, 0.5f + (float)i, 0), 0.6f);
            ids[i] = ph_body_create(w, &d);
            ENSURE(!PH_ID_IS_NULL(ids[i]));
        }
        for (int s = 0; s < 120; s++)
            ph_world_step(w);
        float drop = 4.5f + 0.0125f * (float)h;
        ph_body_def d = laws_body(ph_make_box(ph_v3(0.5f, 0.5f, 0.5f)), ph_v3(0, drop, 0), 0.6f);
        d.material.density *= 1000.0f;
        ids[3] = ph_body_create(w, &d);
        ENSURE(!PH_ID_IS_NULL(ids[3]));
        float worst = 0.0f;
        for (int s = 0; s < 300; s++)
        {
            ph_world_step(w);
            float below = 0.0f; // the ground's top
            for (int i = 0; i < 4; i++)
            {
                float y = ph_body_get_position(w, ids[i]).y;
                worst = fmaxf(worst, below + 0.5f - y);
                ENSURE(y > below); // still above what it rests on
                below = y + 0.5f;
            }
        }
        ph_vec3 top = ph_body_get_position(w, ids[3]);
        fprintf(stderr,
                "  1000 times as dense, dropped from %.4f m on three boxes: the deepest overlap %.1f mm "
                "(target 50); it rests at (%.3f, %.3f)\n",
                (double)drop, 1000.0 * (double)worst, (double)top.x, (double)top.y);
        ENSURE(top.y > 3.4f && fabsf(top.x) < 0.5f && fabsf(top.z) < 0.5f);
        worst_all = fmaxf(worst_all, worst);
        ph_world_destroy(w);
    }
    ENSURE(worst_all < 0.05f);
    return 0;
}

// Size (issue 19, item 6): towers of 10 cubes of edge 1 cm to 50 m on the ground. With sleeping off, over
// 10 s after their first second no cube moves by 1% of its edge; with sleeping on, every cube is asleep
// within 10 s. Lengths in a rigid world scale: a tower of any size stands as well as any other. (At the
// default contact frequency the sag of a stack is a length, the same for every size: 1 cm cubes fell.)
static int laws_towers_of_every_size(void)
{
    const float edges[] = {0.01f, 0.1f, 1.0f, 10.0f, 50.0f};
    for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++)
    {
        float a = edges[k], drift = 0.0f, asleep_at = -1.0f;
        for (int sleep = 0; sleep < 2; sleep++)
        {
            ph_world_def wd = ph_default_world_def();
            wd.enable_sleep = sleep == 1;
            ph_world *w = ph_world_create(&wd);
            ENSURE(w != NULL);
            ph_body_def g = ph_default_body_def();
            g.position = ph_v3(0, -a, 0);
            g.shape = ph_make_box(ph_v3(20 * a, a, 20 * a));
            ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &g)));
            ph_body_id ids[10];
            ph_vec3 ref[10];
            for (int i = 0; i < 10; i++)
            {
                ph_body_def d = ph_default_body_def();
                d.type = PH_BODY_DYNAMIC;
                d.shape = ph_make_box(ph_v3(0.5f * a, 0.5f * a, 0.5f * a));
                d.position = ph_v3(0, a * (0.5f + (float)i), 0);
                ids[i] = ph_body_create(w, &d);
                ENSURE(!PH_ID_IS_NULL(ids[i]));
            }
            int second = (int)(1.0f / LAWS_DT);
            for (int s = 1; s <= 11 * second; s++)
            {
                ph_world_step(w);
                for (int i = 0; i < 10; i++)
                {
                    ph_vec3 p = ph_body_get_position(w, ids[i]);
                    if (s == second)
                        ref[i] = p;
                    else if (s > second && sleep == 0)
                        drift = fmaxf(drift, glms_vec3_norm(glms_vec3_sub(p, ref[i])));
                }
                if (sleep == 1 && asleep_at < 0.0f && ph_world_get_stats(w)->awake_body_count == 0)
                    asleep_at = (float)s * LAWS_DT;
            }
            ph_world_destroy(w);
        }
        fprintf(
            stderr,
            "  tower of 10 cubes of %g m: drift over 10 s after the first %.3f%% of an edge; asleep after "
            "%.2f s\n",
            (double)a, 100.0 * (double)(drift / a), (double)asleep_at);
        ENSURE(drift < 0.01f * a);
        ENSURE(asleep_at >= 0.0f && asleep_at <= 10.0f);
    }
    return 0;
}

// Total energy (kinetic and potential) of body b.
static double body_energy(const ph_world *w, ph_body_id b, double *out_kinetic)
{
    float m = ph_body_get_mass(w, b);
    ph_vec3 c = ph_body_get_center_of_mass(w, b), v = ph_body_get_linear_velocity(w, b);
    ph_vec3 om = ph_body_get_angular_velocity(w, b);
    ph_vec3 iw = glms_mat3_mulv(ph_body_get_world_inertia(w, b), om);
    double kinetic = 0.5 * (double)m * (double)glms_vec3_dot(v, v) + 0.5 * (double)glms_vec3_dot(om, iw);
    *out_kinetic = kinetic;
    return kinetic + (double)m * (double)LAWS_G * (double)c.y;
}

// A ball whose centre of mass is off its centre rocks on the ground like a pendulum, rolling without
// slipping: no contact force does work, so without damping its energy stays what it was (issue 19: energy
// enters nowhere). Two of them, started off balance: a sphere given an off-centre mass, and a compound ball
// of a light sphere with a dense small one inside off its centre. The contact's anchor on a sphere, its
// centre, is a point of the body that turns with it; held where it was at the step's start, the compound ball
// gained 12.5 J in 20 s (14% of its largest kinetic energy) and the sphere 0.45 J. The energy may only fall,
// or rise by float rounding and the sub-steps' error: 2% of the largest kinetic energy over 20 s. (A capsule
// off its centre of mass still gains: solver.c, rearm.)
static int laws_weighted_ball_keeps_energy(void)
{
    for (int kind = 0; kind < 2; kind++)
    {
        ph_world *w = laws_world(ph_v3(0, -LAWS_G, 0));
        ENSURE(w != NULL);
        ENSURE(!PH_ID_IS_NULL(laws_ground(w, 0.9f)));
        ph_body_def d = laws_body(ph_make_sphere(0.07f), ph_v3(0, 0.07f, 0), 0.9f);
        ph_mass_properties mp;
        if (kind == 0)
        {
            ph_convex core = ph_convex_sphere(0.07f);
            mp = ph_compute_mass(&core, 1000.0f);
            mp.center = ph_v3(0.03f, 0, 0); // in the shape's frame
            d.mass_properties = &mp;
            d.orientation =
                glms_quatv(0.5f - GLM_PI_2f, ph_v3(0, 0, 1)); // the mass 0.5 rad from straight down
        }
        else
        {
            ph_compound_child_def children[2] = {
                {ph_make_sphere(0.3f), {ph_v3(0, 0, 0), glms_quat_identity()}, 500.0f},
                {ph_make_sphere(0.1f), {ph_v3(0.15f, 0, 0), glms_quat_identity()}, 8000.0f}};
            ph_compound_def cd = ph_default_compound_def();
            cd.children = children;
            cd.child_count = 2;
            d.shape = ph_make_geom_shape(PH_SHAPE_COMPOUND, ph_world_add_compound(w, &cd));
            d.position = ph_v3(0, 0.3f, 0);
            d.orientation = glms_quatv(1.0f, ph_v3(0, 0, 1)); // the dense side 1 rad from straight up
        }
        ph_body_id b = ph_body_create(w, &d);
        ENSURE(!PH_ID_IS_NULL(b));
        double kinetic = 0.0, most_kinetic = 0.0, e0 = body_energy(w, b, &kinetic), gain = 0.0;
        for (int s = 0; s < 20 * (int)(1.0f / LAWS_DT); s++)
        {
            ph_world_step(w);
            double e = body_energy(w, b, &kinetic);
            most_kinetic = fmax(most_kinetic, kinetic);
            gain = fmax(gain, e - e0);
        }
        fprintf(stderr,
                "  %s rocking 20 s: largest kinetic energy %.4f J, energy at most %+.5f J over its start "
                "(%.2f%% of that)\n",
                kind == 0 ? "weighted sphere" : "compound weighted ball", most_kinetic, gain,
                100.0 * gain / most_kinetic);
        ENSURE(most_kinetic > 0.0); // it rocked
        ENSURE(gain <= 0.02 * most_kinetic);
        ph_world_destroy(w);
    }
    return 0;
}

// Newton's first law for round bodies at rest: a capsule lying on the ground, its axis at any heading, and a
// ball, both started still, stay still for 10 s (no damping, no sleep). A kept (recycled) manifold once left
// the ground's anchor where it was built while the capsule's turned with it, so the normal force acted
// behind the rolling axis with an arm that grew with the roll: a capsule lying at 45 degrees, given 1e-4
// rad/s by rounding, doubled its spin every four steps and rolled away at 1.3 rad/s.
static int laws_round_bodies_stay_at_rest(void)
{
    const float headings[] = {0.0f, 0.3f, 0.7854f, 1.2f};
    for (int k = 0; k < 5; k++)
    {
        ph_world *w = laws_world(ph_v3(0, -9.81f, 0));
        ENSURE(!PH_ID_IS_NULL(laws_ground(w, 0.6f)));
        bool ball = k == 4;
        ph_body_def d = laws_body(ball ? ph_make_sphere(0.07f) : ph_make_capsule(0.16f, 0.07f),
                                  ph_v3(0.0f, 0.07f, 0.0f), 0.6f);
        if (!ball) // lying down: its axis (y) turned into the ground's plane, then to the heading
            d.orientation = glms_quat_mul(glms_quatv(headings[k], ph_v3(0, 1, 0)),
                                          glms_quatv(0.5f * GLM_PIf, ph_v3(1, 0, 0)));
        ph_body_id b = ph_body_create(w, &d);
        ENSURE(!PH_ID_IS_NULL(b));
        ph_vec3 p0 = ph_body_get_position(w, b);
        float fastest = 0.0f;
        for (int s = 0; s < 600; s++)
        {
            ph_world_step(w);
            fastest = fmaxf(fastest, glms_vec3_norm(ph_body_get_angular_velocity(w, b)));
        }
        float moved = glms_vec3_distance(ph_body_get_position(w, b), p0);
        fprintf(stderr, "  %s: moved %.2e m, spin at most %.2e rad/s\n", ball ? "ball" : "capsule",
                (double)moved, (double)fastest);
        ENSURE(moved < 1e-3f && fastest < 1e-2f);
        ph_world_destroy(w);
    }
    return 0;
}

const test_case test_laws_cases[] = {
    {"laws_round_bodies_stay_at_rest", laws_round_bodies_stay_at_rest},
    {"laws_weighted_ball_keeps_energy", laws_weighted_ball_keeps_energy},
    {"laws_patch_radius", laws_patch_radius},
    {"laws_twist_cube", laws_twist_cube},
    {"laws_twist_plank", laws_twist_plank},
    {"laws_sliding_box", laws_sliding_box},
    {"laws_rolling_sphere_flat", laws_rolling_sphere_flat},
    {"laws_rolling_capsule_flat", laws_rolling_capsule_flat},
    {"laws_rolling_incline", laws_rolling_incline},
    {"laws_impact_momentum", laws_impact_momentum},
    {"laws_random_impacts_keep_momentum", laws_random_impacts_keep_momentum},
    {"laws_fast_spinners_never_gain_energy", laws_fast_spinners_never_gain_energy},
    {"laws_restitution_never_adds_energy", laws_restitution_never_adds_energy},
    {"laws_restitution_flat_box", laws_restitution_flat_box},
    {"laws_newtons_cradle", laws_newtons_cradle},
    {"laws_bouncy_heap_never_gains_energy", laws_bouncy_heap_never_gains_energy},
    {"laws_tall_wall_stands", laws_tall_wall_stands},
    {"laws_mass_ratio_stack", laws_mass_ratio_stack},
    {"laws_heavy_drop_holds", laws_heavy_drop_holds},
    {"laws_towers_of_every_size", laws_towers_of_every_size},
    {0},
};
