// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The public API's error paths: every bad argument is rejected with a status and a message naming the
// field and value (never a crash), stale ids are reported, destroy frees everything (byte count back to
// its start), and a settled world steps without any heap allocation.
#include "test.h"

#include "phys/phys.h"

#include <math.h>   // NAN
#include <stdlib.h> // malloc, free (the counting allocator)
#include <string.h> // strstr

#define API_SETTLE_STEPS 240
#define API_CHECK_STEPS 100

static int log_count;
static void count_log(ph_log_level level, const char *message, void *ctx)
{
    (void)level;
    (void)message;
    (void)ctx;
    log_count++;
}

static ph_world *make_world(void)
{
    ph_world_def def = ph_default_world_def();
    return ph_world_create(&def);
}

// Creates a body from def, expects failure with `status` and a message containing `needle`.
static int expect_rejected(ph_world *w, const ph_body_def *def, ph_status status, const char *needle)
{
    int logs = log_count;
    ph_body_id id = ph_body_create(w, def);
    ENSURE(PH_ID_IS_NULL(id));
    ph_error e = ph_world_last_error(w);
    if (e.status != status || !strstr(e.message, needle))
    {
        fprintf(stderr, "status %d message '%s', expected %d and '%s'\n", (int)e.status, e.message,
                (int)status, needle);
        return 1;
    }
    ENSURE(log_count > logs);
    return 0;
}

static int api_rejects_bad_body_defs(void)
{
    ph_set_log(count_log, NULL);
    size_t start = ph_byte_count();
    ph_world *w = make_world();
    ENSURE(w != NULL);
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;

    ph_body_def bad = d;
    bad.position.y = NAN;
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "def.position") == 0);
    bad = d;
    bad.linear_velocity.x = INFINITY;
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "def.linear_velocity") == 0);
    bad = d;
    bad.shape = ph_make_box(ph_v3(0.5f, -1.0f, 0.5f));
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "half_extents") == 0);
    bad = d;
    bad.shape = ph_make_sphere(0.0f);
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "def.shape.radius is 0") == 0);
    bad = d;
    bad.mass = -2.0f;
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "def.mass is -2") == 0);
    bad = d;
    bad.material.density = 0.0f;
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "def.material.density") == 0);
    bad = d;
    bad.material.restitution = 1.5f;
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "restitution is 1.5") == 0);
    bad = d;
    bad.type = (ph_body_type)7;
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "def.type is 7") == 0);
    bad = d;
    bad.shape.type = (ph_shape_type)42;
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "def.shape.type is 42") == 0);
    bad = d;
    bad.orientation.w = 2.0f;
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "def.orientation") == 0);
    bad = d;
    bad.internal_cookie = 0;
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "ph_default_body_def") == 0);
    ENSURE(expect_rejected(w, NULL, PH_ERR_INVALID_ARG, "NULL") == 0);
    bad = d;
    bad.shape = ph_make_geom_shape(PH_SHAPE_HULL, (ph_geom_id){5, 1});
    ENSURE(expect_rejected(w, &bad, PH_ERR_STALE_ID, "def.shape.geom") == 0);
    ENSURE(ph_world_get_body_count(w) == 0);

    // A mesh shape on a dynamic body is refused; on a static body it is fine.
    ph_vec3 verts[3] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 0, 1}}};
    int idx[3] = {0, 1, 2};
    ph_mesh_def md = ph_default_mesh_def();
    md.vertices = verts;
    md.vertex_count = 3;
    md.indices = idx;
    md.triangle_count = 1;
    ph_geom_id mesh = ph_world_add_mesh(w, &md);
    ENSURE(!PH_ID_IS_NULL(mesh));
    bad = d;
    bad.shape = ph_make_geom_shape(PH_SHAPE_MESH, mesh);
    ENSURE(expect_rejected(w, &bad, PH_ERR_INVALID_ARG, "only allowed on static") == 0);
    bad.type = PH_BODY_STATIC;
    ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &bad)));

    ph_world_destroy(w);
    ENSURE(ph_byte_count() == start);
    ph_set_log(NULL, NULL);
    return 0;
}

