// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Recipe tests: body counts and positions of the generators and named scenes against their
// published definitions (Jolt's 1240-box pyramid level by level, Box3D's 5050-box pyramid, ...), no
// two bodies overlapping at spawn (bounds of the rotated shapes, swept along x), and identical layouts
// for identical seeds.
#include "recipes/recipes.h"
#include "recipes/spawn.h"
#include "test.h"

#include "phys/phys.h"

#include <math.h>   // fabsf
#include <stdlib.h> // qsort, malloc, free
#include <string.h> // strcmp, memcmp

// Two bounds overlap when they interpenetrate by more than this on every axis; touching faces, as
// in stacks laid out exactly, do not count (unit: m).
#define TOUCH_TOLERANCE 1e-4f

typedef struct item_bounds
{
    float lo[3], hi[3];
    bool is_static;
    int item; // index in the scene
} item_bounds;

// Bounds of an item in its pose: the rotated box's |R| h, the rotated hull points, the sphere, the
// capsule's segment swept by its radius.
static item_bounds bounds_of(const recipe_scene *s, const recipe_item *it)
{
    ph_quat q;
    q.x = it->orientation[0];
    q.y = it->orientation[1];
    q.z = it->orientation[2];
    q.w = it->orientation[3];
    ph_mat3 r = glms_quat_mat3(q);
    float ext[3] = {0.0f, 0.0f, 0.0f};
    item_bounds b;
    if (it->shape == RECIPE_HULL)
    {
        const recipe_hull *h = &s->hulls[it->hull];
        for (int a = 0; a < 3; a++)
        {
            b.lo[a] = it->position[a];
            b.hi[a] = it->position[a];
        }
        for (int i = 0; i < h->point_count; i++)
        {
            const float *p = &s->hull_points[3 * (h->first_point + i)];
            ph_vec3 w = glms_quat_rotatev(q, ph_v3(p[0], p[1], p[2]));
            for (int a = 0; a < 3; a++)
            {
                float x = it->position[a] + w.raw[a];
                b.lo[a] = x < b.lo[a] ? x : b.lo[a];
                b.hi[a] = x > b.hi[a] ? x : b.hi[a];
            }
        }
        b.is_static = it->type == RECIPE_STATIC;
        return b;
    }
    for (int a = 0; a < 3; a++)
    {
        if (it->shape == RECIPE_BOX)
        {
            for (int c = 0; c < 3; c++)
                ext[a] += fabsf(r.col[c].raw[a]) * it->half_extents[c];
        }
        else if (it->shape == RECIPE_SPHERE)
        {
            ext[a] = it->radius;
        }
        else
        {
            ext[a] = it->radius + fabsf(r.col[1].raw[a]) * it->half_height;
        }
        b.lo[a] = it->position[a] - ext[a];
        b.hi[a] = it->position[a] + ext[a];
    }
    b.is_static = it->type == RECIPE_STATIC;
    return b;
}

static int cmp_lo_x(const void *a, const void *b)
{
    float x = ((const item_bounds *)a)->lo[0], y = ((const item_bounds *)b)->lo[0];
    return (x > y) - (x < y);
}

// Sweep and prune along x: returns the number of overlapping pairs (static-static pairs excepted).
static bool jointed(const recipe_scene *s, int x, int y)
{
    for (int k = 0; k < s->joint_count; k++)
        if ((s->joints[k].a == x && s->joints[k].b == y) || (s->joints[k].a == y && s->joints[k].b == x))
            return true;
    return false;
}

