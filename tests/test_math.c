// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Math helpers of include/phys/math.h against analytic answers.
#include "test.h"

#include "phys/math.h"

// A constant angular velocity w for time T rotates by angle |w| T about w / |w|. Integrating the
// quaternion in small steps must reach that rotation (first-order scheme: error O(dt)).
static int math_quat_integration_constant_spin(void)
{
    ph_vec3 w = ph_v3(0.3f, -1.1f, 0.7f);
    float total = 2.0f;
    int steps = 2000;
    float dt = total / (float)steps;
    ph_quat q = glms_quat_identity();
    for (int i = 0; i < steps; i++)
        q = ph_integrate_rotation(q, w, dt);

    float speed = glms_vec3_norm(w);
    ph_quat expected = glms_quatv(speed * total, glms_vec3_scale(w, 1.0f / speed));
    // q and -q are the same rotation.
    float d = fabsf(glms_quat_dot(q, expected));
    ENSURE_NEAR(d, 1.0f, 1e-5f);
    ENSURE_NEAR(glms_quat_norm(q), 1.0f, 1e-5f);

    // The rotated vectors agree too.
    ph_vec3 x = ph_v3(1.0f, 2.0f, -0.5f);
    ENSURE_VEC3_NEAR(glms_quat_rotatev(q, x), glms_quat_rotatev(expected, x), 2e-3f);
    return 0;
}

// Orientation stays unit length and a spin about a principal axis is exact at any step size.
static int math_quat_integration_axis_spin(void)
{
    ph_vec3 w = ph_v3(0.0f, 0.0f, 3.0f);
    ph_quat q = glms_quat_identity();
    for (int i = 0; i < 60; i++)
        q = ph_integrate_rotation(q, w, 1.0f / 60.0f);
    // Rotating (1,0,0) by 3 rad about z.
    ph_vec3 r = glms_quat_rotatev(q, ph_v3(1.0f, 0.0f, 0.0f));
    // First-order integration of one axis loses a little angle per step: about (w dt)^3 / 12 per step.
    ENSURE_NEAR(atan2f(r.y, r.x), 3.0f, 3e-3f);
    ENSURE_NEAR(r.z, 0.0f, 1e-6f);
    return 0;
}

static int math_transform_roundtrip(void)
{
    uint64_t s = test_seed();
    for (int i = 0; i < 1000; i++)
    {
        ph_transform t;
        t.p = test_rand_vec3(&s, -10.0f, 10.0f);
        t.q = test_rand_quat(&s);
        ph_vec3 x = test_rand_vec3(&s, -5.0f, 5.0f);
        ENSURE_VEC3_NEAR(ph_inv_transform_point(t, ph_transform_point(t, x)), x, 1e-4f);
    }
    return 0;
}

static int math_skew_is_cross_product(void)
{
    uint64_t s = test_seed();
    for (int i = 0; i < 100; i++)
    {
        ph_vec3 a = test_rand_vec3(&s, -3.0f, 3.0f), b = test_rand_vec3(&s, -3.0f, 3.0f);
        ENSURE_VEC3_NEAR(glms_mat3_mulv(ph_skew(a), b), glms_vec3_cross(a, b), 1e-5f);
    }
    return 0;
}

const test_case test_math_cases[] = {
    {"math_quat_integration_constant_spin", math_quat_integration_constant_spin},
    {"math_quat_integration_axis_spin", math_quat_integration_axis_spin},
    {"math_transform_roundtrip", math_transform_roundtrip},
    {"math_skew_is_cross_product", math_skew_is_cross_product},
    {0},
};
