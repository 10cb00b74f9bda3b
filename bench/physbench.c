// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// physbench: our engine on the benchmark scenes (issue 4). For each scene of the registry
// (bench_scene_names in bench_metrics.c, shared with the Bullet reference so both run the same
// list), it builds the recipe through spawn.c, steps it at the recipe's fixed rate, times every
// ph_world_step, reads the per-stage times and counters from ph_world_get_stats(), samples every
// body through the public API, and prints one JSON line through bench_metrics.c with
// "engine":"ours", ending with the end state and its verdict against the recipe's expectations (end_ok,
// end_reasons). Engine only: no
// SDL, no GL. Options: --scene NAME (repeatable; default all), --steps N, --seed N, --simd PATH
// (the contact solver's path: best, the default, scalar, sse2, avx2 or neon; a path this CPU lacks runs the
// best it has, and stderr says which ran), --scalar (the same as --simd scalar), --no-calendar (world def
// enable_calendar off: the reference run of issue 19 item 8), --calendar-report (one line per scene on
// stderr: the calendar's events per step, its budget hits and the dynamic bodies' mean height), --workers N
// (world def worker_count on the built-in pool; default 1, so that figures stay comparable), --list.
#include "bench_metrics.h"
#include "recipes/recipes.h"
#include "recipes/spawn.h"

#include "phys/phys.h"

#include <inttypes.h> // PRIx64
#include <math.h>     // sqrt
#include <stdio.h>    // printf, snprintf
#include <stdlib.h>   // strtol, strtoull, malloc
#include <string.h>   // strcmp, memcpy

// Most --scene options on one command line.
#define MAX_SCENES 64

// --simd PATH (--scalar: scalar): world def simd.
static ph_simd_path simd_path = PH_SIMD_BEST;
// --no-calendar: no time-of-impact calendar (world def enable_calendar off).
static bool no_calendar;
// --calendar-report: the calendar's summary line on stderr.
static bool calendar_report;
// --workers N: world def worker_count.
static int workers = 1;
// --step-times FILE: each step's wall time (ms), one per line (one --scene only), for comparisons of two
// builds that take the least of several runs step by step (a deterministic scene does the same work in every
// run; another program's load only ever adds time).
static const char *step_times_path;
// Room for the ms_stage JSON object (one "name":value per stage).
#define STAGE_JSON_SIZE 512
// --calendar-report counts the body-steps in which a body at speed did not move (issue 24, item 8): faster
// than STUCK_SPEED (unit: m/s) at the step's start, its velocity changed by less than STUCK_CHANGE of that
// over the step (unhindered, so it should move |v| dt), yet its centre moved less than STUCK_MOVE of |v| dt.
#define STUCK_SPEED 10.0
#define STUCK_CHANGE 0.1
#define STUCK_MOVE 0.5

static double distance3(const float a[3], const float b[3])
{
    double d0 = (double)a[0] - (double)b[0], d1 = (double)a[1] - (double)b[1],
           d2 = (double)a[2] - (double)b[2];
    return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

// Body-steps of a body at speed that did not move, from the samples before and after a step (see
// STUCK_SPEED).
static int count_stuck(const bench_state *before, const bench_state *after, int count, double dt)
{
    static const float zero[3] = {0.0f, 0.0f, 0.0f};
    int stuck = 0;
    for (int i = 0; i < count; i++)
    {
        double speed = distance3(before[i].linear_velocity, zero);
        if (speed > STUCK_SPEED &&
            distance3(after[i].linear_velocity, before[i].linear_velocity) < STUCK_CHANGE * speed &&
            distance3(after[i].position, before[i].position) < STUCK_MOVE * speed * dt)
            stuck++;
    }
    return stuck;
}

static void sample(ph_world *world, const ph_body_id *ids, int count, bench_state *states)
{
    for (int i = 0; i < count; i++)
    {
        bench_state *s = &states[i];
        ph_vec3 p = ph_body_get_position(world, ids[i]);
        ph_quat q = ph_body_get_orientation(world, ids[i]);
        ph_vec3 v = ph_body_get_linear_velocity(world, ids[i]);
        ph_vec3 w = ph_body_get_angular_velocity(world, ids[i]);
        ph_mat3 inertia = ph_body_get_world_inertia(world, ids[i]);
        for (int a = 0; a < 3; a++)
        {
            s->position[a] = p.raw[a];
            s->linear_velocity[a] = v.raw[a];
            s->angular_velocity[a] = w.raw[a];
        }
        s->orientation[0] = q.x;
        s->orientation[1] = q.y;
        s->orientation[2] = q.z;
        s->orientation[3] = q.w;
        s->mass = ph_body_get_mass(world, ids[i]);
        s->awake = ph_body_is_awake(world, ids[i]);
        // ph_mat3 is column-major: col[c].raw[r] is row r.
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
                s->inertia[3 * r + c] = inertia.col[c].raw[r];
        }
    }
}

