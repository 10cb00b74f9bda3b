// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The API under abuse (issue 24): allocations that fail at every point of a scene's life, inputs at and
// just past every bound of the validity table of phys.h, callbacks that try to change the world, impulses
// that would fling a body past the speed limit, spins far past the cap of a sub-step, and waking a sleeping
// island in a world of many. Every case checks an outcome of the contract (a status and a sentence, an
// unchanged world, finite state, a byte count back at its start), never a time.
#include "test.h"

#include "phys/array.h" // white-box: the growable array's size arithmetic
#include "phys/body.h"  // white-box: BODY_MAX_ROTATION, the documented cap on a sub-step's turn
#include "phys/phys.h"
#include "phys/world.h" // white-box: the world's count of bodies examined by waking

#include <limits.h> // INT_MAX
#include <math.h>   // fabsf
#include <stddef.h> // max_align_t
#include <stdint.h> // SIZE_MAX
#include <stdlib.h> // malloc, free
#include <string.h> // strstr, strlen

// ---- A failing allocator and a recording log hook ------------------------------------------------------

typedef struct fail_alloc
{
    long count;      // allocations asked of the hook so far
    long fail_at;    // the allocation (counted from 1) that fails; 0: none fails
    bool persistent; // every allocation after fail_at fails too
    long failures;   // allocations refused so far
} fail_alloc;

static fail_alloc s_fail;

static void *fail_alloc_fn(size_t size, void *ctx)
{
    fail_alloc *f = ctx;
    f->count++;
    if (f->fail_at > 0 && (f->count == f->fail_at || (f->persistent && f->count > f->fail_at)))
    {
        f->failures++;
        return NULL;
    }
    return malloc(size);
}

static void fail_free_fn(void *ptr, size_t size, void *ctx)
{
    (void)size;
    (void)ctx;
    free(ptr);
}

// Installs the failing allocator with nothing failing yet.
static void fail_install(void)
{
    s_fail = (fail_alloc){0};
    ph_set_allocator(fail_alloc_fn, fail_free_fn, &s_fail);
}

// The k-th allocation from now fails (and every later one when persistent).
static void fail_next(long k, bool persistent)
{
    s_fail.fail_at = s_fail.count + k;
    s_fail.persistent = persistent;
}

static void fail_uninstall(void)
{
    ph_set_allocator(NULL, NULL, NULL);
}

static int s_logs;
static char s_last_log[256];

static void record_log(ph_log_level level, const char *message, void *ctx)
{
    (void)level;
    (void)ctx;
    s_logs++;
    snprintf(s_last_log, sizeof s_last_log, "%s", message);
}

// The last error's status is `status` and its message contains `needle`; prints both when not.
static int expect_error(const ph_world *w, ph_status status, const char *needle)
{
    ph_error e = ph_world_last_error(w);
    if (e.status != status || !strstr(e.message, needle))
    {
        fprintf(stderr, "last error: status %d '%s'; expected status %d and '%s'\n", (int)e.status, e.message,
                (int)status, needle);
        return 1;
    }
    return 0;
}

static bool vec_finite(ph_vec3 v)
{
    return ph_is_finite_vec3(v);
}

static ph_body_def dynamic_box(ph_vec3 position, float half)
{
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.position = position;
    d.shape = ph_make_box(ph_v3(half, half, half));
    return d;
}

static ph_world *make_world(void)
{
    ph_world_def wd = ph_default_world_def();
    return ph_world_create(&wd);
}

static ph_body_id add_ground(ph_world *w, float half)
{
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_box(ph_v3(half, 1.0f, half));
    g.position = ph_v3(0.0f, -1.0f, 0.0f);
    return ph_body_create(w, &g);
}

// ---- Defect 1: a body creation that runs out of memory ---------------------------------------------------

#define PILE_COLUMNS 9
#define PILE_HEIGHT 7 // 9 columns of 7 boxes and the ground: 64 bodies, the body arrays at their capacity
#define PILE_SPACING 1.5f
#define OOM_MOST_ALLOCATIONS 64 // more than any one create or add makes (unit: allocations)

static ph_world *pile_world(void)
{
    ph_world *w = make_world();
    if (!w)
        return NULL;
    add_ground(w, 20.0f);
    for (int c = 0; c < PILE_COLUMNS; c++)
        for (int i = 0; i < PILE_HEIGHT; i++)
        {
            ph_body_def d = dynamic_box(
                ph_v3((float)(c % 3) * PILE_SPACING, 0.5f + (float)i, (float)(c / 3) * PILE_SPACING), 0.5f);
            ph_body_create(w, &d);
        }
    return w;
}

// The allocation that fails may be any of those ph_body_create makes (the id pool's, the three body arrays',
// the octree's) on a world whose arrays are full: the create is refused with PH_ERR_OUT_OF_MEMORY, and the
// world is exactly as before, so that it then steps, destroys and creates bit for bit as a twin that never
// saw the failure (the next id included).
static int abuse_body_create_oom_keeps_world(void)
{
    ph_set_log(record_log, NULL);
    size_t start = ph_byte_count();
    int failures_seen = 0;
    bool succeeded = false;
    for (long k = 1; k <= OOM_MOST_ALLOCATIONS && !succeeded; k++)
    {
        ph_world *w = pile_world(), *twin = pile_world();
        ENSURE(w && twin && ph_world_get_body_count(w) == PILE_COLUMNS * PILE_HEIGHT + 1);
        for (int s = 0; s < 3; s++)
        {
            ph_world_step(w);
            ph_world_step(twin);
        }
        ENSURE(ph_world_get_stats(w)->contact_point_count > 0);
        uint64_t hash = ph_world_hash(w);
        ph_body_def d = dynamic_box(ph_v3(10.0f, 0.5f, 10.0f), 0.5f);
        fail_install();
        fail_next(k, false);
        ph_body_id id = ph_body_create(w, &d);
        fail_uninstall();
        if (!PH_ID_IS_NULL(id))
        {
            succeeded = true; // the k-th allocation is past the create: every earlier one was tried
            ph_body_destroy(w, id);
        }
        else
        {
            failures_seen++;
            ENSURE(expect_error(w, PH_ERR_OUT_OF_MEMORY, "out of memory") == 0);
            ENSURE(ph_world_hash(w) == hash);
            ENSURE(ph_world_get_body_count(w) == PILE_COLUMNS * PILE_HEIGHT + 1);
            ph_body_id a = ph_body_create(w, &d), b = ph_body_create(twin, &d);
            ENSURE(!PH_ID_IS_NULL(a) && PH_ID_EQUALS(a, b));
            for (int s = 0; s < 30; s++)
            {
                ph_world_step(w);
                ph_world_step(twin);
            }
            ENSURE(ph_world_hash(w) == ph_world_hash(twin));
            ph_body_id ids[PILE_COLUMNS * PILE_HEIGHT + 2];
            int n = ph_world_get_bodies(w, ids, PILE_COLUMNS * PILE_HEIGHT + 2);
            ENSURE(n == PILE_COLUMNS * PILE_HEIGHT + 2);
            ENSURE(ph_body_destroy(w, ids[5]) == PH_OK && ph_body_destroy(twin, ids[5]) == PH_OK);
            a = ph_body_create(w, &d);
            b = ph_body_create(twin, &d);
            ENSURE(!PH_ID_IS_NULL(a) && PH_ID_EQUALS(a, b));
            for (int s = 0; s < 10; s++)
            {
                ph_world_step(w);
                ph_world_step(twin);
            }
            ENSURE(ph_world_hash(w) == ph_world_hash(twin));
        }
        ph_world_destroy(w);
        ph_world_destroy(twin);
        ENSURE(ph_byte_count() == start);
    }
    printf("  body create: %d failing allocations tried, each refused with the world unchanged\n",
           failures_seen);
    ENSURE(succeeded && failures_seen >= 4); // the id pool's and the three arrays' growth, at least
    ph_set_log(NULL, NULL);
    return 0;
}

// ---- Defect 2: a geometry creation that runs out of memory -----------------------------------------------

typedef enum geom_kind
{
    GEOM_HULL,
    GEOM_COMPOUND,
    GEOM_MESH,
    GEOM_KIND_COUNT
} geom_kind;

