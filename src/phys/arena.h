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
// Returns size bytes aligned to 32, or NULL when the heap fallback fails too (or too many entries).
void *ph_arena_alloc(ph_arena *arena, size_t size);
// Frees the most recent live allocation (LIFO; asserted).
void ph_arena_free(ph_arena *arena, void *ptr);
// Between steps only (nothing live): grows the block to the high-water mark. False when out of memory.
int ph_arena_grow(ph_arena *arena);
