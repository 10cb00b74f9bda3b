// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Union-find islands and sleeping; see island.h. Union by index with path halving keeps every find near
// constant time; the union of (a, b) always makes the smaller root the parent, so islands and their ids
// do not depend on contact order.
#include "island.h"

#include "core.h"
#include "world.h"

#include <stdatomic.h> // the timers' flag, set by any worker

static int find(int *parent, int x)
{
    while (parent[x] != x)
    {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void join(int *parent, int a, int b)
{
    int ra = find(parent, a), rb = find(parent, b);
    if (ra < rb)
        parent[rb] = ra;
    else if (rb < ra)
        parent[ra] = rb;
}

// Fewest bodies a worker takes at a time in the sleep timers (task.h).
#define ISLAND_MIN_BODIES 512

typedef struct sleep_task
{
    const ph_step_context *ctx;
    atomic_bool any_ready; // a body of some range has been quiet for PH_SLEEP_TIME
} sleep_task;

// The sleep timers of awake bodies begin .. end - 1: each body's own.
static void update_sleep_times(int begin, int end, int worker, void *context)
{
    sleep_task *t = context;
    const ph_step_context *ctx = t->ctx;
    ph_world *world = ctx->world;
    const float lin2 = PH_SLEEP_LINEAR_SPEED * PH_SLEEP_LINEAR_SPEED;
    const float ang2 = PH_SLEEP_ANGULAR_SPEED * PH_SLEEP_ANGULAR_SPEED;
    bool any_ready = false;
    (void)worker;
    for (int i = begin; i < end; i++)
    {
        int slot = ctx->awake[i];
        ph_body *body = &world->bodies[slot];
        const ph_body_state *st = &world->states[slot];
        bool quiet = world->def.enable_sleep && body->enable_sleep && glms_vec3_dot(st->v, st->v) < lin2 &&
                     glms_vec3_dot(st->w, st->w) < ang2;
        body->sleep_time = quiet ? body->sleep_time + ctx->dt : 0.0f;
        any_ready |= !(body->sleep_time < PH_SLEEP_TIME);
    }
    if (any_ready)
        atomic_store_explicit(&t->any_ready, true, memory_order_relaxed);
}

int ph_islands_update(ph_step_context *ctx)
{
    ph_world *world = ctx->world;
    int slots = world->body_ids.slot_count;
    if (slots == 0)
        return 1;
    // The timers on the workers; the islands (a union-find over the contacts) on the stepping thread.
    sleep_task t = {.ctx = ctx};
    atomic_init(&t.any_ready, false);
    ph_parallel_for(&world->tasks, ctx->awake_count, ISLAND_MIN_BODIES, update_sleep_times, &t);
    bool any_ready = atomic_load_explicit(&t.any_ready, memory_order_relaxed);
    // An island sleeps only when every one of its bodies has been quiet for PH_SLEEP_TIME, so while no
    // body has, nothing can fall asleep and the islands need not be built: most steps of a scene in
    // motion (a spinning or bouncing body) end here, without the union-find and its two slot arrays.
    if (!any_ready)
        return 1;
    // parent[] by slot, and min_sleep[] by island root.
    int *parent = ph_arena_alloc(ctx->arena, (size_t)slots * sizeof *parent);
    if (!parent)
        return 0;
    float *min_sleep = ph_arena_alloc(ctx->arena, (size_t)slots * sizeof *min_sleep);
    if (!min_sleep)
    {
        ph_arena_free(ctx->arena, parent);
        return 0;
    }
    for (int i = 0; i < slots; i++)
    {
        parent[i] = i;
        min_sleep[i] = PH_SLEEP_TIME;
    }
    for (int k = 0; k < world->contacts.count; k++)
    {
        const ph_contact_brief *c = &world->contacts.briefs[k];
        if (!c->touching)
            continue;
        const ph_body *a = &world->bodies[c->a], *b = &world->bodies[c->b];
        if (a->type == PH_BODY_STATIC || b->type == PH_BODY_STATIC || !a->awake || !b->awake)
            continue;
        join(parent, c->a, c->b);
    }
    ph_joints_join_islands(world, parent, join);
    for (int i = 0; i < ctx->awake_count; i++)
    {
        int slot = ctx->awake[i];
        int root = find(parent, slot);
        min_sleep[root] = fminf(min_sleep[root], world->bodies[slot].sleep_time);
    }
    // Islands whose slowest-to-settle body has been quiet long enough fall asleep; the island id is
    // fresh per island so waking one body finds exactly its companions.
    for (int i = 0; i < ctx->awake_count; i++)
    {
        int slot = ctx->awake[i];
        int root = find(parent, slot);
        if (min_sleep[root] < PH_SLEEP_TIME)
            continue;
        if (root == slot)
        {
            world->next_island_id++;
            if (world->next_island_id == 0)
                world->next_island_id = 1;
            // The root (smallest slot of its island, so met first) carries the id for its companions, and
            // starts the ring of its members alone.
            world->bodies[slot].sleep_island = world->next_island_id;
            world->bodies[slot].sleep_next = slot;
        }
    }
    for (int i = 0; i < ctx->awake_count; i++)
    {
        int slot = ctx->awake[i];
        int root = find(parent, slot);
        if (min_sleep[root] < PH_SLEEP_TIME)
            continue;
        ph_body *body = &world->bodies[slot];
        ph_body_state *st = &world->states[slot];
        body->sleep_island = world->bodies[root].sleep_island;
        if (slot != root)
        {
            // Into the root's ring, after the root: the ring then holds exactly the island.
            body->sleep_next = world->bodies[root].sleep_next;
            world->bodies[root].sleep_next = slot;
        }
        body->awake = false;
        st->v = glms_vec3_zero();
        st->w = glms_vec3_zero();
        st->inv_mass = 0.0f;
        ph_body_state_set_inv_inertia(st, glms_mat3_zero());
        world->active[slot] = 0;
    }
    ph_arena_free(ctx->arena, min_sleep);
    ph_arena_free(ctx->arena, parent);
    return 1;
}
