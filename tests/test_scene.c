// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Tests of scene files (src/assets/scene.c): every key and its default, every validation error with
// the file and JSON path it names, models loaded and shared, and every scene shipped in scenes/.
#include "assets/scene.h"
#include "test.h"

#include <stdio.h>  // snprintf
#include <string.h> // strlen, strstr

static scene_desc *parse(const char *json, bool load_models, asset_error *err)
{
    scene_options opt = scene_default_options();
    opt.load_models = load_models;
    scene_desc *d = NULL;
    if (!scene_parse(json, strlen(json), SANDBOX_SOURCE_DIR "/scenes/test.json", &opt, &d, err))
        return NULL;
    return d;
}

static int scene_parse_everything(void)
{
    const char *json =
        "{\n"
        "  \"description\": \"every key\",\n"
        "  \"gravity\": [0, -5, 1],\n"
        "  \"time_step\": 0.01,\n"
        "  \"camera\": {\"position\": [1, 2, 3], \"target\": [0, 0, 0], \"fov\": 45},\n"
        "  \"entries\": [\n"
        "    {\"name\": \"thing\", \"model\": \"../models/x.obj\", \"shape\": \"compound\",\n"
        "     \"body\": \"kinematic\", \"position\": [1, 2, 3], \"rotation\": [0, 90, 0],\n"
        "     \"scale\": [1, 2, 3], \"velocity\": [4, 5, 6], \"angular_velocity\": [0, 1, 0],\n"
        "     \"material\": {\"density\": 500, \"friction\": 0.25, \"restitution\": 0.5,\n"
        "                  \"color\": [0.5, 0.25, 1]}},\n"
        "    {\"model\": \"../models/y.obj\", \"shape\": \"mesh\", \"body\": \"static\", \"scale\": 2},\n"
        "    {\"obj_scene\": \"room.obj\", \"position\": [0, 1, 0], \"scale\": 0.01},\n"
        "    {\"generator\": \"wall\", \"rows\": 3, \"columns\": 4, \"size\": [1, 0.5, 0.5],\n"
        "     \"spacing\": 0.01},\n"
        "    {\"generator\": \"rain\", \"count\": 20, \"radius\": 0.2, \"height\": 8, \"extent\": 3,\n"
        "     \"seed\": 7},\n"
        "    {\"generator\": \"box\"}\n"
        "  ]\n"
        "}\n";
    asset_error err;
    scene_desc *d = parse(json, false, &err);
    if (!d)
        fprintf(stderr, "%s\n", err.text);
    ENSURE(d);
    ENSURE_VEC3_NEAR(d->gravity, ph_v3(0, -5, 1), 0.0f);
    ENSURE_NEAR(d->time_step, 0.01f, 0.0f);
    ENSURE_VEC3_NEAR(d->camera.position, ph_v3(1, 2, 3), 0.0f);
    ENSURE_NEAR(d->camera.fov, 45.0f, 0.0f);
    ENSURE(d->entry_count == 6);
    const scene_entry *e = &d->entries[0];
    ENSURE(e->kind == SCENE_ENTRY_MODEL && strcmp(e->name, "thing") == 0);
    ENSURE(strcmp(e->path, SANDBOX_SOURCE_DIR "/scenes/../models/x.obj") == 0);
    ENSURE(e->shape == MODEL_SHAPE_COMPOUND && e->body_type == PH_BODY_KINEMATIC);
    ENSURE_VEC3_NEAR(e->position, ph_v3(1, 2, 3), 0.0f);
    // 90 degrees about y takes x to -z.
    ENSURE_VEC3_NEAR(glms_quat_rotatev(e->orientation, ph_v3(1, 0, 0)), ph_v3(0, 0, -1), 1e-6f);
    ENSURE_VEC3_NEAR(ph_v3(e->scale[0], e->scale[1], e->scale[2]), ph_v3(1, 2, 3), 0.0f);
    ENSURE_VEC3_NEAR(e->linear_velocity, ph_v3(4, 5, 6), 0.0f);
    ENSURE_VEC3_NEAR(e->angular_velocity, ph_v3(0, 1, 0), 0.0f);
    ENSURE_NEAR(e->material.density, 500.0f, 0.0f);
    ENSURE_NEAR(e->material.friction, 0.25f, 0.0f);
    ENSURE_NEAR(e->material.restitution, 0.5f, 0.0f);
    ENSURE_NEAR(e->material.color[1], 0.25f, 0.0f);
    ENSURE(e->model == NULL);
    e = &d->entries[1];
    ENSURE(e->shape == MODEL_SHAPE_MESH && e->body_type == PH_BODY_STATIC && strcmp(e->name, "y.obj") == 0);
    ENSURE_VEC3_NEAR(ph_v3(e->scale[0], e->scale[1], e->scale[2]), ph_v3(2, 2, 2), 0.0f);
    e = &d->entries[2];
    ENSURE(e->kind == SCENE_ENTRY_OBJ_SCENE && strcmp(e->path, SANDBOX_SOURCE_DIR "/scenes/room.obj") == 0);
    ENSURE_NEAR(e->scale[2], 0.01f, 0.0f);
    e = &d->entries[3];
    ENSURE(e->kind == SCENE_ENTRY_GENERATOR && e->generator == SCENE_GENERATOR_WALL);
    ENSURE(e->params.rows == 3 && e->params.columns == 4 && strcmp(e->name, "wall 3") == 0);
    ENSURE_NEAR(e->params.size[0], 1.0f, 0.0f);
    ENSURE_NEAR(e->params.spacing, 0.01f, 0.0f);
    e = &d->entries[4];
    ENSURE(e->generator == SCENE_GENERATOR_RAIN && e->params.count == 20 && e->params.seed == 7);
    ENSURE_NEAR(e->params.radius, 0.2f, 0.0f);
    ENSURE_NEAR(e->params.height, 8.0f, 0.0f);
    ENSURE_NEAR(e->params.extent, 3.0f, 0.0f);
    // Defaults.
    e = &d->entries[5];
    ENSURE(e->generator == SCENE_GENERATOR_BOX && e->body_type == PH_BODY_DYNAMIC);
    ENSURE_NEAR(e->material.density, 1000.0f, 0.0f);
    ENSURE_NEAR(e->material.friction, 0.6f, 0.0f);
    ENSURE_NEAR(e->material.restitution, 0.0f, 0.0f);
    ENSURE_NEAR(e->params.size[2], 1.0f, 0.0f);
    ENSURE_NEAR(e->orientation.w, 1.0f, 0.0f);
    scene_free(d);

    d = parse("{\"entries\": []}", false, &err);
    ENSURE(d && d->entry_count == 0);
    ENSURE_VEC3_NEAR(d->gravity, ph_v3(0, -9.81f, 0), 0.0f);
    ENSURE_NEAR(d->time_step, 1.0f / 60.0f, 0.0f);
    scene_free(d);
    return 0;
}

