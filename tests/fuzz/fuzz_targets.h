// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// What one fuzz input exercises, shared by the libFuzzer targets (fuzz_obj.c, fuzz_mtl.c, fuzz_model.c,
// fuzz_scene.c) and by the replay of saved crashes in tests/test_fuzz_regression.c, so a regression file
// is run through exactly the code that crashed. Nothing here touches files: materials and models are
// not loaded.
#pragma once

#include "assets/model_mesh.h"
#include "assets/model_physics.h"
#include "assets/obj.h"
#include "assets/scene.h"

#include "phys/phys.h"

#include <stddef.h> // size_t
#include <stdint.h> // uint8_t

// Lower limits than the defaults keep each input fast and its memory small; the limits themselves
// are tested (test_obj.c obj_limits).
#define FUZZ_MAX_VERTICES (1 << 16)
#define FUZZ_MAX_TRIANGLES (1 << 17)
// The model target builds convex hulls (qhull) and meshes of every object: smaller models keep it fast.
#define FUZZ_MODEL_MAX_VERTICES 2048
#define FUZZ_MODEL_MAX_TRIANGLES 4096

// Parses the bytes as .obj without reading material files, within the given limits; NULL on an error.
static inline obj_model *fuzz_parse_obj(const uint8_t *data, size_t size, int max_vertices, int max_triangles)
{
    obj_options opt = obj_default_options();
    opt.load_materials = false;
    opt.max_vertices = max_vertices;
    opt.max_triangles = max_triangles;
    obj_model *m = NULL;
    asset_error err;
    obj_parse((const char *)data, size, "fuzz.obj", &opt, &m, &err);
    return m;
}

// Parses the bytes as .obj; on success builds the render mesh of the whole model and of each object.
// Returns 1 when the .obj parsed, 0 otherwise.
static inline int fuzz_obj_input(const uint8_t *data, size_t size)
{
    obj_model *m = fuzz_parse_obj(data, size, FUZZ_MAX_VERTICES, FUZZ_MAX_TRIANGLES);
    int parsed = m != NULL;
    if (m)
    {
        model_mesh_free(model_mesh_build(m, NULL));
        for (int i = 0; i < m->object_count; i++)
        {
            model_mesh_options mo = model_mesh_default_options();
            mo.first_triangle = m->objects[i].first_triangle;
            mo.triangle_count = m->objects[i].triangle_count;
            model_mesh_free(model_mesh_build(m, &mo));
        }
        obj_free(m);
    }
    return parsed;
}

// Parses the bytes as a .mtl material library. Returns 1 when it parsed.
static inline int fuzz_mtl_input(const uint8_t *data, size_t size)
{
    mtl_library *lib = NULL;
    asset_error err;
    int parsed = mtl_parse((const char *)data, size, "fuzz.mtl", &lib, &err) ? 1 : 0;
    mtl_free(lib);
    return parsed;
}

// Parses the bytes as .obj and turns the model into bodies the ways the game does: as an .obj scene
// (every object a hull, compound or static mesh by its name, flat ones static, the default ground),
// then as one body: a dynamic hull of the whole model for inputs of even size, a compound of its groups
// for odd ones (one of the two, not both: a hull over the engine's 256-vertex budget costs a few hundred
// ms under the sanitizers, see tests/data/fuzz-model-timeout-bowl.obj). Errors are expected (flat
// models have no hull); crashes, leaks and sanitizer reports are not. Returns 1 when the .obj parsed.
static inline int fuzz_model_input(const uint8_t *data, size_t size)
{
    obj_model *m = fuzz_parse_obj(data, size, FUZZ_MODEL_MAX_VERTICES, FUZZ_MODEL_MAX_TRIANGLES);
    if (!m)
        return 0;
    asset_error err;
    ph_world_def wdef = ph_default_world_def();
    ph_world *world = ph_world_create(&wdef);
    if (world)
    {
        model_set set = {0};
        asset_warnings warnings = {0};
        model_physics_add_scene(world, m, NULL, &set, &warnings, &err);
        model_body_options o = model_default_body_options();
        o.shape.kind = size % 2 ? MODEL_SHAPE_COMPOUND : MODEL_SHAPE_HULL;
        model_physics_add_body(world, m, &o, &set, &warnings, &err);
        model_set_free(&set);
        ph_world_destroy(world);
    }
    obj_free(m);
    return 1;
}

// Parses the bytes as a scene file (models are not loaded). Returns 1 when it parsed.
static inline int fuzz_scene_input(const uint8_t *data, size_t size)
{
    scene_options opt = scene_default_options();
    opt.load_models = false;
    scene_desc *d = NULL;
    asset_error err;
    int parsed = scene_parse((const char *)data, size, "fuzz.json", &opt, &d, &err) ? 1 : 0;
    scene_free(d);
    return parsed;
}
