// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Allocator, log and assert hooks, the live byte count and the monotonic timer.
#define _POSIX_C_SOURCE 200809L // clock_gettime

#include "core.h"

#include <stdarg.h>    // va_list
#include <stdatomic.h> // atomic_load_explicit, atomic_store_explicit (the timer's calibration)
#include <stdint.h>    // INT64_MAX, SIZE_MAX, uintptr_t
#include <stdio.h>     // vsnprintf, snprintf, fprintf (assert message to stderr only, no file I/O)
#include <stdlib.h>    // malloc, free, abort
#include <string.h>    // memcpy
#include <time.h>      // clock_gettime

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <x86intrin.h> // __rdtsc
#define CORE_TSC 1
#endif

static void *default_alloc(size_t size, void *ctx)
{
    (void)ctx;
    return malloc(size);
}

static void default_free(void *ptr, size_t size, void *ctx)
{
    (void)size;
    (void)ctx;
    free(ptr);
}

static ph_alloc_fn *s_alloc = default_alloc;
static ph_free_fn *s_free = default_free;
static void *s_alloc_ctx;
static size_t s_byte_count;
static unsigned long s_alloc_failures;
static _Thread_local char *s_capture;
static _Thread_local size_t s_capture_size;
static ph_log_fn *s_log;
static void *s_log_ctx;
static ph_assert_fn *s_assert;

void ph_set_allocator(ph_alloc_fn *alloc_fn, ph_free_fn *free_fn, void *ctx)
{
    s_alloc = alloc_fn && free_fn ? alloc_fn : default_alloc;
    s_free = alloc_fn && free_fn ? free_fn : default_free;
    s_alloc_ctx = ctx;
}

size_t ph_byte_count(void)
{
    return s_byte_count;
}

// The hook is asked for this much more than a block, which starts on the first PH_ALLOC_ALIGN boundary
// past a pointer's room: there ph_free finds the hook's address again.
#define ALLOC_EXTRA (PH_ALLOC_ALIGN + sizeof(void *))

void *ph_alloc(size_t size)
{
    if (size == 0 || size > SIZE_MAX - ALLOC_EXTRA)
        return NULL;
    char *block = s_alloc(size + ALLOC_EXTRA, s_alloc_ctx);
    if (!block)
    {
        s_alloc_failures++;
        return NULL;
    }
    uintptr_t at =
        ((uintptr_t)block + sizeof(void *) + PH_ALLOC_ALIGN - 1u) & ~(uintptr_t)(PH_ALLOC_ALIGN - 1u);
    void *p = (void *)at;
    memcpy((char *)p - sizeof(void *), &block, sizeof block);
    s_byte_count += size;
    return p;
}

void ph_free(void *ptr, size_t size)
{
    if (!ptr)
        return;
    void *block;
    memcpy(&block, (char *)ptr - sizeof(void *), sizeof block);
    s_byte_count -= size;
    s_free(block, size + ALLOC_EXTRA, s_alloc_ctx);
}

void *ph_realloc(void *ptr, size_t old_size, size_t new_size)
{
    void *p = ph_alloc(new_size);
    if (!p)
        return NULL;
    if (ptr)
    {
        memcpy(p, ptr, old_size < new_size ? old_size : new_size);
        ph_free(ptr, old_size);
    }
    return p;
}

void ph_set_log(ph_log_fn *log_fn, void *ctx)
{
    s_log = log_fn;
    s_log_ctx = ctx;
}

unsigned long ph_alloc_failures(void)
{
    return s_alloc_failures;
}

void ph_log_capture(char *buffer, size_t size)
{
    s_capture = buffer && size > 0 ? buffer : NULL;
    s_capture_size = s_capture ? size : 0;
    if (s_capture)
        s_capture[0] = '\0';
}

void ph_log(ph_log_level level, const char *format, ...)
{
    if (!s_log && !s_capture)
        return;
    char message[256];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    if (s_capture)
        snprintf(s_capture, s_capture_size, "%s", message);
    else
        s_log(level, message, s_log_ctx);
}

void ph_set_assert_handler(ph_assert_fn *assert_fn)
{
    s_assert = assert_fn;
}

void ph_assert_failed(const char *condition, const char *file, int line)
{
    if (s_assert)
    {
        s_assert(condition, file, line);
        return;
    }
    fprintf(stderr, "%s:%d: engine assertion failed: %s\n", file, line, condition);
    abort();
}

const char *ph_status_string(ph_status status)
{
    static const char *names[PH_STATUS_COUNT] = {
        "ok",
        "invalid argument",
        "stale id",
        "out of memory",
        "capacity exceeded",
        "degenerate geometry",
        "wrong type",
    };
    if ((int)status < 0 || status >= PH_STATUS_COUNT)
        return "unknown status";
    return names[status];
}

const char *ph_version_string(void)
{
    return "0.1.0";
}

static unsigned long long clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

#ifdef CORE_TSC
// The step reads the clock at every stage boundary, some thirty times per step with the solver's
// sub-steps; clock_gettime costs about 25 ns a read here (a third of a one-body step), the time-stamp
// counter under 10. x86-64 processors of the last fifteen years count it at a constant rate (the
// "constant_tsc" / "nonstop_tsc" flags), so ticks are converted with one rate, measured against
// CLOCK_MONOTONIC over this long on the first conversion in the process (unit: ns).
#define CORE_TSC_CALIBRATION_NS 1000000ull

// Threads that race here each measure and store a valid rate.
_Atomic double ph_ms_per_tick;

double ph_ticks_measure(void)
{
    double rate = atomic_load_explicit(&ph_ms_per_tick, memory_order_relaxed);
    if (rate > 0.0)
        return rate;
    unsigned long long t0 = clock_ns(), c0 = __rdtsc(), t1 = t0, c1 = c0;
    while (t1 - t0 < CORE_TSC_CALIBRATION_NS)
    {
        t1 = clock_ns();
        c1 = __rdtsc();
    }
    // A counter that did not advance measures every interval as 0 ticks whatever the rate.
    rate = c1 > c0 ? (double)(t1 - t0) * 1e-6 / (double)(c1 - c0) : 1e-6;
    atomic_store_explicit(&ph_ms_per_tick, rate, memory_order_relaxed);
    return rate;
}

void ph_ticks_calibrate(void)
{
    (void)ph_ticks_measure();
}
#else
void ph_ticks_calibrate(void)
{
}

unsigned long long ph_ticks(void)
{
    return clock_ns();
}

float ph_ticks_to_ms(unsigned long long ticks)
{
    if (ticks > (unsigned long long)INT64_MAX) // a negative difference, as on the counter's path
        return 0.0f;
    return (float)((double)ticks * 1e-6);
}
#endif