static const ph_vec3 s_cube_points[8] = {
    {{-0.5f, -0.5f, -0.5f}}, {{0.5f, -0.5f, -0.5f}}, {{-0.5f, 0.5f, -0.5f}}, {{0.5f, 0.5f, -0.5f}},
    {{-0.5f, -0.5f, 0.5f}},  {{0.5f, -0.5f, 0.5f}},  {{-0.5f, 0.5f, 0.5f}},  {{0.5f, 0.5f, 0.5f}}};

static ph_geom_id add_geom_of(ph_world *w, geom_kind kind)
{
    if (kind == GEOM_HULL)
    {
        ph_hull_def hd = ph_default_hull_def();
        hd.points = s_cube_points;
        hd.point_count = 8;
        return ph_world_add_hull(w, &hd);
    }
    if (kind == GEOM_COMPOUND)
    {
        ph_compound_child_def kids[2];
        kids[0].shape = ph_make_box(ph_v3(0.5f, 0.1f, 0.1f));
        kids[0].local = ph_transform_identity();
        kids[0].density = 1000.0f;
        kids[1].shape = ph_make_sphere(0.2f);
        kids[1].local = ph_transform_identity();
        kids[1].local.p = ph_v3(0.5f, 0.0f, 0.0f);
        kids[1].density = 500.0f;
        ph_compound_def cd = ph_default_compound_def();
        cd.children = kids;
        cd.child_count = 2;
        return ph_world_add_compound(w, &cd);
    }
    static const ph_vec3 verts[4] = {{{-5, 0, -5}}, {{5, 0, -5}}, {{5, 0, 5}}, {{-5, 0, 5}}};
    static const int idx[6] = {0, 2, 1, 0, 3, 2};
    ph_mesh_def md = ph_default_mesh_def();
    md.vertices = verts;
    md.vertex_count = 4;
    md.indices = idx;
    md.triangle_count = 2;
    return ph_world_add_mesh(w, &md);
}

#define GEOM_OOM_SLOW_START 17 // the 17th geometry grows the geometry arrays past their first 16

// For the first geometry of a world and for the 17th, each kind, every allocation of the add fails in turn:
// the add is refused with PH_ERR_OUT_OF_MEMORY and a sentence, the next add gets the id a world without
// the failure would give, and ph_world_destroy frees everything.
static int abuse_geom_create_oom_destroys_cleanly(void)
{
    ph_set_log(record_log, NULL);
    size_t start = ph_byte_count();
    const int befores[2] = {0, GEOM_OOM_SLOW_START - 1};
    int failures_seen = 0;
    for (int b = 0; b < 2; b++)
    {
        for (int kind = 0; kind < GEOM_KIND_COUNT; kind++)
        {
            bool succeeded = false;
            for (long k = 1; k <= 4 * OOM_MOST_ALLOCATIONS && !succeeded; k++)
            {
                ph_world *w = make_world();
                ENSURE(w != NULL);
                for (int i = 0; i < befores[b]; i++)
                    ENSURE(!PH_ID_IS_NULL(add_geom_of(w, GEOM_HULL)));
                fail_install();
                fail_next(k, false);
                ph_geom_id id = add_geom_of(w, (geom_kind)kind);
                fail_uninstall();
                if (!PH_ID_IS_NULL(id))
                    succeeded = true;
                else
                {
                    failures_seen++;
                    ENSURE(expect_error(w, PH_ERR_OUT_OF_MEMORY, "out of memory") == 0);
                    id = add_geom_of(w, (geom_kind)kind);
                    ENSURE(id.index1 == (uint32_t)befores[b] + 1u && id.generation == 1u);
                }
                ph_world_destroy(w);
                ENSURE(ph_byte_count() == start);
            }
            ENSURE(succeeded);
        }
    }
    printf("  geometry add: %d failing allocations tried\n", failures_seen);
    ph_set_log(NULL, NULL);
    return 0;
}

// ---- Defect 3: the calendar's event budget and the arrays' size arithmetic -------------------------------

static int abuse_calendar_budget_bounded(void)
{
    ph_set_log(record_log, NULL);
    size_t start = ph_byte_count();
    ph_world_def wd = ph_default_world_def();
    wd.calendar_event_budget = 10000000;
    int logs = s_logs;
    ENSURE(ph_world_create(&wd) == NULL);
    ENSURE(s_logs > logs && strstr(s_last_log, "def.calendar_event_budget is 10000000"));
    wd.calendar_event_budget = INT_MAX;
    ENSURE(ph_world_create(&wd) == NULL);
    wd.calendar_event_budget = PH_MAX_CALENDAR_BUDGET + 1;
    ENSURE(ph_world_create(&wd) == NULL);
    wd.calendar_event_budget = PH_MAX_CALENDAR_BUDGET;
    wd.calendar_events_per_pair = PH_MAX_CALENDAR_BUDGET + 1;
    ENSURE(ph_world_create(&wd) == NULL);
    ENSURE(strstr(s_last_log, "def.calendar_events_per_pair"));
    wd.calendar_events_per_pair = PH_MAX_CALENDAR_BUDGET;
    ph_world *w = ph_world_create(&wd);
    ENSURE(w != NULL);
    // At the most budget a fast scene steps with its tables sized from it.
    add_ground(w, 20.0f);
    for (int i = 0; i < 10; i++)
    {
        ph_body_def d = dynamic_box(ph_v3((float)i * 1.2f - 6.0f, 3.0f, 0.0f), 0.3f);
        d.linear_velocity = ph_v3(0.0f, -400.0f, 0.0f);
        ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &d)));
    }
    for (int s = 0; s < 5; s++)
        ph_world_step(w);
    ph_body_id ids[16];
    int n = ph_world_get_bodies(w, ids, 16);
    for (int i = 0; i < n; i++)
        ENSURE(vec_finite(ph_body_get_position(w, ids[i])) && ph_body_get_position(w, ids[i]).y > -2.0f);
    ph_world_destroy(w);
    ENSURE(ph_byte_count() == start);

    // The growable array refuses sizes whose element count or byte size do not fit, instead of wrapping.
    fail_install();
    fail_next(1, true); // nothing is really allocated here
    int *ints = NULL;
    int int_capacity = 0;
    ENSURE(!ph_array_reserve(ints, int_capacity, INT_MAX));
    ENSURE(ints == NULL && int_capacity == 0);
    void *big = NULL;
    int big_capacity = 0;
    ENSURE(!ph_array_reserve_raw(&big, &big_capacity, 1 << 20, SIZE_MAX / 1024));
    ENSURE(big == NULL && big_capacity == 0);
    fail_uninstall();
    ENSURE(ph_byte_count() == start);
    ph_set_log(NULL, NULL);
    return 0;
}

// ---- Defect 6: the velocity after an impulse, and the mass ----------------------------------------------

#define TINY_BOX_HALF 1e-3f   // a 2 mm box (unit: m)
#define TINY_IMPULSE 10.0f    // 1.25e6 m/s for the 2 mm box, and 3e9 rad/s at its corner (unit: N s)
#define HUGE_IMPULSE 9.99e6f  // (unit: N s)
#define LIGHT_BODY_MASS 1e-3f // (unit: kg)
#define MODEST_IMPULSE 10.0f  // (unit: N s)

