// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// obj_bench: the .obj loader's speed (issue 6). Two measurements, one JSON line each:
//   1. Parse speed: generates a large .obj (default 128 MB, written to /tmp and removed afterwards) that
//      mixes lines as exporters write them: `v x y z` and `vt u v` and `vn x y z` with six decimals, and
//      quads `f v/vt/vn ...` over a wavy grid, with an `o`, `usemtl`, `s` and comments. It times
//      obj_parse on the bytes in memory (the parser alone) and obj_load on the file (streamed in 1 MiB
//      chunks, page cache warm) and reports MB/s (10^6 bytes per second), best of --runs, by the wall
//      clock and per CPU second of the process (steadier on a busy machine).
//   2. Load to ready: for each model (default every .obj in ../shared/testdata/obj, then two generated
//      closed blobs of 30,000 and 72,000 triangles, see write_blob), the time from the
//      file name to a world holding its body: obj_load, the convex hull (model_physics_add_body with the
//      default dynamic hull, which also builds the render mesh), and one ph_world_step; and the same
//      for the .obj-scene path that `sandbox FILE.obj` takes (model_physics_add_scene). Medians of --runs
//      (at least 5) after one cold run, which is reported too; the total also in CPU time.
//   3. Decomposition (issue 22): for each closed model, the median of --runs convex decompositions from
//      scratch (pieces, the hulls' excess over the solid's volume, time) and, for the generated blobs in
//      /tmp, the median of --runs loads from their cache files.
// Options: --mb N (size of the generated file), --runs N, --keep (leave the file in /tmp), --no-parse,
// --no-models, --no-decompose, and model paths instead of the shared folder.
#define _POSIX_C_SOURCE 200809L // clock_gettime, getpid, opendir

#include "assets/model_physics.h"
#include "assets/obj.h"

#include "phys/phys.h"

#include <dirent.h> // opendir, readdir
#include <math.h>   // sinf, cosf, sqrtf
#include <stdio.h>  // printf, fopen, fwrite
#include <stdlib.h> // malloc, free, qsort, strtol
#include <string.h> // strcmp, strlen
#include <time.h>   // clock_gettime
#include <unistd.h> // getpid, unlink

#define DEFAULT_MB 128
#define DEFAULT_RUNS 5
#define MAX_MODELS 64
#define SHARED_OBJ_DIR SANDBOX_SOURCE_DIR "/../shared/testdata/obj"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// CPU time of this process: on a shared machine it counts only the parser's own work, while the wall
// clock also counts the time other processes held the cores.
static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// ---- Parse speed -----------------------------------------------------------------------------------

// Appends formatted text to the buffer (capacity checked by the caller's margin).
#define PUT(...) (len += (size_t)snprintf(buf + len, cap - len, __VA_ARGS__))

// A side x side grid of a wavy surface with per-vertex uv and normal, quads between them; stops
// before target bytes. Returns the bytes written; *out_faces gets the quad count.
static char *generate(size_t target, size_t *out_len, long *out_vertices, long *out_faces)
{
    size_t cap = target + (1u << 20);
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    size_t len = 0;
    // About 180 bytes per grid vertex (its three lines and one quad).
    int side = (int)sqrtf((float)target / 180.0f);
    PUT("# obj_bench: generated wavy grid %d x %d\nmtllib bench.mtl\no terrain\nusemtl ground\ns 1\n", side,
        side);
    for (int j = 0; j < side; j++)
        for (int i = 0; i < side; i++)
        {
            float x = (float)i * 0.173f - 40.0f, z = (float)j * 0.173f - 40.0f;
            float y = 1.5f * sinf(0.31f * x) * cosf(0.27f * z) + 0.01f * (float)((i * 7 + j * 13) % 17);
            float nx = -0.465f * cosf(0.31f * x) * cosf(0.27f * z),
                  nz = 0.405f * sinf(0.31f * x) * sinf(0.27f * z);
            float nl = sqrtf(nx * nx + 1.0f + nz * nz);
            PUT("v %.6f %.6f %.6f\n", (double)x, (double)y, (double)z);
            PUT("vt %.6f %.6f\n", (double)i / (side - 1), (double)j / (side - 1));
            PUT("vn %.6f %.6f %.6f\n", (double)(nx / nl), (double)(1.0f / nl), (double)(nz / nl));
        }
    long faces = 0;
    for (int j = 0; j + 1 < side && len + 256 < target; j++)
    {
        if (j % 64 == 0)
            PUT("# row %d\n", j);
        for (int i = 0; i + 1 < side && len + 256 < target; i++)
        {
            int a = j * side + i + 1, b = a + 1, c = a + side + 1, d = a + side;
            PUT("f %d/%d/%d %d/%d/%d %d/%d/%d %d/%d/%d\n", a, a, a, b, b, b, c, c, c, d, d, d);
            faces++;
        }
    }
    *out_len = len;
    *out_vertices = (long)side * side;
    *out_faces = faces;
    return buf;
}

