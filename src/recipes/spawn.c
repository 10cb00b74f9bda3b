// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Recipe items -> ph bodies (see spawn.h). Only public API calls: world geometry for hulls, then one
// ph_body_create per item with a def made by ph_default_body_def().
#include "spawn.h"

#include <stdlib.h> // malloc, calloc, free

static ph_vec3 vec3_of(const float v[3])
{
    return ph_v3(v[0], v[1], v[2]);
}

ph_world_def spawn_world_def(const recipe_scene *scene)
{
    ph_world_def def = ph_default_world_def();
    def.gravity = vec3_of(scene->gravity);
    def.time_step = scene->time_step;
    def.enable_sleep = scene->enable_sleep;
    return def;
}

ph_body_def spawn_body_def(const recipe_item *item, ph_geom_id hull_geom)
{
    ph_body_def def = ph_default_body_def();
    switch (item->type)
    {
    case RECIPE_STATIC:
        def.type = PH_BODY_STATIC;
        break;
    case RECIPE_KINEMATIC:
        def.type = PH_BODY_KINEMATIC;
        break;
    case RECIPE_DYNAMIC:
    default:
        def.type = PH_BODY_DYNAMIC;
        break;
    }
    def.position = vec3_of(item->position);
    def.orientation.x = item->orientation[0];
    def.orientation.y = item->orientation[1];
    def.orientation.z = item->orientation[2];
    def.orientation.w = item->orientation[3];
    def.linear_velocity = vec3_of(item->linear_velocity);
    def.angular_velocity = vec3_of(item->angular_velocity);
    def.linear_damping = item->linear_damping;
    def.angular_damping = item->angular_damping;
    def.enable_sleep = item->enable_sleep;
    def.material.density = item->material.density;
    def.material.friction = item->material.friction;
    def.material.restitution = item->material.restitution;
    switch (item->shape)
    {
    case RECIPE_SPHERE:
        def.shape = ph_make_sphere(item->radius);
        break;
    case RECIPE_CAPSULE:
        def.shape = ph_make_capsule(item->half_height, item->radius);
        break;
    case RECIPE_HULL:
        def.shape = ph_make_geom_shape(PH_SHAPE_HULL, hull_geom);
        break;
    case RECIPE_BOX:
    default:
        def.shape = ph_make_box(vec3_of(item->half_extents));
        break;
    }
    return def;
}

// Makes world geometry for every hull of the scene into geoms[hull_count].
static ph_status spawn_hulls(ph_world *world, const recipe_scene *scene, ph_geom_id *geoms)
{
    for (int h = 0; h < scene->hull_count; h++)
    {
        const recipe_hull *hull = &scene->hulls[h];
        ph_vec3 *points = malloc((size_t)(hull->point_count > 0 ? hull->point_count : 1) * sizeof *points);
        if (!points)
            return PH_ERR_OUT_OF_MEMORY;
        for (int i = 0; i < hull->point_count; i++)
            points[i] = vec3_of(&scene->hull_points[3 * (hull->first_point + i)]);
        ph_hull_def def = ph_default_hull_def();
        def.points = points;
        def.point_count = hull->point_count;
        geoms[h] = ph_world_add_hull(world, &def);
        free(points);
        if (PH_ID_IS_NULL(geoms[h]))
            return ph_world_last_error(world).status;
    }
    return PH_OK;
}

// The rotation taking the z axis onto unit vector `axis`.
static ph_quat z_onto(ph_vec3 axis)
{
    ph_vec3 z = ph_v3(0.0f, 0.0f, 1.0f);
    float c = glms_vec3_dot(z, axis);
    if (c < -0.9999f)
        return glms_quatv(GLM_PIf, ph_v3(1.0f, 0.0f, 0.0f));
    ph_vec3 k = glms_vec3_cross(z, axis);
    ph_quat q = {{k.x, k.y, k.z, 1.0f + c}};
    return glms_quat_normalize(q);
}