static int abuse_impulse_velocity_bounded(void)
{
    ph_set_log(record_log, NULL);
    size_t start = ph_byte_count();
    ph_world *w = make_world();
    ph_body_def d = dynamic_box(ph_v3(0.0f, 5.0f, 0.0f), 0.5f);
    d.mass = 1e-33f;
    ENSURE(PH_ID_IS_NULL(ph_body_create(w, &d)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "def.mass is 1e-33") == 0);
    d.mass = LIGHT_BODY_MASS;
    ph_body_id light = ph_body_create(w, &d);
    ENSURE(!PH_ID_IS_NULL(light));
    // 9.99e6 N s on a gram: 1e10 m/s, past the speed limit. Refused; the velocity is as it was.
    ENSURE(ph_body_apply_impulse(w, light, ph_v3(HUGE_IMPULSE, 0.0f, 0.0f)) == PH_ERR_INVALID_ARG);
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "linear velocity") == 0);
    ph_vec3 v = ph_body_get_linear_velocity(w, light);
    ENSURE(v.x == 0.0f && v.y == 0.0f && v.z == 0.0f);
    // A modest impulse is taken: dv = J / m.
    ENSURE(ph_body_apply_impulse(w, light, ph_v3(0.0f, MODEST_IMPULSE * LIGHT_BODY_MASS, 0.0f)) == PH_OK);
    ENSURE_NEAR(ph_body_get_linear_velocity(w, light).y, MODEST_IMPULSE, 1e-3f);

    // At the corner of a 2 mm box an impulse that would spin it past the limit is refused, w kept.
    ph_body_def t = dynamic_box(ph_v3(3.0f, 5.0f, 0.0f), TINY_BOX_HALF);
    ph_body_id tiny = ph_body_create(w, &t);
    ENSURE(!PH_ID_IS_NULL(tiny));
    ph_vec3 corner = ph_v3(3.0f + TINY_BOX_HALF, 5.0f + TINY_BOX_HALF, TINY_BOX_HALF);
    ENSURE(ph_body_apply_impulse_at_point(w, tiny, ph_v3(0.0f, 0.0f, TINY_IMPULSE), corner) ==
           PH_ERR_INVALID_ARG);
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "angular velocity") == 0);
    ph_vec3 spin = ph_body_get_angular_velocity(w, tiny);
    ENSURE(spin.x == 0.0f && spin.y == 0.0f && spin.z == 0.0f);
    ENSURE(ph_body_get_linear_velocity(w, tiny).z == 0.0f); // nothing of a refused impulse is applied
    // The same for a force that would do it over one step.
    ENSURE(ph_body_apply_force(w, light, ph_v3(HUGE_IMPULSE * 1e3f, 0.0f, 0.0f)) == PH_ERR_INVALID_ARG);
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "force") == 0);
    for (int s = 0; s < 10; s++)
        ph_world_step(w);
    ENSURE(vec_finite(ph_body_get_linear_velocity(w, light)) && vec_finite(ph_body_get_position(w, tiny)));
    ENSURE(vec_finite(ph_body_get_angular_velocity(w, tiny)));
    ph_world_destroy(w);
    ENSURE(ph_byte_count() == start);
    ph_set_log(NULL, NULL);
    return 0;
}

// ---- Defect 7: the size limit on every shape, vertex and compound child ---------------------------------

#define OVERSIZE 5e4f // past PH_MAX_SIZE, inside PH_MAX_COORDINATE (unit: m)

static int abuse_shape_sizes_bounded(void)
{
    ph_set_log(record_log, NULL);
    size_t start = ph_byte_count();
    ph_world *w = make_world();
    ph_body_def d = ph_default_body_def(); // static
    d.shape = ph_make_sphere(1e9f);
    ENSURE(PH_ID_IS_NULL(ph_body_create(w, &d)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "def.shape.radius is 1e+09") == 0);
    d.shape = ph_make_box(ph_v3(OVERSIZE, 1.0f, 1.0f));
    ENSURE(PH_ID_IS_NULL(ph_body_create(w, &d)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "def.shape.half_extents") == 0);
    d.shape = ph_make_capsule(OVERSIZE, 1.0f);
    ENSURE(PH_ID_IS_NULL(ph_body_create(w, &d)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "def.shape.half_height") == 0);

    // A hull spanning 1e8 m.
    ph_vec3 pts[8];
    for (int i = 0; i < 8; i++)
        pts[i] = glms_vec3_scale(s_cube_points[i], 1e8f);
    ph_hull_def hd = ph_default_hull_def();
    hd.points = pts;
    hd.point_count = 8;
    ENSURE(PH_ID_IS_NULL(ph_world_add_hull(w, &hd)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "def.points") == 0);
    // A compound child offset, and a child, past the size limit.
    ph_compound_child_def kid;
    kid.shape = ph_make_sphere(0.5f);
    kid.local = ph_transform_identity();
    kid.local.p = ph_v3(OVERSIZE, 0.0f, 0.0f);
    kid.density = 1000.0f;
    ph_compound_def cd = ph_default_compound_def();
    cd.children = &kid;
    cd.child_count = 1;
    ENSURE(PH_ID_IS_NULL(ph_world_add_compound(w, &cd)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "def.children[0].local") == 0);
    kid.local = ph_transform_identity();
    kid.shape = ph_make_sphere(OVERSIZE);
    ENSURE(PH_ID_IS_NULL(ph_world_add_compound(w, &cd)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "def.children[0].shape.radius") == 0);
    // A mesh vertex.
    ph_vec3 verts[3] = {{{0, 0, 0}}, {{OVERSIZE, 0, 0}}, {{0, 0, 1}}};
    int idx[3] = {0, 2, 1};
    ph_mesh_def md = ph_default_mesh_def();
    md.vertices = verts;
    md.vertex_count = 3;
    md.indices = idx;
    md.triangle_count = 1;
    ENSURE(PH_ID_IS_NULL(ph_world_add_mesh(w, &md)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "def.vertices") == 0);
    ph_world_destroy(w);

    // At the limit the engine holds: a box resting on a static sphere of radius PH_MAX_SIZE stays put.
    w = make_world();
    d = ph_default_body_def();
    d.shape = ph_make_sphere(PH_MAX_SIZE);
    d.position = ph_v3(0.0f, -PH_MAX_SIZE, 0.0f);
    ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &d)));
    ph_body_def b = dynamic_box(ph_v3(0.0f, 0.5f, 0.0f), 0.5f);
    ph_body_id box = ph_body_create(w, &b);
    ENSURE(!PH_ID_IS_NULL(box));
    for (int s = 0; s < 120; s++)
        ph_world_step(w);
    ph_vec3 p = ph_body_get_position(w, box);
    ENSURE(vec_finite(p));
    ENSURE_NEAR(p.y, 0.5f, 0.05f);
    ENSURE(glms_vec3_norm(ph_body_get_linear_velocity(w, box)) < 0.1f);
    ph_world_destroy(w);
    ENSURE(ph_byte_count() == start);
    ph_set_log(NULL, NULL);
    return 0;
}

// ---- Defect 10: time step and gravity scale ---------------------------------------------------------------

static int abuse_time_step_and_gravity_scale_bounded(void)
{
    ph_set_log(record_log, NULL);
    size_t start = ph_byte_count();
    ph_world_def wd = ph_default_world_def();
    wd.time_step = 1e30f;
    ENSURE(ph_world_create(&wd) == NULL);
    ENSURE(strstr(s_last_log, "def.time_step is 1e+30"));
    wd.time_step = 1e-30f;
    ENSURE(ph_world_create(&wd) == NULL);
    ph_world *w = make_world();
    ph_body_def d = dynamic_box(ph_v3(0.0f, 1.0f, 0.0f), 0.5f);
    d.gravity_scale = 1e38f;
    ENSURE(PH_ID_IS_NULL(ph_body_create(w, &d)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "def.gravity_scale is 1e+38") == 0);
    d.gravity_scale = -PH_MAX_GRAVITY_SCALE;
    ph_body_id id = ph_body_create(w, &d);
    ENSURE(!PH_ID_IS_NULL(id));
    for (int s = 0; s < 10; s++)
        ph_world_step(w);
    ENSURE(vec_finite(ph_body_get_position(w, id)) && vec_finite(ph_body_get_linear_velocity(w, id)));
    ph_world_destroy(w);
    ENSURE(ph_byte_count() == start);
    ph_set_log(NULL, NULL);
    return 0;
}

// ---- Defect 12: the spin cap clamps, never zeroes -------------------------------------------------------

#define VIOLENT_SPIN 1e6f // (unit: rad/s)

