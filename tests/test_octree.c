// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Octree broadphase tests against the brute-force references in tests/reference/brute_pairs.c: pair
// sets on random scenes of static, slow, fast (swept), far-away and non-finite bodies through many
// moves, removals and re-insertions; box, frustum and ray queries; deterministic order; structure
// validation and the memory count.
#include "reference/brute_pairs.h"
#include "test.h"

#include "phys/core.h"
#include "phys/octree.h"

#include <stdlib.h> // qsort
#include <string.h> // memset, memcmp

// A random scene of up to MAX_BODIES bodies indexed by body index.
#define MAX_BODIES 700
#define MAX_PAIRS 40000
// Bodies move by this much per round when slow, and sweep this far when fast (1000 m/s over a 1/60 s
// step is 16.7 m) (unit: m).
#define SLOW_STEP 0.3f
#define FAST_SWEEP 17.0f
// Scene extent: bodies are placed in +- SCENE_HALF (unit: m).
#define SCENE_HALF 40.0f
// Far away: beyond the largest root, so these bodies live in the outside list (unit: m).
#define FAR_AWAY 5.0e6f

typedef struct scene
{
    ph_octree tree;
    ph_aabb bounds[MAX_BODIES];
    bool live[MAX_BODIES];
    bool is_static[MAX_BODIES];
    uint8_t active[MAX_BODIES];
    int proxy[MAX_BODIES];
    int count;
    uint64_t rng;
} scene;

static ph_aabb box_at(ph_vec3 c, ph_vec3 h)
{
    ph_aabb b;
    b.lo = glms_vec3_sub(c, h);
    b.hi = glms_vec3_add(c, h);
    return b;
}

// Bounds of a body: mostly small boxes; some large slabs; some fast (swept along a random
// direction); a few far away or non-finite.
static ph_aabb random_bounds(uint64_t *rng, bool is_static)
{
    float kind = test_rand_float(rng, 0.0f, 1.0f);
    ph_vec3 c = test_rand_vec3(rng, -SCENE_HALF, SCENE_HALF);
    ph_vec3 h = test_rand_vec3(rng, 0.05f, 1.0f);
    if (is_static && kind < 0.2f)
        h = ph_v3(test_rand_float(rng, 5.0f, 60.0f), 0.5f, test_rand_float(rng, 5.0f, 60.0f));
    ph_aabb b = box_at(c, h);
    if (!is_static && kind < 0.15f)
    {
        ph_vec3 sweep = glms_vec3_scale(glms_vec3_normalize(test_rand_vec3(rng, -1.0f, 1.0f)), FAST_SWEEP);
        ph_aabb end = box_at(glms_vec3_add(c, sweep), h);
        b.lo = glms_vec3_minv(b.lo, end.lo);
        b.hi = glms_vec3_maxv(b.hi, end.hi);
    }
    else if (kind > 0.985f)
    {
        b = box_at(ph_v3(FAR_AWAY * test_rand_float(rng, -1.0f, 1.0f), FAR_AWAY, 0.0f), h);
    }
    else if (kind > 0.98f)
    {
        b.lo.x = NAN;
    }
    return b;
}

static void scene_add(scene *s, int i, bool is_static)
{
    s->bounds[i] = random_bounds(&s->rng, is_static);
    s->is_static[i] = is_static;
    s->live[i] = true;
    s->active[i] = test_rand_float(&s->rng, 0.0f, 1.0f) < 0.8f;
    s->proxy[i] = ph_octree_insert(&s->tree, i, s->bounds[i], is_static);
}

static void scene_init(scene *s, int count, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    ph_octree_create(&s->tree);
    s->rng = seed;
    s->count = count;
    for (int i = 0; i < count; i++)
        scene_add(s, i, test_rand_float(&s->rng, 0.0f, 1.0f) < 0.2f);
}

// One round: move every dynamic body (slow drift, or a new random place or sweep), remove some,
// re-insert some removed ones, and flip some active flags.
static int scene_round(scene *s)
{
    for (int i = 0; i < s->count; i++)
    {
        if (!s->live[i])
        {
            if (test_rand_float(&s->rng, 0.0f, 1.0f) < 0.3f)
                scene_add(s, i, test_rand_float(&s->rng, 0.0f, 1.0f) < 0.2f);
            continue;
        }
        float r = test_rand_float(&s->rng, 0.0f, 1.0f);
        if (r < 0.05f)
        {
            ph_octree_remove(&s->tree, s->proxy[i]);
            s->live[i] = false;
            continue;
        }
        if (s->is_static[i])
            continue;
        if (r < 0.25f)
        {
            s->bounds[i] = random_bounds(&s->rng, false);
        }
        else
        {
            ph_vec3 d = test_rand_vec3(&s->rng, -SLOW_STEP, SLOW_STEP);
            s->bounds[i].lo = glms_vec3_add(s->bounds[i].lo, d);
            s->bounds[i].hi = glms_vec3_add(s->bounds[i].hi, d);
        }
        ENSURE(ph_octree_move(&s->tree, s->proxy[i], s->bounds[i]) == PH_OK);
        if (r > 0.9f)
            s->active[i] = (uint8_t)!s->active[i];
    }
    return 0;
}

