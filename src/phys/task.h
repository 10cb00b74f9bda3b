// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// How a step's stages run their work on several threads (types.h, ph_world_def.worker_count): through a
// game's job system (the def's enqueue_task and finish_task) or the built-in pool of pthreads (task.c). A
// stage hands ph_parallel_for a function over a range of items that writes only those items' outputs; the
// world.c, contact.c, solver.c and calendar.c stages merge what ranges produce in item order, so results
// do not depend on the worker count or on how the items were split.
#pragma once

#include "phys/types.h"

#include <stdbool.h> // bool

typedef struct ph_pool ph_pool;

typedef struct ph_tasks
{
    int worker_count; // 1: every task runs inline on the caller's thread
    ph_enqueue_task_fn *enqueue;
    ph_finish_task_fn *finish;
    void *user_context;
    ph_pool *pool; // the built-in pool, when the def gave no callbacks and more than one worker
} ph_tasks;

// Sets up the def's workers: its callbacks, or a pool of worker_count - 1 threads. False when the threads
// could not be started or their memory allocated (nothing is left to destroy then).
bool ph_tasks_create(ph_tasks *tasks, const ph_world_def *def);
// Stops and joins the pool's threads and frees it.
void ph_tasks_destroy(ph_tasks *tasks);

// Runs fn over items [0, count) in ranges of at least min_range items, on the workers, and returns when every
// range has returned. Inline (one range, worker 0) with one worker or at most min_range items. Called only
// from the thread that steps the world, never from inside a task.
void ph_parallel_for(const ph_tasks *tasks, int count, int min_range, ph_task_fn *fn, void *context);

// Whether ph_parallel_for would split `count` items of ranges of min_range (a stage may then skip the
// bookkeeping that only a split needs).
static inline bool ph_tasks_split(const ph_tasks *tasks, int count, int min_range)
{
    return tasks->worker_count > 1 && count > min_range;
}
