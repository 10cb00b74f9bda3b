// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The benchmarks' end-state verdict (bench/bench_metrics.c, issue 23) on fabricated runs, no engine: a box
// that ends under the floor, out of the scene, still moving, faster than it started or NaN is flagged with a
// reason; one resting on the floor (sunk in by a contact's overlap) is not; a stack that moved, a pile that
// ends at the wrong height and a box beyond a wall are flagged by their recipes' expectations. The states are
// written by hand, as an engine would report them.
#include "bench_metrics.h"
#include "recipes/recipes.h"
#include "test.h"

#include <string.h> // strstr

#define RUN_STEPS 120 // two seconds at 60 Hz: past the drift's first second

// The state of every item as it was made, at rest, with the mass of a 1000 kg unit box.
static void spawn_states(const recipe_scene *scene, bench_state *states)
{
    for (int i = 0; i < scene->item_count; i++)
    {
        bench_state *s = &states[i];
        memset(s, 0, sizeof *s);
        memcpy(s->position, scene->items[i].position, sizeof s->position);
        memcpy(s->orientation, scene->items[i].orientation, sizeof s->orientation);
        bool dynamic = scene->items[i].type == RECIPE_DYNAMIC;
        s->mass = dynamic ? 1000.0f : 0.0f;
        for (int a = 0; a < 3; a++)
            s->inertia[4 * a] = dynamic ? 1000.0f / 6.0f : 0.0f;
        s->awake = true;
    }
}

// A scene of a static ground (top at y = 0) and one unit box (item 1) resting on it, as recipe_build makes
// them, and the box's state at spawn.
static int ground_and_box(recipe_scene *scene, bench_state *out_box)
{
    recipe_scene_init(scene, "judged");
    const float half[3] = {20.0f, 1.0f, 20.0f};
    ENSURE(recipe_add_ground(scene, half, 0.0f, recipe_default_material()));
    recipe_item *box = recipe_add_item(scene);
    ENSURE(box != NULL);
    box->position[1] = 0.5f;
    bench_state states[2];
    spawn_states(scene, states);
    *out_box = states[1];
    return 0;
}

// Runs the scene for RUN_STEPS with the items at spawn until the last step, where item `index` takes state
// `last`; the verdict and the run's figures are returned.
static int judge(const recipe_scene *scene, int index, const bench_state *last, bench_verdict *out_verdict,
                 bench_run *out_run)
{
    bench_state states[4];
    ENSURE(scene->item_count <= 4);
    spawn_states(scene, states);
    ENSURE(bench_run_init(out_run, scene, RUN_STEPS));
    for (int step = 0; step <= RUN_STEPS; step++)
    {
        if (step == RUN_STEPS)
            states[index] = *last;
        bench_run_sample(out_run, step, states, 0.1f);
    }
    bench_run_judge(out_run, out_verdict);
    return 0;
}

// Whether one of the verdict's reasons contains `word`.
static bool has_reason(const bench_verdict *v, const char *word)
{
    for (int i = 0; i < v->reason_count; i++)
        if (strstr(v->reasons[i], word))
            return true;
    return false;
}

static int bench_metrics_resting_box_is_ok(void)
{
    recipe_scene scene;
    bench_state box, last;
    ENSURE(ground_and_box(&scene, &box) == 0);
    last = box;
    last.position[1] = 0.5f - 0.005f; // sunk in by a resting contact's overlap
    last.linear_velocity[0] = 0.001f;
    last.awake = false;
    bench_verdict v;
    bench_run run;
    ENSURE(judge(&scene, 1, &last, &v, &run) == 0);
    ENSURE(v.ok && v.reason_count == 0);
    ENSURE(run.fell == 0 && run.left == 0 && run.asleep == 1);
    ENSURE_NEAR(run.mean_height, 0.495, 1e-6);
    bench_run_free(&run);
    recipe_scene_free(&scene);
    return 0;
}

static int bench_metrics_fell_through_is_flagged(void)
{
    recipe_scene scene;
    bench_state box, last;
    ENSURE(ground_and_box(&scene, &box) == 0);
    last = box;
    last.position[1] = -3.0f; // under the ground box (its bottom is at -2), at rest
    bench_verdict v;
    bench_run run;
    ENSURE(judge(&scene, 1, &last, &v, &run) == 0);
    ENSURE(!v.ok);
    ENSURE(run.fell == 1);
    ENSURE(has_reason(&v, "into the floor"));
    // Tilted 45 degrees about z, the box reaches 0.71 m down: a centre 0.55 m up is 0.16 m into the floor.
    last = box;
    last.position[1] = 0.55f;
    last.orientation[2] = sinf(0.125f * GLM_PIf);
    last.orientation[3] = cosf(0.125f * GLM_PIf);
    bench_run_free(&run);
    ENSURE(judge(&scene, 1, &last, &v, &run) == 0);
    ENSURE(!v.ok && run.fell == 1);
    ENSURE_NEAR(run.fell_depth, 0.5 * sqrt(2.0) - 0.55, 1e-5);
    bench_run_free(&run);
    recipe_scene_free(&scene);
    return 0;
}

