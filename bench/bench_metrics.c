// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Benchmark measurements shared by physbench and bullet_ref (see bench_metrics.h). The definitions
// follow issue 4: drift is the largest distance any dynamic body moves away from where it was at the
// end of the first second; a body has tunnelled when its centre was ever beyond one of the scene's
// tunnel planes; rebound is the highest point the lowest corner of each ladder box reaches after its
// first bounce, over the drop height; the spinner's angular momentum error is the largest relative
// change of L = I w over the run.
#define _POSIX_C_SOURCE 200809L // clock_gettime, getrusage

#include "bench_metrics.h"

#include <math.h>         // sqrt, isfinite, fabs
#include <stdarg.h>       // va_list (bench_verdict's reasons)
#include <stdio.h>        // vsnprintf, fprintf
#include <stdlib.h>       // calloc, free, qsort
#include <string.h>       // memcpy
#include <sys/resource.h> // getrusage
#include <time.h>         // clock_gettime

// The spinner counts as flipped when its intermediate axis has turned more than 120 degrees away from
// where it started (cosine below this).
#define FLIP_COSINE (-0.5)
// Percentile of the step times reported as p95.
#define P95 0.95
// A dynamic body whose centre ends farther than this outside the scene's bounds at spawn (every item's
// bounding sphere, the ground's and walls' included) left the scene (unit: m): more than any settling or
// resting motion moves a body, far less than what a body thrown out by an explosion travels.
#define LEAVE_MARGIN 1.0f
// The energy (kinetic plus potential) may end at most this fraction of its scale at spawn (kinetic plus the
// magnitude of potential) above where it started: nothing in a scene adds energy, and an integrator's error
// over a run is far smaller (the spinner keeps its energy within 1e-5).
#define ENERGY_GAIN_TOLERANCE 0.01

// The joint scenes of issue 20 close the list (bullet_ref builds their joints as Bullet's constraints).
const char *const bench_scene_names[] = {
    "pyramid20",
    "column40",
    "pyramid1240",
    "large_pyramid",
    "many_pyramids",
    "pile1000",
    "convex_pile1024",
    "convex_pile5120",
    "thin_wall",
    "bullet_wall",
    "highspeed",
    "restitution_ladder",
    "spinner",
    "pile10k",
    "joint_grid",
    "ragdolls",
    "wrecking_ball",
    "bridge",
    NULL,
};

double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

double bench_peak_rss_mb(void)
{
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return 0.0;
    return (double)usage.ru_maxrss / 1024.0; // Linux reports KiB
}

bool bench_run_init(bench_run *run, const recipe_scene *scene, int steps)
{
    memset(run, 0, sizeof *run);
    run->scene = scene;
    run->steps = steps;
    run->calendar_events_max = -1;
    int n = scene->item_count > 0 ? scene->item_count : 1;
    run->ms_step = calloc((size_t)(steps > 0 ? steps : 1), sizeof *run->ms_step);
    run->reference = calloc((size_t)n, sizeof *run->reference);
    run->tunneled = calloc((size_t)n, sizeof *run->tunneled);
    run->bounce_phase = calloc((size_t)n, sizeof *run->bounce_phase);
    run->bounce_top = calloc((size_t)n, sizeof *run->bounce_top);
    if (!run->ms_step || !run->reference || !run->tunneled || !run->bounce_phase || !run->bounce_top)
    {
        bench_run_free(run);
        return false;
    }
    return true;
}

void bench_run_free(bench_run *run)
{
    free(run->ms_step);
    free(run->reference);
    free(run->tunneled);
    free(run->bounce_phase);
    free(run->bounce_top);
    memset(run, 0, sizeof *run);
}