// The angular velocity after one step of a body (no gravity, no damping) spun at `speed` about a skew axis:
// the velocity now (the API's) and, white-box, the speed that carries the body through a sub-step (the one
// the cap bounds); and the cap of this world's sub-step.
static ph_vec3 spin_after_step(ph_shape shape, float speed, float *out_carried, float *out_cap)
{
    ph_world *w = make_world();
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    d.shape = shape;
    d.gravity_scale = 0.0f;
    d.angular_damping = 0.0f;
    d.linear_damping = 0.0f;
    d.angular_velocity = glms_vec3_scale(glms_vec3_normalize(ph_v3(1.0f, 2.0f, 3.0f)), speed);
    ph_body_id id = ph_body_create(w, &d);
    ph_world_step(w);
    ph_vec3 spin = ph_body_get_angular_velocity(w, id);
    *out_cap =
        BODY_MAX_ROTATION / (ph_world_get_time_step(w) / (float)ph_world_get_stats(w)->solver_substeps);
    ph_vec3 carried = w->states[id.index1 - 1u].w;
    *out_carried = vec_finite(carried) ? glms_vec3_norm(carried) : -1.0f;
    ph_world_destroy(w);
    return spin;
}

// A cube and a plank spun at 1e6 rad/s leave the step as if they had been spun at the cap of a quarter turn
// per sub-step: the cube (no gyroscopic term) exactly at the cap, the plank as a plank spun at the cap does
// (its carrying speed within the cap; its speed now, the momentum over the inertia, wherever the cap's
// energy takes it). Before, the plank's gyroscopic solve failed at 1e6 rad/s and its energy clamp,
// overflowing, stopped it dead.
static int abuse_spin_clamp_keeps_cap(void)
{
    float cap = 0.0f, carried = 0.0f, carried_at_cap = 0.0f;
    ph_vec3 cube = spin_after_step(ph_make_box(ph_v3(0.5f, 0.5f, 0.5f)), VIOLENT_SPIN, &carried, &cap);
    printf("  cube: |w| %.6g rad/s after one step (carrying %.6g), cap %.6g\n", (double)glms_vec3_norm(cube),
           (double)carried, (double)cap);
    ENSURE_NEAR(glms_vec3_norm(cube), cap, 1e-4f * cap);
    ENSURE_NEAR(carried, cap, 1e-4f * cap);
    ph_shape plank = ph_make_box(ph_v3(1.0f, 0.05f, 0.25f));
    ph_vec3 violent = spin_after_step(plank, VIOLENT_SPIN, &carried, &cap);
    ph_vec3 capped = spin_after_step(plank, cap, &carried_at_cap, &cap);
    printf(
        "  plank: w (%.6g, %.6g, %.6g) rad/s after one step (carrying %.6g); spun at the cap: (%.6g, %.6g, "
        "%.6g) (carrying %.6g)\n",
        (double)violent.x, (double)violent.y, (double)violent.z, (double)carried, (double)capped.x,
        (double)capped.y, (double)capped.z, (double)carried_at_cap);
    ENSURE(carried > 0.0f && carried <= cap * (1.0f + 1e-5f));
    ENSURE_VEC3_NEAR(violent, capped, 1e-4f * cap);
    ENSURE(glms_vec3_norm(violent) > 0.5f * cap);
    return 0;
}

// ---- Defect 13: messages ----------------------------------------------------------------------------------

static int abuse_error_messages(void)
{
    ph_set_log(record_log, NULL);
    size_t start = ph_byte_count();
    ph_world *w = make_world();
    // The hull builder's own sentence reaches ph_world_last_error.
    ph_vec3 flat[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 0, 1}}, {{1, 0, 1}}};
    ph_hull_def hd = ph_default_hull_def();
    hd.points = flat;
    hd.point_count = 4;
    ENSURE(PH_ID_IS_NULL(ph_world_add_hull(w, &hd)));
    ENSURE(expect_error(w, PH_ERR_DEGENERATE, "lie on a plane") == 0);
    // And the mesh builder's.
    ph_vec3 line[3] = {{{0, 0, 0}}, {{1, 0, 0}}, {{2, 0, 0}}};
    int idx[3] = {0, 1, 2};
    ph_mesh_def md = ph_default_mesh_def();
    md.vertices = line;
    md.vertex_count = 3;
    md.indices = idx;
    md.triangle_count = 1;
    ENSURE(PH_ID_IS_NULL(ph_world_add_mesh(w, &md)));
    ENSURE(expect_error(w, PH_ERR_DEGENERATE, "zero area") == 0);
    // A force at a far point: refused for what it would do, in the words of the call.
    ph_body_def d = dynamic_box(ph_v3(0.0f, 1.0f, 0.0f), 0.5f);
    ph_body_id id = ph_body_create(w, &d);
    ENSURE(ph_body_apply_force_at_point(w, id, ph_v3(0.0f, 1e3f, 0.0f), ph_v3(9e6f, 1.0f, 0.0f)) == PH_OK);
    ENSURE(ph_body_apply_force_at_point(w, id, ph_v3(0.0f, 1e6f, 0.0f), ph_v3(9e6f, 1.0f, 0.0f)) ==
           PH_ERR_INVALID_ARG);
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "at point (9e+06, 1, 0)") == 0);
    ENSURE(!strstr(ph_world_last_error(w).message, "torque is"));
    // A sphere too large is too large, not "singular".
    d.shape = ph_make_sphere(1e6f);
    ENSURE(PH_ID_IS_NULL(ph_body_create(w, &d)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "def.shape.radius is 1e+06") == 0);
    ENSURE(!strstr(ph_world_last_error(w).message, "singular"));
    // A NaN gravity scale is told its range, not "> -inf".
    d = dynamic_box(ph_v3(0.0f, 1.0f, 0.0f), 0.5f);
    d.gravity_scale = NAN;
    ENSURE(PH_ID_IS_NULL(ph_body_create(w, &d)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "def.gravity_scale is nan") == 0);
    ENSURE(!strstr(ph_world_last_error(w).message, "inf"));
    // A dynamic body too heavy for its density says so and what to set.
    d.gravity_scale = 1.0f;
    d.shape = ph_make_box(ph_v3(PH_MAX_SIZE, PH_MAX_SIZE, PH_MAX_SIZE)); // 8e15 kg of water
    ENSURE(PH_ID_IS_NULL(ph_body_create(w, &d)));
    ENSURE(expect_error(w, PH_ERR_INVALID_ARG, "mass") == 0);
    ph_world_destroy(w);
    ENSURE(ph_byte_count() == start);
    ph_set_log(NULL, NULL);
    return 0;
}

// ---- Defect 5: callbacks must not change the world --------------------------------------------------------

#define MEDDLE_CALLS 200 // callback calls that try to change the world (enough to grow the octree's arrays)

typedef struct meddler
{
    ph_world *world;
    ph_body_id victim;
    int calls;
    int refused;  // changes refused with PH_ERR_INVALID_ARG and a sentence about callbacks
    int accepted; // changes that went through (must stay 0)
} meddler;

static void meddle(meddler *m)
{
    if (m->calls++ >= MEDDLE_CALLS)
        return;
    ph_body_def d = dynamic_box(ph_v3((float)(m->calls % 20) * 3.0f, 2.0f + (float)(m->calls / 20) * 3.0f,
                                      (float)(m->calls % 7) * 3.0f),
                                0.5f);
    ph_body_id id = ph_body_create(m->world, &d);
    bool told = strstr(ph_world_last_error(m->world).message, "callback") != NULL;
    if (PH_ID_IS_NULL(id) && ph_world_last_error(m->world).status == PH_ERR_INVALID_ARG && told)
        m->refused++;
    else
        m->accepted++;
    ph_status s[4] = {
        ph_body_destroy(m->world, m->victim),
        ph_body_set_linear_velocity(m->world, m->victim, ph_v3(1.0f, 0.0f, 0.0f)),
        ph_body_apply_impulse(m->world, m->victim, ph_v3(1.0f, 0.0f, 0.0f)),
        ph_world_set_gravity(m->world, ph_v3(0.0f, 1.0f, 0.0f)),
    };
    for (int i = 0; i < 4; i++)
    {
        if (s[i] == PH_ERR_INVALID_ARG)
            m->refused++;
        else
            m->accepted++;
    }
    ph_world_step(m->world);
    ph_hull_def hd = ph_default_hull_def();
    hd.points = s_cube_points;
    hd.point_count = 8;
    if (PH_ID_IS_NULL(ph_world_add_hull(m->world, &hd)))
        m->refused++;
    else
        m->accepted++;
}

