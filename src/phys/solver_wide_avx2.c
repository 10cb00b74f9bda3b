// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The wide kernels on AVX2 + FMA, 8 lanes: solver_wide_kernels.h built for simd.h's AVX2 lanes. CMake builds
// this file with -mavx2 -mfma (and defines PH_WIDE_AVX2 for the library) where the compiler has them; the
// kernels run only where the CPU reports both (ph_simd_resolve). Other builds leave the file empty.
#if defined(__AVX2__) && defined(__FMA__)
#define PH_LANES_AVX2
#include "solver_wide_kernels.h"
#else
typedef int solver_wide_avx2_not_built; // ISO C wants something in a translation unit
#endif