static int bench_parse(int mb, int runs, bool keep)
{
    size_t len = 0;
    long vertices = 0, faces = 0;
    double t0 = now_s();
    char *text = generate((size_t)mb * 1000000u, &len, &vertices, &faces);
    if (!text)
    {
        fprintf(stderr, "obj_bench: out of memory generating %d MB\n", mb);
        return 1;
    }
    char path[128];
    snprintf(path, sizeof path, "/tmp/obj_bench_%d.obj", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
    {
        fprintf(stderr, "obj_bench: cannot write %s\n", path);
        free(text);
        return 1;
    }
    fprintf(stderr, "obj_bench: generated %s: %.1f MB, %ld vertices, %ld quads (%.1f s)\n", path,
            (double)len / 1e6, vertices, faces, now_s() - t0);

    obj_options opt = obj_default_options();
    opt.load_materials = false;
    double best_mem = 1e30, best_file = 1e30, best_cpu = 1e30;
    int triangles = 0;
    for (int r = 0; r < runs; r++)
    {
        obj_model *m = NULL;
        asset_error err;
        double a = now_s(), ca = cpu_s();
        bool ok = obj_parse(text, len, path, &opt, &m, &err);
        double b = now_s(), cb = cpu_s();
        if (!ok)
        {
            fprintf(stderr, "obj_bench: %s\n", err.text);
            free(text);
            unlink(path);
            return 1;
        }
        triangles = m->triangle_count;
        obj_free(m);
        double c = now_s();
        ok = obj_load(path, &opt, &m, &err);
        double d = now_s();
        obj_free(m);
        if (!ok)
        {
            fprintf(stderr, "obj_bench: %s\n", err.text);
            free(text);
            unlink(path);
            return 1;
        }
        best_mem = b - a < best_mem ? b - a : best_mem;
        best_cpu = cb - ca < best_cpu ? cb - ca : best_cpu;
        best_file = d - c < best_file ? d - c : best_file;
        fprintf(stderr, "  run %d: obj_parse %.1f MB/s (%.1f MB per CPU second), obj_load %.1f MB/s\n", r + 1,
                (double)len / 1e6 / (b - a), (double)len / 1e6 / (cb - ca), (double)len / 1e6 / (d - c));
    }
    free(text);
    if (!keep)
        unlink(path);
    printf(
        "{\"bench\":\"obj_parse\",\"bytes\":%zu,\"vertices\":%ld,\"triangles\":%d,\"runs\":%d,"
        "\"parse_s\":%.4f,\"parse_mb_s\":%.1f,\"parse_cpu_mb_s\":%.1f,\"load_s\":%.4f,\"load_mb_s\":%.1f}\n",
        len, vertices, triangles, runs, best_mem, (double)len / 1e6 / best_mem, (double)len / 1e6 / best_cpu,
        best_file, (double)len / 1e6 / best_file);
    return 0;
}

// ---- Load to ready ---------------------------------------------------------------------------------

typedef struct ready_times
{
    double load, body, step, total, cpu;
} ready_times;

// One load of path to a world holding its body (scene: every object, as `sandbox FILE.obj` does).
static bool load_to_ready(const char *path, bool scene, ready_times *out, int *out_bodies)
{
    double t0 = now_s(), c0 = cpu_s();
    obj_model *m = NULL;
    asset_error err;
    if (!obj_load(path, NULL, &m, &err))
    {
        fprintf(stderr, "obj_bench: %s\n", err.text);
        return false;
    }
    double t1 = now_s();
    ph_world_def wdef = ph_default_world_def();
    ph_world *world = ph_world_create(&wdef);
    model_set set = {0};
    asset_warnings warnings = {0};
    bool ok;
    if (scene)
        ok = model_physics_add_scene(world, m, NULL, &set, &warnings, &err);
    else
    {
        model_body_options o = model_default_body_options();
        o.position = ph_v3(0.0f, 5.0f, 0.0f);
        ok = model_physics_add_body(world, m, &o, &set, &warnings, &err);
    }
    double t2 = now_s();
    if (ok)
        ph_world_step(world);
    double t3 = now_s(), c3 = cpu_s();
    if (!ok)
        fprintf(stderr, "obj_bench: %s: %s\n", scene ? "scene" : "hull", err.text);
    *out_bodies = set.body_count;
    model_set_free(&set);
    ph_world_destroy(world);
    obj_free(m);
    *out = (ready_times){t1 - t0, t2 - t1, t3 - t2, t3 - t0, c3 - c0};
    return ok;
}

static int bench_model(const char *path, int runs)
{
    FILE *f = fopen(path, "rb");
    long bytes = 0;
    if (f)
    {
        fseek(f, 0, SEEK_END);
        bytes = ftell(f);
        fclose(f);
    }
    for (int scene = 0; scene < 2; scene++)
    {
        ready_times cold, t;
        int bodies = 0;
        if (!load_to_ready(path, scene != 0, &cold, &bodies))
        {
            printf("{\"bench\":\"obj_ready\",\"file\":\"%s\",\"path\":\"%s\",\"error\":true}\n", path,
                   scene ? "obj_scene" : "hull");
            continue;
        }
        // Per run: load, bodies, first step, total, CPU total; the median of each.
        double *times = malloc((size_t)runs * 5 * sizeof(double));
        if (!times)
            return 1;
        for (int r = 0; r < runs; r++)
        {
            if (!load_to_ready(path, scene != 0, &t, &bodies))
            {
                free(times);
                return 1;
            }
            const double row[5] = {t.load, t.body, t.step, t.total, t.cpu};
            for (int k = 0; k < 5; k++)
                times[k * runs + r] = row[k];
        }
        double median[5];
        for (int k = 0; k < 5; k++)
        {
            qsort(times + k * runs, (size_t)runs, sizeof(double), compare_double);
            median[k] = 1e3 * times[k * runs + runs / 2];
        }
        printf(
            "{\"bench\":\"obj_ready\",\"file\":\"%s\",\"bytes\":%ld,\"path\":\"%s\",\"bodies\":%d,"
            "\"cold_ms\":%.3f,\"load_ms\":%.3f,\"bodies_ms\":%.3f,\"first_step_ms\":%.3f,\"total_ms\":%.3f,"
            "\"total_cpu_ms\":%.3f}\n",
            path, bytes, scene ? "obj_scene" : "hull", bodies, 1e3 * cold.total, median[0], median[1],
            median[2], median[3], median[4]);
        free(times);
    }
    return 0;
}

// One build of the model as a decomposed compound (cache on or off) in a fresh world: its time, and on the
// first run its piece count and the hulls' total volume. False (with a message) on failure.
static bool decompose_once(const obj_model *m, bool cache, double *out_s, double *out_cpu_s, int *pieces,
                           float *hulls, float *solid)
{
    ph_world_def wdef = ph_default_world_def();
    ph_world *world = ph_world_create(&wdef);
    model_shape_options o = model_default_shape_options();
    o.kind = MODEL_SHAPE_DECOMPOSE;
    o.cache = cache;
    model_shape shape;
    asset_error err;
    double t = now_s(), c = cpu_s();
    bool ok = model_physics_build_shape(world, m, &o, &shape, NULL, &err);
    *out_s = now_s() - t;
    *out_cpu_s = cpu_s() - c;
    if (ok && pieces)
    {
        const ph_compound *compound = ph_world_get_compound(world, shape.shape.geom);
        *pieces = compound ? compound->child_count : 0;
        *hulls = 0.0f;
        for (int i = 0; compound && i < compound->child_count; i++)
            *hulls += ph_compute_mass(&compound->children[i].shape, 1.0f).volume;
        *solid = shape.mass_from_mesh ? shape.mass.volume : 0.0f; // inside out: no solid volume
    }
    if (!ok)
        fprintf(stderr, "obj_bench: decompose: %s\n", err.text);
    ph_world_destroy(world);
    return ok;
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return v[n / 2];
}

// The model as a decomposed compound ("shape": "decompose", issue 22): the median of runs decompositions
// from scratch (no cache), then, for a model in /tmp (where the bench may write its cache beside it: never
// beside the shared files), one that writes the cache and the median of runs loads from it (cached_ms -1:
// not measured). Open models are skipped (nothing to decompose); hull_excess is -1 where the solid's
// volume is unknown (a surface wound inside out, whose mass comes from its hulls).
static int bench_decompose(const char *path, int runs)
{
    obj_model *m = NULL;
    asset_error err;
    if (!obj_load(path, NULL, &m, &err))
        return 0;
    if (!model_mesh_is_closed(m, 0, m->triangle_count))
    {
        obj_free(m);
        return 0;
    }
    bool in_tmp = strncmp(path, "/tmp/", 5) == 0;
    // Per run: wall and CPU seconds, fresh and from the cache.
    double *t = malloc((size_t)runs * 4 * sizeof(double));
    double *fresh = t, *fresh_cpu = t + runs, *cached = t + 2 * runs, *cached_cpu = t + 3 * runs;
    int pieces = 0;
    float hulls = 0.0f, solid = 0.0f;
    double ignored[2];
    bool ok = t != NULL;
    for (int r = 0; ok && r < runs; r++)
        ok = decompose_once(m, false, &fresh[r], &fresh_cpu[r], r == 0 ? &pieces : NULL, &hulls, &solid);
    ok = ok && (!in_tmp || decompose_once(m, true, &ignored[0], &ignored[1], NULL, NULL, NULL));
    for (int r = 0; ok && in_tmp && r < runs; r++)
        ok = decompose_once(m, true, &cached[r], &cached_cpu[r], NULL, NULL, NULL);
    if (in_tmp)
    {
        char cache[600];
        snprintf(cache, sizeof cache, "%s.hulls", path);
        unlink(cache);
    }
    if (ok)
        printf("{\"bench\":\"obj_decompose\",\"file\":\"%s\",\"triangles\":%d,\"pieces\":%d,"
               "\"hull_excess\":%.4f,\"runs\":%d,\"decompose_ms\":%.3f,\"decompose_cpu_ms\":%.3f,"
               "\"cached_ms\":%.3f,\"cached_cpu_ms\":%.3f}\n",
               path, m->triangle_count, pieces, solid > 0.0f ? (double)(hulls / solid) - 1.0 : -1.0, runs,
               1e3 * median_of(fresh, runs), 1e3 * median_of(fresh_cpu, runs),
               in_tmp ? 1e3 * median_of(cached, runs) : -1.0,
               in_tmp ? 1e3 * median_of(cached_cpu, runs) : -1.0);
    free(t);
    obj_free(m);
    return 0;
}

// A closed organic blob: a lat x lon latitude-longitude sphere with bumps, 2 lat lon triangles in `v//vn`
// form, wound outward, written to path. 150 x 240 (36,240 vertices, 72,000 triangles) is the size of the
// Stanford bunny (bun_zipper: 35,947 vertices, 69,451 triangles; the shared folder holds only a low-poly
// bunny); 100 x 150 (30,000 triangles) is issue 22's model to decompose in under 2 s.
static bool write_blob(const char *path, int lat, int lon)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    fprintf(f, "# obj_bench: blob %d x %d\n", lat, lon);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i <= lat; i++)
            for (int j = 0; j < lon; j++)
            {
                double th = 3.14159265358979 * i / lat, ph = 2.0 * 3.14159265358979 * j / lon;
                double r = 1.0 + 0.25 * sin(3.0 * th) * cos(4.0 * ph) + 0.1 * sin(7.0 * ph + 2.0 * th);
                double x = r * sin(th) * cos(ph), y = 1.3 * r * cos(th), z = r * sin(th) * sin(ph);
                double l = sqrt(x * x + y * y + z * z);
                if (pass == 0)
                    fprintf(f, "v %.6f %.6f %.6f\n", x, y, z);
                else
                    fprintf(f, "vn %.6f %.6f %.6f\n", x / l, y / l, z / l);
            }
    for (int i = 0; i < lat; i++)
        for (int j = 0; j < lon; j++)
        {
            int a = i * lon + j + 1, b = i * lon + (j + 1) % lon + 1, c = b + lon, d = a + lon;
            fprintf(f, "f %d//%d %d//%d %d//%d\nf %d//%d %d//%d %d//%d\n", a, a, b, b, c, c, a, a, c, c, d,
                    d);
        }
    return fclose(f) == 0;
}

