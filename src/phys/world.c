// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The world: lifecycle, geometry and body storage, validation of every public argument, the step as its
// list of stages, queries, statistics, the state hash and debug drawing (phys.h). The stages themselves
// live in contact.c (narrow phase), solver.c, calendar.c and island.c; the broadphase is octree.c.
#include "world.h"

#include "array.h"
#include "core.h"
#include "impact.h"
#include "island.h"
#include "shape.h"
#include "solver.h"
#include "types_internal.h"

#include <stdarg.h> // va_list
#include <stdio.h>  // vsnprintf (message formatting only)
#include <string.h> // memset, memcpy

// A quaternion whose length is off by more than this is rejected rather than normalised.
#define WORLD_QUAT_LENGTH_TOLERANCE 1e-3f
// The bounds of the validity table are phys.h's PH_MAX_* and PH_MIN_*: the checks below read them and no
// other number.
// Initial size of the step arena (unit: bytes); it grows between steps to the high-water mark.
#define WORLD_ARENA_INITIAL (64u * 1024u)

// ---- Errors ------------------------------------------------------------------------------------------

void ph_world_error(const ph_world *world, ph_status status, const char *format, ...)
{
    char message[sizeof world->last_error.message];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    if (!world)
    {
        ph_log(PH_LOG_ERROR, "%s", message);
        return;
    }
    // The world is always heap-allocated, never a const object: recording an error from a getter is
    // allowed.
    ph_world *w = (ph_world *)world;
    w->last_error.status = status;
    memcpy(w->last_error.message, message, sizeof message);
    // The log hook is user code: while it runs the world refuses changes, and an error the hook itself
    // causes is recorded but not logged again (a hook that calls a refused function would otherwise recurse
    // without end).
    if (w->logging)
        return;
    w->logging = true;
    w->locked++;
    ph_log(PH_LOG_ERROR, "%s", message);
    w->locked--;
    w->logging = false;
}

// False, with PH_ERR_INVALID_ARG recorded, while the world may not change: inside ph_world_step, a
// debug-draw callback or the log hook (the contract of phys.h). The walks those run hold pointers into the
// world's arrays, which a body created from a callback would move.
bool ph_world_can_change(const ph_world *world, const char *fn)
{
    if (world->locked == 0)
        return true;
    ph_world_error(world, PH_ERR_INVALID_ARG,
                   "%s: called while the world is being stepped or drawn (from a callback or the log hook); "
                   "callbacks must not change the world, so make the change after ph_world_step or "
                   "ph_world_debug_draw returns.",
                   fn);
    return false;
}

// Logs a warning when allocations failed since `failures` (ph_alloc_failures) in a call that still
// succeeded: a module below degraded (a broadphase node kept in the outside list) and said nothing.
static void warn_degraded(const ph_world *world, unsigned long failures, const char *fn)
{
    unsigned long now = ph_alloc_failures();
    if (now == failures || world->logging)
        return;
    ph_log(
        PH_LOG_WARNING,
        "%s: %lu allocations failed on the way; the call succeeded with a slower fallback (out of memory).",
        fn, now - failures);
}

ph_error ph_world_last_error(const ph_world *world)
{
    if (!world)
    {
        ph_error e = {PH_ERR_INVALID_ARG, "ph_world_last_error: world is NULL."};
        return e;
    }
    return world->last_error;
}

// Every component finite and of magnitude below `limit` (exclusive).
static bool vec_below(ph_vec3 v, float limit)
{
    return ph_is_finite_vec3(v) && fabsf(v.x) < limit && fabsf(v.y) < limit && fabsf(v.z) < limit;
}

// Every component finite and of magnitude at most `limit` (inclusive).
static bool vec_within(ph_vec3 v, float limit)
{
    return ph_is_finite_vec3(v) && fabsf(v.x) <= limit && fabsf(v.y) <= limit && fabsf(v.z) <= limit;
}

// A vector whose every component is finite and below `limit` in magnitude, else an error naming it.
static bool check_vec_below(const ph_world *world, const char *fn, const char *field, ph_vec3 v, float limit)
{
    if (vec_below(v, limit))
        return true;
    ph_world_error(world, PH_ERR_INVALID_ARG,
                   "%s: %s is (%g, %g, %g); each component must be finite and below %g in magnitude.", fn,
                   field, (double)v.x, (double)v.y, (double)v.z, (double)limit);
    return false;
}

// A position (unit: m) inside the coordinate limit of the validity table.
bool ph_world_check_vec(const ph_world *world, const char *fn, const char *field, ph_vec3 v)
{
    return check_vec_below(world, fn, field, v, PH_MAX_COORDINATE);
}

// A velocity (unit: m/s or rad/s) inside the speed limit of the validity table.
static bool check_speed(const ph_world *world, const char *fn, const char *field, ph_vec3 v)
{
    return check_vec_below(world, fn, field, v, PH_MAX_SPEED);
}

// A force, torque or impulse: any finite value (what it does is bounded by the speeds it gives).
static bool check_finite_vec(const ph_world *world, const char *fn, const char *field, ph_vec3 v)
{
    if (ph_is_finite_vec3(v))
        return true;
    ph_world_error(world, PH_ERR_INVALID_ARG, "%s: %s is (%g, %g, %g); it must be finite.", fn, field,
                   (double)v.x, (double)v.y, (double)v.z);
    return false;
}

// value in [lo, hi], finite.
bool ph_world_check_range(const ph_world *world, const char *fn, const char *field, float value, float lo,
                          float hi)
{
    if (ph_is_finite_float(value) && value >= lo && value <= hi)
        return true;
    ph_world_error(world, PH_ERR_INVALID_ARG, "%s: %s is %g; it must be finite and in [%g, %g].", fn, field,
                   (double)value, (double)lo, (double)hi);
    return false;
}

// A local offset or vertex (unit: m) within the size limit of the validity table.
bool ph_world_check_local_vec(const ph_world *world, const char *fn, const char *field, ph_vec3 v)
{
    if (vec_within(v, PH_MAX_SIZE))
        return true;
    ph_world_error(world, PH_ERR_INVALID_ARG,
                   "%s: %s is (%g, %g, %g); each coordinate must be finite and at most %g m from the shape's "
                   "origin (place large things by their body's position instead).",
                   fn, field, (double)v.x, (double)v.y, (double)v.z, (double)PH_MAX_SIZE);
    return false;
}

bool ph_world_check_quat(const ph_world *world, const char *fn, const char *field, ph_quat *q)
{
    float len = ph_is_finite_quat(*q) ? sqrtf(glms_quat_dot(*q, *q)) : -1.0f;
    if (!(len > 0.0f) || fabsf(len - 1.0f) > WORLD_QUAT_LENGTH_TOLERANCE)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG,
                       "%s: %s is (%g, %g, %g, %g); it must be a finite unit quaternion.", fn, field,
                       (double)q->x, (double)q->y, (double)q->z, (double)q->w);
        return false;
    }
    *q = glms_quat_normalize(*q);
    return true;
}

// value must be finite and >= lo (or > lo when strict).
static bool check_float(const ph_world *world, const char *fn, const char *field, float value, float lo,
                        bool strict)
{
    if (ph_is_finite_float(value) && (strict ? value > lo : value >= lo))
        return true;
    ph_world_error(world, PH_ERR_INVALID_ARG, "%s: %s is %g; it must be finite and %s %g.", fn, field,
                   (double)value, strict ? ">" : ">=", (double)lo);
    return false;
}

// The slot of a live body id, or -1 with PH_ERR_STALE_ID recorded.
static int body_slot(const ph_world *world, ph_body_id id, const char *fn)
{
    if (!world)
    {
        ph_log(PH_LOG_ERROR, "%s: world is NULL.", fn);
        return -1;
    }
    if (!ph_id_pool_check(&world->body_ids, id.index1, id.generation))
    {
        ph_world_error(world, PH_ERR_STALE_ID,
                       "%s: body id {%u, %u} does not name a live body (removed, or never created here).", fn,
                       id.index1, id.generation);
        return -1;
    }
    return (int)id.index1 - 1;
}

static ph_body_id make_body_id(const ph_world *world, int slot)
{
    ph_body_id id = {(uint32_t)slot + 1u, ph_id_pool_generation(&world->body_ids, slot)};
    return id;
}

// ---- World lifecycle ---------------------------------------------------------------------------------

static bool check_world_def(const ph_world_def *def)
{
    const char *fn = "ph_world_create";
    if (!def)
    {
        ph_log(PH_LOG_ERROR, "%s: def is NULL; pass the address of a ph_default_world_def().", fn);
        return false;
    }
    if (def->internal_cookie != PH_WORLD_DEF_COOKIE)
    {
        ph_log(PH_LOG_ERROR, "%s: def not initialised with ph_default_world_def().", fn);
        return false;
    }
    if (!ph_world_check_vec(NULL, fn, "def.gravity", def->gravity) ||
        !ph_world_check_range(NULL, fn, "def.time_step", def->time_step, PH_MIN_TIME_STEP,
                              PH_MAX_TIME_STEP) ||
        !ph_world_check_range(NULL, fn, "def.contact_hertz", def->contact_hertz, 0.0f,
                              PH_MAX_CONTACT_HERTZ) ||
        !check_float(NULL, fn, "def.speculative_margin", def->speculative_margin, 0.0f, true) ||
        !ph_world_check_range(NULL, fn, "def.speculative_margin", def->speculative_margin, 0.0f,
                              PH_MAX_SPECULATIVE_MARGIN))
        return false;
    if (def->substeps < 1 || def->substeps > PH_MAX_SUBSTEPS)
    {
        ph_log(PH_LOG_ERROR, "%s: def.substeps is %d; it must be in [1, %d].", fn, def->substeps,
               PH_MAX_SUBSTEPS);
        return false;
    }
    if (def->max_substeps < def->substeps || def->max_substeps > PH_MAX_SUBSTEPS)
    {
        ph_log(PH_LOG_ERROR, "%s: def.max_substeps is %d; it must be in [def.substeps = %d, %d].", fn,
               def->max_substeps, def->substeps, PH_MAX_SUBSTEPS);
        return false;
    }
    if (def->solver_iterations < 1 || def->solver_iterations > PH_MAX_SUBSTEPS)
    {
        ph_log(PH_LOG_ERROR, "%s: def.solver_iterations is %d; it must be in [1, %d].", fn,
               def->solver_iterations, PH_MAX_SUBSTEPS);
        return false;
    }
    if ((int)def->simd < (int)PH_SIMD_BEST || (int)def->simd > (int)PH_SIMD_NEON)
    {
        ph_log(PH_LOG_ERROR, "%s: def.simd is %d; it must be a ph_simd_path.", fn, (int)def->simd);
        return false;
    }
    // The calendar sizes its tables from the budget (a pair table of twice the events a step may resolve):
    // unbounded, a budget of 1e7 asked 512 MB of a 10-body scene and larger ones overflowed the sizes.
    if (def->calendar_event_budget < 0 || def->calendar_event_budget > PH_MAX_CALENDAR_BUDGET)
    {
        ph_log(PH_LOG_ERROR, "%s: def.calendar_event_budget is %d; it must be in [0, %d] events per step.",
               fn, def->calendar_event_budget, PH_MAX_CALENDAR_BUDGET);
        return false;
    }
    if (def->calendar_events_per_pair < 1 || def->calendar_events_per_pair > PH_MAX_CALENDAR_BUDGET)
    {
        ph_log(PH_LOG_ERROR, "%s: def.calendar_events_per_pair is %d; it must be in [1, %d].", fn,
               def->calendar_events_per_pair, PH_MAX_CALENDAR_BUDGET);
        return false;
    }
    if (def->worker_count < 1 || def->worker_count > PH_MAX_WORKERS)
    {
        ph_log(PH_LOG_ERROR, "%s: def.worker_count is %d; it must be in [1, %d].", fn, def->worker_count,
               PH_MAX_WORKERS);
        return false;
    }
    if (!def->enqueue_task != !def->finish_task)
    {
        ph_log(PH_LOG_ERROR,
               "%s: def.enqueue_task and def.finish_task must be set together (a job system) or both be NULL "
               "(the built-in pool).",
               fn);
        return false;
    }
    return true;
}