static int api_rejects_bad_world_defs_and_calls(void)
{
    ph_set_log(count_log, NULL);
    size_t start = ph_byte_count();
    ph_world_def wd = ph_default_world_def();
    wd.time_step = -1.0f;
    int logs = log_count;
    ENSURE(ph_world_create(&wd) == NULL);
    ENSURE(log_count > logs);
    wd = ph_default_world_def();
    wd.gravity.x = NAN;
    ENSURE(ph_world_create(&wd) == NULL);
    wd = ph_default_world_def();
    wd.internal_cookie = 1;
    ENSURE(ph_world_create(&wd) == NULL);
    wd = ph_default_world_def();
    wd.max_substeps = wd.substeps - 1; // the most sub-steps below the least
    ENSURE(ph_world_create(&wd) == NULL);
    wd = ph_default_world_def();
    wd.substeps = 0;
    ENSURE(ph_world_create(&wd) == NULL);
    ENSURE(ph_world_create(NULL) == NULL);
    ENSURE(ph_byte_count() == start);

    ph_world *w = make_world();
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    ph_body_id b = ph_body_create(w, &d);
    ENSURE(ph_body_apply_impulse(w, b, ph_v3(NAN, 0, 0)) == PH_ERR_INVALID_ARG);
    ENSURE(strstr(ph_world_last_error(w).message, "impulse") != NULL);
    ENSURE(ph_body_set_linear_velocity(w, b, ph_v3(0, INFINITY, 0)) == PH_ERR_INVALID_ARG);
    ENSURE(ph_world_set_gravity(w, ph_v3(0, NAN, 0)) == PH_ERR_INVALID_ARG);
    ENSURE(!ph_world_cast_ray(w, ph_v3(0, 0, 0), ph_v3(0, 2, 0), 10.0f, NULL)); // not unit
    ENSURE(strstr(ph_world_last_error(w).message, "dir") != NULL);
    ph_compound_def cd = ph_default_compound_def();
    ENSURE(PH_ID_IS_NULL(ph_world_add_compound(w, &cd))); // no children
    ENSURE(strstr(ph_world_last_error(w).message, "child_count") != NULL);
    ph_world_destroy(w);
    ENSURE(ph_byte_count() == start);
    ph_set_log(NULL, NULL);
    return 0;
}

static int api_stale_ids(void)
{
    ph_world *w = make_world();
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    ph_body_id a = ph_body_create(w, &d);
    ENSURE(ph_body_is_valid(w, a));
    ENSURE(ph_body_destroy(w, a) == PH_OK);
    ENSURE(!ph_body_is_valid(w, a));
    ENSURE(ph_body_destroy(w, a) == PH_ERR_STALE_ID);
    ph_body_id b = ph_body_create(w, &d); // reuses the slot with a new generation
    ENSURE(b.index1 == a.index1 && b.generation != a.generation);
    ph_vec3 p = ph_body_get_position(w, a);
    ENSURE(p.x == 0.0f && p.y == 0.0f && p.z == 0.0f);
    ENSURE(ph_world_last_error(w).status == PH_ERR_STALE_ID);
    ENSURE(strstr(ph_world_last_error(w).message, "does not name a live body") != NULL);
    ENSURE(ph_body_apply_force(w, a, ph_v3(1, 0, 0)) == PH_ERR_STALE_ID);
    ENSURE(ph_body_is_valid(w, b));
    ENSURE(!ph_body_is_valid(w, PH_NULL_BODY_ID));
    ph_world_destroy(w);
    return 0;
}

