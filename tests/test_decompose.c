// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Tests of the approximate convex decomposition (src/assets/decompose.c) and of "shape": "decompose"
// models: the pieces' hulls together stay within 5% of the solid's volume, there are at most 32 of
// them, each is convex (every vertex behind every face plane of its hull), and a ball dropped into a
// dynamic decomposed bowl stays in it.
#define _POSIX_C_SOURCE 200809L // mkdtemp, clock_gettime

#include "assets/decompose.h"
#include "assets/model_physics.h"
#include "assets/obj.h"
#include "assets/quickhull.h"
#include "test.h"

#include "phys/phys.h"

#include <math.h>   // sqrtf, acosf, fminf, fmaxf, fabsf, INFINITY
#include <stdio.h>  // snprintf
#include <stdlib.h> // malloc, realloc, free, rand
#include <string.h> // strlen, memcmp
#include <time.h>   // clock_gettime
#include <unistd.h> // unlink, rmdir

// A growable triangle soup for the generated solids.
typedef struct soup
{
    ph_vec3 v[8192];
    int t[3 * 16384];
    int nv, nt;
} soup;

static int soup_vertex(soup *s, float x, float y, float z)
{
    s->v[s->nv] = ph_v3(x, y, z);
    return s->nv++;
}

static void soup_tri(soup *s, int a, int b, int c)
{
    s->t[3 * s->nt] = a;
    s->t[3 * s->nt + 1] = b;
    s->t[3 * s->nt + 2] = c;
    s->nt++;
}

static void soup_quad(soup *s, int a, int b, int c, int d)
{
    soup_tri(s, a, b, c);
    soup_tri(s, a, c, d);
}

// Reverses every triangle when the surface came out inside out (negative volume).
static void soup_orient(soup *s)
{
    ph_mass_properties m = ph_compute_polyhedron_mass(s->v, s->t, s->nt, 1.0f);
    if (m.volume > 0.0f)
        return;
    for (int i = 0; i < s->nt; i++)
    {
        int x = s->t[3 * i + 1];
        s->t[3 * i + 1] = s->t[3 * i + 2];
        s->t[3 * i + 2] = x;
    }
}

// A bowl: the shell between hemispheres of radius outer and inner below y = 0, closed by a flat rim.
// Volume 2/3 pi (outer^3 - inner^3) less the faceting.
static void make_bowl(soup *s, float outer, float inner, int rings, int segments)
{
    s->nv = s->nt = 0;
    int pole[2];
    int first[2];
    for (int side = 0; side < 2; side++)
    {
        float r = side == 0 ? outer : inner;
        pole[side] = soup_vertex(s, 0.0f, -r, 0.0f);
        first[side] = s->nv;
        for (int i = 1; i <= rings; i++)
            for (int k = 0; k < segments; k++)
            {
                float th = 0.5f * GLM_PIf * (float)i / rings, ph = 2.0f * GLM_PIf * (float)k / segments;
                soup_vertex(s, r * sinf(th) * cosf(ph), -r * cosf(th), r * sinf(th) * sinf(ph));
            }
    }
    for (int side = 0; side < 2; side++)
    {
        int f = first[side];
        for (int k = 0; k < segments; k++)
        {
            int a = f + k, b = f + (k + 1) % segments;
            if (side == 0)
                soup_tri(s, pole[0], a, b);
            else
                soup_tri(s, pole[1], b, a);
        }
        for (int i = 0; i + 1 < rings; i++)
            for (int k = 0; k < segments; k++)
            {
                int a = f + i * segments + k, b = f + i * segments + (k + 1) % segments;
                if (side == 0)
                    soup_quad(s, a, a + segments, b + segments, b);
                else
                    soup_quad(s, a, b, b + segments, a + segments);
            }
    }
    // The rim: outer top ring to inner top ring.
    int ot = first[0] + (rings - 1) * segments, it = first[1] + (rings - 1) * segments;
    for (int k = 0; k < segments; k++)
        soup_quad(s, ot + k, it + k, it + (k + 1) % segments, ot + (k + 1) % segments);
    soup_orient(s);
}

// The L prism of test_model (three unit cubes), volume 3.
static void make_l(soup *s)
{
    s->nv = s->nt = 0;
    const float xy[6][2] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
    for (int z = 0; z < 2; z++)
        for (int i = 0; i < 6; i++)
            soup_vertex(s, xy[i][0], xy[i][1], (float)z);
    // Bottom and top as fans from the corner (0, 0) (the L is star-shaped from it), sides as quads.
    for (int i = 1; i + 1 < 6; i++)
    {
        soup_tri(s, 0, i + 1, i);
        soup_tri(s, 6, 6 + i, 6 + i + 1);
    }
    for (int i = 0; i < 6; i++)
        soup_quad(s, i, (i + 1) % 6, 6 + (i + 1) % 6, 6 + i);
    soup_orient(s);
}