// Row r of the rotation matrix of unit quaternion q (x, y, z, w).
static void rotation_row(const float q[4], int r, double out[3])
{
    double x = (double)q[0], y = (double)q[1], z = (double)q[2], w = (double)q[3];
    double m[3][3] = {
        {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
        {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
        {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)},
    };
    for (int c = 0; c < 3; c++)
        out[c] = m[r][c];
}

static void angular_momentum(const bench_state *s, double out[3])
{
    for (int r = 0; r < 3; r++)
    {
        out[r] = 0.0;
        for (int c = 0; c < 3; c++)
            out[r] += (double)s->inertia[3 * r + c] * (double)s->angular_velocity[c];
    }
}

static bool state_finite(const bench_state *s)
{
    for (int a = 0; a < 3; a++)
    {
        if (!isfinite(s->position[a]) || !isfinite(s->linear_velocity[a]) ||
            !isfinite(s->angular_velocity[a]))
            return false;
    }
    return isfinite(s->orientation[0]) && isfinite(s->orientation[1]) && isfinite(s->orientation[2]) &&
           isfinite(s->orientation[3]);
}

// Height of the lowest point of an item: its centre height less its reach downwards, the support of its
// shape along -y (the support of a box is its half extents on the rotated y row, of a capsule its radius plus
// its core's half height on it, of a hull its lowest rotated point).
static float lowest_point(const recipe_scene *scene, const recipe_item *item, const bench_state *s)
{
    double row[3];
    rotation_row(s->orientation, 1, row);
    double reach = 0.0;
    switch (item->shape)
    {
    case RECIPE_SPHERE:
        reach = (double)item->radius;
        break;
    case RECIPE_CAPSULE:
        reach = (double)item->radius + fabs(row[1]) * (double)item->half_height;
        break;
    case RECIPE_HULL:
    {
        const recipe_hull *h = &scene->hulls[item->hull];
        for (int i = 0; i < h->point_count; i++)
        {
            const float *p = scene->hull_points + 3 * (h->first_point + i);
            double down = -(row[0] * (double)p[0] + row[1] * (double)p[1] + row[2] * (double)p[2]);
            reach = down > reach ? down : reach;
        }
        break;
    }
    case RECIPE_BOX:
    default:
        for (int c = 0; c < 3; c++)
            reach += fabs(row[c]) * (double)item->half_extents[c];
        break;
    }
    return s->position[1] - (float)reach;
}

// Radius of a sphere about the item's origin that holds its shape.
static float bounding_radius(const recipe_scene *scene, const recipe_item *item)
{
    switch (item->shape)
    {
    case RECIPE_SPHERE:
        return item->radius;
    case RECIPE_CAPSULE:
        return item->radius + item->half_height;
    case RECIPE_HULL:
    {
        const recipe_hull *h = &scene->hulls[item->hull];
        float r2 = 0.0f;
        for (int i = 0; i < h->point_count; i++)
        {
            const float *p = scene->hull_points + 3 * (h->first_point + i);
            float d2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
            r2 = d2 > r2 ? d2 : r2;
        }
        return sqrtf(r2);
    }
    case RECIPE_BOX:
    default:
        return sqrtf(item->half_extents[0] * item->half_extents[0] +
                     item->half_extents[1] * item->half_extents[1] +
                     item->half_extents[2] * item->half_extents[2]);
    }
}

// The scene's bounds at spawn: every item's bounds (a box's own, a bounding sphere for the other shapes),
// static ones (the ground, walls) included.
static void spawn_bounds(bench_run *run, const bench_state *states)
{
    const recipe_scene *scene = run->scene;
    for (int i = 0; i < scene->item_count; i++)
    {
        const recipe_item *item = &scene->items[i];
        float r = bounding_radius(scene, item);
        for (int a = 0; a < 3; a++)
        {
            if (item->shape == RECIPE_BOX)
            {
                double row[3];
                rotation_row(states[i].orientation, a, row);
                r = (float)(fabs(row[0]) * (double)item->half_extents[0] +
                            fabs(row[1]) * (double)item->half_extents[1] +
                            fabs(row[2]) * (double)item->half_extents[2]);
            }
            float lo = states[i].position[a] - r, hi = states[i].position[a] + r;
            run->lo[a] = i == 0 || lo < run->lo[a] ? lo : run->lo[a];
            run->hi[a] = i == 0 || hi > run->hi[a] ? hi : run->hi[a];
        }
    }
}

void bench_run_sample(bench_run *run, int step, const bench_state *states, float ms_step)
{
    const recipe_scene *scene = run->scene;
    if (step > 0 && step <= run->steps)
    {
        run->ms_step[step - 1] = ms_step;
        run->steps_done = step;
    }
    int drift_step = (int)(scene->drift_after_s / scene->time_step + 0.5f);
    if (step == 0)
        spawn_bounds(run, states);
    double ke = 0.0, pe = 0.0, mass = 0.0, height = 0.0;
    int dynamic = 0;
    run->asleep = run->fell = run->left = 0;
    run->fell_depth = 0.0;
    for (int i = 0; i < scene->item_count; i++)
    {
        const recipe_item *item = &scene->items[i];
        const bench_state *s = &states[i];
        if (item->type != RECIPE_DYNAMIC)
            continue;
        if (!state_finite(s))
        {
            run->nan = true;
            continue;
        }
        double v2 = 0.0, wiw = 0.0, l[3];
        bool outside = false;
        angular_momentum(s, l);
        for (int a = 0; a < 3; a++)
        {
            v2 += (double)s->linear_velocity[a] * (double)s->linear_velocity[a];
            wiw += (double)s->angular_velocity[a] * l[a];
            // Potential energy -m g.p, measured from the floor where there is one.
            pe -= (double)s->mass * (double)scene->gravity[a] * (double)s->position[a];
            outside |=
                s->position[a] < run->lo[a] - LEAVE_MARGIN || s->position[a] > run->hi[a] + LEAVE_MARGIN;
        }
        run->left += outside;
        if (scene->expect.has_floor)
        {
            pe += (double)s->mass * (double)scene->gravity[1] * (double)scene->expect.floor_y;
            double depth = (double)scene->expect.floor_y - (double)lowest_point(scene, item, s);
            run->fell_depth = depth > run->fell_depth ? depth : run->fell_depth;
            run->fell += depth > (double)RECIPE_FLOOR_TOLERANCE;
        }
        ke += 0.5 * (double)s->mass * v2 + 0.5 * wiw;
        mass += (double)s->mass;
        height += (double)s->position[1];
        run->asleep += !s->awake;
        dynamic++;

        if (scene->metrics & RECIPE_METRIC_DRIFT)
        {
            if (step == drift_step)
                memcpy(run->reference[i], s->position, sizeof run->reference[i]);
            else if (step > drift_step)
            {
                double d2 = 0.0;
                for (int a = 0; a < 3; a++)
                {
                    double d = (double)s->position[a] - (double)run->reference[i][a];
                    d2 += d * d;
                }
                double d = sqrt(d2);
                run->max_drift = d > run->max_drift ? d : run->max_drift;
            }
        }
        if (scene->metrics & RECIPE_METRIC_TUNNEL)
        {
            for (int p = 0; p < scene->tunnel_plane_count; p++)
            {
                const float *pl = scene->tunnel_planes[p];
                if (pl[0] * s->position[0] + pl[1] * s->position[1] + pl[2] * s->position[2] + pl[3] < 0.0f)
                    run->tunneled[i] = true;
            }
        }
        if (scene->metrics & RECIPE_METRIC_REBOUND)
        {
            // Falling until the vertical velocity turns upwards (the first bounce), then rising until it
            // turns down again; the top of that arc is the rebound height.
            float vy = s->linear_velocity[1];
            if (run->bounce_phase[i] == 0 && step > 0 && vy > 0.0f)
            {
                run->bounce_phase[i] = 1;
                run->bounce_top[i] = lowest_point(scene, item, s);
            }
            else if (run->bounce_phase[i] == 1)
            {
                float h = lowest_point(scene, item, s);
                run->bounce_top[i] = h > run->bounce_top[i] ? h : run->bounce_top[i];
                if (vy < 0.0f)
                    run->bounce_phase[i] = 2;
            }
        }
        if (scene->metrics & RECIPE_METRIC_ANGULAR)
        {
            // The intermediate axis (local y) in the world: column 1 of the rotation matrix.
            double col[3];
            for (int r = 0; r < 3; r++)
            {
                double row[3];
                rotation_row(s->orientation, r, row);
                col[r] = row[1];
            }
            if (step == 0)
            {
                memcpy(run->angular0, l, sizeof l);
                for (int r = 0; r < 3; r++)
                    run->axis0[r] = (float)col[r];
            }
            else
            {
                double dl2 = 0.0, l02 = 0.0, cosine = 0.0;
                for (int a = 0; a < 3; a++)
                {
                    dl2 += (l[a] - run->angular0[a]) * (l[a] - run->angular0[a]);
                    l02 += run->angular0[a] * run->angular0[a];
                    cosine += col[a] * (double)run->axis0[a];
                }
                double err = l02 > 0.0 ? sqrt(dl2 / l02) : 0.0;
                run->ang_mom_err = err > run->ang_mom_err ? err : run->ang_mom_err;
                if (cosine < FLIP_COSINE)
                    run->flipped = true;
            }
        }
    }
    run->ke_end = ke;
    run->energy_end = ke + pe;
    run->mass = mass;
    run->mean_height = dynamic > 0 ? height / dynamic : 0.0;
    if (step == 0)
    {
        run->energy0 = ke + pe;
        run->energy_scale = ke + fabs(pe);
    }
}

static void add_reason(bench_verdict *v, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void add_reason(bench_verdict *v, const char *format, ...)
{
    v->ok = false;
    if (v->reason_count >= BENCH_MAX_REASONS)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(v->reasons[v->reason_count++], BENCH_REASON_SIZE, format, args);
    va_end(args);
}

void bench_run_judge(const bench_run *run, bench_verdict *out)
{
    const recipe_scene *scene = run->scene;
    const recipe_expect *e = &scene->expect;
    memset(out, 0, sizeof *out);
    out->ok = true;
    if (run->nan)
        add_reason(out, "a state became NaN or infinite");
    if (run->fell > 0)
        add_reason(out,
                   "%d bodies ended more than %.3g m into the floor or through it (the deepest %.3g m below "
                   "its top)",
                   run->fell, (double)RECIPE_FLOOR_TOLERANCE, run->fell_depth);
    if (run->left > 0)
        add_reason(out, "%d bodies left the scene (more than %.0f m outside its bounds at spawn)", run->left,
                   (double)LEAVE_MARGIN);
    int tunneled = 0;
    for (int i = 0; i < scene->item_count; i++)
        tunneled += run->tunneled[i];
    if ((scene->metrics & RECIPE_METRIC_TUNNEL) && tunneled > 0)
        add_reason(out, "%d bodies went through a wall", tunneled);
    double gain = run->energy_end - run->energy0;
    if (gain > ENERGY_GAIN_TOLERANCE * run->energy_scale)
        add_reason(out, "the energy grew by %.3g J, %.3g of its scale at spawn (%.3g J)", gain,
                   run->energy_scale > 0.0 ? gain / run->energy_scale : 0.0, run->energy_scale);
    double speed = (double)e->settle_speed, ke_max = 0.5 * run->mass * speed * speed;
    if (speed > 0.0 && run->ke_end > ke_max)
        add_reason(out, "not settled: kinetic energy %.3g J at the end, above %.3g J (the mass at %.3g m/s)",
                   run->ke_end, ke_max, speed);
    if ((scene->metrics & RECIPE_METRIC_DRIFT) && e->max_drift > 0.0f &&
        run->max_drift > (double)e->max_drift)
        add_reason(out, "the stack moved: drift %.3g m, above %.3g m", run->max_drift, (double)e->max_drift);
    if (e->mean_height_max > e->mean_height_min &&
        (run->mean_height < (double)e->mean_height_min || run->mean_height > (double)e->mean_height_max))
        add_reason(out, "mean height %.3g m at the end, outside [%.3g, %.3g] m", run->mean_height,
                   (double)e->mean_height_min, (double)e->mean_height_max);
    if ((scene->metrics & RECIPE_METRIC_REBOUND) && e->rebound_tolerance > 0.0f && scene->drop_height > 0.0f)
    {
        for (int i = 0; i < scene->item_count; i++)
        {
            const recipe_item *item = &scene->items[i];
            double r = (double)(run->bounce_top[i] / scene->drop_height),
                   ideal = (double)item->material.restitution * (double)item->material.restitution;
            if (item->type == RECIPE_DYNAMIC && fabs(r - ideal) > (double)e->rebound_tolerance)
                add_reason(out, "the body of restitution %.2f rebounded to %.3g of its drop, not %.3g",
                           (double)item->material.restitution, r, ideal);
        }
    }
    if ((scene->metrics & RECIPE_METRIC_ANGULAR) && e->max_ang_mom_err > 0.0f &&
        run->ang_mom_err > (double)e->max_ang_mom_err)
        add_reason(out, "the angular momentum changed by %.3g of itself, above %.3g", run->ang_mom_err,
                   (double)e->max_ang_mom_err);
    if ((scene->metrics & RECIPE_METRIC_ANGULAR) && e->must_flip && !run->flipped)
        add_reason(out, "the intermediate axis did not turn over");
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

void bench_run_print(const bench_run *run, FILE *out, const char *engine, const char *scene_name,
                     const char *ms_stage_json, const char *hash_text)
{
    const recipe_scene *scene = run->scene;
    int n = run->steps_done;
    float min = 0.0f, median = 0.0f, p95 = 0.0f, max = 0.0f;
    double total = 0.0;
    for (int i = 0; i < n; i++)
        total += (double)run->ms_step[i];
    float *sorted = n > 0 ? malloc((size_t)n * sizeof *sorted) : NULL;
    if (sorted)
    {
        memcpy(sorted, run->ms_step, (size_t)n * sizeof *sorted);
        qsort(sorted, (size_t)n, sizeof *sorted, cmp_float);
        median = n % 2 ? sorted[n / 2] : 0.5f * (sorted[n / 2 - 1] + sorted[n / 2]);
        int k = (int)ceil(P95 * (double)n) - 1;
        p95 = sorted[k < 0 ? 0 : k];
        min = sorted[0];
        max = sorted[n - 1];
        free(sorted);
    }
    int bodies = 0, tunneled = 0;
    for (int i = 0; i < scene->item_count; i++)
    {
        bodies += scene->items[i].type == RECIPE_DYNAMIC;
        tunneled += run->tunneled[i];
    }
    fprintf(out, "{\"engine\":\"%s\",\"scene\":\"%s\",\"bodies\":%d,\"steps\":%d,", engine,
            scene_name ? scene_name : scene->name, bodies, n);
    // The minimum is the figure least disturbed by other work on the machine (A/B runs on a busy one).
    // To the nanosecond: the smallest scenes take under a microsecond a step, and at 0.1 us their ratio was
    // only good to a tenth.
    // The mean beside the median: in a scene that falls asleep part-way (ragdolls), the median may be an
    // asleep step's, while the mean is the whole run's cost over its steps.
    fprintf(out,
            "\"ms_step_min\":%.6f,\"ms_step_median\":%.6f,\"ms_step_mean\":%.6f,\"ms_step_p95\":%.6f,"
            "\"ms_step_max\":%.6f,",
            (double)min, (double)median, n > 0 ? total / n : 0.0, (double)p95, (double)max);
    fprintf(out, "\"ms_stage\":%s,\"contacts_avg\":%.1f,", ms_stage_json,
            n > 0 ? run->contacts_sum / n : 0.0);
    if (run->calendar_events_max >= 0)
        fprintf(out, "\"calendar_events_max\":%d,", run->calendar_events_max);
    else
        fprintf(out, "\"calendar_events_max\":null,");
    if (scene->metrics & RECIPE_METRIC_DRIFT)
        fprintf(out, "\"max_drift_m\":%.5f,", run->max_drift);
    else
        fprintf(out, "\"max_drift_m\":null,");
    if (scene->metrics & RECIPE_METRIC_TUNNEL)
        fprintf(out, "\"tunneled\":%d,", tunneled);
    else
        fprintf(out, "\"tunneled\":null,");
    fprintf(out, "\"ke_end\":%.6g,", run->ke_end);
    if (scene->metrics & RECIPE_METRIC_REBOUND)
    {
        fprintf(out, "\"rebound\":[");
        bool first = true;
        for (int i = 0; i < scene->item_count; i++)
        {
            if (scene->items[i].type != RECIPE_DYNAMIC)
                continue;
            fprintf(out, "%s%.4f", first ? "" : ",", (double)(run->bounce_top[i] / scene->drop_height));
            first = false;
        }
        fprintf(out, "],");
    }
    else
    {
        fprintf(out, "\"rebound\":null,");
    }
    if (scene->metrics & RECIPE_METRIC_ANGULAR)
        fprintf(out, "\"ang_mom_err\":%.6f,\"flipped\":%s,", run->ang_mom_err,
                run->flipped ? "true" : "false");
    else
        fprintf(out, "\"ang_mom_err\":null,");
    fprintf(out, "\"nan\":%d,\"hash\":\"%s\",\"peak_rss_mb\":%.1f,", run->nan ? 1 : 0, hash_text,
            bench_peak_rss_mb());
    bench_verdict verdict;
    bench_run_judge(run, &verdict);
    fprintf(out,
            "\"asleep\":%d,\"fell_through\":%d,\"left_scene\":%d,\"mean_height_m\":%.4f,"
            "\"energy_gain\":%.6g,\"end_ok\":%s",
            run->asleep, run->fell, run->left, run->mean_height,
            run->energy_scale > 0.0 ? (run->energy_end - run->energy0) / run->energy_scale : 0.0,
            verdict.ok ? "true" : "false");
    if (!verdict.ok)
    {
        fprintf(out, ",\"end_reasons\":[");
        for (int i = 0; i < verdict.reason_count; i++)
            fprintf(out, "%s\"%s\"", i ? "," : "", verdict.reasons[i]);
        fprintf(out, "]");
    }
    if (scene->expect.settle_speed <= 0.0f && scene->expect.moving)
        fprintf(out, ",\"moving\":\"%s\"", scene->expect.moving);
    fprintf(out, "}\n");
    fflush(out);
}

uint64_t bench_state_hash(const bench_state *states, int count)
{
    const uint64_t fnv_offset = 1469598103934665603ull, fnv_prime = 1099511628211ull;
    uint64_t h = fnv_offset;
    for (int i = 0; i < count; i++)
    {
        const bench_state *s = &states[i];
        float fields[13];
        memcpy(fields, s->position, sizeof s->position);
        memcpy(fields + 3, s->orientation, sizeof s->orientation);
        memcpy(fields + 7, s->linear_velocity, sizeof s->linear_velocity);
        memcpy(fields + 10, s->angular_velocity, sizeof s->angular_velocity);
        const unsigned char *bytes = (const unsigned char *)fields;
        for (size_t b = 0; b < sizeof fields; b++)
        {
            h ^= bytes[b];
            h *= fnv_prime;
        }
    }
    return h;
}
