// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Contact solver properties on single contacts: a resting box comes to rest with sub-millimetre
// overlap, the Coulomb limit (a push below mu m g holds, above it slides at F/m - mu g), restitution
// only above the 1 m/s threshold, and speculative contacts that stop a fast box at the surface.
#include "recipes/recipes.h"
#include "recipes/spawn.h"
#include "test.h"

#include "phys/arena.h"
#include "phys/body.h"
#include "phys/contact.h"
#include "phys/phys.h"
#include "phys/solver_internal.h"
#include "phys/world.h"

#include <stddef.h> // offsetof
#include <string.h> // memcmp, memcpy

static ph_world *flat_world(float friction)
{
    ph_world_def wd = ph_default_world_def();
    ph_world *w = ph_world_create(&wd);
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_box(ph_v3(50, 1, 50));
    g.position = ph_v3(0, -1, 0);
    g.material.friction = friction;
    g.material.restitution = 1.0f;
    ph_body_create(w, &g);
    return w;
}

static ph_body_id unit_box(ph_world *w, float y, float friction, float restitution)
{
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.position = ph_v3(0, y, 0);
    d.material.friction = friction;
    d.material.restitution = restitution;
    d.linear_damping = 0.0f;
    d.angular_damping = 0.0f;
    d.enable_sleep = false;
    return ph_body_create(w, &d);
}

// A box at rest: its contact impulses over a step hold its weight through the step, m g dt (issue 19, item
// 9), whatever the sub-step count.
static int solver_rests(void)
{
    const int substeps[] = {1, 2, 5, 8, 16};
    for (size_t k = 0; k < sizeof substeps / sizeof substeps[0]; k++)
    {
        ph_world_def wd = ph_default_world_def();
        wd.substeps = substeps[k];
        wd.max_substeps = substeps[k];
        ph_world *w = ph_world_create(&wd);
        ph_body_def g = ph_default_body_def();
        g.position = ph_v3(0, -1, 0);
        g.shape = ph_make_box(ph_v3(20, 1, 20));
        ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &g)));
        ph_body_id b = unit_box(w, 0.5f, 0.6f, 0.0f);
        for (int s = 0; s < 120; s++)
            ph_world_step(w);
        ph_vec3 v = ph_body_get_linear_velocity(w, b);
        ENSURE(glms_vec3_norm(v) < 1e-3f);
        // Its rest height within a millimetre at the default sub-steps and more (one sub-step caps the
        // contact spring at 15 Hz, which sags 1.1 mm under the box's weight).
        if (substeps[k] >= ph_default_world_def().substeps)
            ENSURE_NEAR(ph_body_get_position(w, b).y, 0.5f, 1e-3f);
        ph_contact_info c[8];
        int n = ph_world_get_contacts(w, c, 8);
        ENSURE(n == 4);
        float total = 0.0f;
        for (int i = 0; i < n; i++)
            total += c[i].normal_impulse;
        float expected = ph_body_get_mass(w, b) * 9.81f * wd.time_step;
        ENSURE_NEAR(total, expected, 0.02f * expected);
        ph_world_destroy(w);
    }
    return 0;
}

// Pushes a resting box sideways with force_ratio * mu m g for 1 s; returns its acceleration.
static float push(float mu, float force_ratio)
{
    ph_world *w = flat_world(mu);
    ph_body_id b = unit_box(w, 0.5f, mu, 0.0f);
    for (int s = 0; s < 30; s++)
        ph_world_step(w);
    float m = ph_body_get_mass(w, b);
    float x0 = ph_body_get_position(w, b).x;
    int steps = 60;
    for (int s = 0; s < steps; s++)
    {
        ph_body_apply_force(w, b, ph_v3(force_ratio * mu * m * 9.81f, 0, 0));
        ph_world_step(w);
    }
    float t = (float)steps * ph_world_get_time_step(w);
    float x = ph_body_get_position(w, b).x - x0;
    ph_world_destroy(w);
    return 2.0f * x / (t * t);
}

static int solver_coulomb_limit(void)
{
    float a = push(0.5f, 0.8f);
    ENSURE(fabsf(a) < 1e-3f);
    a = push(0.5f, 1.5f);
    float expected = (1.5f - 1.0f) * 0.5f * 9.81f;
    fprintf(stderr, "sliding under 1.5 mu m g: a = %.4f, expected %.4f\n", (double)a, (double)expected);
    ENSURE_NEAR(a, expected, 0.03f * expected);
    return 0;
}

static int solver_restitution_threshold(void)
{
    // From 2 cm the impact is 0.63 m/s: below the threshold, so even e = 1 gives no bounce.
    ph_world *w = flat_world(0.6f);
    ph_body_id b = unit_box(w, 0.52f, 0.6f, 1.0f);
    float top = 0.0f;
    bool landed = false;
    for (int s = 0; s < 60; s++)
    {
        ph_world_step(w);
        float y = ph_body_get_position(w, b).y;
        landed = landed || y < 0.501f;
        if (landed)
            top = fmaxf(top, y - 0.5f);
    }
    ENSURE(landed);
    ENSURE(top < 0.001f);
    ph_world_destroy(w);
    return 0;
}

static int solver_speculative_stop(void)
{
    // 8 m/s down from 0.3 m: 13 cm per step, caught by the speculative margin, never sinking in.
    ph_world *w = flat_world(0.6f);
    ph_body_id b = unit_box(w, 0.8f, 0.6f, 0.0f);
    ph_body_set_linear_velocity(w, b, ph_v3(0, -8.0f, 0));
    float lowest = 1.0f;
    for (int s = 0; s < 30; s++)
    {
        ph_world_step(w);
        lowest = fminf(lowest, ph_body_get_position(w, b).y - 0.5f);
    }
    fprintf(stderr, "speculative stop: deepest %.5f m\n", (double)lowest);
    ENSURE(lowest > -0.002f);
    ph_world_destroy(w);
    return 0;
}