static int scene_errors(void)
{
    const char *file = SANDBOX_SOURCE_DIR "/scenes/test.json";
    struct
    {
        const char *json;
        const char *message; // after "file: "
    } cases[] = {
        {"{\"entries\": [{\"generator\": \"box\", \"material\": {\"friction\": -1}}]}",
         "entries[0].material.friction: must be >= 0, got -1"},
        {"{\"entries\": [{\"generator\": \"box\"}, {\"generator\": \"box\"}, {\"generator\": \"box\"},"
         " {\"generator\": \"box\", \"material\": {\"restitution\": 1.5}}]}",
         "entries[3].material.restitution: must be <= 1, got 1.5"},
        {"{\"entries\": [{\"generator\": \"box\", \"material\": {\"density\": 0}}]}",
         "entries[0].material.density: must be > 0, got 0"},
        {"{\"entries\": [{\"generator\": \"box\", \"material\": {\"color\": [1, 2, 0]}}]}",
         "entries[0].material.color[1]: must be <= 1, got 2"},
        {"{\"entries\": [{\"generator\": \"box\", \"material\": {\"colour\": [1, 1, 0]}}]}",
         "entries[0].material: unknown key 'colour'"},
        {"{\"entries\": [{\"generator\": \"cube\"}]}",
         "entries[0].generator: must be one of 'box', 'sphere'"},
        {"{\"entries\": [{\"generator\": \"box\", \"radius\": 1}]}",
         "entries[0].radius: generator 'box' has no parameter 'radius'"},
        {"{\"entries\": [{\"generator\": \"wall\", \"rows\": 2.5}]}",
         "entries[0].rows: must be a whole number, got 2.5"},
        {"{\"entries\": [{\"generator\": \"wall\", \"rows\": 100, \"columns\": 100}]}",
         "entries[0]: generator 'wall' would make 10000 bodies"},
        {"{\"entries\": [{\"generator\": \"box\", \"size\": [1, 0, 1]}]}",
         "entries[0].size[1]: must be > 0, got 0"},
        {"{\"entries\": [{\"generator\": \"box\", \"position\": [1, 2]}]}",
         "entries[0].position: must be an array of 3 numbers"},
        {"{\"entries\": [{\"generator\": \"box\", \"position\": \"up\"}]}",
         "entries[0].position: must be an array of 3 numbers, got a string"},
        {"{\"entries\": [{\"model\": \"a.obj\", \"shape\": \"mesh\"}]}",
         "entries[0]: \"shape\": \"mesh\" needs \"body\": \"static\""},
        {"{\"entries\": [{\"model\": \"a.obj\", \"scale\": 0}]}", "entries[0].scale: must be > 0, got 0"},
        {"{\"entries\": [{\"model\": \"a.obj\", \"scale\": [1, -1, 1]}]}",
         "entries[0].scale[1]: must be > 0, got -1"},
        {"{\"entries\": [{\"model\": \"a.png\"}]}", "entries[0].model: must name an .obj file"},
        {"{\"entries\": [{\"model\": \"\"}]}", "entries[0].model: must name a file"},
        {"{\"entries\": [{\"model\": 3}]}", "entries[0].model: must be a string, got a number"},
        {"{\"entries\": [{\"model\": \"a.obj\", \"generator\": \"box\"}]}",
         "entries[0]: needs exactly one of \"model\", \"obj_scene\" or \"generator\""},
        {"{\"entries\": [{}]}", "entries[0]: needs exactly one of"},
        {"{\"entries\": [7]}", "entries[0]: must be an object, got a number"},
        {"{\"entries\": [{\"obj_scene\": \"a.obj\", \"rotation\": [0, 0, 0]}]}",
         "entries[0]: unknown key 'rotation'"},
        {"{\"entries\": [{\"model\": \"a.obj\", \"body\": \"floating\"}]}",
         "entries[0].body: must be one of 'static', 'kinematic', 'dynamic', got 'floating'"},
        {"{\"entries\": [{\"generator\": \"box\", \"name\": \"a\", \"name\": \"b\"}]}",
         "entries[0]: duplicate key 'name'"},
        {"{\"entries\": {}}", "entries: must be an array, got an object"},
        {"{}", "missing \"entries\""},
        {"[1, 2]", "the top level must be a JSON object, got an array"},
        {"{\"entries\": [], \"gravty\": [0, 0, 0]}", "top level: unknown key 'gravty'"},
        {"{\"entries\": [], \"time_step\": 0}", "time_step: must be > 0, got 0"},
        {"{\"entries\": [], \"time_step\": 1}", "time_step: must be <= 0.1, got 1"},
        {"{\"entries\": [], \"gravity\": [0, 1e9, 0]}", "gravity[1]: must be <= 1000, got 1e+09"},
        {"{\"entries\": [], \"camera\": {\"position\": [1, 1, 1], \"target\": [1, 1, 1]}}",
         "camera: position and target must differ"},
        {"{\"entries\": [], \"camera\": {\"fov\": 180}}", "camera.fov: must be <= 179, got 180"},
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        asset_error err;
        scene_desc *d = parse(cases[i].json, false, &err);
        char want[512];
        snprintf(want, sizeof want, "%s: %s", file, cases[i].message);
        if (d || strncmp(err.text, want, strlen(want)) != 0)
        {
            fprintf(stderr, "case %zu: got '%s'\n  want '%s...'\n", i, d ? "(no error)" : err.text, want);
            failures++;
        }
        scene_free(d);
    }
    ENSURE(failures == 0);

    // Syntax errors name the line.
    asset_error err;
    ENSURE(!parse("{\n  \"entries\": [\n    {\"generator\": \"box\",}\n  ]\n}\n", false, &err));
    ENSURE(strstr(err.text, "test.json:3: JSON syntax error"));
    ENSURE(!parse("", false, &err) && strstr(err.text, "JSON syntax error"));
    scene_desc *d = NULL;
    ENSURE(!scene_load("/nonexistent/scene.json", NULL, &d, &err) && !d);
    ENSURE(strstr(err.text, "/nonexistent/scene.json: cannot open"));
    return 0;
}

