// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Workers (ph_world_def.worker_count, enqueue_task, finish_task): a scene stepped with 1, 2, 3 and 8 workers
// of the built-in pool, and on a job system of the test's own, hashes to the same value after every step.
// The scenes cover each stage the workers split: a pyramid (the solver's colours), a pile of boxes with
// bouncing hulls dropped on it (the narrow phase, restitution's colours, sleeping and waking), ragdolls
// (joints beside the contacts), a joint grid (the joints' wide groups) and bullets at a wall (the calendar).
// Each is big enough that the stages' smallest ranges (solver.c, contact.c) leave several ranges to split.
#include "recipes/recipes.h"
#include "recipes/spawn.h"
#include "test.h"

#include "phys/phys.h"
#include "phys/world.h" // the calendar's first-pass counts, and its room for predictions

#include <stdlib.h> // calloc, free
#include <string.h> // strcmp

// Worker counts the pool runs each scene with; the first is the reference.
static const int worker_counts[] = {1, 2, 3, 8};
#define WORKER_RUNS ((int)(sizeof worker_counts / sizeof worker_counts[0]))
// Most steps of a scene here (the hash of each is kept).
#define WORKERS_MAX_STEPS 200

// The test's job system: enqueue keeps the task, finish runs its ranges on the calling thread, the last
// range first and each as another worker index (0 .. worker_count - 1, cycling), cut at exactly min_range
// items: another order and another split than the pool's, which the results must not notice.
typedef struct test_jobs
{
    ph_task_fn *task;
    void *task_context;
    int count, min_range;
    int worker_count;
    int enqueued; // tasks enqueued, to show the callbacks ran
} test_jobs;

static void *test_enqueue(ph_task_fn *task, int item_count, int min_range, void *task_context,
                          void *user_context)
{
    test_jobs *jobs = user_context;
    jobs->task = task;
    jobs->task_context = task_context;
    jobs->count = item_count;
    jobs->min_range = min_range > 0 ? min_range : 1;
    jobs->enqueued++;
    return jobs;
}

static void test_finish(void *user_task, void *user_context)
{
    test_jobs *jobs = user_task;
    (void)user_context;
    int ranges = (jobs->count + jobs->min_range - 1) / jobs->min_range;
    for (int r = ranges - 1; r >= 0; r--)
    {
        int begin = r * jobs->min_range;
        int end = begin + jobs->min_range < jobs->count ? begin + jobs->min_range : jobs->count;
        jobs->task(begin, end, r % jobs->worker_count, jobs->task_context);
    }
}

// A ground, an 8 x 8 x 8 pile of unit boxes and 4 x 3 x 4 bouncing hulls of 24 random points dropped on top
// of it.
static bool build_boxes_and_hulls(recipe_scene *s)
{
    recipe_scene_init(s, "boxes_and_hulls");
    s->steps = WORKERS_MAX_STEPS;
    const float ground_half[3] = {30.0f, 1.0f, 30.0f}, origin[3] = {0.0f, 0.0f, 0.0f},
                half[3] = {0.5f, 0.5f, 0.5f};
    if (!recipe_add_ground(s, ground_half, 0.0f, recipe_default_material()) ||
        !recipe_add_pile(s, origin, 8, 8, 8, half, 1.1f, 0.5f, 0.02f, 7, recipe_default_material()))
        return false;
    uint64_t rng = 23;
    float points[24][3];
    for (int i = 0; i < 24; i++)
    {
        ph_vec3 p = glms_vec3_normalize(test_rand_vec3(&rng, -1.0f, 1.0f));
        for (int c = 0; c < 3; c++)
            points[i][c] = 0.6f * p.raw[c];
    }
    int hull = recipe_add_hull(s, (const float(*)[3])points, 24);
    if (hull < 0)
        return false;
    for (int y = 0; y < 3; y++)
        for (int z = 0; z < 4; z++)
            for (int x = 0; x < 4; x++)
            {
                recipe_item *it = recipe_add_item(s);
                if (!it)
                    return false;
                it->shape = RECIPE_HULL;
                it->hull = hull;
                it->material.restitution = 0.6f;
                it->position[0] = 1.5f * (float)x - 2.25f;
                it->position[1] = 9.0f + 1.5f * (float)y;
                it->position[2] = 1.5f * (float)z - 2.25f;
                ph_quat q = test_rand_quat(&rng);
                it->orientation[0] = q.x;
                it->orientation[1] = q.y;
                it->orientation[2] = q.z;
                it->orientation[3] = q.w;
            }
    return true;
}