// An axis-aligned box from lo to hi, wound outward.
static void soup_box(soup *s, const float lo[3], const float hi[3])
{
    int v = s->nv;
    for (int i = 0; i < 8; i++)
        soup_vertex(s, i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]);
    soup_quad(s, v + 0, v + 2, v + 3, v + 1); // z = lo
    soup_quad(s, v + 4, v + 5, v + 7, v + 6); // z = hi
    soup_quad(s, v + 0, v + 4, v + 6, v + 2); // x = lo
    soup_quad(s, v + 1, v + 3, v + 7, v + 5); // x = hi
    soup_quad(s, v + 0, v + 1, v + 5, v + 4); // y = lo
    soup_quad(s, v + 2, v + 6, v + 7, v + 3); // y = hi
}

// A standing figure 1.65 m tall, facing +z, its feet on y = 0: feet, legs apart (a gap 0.14 m wide up to
// the hips at y = 0.8), torso, arms hanging at its sides and a head; boxes that touch face to face, each
// face inside the one it rests on (so no edge is shared and the surface is closed), 0.104 m^3 in all.
static void make_figure(soup *s)
{
    s->nv = s->nt = 0;
    static const float boxes[][6] = {
        {-0.20f, 0.00f, -0.15f, -0.06f, 0.08f, 0.20f}, // left foot
        {0.06f, 0.00f, -0.15f, 0.20f, 0.08f, 0.20f},   // right foot
        {-0.19f, 0.08f, -0.07f, -0.07f, 0.80f, 0.07f}, // legs
        {0.07f, 0.08f, -0.07f, 0.19f, 0.80f, 0.07f},   {-0.22f, 0.80f, -0.10f, 0.22f, 1.40f, 0.10f}, // torso
        {-0.32f, 0.85f, -0.05f, -0.22f, 1.38f, 0.05f},                                               // arms
        {0.22f, 0.85f, -0.05f, 0.32f, 1.38f, 0.05f},   {-0.10f, 1.40f, -0.09f, 0.10f, 1.65f, 0.09f}, // head
    };
    for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; i++)
        soup_box(s, boxes[i], boxes[i] + 3);
}

// Checks the pieces of a decomposition: count, convexity of each hull, volume against the solid's.
static int check_pieces(const decompose_result *r, float solid, float volume_tol)
{
    ENSURE(r && r->piece_count >= 1 && r->piece_count <= 32);
    double sum = 0.0;
    for (int i = 0; i < r->piece_count; i++)
    {
        ph_hull_def def = ph_default_hull_def();
        def.points = r->points + r->first[i];
        def.point_count = r->count[i];
        def.vertex_budget = PH_HULL_MAX_VERTICES;
        ph_status st;
        ph_hull *hull = ph_hull_build(&def, &st);
        ENSURE(hull);
        ENSURE(hull->vertex_count <= PH_HULL_MAX_VERTICES);
        ph_vec3 ext = glms_vec3_sub(hull->bounds.hi, hull->bounds.lo);
        float tol = 1e-4f * sqrtf(glms_vec3_dot(ext, ext));
        for (int f = 0; f < hull->face_count; f++)
            for (int v = 0; v < hull->vertex_count; v++)
                ENSURE(glms_vec3_dot(hull->faces[f].normal, hull->vertices[v]) - hull->faces[f].offset <=
                       tol);
        ph_convex c = ph_convex_hull(hull);
        sum += (double)ph_compute_mass(&c, 1.0f).volume;
        ph_hull_free(hull);
    }
    ENSURE_NEAR(sum, solid, volume_tol * solid);
    return 0;
}

static int decompose_l_and_bowl(void)
{
    static soup s;
    make_l(&s);
    decompose_result *r = decompose_mesh(s.v, s.nv, s.t, s.nt, NULL, NULL);
    ENSURE(r);
    fprintf(stderr, "L prism: %d pieces, hulls %.4f m^3, solid %.4f m^3\n", r->piece_count,
            (double)r->hull_volume, (double)r->solid_volume);
    ENSURE_NEAR(r->solid_volume, 3.0f, 1e-4f);
    ENSURE(check_pieces(r, 3.0f, 0.05f) == 0);
    decompose_free(r);
    // Wound inside out, the same solid.
    for (int i = 0; i < s.nt; i++)
    {
        int x = s.t[3 * i + 1];
        s.t[3 * i + 1] = s.t[3 * i + 2];
        s.t[3 * i + 2] = x;
    }
    r = decompose_mesh(s.v, s.nv, s.t, s.nt, NULL, NULL);
    ENSURE(r);
    ENSURE_NEAR(r->solid_volume, 3.0f, 1e-4f);
    ENSURE(check_pieces(r, 3.0f, 0.05f) == 0);
    decompose_free(r);

    // A bowl 0.25 m thick (1 m outer radius): a thin curved shell needs many pieces, as each one's hull
    // spans the sagitta of its patch; the ball test below uses a thinner one.
    make_bowl(&s, 1.0f, 0.75f, 16, 32);
    ph_mass_properties m = ph_compute_polyhedron_mass(s.v, s.t, s.nt, 1.0f);
    r = decompose_mesh(s.v, s.nv, s.t, s.nt, NULL, NULL);
    ENSURE(r);
    fprintf(stderr, "bowl: %d pieces, hulls %.4f m^3, solid %.4f m^3 (its hull %.4f)\n", r->piece_count,
            (double)r->hull_volume, (double)r->solid_volume, 2.0 / 3.0 * 3.14159265);
    ENSURE(check_pieces(r, m.volume, 0.05f) == 0);
    decompose_free(r);
    return 0;
}

