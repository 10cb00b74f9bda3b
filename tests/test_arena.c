// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The step arena: LIFO order, alignment, the heap fallback when full, growth to the high-water mark
// between steps, and the byte count returning to its start.
#include "test.h"

#include "phys/arena.h"
#include "phys/core.h"

#include <stdint.h> // uintptr_t
#include <string.h> // memset

#define ARENA_TEST_ALIGN 32u // the alignment arena.c promises (unit: bytes)

static int arena_lifo_and_alignment(void)
{
    size_t start = ph_byte_count();
    ph_arena a;
    ph_arena_create(&a, 1024);
    char *p = ph_arena_alloc(&a, 10);
    char *q = ph_arena_alloc(&a, 100);
    ENSURE(p && q);
    ENSURE((uintptr_t)p % 16u == 0 && (uintptr_t)q % 16u == 0);
    ENSURE(q >= p + ARENA_TEST_ALIGN); // 10 bytes rounded up to 32
    memset(p, 1, 10);
    memset(q, 2, 100);
    ENSURE(a.entry_count == 2);
    ph_arena_free(&a, q);
    ph_arena_free(&a, p);
    ENSURE(a.used == 0 && a.allocated == 0);
    ph_arena_destroy(&a);
    ENSURE(ph_byte_count() == start);
    return 0;
}

static int arena_heap_fallback_then_grow(void)
{
    size_t start = ph_byte_count();
    ph_arena a;
    ph_arena_create(&a, 256);
    size_t before = ph_byte_count();
    char *big = ph_arena_alloc(&a, 4096); // does not fit: served from the heap
    ENSURE(big != NULL);
    ENSURE(ph_byte_count() > before);
    memset(big, 3, 4096);
    ph_arena_free(&a, big);
    ENSURE(ph_byte_count() == before);
    ENSURE(a.high_water >= 4096);
    ENSURE(ph_arena_grow(&a));
    ENSURE(a.capacity >= 4096);
    // After growing, the same request comes from the block: no heap allocation.
    size_t grown = ph_byte_count();
    big = ph_arena_alloc(&a, 4096);
    ENSURE(big != NULL && ph_byte_count() == grown);
    ph_arena_free(&a, big);
    ph_arena_destroy(&a);
    ENSURE(ph_byte_count() == start);
    return 0;
}

const test_case test_arena_cases[] = {
    {"arena_lifo_and_alignment", arena_lifo_and_alignment},
    {"arena_heap_fallback_then_grow", arena_heap_fallback_then_grow},
    {0},
};