// 100 boxes fall onto a free plate in zero gravity: every contact is internal, so the total momentum
// must stay what it was whatever the solver does. A wide path updates 4 or 8 constraints at once; if
// two lanes shared a moving body, one lane's impulse would be lost and the momentum with it. The plate
// is in all 100 constraints, more than the 64 colours, so 36 of them go through the scalar overflow too.
// Both solvers must agree on the momentum, and neither may add energy (restitution 0).
static int run_plate(ph_simd_path simd, ph_vec3 *out_momentum, float *out_energy, int *out_colors)
{
    ph_world_def wd = ph_default_world_def();
    wd.gravity = ph_v3(0, 0, 0);
    wd.enable_sleep = false;
    wd.simd = simd;
    ph_world *w = ph_world_create(&wd);
    ENSURE(w != NULL);
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.linear_damping = d.angular_damping = 0.0f;
    d.shape = ph_make_box(ph_v3(6.0f, 0.5f, 6.0f));
    ph_body_id ids[101];
    ids[0] = ph_body_create(w, &d);
    d.shape = ph_make_box(ph_v3(0.4f, 0.4f, 0.4f));
    for (int i = 0; i < 100; i++)
    {
        // A 10 x 10 grid 1 cm above the plate, each falling at its own speed and a little sideways.
        d.position = ph_v3(-5.4f + 1.2f * (float)(i % 10), 0.91f, -5.4f + 1.2f * (float)(i / 10));
        d.linear_velocity =
            ph_v3(0.1f * (float)(i % 3 - 1), -1.0f - 0.02f * (float)i, 0.05f * (float)(i % 5 - 2));
        ids[i + 1] = ph_body_create(w, &d);
    }
    ph_vec3 p0 = ph_v3(0, 0, 0);
    for (int i = 0; i <= 100; i++)
        p0 = glms_vec3_add(
            p0, glms_vec3_scale(ph_body_get_linear_velocity(w, ids[i]), ph_body_get_mass(w, ids[i])));
    int colors = 0;
    for (int s = 0; s < 60; s++)
    {
        ph_world_step(w);
        colors =
            ph_world_get_stats(w)->solver_colors > colors ? ph_world_get_stats(w)->solver_colors : colors;
    }
    ph_vec3 p = ph_v3(0, 0, 0);
    float energy = 0.0f;
    for (int i = 0; i <= 100; i++)
    {
        ph_vec3 v = ph_body_get_linear_velocity(w, ids[i]), om = ph_body_get_angular_velocity(w, ids[i]);
        float m = ph_body_get_mass(w, ids[i]);
        p = glms_vec3_add(p, glms_vec3_scale(v, m));
        energy += 0.5f * m * glms_vec3_dot(v, v) +
                  0.5f * glms_vec3_dot(om, glms_mat3_mulv(ph_body_get_world_inertia(w, ids[i]), om));
    }
    ph_world_destroy(w);
    // Momentum before and after, relative to its size.
    float scale = glms_vec3_norm(p0);
    fprintf(stderr, "plate (solver: %s): momentum error %.2e of %.1f, energy %.1f J, colours %d\n",
            ph_simd_path_name(simd), (double)(glms_vec3_distance(p, p0) / scale), (double)scale,
            (double)energy, colors);
    ENSURE(glms_vec3_distance(p, p0) < 1e-4f * scale);
    *out_momentum = p;
    *out_energy = energy;
    *out_colors = colors;
    return 0;
}

static int solver_wide_conserves_momentum(void)
{
    ph_vec3 p_scalar, p_wide;
    float e_scalar, e_wide;
    int colors_scalar, colors_wide;
    ENSURE(run_plate(PH_SIMD_SCALAR, &p_scalar, &e_scalar, &colors_scalar) == 0);
    ENSURE(colors_scalar == 0);
    ph_simd_path paths[3];
    for (int i = 0, n = test_wide_paths(paths); i < n; i++)
    {
        ENSURE(run_plate(paths[i], &p_wide, &e_wide, &colors_wide) == 0);
        // The wide solver ran (colours counted), and the plate used them all.
        ENSURE(colors_wide == 64);
        // The same impacts, solved in another order: the same momentum and close energies (all inelastic).
        ENSURE(glms_vec3_distance(p_wide, p_scalar) < 1e-4f * glms_vec3_norm(p_scalar));
        ENSURE_NEAR(e_wide, e_scalar, 0.02f * e_scalar);
    }
    return 0;
}

// Boxes of many shapes on one static floor, far apart: every constraint shares only the floor, so the
// order in which they are solved does not matter and every wide path must give the scalar solver's motion
// to rounding. Sliding, spinning (rows rebuilt per sub-step), landing and
// bouncing boxes cover every field a lane holds; 37 boxes fill groups of 8 and a partial one.
// The lanes use fused multiply-adds and the scalar code does not, and an impact (which corner closes first,
// when the friction cone clamps) turns a rounding difference into a small difference of spin: over these
// 5 steps gcc and clang builds differ by at most 1.5e-5 m, 2.1e-4 m/s and 1.1e-3 rad/s. A defect in a
// lane is far above that: dropping one row's refresh, bouncing from the wrong speed, 10% too little
// restitution or a wrong effective mass give at least 6.8e-4 m, 1.2e-2 m/s and 1.5e-2 rad/s. The lanes keep
// each point's separation from a relax sweep for the next sub-step's biased sweep; relax sweeps that reused
// it instead of measuring after the position update gave 3.8e-2 m.
static void run_independent_boxes(ph_simd_path simd, ph_vec3 *pos, ph_vec3 *vel, ph_vec3 *spin)
{
    ph_world_def wd = ph_default_world_def();
    wd.simd = simd;
    wd.enable_sleep = false;
    ph_world *w = ph_world_create(&wd);
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_box(ph_v3(60, 1, 60));
    g.position = ph_v3(0, -1, 0);
    ph_body_create(w, &g);
    ph_body_id ids[37];
    uint64_t seed = 12345u;
    for (int i = 0; i < 37; i++)
    {
        ph_body_def d = ph_default_body_def();
        d.type = PH_BODY_DYNAMIC;
        ph_vec3 half =
            ph_v3(0.2f + test_rand_float(&seed, 0.0f, 0.6f), 0.2f + test_rand_float(&seed, 0.0f, 0.4f),
                  0.2f + test_rand_float(&seed, 0.0f, 0.6f));
        d.shape = ph_make_box(half);
        // Resting (a little low or high), or falling onto the floor fast enough to bounce.
        float lift = i % 4 == 1 ? 0.02f + test_rand_float(&seed, 0.0f, 0.04f)
                                : 0.01f * test_rand_float(&seed, -0.5f, 0.5f);
        d.position = ph_v3(-50.0f + 10.0f * (float)(i % 11), half.y + lift, -50.0f + 10.0f * (float)(i / 11));
        d.orientation = glms_quatv(test_rand_float(&seed, 0.0f, 6.2832f), ph_v3(0, 1, 0));
        d.linear_velocity = ph_v3(3.0f * test_rand_float(&seed, -0.5f, 0.5f), i % 4 == 1 ? -4.0f : 0.0f,
                                  3.0f * test_rand_float(&seed, -0.5f, 0.5f));
        d.angular_velocity =
            ph_v3(0.0f, i % 3 == 0 ? 12.0f * test_rand_float(&seed, -0.5f, 0.5f) : 0.0f, 0.0f);
        d.material.friction = 0.2f + test_rand_float(&seed, 0.0f, 0.6f);
        d.material.restitution = i % 2 ? test_rand_float(&seed, 0.0f, 0.5f) : 0.0f;
        ids[i] = ph_body_create(w, &d);
    }
    for (int s = 0; s < 5; s++)
        ph_world_step(w);
    for (int i = 0; i < 37; i++)
    {
        pos[i] = ph_body_get_center_of_mass(w, ids[i]);
        vel[i] = ph_body_get_linear_velocity(w, ids[i]);
        spin[i] = ph_body_get_angular_velocity(w, ids[i]);
    }
    ph_world_destroy(w);
}

