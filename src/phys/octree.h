// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The broadphase: a loose octree of body bounds (internal to the engine; world.c is its client).
// Each body has one proxy holding the bounds the caller gives, swept over the step for moving bodies,
// so a fast body meets every body it may reach this frame. A proxy sits in the deepest node whose loose
// bounds (twice the cell) hold it; it is re-inserted only when its bounds leave that node or shrink
// enough to fit a child. The root grows towards bodies that leave it, up to PH_OCTREE_MAX_ROOT_HALF;
// bodies beyond that (or with non-finite bounds) wait in an "outside" list that every query also
// scans, so no body is ever lost; a proxy with non-finite bounds (a body that blew up) takes part in no
// pair and no query until its bounds are finite again. Static proxies are never moved or re-tested against
// each other. The same tree answers pair finding, box, ray and frustum queries, and the debug walk. All
// answers are deterministic: the same calls in the same order give the same results in the same order. Memory
// comes from ph_alloc/ph_free; after warm-up (capacities reached) no call allocates.
#pragma once

#include "phys/base.h"
#include "phys/math.h"

#include <stdbool.h> // bool
#include <stdint.h>  // uint8_t, uint64_t

// Smallest cell half size: the depth limit. Bodies smaller than a cell share it (unit: m).
#define PH_OCTREE_MIN_HALF (1.0f / 32.0f)
// Root half size of a new tree, centred on the origin; it grows by doubling as bodies need (unit: m).
#define PH_OCTREE_INITIAL_HALF 16.0f
// The root stops growing here; bodies beyond wait in the outside list (unit: m).
#define PH_OCTREE_MAX_ROOT_HALF 1048576.0f
// Up to this many live proxies the tree is "flat": the pair search tests every pair of proxies and a box
// query scans them all, in the order of the tree's depth-first walk (a small world's dozen bodies sit in a
// chain of a dozen nodes, whose refit and descent cost several times the pairwise tests).
#define PH_OCTREE_FLAT_MAX 32

// A candidate pair of bodies whose proxies' bounds overlap: body indices a < b.
typedef struct ph_octree_pair
{
    int a, b;
} ph_octree_pair;

// Private: proxy and node storage; read only through the functions below. The proxy is defined here only
// so that ph_octree_live_bounds can be inlined into the calendar's inner loops.
typedef struct ph_octree_proxy
{
    ph_aabb bounds;
    int body;
    int node; // holding node, PROXY_OUTSIDE (-1) or PROXY_FREE (-2)
    int next; // next proxy of the same node or outside list; next free slot when free
    int prev;
    bool is_static;
    bool paired; // active in the last pair search, which then reported all of its pairs
} ph_octree_proxy;
typedef struct ph_octree_node ph_octree_node;
typedef struct ph_octree_packed ph_octree_packed;
typedef struct ph_octree_job ph_octree_job;
typedef struct ph_tasks ph_tasks;

// An overlapping pair a part of a split pair search met: the two proxies' packed indices.
typedef struct ph_octree_raw
{
    int a, b;
} ph_octree_raw;

typedef struct ph_octree
{
    ph_octree_proxy *proxies; // dense by proxy index; free slots chained through free_proxy
    int proxy_count;          // slots in use or free (the high-water mark)
    int proxy_capacity;
    int free_proxy; // head of the free slot list, -1 when none
    int live_proxies;
    ph_octree_node *nodes; // node 0 .. node_count - 1; free nodes chained through free_node
    int node_count;
    int node_capacity;
    int free_node;
    int root;         // node index, -1 before the first insertion
    int outside_head; // proxies outside the root (linked list), -1 when empty
    int outside_count;
    ph_octree_packed *packed; // proxies copied in depth-first order for the pair search
    int packed_capacity;
    int *packed_proxy; // the proxy index of each packed proxy (the tree's, then the outside list's)
    int packed_proxy_capacity;
    struct ph_octree_charge *charges; // per packed proxy: pairs charged to it in the last search
    int charge_capacity;
    int max_pairs_per_proxy; // pair caps of ph_octree_find_pairs (INT_MAX after ph_octree_create)
    int max_pairs;
    int pairs_dropped;      // pairs the last ph_octree_find_pairs dropped at a cap
    int packed_total;       // proxies packed by the last ph_octree_find_pairs, outside ones included
    uint64_t *pair_keys;    // one block: (a << 32 | b) keys while finding, scratch keys for sorting,
    uint64_t *pair_scratch; // and the last ph_octree_find_pairs answer
    ph_octree_pair *pairs;
    int pair_count;
    int pair_capacity;
    int *packed_order; // nodes in the depth-first order of the last packing (the refit's node list)
    int packed_order_count;
    int packed_order_capacity;
    // The split pair search (octree.c, find_pairs_split): the workers (NULL or one: no split), the parts of
    // the walk in its order, and each worker's overlapping pairs, raw_capacity of them from raw + w *
    // raw_capacity (every worker's room holds a whole search's: any worker may be given every part).
    const ph_tasks *tasks;
    ph_octree_job *jobs;
    int job_count, job_capacity;
    ph_octree_raw *raw;
    int raw_capacity;      // per worker
    int raw_workers;       // workers the block has room for
    int *raw_used;         // per worker: raw pairs recorded in this search (counted past the capacity)
    int reinsert_count;    // re-insertions by ph_octree_move since creation (statistics)
    int repack_count;      // find_pairs calls that packed the tree afresh since creation (statistics)
    bool tight_valid;      // no proxy changed since find_pairs refitted the nodes' tight bounds
    bool pairs_valid;      // ... and that find_pairs answered in full (not out of memory)
    bool packing_valid;    // no proxy was placed or unlinked since the last packing (its layout still holds)
    bool flat_valid;       // the last find_pairs was flat: while pairs_valid holds, box queries scan packed
    bool packing_recorded; // the last packing packed a flat tree (its layout can be refreshed in place)
} ph_octree;

