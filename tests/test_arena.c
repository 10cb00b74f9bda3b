// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The step arena: LIFO order, alignment, the heap fallback when full, growth to the high-water mark
// between steps, and the byte count returning to its start.
#include "test.h"

#include "phys/arena.h"
#include "phys/core.h"

#include <stdbool.h> // bool
#include <stdint.h>  // uintptr_t
#include <stdlib.h>  // aligned_alloc, free
#include <string.h>  // memset

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

// The inline path (block requests) and the out-of-line one (heap fallback, the entry limit) interleaved:
// a heap entry under block entries, every entry up to the limit, the one past it refused, and all given
// back in LIFO order to an empty arena and the starting byte count.
static int arena_inline_and_slow_paths_interleave(void)
{
    size_t start = ph_byte_count();
    ph_arena a;
    ph_arena_create(&a, 4096);
    char *small = ph_arena_alloc(&a, 0); // a zero-byte request still takes one aligned unit
    char *heap = ph_arena_alloc(&a, 8192);
    ENSURE(small && heap && a.entries[1].on_heap && a.used == ARENA_TEST_ALIGN);
    char *ptrs[PH_ARENA_MAX_ENTRIES];
    int n = 2;
    for (; n < PH_ARENA_MAX_ENTRIES; n++)
    {
        ptrs[n] = ph_arena_alloc(&a, 40); // rounded up to 64
        ENSURE(ptrs[n] && !a.entries[n].on_heap && (uintptr_t)ptrs[n] % 16u == 0);
        memset(ptrs[n], n, 40);
    }
    ENSURE(a.entry_count == PH_ARENA_MAX_ENTRIES && a.used == ARENA_TEST_ALIGN + 62u * 64u);
    ENSURE(ph_arena_alloc(&a, 1) == NULL && a.entry_count == PH_ARENA_MAX_ENTRIES);
    for (n = PH_ARENA_MAX_ENTRIES - 1; n >= 2; n--)
    {
        ENSURE(ptrs[n][39] == (char)n);
        ph_arena_free(&a, ptrs[n]);
    }
    ENSURE(a.entry_count == 2 && a.used == ARENA_TEST_ALIGN && a.allocated == ARENA_TEST_ALIGN + 8192u);
    ph_arena_free(&a, heap);
    ph_arena_free(&a, small);
    ENSURE(a.entry_count == 0 && a.used == 0 && a.allocated == 0);
    ENSURE(a.high_water == ARENA_TEST_ALIGN + 8192u + 62u * 64u);
    ph_arena_destroy(&a);
    ENSURE(ph_byte_count() == start);
    return 0;
}

// An allocator hook that hands out blocks 16 bytes past a 32-byte boundary (as malloc may): ph_alloc still
// returns blocks on a cache line, the arena 32-byte aligned arrays from its block and from the heap fallback,
// and both give the hook back what it handed out (the hook's free takes 16 off: a wrong pointer is a crash,
// or an AddressSanitizer report).
static void *misaligning_alloc(size_t size, void *ctx)
{
    (void)ctx;
    char *p = aligned_alloc(32, ((size + 16u) + 31u) & ~(size_t)31u);
    return p ? p + 16 : NULL;
}

static void misaligning_free(void *ptr, size_t size, void *ctx)
{
    (void)size;
    (void)ctx;
    free((char *)ptr - 16);
}

static int arena_aligned_under_any_allocator(void)
{
    ph_set_allocator(misaligning_alloc, misaligning_free, NULL);
    size_t start = ph_byte_count();
    bool lines = true;
    for (size_t size = 1; size < 5000; size = size * 3 + 1)
    {
        char *p = ph_alloc(size);
        lines = lines && p && (uintptr_t)p % PH_ALLOC_ALIGN == 0;
        if (p)
            memset(p, 7, size);
        ph_free(p, size);
    }
    ph_arena a;
    ph_arena_create(&a, 256);
    char *small = ph_arena_alloc(&a, 40);
    char *heap = ph_arena_alloc(&a, 4096); // past the block: the heap fallback
    bool aligned = small && heap && a.entries[1].on_heap && (uintptr_t)small % ARENA_TEST_ALIGN == 0 &&
                   (uintptr_t)heap % ARENA_TEST_ALIGN == 0;
    if (heap)
        memset(heap, 3, 4096);
    ph_arena_free(&a, heap);
    ph_arena_free(&a, small);
    bool grown = ph_arena_grow(&a) && (uintptr_t)a.block % ARENA_TEST_ALIGN == 0;
    ph_arena_destroy(&a);
    size_t end = ph_byte_count();
    ph_set_allocator(NULL, NULL, NULL);
    ENSURE(lines);
    ENSURE(aligned);
    ENSURE(grown);
    ENSURE(end == start);
    return 0;
}

const test_case test_arena_cases[] = {
    {"arena_lifo_and_alignment", arena_lifo_and_alignment},
    {"arena_heap_fallback_then_grow", arena_heap_fallback_then_grow},
    {"arena_inline_and_slow_paths_interleave", arena_inline_and_slow_paths_interleave},
    {"arena_aligned_under_any_allocator", arena_aligned_under_any_allocator},
    {0},
};
