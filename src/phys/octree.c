// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The loose octree broadphase (see octree.h for the contract). World.c drives it once per step:
// move every awake body's proxy to its swept bounds, then find the pairs for the narrow phase.
//
// Layout. A node is a cubic cell, centre c and half size h; its loose bounds are c +- 2h (Ulrich's
// loose octree, "Game Programming Gems", 2000, with looseness 2). A proxy lives in the deepest node
// whose loose bounds contain its bounds, found by descending towards the octant of its bounds' centre;
// because the loose bounds of a cell are twice the cell, a body of any size sits at a depth set by its
// size, never stuck high up just because it straddles a cell boundary (the flaw of a strict octree).
// Every centre and half size is a power-of-two multiple of PH_OCTREE_MIN_HALF, so the cell arithmetic
// is exact. Nodes and proxies live in two dense pools with free lists; a node records the proxies it
// holds directly (an intrusive doubly-linked list) and the count held in its whole subtree, and empty
// nodes are returned to the pool at once, so the tree follows the bodies and does not leak nodes.
//
// Pairs. Loose bounds of neighbouring cells overlap, so a per-proxy query would visit dozens of
// nodes. find_pairs instead first refits each node's "tight" bounds (the union of its subtree's proxy
// bounds) and active count while copying the proxies into one array in depth-first order, which turns
// the tree into a bounding-volume hierarchy for the search; then it walks the tree against itself
// (the classic self-collision descent of two subtrees at a time), which meets every unordered pair of
// proxies exactly once and skips subtrees without active proxies. The pair keys (a << bits | b) are
// radix-sorted, so the order does not depend on the tree's shape or history.
#include "octree.h"

#include "core.h"
#include "task.h"

#include <float.h>  // FLT_MAX
#include <limits.h> // INT_MAX
#include <stddef.h> // offsetof
#include <string.h> // memset, memcpy
#if defined(__SSE2__)
#include <emmintrin.h> // boxes_meet: _mm_cmple_ps, _mm_movemask_ps
#endif

// A free proxy slot has this node value; a proxy in the outside list has PROXY_OUTSIDE.
#define PROXY_FREE (-2)
#define PROXY_OUTSIDE (-1)
#define NONE (-1)
// A free node has this subtree count.
#define NODE_FREE (-1)
// Deepest possible tree: root halves go from PH_OCTREE_MAX_ROOT_HALF (2^20 m) down to
// PH_OCTREE_MIN_HALF (2^-5 m), 25 halvings; a depth-first walk holds at most 7 siblings per level.
#define MAX_DEPTH 26
#define STACK_SIZE (8 * MAX_DEPTH + 8)
// Nodes kept in reserve before a placement, so a descent plus root growth never runs out halfway.
#define NODE_RESERVE (2 * MAX_DEPTH)
// Largest proxy, as a fraction of a cell's edge, that goes down into the cell. Looseness 2 alone
// would take proxies up to twice the edge, one per node in a packed pile; half the edge stops them
// two levels higher, about eight to a node. Fewer, fuller nodes mean fewer node-versus-node tests
// in the pair search: measured on packed grids of 1000 to 10000 unit boxes, 0.5 beat 1 and 0.25.
#define CELL_FILL 0.5f
// Most own proxies of a node that the pair search pre-filters on the stack (more are tested unfiltered).
#define FILTER_CAPACITY 128
// First capacities of the pools (they double when full).
#define INITIAL_PROXIES 64
#define INITIAL_NODES 64
#define INITIAL_PAIRS 1024
// Widest radix sort digit: 12 bits (a 16 KiB histogram that stays in the L1 cache); pair keys of up
// to 4096 bodies (24 bits) sort in two passes.
#define RADIX_BITS 12
#define RADIX_SIZE (1 << RADIX_BITS)

// Pairs charged to one packed proxy during a search, and whether one of its pairs was dropped at a cap.
struct ph_octree_charge
{
    int pairs;
    bool dropped;
};
typedef struct ph_octree_charge ph_octree_charge;

// A proxy as the pair search reads it: copied into one array in depth-first order, so that the
// proxies a node holds are contiguous (packed[first .. own_end)) and the inner loops stream through
// memory instead of chasing list links. The bounds are laid out as two groups of four 32-bit lanes,
// lo.xyz + body and hi.xyz + active, so that one overlap test is two 4-lane compares (see boxes_meet);
// the nodes' tight bounds take the same layout (body and active unused).
struct ph_octree_packed
{
    ph_vec3 lo;
    int body;
    ph_vec3 hi;
    int active; // 1 when the proxy's body is active this search
};
_Static_assert(offsetof(ph_octree_packed, hi) == 16 && sizeof(ph_octree_packed) == 32,
               "boxes_meet loads lo and hi as four lanes each");

// A part of the split pair search (see find_pairs_split).
typedef enum job_kind
{
    JOB_OWN,  // node_own_pairs(a)
    JOB_PAIR, // subtree_vs_subtree(a, b)
    JOB_SELF, // subtree_self(a)
} job_kind;

struct ph_octree_job
{
    job_kind kind;
    int a, b;
    int worker, first, count; // where its pairs are: raw + worker * raw_capacity + first, count of them
};

struct ph_octree_node
{
    ph_octree_packed tight; // union of the subtree's proxy bounds at the last refit (find_pairs only)
    ph_vec3 center;
    float half;   // cell is center +- half; loose bounds center +- 2 half
    int child[8]; // octant bit 0: x >= center.x, bit 1: y, bit 2: z; NONE when absent
    int parent;
    int head;    // first proxy held directly; next free node when free
    int count;   // proxies held directly
    int subtree; // proxies held in the subtree (> 0 for every node but the root); NODE_FREE when free
    // Set by the refit of find_pairs only:
    int active; // active proxies in the subtree
    int first;  // the proxies held directly are packed[first .. own_end)
    int own_end;
    int child_count;
    int children[8]; // the existing children, compact
};

// ---- Small geometry helpers ------------------------------------------------------------------------

static bool aabb_finite(ph_aabb b)
{
    return ph_is_finite_vec3(b.lo) && ph_is_finite_vec3(b.hi);
}

// The same test on the packed layout, as two 4-lane compares where SSE is there (x86-64 always has it): the
// lanes hold lo.xyz and hi.xyz, and the fourth lane (body, active) is left out of the mask. An ordered
// compare is false for NaN, as the scalar one: the same answer bit for bit, in a third of the instructions
// of the pair search's innermost test.
static inline bool boxes_meet(const ph_octree_packed *a, const ph_octree_packed *b)
{
#if defined(__SSE2__)
    __m128 a_lo = _mm_loadu_ps(a->lo.raw), a_hi = _mm_loadu_ps(a->hi.raw);
    __m128 b_lo = _mm_loadu_ps(b->lo.raw), b_hi = _mm_loadu_ps(b->hi.raw);
    __m128 meet = _mm_and_ps(_mm_cmple_ps(a_lo, b_hi), _mm_cmple_ps(b_lo, a_hi));
    return (_mm_movemask_ps(meet) & 7) == 7;
#else
    return (a->lo.x <= b->hi.x) & (b->lo.x <= a->hi.x) & (a->lo.y <= b->hi.y) & (b->lo.y <= a->hi.y) &
           (a->lo.z <= b->hi.z) & (b->lo.z <= a->hi.z);
#endif
}

// Bounds in the packed layout, for a query box (no body).
static ph_octree_packed packed_box(ph_aabb b)
{
    ph_octree_packed p = {b.lo, NONE, b.hi, 0};
    return p;
}

static ph_aabb loose_bounds(ph_vec3 c, float half)
{
    float r = 2.0f * half;
    ph_aabb b;
    b.lo = ph_v3(c.x - r, c.y - r, c.z - r);
    b.hi = ph_v3(c.x + r, c.y + r, c.z + r);
    return b;
}

// b inside the loose bounds of the cell (c, half)?
static bool loose_contains(ph_vec3 c, float half, ph_aabb b)
{
    float r = 2.0f * half;
    return b.lo.x >= c.x - r && b.hi.x <= c.x + r && b.lo.y >= c.y - r && b.hi.y <= c.y + r &&
           b.lo.z >= c.z - r && b.hi.z <= c.z + r;
}