// The soup as .obj text (malloc'd), parsed into a model.
static obj_model *soup_model(const soup *s)
{
    size_t cap = (size_t)(s->nv * 48 + s->nt * 40 + 64), len = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    for (int i = 0; i < s->nv; i++)
        len += (size_t)snprintf(text + len, cap - len, "v %.7g %.7g %.7g\n", (double)s->v[i].x,
                                (double)s->v[i].y, (double)s->v[i].z);
    for (int i = 0; i < s->nt; i++)
        len += (size_t)snprintf(text + len, cap - len, "f %d %d %d\n", s->t[3 * i] + 1, s->t[3 * i + 1] + 1,
                                s->t[3 * i + 2] + 1);
    obj_model *m = NULL;
    obj_options opt = obj_default_options();
    opt.load_materials = false;
    asset_error err;
    if (!obj_parse(text, len, "bowl.obj", &opt, &m, &err))
        fprintf(stderr, "%s\n", err.text);
    free(text);
    return m;
}

// Drops a ball into a dynamic bowl (outer radius 1, inner 0.8, resting on the ground) made as kind;
// returns the ball's height after 4 s and its distance from the bowl's axis through *out_off_axis.
static int drop_ball(obj_model *bowl, model_shape_kind kind, float *out_height, float *out_off_axis,
                     float *out_tilt)
{
    ph_world_def wd = ph_default_world_def();
    ph_world *world = ph_world_create(&wd);
    ENSURE(world);
    ph_body_def ground = ph_default_body_def();
    ground.shape = ph_make_box(ph_v3(10.0f, 0.5f, 10.0f));
    ground.position = ph_v3(0.0f, -0.5f, 0.0f);
    ENSURE(!PH_ID_IS_NULL(ph_body_create(world, &ground)));
    model_set set = {0};
    asset_error err;
    model_body_options o = model_default_body_options();
    o.shape.kind = kind;
    o.position = ph_v3(0.0f, 1.0f, 0.0f); // the outer bottom at y = 0
    bool ok = model_physics_add_body(world, bowl, &o, &set, NULL, &err);
    if (!ok)
        fprintf(stderr, "%s\n", err.text);
    ENSURE(ok);
    ph_body_id b = set.bodies[0].body;
    ph_body_def ball = ph_default_body_def();
    ball.type = PH_BODY_DYNAMIC;
    ball.shape = ph_make_sphere(0.15f);
    ball.position = ph_v3(0.12f, 2.0f, 0.05f);
    ph_body_id s = ph_body_create(world, &ball);
    ENSURE(!PH_ID_IS_NULL(s));
    for (int i = 0; i < 240; i++)
        ph_world_step(world);
    ph_vec3 p = ph_body_get_position(world, s), c = ph_body_get_position(world, b);
    ph_vec3 up = glms_quat_rotatev(ph_body_get_orientation(world, b), ph_v3(0, 1, 0));
    *out_height = p.y;
    *out_off_axis = sqrtf((p.x - c.x) * (p.x - c.x) + (p.z - c.z) * (p.z - c.z));
    *out_tilt = acosf(fminf(1.0f, up.y)) * 180.0f / GLM_PIf;
    model_set_free(&set);
    ph_world_destroy(world);
    return 0;
}