// Box3D's joint grid, 24 x 24 (joint_grid is 100 x 100): 1104 plain point joints, about 140 groups of 8
// lanes in a few colours, each colour split among the workers.
static bool build_joint_grid(recipe_scene *s)
{
    recipe_scene_init(s, "joint_grid_24");
    s->steps = WORKERS_MAX_STEPS;
    s->enable_sleep = false;
    return recipe_add_joint_grid(s, 24);
}

static bool build_scene(const char *name, recipe_scene *s)
{
    if (strcmp(name, "boxes_and_hulls") == 0)
        return build_boxes_and_hulls(s);
    if (strcmp(name, "joint_grid_24") == 0)
        return build_joint_grid(s);
    return recipe_build(name, RECIPE_DEFAULT_SEED, s);
}

// Steps scene `name` for `steps` steps with `workers` workers (on `jobs`' callbacks when not NULL) and
// writes the world's hash after each step into hashes[0 .. steps).
// What the calendar's first pass did on the workers over a run (calendar.c, parallel_searches).
typedef struct search_counts
{
    long worker_searches, escape_parts, reruns;
} search_counts;

static int run_hashes_counted(const char *name, int steps, int workers, test_jobs *jobs, int sink_room,
                              uint64_t *hashes, search_counts *counts);

static int run_hashes(const char *name, int steps, int workers, test_jobs *jobs, uint64_t *hashes)
{
    return run_hashes_counted(name, steps, workers, jobs, 0, hashes, NULL);
}

// run_hashes with the calendar's room for predictions a worker (0: its own) and its first pass counted.
static int run_hashes_counted(const char *name, int steps, int workers, test_jobs *jobs, int sink_room,
                              uint64_t *hashes, search_counts *counts)
{
    recipe_scene scene;
    ENSURE(build_scene(name, &scene));
    ph_world_def wd = spawn_world_def(&scene);
    wd.worker_count = workers;
    if (jobs)
    {
        jobs->worker_count = workers;
        wd.enqueue_task = test_enqueue;
        wd.finish_task = test_finish;
        wd.user_task_context = jobs;
    }
    ph_world *w = ph_world_create(&wd);
    ENSURE(w != NULL);
    ph_body_id *ids = calloc((size_t)scene.item_count, sizeof *ids);
    ENSURE(ids != NULL);
    ENSURE(spawn_recipe(w, &scene, ids) == PH_OK);
    w->calendar.sink_room = sink_room;
    for (int s = 0; s < steps; s++)
    {
        ph_world_step(w);
        hashes[s] = ph_world_hash(w);
        if (counts)
        {
            counts->worker_searches += w->calendar.worker_searches;
            counts->escape_parts += w->calendar.escape_parts;
            counts->reruns += w->calendar.reruns;
        }
    }
    free(ids);
    ph_world_destroy(w);
    recipe_scene_free(&scene);
    return 0;
}

// The first step whose hashes differ, or -1.
static int first_difference(const uint64_t *a, const uint64_t *b, int steps)
{
    for (int s = 0; s < steps; s++)
        if (a[s] != b[s])
            return s;
    return -1;
}

// Every worker count of the pool, and the test's job system with 4 workers, against 1 worker, step by step.
static int same_hashes(const char *name, int steps)
{
    ENSURE(steps <= WORKERS_MAX_STEPS);
    uint64_t reference[WORKERS_MAX_STEPS], hashes[WORKERS_MAX_STEPS];
    ENSURE(run_hashes(name, steps, worker_counts[0], NULL, reference) == 0);
    for (int r = 1; r < WORKER_RUNS; r++)
    {
        ENSURE(run_hashes(name, steps, worker_counts[r], NULL, hashes) == 0);
        int diff = first_difference(reference, hashes, steps);
        if (diff >= 0)
            fprintf(stderr, "%s, %d workers: step %d hashes %016llx, 1 worker %016llx\n", name,
                    worker_counts[r], diff + 1, (unsigned long long)hashes[diff],
                    (unsigned long long)reference[diff]);
        ENSURE(diff < 0);
    }
    test_jobs jobs = {0};
    ENSURE(run_hashes(name, steps, 4, &jobs, hashes) == 0);
    int diff = first_difference(reference, hashes, steps);
    if (diff >= 0)
        fprintf(stderr, "%s, the test's job system: step %d hashes %016llx, 1 worker %016llx\n", name,
                diff + 1, (unsigned long long)hashes[diff], (unsigned long long)reference[diff]);
    ENSURE(diff < 0);
    ENSURE(jobs.enqueued > 0); // the callbacks ran the split stages
    fprintf(stderr,
            "%s: %d steps, the same hash after each with 1, 2, 3, 8 workers and a job system (%d tasks)\n",
            name, steps, jobs.enqueued);
    return 0;
}

