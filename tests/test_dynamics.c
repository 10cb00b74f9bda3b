// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// World behaviour beyond single contacts: sleeping and the three ways to wake (contact with an awake
// body, an impulse, removal of a support), kinematic bodies pushing, compound, hull and static-mesh
// shapes resting at their analytic heights, debug drawing, contact and trace queries.
#include "test.h"

#include "phys/body.h"
#include "phys/contact.h"
#include "phys/phys.h"
#include "phys/world.h"

#include <float.h>  // FLT_EPSILON
#include <string.h> // memcmp, memset

#define DYN_SETTLE_STEPS 120 // 2 s: long enough to fall asleep (0.5 s below the thresholds)

static ph_world *ground_world(void)
{
    ph_world_def wd = ph_default_world_def();
    ph_world *w = ph_world_create(&wd);
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_box(ph_v3(50, 1, 50));
    g.position = ph_v3(0, -1, 0);
    ph_body_create(w, &g);
    return w;
}

static ph_body_id box_at(ph_world *w, ph_vec3 p)
{
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.position = p;
    return ph_body_create(w, &d);
}

static void steps(ph_world *w, int n)
{
    for (int i = 0; i < n; i++)
        ph_world_step(w);
}

// A box sent from `from` at velocity v wakes `sleeper` within a second.
static bool thrown_box_wakes(ph_world *w, ph_vec3 from, ph_vec3 v, ph_body_id sleeper)
{
    ph_body_id thrown = box_at(w, from);
    if (ph_body_set_linear_velocity(w, thrown, v) != PH_OK)
        return false;
    for (int s = 0; s < 60; s++)
    {
        ph_world_step(w);
        if (ph_body_is_awake(w, sleeper))
            return true;
    }
    return false;
}

static int dynamics_sleep_and_wake(void)
{
    ph_world *w = ground_world();
    ph_body_id low = box_at(w, ph_v3(0, 0.5f, 0));
    ph_body_id high = box_at(w, ph_v3(0, 1.5f, 0));
    ph_body_id other = box_at(w, ph_v3(5, 0.5f, 0));
    steps(w, DYN_SETTLE_STEPS);
    ENSURE(!ph_body_is_awake(w, low) && !ph_body_is_awake(w, high) && !ph_body_is_awake(w, other));
    ENSURE(ph_world_get_stats(w)->sleeping_body_count == 3);
    // An impulse wakes the body and its island (the stack), not the separate box.
    ENSURE(ph_body_apply_impulse(w, low, ph_v3(0, 0, 0)) == PH_OK);
    ENSURE(ph_body_is_awake(w, low) && ph_body_is_awake(w, high) && !ph_body_is_awake(w, other));
    steps(w, DYN_SETTLE_STEPS);
    ENSURE(!ph_body_is_awake(w, high));
    // Removing the support wakes what rested on it, and it falls.
    ENSURE(ph_body_destroy(w, low) == PH_OK);
    ENSURE(ph_body_is_awake(w, high));
    steps(w, 60);
    ENSURE_NEAR(ph_body_get_position(w, high).y, 0.5f, 0.01f);
    // A thrown awake box wakes the sleeping one it hits.
    steps(w, DYN_SETTLE_STEPS);
    ENSURE(!ph_body_is_awake(w, other));
    ENSURE(thrown_box_wakes(w, ph_v3(2, 0.5f, 0), ph_v3(6, 0, 0), other));
    ph_world_destroy(w);
    return 0;
}

// The step's body counts (ph_step_stats) agree with the bodies' own state after sleeping, waking and
// removing static, sleeping and awake bodies.
static int stats_match(ph_world *w)
{
    ph_body_id ids[16];
    int n = ph_world_get_bodies(w, ids, 16), awake = 0, sleeping = 0;
    for (int i = 0; i < n; i++)
    {
        if (ph_body_get_type(w, ids[i]) == PH_BODY_STATIC)
            continue;
        if (ph_body_is_awake(w, ids[i]))
            awake++;
        else
            sleeping++;
    }
    const ph_step_stats *st = ph_world_get_stats(w);
    fprintf(stderr, "bodies %d (stats %d), awake %d (%d), sleeping %d (%d)\n", n, st->body_count, awake,
            st->awake_body_count, sleeping, st->sleeping_body_count);
    ENSURE(st->body_count == n && st->awake_body_count == awake && st->sleeping_body_count == sleeping);
    return 0;
}

static int dynamics_step_counts(void)
{
    ph_world *w = ground_world();
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_box(ph_v3(1, 1, 1));
    g.position = ph_v3(20, 5, 0);
    ph_body_id pillar = ph_body_create(w, &g);
    ph_body_id a = box_at(w, ph_v3(0, 0.5f, 0));
    ph_body_id b = box_at(w, ph_v3(5, 0.5f, 0));
    box_at(w, ph_v3(-5, 3.0f, 0));
    ph_world_step(w);
    ENSURE(stats_match(w) == 0);
    steps(w, DYN_SETTLE_STEPS);
    ENSURE(stats_match(w) == 0);
    ENSURE(ph_body_destroy(w, pillar) == PH_OK);
    ENSURE(ph_body_destroy(w, b) == PH_OK);
    ph_world_step(w);
    ENSURE(stats_match(w) == 0);
    ENSURE(ph_body_apply_impulse(w, a, ph_v3(0, 3, 0)) == PH_OK);
    ph_world_step(w);
    ENSURE(stats_match(w) == 0);
    ENSURE(ph_body_destroy(w, a) == PH_OK);
    box_at(w, ph_v3(0, 2.0f, 0));
    ph_world_step(w);
    ENSURE(stats_match(w) == 0);
    ph_world_destroy(w);
    return 0;
}

// A quiet awake box that comes to rest 1 cm from a sleeping one (inside the speculative margin, not
// touching: another island) must not wake it; it used to, every step, so that a pile next to a late
// arrival could never sleep. A box moving at it still wakes it before they touch, so that the impact is
// not lost on a body that acts as static.
static int dynamics_quiet_neighbour_does_not_wake(void)
{
    ph_world *w = ground_world();
    ph_body_id sleeper = box_at(w, ph_v3(0, 0.5f, 0));
    steps(w, DYN_SETTLE_STEPS);
    ENSURE(!ph_body_is_awake(w, sleeper));
    ph_body_id neighbour = box_at(w, ph_v3(1.01f, 0.5f, 0)); // faces 1 cm apart
    int woken_steps = 0;
    for (int s = 0; s < DYN_SETTLE_STEPS; s++)
    {
        ph_world_step(w);
        woken_steps += ph_body_is_awake(w, sleeper) ? 1 : 0;
    }
    fprintf(stderr, "quiet neighbour: sleeper awake in %d of %d steps; neighbour asleep: %d\n", woken_steps,
            DYN_SETTLE_STEPS, !ph_body_is_awake(w, neighbour));
    ENSURE(woken_steps == 0);
    ENSURE(!ph_body_is_awake(w, neighbour)); // and the neighbour fell asleep on its own
    // A box sliding at the pair wakes them.
    ENSURE(thrown_box_wakes(w, ph_v3(-3.0f, 0.5f, 0), ph_v3(8, 0, 0), sleeper));
    ph_world_destroy(w);
    return 0;
}

// A sleeper that the narrow phase wakes (a box created overlapping it) moves in that very step: the solver's
// list of awake bodies is taken after the narrow phase has woken it, so the push it gets also moves it.
static int dynamics_body_woken_by_contact_moves_at_once(void)
{
    ph_world *w = ground_world();
    ph_body_id sleeper = box_at(w, ph_v3(0, 0.5f, 0));
    steps(w, DYN_SETTLE_STEPS);
    ENSURE(!ph_body_is_awake(w, sleeper));
    ph_vec3 rest = ph_body_get_position(w, sleeper);
    box_at(w, ph_v3(0.9f, 0.5f, 0)); // overlaps the sleeper by 10 cm
    ENSURE(!ph_body_is_awake(w, sleeper));
    ph_world_step(w);
    ENSURE(ph_body_is_awake(w, sleeper));
    ENSURE(ph_body_get_linear_velocity(w, sleeper).x < 0.0f); // pushed away from the newcomer ...
    ENSURE(ph_body_get_position(w, sleeper).x < rest.x);      // ... and moved by the push already
    ph_world_destroy(w);
    return 0;
}

static int dynamics_kinematic_pushes(void)
{
    ph_world *w = ground_world();
    ph_body_def k = ph_default_body_def();
    k.type = PH_BODY_KINEMATIC;
    k.position = ph_v3(-2, 0.5f, 0);
    k.linear_velocity = ph_v3(1, 0, 0);
    ph_body_id pusher = ph_body_create(w, &k);
    ph_body_id box = box_at(w, ph_v3(0, 0.5f, 0));
    steps(w, 180);
    ph_vec3 kp = ph_body_get_position(w, pusher);
    ENSURE_NEAR(kp.x, 1.0f, 1e-3f); // moves by its velocity only
    ENSURE_NEAR(kp.y, 0.5f, 1e-5f);
    ENSURE(ph_body_get_position(w, box).x > kp.x + 0.95f); // pushed ahead, never overlapped
    ENSURE(ph_body_get_mass(w, pusher) == 0.0f);
    ph_world_destroy(w);
    return 0;
}