// The bowl scenario of issue 22: a ball dropped into a dynamic decomposed bowl ends inside it (below the
// rim at y = 1, near the axis), where with the bowl's convex hull it rests on the hull's lid.
static int decompose_ball_stays_in_bowl(void)
{
    static soup s;
    make_bowl(&s, 1.0f, 0.8f, 16, 32);
    obj_model *m = soup_model(&s);
    ENSURE(m);
    float height, off, tilt;
    ENSURE(drop_ball(m, MODEL_SHAPE_DECOMPOSE, &height, &off, &tilt) == 0);
    fprintf(stderr, "decomposed bowl: ball at height %.3f m, %.3f m off the axis; bowl tilted %.2f degrees\n",
            (double)height, (double)off, (double)tilt);
    ENSURE(height < 0.6f && off < 0.5f && tilt < 5.0f); // the inner bottom is at y = 0.2
    ENSURE(drop_ball(m, MODEL_SHAPE_HULL, &height, &off, &tilt) == 0);
    fprintf(stderr, "hull of the bowl: ball at height %.3f m\n", (double)height);
    ENSURE(height > 1.1f);
    obj_free(m);
    return 0;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Everything a decomposed compound is made of, as floats to compare bit for bit: the shape's origin and
// mass properties, then per child its place in the compound and its hull's vertices.
typedef struct compound_bits
{
    float *v;
    int n;
} compound_bits;

static void bits_push(compound_bits *b, const float *f, int count)
{
    float *v = realloc(b->v, (size_t)(b->n + count) * sizeof(float));
    if (!v)
        return;
    b->v = v;
    memcpy(b->v + b->n, f, (size_t)count * sizeof(float));
    b->n += count;
}

// Builds the decomposed compound of the model file at path (cache on) in a new world: its child count,
// its bits (the caller frees bits->v; NULL: not wanted) and the time taken.
static int build_cached(const char *path, float scale, int *children, compound_bits *bits, double *took)
{
    obj_model *m = NULL;
    asset_error err;
    ENSURE(obj_load(path, NULL, &m, &err));
    ph_world_def wd = ph_default_world_def();
    ph_world *world = ph_world_create(&wd);
    model_shape_options o = model_default_shape_options();
    o.kind = MODEL_SHAPE_DECOMPOSE;
    o.cache = true;
    o.scale[0] = o.scale[1] = o.scale[2] = scale;
    model_shape shape;
    double t = seconds();
    bool ok = model_physics_build_shape(world, m, &o, &shape, NULL, &err);
    *took = seconds() - t;
    if (!ok)
        fprintf(stderr, "%s\n", err.text);
    ENSURE(ok && shape.shape.type == PH_SHAPE_COMPOUND);
    const ph_compound *c = ph_world_get_compound(world, shape.shape.geom);
    ENSURE(c);
    *children = c->child_count;
    if (bits)
    {
        bits->v = NULL;
        bits->n = 0;
        bits_push(bits, shape.origin.raw, 3);
        bits_push(bits, &shape.mass.mass, 1);
        bits_push(bits, &shape.mass.volume, 1);
        bits_push(bits, shape.mass.center.raw, 3);
        bits_push(bits, &shape.mass.inertia.raw[0][0], 9);
        for (int i = 0; i < c->child_count; i++)
        {
            const ph_hull *h = c->children[i].shape.hull;
            ENSURE(h);
            bits_push(bits, c->children[i].local.p.raw, 3);
            bits_push(bits, c->children[i].local.q.raw, 4);
            for (int k = 0; k < h->vertex_count; k++)
                bits_push(bits, h->vertices[k].raw, 3);
        }
        ENSURE(bits->v);
    }
    ph_world_destroy(world);
    obj_free(m);
    return 0;
}

static bool same_bits(const compound_bits *a, const compound_bits *b)
{
    return a->n == b->n && memcmp(a->v, b->v, (size_t)a->n * sizeof(float)) == 0;
}

static void write_soup(const char *path, const soup *s)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    for (int i = 0; i < s->nv; i++)
        fprintf(f, "v %.7g %.7g %.7g\n", (double)s->v[i].x, (double)s->v[i].y, (double)s->v[i].z);
    for (int i = 0; i < s->nt; i++)
        fprintf(f, "f %d %d %d\n", s->t[3 * i] + 1, s->t[3 * i + 1] + 1, s->t[3 * i + 2] + 1);
    fclose(f);
}

// The key a cache file was written under (after its magic and version).
static uint64_t cache_key(const char *cache)
{
    FILE *f = fopen(cache, "rb");
    uint64_t key = 0;
    if (f && fseek(f, 8, SEEK_SET) == 0 && fread(&key, sizeof key, 1, f) != 1)
        key = 0;
    if (f)
        fclose(f);
    return key;
}

