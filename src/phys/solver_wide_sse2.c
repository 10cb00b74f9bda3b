// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The wide kernels on SSE2, 4 lanes: solver_wide_kernels.h built for simd.h's SSE2 lanes. Every x86-64 CPU
// has SSE2, so this needs no flags and runs anywhere the library does; other targets leave the file empty.
#if defined(__x86_64__)
#define PH_LANES_SSE2
#include "solver_wide_kernels.h"
#else
typedef int solver_wide_sse2_not_built; // ISO C wants something in a translation unit
#endif