// A cell takes a proxy when its loose bounds hold it and it is no larger than CELL_FILL times the
// cell's edge (2 half). See CELL_FILL.
static bool child_accepts(ph_vec3 c, float half, ph_aabb b)
{
    float limit = CELL_FILL * 2.0f * half;
    return b.hi.x - b.lo.x <= limit && b.hi.y - b.lo.y <= limit && b.hi.z - b.lo.z <= limit &&
           loose_contains(c, half, b);
}

static ph_vec3 aabb_center(ph_aabb b)
{
    return ph_v3(0.5f * (b.lo.x + b.hi.x), 0.5f * (b.lo.y + b.hi.y), 0.5f * (b.lo.z + b.hi.z));
}

static int octant_of(ph_vec3 c, ph_vec3 p)
{
    return (p.x >= c.x ? 1 : 0) | (p.y >= c.y ? 2 : 0) | (p.z >= c.z ? 4 : 0);
}

static ph_vec3 child_center(ph_vec3 c, float half, int octant)
{
    float q = 0.5f * half;
    return ph_v3(c.x + ((octant & 1) ? q : -q), c.y + ((octant & 2) ? q : -q), c.z + ((octant & 4) ? q : -q));
}

static ph_aabb empty_aabb(void)
{
    ph_aabb b;
    b.lo = ph_v3(FLT_MAX, FLT_MAX, FLT_MAX);
    b.hi = ph_v3(-FLT_MAX, -FLT_MAX, -FLT_MAX);
    return b;
}

static void aabb_grow(ph_octree_packed *a, const ph_octree_packed *b)
{
    a->lo.x = b->lo.x < a->lo.x ? b->lo.x : a->lo.x;
    a->lo.y = b->lo.y < a->lo.y ? b->lo.y : a->lo.y;
    a->lo.z = b->lo.z < a->lo.z ? b->lo.z : a->lo.z;
    a->hi.x = b->hi.x > a->hi.x ? b->hi.x : a->hi.x;
    a->hi.y = b->hi.y > a->hi.y ? b->hi.y : a->hi.y;
    a->hi.z = b->hi.z > a->hi.z ? b->hi.z : a->hi.z;
}

// ---- Pools -------------------------------------------------------------------------------------------

void ph_octree_create(ph_octree *tree)
{
    memset(tree, 0, sizeof *tree);
    tree->free_proxy = NONE;
    tree->free_node = NONE;
    tree->root = NONE;
    tree->outside_head = NONE;
    tree->max_pairs_per_proxy = INT_MAX;
    tree->max_pairs = INT_MAX;
}

void ph_octree_destroy(ph_octree *tree)
{
    ph_free(tree->proxies, (size_t)tree->proxy_capacity * sizeof *tree->proxies);
    ph_free(tree->nodes, (size_t)tree->node_capacity * sizeof *tree->nodes);
    ph_free(tree->packed, (size_t)tree->packed_capacity * sizeof *tree->packed);
    ph_free(tree->packed_order, (size_t)tree->packed_order_capacity * sizeof *tree->packed_order);
    ph_free(tree->packed_proxy, (size_t)tree->packed_proxy_capacity * sizeof *tree->packed_proxy);
    ph_free(tree->charges, (size_t)tree->charge_capacity * sizeof *tree->charges);
    ph_free(tree->pair_keys, (size_t)tree->pair_capacity * (2 * sizeof(uint64_t) + sizeof(ph_octree_pair)));
    ph_free(tree->jobs, (size_t)tree->job_capacity * sizeof *tree->jobs);
    ph_free(tree->raw, (size_t)tree->raw_workers * (size_t)tree->raw_capacity * sizeof *tree->raw);
    ph_free(tree->raw_used, (size_t)tree->raw_workers * sizeof *tree->raw_used);
    const ph_tasks *tasks = tree->tasks;
    ph_octree_create(tree);
    tree->tasks = tasks;
}

// Grows *array from *capacity to at least need elements of size elem (doubling); false when out of
// memory, with the array unchanged.
static bool grow_array(void **array, int *capacity, int need, int initial, size_t elem)
{
    if (need <= *capacity)
        return true;
    int cap = *capacity > 0 ? *capacity : initial;
    while (cap < need)
        cap *= 2;
    void *p = ph_realloc(*array, (size_t)*capacity * elem, (size_t)cap * elem);
    if (!p)
        return false;
    *array = p;
    *capacity = cap;
    return true;
}

// Nodes available without allocating: the free list plus the unused tail of the pool.
static int free_node_count(const ph_octree *tree)
{
    int n = tree->node_capacity - tree->node_count;
    for (int i = tree->free_node; i != NONE && n < NODE_RESERVE; i = tree->nodes[i].head)
        n++;
    return n;
}

static bool reserve_nodes(ph_octree *tree)
{
    if (free_node_count(tree) >= NODE_RESERVE)
        return true;
    void *nodes = tree->nodes;
    bool ok = grow_array(&nodes, &tree->node_capacity, tree->node_count + NODE_RESERVE, INITIAL_NODES,
                         sizeof *tree->nodes);
    tree->nodes = nodes;
    return ok;
}

// Takes a node from the reserve (reserve_nodes must have succeeded since the last placement).
static int new_node(ph_octree *tree, ph_vec3 center, float half, int parent)
{
    int i;
    if (tree->free_node != NONE)
    {
        i = tree->free_node;
        tree->free_node = tree->nodes[i].head;
    }
    else
    {
        PH_ASSERT(tree->node_count < tree->node_capacity);
        i = tree->node_count++;
    }
    ph_octree_node *n = &tree->nodes[i];
    n->tight = packed_box(empty_aabb());
    n->center = center;
    n->half = half;
    for (int k = 0; k < 8; k++)
        n->child[k] = NONE;
    n->parent = parent;
    n->head = NONE;
    n->count = 0;
    n->subtree = 0;
    return i;
}

static void free_node(ph_octree *tree, int i)
{
    tree->nodes[i].subtree = NODE_FREE;
    tree->nodes[i].head = tree->free_node;
    tree->free_node = i;
}

// ---- Placement ---------------------------------------------------------------------------------------

// The root takes a proxy whose bounds lie in its loose bounds and whose centre lies in its cell proper.
// The second condition matters: a centre outside the cell is outside every child's cell too, so the
// proxy could never descend and would sit at the root, tested against everything (a root that grew
// towards one side of the scene would otherwise keep every body near the other side up there).
static bool root_takes(const ph_octree_node *root, ph_aabb b)
{
    ph_vec3 c = aabb_center(b);
    ph_vec3 o = root->center;
    float h = root->half;
    return c.x >= o.x - h && c.x <= o.x + h && c.y >= o.y - h && c.y <= o.y + h && c.z >= o.z - h &&
           c.z <= o.z + h && loose_contains(o, h, b);
}

static void link_outside(ph_octree *tree, int p)
{
    ph_octree_proxy *px = &tree->proxies[p];
    px->node = PROXY_OUTSIDE;
    px->prev = NONE;
    px->next = tree->outside_head;
    if (tree->outside_head != NONE)
        tree->proxies[tree->outside_head].prev = p;
    tree->outside_head = p;
    tree->outside_count++;
}

// Doubles the root towards point target: the old root becomes the octant of the new one that lies
// away from target, so the new root's centre moves by one old half size towards it on every axis.
static void grow_root(ph_octree *tree, ph_vec3 target)
{
    ph_octree_node *old = &tree->nodes[tree->root];
    float h = old->half;
    ph_vec3 c = old->center;
    ph_vec3 nc = ph_v3(c.x + (target.x >= c.x ? h : -h), c.y + (target.y >= c.y ? h : -h),
                       c.z + (target.z >= c.z ? h : -h));
    if (old->subtree == 0)
    {
        // An empty root (no children either: empty nodes are freed) just takes the new cell.
        old->center = nc;
        old->half = 2.0f * h;
        return;
    }
    int old_index = tree->root;
    int subtree = old->subtree;
    int r = new_node(tree, nc, 2.0f * h, NONE);
    tree->nodes[r].child[octant_of(nc, c)] = old_index;
    tree->nodes[r].subtree = subtree;
    tree->nodes[old_index].parent = r;
    tree->root = r;
}