// The cache: a second load of a decomposed model reads "<model>.hulls" and makes the same compound, bit for
// bit (origin, mass, every child's place and hull vertices), much faster; a damaged cache file, another
// scale or a changed model (one vertex moved) is not used: the pieces are made again for it.
static int decompose_cache(void)
{
    static soup s;
    make_bowl(&s, 1.0f, 0.75f, 16, 32);
    char dir[] = "/tmp/decompose_cache_XXXXXX";
    ENSURE(mkdtemp(dir));
    char path[128], cache[160];
    snprintf(path, sizeof path, "%s/bowl.obj", dir);
    snprintf(cache, sizeof cache, "%s.hulls", path);
    write_soup(path, &s);

    int n1, n2, n3;
    compound_bits b1, b2, b3;
    double t1, t2, t3;
    ENSURE(build_cached(path, 1.0f, &n1, &b1, &t1) == 0);
    uint64_t key1 = cache_key(cache);
    ENSURE(key1 != 0);
    ENSURE(build_cached(path, 1.0f, &n2, &b2, &t2) == 0);
    fprintf(stderr, "decomposed bowl: %d pieces in %.3f s, from the cache in %.3f s; %d floats, %s\n", n1, t1,
            t2, b1.n, same_bits(&b1, &b2) ? "the same bit for bit" : "DIFFERENT");
    ENSURE(n1 == n2 && same_bits(&b1, &b2));
    ENSURE(t2 < 0.25 * t1);
    free(b2.v);
    // A damaged cache: garbage of the right magic, then a truncated file; the same compound made again.
    FILE *f = fopen(cache, "r+b");
    ENSURE(f);
    ENSURE(fseek(f, 24, SEEK_SET) == 0);
    const char junk[16] = "\xff\xff\xff\x7f garbage";
    fwrite(junk, sizeof junk, 1, f);
    fclose(f);
    ENSURE(build_cached(path, 1.0f, &n3, &b3, &t3) == 0 && n3 == n1 && same_bits(&b1, &b3));
    free(b3.v);
    ENSURE(truncate(cache, 40) == 0);
    ENSURE(build_cached(path, 1.0f, &n3, &b3, &t3) == 0 && n3 == n1 && same_bits(&b1, &b3));
    free(b3.v);
    // Another scale is another input: the pieces are made for it, twice the size, under another key.
    ENSURE(build_cached(path, 2.0f, &n3, &b3, &t3) == 0);
    ENSURE(t3 > 2.0 * t2);
    ENSURE(cache_key(cache) != key1 && !same_bits(&b1, &b3));
    free(b3.v);
    // A stale cache: the model changed (one vertex of the rim moved out by 10 cm) after its cache was
    // written. The cache is not used: the compound is the new model's (made afresh, as with no cache at all)
    // and the file is rewritten under the new key.
    ENSURE(build_cached(path, 1.0f, &n3, &b3, &t3) == 0 && same_bits(&b1, &b3));
    free(b3.v);
    s.v[0].x += 0.1f;
    write_soup(path, &s);
    ENSURE(build_cached(path, 1.0f, &n3, &b3, &t3) == 0);
    uint64_t key2 = cache_key(cache);
    ENSURE(key2 != 0 && key2 != key1);
    ENSURE(unlink(cache) == 0);
    compound_bits fresh;
    ENSURE(build_cached(path, 1.0f, &n2, &fresh, &t2) == 0);
    fprintf(stderr, "bowl with a vertex moved: %d pieces from a stale cache, %d afresh, %s\n", n3, n2,
            same_bits(&b3, &fresh) ? "the same bit for bit" : "DIFFERENT");
    ENSURE(same_bits(&b3, &fresh) && !same_bits(&b1, &b3));
    free(b3.v);
    free(fresh.v);
    free(b1.v);
    unlink(cache);
    unlink(path);
    rmdir(dir);
    return 0;
}

// Where a model dropped on the ground came to rest.
typedef struct rest_pose
{
    ph_vec3 origin; // of the model file (its feet or legs are at y = 0 there), in the world (unit: m)
    ph_quat orientation;
    float tilt; // of the model's up axis from the vertical (unit: degrees)
    bool asleep;
} rest_pose;

// Drops the model made as kind (dynamic) with its file's origin at position, turned by orientation, onto
// a flat ground (y = 0) and, when obstacle is not NULL, over a static box from obstacle[0..2] to
// obstacle[3..5]; its pose after seconds.
static int drop_model(const obj_model *m, model_shape_kind kind, ph_vec3 position, ph_quat orientation,
                      const float *obstacle, float seconds, rest_pose *out)
{
    ph_world_def wd = ph_default_world_def();
    ph_world *world = ph_world_create(&wd);
    ENSURE(world);
    ph_body_def ground = ph_default_body_def();
    ground.shape = ph_make_box(ph_v3(10.0f, 0.5f, 10.0f));
    ground.position = ph_v3(0.0f, -0.5f, 0.0f);
    ENSURE(!PH_ID_IS_NULL(ph_body_create(world, &ground)));
    if (obstacle)
    {
        ph_body_def box = ph_default_body_def();
        box.shape = ph_make_box(ph_v3(0.5f * (obstacle[3] - obstacle[0]), 0.5f * (obstacle[4] - obstacle[1]),
                                      0.5f * (obstacle[5] - obstacle[2])));
        box.position = ph_v3(0.5f * (obstacle[0] + obstacle[3]), 0.5f * (obstacle[1] + obstacle[4]),
                             0.5f * (obstacle[2] + obstacle[5]));
        ENSURE(!PH_ID_IS_NULL(ph_body_create(world, &box)));
    }
    model_set set = {0};
    asset_error err;
    model_body_options o = model_default_body_options();
    o.shape.kind = kind;
    o.position = position;
    o.orientation = orientation;
    bool ok = model_physics_add_body(world, m, &o, &set, NULL, &err);
    if (!ok)
        fprintf(stderr, "%s\n", err.text);
    ENSURE(ok);
    ph_body_id b = set.bodies[0].body;
    // The file's origin in the body frame: the body sits at position + R * origin at the start.
    ph_vec3 start = ph_body_get_position(world, b);
    ph_vec3 local = glms_quat_rotatev(glms_quat_inv(orientation), glms_vec3_sub(position, start));
    for (int i = 0; i < (int)(seconds * 60.0f); i++)
        ph_world_step(world);
    out->orientation = ph_body_get_orientation(world, b);
    out->origin = glms_vec3_add(ph_body_get_position(world, b), glms_quat_rotatev(out->orientation, local));
    ph_vec3 up = glms_quat_rotatev(out->orientation, ph_v3(0, 1, 0));
    out->tilt = acosf(fminf(1.0f, up.y)) * 180.0f / GLM_PIf;
    out->asleep = !ph_body_is_awake(world, b);
    model_set_free(&set);
    ph_world_destroy(world);
    return 0;
}