// A world frame as a frame in item `index`'s shape frame at its spawn pose (the world's own for -1).
static ph_transform local_frame(const recipe_scene *scene, int index, ph_vec3 p, ph_quat q)
{
    if (index < 0)
        return (ph_transform){p, q};
    const recipe_item *it = &scene->items[index];
    ph_transform body = {ph_v3(it->position[0], it->position[1], it->position[2]),
                         glms_quat_normalize((ph_quat){{it->orientation[0], it->orientation[1],
                                                        it->orientation[2], it->orientation[3]}})};
    ph_quat inv = glms_quat_conjugate(body.q);
    return (ph_transform){glms_quat_rotatev(inv, glms_vec3_sub(p, body.p)), glms_quat_mul(inv, q)};
}

ph_transform spawn_body_frame(const ph_world *world, ph_body_id body, ph_vec3 p, ph_vec3 axis)
{
    ph_quat q = z_onto(ph_safe_normalize(axis, ph_v3(0.0f, 0.0f, 1.0f)));
    if (PH_ID_IS_NULL(body))
        return (ph_transform){p, q};
    ph_transform xf = ph_body_get_transform(world, body);
    ph_quat inv = glms_quat_conjugate(xf.q);
    return (ph_transform){glms_quat_rotatev(inv, glms_vec3_sub(p, xf.p)),
                          glms_quat_normalize(glms_quat_mul(inv, q))};
}

ph_joint_def spawn_joint_def(const recipe_scene *scene, const recipe_joint *j, const ph_body_id *ids)
{
    static const ph_joint_type types[] = {PH_JOINT_SPHERICAL, PH_JOINT_REVOLUTE, PH_JOINT_DISTANCE,
                                          PH_JOINT_WELD};
    ph_joint_def d = ph_default_joint_def(types[j->type]);
    ph_vec3 anchor = ph_v3(j->anchor[0], j->anchor[1], j->anchor[2]);
    ph_vec3 anchor_b =
        j->type == RECIPE_JOINT_DISTANCE ? ph_v3(j->anchor_b[0], j->anchor_b[1], j->anchor_b[2]) : anchor;
    ph_quat q = z_onto(glms_vec3_normalize(ph_v3(j->axis[0], j->axis[1], j->axis[2])));
    d.body_a = j->a >= 0 ? ids[j->a] : PH_NULL_BODY_ID;
    d.body_b = ids[j->b];
    d.frame_a = local_frame(scene, j->a, anchor, q);
    d.frame_b = local_frame(scene, j->b, anchor_b, q);
    float length = glms_vec3_distance(anchor, anchor_b);
    d.length = d.max_length = length;
    d.min_length = j->rope ? 0.0f : length;
    d.enable_limit = j->enable_limit;
    d.lower = j->lower;
    d.upper = j->upper;
    d.enable_cone = j->enable_cone;
    d.cone_angle = j->cone;
    d.enable_twist = j->enable_twist;
    d.twist_lower = j->lower;
    d.twist_upper = j->upper;
    d.max_friction_torque = j->friction;
    return d;
}

ph_status spawn_recipe(ph_world *world, const recipe_scene *scene, ph_body_id *out_ids)
{
    if (!world || !scene || scene->item_count < 0)
        return PH_ERR_INVALID_ARG;
    ph_geom_id *geoms = malloc((size_t)(scene->hull_count > 0 ? scene->hull_count : 1) * sizeof *geoms);
    ph_body_id *ids = malloc((size_t)(scene->item_count > 0 ? scene->item_count : 1) * sizeof *ids);
    ph_status status = geoms && ids ? spawn_hulls(world, scene, geoms) : PH_ERR_OUT_OF_MEMORY;
    int made = 0;
    for (; status == PH_OK && made < scene->item_count; made++)
    {
        const recipe_item *item = &scene->items[made];
        bool hull_ok = item->shape != RECIPE_HULL || (item->hull >= 0 && item->hull < scene->hull_count);
        if (!hull_ok)
        {
            status = PH_ERR_INVALID_ARG;
            break;
        }
        ph_body_def def =
            spawn_body_def(item, item->shape == RECIPE_HULL ? geoms[item->hull] : PH_NULL_GEOM_ID);
        ids[made] = ph_body_create(world, &def);
        if (PH_ID_IS_NULL(ids[made]))
        {
            status = ph_world_last_error(world).status;
            break;
        }
    }
    for (int k = 0; status == PH_OK && k < scene->joint_count; k++)
    {
        const recipe_joint *j = &scene->joints[k];
        if (j->a < -1 || j->a >= scene->item_count || j->b < 0 || j->b >= scene->item_count)
        {
            status = PH_ERR_INVALID_ARG;
            break;
        }
        ph_joint_def d = spawn_joint_def(scene, j, ids);
        if (PH_ID_IS_NULL(ph_joint_create(world, &d)))
            status = ph_world_last_error(world).status;
    }
    if (status != PH_OK)
    {
        // Removing the bodies removes the joints made so far.
        for (int i = 0; ids && i < made; i++)
            ph_body_destroy(world, ids[i]);
    }
    else if (out_ids)
    {
        for (int i = 0; i < scene->item_count; i++)
            out_ids[i] = ids[i];
    }
    free(ids);
    free(geoms);
    return status;
}