ph_world *ph_world_create(const ph_world_def *def)
{
    if (!check_world_def(def))
        return NULL;
    ph_world *world = ph_alloc(sizeof *world);
    if (!world)
    {
        ph_log(PH_LOG_ERROR, "ph_world_create: out of memory.");
        return NULL;
    }
    memset(world, 0, sizeof *world);
    world->def = *def;
    ph_ticks_calibrate(); // once per process, here rather than inside a step's timings
    ph_arena_create(&world->arena, WORLD_ARENA_INITIAL);
    if (world->arena.capacity == 0)
    {
        ph_free(world, sizeof *world);
        ph_log(PH_LOG_ERROR, "ph_world_create: out of memory (the step arena).");
        return NULL;
    }
    if (!ph_tasks_create(&world->tasks, def))
    {
        ph_arena_destroy(&world->arena);
        ph_free(world, sizeof *world);
        ph_log(PH_LOG_ERROR, "ph_world_create: could not start %d worker threads.", def->worker_count - 1);
        return NULL;
    }
    ph_octree_create(&world->octree);
    world->octree.tasks = &world->tasks; // its pair search splits over the world's workers
    world->octree.max_pairs_per_proxy = PH_MAX_PAIRS_PER_BODY;
    world->octree.max_pairs = PH_MAX_PAIRS_PER_STEP;
    ph_id_pool_create(&world->body_ids);
    ph_id_pool_create(&world->geom_ids);
    ph_id_pool_create(&world->joint_ids);
    return world;
}

static void free_geom(ph_geom *g)
{
    if (g->hull)
        ph_hull_free(g->hull);
    if (g->mesh)
        ph_mesh_free(g->mesh);
    if (g->compound)
    {
        ph_free(g->child_density, (size_t)g->compound->child_count * sizeof *g->child_density);
        ph_free(g->compound->children, (size_t)g->compound->child_count * sizeof *g->compound->children);
        ph_free(g->compound, sizeof *g->compound);
    }
    memset(g, 0, sizeof *g);
}

void ph_world_destroy(ph_world *world)
{
    if (!world || !ph_world_can_change(world, "ph_world_destroy"))
        return;
    for (int i = 0; i < world->geom_ids.slot_count; i++)
        free_geom(&world->geoms[i]);
    ph_array_free(world->geoms, world->geom_capacity);
    ph_array_free(world->bodies, world->body_capacity);
    ph_array_free(world->states, world->state_capacity);
    ph_array_free(world->active, world->active_capacity);
    ph_array_free(world->stack_depth, world->stack_depth_capacity);
    ph_contact_set_destroy(&world->contacts);
    ph_calendar_destroy(&world->calendar);
    ph_joints_destroy_all(world);
    ph_id_pool_destroy(&world->body_ids);
    ph_id_pool_destroy(&world->geom_ids);
    ph_octree_destroy(&world->octree);
    ph_arena_destroy(&world->arena);
    ph_tasks_destroy(&world->tasks);
    ph_free(world, sizeof *world);
}

ph_status ph_world_set_gravity(ph_world *world, ph_vec3 gravity)
{
    if (!world)
        return PH_ERR_INVALID_ARG;
    if (!ph_world_can_change(world, "ph_world_set_gravity") ||
        !ph_world_check_vec(world, "ph_world_set_gravity", "gravity", gravity))
        return PH_ERR_INVALID_ARG;
    world->def.gravity = gravity;
    for (int i = 0; i < world->body_ids.slot_count; i++)
        if (ph_id_pool_is_live(&world->body_ids, i) && world->bodies[i].type == PH_BODY_DYNAMIC)
            ph_world_wake_island(world, i);
    return PH_OK;
}

ph_vec3 ph_world_get_gravity(const ph_world *world)
{
    return world ? world->def.gravity : glms_vec3_zero();
}

float ph_world_get_time_step(const ph_world *world)
{
    return world ? world->def.time_step : 0.0f;
}

float ph_world_get_last_substep(const ph_world *world)
{
    return world ? world->last_h : 0.0f;
}

ph_status ph_world_set_last_substep(ph_world *world, float h)
{
    if (!world)
        return PH_ERR_INVALID_ARG;
    const char *fn = "ph_world_set_last_substep";
    if (!ph_world_can_change(world, fn) ||
        !ph_world_check_range(world, fn, "h", h, 0.0f, world->def.time_step))
        return PH_ERR_INVALID_ARG;
    world->last_h = h;
    return PH_OK;
}

const ph_step_stats *ph_world_get_stats(const ph_world *world)
{
    return world ? &world->stats : NULL;
}

// FNV-1a over the bytes of every live body's state, in slot order.
static uint64_t hash_bytes(uint64_t h, const void *data, size_t size)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < size; i++)
    {
        h ^= p[i];
        h *= 0x100000001b3ull; // FNV-1a 64-bit prime
    }
    return h;
}

uint64_t ph_world_hash(const ph_world *world)
{
    uint64_t h = 0xcbf29ce484222325ull; // FNV-1a 64-bit offset basis
    if (!world)
        return h;
    for (int i = 0; i < world->body_ids.slot_count; i++)
    {
        if (!ph_id_pool_is_live(&world->body_ids, i))
            continue;
        const ph_body *b = &world->bodies[i];
        const ph_body_state *s = &world->states[i];
        float f[13] = {b->center.x, b->center.y, b->center.z, b->xf.q.x, b->xf.q.y, b->xf.q.z, b->xf.q.w,
                       s->v.x,      s->v.y,      s->v.z,      s->w.x,    s->w.y,    s->w.z};
        int32_t head[2] = {i, b->awake ? 1 : 0};
        h = hash_bytes(h, head, sizeof head);
        h = hash_bytes(h, f, sizeof f);
    }
    return h;
}

// ---- Geometry ----------------------------------------------------------------------------------------

static ph_geom_id add_geom(ph_world *world, ph_geom g, const char *fn)
{
    // The slot is reserved and the array grown before the id is taken: a failure on the way leaves the ids
    // and the array as they were (taken first, a failed growth left a slot counted that the array did not
    // hold, and ph_world_destroy read past it).
    int slot = ph_id_pool_reserve(&world->geom_ids);
    if (slot < 0 || !ph_array_reserve(world->geoms, world->geom_capacity, slot + 1))
    {
        free_geom(&g);
        ph_world_error(world, PH_ERR_OUT_OF_MEMORY, "%s: out of memory.", fn);
        return PH_NULL_GEOM_ID;
    }
    world->geoms[slot] = g;
    int taken = ph_id_pool_alloc(&world->geom_ids);
    PH_ASSERT(taken == slot);
    (void)taken;
    ph_geom_id id = {(uint32_t)slot + 1u, ph_id_pool_generation(&world->geom_ids, slot)};
    return id;
}

static const ph_geom *get_geom(const ph_world *world, ph_geom_id id)
{
    if (!world || !ph_id_pool_check(&world->geom_ids, id.index1, id.generation))
        return NULL;
    return &world->geoms[id.index1 - 1];
}

// Records why a builder (hull, mesh) failed: its own sentence, captured from ph_log, or the status alone.
static void builder_error(ph_world *world, ph_status status, const char *reason, const char *fn,
                          const char *what)
{
    if (reason[0])
        ph_world_error(world, status, "%s: %s", fn, reason);
    else
        ph_world_error(world, status, "%s: the %s could not be built (%s).", fn, what,
                       ph_status_string(status));
}

// The first of the points outside the size limit of the validity table, or -1.
static int oversized_point(const ph_vec3 *points, int count)
{
    for (int i = 0; i < count; i++)
        if (!vec_within(points[i], PH_MAX_SIZE))
            return i;
    return -1;
}

ph_geom_id ph_world_add_hull(ph_world *world, const ph_hull_def *def)
{
    const char *fn = "ph_world_add_hull";
    if (!world || !ph_world_can_change(world, fn))
        return PH_NULL_GEOM_ID;
    ph_status status = PH_OK;
    char reason[sizeof world->last_error.message];
    ph_log_capture(reason, sizeof reason);
    ph_hull *hull = ph_hull_build(def, &status);
    ph_log_capture(NULL, 0);
    if (!hull)
    {
        builder_error(world, status, reason, fn, "hull");
        return PH_NULL_GEOM_ID;
    }
    // The hull's own vertices (the kept extreme points) must be inside the size limit: a hull spanning
    // 1e8 m flung what it touched at 1e23 m/s.
    int far = oversized_point(hull->vertices, hull->vertex_count);
    if (far >= 0)
    {
        ph_vec3 v = hull->vertices[far];
        ph_hull_free(hull);
        ph_world_error(world, PH_ERR_INVALID_ARG,
                       "%s: def.points reach (%g, %g, %g); every point must be within %g m of the hull's "
                       "origin in each coordinate (place large things by their body's position instead).",
                       fn, (double)v.x, (double)v.y, (double)v.z, (double)PH_MAX_SIZE);
        return PH_NULL_GEOM_ID;
    }
    ph_geom g = {PH_GEOM_HULL, hull, NULL, NULL, NULL};
    return add_geom(world, g, fn);
}

ph_geom_id ph_world_add_mesh(ph_world *world, const ph_mesh_def *def)
{
    const char *fn = "ph_world_add_mesh";
    if (!world || !ph_world_can_change(world, fn))
        return PH_NULL_GEOM_ID;
    ph_status status = PH_OK;
    char reason[sizeof world->last_error.message];
    ph_log_capture(reason, sizeof reason);
    ph_mesh *mesh = ph_mesh_build(def, &status);
    ph_log_capture(NULL, 0);
    if (!mesh)
    {
        builder_error(world, status, reason, fn, "mesh");
        return PH_NULL_GEOM_ID;
    }
    // Every vertex the mesh kept lies within its bounds.
    ph_aabb b = ph_mesh_bounds(mesh);
    ph_vec3 corners[2] = {b.lo, b.hi};
    int far = oversized_point(corners, 2);
    if (far >= 0)
    {
        ph_vec3 v = corners[far];
        ph_mesh_free(mesh);
        ph_world_error(world, PH_ERR_INVALID_ARG,
                       "%s: def.vertices reach (%g, %g, %g); every vertex must be within %g m of the mesh's "
                       "origin in each coordinate (split the mesh and place the pieces by body position).",
                       fn, (double)v.x, (double)v.y, (double)v.z, (double)PH_MAX_SIZE);
        return PH_NULL_GEOM_ID;
    }
    ph_geom g = {PH_GEOM_MESH, NULL, NULL, mesh, NULL};
    return add_geom(world, g, fn);
}