// Puts unlinked proxy p into the deepest node whose loose bounds hold it, growing the root or creating
// nodes as needed; into the outside list when its bounds are not finite, too far or too large for
// the biggest root, or when nodes cannot be allocated (then returns false).
static bool place(ph_octree *tree, int p)
{
    ph_octree_proxy *px = &tree->proxies[p];
    ph_aabb b = px->bounds;
    if (!aabb_finite(b))
    {
        link_outside(tree, p);
        return true;
    }
    if (!reserve_nodes(tree))
    {
        link_outside(tree, p);
        return false;
    }
    // From here on the tree changes; the outside list alone is packed afresh by every pair search.
    tree->packing_valid = false;
    // An empty root (its last proxy just left) starts over at the initial cell.
    if (tree->root != NONE && tree->nodes[tree->root].subtree == 0)
    {
        tree->nodes[tree->root].center = glms_vec3_zero();
        tree->nodes[tree->root].half = PH_OCTREE_INITIAL_HALF;
    }
    if (tree->root == NONE)
        tree->root = new_node(tree, glms_vec3_zero(), PH_OCTREE_INITIAL_HALF, NONE);
    ph_vec3 bc = aabb_center(b);
    while (!root_takes(&tree->nodes[tree->root], b))
    {
        if (2.0f * tree->nodes[tree->root].half > PH_OCTREE_MAX_ROOT_HALF)
        {
            link_outside(tree, p);
            return true;
        }
        grow_root(tree, bc);
    }
    int n = tree->root;
    for (;;)
    {
        ph_octree_node *node = &tree->nodes[n];
        float ch = 0.5f * node->half;
        if (ch < PH_OCTREE_MIN_HALF)
            break;
        int oct = octant_of(node->center, bc);
        ph_vec3 cc = child_center(node->center, node->half, oct);
        if (!child_accepts(cc, ch, b))
            break;
        if (node->child[oct] == NONE)
        {
            int c = new_node(tree, cc, ch, n);
            tree->nodes[n].child[oct] = c;
        }
        n = tree->nodes[n].child[oct];
    }
    ph_octree_node *node = &tree->nodes[n];
    px->node = n;
    px->prev = NONE;
    px->next = node->head;
    if (node->head != NONE)
        tree->proxies[node->head].prev = p;
    node->head = p;
    node->count++;
    for (int a = n; a != NONE; a = tree->nodes[a].parent)
        tree->nodes[a].subtree++;
    return true;
}

// Takes proxy p out of its node (freeing nodes left empty, except the root) or the outside list.
static void unlink_proxy(ph_octree *tree, int p)
{
    ph_octree_proxy *px = &tree->proxies[p];
    if (px->prev != NONE)
        tree->proxies[px->prev].next = px->next;
    if (px->next != NONE)
        tree->proxies[px->next].prev = px->prev;
    if (px->node == PROXY_OUTSIDE)
    {
        if (tree->outside_head == p)
            tree->outside_head = px->next;
        tree->outside_count--;
        return;
    }
    tree->packing_valid = false;
    int n = px->node;
    ph_octree_node *node = &tree->nodes[n];
    if (node->head == p)
        node->head = px->next;
    node->count--;
    for (int a = n; a != NONE; a = tree->nodes[a].parent)
        tree->nodes[a].subtree--;
    while (n != tree->root && tree->nodes[n].subtree == 0)
    {
        int parent = tree->nodes[n].parent;
        ph_octree_node *pn = &tree->nodes[parent];
        for (int k = 0; k < 8; k++)
        {
            if (pn->child[k] == n)
                pn->child[k] = NONE;
        }
        free_node(tree, n);
        n = parent;
    }
}

// ---- Proxies -----------------------------------------------------------------------------------------

int ph_octree_insert(ph_octree *tree, int body_index, ph_aabb bounds, bool is_static)
{
    if (body_index < 0)
        return -1;
    int p;
    if (tree->free_proxy != NONE)
    {
        p = tree->free_proxy;
        tree->free_proxy = tree->proxies[p].next;
    }
    else
    {
        void *proxies = tree->proxies;
        bool ok = grow_array(&proxies, &tree->proxy_capacity, tree->proxy_count + 1, INITIAL_PROXIES,
                             sizeof *tree->proxies);
        tree->proxies = proxies;
        if (!ok)
            return -1;
        p = tree->proxy_count++;
    }
    tree->tight_valid = false;
    tree->pairs_valid = false;
    ph_octree_proxy *px = &tree->proxies[p];
    px->bounds = bounds;
    px->body = body_index;
    px->is_static = is_static;
    tree->live_proxies++;
    place(tree, p);
    return p;
}

static bool proxy_valid(const ph_octree *tree, int proxy)
{
    return proxy >= 0 && proxy < tree->proxy_count && tree->proxies[proxy].node != PROXY_FREE;
}

// Could b go one level deeper than node n?
static bool fits_child(const ph_octree_node *node, ph_aabb b)
{
    float ch = 0.5f * node->half;
    if (ch < PH_OCTREE_MIN_HALF)
        return false;
    // child_accepts' size test first, before the octant and its centre: a proxy that settled in its
    // node (the common move) is most often too large for any child, which no centre changes.
    float limit = CELL_FILL * 2.0f * ch;
    if (!(b.hi.x - b.lo.x <= limit && b.hi.y - b.lo.y <= limit && b.hi.z - b.lo.z <= limit))
        return false;
    int oct = octant_of(node->center, aabb_center(b));
    return child_accepts(child_center(node->center, node->half, oct), ch, b);
}

ph_status ph_octree_move(ph_octree *tree, int proxy, ph_aabb bounds)
{
    if (!proxy_valid(tree, proxy))
        return PH_ERR_INVALID_ARG;
    tree->tight_valid = false;
    tree->pairs_valid = false;
    ph_octree_proxy *px = &tree->proxies[proxy];
    px->bounds = bounds;
    if (px->node >= 0)
    {
        const ph_octree_node *node = &tree->nodes[px->node];
        bool stays = px->node == tree->root ? root_takes(node, bounds)
                                            : loose_contains(node->center, node->half, bounds);
        if (stays && !fits_child(node, bounds))
            return PH_OK;
    }
    else if (!aabb_finite(bounds))
    {
        return PH_OK; // stays outside
    }
    unlink_proxy(tree, proxy);
    tree->reinsert_count++;
    return place(tree, proxy) ? PH_OK : PH_ERR_OUT_OF_MEMORY;
}

void ph_octree_remove(ph_octree *tree, int proxy)
{
    if (!proxy_valid(tree, proxy))
    {
        PH_ASSERT(false);
        return;
    }
    tree->tight_valid = false;
    tree->pairs_valid = false;
    unlink_proxy(tree, proxy);
    ph_octree_proxy *px = &tree->proxies[proxy];
    px->node = PROXY_FREE;
    px->body = NONE;
    px->next = tree->free_proxy;
    tree->free_proxy = proxy;
    tree->live_proxies--;
}

ph_aabb ph_octree_get_bounds(const ph_octree *tree, int proxy)
{
    if (!proxy_valid(tree, proxy))
    {
        ph_aabb zero = {{{0}}, {{0}}};
        return zero;
    }
    return tree->proxies[proxy].bounds;
}

bool ph_octree_pairs_complete(const ph_octree *tree, int proxy)
{
    return tree->pairs_valid && proxy_valid(tree, proxy) && tree->proxies[proxy].paired;
}

int ph_octree_get_body(const ph_octree *tree, int proxy)
{
    return proxy_valid(tree, proxy) ? tree->proxies[proxy].body : NONE;
}

// ---- Pairs -------------------------------------------------------------------------------------------

static bool is_active(const ph_octree_proxy *px, const uint8_t *body_active)
{
    return !px->is_static && (!body_active || body_active[px->body]);
}