static brute_bodies scene_bodies(const scene *s)
{
    brute_bodies b = {s->bounds, s->live, s->is_static, s->active, s->count};
    return b;
}

static brute_pair s_expected[MAX_PAIRS];

// The octree's pairs equal brute force exactly, element by element (same set, same sorted order).
static int check_pairs(scene *s, const uint8_t *active)
{
    brute_bodies bodies = scene_bodies(s);
    bodies.active = active;
    int expected = brute_pairs(&bodies, s_expected, MAX_PAIRS);
    ENSURE(expected <= MAX_PAIRS);
    const ph_octree_pair *pairs;
    int n = ph_octree_find_pairs(&s->tree, active, &pairs);
    if (n != expected)
        fprintf(stderr, "octree found %d pairs, brute force %d\n", n, expected);
    ENSURE(n == expected);
    for (int i = 0; i < n; i++)
    {
        if (pairs[i].a != s_expected[i].a || pairs[i].b != s_expected[i].b)
            fprintf(stderr, "pair %d: octree (%d, %d), brute force (%d, %d)\n", i, pairs[i].a, pairs[i].b,
                    s_expected[i].a, s_expected[i].b);
        ENSURE(pairs[i].a == s_expected[i].a && pairs[i].b == s_expected[i].b);
    }
    return 0;
}

static int octree_pairs_equal_brute_force(void)
{
    static scene s;
    size_t bytes_before = ph_byte_count();
    uint64_t seed = test_seed();
    scene_init(&s, 600, seed);
    ENSURE(ph_octree_validate(&s.tree));
    ENSURE(check_pairs(&s, s.active) == 0);
    ENSURE(check_pairs(&s, NULL) == 0);
    int outside_seen = 0;
    for (int round = 0; round < 40; round++)
    {
        ENSURE(scene_round(&s) == 0);
        ENSURE(ph_octree_validate(&s.tree));
        outside_seen += s.tree.outside_count > 0;
        ENSURE(check_pairs(&s, round % 5 == 4 ? NULL : s.active) == 0);
    }
    // The scene did exercise the outside list (far and non-finite bodies) and re-insertion.
    ENSURE(outside_seen > 0);
    ENSURE(s.tree.reinsert_count > 0);
    ph_octree_destroy(&s.tree);
    ENSURE(ph_byte_count() == bytes_before);
    return 0;
}

// A dense pile of equal boxes touching face to face (the pyramid case): exact touching counts.
static int octree_grid_touching_pairs(void)
{
    static scene s;
    memset(&s, 0, sizeof s);
    ph_octree_create(&s.tree);
    const int side = 8;
    for (int i = 0; i < side * side * side; i++)
    {
        ph_vec3 c = ph_v3((float)(i % side), (float)((i / side) % side), (float)(i / (side * side)));
        s.bounds[i] = box_at(c, ph_v3(0.5f, 0.5f, 0.5f));
        s.live[i] = true;
        s.active[i] = 1;
        s.proxy[i] = ph_octree_insert(&s.tree, i, s.bounds[i], false);
    }
    s.count = side * side * side;
    ENSURE(check_pairs(&s, NULL) == 0);
    // Touching faces, edges and corners all count: 26-neighbourhood pairs of an 8^3 grid.
    // Per axis, neighbour offsets (-1, 0, 1) give n, n - 1 pairs of positions; the count of unordered
    // neighbour pairs is ((3n - 2)^3 - n^3) / 2.
    const ph_octree_pair *pairs;
    int n = ph_octree_find_pairs(&s.tree, NULL, &pairs);
    int expected = ((3 * side - 2) * (3 * side - 2) * (3 * side - 2) - side * side * side) / 2;
    ENSURE(n == expected);
    ph_octree_destroy(&s.tree);
    return 0;
}

