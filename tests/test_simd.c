// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The contact solver's paths (ph_simd_path): which path a world gets, and whole scenes stepped on every path
// this CPU runs against the scalar path. The kernels themselves, lane by lane, are tested in test_solver.c
// (solver_wide_lanes_independent and the tests before it, on every path).
#include "recipes/recipes.h"
#include "recipes/spawn.h"
#include "test.h"

#include "phys/phys.h"

#include <stdlib.h> // malloc, free
#include <string.h> // strcmp

// Every named path resolves to itself where this build and CPU have it, else to what PH_SIMD_BEST gives;
// scalar runs everywhere, and a world asking for no path at all is refused.
static int simd_paths_resolve(void)
{
    ph_simd_path best = ph_simd_resolve(PH_SIMD_BEST);
    ENSURE(best != PH_SIMD_BEST);
    ENSURE(ph_simd_resolve(PH_SIMD_SCALAR) == PH_SIMD_SCALAR);
#if defined(__x86_64__)
    ENSURE(ph_simd_resolve(PH_SIMD_SSE2) == PH_SIMD_SSE2); // every x86-64 CPU has SSE2
    ENSURE(ph_simd_resolve(PH_SIMD_NEON) == best);
    ENSURE(best == PH_SIMD_AVX2 || best == PH_SIMD_SSE2);
#elif defined(__aarch64__)
    ENSURE(best == PH_SIMD_NEON);
    ENSURE(ph_simd_resolve(PH_SIMD_SSE2) == PH_SIMD_NEON && ph_simd_resolve(PH_SIMD_AVX2) == PH_SIMD_NEON);
#endif
    for (int p = PH_SIMD_SCALAR; p <= PH_SIMD_NEON; p++)
    {
        ph_simd_path got = ph_simd_resolve((ph_simd_path)p);
        ENSURE(got == (ph_simd_path)p || got == best);
    }
    ph_simd_path wide[3];
    int n = test_wide_paths(wide);
    ENSURE(n >= 1 && wide[n - 1] == best); // fastest last
    ENSURE(strcmp(ph_simd_path_name(PH_SIMD_AVX2), "avx2") == 0 &&
           strcmp(ph_simd_path_name(PH_SIMD_BEST), "best") == 0);
    ph_world_def wd = ph_default_world_def();
    ENSURE(wd.simd == PH_SIMD_BEST);
    wd.simd = (ph_simd_path)(PH_SIMD_NEON + 1);
    ENSURE(ph_world_create(&wd) == NULL);
    return 0;
}

// A recipe scene stepped `steps` times on `path`: each item's position (out, item order) and the world's
// hash.
static int run_scene_on(const char *name, int steps, ph_simd_path path, ph_vec3 *out, int capacity,
                        uint64_t *out_hash)
{
    recipe_scene scene;
    ENSURE(recipe_build(name, RECIPE_DEFAULT_SEED, &scene));
    ENSURE(scene.item_count <= capacity);
    ph_world_def wd = spawn_world_def(&scene);
    wd.simd = path;
    ph_world *world = ph_world_create(&wd);
    ENSURE(world != NULL);
    ph_body_id *ids = malloc((size_t)scene.item_count * sizeof *ids);
    ENSURE(ids != NULL);
    ENSURE(spawn_recipe(world, &scene, ids) == PH_OK);
    for (int s = 0; s < steps; s++)
        ph_world_step(world);
    for (int i = 0; i < scene.item_count; i++)
        out[i] = ph_body_get_position(world, ids[i]);
    *out_hash = ph_world_hash(world);
    int count = scene.item_count;
    free(ids);
    ph_world_destroy(world);
    recipe_scene_free(&scene);
    return count;
}

// The largest distance between the positions of a and b.
static float largest_gap(const ph_vec3 *a, const ph_vec3 *b, int count)
{
    float gap = 0.0f;
    for (int i = 0; i < count; i++)
        gap = fmaxf(gap, glms_vec3_distance(a[i], b[i]));
    return gap;
}