// Issue 24, defect 4: a file whose entries would pile more bodies on one point than the engine keeps pairs
// for (1,024 boxes at one point once gave 522,753 contacts), or more bodies than a file may make, is
// rejected with the file and the JSON path of the first entry past the limit.
static int scene_body_limits(void)
{
    const char *file = SANDBOX_SOURCE_DIR "/scenes/test.json";
    enum
    {
        PILE = 1024,
        ENTRY_TEXT = 64
    };
    static char json[PILE * ENTRY_TEXT + 64];
    size_t len = (size_t)snprintf(json, sizeof json, "{\"entries\": [");
    for (int i = 0; i < PILE; i++)
        len += (size_t)snprintf(json + len, sizeof json - len,
                                "%s{\"generator\": \"box\", \"position\": [1, 2, 3]}", i > 0 ? ", " : "");
    snprintf(json + len, sizeof json - len, "]}");
    asset_error err;
    scene_desc *d = parse(json, false, &err);
    ENSURE(!d);
    char want[512];
    snprintf(want, sizeof want, "%s: entries[%d].position: %d entries are placed at (1, 2, 3) (at most %d",
             file, SCENE_MAX_ENTRIES_AT_ONE_POINT, SCENE_MAX_ENTRIES_AT_ONE_POINT + 1,
             SCENE_MAX_ENTRIES_AT_ONE_POINT);
    if (strncmp(err.text, want, strlen(want)) != 0)
    {
        fprintf(stderr, "got '%s'\n  want '%s...'\n", err.text, want);
        return 1;
    }
    // As many as allowed at one point load.
    len = (size_t)snprintf(json, sizeof json, "{\"entries\": [");
    for (int i = 0; i < SCENE_MAX_ENTRIES_AT_ONE_POINT; i++)
        len +=
            (size_t)snprintf(json + len, sizeof json - len, "%s{\"generator\": \"box\"}", i > 0 ? ", " : "");
    snprintf(json + len, sizeof json - len, "]}");
    d = parse(json, false, &err);
    ENSURE(d);
    scene_free(d);

    // Five walls of 4,900 boxes each, apart: the fifth passes the bodies one file may make.
    len = (size_t)snprintf(json, sizeof json, "{\"entries\": [");
    for (int i = 0; i < 5; i++)
        len += (size_t)snprintf(
            json + len, sizeof json - len,
            "%s{\"generator\": \"wall\", \"rows\": 70, \"columns\": 70, \"position\": [%d, 0, 0]}",
            i > 0 ? ", " : "", 100 * i);
    snprintf(json + len, sizeof json - len, "]}");
    d = parse(json, false, &err);
    ENSURE(!d);
    snprintf(want, sizeof want,
             "%s: entries[4]: the scene would make 24500 bodies with this entry (at most %d", file,
             SCENE_MAX_BODIES);
    if (strncmp(err.text, want, strlen(want)) != 0)
    {
        fprintf(stderr, "got '%s'\n  want '%s...'\n", err.text, want);
        return 1;
    }
    return 0;
}