static int dynamics_shapes_rest(void)
{
    ph_world *w = ground_world();
    // Hull: a unit cube given as points; compound: a dumbbell of two spheres on a bar.
    ph_vec3 pts[8];
    for (int i = 0; i < 8; i++)
        pts[i] = ph_v3(i & 1 ? 0.5f : -0.5f, i & 2 ? 0.5f : -0.5f, i & 4 ? 0.5f : -0.5f);
    ph_hull_def hd = ph_default_hull_def();
    hd.points = pts;
    hd.point_count = 8;
    ph_geom_id hull = ph_world_add_hull(w, &hd);
    ph_compound_child_def kids[3];
    for (int i = 0; i < 3; i++)
    {
        kids[i].local = ph_transform_identity();
        kids[i].density = 1000.0f;
    }
    kids[0].shape = ph_make_sphere(0.3f);
    kids[0].local.p = ph_v3(-1, 0, 0);
    kids[1].shape = ph_make_sphere(0.3f);
    kids[1].local.p = ph_v3(1, 0, 0);
    kids[2].shape = ph_make_capsule(0.8f, 0.1f);
    kids[2].local.q = glms_quatv(GLM_PI_2f, ph_v3(0, 0, 1));
    ph_compound_def cd = ph_default_compound_def();
    cd.children = kids;
    cd.child_count = 3;
    ph_geom_id comp = ph_world_add_compound(w, &cd);
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.shape = ph_make_geom_shape(PH_SHAPE_HULL, hull);
    d.position = ph_v3(-4, 1.0f, 0);
    ph_body_id h = ph_body_create(w, &d);
    d.shape = ph_make_geom_shape(PH_SHAPE_COMPOUND, comp);
    d.position = ph_v3(4, 1.0f, 0);
    ph_body_id c = ph_body_create(w, &d);
    d.shape = ph_make_capsule(0.5f, 0.25f);
    d.position = ph_v3(0, 2.0f, 4);
    d.orientation = glms_quatv(GLM_PI_2f, ph_v3(1, 0, 0)); // lying down
    ph_body_id cap = ph_body_create(w, &d);
    ENSURE(!PH_ID_IS_NULL(h) && !PH_ID_IS_NULL(c) && !PH_ID_IS_NULL(cap));
    steps(w, 180);
    ENSURE_NEAR(ph_body_get_position(w, h).y, 0.5f, 0.005f);
    ENSURE_NEAR(ph_body_get_position(w, c).y, 0.3f, 0.005f); // resting on its two spheres
    ENSURE_NEAR(ph_body_get_center_of_mass(w, c).y, 0.3f, 0.005f);
    ENSURE_NEAR(ph_body_get_position(w, cap).y, 0.25f, 0.005f);
    // The compound's mass is the sum of its children's.
    float expected = 1000.0f * (2.0f * 4.0f / 3.0f * GLM_PIf * 0.027f + GLM_PIf * 0.01f * 1.6f +
                                4.0f / 3.0f * GLM_PIf * 0.001f);
    ENSURE_NEAR(ph_body_get_mass(w, c), expected, 1e-3f * expected);
    ph_world_destroy(w);
    return 0;
}

// A body whose centre of mass is off its shape's origin turns about the centre of mass, and its shape frame
// follows: p = c - q * local centre after every step (ph_body_sync_transform's long way), while a box's frame
// is at its centre (the short way). Zero gravity, no contact: the centres stay where they are.
static int dynamics_offset_centre_frame_follows(void)
{
    ph_world_def wd = ph_default_world_def();
    wd.gravity = glms_vec3_zero();
    ph_world *w = ph_world_create(&wd);
    ENSURE(w != NULL);
    ph_vec3 pts[8];
    for (int i = 0; i < 8; i++) // a box of half (0.5, 0.3, 0.2) centred at (1, 0.5, -0.25) in its frame
        pts[i] = ph_v3(1.0f + (i & 1 ? 0.5f : -0.5f), 0.5f + (i & 2 ? 0.3f : -0.3f),
                       -0.25f + (i & 4 ? 0.2f : -0.2f));
    ph_hull_def hd = ph_default_hull_def();
    hd.points = pts;
    hd.point_count = 8;
    ph_geom_id hull = ph_world_add_hull(w, &hd);
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.enable_sleep = false;
    d.linear_damping = d.angular_damping = 0.0f;
    d.shape = ph_make_geom_shape(PH_SHAPE_HULL, hull);
    d.angular_velocity = ph_v3(0.3f, 2.0f, -1.1f);
    ph_body_id h = ph_body_create(w, &d);
    d.shape = ph_make_box(ph_v3(0.5f, 0.3f, 0.2f));
    d.position = ph_v3(5, 0, 0);
    ph_body_id b = ph_body_create(w, &d);
    ENSURE(!PH_ID_IS_NULL(h) && !PH_ID_IS_NULL(b));
    ph_vec3 com_h = ph_body_get_center_of_mass(w, h), com_b = ph_body_get_center_of_mass(w, b);
    ENSURE_NEAR(com_h.x, 1.0f, 1e-5f);
    ENSURE_NEAR(com_h.y, 0.5f, 1e-5f);
    ENSURE_NEAR(com_h.z, -0.25f, 1e-5f);
    ph_vec3 local = com_h; // the local centre: the frame starts at the origin, unturned
    for (int s = 0; s < 120; s++)
    {
        ph_world_step(w);
        ph_transform xf = ph_body_get_transform(w, h);
        ph_vec3 c = ph_body_get_center_of_mass(w, h);
        ph_vec3 expected = glms_vec3_sub(c, glms_quat_rotatev(xf.q, local));
        ENSURE(glms_vec3_distance(xf.p, expected) < 1e-5f);
        ENSURE(glms_vec3_distance(c, com_h) < 1e-5f);
        // The frame has turned away from where it started (the test is not of a body at rest).
        if (s == 119)
            ENSURE(glms_vec3_distance(xf.p, ph_v3(0, 0, 0)) > 0.3f);
        ph_vec3 pb = ph_body_get_position(w, b), cb = ph_body_get_center_of_mass(w, b);
        ENSURE(memcmp(&pb, &cb, sizeof pb) == 0 && glms_vec3_distance(cb, com_b) < 1e-5f);
    }
    ph_world_destroy(w);
    return 0;
}

static int dynamics_static_mesh_floor(void)
{
    ph_world_def wd = ph_default_world_def();
    ph_world *w = ph_world_create(&wd);
    // A 20 x 20 m floor of 8 x 8 quads (128 triangles) at y = 0, counter-clockwise seen from above.
    enum
    {
        N = 8
    };
    ph_vec3 v[(N + 1) * (N + 1)];
    int idx[N * N * 6];
    for (int z = 0; z <= N; z++)
        for (int x = 0; x <= N; x++)
            v[z * (N + 1) + x] = ph_v3(-10.0f + 20.0f * (float)x / N, 0.0f, -10.0f + 20.0f * (float)z / N);
    int k = 0;
    for (int z = 0; z < N; z++)
        for (int x = 0; x < N; x++)
        {
            int a = z * (N + 1) + x, b = a + 1, c = a + N + 1, d = c + 1;
            idx[k++] = a, idx[k++] = c, idx[k++] = b;
            idx[k++] = b, idx[k++] = c, idx[k++] = d;
        }
    ph_mesh_def md = ph_default_mesh_def();
    md.vertices = v;
    md.vertex_count = (N + 1) * (N + 1);
    md.indices = idx;
    md.triangle_count = N * N * 2;
    ph_geom_id mesh = ph_world_add_mesh(w, &md);
    ENSURE(!PH_ID_IS_NULL(mesh));
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_geom_shape(PH_SHAPE_MESH, mesh);
    ph_body_id floor = ph_body_create(w, &g);
    ENSURE(!PH_ID_IS_NULL(floor));
    ph_body_id b = box_at(w, ph_v3(1.3f, 2.0f, -0.7f));
    ph_body_def s = ph_default_body_def();
    s.type = PH_BODY_DYNAMIC;
    s.shape = ph_make_sphere(0.4f);
    s.position = ph_v3(-3, 1.0f, 2);
    ph_body_id ball = ph_body_create(w, &s);
    steps(w, 150);
    ENSURE_NEAR(ph_body_get_position(w, b).y, 0.5f, 0.005f);
    ENSURE_NEAR(ph_body_get_position(w, ball).y, 0.4f, 0.005f);
    ph_ray_result r;
    ENSURE(ph_world_cast_ray(w, ph_v3(5.3f, 5, 4.6f), ph_v3(0, -1, 0), 10.0f, &r));
    ENSURE(PH_ID_EQUALS(r.body, floor));
    ENSURE_NEAR(r.distance, 5.0f, 1e-4f);
    ph_world_destroy(w);
    return 0;
}