// The pairs do not depend on insertion order or on the tree's history: a tree rebuilt from scratch in
// reverse order gives the same array, and two identical histories give identical trees.
static int octree_deterministic_order(void)
{
    static scene a, b;
    scene_init(&a, 400, test_seed() + 1);
    scene_init(&b, 400, test_seed() + 1);
    for (int round = 0; round < 10; round++)
    {
        ENSURE(scene_round(&a) == 0);
        ENSURE(scene_round(&b) == 0);
    }
    const ph_octree_pair *pa, *pb;
    int na = ph_octree_find_pairs(&a.tree, a.active, &pa);
    int nb = ph_octree_find_pairs(&b.tree, b.active, &pb);
    ENSURE(na == nb && na > 0);
    ENSURE(memcmp(pa, pb, (size_t)na * sizeof *pa) == 0);
    ENSURE(a.tree.node_count == b.tree.node_count);

    ph_octree fresh;
    ph_octree_create(&fresh);
    for (int i = a.count - 1; i >= 0; i--)
    {
        if (a.live[i])
            ENSURE(ph_octree_insert(&fresh, i, a.bounds[i], a.is_static[i]) >= 0);
    }
    const ph_octree_pair *pf;
    int nf = ph_octree_find_pairs(&fresh, a.active, &pf);
    na = ph_octree_find_pairs(&a.tree, a.active, &pa);
    ENSURE(nf == na);
    ENSURE(memcmp(pa, pf, (size_t)na * sizeof *pa) == 0);
    ph_octree_destroy(&fresh);
    ph_octree_destroy(&a.tree);
    ph_octree_destroy(&b.tree);
    return 0;
}

typedef struct collected
{
    int items[MAX_BODIES];
    int count;
    int stop_after; // the callback stops the query after this many (0: never)
} collected;