static bool run_scene(const char *name, uint64_t seed, int steps_override)
{
    recipe_scene scene;
    if (!recipe_build(name, seed, &scene))
    {
        fprintf(stderr, "physbench: unknown scene '%s' (--list shows the names)\n", name);
        return false;
    }
    int steps = steps_override > 0 ? steps_override : scene.steps;
    ph_world_def def = spawn_world_def(&scene);
    def.simd = simd_path;
    def.enable_calendar = !no_calendar;
    def.worker_count = workers;
    ph_world *world = ph_world_create(&def);
    ph_body_id *ids = malloc((size_t)(scene.item_count > 0 ? scene.item_count : 1) * sizeof *ids);
    bench_state *states = malloc((size_t)(scene.item_count > 0 ? scene.item_count : 1) * sizeof *states);
    bench_state *before = malloc((size_t)(scene.item_count > 0 ? scene.item_count : 1) * sizeof *before);
    bench_run run;
    bool ok = world && ids && states && before && bench_run_init(&run, &scene, steps);
    if (ok)
    {
        ph_status status = spawn_recipe(world, &scene, ids);
        if (status != PH_OK)
        {
            fprintf(stderr, "physbench: %s: spawning failed: %s: %s\n", name, ph_status_string(status),
                    ph_world_last_error(world).message);
            bench_run_free(&run);
            ok = false;
        }
    }
    if (ok)
    {
        double stage_sum[PH_STAGE_COUNT] = {0};
        sample(world, ids, scene.item_count, states);
        bench_run_sample(&run, 0, states, 0.0f);
        run.calendar_events_max = 0;
        long events_sum = 0, hits_sum = 0, sweeps_sum = 0, substeps_sum = 0;
        int steps_at_budget = 0, last_at_budget = 0, stuck = 0, last_stuck = 0;
        FILE *step_times = step_times_path ? fopen(step_times_path, "w") : NULL;
        if (step_times_path && !step_times)
            fprintf(stderr, "physbench: cannot write %s\n", step_times_path);
        for (int step = 1; step <= steps; step++)
        {
            if (calendar_report)
                memcpy(before, states, (size_t)scene.item_count * sizeof *states);
            double t0 = bench_now_ms();
            ph_world_step(world);
            double ms = bench_now_ms() - t0;
            const ph_step_stats *stats = ph_world_get_stats(world);
            run.contacts_sum += stats->contact_point_count;
            if (stats->calendar_events > run.calendar_events_max)
                run.calendar_events_max = stats->calendar_events;
            events_sum += stats->calendar_events;
            hits_sum += stats->calendar_budget_hits;
            sweeps_sum += stats->calendar_sweeps;
            substeps_sum += stats->solver_substeps;
            steps_at_budget += stats->calendar_budget_hits > 0;
            last_at_budget = stats->calendar_budget_hits > 0 ? step : last_at_budget;
            for (int k = 0; k < PH_STAGE_COUNT; k++)
                stage_sum[k] += (double)stats->ms_stage[k];
            sample(world, ids, scene.item_count, states);
            if (calendar_report)
            {
                int n = count_stuck(before, states, scene.item_count, (double)def.time_step);
                stuck += n;
                last_stuck = n > 0 ? step : last_stuck;
            }
            bench_run_sample(&run, step, states, (float)ms);
            if (step_times)
                fprintf(step_times, "%.4f\n", ms);
        }
        if (step_times)
            fclose(step_times);
        if (calendar_report)
        {
            int dynamic = 0;
            for (int i = 0; i < scene.item_count; i++)
                dynamic += scene.items[i].type == RECIPE_DYNAMIC;
            fprintf(
                stderr,
                "%s: calendar %s, %d steps: events/step mean %.1f max %d, sweeps/step %.1f, budget hits %ld "
                "in %d steps (the last %d); %d dynamic bodies, mean height %.3f m; "
                "at speed but not moving: %d body-steps (the last in step %d); solver sub-steps/step %.2f\n",
                name, no_calendar ? "off" : "on", steps, steps > 0 ? (double)events_sum / steps : 0.0,
                run.calendar_events_max, steps > 0 ? (double)sweeps_sum / steps : 0.0, hits_sum,
                steps_at_budget, last_at_budget, dynamic, run.mean_height, stuck, last_stuck,
                steps > 0 ? (double)substeps_sum / steps : 0.0);
        }
        char stages[STAGE_JSON_SIZE];
        int len = snprintf(stages, sizeof stages, "{");
        for (int k = 0; k < PH_STAGE_COUNT && len > 0 && (size_t)len < sizeof stages; k++)
            len += snprintf(stages + len, sizeof stages - (size_t)len, "%s\"%s\":%.4f", k ? "," : "",
                            ph_stage_name((ph_stage)k), steps > 0 ? stage_sum[k] / steps : 0.0);
        if (len > 0 && (size_t)len < sizeof stages - 1)
            snprintf(stages + len, sizeof stages - (size_t)len, "}");
        char hash[32];
        snprintf(hash, sizeof hash, "0x%016" PRIx64, ph_world_hash(world));
        bench_run_print(&run, stdout, "ours", NULL, stages, hash);
        bench_run_free(&run);
    }
    if (world)
        ph_world_destroy(world);
    free(ids);
    free(states);
    free(before);
    recipe_scene_free(&scene);
    return ok;
}