static bool check_transform(const ph_world *world, const char *fn, const char *field, ph_transform *xf)
{
    return ph_world_check_vec(world, fn, field, xf->p) && ph_world_check_quat(world, fn, field, &xf->q);
}

// Resolves a primitive or hull shape to a convex shape, validating sizes; false with an error recorded.
static bool resolve_convex(const ph_world *world, const char *fn, const char *field, const ph_shape *s,
                           ph_convex *out)
{
    char name[96];
    switch (s->type)
    {
    case PH_SHAPE_BOX:
    {
        ph_vec3 h = s->half_extents;
        if (!vec_within(h, PH_MAX_SIZE) || !(h.x >= PH_MIN_SIZE) || !(h.y >= PH_MIN_SIZE) ||
            !(h.z >= PH_MIN_SIZE))
        {
            ph_world_error(
                world, PH_ERR_INVALID_ARG,
                "%s: %s.half_extents is (%g, %g, %g); every half extent must be finite and in [%g, "
                "%g] m.",
                fn, field, (double)h.x, (double)h.y, (double)h.z, (double)PH_MIN_SIZE, (double)PH_MAX_SIZE);
            return false;
        }
        *out = ph_convex_box(h);
        return true;
    }
    case PH_SHAPE_SPHERE:
        snprintf(name, sizeof name, "%s.radius", field);
        if (!ph_world_check_range(world, fn, name, s->radius, PH_MIN_SIZE, PH_MAX_SIZE))
            return false;
        *out = ph_convex_sphere(s->radius);
        return true;
    case PH_SHAPE_CAPSULE:
        snprintf(name, sizeof name, "%s.radius", field);
        if (!ph_world_check_range(world, fn, name, s->radius, PH_MIN_SIZE, PH_MAX_SIZE))
            return false;
        snprintf(name, sizeof name, "%s.half_height", field);
        if (!ph_world_check_range(world, fn, name, s->half_height, 0.0f, PH_MAX_SIZE))
            return false;
        *out = ph_convex_capsule(s->half_height, s->radius);
        return true;
    case PH_SHAPE_HULL:
    {
        const ph_geom *g = get_geom(world, s->geom);
        if (!g || g->kind != PH_GEOM_HULL)
        {
            ph_world_error(world, g ? PH_ERR_WRONG_TYPE : PH_ERR_STALE_ID,
                           "%s: %s.geom {%u, %u} is not a live hull geometry of this world.", fn, field,
                           s->geom.index1, s->geom.generation);
            return false;
        }
        *out = ph_convex_hull(g->hull);
        return true;
    }
    default:
        ph_world_error(world, PH_ERR_INVALID_ARG,
                       "%s: %s.type is %d; a convex shape must be PH_SHAPE_BOX, SPHERE, CAPSULE or HULL.", fn,
                       field, (int)s->type);
        return false;
    }
}

ph_geom_id ph_world_add_compound(ph_world *world, const ph_compound_def *def)
{
    const char *fn = "ph_world_add_compound";
    if (!world || !ph_world_can_change(world, fn))
        return PH_NULL_GEOM_ID;
    if (!def || def->internal_cookie != PH_COMPOUND_DEF_COOKIE)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG, "%s: def not initialised with ph_default_compound_def().",
                       fn);
        return PH_NULL_GEOM_ID;
    }
    if (def->child_count < 1 || def->child_count > PH_MAX_COMPOUND_CHILDREN || !def->children)
    {
        ph_world_error(
            world, PH_ERR_INVALID_ARG,
            "%s: def.child_count is %d (children %s); it must be in [1, %d] with a children array.", fn,
            def->child_count, def->children ? "given" : "NULL", PH_MAX_COMPOUND_CHILDREN);
        return PH_NULL_GEOM_ID;
    }
    int n = def->child_count;
    ph_compound *c = ph_alloc(sizeof *c);
    ph_compound_child *children = ph_alloc((size_t)n * sizeof *children);
    float *density = ph_alloc((size_t)n * sizeof *density);
    if (!c || !children || !density)
    {
        ph_free(c, sizeof *c);
        ph_free(children, (size_t)n * sizeof *children);
        ph_free(density, (size_t)n * sizeof *density);
        ph_world_error(world, PH_ERR_OUT_OF_MEMORY, "%s: out of memory.", fn);
        return PH_NULL_GEOM_ID;
    }
    for (int i = 0; i < n; i++)
    {
        char field[64];
        snprintf(field, sizeof field, "def.children[%d].shape", i);
        ph_transform local = def->children[i].local;
        char xfield[64];
        snprintf(xfield, sizeof xfield, "def.children[%d].local", i);
        char dfield[64];
        snprintf(dfield, sizeof dfield, "def.children[%d].density", i);
        if (!resolve_convex(world, fn, field, &def->children[i].shape, &children[i].shape) ||
            !check_transform(world, fn, xfield, &local) ||
            !ph_world_check_local_vec(world, fn, xfield, local.p) ||
            !check_float(world, fn, dfield, def->children[i].density, 0.0f, true) ||
            !ph_world_check_range(world, fn, dfield, def->children[i].density, 0.0f, PH_MAX_DENSITY))
        {
            ph_free(c, sizeof *c);
            ph_free(children, (size_t)n * sizeof *children);
            ph_free(density, (size_t)n * sizeof *density);
            return PH_NULL_GEOM_ID;
        }
        children[i].local = local;
    }
    c->child_count = n;
    c->children = children;
    for (int i = 0; i < n; i++)
    {
        ph_aabb b = ph_convex_bounds(&children[i].shape, children[i].local);
        c->bounds.lo = i ? glms_vec3_minv(c->bounds.lo, b.lo) : b.lo;
        c->bounds.hi = i ? glms_vec3_maxv(c->bounds.hi, b.hi) : b.hi;
    }
    ph_geom g = {PH_GEOM_COMPOUND, NULL, c, NULL, density};
    for (int i = 0; i < n; i++)
        density[i] = def->children[i].density;
    return add_geom(world, g, fn);
}

const ph_hull *ph_world_get_hull(const ph_world *world, ph_geom_id geom)
{
    const ph_geom *g = get_geom(world, geom);
    return g && g->kind == PH_GEOM_HULL ? g->hull : NULL;
}

const ph_compound *ph_world_get_compound(const ph_world *world, ph_geom_id geom)
{
    const ph_geom *g = get_geom(world, geom);
    return g && g->kind == PH_GEOM_COMPOUND ? g->compound : NULL;
}

const ph_mesh *ph_world_get_mesh(const ph_world *world, ph_geom_id geom)
{
    const ph_geom *g = get_geom(world, geom);
    return g && g->kind == PH_GEOM_MESH ? g->mesh : NULL;
}

// ---- Bodies ------------------------------------------------------------------------------------------

void ph_world_child_shape(const ph_world *world, int slot, int child, ph_convex *out_shape,
                          ph_transform *out_xf)
{
    const ph_body *b = &world->bodies[slot];
    if (b->mesh)
    {
        *out_shape = ph_mesh_triangle(b->mesh, child);
        *out_xf = b->xf;
    }
    else if (b->compound)
    {
        *out_shape = b->compound->children[child].shape;
        *out_xf = ph_transform_mul(b->xf, b->compound->children[child].local);
    }
    else
    {
        *out_shape = b->convex;
        *out_xf = b->xf;
    }
}

// Half the thinnest dimension of a convex shape (unit: m): how far it can move before passing through
// something of its own size.
static float convex_min_extent(const ph_convex *c)
{
    switch (c->type)
    {
    case PH_SHAPE_BOX:
        return fminf(c->half_extents.x, fminf(c->half_extents.y, c->half_extents.z));
    case PH_SHAPE_HULL:
        return c->hull->inner_radius;
    default:
        return c->radius;
    }
}

// Largest distance of the local box `b` from point c (unit: m).
static float box_radius_about(ph_aabb b, ph_vec3 c)
{
    ph_vec3 d = glms_vec3_maxv(glms_vec3_sub(b.hi, c), glms_vec3_sub(c, b.lo));
    return glms_vec3_norm(d);
}

static bool grow_body_arrays(ph_world *world, int needed)
{
    return ph_array_reserve(world->bodies, world->body_capacity, needed) &&
           ph_array_reserve(world->states, world->state_capacity, needed) &&
           ph_array_reserve(world->active, world->active_capacity, needed) &&
           ph_array_reserve(world->stack_depth, world->stack_depth_capacity, needed);
}