static int bench_metrics_moving_and_gaining_is_flagged(void)
{
    recipe_scene scene;
    bench_state box, last;
    ENSURE(ground_and_box(&scene, &box) == 0);
    last = box;
    last.linear_velocity[0] = 1.0f; // 500 J, from rest: not settled, and energy from nowhere
    bench_verdict v;
    bench_run run;
    ENSURE(judge(&scene, 1, &last, &v, &run) == 0);
    ENSURE(!v.ok);
    ENSURE(has_reason(&v, "not settled"));
    ENSURE(has_reason(&v, "energy grew"));
    ENSURE_NEAR(run.ke_end, 500.0, 1e-3);
    bench_run_free(&run);
    // A scene that says it is not expected to settle is judged on the energy alone.
    scene.expect.settle_speed = 0.0f;
    ENSURE(judge(&scene, 1, &last, &v, &run) == 0);
    ENSURE(!has_reason(&v, "not settled") && has_reason(&v, "energy grew"));
    bench_run_free(&run);
    // Falling 1 m turns potential energy into kinetic: no gain.
    last = box;
    last.position[1] = 5.5f;
    scene.items[1].position[1] = 6.5f;
    last.linear_velocity[1] = -sqrtf(2.0f * 9.81f * 1.0f);
    ENSURE(judge(&scene, 1, &last, &v, &run) == 0);
    ENSURE(v.ok);
    bench_run_free(&run);
    recipe_scene_free(&scene);
    return 0;
}

static int bench_metrics_left_and_nan_are_flagged(void)
{
    recipe_scene scene;
    bench_state box, last;
    ENSURE(ground_and_box(&scene, &box) == 0);
    last = box;
    last.position[0] = 25.0f; // beyond the ground's edge (20 m) by more than the margin, and under its top
    last.position[1] = -5.0f;
    bench_verdict v;
    bench_run run;
    ENSURE(judge(&scene, 1, &last, &v, &run) == 0);
    ENSURE(!v.ok && run.left == 1 && has_reason(&v, "left the scene"));
    bench_run_free(&run);
    last = box;
    last.angular_velocity[2] = NAN;
    ENSURE(judge(&scene, 1, &last, &v, &run) == 0);
    ENSURE(!v.ok && has_reason(&v, "NaN"));
    bench_run_free(&run);
    recipe_scene_free(&scene);
    return 0;
}

// The recipes' own expectations: a stack's drift, a pile's mean height, a wall's tunnel plane.
static int bench_metrics_recipe_expectations(void)
{
    recipe_scene scene;
    bench_state box, last;
    ENSURE(ground_and_box(&scene, &box) == 0);
    scene.metrics = RECIPE_METRIC_DRIFT;
    scene.expect.max_drift = RECIPE_STAND_DRIFT;
    last = box;
    last.position[0] = 0.05f; // slid 5 cm after the first second
    bench_verdict v;
    bench_run run;
    ENSURE(judge(&scene, 1, &last, &v, &run) == 0);
    ENSURE(!v.ok && has_reason(&v, "stack moved"));
    ENSURE_NEAR(run.max_drift, 0.05, 1e-6);
    bench_run_free(&run);
    scene.metrics = RECIPE_METRIC_NONE;
    scene.expect.mean_height_min = 1.0f;
    scene.expect.mean_height_max = 2.0f;
    ENSURE(judge(&scene, 1, &box, &v, &run) == 0);
    ENSURE(!v.ok && has_reason(&v, "mean height"));
    bench_run_free(&run);
    recipe_scene_free(&scene);

    // One box before a wall (no gravity, no ground): ending against it, ok; behind it, flagged.
    recipe_scene_init(&scene, "wall");
    scene.gravity[1] = 0.0f;
    const float half[3] = {0.1f, 0.1f, 0.1f};
    ENSURE(recipe_add_bullet_wall(&scene, 1, half, 300.0f, 0.1f, 0.0f, recipe_default_material()));
    bench_state states[2];
    spawn_states(&scene, states);
    last = states[0];
    last.position[0] = -0.1f - 0.1f; // against the wall's front face
    ENSURE(judge(&scene, 0, &last, &v, &run) == 0);
    ENSURE(v.ok);
    bench_run_free(&run);
    last.position[0] = 0.5f; // behind the wall's back face (x = 0)
    ENSURE(judge(&scene, 0, &last, &v, &run) == 0);
    ENSURE(!v.ok && has_reason(&v, "through a wall"));
    bench_run_free(&run);
    recipe_scene_free(&scene);
    return 0;
}

const test_case test_bench_metrics_cases[] = {
    {"bench_metrics_resting_box_is_ok", bench_metrics_resting_box_is_ok},
    {"bench_metrics_fell_through_is_flagged", bench_metrics_fell_through_is_flagged},
    {"bench_metrics_moving_and_gaining_is_flagged", bench_metrics_moving_and_gaining_is_flagged},
    {"bench_metrics_left_and_nan_are_flagged", bench_metrics_left_and_nan_are_flagged},
    {"bench_metrics_recipe_expectations", bench_metrics_recipe_expectations},
    {0},
};