// The angle between the world's up direction in the frames of two orientations (unit: degrees): how far
// apart two resting poses on a floor are, whatever their turns about the vertical.
static float pose_angle(ph_quat a, ph_quat b)
{
    ph_vec3 ua = glms_quat_rotatev(glms_quat_inv(a), ph_v3(0, 1, 0));
    ph_vec3 ub = glms_quat_rotatev(glms_quat_inv(b), ph_v3(0, 1, 0));
    return acosf(fminf(1.0f, glms_vec3_dot(ua, ub))) * 180.0f / GLM_PIf;
}

// A rest on the feet: upright within 2 degrees (a box resting on a face settles to well under 0.1), and
// the feet on the ground within 1 cm (contacts rest a few mm into each other), asleep.
static bool stands(const char *what, const rest_pose *r)
{
    fprintf(stderr, "%s: tilt %.2f degrees, feet at y = %.4f m, %s\n", what, (double)r->tilt,
            (double)r->origin.y, r->asleep ? "asleep" : "awake");
    return r->tilt < 2.0f && fabsf(r->origin.y) < 0.01f && r->asleep;
}

// Drops the model tilted by degrees about x onto the floor over the obstacle (lo x y z, hi x y z), from
// start_y (its file's origin) decomposed and from hull_start_y (clear of the obstacle) as its hull: the
// decomposition must stand on its feet beside the obstacle, the hull must not (it lands on it).
static int stands_over(const obj_model *m, const char *what, const float obstacle[6], float degrees,
                       float start_y, float hull_start_y)
{
    ph_quat turn = glms_quatv(degrees * GLM_PIf / 180.0f, ph_v3(1.0f, 0.0f, 0.0f));
    char text[96];
    rest_pose r;
    ENSURE(drop_model(m, MODEL_SHAPE_DECOMPOSE, ph_v3(0.0f, start_y, 0.0f), turn, obstacle, 4.0f, &r) == 0);
    snprintf(text, sizeof text, "decomposed %s", what);
    ENSURE(stands(text, &r));
    ENSURE(drop_model(m, MODEL_SHAPE_HULL, ph_v3(0.0f, hull_start_y, 0.0f), turn, obstacle, 4.0f, &r) == 0);
    snprintf(text, sizeof text, "hull of the %s", what);
    ENSURE(!stands(text, &r));
    return 0;
}

// The chair scenario of issue 22: the chair of models/ decomposed and dynamic, dropped 5 cm onto the
// floor, 3 degrees off level, over a box (0.5 m wide, 0.3 m tall) that fits under its seat between its
// legs, stands on its four legs; as its hull, it does not (it rests on the box).
static int decompose_chair_stands_on_its_legs(void)
{
    obj_model *m = NULL;
    asset_error err;
    ENSURE(obj_load(SANDBOX_SOURCE_DIR "/models/chair.obj", NULL, &m, &err));
    const float box[6] = {-0.25f, 0.0f, -0.25f, 0.25f, 0.3f, 0.25f};
    ENSURE(stands_over(m, "chair over a box", box, 3.0f, 0.05f, 0.35f) == 0);
    obj_free(m);
    return 0;
}

// The standing figure of issue 22 (make_figure), decomposed and dynamic, dropped 2 cm onto the floor,
// tilted 3 degrees forward (it rocks onto its toes and back; its heels stop a lean of 9 degrees back),
// over a post (0.1 m square, 0.5 m tall) between its legs: it stands on its feet; as its hull it does
// not (it lands on the post).
static int decompose_figure_stands_on_its_feet(void)
{
    static soup s;
    make_figure(&s);
    obj_model *m = soup_model(&s);
    ENSURE(m);
    const float post[6] = {-0.05f, 0.0f, -0.05f, 0.05f, 0.5f, 0.05f};
    ENSURE(stands_over(m, "figure over a post", post, 3.0f, 0.02f, 0.55f) == 0);
    obj_free(m);
    return 0;
}