static int count_overlaps(const recipe_scene *s)
{
    item_bounds *b = malloc((size_t)s->item_count * sizeof *b);
    if (!b)
        return -1;
    for (int i = 0; i < s->item_count; i++)
    {
        b[i] = bounds_of(s, &s->items[i]);
        b[i].item = i;
    }
    qsort(b, (size_t)s->item_count, sizeof *b, cmp_lo_x);
    int overlaps = 0;
    for (int i = 0; i < s->item_count; i++)
    {
        for (int j = i + 1; j < s->item_count && b[j].lo[0] < b[i].hi[0] - TOUCH_TOLERANCE; j++)
        {
            if ((b[i].is_static && b[j].is_static) || jointed(s, b[i].item, b[j].item))
                continue; // jointed bodies do not collide (a ragdoll's hip sits inside its pelvis)
            bool overlap = true;
            for (int a = 1; a < 3; a++)
                overlap = overlap && b[i].lo[a] < b[j].hi[a] - TOUCH_TOLERANCE &&
                          b[j].lo[a] < b[i].hi[a] - TOUCH_TOLERANCE;
            if (overlap && overlaps < 5)
                fprintf(stderr, "%s: overlap at (%g %g %g) and (%g %g %g)\n", s->name, (double)b[i].lo[0],
                        (double)b[i].lo[1], (double)b[i].lo[2], (double)b[j].lo[0], (double)b[j].lo[1],
                        (double)b[j].lo[2]);
            overlaps += overlap;
        }
    }
    free(b);
    return overlaps;
}

static int count_type(const recipe_scene *s, recipe_body_type type)
{
    int n = 0;
    for (int i = 0; i < s->item_count; i++)
        n += s->items[i].type == type;
    return n;
}

typedef struct expected_scene
{
    const char *name;
    int dynamic;
    int fixed; // static bodies
    int steps;
    bool sleep;
} expected_scene;

// The counts and settings the issues specify.
static const expected_scene s_expected[] = {
    {"pyramid20", 210, 1, 600, false},       {"column40", 40, 1, 1800, false},
    {"pyramid1240", 1240, 1, 500, false},    {"large_pyramid", 5050, 1, 600, false},
    {"pile1000", 1000, 1, 600, true},        {"convex_pile1024", 1024, 1, 1500, true},
    {"thin_wall", 10, 1, 120, true},         {"bullet_wall", 100, 1, 120, true},
    {"highspeed", 5000, 6, 500, true},       {"restitution_ladder", 11, 1, 300, false},
    {"spinner", 1, 0, 600, false},           {"pile10k", 10000, 1, 600, true},
    {"convex_pile5120", 5120, 1, 500, true}, {"hypervelocity", 300, 1, 2000, true},
    {"heap1000", 1000, 1, 600, true},        {"many_pyramids", 10780, 1, 600, false},
};

static int recipes_named_scene_counts(void)
{
    for (size_t i = 0; i < sizeof s_expected / sizeof s_expected[0]; i++)
    {
        const expected_scene *e = &s_expected[i];
        recipe_scene s;
        ENSURE(recipe_build(e->name, RECIPE_DEFAULT_SEED, &s));
        if (count_type(&s, RECIPE_DYNAMIC) != e->dynamic)
            fprintf(stderr, "%s: %d dynamic bodies, expected %d\n", e->name, count_type(&s, RECIPE_DYNAMIC),
                    e->dynamic);
        ENSURE(count_type(&s, RECIPE_DYNAMIC) == e->dynamic);
        ENSURE(count_type(&s, RECIPE_STATIC) == e->fixed);
        ENSURE(s.steps == e->steps);
        ENSURE(s.enable_sleep == e->sleep);
        for (int k = 0; k < s.item_count; k++)
            ENSURE(s.items[k].enable_sleep == e->sleep);
        ENSURE_NEAR(s.time_step, 1.0f / 60.0f, 1e-9f);
        recipe_scene_free(&s);
    }
    // Every name in the list builds; an unknown name does not.
    int names = 0;
    for (const char *const *n = recipe_scene_names(); *n; n++, names++)
    {
        recipe_scene s;
        ENSURE(recipe_build(*n, RECIPE_DEFAULT_SEED, &s));
        ENSURE(strcmp(s.name, *n) == 0 && s.item_count > 0);
        recipe_scene_free(&s);
    }
    ENSURE(names >= (int)(sizeof s_expected / sizeof s_expected[0]));
    recipe_scene s;
    ENSURE(!recipe_build("no_such_scene", 1, &s));
    ENSURE(s.item_count == 0);
    ENSURE(!recipe_build(NULL, 1, &s));
    return 0;
}