static bool reserve_packed(ph_octree *tree, int need)
{
    void *packed = tree->packed;
    bool ok = grow_array(&packed, &tree->packed_capacity, need, INITIAL_PROXIES, sizeof *tree->packed);
    tree->packed = packed;
    void *order = tree->packed_order;
    ok = ok && grow_array(&order, &tree->packed_order_capacity, tree->node_count, INITIAL_NODES,
                          sizeof *tree->packed_order);
    tree->packed_order = order;
    void *proxy = tree->packed_proxy;
    ok = ok &&
         grow_array(&proxy, &tree->packed_proxy_capacity, need, INITIAL_PROXIES, sizeof *tree->packed_proxy);
    tree->packed_proxy = proxy;
    void *charges = tree->charges;
    ok = ok && grow_array(&charges, &tree->charge_capacity, need, INITIAL_PROXIES, sizeof *tree->charges);
    tree->charges = charges;
    return ok;
}

// Copies the proxies node n holds into packed[first .. own_end) and computes its tight bounds and active
// count from them and from its children's (already refitted), own proxies first, children in octant order.
// A packing of a flat tree records each packed proxy's index (record), for refresh_flat.
static void refit_node(ph_octree *tree, int n, const uint8_t *body_active, bool record)
{
    ph_octree_node *node = &tree->nodes[n];
    ph_octree_packed t = packed_box(empty_aabb());
    int active = 0;
    // A node without proxies of its own forms no pointer into packed, which an empty tree has not
    // allocated (NULL + 0 is undefined behaviour; the API fuzzer found it).
    ph_octree_packed *pk = node->head != NONE ? &tree->packed[node->first] : NULL;
    for (int p = node->head; p != NONE; p = tree->proxies[p].next, pk++)
    {
        ph_octree_proxy *px = &tree->proxies[p];
        if (record)
            tree->packed_proxy[pk - tree->packed] = p;
        pk->lo = px->bounds.lo;
        pk->hi = px->bounds.hi;
        pk->body = px->body;
        pk->active = is_active(px, body_active);
        px->paired = pk->active;
        aabb_grow(&t, pk);
        active += pk->active;
    }
    for (int k = 0; k < node->child_count; k++)
    {
        const ph_octree_node *c = &tree->nodes[node->children[k]];
        aabb_grow(&t, &c->tight);
        active += c->active;
    }
    node->tight = t;
    node->active = active;
}

// Packs the subtree of n: lays out each node's packed range and compact child list in depth-first order,
// which it records in packed_order, and refits the nodes children first. The depth is at most MAX_DEPTH,
// so the recursion is bounded.
static void pack(ph_octree *tree, int n, const uint8_t *body_active, int *packed_count, bool record)
{
    ph_octree_node *node = &tree->nodes[n];
    tree->packed_order[tree->packed_order_count++] = n;
    node->first = *packed_count;
    *packed_count += node->count;
    node->own_end = *packed_count;
    node->child_count = 0;
    for (int k = 0; k < 8; k++)
    {
        int c = node->child[k];
        if (c != NONE)
        {
            pack(tree, c, body_active, packed_count, record);
            node = &tree->nodes[n];
            node->children[node->child_count++] = c;
        }
    }
    refit_node(tree, n, body_active, record);
}

// While no proxy has been placed or unlinked since the last packing (the common step: bodies moved but
// stayed in their nodes), the layout still holds: the same proxies in the same nodes and list order, the
// same child lists. Then only the bounds and active flags are copied again and the nodes refitted, in the
// packing order backwards (children before their parent), without the descent and its scan of 8 octants.
static void refit_packed(ph_octree *tree, const uint8_t *body_active)
{
    for (int i = tree->packed_order_count - 1; i >= 0; i--)
        refit_node(tree, tree->packed_order[i], body_active, false);
}

// The flat tree's refit: with the layout unchanged, the packed proxies are copied again in their packed
// order, straight from the proxy indices the last packing recorded; the nodes' tight bounds are left stale
// (a flat search and its box queries do not read them).
static void refresh_flat(ph_octree *tree, const uint8_t *body_active, int count)
{
    for (int i = 0; i < count; i++)
    {
        ph_octree_proxy *px = &tree->proxies[tree->packed_proxy[i]];
        ph_octree_packed *pk = &tree->packed[i];
        pk->lo = px->bounds.lo;
        pk->hi = px->bounds.hi;
        pk->body = px->body;
        pk->active = is_active(px, body_active);
        px->paired = pk->active;
    }
}

// The three pair buffers share one block of capacity * 24 bytes: keys, scratch keys, then pairs.
// Doubling keeps the keys found so far; a failure leaves the buffers as they were.
static bool grow_pairs(ph_octree *tree)
{
    int cap = tree->pair_capacity > 0 ? 2 * tree->pair_capacity : INITIAL_PAIRS;
    size_t per_pair = 2 * sizeof(uint64_t) + sizeof(ph_octree_pair);
    uint64_t *block = ph_alloc((size_t)cap * per_pair);
    if (!block)
        return false;
    if (tree->pair_keys)
    {
        memcpy(block, tree->pair_keys, (size_t)tree->pair_count * sizeof(uint64_t));
        ph_free(tree->pair_keys, (size_t)tree->pair_capacity * per_pair);
    }
    tree->pair_keys = block;
    tree->pair_scratch = block + cap;
    tree->pairs = (ph_octree_pair *)(block + 2 * cap);
    tree->pair_capacity = cap;
    return true;
}

// The state of one pair search. The traversal meets every unordered pair of proxies exactly once, so
// a pair is kept when the bounds overlap and at least one of the two is active.
typedef struct pair_search
{
    ph_octree *tree;
    const ph_octree_packed *packed;
    bool out_of_memory;
    // A worker's part of a split search (find_pairs_split) records each overlapping pair's packed indices
    // here, in the walk's order, and leaves the caps to the replay in that order; NULL: add_pair keeps it.
    ph_octree_raw *raw;
    int raw_count, raw_capacity;
} pair_search;

static void keep_pair(pair_search *ps, const ph_octree_packed *a, int ia, const ph_octree_packed *b, int ib);

// Packed proxies a and b are ps->packed[ia] and [ib] (a may be a copy held in registers).
static inline void add_pair(pair_search *ps, const ph_octree_packed *a, int ia, const ph_octree_packed *b,
                            int ib)
{
    if (!ps->raw)
    {
        keep_pair(ps, a, ia, b, ib);
        return;
    }
    if (ps->raw_count < ps->raw_capacity)
        ps->raw[ps->raw_count] = (ph_octree_raw){ia, ib};
    ps->raw_count++; // past the capacity: counted, so that the search knows how much it needed
}

// The caps of ph_octree_find_pairs, applied to each overlapping pair in the walk's order, and the key of a
// kept one.
static void keep_pair(pair_search *ps, const ph_octree_packed *a, int ia, const ph_octree_packed *b, int ib)
{
    ph_octree *tree = ps->tree;
    ph_octree_charge *ca = &tree->charges[ia], *cb = &tree->charges[ib];
    int cap = tree->max_pairs_per_proxy;
    // Kept while one active proxy of the two has room: each kept pair uses up one place of a proxy below the
    // cap, so a search keeps at most max_pairs_per_proxy pairs per active proxy, while a hub (a platform
    // under a hundred boxes, each with few pairs) keeps all of its own.
    bool room = (a->active && ca->pairs < cap) || (b->active && cb->pairs < cap);
    if (tree->pair_count >= tree->max_pairs || !room)
    {
        ca->dropped = true;
        cb->dropped = true;
        tree->pairs_dropped++;
        return;
    }
    ca->pairs += a->active;
    cb->pairs += b->active;
    if (tree->pair_count == tree->pair_capacity && !grow_pairs(tree))
    {
        ps->out_of_memory = true;
        return;
    }
    uint32_t x = (uint32_t)a->body, y = (uint32_t)b->body;
    tree->pair_keys[tree->pair_count++] = x < y ? ((uint64_t)x << 32 | y) : ((uint64_t)y << 32 | x);
}

static inline void test_pair(pair_search *ps, const ph_octree_packed *a, const ph_octree_packed *b)
{
    if ((a->active | b->active) && boxes_meet(a, b))
        add_pair(ps, a, (int)(a - ps->packed), b, (int)(b - ps->packed));
}

