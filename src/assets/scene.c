// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Scene files (scene.h): JSON read with cJSON (Debian's libcjson), checked key by key into a plain
// scene_desc, with every error naming the file and the JSON path of the value. Model files named by
// entries are loaded here too, so that everything that can be wrong with a scene is found before
// scene_build (scene_build.c) touches a world.
#include "assets/scene.h"

#include "assets/json_read.h"

#include <cjson/cJSON.h> // cJSON_ParseWithLengthOpts, cJSON_Delete, item accessors
#include <math.h>        // isfinite, floor
#include <stdint.h>      // INT32_MAX
#include <stdio.h>       // snprintf
#include <stdlib.h>      // calloc, free
#include <string.h>      // strcmp, strlen, memset

// Scene defaults (documented in scene.h).
#define SCENE_DEFAULT_GRAVITY_Y (-9.81f)       // (unit: m/s^2)
#define SCENE_DEFAULT_TIME_STEP (1.0f / 60.0f) // (unit: s)
#define SCENE_MAX_TIME_STEP 0.1f               // (unit: s) coarser steps make stacking explode
#define SCENE_MAX_GRAVITY 1000.0f              // (unit: m/s^2) per component
#define SCENE_DEFAULT_FOV 60.0f                // (unit: degrees)
#define SCENE_MAX_FOV 179.0f                   // (unit: degrees)
#define SCENE_MAX_DENSITY 1e6f                 // (unit: kg/m^3) beyond osmium by far
#define SCENE_MAX_FRICTION 100.0f              // Coulomb coefficient
#define SCENE_MAX_SCALE 1000.0f                // model scale factor
#define SCENE_MAX_SPEED 1000.0f                // (unit: m/s, rad/s) initial velocities
#define SCENE_DEFAULT_DENSITY 1000.0f          // (unit: kg/m^3) water
#define SCENE_DEFAULT_FRICTION 0.6f
#define SCENE_DEFAULT_RADIUS 0.5f // (unit: m)
#define SCENE_DEFAULT_COUNT 10
#define SCENE_DEFAULT_ROWS 5
#define SCENE_DEFAULT_RAIN_HEIGHT 5.0f // (unit: m)
#define SCENE_DEFAULT_RAIN_EXTENT 4.0f // (unit: m)
#define SCENE_DOMINO_SPACING_PER_HEIGHT 0.6f
#define SCENE_DEGREES_TO_RADIANS 0.017453292519943295f
#define SCENE_PATH_TEXT 96 // bytes of a JSON path in messages ("entries[12].material.color")

static const char *const generator_names[SCENE_GENERATOR_COUNT] = {"box",  "sphere",   "tower", "pyramid",
                                                                   "wall", "dominoes", "rain"};

const char *scene_generator_name(scene_generator generator)
{
    return (unsigned)generator < SCENE_GENERATOR_COUNT ? generator_names[generator] : "unknown";
}

// Generator parameters, as bits: which keys each generator reads.
enum
{
    PARAM_SIZE = 1 << 0,
    PARAM_RADIUS = 1 << 1,
    PARAM_COUNT = 1 << 2,
    PARAM_ROWS = 1 << 3,
    PARAM_COLUMNS = 1 << 4,
    PARAM_SPACING = 1 << 5,
    PARAM_HEIGHT = 1 << 6,
    PARAM_EXTENT = 1 << 7,
    PARAM_SEED = 1 << 8,
};

static const unsigned generator_params[SCENE_GENERATOR_COUNT] = {
    [SCENE_GENERATOR_BOX] = PARAM_SIZE,
    [SCENE_GENERATOR_SPHERE] = PARAM_RADIUS,
    [SCENE_GENERATOR_TOWER] = PARAM_SIZE | PARAM_ROWS | PARAM_SPACING,
    [SCENE_GENERATOR_PYRAMID] = PARAM_SIZE | PARAM_ROWS | PARAM_SPACING,
    [SCENE_GENERATOR_WALL] = PARAM_SIZE | PARAM_ROWS | PARAM_COLUMNS | PARAM_SPACING,
    [SCENE_GENERATOR_DOMINOES] = PARAM_SIZE | PARAM_COUNT | PARAM_SPACING,
    [SCENE_GENERATOR_RAIN] = PARAM_RADIUS | PARAM_COUNT | PARAM_HEIGHT | PARAM_EXTENT | PARAM_SEED,
};

typedef struct loader
{
    json_reader json;
    scene_options options;
    long bodies; // bodies the entries parsed so far make
} loader;

// out = parent + "." + key (or key at the top level). A path too long for the message is cut short,
// which only shortens the message (snprintf's result is checked to say so to the compiler too).
static void child_path(char *out, const char *parent, const char *key)
{
    int n = parent[0] ? snprintf(out, SCENE_PATH_TEXT, "%s.%s", parent, key)
                      : snprintf(out, SCENE_PATH_TEXT, "%s", key);
    if (n < 0)
        out[0] = '\0';
}

static bool get_int(loader *ld, const cJSON *item, const char *path, int lo, int hi, int *out)
{
    if (!cJSON_IsNumber(item))
        return json_fail(&ld->json, path, "must be a whole number, got %s", json_type_name(item));
    double v = item->valuedouble;
    if (!isfinite(v) || v != floor(v))
        return json_fail(&ld->json, path, "must be a whole number, got %g", v);
    if (v < lo || v > hi)
        return json_fail(&ld->json, path, "must be in [%d, %d], got %g", lo, hi, v);
    *out = (int)v;
    return true;
}

// An array of 3 numbers, each in [lo, hi] (open at lo when lo_open).
static bool get_vec3(loader *ld, const cJSON *item, const char *path, float lo, bool lo_open, float hi,
                     float out[3])
{
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3)
        return json_fail(&ld->json, path, "must be an array of 3 numbers, got %s%s", json_type_name(item),
                         cJSON_IsArray(item) ? " of another length" : "");
    int i = 0;
    for (const cJSON *c = item->child; c; c = c->next, i++)
    {
        char p[SCENE_PATH_TEXT];
        snprintf(p, sizeof p, "%s[%d]", path, i);
        if (!json_get_float(&ld->json, c, p, lo, lo_open, hi, &out[i]))
            return false;
    }
    return true;
}