static int solver_wide_matches_scalar(void)
{
    ph_vec3 pos[2][37], vel[2][37], spin[2][37];
    run_independent_boxes(PH_SIMD_SCALAR, pos[0], vel[0], spin[0]);
    ph_simd_path paths[3];
    for (int p = 0, n = test_wide_paths(paths); p < n; p++)
    {
        run_independent_boxes(paths[p], pos[1], vel[1], spin[1]);
        float dp = 0.0f, dv = 0.0f, dw = 0.0f, moved = 0.0f;
        for (int i = 0; i < 37; i++)
        {
            dp = fmaxf(dp, glms_vec3_distance(pos[0][i], pos[1][i]));
            dv = fmaxf(dv, glms_vec3_distance(vel[0][i], vel[1][i]));
            dw = fmaxf(dw, glms_vec3_distance(spin[0][i], spin[1][i]));
            moved = fmaxf(moved, glms_vec3_norm(vel[0][i]));
        }
        fprintf(stderr,
                "independent boxes: scalar vs %s: position %.2e m, velocity %.2e m/s, spin %.2e rad/s\n",
                ph_simd_path_name(paths[p]), (double)dp, (double)dv, (double)dw);
        ENSURE(moved > 0.1f); // the boxes still slide: the comparison is not between resting piles
        ENSURE(dp < 1e-4f);
        ENSURE(dv < 3e-3f);
        ENSURE(dw < 5e-3f);
    }
    return 0;
}

// The sub-step's position update of constrained bodies runs 4 or 8 at a time on a wide path
// (ph_wide_integrate_positions) and must leave every state bit for bit as the scalar loop does, or the
// wide and scalar builds of a world would part. Random velocities and turns (resting, slow, and up to a
// radian per sub-step), in a shuffled order of slots whose count is not a multiple of 4 or 8; every path.
static int solver_wide_positions_match_scalar(void)
{
    enum
    {
        BODIES = 8 * 25 + 5
    };
    static ph_body_state start[BODIES], wide[BODIES], scalar[BODIES];
    int slots[BODIES];
    uint64_t seed = 777u;
    for (int i = 0; i < BODIES; i++)
    {
        ph_body_state st = {0};
        float speed = i % 5 == 0 ? 0.0f : i % 5 == 1 ? 0.05f : i % 5 == 2 ? 60.0f : 900.0f;
        st.v = ph_v3(test_rand_float(&seed, -3, 3), test_rand_float(&seed, -3, 3),
                     test_rand_float(&seed, -3, 3));
        st.inv_mass = 1.0f;
        st.w = glms_vec3_scale(
            glms_vec3_normalize(ph_v3(test_rand_float(&seed, -1, 1), test_rand_float(&seed, -1, 1),
                                      test_rand_float(&seed, -1, 1))),
            speed);
        st.dp = ph_v3(test_rand_float(&seed, -1, 1), test_rand_float(&seed, -1, 1),
                      test_rand_float(&seed, -1, 1));
        st.dq = i % 7 == 0 ? glms_quat_identity() : test_rand_quat(&seed);
        start[i] = scalar[i] = st;
        slots[i] = i;
    }
    for (int i = BODIES - 1; i > 0; i--)
    {
        int j = (int)(test_rand_u64(&seed) % (uint64_t)(i + 1)), t = slots[i];
        slots[i] = slots[j];
        slots[j] = t;
    }
    const float h = 1.0f / 60.0f / 16.0f;
    for (int s = 0; s < 16; s++)
        ph_body_integrate_positions(scalar, slots, BODIES, h);
    ph_simd_path paths[3];
    for (int p = 0, n = test_wide_paths(paths); p < n; p++)
    {
        const wide_kernels *kernels = ph_wide_kernels_for(paths[p]);
        memcpy(wide, start, sizeof wide);
        int done = 0;
        for (int s = 0; s < 16; s++)
        {
            done = ph_wide_integrate_positions(kernels, wide, slots, BODIES, h);
            ph_body_integrate_positions(wide, slots + done, BODIES - done, h);
        }
        // The kernels did all but the last partial run of their lanes.
        ENSURE(done == BODIES - BODIES % kernels->lanes);
        for (int i = 0; i < BODIES; i++)
            ENSURE(memcmp(&wide[i], &scalar[i], sizeof wide[i]) == 0);
    }
    return 0;
}

// Random body states for the wide kernels' tests, slot 0 static: velocities, inverse masses and inverse
// inertias (full ones, or with `isotropic` multiples of the identity, which the groups turn arms by in a
// short way), and a little motion so far.
static void kernel_test_states(uint64_t seed, bool isotropic, ph_body_state *states, int bodies)
{
    for (int i = 0; i < bodies; i++)
    {
        ph_body_state st = {0};
        if (i > 0) // slot 0 is static
        {
            st.inv_mass = test_rand_float(&seed, 0.5f, 2.0f);
            st.v = test_rand_vec3(&seed, -2.0f, 2.0f);
            st.w = test_rand_vec3(&seed, -3.0f, 3.0f);
            // R D R^T: a full symmetric inverse inertia.
            ph_quat q = glms_quat_normalize(
                (ph_quat){{test_rand_float(&seed, -1, 1), test_rand_float(&seed, -1, 1),
                           test_rand_float(&seed, -1, 1), test_rand_float(&seed, 0.1f, 1)}});
            ph_mat3 d = glms_mat3_zero();
            for (int c = 0; c < 3; c++)
                d.raw[c][c] = test_rand_float(&seed, 1.0f, 6.0f);
            ph_body_state_set_inv_inertia(&st, isotropic ? glms_mat3_scale(glms_mat3_identity(), d.raw[0][0])
                                                         : ph_world_inv_inertia(q, d));
        }
        st.dp = test_rand_vec3(&seed, -0.01f, 0.01f);
        st.dq = glms_quat_normalize(glms_quat_mul(glms_quatv(0.02f, ph_v3(0, 1, 0)), glms_quat_identity()));
        states[i] = st;
    }
}