float spawn_worst_joint_opening(const ph_world *world)
{
    int n = ph_world_get_joints(world, NULL, 0);
    ph_joint_id *ids = malloc((size_t)(n > 0 ? n : 1) * sizeof *ids);
    if (!ids)
        return -1.0f;
    ph_world_get_joints(world, ids, n);
    float worst = 0.0f;
    for (int i = 0; i < n && worst >= 0.0f; i++)
    {
        ph_joint_info info;
        if (ph_joint_get_info(world, ids[i], &info) != PH_OK || info.type == PH_JOINT_DISTANCE)
            continue;
        float gap = glms_vec3_distance(info.anchor_a, info.anchor_b);
        worst = !(gap == gap) ? -1.0f : gap > worst ? gap : worst;
    }
    free(ids);
    return worst;
}

// Piles come to rest (issue 19, item 7): the first `keep` dynamic bodies of recipe `name`'s random heap
// (seed `seed`) with every static item, sleeping on, solved on path `simd`. Returns the seconds from the last
// body's landing (the first step its fall stopped: its downward speed, past 2 m/s, back under 0.5 m/s)
// until every body was asleep, -1 if that did not happen within `limit` s of the start, -2 if the recipe or
// the world could not be made.
float spawn_heap_rest_time(const char *name, int keep, uint64_t seed, float limit, ph_simd_path simd)
{
    recipe_scene scene;
    if (!recipe_build(name, seed, &scene))
        return -2.0f;
    int n = 0, dynamic = 0;
    for (int i = 0; i < scene.item_count; i++)
    {
        if (scene.items[i].type == RECIPE_DYNAMIC && dynamic++ >= keep)
            continue;
        scene.items[n++] = scene.items[i];
    }
    scene.item_count = n;
    ph_world_def wd = spawn_world_def(&scene);
    wd.enable_sleep = true;
    wd.simd = simd;
    ph_world *w = ph_world_create(&wd);
    ph_body_id *ids = calloc((size_t)(n > 0 ? n : 1), sizeof *ids);
    bool *falling = calloc((size_t)(n > 0 ? n : 1), sizeof *falling);
    float result = -2.0f, landed = 0.0f;
    if (w && ids && falling && spawn_recipe(w, &scene, ids) == PH_OK)
    {
        result = -1.0f;
        float dt = scene.time_step;
        for (int s = 1; s <= (int)(limit / dt); s++)
        {
            ph_world_step(w);
            for (int i = 0; i < n; i++)
            {
                if (scene.items[i].type != RECIPE_DYNAMIC || !ph_body_is_awake(w, ids[i]))
                    continue;
                float vy = ph_body_get_linear_velocity(w, ids[i]).y;
                if (vy < -2.0f)
                    falling[i] = true;
                else if (falling[i] && vy > -0.5f)
                {
                    falling[i] = false;
                    landed = (float)s * dt;
                }
            }
            if (ph_world_get_stats(w)->awake_body_count == 0)
            {
                result = (float)s * dt - landed;
                break;
            }
        }
    }
    ph_world_destroy(w);
    free(ids);
    free(falling);
    recipe_scene_free(&scene);
    return result;
}
