// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The test runner: `phys_tests` runs every case; `phys_tests PREFIX` runs the cases whose area or
// case name starts with PREFIX (`phys_tests gjk`, `phys_tests gjk_box_box`). It ends with the plain
// summary line "N passed, N failed, N skipped" and exits 1 when a case failed or none ran, TEST_SKIPPED
// (77, ctest's skip code for these tests) when some were skipped and none failed, else 0.
#define _POSIX_C_SOURCE 200809L // stat

#include "test.h"
#include "test_registry.h"

#include <stdlib.h>   // getenv, strtoull
#include <string.h>   // strncmp, strlen
#include <sys/stat.h> // stat, S_ISDIR

int test_wide_paths(ph_simd_path out[3])
{
    const ph_simd_path wide[] = {PH_SIMD_SSE2, PH_SIMD_NEON, PH_SIMD_AVX2};
    int n = 0;
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
    {
        if (ph_simd_resolve(wide[i]) == wide[i])
            out[n++] = wide[i];
    }
    return n;
}

bool test_shared_testdata_present(void)
{
    struct stat st;
    return stat(SHARED_TESTDATA_DIR, &st) == 0 && S_ISDIR(st.st_mode);
}

uint64_t test_seed(void)
{
    static uint64_t seed;
    static int ready;
    if (!ready)
    {
        const char *env = getenv("PH_TEST_SEED");
        seed = env ? strtoull(env, NULL, 10) : 20261122u;
        ready = 1;
    }
    return seed;
}

uint64_t test_rand_u64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

float test_rand_float(uint64_t *state, float lo, float hi)
{
    float u = (float)(test_rand_u64(state) >> 40) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
}

ph_vec3 test_rand_vec3(uint64_t *state, float lo, float hi)
{
    ph_vec3 v;
    v.x = test_rand_float(state, lo, hi);
    v.y = test_rand_float(state, lo, hi);
    v.z = test_rand_float(state, lo, hi);
    return v;
}

// Shoemake's uniform random rotation from three uniform numbers.
ph_quat test_rand_quat(uint64_t *state)
{
    float u1 = test_rand_float(state, 0.0f, 1.0f);
    float u2 = test_rand_float(state, 0.0f, 2.0f * GLM_PIf);
    float u3 = test_rand_float(state, 0.0f, 2.0f * GLM_PIf);
    float a = sqrtf(1.0f - u1), b = sqrtf(u1);
    ph_quat q;
    q.x = a * sinf(u2);
    q.y = a * cosf(u2);
    q.z = b * sinf(u3);
    q.w = b * cosf(u3);
    return q;
}

static int matches(const char *prefix, const char *area, const char *name)
{
    size_t n = strlen(prefix);
    return strncmp(area, prefix, n) == 0 || strncmp(name, prefix, n) == 0;
}

int main(int argc, char **argv)
{
    const char *prefix = argc > 1 ? argv[1] : "";
    int passed = 0, failed = 0, skipped = 0;
    for (size_t a = 0; a < sizeof test_areas / sizeof test_areas[0]; a++)
    {
        for (const test_case *t = test_areas[a].cases; t->name; t++)
        {
            if (!matches(prefix, test_areas[a].name, t->name))
                continue;
            int rc = t->fn();
            printf("%-6s %s\n", rc == 0 ? "ok" : rc == TEST_SKIPPED ? "SKIP" : "FAIL", t->name);
            fflush(stdout);
            if (rc == 0)
                passed++;
            else if (rc == TEST_SKIPPED)
                skipped++;
            else
                failed++;
        }
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    if (failed > 0 || passed + skipped == 0)
        return 1;
    return skipped > 0 ? TEST_SKIPPED : 0;
}