// Packed proxy a (not in the subtree) against every proxy in the subtree of n.
// May packed proxy a pair with a proxy in the subtree of node n: an active proxy on one side at least, and
// touching bounds.
static inline bool proxy_meets(const ph_octree_packed *a, const ph_octree_node *n)
{
    return (a->active || n->active != 0) && boxes_meet(&n->tight, a);
}

// Packed proxy a (not in the subtree) against every proxy in the subtree of n, which the caller found to
// meet a. Children are tested before they are pushed: most miss, and are never pushed or popped.
static void proxy_vs_subtree(pair_search *ps, const ph_octree_packed *a, int n)
{
    const ph_octree *tree = ps->tree;
    int stack[STACK_SIZE];
    int top = 0;
    stack[top++] = n;
    while (top > 0)
    {
        const ph_octree_node *node = &tree->nodes[stack[--top]];
        for (int j = node->first; j < node->own_end; j++)
            test_pair(ps, a, &ps->packed[j]);
        for (int k = 0; k < node->child_count; k++)
        {
            int c = node->children[k];
            if (proxy_meets(a, &tree->nodes[c]))
                stack[top++] = c;
        }
    }
}

// proxy_vs_subtree for each child of node n that meets a.
static void proxy_vs_children(pair_search *ps, const ph_octree_packed *a, const ph_octree_node *n)
{
    for (int k = 0; k < n->child_count; k++)
    {
        int c = n->children[k];
        if (proxy_meets(a, &ps->tree->nodes[c]))
            proxy_vs_subtree(ps, a, c);
    }
}

// May the subtrees a and b hold a pair: an active proxy, and touching tight bounds?
static inline bool subtrees_meet(const ph_octree_node *na, const ph_octree_node *nb)
{
    return na->active + nb->active > 0 && boxes_meet(&na->tight, &nb->tight);
}

// Every pair with one proxy in the subtree of a and one in the (disjoint) subtree of b, which the
// caller found to meet: own proxies against own proxies, own proxies against the other's children,
// then the children pairwise. A proxy that misses the other subtree's tight bounds is skipped before
// its inner loop, and child pairs are tested before the call.
static void subtree_vs_subtree(pair_search *ps, int a, int b)
{
    const ph_octree *tree = ps->tree;
    const ph_octree_node *na = &tree->nodes[a], *nb = &tree->nodes[b];
    // b's own proxies that reach a's subtree at all; only they can pair with anything in it.
    int near_b[FILTER_CAPACITY];
    int near_count = 0;
    bool filtered = nb->own_end - nb->first <= FILTER_CAPACITY;
    for (int j = nb->first; filtered && j < nb->own_end; j++)
    {
        if (boxes_meet(&ps->packed[j], &na->tight))
            near_b[near_count++] = j;
    }
    for (int i = na->first; i < na->own_end; i++)
    {
        const ph_octree_packed *pa = &ps->packed[i];
        if (!boxes_meet(pa, &nb->tight))
            continue;
        if (filtered)
        {
            for (int s = 0; s < near_count; s++)
                test_pair(ps, pa, &ps->packed[near_b[s]]);
        }
        else
        {
            for (int j = nb->first; j < nb->own_end; j++)
                test_pair(ps, pa, &ps->packed[j]);
        }
        proxy_vs_children(ps, pa, nb);
    }
    if (na->child_count > 0)
    {
        for (int j = nb->first; j < nb->own_end; j++)
        {
            const ph_octree_packed *pb = &ps->packed[j];
            if (!boxes_meet(pb, &na->tight))
                continue;
            proxy_vs_children(ps, pb, na);
        }
    }
    for (int i = 0; i < na->child_count; i++)
    {
        const ph_octree_node *ca = &tree->nodes[na->children[i]];
        if (!boxes_meet(&ca->tight, &nb->tight))
            continue;
        for (int j = 0; j < nb->child_count; j++)
        {
            if (subtrees_meet(ca, &tree->nodes[nb->children[j]]))
                subtree_vs_subtree(ps, na->children[i], nb->children[j]);
        }
    }
}

// Every pair with a proxy node n holds itself: its own proxies among themselves and against its children's
// subtrees.
static void node_own_pairs(pair_search *ps, const ph_octree_node *node)
{
    for (int i = node->first; i < node->own_end; i++)
    {
        const ph_octree_packed *pa = &ps->packed[i];
        for (int j = i + 1; j < node->own_end; j++)
            test_pair(ps, pa, &ps->packed[j]);
        proxy_vs_children(ps, pa, node);
    }
}

// Every pair inside the subtree of n.
static void subtree_self(pair_search *ps, int n)
{
    const ph_octree *tree = ps->tree;
    const ph_octree_node *node = &tree->nodes[n];
    if (node->active == 0)
        return;
    node_own_pairs(ps, node);
    for (int i = 0; i < node->child_count; i++)
    {
        const ph_octree_node *ci = &tree->nodes[node->children[i]];
        for (int j = i + 1; j < node->child_count; j++)
        {
            if (subtrees_meet(ci, &tree->nodes[node->children[j]]))
                subtree_vs_subtree(ps, node->children[i], node->children[j]);
        }
        subtree_self(ps, node->children[i]);
    }
}

// A flat tree's pair search: every packed proxy against those after it, in the tree and outside alike (see
// PH_OCTREE_FLAT_MAX). test_pair with the overlap asked first: few of all the pairs overlap, while most
// proxies are active, so the active flags alone decide little.
static void flat_pairs(pair_search *ps, int count)
{
    const ph_octree_packed *packed = ps->packed;
    for (int i = 0; i < count; i++)
    {
        const ph_octree_packed a = packed[i]; // a copy: held in registers across add_pair's stores
        for (int j = i + 1; j < count; j++)
            if (boxes_meet(&a, &packed[j]) && (a.active | packed[j].active))
                add_pair(ps, &a, i, &packed[j], j);
    }
}

// ---- The split pair search ----
// The walk of subtree_self from the root, cut into parts in its order: the top levels' own proxies and their
// pairs of subtrees, and below them whole subtrees of few active proxies. The workers walk the parts and
// record the overlapping pairs they meet, each part's in the walk's order; the stepping thread then applies
// the caps to them part by part in that order (keep_pair), so the answer, what it keeps and what it drops,
// is the serial walk's.

// A tree with fewer proxies than this is walked by the stepping thread alone.
#define SPLIT_MIN_PROXIES 512
// Levels of the tree cut into parts at most, and the share of the active proxies below which a subtree is
// one part (1 / (parts per worker)).
#define SPLIT_MAX_DEPTH 4
#define SPLIT_PARTS_PER_WORKER 16
// Parts a worker takes at a time.
#define SPLIT_MIN_PARTS 4

static bool push_job(ph_octree *tree, job_kind kind, int a, int b)
{
    void *jobs = tree->jobs;
    if (!grow_array(&jobs, &tree->job_capacity, tree->job_count + 1, INITIAL_NODES, sizeof *tree->jobs))
        return false;
    tree->jobs = jobs;
    tree->jobs[tree->job_count++] = (ph_octree_job){kind, a, b, 0, 0, 0};
    return true;
}

// The parts of subtree_self(n), in its order.
static bool plan_jobs(ph_octree *tree, int n, int depth, int leaf_active)
{
    const ph_octree_node *node = &tree->nodes[n];
    if (node->active == 0)
        return true;
    if (depth >= SPLIT_MAX_DEPTH || node->active <= leaf_active)
        return push_job(tree, JOB_SELF, n, 0);
    if (!push_job(tree, JOB_OWN, n, 0))
        return false;
    for (int i = 0; i < node->child_count; i++)
    {
        node = &tree->nodes[n];
        const ph_octree_node *ci = &tree->nodes[node->children[i]];
        for (int j = i + 1; j < node->child_count; j++)
        {
            if (subtrees_meet(ci, &tree->nodes[node->children[j]]) &&
                !push_job(tree, JOB_PAIR, node->children[i], node->children[j]))
                return false;
        }
        if (!plan_jobs(tree, node->children[i], depth + 1, leaf_active))
            return false;
    }
    return true;
}

