// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The workers of a step (task.h): ph_parallel_for over a game's job system, or over the built-in pool.
// The pool is a fork-join of one task at a time, the shape of the step's stages: the stepping thread
// publishes a task (its function, context and range count) with a generation number, takes ranges itself as
// worker 0, and waits for the rest; the pool's threads, workers 1 .. n-1, take ranges as they come. The
// solver runs one task per colour of its constraint graph, some hundreds per step, each tens of microseconds
// long, so a worker spins between tasks rather than sleeping (a wake-up through the kernel costs as much as a
// colour's work) and sleeps only when nothing came for POOL_SPINS pauses, between steps.
// Ranges are claimed through one 64-bit counter, the task's generation in the high half and its range count
// and next range in the low half, so that a worker that arrives late for a task already done cannot take a
// range of the next one; a worker reads the task's function and context only after it claimed one of its
// ranges, and the stepping thread writes the next task only after every range of this one has returned.
#define _POSIX_C_SOURCE 200809L // pthreads

#include "task.h"

#include "core.h"

#include <pthread.h>   // pthread_create, pthread_join, mutex, condition variable
#include <sched.h>     // sched_yield
#include <stdatomic.h> // the claim counter, the done count, the sleepers
#include <stdint.h>    // uint64_t
#include <string.h>    // memset

// Pauses a worker spins for the next task before it sleeps: about 50 to 200 us on current x86 cores (a pause
// is 10 to 140 cycles), longer than the gaps between a step's tasks and far shorter than a frame.
#define POOL_SPINS 4096
// Pauses the stepping thread spins for the last range of a task (held by a worker the system preempted)
// before it yields the core in each further wait.
#define POOL_WAIT_SPINS 256
// Ranges per worker a task is cut into at most: a few, so that a worker that started late or was preempted
// leaves its share to the others, and not many, so that claims stay rare.
#define POOL_RANGES_PER_WORKER 4

struct ph_pool
{
    int thread_count;
    pthread_t *threads;
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    // The current task, written by the stepping thread before it publishes the claim counter.
    ph_task_fn *fn;
    void *context;
    int count;
    int range; // items per range
    int ranges;
    _Atomic uint64_t claim; // see CLAIM_RANGES_SHIFT
    atomic_int done;        // ranges of the current task that returned
    atomic_int sleepers;    // threads waiting on `wake`
    atomic_bool quit;
    uint32_t generation; // the stepping thread's: the current task's
};

typedef struct pool_thread
{
    ph_pool *pool;
    int worker;
} pool_thread;

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

// The claim counter: generation << 32 | range count << 16 | next range. The range count travels with it
// so that a thread decides from the counter alone whether a range is left: the task's other fields may be
// read only by a thread that holds one of its ranges (until then the next task may be being written).
#define CLAIM_RANGES_SHIFT 16
#define CLAIM_FIELD_MASK 0xffffu

// Takes and runs ranges of the task of `generation` until none is left or that task is no longer current.
static void run_ranges(ph_pool *pool, uint32_t generation, int worker)
{
    uint64_t claim = atomic_load_explicit(&pool->claim, memory_order_acquire);
    for (;;)
    {
        uint32_t next = (uint32_t)claim & CLAIM_FIELD_MASK;
        uint32_t ranges = (uint32_t)(claim >> CLAIM_RANGES_SHIFT) & CLAIM_FIELD_MASK;
        if ((uint32_t)(claim >> 32) != generation || next >= ranges)
            return;
        if (!atomic_compare_exchange_weak_explicit(&pool->claim, &claim, claim + 1, memory_order_acq_rel,
                                                   memory_order_acquire))
            continue;
        int begin = (int)next * pool->range;
        int end = begin + pool->range < pool->count ? begin + pool->range : pool->count;
        pool->fn(begin, end, worker, pool->context);
        atomic_fetch_add_explicit(&pool->done, 1, memory_order_release);
        claim = atomic_load_explicit(&pool->claim, memory_order_acquire);
    }
}

static void *pool_main(void *arg)
{
    const pool_thread *self = arg;
    ph_pool *pool = self->pool;
    int worker = self->worker;
    uint32_t seen = 0; // the generation this thread last worked on
    for (;;)
    {
        int spins = 0;
        uint64_t claim;
        while ((uint32_t)((claim = atomic_load_explicit(&pool->claim, memory_order_acquire)) >> 32) == seen)
        {
            if (atomic_load_explicit(&pool->quit, memory_order_acquire))
                return NULL;
            if (++spins < POOL_SPINS)
            {
                cpu_pause();
                continue;
            }
            // Sleep. The sleeper count is raised before the claim is read again (both sequentially
            // consistent), and the stepping thread publishes before it reads the count: either this thread
            // sees the new task, or the stepping thread sees it asleep and wakes it under the mutex.
            pthread_mutex_lock(&pool->mutex);
            atomic_fetch_add(&pool->sleepers, 1);
            while ((uint32_t)(atomic_load(&pool->claim) >> 32) == seen && !atomic_load(&pool->quit))
                pthread_cond_wait(&pool->wake, &pool->mutex);
            atomic_fetch_sub(&pool->sleepers, 1);
            pthread_mutex_unlock(&pool->mutex);
            spins = 0;
        }
        seen = (uint32_t)(claim >> 32);
        run_ranges(pool, seen, worker);
    }
}