static int workers_pyramid(void)
{
    return same_hashes("pyramid20", 150);
}

static int workers_boxes_and_hulls(void)
{
    return same_hashes("boxes_and_hulls", 120);
}

static int workers_joints(void)
{
    return same_hashes("ragdolls", 80);
}

static int workers_joint_grid(void)
{
    return same_hashes("joint_grid_24", 60);
}

static int workers_calendar(void)
{
    return same_hashes("bullet_wall", 60);
}

// The calendar's first pass on the workers, its predictions taken in the order of one thread's loop: hulls
// raining onto a pile (convex_pile1024: every falling hull a search, some of them with an escape lists' part
// left to the stepping thread, bodies the solver pushed outside their proxies) and a hundred bullets meeting
// a wall at once (bullet_wall: a hundred impacts predicted in one first pass). With no room for predictions
// on the workers, the searches that predict an impact run again whole on the stepping thread. The same hash
// after every step as one worker, with 2, 3 and 8 workers, with room and without.
static int workers_calendar_searches(void)
{
    static const struct
    {
        const char *name;
        int steps;
    } scenes[] = {{"convex_pile1024", 150}, {"bullet_wall", 60}};
    uint64_t reference[WORKERS_MAX_STEPS], hashes[WORKERS_MAX_STEPS];
    search_counts total = {0, 0, 0};
    for (int k = 0; k < 2; k++)
    {
        int steps = scenes[k].steps;
        ENSURE(run_hashes(scenes[k].name, steps, 1, NULL, reference) == 0);
        for (int r = 1; r < WORKER_RUNS; r++)
        {
            for (int room = 0; room >= -1; room--)
            {
                search_counts counts = {0, 0, 0};
                ENSURE(run_hashes_counted(scenes[k].name, steps, worker_counts[r], NULL, room, hashes,
                                          &counts) == 0);
                int diff = first_difference(reference, hashes, steps);
                if (diff >= 0)
                    fprintf(stderr, "%s, %d workers, room %d: step %d differs\n", scenes[k].name,
                            worker_counts[r], room, diff + 1);
                ENSURE(diff < 0);
                ENSURE(counts.worker_searches > 0);
                total.worker_searches += counts.worker_searches;
                total.escape_parts += counts.escape_parts;
                total.reruns += counts.reruns;
            }
        }
    }
    fprintf(stderr, "  %ld searches on the workers, %ld escape parts, %ld run again\n", total.worker_searches,
            total.escape_parts, total.reruns);
    ENSURE(total.escape_parts > 0 && total.reruns > 0);
    return 0;
}

// A def with one callback but not the other, or a worker count out of range, is refused.
static int workers_def_checked(void)
{
    test_jobs jobs = {0};
    ph_world_def wd = ph_default_world_def();
    ENSURE(wd.worker_count == 1 && wd.enqueue_task == NULL && wd.finish_task == NULL);
    wd.worker_count = 0;
    ENSURE(ph_world_create(&wd) == NULL);
    wd.worker_count = PH_MAX_WORKERS + 1;
    ENSURE(ph_world_create(&wd) == NULL);
    wd = ph_default_world_def();
    wd.enqueue_task = test_enqueue;
    wd.user_task_context = &jobs;
    ENSURE(ph_world_create(&wd) == NULL);
    wd.enqueue_task = NULL;
    wd.finish_task = test_finish;
    ENSURE(ph_world_create(&wd) == NULL);
    // The most workers the pool may start, and none stepped: created and destroyed cleanly.
    wd = ph_default_world_def();
    wd.worker_count = PH_MAX_WORKERS;
    ph_world *w = ph_world_create(&wd);
    ENSURE(w != NULL);
    ph_world_step(w);
    ph_world_destroy(w);
    return 0;
}

const test_case test_workers_cases[] = {
    {"workers_pyramid", workers_pyramid},         {"workers_boxes_and_hulls", workers_boxes_and_hulls},
    {"workers_joints", workers_joints},           {"workers_joint_grid", workers_joint_grid},
    {"workers_calendar", workers_calendar},       {"workers_calendar_searches", workers_calendar_searches},
    {"workers_def_checked", workers_def_checked}, {0},
};