// Lane `lane` of `in` for constraint `h` (k: its contact): anchors, overlaps and warm-start impulses drawn
// from a stream of its own (the same constraint gets the same data in any lane), some far outside the
// friction cone (odd constraints slide in the first sweep), and bouncing constraints, every third, some of
// them closing fast (which sets its body b's velocity).
static void kernel_test_input(uint64_t seed, int k, const constraint_head *h, ph_body_state *states,
                              wide_input *in, int lane)
{
    seed += 0x9e3779b97f4a7c15u * (uint64_t)(k + 1);
    ph_vec3 n = glms_vec3_normalize(ph_v3(test_rand_float(&seed, -0.2f, 0.2f), 1.0f, 0.1f));
    ph_vec3 ca = ph_v3(0, (float)h->a, 0), cb = ph_v3(0, (float)h->b, 0);
    for (int c = 0; c < 3; c++)
    {
        in->normal[c][lane] = n.raw[c];
        in->ca[c][lane] = ca.raw[c];
        in->cb[c][lane] = cb.raw[c];
    }
    // Every field differs from constraint to constraint, so that one read from another lane's place shows.
    in->friction[lane] = 0.3f + 0.05f * (float)(k % 5);
    in->restitution[lane] = k % 3 == 0 ? 0.3f + 0.02f * (float)(k % 4) : 0.0f;
    in->accel_n[lane] = -9.81f + (float)(k % 4);
    in->bias_rate[lane] = 20.0f + (float)k;
    in->mass_scale[lane] = 0.7f + 0.02f * (float)(k % 4);
    in->impulse_scale[lane] = 0.05f + 0.01f * (float)(k % 5);
    in->radius_a[lane] = k % 4 == 1 ? 0.3f : 0.0f;
    in->radius_b[lane] = k % 4 == 2 ? 0.25f : 0.0f;
    float t = k % 2 ? 1.0f : 0.01f;
    in->friction_impulse[0][lane] = test_rand_float(&seed, -t, t);
    in->friction_impulse[1][lane] = test_rand_float(&seed, -t, t);
    in->twist_impulse[lane] = test_rand_float(&seed, -0.1f * t, 0.1f * t);
    in->twist_radius[lane] = 0.1f + 0.02f * (float)(k % 7);
    for (int i = 0; i < h->point_count; i++)
    {
        ph_vec3 pt = ph_v3(test_rand_float(&seed, -0.5f, 0.5f), (float)h->a + 0.5f,
                           test_rand_float(&seed, -0.5f, 0.5f));
        for (int c = 0; c < 3; c++)
            in->point[i][c][lane] = pt.raw[c];
        // The fast-closing constraints a little apart, where gravity's share of the bounce (accel_n) counts.
        in->separation[i][lane] =
            k % 6 == 0 ? test_rand_float(&seed, 0.001f, 0.002f) : test_rand_float(&seed, -0.02f, 0.01f);
        in->impulse[i][lane] = test_rand_float(&seed, 0.0f, 0.2f);
    }
    if (k % 6 == 0)
        states[h->b].v.y = -3.0f;
}

// The `count` constraints of `heads` built as ph_wide_build and ph_wide_prepare build a step's, for
// `kernels`, with the rows' arms kept or worked out as `mode` says, each lane's data from kernel_test_input
// (for the contact its head names).
// Returns how many groups were isotropic.
static int kernel_test_build(uint64_t seed, wide_arms_mode mode, const wide_kernels *kernels,
                             const constraint_head *heads, int count, ph_arena *arena, ph_body_state *states,
                             int bodies, wide_solver *w, int *isotropic_groups)
{
    ENSURE(ph_wide_build(arena, states, bodies, heads, count, mode, kernels, w));
    *isotropic_groups = 0;
    static wide_input in;
    for (int g = 0; g < w->group_count; g++)
    {
        memset(&in, 0, sizeof in);
        const wide_group *grp = wide_group_at(w, g);
        for (int lane = 0; lane < grp->lanes; lane++)
        {
            int h = 0; // the head of the lane's contact
            while (heads[h].contact != grp->contact[lane])
                h++;
            kernel_test_input(seed, heads[h].contact, &heads[h], states, &in, lane);
        }
        ph_wide_prepare(states, w, g, &in, 1.0f);
        *isotropic_groups += wide_group_at(w, g)->isotropic;
    }
    return 0;
}

// A chain of CHAIN_BODIES bodies (slot 0 static) held by CHAIN_BODIES - 1 constraints, built for `kernels`
// by kernel_test_build. The same seed builds the same chain.
enum
{
    CHAIN_BODIES = 61,
    CHAIN_CONS = CHAIN_BODIES - 1
};

static int chain_build(uint64_t seed, wide_arms_mode mode, bool isotropic, const wide_kernels *kernels,
                       ph_arena *arena, ph_body_state states[CHAIN_BODIES], wide_solver *w)
{
    constraint_head heads[CHAIN_CONS];
    kernel_test_states(seed, isotropic, states, CHAIN_BODIES);
    for (int k = 0; k < CHAIN_CONS; k++)
        heads[k] = (constraint_head){k, k + 1, k, k % 7 == 3 ? 2 : 4, false};
    int isotropic_groups;
    ENSURE(kernel_test_build(seed, mode, kernels, heads, CHAIN_CONS, arena, states, CHAIN_BODIES, w,
                             &isotropic_groups) == 0);
    ENSURE(w->colors == 2 && w->scalar_count == 0);
    ENSURE(wide_keeps_arms(w) == (mode == WIDE_ARMS_KEPT));
    // Every group took the short way or none did.
    ENSURE(isotropic_groups == (isotropic ? w->group_count : 0));
    return 0;
}

// The sweeps of one step on built groups: warm start, then per sub-step a biased sweep (measuring after the
// first), a relax sweep, and a compressing and a pushing restitution sweep at the end. Returns whether a
// point bounced.
static bool chain_sweep(ph_body_state *states, wide_solver *w)
{
    const float inv_h = 60.0f * 16.0f;
    ph_wide_warm_start(states, w, 0, w->group_count);
    for (int sweep = 0; sweep < 3; sweep++)
    {
        ph_wide_solve(states, w, inv_h, true, sweep == 0, false, 0, w->group_count);
        ph_wide_solve(states, w, inv_h, false, true, true, 0, w->group_count);
    }
    ph_wide_bounce(states, w, 1.0f / inv_h, true, 0, w->group_count);
    return ph_wide_bounce(states, w, 1.0f / inv_h, false, 0, w->group_count);
}