// The resting pose of a dynamic decomposed model against the same model's true resting pose. The engine
// has no moving triangle meshes, so the reference stands in for the mesh by its exact convex hull with
// the solid's true mass, centre of mass and inertia (model_physics' hull of a closed surface): a flat
// floor touches a solid only at points of its convex hull, so on a flat floor the mesh and its hull
// rest alike, and the decomposition, whose pieces' hulls together span nearly the same hull, must rest
// within 5 degrees of it. A pose on a floor is the body's up direction in its own frame (which of its
// faces or feet it rests on): its turn about the vertical and its place on the floor are where the
// settling left it, not a pose. Each model is dropped 2 cm, turned 5 degrees off its upright about a
// slanted axis (so that it settles onto its feet, legs or base rather than balancing; 8 degrees rocks
// the figure back over its heels, both ways alike), from the same pose both ways. The models: the chair
// and the figure, and the shared cow and low-poly bunny when present.
static int decompose_rest_pose_matches_mesh(void)
{
    static soup s;
    obj_model *models[4] = {NULL, NULL, NULL, NULL};
    const char *names[4] = {"chair", "figure", "spot", "low_poly_bunny"};
    asset_error err;
    ENSURE(obj_load(SANDBOX_SOURCE_DIR "/models/chair.obj", NULL, &models[0], &err));
    make_figure(&s);
    models[1] = soup_model(&s);
    ENSURE(models[1]);
    if (test_shared_testdata_present())
    {
        ENSURE(obj_load(SHARED_TESTDATA_DIR "/obj/spot_control_mesh.obj", NULL, &models[2], &err));
        ENSURE(obj_load(SHARED_TESTDATA_DIR "/obj/low_poly_bunny.obj", NULL, &models[3], &err));
    }
    ph_quat turn = glms_quatv(5.0f * GLM_PIf / 180.0f, glms_vec3_normalize(ph_v3(1.0f, 0.0f, 0.6f)));
    for (int i = 0; i < 4; i++)
    {
        if (!models[i])
            continue;
        // The lowest point of the model turned, 2 cm above the floor.
        float low = INFINITY;
        for (int k = 0; k < models[i]->position_count; k++)
        {
            const float *p = models[i]->positions + 3 * k;
            low = fminf(low, glms_quat_rotatev(turn, ph_v3(p[0], p[1], p[2])).y);
        }
        ph_vec3 at = ph_v3(0.0f, 0.02f - low, 0.0f);
        rest_pose dec, ref;
        ENSURE(drop_model(models[i], MODEL_SHAPE_DECOMPOSE, at, turn, NULL, 5.0f, &dec) == 0);
        ENSURE(drop_model(models[i], MODEL_SHAPE_HULL, at, turn, NULL, 5.0f, &ref) == 0);
        float diff = pose_angle(dec.orientation, ref.orientation);
        fprintf(stderr, "%s: decomposed rests %.2f degrees from the reference (tilts %.2f and %.2f)\n",
                names[i], (double)diff, (double)dec.tilt, (double)ref.tilt);
        ENSURE(diff < 5.0f);
        obj_free(models[i]);
    }
    return 0;
}

// Models of every size (issue 22): the chair of models/ decomposed, and the crate as its hull, at 1 cm
// and at 50 m (scale 0.01 and 50, as a scene entry's "scale" makes them), dropped 2% of their size onto
// the floor, come to rest upright on it and fall asleep within 10 s.
static int decompose_models_of_every_size(void)
{
    static const char *const files[2] = {SANDBOX_SOURCE_DIR "/models/chair.obj",
                                         SANDBOX_SOURCE_DIR "/models/crate.obj"};
    static const model_shape_kind kinds[2] = {MODEL_SHAPE_DECOMPOSE, MODEL_SHAPE_HULL};
    static const float scales[2] = {0.01f, 50.0f};
    for (int f = 0; f < 2; f++)
    {
        obj_model *m = NULL;
        asset_error err;
        ENSURE(obj_load(files[f], NULL, &m, &err));
        float lo = INFINITY, hi = -INFINITY;
        for (int k = 0; k < m->position_count; k++)
        {
            lo = fminf(lo, m->positions[3 * k + 1]);
            hi = fmaxf(hi, m->positions[3 * k + 1]);
        }
        for (int i = 0; i < 2; i++)
        {
            float size = scales[i] * (hi - lo);
            ph_world_def wd = ph_default_world_def();
            ph_world *world = ph_world_create(&wd);
            ENSURE(world);
            ph_body_def ground = ph_default_body_def();
            ground.shape = ph_make_box(ph_v3(500.0f, 0.5f, 500.0f));
            ground.position = ph_v3(0.0f, -0.5f, 0.0f);
            ENSURE(!PH_ID_IS_NULL(ph_body_create(world, &ground)));
            model_set set = {0};
            model_body_options o = model_default_body_options();
            o.shape.kind = kinds[f];
            o.shape.scale[0] = o.shape.scale[1] = o.shape.scale[2] = scales[i];
            o.position = ph_v3(0.0f, 0.02f * size - scales[i] * lo, 0.0f);
            bool ok = model_physics_add_body(world, m, &o, &set, NULL, &err);
            if (!ok)
                fprintf(stderr, "%s\n", err.text);
            ENSURE(ok);
            ph_body_id b = set.bodies[0].body;
            ph_vec3 start = ph_body_get_position(world, b);
            int steps = 0;
            while (steps < 600 && (steps < 30 || ph_body_is_awake(world, b)))
            {
                ph_world_step(world);
                steps++;
            }
            ph_quat q = ph_body_get_orientation(world, b);
            ph_vec3 up = glms_quat_rotatev(q, ph_v3(0, 1, 0));
            float tilt = acosf(fminf(1.0f, up.y)) * 180.0f / GLM_PIf;
            // How far it fell: 2% of its size, less the contacts' rest a little into the floor.
            float fall = start.y - ph_body_get_position(world, b).y;
            fprintf(stderr,
                    "%s at %g (%.3g m tall): asleep after %.2f s, tilt %.3f degrees, fell %.4f of its size\n",
                    files[f], (double)scales[i], (double)size, steps / 60.0, (double)tilt,
                    (double)(fall / size));
            ENSURE(!ph_body_is_awake(world, b));
            ENSURE(tilt < 2.0f);
            // Resting on the floor: it fell its 2% within 1% of its size (not stuck above, not sunk).
            ENSURE_NEAR(fall / size, 0.02f, 0.01f);
            model_set_free(&set);
            ph_world_destroy(world);
        }
        obj_free(m);
    }
    return 0;
}