static void meddle_segment(ph_vec3 a, ph_vec3 b, uint32_t rgba, void *context)
{
    (void)a;
    (void)b;
    (void)rgba;
    meddle(context);
}

static void meddle_point(ph_vec3 p, float size_px, uint32_t rgba, void *context)
{
    (void)p;
    (void)size_px;
    (void)rgba;
    meddle(context);
}

static meddler *s_log_meddler;
static void meddle_log(ph_log_level level, const char *message, void *ctx)
{
    (void)level;
    (void)message;
    (void)ctx;
    if (s_log_meddler)
    {
        meddler *m = s_log_meddler;
        s_log_meddler = NULL; // the hook's own refusals log too: one round is enough
        meddle(m);
    }
}

// Debug-draw callbacks and the log hook that try to create, destroy, set, apply, step and add geometry
// are refused, every time, with PH_ERR_INVALID_ARG and a sentence; the world is unchanged (same bodies,
// same hash) and takes changes again once the callback has returned.
static int abuse_callbacks_cannot_change_world(void)
{
    size_t start = ph_byte_count();
    ph_world *w = make_world();
    add_ground(w, 20.0f);
    ph_body_id victim = PH_NULL_BODY_ID;
    for (int i = 0; i < 20; i++)
    {
        ph_body_def d = dynamic_box(ph_v3((float)(i % 5) * 1.1f, 0.5f + (float)(i / 5), 0.0f), 0.5f);
        victim = ph_body_create(w, &d);
    }
    for (int s = 0; s < 5; s++)
        ph_world_step(w);
    uint64_t hash = ph_world_hash(w);
    int count = ph_world_get_body_count(w);
    meddler m = {w, victim, 0, 0, 0};
    ph_debug_draw dd = {meddle_segment, meddle_point, true, true, true, true, &m, true};
    ph_world_debug_draw(w, &dd);
    printf("  debug draw: %d callback calls, %d changes refused, %d accepted\n", m.calls, m.refused,
           m.accepted);
    ENSURE(m.calls > 0 && m.refused > 0 && m.accepted == 0);
    ENSURE(ph_world_get_body_count(w) == count && ph_world_hash(w) == hash);
    ENSURE(ph_body_is_valid(w, victim));

    // The log hook: an error inside ph_body_create calls it; its own changes are refused.
    meddler lm = {w, victim, 0, 0, 0};
    s_log_meddler = &lm;
    ph_set_log(meddle_log, NULL);
    ph_body_def bad = dynamic_box(ph_v3(0.0f, 1.0f, 0.0f), -1.0f);
    ENSURE(PH_ID_IS_NULL(ph_body_create(w, &bad)));
    ph_set_log(NULL, NULL);
    s_log_meddler = NULL;
    ENSURE(lm.calls == 1 && lm.refused > 0 && lm.accepted == 0);
    ENSURE(ph_world_get_body_count(w) == count && ph_world_hash(w) == hash);

    // Outside callbacks the same calls work.
    ph_body_def d = dynamic_box(ph_v3(8.0f, 3.0f, 0.0f), 0.5f);
    ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &d)));
    ENSURE(ph_body_destroy(w, victim) == PH_OK);
    ph_world_destroy(w);
    ENSURE(ph_byte_count() == start);
    return 0;
}

// ---- Defect 9: waking costs the island, not the world ---------------------------------------------------

#define WAKE_SINGLES 200 // sleeping bodies, each its own island, beside two stacks of three
#define WAKE_STACK 3
#define WAKE_SETTLE_STEPS 400

// Steps until every body sleeps (at most WAKE_SETTLE_STEPS).
static void settle(ph_world *w)
{
    for (int s = 0; s < WAKE_SETTLE_STEPS; s++)
    {
        ph_world_step(w);
        if (ph_world_get_stats(w)->awake_body_count == 0)
            return;
    }
}

static int abuse_wake_visits_only_island(void)
{
    size_t start = ph_byte_count();
    ph_world *w = make_world();
    add_ground(w, 100.0f);
    ph_body_id a[WAKE_STACK], b[WAKE_STACK], singles[WAKE_SINGLES];
    for (int i = 0; i < WAKE_STACK; i++)
    {
        ph_body_def d = dynamic_box(ph_v3(0.0f, 0.5f + (float)i, 0.0f), 0.5f);
        a[i] = ph_body_create(w, &d);
        d.position.x = 10.0f;
        b[i] = ph_body_create(w, &d);
    }
    for (int i = 0; i < WAKE_SINGLES; i++)
    {
        ph_body_def d =
            dynamic_box(ph_v3(-60.0f + (float)(i % 20) * 3.0f, 0.5f, 20.0f + (float)(i / 20) * 3.0f), 0.5f);
        singles[i] = ph_body_create(w, &d);
    }
    settle(w);
    ENSURE(ph_world_get_stats(w)->awake_body_count == 0);
    for (int i = 0; i < WAKE_STACK; i++)
        ENSURE(!ph_body_is_awake(w, a[i]) && !ph_body_is_awake(w, b[i]));

    // Waking the middle of stack a wakes exactly stack a, examining its three bodies only.
    uint64_t visits = w->wake_visits;
    ENSURE(ph_body_wake(w, a[1]) == PH_OK);
    printf("  wake one body of a 3-body island among %d bodies: %llu bodies examined\n",
           ph_world_get_body_count(w), (unsigned long long)(w->wake_visits - visits));
    for (int i = 0; i < WAKE_STACK; i++)
        ENSURE(ph_body_is_awake(w, a[i]) && !ph_body_is_awake(w, b[i]));
    for (int i = 0; i < WAKE_SINGLES; i++)
        ENSURE(!ph_body_is_awake(w, singles[i]));
    ENSURE(w->wake_visits - visits <= WAKE_STACK);

    // An impulse on a lone sleeper wakes it alone.
    visits = w->wake_visits;
    ENSURE(ph_body_apply_impulse(w, singles[7], ph_v3(0.0f, 1.0f, 0.0f)) == PH_OK);
    ENSURE(ph_body_is_awake(w, singles[7]) && !ph_body_is_awake(w, singles[8]) && !ph_body_is_awake(w, b[0]));
    ENSURE(w->wake_visits - visits <= 1);

    // Destroying the top of stack b wakes the rest of b (they rested on each other), nothing else.
    ENSURE(ph_body_destroy(w, b[2]) == PH_OK);
    ENSURE(ph_body_is_awake(w, b[0]) && ph_body_is_awake(w, b[1]) && !ph_body_is_awake(w, singles[0]));

    // Setting gravity wakes every body, each examined once, not once per island.
    settle(w);
    ENSURE(ph_world_get_stats(w)->awake_body_count == 0);
    visits = w->wake_visits;
    ENSURE(ph_world_set_gravity(w, ph_v3(0.0f, -9.0f, 0.0f)) == PH_OK);
    printf("  set gravity on %d sleeping bodies: %llu bodies examined\n", ph_world_get_body_count(w),
           (unsigned long long)(w->wake_visits - visits));
    ENSURE(w->wake_visits - visits <= (uint64_t)ph_world_get_body_count(w));
    for (int i = 0; i < WAKE_SINGLES; i++)
        ENSURE(ph_body_is_awake(w, singles[i]));
    ph_world_step(w);
    ENSURE(ph_world_get_stats(w)->awake_body_count == ph_world_get_body_count(w) - 1);
    ph_world_destroy(w);
    ENSURE(ph_byte_count() == start);
    return 0;
}

// ---- The allocation-failure sweep ------------------------------------------------------------------------

#define SWEEP_STEPS 20
#define SWEEP_MORE_STEPS 5
#define SWEEP_BODIES 20 // past the first 16 slots: the body arrays grow once more

typedef struct sweep_result
{
    int calls_failed;   // calls during which an allocation failed
    int calls_unmarked; // ... that then returned neither a status and a message nor a log line (must be 0)
    long allocations;   // allocations the scenario asked for
} sweep_result;

