// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Builds a validated scene_desc (scene.c) into a ph_world: model entries through model_physics.c,
// generator entries through the layouts of src/recipes (recipes.h, spawn.h), placed by the entry's
// position and rotation. Kept apart from parsing so that the parser and its fuzzer need no world.
#include "assets/scene.h"
#include "recipes/recipes.h"
#include "recipes/spawn.h"

#include <stdlib.h> // malloc, free
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

// The joint def of scene joint j between bodies a (null: the world) and b at their current poses.
static ph_joint_def joint_def(const ph_world *world, const scene_joint *j, ph_body_id a, ph_body_id b)
{
    static const ph_joint_type types[SCENE_JOINT_TYPE_COUNT] = {
        [SCENE_JOINT_DISTANCE] = PH_JOINT_DISTANCE,   [SCENE_JOINT_ROPE] = PH_JOINT_DISTANCE,
        [SCENE_JOINT_SPHERICAL] = PH_JOINT_SPHERICAL, [SCENE_JOINT_REVOLUTE] = PH_JOINT_REVOLUTE,
        [SCENE_JOINT_PRISMATIC] = PH_JOINT_PRISMATIC, [SCENE_JOINT_WELD] = PH_JOINT_WELD};
    ph_joint_def d = ph_default_joint_def(types[j->type]);
    d.body_a = a;
    d.body_b = b;
    d.frame_a = spawn_body_frame(world, a, j->anchor, j->axis);
    d.frame_b = spawn_body_frame(world, b, j->anchor_b, j->axis);
    d.collide_connected = j->collide;
    d.break_force = j->break_force;
    d.break_torque = j->break_torque;
    float length = glms_vec3_distance(j->anchor, j->anchor_b);
    d.length = d.min_length = d.max_length = length;
    if (j->type == SCENE_JOINT_ROPE)
        d.min_length = 0.0f;
    d.enable_spring = j->enable_spring;
    d.spring_hertz = j->spring_hertz;
    d.spring_damping_ratio = j->spring_damping_ratio;
    d.spring_target = j->spring_target;
    if (j->type == SCENE_JOINT_WELD && j->enable_spring)
    {
        d.angular_hertz = j->spring_hertz;
        d.angular_damping_ratio = j->spring_damping_ratio;
    }
    if (j->type == SCENE_JOINT_DISTANCE)
    {
        if (j->enable_limit)
        {
            d.min_length = j->lower;
            d.max_length = j->upper;
        }
    }
    else
    {
        d.enable_limit = j->enable_limit;
        d.lower = j->lower;
        d.upper = j->upper;
    }
    d.enable_motor = j->enable_motor;
    d.motor_speed = j->motor_speed;
    d.max_motor_force = j->max_motor_force;
    d.enable_cone = j->enable_cone;
    d.cone_angle = j->cone;
    d.enable_twist = j->enable_twist;
    d.twist_lower = j->twist_lower;
    d.twist_upper = j->twist_upper;
    d.max_friction_torque = j->friction;
    return d;
}

// Makes the scene's joints between the entries' bodies (first[i]: entry i's first body in out). False
// with the joint named in err.
static bool build_joints(ph_world *world, const scene_desc *desc, const model_set *out, const int *first,
                         asset_error *err)
{
    for (int k = 0; k < desc->joint_count; k++)
    {
        const scene_joint *j = &desc->joints[k];
        bool ends_ok = j->b >= 0 && j->b < desc->entry_count && j->a < desc->entry_count &&
                       first[j->b] >= 0 && (j->a < 0 || first[j->a] >= 0);
        ph_body_id a = ends_ok && j->a >= 0 ? out->bodies[first[j->a]].body : PH_NULL_BODY_ID;
        ph_body_id b = ends_ok ? out->bodies[first[j->b]].body : PH_NULL_BODY_ID;
        ph_joint_def d = joint_def(world, j, a, b);
        if (!ends_ok || PH_ID_IS_NULL(ph_joint_create(world, &d)))
        {
            asset_error_set(err, desc->file, 0, "joints[%d] (%s, b = %s): %s", k,
                            scene_joint_type_name(j->type), ends_ok ? desc->entries[j->b].name : "?",
                            ends_ok ? ph_world_last_error(world).message : "its entries made no body");
            return false;
        }
    }
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
    int *first = malloc((size_t)(desc->entry_count > 0 ? desc->entry_count : 1) * sizeof *first);
    if (!first)
    {
        asset_error_set(err, desc->file, 0, "out of memory");
        return false;
    }
    bool ok = true;
    for (int i = 0; ok && i < desc->entry_count; i++)
    {
        const scene_entry *e = &desc->entries[i];
        first[i] = out->body_count;
        asset_error entry_err;
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
        if (first[i] >= out->body_count)
            first[i] = -1; // made no body
    }
    ok = ok && build_joints(world, desc, out, first, err);
    free(first);
    if (!ok)
    {
        // Undo this call's bodies (and with them the joints made so far): a scene is built whole or not
        // at all.
        for (int b = mark; b < out->body_count; b++)
        {
            ph_body_destroy(world, out->bodies[b].body);
            model_mesh_free(out->bodies[b].mesh);
        }
        out->body_count = mark;
        return false;
    }
    return true;
}