typedef struct draw_counts
{
    int segments, points;
} draw_counts;

static void count_segment(ph_vec3 a, ph_vec3 b, uint32_t rgba, void *context)
{
    (void)a, (void)b, (void)rgba;
    ((draw_counts *)context)->segments++;
}

static void count_point(ph_vec3 p, float size, uint32_t rgba, void *context)
{
    (void)p, (void)size, (void)rgba;
    ((draw_counts *)context)->points++;
}

static int dynamics_debug_views(void)
{
    ph_world *w = ground_world();
    ph_body_id a = box_at(w, ph_v3(0, 0.5f, 0));
    steps(w, 10);
    draw_counts counts = {0, 0};
    ph_debug_draw dd = {count_segment, count_point, true, false, false, false, &counts, false};
    ph_world_debug_draw(w, &dd);
    ENSURE(counts.points == 4 && counts.segments == 4); // four contact points with their normals
    counts = (draw_counts){0, 0};
    dd.draw_contacts = false;
    dd.draw_bounds = true;
    ph_world_debug_draw(w, &dd);
    ENSURE(counts.segments == 2 * 12); // two bodies, 12 edges each
    counts = (draw_counts){0, 0};
    dd.draw_bounds = false;
    dd.draw_octree = true;
    ph_world_debug_draw(w, &dd);
    ENSURE(counts.segments > 0 && counts.segments % 12 == 0);

    // Trace of an overlapping pair: GJK reports overlap and EPA gives the depth.
    ph_body_id b = box_at(w, ph_v3(0.9f, 0.5f, 0));
    ph_pair_trace t;
    ENSURE(ph_world_trace_pair(w, a, b, &t) == PH_OK);
    ENSURE(t.overlapping);
    ENSURE_NEAR(t.distance, -0.1f, 0.01f);
    ENSURE(t.polytope.triangle_count > 0);
    ph_body_set_transform(w, b, ph_v3(3, 0.5f, 0), glms_quat_identity());
    ENSURE(ph_world_trace_pair(w, a, b, &t) == PH_OK);
    ENSURE(!t.overlapping);
    ENSURE_NEAR(t.distance, 2.0f, 1e-3f);
    ph_world_destroy(w);
    return 0;
}

// Kinetic energy of a body from the public API: m v^2 / 2 + w . (I w) / 2 (unit: J).
static double kinetic_energy(ph_world *w, ph_body_id id)
{
    ph_vec3 v = ph_body_get_linear_velocity(w, id), av = ph_body_get_angular_velocity(w, id);
    ph_vec3 iw = glms_mat3_mulv(ph_body_get_world_inertia(w, id), av);
    return 0.5 * (double)ph_body_get_mass(w, id) * (double)glms_vec3_dot(v, v) +
           0.5 * (double)glms_vec3_dot(av, iw);
}

// A world without gravity holding one undamped box of half extents `half`, orientation q and spin w
// (rad/s); NULL when either could not be made.
static ph_world *free_box_world(ph_vec3 half, ph_quat q, ph_vec3 w, ph_body_id *out_id)
{
    ph_world_def wd = ph_default_world_def();
    wd.gravity = ph_v3(0.0f, 0.0f, 0.0f);
    ph_world *world = ph_world_create(&wd);
    if (!world)
        return NULL;
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.shape = ph_make_box(half);
    d.angular_damping = 0.0f;
    d.linear_damping = 0.0f;
    d.orientation = q;
    d.angular_velocity = w;
    *out_id = ph_body_create(world, &d);
    if (PH_ID_IS_NULL(*out_id))
    {
        ph_world_destroy(world);
        return NULL;
    }
    return world;
}

// A free asymmetric box spun about a random (non-principal) axis, from slow to far faster than one
// sub-step can follow (1000 rad/s turns it 2.8 rad per sub-step): its energy must never grow. The
// implicit gyroscopic update used to land on orientations of higher energy at such speeds, and a box
// from a 250 m/s collision gained a factor of ten per step.
static int dynamics_fast_spin_energy(void)
{
    const float spins[] = {5.0f, 50.0f, 200.0f, 1000.0f, 5000.0f};
    uint64_t rng = test_seed();
    for (int k = 0; k < (int)(sizeof spins / sizeof spins[0]); k++)
    {
        ph_quat q = test_rand_quat(&rng);
        ph_vec3 spin = glms_vec3_scale(glms_vec3_normalize(test_rand_vec3(&rng, -1.0f, 1.0f)), spins[k]);
        ph_body_id id;
        ph_world *w = free_box_world(ph_v3(0.05f, 0.25f, 0.75f), q, spin, &id);
        ENSURE(w != NULL);
        double e0 = kinetic_energy(w, id), prev = e0;
        for (int s = 0; s < 120; s++)
        {
            ph_world_step(w);
            double e = kinetic_energy(w, id);
            if (!(e <= prev * (1.0 + 1e-4)))
                fprintf(stderr, "spin %g rad/s: step %d energy %.9g after %.9g\n", (double)spins[k], s, e,
                        prev);
            ENSURE(e <= prev * (1.0 + 1e-4)); // float rounding of the energy itself, no more
            prev = e;
        }
        fprintf(stderr, "spin %g rad/s: energy %.6g -> %.6g J\n", (double)spins[k], e0, prev);
        ph_world_destroy(w);
    }
    return 0;
}

// Checks every contact of the world built or recycled in the last step against a manifold built afresh at
// the poses that step started from (before[slot]): same number of points and normal, and the same deepest
// separation within tol (unit: m). Returns the number of contacts recycled, or -1 on a mismatch.
static int check_recycled(ph_world *w, const ph_transform *before, float tol)
{
    const ph_contact_set *set = &w->contacts;
    for (int k = 0; k < set->count; k++)
    {
        const ph_contact *c = &set->items[k];
        if (c->manifold.point_count == 0 || c->child_a >= 0 || c->child_b >= 0)
            continue;
        ph_convex sa, sb;
        ph_transform xa, xb;
        ph_world_child_shape(w, c->a, c->child_a, &sa, &xa);
        ph_world_child_shape(w, c->b, c->child_b, &sb, &xb);
        ph_manifold fresh;
        ph_collide_convex(&sa, before[c->a], &sb, before[c->b], c->margin, NULL, &fresh);
        float lo_kept = 1e9f, lo_fresh = 1e9f;
        for (int i = 0; i < c->manifold.point_count; i++)
            lo_kept = fminf(lo_kept, c->manifold.points[i].separation);
        for (int i = 0; i < fresh.point_count; i++)
            lo_fresh = fminf(lo_fresh, fresh.points[i].separation);
        if (fresh.point_count != c->manifold.point_count || fabsf(lo_kept - lo_fresh) > tol ||
            glms_vec3_dot(fresh.normal, c->manifold.normal) < 0.999f)
        {
            fprintf(stderr,
                    "contact %d: kept %d points (deepest %g), fresh %d points (deepest %g), normal dot %g\n",
                    k, c->manifold.point_count, (double)lo_kept, fresh.point_count, (double)lo_fresh,
                    (double)glms_vec3_dot(fresh.normal, c->manifold.normal));
            return -1;
        }
    }
    return set->recycled_count;
}

// The transform of every slot, before a step.
static void save_transforms(const ph_world *w, ph_transform *out, int capacity)
{
    for (int i = 0; i < w->body_ids.slot_count && i < capacity; i++)
        out[i] = w->bodies[i].xf;
}

// Contact recycling: a box dropped tilted onto the ground, and a second box on top, settle; from then on
// their manifolds are kept from step to step instead of being rebuilt, and the kept separations agree
// with manifolds built afresh. A body moved by hand must not keep the manifold of its old place.
static int dynamics_contact_recycling(void)
{
    ph_world *w = ground_world();
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.enable_sleep = false; // recycling is for awake, resting bodies
    d.position = ph_v3(0.0f, 0.8f, 0.0f);
    d.orientation = glms_quatv(0.2f, glms_vec3_normalize(ph_v3(1.0f, 0.0f, 1.0f)));
    ph_body_id lower = ph_body_create(w, &d);
    d.position = ph_v3(0.1f, 2.2f, 0.0f);
    ph_body_id upper = ph_body_create(w, &d);
    ENSURE(!PH_ID_IS_NULL(lower) && !PH_ID_IS_NULL(upper));
    // While the boxes land and settle, a kept manifold may miss a feature that came closer, by at most the
    // recycling distance; once they rest (the last second), kept and fresh manifolds agree to 0.1 mm.
    ph_transform before[3];
    int recycled_steps = 0;
    for (int s = 0; s < 2 * DYN_SETTLE_STEPS; s++)
    {
        save_transforms(w, before, 3);
        ph_world_step(w);
        int r = check_recycled(w, before, s < DYN_SETTLE_STEPS ? PH_CONTACT_RECYCLE_DISTANCE : 1e-4f);
        ENSURE(r >= 0);
        recycled_steps += r > 0;
    }
    fprintf(stderr, "recycling: %d of %d steps kept manifolds, %d of %d contacts in the last\n",
            recycled_steps, 2 * DYN_SETTLE_STEPS, w->contacts.recycled_count, w->contacts.count);
    ENSURE(recycled_steps > DYN_SETTLE_STEPS);
    ENSURE(w->contacts.recycled_count == 2); // ground-lower and lower-upper, both at rest

    // Lift the upper box 0.3 m and turn it: its old manifold is no longer valid and must be rebuilt.
    ph_vec3 p = ph_body_get_position(w, upper);
    ENSURE(ph_body_set_transform(w, upper, glms_vec3_add(p, ph_v3(0.0f, 0.3f, 0.0f)),
                                 glms_quatv(0.3f, ph_v3(0.0f, 1.0f, 0.0f))) == PH_OK);
    save_transforms(w, before, 3);
    ph_world_step(w);
    ENSURE(w->contacts.recycled_count <= 1);
    ENSURE(check_recycled(w, before, 1e-4f) >= 0);
    ph_world_destroy(w);
    return 0;
}