static ph_vec3 to_vec3(const float v[3])
{
    return ph_v3(v[0], v[1], v[2]);
}

// Rotation from degrees about x, then y, then z (extrinsic), q = qz * qy * qx.
static ph_quat euler_degrees(const float deg[3])
{
    ph_quat q = glms_quat_identity();
    const ph_vec3 axes[3] = {ph_v3(1, 0, 0), ph_v3(0, 1, 0), ph_v3(0, 0, 1)};
    for (int i = 0; i < 3; i++)
    {
        ph_quat r = glms_quatv(deg[i] * SCENE_DEGREES_TO_RADIANS, axes[i]);
        q = glms_quat_mul(r, q);
    }
    return glms_quat_normalize(q);
}

static bool parse_material(loader *ld, const cJSON *item, const char *path, scene_material *m)
{
    static const char *const keys[] = {"density", "friction", "restitution", "color", NULL};
    if (!cJSON_IsObject(item))
        return json_fail(&ld->json, path, "must be an object, got %s", json_type_name(item));
    if (!json_check_keys(&ld->json, item, path, keys))
        return false;
    char p[SCENE_PATH_TEXT];
    const cJSON *c;
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "density")))
    {
        child_path(p, path, "density");
        if (!json_get_float(&ld->json, c, p, 0.0f, true, SCENE_MAX_DENSITY, &m->density))
            return false;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "friction")))
    {
        child_path(p, path, "friction");
        if (!json_get_float(&ld->json, c, p, 0.0f, false, SCENE_MAX_FRICTION, &m->friction))
            return false;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "restitution")))
    {
        child_path(p, path, "restitution");
        if (!json_get_float(&ld->json, c, p, 0.0f, false, 1.0f, &m->restitution))
            return false;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "color")))
    {
        child_path(p, path, "color");
        if (!get_vec3(ld, c, p, 0.0f, false, 1.0f, m->color))
            return false;
    }
    return true;
}

static void default_entry(scene_entry *e)
{
    memset(e, 0, sizeof *e);
    e->shape = MODEL_SHAPE_HULL;
    e->split = MODEL_SPLIT_GROUP;
    e->decompose = decompose_default_options();
    e->body_type = PH_BODY_DYNAMIC;
    e->orientation = glms_quat_identity();
    for (int k = 0; k < 3; k++)
    {
        e->scale[k] = 1.0f;
        e->params.size[k] = 1.0f;
        e->material.color[k] = 1.0f;
    }
    e->material.density = SCENE_DEFAULT_DENSITY;
    e->material.friction = SCENE_DEFAULT_FRICTION;
    e->material.restitution = 0.0f;
    e->params.radius = SCENE_DEFAULT_RADIUS;
    e->params.count = SCENE_DEFAULT_COUNT;
    e->params.rows = SCENE_DEFAULT_ROWS;
    e->params.columns = SCENE_DEFAULT_ROWS;
    e->params.spacing = 0.0f;
    e->params.height = SCENE_DEFAULT_RAIN_HEIGHT;
    e->params.extent = SCENE_DEFAULT_RAIN_EXTENT;
    e->params.seed = 1;
}

static bool parse_generator_params(loader *ld, const cJSON *item, const char *path, scene_entry *e)
{
    unsigned allowed = generator_params[e->generator];
    static const struct
    {
        const char *key;
        unsigned bit;
    } params[] = {{"size", PARAM_SIZE},     {"radius", PARAM_RADIUS},   {"count", PARAM_COUNT},
                  {"rows", PARAM_ROWS},     {"columns", PARAM_COLUMNS}, {"spacing", PARAM_SPACING},
                  {"height", PARAM_HEIGHT}, {"extent", PARAM_EXTENT},   {"seed", PARAM_SEED}};
    char p[SCENE_PATH_TEXT];
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
    {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(item, params[i].key);
        if (!c)
            continue;
        child_path(p, path, params[i].key);
        if (!(allowed & params[i].bit))
            return json_fail(&ld->json, p, "generator '%s' has no parameter '%s'",
                             generator_names[e->generator], params[i].key);
        bool ok = true;
        int seed = 0;
        switch (params[i].bit)
        {
        case PARAM_SIZE:
            ok = get_vec3(ld, c, p, 0.0f, true, SCENE_MAX_COORDINATE, e->params.size);
            break;
        case PARAM_RADIUS:
            ok = json_get_float(&ld->json, c, p, 0.0f, true, SCENE_MAX_COORDINATE, &e->params.radius);
            break;
        case PARAM_COUNT:
            ok = get_int(ld, c, p, 1, SCENE_MAX_GENERATED_BODIES, &e->params.count);
            break;
        case PARAM_ROWS:
            ok = get_int(ld, c, p, 1, SCENE_MAX_GENERATED_BODIES, &e->params.rows);
            break;
        case PARAM_COLUMNS:
            ok = get_int(ld, c, p, 1, SCENE_MAX_GENERATED_BODIES, &e->params.columns);
            break;
        case PARAM_SPACING:
            ok = json_get_float(&ld->json, c, p, 0.0f, false, SCENE_MAX_COORDINATE, &e->params.spacing);
            break;
        case PARAM_HEIGHT:
            ok = json_get_float(&ld->json, c, p, 0.0f, false, SCENE_MAX_COORDINATE, &e->params.height);
            break;
        case PARAM_EXTENT:
            ok = json_get_float(&ld->json, c, p, 0.0f, true, SCENE_MAX_COORDINATE, &e->params.extent);
            break;
        case PARAM_SEED:
            ok = get_int(ld, c, p, 0, INT32_MAX, &seed);
            e->params.seed = (unsigned)seed;
            break;
        default:
            break;
        }
        if (!ok)
            return false;
    }
    // Dominoes stand apart: without a spacing, 0.6 of their height (close enough to topple the next).
    if (e->generator == SCENE_GENERATOR_DOMINOES)
    {
        if (!cJSON_GetObjectItemCaseSensitive(item, "spacing"))
            e->params.spacing = SCENE_DOMINO_SPACING_PER_HEIGHT * e->params.size[1];
        if (!(e->params.spacing > e->params.size[0]))
        {
            char sp[SCENE_PATH_TEXT];
            child_path(sp, path, "spacing");
            return json_fail(&ld->json, sp, "must be more than the domino thickness size[0] = %g, got %g",
                             (double)e->params.size[0], (double)e->params.spacing);
        }
    }
    // Bodies made by the layout: rows x columns for a wall, a pyramid's triangular number, ...
    long bodies = 1;
    switch (e->generator)
    {
    case SCENE_GENERATOR_TOWER:
        bodies = e->params.rows;
        break;
    case SCENE_GENERATOR_PYRAMID:
        bodies = (long)e->params.rows * (e->params.rows + 1) / 2;
        break;
    case SCENE_GENERATOR_WALL:
        bodies = (long)e->params.rows * e->params.columns;
        break;
    case SCENE_GENERATOR_DOMINOES:
    case SCENE_GENERATOR_RAIN:
        bodies = e->params.count;
        break;
    default:
        break;
    }
    if (bodies > SCENE_MAX_GENERATED_BODIES)
        return json_fail(&ld->json, path, "generator '%s' would make %ld bodies (at most %d)",
                         generator_names[e->generator], bodies, SCENE_MAX_GENERATED_BODIES);
    ld->bodies += bodies - 1; // the entry's one body is counted by the caller
    return true;
}

