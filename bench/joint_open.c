// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// joint_open: how far a jointed scene's joints come apart (issue 20: "no joint separated by more than 2 cm at
// any step") and how soon it falls asleep, over a range of seeds, for the scenes whose outcome a seed
// changes (ragdoll_stairs: where each ragdoll drops). For each seed it steps the recipe's world until every
// body is asleep (after the first 2 s) or the limit, and prints the largest distance between the two anchors
// of any joint after any step (spawn_worst_joint_opening, which the joints test reads too) and when the
// scene fell asleep. The joints test checks one seed (tests/test_joints.c, joints_ragdolls_down_stairs);
// this is the spread. Engine only.
// Usage: joint_open RECIPE [--seeds FIRST-LAST] [--limit S]
#include "recipes/spawn.h"

#include "phys/phys.h"

#include <stdio.h>  // printf, fprintf, sscanf
#include <stdlib.h> // malloc, strtof
#include <string.h> // strcmp

// Issue 20's bound on a joint's opening (unit: m).
#define OPEN_TARGET_M 0.02f

static int usage(void)
{
    fprintf(stderr, "usage: joint_open RECIPE [--seeds FIRST-LAST] [--limit S]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-')
        return usage();
    const char *name = argv[1];
    int first = 1, last = 16;
    float limit = 60.0f;
    for (int i = 2; i + 1 < argc; i += 2)
    {
        if (strcmp(argv[i], "--seeds") == 0)
        {
            if (sscanf(argv[i + 1], "%d-%d", &first, &last) != 2)
                return usage();
        }
        else if (strcmp(argv[i], "--limit") == 0)
            limit = strtof(argv[i + 1], NULL);
        else
            return usage();
    }
    if (argc % 2 != 0 || first < 0 || last < first || !(limit > 2.0f && limit <= 3600.0f))
        return usage();
    float worst_all = 0.0f;
    int open = 0, awake = 0;
    for (int seed = first; seed <= last; seed++)
    {
        recipe_scene scene;
        if (!recipe_build(name, (uint64_t)seed, &scene))
        {
            fprintf(stderr, "joint_open: no recipe %s\n", name);
            return 1;
        }
        ph_world_def wd = spawn_world_def(&scene);
        ph_world *w = ph_world_create(&wd);
        ph_body_id *bodies = malloc((size_t)(scene.item_count > 0 ? scene.item_count : 1) * sizeof *bodies);
        if (!w || !bodies || spawn_recipe(w, &scene, bodies) != PH_OK)
        {
            fprintf(stderr, "joint_open: could not build %s seed %d\n", name, seed);
            return 1;
        }
        // worst: -1 once an anchor was not finite.
        float worst = 0.0f, dt = scene.time_step, asleep = -1.0f;
        for (int s = 1; s <= (int)(limit / dt) && worst >= 0.0f; s++)
        {
            ph_world_step(w);
            float now = spawn_worst_joint_opening(w);
            worst = now < 0.0f ? -1.0f : now > worst ? now : worst;
            if ((float)s * dt > 2.0f && ph_world_get_stats(w)->awake_body_count == 0)
            {
                asleep = (float)s * dt;
                break;
            }
        }
        if (worst < 0.0f)
            printf("seed %d: a joint's anchors not finite\n", seed);
        else if (asleep < 0.0f)
            printf("seed %d: worst opening %.2f mm; not all asleep within %.0f s\n", seed,
                   (double)worst * 1e3, (double)limit);
        else
            printf("seed %d: worst opening %.2f mm; all asleep after %.1f s\n", seed, (double)worst * 1e3,
                   (double)asleep);
        open += !(worst >= 0.0f && worst < OPEN_TARGET_M);
        awake += asleep < 0.0f;
        worst_all = worst > worst_all ? worst : worst_all; // of the seeds whose anchors stayed finite
        free(bodies);
        ph_world_destroy(w);
        recipe_scene_free(&scene);
    }
    printf("worst %.2f mm; %d seeds opened %.0f mm or more (or not finite), %d not asleep within %.0f s\n",
           (double)worst_all * 1e3, open, (double)OPEN_TARGET_M * 1e3, awake, (double)limit);
    return 0;
}