static int api_destroy_frees_everything(void)
{
    size_t start = ph_byte_count();
    ph_world *w = make_world();
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_box(ph_v3(10, 1, 10));
    g.position = ph_v3(0, -1, 0);
    ph_body_create(w, &g);
    ph_vec3 pts[8];
    for (int i = 0; i < 8; i++)
        pts[i] = ph_v3(i & 1 ? 0.5f : -0.5f, i & 2 ? 0.5f : -0.5f, i & 4 ? 0.5f : -0.5f);
    ph_hull_def hd = ph_default_hull_def();
    hd.points = pts;
    hd.point_count = 8;
    ph_geom_id hull = ph_world_add_hull(w, &hd);
    ENSURE(!PH_ID_IS_NULL(hull));
    ph_compound_child_def kids[2];
    kids[0].shape = ph_make_box(ph_v3(0.5f, 0.1f, 0.1f));
    kids[0].local = ph_transform_identity();
    kids[0].density = 1000.0f;
    kids[1].shape = ph_make_sphere(0.2f);
    kids[1].local = ph_transform_identity();
    kids[1].local.p = ph_v3(0.5f, 0, 0);
    kids[1].density = 500.0f;
    ph_compound_def cd = ph_default_compound_def();
    cd.children = kids;
    cd.child_count = 2;
    ph_geom_id comp = ph_world_add_compound(w, &cd);
    ENSURE(!PH_ID_IS_NULL(comp));
    for (int i = 0; i < 30; i++)
    {
        ph_body_def d = ph_default_body_def();
        d.type = PH_BODY_DYNAMIC;
        d.position = ph_v3((float)(i % 5) * 1.2f - 2.5f, 1.0f + (float)(i / 5) * 1.2f, 0);
        d.shape = i % 3 == 0   ? ph_make_geom_shape(PH_SHAPE_HULL, hull)
                  : i % 3 == 1 ? ph_make_geom_shape(PH_SHAPE_COMPOUND, comp)
                               : ph_make_capsule(0.2f, 0.2f);
        ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &d)));
    }
    for (int s = 0; s < 60; s++)
        ph_world_step(w);
    ENSURE(ph_world_get_hull(w, hull) != NULL && ph_world_get_compound(w, comp) != NULL);
    ENSURE(ph_world_get_mesh(w, hull) == NULL);
    ph_world_destroy(w);
    ENSURE(ph_byte_count() == start);
    return 0;
}

// Allocator hooks that count the calls (api_no_allocation_after_warmup): the byte count alone would not see
// a block taken and given back within one step.
static void *counting_alloc(size_t size, void *ctx)
{
    ++*(long *)ctx;
    return malloc(size);
}

static void counting_free(void *ptr, size_t size, void *ctx)
{
    (void)size;
    (void)ctx;
    free(ptr);
}

// A settled pile of side x side x side boxes, stepped with `workers` workers: after warm-up (the arena at its
// high-water mark, the arrays at their sizes) no step calls the allocator, and the byte count stays.
static int settled_steps_allocate_nothing(int side, int workers)
{
    ph_world_def wd = ph_default_world_def();
    wd.enable_sleep = false; // keep every stage busy
    wd.worker_count = workers;
    ph_world *w = ph_world_create(&wd);
    ENSURE(w != NULL);
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_box(ph_v3(20, 1, 20));
    g.position = ph_v3(0, -1, 0);
    ph_body_create(w, &g);
    for (int i = 0; i < side * side * side; i++)
    {
        ph_body_def d = ph_default_body_def();
        d.type = PH_BODY_DYNAMIC;
        d.position = ph_v3((float)(i % side) * 1.05f, 0.5f + (float)(i / (side * side)) * 1.0f,
                           (float)((i / side) % side) * 1.05f);
        ph_body_create(w, &d);
    }
    for (int s = 0; s < API_SETTLE_STEPS; s++)
        ph_world_step(w);
    size_t bytes = ph_byte_count();
    long calls = 0;
    ph_set_allocator(counting_alloc, counting_free, &calls);
    for (int s = 0; s < API_CHECK_STEPS; s++)
    {
        ph_world_step(w);
        ENSURE(ph_byte_count() == bytes);
    }
    ph_set_allocator(NULL, NULL, NULL);
    if (calls != 0)
        fprintf(stderr, "%d workers: %ld allocator calls in %d settled steps\n", workers, calls,
                API_CHECK_STEPS);
    ENSURE(calls == 0);
    ENSURE(ph_world_get_stats(w)->contact_point_count > 0);
    ph_world_destroy(w);
    return 0;
}

// After warm-up, stepping a settled pile allocates nothing, with one worker or several (a pile big enough
// that the stages split their work: per-range outputs live in the step's arena, sized during warm-up).
static int api_no_allocation_after_warmup(void)
{
    ENSURE(settled_steps_allocate_nothing(4, 1) == 0);
    ENSURE(settled_steps_allocate_nothing(8, 2) == 0);
    return 0;
}

