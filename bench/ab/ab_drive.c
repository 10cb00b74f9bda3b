// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// ab_drive A.so B.so SCENE [STEPS] [BLOCK] [WORKERS[,WORKERS_B]]: two builds of the engine (ab_engine.c, made
// by ab.sh), or one build given twice with two worker counts (`1,2`: how a scene scales), step the same
// scene in one process, in turns of BLOCK steps (which goes first in a turn is drawn at
// random), so that both run under the same load: on a machine shared with others a binary's time swings by
// tens of percent from one run to the next, and two alternating runs still differ by several percent. Prints
// each build's mean step time, their ratio (total and median of the steps' ratios) and both state hashes
// (equal when the change keeps every bit). Both worlds share the caches, so the absolute times are above a
// run alone; the ratio is the figure.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h> // memcpy

typedef void *create_fn(const char *, int);
typedef double step_fn(void *);
typedef unsigned long long hash_fn(void *);

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 4)
    {
        fprintf(stderr, "usage: ab_drive A.so B.so SCENE [STEPS 300] [BLOCK 20] [WORKERS 1[,WORKERS_B]]\n");
        return 2;
    }
    int steps = argc > 4 ? atoi(argv[4]) : 300, block = argc > 5 ? atoi(argv[5]) : 20, workers[2] = {1, 1};
    if (argc > 6 && sscanf(argv[6], "%d,%d", &workers[0], &workers[1]) == 1)
        workers[1] = workers[0];
    if (steps < 1 || block < 1 || workers[0] < 1 || workers[1] < 1)
        return 2;
    step_fn *step[2];
    hash_fn *hash[2];
    void *world[2];
    for (int i = 0; i < 2; i++)
    {
        void *lib = dlopen(argv[1 + i], RTLD_NOW | RTLD_LOCAL);
        if (!lib)
        {
            fprintf(stderr, "ab_drive: %s\n", dlerror());
            return 1;
        }
        // dlsym's object pointers copied into function pointers (POSIX's way; a cast is not ISO C).
        create_fn *create;
        void *found[3] = {dlsym(lib, "ab_create"), dlsym(lib, "ab_step"), dlsym(lib, "ab_hash")};
        memcpy(&create, &found[0], sizeof create);
        memcpy(&step[i], &found[1], sizeof step[i]);
        memcpy(&hash[i], &found[2], sizeof hash[i]);
        world[i] = create && step[i] && hash[i] ? create(argv[3], workers[i]) : NULL;
        if (!world[i])
        {
            fprintf(stderr, "ab_drive: %s cannot make scene %s\n", argv[1 + i], argv[3]);
            return 1;
        }
    }
    double *t[2] = {calloc((size_t)steps, sizeof(double)), calloc((size_t)steps, sizeof(double))};
    double *ratio = calloc((size_t)steps, sizeof(double)), sum[2] = {0.0, 0.0};
    if (!t[0] || !t[1] || !ratio)
        return 1;
    unsigned rng = 12345u;
    for (int s0 = 0; s0 < steps; s0 += block)
    {
        rng = rng * 1103515245u + 12345u;
        int first = (int)((rng >> 16) & 1u);
        for (int k = 0; k < 2; k++)
        {
            int i = k ^ first;
            for (int s = s0; s < s0 + block && s < steps; s++)
                sum[i] += t[i][s] = step[i](world[i]);
        }
    }
    for (int s = 0; s < steps; s++)
        ratio[s] = t[1][s] / t[0][s];
    qsort(ratio, (size_t)steps, sizeof(double), by_value);
    printf("%s: A %.3f ms/step, B %.3f ms/step; B/A total %.4f, median of steps %.4f; hash A 0x%016llx, B "
           "0x%016llx\n",
           argv[3], sum[0] / steps, sum[1] / steps, sum[1] / sum[0], ratio[steps / 2], hash[0](world[0]),
           hash[1](world[1]));
    return 0;
}
