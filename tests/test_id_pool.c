// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The id pool: slots are reused through the free list, generations make old ids stale, and random
// alloc/release sequences agree with a brute-force model of which ids are live.
#include "test.h"

#include "phys/id_pool.h"

#define POOL_MODEL_SLOTS 64
#define POOL_MODEL_OPS 2000

static int id_pool_reuse_and_stale(void)
{
    ph_id_pool pool;
    ph_id_pool_create(&pool);
    int a = ph_id_pool_alloc(&pool), b = ph_id_pool_alloc(&pool);
    ENSURE(a == 0 && b == 1);
    uint32_t gen_a = ph_id_pool_generation(&pool, a);
    ENSURE(ph_id_pool_check(&pool, (uint32_t)a + 1u, gen_a));
    ph_id_pool_release(&pool, a);
    ENSURE(!ph_id_pool_check(&pool, (uint32_t)a + 1u, gen_a));
    int c = ph_id_pool_alloc(&pool);
    ENSURE(c == a); // reused
    ENSURE(ph_id_pool_generation(&pool, c) != gen_a);
    ENSURE(!ph_id_pool_check(&pool, (uint32_t)a + 1u, gen_a)); // the old id stays stale
    ENSURE(!ph_id_pool_check(&pool, 0, 0));
    ENSURE(!ph_id_pool_check(&pool, 1000, 1));
    ENSURE(pool.live_count == 2);
    ph_id_pool_destroy(&pool);
    return 0;
}

static int id_pool_random_against_model(void)
{
    uint64_t rng = test_seed();
    ph_id_pool pool;
    ph_id_pool_create(&pool);
    bool live[POOL_MODEL_SLOTS * 4] = {false};
    uint32_t gen[POOL_MODEL_SLOTS * 4] = {0};
    int live_count = 0;
    for (int op = 0; op < POOL_MODEL_OPS; op++)
    {
        bool do_alloc = live_count == 0 || (live_count < POOL_MODEL_SLOTS && (test_rand_u64(&rng) & 1u));
        if (do_alloc)
        {
            int s = ph_id_pool_alloc(&pool);
            ENSURE(s >= 0 && s < POOL_MODEL_SLOTS * 4);
            ENSURE(!live[s]);
            live[s] = true;
            gen[s] = ph_id_pool_generation(&pool, s);
            live_count++;
        }
        else
        {
            int pick = (int)(test_rand_u64(&rng) % (uint64_t)live_count);
            for (int s = 0; s < pool.slot_count; s++)
            {
                if (live[s] && pick-- == 0)
                {
                    ph_id_pool_release(&pool, s);
                    ENSURE(!ph_id_pool_check(&pool, (uint32_t)s + 1u, gen[s]));
                    live[s] = false;
                    live_count--;
                    break;
                }
            }
        }
        ENSURE(pool.live_count == live_count);
    }
    for (int s = 0; s < pool.slot_count; s++)
        ENSURE(ph_id_pool_is_live(&pool, s) == live[s]);
    ph_id_pool_destroy(&pool);
    return 0;
}

const test_case test_id_pool_cases[] = {
    {"id_pool_reuse_and_stale", id_pool_reuse_and_stale},
    {"id_pool_random_against_model", id_pool_random_against_model},
    {0},
};
