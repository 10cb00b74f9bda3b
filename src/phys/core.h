// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Engine internals shared by every module: counted allocation through the hooks, logging, asserts
// and the stage timer.
#pragma once

#include "phys/base.h"

#include <stddef.h> // size_t

// Every block the engine allocates starts on a cache line (unit: bytes), whatever the hooks return (malloc:
// 16 bytes): the arena's arrays are 32-byte aligned for the wide solver's vector loads, whose types may be
// copied with aligned moves, and an array of 64- or 128-byte elements (contacts, body states) keeps each
// element on its own lines (at 16 bytes off, a 512-byte contact touched nine lines instead of eight).
#define PH_ALLOC_ALIGN ((size_t)64)

// size bytes on a PH_ALLOC_ALIGN boundary through the hooks (asked for PH_ALLOC_ALIGN + sizeof(void *) more;
// the hook's free receives that size too); counted by ph_byte_count. NULL for 0 or when the hook fails.
void *ph_alloc(size_t size);
void ph_free(void *ptr, size_t size);
// Reallocates a block of old_size bytes to new_size bytes (contents kept up to the smaller size).
void *ph_realloc(void *ptr, size_t old_size, size_t new_size);

void ph_log(ph_log_level level, const char *format, ...);
// Allocations the hook has refused since the process started: a call compares it before and after to tell
// whether it ran out of memory somewhere below it, where the module that met the failure degraded without
// saying so (the step, the broadphase's nodes).
unsigned long ph_alloc_failures(void);
// While a capture buffer is set (on this thread), ph_log writes its messages there (the last one kept)
// instead of sending them to the log hook: the world's calls that run a builder (hull, mesh) take the
// builder's own sentence into ph_world_last_error and log it once, under their own name. NULL ends it.
void ph_log_capture(char *buffer, size_t size);

void ph_assert_failed(const char *condition, const char *file, int line);
#ifdef PH_ENABLE_ASSERT
#define PH_ASSERT(cond)                                                                                      \
    do                                                                                                       \
    {                                                                                                        \
        if (!(cond))                                                                                         \
            ph_assert_failed(#cond, __FILE__, __LINE__);                                                     \
    } while (0)
#else
#define PH_ASSERT(cond) ((void)0)
#endif

// Monotonic time in ticks and conversion to milliseconds, for the per-stage timings. On x86-64 a tick is
// a count of the processor's time-stamp counter (a read costs a third of clock_gettime's), whose rate
// ph_ticks_calibrate measures against CLOCK_MONOTONIC, spending 1 ms once per process (ph_world_create
// calls it, so that no step carries the cost; a conversion before it measures first). Elsewhere a tick is
// a nanosecond of CLOCK_MONOTONIC and the calibration does nothing.
void ph_ticks_calibrate(void);

// A hint that the cache line at p will be read soon (no effect on results; nothing where the compiler has no
// way to say it). For loops that read memory in an order the hardware prefetchers cannot guess. On x86-64 an
// asm statement: GCC takes __builtin_prefetch for free of side effects and deletes a loop of nothing else.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PH_PREFETCH(p) __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)(p)))
#elif defined(__GNUC__) || defined(__clang__)
#define PH_PREFETCH(p) __builtin_prefetch((p), 0, 3)
#else
#define PH_PREFETCH(p) ((void)(p))
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <stdatomic.h> // atomic_load_explicit
#include <stdint.h>    // INT64_MAX
#include <x86intrin.h> // __rdtsc

// Inline, both: a step reads the clock some thirty times and converts some fifteen differences, and each is
// a handful of instructions next to a call's.
static inline unsigned long long ph_ticks(void)
{
    return __rdtsc();
}

// Milliseconds per tick, 0 until measured (core.c); ph_ticks_measure measures it, stores it and returns it.
extern _Atomic double ph_ms_per_tick;
double ph_ticks_measure(void);

static inline float ph_ticks_to_ms(unsigned long long ticks)
{
    // A difference that came out negative (a thread moved to a processor whose counter runs behind) is
    // reported as 0 rather than as centuries.
    if (ticks > (unsigned long long)INT64_MAX)
        return 0.0f;
    double rate = atomic_load_explicit(&ph_ms_per_tick, memory_order_relaxed);
    if (!(rate > 0.0))
        rate = ph_ticks_measure();
    return (float)((double)ticks * rate);
}
#else
unsigned long long ph_ticks(void);
float ph_ticks_to_ms(unsigned long long ticks);
#endif
