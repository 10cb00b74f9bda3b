// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The per-step LIFO arena; see arena.h. Requests are rounded up to 32 bytes, and the block and the heap
// fallbacks start on ph_alloc's 64-byte boundaries, so every array handed out is aligned for vector loads.
#include "arena.h"

#include "core.h"

void ph_arena_create(ph_arena *arena, size_t capacity)
{
    *arena = (ph_arena){0};
    capacity = capacity > 0 ? ph_arena_round_up(capacity) : 0;
    if (capacity > 0)
    {
        arena->block = ph_alloc(capacity);
        arena->capacity = arena->block ? capacity : 0;
    }
}

void ph_arena_destroy(ph_arena *arena)
{
    PH_ASSERT(arena->entry_count == 0);
    ph_free(arena->block, arena->capacity);
    *arena = (ph_arena){0};
}

void *ph_arena_alloc_slow(ph_arena *arena, size_t rounded)
{
    // ph_arena_alloc serves everything the block can hold: what comes here is one entry too many, or a
    // request the block is full for, served from the heap until the next ph_arena_grow.
    if (arena->entry_count >= PH_ARENA_MAX_ENTRIES)
        return NULL;
    ph_arena_entry *e = &arena->entries[arena->entry_count];
    e->data = ph_alloc(rounded);
    if (!e->data)
        return NULL;
    e->size = rounded;
    e->on_heap = 1;
    arena->entry_count++;
    arena->allocated += rounded;
    if (arena->allocated > arena->high_water)
        arena->high_water = arena->allocated;
    return e->data;
}

void ph_arena_free_slow(ph_arena *arena, void *ptr)
{
    PH_ASSERT(arena->entry_count > 0);
    if (arena->entry_count <= 0)
        return;
    ph_arena_entry *e = &arena->entries[arena->entry_count - 1];
    PH_ASSERT(e->data == ptr);
    (void)ptr;
    if (e->on_heap)
        ph_free(e->data, e->size);
    else
        arena->used -= e->size;
    arena->allocated -= e->size;
    arena->entry_count--;
}

int ph_arena_grow(ph_arena *arena)
{
    PH_ASSERT(arena->entry_count == 0);
    if (arena->high_water <= arena->capacity)
        return 1;
    // Some headroom so a slowly growing scene does not regrow every step.
    size_t capacity = ph_arena_round_up(arena->high_water + arena->high_water / 4u);
    char *block = ph_alloc(capacity);
    if (!block)
        return 0;
    ph_free(arena->block, arena->capacity);
    arena->block = block;
    arena->capacity = capacity;
    return 1;
}
