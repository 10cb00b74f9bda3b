// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The per-step LIFO arena (after Box2D's arena allocator): the step takes its temporary arrays (pair
// candidates, solver constraints, islands, calendar events) from one block and gives them back in reverse
// order. A request that does not fit falls back to the heap and is counted; ph_arena_grow(), called
// between steps, then enlarges the block to the high-water mark, so after warm-up the step allocates
// nothing from the heap.
#pragma once

#include <stddef.h> // size_t

#define PH_ARENA_MAX_ENTRIES 64 // deepest nesting of live allocations

typedef struct ph_arena_entry
{
    char *data;
    size_t size;
    int on_heap;
} ph_arena_entry;

typedef struct ph_arena
{
    char *block;
    size_t capacity;   // bytes in block
    size_t used;       // bytes of block in use
    size_t allocated;  // bytes in use, heap fallbacks included
    size_t high_water; // largest `allocated` seen
    int entry_count;
    ph_arena_entry entries[PH_ARENA_MAX_ENTRIES];
} ph_arena;

void ph_arena_create(ph_arena *arena, size_t capacity);
void ph_arena_destroy(ph_arena *arena);
// Between steps only (nothing live): grows the block to the high-water mark. False when out of memory.
int ph_arena_grow(ph_arena *arena);

// The out-of-line halves of ph_arena_alloc and ph_arena_free (arena.c): a request the block cannot hold (or
// one entry too many; `rounded` is ph_arena_round_up of its size), a heap-served free, and every misuse the
// asserts catch.
void *ph_arena_alloc_slow(ph_arena *arena, size_t rounded);
void ph_arena_free_slow(ph_arena *arena, void *ptr);

#define PH_ARENA_ALIGN ((size_t)32) // alignment and rounding of every request (unit: bytes)

// A request's size as the arena counts it: at least one byte, rounded up to PH_ARENA_ALIGN.
static inline size_t ph_arena_round_up(size_t size)
{
    return ((size > 0 ? size : 1u) + PH_ARENA_ALIGN - 1u) & ~(PH_ARENA_ALIGN - 1u);
}

// Returns size bytes aligned to 32, or NULL when the heap fallback fails too (or too many entries).
// The block's case is inline: a small scene takes and gives back half a dozen arrays a step, and the calls
// were a tenth of a one-body step's pipeline outside the solver.
static inline void *ph_arena_alloc(ph_arena *arena, size_t size)
{
    size_t rounded = ph_arena_round_up(size);
    if (arena->entry_count >= PH_ARENA_MAX_ENTRIES || rounded > arena->capacity - arena->used)
        return ph_arena_alloc_slow(arena, rounded);
    ph_arena_entry *e = &arena->entries[arena->entry_count++];
    e->data = arena->block + arena->used;
    e->size = rounded;
    e->on_heap = 0;
    arena->used += rounded;
    arena->allocated += rounded;
    if (arena->allocated > arena->high_water)
        arena->high_water = arena->allocated;
    return e->data;
}

// Frees the most recent live allocation (LIFO; asserted).
static inline void ph_arena_free(ph_arena *arena, void *ptr)
{
    ph_arena_entry *e = arena->entry_count > 0 ? &arena->entries[arena->entry_count - 1] : NULL;
    if (!e || e->data != ptr || e->on_heap)
    {
        ph_arena_free_slow(arena, ptr);
        return;
    }
    arena->used -= e->size;
    arena->allocated -= e->size;
    arena->entry_count--;
}