static void wake_sleepers(ph_pool *pool)
{
    if (atomic_load(&pool->sleepers) == 0)
        return;
    pthread_mutex_lock(&pool->mutex);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
}

static void pool_destroy(ph_pool *pool, int started)
{
    pthread_mutex_lock(&pool->mutex);
    atomic_store(&pool->quit, true);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (int i = 0; i < started; i++)
        pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->mutex);
    ph_free(pool->threads, (size_t)pool->thread_count * (sizeof(pthread_t) + sizeof(pool_thread)));
    ph_free(pool, sizeof *pool);
}

static ph_pool *pool_create(int thread_count)
{
    ph_pool *pool = ph_alloc(sizeof *pool);
    if (!pool)
        return NULL;
    memset(pool, 0, sizeof *pool);
    // One block: the thread handles, then each thread's argument.
    pool->threads = ph_alloc((size_t)thread_count * (sizeof(pthread_t) + sizeof(pool_thread)));
    if (!pool->threads)
    {
        ph_free(pool, sizeof *pool);
        return NULL;
    }
    pool->thread_count = thread_count;
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->wake, NULL);
    atomic_init(&pool->claim, 0);
    atomic_init(&pool->done, 0);
    atomic_init(&pool->sleepers, 0);
    atomic_init(&pool->quit, false);
    pool_thread *args = (pool_thread *)(pool->threads + thread_count);
    for (int i = 0; i < thread_count; i++)
    {
        args[i] = (pool_thread){pool, i + 1};
        if (pthread_create(&pool->threads[i], NULL, pool_main, &args[i]) != 0)
        {
            pool_destroy(pool, i);
            return NULL;
        }
    }
    return pool;
}

// ph_parallel_for on the pool: publish, take ranges as worker 0, wait for the others.
static void pool_run(ph_pool *pool, int workers, int count, int min_range, ph_task_fn *fn, void *context)
{
    int ranges = (count + min_range - 1) / min_range;
    int most = workers * POOL_RANGES_PER_WORKER;
    ranges = ranges < most ? ranges : most;
    pool->fn = fn;
    pool->context = context;
    pool->count = count;
    pool->range = (count + ranges - 1) / ranges;
    pool->ranges = (count + pool->range - 1) / pool->range;
    atomic_store_explicit(&pool->done, 0, memory_order_relaxed);
    uint32_t generation = ++pool->generation;
    if (generation == 0) // 0 is every thread's "seen" at the start
        generation = ++pool->generation;
    atomic_store(&pool->claim, (uint64_t)generation << 32 | (uint64_t)pool->ranges << CLAIM_RANGES_SHIFT);
    wake_sleepers(pool);
    run_ranges(pool, generation, 0);
    for (int spins = 0; atomic_load_explicit(&pool->done, memory_order_acquire) < pool->ranges; spins++)
    {
        if (spins < POOL_WAIT_SPINS)
            cpu_pause();
        else
            sched_yield();
    }
}

bool ph_tasks_create(ph_tasks *tasks, const ph_world_def *def)
{
    memset(tasks, 0, sizeof *tasks);
    tasks->worker_count = def->worker_count;
    tasks->enqueue = def->enqueue_task;
    tasks->finish = def->finish_task;
    tasks->user_context = def->user_task_context;
    if (tasks->worker_count > 1 && !tasks->enqueue)
    {
        tasks->pool = pool_create(tasks->worker_count - 1);
        if (!tasks->pool)
            return false;
    }
    return true;
}

void ph_tasks_destroy(ph_tasks *tasks)
{
    if (tasks->pool)
        pool_destroy(tasks->pool, tasks->pool->thread_count);
    tasks->pool = NULL;
}

void ph_parallel_for(const ph_tasks *tasks, int count, int min_range, ph_task_fn *fn, void *context)
{
    if (count <= 0)
        return;
    if (min_range < 1)
        min_range = 1;
    if (!ph_tasks_split(tasks, count, min_range))
    {
        fn(0, count, 0, context);
        return;
    }
    if (tasks->pool)
    {
        pool_run(tasks->pool, tasks->worker_count, count, min_range, fn, context);
        return;
    }
    void *user_task = tasks->enqueue(fn, count, min_range, context, tasks->user_context);
    if (user_task)
        tasks->finish(user_task, tasks->user_context);
}