// Checks after one API call: if an allocation failed during it, the call must have said so: `failed` (a
// status other than PH_OK or a null result) with a message in ph_world_last_error, or, for calls without a
// status, a log line.
static void sweep_check(sweep_result *r, const ph_world *w, long failures_before, int logs_before,
                        bool failed)
{
    if (s_fail.failures == failures_before)
        return;
    r->calls_failed++;
    bool told = s_logs > logs_before;
    if (failed && w)
        told = told && strlen(ph_world_last_error(w).message) > 0;
    if (!told)
        r->calls_unmarked++;
}

#define SWEEP_CALL(result, world, failed_expr)                                                               \
    do                                                                                                       \
    {                                                                                                        \
        long f0_ = s_fail.failures;                                                                          \
        int l0_ = s_logs;                                                                                    \
        bool failed_ = (failed_expr);                                                                        \
        sweep_check((result), (world), f0_, l0_, failed_);                                                   \
    } while (0)

static void sweep_segment(ph_vec3 a, ph_vec3 b, uint32_t rgba, void *context)
{
    (void)a;
    (void)b;
    (void)rgba;
    (void)context;
}

static void sweep_point(ph_vec3 p, float size_px, uint32_t rgba, void *context)
{
    (void)p;
    (void)size_px;
    (void)rgba;
    (void)context;
}

// A small scene's whole life: the world, the three kinds of geometry, bodies of every shape, a fast
// sphere for the calendar, steps, a destroy and a create, a teleport, an impulse, a debug draw and a ray,
// more steps, and the destroy of the world.
static void sweep_scenario(sweep_result *r)
{
    ph_world_def wd = ph_default_world_def();
    ph_world *w = NULL;
    {
        long f0 = s_fail.failures;
        int l0 = s_logs;
        w = ph_world_create(&wd);
        sweep_check(r, NULL, f0, l0, w == NULL);
    }
    if (!w)
        return;
    ph_geom_id geoms[GEOM_KIND_COUNT];
    for (int k = 0; k < GEOM_KIND_COUNT; k++)
        SWEEP_CALL(r, w, PH_ID_IS_NULL(geoms[k] = add_geom_of(w, (geom_kind)k)));
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_geom_shape(PH_SHAPE_MESH, geoms[GEOM_MESH]);
    ph_body_id ground;
    SWEEP_CALL(r, w, PH_ID_IS_NULL(ground = ph_body_create(w, &g)));
    (void)ground;
    ph_body_id ids[SWEEP_BODIES];
    for (int i = 0; i < SWEEP_BODIES; i++)
    {
        ph_body_def d =
            dynamic_box(ph_v3((float)(i % 4) * 1.3f - 2.0f, 0.6f + (float)(i / 4) * 1.3f, 0.0f), 0.5f);
        if (i % 4 == 1)
            d.shape = ph_make_sphere(0.4f);
        else if (i % 4 == 2)
            d.shape = ph_make_geom_shape(PH_SHAPE_HULL, geoms[GEOM_HULL]);
        else if (i % 4 == 3)
            d.shape = ph_make_geom_shape(PH_SHAPE_COMPOUND, geoms[GEOM_COMPOUND]);
        if (i == SWEEP_BODIES - 1)
        {
            d.shape = ph_make_sphere(0.2f);
            d.position = ph_v3(0.0f, 3.0f, 0.0f);
            d.linear_velocity = ph_v3(0.0f, -300.0f, 0.0f); // through the pile within a step: the calendar
        }
        SWEEP_CALL(r, w, PH_ID_IS_NULL(ids[i] = ph_body_create(w, &d)));
    }
    for (int s = 0; s < SWEEP_STEPS; s++)
        SWEEP_CALL(r, w, (ph_world_step(w), false));
    SWEEP_CALL(r, w, ph_body_destroy(w, ids[2]) != PH_OK && !PH_ID_IS_NULL(ids[2]));
    ph_body_def d = dynamic_box(ph_v3(0.0f, 4.0f, 0.0f), 0.5f);
    SWEEP_CALL(r, w, PH_ID_IS_NULL(ph_body_create(w, &d)));
    SWEEP_CALL(r, w,
               ph_body_set_transform(w, ids[0], ph_v3(30.0f, 5.0f, 30.0f), glms_quat_identity()) != PH_OK &&
                   !PH_ID_IS_NULL(ids[0]));
    SWEEP_CALL(r, w,
               ph_body_apply_impulse(w, ids[1], ph_v3(0.0f, 5.0f, 0.0f)) != PH_OK && !PH_ID_IS_NULL(ids[1]));
    ph_debug_draw dd = {sweep_segment, sweep_point, true, true, true, true, NULL, true};
    SWEEP_CALL(r, w, (ph_world_debug_draw(w, &dd), false));
    ph_ray_result hit;
    SWEEP_CALL(
        r, w, (ph_world_cast_ray(w, ph_v3(0.0f, 10.0f, 0.0f), ph_v3(0.0f, -1.0f, 0.0f), 20.0f, &hit), false));
    for (int s = 0; s < SWEEP_MORE_STEPS; s++)
        SWEEP_CALL(r, w, (ph_world_step(w), false));
    ph_body_id all[SWEEP_BODIES + 2];
    int n = ph_world_get_bodies(w, all, SWEEP_BODIES + 2);
    for (int i = 0; i < n && i < SWEEP_BODIES + 2; i++)
        if (!vec_finite(ph_body_get_position(w, all[i])) ||
            !vec_finite(ph_body_get_linear_velocity(w, all[i])))
            r->calls_unmarked++; // a failure must never leave a body's state broken
    ph_world_destroy(w);
}

// For every N, in one-shot mode (only the N-th allocation fails) and in persistent mode (the N-th and all
// after it fail), the scenario runs to its end: no crash or sanitizer report, every call during which an
// allocation failed says so (a status and a message, or a log line for the step), no body is left with a
// NaN, and the byte count is back at its start.
static int abuse_allocation_failure_sweep(void)
{
    ph_set_log(record_log, NULL);
    size_t start = ph_byte_count();
    fail_install();
    sweep_result dry = {0};
    sweep_scenario(&dry);
    long total = s_fail.count;
    ENSURE(dry.calls_failed == 0 && ph_byte_count() == start);
    int runs = 0, failed_calls = 0;
    for (int mode = 0; mode < 2; mode++)
    {
        for (long n = 1; n <= total; n++)
        {
            s_fail = (fail_alloc){0};
            fail_next(n, mode == 1);
            sweep_result r = {0};
            sweep_scenario(&r);
            runs++;
            failed_calls += r.calls_failed;
            if (r.calls_unmarked != 0 || r.calls_failed == 0 || ph_byte_count() != start)
            {
                fprintf(
                    stderr,
                    "%s mode, allocation %ld of %ld: %d calls failed, %d without a word; %zu bytes left\n",
                    mode ? "persistent" : "one-shot", n, total, r.calls_failed, r.calls_unmarked,
                    ph_byte_count() - start);
                fail_uninstall();
                ph_set_log(NULL, NULL);
                return 1;
            }
        }
    }
    fail_uninstall();
    printf("  allocation sweep: %ld allocations in the scenario, %d runs, %d calls saw a failure, all "
           "reported\n",
           total, runs, failed_calls);
    ph_set_log(NULL, NULL);
    return 0;
}

// ---- The validity table: each bound accepted at the bound and refused just past it ------------------------

static bool body_ok(ph_world *w, ph_body_def d)
{
    ph_body_id id = ph_body_create(w, &d);
    if (PH_ID_IS_NULL(id))
        return false;
    ph_body_destroy(w, id);
    return true;
}

static bool world_ok(ph_world_def wd)
{
    ph_world *w = ph_world_create(&wd);
    ph_world_destroy(w);
    return w != NULL;
}

static float below(float x)
{
    return nextafterf(x, -INFINITY);
}

static float above(float x)
{
    return nextafterf(x, INFINITY);
}