// No two bodies overlap at spawn in any named scene.
static int recipes_no_overlap_at_spawn(void)
{
    for (const char *const *n = recipe_scene_names(); *n; n++)
    {
        recipe_scene s;
        ENSURE(recipe_build(*n, RECIPE_DEFAULT_SEED, &s));
        int overlaps = count_overlaps(&s);
        if (overlaps != 0)
            fprintf(stderr, "%s: %d overlapping pairs\n", *n, overlaps);
        ENSURE(overlaps == 0);
        recipe_scene_free(&s);
    }
    // The check itself finds an overlap: two boxes 0.9 m apart.
    recipe_scene s;
    recipe_scene_init(&s, "overlap");
    recipe_item *a = recipe_add_item(&s);
    recipe_item *b = recipe_add_item(&s);
    ENSURE(a && b);
    s.items[1].position[0] = 0.9f;
    ENSURE(count_overlaps(&s) == 1);
    s.items[1].position[0] = 1.0f; // touching
    ENSURE(count_overlaps(&s) == 0);
    recipe_scene_free(&s);
    return 0;
}

// Jolt's pyramid: level i holds (15 - i)^2 boxes of half 1 at y = 1 + 2.5 i, grid x = -15 + 2 j (+1 on
// odd levels) for j in [i/2, 15 - (i+1)/2); the ground is half (50, 1, 50) at y = -1.
static int recipes_pyramid1240_layout(void)
{
    recipe_scene s;
    ENSURE(recipe_build("pyramid1240", RECIPE_DEFAULT_SEED, &s));
    ENSURE(s.items[0].type == RECIPE_STATIC);
    // Its top box lands 7 m lower, level by level: drift counts from 3 s, not 1 s.
    ENSURE_NEAR(s.drift_after_s, 3.0f, 0.0f);
    ENSURE_NEAR(s.items[0].position[1], -1.0f, 0.0f);
    ENSURE_NEAR(s.items[0].half_extents[0], 50.0f, 0.0f);
    ENSURE_NEAR(s.items[0].half_extents[1], 1.0f, 0.0f);
    int per_level[15] = {0};
    for (int k = 1; k < s.item_count; k++)
    {
        const recipe_item *it = &s.items[k];
        float level_f = (it->position[1] - 1.0f) / 2.5f;
        int level = (int)lroundf(level_f);
        ENSURE(level >= 0 && level < 15);
        ENSURE_NEAR(level_f, (float)level, 1e-5f);
        per_level[level]++;
        ENSURE_NEAR(it->half_extents[0], 1.0f, 0.0f);
        float offset = (level & 1) ? 1.0f : 0.0f;
        float j = (it->position[0] + 15.0f - offset) / 2.0f, kz = (it->position[2] + 15.0f - offset) / 2.0f;
        ENSURE_NEAR(j, roundf(j), 1e-5f);
        ENSURE_NEAR(kz, roundf(kz), 1e-5f);
        ENSURE(j >= (float)(level / 2) && j < (float)(15 - (level + 1) / 2));
        ENSURE(kz >= (float)(level / 2) && kz < (float)(15 - (level + 1) / 2));
    }
    for (int i = 0; i < 15; i++)
        ENSURE(per_level[i] == (15 - i) * (15 - i));
    // The first box of level 0 sits at (-15, 1, -15); the single top box at level 14.
    ENSURE_VEC3_NEAR(ph_v3(s.items[1].position[0], s.items[1].position[1], s.items[1].position[2]),
                     ph_v3(-15.0f, 1.0f, -15.0f), 0.0f);
    recipe_scene_free(&s);
    return 0;
}

