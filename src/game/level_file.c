// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Levels from files: JSON scenes and .obj models / .obj scenes. They are built through the assets
// module's model_physics.c and scene_build.c, which are not in the tree yet; until then a file is
// rejected with a message that says so (the game keeps running on a built-in scene).

#include "game/level.h"

#include <stdio.h>  // snprintf
#include <string.h> // memset

// TODO(#6): build .json scenes (scene_load + scene_build) and .obj scenes (model_physics_add_scene)
// once src/assets/scene_build.c and src/assets/model_physics.c are committed.
bool level_load_file(level *lv, const char *path, renderer *r, uint32_t seed, char *err, size_t err_size)
{
    (void)r;
    (void)seed;
    memset(lv, 0, sizeof *lv);
    snprintf(err, err_size, "%s: loading scene and model files is not in this build yet", path ? path : "(null)");
    return false;
}

// TODO(#6): the model's hull through model_physics_build_shape once it is committed.
bool level_model_projectile(level *lv, const struct obj_model *model, renderer *r, ph_geom_id *out_geom,
                            int *inout_mesh, char *err, size_t err_size)
{
    (void)lv;
    (void)model;
    (void)r;
    (void)inout_mesh;
    *out_geom = PH_NULL_GEOM_ID;
    snprintf(err, err_size, "model projectiles are not in this build yet");
    return false;
}