static int abuse_validity_table(void)
{
    ph_set_log(record_log, NULL);
    size_t start = ph_byte_count();
    ph_world *w = make_world();
    ph_body_def d = dynamic_box(ph_v3(0.0f, 1.0f, 0.0f), 0.5f);
    ph_body_def x;
    // Sizes.
    x = d;
    x.shape = ph_make_box(ph_v3(PH_MIN_SIZE, PH_MIN_SIZE, PH_MIN_SIZE));
    ENSURE(body_ok(w, x));
    x.shape.half_extents.y = below(PH_MIN_SIZE);
    ENSURE(!body_ok(w, x));
    x = d;
    x.type = PH_BODY_STATIC;
    x.shape = ph_make_box(ph_v3(PH_MAX_SIZE, PH_MAX_SIZE, PH_MAX_SIZE));
    ENSURE(body_ok(w, x));
    x.shape.half_extents.z = above(PH_MAX_SIZE);
    ENSURE(!body_ok(w, x));
    x.shape = ph_make_sphere(PH_MAX_SIZE);
    ENSURE(body_ok(w, x));
    x.shape.radius = above(PH_MAX_SIZE);
    ENSURE(!body_ok(w, x));
    x.shape.radius = below(PH_MIN_SIZE);
    ENSURE(!body_ok(w, x));
    x.shape = ph_make_capsule(PH_MAX_SIZE, PH_MIN_SIZE);
    ENSURE(body_ok(w, x));
    x.shape.half_height = above(PH_MAX_SIZE);
    ENSURE(!body_ok(w, x));
    x.shape = ph_make_capsule(0.0f, PH_MIN_SIZE);
    ENSURE(body_ok(w, x));
    // Mass and density.
    x = d;
    x.mass = PH_MIN_MASS;
    ENSURE(body_ok(w, x));
    x.mass = below(PH_MIN_MASS);
    ENSURE(!body_ok(w, x));
    x.mass = PH_MAX_MASS;
    ENSURE(body_ok(w, x));
    x.mass = above(PH_MAX_MASS);
    ENSURE(!body_ok(w, x));
    x = d;
    x.material.density = PH_MAX_DENSITY;
    ENSURE(body_ok(w, x));
    x.material.density = above(PH_MAX_DENSITY);
    ENSURE(!body_ok(w, x));
    // Gravity scale.
    x = d;
    x.gravity_scale = PH_MAX_GRAVITY_SCALE;
    ENSURE(body_ok(w, x));
    x.gravity_scale = above(PH_MAX_GRAVITY_SCALE);
    ENSURE(!body_ok(w, x));
    x.gravity_scale = below(-PH_MAX_GRAVITY_SCALE);
    ENSURE(!body_ok(w, x));
    // Positions and speeds: exclusive bounds.
    x = d;
    x.position.x = below(PH_MAX_COORDINATE);
    ENSURE(body_ok(w, x));
    x.position.x = PH_MAX_COORDINATE;
    ENSURE(!body_ok(w, x));
    x = d;
    x.linear_velocity.z = below(PH_MAX_SPEED);
    ENSURE(body_ok(w, x));
    x.linear_velocity.z = -PH_MAX_SPEED;
    ENSURE(!body_ok(w, x));
    x = d;
    x.angular_velocity.y = below(PH_MAX_SPEED);
    ENSURE(body_ok(w, x));
    x.angular_velocity.y = PH_MAX_SPEED;
    ENSURE(!body_ok(w, x));
    // Hull vertices and compound child offsets.
    ph_vec3 pts[8];
    for (int i = 0; i < 8; i++)
        pts[i] = glms_vec3_scale(s_cube_points[i], 2.0f * PH_MAX_SIZE);
    ph_hull_def hd = ph_default_hull_def();
    hd.points = pts;
    hd.point_count = 8;
    ENSURE(!PH_ID_IS_NULL(ph_world_add_hull(w, &hd)));
    pts[7].x = above(PH_MAX_SIZE);
    ENSURE(PH_ID_IS_NULL(ph_world_add_hull(w, &hd)));
    ph_compound_child_def kid = {ph_make_sphere(1.0f), ph_transform_identity(), 1000.0f};
    kid.local.p.y = -PH_MAX_SIZE;
    ph_compound_def cd = ph_default_compound_def();
    cd.children = &kid;
    cd.child_count = 1;
    ENSURE(!PH_ID_IS_NULL(ph_world_add_compound(w, &cd)));
    kid.local.p.y = below(-PH_MAX_SIZE);
    ENSURE(PH_ID_IS_NULL(ph_world_add_compound(w, &cd)));
    ph_world_destroy(w);

    // The world def.
    ph_world_def wd = ph_default_world_def();
    ph_world_def y = wd;
    y.time_step = PH_MIN_TIME_STEP;
    ENSURE(world_ok(y));
    y.time_step = below(PH_MIN_TIME_STEP);
    ENSURE(!world_ok(y));
    y.time_step = PH_MAX_TIME_STEP;
    ENSURE(world_ok(y));
    y.time_step = above(PH_MAX_TIME_STEP);
    ENSURE(!world_ok(y));
    y = wd;
    y.contact_hertz = PH_MAX_CONTACT_HERTZ;
    ENSURE(world_ok(y));
    y.contact_hertz = above(PH_MAX_CONTACT_HERTZ);
    ENSURE(!world_ok(y));
    y = wd;
    y.speculative_margin = PH_MAX_SPECULATIVE_MARGIN;
    ENSURE(world_ok(y));
    y.speculative_margin = above(PH_MAX_SPECULATIVE_MARGIN);
    ENSURE(!world_ok(y));
    y = wd;
    y.substeps = PH_MAX_SUBSTEPS;
    y.max_substeps = PH_MAX_SUBSTEPS;
    y.solver_iterations = PH_MAX_SUBSTEPS;
    ENSURE(world_ok(y));
    y.max_substeps = PH_MAX_SUBSTEPS + 1;
    ENSURE(!world_ok(y));
    y = wd;
    y.gravity.y = below(PH_MAX_COORDINATE);
    ENSURE(world_ok(y));
    y.gravity.y = -PH_MAX_COORDINATE;
    ENSURE(!world_ok(y));
    y = wd;
    y.calendar_event_budget = 0;
    y.calendar_events_per_pair = 1;
    ENSURE(world_ok(y));
    y.calendar_events_per_pair = 0;
    ENSURE(!world_ok(y));
    ENSURE(ph_byte_count() == start);
    ph_set_log(NULL, NULL);
    return 0;
}

// ---- Defect 4: bodies piled on one spot --------------------------------------------------------------

// An allocator that counts live bytes and their peak, and refuses any allocation that would take the live
// bytes past a limit: a quadratic blow-up then shows as refused allocations instead of gigabytes.
typedef struct budget_alloc
{
    size_t live, peak, limit;
    long refused;
} budget_alloc;

static budget_alloc s_budget;

static void *budget_alloc_fn(size_t size, void *ctx)
{
    budget_alloc *b = ctx;
    if (size > b->limit - b->live)
    {
        b->refused++;
        return NULL;
    }
    size_t *p = malloc(size + sizeof(max_align_t));
    if (!p)
        return NULL;
    b->live += size;
    b->peak = b->live > b->peak ? b->live : b->peak;
    return (char *)p + sizeof(max_align_t);
}

static void budget_free_fn(void *ptr, size_t size, void *ctx)
{
    budget_alloc *b = ctx;
    if (!ptr)
        return;
    b->live -= size;
    free((char *)ptr - sizeof(max_align_t));
}

#define HEAP_BODIES 2000
// A pair is kept while one of its awake bodies has fewer than PH_MAX_PAIRS_PER_BODY pairs, so the step keeps
// at most 32 x 2,000 = 64,000 pairs (those with the ground included); a contact, its manifold, its solver
// constraint, the pair buffers, the step arena's high-water mark and a share of the bodies' arrays take under
// 3 KB a pair (2.1 KB measured: 63,504 pairs, 133 MB at the peak), so a world fits in 64,000 x 3 KB = 197 MB.
// Uncapped, the 2,001,000 pairs asked for 4 GB.
#define HEAP_PAIRS_MOST (PH_MAX_PAIRS_PER_BODY * HEAP_BODIES)
#define HEAP_BYTES_MOST ((size_t)HEAP_PAIRS_MOST * 3072)

