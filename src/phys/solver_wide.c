// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The contact solver's wide path (see solver_internal.h): the colouring and grouping, in plain C, and the
// choice of the kernels that solve the groups (solver_wide_kernels.h, built once per instruction set by
// solver_wide_avx2.c, solver_wide_sse2.c and solver_wide_neon.c).
// Why: the scalar solver spends ~100 cycles per contact point and sweep on dependent scalar arithmetic,
// 85% of a stacking scene's step; the same arithmetic on 4 or 8 lanes does 4 or 8 constraints for little
// more. Lanes must not share a body that moves, or two lanes would update its velocity from the same old
// value and one update would be lost: the constraints are coloured greedily (Box2D v3 colours its constraint
// graph the same way), and a group takes constraints of one colour only. Bodies that do not move in the
// solver (static, kinematic, asleep: inverse mass 0) are shared freely, since no impulse changes them.
#include "arena.h"
#include "solver_internal.h"

#include <limits.h> // INT_MAX
#include <stddef.h> // offsetof
#include <string.h> // memset, memcpy

// ---- Colouring and grouping (plain C) ----

bool ph_wide_build(ph_arena *arena, const ph_body_state *states, int slots, const constraint_head *heads,
                   int count, wide_arms_mode arms, const wide_kernels *kernels, wide_solver *out)
{
    *out = (wide_solver){0};
    out->kernels = kernels;
    if (slots > INT_MAX / (int)sizeof(ph_body_state)) // the groups address states by byte offsets in an int
        return false;
    size_t n = (size_t)(count > 0 ? count : 1), body_count = (size_t)(slots > 0 ? slots : 1);
    out->scalar = ph_arena_alloc(arena, n * sizeof(int));
    out->color = ph_arena_alloc(arena, n * sizeof(int));
    out->order = ph_arena_alloc(arena, n * sizeof(int));
    out->used = ph_arena_alloc(arena, body_count * sizeof(uint64_t));
    if (!out->scalar || !out->color || !out->order || !out->used)
        return false;
    memset(out->used, 0, body_count * sizeof(uint64_t));
    int *color = out->color, *order = out->order;

    // Greedy colouring in contact order: the lowest colour free at both moving bodies.
    // bucket[key + 1] counts the constraints of each key = colour * 4 + (4 - points): sorted by key, a
    // colour's constraints come together, those with the most points first, so that the constraints of
    // a group mostly have the same point count.
    enum
    {
        KEYS = WIDE_MAX_COLORS * PH_MAX_MANIFOLD_POINTS
    };
    // Only the keys of colours that can occur are cleared and summed: a constraint takes at most the
    // colour after those of the constraints before it, and the small scenes that run this every step
    // would otherwise spend more on the 257 buckets than on colouring.
    int bucket[KEYS + 1];
    int key_bound = (count < WIDE_MAX_COLORS ? count : WIDE_MAX_COLORS) * PH_MAX_MANIFOLD_POINTS;
    memset(bucket, 0, (size_t)(key_bound + 1) * sizeof bucket[0]);
    for (int k = 0; k < count; k++)
    {
        const constraint_head *head = &heads[k];
        bool move_a = states[head->a].inv_mass > 0.0f, move_b = states[head->b].inv_mass > 0.0f;
        int c = head->round ? -1 : wide_take_color(out->used, head->a, head->b, move_a, move_b);
        color[k] = c;
        if (c < 0)
        {
            out->scalar[out->scalar_count++] = k;
            continue;
        }
        out->colors = c + 1 > out->colors ? c + 1 : out->colors;
        bucket[c * PH_MAX_MANIFOLD_POINTS + (PH_MAX_MANIFOLD_POINTS - head->point_count) + 1]++;
    }
    // Groups: each colour's constraints cut into runs of WIDE; a colour's last group may be partial.
    int group_count = 0;
    for (int c = 0; c < out->colors; c++)
    {
        int in_color = 0;
        for (int p = 0; p < PH_MAX_MANIFOLD_POINTS; p++)
            in_color += bucket[c * PH_MAX_MANIFOLD_POINTS + p + 1];
        group_count += (in_color + WIDE - 1) / WIDE;
    }
    for (int i = 1; i <= out->colors * PH_MAX_MANIFOLD_POINTS; i++)
        bucket[i] += bucket[i - 1];
    for (int k = 0; k < count; k++)
    {
        if (color[k] >= 0)
            order[bucket[color[k] * PH_MAX_MANIFOLD_POINTS +
                         (PH_MAX_MANIFOLD_POINTS - heads[k].point_count)]++] = k;
    }
    bool keep =
        arms == WIDE_ARMS_KEPT || (arms == WIDE_ARMS_AUTO && group_count <= WIDE_KEPT_ARMS_MAX_GROUPS);
    out->stride = sizeof(wide_group) + (keep ? sizeof(wide_group_arms) : 0);
    out->groups = group_count > 0 ? ph_arena_alloc(arena, (size_t)group_count * out->stride) : NULL;
    if (group_count > 0 && !out->groups)
        return false;
    out->group_count = group_count;

    // Fill the groups in that order; a group never spans two colours.
    int colored = count - out->scalar_count;
    for (int j = 0, g = -1, lane = WIDE; j < colored; j++, lane++)
    {
        int k = order[j];
        if (lane == WIDE || color[k] != color[order[j - 1]])
        {
            g++;
            lane = 0;
            wide_group *grp = wide_group_at(out, g);
            grp->lanes = 0;
            grp->color = color[k];
            grp->point_count = heads[k].point_count; // the most: sorted by points, descending
            grp->max_passes = 1;
        }
        wide_group *grp = wide_group_at(out, g);
        if (lane == 0)
        {
            out->color_first[grp->color + 1] = g + 1;
            grp->still_a = grp->still_b = 0;
        }
        grp->still_a |= states[heads[k].a].inv_mass > 0.0f ? 0 : 1 << lane;
        grp->still_b |= states[heads[k].b].inv_mass > 0.0f ? 0 : 1 << lane;
        grp->at_a[lane] = heads[k].a * (int)sizeof(ph_body_state);
        grp->at_b[lane] = heads[k].b * (int)sizeof(ph_body_state);
        grp->contact[lane] = heads[k].contact;
        grp->point_counts[lane] = heads[k].point_count;
        grp->lanes++;
    }
    // A colour without groups (none, but the colouring does not promise it) starts where the one before ends.
    for (int c = 0; c < out->colors; c++)
        if (out->color_first[c + 1] < out->color_first[c])
            out->color_first[c + 1] = out->color_first[c];
    // Unused lanes: no contact, no points (ph_wide_prepare zeroes them), and lane 0's bodies (which they
    // leave as they are).
    for (int g = 0; g < group_count; g++)
    {
        wide_group *grp = wide_group_at(out, g);
        for (int lane = grp->lanes; lane < WIDE; lane++)
        {
            grp->at_a[lane] = grp->at_a[0];
            grp->at_b[lane] = grp->at_b[0];
            grp->contact[lane] = -1;
            grp->point_counts[lane] = 0;
        }
    }
    return true;
}