// ph_wide_solve runs up to three units (groups of 8 lanes, or halves of them on 4-lane sets) of one colour
// side by side, and in the friction rows takes the cone's square root only for units with a sliding lane.
// Both are pure speed: units of one colour share no moving body, so solving them together must give bit for
// bit what solving each alone gives. A chain (two colours, runs of three groups and shorter ones) is solved
// once as built and once with every group given a colour of its own (which ph_wide_solve never runs side by
// side), with the arms kept and worked out, on every wide path.
static int interleave_exact_with(const wide_kernels *kernels)
{
    for (int mode = WIDE_ARMS_KEPT; mode <= WIDE_ARMS_WORKED_OUT; mode++)
    {
        static ph_body_state states[2][CHAIN_BODIES];
        ph_arena arena;
        ph_arena_create(&arena, (size_t)1 << 20);
        wide_solver w;
        ENSURE(chain_build(4242u, (wide_arms_mode)mode, false, kernels, &arena, states[0], &w) == 0);
        // The copy: the same groups, each in a colour of its own.
        memcpy(states[1], states[0], sizeof states[0]);
        wide_solver alone = w;
        alone.groups = ph_arena_alloc(&arena, (size_t)w.group_count * w.stride);
        ENSURE(alone.groups != NULL);
        memcpy(alone.groups, w.groups, (size_t)w.group_count * w.stride);
        int runs_of_three = 0;
        for (int g = 0; g < w.group_count; g++)
        {
            wide_group_at(&alone, g)->color = 100 + g;
            const wide_group *g0 = wide_group_at(&w, g), *g2 = wide_group_at(&w, g + 2);
            runs_of_three += g + 2 < w.group_count && g2->color == g0->color &&
                             g2->point_count == g0->point_count && g2->max_passes == g0->max_passes;
        }
        ENSURE(runs_of_three > 0);
        chain_sweep(states[0], &w);
        chain_sweep(states[1], &alone);
        ENSURE(memcmp(states[0], states[1], sizeof states[0]) == 0);
        int sliding = 0, sticking = 0;
        for (int g = 0; g < w.group_count; g++)
        {
            const wide_group *a = wide_group_at(&w, g), *b = wide_group_at(&alone, g);
            ENSURE(memcmp(a->points, b->points, sizeof a->points) == 0);
            ENSURE(memcmp(a->separation, b->separation, sizeof a->separation) == 0);
            ENSURE(memcmp(&a->f1, &b->f1, sizeof a->f1) == 0 && memcmp(&a->f2, &b->f2, sizeof a->f2) == 0);
            ENSURE(memcmp(a->twist_impulse, b->twist_impulse, sizeof a->twist_impulse) == 0);
            for (int lane = 0; lane < a->lanes; lane++)
            {
                float n = 0.0f;
                for (int i = 0; i < a->point_counts[lane]; i++)
                    n += a->points[i].n.impulse[lane];
                float t1 = a->f1.impulse[lane], t2 = a->f2.impulse[lane];
                float t = sqrtf(t1 * t1 + t2 * t2);
                float mu = a->friction[lane];
                sliding += n > 0.0f && fabsf(t - mu * n) <= 1e-5f * n;
                sticking += t < mu * n * 0.99f;
            }
        }
        // Both sides of the cone were taken.
        ENSURE(sliding > 0 && sticking > 0);
        ph_arena_free(&arena, alone.groups);
        ph_wide_release(&arena, &w);
        ph_arena_destroy(&arena);
    }
    return 0;
}

static int solver_wide_interleave_exact(void)
{
    ph_simd_path paths[3];
    for (int p = 0, n = test_wide_paths(paths); p < n; p++)
        ENSURE(interleave_exact_with(ph_wide_kernels_for(paths[p])) == 0);
    return 0;
}

// Kept arms (few groups) and arms worked out in every sweep (many) are a choice of speed only: both come
// from one function of the same anchors and inverse inertias, so a chain prepared, warm-started, solved,
// bounced and refreshed (a body's spin changes its inverse inertia and turns its anchors) either way must
// end bit for bit the same, impulses and velocities; with full inverse inertias and with isotropic ones.
static int kept_arms_exact_with(bool isotropic, const wide_kernels *kernels)
{
    static ph_body_state states[2][CHAIN_BODIES];
    ph_arena arenas[2];
    wide_solver w[2];
    bool bounced[2];
    for (int m = 0; m < 2; m++)
    {
        ph_arena_create(&arenas[m], (size_t)1 << 20);
        ENSURE(chain_build(977u, m == 0 ? WIDE_ARMS_KEPT : WIDE_ARMS_WORKED_OUT, isotropic, kernels,
                           &arenas[m], states[m], &w[m]) == 0);
        chain_sweep(states[m], &w[m]);
        // Bodies 5 and 30 spin: new inverse inertias and turned anchors for the rows they are in.
        uint8_t refreshed[CHAIN_BODIES] = {0};
        refreshed[5] = refreshed[30] = 1;
        for (int i = 0; i < CHAIN_BODIES; i++)
        {
            if (!refreshed[i])
                continue;
            states[m][i].dq = glms_quat_normalize(glms_quatv(0.3f, glms_vec3_normalize(ph_v3(1, 2, 3))));
            if (!isotropic) // s I turned is s I
                ph_body_state_set_inv_inertia(
                    &states[m][i], ph_world_inv_inertia(states[m][i].dq, states[m][i].inv_inertia));
        }
        ph_wide_refresh(states[m], &w[m], refreshed, 0, w[m].group_count);
        bounced[m] = chain_sweep(states[m], &w[m]);
    }
    ENSURE(memcmp(states[0], states[1], sizeof states[0]) == 0);
    ENSURE(w[0].group_count == w[1].group_count);
    for (int g = 0; g < w[0].group_count; g++)
        ENSURE(memcmp(wide_group_at(&w[0], g)->points, wide_group_at(&w[1], g)->points,
                      sizeof wide_group_at(&w[0], g)->points) == 0);
    // The sweeps did work: impulses were applied and a lane bounced.
    ENSURE(bounced[0] && bounced[1]);
    for (int m = 1; m >= 0; m--)
    {
        ph_wide_release(&arenas[m], &w[m]);
        ph_arena_destroy(&arenas[m]);
    }
    return 0;
}

static int solver_wide_kept_arms_exact(void)
{
    ph_simd_path paths[3];
    for (int p = 0, n = test_wide_paths(paths); p < n; p++)
    {
        ENSURE(kept_arms_exact_with(false, ph_wide_kernels_for(paths[p])) == 0);
        ENSURE(kept_arms_exact_with(true, ph_wide_kernels_for(paths[p])) == 0);
    }
    return 0;
}

// Lanes are independent: a constraint solved in any lane of a group, beside any others of its colour, ends as
// it does alone in lane 0 of a group of its own. LANE_CONS constraints between bodies of their own (some
// against the static slot 0) take one colour, so they fill two groups of 8 and a partial one whose lanes
// reach past 4 (both units of a 4-lane set); each is then built alone, and after a step's sweeps (warm start,
// biased and relax sweeps, restitution, a refresh) its bodies' velocities and its impulses must be the ones
// it reaches alone, to the bit but for the sign of a zero (a padded point adds -0 or +0 to a velocity of
// zero). A lane read from or written to another lane's place, a transpose that mixes two lanes, or a unit of
// a 4-lane set that starts at the wrong lane gives another constraint's numbers. On every wide path, with the
// arms kept and worked out.
enum
{
    LANE_CONS = 21,
    LANE_BODIES = 2 * LANE_CONS + 1
};