// Sets the shape-dependent fields of body (convex, compound, mesh, mass properties). False with an error.
static bool setup_shape(ph_world *world, ph_body *body, const ph_body_def *def, const char *fn)
{
    const ph_shape *s = &def->shape;
    ph_mass_properties mp = {0};
    body->compound = NULL;
    body->mesh = NULL;
    if (s->type == PH_SHAPE_MESH || s->type == PH_SHAPE_COMPOUND)
    {
        const ph_geom *g = get_geom(world, s->geom);
        ph_geom_kind want = s->type == PH_SHAPE_MESH ? PH_GEOM_MESH : PH_GEOM_COMPOUND;
        if (!g || g->kind != want)
        {
            ph_world_error(world, g ? PH_ERR_WRONG_TYPE : PH_ERR_STALE_ID,
                           "%s: def.shape.geom {%u, %u} is not a live %s geometry of this world.", fn,
                           s->geom.index1, s->geom.generation,
                           s->type == PH_SHAPE_MESH ? "mesh" : "compound");
            return false;
        }
        if (g->mesh)
        {
            if (def->type != PH_BODY_STATIC)
            {
                ph_world_error(world, PH_ERR_INVALID_ARG,
                               "%s: def.type is %d with a mesh shape; mesh shapes are only allowed on static "
                               "bodies (use hulls or a compound for moving ones).",
                               fn, (int)def->type);
                return false;
            }
            body->mesh = g->mesh;
            body->min_extent = 0.0f;
            return true;
        }
        body->compound = g->compound;
        body->min_extent = INFINITY;
        for (int i = 0; i < g->compound->child_count; i++)
        {
            const ph_compound_child *ch = &g->compound->children[i];
            body->min_extent = fminf(body->min_extent, convex_min_extent(&ch->shape));
            ph_mass_properties cm =
                ph_transform_mass(ph_compute_mass(&ch->shape, g->child_density[i]), ch->local);
            mp = i ? ph_add_mass(mp, cm) : cm;
        }
    }
    else
    {
        if (!resolve_convex(world, fn, "def.shape", s, &body->convex))
            return false;
        body->min_extent = convex_min_extent(&body->convex);
        mp = ph_compute_mass(&body->convex, def->material.density);
    }
    if (def->type == PH_BODY_STATIC)
    {
        body->local_center = glms_vec3_zero();
        return true;
    }
    if (def->mass_properties)
        mp = *def->mass_properties; // checked by check_mass_properties
    if (!(mp.mass > 0.0f) || !ph_is_finite_float(mp.mass))
    {
        ph_world_error(world, PH_ERR_DEGENERATE, "%s: the shape's mass is %g; it needs a positive volume.",
                       fn, (double)mp.mass);
        return false;
    }
    // A dynamic body's mass is bounded as def.mass is (check_body_def): 1e-33 kg took an impulse to an
    // infinite velocity, and the solver's effective masses lose every digit far outside the range.
    if (def->type == PH_BODY_DYNAMIC && def->mass == 0.0f &&
        !(mp.mass >= PH_MIN_MASS && mp.mass <= PH_MAX_MASS))
    {
        ph_world_error(
            world, PH_ERR_INVALID_ARG,
            "%s: the body's mass from its shape and density is %g kg; a dynamic body's mass must be "
            "in [%g, %g] kg, so change the size or density, or set def.mass.",
            fn, (double)mp.mass, (double)PH_MIN_MASS, (double)PH_MAX_MASS);
        return false;
    }
    if (def->mass > 0.0f)
    {
        float scale = def->mass / mp.mass;
        mp.mass = def->mass;
        mp.inertia = glms_mat3_scale(mp.inertia, scale);
    }
    body->local_center = mp.center;
    if (def->type == PH_BODY_DYNAMIC)
    {
        body->mass = mp.mass;
        body->inv_mass = 1.0f / mp.mass;
        body->inertia_local = mp.inertia;
        body->inv_inertia_local = ph_inverse_inertia(mp.inertia);
        body->isotropic = ph_inertia_is_isotropic(mp.inertia);
        body->diagonal = ph_inertia_is_diagonal(mp.inertia);
        if (!ph_is_finite_vec3(body->inv_inertia_local.col[0]) ||
            !ph_is_finite_vec3(body->inv_inertia_local.col[1]) ||
            !ph_is_finite_vec3(body->inv_inertia_local.col[2]))
        {
            ph_world_error(world, PH_ERR_DEGENERATE, "%s: the shape's inertia is singular.", fn);
            return false;
        }
    }
    return true;
}

// Relative asymmetry of def.mass_properties->inertia tolerated (float rounding of a computed tensor).
#define PH_INERTIA_SYMMETRY_TOLERANCE 1e-4

static bool check_mass(ph_world *world, const char *fn, float mass)
{
    if (mass == 0.0f || (mass >= PH_MIN_MASS && mass <= PH_MAX_MASS))
        return true;
    ph_world_error(
        world, PH_ERR_INVALID_ARG,
        "%s: def.mass is %g; it must be 0 (the mass then comes from the density) or in [%g, %g] kg.", fn,
        (double)mass, (double)PH_MIN_MASS, (double)PH_MAX_MASS);
    return false;
}

// def.mass_properties, when given: a mass in range, a centre inside the shape's reach, and an inertia
// tensor that is symmetric and positive definite (Sylvester's criterion: the leading minors are > 0).
static bool check_mass_properties(ph_world *world, const char *fn, const ph_mass_properties *mp)
{
    if (!mp)
        return true;
    if (!(mp->mass >= PH_MIN_MASS && mp->mass <= PH_MAX_MASS))
    {
        ph_world_error(world, PH_ERR_INVALID_ARG,
                       "%s: def.mass_properties->mass is %g; it must be in [%g, %g] kg.", fn,
                       (double)mp->mass, (double)PH_MIN_MASS, (double)PH_MAX_MASS);
        return false;
    }
    ph_vec3 c = mp->center;
    if (!ph_is_finite_vec3(c) || fabsf(c.x) > PH_MAX_SIZE || fabsf(c.y) > PH_MAX_SIZE ||
        fabsf(c.z) > PH_MAX_SIZE)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG,
                       "%s: def.mass_properties->center is (%g, %g, %g); each coordinate must be finite and "
                       "within %g m.",
                       fn, (double)c.x, (double)c.y, (double)c.z, (double)PH_MAX_SIZE);
        return false;
    }
    double a[3][3], scale = 0.0;
    bool finite = true;
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++)
        {
            a[row][col] = (double)mp->inertia.col[col].raw[row];
            finite = finite && isfinite(a[row][col]);
            scale = fmax(scale, fabs(a[row][col]));
        }
    bool symmetric = finite && fabs(a[0][1] - a[1][0]) <= PH_INERTIA_SYMMETRY_TOLERANCE * scale &&
                     fabs(a[0][2] - a[2][0]) <= PH_INERTIA_SYMMETRY_TOLERANCE * scale &&
                     fabs(a[1][2] - a[2][1]) <= PH_INERTIA_SYMMETRY_TOLERANCE * scale;
    double m1 = a[0][0], m2 = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    double m3 = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    if (!symmetric || !(m1 > 0.0 && m2 > 0.0 && m3 > 0.0))
    {
        ph_world_error(
            world, PH_ERR_INVALID_ARG,
            "%s: def.mass_properties->inertia (diagonal %g, %g, %g) is not a finite, symmetric, positive "
            "definite tensor.",
            fn, a[0][0], a[1][1], a[2][2]);
        return false;
    }
    return true;
}

static bool check_body_def(ph_world *world, const ph_body_def *def, ph_body_def *out)
{
    const char *fn = "ph_body_create";
    if (!def)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG,
                       "%s: def is NULL; pass the address of a ph_default_body_def().", fn);
        return false;
    }
    if (def->internal_cookie != PH_BODY_DEF_COOKIE)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG, "%s: def not initialised with ph_default_body_def().", fn);
        return false;
    }
    *out = *def;
    if ((int)def->type < PH_BODY_STATIC || (int)def->type > PH_BODY_DYNAMIC)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG,
                       "%s: def.type is %d; it must be PH_BODY_STATIC, PH_BODY_KINEMATIC or PH_BODY_DYNAMIC.",
                       fn, (int)def->type);
        return false;
    }
    if ((int)def->shape.type < 0 || def->shape.type >= PH_SHAPE_COUNT || def->shape.type == PH_SHAPE_TRIANGLE)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG,
                       "%s: def.shape.type is %d; it must be a sphere, capsule, box, hull, compound or mesh.",
                       fn, (int)def->shape.type);
        return false;
    }
    return ph_world_check_vec(world, fn, "def.position", def->position) &&
           ph_world_check_quat(world, fn, "def.orientation", &out->orientation) &&
           check_speed(world, fn, "def.linear_velocity", def->linear_velocity) &&
           check_speed(world, fn, "def.angular_velocity", def->angular_velocity) &&
           check_float(world, fn, "def.linear_damping", def->linear_damping, 0.0f, false) &&
           check_float(world, fn, "def.angular_damping", def->angular_damping, 0.0f, false) &&
           ph_world_check_range(world, fn, "def.gravity_scale", def->gravity_scale, -PH_MAX_GRAVITY_SCALE,
                                PH_MAX_GRAVITY_SCALE) &&
           check_mass(world, fn, def->mass) && check_mass_properties(world, fn, def->mass_properties) &&
           check_float(world, fn, "def.material.density", def->material.density, 0.0f, true) &&
           ph_world_check_range(world, fn, "def.material.density", def->material.density, 0.0f,
                                PH_MAX_DENSITY) &&
           check_float(world, fn, "def.material.friction", def->material.friction, 0.0f, false) &&
           check_float(world, fn, "def.material.restitution", def->material.restitution, 0.0f, false) &&
           (def->material.restitution <= 1.0f ||
            (ph_world_error(world, PH_ERR_INVALID_ARG,
                            "%s: def.material.restitution is %g; it must be in [0, 1].", fn,
                            (double)def->material.restitution),
             false));
}

static void set_body_state(ph_world *world, int slot)
{
    ph_body *b = &world->bodies[slot];
    ph_body_state *st = &world->states[slot];
    bool moving = b->type != PH_BODY_STATIC && b->awake;
    st->dq = glms_quat_identity();
    st->dp = glms_vec3_zero();
    st->pad_dp = 0.0f;
    st->inv_mass = moving ? b->inv_mass : 0.0f;
    ph_body_state_set_inv_inertia(
        st, moving && b->type == PH_BODY_DYNAMIC ? ph_body_world_inv_inertia(b, b->xf.q) : glms_mat3_zero());
    if (!moving)
    {
        st->v = glms_vec3_zero();
        st->w = glms_vec3_zero();
    }
    world->active[slot] = moving ? 1 : 0;
}

// Bounds for the broadphase: the shape's bounds at its pose, grown by the speculative margin.
static ph_aabb margin_bounds(const ph_world *world, ph_aabb b)
{
    float m = world->def.speculative_margin;
    b.lo = glms_vec3_sub(b.lo, ph_v3(m, m, m));
    b.hi = glms_vec3_add(b.hi, ph_v3(m, m, m));
    return b;
}

ph_body_id ph_body_create(ph_world *world, const ph_body_def *def)
{
    const char *fn = "ph_body_create";
    if (!world)
    {
        ph_log(PH_LOG_ERROR, "%s: world is NULL.", fn);
        return PH_NULL_BODY_ID;
    }
    ph_body_def d;
    if (!ph_world_can_change(world, fn) || !check_body_def(world, def, &d))
        return PH_NULL_BODY_ID;
    ph_body body;
    memset(&body, 0, sizeof body);
    if (!setup_shape(world, &body, &d, fn))
        return PH_NULL_BODY_ID;
    // Everything that can fail comes before the id is taken: the slot is reserved, the body arrays grown
    // to hold it and the broadphase proxy inserted, and only then is the slot taken, so a creation that runs
    // out of memory leaves the world exactly as it was. (Taken first, a failed growth left the slot count
    // above the arrays' length: the next step read past the states, and `active` kept an uninitialised
    // tail that the awake list took for awake bodies.)
    unsigned long failures = ph_alloc_failures();
    int slot = ph_id_pool_reserve(&world->body_ids);
    if (slot < 0 || !grow_body_arrays(world, slot + 1))
    {
        ph_world_error(world, PH_ERR_OUT_OF_MEMORY, "%s: out of memory.", fn);
        return PH_NULL_BODY_ID;
    }
    world->stack_depth[slot] = 0; // the slot may have held a body of some stack
    body.type = d.type;
    body.shape = d.shape;
    body.material = d.material;
    body.xf.p = d.position;
    body.xf.q = d.orientation;
    body.center = ph_transform_point(body.xf, body.local_center);
    body.center0 = body.center;
    body.q0 = body.xf.q;
    body.linear_damping = d.linear_damping;
    body.angular_damping = d.angular_damping;
    body.gravity_scale = d.gravity_scale;
    body.enable_sleep = d.enable_sleep;
    body.awake = d.type != PH_BODY_STATIC && d.is_awake;
    body.sleep_next = slot; // asleep from the start: an island of its own
    body.joint_head = -1;
    body.user_data = d.user_data;
    body.bounds = ph_body_compute_bounds(&body);
    ph_aabb local = body.mesh       ? ph_mesh_bounds(body.mesh)
                    : body.compound ? body.compound->bounds
                                    : ph_convex_bounds(&body.convex, ph_transform_identity());
    body.bound_radius = box_radius_about(local, body.local_center);
    world->bodies[slot] = body;
    ph_body_state *st = &world->states[slot];
    memset(st, 0, sizeof *st);
    if (d.type != PH_BODY_STATIC)
    {
        st->v = d.linear_velocity;
        st->w = ph_body_angular_velocity_carried(&world->bodies[slot], d.angular_velocity, world->last_h);
    }
    set_body_state(world, slot);
    world->bodies[slot].proxy =
        ph_octree_insert(&world->octree, slot, margin_bounds(world, body.bounds), d.type == PH_BODY_STATIC);
    if (world->bodies[slot].proxy < 0)
    {
        world->active[slot] = 0;
        memset(st, 0, sizeof *st);
        ph_world_error(world, PH_ERR_OUT_OF_MEMORY, "%s: out of memory (broadphase).", fn);
        return PH_NULL_BODY_ID;
    }
    int taken = ph_id_pool_alloc(&world->body_ids);
    PH_ASSERT(taken == slot);
    (void)taken;
    if (d.type == PH_BODY_STATIC)
        world->static_body_count++;
    warn_degraded(world, failures, fn);
    return make_body_id(world, slot);
}