void ph_wide_release(ph_arena *arena, wide_solver *w)
{
    void *blocks[] = {w->groups, w->used, w->order, w->color, w->scalar};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
    {
        if (blocks[i])
            ph_arena_free(arena, blocks[i]);
    }
    *w = (wide_solver){0};
}

// ---- The instruction sets ----

#if defined(__x86_64__)
#define PH_WIDE_X86 1
extern const wide_kernels ph_wide_kernels_sse2;
#if defined(PH_WIDE_AVX2)
extern const wide_kernels ph_wide_kernels_avx2;
#endif
#elif defined(__aarch64__) && defined(__ARM_NEON)
#define PH_WIDE_NEON 1
extern const wide_kernels ph_wide_kernels_neon;
#endif

// Whether this build and this CPU run `path` (a named one, not PH_SIMD_BEST).
static bool simd_available(ph_simd_path path)
{
    switch (path)
    {
    case PH_SIMD_SCALAR:
        return true;
#if defined(PH_WIDE_X86)
    case PH_SIMD_SSE2: // every x86-64 CPU has it
        return true;
#if defined(PH_WIDE_AVX2)
    case PH_SIMD_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
#elif defined(PH_WIDE_NEON)
    case PH_SIMD_NEON: // every AArch64 CPU has it
        return true;
#endif
    default:
        return false;
    }
}

ph_simd_path ph_simd_resolve(ph_simd_path requested)
{
    if (requested != PH_SIMD_BEST && simd_available(requested))
        return requested;
    const ph_simd_path best_first[] = {PH_SIMD_AVX2, PH_SIMD_NEON, PH_SIMD_SSE2};
    for (size_t i = 0; i < sizeof best_first / sizeof best_first[0]; i++)
    {
        if (simd_available(best_first[i]))
            return best_first[i];
    }
    return PH_SIMD_SCALAR;
}

const char *ph_simd_path_name(ph_simd_path path)
{
    switch (path)
    {
    case PH_SIMD_BEST:
        return "best";
    case PH_SIMD_SCALAR:
        return "scalar";
    case PH_SIMD_SSE2:
        return "sse2";
    case PH_SIMD_AVX2:
        return "avx2";
    case PH_SIMD_NEON:
        return "neon";
    }
    return "unknown";
}

const wide_kernels *ph_wide_kernels_for(ph_simd_path path)
{
    switch (ph_simd_resolve(path))
    {
#if defined(PH_WIDE_X86)
    case PH_SIMD_SSE2:
        return &ph_wide_kernels_sse2;
#if defined(PH_WIDE_AVX2)
    case PH_SIMD_AVX2:
        return &ph_wide_kernels_avx2;
#endif
#elif defined(PH_WIDE_NEON)
    case PH_SIMD_NEON:
        return &ph_wide_kernels_neon;
#endif
    default:
        return NULL;
    }
}