enum
{
    SIMD_SCENE_ITEMS = 256
};

// Stacks that stand still, stepped on every wide path this CPU runs. Each path's hash, the scalar one's too,
// is the same run to run. The boxes end where the scalar path leaves them to within what sweeping the
// contacts in another order (colour by colour) makes of a stack of soft contacts: they sag a little
// differently (measured: 1.6 mm in pyramid10 and 1.5 mm in tower10, asleep by then, and 8.5 mm in pyramid20
// after 2 s, on SSE2, AVX2 and Neon alike). The wide paths among themselves do the same arithmetic in the
// same order, and differ only where AVX2 fuses a multiply-add that SSE2 rounds twice: their boxes end within
// micrometres (6e-7 m, 5e-8 m and 7e-6 m on those), so one lane of a 4-lane unit that went wrong shows far
// above that. The differences are printed: they are what the paths' determinism is (see ph_simd_path).
static int simd_paths_match_scalar(void)
{
    static const struct
    {
        const char *name;
        int steps;
        float tolerance; // against the scalar path (unit: m)
    } scenes[] = {{"pyramid10", 240, 5e-3f}, {"tower10", 240, 5e-3f}, {"pyramid20", 120, 3e-2f}};
    const float between_wide = 1e-4f; // (unit: m)
    static ph_vec3 scalar[SIMD_SCENE_ITEMS], wide[3][SIMD_SCENE_ITEMS], again[SIMD_SCENE_ITEMS];
    for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++)
    {
        uint64_t scalar_hash, hash[3], again_hash;
        int count = run_scene_on(scenes[s].name, scenes[s].steps, PH_SIMD_SCALAR, scalar, SIMD_SCENE_ITEMS,
                                 &scalar_hash);
        ENSURE(count > 0);
        uint64_t scalar_again;
        ENSURE(run_scene_on(scenes[s].name, scenes[s].steps, PH_SIMD_SCALAR, again, SIMD_SCENE_ITEMS,
                            &scalar_again) == count);
        ENSURE(scalar_again == scalar_hash);
        ph_simd_path paths[3];
        int n = test_wide_paths(paths);
        for (int p = 0; p < n; p++)
        {
            ENSURE(run_scene_on(scenes[s].name, scenes[s].steps, paths[p], wide[p], SIMD_SCENE_ITEMS,
                                &hash[p]) == count);
            ENSURE(run_scene_on(scenes[s].name, scenes[s].steps, paths[p], again, SIMD_SCENE_ITEMS,
                                &again_hash) == count);
            float gap = largest_gap(scalar, wide[p], count);
            fprintf(stderr, "%s, %d steps: %s against scalar: %.2e m (hashes %016llx, %016llx)\n",
                    scenes[s].name, scenes[s].steps, ph_simd_path_name(paths[p]), (double)gap,
                    (unsigned long long)hash[p], (unsigned long long)scalar_hash);
            ENSURE(again_hash == hash[p]);
            ENSURE(largest_gap(again, wide[p], count) == 0.0f);
            ENSURE(gap < scenes[s].tolerance);
        }
        for (int p = 1; p < n; p++)
        {
            float gap = largest_gap(wide[0], wide[p], count);
            fprintf(stderr, "%s, %d steps: %s against %s: %.2e m, hashes %s\n", scenes[s].name,
                    scenes[s].steps, ph_simd_path_name(paths[p]), ph_simd_path_name(paths[0]), (double)gap,
                    hash[0] == hash[p] ? "equal" : "differ");
            ENSURE(gap < between_wide);
        }
    }
    return 0;
}

const test_case test_simd_cases[] = {
    {"simd_paths_resolve", simd_paths_resolve},
    {"simd_paths_match_scalar", simd_paths_match_scalar},
    {0},
};
