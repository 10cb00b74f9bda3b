// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Slot allocation with a free list and generations: the basis of generational ids. A slot's generation
// changes when it is freed, so an id made before (slot, generation) is recognised as stale.
#pragma once

#include <stdbool.h> // bool
#include <stdint.h>  // uint32_t

typedef struct ph_id_slot
{
    uint32_t generation; // odd while the slot is live
    int next_free;       // free list link, -1 ends
} ph_id_slot;

typedef struct ph_id_pool
{
    ph_id_slot *slots;
    int slot_count; // slots ever used (high-water mark)
    int capacity;
    int free_head;
    int live_count;
} ph_id_pool;

void ph_id_pool_create(ph_id_pool *pool);
void ph_id_pool_destroy(ph_id_pool *pool);
// The slot the next ph_id_pool_alloc returns, with room made for it, so that call cannot fail; -1 when out
// of memory (the pool is then unchanged). Callers that must grow arrays of their own for the slot reserve
// it, grow them, and only then take it: a failure on the way leaves the pool as it was.
int ph_id_pool_reserve(ph_id_pool *pool);
// A free slot (lowest recently freed first: LIFO), or -1 when out of memory.
int ph_id_pool_alloc(ph_id_pool *pool);
void ph_id_pool_release(ph_id_pool *pool, int slot);
// Inline: loops over every slot of a world ask it once a slot.
static inline bool ph_id_pool_is_live(const ph_id_pool *pool, int slot)
{
    return slot >= 0 && slot < pool->slot_count && (pool->slots[slot].generation & 1u) != 0;
}
uint32_t ph_id_pool_generation(const ph_id_pool *pool, int slot);
// True when (index1, generation) names a live slot: index1 = slot + 1.
bool ph_id_pool_check(const ph_id_pool *pool, uint32_t index1, uint32_t generation);