// Planar pyramids: rows of base - r boxes centred on x = 0, touching, stacked exactly.
static int recipes_pyramid_rows(void)
{
    recipe_scene s;
    ENSURE(recipe_build("large_pyramid", RECIPE_DEFAULT_SEED, &s));
    ENSURE_NEAR(s.items[0].half_extents[0], 400.0f, 0.0f);
    ENSURE_NEAR(s.items[1].material.density, 100.0f, 0.0f);
    int index = 1;
    for (int row = 0; row < 100; row++)
    {
        float sum_x = 0.0f;
        for (int i = 0; i < 100 - row; i++, index++)
        {
            ENSURE_NEAR(s.items[index].position[1], 0.5f + (float)row, 1e-5f);
            ENSURE_NEAR(s.items[index].position[2], 0.0f, 0.0f);
            if (i > 0)
                ENSURE_NEAR(s.items[index].position[0] - s.items[index - 1].position[0], 1.0f, 1e-4f);
            sum_x += s.items[index].position[0];
        }
        ENSURE_NEAR(sum_x, 0.0f, 1e-2f);
    }
    ENSURE(index == s.item_count);
    recipe_scene_free(&s);

    // column40: a column of unit cubes touching face to face on the ground (top at y = 0).
    ENSURE(recipe_build("column40", RECIPE_DEFAULT_SEED, &s));
    ENSURE_NEAR(s.items[0].position[1] + s.items[0].half_extents[1], 0.0f, 0.0f);
    for (int k = 1; k < s.item_count; k++)
        ENSURE_NEAR(s.items[k].position[1], 0.5f + (float)(k - 1), 1e-5f);
    recipe_scene_free(&s);
    return 0;
}

// The convex pile's hull is 32 points on a sphere of radius 2; the ladder's restitutions are 0 .. 1
// over a ground of restitution 0; tunnel planes put the walls where the scenes say.
static int recipes_scene_details(void)
{
    recipe_scene s;
    ENSURE(recipe_build("convex_pile1024", RECIPE_DEFAULT_SEED, &s));
    ENSURE(s.hull_count == 1 && s.hulls[0].point_count == 32);
    for (int i = 0; i < 32; i++)
    {
        const float *p = &s.hull_points[3 * i];
        ENSURE_NEAR(sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), 2.0f, 1e-5f);
    }
    recipe_scene_free(&s);

    ENSURE(recipe_build("restitution_ladder", RECIPE_DEFAULT_SEED, &s));
    ENSURE(s.metrics & RECIPE_METRIC_REBOUND);
    ENSURE_NEAR(s.items[0].material.restitution, 0.0f, 0.0f);
    for (int i = 0; i < 11; i++)
    {
        const recipe_item *it = &s.items[1 + i];
        ENSURE_NEAR(it->material.restitution, 0.1f * (float)i, 1e-6f);
        ENSURE_NEAR(it->position[1] - it->half_extents[1], 20.0f, 1e-5f);
    }
    recipe_scene_free(&s);

    ENSURE(recipe_build("bullet_wall", RECIPE_DEFAULT_SEED, &s));
    ENSURE(s.tunnel_plane_count == 1 && (s.metrics & RECIPE_METRIC_TUNNEL));
    for (int i = 0; i < s.item_count; i++)
    {
        const recipe_item *it = &s.items[i];
        float side = s.tunnel_planes[0][0] * it->position[0] + s.tunnel_planes[0][3];
        if (it->type == RECIPE_DYNAMIC)
        {
            ENSURE(side > 0.0f); // starts in front of the wall
            ENSURE_NEAR(it->linear_velocity[0], 300.0f, 0.0f);
            ENSURE_NEAR(it->half_extents[0], 0.1f, 0.0f);
        }
        else
        {
            ENSURE_NEAR(it->half_extents[0], 0.05f, 1e-7f); // 0.1 m thick
        }
    }
    recipe_scene_free(&s);

    ENSURE(recipe_build("highspeed", RECIPE_DEFAULT_SEED, &s));
    ENSURE(s.tunnel_plane_count == 6);
    int spheres = 0;
    for (int i = 0; i < s.item_count; i++)
    {
        const recipe_item *it = &s.items[i];
        if (it->type != RECIPE_DYNAMIC)
            continue;
        spheres += it->shape == RECIPE_SPHERE;
        float speed = sqrtf(it->linear_velocity[0] * it->linear_velocity[0] +
                            it->linear_velocity[1] * it->linear_velocity[1] +
                            it->linear_velocity[2] * it->linear_velocity[2]);
        ENSURE_NEAR(speed, 250.0f, 1e-2f);
        ENSURE(it->material.restitution >= 0.9f && it->material.restitution <= 1.0f);
        for (int p = 0; p < 6; p++)
        {
            const float *pl = s.tunnel_planes[p];
            ENSURE(pl[0] * it->position[0] + pl[1] * it->position[1] + pl[2] * it->position[2] + pl[3] >
                   0.5f);
        }
    }
    ENSURE(spheres == 2500);
    recipe_scene_free(&s);

    ENSURE(recipe_build("spinner", RECIPE_DEFAULT_SEED, &s));
    ENSURE_NEAR(s.gravity[1], 0.0f, 0.0f);
    ENSURE(s.items[0].angular_velocity[1] > 100.0f * fabsf(s.items[0].angular_velocity[0]));
    ENSURE_NEAR(s.items[0].linear_damping + s.items[0].angular_damping, 0.0f, 0.0f);
    recipe_scene_free(&s);
    return 0;
}