static bool collect(int body_index, void *ctx)
{
    collected *c = ctx;
    if (c->count < MAX_BODIES)
        c->items[c->count] = body_index;
    c->count++;
    return c->stop_after == 0 || c->count < c->stop_after;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int same_set(collected *c, const int *expected, int n)
{
    if (c->count != n)
        fprintf(stderr, "the octree reported %d bodies, brute force %d\n", c->count, n);
    ENSURE(c->count == n);
    qsort(c->items, (size_t)c->count, sizeof(int), cmp_int);
    for (int i = 0; i < n; i++)
        ENSURE(c->items[i] == expected[i]);
    return 0;
}

// Steps of a resting scene: every dynamic body jitters by a millimetre, so it stays in its node and the
// tree's layout does not change; find_pairs then refits the packing in place instead of packing afresh.
// Pairs, box queries (pruned by the refitted tight bounds) and paired flags must still be exact, also
// when active flags flip, and a body that does leave its node must make the next search pack again.
static int octree_unchanged_layout_refits_in_place(void)
{
    static scene s;
    static int expected[MAX_BODIES];
    scene_init(&s, 600, test_seed() + 7);
    ENSURE(check_pairs(&s, s.active) == 0);
    int repacks = s.tree.repack_count, in_place = 0;
    for (int round = 0; round < 30; round++)
    {
        int reinserts = s.tree.reinsert_count;
        for (int i = 0; i < s.count; i++)
        {
            // Bodies in the outside list (far away or not finite) stay where they are.
            if (!s.live[i] || s.is_static[i] || !(fabsf(s.bounds[i].lo.y) < 0.5f * FAR_AWAY))
                continue;
            ph_vec3 d = test_rand_vec3(&s.rng, -0.001f, 0.001f);
            s.bounds[i].lo = glms_vec3_add(s.bounds[i].lo, d);
            s.bounds[i].hi = glms_vec3_add(s.bounds[i].hi, d);
            ENSURE(ph_octree_move(&s.tree, s.proxy[i], s.bounds[i]) == PH_OK);
            if (test_rand_float(&s.rng, 0.0f, 1.0f) < 0.05f)
                s.active[i] = (uint8_t)!s.active[i];
        }
        ENSURE(check_pairs(&s, round % 3 == 2 ? NULL : s.active) == 0);
        // Packed afresh exactly when a body changed node.
        bool moved_node = s.tree.reinsert_count != reinserts;
        ENSURE(s.tree.repack_count == repacks + (moved_node ? 1 : 0));
        in_place += !moved_node;
        repacks = s.tree.repack_count;
        ENSURE(ph_octree_validate(&s.tree));
        for (int i = 0; i < s.count; i++)
        {
            if (s.live[i])
                ENSURE(ph_octree_pairs_complete(&s.tree, s.proxy[i]) ==
                       (!s.is_static[i] && (round % 3 == 2 || s.active[i]) && isfinite(s.bounds[i].lo.x)));
        }
        brute_bodies bodies = scene_bodies(&s);
        for (int q = 0; q < 20; q++)
        {
            ph_aabb box =
                box_at(test_rand_vec3(&s.rng, -SCENE_HALF, SCENE_HALF), test_rand_vec3(&s.rng, 0.1f, 15.0f));
            collected c = {.count = 0};
            ph_octree_query_box(&s.tree, box, collect, &c);
            ENSURE(same_set(&c, expected, brute_query_box(&bodies, box, expected, MAX_BODIES)) == 0);
        }
    }
    ENSURE(in_place >= 15);
    ph_octree_destroy(&s.tree);
    return 0;
}

static int octree_box_and_frustum_queries(void)
{
    static scene s;
    static int expected[MAX_BODIES];
    scene_init(&s, 500, test_seed() + 2);
    for (int round = 0; round < 5; round++)
        ENSURE(scene_round(&s) == 0);
    brute_bodies bodies = scene_bodies(&s);
    uint64_t rng = test_seed() + 3;
    // The first half of the queries prune with the loose bounds (proxies moved since the last pair
    // search), the second half with the tight bounds that find_pairs refits.
    for (int q = 0; q < 400; q++)
    {
        if (q == 200)
        {
            const ph_octree_pair *pairs;
            ENSURE(!s.tree.tight_valid);
            ENSURE(ph_octree_find_pairs(&s.tree, s.active, &pairs) >= 0);
            ENSURE(s.tree.tight_valid);
        }
        ph_aabb box =
            box_at(test_rand_vec3(&rng, -SCENE_HALF, SCENE_HALF), test_rand_vec3(&rng, 0.1f, 15.0f));
        if (q == 0)
            box = box_at(ph_v3(0.0f, 0.0f, 0.0f), ph_v3(1e7f, 1e7f, 1e7f)); // everything finite
        collected c = {.count = 0};
        ph_octree_query_box(&s.tree, box, collect, &c);
        int n = brute_query_box(&bodies, box, expected, MAX_BODIES);
        ENSURE(same_set(&c, expected, n) == 0);

        // A frustum: a box of 6 planes around a random centre, tilted by a random rotation.
        ph_quat rot = test_rand_quat(&rng);
        ph_vec3 centre = test_rand_vec3(&rng, -SCENE_HALF, SCENE_HALF);
        float extent = test_rand_float(&rng, 2.0f, 30.0f);
        ph_vec4 planes[6];
        for (int k = 0; k < 6; k++)
        {
            ph_vec3 axis =
                ph_v3(k / 2 == 0 ? 1.0f : 0.0f, k / 2 == 1 ? 1.0f : 0.0f, k / 2 == 2 ? 1.0f : 0.0f);
            ph_vec3 n_in = glms_quat_rotatev(rot, glms_vec3_scale(axis, (k & 1) ? -1.0f : 1.0f));
            // Inside: dot(n_in, x - centre) + extent >= 0.
            planes[k] = (ph_vec4){{n_in.x, n_in.y, n_in.z, extent - glms_vec3_dot(n_in, centre)}};
        }
        collected f = {.count = 0};
        ph_octree_query_frustum(&s.tree, planes, collect, &f);
        n = brute_query_frustum(&bodies, planes, expected, MAX_BODIES);
        ENSURE(same_set(&f, expected, n) == 0);
    }
    // A callback that returns false stops the query at once.
    collected c = {.count = 0, .stop_after = 3};
    ph_octree_query_box(&s.tree, box_at(ph_v3(0, 0, 0), ph_v3(1e7f, 1e7f, 1e7f)), collect, &c);
    ENSURE(c.count == 3);
    ph_octree_destroy(&s.tree);
    return 0;
}

// Ray state: every candidate the octree offers, and the closest entry distance for the clipping test.
typedef struct ray_state
{
    const scene *s;
    collected hits;
    bool clip;
    float best;
} ray_state;

static float ray_candidate(int body_index, ph_vec3 origin, ph_vec3 dir, float max_distance, void *ctx)
{
    ray_state *r = ctx;
    collect(body_index, &r->hits);
    if (!r->clip)
        return max_distance;
    // The "shape" of each body is its box: the hit distance is the slab entry, from the reference.
    brute_bodies one = {&r->s->bounds[body_index], &r->s->live[body_index], &r->s->is_static[body_index],
                        NULL, 1};
    int idx;
    float t;
    if (brute_query_ray(&one, origin, dir, max_distance, &idx, &t, 1) == 1 && t < r->best)
    {
        r->best = t;
        return t;
    }
    return max_distance;
}

static int octree_ray_queries(void)
{
    static scene s;
    static int expected[MAX_BODIES], loose[MAX_BODIES];
    static float expected_t[MAX_BODIES];
    static ph_aabb inflated[MAX_BODIES];
    // Bounds grown by this much decide whether a grazing candidate is a fair answer (unit: m).
    const float graze = 1e-3f;
    scene_init(&s, 500, test_seed() + 4);
    for (int round = 0; round < 5; round++)
        ENSURE(scene_round(&s) == 0);
    brute_bodies bodies = scene_bodies(&s);
    for (int i = 0; i < s.count; i++)
    {
        inflated[i].lo = glms_vec3_subs(s.bounds[i].lo, graze);
        inflated[i].hi = glms_vec3_adds(s.bounds[i].hi, graze);
    }
    brute_bodies grown = bodies;
    grown.bounds = inflated;
    uint64_t rng = test_seed() + 5;
    for (int q = 0; q < 600; q++)
    {
        if (q == 300)
        {
            const ph_octree_pair *pairs;
            ENSURE(ph_octree_find_pairs(&s.tree, s.active, &pairs) >= 0);
            ENSURE(s.tree.tight_valid);
        }
        ph_vec3 origin = test_rand_vec3(&rng, -1.5f * SCENE_HALF, 1.5f * SCENE_HALF);
        ph_vec3 dir = glms_vec3_normalize(test_rand_vec3(&rng, -1.0f, 1.0f));
        if (q % 10 == 0)
            dir = ph_v3(0.0f, q % 20 == 0 ? -1.0f : 1.0f, 0.0f); // axis-parallel: zero components
        float max_t = test_rand_float(&rng, 1.0f, 150.0f);

        // All candidates: every body the exact ray touches is offered, and nothing beyond a graze.
        ray_state r = {.s = &s, .clip = false, .best = max_t};
        ph_octree_cast_ray(&s.tree, origin, dir, max_t, ray_candidate, &r);
        int n = brute_query_ray(&bodies, origin, dir, max_t, expected, expected_t, MAX_BODIES);
        int n_loose = brute_query_ray(&grown, origin, dir, max_t, loose, NULL, MAX_BODIES);
        qsort(r.hits.items, (size_t)r.hits.count, sizeof(int), cmp_int);
        for (int i = 0; i < n; i++)
            ENSURE(bsearch(&expected[i], r.hits.items, (size_t)r.hits.count, sizeof(int), cmp_int) != NULL);
        for (int i = 0; i < r.hits.count; i++)
            ENSURE(bsearch(&r.hits.items[i], loose, (size_t)n_loose, sizeof(int), cmp_int) != NULL);

        // Closest hit with clipping equals the brute-force minimum entry distance.
        ray_state c = {.s = &s, .clip = true, .best = max_t};
        ph_octree_cast_ray(&s.tree, origin, dir, max_t, ray_candidate, &c);
        float best = max_t;
        for (int i = 0; i < n; i++)
            best = expected_t[i] < best ? expected_t[i] : best;
        ENSURE_NEAR(c.best, best, 1e-4f);
        ENSURE(c.hits.count <= r.hits.count);
    }
    ph_octree_destroy(&s.tree);
    return 0;
}

// Small moves inside a node do not re-insert; growing the root keeps every body; a body beyond the
// largest root is still paired; non-finite bounds never crash and pair with nothing.
static int octree_moves_and_growth(void)
{
    size_t bytes_before = ph_byte_count();
    ph_octree t;
    ph_octree_create(&t);
    ph_vec3 h = ph_v3(0.5f, 0.5f, 0.5f);
    int ground = ph_octree_insert(&t, 0, box_at(ph_v3(0, -1, 0), ph_v3(400, 1, 400)), true);
    int box = ph_octree_insert(&t, 1, box_at(ph_v3(0.3f, 0.5f, 0.2f), h), false);
    ENSURE(ground >= 0 && box >= 0);
    ENSURE(ph_octree_insert(&t, -1, box_at(ph_v3(0, 0, 0), h), false) == -1);
    ENSURE(ph_octree_validate(&t));
    int before = t.reinsert_count;
    for (int i = 0; i < 10; i++)
        ENSURE(ph_octree_move(&t, box, box_at(ph_v3(0.3f + 0.001f * (float)i, 0.5f, 0.2f), h)) == PH_OK);
    ENSURE(t.reinsert_count == before);

    // Fly the box away through the growing root, beyond the largest root, and back.
    const ph_octree_pair *pairs;
    float far[] = {50.0f, 5000.0f, 5.0e5f, 3.0e6f, 1.0e9f, 20.0f};
    for (int i = 0; i < 6; i++)
    {
        ENSURE(ph_octree_move(&t, box, box_at(ph_v3(far[i], far[i], 0.0f), h)) == PH_OK);
        ENSURE(ph_octree_validate(&t));
        int n = ph_octree_find_pairs(&t, NULL, &pairs);
        ENSURE(n == 0);
    }
    ENSURE(t.outside_count == 0);
    int other = ph_octree_insert(&t, 2, box_at(ph_v3(20.5f, 20.0f, 0.0f), h), false);
    int n = ph_octree_find_pairs(&t, NULL, &pairs);
    ENSURE(n == 1 && pairs[0].a == 1 && pairs[0].b == 2);
    // Two far bodies in the outside list meet each other and a swept body reaching them.
    ENSURE(ph_octree_move(&t, box, box_at(ph_v3(4e6f, 0, 0), h)) == PH_OK);
    ENSURE(ph_octree_move(&t, other, box_at(ph_v3(4e6f + 0.5f, 0, 0), h)) == PH_OK);
    ENSURE(t.outside_count == 2);
    n = ph_octree_find_pairs(&t, NULL, &pairs);
    ENSURE(n == 1 && pairs[0].a == 1 && pairs[0].b == 2);
    ph_aabb sweep = {{{-1.0f, -0.5f, -0.5f}}, {{4.1e6f, 0.5f, 0.5f}}};
    int bullet = ph_octree_insert(&t, 3, sweep, false);
    ENSURE(!ph_octree_pairs_complete(&t, bullet)); // inserted after the last search
    n = ph_octree_find_pairs(&t, NULL, &pairs);
    ENSURE(n == 4); // (0,3) ground, (1,2), (1,3), (2,3)
    ENSURE(pairs[0].a == 0 && pairs[0].b == 3 && pairs[1].a == 1 && pairs[1].b == 2);
    // The answer holds all pairs of the active proxies (the outside ones too), none of a static one's.
    ENSURE(ph_octree_pairs_complete(&t, bullet) && ph_octree_pairs_complete(&t, box));
    ENSURE(ph_octree_pairs_complete(&t, other) && !ph_octree_pairs_complete(&t, ground));
    uint8_t active[4] = {0, 0, 1, 0};
    ENSURE(ph_octree_find_pairs(&t, active, &pairs) == 2); // (1,2), (2,3)
    ENSURE(!ph_octree_pairs_complete(&t, box) && !ph_octree_pairs_complete(&t, bullet));
    ENSURE(ph_octree_pairs_complete(&t, other));
    ENSURE(ph_octree_move(&t, other, box_at(ph_v3(4e6f + 0.5f, 0, 0), h)) == PH_OK);
    ENSURE(!ph_octree_pairs_complete(&t, other) && !ph_octree_pairs_complete(&t, bullet));
    ENSURE(!ph_octree_pairs_complete(&t, 99));
    // Non-finite bounds: kept, never paired, removable.
    ph_aabb bad = {{{NAN, 0, 0}}, {{1, 1, 1}}};
    ENSURE(ph_octree_move(&t, bullet, bad) == PH_OK);
    ENSURE(ph_octree_validate(&t));
    n = ph_octree_find_pairs(&t, NULL, &pairs);
    ENSURE(n == 1);
    ENSURE(!ph_octree_pairs_complete(&t, bullet) && ph_octree_pairs_complete(&t, other));
    ENSURE(ph_octree_move(&t, 99, bad) == PH_ERR_INVALID_ARG);
    ENSURE(ph_octree_move(&t, -1, bad) == PH_ERR_INVALID_ARG);
    ph_octree_remove(&t, bullet);
    ENSURE(ph_octree_move(&t, bullet, bad) == PH_ERR_INVALID_ARG);
    ENSURE(ph_octree_get_body(&t, bullet) == -1);
    ENSURE(ph_octree_validate(&t));
    ph_octree_destroy(&t);
    ENSURE(ph_byte_count() == bytes_before);
    return 0;
}

static bool count_hits(int body_index, void *ctx)
{
    (void)body_index;
    (*(int *)ctx)++;
    return true;
}

// A tree whose only proxy moves far away: the empty root starts over instead of becoming a child.
static int octree_lone_body_travels(void)
{
    size_t bytes_before = ph_byte_count();
    ph_octree t;
    ph_octree_create(&t);
    ph_vec3 h = ph_v3(0.5f, 0.5f, 0.5f);
    int p = ph_octree_insert(&t, 4, box_at(ph_v3(1, 1, 1), h), false);
    ENSURE(p >= 0);
    float path[] = {900.0f, -3.0e5f, 2.0f, 7.0e6f, -40.0f};
    for (int i = 0; i < 5; i++)
    {
        ENSURE(ph_octree_move(&t, p, box_at(ph_v3(path[i], 0.5f * path[i], 1.0f), h)) == PH_OK);
        ENSURE(ph_octree_validate(&t));
        const ph_octree_pair *pairs;
        ENSURE(ph_octree_find_pairs(&t, NULL, &pairs) == 0);
        int found = 0;
        ph_octree_query_box(&t, box_at(ph_v3(path[i], 0.5f * path[i], 1.0f), h), count_hits, &found);
        ENSURE(found == 1);
    }
    ph_octree_remove(&t, p);
    ENSURE(ph_octree_validate(&t));
    ph_octree_destroy(&t);
    ENSURE(ph_byte_count() == bytes_before);
    return 0;
}

typedef struct walk_state
{
    int proxies;
    int nodes;
    int max_depth;
} walk_state;

static void walk_node(ph_aabb loose, int depth, int proxy_count, void *ctx)
{
    walk_state *w = ctx;
    (void)loose;
    w->proxies += proxy_count;
    w->nodes++;
    w->max_depth = depth > w->max_depth ? depth : w->max_depth;
}

// The debug walk reports every proxy in the tree once, and a proxy's node depth follows its size.
static int octree_walk_reports_every_proxy(void)
{
    static scene s;
    scene_init(&s, 300, test_seed() + 6);
    walk_state w = {0, 0, 0};
    ph_octree_walk(&s.tree, walk_node, &w);
    ENSURE(w.proxies + s.tree.outside_count == s.tree.live_proxies);
    ENSURE(w.nodes > 1 && w.max_depth > 2);
    ph_octree_destroy(&s.tree);
    return 0;
}

// ph_octree_box_meets_other against brute force: boxes about each live body's bounds (which meet its own
// proxy), grown by random amounts, and random boxes.
static int meets_other_matches_brute(const scene *s, uint64_t *rng)
{
    static int found[MAX_BODIES];
    brute_bodies bodies = scene_bodies(s);
    int checked = 0;
    for (int i = 0; i < s->count; i++)
    {
        if (!s->live[i] || !isfinite(s->bounds[i].lo.x))
            continue;
        float g = test_rand_float(rng, 0.0f, 4.0f);
        ph_aabb box = {glms_vec3_subs(s->bounds[i].lo, g), glms_vec3_adds(s->bounds[i].hi, g)};
        if (i % 3 == 0)
            box = box_at(test_rand_vec3(rng, -SCENE_HALF, SCENE_HALF), test_rand_vec3(rng, 0.1f, 10.0f));
        int n = brute_query_box(&bodies, box, found, MAX_BODIES);
        bool other = false;
        for (int k = 0; k < n; k++)
            other |= found[k] != i;
        ENSURE(ph_octree_box_meets_other(&s->tree, box, i) == other);
        checked++;
    }
    ENSURE(checked > 0);
    return 0;
}

// A tree of at most PH_OCTREE_FLAT_MAX proxies is flat: the pair search tests all pairs of the packed array
// and a box query scans it. Through many rounds of moves, removals and re-insertions (far and non-finite
// bodies included) the pairs must equal brute force, and a box query must report the same bodies in the
// same order as the walk of the tree's nodes (the loose query, before the search, and the flat scan after).
static int octree_small_tree_is_flat(void)
{
    static scene s;
    static collected before, after;
    static int expected[MAX_BODIES];
    int flat_rounds = 0, outside_rounds = 0;
    for (int seed = 0; seed < 8; seed++)
    {
        scene_init(&s, PH_OCTREE_FLAT_MAX, test_seed() + 40 + (uint64_t)seed);
        for (int round = 0; round < 30; round++)
        {
            ENSURE(scene_round(&s) == 0);
            ENSURE(!s.tree.pairs_valid); // moved: no flat scan until the next search
            uint64_t rng = s.rng;
            ph_aabb boxes[8];
            for (int q = 0; q < 8; q++)
                boxes[q] = box_at(test_rand_vec3(&rng, -SCENE_HALF, SCENE_HALF),
                                  test_rand_vec3(&rng, 5.0f, 2.0f * SCENE_HALF));
            boxes[0] = box_at(ph_v3(0.0f, 0.0f, 0.0f), ph_v3(1e7f, 1e7f, 1e7f)); // every finite proxy
            before.count = 0;
            for (int q = 0; q < 8; q++)
                ph_octree_query_box(&s.tree, boxes[q], collect, &before);
            ENSURE(check_pairs(&s, round % 4 == 3 ? NULL : s.active) == 0);
            ENSURE(s.tree.flat_valid == (s.tree.live_proxies <= PH_OCTREE_FLAT_MAX));
            flat_rounds += s.tree.flat_valid;
            outside_rounds += s.tree.flat_valid && s.tree.outside_count > 0;
            after.count = 0;
            for (int q = 0; q < 8; q++)
                ph_octree_query_box(&s.tree, boxes[q], collect, &after);
            ENSURE(after.count == before.count && after.count < MAX_BODIES);
            ENSURE(memcmp(after.items, before.items, (size_t)after.count * sizeof(int)) == 0);
            brute_bodies bodies = scene_bodies(&s);
            collected one = {.count = 0};
            ph_octree_query_box(&s.tree, boxes[1], collect, &one);
            ENSURE(same_set(&one, expected, brute_query_box(&bodies, boxes[1], expected, MAX_BODIES)) == 0);
            ENSURE(meets_other_matches_brute(&s, &rng) == 0);
            ENSURE(ph_octree_validate(&s.tree));
        }
        ph_octree_destroy(&s.tree);
    }
    ENSURE(flat_rounds == 8 * 30 && outside_rounds > 0);
    // A larger tree is not flat.
    scene_init(&s, PH_OCTREE_FLAT_MAX + 1, test_seed() + 50);
    ENSURE(check_pairs(&s, NULL) == 0);
    ENSURE(!s.tree.flat_valid && s.tree.tight_valid);
    uint64_t rng = test_seed() + 51;
    ENSURE(meets_other_matches_brute(&s, &rng) == 0);
    // Removing a proxy of the outside list keeps the layout: the tree turns flat without a packing that
    // recorded the packed proxies, and must still answer in full.
    int far = -1;
    for (int i = 0; i < s.count; i++)
        if (s.live[i] && !s.is_static[i] && far < 0)
            far = i;
    ENSURE(far >= 0);
    s.bounds[far] = box_at(ph_v3(0.0f, FAR_AWAY, 0.0f), ph_v3(1.0f, 1.0f, 1.0f));
    ENSURE(ph_octree_move(&s.tree, s.proxy[far], s.bounds[far]) == PH_OK);
    ENSURE(s.tree.outside_count >= 1 && s.tree.live_proxies == PH_OCTREE_FLAT_MAX + 1);
    ENSURE(check_pairs(&s, NULL) == 0);
    ph_octree_remove(&s.tree, s.proxy[far]);
    s.live[far] = false;
    ENSURE(s.tree.packing_valid);
    for (int round = 0; round < 3; round++)
    {
        ENSURE(check_pairs(&s, round == 1 ? NULL : s.active) == 0);
        ENSURE(s.tree.flat_valid);
        ENSURE(meets_other_matches_brute(&s, &rng) == 0);
        for (int i = 0; i < s.count; i++)
        {
            if (!s.live[i] || s.is_static[i] || !isfinite(s.bounds[i].lo.x))
                continue;
            s.bounds[i].lo.x -= 0.01f; // a small move keeps the proxy in its node
            ENSURE(ph_octree_move(&s.tree, s.proxy[i], s.bounds[i]) == PH_OK);
        }
    }
    ph_octree_destroy(&s.tree);
    return 0;
}

const test_case test_octree_cases[] = {
    {"octree_pairs_equal_brute_force", octree_pairs_equal_brute_force},
    {"octree_grid_touching_pairs", octree_grid_touching_pairs},
    {"octree_deterministic_order", octree_deterministic_order},
    {"octree_box_and_frustum_queries", octree_box_and_frustum_queries},
    {"octree_ray_queries", octree_ray_queries},
    {"octree_moves_and_growth", octree_moves_and_growth},
    {"octree_walk_reports_every_proxy", octree_walk_reports_every_proxy},
    {"octree_lone_body_travels", octree_lone_body_travels},
    {"octree_unchanged_layout_refits_in_place", octree_unchanged_layout_refits_in_place},
    {"octree_small_tree_is_flat", octree_small_tree_is_flat},
    {0},
};
