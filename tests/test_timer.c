// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The stage timer (core.c): ticks converted to milliseconds agree with CLOCK_MONOTONIC over the same
// interval, and a negative difference reads as 0. Not a timing assertion on the engine: two clocks read side
// by side must tell the same time.
#define _POSIX_C_SOURCE 200809L // clock_gettime

#include "test.h"

#include "phys/core.h"

#include <time.h> // clock_gettime

// Length of the compared interval (unit: ms), and the largest relative disagreement allowed.
#define TIMER_INTERVAL_MS 50.0
#define TIMER_TOLERANCE 0.05
// Attempts: a thread descheduled between two paired reads makes one interval disagree; a wrong conversion
// disagrees every time.
#define TIMER_ATTEMPTS 3

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int timer_agrees_with_monotonic_clock(void)
{
    double worst = 0.0;
    for (int attempt = 0; attempt < TIMER_ATTEMPTS; attempt++)
    {
        (void)ph_ticks_to_ms(1ull); // any one-off calibration happens outside the interval
        double m0 = now_ms();
        unsigned long long t0 = ph_ticks();
        double m1 = m0;
        while (m1 - m0 < TIMER_INTERVAL_MS)
            m1 = now_ms();
        unsigned long long t1 = ph_ticks();
        double ms = (double)ph_ticks_to_ms(t1 - t0);
        double err = fabs(ms / (m1 - m0) - 1.0);
        fprintf(stderr, "attempt %d: CLOCK_MONOTONIC %.3f ms, ph_ticks %.3f ms\n", attempt, m1 - m0, ms);
        if (err <= TIMER_TOLERANCE)
            return 0;
        worst = err;
    }
    ENSURE(worst <= TIMER_TOLERANCE);
    return 0;
}

// A difference taken the wrong way round (later minus earlier reading swapped, or a counter that runs
// behind on another processor) converts to 0 ms, not to a wrapped-around count of centuries.
static int timer_negative_difference_is_zero(void)
{
    unsigned long long t0 = ph_ticks(), t1 = t0;
    while (t1 == t0)
        t1 = ph_ticks();
    float ms = ph_ticks_to_ms(t0 - t1);
    fprintf(stderr, "t0 - t1 = %llu ticks -> %g ms\n", t0 - t1, (double)ms);
    ENSURE(ms == 0.0f);
    ENSURE(ph_ticks_to_ms(t1 - t0) >= 0.0f);
    return 0;
}

const test_case test_timer_cases[] = {
    {"timer_agrees_with_monotonic_clock", timer_agrees_with_monotonic_clock},
    {"timer_negative_difference_is_zero", timer_negative_difference_is_zero},
    {0},
};