// 2,000 boxes created at one point on a ground: the step keeps at most the capped pairs, within a bounded
// byte count and without a refused allocation, reports the capacity error in its stats and once in the log,
// drops the same pairs in a twin world made after, and the heap keeps stepping (flying apart) without a NaN.
static int abuse_overlap_pairs_capped(void)
{
    ph_set_log(record_log, NULL);
    s_budget = (budget_alloc){.limit = HEAP_BYTES_MOST};
    ph_set_allocator(budget_alloc_fn, budget_free_fn, &s_budget);
    ph_world *w = NULL;
    ph_step_stats st[2];
    for (int k = 0; k < 2; k++)
    {
        ph_world_destroy(w); // the first world, before its twin is made (NULL the first time)
        w = make_world();
        ENSURE(w);
        ENSURE(!PH_ID_IS_NULL(add_ground(w, 50.0f)));
        for (int i = 0; i < HEAP_BODIES; i++)
        {
            ph_body_def d = dynamic_box(ph_v3(0.0f, 0.5f, 0.0f), 0.5f);
            ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &d)));
        }
        s_logs = 0;
        ph_world_step(w);
        st[k] = *ph_world_get_stats(w);
        if (s_logs != 1)
            fprintf(stderr, "logs %d, last '%s'; pairs %d dropped %d manifolds %d peak %zu bytes\n", s_logs,
                    s_last_log, st[k].pair_count, st[k].pairs_dropped, st[k].manifold_count, s_budget.peak);
        ENSURE(s_logs == 1);
        ENSURE(strstr(s_last_log, "capacity"));
    }
    ENSURE(s_budget.refused == 0 && s_budget.peak <= HEAP_BYTES_MOST);
    ENSURE(st[0].allocation_failures == 0);
    ENSURE(st[0].pair_count > 0 && st[0].pair_count <= HEAP_PAIRS_MOST);
    ENSURE(st[0].manifold_count <= st[0].pair_count);
    ENSURE(st[0].pairs_dropped > 0);
    ENSURE(st[0].pair_count + st[0].pairs_dropped == HEAP_BODIES * (HEAP_BODIES - 1) / 2 + HEAP_BODIES);
    ENSURE(st[1].pair_count == st[0].pair_count && st[1].pairs_dropped == st[0].pairs_dropped);
    ENSURE(st[1].manifold_count == st[0].manifold_count);
    for (int s = 0; s < 10; s++)
    {
        ph_world_step(w);
        ENSURE(ph_world_get_stats(w)->pair_count <= HEAP_PAIRS_MOST);
    }
    ENSURE(s_budget.refused == 0);
    static ph_body_id ids[HEAP_BODIES + 1];
    int count = ph_world_get_bodies(w, ids, HEAP_BODIES + 1);
    ENSURE(count == HEAP_BODIES + 1);
    for (int i = 0; i < count; i++)
    {
        ENSURE(vec_finite(ph_body_get_position(w, ids[i])));
        ENSURE(vec_finite(ph_body_get_linear_velocity(w, ids[i])));
    }
    ph_world_destroy(w);
    ENSURE(s_budget.live == 0);
    ph_set_allocator(NULL, NULL, NULL);
    ph_set_log(NULL, NULL);
    return 0;
}

// ---- Defect 11: spheres on mesh triangles as wide as the vertex limit allows ----------------------------

// A static mesh of two triangles spanning the whole square |x|, |z| <= PH_MAX_SIZE (local vertices at the
// limit, 2e4 m a side) at the origin; spheres dropped onto it (at its centre, on its diagonal seam, beside
// the seam on either side, near its corners, and a 1 cm sphere) come to rest on it instead of falling
// through. Before the fix, a body on one triangle within 28 m of the seam (a band of 1e-3 of the longest
// edge) lost its only point as a "twin" of the neighbour's, and GJK's tolerance at this size let the 1 cm
// sphere through.
static int abuse_wide_mesh_holds_spheres(void)
{
    ph_set_log(record_log, NULL);
    size_t start = ph_byte_count();
    const float e = PH_MAX_SIZE;
    const ph_vec3 v[4] = {ph_v3(-e, 0.0f, -e), ph_v3(e, 0.0f, -e), ph_v3(e, 0.0f, e), ph_v3(-e, 0.0f, e)};
    const int idx[6] = {0, 2, 1, 0, 3, 2}; // counter-clockwise seen from +y
    const ph_vec3 drops[] = {ph_v3(0.0f, 0.0f, 0.0f),         ph_v3(1234.5f, 0.0f, 1234.5f),
                             ph_v3(-6000.3f, 0.0f, 2500.7f),  ph_v3(9000.25f, 0.0f, -8999.5f),
                             ph_v3(-9500.5f, 0.0f, 9400.5f),  ph_v3(4000.1f, 0.0f, -7000.9f),
                             ph_v3(-3000.3f, 0.0f, -2990.9f), ph_v3(-5.0f, 0.0f, -4.7f),
                             ph_v3(7000.0f, 0.0f, 6999.0f),   ph_v3(100.5f, 0.0f, -200.5f)};
    const float radii[] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.01f};
    ph_world *w = make_world();
    ENSURE(w);
    ph_mesh_def md = ph_default_mesh_def();
    md.vertices = v;
    md.vertex_count = 4;
    md.indices = idx;
    md.triangle_count = 2;
    ph_geom_id geom = ph_world_add_mesh(w, &md);
    ENSURE(!PH_ID_IS_NULL(geom));
    ph_body_def g = ph_default_body_def();
    g.shape = ph_make_geom_shape(PH_SHAPE_MESH, geom);
    ENSURE(!PH_ID_IS_NULL(ph_body_create(w, &g)));
    enum
    {
        DROPS = sizeof drops / sizeof drops[0]
    };
    ph_body_id ball[DROPS];
    for (int i = 0; i < DROPS; i++)
    {
        ph_body_def d = ph_default_body_def();
        d.type = PH_BODY_DYNAMIC;
        d.shape = ph_make_sphere(radii[i]);
        d.position = glms_vec3_add(drops[i], ph_v3(0.0f, 3.0f, 0.0f));
        ball[i] = ph_body_create(w, &d);
        ENSURE(!PH_ID_IS_NULL(ball[i]));
    }
    for (int s = 0; s < 180; s++)
        ph_world_step(w);
    for (int i = 0; i < DROPS; i++)
    {
        ph_vec3 p = ph_body_get_position(w, ball[i]);
        if (!vec_finite(p) || fabsf(p.y - radii[i]) > 0.05f)
        {
            fprintf(stderr, "sphere %d dropped at (%g, %g) is at (%g, %g, %g)\n", i, (double)drops[i].x,
                    (double)drops[i].z, (double)p.x, (double)p.y, (double)p.z);
            return 1;
        }
    }
    ph_world_destroy(w);
    ENSURE(ph_byte_count() == start);
    ph_set_log(NULL, NULL);
    return 0;
}

const test_case test_abuse_cases[] = {
    {"abuse_body_create_oom_keeps_world", abuse_body_create_oom_keeps_world},
    {"abuse_geom_create_oom_destroys_cleanly", abuse_geom_create_oom_destroys_cleanly},
    {"abuse_calendar_budget_bounded", abuse_calendar_budget_bounded},
    {"abuse_impulse_velocity_bounded", abuse_impulse_velocity_bounded},
    {"abuse_shape_sizes_bounded", abuse_shape_sizes_bounded},
    {"abuse_time_step_and_gravity_scale_bounded", abuse_time_step_and_gravity_scale_bounded},
    {"abuse_spin_clamp_keeps_cap", abuse_spin_clamp_keeps_cap},
    {"abuse_error_messages", abuse_error_messages},
    {"abuse_callbacks_cannot_change_world", abuse_callbacks_cannot_change_world},
    {"abuse_wake_visits_only_island", abuse_wake_visits_only_island},
    {"abuse_allocation_failure_sweep", abuse_allocation_failure_sweep},
    {"abuse_validity_table", abuse_validity_table},
    {"abuse_overlap_pairs_capped", abuse_overlap_pairs_capped},
    {"abuse_wide_mesh_holds_spheres", abuse_wide_mesh_holds_spheres},
    {0},
};
