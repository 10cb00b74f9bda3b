// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Recipe items -> ph bodies (see spawn.h). Only public API calls: world geometry for hulls, then one
// ph_body_create per item with a def made by ph_default_body_def().
#include "spawn.h"

#include <stdlib.h> // malloc, free

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
    if (status != PH_OK)
    {
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