// The same seed gives the same scene, byte for byte; another seed moves the random parts.
static int recipes_seeded_layouts_repeat(void)
{
    const char *random_scenes[] = {"pile1000", "convex_pile1024", "highspeed", "rain"};
    for (int i = 0; i < 4; i++)
    {
        recipe_scene a, b, c;
        ENSURE(recipe_build(random_scenes[i], 7, &a));
        ENSURE(recipe_build(random_scenes[i], 7, &b));
        ENSURE(recipe_build(random_scenes[i], 8, &c));
        ENSURE(a.item_count == b.item_count && a.item_count == c.item_count);
        ENSURE(memcmp(a.items, b.items, (size_t)a.item_count * sizeof *a.items) == 0);
        ENSURE(memcmp(a.items, c.items, (size_t)a.item_count * sizeof *a.items) != 0);
        recipe_scene_free(&a);
        recipe_scene_free(&b);
        recipe_scene_free(&c);
    }
    return 0;
}

// Generators with their own parameters: counts, the running bond, dominoes' push.
static int recipes_generators(void)
{
    recipe_scene s;
    recipe_scene_init(&s, "generators");
    const float origin[3] = {3.0f, 1.0f, -2.0f};
    const float half[3] = {0.5f, 0.25f, 0.25f};
    recipe_material m = recipe_default_material();
    ENSURE(recipe_add_tower(&s, origin, 7, half, 0.01f, m) && s.item_count == 7);
    ENSURE_NEAR(s.items[0].position[1], 1.25f, 1e-6f);
    ENSURE_NEAR(s.items[6].position[1], 1.25f + 6.0f * 0.51f, 1e-5f);
    ENSURE(recipe_add_pyramid(&s, origin, 6, half, 0.0f, m) && s.item_count == 7 + 21);
    ENSURE(recipe_add_wall(&s, origin, 4, 5, half, 0.0f, m) && s.item_count == 28 + 5 + 4 + 5 + 4);
    ENSURE(recipe_add_dominoes(&s, origin, 9, half, 0.6f, m) && s.item_count == 46 + 9);
    ENSURE(s.items[46].angular_velocity[2] < 0.0f && s.items[47].angular_velocity[2] == 0.0f);
    ENSURE(recipe_add_rain(&s, origin, 33, 0.2f, 4.0f, 2.0f, 3, m) && s.item_count == 55 + 33);
    ENSURE(recipe_add_pile(&s, origin, 2, 3, 4, half, 1.2f, 0.5f, 0.01f, 9, m) && s.item_count == 88 + 24);
    recipe_scene_free(&s);
    ENSURE(s.item_count == 0 && s.items == NULL);
    return 0;
}

