// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Default defs, shape and material constructors and stage names (types.h, phys.h). The cookies mark a
// def as made by its ph_default_*_def(); world.c checks them before reading anything else.
#include "types_internal.h"

ph_material ph_default_material(void)
{
    ph_material m;
    m.density = PH_DEFAULT_DENSITY;
    m.friction = PH_DEFAULT_FRICTION;
    m.restitution = 0.0f;
    return m;
}

ph_shape ph_make_box(ph_vec3 half_extents)
{
    ph_shape s = {0};
    s.type = PH_SHAPE_BOX;
    s.half_extents = half_extents;
    return s;
}

ph_shape ph_make_sphere(float radius)
{
    ph_shape s = {0};
    s.type = PH_SHAPE_SPHERE;
    s.radius = radius;
    return s;
}

ph_shape ph_make_capsule(float half_height, float radius)
{
    ph_shape s = {0};
    s.type = PH_SHAPE_CAPSULE;
    s.half_height = half_height;
    s.radius = radius;
    return s;
}

ph_shape ph_make_geom_shape(ph_shape_type type, ph_geom_id geom)
{
    ph_shape s = {0};
    s.type = type;
    s.geom = geom;
    return s;
}

ph_body_def ph_default_body_def(void)
{
    ph_body_def d = {0};
    d.type = PH_BODY_STATIC;
    d.position = glms_vec3_zero();
    d.orientation = glms_quat_identity();
    d.linear_velocity = glms_vec3_zero();
    d.angular_velocity = glms_vec3_zero();
    d.linear_damping = PH_DEFAULT_LINEAR_DAMPING;
    d.angular_damping = PH_DEFAULT_ANGULAR_DAMPING;
    d.gravity_scale = 1.0f;
    d.mass = 0.0f;
    d.mass_properties = NULL;
    d.enable_sleep = true;
    d.is_awake = true;
    d.shape = ph_make_box(ph_v3(PH_DEFAULT_BOX_HALF, PH_DEFAULT_BOX_HALF, PH_DEFAULT_BOX_HALF));
    d.material = ph_default_material();
    d.user_data = NULL;
    d.internal_cookie = PH_BODY_DEF_COOKIE;
    return d;
}

ph_world_def ph_default_world_def(void)
{
    ph_world_def d = {0};
    d.gravity = ph_v3(0.0f, -PH_STANDARD_GRAVITY, 0.0f);
    d.time_step = PH_DEFAULT_TIME_STEP;
    d.solver_iterations = PH_DEFAULT_SOLVER_ITERATIONS;
    d.simd = PH_SIMD_BEST;
    d.substeps = PH_DEFAULT_SUBSTEPS;
    d.max_substeps = PH_DEFAULT_MAX_SUBSTEPS;
    d.contact_hertz = PH_DEFAULT_CONTACT_HERTZ;
    d.speculative_margin = PH_DEFAULT_SPECULATIVE_MARGIN;
    d.calendar_event_budget = PH_DEFAULT_CALENDAR_BUDGET;
    d.calendar_events_per_pair = PH_DEFAULT_CALENDAR_PER_PAIR;
    d.enable_sleep = true;
    d.enable_calendar = true;
    d.worker_count = 1;
    d.enqueue_task = NULL;
    d.finish_task = NULL;
    d.user_task_context = NULL;
    d.internal_cookie = PH_WORLD_DEF_COOKIE;
    return d;
}

ph_compound_def ph_default_compound_def(void)
{
    ph_compound_def d = {0};
    d.children = NULL;
    d.child_count = 0;
    d.internal_cookie = PH_COMPOUND_DEF_COOKIE;
    return d;
}

const char *ph_stage_name(ph_stage stage)
{
    static const char *names[PH_STAGE_COUNT] = {
        "broadphase", "narrowphase", "manifold", "solver", "integrate", "calendar", "sleep",
    };
    if ((int)stage < 0 || stage >= PH_STAGE_COUNT)
        return "unknown";
    return names[stage];
}
