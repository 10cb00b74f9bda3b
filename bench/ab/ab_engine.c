// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// One build of the engine behind four functions, linked into a shared library per revision by ab.sh, so that
// ab_drive can load two revisions into one process and step them in turns. Public API only (recipes,
// spawning, ph_world_step, the state hash), so that it builds against any revision's headers.
#define _POSIX_C_SOURCE 200809L
#include "recipes/recipes.h"
#include "recipes/spawn.h"

#include "phys/phys.h"

#include <stdlib.h> // malloc
#include <time.h>   // clock_gettime

#define AB_EXPORT __attribute__((visibility("default")))

AB_EXPORT void *ab_create(const char *scene, int workers);
AB_EXPORT double ab_step(void *world);
AB_EXPORT unsigned long long ab_hash(void *world);

// The world of a physbench scene (recipes.c), as physbench makes it; NULL for an unknown scene.
void *ab_create(const char *scene, int workers)
{
    recipe_scene s;
    if (!recipe_build(scene, RECIPE_DEFAULT_SEED, &s))
        return NULL;
    ph_world_def def = spawn_world_def(&s);
    def.worker_count = workers;
    ph_world *w = ph_world_create(&def);
    ph_body_id *ids = malloc((size_t)(s.item_count > 0 ? s.item_count : 1) * sizeof *ids);
    bool ok = w && ids && spawn_recipe(w, &s, ids) == PH_OK;
    free(ids);
    recipe_scene_free(&s);
    if (!ok && w)
        ph_world_destroy(w);
    return ok ? w : NULL;
}

// One step; its wall time (unit: ms).
double ab_step(void *world)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    ph_world_step(world);
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) * 1e-6;
}

unsigned long long ab_hash(void *world)
{
    return (unsigned long long)ph_world_hash(world);
}
