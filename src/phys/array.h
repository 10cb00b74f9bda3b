// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The one growable-array helper: ph_array_reserve() grows a (pointer, capacity) pair of any element type
// through the counted allocator, doubling, so arrays that have reached their size never allocate again.
#pragma once

#include "core.h"

#include <limits.h>  // INT_MAX
#include <stdbool.h> // bool
#include <stddef.h>  // size_t
#include <stdint.h>  // SIZE_MAX

// Makes *data hold at least `needed` elements of elem_size bytes; *capacity is updated. Contents are
// kept. False when out of memory, or when the size does not fit a size_t (the array is then unchanged).
// The doubling stops at INT_MAX elements rather than wrapping the count.
static inline bool ph_array_reserve_raw(void **data, int *capacity, int needed, size_t elem_size)
{
    if (needed <= *capacity)
        return true;
    int cap = *capacity > 0 ? *capacity : 16;
    while (cap < needed)
        cap = cap <= INT_MAX / 2 ? cap * 2 : needed;
    if (elem_size == 0 || (size_t)cap > SIZE_MAX / elem_size)
        return false;
    void *p = ph_realloc(*data, (size_t)*capacity * elem_size, (size_t)cap * elem_size);
    if (!p)
        return false;
    *data = p;
    *capacity = cap;
    return true;
}

#define ph_array_reserve(ptr, capacity, needed)                                                              \
    ph_array_reserve_raw((void **)&(ptr), &(capacity), (needed), sizeof *(ptr))

#define ph_array_free(ptr, capacity)                                                                         \
    do                                                                                                       \
    {                                                                                                        \
        ph_free((ptr), (size_t)(capacity) * sizeof *(ptr));                                                  \
        (ptr) = NULL;                                                                                        \
        (capacity) = 0;                                                                                      \
    } while (0)