// A step's sweeps with a refresh between (of the bodies marked in `refreshed`).
static void lanes_step(ph_body_state *states, wide_solver *w, const uint8_t *refreshed)
{
    chain_sweep(states, w);
    ph_wide_refresh(states, w, refreshed, 0, w->group_count);
    chain_sweep(states, w);
}

static int lanes_independent_with(const wide_kernels *kernels, wide_arms_mode mode)
{
    static ph_body_state states[LANE_BODIES], alone[LANE_BODIES];
    constraint_head heads[LANE_CONS];
    kernel_test_states(31337u, false, states, LANE_BODIES);
    for (int k = 0; k < LANE_CONS; k++)
        heads[k] = (constraint_head){k % 5 == 2 ? 0 : 2 * k + 1, 2 * k + 2, k, 1 + k % 4, false};
    ph_arena arena;
    ph_arena_create(&arena, (size_t)1 << 20);
    wide_solver w;
    int isotropic_groups;
    memcpy(alone, states, sizeof states);
    ENSURE(kernel_test_build(55u, mode, kernels, heads, LANE_CONS, &arena, states, LANE_BODIES, &w,
                             &isotropic_groups) == 0);
    ENSURE(w.colors == 1 && w.group_count == 3 && wide_group_at(&w, 2)->lanes > 4);
    uint8_t refreshed[LANE_BODIES] = {0};
    for (int i = 3; i < LANE_BODIES; i += 7)
        refreshed[i] = 1;
    lanes_step(states, &w, refreshed);
    int checked = 0;
    for (int g = 0; g < w.group_count; g++)
    {
        const wide_group *grp = wide_group_at(&w, g);
        for (int lane = 0; lane < grp->lanes; lane++)
        {
            const constraint_head *h = &heads[grp->contact[lane]];
            static ph_body_state one[LANE_BODIES];
            memcpy(one, alone, sizeof one);
            wide_solver w1;
            ENSURE(kernel_test_build(55u, mode, kernels, h, 1, &arena, one, LANE_BODIES, &w1,
                                     &isotropic_groups) == 0);
            lanes_step(one, &w1, refreshed);
            const wide_group *g1 = wide_group_at(&w1, 0);
            ENSURE(w1.group_count == 1 && g1->contact[0] == h->contact);
            const int bodies[2] = {h->a, h->b};
            for (int j = 0; j < 2; j++)
            {
                const ph_body_state *x = &states[bodies[j]], *y = &one[bodies[j]];
                for (int c = 0; c < 3; c++)
                    ENSURE(x->v.raw[c] == y->v.raw[c] && x->w.raw[c] == y->w.raw[c]);
            }
            for (int i = 0; i < h->point_count; i++)
                ENSURE(grp->points[i].n.impulse[lane] == g1->points[i].n.impulse[0] &&
                       grp->cold[i].total_impulse[lane] == g1->cold[i].total_impulse[0]);
            ENSURE(grp->f1.impulse[lane] == g1->f1.impulse[0] && grp->f2.impulse[lane] == g1->f2.impulse[0] &&
                   grp->twist_impulse[lane] == g1->twist_impulse[0]);
            ph_wide_release(&arena, &w1);
            checked++;
        }
    }
    ENSURE(checked == LANE_CONS);
    ph_wide_release(&arena, &w);
    ph_arena_destroy(&arena);
    return 0;
}

static int solver_wide_lanes_independent(void)
{
    ph_simd_path paths[3];
    for (int p = 0, n = test_wide_paths(paths); p < n; p++)
    {
        ENSURE(lanes_independent_with(ph_wide_kernels_for(paths[p]), WIDE_ARMS_KEPT) == 0);
        ENSURE(lanes_independent_with(ph_wide_kernels_for(paths[p]), WIDE_ARMS_WORKED_OUT) == 0);
    }
    return 0;
}