// The limits of a whole file on entry `index`, just parsed: the bodies made so far and the entries placed at
// its position (compared exactly: the same point written twice).
static bool check_scene_limits(loader *ld, const scene_desc *desc, int index)
{
    char path[SCENE_PATH_TEXT];
    snprintf(path, sizeof path, "entries[%d]", index);
    ld->bodies++;
    if (ld->bodies > SCENE_MAX_BODIES)
        return json_fail(&ld->json, path,
                         "the scene would make %ld bodies with this entry (at most %d in one file)",
                         ld->bodies, SCENE_MAX_BODIES);
    ph_vec3 at = desc->entries[index].position;
    int same = 1;
    for (int j = 0; j < index; j++)
    {
        ph_vec3 q = desc->entries[j].position;
        same += q.x == at.x && q.y == at.y && q.z == at.z;
    }
    if (same > SCENE_MAX_ENTRIES_AT_ONE_POINT)
    {
        char p[SCENE_PATH_TEXT];
        snprintf(p, sizeof p, "entries[%d].position", index);
        return json_fail(
            &ld->json, p,
            "%d entries are placed at (%g, %g, %g) (at most %d at one point): their bodies would all "
            "overlap; spread them out",
            same, (double)at.x, (double)at.y, (double)at.z, SCENE_MAX_ENTRIES_AT_ONE_POINT);
    }
    return true;
}