// The ph_simd_path named `name` (ph_simd_path_name's names).
static bool parse_simd(const char *name, ph_simd_path *out)
{
    for (int p = PH_SIMD_BEST; p <= PH_SIMD_NEON; p++)
    {
        if (strcmp(name, ph_simd_path_name((ph_simd_path)p)) == 0)
        {
            *out = (ph_simd_path)p;
            return true;
        }
    }
    return false;
}

static void usage(void)
{
    fprintf(
        stderr,
        "usage: physbench [--scene NAME]... [--steps N] [--seed N] [--simd best|scalar|sse2|avx2|neon]\n"
        "                 [--scalar] [--no-calendar] [--calendar-report] [--workers N] [--step-times FILE]\n"
        "                 [--list]\n"
        "Steps each scene at 60 Hz and prints one JSON line per scene.\n");
}

int main(int argc, char **argv)
{
    const char *scenes[MAX_SCENES];
    int scene_count = 0, steps = 0;
    uint64_t seed = RECIPE_DEFAULT_SEED;
    for (int i = 1; i < argc; i++)
    {
        if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc && scene_count < MAX_SCENES)
            scenes[scene_count++] = argv[++i];
        else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc)
            steps = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--scalar") == 0)
            simd_path = PH_SIMD_SCALAR;
        else if (strcmp(argv[i], "--simd") == 0 && i + 1 < argc && parse_simd(argv[i + 1], &simd_path))
            i++;
        else if (strcmp(argv[i], "--no-calendar") == 0)
            no_calendar = true;
        else if (strcmp(argv[i], "--calendar-report") == 0)
            calendar_report = true;
        else if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc)
            workers = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--step-times") == 0 && i + 1 < argc)
            step_times_path = argv[++i];
        else if (strcmp(argv[i], "--list") == 0)
        {
            for (const char *const *n = bench_scene_names; *n; n++)
                printf("%s\n", *n);
            return 0;
        }
        else
        {
            usage();
            return 2;
        }
    }
    if (scene_count == 0)
    {
        for (const char *const *n = bench_scene_names; *n && scene_count < MAX_SCENES; n++)
            scenes[scene_count++] = *n;
    }
    if (step_times_path && scene_count != 1)
    {
        fprintf(
            stderr,
            "physbench: --step-times takes one --scene (each scene's times would overwrite the last's)\n");
        return 2;
    }
    if (simd_path != PH_SIMD_BEST)
        fprintf(stderr, "physbench: --simd %s runs the %s solver on this CPU\n", ph_simd_path_name(simd_path),
                ph_simd_path_name(ph_simd_resolve(simd_path)));
    int failures = 0;
    for (int i = 0; i < scene_count; i++)
        failures += !run_scene(scenes[i], seed, steps);
    return failures ? 1 : 0;
}
