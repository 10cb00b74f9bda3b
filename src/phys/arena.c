// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The per-step LIFO arena; see arena.h. Requests are rounded up to 32 bytes and the block starts on a
// 32-byte boundary, so every array handed out is aligned for vector loads.
#include "arena.h"

#include "core.h"

// size bytes on a PH_ARENA_ALIGN boundary from the heap; *heap is what to free. The allocator hooks promise
// no more than malloc's alignment (16 bytes with glibc), and the wide solver's groups, whose type is 32-byte
// aligned, may be copied with aligned vector moves.
static char *heap_alloc(size_t size, char **heap)
{
    void *block;
    char *p = ph_alloc_aligned(size, PH_ARENA_ALIGN, &block);
    *heap = block;
    return p;
}

static void heap_free(char *heap, size_t size)
{
    ph_free_aligned(heap, size, PH_ARENA_ALIGN);
}

void ph_arena_create(ph_arena *arena, size_t capacity)
{
    *arena = (ph_arena){0};
    capacity = capacity > 0 ? ph_arena_round_up(capacity) : 0;
    if (capacity > 0)
    {
        arena->block = heap_alloc(capacity, &arena->block_heap);
        arena->capacity = arena->block ? capacity : 0;
    }
}

void ph_arena_destroy(ph_arena *arena)
{
    PH_ASSERT(arena->entry_count == 0);
    heap_free(arena->block_heap, arena->capacity);
    *arena = (ph_arena){0};
}

void *ph_arena_alloc_slow(ph_arena *arena, size_t rounded)
{
    // ph_arena_alloc serves everything the block can hold: what comes here is one entry too many, or a
    // request the block is full for, served from the heap until the next ph_arena_grow.
    if (arena->entry_count >= PH_ARENA_MAX_ENTRIES)
        return NULL;
    ph_arena_entry *e = &arena->entries[arena->entry_count];
    e->data = heap_alloc(rounded, &e->heap);
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
        heap_free(e->heap, e->size);
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
    char *heap;
    char *block = heap_alloc(capacity, &heap);
    if (!block)
        return 0;
    heap_free(arena->block_heap, arena->capacity);
    arena->block = block;
    arena->block_heap = heap;
    arena->capacity = capacity;
    return 1;
}
