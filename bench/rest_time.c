// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// rest_time: how long random heaps take to fall asleep (issue 19, item 7), the figure the heaps scenario test
// checks for fewer seeds. For each seed of a range it drops the first N dynamic bodies of a recipe's heap
// (heap1000: boxes; convex_pile1024: hulls of 32 random points) with sleeping on and prints the seconds from
// the last body's landing until every body was asleep (spawn_heap_rest_time), then the worst and how many
// seeds took longer than 20 s or never slept within the limit. Engine only, one line per seed.
// Usage: rest_time RECIPE [--keep N] [--seeds FIRST-LAST] [--limit S] [--simd best|scalar|sse2|avx2|neon]
#include "recipes/spawn.h"

#include "phys/phys.h"

#include <stdio.h>  // printf, fprintf, sscanf
#include <stdlib.h> // strtol, strtof
#include <string.h> // strcmp

// The heaps of issue 19 must be asleep this long after their last landing (unit: s).
#define REST_TARGET_S 20.0f

static int usage(void)
{
    fprintf(stderr, "usage: rest_time RECIPE [--keep N] [--seeds FIRST-LAST] [--limit S] "
                    "[--simd best|scalar|sse2|avx2|neon]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-')
        return usage();
    const char *name = argv[1];
    int keep = 200, first = 1, last = 20;
    float limit = 60.0f;
    ph_simd_path simd = PH_SIMD_BEST;
    for (int i = 2; i < argc; i++)
    {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value)
            return usage();
        i++;
        if (strcmp(arg, "--keep") == 0)
            keep = (int)strtol(value, NULL, 10);
        else if (strcmp(arg, "--seeds") == 0)
        {
            if (sscanf(value, "%d-%d", &first, &last) != 2)
                return usage();
        }
        else if (strcmp(arg, "--limit") == 0)
            limit = strtof(value, NULL);
        else if (strcmp(arg, "--simd") == 0)
        {
            bool known = false;
            for (int p = PH_SIMD_BEST; p <= PH_SIMD_NEON && !known; p++)
            {
                known = strcmp(value, ph_simd_path_name((ph_simd_path)p)) == 0;
                if (known)
                    simd = (ph_simd_path)p;
            }
            if (!known)
                return usage();
        }
        else
            return usage();
    }
    if (keep < 1 || first < 0 || last < first || !(limit > 0.0f && limit <= 3600.0f))
        return usage();
    printf("%s, %d bodies, path %s\n", name, keep, ph_simd_path_name(ph_simd_resolve(simd)));
    float worst = 0.0f;
    int late = 0;
    for (int seed = first; seed <= last; seed++)
    {
        float t = spawn_heap_rest_time(name, keep, (uint64_t)seed, limit, simd);
        if (t < -1.5f)
        {
            fprintf(stderr, "rest_time: could not build %s seed %d\n", name, seed);
            return 1;
        }
        if (t < 0.0f)
            printf("seed %d: not all asleep within %.0f s\n", seed, (double)limit);
        else
            printf("seed %d: all asleep %.2f s after the last landing\n", seed, (double)t);
        fflush(stdout);
        late += t < 0.0f || t > REST_TARGET_S;
        worst = t < 0.0f ? limit : (t > worst ? t : worst);
    }
    printf("seeds %d-%d: worst %.2f s, %d over %.0f s or never\n", first, last, (double)worst, late,
           (double)REST_TARGET_S);
    return late > 0 ? 1 : 0;
}