static bool parse_entry(loader *ld, const cJSON *item, int index, scene_entry *e)
{
    char path[SCENE_PATH_TEXT], p[SCENE_PATH_TEXT];
    snprintf(path, sizeof path, "entries[%d]", index);
    default_entry(e);
    if (!cJSON_IsObject(item))
        return json_fail(&ld->json, path, "must be an object, got %s", json_type_name(item));
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(item, "model");
    const cJSON *obj_scene = cJSON_GetObjectItemCaseSensitive(item, "obj_scene");
    const cJSON *generator = cJSON_GetObjectItemCaseSensitive(item, "generator");
    if ((model != NULL) + (obj_scene != NULL) + (generator != NULL) != 1)
        return json_fail(&ld->json, path, "needs exactly one of \"model\", \"obj_scene\" or \"generator\"");

    static const char *const model_keys[] = {
        "name",     "model",    "shape", "split",    "max_pieces",       "concavity", "body",
        "position", "rotation", "scale", "velocity", "angular_velocity", "material",  NULL};
    static const char *const obj_scene_keys[] = {"name", "obj_scene", "position", "scale", "material", NULL};
    static const char *const generator_keys[] = {
        "name",     "generator", "body",   "position", "rotation", "velocity", "angular_velocity",
        "material", "size",      "radius", "count",    "rows",     "columns",  "spacing",
        "height",   "extent",    "seed",   NULL};
    const char *source = NULL;
    if (model)
    {
        e->kind = SCENE_ENTRY_MODEL;
        child_path(p, path, "model");
        if (!json_check_keys(&ld->json, item, path, model_keys) ||
            !json_get_string(&ld->json, model, p, &source))
            return false;
    }
    else if (obj_scene)
    {
        e->kind = SCENE_ENTRY_OBJ_SCENE;
        child_path(p, path, "obj_scene");
        if (!json_check_keys(&ld->json, item, path, obj_scene_keys) ||
            !json_get_string(&ld->json, obj_scene, p, &source))
            return false;
    }
    else
    {
        e->kind = SCENE_ENTRY_GENERATOR;
        child_path(p, path, "generator");
        int g = 0;
        if (!json_check_keys(&ld->json, item, path, generator_keys) ||
            !json_get_choice(&ld->json, generator, p, generator_names, SCENE_GENERATOR_COUNT, &g))
            return false;
        e->generator = (scene_generator)g;
        if (!parse_generator_params(ld, item, path, e))
            return false;
    }
    if (source)
    {
        if (!source[0])
            return json_fail(&ld->json, p, "must name a file");
        if (!path_join_sibling(ld->json.file, source, e->path, sizeof e->path))
            return json_fail(&ld->json, p, "path too long (at most %d bytes)", PATH_MAX_LENGTH - 1);
        if (!path_has_extension(e->path, ".obj"))
            return json_fail(&ld->json, p, "must name an .obj file, got '%.64s'", source);
    }

    const cJSON *c;
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "name")))
    {
        const char *name = NULL;
        child_path(p, path, "name");
        if (!json_get_string(&ld->json, c, p, &name))
            return false;
        snprintf(e->name, sizeof e->name, "%s", name);
    }
    else if (source)
        snprintf(e->name, sizeof e->name, "%s", path_basename(e->path));
    else
        snprintf(e->name, sizeof e->name, "%s %d", generator_names[e->generator], index);
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "shape")))
    {
        static const char *const shapes[] = {"hull", "compound", "mesh", "decompose"};
        int s = 0;
        child_path(p, path, "shape");
        if (!json_get_choice(&ld->json, c, p, shapes, 4, &s))
            return false;
        e->shape = (model_shape_kind)s;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "split")))
    {
        static const char *const splits[] = {"group", "object", "material"};
        int s = 0;
        child_path(p, path, "split");
        if (!json_get_choice(&ld->json, c, p, splits, 3, &s))
            return false;
        if (e->shape != MODEL_SHAPE_COMPOUND)
            return json_fail(&ld->json, p,
                             "needs \"shape\": \"compound\" (only a compound is split into parts)");
        e->split = (model_split)s;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "max_pieces")))
    {
        child_path(p, path, "max_pieces");
        if (e->shape != MODEL_SHAPE_DECOMPOSE)
            return json_fail(&ld->json, p, "needs \"shape\": \"decompose\"");
        if (!get_int(ld, c, p, 1, DECOMPOSE_MAX_PIECES, &e->decompose.max_pieces))
            return false;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "concavity")))
    {
        child_path(p, path, "concavity");
        if (e->shape != MODEL_SHAPE_DECOMPOSE)
            return json_fail(&ld->json, p, "needs \"shape\": \"decompose\"");
        if (!json_get_float(&ld->json, c, p, 0.0f, false, 1.0f, &e->decompose.concavity))
            return false;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "body")))
    {
        static const char *const bodies[] = {"static", "kinematic", "dynamic"};
        int b = 0;
        child_path(p, path, "body");
        if (!json_get_choice(&ld->json, c, p, bodies, 3, &b))
            return false;
        e->body_type = b == 0 ? PH_BODY_STATIC : (b == 1 ? PH_BODY_KINEMATIC : PH_BODY_DYNAMIC);
    }
    if (e->shape == MODEL_SHAPE_MESH && e->body_type != PH_BODY_STATIC)
        return json_fail(&ld->json, path,
                         "\"shape\": \"mesh\" needs \"body\": \"static\" (a triangle mesh has no volume "
                         "to give it mass)");
    float v[3];
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "position")))
    {
        child_path(p, path, "position");
        if (!get_vec3(ld, c, p, -SCENE_MAX_COORDINATE, false, SCENE_MAX_COORDINATE, v))
            return false;
        e->position = to_vec3(v);
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "rotation")))
    {
        child_path(p, path, "rotation");
        if (!get_vec3(ld, c, p, -SCENE_MAX_COORDINATE, false, SCENE_MAX_COORDINATE, v))
            return false;
        e->orientation = euler_degrees(v);
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "scale")))
    {
        child_path(p, path, "scale");
        if (cJSON_IsNumber(c) || e->kind == SCENE_ENTRY_OBJ_SCENE)
        {
            if (!json_get_float(&ld->json, c, p, 0.0f, true, SCENE_MAX_SCALE, &e->scale[0]))
                return false;
            e->scale[1] = e->scale[2] = e->scale[0];
        }
        else if (!get_vec3(ld, c, p, 0.0f, true, SCENE_MAX_SCALE, e->scale))
            return false;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "velocity")))
    {
        child_path(p, path, "velocity");
        if (!get_vec3(ld, c, p, -SCENE_MAX_SPEED, false, SCENE_MAX_SPEED, v))
            return false;
        e->linear_velocity = to_vec3(v);
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "angular_velocity")))
    {
        child_path(p, path, "angular_velocity");
        if (!get_vec3(ld, c, p, -SCENE_MAX_SPEED, false, SCENE_MAX_SPEED, v))
            return false;
        e->angular_velocity = to_vec3(v);
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "material")))
    {
        child_path(p, path, "material");
        if (!parse_material(ld, c, p, &e->material))
            return false;
    }
    return true;
}

// Loads the model file of an entry and checks that it can become what the entry asks for.
// A file named by several entries is parsed once and shared (scene_free frees it once).
static bool load_entry_model(loader *ld, scene_desc *desc, scene_entry *e, int index)
{
    for (int i = 0; i < index; i++)
        if (desc->entries[i].model && strcmp(desc->entries[i].path, e->path) == 0)
        {
            e->model = desc->entries[i].model;
            return true;
        }
    obj_model *m = NULL;
    asset_error model_err;
    if (!obj_load(e->path, NULL, &m, &model_err))
    {
        // The model's own "file:line: message", after the scene file and the entry that names it.
        char p[SCENE_PATH_TEXT];
        snprintf(p, sizeof p, "entries[%d].%s", index, e->kind == SCENE_ENTRY_MODEL ? "model" : "obj_scene");
        return json_fail(&ld->json, p, "%s", model_err.text);
    }
    e->model = m;
    for (int i = 0; i < m->kept_warning_count; i++)
        asset_error_warn(&desc->warnings, ld->json.file, 0, "entries[%d]: %s", index, m->warnings[i]);
    if (m->triangle_count == 0)
    {
        char p[SCENE_PATH_TEXT];
        snprintf(p, sizeof p, "entries[%d].%s", index, e->kind == SCENE_ENTRY_MODEL ? "model" : "obj_scene");
        return json_fail(&ld->json, p, "%s has no faces", e->path);
    }
    return true;
}

// ---- Joints -----------------------------------------------------------------------------------------------

