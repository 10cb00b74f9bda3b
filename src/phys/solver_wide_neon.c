// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The wide kernels on Neon (AdvSIMD), 4 lanes: solver_wide_kernels.h built for simd.h's Neon lanes. Every
// AArch64 CPU has Neon, so this needs no flags; other targets leave the file empty.
#if defined(__aarch64__) && defined(__ARM_NEON)
#define PH_LANES_NEON
// gcc 12 for AArch64 takes a group's inverse inertia matrices (wide_inertia) for used uninitialised where the
// group is isotropic, which reads only the scales; zeroing them in every sweep to quiet it would cost the
// other sets too.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "solver_wide_kernels.h"
#else
typedef int solver_wide_neon_not_built; // ISO C wants something in a translation unit
#endif