static int api_queries(void)
{
    ph_world *w = make_world();
    ph_body_def d = ph_default_body_def();
    d.position = ph_v3(0, 0, 5);
    ph_body_id box = ph_body_create(w, &d);
    d.position = ph_v3(0, 0, 10);
    d.shape = ph_make_sphere(1.0f);
    ph_body_id ball = ph_body_create(w, &d);
    ph_ray_result r;
    ENSURE(ph_world_cast_ray(w, ph_v3(0, 0, 0), ph_v3(0, 0, 1), 100.0f, &r));
    ENSURE(PH_ID_EQUALS(r.body, box));
    ENSURE_NEAR(r.distance, 4.5f, 1e-4f);
    ENSURE(ph_world_cast_ray(w, ph_v3(0, 0, 20), ph_v3(0, 0, -1), 100.0f, &r));
    ENSURE(PH_ID_EQUALS(r.body, ball));
    ENSURE_NEAR(r.distance, 9.0f, 1e-4f);
    ENSURE(!ph_world_cast_ray(w, ph_v3(5, 0, 0), ph_v3(0, 0, 1), 100.0f, &r));
    ph_body_id ids[4];
    ph_aabb q = {ph_v3(-1, -1, 8), ph_v3(1, 1, 9.5f)};
    ENSURE(ph_world_query_box(w, q, ids, 4) == 1 && PH_ID_EQUALS(ids[0], ball));
    // A frustum (here a box as six planes) around the box only.
    ph_vec4 planes[6] = {{{1, 0, 0, 2}},  {{-1, 0, 0, 2}}, {{0, 1, 0, 2}},
                         {{0, -1, 0, 2}}, {{0, 0, 1, -3}}, {{0, 0, -1, 7}}};
    ENSURE(ph_world_query_frustum(w, planes, ids, 4) == 1 && PH_ID_EQUALS(ids[0], box));
    ph_world_destroy(w);
    return 0;
}

static int api_defaults_and_names(void)
{
    ph_body_def d = ph_default_body_def();
    ENSURE(d.type == PH_BODY_STATIC && d.material.friction == 0.6f && d.material.restitution == 0.0f);
    ENSURE(d.shape.type == PH_SHAPE_BOX && d.shape.half_extents.x == 0.5f);
    ph_world_def wd = ph_default_world_def();
    ENSURE_NEAR(wd.gravity.y, -9.81f, 1e-6f);
    ENSURE_NEAR(wd.time_step, 1.0f / 60.0f, 1e-9f);
    ENSURE(wd.calendar_event_budget == 1024 && wd.calendar_events_per_pair == 8);
    ENSURE(strcmp(ph_stage_name(PH_STAGE_CALENDAR), "calendar") == 0);
    ENSURE(strcmp(ph_stage_name((ph_stage)99), "unknown") == 0);
    ph_shape c = ph_make_capsule(0.3f, 0.1f);
    ENSURE(c.type == PH_SHAPE_CAPSULE && c.half_height == 0.3f && c.radius == 0.1f);
    return 0;
}

// def.mass_properties replaces the shape's mass, centre and inertia of a moving body, and is checked.
static int api_body_mass_properties(void)
{
    ph_set_log(count_log, NULL);
    ph_world *w = make_world();
    ENSURE(w != NULL);
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    ph_mass_properties mp = {0};
    mp.mass = 2.0f;
    mp.center = ph_v3(0.1f, -0.2f, 0.3f);
    mp.inertia = glms_mat3_identity();
    mp.inertia.col[0].raw[1] = mp.inertia.col[1].raw[0] = 0.25f;
    d.mass_properties = &mp;
    ph_body_id b = ph_body_create(w, &d);
    ENSURE(!PH_ID_IS_NULL(b));
    ENSURE_NEAR(ph_body_get_mass(w, b), 2.0f, 0.0f);
    ENSURE_VEC3_NEAR(ph_body_get_center_of_mass(w, b), mp.center, 1e-6f);
    ph_mat3 in = ph_body_get_world_inertia(w, b);
    ENSURE_NEAR(in.col[0].raw[1], 0.25f, 1e-6f);
    ENSURE_NEAR(in.col[2].raw[2], 1.0f, 1e-6f);

    ph_mass_properties bad = mp;
    d.mass_properties = &bad;
    bad.mass = 0.0f;
    ENSURE(expect_rejected(w, &d, PH_ERR_INVALID_ARG, "def.mass_properties->mass") == 0);
    bad = mp;
    bad.center.x = 2e4f;
    ENSURE(expect_rejected(w, &d, PH_ERR_INVALID_ARG, "def.mass_properties->center") == 0);
    bad = mp;
    bad.inertia.col[0].raw[1] = 0.5f; // not symmetric
    ENSURE(expect_rejected(w, &d, PH_ERR_INVALID_ARG, "def.mass_properties->inertia") == 0);
    bad = mp;
    bad.inertia.col[0].raw[1] = bad.inertia.col[1].raw[0] = 2.0f; // indefinite
    ENSURE(expect_rejected(w, &d, PH_ERR_INVALID_ARG, "def.mass_properties->inertia") == 0);
    bad = mp;
    bad.inertia.col[2].raw[2] = NAN;
    ENSURE(expect_rejected(w, &d, PH_ERR_INVALID_ARG, "def.mass_properties->inertia") == 0);
    // A static body ignores them.
    d.type = PH_BODY_STATIC;
    d.mass_properties = &mp;
    ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &d)));
    ph_world_destroy(w);
    ph_set_log(NULL, NULL);
    return 0;
}