#define SCENE_MAX_HINGE_DEGREES 179.0f  // revolute limits and twist inside (-180, 180) (the engine's range)
#define SCENE_MAX_CONE_DEGREES 179.0f   // spherical cone in [0, 180)
#define SCENE_MAX_JOINT_FORCE 1e30f     // motor, break force and torque (unit: N, N m)
#define SCENE_MAX_JOINT_HERTZ 1000.0f   // spring frequency (unit: Hz)
#define SCENE_MAX_DAMPING_RATIO 1000.0f // spring damping ratio
#define SCENE_MIN_AXIS_LENGTH 1e-6f     // shorter axes have no direction
#define SCENE_MAX_MOTOR_SPEED 1e5f      // (unit: deg/s, m/s)

static const char *const joint_type_names[SCENE_JOINT_TYPE_COUNT] = {"distance", "rope",      "spherical",
                                                                     "revolute", "prismatic", "weld"};

const char *scene_joint_type_name(scene_joint_type type)
{
    return (unsigned)type < SCENE_JOINT_TYPE_COUNT ? joint_type_names[type] : "unknown";
}

// Keys each joint type reads, beyond "type", "a", "b", "anchor", "break_force", "break_torque", "collide".
enum
{
    JKEY_ANCHOR_B = 1 << 0,
    JKEY_AXIS = 1 << 1,
    JKEY_LIMITS = 1 << 2,
    JKEY_CONE = 1 << 3,
    JKEY_TWIST = 1 << 4,
    JKEY_MOTOR = 1 << 5,
    JKEY_SPRING = 1 << 6,
    JKEY_FRICTION = 1 << 7,
};

static const unsigned joint_keys[SCENE_JOINT_TYPE_COUNT] = {
    [SCENE_JOINT_DISTANCE] = JKEY_ANCHOR_B | JKEY_LIMITS | JKEY_SPRING,
    [SCENE_JOINT_ROPE] = JKEY_ANCHOR_B,
    [SCENE_JOINT_SPHERICAL] = JKEY_AXIS | JKEY_CONE | JKEY_TWIST | JKEY_FRICTION,
    [SCENE_JOINT_REVOLUTE] = JKEY_AXIS | JKEY_LIMITS | JKEY_MOTOR | JKEY_SPRING | JKEY_FRICTION,
    [SCENE_JOINT_PRISMATIC] = JKEY_AXIS | JKEY_LIMITS | JKEY_MOTOR | JKEY_SPRING,
    [SCENE_JOINT_WELD] = JKEY_AXIS | JKEY_SPRING,
};

// Bodies an entry makes (a generator's layout count; a model one; an obj_scene one per object, unknown
// here: -1).
static long entry_body_count(const scene_entry *e)
{
    if (e->kind == SCENE_ENTRY_MODEL)
        return 1;
    if (e->kind == SCENE_ENTRY_OBJ_SCENE)
        return -1;
    const scene_generator_params *g = &e->params;
    switch (e->generator)
    {
    case SCENE_GENERATOR_TOWER:
        return g->rows;
    case SCENE_GENERATOR_PYRAMID:
        return (long)g->rows * (g->rows + 1) / 2;
    case SCENE_GENERATOR_WALL:
        return (long)g->rows * g->columns;
    case SCENE_GENERATOR_DOMINOES:
    case SCENE_GENERATOR_RAIN:
        return g->count;
    default:
        return 1;
    }
}

// "a" or "b": an entry name (one entry of that name, making one body) or, for "a" only, "world".
static bool get_joint_end(loader *ld, const scene_desc *desc, const cJSON *item, const char *path,
                          bool world_ok, int *out)
{
    const char *name = NULL;
    if (!json_get_string(&ld->json, item, path, &name))
        return false;
    if (world_ok && strcmp(name, "world") == 0)
    {
        *out = -1;
        return true;
    }
    int found = -1, matches = 0;
    for (int i = 0; i < desc->entry_count; i++)
        if (strcmp(desc->entries[i].name, name) == 0)
        {
            found = found < 0 ? i : found;
            matches++;
        }
    if (matches == 0)
        return json_fail(&ld->json, path, "no entry is named '%.64s'%s", name,
                         world_ok ? " (\"world\" holds a body to the world)" : "");
    if (matches > 1)
        return json_fail(&ld->json, path,
                         "%d entries are named '%.64s'; give the joint's entries unique names", matches,
                         name);
    const scene_entry *e = &desc->entries[found];
    long bodies = entry_body_count(e);
    if (bodies != 1)
    {
        if (e->kind == SCENE_ENTRY_OBJ_SCENE)
            return json_fail(
                &ld->json, path,
                "entry '%.64s' is an obj_scene (a body per object): a joint end must be an entry "
                "that makes one body",
                name);
        return json_fail(&ld->json, path,
                         "entry '%.64s' (generator '%s') makes %ld bodies: a joint end must be an entry that "
                         "makes one body (a box, a sphere, a model, or a layout of one block)",
                         name, generator_names[e->generator], bodies);
    }
    *out = found;
    return true;
}

static bool get_range(loader *ld, const cJSON *item, const char *path, float lo, float hi, float scale,
                      float *out_lo, float *out_hi)
{
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 2)
        return json_fail(&ld->json, path, "must be an array of 2 numbers [lower, upper], got %s%s",
                         json_type_name(item), cJSON_IsArray(item) ? " of another length" : "");
    float v[2];
    char p[SCENE_PATH_TEXT];
    for (int i = 0; i < 2; i++)
    {
        snprintf(p, sizeof p, "%s[%d]", path, i);
        if (!json_get_float(&ld->json, cJSON_GetArrayItem(item, i), p, lo, false, hi, &v[i]))
            return false;
    }
    if (v[0] > v[1])
        return json_fail(&ld->json, path, "lower (%g) is above upper (%g)", (double)v[0], (double)v[1]);
    *out_lo = v[0] * scale;
    *out_hi = v[1] * scale;
    return true;
}

