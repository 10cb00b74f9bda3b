// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Turns recipes (recipes.h, plain data) into bodies of a ph_world through the public engine API only:
// the one part of src/recipes that knows the engine.
#pragma once

#include "recipes/recipes.h"

#include "phys/phys.h"

// A world def with the scene's gravity, time step and sleeping (the rest from ph_default_world_def()).
ph_world_def spawn_world_def(const recipe_scene *scene);

// The body def of one item; hull_geom is the world geometry of the item's hull (ignored for other
// shapes).
ph_body_def spawn_body_def(const recipe_item *item, ph_geom_id hull_geom);

// A frame at world point p whose z axis is the unit world axis, written in body's shape frame at its
// current pose (body null: the world, the frame as given). For joints made from world terms.
ph_transform spawn_body_frame(const ph_world *world, ph_body_id body, ph_vec3 p, ph_vec3 axis);
// The joint def of recipe joint j, its bodies ids[j->a] and ids[j->b].
ph_joint_def spawn_joint_def(const recipe_scene *scene, const recipe_joint *j, const ph_body_id *ids);
// Creates the scene's hulls as world geometry and one body per item, in item order, and writes the
// ids to out_ids (item_count entries; may be NULL). Returns PH_OK, or the status of the first failure
// (reason in ph_world_last_error), after destroying the bodies it made (hull geometry stays with the
// world, which frees it).
ph_status spawn_recipe(ph_world *world, const recipe_scene *scene, ph_body_id *out_ids);

// How far the world's joints are open (issue 20: "no joint separated by more than 2 cm"): the largest
// distance between a joint's two anchors (distance joints left out: their anchors are apart by design); -1
// when an anchor is not finite or the joints could not be listed.
float spawn_worst_joint_opening(const ph_world *world);

// Piles come to rest (issue 19, item 7): the seconds from the last landing of the first `keep` dynamic bodies
// of recipe `name`'s heap (seed `seed`, sleeping on, path `simd`) until all of them were asleep; -1 if not
// within `limit` s of the start, -2 if the scene could not be made (spawn.c says how landing is told).
float spawn_heap_rest_time(const char *name, int keep, uint64_t seed, float limit, ph_simd_path simd);