// A body made again from what the API reads of it (the world's last sub-step, then position, orientation,
// velocities and the carried spin) has the same state to the bit: a box of three different edges swinging
// and spinning off its axes on a ball joint, whose solver sub-steps carry a spin that differs from the
// angular velocity now, made again in a new world hashes as the first world does. Bad sub-steps and spins
// are refused.
static int api_body_made_again_exactly(void)
{
    ph_world_def wd = ph_default_world_def();
    ph_world *w = ph_world_create(&wd), *copy = ph_world_create(&wd);
    ENSURE(w != NULL && copy != NULL);
    ph_body_def bd = ph_default_body_def();
    bd.type = PH_BODY_DYNAMIC;
    bd.shape = ph_make_box(ph_v3(0.5f, 0.2f, 0.1f));
    bd.angular_velocity = ph_v3(3.0f, 0.2f, 1.0f);
    bd.angular_damping = 0.0f;
    bd.enable_sleep = false;
    ph_body_id a = ph_body_create(w, &bd);
    ENSURE(!PH_ID_IS_NULL(a));
    ph_joint_def jd = ph_default_joint_def(PH_JOINT_SPHERICAL);
    jd.body_b = a;
    jd.frame_a.p = ph_v3(0.5f, 0.2f, 0.1f); // a corner (the body's frame is the world's at the start)
    jd.frame_b.p = jd.frame_a.p;
    ENSURE(!PH_ID_IS_NULL(ph_joint_create(w, &jd)));
    for (int s = 0; s < 20; s++)
        ph_world_step(w);
    ph_vec3 now = ph_body_get_angular_velocity(w, a), carried = ph_body_get_carried_spin(w, a);
    ENSURE(glms_vec3_distance(now, carried) > 0.0f); // what the carried spin is for
    ENSURE(ph_world_set_last_substep(copy, ph_world_get_last_substep(w)) == PH_OK);
    ph_body_def cd = bd;
    cd.position = ph_body_get_position(w, a);
    cd.orientation = ph_body_get_orientation(w, a);
    cd.linear_velocity = ph_body_get_linear_velocity(w, a);
    cd.angular_velocity = now;
    ph_body_id b = ph_body_create(copy, &cd);
    ENSURE(!PH_ID_IS_NULL(b));
    ENSURE(ph_body_set_carried_spin(copy, b, carried) == PH_OK);
    fprintf(stderr, "  spin now and carried differ by %.3g rad/s\n",
            (double)glms_vec3_distance(now, carried));
    ENSURE(ph_world_hash(copy) == ph_world_hash(w));
    const float bad[] = {-1.0f, 2.0f * wd.time_step, NAN};
    for (int i = 0; i < 3; i++)
        ENSURE(ph_world_set_last_substep(copy, bad[i]) == PH_ERR_INVALID_ARG);
    ENSURE(ph_body_set_carried_spin(copy, b, ph_v3(NAN, 0, 0)) == PH_ERR_INVALID_ARG);
    ph_world_destroy(copy);
    ph_world_destroy(w);
    return 0;
}

const test_case test_api_cases[] = {
    {"api_body_mass_properties", api_body_mass_properties},
    {"api_rejects_bad_body_defs", api_rejects_bad_body_defs},
    {"api_rejects_bad_world_defs_and_calls", api_rejects_bad_world_defs_and_calls},
    {"api_stale_ids", api_stale_ids},
    {"api_destroy_frees_everything", api_destroy_frees_everything},
    {"api_no_allocation_after_warmup", api_no_allocation_after_warmup},
    {"api_queries", api_queries},
    {"api_defaults_and_names", api_defaults_and_names},
    {"api_body_made_again_exactly", api_body_made_again_exactly},
    {0},
};