static bool parse_joint(loader *ld, const scene_desc *desc, const cJSON *item, int index, scene_joint *j)
{
    static const char *const keys[] = {
        "type",  "a",      "b",           "anchor",       "anchor_b", "axis", "limits",   "cone", "twist",
        "motor", "spring", "break_force", "break_torque", "collide",  "name", "friction", NULL};
    char path[SCENE_PATH_TEXT], p[SCENE_PATH_TEXT];
    snprintf(path, sizeof path, "joints[%d]", index);
    memset(j, 0, sizeof *j);
    j->axis = ph_v3(0.0f, 0.0f, 1.0f);
    j->spring_damping_ratio = 1.0f;
    if (!cJSON_IsObject(item))
        return json_fail(&ld->json, path, "must be an object, got %s", json_type_name(item));
    if (!json_check_keys(&ld->json, item, path, keys))
        return false;
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(item, "type");
    child_path(p, path, "type");
    int type = 0;
    if (!c)
        return json_fail(&ld->json, path,
                         "needs \"type\": distance, rope, spherical, revolute, prismatic or weld");
    if (!json_get_choice(&ld->json, c, p, joint_type_names, SCENE_JOINT_TYPE_COUNT, &type))
        return false;
    j->type = (scene_joint_type)type;
    const char *tname = joint_type_names[type];
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "name")))
    {
        const char *name;
        child_path(p, path, "name");
        if (!json_get_string(&ld->json, c, p, &name))
            return false;
    }
    // Keys the type does not read are errors, as a generator's unknown parameters are.
    static const struct
    {
        const char *key;
        unsigned bit;
    } optional[] = {{"anchor_b", JKEY_ANCHOR_B}, {"axis", JKEY_AXIS},        {"limits", JKEY_LIMITS},
                    {"cone", JKEY_CONE},         {"twist", JKEY_TWIST},      {"motor", JKEY_MOTOR},
                    {"spring", JKEY_SPRING},     {"friction", JKEY_FRICTION}};
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++)
        if (cJSON_GetObjectItemCaseSensitive(item, optional[i].key) && !(joint_keys[type] & optional[i].bit))
        {
            child_path(p, path, optional[i].key);
            return json_fail(&ld->json, p, "a %s joint has no '%s'", tname, optional[i].key);
        }
    j->a = -1;
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "a")))
    {
        child_path(p, path, "a");
        if (!get_joint_end(ld, desc, c, p, true, &j->a))
            return false;
    }
    child_path(p, path, "b");
    if (!(c = cJSON_GetObjectItemCaseSensitive(item, "b")))
        return json_fail(&ld->json, path, "needs \"b\": the name of the entry it holds");
    if (!get_joint_end(ld, desc, c, p, false, &j->b))
        return false;
    if (j->a == j->b)
        return json_fail(&ld->json, p, "joins entry '%.64s' to itself", desc->entries[j->b].name);
    // The engine moves body b: it must be dynamic (or kinematic, when a is dynamic).
    ph_body_type ta = j->a >= 0 ? desc->entries[j->a].body_type : PH_BODY_STATIC;
    ph_body_type tb = desc->entries[j->b].body_type;
    if (!(tb == PH_BODY_DYNAMIC || (tb == PH_BODY_KINEMATIC && ta == PH_BODY_DYNAMIC)))
        return json_fail(&ld->json, p,
                         "entry '%.64s' is not dynamic: \"b\" must be a dynamic body (swap \"a\" and \"b\")",
                         desc->entries[j->b].name);
    float v[3];
    child_path(p, path, "anchor");
    if (!(c = cJSON_GetObjectItemCaseSensitive(item, "anchor")))
        return json_fail(&ld->json, path, "needs \"anchor\": [x, y, z], a world point (unit: m)");
    if (!get_vec3(ld, c, p, -SCENE_MAX_COORDINATE, false, SCENE_MAX_COORDINATE, v))
        return false;
    j->anchor = j->anchor_b = to_vec3(v);
    if (joint_keys[type] & JKEY_ANCHOR_B)
    {
        child_path(p, path, "anchor_b");
        if (!(c = cJSON_GetObjectItemCaseSensitive(item, "anchor_b")))
            return json_fail(&ld->json, path, "a %s joint needs \"anchor_b\": [x, y, z], the point on b",
                             tname);
        if (!get_vec3(ld, c, p, -SCENE_MAX_COORDINATE, false, SCENE_MAX_COORDINATE, v))
            return false;
        j->anchor_b = to_vec3(v);
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "axis")))
    {
        child_path(p, path, "axis");
        if (!get_vec3(ld, c, p, -SCENE_MAX_COORDINATE, false, SCENE_MAX_COORDINATE, v))
            return false;
        ph_vec3 axis = to_vec3(v);
        float len = glms_vec3_norm(axis);
        if (!(len > SCENE_MIN_AXIS_LENGTH))
            return json_fail(&ld->json, p, "must not be zero");
        j->axis = glms_vec3_scale(axis, 1.0f / len);
    }
    const float deg = SCENE_DEGREES_TO_RADIANS;
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "limits")))
    {
        child_path(p, path, "limits");
        bool angle = j->type == SCENE_JOINT_REVOLUTE;
        float lo = angle ? -SCENE_MAX_HINGE_DEGREES
                         : (j->type == SCENE_JOINT_DISTANCE ? 0.0f : -SCENE_MAX_COORDINATE);
        float hi = angle ? SCENE_MAX_HINGE_DEGREES : SCENE_MAX_COORDINATE;
        if (!get_range(ld, c, p, lo, hi, angle ? deg : 1.0f, &j->lower, &j->upper))
            return false;
        j->enable_limit = true;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "cone")))
    {
        child_path(p, path, "cone");
        if (!json_get_float(&ld->json, c, p, 0.0f, false, SCENE_MAX_CONE_DEGREES, &j->cone))
            return false;
        j->cone *= deg;
        j->enable_cone = true;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "twist")))
    {
        child_path(p, path, "twist");
        if (!get_range(ld, c, p, -SCENE_MAX_HINGE_DEGREES, SCENE_MAX_HINGE_DEGREES, deg, &j->twist_lower,
                       &j->twist_upper))
            return false;
        j->enable_twist = true;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "motor")))
    {
        static const char *const motor_keys[] = {"speed", "max_force", NULL};
        child_path(p, path, "motor");
        if (!cJSON_IsObject(c))
            return json_fail(&ld->json, p, "must be an object {\"speed\", \"max_force\"}, got %s",
                             json_type_name(c));
        if (!json_check_keys(&ld->json, c, p, motor_keys))
            return false;
        char q[SCENE_PATH_TEXT];
        const cJSON *k;
        child_path(q, p, "speed");
        if (!(k = cJSON_GetObjectItemCaseSensitive(c, "speed")))
            return json_fail(&ld->json, p, "needs \"speed\" (deg/s for a hinge, m/s for a slider)");
        if (!json_get_float(&ld->json, k, q, -SCENE_MAX_MOTOR_SPEED, false, SCENE_MAX_MOTOR_SPEED,
                            &j->motor_speed))
            return false;
        child_path(q, p, "max_force");
        if (!(k = cJSON_GetObjectItemCaseSensitive(c, "max_force")))
            return json_fail(&ld->json, p, "needs \"max_force\" (N m for a hinge, N for a slider)");
        if (!json_get_float(&ld->json, k, q, 0.0f, false, SCENE_MAX_JOINT_FORCE, &j->max_motor_force))
            return false;
        if (j->type == SCENE_JOINT_REVOLUTE)
            j->motor_speed *= deg;
        j->enable_motor = true;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "spring")))
    {
        static const char *const spring_keys[] = {"hertz", "damping_ratio", "target", NULL};
        child_path(p, path, "spring");
        if (!cJSON_IsObject(c))
            return json_fail(&ld->json, p,
                             "must be an object {\"hertz\", \"damping_ratio\", \"target\"}, got %s",
                             json_type_name(c));
        if (!json_check_keys(&ld->json, c, p, spring_keys))
            return false;
        char q[SCENE_PATH_TEXT];
        const cJSON *k;
        child_path(q, p, "hertz");
        if (!(k = cJSON_GetObjectItemCaseSensitive(c, "hertz")))
            return json_fail(&ld->json, p, "needs \"hertz\" (the spring's frequency, unit: Hz)");
        if (!json_get_float(&ld->json, k, q, 0.0f, true, SCENE_MAX_JOINT_HERTZ, &j->spring_hertz))
            return false;
        if ((k = cJSON_GetObjectItemCaseSensitive(c, "damping_ratio")))
        {
            child_path(q, p, "damping_ratio");
            if (!json_get_float(&ld->json, k, q, 0.0f, false, SCENE_MAX_DAMPING_RATIO,
                                &j->spring_damping_ratio))
                return false;
        }
        if ((k = cJSON_GetObjectItemCaseSensitive(c, "target")))
        {
            child_path(q, p, "target");
            if (j->type == SCENE_JOINT_WELD || j->type == SCENE_JOINT_DISTANCE)
                return json_fail(&ld->json, q, "a %s joint's spring has no target (%s)", tname,
                                 j->type == SCENE_JOINT_WELD ? "it pulls towards the pose at the start"
                                                             : "it pulls towards the anchors' distance");
            bool angle = j->type == SCENE_JOINT_REVOLUTE;
            float lim = angle ? SCENE_MAX_HINGE_DEGREES : SCENE_MAX_COORDINATE;
            if (!json_get_float(&ld->json, k, q, -lim, false, lim, &j->spring_target))
                return false;
            if (angle)
                j->spring_target *= deg;
        }
        j->enable_spring = true;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "friction")))
    {
        child_path(p, path, "friction");
        if (!json_get_float(&ld->json, c, p, 0.0f, false, SCENE_MAX_JOINT_FORCE, &j->friction))
            return false;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "break_force")))
    {
        child_path(p, path, "break_force");
        if (!json_get_float(&ld->json, c, p, 0.0f, false, SCENE_MAX_JOINT_FORCE, &j->break_force))
            return false;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "break_torque")))
    {
        child_path(p, path, "break_torque");
        if (!json_get_float(&ld->json, c, p, 0.0f, false, SCENE_MAX_JOINT_FORCE, &j->break_torque))
            return false;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(item, "collide")))
    {
        child_path(p, path, "collide");
        if (!cJSON_IsBool(c))
            return json_fail(&ld->json, p, "must be true or false, got %s", json_type_name(c));
        j->collide = cJSON_IsTrue(c);
    }
    if (j->type == SCENE_JOINT_DISTANCE && j->enable_limit)
    {
        float length = glms_vec3_distance(j->anchor, j->anchor_b);
        if (!(j->lower <= length && length <= j->upper))
        {
            child_path(p, path, "limits");
            return json_fail(&ld->json, p, "[%g, %g] must hold the anchors' distance %g m", (double)j->lower,
                             (double)j->upper, (double)length);
        }
    }
    return true;
}