static void wake_body(ph_world *world, int slot)
{
    ph_body *b = &world->bodies[slot];
    if (b->type == PH_BODY_STATIC || b->awake)
        return;
    b->awake = true;
    b->sleep_time = 0.0f;
    b->sleep_island = 0;
    world->wake_count++;
    // A body woken inside the step's calendar (struck while asleep) sweeps from where it is: its sweep start
    // is otherwise set only for bodies awake when the calendar began, and would be that of its last awake
    // step, pulling it back towards where that step started.
    b->toi_t0 = 0.0f;
    b->toi_c0 = b->center;
    b->toi_q0 = b->xf.q;
    b->toi_turn = glms_vec3_zero();
    set_body_state(world, slot);
}

void ph_world_wake_island(ph_world *world, int slot)
{
    ph_body *b = &world->bodies[slot];
    if (b->type == PH_BODY_STATIC)
        return;
    if (b->awake)
    {
        b->sleep_time = 0.0f;
        return;
    }
    // Around the ring of the sleeping island (island.c): its members, each once. (A scan of every slot for
    // the island's id made waking a 40,000-body sleeping world body by body take seconds.) The walk is
    // bounded by the live count in case the ring were ever broken.
    int i = slot;
    for (int n = 0; n < world->body_ids.live_count; n++)
    {
        world->wake_visits++;
        int next = world->bodies[i].sleep_next;
        PH_ASSERT(!world->bodies[i].awake && ph_id_pool_is_live(&world->body_ids, i));
        wake_body(world, i);
        if (next == slot)
            return;
        i = next;
    }
    PH_ASSERT(false); // the ring did not close
}

// Takes a sleeping body out of its island's ring (before it is destroyed): O(island).
static void leave_island(ph_world *world, int slot)
{
    ph_body *b = &world->bodies[slot];
    if (b->type == PH_BODY_STATIC || b->awake)
        return;
    int prev = slot;
    for (int n = 0; n < world->body_ids.live_count && world->bodies[prev].sleep_next != slot; n++)
        prev = world->bodies[prev].sleep_next;
    world->bodies[prev].sleep_next = b->sleep_next;
    b->sleep_next = slot;
}

// Wakes every body that has contact points with slot (they may have rested on it).
static void wake_touching(ph_world *world, int slot)
{
    for (int i = 0; i < world->contacts.count; i++)
    {
        const ph_contact *c = &world->contacts.items[i];
        if (c->manifold.point_count == 0 || (c->a != slot && c->b != slot))
            continue;
        ph_world_wake_island(world, c->a == slot ? c->b : c->a);
    }
}

typedef struct wake_query
{
    ph_world *world;
    int self;
} wake_query;

static bool wake_visit(int body_index, void *ctx)
{
    wake_query *q = ctx;
    if (body_index != q->self)
        ph_world_wake_island(q->world, body_index);
    return true;
}

ph_status ph_body_destroy(ph_world *world, ph_body_id id)
{
    int slot = body_slot(world, id, "ph_body_destroy");
    if (slot < 0)
        return world ? PH_ERR_STALE_ID : PH_ERR_INVALID_ARG;
    if (!ph_world_can_change(world, "ph_body_destroy"))
        return PH_ERR_INVALID_ARG;
    wake_touching(world, slot);
    ph_joints_remove_body(world, slot);
    // Sleeping neighbours have no contacts (pairs of two sleeping bodies are not kept), so whatever is
    // within the speculative margin of the removed body is woken too: it may have rested on it.
    wake_query wq = {world, slot};
    ph_octree_query_box(&world->octree, margin_bounds(world, world->bodies[slot].bounds), wake_visit, &wq);
    leave_island(world, slot);
    ph_contacts_remove_body(&world->contacts, slot);
    if (world->bodies[slot].proxy >= 0)
        ph_octree_remove(&world->octree, world->bodies[slot].proxy);
    world->active[slot] = 0;
    if (world->bodies[slot].type == PH_BODY_STATIC)
        world->static_body_count--;
    memset(&world->states[slot], 0, sizeof world->states[slot]);
    ph_id_pool_release(&world->body_ids, slot);
    return PH_OK;
}

bool ph_body_is_valid(const ph_world *world, ph_body_id id)
{
    return world && ph_id_pool_check(&world->body_ids, id.index1, id.generation);
}

int ph_world_get_body_count(const ph_world *world)
{
    return world ? world->body_ids.live_count : 0;
}

int ph_world_get_bodies(const ph_world *world, ph_body_id *out, int capacity)
{
    if (!world)
        return 0;
    int n = 0;
    for (int i = 0; i < world->body_ids.slot_count; i++)
    {
        if (!ph_id_pool_is_live(&world->body_ids, i))
            continue;
        if (out && n < capacity)
            out[n] = make_body_id(world, i);
        n++;
    }
    return n;
}

#define GET_BODY(fn, zero)                                                                                   \
    int slot = body_slot(world, id, fn);                                                                     \
    if (slot < 0)                                                                                            \
        return zero;                                                                                         \
    const ph_body *b = &world->bodies[slot];                                                                 \
    (void)b

ph_body_type ph_body_get_type(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_get_type", PH_BODY_STATIC);
    return b->type;
}

ph_shape ph_body_get_shape(const ph_world *world, ph_body_id id)
{
    ph_shape zero = {0};
    GET_BODY("ph_body_get_shape", zero);
    return b->shape;
}

ph_material ph_body_get_material(const ph_world *world, ph_body_id id)
{
    ph_material zero = {0};
    GET_BODY("ph_body_get_material", zero);
    return b->material;
}

ph_transform ph_body_get_transform(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_get_transform", ph_transform_identity());
    return b->xf;
}

ph_vec3 ph_body_get_position(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_get_position", glms_vec3_zero());
    return b->xf.p;
}

ph_quat ph_body_get_orientation(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_get_orientation", glms_quat_identity());
    return b->xf.q;
}

ph_vec3 ph_body_get_center_of_mass(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_get_center_of_mass", glms_vec3_zero());
    return b->center;
}

ph_vec3 ph_body_get_linear_velocity(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_get_linear_velocity", glms_vec3_zero());
    return world->states[slot].v;
}

ph_vec3 ph_body_get_angular_velocity(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_get_angular_velocity", glms_vec3_zero());
    return ph_body_angular_velocity_now(&world->bodies[slot], world->states[slot].w, world->last_h);
}

float ph_body_get_mass(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_get_mass", 0.0f);
    return b->mass;
}

ph_mat3 ph_body_get_world_inertia(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_get_world_inertia", glms_mat3_zero());
    ph_mat3 r = glms_quat_mat3(b->xf.q);
    return glms_mat3_mul(glms_mat3_mul(r, b->inertia_local), glms_mat3_transpose(r));
}

ph_aabb ph_body_get_bounds(const ph_world *world, ph_body_id id)
{
    ph_aabb zero = {{{0}}, {{0}}};
    GET_BODY("ph_body_get_bounds", zero);
    return b->bounds;
}

bool ph_body_is_awake(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_is_awake", false);
    return b->awake;
}

void *ph_body_get_user_data(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_get_user_data", NULL);
    return b->user_data;
}

#define SET_BODY(fn)                                                                                         \
    int slot = body_slot(world, id, fn);                                                                     \
    if (slot < 0)                                                                                            \
        return world ? PH_ERR_STALE_ID : PH_ERR_INVALID_ARG;                                                 \
    if (!ph_world_can_change(world, fn))                                                                     \
        return PH_ERR_INVALID_ARG;                                                                           \
    ph_body *b = &world->bodies[slot];                                                                       \
    (void)b

ph_status ph_body_set_transform(ph_world *world, ph_body_id id, ph_vec3 position, ph_quat orientation)
{
    const char *fn = "ph_body_set_transform";
    SET_BODY(fn);
    if (!ph_world_check_vec(world, fn, "position", position) ||
        !ph_world_check_quat(world, fn, "orientation", &orientation))
        return PH_ERR_INVALID_ARG;
    wake_touching(world, slot);
    b->xf.p = position;
    b->xf.q = orientation;
    b->center = ph_transform_point(b->xf, b->local_center);
    b->center0 = b->center;
    b->q0 = b->xf.q;
    b->bounds = ph_body_compute_bounds(b);
    ph_world_wake_island(world, slot);
    set_body_state(world, slot);
    if (b->proxy >= 0 &&
        ph_octree_move(&world->octree, b->proxy, margin_bounds(world, b->bounds)) == PH_ERR_OUT_OF_MEMORY)
        ph_log(PH_LOG_WARNING,
               "%s: the broadphase could not allocate a node (out of memory); the body is kept in "
               "its list of outsiders, correct but slower.",
               fn);
    return PH_OK;
}

// Which velocity set_velocity sets: the linear one, the angular one now (turned into the carried one), or
// the carried one as it is.
typedef enum velocity_kind
{
    VELOCITY_LINEAR,
    VELOCITY_ANGULAR,
    VELOCITY_CARRIED_SPIN
} velocity_kind;

static ph_status set_velocity(ph_world *world, ph_body_id id, ph_vec3 v, velocity_kind kind, const char *fn)
{
    SET_BODY(fn);
    if (!check_speed(world, fn, kind == VELOCITY_LINEAR ? "v" : "w", v))
        return PH_ERR_INVALID_ARG;
    if (b->type == PH_BODY_STATIC)
        return PH_OK;
    ph_world_wake_island(world, slot);
    if (kind == VELOCITY_LINEAR)
        world->states[slot].v = v;
    else
        world->states[slot].w =
            kind == VELOCITY_ANGULAR ? ph_body_angular_velocity_carried(b, v, world->last_h) : v;
    return PH_OK;
}