static int compare_path(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static int list_shared(char paths[][512], int max)
{
    DIR *dir = opendir(SHARED_OBJ_DIR);
    if (!dir)
        return 0;
    int n = 0;
    for (struct dirent *e = readdir(dir); e && n < max; e = readdir(dir))
    {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".obj") == 0)
            snprintf(paths[n++], 512, "%s/%s", SHARED_OBJ_DIR, e->d_name);
    }
    closedir(dir);
    qsort(paths, (size_t)n, 512, compare_path);
    return n;
}

int main(int argc, char **argv)
{
    int mb = DEFAULT_MB, runs = DEFAULT_RUNS;
    bool keep = false, parse = true, models = true, decompose = true;
    static char paths[MAX_MODELS][512];
    int path_count = 0;
    for (int i = 1; i < argc; i++)
    {
        if (strcmp(argv[i], "--mb") == 0 && i + 1 < argc)
            mb = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--keep") == 0)
            keep = true;
        else if (strcmp(argv[i], "--no-parse") == 0)
            parse = false;
        else if (strcmp(argv[i], "--no-models") == 0)
            models = false;
        else if (strcmp(argv[i], "--no-decompose") == 0)
            decompose = false;
        else if (argv[i][0] != '-' && path_count < MAX_MODELS)
            snprintf(paths[path_count++], sizeof paths[0], "%s", argv[i]);
        else
        {
            bool help = strcmp(argv[i], "--help") == 0;
            fprintf(help ? stdout : stderr,
                    "usage: obj_bench [--mb N] [--runs N] [--keep] [--no-parse] [--no-models] "
                    "[--no-decompose] [MODEL.obj ...]\n");
            return help ? 0 : 1;
        }
    }
    if (mb < 1 || mb > 4000 || runs < 1 || runs > 1000)
    {
        fprintf(stderr, "obj_bench: --mb must be in [1, 4000] and --runs in [1, 1000]\n");
        return 1;
    }
    if (parse && bench_parse(mb, runs, keep) != 0)
        return 1;
    if (!models)
        return 0;
    if (path_count == 0)
    {
        path_count = list_shared(paths, MAX_MODELS - 2);
        static const int blob_size[2][2] = {{100, 150}, {150, 240}};
        for (int b = 0; b < 2; b++)
        {
            snprintf(paths[path_count], sizeof paths[0], "/tmp/obj_bench_blob%d_%d.obj", b, (int)getpid());
            if (write_blob(paths[path_count], blob_size[b][0], blob_size[b][1]))
                path_count++;
            else
                fprintf(stderr, "obj_bench: cannot write %s\n", paths[path_count]);
        }
    }
    int status = 0;
    for (int i = 0; i < path_count && status == 0; i++)
        status = bench_model(paths[i], runs < 5 ? 5 : runs);
    for (int i = 0; i < path_count && status == 0 && decompose; i++)
        status = bench_decompose(paths[i], runs);
    for (int i = 0; i < path_count && !keep; i++)
        if (strncmp(paths[i], "/tmp/obj_bench_blob", 19) == 0)
            unlink(paths[i]);
    return status;
}