// The same, for whole worlds: recipe scenes stepped with the arms kept and with them worked out end with
// equal state hashes. Dominoes topple (thin boxes: full world inverse inertias that turn), rain lands mixed
// shapes, and the ladder's boxes bounce (the restitution sweep).
static int solver_wide_kept_arms_scenes_match(void)
{
    const struct
    {
        const char *name;
        int steps;
    } runs[] = {{"dominoes", 240}, {"rain", 150}, {"restitution_ladder", 150}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
    {
        uint64_t hash[2];
        for (int m = 0; m < 2; m++)
        {
            recipe_scene scene;
            ENSURE(recipe_build(runs[r].name, RECIPE_DEFAULT_SEED, &scene));
            ph_world_def wd = spawn_world_def(&scene);
            ph_world *world = ph_world_create(&wd);
            ENSURE(world != NULL);
            world->wide_arms = m == 0 ? WIDE_ARMS_KEPT : WIDE_ARMS_WORKED_OUT;
            ENSURE(spawn_recipe(world, &scene, NULL) == PH_OK);
            for (int step = 0; step < runs[r].steps; step++)
                ph_world_step(world);
            hash[m] = ph_world_hash(world);
            ph_world_destroy(world);
            recipe_scene_free(&scene);
        }
        fprintf(stderr, "%s after %d steps: kept arms %016llx, worked out %016llx\n", runs[r].name,
                runs[r].steps, (unsigned long long)hash[0], (unsigned long long)hash[1]);
        ENSURE(hash[0] == hash[1]);
    }
    return 0;
}

// The velocity sub-step of the solver's loop over constrained bodies (solver_motion, a record per body
// listed before the sub-steps) is bit for bit ph_body_integrate_velocity for the bodies it takes: isotropic
// ones without torque (cubes, spheres), damped or not, with a gravity scale, with an applied force, and
// spinning past the most rotation a sub-step allows. A body with a torque or an anisotropic inertia is
// left to ph_body_integrate_velocity (its record says so).
static int solver_motion_matches_integrate_velocity(void)
{
    ph_world_def wd = ph_default_world_def();
    ph_world *w = ph_world_create(&wd);
    ENSURE(w != NULL);
    enum
    {
        PLAIN = 6,
        BODIES = PLAIN + 3
    };
    ph_body_id ids[BODIES];
    for (int i = 0; i < BODIES; i++)
    {
        ph_body_def d = ph_default_body_def();
        d.type = PH_BODY_DYNAMIC;
        d.enable_sleep = false;
        d.position = ph_v3(10.0f * (float)i, 5, 0);
        d.linear_velocity = ph_v3(0.3f * (float)i - 1.0f, -2.0f, 0.7f);
        d.angular_velocity = ph_v3(0.1f * (float)i, -0.4f, 1.3f);
        switch (i)
        {
        case 1: // undamped
            d.linear_damping = d.angular_damping = 0.0f;
            break;
        case 2: // one damping only, a gravity scale
            d.angular_damping = 0.0f;
            d.gravity_scale = 0.37f;
            break;
        case 3: // a sphere spinning past the most rotation of a sub-step
            d.shape = ph_make_sphere(0.4f);
            d.angular_velocity = ph_v3(300.0f, -200.0f, 90.0f);
            break;
        case 4: // heavily damped, applied force below
            d.linear_damping = 3.0f;
            d.angular_damping = 7.5f;
            break;
        case 5: // a cube spinning fast, undamped
            d.angular_damping = 0.0f;
            d.angular_velocity = ph_v3(-150.0f, 260.0f, 10.0f);
            break;
        case PLAIN: // anisotropic
            d.shape = ph_make_box(ph_v3(0.5f, 0.2f, 1.0f));
            d.angular_velocity = ph_v3(3.0f, 1.0f, -2.0f);
            break;
        case PLAIN + 1: // anisotropic, turning too slowly for the gyroscopic term
            d.shape = ph_make_capsule(0.5f, 0.2f);
            d.angular_velocity = ph_v3(0.0f, 1e-4f, 0.0f);
            break;
        default: // a cube with a torque (below)
            break;
        }
        ids[i] = ph_body_create(w, &d);
        ENSURE(!PH_ID_IS_NULL(ids[i]));
    }
    ENSURE(ph_body_apply_force(w, ids[4], ph_v3(3.0f, -1.5f, 0.25f)) == PH_OK);
    ENSURE(ph_body_apply_torque(w, ids[PLAIN + 2], ph_v3(0.5f, 0.0f, -0.1f)) == PH_OK);
    float h = w->def.time_step / (float)w->def.substeps, max_speed = BODY_MAX_ROTATION / h;
    int capped = 0;
    for (int i = 0; i < BODIES; i++)
    {
        int slot = (int)ids[i].index1 - 1;
        const ph_body *body = &w->bodies[slot];
        ph_body_state st = w->states[slot];
        st.inv_inertia = ph_body_world_inv_inertia(body, body->xf.q);
        solver_motion m = solver_motion_of(body, slot, w->def.gravity, h);
        ENSURE(m.slot == (i < PLAIN ? slot : -1 - slot));
        if (i >= PLAIN)
            continue;
        ph_body_state ref = st;
        for (int s = 0; s < 8; s++)
        {
            capped += glms_vec3_dot(ref.w, ref.w) > max_speed * max_speed;
            ph_body_integrate_velocity(body, &ref, w->def.gravity, h, h);
            solver_integrate_velocity(&m, &st, h, max_speed);
            ENSURE(memcmp(&ref, &st, sizeof st) == 0);
        }
        // The velocities changed (the comparison is not of bodies left as they were).
        ENSURE(memcmp(&ref.v, &w->states[slot].v, sizeof ref.v) != 0);
    }
    ENSURE(capped >= 2);
    ph_world_destroy(w);
    return 0;
}

// Whether every contact's brief matches it; counts the touching and the speculative (points, none
// touching) contacts.
static int briefs_match(const ph_world *w, int *touching, int *apart)
{
    const ph_contact_set *set = &w->contacts;
    for (int k = 0; k < set->count; k++)
    {
        const ph_contact *c = &set->items[k];
        const ph_contact_brief *b = &set->briefs[k];
        ENSURE(b->a == c->a && b->b == c->b && b->point_count == c->manifold.point_count);
        ENSURE(b->touching == (c->manifold.point_count > 0 && ph_contact_is_touching(c)));
        if (c->manifold.point_count > 0)
            ENSURE(memcmp(&b->normal, &c->manifold.normal, sizeof b->normal) == 0);
        *touching += b->touching;
        *apart += b->point_count > 0 && !b->touching;
    }
    return 0;
}

// The contacts' briefs (what islands and the solver's selection read instead of the contacts) match the
// contacts after every step, while boxes fall onto the floor and onto each other (contacts appear, carry
// over and lose their points), and right after a body in contact is destroyed (its contacts removed from
// the set between steps).
static int solver_contact_briefs_match_contacts(void)
{
    ph_world *w = flat_world(0.5f);
    ENSURE(w != NULL);
    enum
    {
        BOXES = 12
    };
    ph_body_id ids[BOXES];
    for (int i = 0; i < BOXES; i++)
    {
        ph_body_def d = ph_default_body_def();
        d.type = PH_BODY_DYNAMIC;
        d.position = ph_v3(0.3f * (float)(i % 3), 0.6f + 1.2f * (float)i, 0.2f * (float)(i % 2));
        d.angular_velocity = ph_v3(0.5f, 0.0f, 0.3f * (float)(i % 4));
        ids[i] = ph_body_create(w, &d);
        ENSURE(!PH_ID_IS_NULL(ids[i]));
    }
    int touching = 0, apart = 0;
    for (int s = 0; s < 120; s++)
    {
        if (s == 70)
        {
            int before = w->contacts.count;
            ENSURE(ph_body_destroy(w, ids[3]) == PH_OK);
            ENSURE(w->contacts.count < before);
            ENSURE(briefs_match(w, &touching, &apart) == 0);
        }
        ph_world_step(w);
        ENSURE(briefs_match(w, &touching, &apart) == 0);
    }
    ENSURE(touching > 0 && apart > 0);
    ph_world_destroy(w);
    return 0;
}

// Whether two contacts hold the same: the key fields, the GJK cache's vertices in use, the manifold and
// impulses up to its point count and, for a recyclable one, the state it was built in (the rest of a
// contact is not read again before it is written: contact.c, carry_contact).
static bool same_contact(const ph_contact *x, const ph_contact *y)
{
    int n = x->manifold.point_count, v = x->cache.simplex.count;
    if (n != y->manifold.point_count || v != y->cache.simplex.count || v < 0 || v > 4)
        return false;
    if (memcmp(x, y, offsetof(ph_contact, cache.simplex.v) + (size_t)v * sizeof x->cache.simplex.v[0]) != 0)
        return false;
    if (x->recyclable != y->recyclable)
        return false;
    bool same =
        n == 0 ||
        (memcmp(&x->manifold.normal, &y->manifold.normal, sizeof x->manifold.normal) == 0 &&
         memcmp(x->manifold.points, y->manifold.points, (size_t)n * sizeof x->manifold.points[0]) == 0 &&
         memcmp(x->normal_impulse, y->normal_impulse, (size_t)n * sizeof x->normal_impulse[0]) == 0 &&
         memcmp(x->friction_impulse, y->friction_impulse, sizeof x->friction_impulse) == 0 &&
         x->twist_impulse == y->twist_impulse && x->patch_radius == y->patch_radius &&
         x->radius_a == y->radius_a && x->radius_b == y->radius_b);
    if (same && x->recyclable)
        same =
            memcmp(&x->built_q_a, &y->built_q_a, sizeof x->built_q_a) == 0 &&
            memcmp(&x->built_q_b, &y->built_q_b, sizeof x->built_q_b) == 0 &&
            memcmp(&x->built_offset, &y->built_offset, sizeof x->built_offset) == 0 &&
            memcmp(x->built_anchor_a, y->built_anchor_a, (size_t)n * sizeof x->built_anchor_a[0]) == 0 &&
            memcmp(x->built_anchor_b, y->built_anchor_b, (size_t)n * sizeof x->built_anchor_b[0]) == 0 &&
            memcmp(x->built_separation, y->built_separation, (size_t)n * sizeof x->built_separation[0]) == 0;
    return same;
}

// The narrow phase compares this step's pairs with last step's candidates instead of the contacts while
// the set is keyed (contact.h): the contacts come out byte for byte as when every step compares with the
// contacts themselves (a second world, its set unkeyed before each step), while boxes fall and scatter
// (pairs appear and go) and after a body is destroyed (which unkeys the set). Keyed after every step, last
// step's candidates then have the contacts' keys.
static int solver_keyed_contacts_match(void)
{
    ph_world *w[2];
    enum
    {
        BOXES = 16
    };
    ph_body_id ids[2][BOXES];
    for (int k = 0; k < 2; k++)
    {
        w[k] = flat_world(0.5f);
        ENSURE(w[k] != NULL);
        for (int i = 0; i < BOXES; i++)
        {
            ph_body_def d = ph_default_body_def();
            d.type = PH_BODY_DYNAMIC;
            d.position = ph_v3(0.45f * (float)(i % 4), 0.6f + 1.1f * (float)i, 0.25f * (float)(i % 3));
            d.linear_velocity = ph_v3(0.8f * (float)(i % 3) - 0.8f, 0.0f, 0.5f * (float)(i % 2));
            d.angular_velocity = ph_v3(0.5f, 0.0f, 0.3f * (float)(i % 4));
            ids[k][i] = ph_body_create(w[k], &d);
            ENSURE(!PH_ID_IS_NULL(ids[k][i]));
        }
    }
    int merges = 0;
    for (int s = 0; s < 150; s++)
    {
        if (s == 90)
            for (int k = 0; k < 2; k++)
            {
                ENSURE(ph_body_destroy(w[k], ids[k][5]) == PH_OK);
                ENSURE(!w[k]->contacts.keyed);
            }
        int before = w[0]->contacts.count;
        w[1]->contacts.keyed = false;
        for (int k = 0; k < 2; k++)
            ph_world_step(w[k]);
        const ph_contact_set *a = &w[0]->contacts, *b = &w[1]->contacts;
        ENSURE(a->keyed && b->keyed);
        ENSURE(a->count == b->count && a->count == a->candidate_count);
        merges += a->count != before;
        for (int k = 0; k < a->count; k++)
        {
            ENSURE(same_contact(&a->items[k], &b->items[k]));
            ENSURE(a->candidates[k].key == a->items[k].key && a->candidates[k].sub == a->items[k].sub);
        }
    }
    ENSURE(merges > 5);
    for (int k = 0; k < 2; k++)
        ph_world_destroy(w[k]);
    return 0;
}

// A contact's friction and restitution (the geometric mean and the larger of its bodies') are computed
// when the contact is new and carried with it after that: they stay those of the bodies' materials while
// boxes of different materials fall onto the floor and each other, and after a body is destroyed and a
// new one of another material takes its slot (its contacts are new ones, not carried).
static int solver_contact_materials_carried(void)
{
    ph_world *w = flat_world(0.9f);
    ENSURE(w != NULL);
    enum
    {
        BOXES = 10
    };
    ph_body_id ids[BOXES];
    ph_body_def defs[BOXES];
    for (int i = 0; i < BOXES; i++)
    {
        ph_body_def d = ph_default_body_def();
        d.type = PH_BODY_DYNAMIC;
        d.position = ph_v3(0.4f * (float)(i % 3), 0.6f + 1.1f * (float)i, 0.0f);
        d.material.friction = 0.1f + 0.13f * (float)i;
        d.material.restitution = 0.05f * (float)(i % 4);
        defs[i] = d;
        ids[i] = ph_body_create(w, &d);
        ENSURE(!PH_ID_IS_NULL(ids[i]));
    }
    int checked = 0;
    for (int s = 0; s < 150; s++)
    {
        if (s == 80)
        {
            // A new body in the destroyed one's slot, of another material, where the old one lay.
            ph_transform xf = ph_body_get_transform(w, ids[2]);
            ENSURE(ph_body_destroy(w, ids[2]) == PH_OK);
            ph_body_def d = defs[2];
            d.position = xf.p;
            d.material.friction = 0.05f;
            d.material.restitution = 0.7f;
            ph_body_id id = ph_body_create(w, &d);
            ENSURE(id.index1 == ids[2].index1);
            ids[2] = id;
        }
        ph_world_step(w);
        for (int k = 0; k < w->contacts.count; k++)
        {
            const ph_contact *c = &w->contacts.items[k];
            ph_material ma = w->bodies[c->a].material, mb = w->bodies[c->b].material;
            ENSURE(c->friction == sqrtf(ma.friction * mb.friction));
            ENSURE(c->restitution == fmaxf(ma.restitution, mb.restitution));
            checked += s > 80 && (c->a == (int)ids[2].index1 - 1 || c->b == (int)ids[2].index1 - 1);
        }
    }
    ENSURE(checked > 0);
    ph_world_destroy(w);
    return 0;
}

const test_case test_solver_cases[] = {
    {"solver_rests", solver_rests},
    {"solver_coulomb_limit", solver_coulomb_limit},
    {"solver_restitution_threshold", solver_restitution_threshold},
    {"solver_speculative_stop", solver_speculative_stop},
    {"solver_wide_conserves_momentum", solver_wide_conserves_momentum},
    {"solver_wide_matches_scalar", solver_wide_matches_scalar},
    {"solver_wide_positions_match_scalar", solver_wide_positions_match_scalar},
    {"solver_wide_interleave_exact", solver_wide_interleave_exact},
    {"solver_wide_kept_arms_exact", solver_wide_kept_arms_exact},
    {"solver_wide_lanes_independent", solver_wide_lanes_independent},
    {"solver_wide_kept_arms_scenes_match", solver_wide_kept_arms_scenes_match},
    {"solver_motion_matches_integrate_velocity", solver_motion_matches_integrate_velocity},
    {"solver_contact_briefs_match_contacts", solver_contact_briefs_match_contacts},
    {"solver_keyed_contacts_match", solver_keyed_contacts_match},
    {"solver_contact_materials_carried", solver_contact_materials_carried},
    {0},
};