ph_status ph_body_set_linear_velocity(ph_world *world, ph_body_id id, ph_vec3 v)
{
    return set_velocity(world, id, v, VELOCITY_LINEAR, "ph_body_set_linear_velocity");
}

ph_status ph_body_set_angular_velocity(ph_world *world, ph_body_id id, ph_vec3 w)
{
    return set_velocity(world, id, w, VELOCITY_ANGULAR, "ph_body_set_angular_velocity");
}

ph_vec3 ph_body_get_carried_spin(const ph_world *world, ph_body_id id)
{
    GET_BODY("ph_body_get_carried_spin", glms_vec3_zero());
    return world->states[slot].w;
}

ph_status ph_body_set_carried_spin(ph_world *world, ph_body_id id, ph_vec3 w)
{
    return set_velocity(world, id, w, VELOCITY_CARRIED_SPIN, "ph_body_set_carried_spin");
}

ph_status ph_body_set_user_data(ph_world *world, ph_body_id id, void *user_data)
{
    SET_BODY("ph_body_set_user_data");
    b->user_data = user_data;
    return PH_OK;
}

// The velocity changes (linear, unit: m/s; angular, unit: rad/s) that force and torque accumulated on body
// b would make over one step: F dt / m and I^-1 tau dt, with the inverse inertia of its orientation now.
static void step_velocity_change(const ph_world *world, const ph_body *b, ph_vec3 force, ph_vec3 torque,
                                 ph_vec3 *out_dv, ph_vec3 *out_dw)
{
    float dt = world->def.time_step;
    *out_dv = glms_vec3_scale(force, b->inv_mass * dt);
    *out_dw = glms_vec3_scale(glms_mat3_mulv(ph_body_world_inv_inertia(b, b->xf.q), torque), dt);
}

// Adds force and torque (about the centre of mass) to what body `id` accumulates for the next step; `arg`
// names the caller's own argument ("force" or "torque"; NULL when the torque comes from a force at a point)
// and `what` describes the call for the message. Refused, with nothing added, when what the body would then
// hold changes its velocity by more than the speed limit in one step (a force of 1e10 N on a gram).
static ph_status add_force(ph_world *world, ph_body_id id, ph_vec3 force, ph_vec3 torque, const char *arg,
                           const char *what, const char *fn)
{
    SET_BODY(fn);
    if (arg && !check_finite_vec(world, fn, arg, glms_vec3_add(force, torque)))
        return PH_ERR_INVALID_ARG;
    if (b->type != PH_BODY_DYNAMIC)
        return PH_OK;
    ph_vec3 f = glms_vec3_add(b->force, force), t = glms_vec3_add(b->torque, torque);
    ph_vec3 dv, dw;
    step_velocity_change(world, b, f, t, &dv, &dw);
    bool linear = vec_below(dv, PH_MAX_SPEED);
    if (!linear || !vec_below(dw, PH_MAX_SPEED))
    {
        ph_vec3 d = linear ? dw : dv;
        ph_world_error(world, PH_ERR_INVALID_ARG,
                       "%s: %s would change the body's %s velocity by (%g, %g, %g) %s in one step; that must "
                       "stay below %g, so apply less.",
                       fn, what, linear ? "angular" : "linear", (double)d.x, (double)d.y, (double)d.z,
                       linear ? "rad/s" : "m/s", (double)PH_MAX_SPEED);
        return PH_ERR_INVALID_ARG;
    }
    ph_world_wake_island(world, slot);
    b->force = f;
    b->torque = t;
    return PH_OK;
}

ph_status ph_body_apply_force(ph_world *world, ph_body_id id, ph_vec3 force)
{
    const char *fn = "ph_body_apply_force";
    char what[160];
    snprintf(what, sizeof what, "force (%g, %g, %g) N", (double)force.x, (double)force.y, (double)force.z);
    return add_force(world, id, force, glms_vec3_zero(), "force", what, fn);
}

ph_status ph_body_apply_force_at_point(ph_world *world, ph_body_id id, ph_vec3 force, ph_vec3 point)
{
    const char *fn = "ph_body_apply_force_at_point";
    SET_BODY(fn);
    if (!ph_world_check_vec(world, fn, "point", point) || !check_finite_vec(world, fn, "force", force))
        return PH_ERR_INVALID_ARG;
    char what[160];
    snprintf(what, sizeof what, "force (%g, %g, %g) N at point (%g, %g, %g)", (double)force.x,
             (double)force.y, (double)force.z, (double)point.x, (double)point.y, (double)point.z);
    return add_force(world, id, force, glms_vec3_cross(glms_vec3_sub(point, b->center), force), NULL, what,
                     fn);
}

ph_status ph_body_apply_torque(ph_world *world, ph_body_id id, ph_vec3 torque)
{
    const char *fn = "ph_body_apply_torque";
    char what[160];
    snprintf(what, sizeof what, "torque (%g, %g, %g) N m", (double)torque.x, (double)torque.y,
             (double)torque.z);
    return add_force(world, id, glms_vec3_zero(), torque, "torque", what, fn);
}

// An impulse changes the velocities at once. Refused, with nothing changed, when the velocities it leaves
// are outside the speed limit of the validity table (9.99e6 N s on a body of 1e-33 kg gave an infinite
// velocity; at the corner of a 1 mm box an infinite spin).
static ph_status add_impulse(ph_world *world, ph_body_id id, ph_vec3 impulse, ph_vec3 point, bool at_point,
                             const char *fn)
{
    SET_BODY(fn);
    if (!check_finite_vec(world, fn, "impulse", impulse) ||
        (at_point && !ph_world_check_vec(world, fn, "point", point)))
        return PH_ERR_INVALID_ARG;
    if (b->type != PH_BODY_DYNAMIC)
        return PH_OK;
    ph_body_state *st = &world->states[slot];
    ph_vec3 v = glms_vec3_add(st->v, glms_vec3_scale(impulse, b->inv_mass));
    if (!vec_below(v, PH_MAX_SPEED))
    {
        ph_world_error(
            world, PH_ERR_INVALID_ARG,
            "%s: impulse (%g, %g, %g) N s would give the body a linear velocity of (%g, %g, %g) m/s; "
            "each component must stay below %g, so apply less.",
            fn, (double)impulse.x, (double)impulse.y, (double)impulse.z, (double)v.x, (double)v.y,
            (double)v.z, (double)PH_MAX_SPEED);
        return PH_ERR_INVALID_ARG;
    }
    ph_vec3 w = st->w;
    if (at_point)
    {
        // The inverse inertia of the body's orientation now: the state's is that of some moment of the last
        // step (the solver refreshes it only while the body is in a contact or under a torque).
        // It changes the angular momentum now by r x J: the velocity now (what the API reads) by I^-1 r x J.
        ph_vec3 t = glms_vec3_cross(glms_vec3_sub(point, b->center), impulse);
        ph_vec3 dw = glms_mat3_mulv(ph_body_world_inv_inertia(b, b->xf.q), t);
        ph_vec3 now = glms_vec3_add(ph_body_angular_velocity_now(b, st->w, world->last_h), dw);
        w = glms_vec3_add(st->w, ph_body_angular_velocity_change(b, st->w, world->last_h, dw));
        if (!vec_below(now, PH_MAX_SPEED) || !vec_below(w, PH_MAX_SPEED))
        {
            ph_world_error(
                world, PH_ERR_INVALID_ARG,
                "%s: impulse (%g, %g, %g) N s at point (%g, %g, %g) would give the body an angular "
                "velocity of (%g, %g, %g) rad/s; each component must stay below %g, so apply less.",
                fn, (double)impulse.x, (double)impulse.y, (double)impulse.z, (double)point.x, (double)point.y,
                (double)point.z, (double)now.x, (double)now.y, (double)now.z, (double)PH_MAX_SPEED);
            return PH_ERR_INVALID_ARG;
        }
    }
    ph_world_wake_island(world, slot);
    st->v = v;
    st->w = w;
    return PH_OK;
}

ph_status ph_body_apply_impulse(ph_world *world, ph_body_id id, ph_vec3 impulse)
{
    return add_impulse(world, id, impulse, glms_vec3_zero(), false, "ph_body_apply_impulse");
}

ph_status ph_body_apply_impulse_at_point(ph_world *world, ph_body_id id, ph_vec3 impulse, ph_vec3 point)
{
    return add_impulse(world, id, impulse, point, true, "ph_body_apply_impulse_at_point");
}

ph_status ph_body_wake(ph_world *world, ph_body_id id)
{
    SET_BODY("ph_body_wake");
    ph_world_wake_island(world, slot);
    return PH_OK;
}

// ---- The step ----------------------------------------------------------------------------------------

// Slots of awake non-static bodies, ascending, into the arena. The scan reads the dense active[] bytes, not
// the bodies: with thousands of sleeping bodies it stays a few cache lines per thousand slots. The body
// arrays always hold every slot the id pool has counted (ph_body_create grows them before it takes a slot).
static bool collect_awake(ph_step_context *ctx)
{
    ph_world *world = ctx->world;
    int slots = world->body_ids.slot_count;
    PH_ASSERT(slots <= world->active_capacity && slots <= world->state_capacity);
    ctx->awake = ph_arena_alloc(ctx->arena, (size_t)(slots > 0 ? slots : 1) * sizeof *ctx->awake);
    ctx->awake_count = 0;
    if (!ctx->awake)
        return false;
    const uint8_t *active = world->active;
    for (int i = 0; i < slots; i++)
        if (active[i])
        {
            PH_ASSERT(world->bodies[i].awake); // active: live, awake and not static
            ctx->awake[ctx->awake_count++] = i;
        }
    return true;
}

// Fewest bodies a worker takes at a time in the world's own per-body stages (task.h).
#define WORLD_MIN_BODIES 512