// Initialises an empty tree (no allocation until the first insertion).
void ph_octree_create(ph_octree *tree);
// Frees everything the tree holds; the struct may be created again afterwards.
void ph_octree_destroy(ph_octree *tree);

// Adds a proxy for body body_index (>= 0, unique among live proxies) with the given bounds. Static
// proxies are never "active" in pair finding and never paired with each other; the world does not
// move them. Returns the proxy index (>= 0), or -1 when out of memory or body_index < 0 (the tree is then
// unchanged).
// When only a node could not be allocated the proxy is kept in the outside list: still correct.
int ph_octree_insert(ph_octree *tree, int body_index, ph_aabb bounds, bool is_static);
// Sets the proxy's bounds (swept over the coming step for moving bodies). Re-inserts only when the
// bounds leave the proxy's node or fit a child of it. Returns PH_ERR_INVALID_ARG for a free or
// out-of-range proxy (nothing changes), PH_ERR_OUT_OF_MEMORY when a needed node could not be
// allocated (the proxy is then valid with its new bounds, in the outside list), else PH_OK.
ph_status ph_octree_move(ph_octree *tree, int proxy, ph_aabb bounds);
// Removes the proxy; its index may be reused by a later insertion.
void ph_octree_remove(ph_octree *tree, int proxy);
ph_aabb ph_octree_get_bounds(const ph_octree *tree, int proxy);
// The bounds of a proxy the caller knows to be live (a live body's), without ph_octree_get_bounds's checks.
static inline const ph_aabb *ph_octree_live_bounds(const ph_octree *tree, int proxy)
{
    return &tree->proxies[proxy].bounds;
}
int ph_octree_get_body(const ph_octree *tree, int proxy);
// Whether the last ph_octree_find_pairs answer holds every pair of this proxy: the search succeeded, the
// proxy was active in it, and no proxy has been inserted, moved or removed since. Then any proxy whose
// bounds overlap this one's is paired with it in that answer.
bool ph_octree_pairs_complete(const ph_octree *tree, int proxy);

// Finds every pair of proxies whose bounds overlap (closed intervals: touching counts), except
// static-static pairs and pairs where neither body is active, up to two caps: a pair is charged to each
// active proxy of the two, and one whose active proxies all have max_pairs_per_proxy pairs already, or that
// would take the answer past max_pairs, is dropped (counted in pairs_dropped), the pairs met first in the
// tree's walk being kept, and both its proxies' pairs are then not complete (ph_octree_pairs_complete).
// At most max_pairs_per_proxy pairs per active proxy are kept in all. body_active is indexed by body
// index (NULL: every non-static proxy is active); a static proxy is never active whatever its flag says. The
// answer holds each pair once as body indices a < b, sorted by (a, b); it is owned by the tree and valid
// until the next call, insert, move, remove or destroy. Returns the pair count, or -1 when out of memory
// (then *out_pairs is NULL).
int ph_octree_find_pairs(ph_octree *tree, const uint8_t *body_active, const ph_octree_pair **out_pairs);

// Query callbacks receive the body index; returning false stops the query.
typedef bool ph_octree_query_fn(int body_index, void *ctx);
// Calls fn for every proxy whose bounds overlap box (closed intervals).
void ph_octree_query_box(const ph_octree *tree, ph_aabb box, ph_octree_query_fn *fn, void *ctx);
// Whether the bounds of any proxy of a body other than body_index overlap box (closed intervals), as
// ph_octree_query_box would report it.
bool ph_octree_box_meets_other(const ph_octree *tree, ph_aabb box, int body_index);
// Calls fn for every proxy whose bounds are not wholly outside one of the 6 planes (a, b, c, d),
// where a x + b y + c z + d >= 0 is inside (the usual conservative box-versus-frustum test).
void ph_octree_query_frustum(const ph_octree *tree, const ph_vec4 planes[6], ph_octree_query_fn *fn,
                             void *ctx);

// Ray callback: called for each proxy whose bounds the ray enters within the current maximum
// distance. It returns the new maximum distance: the hit distance to clip the ray (closest-hit
// search), the unchanged max_distance to go on, or a negative value to stop.
typedef float ph_octree_ray_fn(int body_index, ph_vec3 origin, ph_vec3 dir, float max_distance, void *ctx);
// Casts the ray origin + t dir, 0 <= t <= max_distance (dir need not be unit; t is in units of dir).
void ph_octree_cast_ray(const ph_octree *tree, ph_vec3 origin, ph_vec3 dir, float max_distance,
                        ph_octree_ray_fn *fn, void *ctx);

// Debug walk: calls fn for every node that holds proxies directly, with the node's loose bounds (the
// region its proxies may occupy), its depth (root 0) and its proxy count. The outside list is not
// a node and is not reported.
typedef void ph_octree_node_fn(ph_aabb loose_bounds, int depth, int proxy_count, void *ctx);
void ph_octree_walk(const ph_octree *tree, ph_octree_node_fn *fn, void *ctx);

// Checks every structural invariant (containment, counts, links, free lists); true when valid. For
// tests and PH_VALIDATE; O(nodes + proxies).
bool ph_octree_validate(const ph_octree *tree);
