// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Builds a validated scene_desc (scene.c) into a ph_world: model entries through model_physics.c,
// generator entries through the layouts of src/recipes (recipes.h, spawn.h), placed by the entry's
// position and rotation. Kept apart from parsing so that the parser and its fuzzer need no world.
#include "assets/scene.h"
#include "recipes/recipes.h"
#include "recipes/spawn.h"

#include <string.h> // memset

ph_world_def scene_world_def(const scene_desc *desc)
{
    ph_world_def def = ph_default_world_def();
    if (desc)
    {
        def.gravity = desc->gravity;
        def.time_step = desc->time_step;
    }
    return def;
}

static ph_material to_material(const scene_material *m)
{
    ph_material out = ph_default_material();
    out.density = m->density;
    out.friction = m->friction;
    out.restitution = m->restitution;
    return out;
}

// Appends the generator's layout, built around the origin, to rs.
static bool generate(const scene_entry *e, recipe_scene *rs)
{
    const scene_generator_params *g = &e->params;
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    const float half[3] = {0.5f * g->size[0], 0.5f * g->size[1], 0.5f * g->size[2]};
    recipe_material mat = recipe_default_material();
    mat.density = e->material.density;
    mat.friction = e->material.friction;
    mat.restitution = e->material.restitution;
    switch (e->generator)
    {
    case SCENE_GENERATOR_BOX:
    case SCENE_GENERATOR_SPHERE:
    {
        recipe_item *it = recipe_add_item(rs);
        if (!it)
            return false;
        if (e->generator == SCENE_GENERATOR_SPHERE)
        {
            it->shape = RECIPE_SPHERE;
            it->radius = g->radius;
        }
        else
            memcpy(it->half_extents, half, sizeof half);
        it->material = mat;
        return true;
    }
    case SCENE_GENERATOR_TOWER:
        return recipe_add_tower(rs, origin, g->rows, half, g->spacing, mat);
    case SCENE_GENERATOR_PYRAMID:
        return recipe_add_pyramid(rs, origin, g->rows, half, g->spacing, mat);
    case SCENE_GENERATOR_WALL:
        return recipe_add_wall(rs, origin, g->rows, g->columns, half, g->spacing, mat);
    case SCENE_GENERATOR_DOMINOES:
        return recipe_add_dominoes(rs, origin, g->count, half, g->spacing, mat);
    case SCENE_GENERATOR_RAIN:
        return recipe_add_rain(rs, origin, g->count, g->radius, g->height, g->extent, g->seed, mat);
    case SCENE_GENERATOR_COUNT:
        break;
    }
    return false;
}

// Makes the bodies of one generator entry: the layout is turned by the entry's rotation about its
// origin and moved to its position; the entry's body type and velocities apply to every body.
static bool build_generator(ph_world *world, const scene_entry *e, model_set *out, asset_error *err,
                            const char *file, int index)
{
    recipe_scene rs;
    recipe_scene_init(&rs, e->name);
    if (!generate(e, &rs))
    {
        recipe_scene_free(&rs);
        asset_error_set(err, file, 0, "entries[%d] (%s): out of memory", index, e->name);
        return false;
    }
    const ph_body_def defaults = ph_default_body_def();
    for (int i = 0; i < rs.item_count; i++)
    {
        ph_body_def def = spawn_body_def(&rs.items[i], PH_NULL_GEOM_ID);
        def.type = e->body_type;
        def.position = glms_vec3_add(e->position, glms_quat_rotatev(e->orientation, def.position));
        def.orientation = glms_quat_normalize(glms_quat_mul(e->orientation, def.orientation));
        if (e->body_type != PH_BODY_STATIC)
        {
            def.linear_velocity = glms_vec3_add(def.linear_velocity, e->linear_velocity);
            def.angular_velocity = glms_vec3_add(def.angular_velocity, e->angular_velocity);
        }
        else
        {
            def.linear_velocity = glms_vec3_zero();
            def.angular_velocity = glms_vec3_zero();
        }
        // The game's bodies keep the engine's default damping (recipes measure undamped physics).
        def.linear_damping = defaults.linear_damping;
        def.angular_damping = defaults.angular_damping;
        ph_body_id body = ph_body_create(world, &def);
        if (PH_ID_IS_NULL(body) || !model_set_add(out, body, NULL, e->material.color, e->name))
        {
            if (!PH_ID_IS_NULL(body))
                ph_body_destroy(world, body);
            asset_error_set(err, file, 0, "entries[%d] (%s): %s", index, e->name,
                            ph_world_last_error(world).message);
            recipe_scene_free(&rs);
            return false;
        }
    }
    recipe_scene_free(&rs);
    return true;
}

bool scene_build(ph_world *world, const scene_desc *desc, model_set *out, asset_warnings *warnings,
                 asset_error *err)
{
    if (!world || !desc || !out)
    {
        asset_error_set(err, desc ? desc->file : "(null)", 0, "no world, scene or model set");
        return false;
    }
    int mark = out->body_count;
    for (int i = 0; i < desc->entry_count; i++)
    {
        const scene_entry *e = &desc->entries[i];
        asset_error entry_err;
        bool ok = true;
        if (e->kind == SCENE_ENTRY_GENERATOR)
            ok = build_generator(world, e, out, err, desc->file, i);
        else if (!e->model)
        {
            asset_error_set(&entry_err, e->path, 0, "not loaded");
            ok = false;
        }
        else if (e->kind == SCENE_ENTRY_MODEL)
        {
            model_body_options o = model_default_body_options();
            o.shape.kind = e->shape;
            o.shape.split = e->split;
            o.shape.decompose = e->decompose;
            o.shape.cache = true;
            for (int k = 0; k < 3; k++)
            {
                o.shape.scale[k] = e->scale[k];
                o.color[k] = e->material.color[k];
            }
            o.type = e->body_type;
            o.position = e->position;
            o.orientation = e->orientation;
            o.linear_velocity = e->linear_velocity;
            o.angular_velocity = e->angular_velocity;
            o.material = to_material(&e->material);
            o.name = e->name;
            ok = model_physics_add_body(world, e->model, &o, out, warnings, &entry_err);
        }
        else
        {
            model_scene_options o = model_default_scene_options();
            o.scale = e->scale[0];
            o.offset = e->position;
            o.material = to_material(&e->material);
            ok = model_physics_add_scene(world, e->model, &o, out, warnings, &entry_err);
        }
        if (!ok && e->kind != SCENE_ENTRY_GENERATOR)
            asset_error_set(err, desc->file, 0, "entries[%d] (%s): %s", i, e->name, entry_err.text);
        if (!ok)
        {
            // Undo this call's bodies: a scene is built whole or not at all.
            for (int b = mark; b < out->body_count; b++)
            {
                ph_body_destroy(world, out->bodies[b].body);
                model_mesh_free(out->bodies[b].mesh);
            }
            out->body_count = mark;
            return false;
        }
    }
    return true;
}