static void run_jobs(int begin, int end, int worker, void *context)
{
    ph_octree *tree = context;
    pair_search ps = {tree,
                      tree->packed,
                      false,
                      tree->raw + (size_t)worker * (size_t)tree->raw_capacity,
                      tree->raw_used[worker],
                      tree->raw_capacity};
    for (int j = begin; j < end; j++)
    {
        ph_octree_job *job = &tree->jobs[j];
        job->worker = worker;
        job->first = ps.raw_count;
        if (job->kind == JOB_OWN)
            node_own_pairs(&ps, &tree->nodes[job->a]);
        else if (job->kind == JOB_PAIR)
            subtree_vs_subtree(&ps, job->a, job->b);
        else
            subtree_self(&ps, job->a);
        job->count = ps.raw_count - job->first;
    }
    tree->raw_used[worker] = ps.raw_count;
}

// The tree's pairs through the workers, kept as the serial walk keeps them (through ps). False when the
// search was not split (a small tree, no workers, out of memory, or a worker's room too small for what it
// met, which is then grown for the next search): the caller walks the tree itself.
static bool find_pairs_split(ph_octree *tree, pair_search *ps, int packed_count)
{
    const ph_tasks *tasks = tree->tasks;
    if (!tasks || tasks->worker_count < 2 || tree->root == NONE || packed_count < SPLIT_MIN_PROXIES)
        return false;
    int workers = tasks->worker_count;
    // Room for a whole search per worker: at least the last search's pairs, which grow between searches.
    int need = tree->raw_capacity > INITIAL_PAIRS ? tree->raw_capacity : INITIAL_PAIRS;
    if (workers > tree->raw_workers || need > tree->raw_capacity)
    {
        size_t old_block = (size_t)tree->raw_workers * (size_t)tree->raw_capacity * sizeof *tree->raw;
        ph_octree_raw *raw = ph_alloc((size_t)workers * (size_t)need * sizeof *raw);
        int *used = ph_alloc((size_t)workers * sizeof *used);
        if (!raw || !used)
        {
            ph_free(raw, (size_t)workers * (size_t)need * sizeof *raw);
            ph_free(used, (size_t)workers * sizeof *used);
            return false;
        }
        ph_free(tree->raw, old_block);
        ph_free(tree->raw_used, (size_t)tree->raw_workers * sizeof *tree->raw_used);
        tree->raw = raw;
        tree->raw_used = used;
        tree->raw_workers = workers;
        tree->raw_capacity = need;
    }
    tree->job_count = 0;
    int leaf_active = tree->nodes[tree->root].active / (workers * SPLIT_PARTS_PER_WORKER);
    if (!plan_jobs(tree, tree->root, 0, leaf_active))
        return false;
    memset(tree->raw_used, 0, (size_t)workers * sizeof *tree->raw_used);
    ph_parallel_for(tasks, tree->job_count, SPLIT_MIN_PARTS, run_jobs, tree);
    long total = 0;
    bool overflow = false;
    for (int w = 0; w < workers; w++)
    {
        total += tree->raw_used[w];
        overflow |= tree->raw_used[w] > tree->raw_capacity;
    }
    if (overflow)
    {
        // Met more than a worker had room for: the next search gets room for this one's pairs and a half.
        long grown = total + total / 2;
        tree->raw_capacity = grown < INT_MAX / 2 ? (int)grown : INT_MAX / 2;
        tree->raw_workers = 0; // reallocated by the next search
        ph_free(tree->raw, (size_t)workers * (size_t)need * sizeof *tree->raw);
        ph_free(tree->raw_used, (size_t)workers * sizeof *tree->raw_used);
        tree->raw = NULL;
        tree->raw_used = NULL;
        return false;
    }
    for (int j = 0; j < tree->job_count && !ps->out_of_memory; j++)
    {
        const ph_octree_job *job = &tree->jobs[j];
        const ph_octree_raw *r = tree->raw + (size_t)job->worker * (size_t)tree->raw_capacity + job->first;
        for (int k = 0; k < job->count; k++)
            keep_pair(ps, &tree->packed[r[k].a], r[k].a, &tree->packed[r[k].b], r[k].b);
    }
    return true;
}

// Below this many keys a sort of the pairs is an insertion sort (small scenes).
#define RADIX_MIN_KEYS 48

// LSD radix sort of n keys of key_bits significant bits, in as few passes of at most RADIX_BITS as
// the width needs. Returns the buffer that holds the sorted keys (keys or scratch).
static uint64_t *radix_sort(uint64_t *keys, uint64_t *scratch, int n, int key_bits)
{
    // A few keys: insertion sort, without the passes' fixed cost of clearing and scanning the counts.
    if (n <= RADIX_MIN_KEYS)
    {
        for (int i = 1; i < n; i++)
        {
            uint64_t k = keys[i];
            int j = i;
            for (; j > 0 && keys[j - 1] > k; j--)
                keys[j] = keys[j - 1];
            keys[j] = k;
        }
        return keys;
    }
    int counts[RADIX_SIZE];
    int passes = (key_bits + RADIX_BITS - 1) / RADIX_BITS;
    int width = passes > 0 ? (key_bits + passes - 1) / passes : 0;
    uint64_t mask = ((uint64_t)1 << width) - 1;
    for (int pass = 0; pass < passes; pass++)
    {
        int shift = pass * width;
        memset(counts, 0, sizeof counts);
        for (int i = 0; i < n; i++)
            counts[(keys[i] >> shift) & mask]++;
        int sum = 0;
        for (uint64_t d = 0; d <= mask; d++)
        {
            int c = counts[d];
            counts[d] = sum;
            sum += c;
        }
        for (int i = 0; i < n; i++)
            scratch[counts[(keys[i] >> shift) & mask]++] = keys[i];
        uint64_t *t = keys;
        keys = scratch;
        scratch = t;
    }
    return keys;
}

static int bit_width(uint32_t v)
{
    int w = 0;
    while (v)
    {
        w++;
        v >>= 1;
    }
    return w;
}