// Free asymmetric boxes of random orientation and spin (2 to 20 rad/s about a random axis): the world
// angular momentum I(q) w is kept to 1e-4 of itself over each step (2e-5 now). The implicit gyroscopic
// update used to stop after two fixed-point passes and drifted by up to 6e-4 in one step.
static int dynamics_spin_keeps_momentum(void)
{
    uint64_t rng = test_seed();
    float worst = 0.0f;
    for (int k = 0; k < 8; k++)
    {
        ph_vec3 half = test_rand_vec3(&rng, 0.05f, 1.0f);
        ph_quat q = test_rand_quat(&rng);
        float speed = test_rand_float(&rng, 2.0f, 20.0f);
        ph_vec3 spin = glms_vec3_scale(glms_vec3_normalize(test_rand_vec3(&rng, -1.0f, 1.0f)), speed);
        ph_body_id id;
        ph_world *w = free_box_world(half, q, spin, &id);
        ENSURE(w != NULL);
        for (int s = 0; s < 30; s++)
        {
            ph_vec3 l0 =
                glms_mat3_mulv(ph_body_get_world_inertia(w, id), ph_body_get_angular_velocity(w, id));
            ph_world_step(w);
            ph_vec3 l1 =
                glms_mat3_mulv(ph_body_get_world_inertia(w, id), ph_body_get_angular_velocity(w, id));
            worst = fmaxf(worst, glms_vec3_distance(l0, l1) / glms_vec3_norm(l0));
        }
        ph_world_destroy(w);
    }
    fprintf(stderr, "largest change of angular momentum in one step: %.3g of itself\n", (double)worst);
    ENSURE(worst <= 1e-4f);
    return 0;
}

// ph_body_gyro_solve is the implicit midpoint rule on Euler's equations: the angular velocity w it gives
// for momentum l at orientation q1 turns the body to q2 = ph_integrate_rotation(q1, w, h), and in the body
// frame of q1, I w must be the mean of the body-frame momenta before and after, (R1^T l + R2^T l) / 2. Then
// the energy l . I^-1 l in the body frame is the same at q1 and q2. Checked here from the quaternions alone,
// for random inertia tensors (half in their principal axes, half turned to full tensors; principal moments
// within a factor 10: the two forms of the solve), orientations
// and momenta turning the body up to 0.5 rad in the sub-step. (The update this replaced took the w at the
// end of the turn, I^-1 R2^T l, which keeps |l| but not the energy.)
static ph_vec3 to_frame(ph_quat q, ph_vec3 v)
{
    return glms_quat_rotatev(glms_quat_inv(q), v);
}

static int dynamics_gyro_solve_is_implicit_midpoint(void)
{
    uint64_t rng = test_seed();
    const float h = 1.0f / 300.0f;
    float worst = 0.0f, worst_diagonal = 0.0f, worst_energy = 0.0f;
    for (int k = 0; k < 300; k++)
    {
        // Even cases in principal axes (the diagonal solve of boxes and capsules), odd ones turned (the
        // general solve of hulls and compounds).
        ph_quat axes = k % 2 == 0 ? glms_quat_identity() : test_rand_quat(&rng);
        ph_mat3 diag = glms_mat3_zero();
        for (int i = 0; i < 3; i++)
            diag.col[i].raw[i] = test_rand_float(&rng, 0.2f, 2.0f);
        ph_mat3 inertia = ph_world_inv_inertia(axes, diag); // R D R^T: a symmetric positive tensor
        ph_mat3 inv_inertia = ph_inverse_inertia(inertia);
        ph_quat q1 = test_rand_quat(&rng);
        float speed = test_rand_float(&rng, 0.1f, 0.5f / h);
        ph_vec3 spin = glms_vec3_scale(glms_vec3_normalize(test_rand_vec3(&rng, -1.0f, 1.0f)), speed);
        ph_vec3 l = ph_world_tensor_mulv(q1, inertia, spin);
        ph_vec3 w = ph_body_gyro_solve(q1, &inertia, &inv_inertia, l, h);
        ph_quat q2 = ph_integrate_rotation(q1, w, h);
        ph_vec3 lb1 = to_frame(q1, l), lb2 = to_frame(q2, l);
        ph_vec3 mean = glms_vec3_scale(glms_vec3_add(lb1, lb2), 0.5f);
        float miss = glms_vec3_distance(glms_mat3_mulv(inertia, to_frame(q1, w)), mean) / glms_vec3_norm(l);
        worst = fmaxf(worst, miss);
        if (k % 2 == 0)
            worst_diagonal = fmaxf(worst_diagonal, miss);
        float e1 = glms_vec3_dot(lb1, glms_mat3_mulv(inv_inertia, lb1));
        float e2 = glms_vec3_dot(lb2, glms_mat3_mulv(inv_inertia, lb2));
        worst_energy = fmaxf(worst_energy, fabsf(e2 / e1 - 1.0f));
    }
    fprintf(stderr,
            "largest miss of the midpoint momentum %.3g of |L| (principal axes %.3g), energy change %.3g\n",
            (double)worst, (double)worst_diagonal, (double)worst_energy);
    ENSURE(worst <= 2e-5f);
    ENSURE(worst_energy <= 1e-5f);
    return 0;
}

// The Dzhanibekov effect: a box 0.1 x 0.5 x 1.5 m spun at 8 rad/s about its intermediate axis, 0.1 % off,
// flips over and back again and again. The reference integrates Euler's equations for the body-frame
// angular velocity with RK4 in double at 1e-4 s; a flip is a reversal of the intermediate axis's component
// of w, from above 90 % of its start to below -90 % or back. The simulation (default world, 5 sub-steps of a
// 60 Hz step) must make its first flip within 2 % of the reference's time, keep flipping (4 or more in 12 s,
// as the reference), and keep its kinetic energy to 1e-3 (measured: 1.2e-4). The later flip times are not
// compared: the orbit passes within 1e-6 (in relative energy) of the separatrix, where the time between flips
// grows with the log of the inverse distance, so rounding of the energy at 1e-5 already moves them by tenths
// of a second. The update this replaced (the angular velocity at the end of each sub-step's turn) lost energy
// every step, 10 % in 10 s: the box drifted into a spin about its axis of largest inertia and stopped
// flipping.
static void euler_rate(const double moment[3], const double w[3], double out[3])
{
    out[0] = (moment[1] - moment[2]) * w[1] * w[2] / moment[0];
    out[1] = (moment[2] - moment[0]) * w[2] * w[0] / moment[1];
    out[2] = (moment[0] - moment[1]) * w[0] * w[1] / moment[2];
}

