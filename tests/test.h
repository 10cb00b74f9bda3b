// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The test framework: a test is `static int name(void)` returning 0 on success; ENSURE* macros print
// what was compared (both values, the tolerance, and the random seed) and return 1 on failure.
// Each tests/test_<area>.c ends with a table `const test_case test_<area>_cases[] = {..., {0}}`.
#pragma once

#include "phys/math.h"
#include "phys/types.h" // ph_simd_path

#include <math.h>    // fabs
#include <stdbool.h> // bool
#include <stdint.h>  // uint64_t
#include <stdio.h>   // fprintf

typedef int (*test_fn)(void);
typedef struct test_case
{
    const char *name;
    test_fn fn;
} test_case;
typedef struct test_area
{
    const char *name;
    const test_case *cases;
} test_area;

// The wide solver paths this build and CPU run (ph_simd_resolve gives each back unchanged), fastest last:
// sse2 and avx2 on an x86-64 with AVX2, neon on arm64. Returns how many (at most 3) are in `out`.
int test_wide_paths(ph_simd_path out[3]);

// A case returns TEST_SKIPPED when what it needs is not there (the runner reports it as skipped, never
// as passed; ctest shows the area as skipped when none of its cases failed).
#define TEST_SKIPPED 77
// Whether ../shared/testdata (real files written by others, read in place) sits beside the checkout.
bool test_shared_testdata_present(void);
// Cases that read ../shared/testdata start with this: without the folder they are skipped, with a line
// saying why.
#define REQUIRE_SHARED_TESTDATA()                                                                            \
    do                                                                                                       \
    {                                                                                                        \
        if (!test_shared_testdata_present())                                                                 \
        {                                                                                                    \
            fprintf(stderr, "skipped: %s not found beside the checkout\n", SHARED_TESTDATA_DIR);             \
            return TEST_SKIPPED;                                                                             \
        }                                                                                                    \
    } while (0)

// The seed of the random inputs of the running test: PH_TEST_SEED in the environment, else fixed.
uint64_t test_seed(void);
// A small deterministic generator (splitmix64) so random tests reproduce from the printed seed.
uint64_t test_rand_u64(uint64_t *state);
// Uniform in [lo, hi).
float test_rand_float(uint64_t *state, float lo, float hi);
// A uniformly distributed random unit quaternion.
ph_quat test_rand_quat(uint64_t *state);
ph_vec3 test_rand_vec3(uint64_t *state, float lo, float hi);

#define TEST_FAIL_HEADER()                                                                                   \
    fprintf(stderr, "%s:%d: FAILED (seed %llu): ", __FILE__, __LINE__, (unsigned long long)test_seed())

#define ENSURE(cond)                                                                                         \
    do                                                                                                       \
    {                                                                                                        \
        if (!(cond))                                                                                         \
        {                                                                                                    \
            TEST_FAIL_HEADER();                                                                              \
            fprintf(stderr, "%s\n", #cond);                                                                  \
            return 1;                                                                                        \
        }                                                                                                    \
    } while (0)

#define ENSURE_NEAR(a, b, tol)                                                                               \
    do                                                                                                       \
    {                                                                                                        \
        double ensure_a_ = (double)(a), ensure_b_ = (double)(b), ensure_t_ = (double)(tol);                  \
        if (!(fabs(ensure_a_ - ensure_b_) <= ensure_t_))                                                     \
        {                                                                                                    \
            TEST_FAIL_HEADER();                                                                              \
            fprintf(stderr, "%s = %.9g, %s = %.9g, |diff| %.3g > tol %.3g\n", #a, ensure_a_, #b, ensure_b_,  \
                    fabs(ensure_a_ - ensure_b_), ensure_t_);                                                 \
            return 1;                                                                                        \
        }                                                                                                    \
    } while (0)

#define ENSURE_VEC3_NEAR(a, b, tol)                                                                          \
    do                                                                                                       \
    {                                                                                                        \
        ph_vec3 ensure_va_ = (a), ensure_vb_ = (b);                                                          \
        double ensure_t_ = (double)(tol);                                                                    \
        if (!(fabs((double)ensure_va_.x - (double)ensure_vb_.x) <= ensure_t_ &&                              \
              fabs((double)ensure_va_.y - (double)ensure_vb_.y) <= ensure_t_ &&                              \
              fabs((double)ensure_va_.z - (double)ensure_vb_.z) <= ensure_t_))                               \
        {                                                                                                    \
            TEST_FAIL_HEADER();                                                                              \
            fprintf(stderr, "%s = (%.9g %.9g %.9g), %s = (%.9g %.9g %.9g), tol %.3g\n", #a,                  \
                    (double)ensure_va_.x, (double)ensure_va_.y, (double)ensure_va_.z, #b,                    \
                    (double)ensure_vb_.x, (double)ensure_vb_.y, (double)ensure_vb_.z, ensure_t_);            \
            return 1;                                                                                        \
        }                                                                                                    \
    } while (0)