// Our quickhull's volumes (quickhull.c, what the decomposition chooses its cuts by) against the engine's
// hull build (qhull) on 3,000 clouds of 4 to 200 points: on a sphere, on a 5x5x5 grid (many coplanar and
// repeated points), on a box's faces, 1e-4 thick, and far from the origin. Each agrees to 1e-6 of the volume
// plus the tolerance's 1e-9 of the extent times the area, or says it is inconsistent (then qhull is asked).
static int decompose_quickhull_matches_qhull(void)
{
    quickhull_work work = {0};
    srand(20261127u);
    int inconsistent = 0, compared = 0;
    double worst = 0.0;
    for (int trial = 0; trial < 3000; trial++)
    {
        int kind = trial % 4, n = 4 + rand() % 197;
        double offset = trial % 3 == 0 ? 1000.0 : 0.0;
        double pts[3 * 200];
        ph_vec3 fp[200];
        for (int i = 0; i < n; i++)
        {
            double *q = pts + 3 * i;
            double u = rand() / (double)RAND_MAX, v = rand() / (double)RAND_MAX,
                   w = rand() / (double)RAND_MAX;
            if (kind == 0)
            {
                double z = 2.0 * u - 1.0, r = sqrt(1.0 - z * z), a = 6.283185307 * v;
                q[0] = r * cos(a), q[1] = r * sin(a), q[2] = z;
            }
            else if (kind == 1)
                q[0] = rand() % 5, q[1] = rand() % 5, q[2] = rand() % 5;
            else if (kind == 2)
            {
                q[0] = u, q[1] = v, q[2] = w;
                q[rand() % 3] = rand() % 2;
            }
            else
                q[0] = u, q[1] = v, q[2] = 1e-4 * w;
            for (int k = 0; k < 3; k++)
            {
                q[k] += offset;
                // The engine's hull is built from floats: the same points in both.
                q[k] = (double)(float)q[k];
                fp[i].raw[k] = (float)(q[k] - offset);
            }
        }
        double ours = 0.0;
        quickhull_status st = quickhull_volume(pts, n, &work, &ours);
        ENSURE(st != QUICKHULL_NO_MEMORY);
        if (st == QUICKHULL_INCONSISTENT)
        {
            inconsistent++;
            continue;
        }
        ph_hull_def def = ph_default_hull_def();
        def.points = fp;
        def.point_count = n;
        def.vertex_budget = PH_HULL_MAX_VERTICES; // every corner kept
        ph_status hs;
        ph_hull *h = ph_hull_build(&def, &hs);
        if (!h)
            continue; // the engine calls it flat (its own threshold): nothing to compare
        ph_convex c = ph_convex_hull(h);
        double ref = (double)ph_compute_mass(&c, 1.0f).volume;
        ph_hull_free(h);
        // Float volumes from the engine (7 digits), and the flat clouds' tolerance (1e-9 of the extent
        // times an area of at most 6).
        double tol = 1e-5 * ref + 6e-9 + 1e-7;
        if (kind == 3)
            tol += 0.02 * ref; // the engine's qhull merges the nearly coplanar faces of a 1e-4 thick cloud
        worst = fmax(worst, fabs(ours - ref) - tol);
        ENSURE_NEAR(ours, ref, tol);
        compared++;
    }
    fprintf(stderr, "quickhull: %d clouds agree with the engine's hulls, %d inconsistent (qhull asked)\n",
            compared, inconsistent);
    ENSURE(inconsistent < 30);
    quickhull_work_free(&work);
    return 0;
}

const test_case test_decompose_cases[] = {
    {"decompose_quickhull_matches_qhull", decompose_quickhull_matches_qhull},
    {"decompose_l_and_bowl", decompose_l_and_bowl},
    {"decompose_ball_stays_in_bowl", decompose_ball_stays_in_bowl},
    {"decompose_cache", decompose_cache},
    {"decompose_chair_stands_on_its_legs", decompose_chair_stands_on_its_legs},
    {"decompose_figure_stands_on_its_feet", decompose_figure_stands_on_its_feet},
    {"decompose_rest_pose_matches_mesh", decompose_rest_pose_matches_mesh},
    {"decompose_models_of_every_size", decompose_models_of_every_size},
    {0},
};