static bool parse_joints(loader *ld, const cJSON *joints, scene_desc *desc)
{
    if (!cJSON_IsArray(joints))
        return json_fail(&ld->json, "joints", "must be an array, got %s", json_type_name(joints));
    int n = cJSON_GetArraySize(joints);
    if (n > SCENE_MAX_JOINTS)
        return json_fail(&ld->json, "joints", "has %d joints (at most %d)", n, SCENE_MAX_JOINTS);
    desc->joints = calloc((size_t)(n > 0 ? n : 1), sizeof(scene_joint));
    if (!desc->joints)
        return json_fail(&ld->json, "", "out of memory");
    int i = 0;
    for (const cJSON *j = joints->child; j; j = j->next, i++)
    {
        if (!parse_joint(ld, desc, j, i, &desc->joints[i]))
            return false;
        desc->joint_count = i + 1;
    }
    return true;
}

static bool parse_root(loader *ld, const cJSON *root, scene_desc *desc)
{
    static const char *const keys[] = {"gravity", "time_step",   "camera", "entries",
                                       "joints",  "description", NULL};
    if (!cJSON_IsObject(root))
        return json_fail(&ld->json, "", "the top level must be a JSON object, got %s", json_type_name(root));
    if (!json_check_keys(&ld->json, root, "", keys))
        return false;
    const cJSON *c;
    float v[3];
    if ((c = cJSON_GetObjectItemCaseSensitive(root, "gravity")))
    {
        if (!get_vec3(ld, c, "gravity", -SCENE_MAX_GRAVITY, false, SCENE_MAX_GRAVITY, v))
            return false;
        desc->gravity = to_vec3(v);
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(root, "time_step")) &&
        !json_get_float(&ld->json, c, "time_step", 0.0f, true, SCENE_MAX_TIME_STEP, &desc->time_step))
        return false;
    if ((c = cJSON_GetObjectItemCaseSensitive(root, "description")))
    {
        const char *text;
        if (!json_get_string(&ld->json, c, "description", &text))
            return false;
    }
    if ((c = cJSON_GetObjectItemCaseSensitive(root, "camera")))
    {
        static const char *const camera_keys[] = {"position", "target", "fov", NULL};
        if (!cJSON_IsObject(c))
            return json_fail(&ld->json, "camera", "must be an object, got %s", json_type_name(c));
        if (!json_check_keys(&ld->json, c, "camera", camera_keys))
            return false;
        const cJSON *k;
        if ((k = cJSON_GetObjectItemCaseSensitive(c, "position")))
        {
            if (!get_vec3(ld, k, "camera.position", -SCENE_MAX_COORDINATE, false, SCENE_MAX_COORDINATE, v))
                return false;
            desc->camera.position = to_vec3(v);
        }
        if ((k = cJSON_GetObjectItemCaseSensitive(c, "target")))
        {
            if (!get_vec3(ld, k, "camera.target", -SCENE_MAX_COORDINATE, false, SCENE_MAX_COORDINATE, v))
                return false;
            desc->camera.target = to_vec3(v);
        }
        if ((k = cJSON_GetObjectItemCaseSensitive(c, "fov")) &&
            !json_get_float(&ld->json, k, "camera.fov", 0.0f, true, SCENE_MAX_FOV, &desc->camera.fov))
            return false;
        ph_vec3 d = glms_vec3_sub(desc->camera.target, desc->camera.position);
        if (glms_vec3_dot(d, d) == 0.0f)
            return json_fail(&ld->json, "camera", "position and target must differ");
    }
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(root, "entries");
    if (!entries)
        return json_fail(&ld->json, "", "missing \"entries\" (a list of models and generators)");
    if (!cJSON_IsArray(entries))
        return json_fail(&ld->json, "entries", "must be an array, got %s", json_type_name(entries));
    int n = cJSON_GetArraySize(entries);
    if (n > SCENE_MAX_ENTRIES)
        return json_fail(&ld->json, "entries", "has %d entries (at most %d)", n, SCENE_MAX_ENTRIES);
    desc->entries = calloc((size_t)(n > 0 ? n : 1), sizeof(scene_entry));
    if (!desc->entries)
        return json_fail(&ld->json, "", "out of memory");
    int i = 0;
    for (const cJSON *e = entries->child; e; e = e->next, i++)
    {
        desc->entry_count = i + 1; // so that scene_free frees the models of the entries parsed so far
        if (!parse_entry(ld, e, i, &desc->entries[i]) || !check_scene_limits(ld, desc, i))
            return false;
        scene_entry *entry = &desc->entries[i];
        if (entry->kind != SCENE_ENTRY_GENERATOR && ld->options.load_models &&
            !load_entry_model(ld, desc, entry, i))
            return false;
    }
    const cJSON *joints = cJSON_GetObjectItemCaseSensitive(root, "joints");
    return !joints || parse_joints(ld, joints, desc);
}