// Spawning makes one body per item through the public API with the recipe's shape, pose, velocities,
// material and mass (density times the analytic volume); a bad item fails cleanly, leaving no body.
static int recipes_spawn_into_world(void)
{
    size_t bytes_before = ph_byte_count();
    recipe_scene s;
    recipe_scene_init(&s, "spawn");
    s.gravity[1] = -5.0f;
    const float ground_half[3] = {10.0f, 1.0f, 10.0f};
    ENSURE(recipe_add_ground(&s, ground_half, 0.0f, recipe_default_material()));
    const float cube[8][3] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                              {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
    int hull = recipe_add_hull(&s, cube, 8);
    ENSURE(hull == 0);
    const recipe_shape shapes[4] = {RECIPE_BOX, RECIPE_SPHERE, RECIPE_CAPSULE, RECIPE_HULL};
    for (int i = 0; i < 4; i++)
    {
        recipe_item *it = recipe_add_item(&s);
        ENSURE(it != NULL);
        it->shape = shapes[i];
        it->half_extents[0] = 0.3f;
        it->half_extents[1] = 0.4f;
        it->half_extents[2] = 0.5f;
        it->radius = 0.25f;
        it->half_height = 0.5f;
        it->hull = hull;
        it->position[0] = 3.0f * (float)i;
        it->position[1] = 2.0f;
        it->linear_velocity[2] = 1.5f;
        it->angular_velocity[1] = 0.5f;
        it->material.density = 500.0f;
        it->material.friction = 0.3f;
        it->material.restitution = 0.25f;
    }
    ph_world_def def = spawn_world_def(&s);
    ENSURE_NEAR(def.gravity.y, -5.0f, 0.0f);
    ph_world *world = ph_world_create(&def);
    ENSURE(world != NULL);
    ph_body_id ids[5];
    ENSURE(spawn_recipe(world, &s, ids) == PH_OK);
    ENSURE(ph_world_get_body_count(world) == 5);
    ENSURE(ph_body_get_type(world, ids[0]) == PH_BODY_STATIC);
    const float pi = 3.14159265f;
    const float volumes[4] = {8.0f * 0.3f * 0.4f * 0.5f, 4.0f / 3.0f * pi * 0.25f * 0.25f * 0.25f,
                              pi * 0.25f * 0.25f * (2.0f * 0.5f + 4.0f / 3.0f * 0.25f), 8.0f};
    for (int i = 0; i < 4; i++)
    {
        ph_body_id id = ids[1 + i];
        ENSURE(ph_body_get_type(world, id) == PH_BODY_DYNAMIC);
        ENSURE_VEC3_NEAR(ph_body_get_position(world, id), ph_v3(3.0f * (float)i, 2.0f, 0.0f), 1e-6f);
        ENSURE_VEC3_NEAR(ph_body_get_linear_velocity(world, id), ph_v3(0.0f, 0.0f, 1.5f), 1e-6f);
        ENSURE_VEC3_NEAR(ph_body_get_angular_velocity(world, id), ph_v3(0.0f, 0.5f, 0.0f), 1e-6f);
        ph_material m = ph_body_get_material(world, id);
        ENSURE_NEAR(m.friction, 0.3f, 0.0f);
        ENSURE_NEAR(m.restitution, 0.25f, 0.0f);
        ENSURE_NEAR(ph_body_get_mass(world, id), 500.0f * volumes[i], 1e-3f * 500.0f * volumes[i]);
        ENSURE(ph_body_get_shape(world, id).type == (i == 0   ? PH_SHAPE_BOX
                                                     : i == 1 ? PH_SHAPE_SPHERE
                                                     : i == 2 ? PH_SHAPE_CAPSULE
                                                              : PH_SHAPE_HULL));
    }
    // An item naming a hull the scene does not have: nothing is left behind.
    s.items[4].hull = 7;
    ENSURE(spawn_recipe(world, &s, NULL) == PH_ERR_INVALID_ARG);
    ENSURE(ph_world_get_body_count(world) == 5);
    ph_world_destroy(world);
    recipe_scene_free(&s);

    // A named scene spawns every item.
    ENSURE(recipe_build("pyramid10", RECIPE_DEFAULT_SEED, &s));
    def = spawn_world_def(&s);
    world = ph_world_create(&def);
    ENSURE(world != NULL);
    ENSURE(spawn_recipe(world, &s, NULL) == PH_OK);
    ENSURE(ph_world_get_body_count(world) == 56);
    ph_world_destroy(world);
    recipe_scene_free(&s);
    ENSURE(ph_byte_count() == bytes_before);
    return 0;
}

// The game's jointed layouts (the "playthings" scene) stepped 10 s: every joint holds what it says (a ball
// joint's or a hinge's anchors meet, a rod keeps its length, a rope is never longer than its length), the
// rope bridge's planks stay up, the cradle's last ball is knocked out by the first, and nothing is NaN.
#define PLAYTHINGS_JOINT_SLACK 0.03f // (unit: m)
static int recipes_jointed_layouts(void)
{
    recipe_scene s;
    ENSURE(recipe_build("playthings", RECIPE_DEFAULT_SEED, &s));
    // ground 1, ragdoll 11, gantry 2 + 7 links + ball, bridge 2 posts + 16 planks, swing 3 + seat, cradle 6
    // + 5.
    ENSURE(s.item_count == 1 + 11 + 10 + 18 + 4 + 11);
    ENSURE(s.joint_count == 10 + 8 + 17 + 2 + 10);
    ph_world_def def = spawn_world_def(&s);
    ph_world *world = ph_world_create(&def);
    ENSURE(world);
    ph_body_id *ids = malloc((size_t)s.item_count * sizeof *ids);
    ENSURE(ids && spawn_recipe(world, &s, ids) == PH_OK);
    ENSURE(ph_world_get_joint_count(world) == s.joint_count);
    const int bridge_first = 1 + 11 + 10 + 2, bridge_planks = 16, last_ball = s.item_count - 1;
    ph_vec3 ball_start = ph_body_get_position(world, ids[last_ball]);
    float ball_moved = 0.0f, worst_gap = 0.0f;
    ph_joint_id joints[64];
    for (int step = 0; step < s.steps; step++)
    {
        ph_world_step(world);
        ball_moved =
            fmaxf(ball_moved, glms_vec3_distance(ph_body_get_position(world, ids[last_ball]), ball_start));
        if (step % 30 != 29)
            continue;
        int n = ph_world_get_joints(world, joints, 64);
        ENSURE(n == s.joint_count);
        for (int k = 0; k < n; k++)
        {
            ph_joint_info info;
            ENSURE(ph_joint_get_info(world, joints[k], &info) == PH_OK);
            ph_joint_def d = ph_joint_get_def(world, joints[k]);
            float len = glms_vec3_distance(info.anchor_a, info.anchor_b);
            float gap = info.type != PH_JOINT_DISTANCE ? len : fmaxf(d.min_length - len, len - d.max_length);
            worst_gap = fmaxf(worst_gap, gap);
        }
    }
    float lowest_plank = 1e9f;
    for (int i = 0; i < bridge_planks; i++)
        lowest_plank = fminf(lowest_plank, ph_body_get_bounds(world, ids[bridge_first + i]).lo.y);
    bool finite = true;
    for (int i = 0; i < s.item_count; i++)
        finite = finite && ph_is_finite_vec3(ph_body_get_position(world, ids[i]));
    fprintf(stderr,
            "playthings after %d steps: worst joint error %.4f m (at most %.2f), lowest plank %.3f m, "
            "cradle's last ball moved %.3f m\n",
            s.steps, (double)worst_gap, (double)PLAYTHINGS_JOINT_SLACK, (double)lowest_plank,
            (double)ball_moved);
    ENSURE(finite);
    ENSURE(worst_gap < PLAYTHINGS_JOINT_SLACK);
    ENSURE(lowest_plank > 0.5f);
    ENSURE(ball_moved > 0.1f);
    free(ids);
    ph_world_destroy(world);
    recipe_scene_free(&s);
    return 0;
}

const test_case test_recipes_cases[] = {
    {"recipes_named_scene_counts", recipes_named_scene_counts},
    {"recipes_no_overlap_at_spawn", recipes_no_overlap_at_spawn},
    {"recipes_pyramid1240_layout", recipes_pyramid1240_layout},
    {"recipes_pyramid_rows", recipes_pyramid_rows},
    {"recipes_scene_details", recipes_scene_details},
    {"recipes_seeded_layouts_repeat", recipes_seeded_layouts_repeat},
    {"recipes_generators", recipes_generators},
    {"recipes_spawn_into_world", recipes_spawn_into_world},
    {"recipes_jointed_layouts", recipes_jointed_layouts},
    {0},
};
