// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Scene files (scenes/*.json, read with cJSON): gravity, camera, time step and a list of entries, each
// a model file with its placement, body type and material, or a generator (box, sphere, tower,
// pyramid, wall, domino line, rain) from src/recipes with its parameters. Loading parses and validates
// everything into a plain scene_desc, models included, before anything touches a world; building is a
// separate call, so a bad file never half-changes the world. Errors name the file and the JSON path:
// "scenes/x.json: entries[3].material.friction: must be >= 0, got -1".
#pragma once

#include "assets/asset_error.h"
#include "assets/model_physics.h"
#include "assets/obj.h"
#include "assets/path.h"

#include "phys/phys.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t

#define SCENE_MAX_ENTRIES 1024          // entries in one file
#define SCENE_MAX_JOINTS 4096           // joints in one file
#define SCENE_MAX_FILE_BYTES (4 << 20)  // larger scene files are rejected
#define SCENE_MAX_GENERATED_BODIES 5000 // bodies one generator entry may make (count, rows x columns, ...)
#define SCENE_MAX_COORDINATE 10000.0f   // |position|, |size| and such (unit: m)
// Bodies one file may make in all (each generator's count, one per model or obj_scene entry): four
// generators at their most, a scene the sandbox steps in real time.
#define SCENE_MAX_BODIES 20000
// Entries one file may place at the very same position: their bodies would all overlap, and the engine
// keeps at most PH_MAX_PAIRS_PER_BODY pairs of a body (1,024 boxes at one point once gave 522,753 contacts).
#define SCENE_MAX_ENTRIES_AT_ONE_POINT PH_MAX_PAIRS_PER_BODY

typedef enum scene_entry_kind
{
    SCENE_ENTRY_MODEL,     // "model": one body from an .obj (hull, compound or mesh)
    SCENE_ENTRY_OBJ_SCENE, // "obj_scene": every object of an .obj becomes a body (model_physics.h)
    SCENE_ENTRY_GENERATOR  // "generator": a layout from src/recipes
} scene_entry_kind;

typedef enum scene_generator
{
    SCENE_GENERATOR_BOX,
    SCENE_GENERATOR_SPHERE,
    SCENE_GENERATOR_TOWER,
    SCENE_GENERATOR_PYRAMID,
    SCENE_GENERATOR_WALL,
    SCENE_GENERATOR_DOMINOES,
    SCENE_GENERATOR_RAIN,
    SCENE_GENERATOR_COUNT
} scene_generator;

// The generator's name in JSON ("box", "sphere", "tower", "pyramid", "wall", "dominoes", "rain").
const char *scene_generator_name(scene_generator generator);

typedef struct scene_material
{
    float density;     // (unit: kg/m^3) > 0; default 1000
    float friction;    // >= 0; default 0.6
    float restitution; // in [0, 1]; default 0
    float color[3];    // linear RGB in [0, 1]; default 1 1 1 (models keep their own colours, tinted)
} scene_material;

// Parameters of a generator; which ones a generator reads is listed in the README and checked at load
// (a key the generator does not know is an error). Sizes are full extents.
typedef struct scene_generator_params
{
    float size[3]; // a box, or one block of a layout (unit: m); default 1 1 1
    float radius;  // sphere, rain drops (unit: m); default 0.5
    int count;     // dominoes, rain bodies; default 10
    int rows;      // wall rows, tower layers, pyramid base width; default 5
    int columns;   // wall columns; default 5
    float spacing; // gap between neighbours (dominoes: distance between them) (unit: m); default 0
    float height;  // rain: height of the lowest drop above position (unit: m); default 5
    float extent;  // rain: side of the square area the drops fall over (unit: m); default 4
    unsigned seed; // rain: random layout seed; default 1
} scene_generator_params;

typedef struct scene_entry
{
    scene_entry_kind kind;
    char name[64];                 // "name" or made from the kind and index
    char path[PATH_MAX_LENGTH];    // model or obj_scene: joined against the scene file's folder
    obj_model *model;              // loaded by scene_load (NULL when options.load_models is off)
    model_shape_kind shape;        // model: "shape": "hull" (default), "compound", "mesh", "decompose"
    model_split split;             // compound model: "split": "group" (default), "object", "material"
    decompose_options decompose;   // "shape": "decompose": "max_pieces" (default 32), "concavity" (0.03)
    scene_generator generator;     // generator
    scene_generator_params params; // generator
    ph_body_type body_type;        // "body": "dynamic" (default), "static", "kinematic"
    ph_vec3 position;              // (unit: m) default 0
    ph_quat orientation;           // from "rotation": [x, y, z] degrees, applied about x, then y, then z
    float scale[3];                // "scale": number or [x, y, z], > 0; default 1 (models only)
    ph_vec3 linear_velocity;       // "velocity" (unit: m/s)
    ph_vec3 angular_velocity;      // "angular_velocity" (unit: rad/s)
    scene_material material;       // "material": {density, friction, restitution, color}
} scene_entry;