scene_options scene_default_options(void)
{
    scene_options o;
    o.load_models = true;
    return o;
}

bool scene_parse(const char *buf, size_t len, const char *name, const scene_options *options,
                 scene_desc **out_desc, asset_error *err)
{
    if (!out_desc)
        return false;
    *out_desc = NULL;
    loader ld;
    ld.json.file = name ? name : "(memory)";
    ld.json.err = err;
    ld.json.context = "";
    ld.options = options ? *options : scene_default_options();
    ld.bodies = 0;
    cJSON *root = json_parse_text(&ld.json, buf, len, SCENE_MAX_FILE_BYTES);
    if (!root)
        return false;
    scene_desc *desc = calloc(1, sizeof *desc);
    if (!desc)
    {
        cJSON_Delete(root);
        return json_fail(&ld.json, "", "out of memory");
    }
    snprintf(desc->file, sizeof desc->file, "%s", ld.json.file);
    desc->gravity = ph_v3(0.0f, SCENE_DEFAULT_GRAVITY_Y, 0.0f);
    desc->time_step = SCENE_DEFAULT_TIME_STEP;
    desc->camera.position = ph_v3(8.0f, 6.0f, 12.0f);
    desc->camera.target = ph_v3(0.0f, 1.0f, 0.0f);
    desc->camera.fov = SCENE_DEFAULT_FOV;
    bool ok = parse_root(&ld, root, desc);
    cJSON_Delete(root);
    if (!ok)
    {
        scene_free(desc);
        return false;
    }
    *out_desc = desc;
    return true;
}

bool scene_load(const char *path, const scene_options *options, scene_desc **out_desc, asset_error *err)
{
    if (!out_desc)
        return false;
    *out_desc = NULL;
    size_t len;
    char *buf = asset_read_file(path, SCENE_MAX_FILE_BYTES, &len, err);
    if (!buf)
        return false;
    bool ok = scene_parse(buf, len, path, options, out_desc, err);
    free(buf);
    return ok;
}

void scene_free(scene_desc *desc)
{
    if (!desc)
        return;
    for (int i = 0; i < desc->entry_count; i++)
    {
        bool shared = false;
        for (int j = 0; j < i && !shared; j++)
            shared = desc->entries[j].model == desc->entries[i].model;
        if (!shared)
            obj_free(desc->entries[i].model);
    }
    free(desc->entries);
    free(desc->joints);
    free(desc);
}
