// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Slot free list with generations; see id_pool.h. Live slots have an odd generation and free slots an
// even one, so one counter says both "which incarnation" and "is it live".
#include "id_pool.h"

#include "array.h"

void ph_id_pool_create(ph_id_pool *pool)
{
    *pool = (ph_id_pool){0};
    pool->free_head = -1;
}

void ph_id_pool_destroy(ph_id_pool *pool)
{
    ph_array_free(pool->slots, pool->capacity);
    ph_id_pool_create(pool);
}

int ph_id_pool_reserve(ph_id_pool *pool)
{
    if (pool->free_head >= 0)
        return pool->free_head;
    if (!ph_array_reserve(pool->slots, pool->capacity, pool->slot_count + 1))
        return -1;
    return pool->slot_count;
}

int ph_id_pool_alloc(ph_id_pool *pool)
{
    int slot = ph_id_pool_reserve(pool);
    if (slot < 0)
        return -1;
    if (slot == pool->free_head)
        pool->free_head = pool->slots[slot].next_free;
    else
    {
        pool->slot_count++;
        pool->slots[slot].generation = 0;
    }
    pool->slots[slot].generation++; // even (free) -> odd (live)
    pool->slots[slot].next_free = -1;
    pool->live_count++;
    return slot;
}

void ph_id_pool_release(ph_id_pool *pool, int slot)
{
    if (!ph_id_pool_is_live(pool, slot))
        return;
    pool->slots[slot].generation++; // odd -> even
    pool->slots[slot].next_free = pool->free_head;
    pool->free_head = slot;
    pool->live_count--;
}

uint32_t ph_id_pool_generation(const ph_id_pool *pool, int slot)
{
    return slot >= 0 && slot < pool->slot_count ? pool->slots[slot].generation : 0;
}

bool ph_id_pool_check(const ph_id_pool *pool, uint32_t index1, uint32_t generation)
{
    if (index1 == 0 || index1 > (uint32_t)pool->slot_count)
        return false;
    int slot = (int)index1 - 1;
    return pool->slots[slot].generation == generation && (generation & 1u) != 0;
}