int ph_octree_find_pairs(ph_octree *tree, const uint8_t *body_active, const ph_octree_pair **out_pairs)
{
    *out_pairs = NULL;
    tree->pair_count = 0;
    tree->pairs_valid = false;
    tree->flat_valid = false;
    if (!reserve_packed(tree, tree->live_proxies))
        return -1;
    // Every proxy not in the outside list is in the tree, and packed.
    int packed_count = tree->live_proxies - tree->outside_count;
    bool flat = tree->live_proxies <= PH_OCTREE_FLAT_MAX;
    bool refreshed = tree->packing_valid && flat && tree->packing_recorded;
    if (refreshed)
        refresh_flat(tree, body_active, packed_count);
    else if (tree->packing_valid)
        refit_packed(tree, body_active);
    else
    {
        int count = 0;
        tree->packed_order_count = 0;
        if (tree->root != NONE)
            pack(tree, tree->root, body_active, &count, true);
        PH_ASSERT(count == packed_count);
        tree->packing_valid = true;
        tree->packing_recorded = flat;
        tree->repack_count++;
    }
    // A flat refresh leaves the nodes' tight bounds stale; a packing or refit refits them.
    tree->tight_valid = !refreshed;
    // The outside list is packed after the tree, finite proxies only.
    int outside_first = packed_count;
    for (int p = tree->outside_head; p != NONE; p = tree->proxies[p].next)
    {
        ph_octree_proxy *px = &tree->proxies[p];
        px->paired = false;
        if (!aabb_finite(px->bounds))
            continue;
        tree->packed_proxy[packed_count] = p;
        ph_octree_packed *pk = &tree->packed[packed_count++];
        pk->lo = px->bounds.lo;
        pk->hi = px->bounds.hi;
        pk->body = px->body;
        pk->active = is_active(px, body_active);
        px->paired = pk->active;
    }
    pair_search ps = {tree, tree->packed, false, NULL, 0, 0};
    tree->packed_total = packed_count;
    tree->pairs_dropped = 0;
    if (packed_count > 0) // an empty tree may have no charges array (memset of NULL is undefined)
        memset(tree->charges, 0, (size_t)packed_count * sizeof *tree->charges);
    tree->flat_valid = flat;
    if (flat)
        flat_pairs(&ps, packed_count);
    if (tree->root != NONE && !flat && !find_pairs_split(tree, &ps, packed_count))
        subtree_self(&ps, tree->root);

    // Each outside proxy against the tree and against the outside proxies after it.
    for (int i = outside_first; !flat && i < packed_count; i++)
    {
        if (tree->root != NONE && proxy_meets(&tree->packed[i], &tree->nodes[tree->root]))
            proxy_vs_subtree(&ps, &tree->packed[i], tree->root);
        for (int j = i + 1; j < packed_count; j++)
            test_pair(&ps, &tree->packed[i], &tree->packed[j]);
    }
    if (ps.out_of_memory)
    {
        tree->pair_count = 0;
        return -1;
    }
    // A proxy that lost a pair at a cap has an incomplete answer: the calendar must query the tree for it.
    for (int i = 0; tree->pairs_dropped > 0 && i < packed_count; i++)
        if (tree->charges[i].dropped)
            tree->proxies[tree->packed_proxy[i]].paired = false;
    int n = tree->pair_count;
    tree->pairs_valid = true;
    if (n == 0)
    {
        *out_pairs = tree->pairs;
        return 0;
    }
    // Re-pack the keys as (a << bits_b | b) with just the bits the body indices use, so the sort
    // makes as few passes as possible.
    uint32_t max_lo = 0, max_hi = 0;
    for (int i = 0; i < n; i++)
    {
        uint32_t lo = (uint32_t)tree->pair_keys[i], hi = (uint32_t)(tree->pair_keys[i] >> 32);
        max_lo = lo > max_lo ? lo : max_lo;
        max_hi = hi > max_hi ? hi : max_hi;
    }
    int bits_lo = bit_width(max_lo), bits_hi = bit_width(max_hi);
    uint64_t lo_mask = ((uint64_t)1 << bits_lo) - 1;
    for (int i = 0; i < n; i++)
    {
        uint64_t k = tree->pair_keys[i];
        tree->pair_keys[i] = (k >> 32) << bits_lo | (k & lo_mask);
    }
    const uint64_t *sorted = radix_sort(tree->pair_keys, tree->pair_scratch, n, bits_lo + bits_hi);
    for (int i = 0; i < n; i++)
    {
        tree->pairs[i].a = (int)(sorted[i] >> bits_lo);
        tree->pairs[i].b = (int)(sorted[i] & lo_mask);
    }
    *out_pairs = tree->pairs;
    return n;
}

// ---- Queries -----------------------------------------------------------------------------------------

// The bounds a query prunes a node's subtree with: the tight bounds of the last pair search while no
// proxy has changed since (the common case inside a step: the calendar's queries), else the loose
// bounds, which always hold the subtree.
static ph_aabb query_bounds(const ph_octree *tree, const ph_octree_node *node)
{
    if (!tree->tight_valid)
        return loose_bounds(node->center, node->half);
    ph_aabb b = {node->tight.lo, node->tight.hi};
    return b;
}

// While the last pair search's refit holds (no proxy has changed since: the common case inside a step,
// the calendar's queries), the nodes' tight bounds prune the walk and their own proxies are read from
// the packed array, contiguous instead of chained through list links, in the same order as the list.
// False when fn stopped the query.
static bool query_box_packed(const ph_octree *tree, ph_aabb query, ph_octree_query_fn *fn, void *ctx)
{
    ph_octree_packed box = packed_box(query);
    int stack[STACK_SIZE];
    int top = 0;
    if (boxes_meet(&tree->nodes[tree->root].tight, &box))
        stack[top++] = tree->root;
    while (top > 0)
    {
        const ph_octree_node *node = &tree->nodes[stack[--top]];
        for (int j = node->first; j < node->own_end; j++)
        {
            if (boxes_meet(&tree->packed[j], &box) && !fn(tree->packed[j].body, ctx))
                return false;
        }
        for (int k = node->child_count - 1; k >= 0; k--)
        {
            int c = node->children[k];
            if (boxes_meet(&tree->nodes[c].tight, &box))
                stack[top++] = c;
        }
    }
    return true;
}

// Otherwise the loose bounds, which always hold the subtree, prune it. False when fn stopped the query.
static bool query_box_loose(const ph_octree *tree, ph_aabb box, ph_octree_query_fn *fn, void *ctx)
{
    int stack[STACK_SIZE];
    int top = 0;
    stack[top++] = tree->root;
    while (top > 0)
    {
        const ph_octree_node *node = &tree->nodes[stack[--top]];
        ph_aabb nb = loose_bounds(node->center, node->half);
        if (!ph_aabb_overlaps(&nb, &box))
            continue;
        for (int q = node->head; q != NONE; q = tree->proxies[q].next)
        {
            if (ph_aabb_overlaps(&tree->proxies[q].bounds, &box) && !fn(tree->proxies[q].body, ctx))
                return false;
        }
        for (int k = 7; k >= 0; k--)
        {
            if (node->child[k] != NONE)
                stack[top++] = node->child[k];
        }
    }
    return true;
}

// Whether box queries may scan the packing (flat mode, see ph_octree_find_pairs): the last search was flat
// and no proxy changed since.
static inline bool flat_scan_ready(const ph_octree *tree)
{
    return tree->flat_valid && tree->pairs_valid;
}

// The first packed proxy from `from` on whose bounds meet q (packed_total when none): a flat tree's packing
// is the walk's order, the tree's proxies depth first, own proxies before the children's, children in
// octant order, then the outside list's finite proxies in list order.
static inline int flat_next_meeting(const ph_octree *tree, const ph_octree_packed *q, int from)
{
    int j = from;
    while (j < tree->packed_total && !boxes_meet(&tree->packed[j], q))
        j++;
    return j;
}

void ph_octree_query_box(const ph_octree *tree, ph_aabb box, ph_octree_query_fn *fn, void *ctx)
{
    if (flat_scan_ready(tree))
    {
        ph_octree_packed q = packed_box(box);
        for (int j = flat_next_meeting(tree, &q, 0); j < tree->packed_total;
             j = flat_next_meeting(tree, &q, j + 1))
            if (!fn(tree->packed[j].body, ctx))
                return;
        return;
    }
    if (tree->root != NONE)
    {
        bool go_on =
            tree->tight_valid ? query_box_packed(tree, box, fn, ctx) : query_box_loose(tree, box, fn, ctx);
        if (!go_on)
            return;
    }
    for (int q = tree->outside_head; q != NONE; q = tree->proxies[q].next)
    {
        const ph_octree_proxy *qx = &tree->proxies[q];
        if (aabb_finite(qx->bounds) && ph_aabb_overlaps(&qx->bounds, &box) && !fn(qx->body, ctx))
            return;
    }
}

typedef struct other_query
{
    int body;
    bool met;
} other_query;

static bool meets_other(int body_index, void *ctx)
{
    other_query *q = ctx;
    q->met = body_index != q->body;
    return !q->met;
}

bool ph_octree_box_meets_other(const ph_octree *tree, ph_aabb box, int body_index)
{
    if (flat_scan_ready(tree))
    {
        // The scan of ph_octree_query_box without its callback, stopping at the first other body.
        ph_octree_packed pq = packed_box(box);
        for (int j = flat_next_meeting(tree, &pq, 0); j < tree->packed_total;
             j = flat_next_meeting(tree, &pq, j + 1))
            if (tree->packed[j].body != body_index)
                return true;
        return false;
    }
    other_query q = {body_index, false};
    ph_octree_query_box(tree, box, meets_other, &q);
    return q.met;
}

// False when box lies wholly on the outer side of one of the planes: the corner furthest along the
// plane normal (the "positive vertex") is outside.
static bool box_in_frustum(const ph_aabb *b, const ph_vec4 planes[6])
{
    for (int i = 0; i < 6; i++)
    {
        ph_vec4 pl = planes[i];
        float x = pl.x >= 0.0f ? b->hi.x : b->lo.x;
        float y = pl.y >= 0.0f ? b->hi.y : b->lo.y;
        float z = pl.z >= 0.0f ? b->hi.z : b->lo.z;
        if (pl.x * x + pl.y * y + pl.z * z + pl.w < 0.0f)
            return false;
    }
    return true;
}