#define SPINNER_FLIPS 16
#define SPINNER_REVERSED 0.9
static int reference_flips(const double moment[3], const double w0[3], double seconds, double *times)
{
    double w[3] = {w0[0], w0[1], w0[2]}, dt = 1e-4, sign = 1.0;
    int count = 0;
    for (double t = 0.0; t < seconds && count < SPINNER_FLIPS; t += dt)
    {
        double k1[3], k2[3], k3[3], k4[3], tmp[3];
        euler_rate(moment, w, k1);
        for (int i = 0; i < 3; i++)
            tmp[i] = w[i] + 0.5 * dt * k1[i];
        euler_rate(moment, tmp, k2);
        for (int i = 0; i < 3; i++)
            tmp[i] = w[i] + 0.5 * dt * k2[i];
        euler_rate(moment, tmp, k3);
        for (int i = 0; i < 3; i++)
            tmp[i] = w[i] + dt * k3[i];
        euler_rate(moment, tmp, k4);
        for (int i = 0; i < 3; i++)
            w[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        if (w[1] * sign < -SPINNER_REVERSED * w0[1])
        {
            sign = -sign;
            times[count++] = t + dt;
        }
    }
    return count;
}

static int dynamics_spinner_keeps_flipping(void)
{
    const ph_vec3 half = ph_v3(0.05f, 0.25f, 0.75f);
    const ph_vec3 spin = ph_v3(8e-3f, 8.0f, 8e-3f);
    const double seconds = 12.0;
    double moment[3]; // principal moments of a box over its mass, (b^2 + c^2) / 3 for half extents
    for (int i = 0; i < 3; i++)
    {
        double b = (double)half.raw[(i + 1) % 3], c = (double)half.raw[(i + 2) % 3];
        moment[i] = (b * b + c * c) / 3.0;
    }
    double w0[3] = {(double)spin.x, (double)spin.y, (double)spin.z}, want[SPINNER_FLIPS], got[SPINNER_FLIPS];
    int want_count = reference_flips(moment, w0, seconds, want);

    ph_body_id id;
    ph_world *w = free_box_world(half, glms_quat_identity(), spin, &id);
    ENSURE(w != NULL);
    double e0 = kinetic_energy(w, id), worst_energy = 0.0;
    int got_count = 0;
    double sign = 1.0, threshold = -SPINNER_REVERSED * (double)spin.y;
    ph_vec3 prev = spin;
    for (int s = 0; s < (int)(seconds * 60.0); s++)
    {
        ph_world_step(w);
        ph_vec3 wb = to_frame(ph_body_get_orientation(w, id), ph_body_get_angular_velocity(w, id));
        if ((double)wb.y * sign < threshold && got_count < SPINNER_FLIPS)
        {
            // Linear interpolation of the crossing inside the step.
            double a = (double)prev.y * sign - threshold, b = (double)wb.y * sign - threshold;
            got[got_count++] = ((double)s + a / (a - b)) / 60.0;
            sign = -sign;
        }
        prev = wb;
        worst_energy = fmax(worst_energy, fabs(kinetic_energy(w, id) / e0 - 1.0));
    }
    ph_world_destroy(w);
    fprintf(stderr, "flips in %.0f s: %d (reference %d), energy within %.2g\n", seconds, got_count,
            want_count, worst_energy);
    for (int i = 0; i < got_count || i < want_count; i++)
        fprintf(stderr, "  flip %d at %.3f s (reference %.3f s)\n", i, i < got_count ? got[i] : -1.0,
                i < want_count ? want[i] : -1.0);
    ENSURE(want_count >= 4);
    ENSURE(got_count >= 4);
    ENSURE(fabs(got[0] - want[0]) <= 0.02 * want[0]);
    ENSURE(worst_energy <= 1e-3);
    return 0;
}

// Bodies of any size spin: a 500 m box of water (inertia ~1e19 kg m^2) and a 1 mm one. The inverse
// inertia of the large one used to overflow in float (the determinant) and come out zero, so it could
// not rotate at all.
static int dynamics_huge_and_tiny_bodies_spin(void)
{
    const float halves[] = {250.0f, 0.0005f};
    for (int k = 0; k < 2; k++)
    {
        // Spun about a principal axis: it keeps 1 rad/s.
        ph_body_id id;
        ph_world *w = free_box_world(ph_v3(halves[k], 0.5f * halves[k], 0.25f * halves[k]),
                                     glms_quat_identity(), ph_v3(0.0f, 1.0f, 0.0f), &id);
        ENSURE(w != NULL);
        for (int s = 0; s < 10; s++)
            ph_world_step(w);
        float spin = glms_vec3_norm(ph_body_get_angular_velocity(w, id));
        fprintf(stderr, "box of half %g m: spin after 10 steps %.6f rad/s\n", (double)halves[k],
                (double)spin);
        ENSURE_NEAR(spin, 1.0f, 1e-4f);
        ph_world_destroy(w);
    }
    return 0;
}

// An impulse at a point of a body that has been tumbling for a few steps changes its angular velocity by
// I^-1 (r x J), with I the world inertia of the orientation it has now (the solver keeps the state's copy
// of the inverse inertia up to date only for bodies in contact or under a torque).
static int dynamics_point_impulse_uses_current_inertia(void)
{
    ph_world_def wd = ph_default_world_def();
    wd.gravity = ph_v3(0, 0, 0);
    ph_world *w = ph_world_create(&wd);
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.shape = ph_make_box(ph_v3(0.2f, 0.5f, 1.0f));
    // Slow enough that float rounding of w (ulp 1.2e-7 rad/s) stays far below the bound on dw, 70 steps to
    // turn as far as 11.5 rad/s would in 7.
    d.angular_velocity = ph_v3(0.4f, 0.9f, -0.6f);
    d.angular_damping = 0.0f;
    ph_body_id b = ph_body_create(w, &d);
    for (int s = 0; s < 70; s++)
        ph_world_step(w);
    ph_vec3 c = ph_body_get_center_of_mass(w, b), w0 = ph_body_get_angular_velocity(w, b);
    ph_vec3 r = ph_v3(0.1f, 0.4f, -0.3f), impulse = ph_v3(2.0f, -1.0f, 3.0f);
    ENSURE(ph_body_apply_impulse_at_point(w, b, impulse, glms_vec3_add(c, r)) == PH_OK);
    ph_vec3 dw = glms_vec3_sub(ph_body_get_angular_velocity(w, b), w0);
    ph_vec3 want =
        glms_mat3_mulv(glms_mat3_inv(ph_body_get_world_inertia(w, b)), glms_vec3_cross(r, impulse));
    fprintf(stderr, "point impulse on a tumbling box: |dw - want| %.2e of %.2e rad/s\n",
            (double)glms_vec3_distance(dw, want), (double)glms_vec3_norm(want));
    ENSURE(glms_vec3_distance(dw, want) < 1e-4f * glms_vec3_norm(want));
    ph_world_destroy(w);
    return 0;
}

// ph_body_integrate_position turns a body exactly as ph_integrate_rotation does, bit for bit, whatever a
// vector store left in the pad after w (it writes the quaternion product out on the components instead of
// building (w, 0) in memory). Random orientations, spins up to 100 rad/s and sub-steps up to 1/60 s.
static int dynamics_position_turn_is_integrate_rotation(void)
{
    uint64_t rng = test_seed();
    ph_body body;
    memset(&body, 0, sizeof body);
    body.type = PH_BODY_DYNAMIC;
    int mismatches = 0;
    for (int i = 0; i < 1000; i++)
    {
        ph_body_state st;
        memset(&st, 0, sizeof st);
        st.v = test_rand_vec3(&rng, -10.0f, 10.0f);
        st.w = test_rand_vec3(&rng, -100.0f, 100.0f);
        st.inv_inertia_scale = test_rand_float(&rng, -1.0f, 1.0f);
        st.dq = test_rand_quat(&rng);
        float h = test_rand_float(&rng, 1e-4f, 1.0f / 60.0f);
        ph_quat expect = ph_integrate_rotation(st.dq, st.w, h);
        ph_body_integrate_position(&body, &st, ph_v3(0.0f, -9.81f, 0.0f), h, false);
        if (memcmp(&expect, &st.dq, sizeof expect) != 0 && mismatches++ < 3)
            fprintf(stderr, "case %d: (%.9g %.9g %.9g %.9g) != (%.9g %.9g %.9g %.9g)\n", i, (double)st.dq.x,
                    (double)st.dq.y, (double)st.dq.z, (double)st.dq.w, (double)expect.x, (double)expect.y,
                    (double)expect.z, (double)expect.w);
    }
    ENSURE(mismatches == 0);
    return 0;
}

// While the broadphase reports last step's pairs again, the contacts stay where they are (no merge into
// the other buffer), keep their accumulated impulses, and a new pair still gets a fresh contact in order.
static int dynamics_unchanged_pairs_keep_contacts_in_place(void)
{
    ph_world *w = ground_world();
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.enable_sleep = false;
    d.position = ph_v3(0.0f, 0.5f, 0.0f);
    ph_body_id box = ph_body_create(w, &d);
    ENSURE(!PH_ID_IS_NULL(box));
    steps(w, 30);
    const ph_contact *items = w->contacts.items;
    ENSURE(w->contacts.count == 1 && items[0].manifold.point_count == 4);
    for (int s = 0; s < 10; s++)
    {
        ph_world_step(w);
        float held = 0.0f;
        for (int i = 0; i < w->contacts.items[0].manifold.point_count; i++)
            held += w->contacts.items[0].normal_impulse[i];
        fprintf(stderr, "step %d: contacts at %p (first at %p), normal impulse %g N s\n", s,
                (const void *)w->contacts.items, (const void *)items, (double)held);
        ENSURE(w->contacts.items == items && w->contacts.count == 1);
        // At rest the contact carries the box's weight over a sub-step, m g h, carried from step to step.
        float weight = ph_body_get_mass(w, box) * -ph_world_get_gravity(w).y * w->last_h;
        ENSURE_NEAR(held, weight, 0.01f * weight);
    }
    // A second box dropped beside the first: a new pair, merged in key order with a zeroed contact.
    d.position = ph_v3(3.0f, 0.52f, 0.0f);
    ph_body_id second = ph_body_create(w, &d);
    ph_world_step(w);
    ENSURE(w->contacts.count == 2 && w->contacts.items[0].key < w->contacts.items[1].key);
    ENSURE(w->contacts.items[0].normal_impulse[0] > 0.0f && w->contacts.items[1].b == (int)second.index1 - 1);
    ph_world_destroy(w);
    return 0;
}

// A step without broadphase pairs has no contacts: a box resting on the ground, then lifted far above it,
// leaves no contact behind (5 m is beyond every margin), and the narrow phase, with nothing to do, is
// skipped: its stages (manifold and narrow phase) are not timed at all, not even the clock reads that would
// bracket an empty loop.
static int dynamics_no_pairs_skips_narrow_phase(void)
{
    ph_world *w = ground_world();
    ph_body_id box = box_at(w, ph_v3(0.0f, 0.5f, 0.0f));
    steps(w, 10);
    const ph_step_stats *st = ph_world_get_stats(w);
    ENSURE(w->contacts.count == 1 && st->pair_count == 1 && st->contact_point_count > 0);
    ENSURE(ph_body_set_transform(w, box, ph_v3(0.0f, 5.0f, 0.0f), glms_quat_identity()) == PH_OK);
    ph_world_step(w);
    fprintf(stderr, "pairs %d, contacts %d (%d points), manifold %g ms, narrow phase %g ms\n", st->pair_count,
            w->contacts.count, ph_world_get_contacts(w, NULL, 0), (double)st->ms_stage[PH_STAGE_MANIFOLD],
            (double)st->ms_stage[PH_STAGE_NARROWPHASE]);
    ENSURE(st->pair_count == 0 && w->contacts.count == 0 && ph_world_get_contacts(w, NULL, 0) == 0);
    ENSURE(st->manifold_count == 0 && st->contact_point_count == 0 && w->contacts.recycled_count == 0);
    ENSURE(st->ms_stage[PH_STAGE_MANIFOLD] == 0.0f && st->ms_stage[PH_STAGE_NARROWPHASE] == 0.0f);
    // The box falls back and lands (in 1 s), and the pair and its contact come back while it settles.
    steps(w, 80);
    ENSURE(st->pair_count == 1 && w->contacts.count == 1 && st->contact_point_count > 0);
    ENSURE_NEAR(ph_body_get_position(w, box).y, 0.5f, 0.01f);
    ph_world_destroy(w);
    return 0;
}

// The bodies of free_flight_bodies, in flight far from anything, in every world of the test below.
static void free_flight_bodies(ph_world *w, ph_body_id *out)
{
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    // A thin box spun near its middle axis, fast enough (8 rad/s) for the solver's inertia refresh when
    // a torque is applied; undamped.
    d.shape = ph_make_box(ph_v3(0.05f, 0.25f, 0.75f));
    d.position = ph_v3(-50, 20, 0);
    d.angular_velocity = ph_v3(0.01f, 8, 0.02f);
    d.linear_velocity = ph_v3(1, 3, 0);
    d.linear_damping = d.angular_damping = 0.0f;
    out[0] = ph_body_create(w, &d);
    // A damped capsule turning slowly, and a sphere (isotropic: no gyroscopic term) spinning fast.
    d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.shape = ph_make_capsule(0.2f, 0.6f);
    d.position = ph_v3(-50, 20, 10);
    d.orientation = glms_quat_normalize(glms_quat_init(0.3f, -0.2f, 0.1f, 0.9f));
    d.angular_velocity = ph_v3(0.5f, -1.5f, 2.0f);
    out[1] = ph_body_create(w, &d);
    d.shape = ph_make_sphere(0.4f);
    d.position = ph_v3(-50, 20, -10);
    d.angular_velocity = ph_v3(30, 0, -20);
    out[2] = ph_body_create(w, &d);
    // A kinematic box moving and turning.
    d = ph_default_body_def();
    d.type = PH_BODY_KINEMATIC;
    d.position = ph_v3(-50, 40, 0);
    d.linear_velocity = ph_v3(0, 0, 1);
    d.angular_velocity = ph_v3(0, 2, 1);
    out[3] = ph_body_create(w, &d);
    // A cube dropped level (no turn at all: ph_body_fly_steady keeps its orientation without turning it),
    // damped, and a sphere spun past the most turn a sub-step allows (capped in every sub-step) with angular
    // damping.
    d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.position = ph_v3(-50, 20, 20);
    d.linear_velocity = ph_v3(0.5f, 2, -1);
    d.linear_damping = 0.3f;
    out[4] = ph_body_create(w, &d);
    d.shape = ph_make_sphere(0.3f);
    d.position = ph_v3(-50, 20, -20);
    d.linear_damping = 0.0f;
    d.angular_damping = 0.2f;
    d.angular_velocity = ph_v3(200, -150, 90);
    out[5] = ph_body_create(w, &d);
}

#define FREE_FLIGHT_BODIES 6

// White box: one step of a body in free flight (no torque applied during it), by the solver's sub-step loop
// written out: from the step's start pose, per sub-step ph_body_integrate_velocity (a dynamic body; the first
// sub-step carried through `last_h`) then ph_body_integrate_position. Advances body and st as the step would.
static void substep_loop(const ph_world_def *def, float last_h, ph_body *body, ph_body_state *st)
{
    float h = def->time_step / (float)def->substeps;
    if (body->type == PH_BODY_DYNAMIC)
        ph_body_state_set_inv_inertia(st, ph_body_world_inv_inertia(body, body->xf.q));
    body->q0 = body->xf.q;
    st->dp = glms_vec3_zero();
    st->dq = glms_quat_identity();
    for (int s = 0; s < def->substeps; s++)
    {
        if (body->type == PH_BODY_DYNAMIC)
            ph_body_integrate_velocity(body, st, def->gravity, h, s > 0 ? h : last_h);
        ph_body_integrate_position(body, st, def->gravity, h, true);
    }
    body->center = glms_vec3_add(body->center, st->dp);
    body->xf.q = glms_quat_normalize(glms_quat_mul(st->dq, body->q0));
    body->xf = ph_body_frame(body, body->center, body->xf.q);
}

// The pose and velocities (linear, angular) the coming step gives a body in free flight, by substep_loop.
static void free_flight_reference(const ph_world *w, ph_body_id id, ph_transform *xf, ph_vec3 v[2])
{
    int slot = (int)id.index1 - 1;
    ph_body body = w->bodies[slot];
    ph_body_state st = w->states[slot];
    float h = w->def.time_step / (float)w->def.substeps;
    substep_loop(&w->def, w->last_h, &body, &st);
    *xf = body.xf;
    v[0] = st.v;
    v[1] = ph_body_angular_velocity_now(&body, st.w, h);
}

// A step without contact constraints takes ph_solve's short path (no constraint machinery, each body's
// sub-steps at once). Its bodies must move bit for bit as the general path moves bodies in free flight: the
// same bodies alone (no contact: the short path), beside a box resting on the ground far away (a contact
// constraint: the general path), and beside a kinematic box sliding on the ground (a contact, but no
// constraint: the short path after the contact stage). Forces and torques are applied every step, the
// torque on the fast spinning box (the general path then refreshes its world inverse inertia). The general
// path, which lets the bodies in free flight run their sub-steps at once too, is checked against the
// sub-step loop written out (free_flight_reference).
static int dynamics_free_flight_path_matches_solver(void)
{
    ph_world *worlds[3];
    ph_body_id ids[3][FREE_FLIGHT_BODIES];
    for (int k = 0; k < 3; k++)
    {
        ph_world_def wd = ph_default_world_def();
        worlds[k] = ph_world_create(&wd);
        ENSURE(worlds[k] != NULL);
        free_flight_bodies(worlds[k], ids[k]);
        if (k == 0)
            continue;
        ph_body_def g = ph_default_body_def();
        g.shape = ph_make_box(ph_v3(5, 1, 5));
        g.position = ph_v3(50, -1, 0);
        ENSURE(!PH_ID_IS_NULL(ph_body_create(worlds[k], &g)));
        ph_body_def d = ph_default_body_def();
        d.type = k == 1 ? PH_BODY_DYNAMIC : PH_BODY_KINEMATIC;
        d.enable_sleep = false;
        d.position = ph_v3(50, 0.5f, 0);
        d.linear_velocity = ph_v3(0, 0, k == 1 ? 0.0f : 0.5f);
        ENSURE(!PH_ID_IS_NULL(ph_body_create(worlds[k], &d)));
    }
    for (int s = 0; s < 90; s++)
    {
        ph_transform expected[FREE_FLIGHT_BODIES];
        ph_vec3 expected_v[FREE_FLIGHT_BODIES][2];
        for (int k = 0; k < 3; k++)
        {
            ENSURE(ph_body_apply_torque(worlds[k], ids[k][0], ph_v3(0.02f, 0, -0.03f)) == PH_OK);
            ENSURE(ph_body_apply_force_at_point(worlds[k], ids[k][1], ph_v3(3, 0, 1),
                                                ph_v3(-50, 20.5f, 10)) == PH_OK);
            if (k == 1)
                for (int i = 0; i < FREE_FLIGHT_BODIES; i++)
                    free_flight_reference(worlds[k], ids[k][i], &expected[i], expected_v[i]);
            ph_world_step(worlds[k]);
        }
        // The general path against the sub-step loop written out.
        for (int i = 0; i < FREE_FLIGHT_BODIES; i++)
        {
            ph_transform got = ph_body_get_transform(worlds[1], ids[1][i]);
            ph_vec3 got_v[2] = {ph_body_get_linear_velocity(worlds[1], ids[1][i]),
                                ph_body_get_angular_velocity(worlds[1], ids[1][i])};
            ENSURE(memcmp(&got.p, &expected[i].p, sizeof got.p) == 0);
            ENSURE(memcmp(&got.q, &expected[i].q, sizeof got.q) == 0);
            ENSURE(memcmp(got_v, expected_v[i], sizeof got_v) == 0);
        }
        const ph_step_stats *free_st = ph_world_get_stats(worlds[0]), *solved = ph_world_get_stats(worlds[1]),
                            *unsolved = ph_world_get_stats(worlds[2]);
        ENSURE(free_st->pair_count == 0);
        ENSURE(solved->contact_point_count > 0 && unsolved->contact_point_count > 0);
        for (int k = 1; k < 3; k++)
            for (int i = 0; i < FREE_FLIGHT_BODIES; i++)
            {
                ph_transform a = ph_body_get_transform(worlds[0], ids[0][i]);
                ph_transform b = ph_body_get_transform(worlds[k], ids[k][i]);
                ph_vec3 va[2] = {ph_body_get_linear_velocity(worlds[0], ids[0][i]),
                                 ph_body_get_angular_velocity(worlds[0], ids[0][i])};
                ph_vec3 vb[2] = {ph_body_get_linear_velocity(worlds[k], ids[k][i]),
                                 ph_body_get_angular_velocity(worlds[k], ids[k][i])};
                // The solver's world inverse inertia (white box: refreshed during the step, not read after
                // it).
                ph_mat3 ia = worlds[0]->states[ids[0][i].index1 - 1].inv_inertia;
                ph_mat3 ib = worlds[k]->states[ids[k][i].index1 - 1].inv_inertia;
                ENSURE(memcmp(&a.p, &b.p, sizeof a.p) == 0 && memcmp(&a.q, &b.q, sizeof a.q) == 0);
                ENSURE(memcmp(va, vb, sizeof va) == 0);
                ENSURE(memcmp(&ia, &ib, sizeof ia) == 0);
            }
    }
    // The spinning box still turns (the comparison is not of bodies at rest).
    ENSURE(glms_vec3_norm(ph_body_get_angular_velocity(worlds[0], ids[0][0])) > 7.0f);
    for (int k = 0; k < 3; k++)
        ph_world_destroy(worlds[k]);
    return 0;
}

// Bodies in free flight under no torque (the body-frame path, ph_body_fly_torque_free), far apart: asymmetric
// boxes of random size, orientation and spin (2 to 60 rad/s about a random axis; the second damped), a hull
// of random points whose inertia is off its axes (the general solve), and a box turning slower than
// BODY_GYRO_MIN_SPEED (no gyroscopic step: it takes the plain loop). Gravity acts on them all.
#define TORQUE_FREE_BODIES 5
static void torque_free_bodies(ph_world *w, uint64_t *rng, ph_body_id *out)
{
    ph_vec3 pts[12];
    for (int i = 0; i < 12; i++)
        pts[i] = test_rand_vec3(rng, -0.6f, 0.6f);
    ph_hull_def hd = ph_default_hull_def();
    hd.points = pts;
    hd.point_count = 12;
    ph_geom_id hull = ph_world_add_hull(w, &hd);
    for (int i = 0; i < TORQUE_FREE_BODIES; i++)
    {
        ph_body_def d = ph_default_body_def();
        d.type = PH_BODY_DYNAMIC;
        d.shape =
            i == 3 ? ph_make_geom_shape(PH_SHAPE_HULL, hull) : ph_make_box(test_rand_vec3(rng, 0.05f, 1.0f));
        d.position = ph_v3(20.0f * (float)i, 100.0f, 0.0f);
        d.orientation = test_rand_quat(rng);
        float speed = i == 4 ? 5e-4f : test_rand_float(rng, 2.0f, 60.0f);
        d.angular_velocity = glms_vec3_scale(glms_vec3_normalize(test_rand_vec3(rng, -1.0f, 1.0f)), speed);
        d.linear_velocity = test_rand_vec3(rng, -3.0f, 3.0f);
        d.linear_damping = i == 1 ? 0.3f : 0.0f;
        d.angular_damping = i == 1 ? 0.5f : 0.0f;
        d.enable_sleep = false;
        out[i] = ph_body_create(w, &d);
    }
}

// A torque-free body in free flight keeps its rotation in the body frame through the step
// (ph_body_fly_torque_free) instead of turning its angular velocity into the body frame and back in every
// sub-step: the same motion up to float rounding. Each step is checked against the sub-step loop written out
// (substep_loop) from the same start. The linear motion is the same arithmetic: the centre and velocity must
// match bit for bit. The bounds on the rotation, with u = 2^-24 the unit roundoff and S sub-steps of h:
// - A turn of a vector by a quaternion (to_body, to_world, Rodrigues' formula with its 1/|q|^2) or the
//   product of two quaternions with a normalisation: sums of at most four products of unit-size factors,
//   each within 8 u of its size. The world chain turns w in and out in every sub-step (2 turns); the body
//   chain once per step (2 turns, and the API's read of the velocity now is the same function on both).
// - The momentum over the inertia a sub-step solves from: the body chain forms it from wb in one
//   expression (t_i = wb_i - k_i wb_j wb_k), the loop by I wb, a cross product, the momentum and lb / m:
//   within 4 u |w| of each other.
// - The solve: both stop once the residual is below BODY_GYRO_RESIDUAL of |w|, and its Jacobian is the
//   identity to within h |w|, so the two land within 2 BODY_GYRO_RESIDUAL |w| of each other.
// - A difference carried into the next sub-step grows by at most (1 + h |w|) (the sub-step's map is the
//   identity to within h |w|, as the Jacobian).
//   So |dw| <= (S (20 u + 2 BODY_GYRO_RESIDUAL) + 16 u) (1 + h |w|)^S |w|.
// - The orientation: per sub-step each chain makes one product and the world chain a normalisation (16 u);
//   at the end up to four more products and normalisations (32 u); and the turn itself differs by
//   h |dw| per sub-step, dt |dw| in all: |dq| <= 16 u S + 32 u + dt |dw|.
// A wrong chain (the turn on the wrong side, the momentum not carried from one sub-step into the next, the
// world velocity turned out at the wrong orientation) misses by O(h |w|), 1e-3 to 1e-1 here.
static float quat_distance(ph_quat a, ph_quat b)
{
    float x = a.x - b.x, y = a.y - b.y, z = a.z - b.z, s = a.w - b.w;
    return sqrtf(x * x + y * y + z * z + s * s);
}

static int dynamics_body_frame_flight_matches_substeps(void)
{
    ph_world_def wd = ph_default_world_def();
    ph_world *w = ph_world_create(&wd);
    ENSURE(w != NULL);
    uint64_t rng = test_seed();
    ph_body_id ids[TORQUE_FREE_BODIES];
    torque_free_bodies(w, &rng, ids);
    const float u = 0.5f * FLT_EPSILON;
    const int substeps = wd.substeps;
    const float h = wd.time_step / (float)substeps;
    ENSURE(!w->bodies[ids[3].index1 - 1].diagonal && w->bodies[ids[0].index1 - 1].diagonal);
    float worst_w = 0.0f, worst_q = 0.0f; // the largest miss over its bound
    for (int s = 0; s < 120; s++)
    {
        ph_body ref[TORQUE_FREE_BODIES];
        ph_body_state ref_st[TORQUE_FREE_BODIES];
        for (int i = 0; i < TORQUE_FREE_BODIES; i++)
        {
            ref[i] = w->bodies[ids[i].index1 - 1];
            ref_st[i] = w->states[ids[i].index1 - 1];
            substep_loop(&w->def, w->last_h, &ref[i], &ref_st[i]);
        }
        ph_world_step(w);
        ENSURE(ph_world_get_stats(w)->pair_count == 0);
        for (int i = 0; i < TORQUE_FREE_BODIES; i++)
        {
            const ph_body *b = &w->bodies[ids[i].index1 - 1];
            const ph_body_state *st = &w->states[ids[i].index1 - 1];
            ENSURE(memcmp(&b->center, &ref[i].center, sizeof b->center) == 0);
            ENSURE(memcmp(&st->v, &ref_st[i].v, sizeof st->v) == 0);
            ph_vec3 got_w = ph_body_get_angular_velocity(w, ids[i]);
            ph_vec3 want_w = ph_body_angular_velocity_now(&ref[i], ref_st[i].w, h);
            float speed = glms_vec3_norm(want_w);
            float grow = powf(1.0f + h * speed, (float)substeps);
            float bound_w =
                ((float)substeps * (20.0f * u + 2.0f * BODY_GYRO_RESIDUAL) + 16.0f * u) * grow * speed;
            float bound_q = 16.0f * u * (float)substeps + 32.0f * u + wd.time_step * bound_w;
            float miss_w = glms_vec3_distance(got_w, want_w);
            float miss_q = quat_distance(b->xf.q, ref[i].xf.q);
            worst_w = fmaxf(worst_w, miss_w / bound_w);
            worst_q = fmaxf(worst_q, miss_q / bound_q);
            if (!(miss_w <= bound_w && miss_q <= bound_q))
                fprintf(stderr,
                        "step %d body %d (%.3g rad/s): |dw| %.3g (bound %.3g), |dq| %.3g (bound %.3g)\n", s,
                        i, (double)speed, (double)miss_w, (double)bound_w, (double)miss_q, (double)bound_q);
            ENSURE(miss_w <= bound_w && miss_q <= bound_q);
        }
    }
    fprintf(stderr, "body frame against the sub-step loop: largest miss %.3g of the bound on w, %.3g on q\n",
            (double)worst_w, (double)worst_q);
    ph_world_destroy(w);
    return 0;
}

// The world angular momentum R I R^T w and twice the kinetic energy w . L of a body (white box, in double, of
// the velocity now that the API reads).
static double spin_of(const ph_body *b, const ph_body_state *st, float h, double l[3])
{
    ph_vec3 w = ph_body_angular_velocity_now(b, st->w, h);
    ph_mat3 r = glms_quat_mat3(b->xf.q);
    double wb[3] = {0, 0, 0}, lb[3];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            wb[i] += (double)r.col[i].raw[k] * (double)w.raw[k];
    for (int i = 0; i < 3; i++)
    {
        lb[i] = 0.0;
        for (int k = 0; k < 3; k++)
            lb[i] += (double)b->inertia_local.col[k].raw[i] * wb[k];
    }
    double e2 = 0.0;
    for (int i = 0; i < 3; i++)
    {
        l[i] = 0.0;
        for (int k = 0; k < 3; k++)
            l[i] += (double)r.col[k].raw[i] * lb[k];
        e2 += (double)w.raw[i] * l[i];
    }
    return e2;
}

// Over 20 s (1200 steps), torque-free asymmetric bodies (boxes and the hull of torque_free_bodies, no
// gravity, undamped) keep their world angular momentum and kinetic energy in the body-frame path as well as
// the sub-step loop written out (substep_loop, run alongside from the same start) keeps them. Each sub-step
// of the implicit midpoint keeps both exactly but for the solve's stopping residual (BODY_GYRO_RESIDUAL of
// |w|) and a few roundings (4 FLT_EPSILON), each of which moves the energy by at most twice as much: over the
// run, both chains stay within 2 N (BODY_GYRO_RESIDUAL + 4 FLT_EPSILON) for N sub-steps (0.7 %; they keep
// about 0.1 %, mostly a drift of the solve's residual, which keeps its sign). And the body-frame chain, the
// worst over the bodies, within twice the loop's (plus 1e-5): the two make the same errors in kind, and over
// 20 seeds the ratio stays under 1.5. A chain that lost the momentum between sub-steps, turned on the wrong
// side, or carried the first sub-step through the wrong length drifts by 1e-2 to 1.
static int dynamics_body_frame_flight_keeps_momentum(void)
{
    ph_world_def wd = ph_default_world_def();
    wd.gravity = glms_vec3_zero();
    ph_world *w = ph_world_create(&wd);
    ENSURE(w != NULL);
    uint64_t rng = test_seed();
    ph_body_id ids[TORQUE_FREE_BODIES];
    torque_free_bodies(w, &rng, ids);
    const float h = wd.time_step / (float)wd.substeps;
    ph_body ref[TORQUE_FREE_BODIES];
    ph_body_state ref_st[TORQUE_FREE_BODIES];
    double l0[TORQUE_FREE_BODIES][3], e0[TORQUE_FREE_BODIES], worst[TORQUE_FREE_BODIES][2][2] = {{{0}}};
    for (int i = 0; i < TORQUE_FREE_BODIES; i++)
    {
        int slot = (int)ids[i].index1 - 1;
        w->bodies[slot].linear_damping = w->bodies[slot].angular_damping = 0.0f;
        ref[i] = w->bodies[slot];
        ref_st[i] = w->states[slot];
        e0[i] = spin_of(&ref[i], &ref_st[i], w->last_h, l0[i]);
    }
    for (int s = 0; s < 1200; s++)
    {
        float last_h = w->last_h;
        ph_world_step(w);
        for (int i = 0; i < TORQUE_FREE_BODIES; i++)
        {
            substep_loop(&wd, last_h, &ref[i], &ref_st[i]);
            int slot = (int)ids[i].index1 - 1;
            for (int k = 0; k < 2; k++)
            {
                double l[3];
                double e = k == 0 ? spin_of(&w->bodies[slot], &w->states[slot], h, l)
                                  : spin_of(&ref[i], &ref_st[i], h, l);
                double dl =
                    sqrt((l[0] - l0[i][0]) * (l[0] - l0[i][0]) + (l[1] - l0[i][1]) * (l[1] - l0[i][1]) +
                         (l[2] - l0[i][2]) * (l[2] - l0[i][2])) /
                    sqrt(l0[i][0] * l0[i][0] + l0[i][1] * l0[i][1] + l0[i][2] * l0[i][2]);
                worst[i][k][0] = fmax(worst[i][k][0], dl);
                worst[i][k][1] = fmax(worst[i][k][1], fabs(e / e0[i] - 1.0));
            }
        }
    }
    // Per quantity (momentum, energy): the worst over the bodies that turn gyroscopically, in each chain.
    double bound =
        2.0 * 1200.0 * (double)wd.substeps * ((double)BODY_GYRO_RESIDUAL + 4.0 * (double)FLT_EPSILON);
    for (int k = 0; k < 2; k++)
    {
        double frame = 0.0, loop = 0.0;
        for (int i = 0; i < TORQUE_FREE_BODIES - 1; i++)
        {
            frame = fmax(frame, worst[i][0][k]);
            loop = fmax(loop, worst[i][1][k]);
        }
        fprintf(stderr, "%s kept within %.3g in the body frame, %.3g by the sub-step loop (bound %.3g)\n",
                k == 0 ? "momentum" : "energy", frame, loop, bound);
        ENSURE(frame <= bound && loop <= bound);
        ENSURE(frame <= 2.0 * loop + 1e-5);
    }
    ph_world_destroy(w);
    return 0;
}

const test_case test_dynamics_cases[] = {
    {"dynamics_free_flight_path_matches_solver", dynamics_free_flight_path_matches_solver},
    {"dynamics_offset_centre_frame_follows", dynamics_offset_centre_frame_follows},
    {"dynamics_body_frame_flight_matches_substeps", dynamics_body_frame_flight_matches_substeps},
    {"dynamics_body_frame_flight_keeps_momentum", dynamics_body_frame_flight_keeps_momentum},
    {"dynamics_point_impulse_uses_current_inertia", dynamics_point_impulse_uses_current_inertia},
    {"dynamics_huge_and_tiny_bodies_spin", dynamics_huge_and_tiny_bodies_spin},
    {"dynamics_quiet_neighbour_does_not_wake", dynamics_quiet_neighbour_does_not_wake},
    {"dynamics_body_woken_by_contact_moves_at_once", dynamics_body_woken_by_contact_moves_at_once},
    {"dynamics_contact_recycling", dynamics_contact_recycling},
    {"dynamics_no_pairs_skips_narrow_phase", dynamics_no_pairs_skips_narrow_phase},
    {"dynamics_position_turn_is_integrate_rotation", dynamics_position_turn_is_integrate_rotation},
    {"dynamics_unchanged_pairs_keep_contacts_in_place", dynamics_unchanged_pairs_keep_contacts_in_place},
    {"dynamics_fast_spin_energy", dynamics_fast_spin_energy},
    {"dynamics_spin_keeps_momentum", dynamics_spin_keeps_momentum},
    {"dynamics_gyro_solve_is_implicit_midpoint", dynamics_gyro_solve_is_implicit_midpoint},
    {"dynamics_spinner_keeps_flipping", dynamics_spinner_keeps_flipping},
    {"dynamics_sleep_and_wake", dynamics_sleep_and_wake},
    {"dynamics_step_counts", dynamics_step_counts},
    {"dynamics_kinematic_pushes", dynamics_kinematic_pushes},
    {"dynamics_shapes_rest", dynamics_shapes_rest},
    {"dynamics_static_mesh_floor", dynamics_static_mesh_floor},
    {"dynamics_debug_views", dynamics_debug_views},
    {0},
};