// A joint between two entries, each of which makes one body ("joints" in the file). Positions and axes are
// world terms at the scene's start; both bodies' frames are put at "anchor" (b's at "anchor_b" for
// distance and rope) with their z axes along "axis". Angles in the file are degrees (as "rotation"),
// here radians.
typedef enum scene_joint_type
{
    SCENE_JOINT_DISTANCE,  // a rod: the anchors keep their distance (or "limits" [min, max] in m)
    SCENE_JOINT_ROPE,      // at most the anchors' distance apart, slack below it
    SCENE_JOINT_SPHERICAL, // ball and socket; "cone" (swing, degrees) and "twist" [lo, hi] (degrees)
    SCENE_JOINT_REVOLUTE,  // hinge about axis; "limits" [lo, hi] (degrees), motor, spring
    SCENE_JOINT_PRISMATIC, // slider along axis; "limits" [lo, hi] (m), motor, spring
    SCENE_JOINT_WELD,      // glued; "spring" softens it
    SCENE_JOINT_TYPE_COUNT
} scene_joint_type;

// The type's name in JSON ("distance", "rope", "spherical", "revolute", "prismatic", "weld").
const char *scene_joint_type_name(scene_joint_type type);

typedef struct scene_joint
{
    scene_joint_type type;
    int a, b;                 // entry indices; a = -1: the world ("a" left out or "world")
    ph_vec3 anchor, anchor_b; // world (unit: m); anchor_b = anchor unless distance or rope
    ph_vec3 axis;             // unit, world; default (0, 0, 1)
    bool enable_limit;        // "limits": distance (m), revolute (rad), prismatic (m)
    float lower, upper;       //
    bool enable_cone;         // spherical "cone" (rad)
    float cone;               //
    bool enable_twist;        // spherical "twist" (rad)
    float twist_lower, twist_upper;
    bool enable_motor; // "motor": {"speed" (deg/s or m/s in the file), "max_force" (N m or N)}
    float motor_speed, max_motor_force;
    bool enable_spring; // "spring": {"hertz", "damping_ratio" (default 1), "target"}
    float spring_hertz, spring_damping_ratio, spring_target;
    float friction;                  // spherical and revolute "friction": the joint's friction torque (N m)
    float break_force, break_torque; // (unit: N, N m) 0: never
    bool collide;                    // "collide": the two bodies still collide; default false
} scene_joint;

typedef struct scene_camera
{
    ph_vec3 position; // (unit: m) default (8, 6, 12)
    ph_vec3 target;   // looked-at point (unit: m) default (0, 1, 0)
    float fov;        // vertical field of view (unit: degrees) in (0, 180); default 60
} scene_camera;

// A validated scene. Owns its entries and their models: scene_free() frees all.
typedef struct scene_desc
{
    char file[PATH_MAX_LENGTH];
    ph_vec3 gravity; // (unit: m/s^2) default (0, -9.81, 0)
    float time_step; // (unit: s) in (0, 0.1]; default 1/60
    scene_camera camera;
    int entry_count;
    scene_entry *entries;
    int joint_count;
    scene_joint *joints;
    asset_warnings warnings; // from the models' loading (missing .mtl, ...)
} scene_desc;

typedef struct scene_options
{
    bool load_models; // parse the .obj files the entries name (the fuzzer turns it off); default true
} scene_options;

scene_options scene_default_options(void);

// Reads, parses and validates the scene at path, with its models. On failure returns false, stores
// NULL and fills err ("path: entries[2].scale: must be > 0, got 0"; a model's own errors keep their
// "file:line: message" form after the entry: "path: entries[4].model: models/x.obj:12: ...").
bool scene_load(const char *path, const scene_options *options, scene_desc **out_desc, asset_error *err);
// The same from memory; name is used in messages and model paths are joined against its folder.
bool scene_parse(const char *buf, size_t len, const char *name, const scene_options *options,
                 scene_desc **out_desc, asset_error *err);
void scene_free(scene_desc *desc);

// A world def with the scene's gravity and time step (the rest from ph_default_world_def()).
ph_world_def scene_world_def(const scene_desc *desc);

// Creates the bodies of every entry in world and appends them to out (with render meshes for model
// entries). Gravity and time step are the caller's (scene_world_def, ph_world_set_gravity). On an
// engine failure the bodies made so far are destroyed, false is returned and err is filled with the
// file and the entry ("path: entries[3] (crate): ...").
bool scene_build(ph_world *world, const scene_desc *desc, model_set *out, asset_warnings *warnings,
                 asset_error *err);