void ph_octree_query_frustum(const ph_octree *tree, const ph_vec4 planes[6], ph_octree_query_fn *fn,
                             void *ctx)
{
    int stack[STACK_SIZE];
    int top = 0;
    if (tree->root != NONE)
        stack[top++] = tree->root;
    while (top > 0)
    {
        const ph_octree_node *node = &tree->nodes[stack[--top]];
        ph_aabb nb = query_bounds(tree, node);
        if (!box_in_frustum(&nb, planes))
            continue;
        for (int q = node->head; q != NONE; q = tree->proxies[q].next)
        {
            if (box_in_frustum(&tree->proxies[q].bounds, planes) && !fn(tree->proxies[q].body, ctx))
                return;
        }
        for (int k = 7; k >= 0; k--)
        {
            if (node->child[k] != NONE)
                stack[top++] = node->child[k];
        }
    }
    for (int q = tree->outside_head; q != NONE; q = tree->proxies[q].next)
    {
        const ph_octree_proxy *qx = &tree->proxies[q];
        if (aabb_finite(qx->bounds) && box_in_frustum(&qx->bounds, planes) && !fn(qx->body, ctx))
            return;
    }
}

// Slab test of the segment origin + t dir, t in [0, t_max], against b; writes the entry parameter.
// An axis the ray runs parallel to is tested by the origin's coordinate alone (no 0 * inf).
static bool ray_hits_box(const ph_aabb *b, ph_vec3 o, ph_vec3 d, float t_max, float *t_enter)
{
    float lo = 0.0f, hi = t_max;
    for (int axis = 0; axis < 3; axis++)
    {
        float oa = o.raw[axis], da = d.raw[axis], bl = b->lo.raw[axis], bh = b->hi.raw[axis];
        if (da == 0.0f)
        {
            if (oa < bl || oa > bh)
                return false;
            continue;
        }
        float inv = 1.0f / da;
        float t1 = (bl - oa) * inv, t2 = (bh - oa) * inv;
        if (t1 > t2)
        {
            float t = t1;
            t1 = t2;
            t2 = t;
        }
        lo = t1 > lo ? t1 : lo;
        hi = t2 < hi ? t2 : hi;
        if (!(lo <= hi))
            return false;
    }
    *t_enter = lo;
    return true;
}

void ph_octree_cast_ray(const ph_octree *tree, ph_vec3 origin, ph_vec3 dir, float max_distance,
                        ph_octree_ray_fn *fn, void *ctx)
{
    if (!ph_is_finite_vec3(origin) || !ph_is_finite_vec3(dir) || !(max_distance >= 0.0f))
        return;
    float t_max = max_distance;
    float t_enter;
    int stack[STACK_SIZE];
    int top = 0;
    if (tree->root != NONE)
        stack[top++] = tree->root;
    while (top > 0)
    {
        const ph_octree_node *node = &tree->nodes[stack[--top]];
        ph_aabb nb = query_bounds(tree, node);
        if (!ray_hits_box(&nb, origin, dir, t_max, &t_enter))
            continue;
        for (int q = node->head; q != NONE; q = tree->proxies[q].next)
        {
            if (!ray_hits_box(&tree->proxies[q].bounds, origin, dir, t_max, &t_enter))
                continue;
            float t = fn(tree->proxies[q].body, origin, dir, t_max, ctx);
            if (t < 0.0f)
                return;
            t_max = t < t_max ? t : t_max;
        }
        for (int k = 7; k >= 0; k--)
        {
            if (node->child[k] != NONE)
                stack[top++] = node->child[k];
        }
    }
    for (int q = tree->outside_head; q != NONE; q = tree->proxies[q].next)
    {
        if (!aabb_finite(tree->proxies[q].bounds) ||
            !ray_hits_box(&tree->proxies[q].bounds, origin, dir, t_max, &t_enter))
            continue;
        float t = fn(tree->proxies[q].body, origin, dir, t_max, ctx);
        if (t < 0.0f)
            return;
        t_max = t < t_max ? t : t_max;
    }
}

// ---- Debug walk and validation -----------------------------------------------------------------------

static void walk(const ph_octree *tree, int n, int depth, ph_octree_node_fn *fn, void *ctx)
{
    const ph_octree_node *node = &tree->nodes[n];
    if (node->count > 0)
        fn(loose_bounds(node->center, node->half), depth, node->count, ctx);
    for (int k = 0; k < 8; k++)
    {
        if (node->child[k] != NONE)
            walk(tree, node->child[k], depth + 1, fn, ctx);
    }
}

void ph_octree_walk(const ph_octree *tree, ph_octree_node_fn *fn, void *ctx)
{
    if (tree->root != NONE)
        walk(tree, tree->root, 0, fn, ctx);
}

// Checks node n and its subtree; adds the proxies met to *proxies_seen and the nodes to *nodes_seen.
static bool validate_node(const ph_octree *tree, int n, int depth, int *proxies_seen, int *nodes_seen)
{
    if (n < 0 || n >= tree->node_count || depth > MAX_DEPTH)
        return false;
    const ph_octree_node *node = &tree->nodes[n];
    if (node->subtree == NODE_FREE || node->half < PH_OCTREE_MIN_HALF)
        return false;
    if (n != tree->root && node->subtree <= 0)
        return false;
    (*nodes_seen)++;
    int count = 0, prev = NONE;
    for (int p = node->head; p != NONE; p = tree->proxies[p].next)
    {
        if (p < 0 || p >= tree->proxy_count || count > tree->live_proxies)
            return false;
        const ph_octree_proxy *px = &tree->proxies[p];
        if (px->node != n || px->prev != prev)
            return false;
        if (!loose_contains(node->center, node->half, px->bounds))
            return false;
        prev = p;
        count++;
    }
    if (count != node->count)
        return false;
    int subtree = count;
    for (int k = 0; k < 8; k++)
    {
        int c = node->child[k];
        if (c == NONE)
            continue;
        if (c < 0 || c >= tree->node_count)
            return false;
        const ph_octree_node *child = &tree->nodes[c];
        ph_vec3 cc = child_center(node->center, node->half, k);
        if (child->parent != n || child->half != 0.5f * node->half || child->center.x != cc.x ||
            child->center.y != cc.y || child->center.z != cc.z)
            return false;
        if (!validate_node(tree, c, depth + 1, proxies_seen, nodes_seen))
            return false;
        subtree += child->subtree;
    }
    *proxies_seen += count;
    return subtree == node->subtree;
}

bool ph_octree_validate(const ph_octree *tree)
{
    int proxies_seen = 0, nodes_seen = 0;
    if (tree->root != NONE)
    {
        if (tree->nodes[tree->root].parent != NONE)
            return false;
        if (!validate_node(tree, tree->root, 0, &proxies_seen, &nodes_seen))
            return false;
    }
    int outside = 0, prev = NONE;
    for (int p = tree->outside_head; p != NONE; p = tree->proxies[p].next)
    {
        if (p < 0 || p >= tree->proxy_count || tree->proxies[p].node != PROXY_OUTSIDE ||
            tree->proxies[p].prev != prev || outside > tree->live_proxies)
            return false;
        prev = p;
        outside++;
    }
    if (outside != tree->outside_count || proxies_seen + outside != tree->live_proxies)
        return false;
    int free_proxies = 0;
    for (int p = tree->free_proxy; p != NONE; p = tree->proxies[p].next)
    {
        if (p < 0 || p >= tree->proxy_count || tree->proxies[p].node != PROXY_FREE ||
            free_proxies > tree->proxy_count)
            return false;
        free_proxies++;
    }
    if (free_proxies + tree->live_proxies != tree->proxy_count)
        return false;
    int free_nodes = 0;
    for (int n = tree->free_node; n != NONE; n = tree->nodes[n].head)
    {
        if (n < 0 || n >= tree->node_count || tree->nodes[n].subtree != NODE_FREE ||
            free_nodes > tree->node_count)
            return false;
        free_nodes++;
    }
    return free_nodes + nodes_seen == tree->node_count;
}