// Models are loaded with the scene, errors in them keep their "file:line:" form, a missing model file
// is named, and a file named twice is parsed once.
static int scene_models_loaded(void)
{
    REQUIRE_SHARED_TESTDATA();
    asset_error err;
    scene_desc *d = parse("{\"entries\": [{\"model\": \"" SHARED_TESTDATA_DIR "/obj/cube.obj\"},"
                          " {\"model\": \"" SHARED_TESTDATA_DIR "/obj/cube.obj\", \"position\": [0, 3, 0]},"
                          " {\"obj_scene\": \"" SHARED_TESTDATA_DIR "/obj/test_map01.obj\"}]}",
                          true, &err);
    if (!d)
        fprintf(stderr, "%s\n", err.text);
    ENSURE(d && d->entry_count == 3);
    ENSURE(d->entries[0].model && d->entries[0].model == d->entries[1].model);
    ENSURE(d->entries[0].model->position_count == 26);
    ENSURE(d->entries[2].model && d->entries[2].model->object_count == 7);
    scene_free(d);

    d = parse("{\"entries\": [{\"model\": \"no_such_model.obj\"}]}", true, &err);
    ENSURE(!d && strstr(err.text, "scenes/test.json: entries[0].model: ") &&
           strstr(err.text, "scenes/no_such_model.obj: cannot open"));
    // A malformed model: the scene file and entry, then the model's "file:line: message".
    d = parse("{\"entries\": [{\"generator\": \"box\"}, {\"obj_scene\": \"../tests/data/bad_nan.obj\"}]}",
              true, &err);
    ENSURE(!d && strstr(err.text, "scenes/test.json: entries[1].obj_scene: ") &&
           strstr(err.text, "tests/data/bad_nan.obj:4: v: NaN coordinate"));
    return 0;
}

const test_case test_scene_cases[] = {
    {"scene_parse_everything", scene_parse_everything},
    {"scene_body_limits", scene_body_limits},
    {"scene_errors", scene_errors},
    {"scene_models_loaded", scene_models_loaded},
    {0},
};