// The bounds of awake body i of the step (ctx->awake order) swept over the coming step.
static ph_aabb swept_bounds(const ph_step_context *ctx, int i)
{
    const ph_world *world = ctx->world;
    int slot = ctx->awake[i];
    const ph_body *b = &world->bodies[slot];
    const ph_body_state *st = &world->states[slot];
    ph_vec3 move = glms_vec3_scale(st->v, ctx->dt);
    float margin = world->def.speculative_margin;
    // A fast dynamic body's bounds also reach where gravity and the applied force take it in free flight by
    // the step's end: the sub-steps move it by v dt + a dt^2 (n + 1) / (2 n), between move and `fall`. With
    // its sweep inside its proxy, its time-of-impact search (calendar.c, predict_body_part) reads its
    // broadphase pairs instead of querying the octree (a falling body gains up to a dt^2 beyond v dt, 2.7 mm
    // at 60 Hz). Slower bodies (the calendar searches for those whose motion passes the margin) keep the
    // bounds v dt sweeps.
    ph_vec3 fall = move;
    if (b->type == PH_BODY_DYNAMIC && glms_vec3_norm2(move) > margin * margin)
        fall = glms_vec3_add(move, glms_vec3_scale(ph_body_accel(b, world->def.gravity), ctx->dt * ctx->dt));
    float grow = margin + glms_vec3_norm(st->w) * ctx->dt * b->bound_radius;
    ph_aabb sw;
    sw.lo = glms_vec3_minv(
        b->bounds.lo, glms_vec3_minv(glms_vec3_add(b->bounds.lo, move), glms_vec3_add(b->bounds.lo, fall)));
    sw.hi = glms_vec3_maxv(
        b->bounds.hi, glms_vec3_maxv(glms_vec3_add(b->bounds.hi, move), glms_vec3_add(b->bounds.hi, fall)));
    sw.lo = glms_vec3_sub(sw.lo, ph_v3(grow, grow, grow));
    sw.hi = glms_vec3_add(sw.hi, ph_v3(grow, grow, grow));
    return sw;
}

typedef struct sweep_bounds_task
{
    const ph_step_context *ctx;
    ph_aabb *swept; // per awake body
} sweep_bounds_task;

static void sweep_bounds(int begin, int end, int worker, void *context)
{
    const sweep_bounds_task *t = context;
    (void)worker;
    for (int i = begin; i < end; i++)
        t->swept[i] = swept_bounds(t->ctx, i);
}

// Stage 1: moving bodies get bounds swept over the coming step (their current bounds, the same moved by
// v dt, grown by the rotation's reach and the speculative margin), worked out by the workers and moved in the
// octree in body order by the stepping thread (the tree is one structure); then the octree reports the pairs.
static void update_broadphase(ph_step_context *ctx)
{
    ph_world *world = ctx->world;
    ph_aabb *swept =
        ph_arena_alloc(ctx->arena, (size_t)(ctx->awake_count > 0 ? ctx->awake_count : 1) * sizeof *swept);
    if (swept)
    {
        sweep_bounds_task t = {ctx, swept};
        ph_parallel_for(&world->tasks, ctx->awake_count, WORLD_MIN_BODIES, sweep_bounds, &t);
    }
    for (int i = 0; i < ctx->awake_count; i++)
    {
        const ph_body *b = &world->bodies[ctx->awake[i]];
        if (b->proxy < 0)
            continue;
        // Out of memory for the list: one at a time.
        ph_octree_move(&world->octree, b->proxy, swept ? swept[i] : swept_bounds(ctx, i));
    }
    if (swept)
        ph_arena_free(ctx->arena, swept);
    const ph_octree_pair *pairs = NULL;
    int n = ph_octree_find_pairs(&world->octree, world->active, &pairs);
    int dropped = n >= 0 ? world->octree.pairs_dropped : 0;
    if (n < 0)
    {
        ph_log(PH_LOG_ERROR, "The broadphase ran out of memory; this step has no contacts.");
        n = 0;
        pairs = NULL;
    }
    ctx->pairs = pairs;
    ctx->pair_count = n;
    ctx->stats->pair_count = n;
    // A capacity error (tier 3): bodies piled on one spot; the pairs kept are the same for the same world.
    ctx->stats->pairs_dropped = dropped;
    if (dropped > 0)
        ph_log(PH_LOG_ERROR,
               "ph_world_step: the broadphase dropped %d pairs past its capacity (%d per body, %d per step): "
               "too many bodies overlap; spread them out.",
               dropped, PH_MAX_PAIRS_PER_BODY, PH_MAX_PAIRS_PER_STEP);
}

// Adds the time since the last stage ended (ctx->ticks) to `stage`; the end of one stage is the start of
// the next, so the clock is read once per stage (a read costs as much as the whole integration of a body).
static void end_stage(ph_step_context *ctx, ph_stage stage)
{
    unsigned long long now = ph_ticks();
    ctx->stats->ms_stage[stage] += ph_ticks_to_ms(now - ctx->ticks);
    ctx->ticks = now;
}

// The bounds of awake bodies begin .. end - 1 at their new poses.
static void finish_range(int begin, int end, int worker, void *context)
{
    const ph_step_context *ctx = context;
    ph_world *world = ctx->world;
    (void)worker;
    for (int i = begin; i < end; i++)
    {
        ph_body *b = &world->bodies[ctx->awake[i]];
        b->bounds = ph_body_compute_bounds(b);
        b->version = 0;
    }
}

static void finish_bodies(ph_step_context *ctx)
{
    ph_parallel_for(&ctx->world->tasks, ctx->awake_count, WORLD_MIN_BODIES, finish_range, ctx);
}

void ph_world_step(ph_world *world)
{
    if (!world || !ph_world_can_change(world, "ph_world_step"))
        return;
    // The world is locked against changes from the log hook for the whole step (the contract of phys.h),
    // and errors the hook causes are recorded without calling it again.
    world->locked++;
    bool was_logging = world->logging;
    world->logging = true;
    unsigned long failures = ph_alloc_failures();
    ph_step_stats *stats = &world->stats;
    memset(stats, 0, sizeof *stats);
    ph_step_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.ticks = ph_ticks();
    unsigned long long t_start = ctx.ticks;
    ctx.world = world;
    ctx.arena = &world->arena;
    ctx.stats = stats;
    ctx.dt = world->def.time_step;
    ctx.inv_dt = 1.0f / ctx.dt;
    ctx.substeps = world->def.substeps;
    ctx.h = ctx.dt / (float)ctx.substeps;

    // A sleeping body jointed to an awake one wakes with it (their island is one).
    ph_joints_wake(world);
    bool listed = collect_awake(&ctx);
    if (listed)
        update_broadphase(&ctx);
    end_stage(&ctx, PH_STAGE_BROADPHASE);
    uint64_t wakes = world->wake_count;
    if (!ph_contacts_update(&ctx))
        ph_log(PH_LOG_ERROR, "The narrow phase ran out of memory; last step's contacts are kept.");
    // The broadphase pairs awake bodies only, so a body the narrow phase woke has no contact yet with the
    // rest of its island, which slept beside it: those pairs are found now, not a step later. A step late, a
    // struck ball of a resting Newton's cradle went 5 cm into the next before the row knew it was touched.
    // The contacts kept from the first pass keep their impulses and manifolds (a recycled manifold is not
    // built again). An island woken by this second pass takes its pairs next step.
    if (listed && world->wake_count != wakes)
    {
        ph_arena_free(ctx.arena, ctx.awake);
        listed = collect_awake(&ctx);
        if (listed)
        {
            update_broadphase(&ctx);
            wakes = world->wake_count;
            if (!ph_contacts_update(&ctx))
                ph_log(PH_LOG_ERROR, "The narrow phase ran out of memory; last step's contacts are kept.");
        }
    }
    // Contacts may have woken sleeping bodies: then the awake list is taken again for the solver (the
    // narrow phase keeps nothing of the arena, so the list is its last allocation).
    if (listed && world->wake_count != wakes)
    {
        ph_arena_free(ctx.arena, ctx.awake);
        listed = false;
    }
    if (listed || collect_awake(&ctx))
    {
        ph_impacts_sequence(&ctx);
        ph_solve(&ctx); // times its own stages, from ctx.ticks to the ctx.ticks it leaves
        ph_impacts_report(&ctx);
        if (world->def.enable_calendar)
            ph_calendar_run(&ctx);
        end_stage(&ctx, PH_STAGE_CALENDAR);
        ph_joints_break(world);
        finish_bodies(&ctx);
        ph_islands_update(&ctx);
        end_stage(&ctx, PH_STAGE_SLEEP);
        ph_arena_free(ctx.arena, ctx.awake);
    }
    else
        ph_log(PH_LOG_ERROR, "The step could not allocate its body list; bodies did not move.");
    // Between steps: the arena grows to this step's high-water mark so the next one fits.
    ph_arena_grow(&world->arena);

    // Counted from the active[] bytes (awake non-static bodies) and the live and static counts, not from a
    // pass over the bodies themselves.
    int awake = 0;
    int slots = world->body_ids.slot_count;
    for (int i = 0; i < slots; i++)
        awake += world->active[i];
    stats->body_count = world->body_ids.live_count;
    stats->awake_body_count = awake;
    stats->sleeping_body_count = world->body_ids.live_count - world->static_body_count - awake;
    stats->calendar_events = world->calendar.event_count;
    world->step_count++;
    stats->ms_total = ph_ticks_to_ms(ctx.ticks - t_start); // to the end of the last stage
    world->logging = was_logging;
    // Some stages meet a failed allocation without a word (the solver and the calendar fall back, the
    // islands skip a step of sleeping, the arena keeps its size): one line says that the step degraded.
    stats->allocation_failures = (int)(ph_alloc_failures() - failures);
    if (stats->allocation_failures > 0)
        ph_log(PH_LOG_ERROR,
               "ph_world_step: %d allocations failed (out of memory); the stages that met them degraded "
               "(contacts "
               "kept or dropped, events clamped, no sleeping) and the next step tries again.",
               stats->allocation_failures);
    world->locked--;
}

// ---- Queries -----------------------------------------------------------------------------------------

typedef struct ray_query
{
    const ph_world *world;
    ph_ray_result best;
    bool hit;
} ray_query;

static bool ray_body(const ph_world *world, int slot, ph_vec3 o, ph_vec3 d, float max_t, ph_ray_hit *out)
{
    const ph_body *b = &world->bodies[slot];
    if (b->mesh)
        return ph_ray_cast_mesh(b->mesh, b->xf, o, d, max_t, out);
    if (b->compound)
    {
        bool any = false;
        for (int i = 0; i < b->compound->child_count; i++)
        {
            ph_convex s;
            ph_transform xf;
            ph_ray_hit h;
            ph_world_child_shape(world, slot, i, &s, &xf);
            if (ph_ray_cast_convex(&s, xf, o, d, max_t, &h))
            {
                *out = h;
                max_t = h.distance;
                any = true;
            }
        }
        return any;
    }
    return ph_ray_cast_convex(&b->convex, b->xf, o, d, max_t, out);
}

static float ray_visit(int body_index, ph_vec3 origin, ph_vec3 dir, float max_distance, void *ctx)
{
    ray_query *q = ctx;
    ph_ray_hit h;
    if (!ray_body(q->world, body_index, origin, dir, max_distance, &h))
        return max_distance;
    q->hit = true;
    q->best.body = make_body_id(q->world, body_index);
    q->best.distance = h.distance;
    q->best.point = h.point;
    q->best.normal = h.normal;
    return h.distance;
}

bool ph_world_cast_ray(const ph_world *world, ph_vec3 origin, ph_vec3 dir, float max_distance,
                       ph_ray_result *out)
{
    const char *fn = "ph_world_cast_ray";
    if (!world)
        return false;
    if (!ph_world_check_vec(world, fn, "origin", origin) || !ph_world_check_vec(world, fn, "dir", dir) ||
        !check_float(world, fn, "max_distance", max_distance, 0.0f, false))
        return false;
    float len = glms_vec3_norm(dir);
    if (fabsf(len - 1.0f) > WORLD_QUAT_LENGTH_TOLERANCE)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG, "%s: dir has length %g; it must be a unit vector.", fn,
                       (double)len);
        return false;
    }
    ray_query q;
    memset(&q, 0, sizeof q);
    q.world = world;
    ph_octree_cast_ray(&world->octree, origin, dir, max_distance, ray_visit, &q);
    if (q.hit && out)
        *out = q.best;
    return q.hit;
}

typedef struct box_query
{
    const ph_world *world;
    ph_aabb box;
    const ph_vec4 *planes;
    ph_body_id *out;
    int capacity;
    int count;
} box_query;

static bool box_overlap(ph_aabb x, ph_aabb y)
{
    return x.lo.x <= y.hi.x && y.lo.x <= x.hi.x && x.lo.y <= y.hi.y && y.lo.y <= x.hi.y && x.lo.z <= y.hi.z &&
           y.lo.z <= x.hi.z;
}

static void box_query_add(box_query *q, int body_index)
{
    if (q->out && q->count < q->capacity)
        q->out[q->count] = make_body_id(q->world, body_index);
    q->count++;
}

static bool box_visit(int body_index, void *ctx)
{
    box_query *q = ctx;
    if (box_overlap(q->world->bodies[body_index].bounds, q->box))
        box_query_add(q, body_index);
    return true;
}

int ph_world_query_box(const ph_world *world, ph_aabb box, ph_body_id *out, int capacity)
{
    const char *fn = "ph_world_query_box";
    if (!world)
        return 0;
    if (!ph_world_check_vec(world, fn, "box.lo", box.lo) || !ph_world_check_vec(world, fn, "box.hi", box.hi))
        return 0;
    box_query q = {world, box, NULL, out, capacity, 0};
    ph_octree_query_box(&world->octree, box, box_visit, &q);
    return q.count;
}

// True unless the box lies wholly outside one plane (the positive vertex test).
static bool box_in_frustum(ph_aabb b, const ph_vec4 *planes)
{
    for (int i = 0; i < 6; i++)
    {
        ph_vec4 p = planes[i];
        ph_vec3 v = ph_v3(p.x >= 0.0f ? b.hi.x : b.lo.x, p.y >= 0.0f ? b.hi.y : b.lo.y,
                          p.z >= 0.0f ? b.hi.z : b.lo.z);
        if (p.x * v.x + p.y * v.y + p.z * v.z + p.w < 0.0f)
            return false;
    }
    return true;
}

static bool frustum_visit(int body_index, void *ctx)
{
    box_query *q = ctx;
    if (box_in_frustum(q->world->bodies[body_index].bounds, q->planes))
        box_query_add(q, body_index);
    return true;
}

int ph_world_query_frustum(const ph_world *world, const ph_vec4 planes[6], ph_body_id *out, int capacity)
{
    if (!world)
        return 0;
    if (!planes)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG, "ph_world_query_frustum: planes is NULL.");
        return 0;
    }
    for (int i = 0; i < 6; i++)
    {
        if (!ph_is_finite_quat((ph_quat){.raw = {planes[i].x, planes[i].y, planes[i].z, planes[i].w}}))
        {
            ph_world_error(world, PH_ERR_INVALID_ARG, "ph_world_query_frustum: planes[%d] is not finite.", i);
            return 0;
        }
    }
    box_query q = {world, {{{0}}, {{0}}}, planes, out, capacity, 0};
    ph_octree_query_frustum(&world->octree, planes, frustum_visit, &q);
    return q.count;
}

int ph_world_get_contacts(const ph_world *world, ph_contact_info *out, int capacity)
{
    if (!world)
        return 0;
    int n = 0;
    for (int k = 0; k < world->contacts.count; k++)
    {
        const ph_contact *c = &world->contacts.items[k];
        for (int i = 0; i < c->manifold.point_count; i++)
        {
            if (out && n < capacity)
            {
                ph_contact_info *info = &out[n];
                info->a = make_body_id(world, c->a);
                info->b = make_body_id(world, c->b);
                info->point = c->manifold.points[i].point;
                info->normal = c->manifold.normal;
                info->separation = c->manifold.points[i].separation;
                info->normal_impulse = c->total_impulse[i];
            }
            n++;
        }
    }
    return n;
}

const ph_calendar_event *ph_world_get_calendar_events(const ph_world *world, int *out_count)
{
    if (out_count)
        *out_count = world ? world->calendar.event_count : 0;
    return world ? world->calendar.events : NULL;
}

// ---- Debug drawing -----------------------------------------------------------------------------------

#define DEBUG_COLOR_CONTACT 0xFF3030FFu
#define DEBUG_COLOR_NORMAL 0xFFD020FFu
#define DEBUG_COLOR_BOUNDS_AWAKE 0x40C0FFFFu
#define DEBUG_COLOR_BOUNDS_SLEEPING 0x808080FFu
#define DEBUG_COLOR_OCTREE 0x30FF6080u
#define DEBUG_COLOR_EVENT 0xFF40FFFFu
#define DEBUG_COLOR_CLAMPED 0xFF8000FFu
#define DEBUG_POINT_SIZE 6.0f    // (unit: pixels)
#define DEBUG_NORMAL_LENGTH 0.3f // (unit: m)
// A contact normal grows by DEBUG_NORMAL_LENGTH for each factor of ten its point's force is above this, so
// that the contact view shows where a stack's weight goes: a 1 kg box's points draw at the plain length, a
// tonne's at 2.4 times it (unit: N).
#define DEBUG_FORCE_UNIT 100.0f

static void draw_box(const ph_debug_draw *dd, ph_aabb b, uint32_t color)
{
    for (int i = 0; i < 8; i++)
    {
        for (int axis = 0; axis < 3; axis++)
        {
            int j = i | (1 << axis);
            if (j == i)
                continue;
            ph_vec3 p = ph_v3(i & 1 ? b.hi.x : b.lo.x, i & 2 ? b.hi.y : b.lo.y, i & 4 ? b.hi.z : b.lo.z);
            ph_vec3 q = ph_v3(j & 1 ? b.hi.x : b.lo.x, j & 2 ? b.hi.y : b.lo.y, j & 4 ? b.hi.z : b.lo.z);
            dd->draw_segment(p, q, color, dd->context);
        }
    }
}

static void draw_world(const ph_world *world, const ph_debug_draw *dd);

static void draw_node(ph_aabb loose_bounds, int depth, int proxy_count, void *ctx)
{
    (void)depth;
    (void)proxy_count;
    const ph_debug_draw *dd = ctx;
    draw_box(dd, loose_bounds, DEBUG_COLOR_OCTREE);
}

void ph_world_debug_draw(const ph_world *world, const ph_debug_draw *dd)
{
    if (!world || !dd || !dd->draw_segment || !dd->draw_point)
        return;
    // The callbacks are user code: while they run the world refuses changes (the octree walk below holds a
    // node pointer across them, which a body created from a callback would free). The world is heap-
    // allocated, never a const object: the lock may be set through the const pointer.
    ph_world *locked = (ph_world *)world;
    locked->locked++;
    draw_world(world, dd);
    locked->locked--;
}

static void draw_world(const ph_world *world, const ph_debug_draw *dd)
{
    if (dd->draw_contacts)
    {
        for (int k = 0; k < world->contacts.count; k++)
        {
            const ph_contact *c = &world->contacts.items[k];
            for (int i = 0; i < c->manifold.point_count; i++)
            {
                ph_vec3 p = c->manifold.points[i].point;
                float force = fmaxf(c->total_impulse[i], 0.0f) / world->def.time_step;
                float length = DEBUG_NORMAL_LENGTH * (1.0f + log10f(1.0f + force / DEBUG_FORCE_UNIT));
                dd->draw_point(p, DEBUG_POINT_SIZE, DEBUG_COLOR_CONTACT, dd->context);
                dd->draw_segment(p, glms_vec3_add(p, glms_vec3_scale(c->manifold.normal, length)),
                                 DEBUG_COLOR_NORMAL, dd->context);
            }
        }
    }
    if (dd->draw_bounds)
        for (int i = 0; i < world->body_ids.slot_count; i++)
            if (ph_id_pool_is_live(&world->body_ids, i))
                draw_box(dd, world->bodies[i].bounds,
                         world->bodies[i].awake ? DEBUG_COLOR_BOUNDS_AWAKE : DEBUG_COLOR_BOUNDS_SLEEPING);
    if (dd->draw_octree)
        ph_octree_walk(&world->octree, draw_node, (void *)dd);
    if (dd->draw_calendar)
    {
        for (int i = 0; i < world->calendar.event_count; i++)
        {
            const ph_calendar_event *e = &world->calendar.events[i];
            uint32_t color = e->clamped ? DEBUG_COLOR_CLAMPED : DEBUG_COLOR_EVENT;
            dd->draw_point(e->point, DEBUG_POINT_SIZE, color, dd->context);
            dd->draw_segment(e->point,
                             glms_vec3_add(e->point, glms_vec3_scale(e->normal, DEBUG_NORMAL_LENGTH)), color,
                             dd->context);
        }
    }
    if (dd->draw_joints)
        ph_joints_debug_draw(world, dd);
}

ph_status ph_world_trace_pair(const ph_world *world, ph_body_id a, ph_body_id b, ph_pair_trace *out)
{
    const char *fn = "ph_world_trace_pair";
    int sa = body_slot(world, a, fn);
    if (sa < 0)
        return world ? PH_ERR_STALE_ID : PH_ERR_INVALID_ARG;
    int sb = body_slot(world, b, fn);
    if (sb < 0)
        return PH_ERR_STALE_ID;
    if (!out)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG, "%s: out is NULL.", fn);
        return PH_ERR_INVALID_ARG;
    }
    const ph_body *ba = &world->bodies[sa], *bb = &world->bodies[sb];
    if (ba->mesh || ba->compound || bb->mesh || bb->compound)
    {
        ph_world_error(world, PH_ERR_WRONG_TYPE, "%s: both bodies must have convex shapes to be traced.", fn);
        return PH_ERR_WRONG_TYPE;
    }
    memset(out, 0, sizeof *out);
    ph_gjk_output g;
    out->gjk_status = ph_gjk_distance(&ba->convex, ba->xf, &bb->convex, bb->xf, NULL, &g);
    out->simplex = g.simplex;
    out->overlapping = g.status == PH_GJK_OVERLAPPING;
    out->epa_status = PH_EPA_SEPARATED;
    out->normal = g.normal;
    out->distance = g.distance;
    out->point_a = g.point_a;
    out->point_b = g.point_b;
    if (out->overlapping)
    {
        ph_epa_output e;
        out->epa_status = ph_epa_penetration_traced(&ba->convex, ba->xf, &bb->convex, bb->xf, &g.simplex, &e,
                                                    &out->polytope);
        out->normal = e.normal;
        out->distance = -e.depth;
        out->point_a = e.point_a;
        out->point_b = e.point_b;
    }
    return PH_OK;
}
