// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Tests of the "joints" of scene files (src/assets/scene.c, scene_build.c): every type and key parsed with
// its units, every error naming the file, the joint and the entry, and the joints built into a world
// holding what they say while it steps.
#include "assets/scene.h"
#include "test.h"

#include <math.h>   // fabsf
#include <stdio.h>  // snprintf, fprintf
#include <string.h> // strlen, strstr

#define DEG 0.017453292519943295f

static scene_desc *load(const char *name, asset_error *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/%s", SANDBOX_SOURCE_DIR, name);
    scene_desc *d = NULL;
    if (!scene_load(path, NULL, &d, err))
        return NULL;
    return d;
}

// A scene of three entries (a static post, two dynamic boxes "p" and "q", a tower "t" of 3 and one "u" of
// 1) and the joints text given.
static scene_desc *parse_joints(const char *joints, asset_error *err)
{
    char json[4096];
    snprintf(json, sizeof json,
             "{\"entries\": [{\"name\": \"post\", \"generator\": \"box\", \"body\": \"static\"},\n"
             " {\"name\": \"p\", \"generator\": \"box\", \"position\": [2, 0, 0]},\n"
             " {\"name\": \"q\", \"generator\": \"box\", \"position\": [4, 0, 0]},\n"
             " {\"name\": \"t\", \"generator\": \"tower\", \"rows\": 3, \"position\": [8, 0, 0]},\n"
             " {\"name\": \"u\", \"generator\": \"tower\", \"rows\": 1, \"position\": [10, 0, 0]},\n"
             " {\"name\": \"o\", \"obj_scene\": \"room.obj\", \"position\": [0, 0, 20]},\n"
             " {\"name\": \"twin\", \"generator\": \"box\", \"position\": [0, 5, 0]},\n"
             " {\"name\": \"twin\", \"generator\": \"box\", \"position\": [0, 7, 0]}],\n"
             " \"joints\": %s}",
             joints);
    scene_options opt = scene_default_options();
    opt.load_models = false;
    scene_desc *d = NULL;
    if (!scene_parse(json, strlen(json), "mem.json", &opt, &d, err))
        return NULL;
    return d;
}

static int scene_joints_parse_every_type(void)
{
    asset_error err;
    scene_desc *d = load("joints_every_type.json", &err);
    if (!d)
        fprintf(stderr, "%s\n", err.text);
    ENSURE(d && d->joint_count == 7);
    const scene_joint *j = d->joints;
    ENSURE(j[0].type == SCENE_JOINT_DISTANCE && j[0].a == 0 && j[0].b == 1);
    ENSURE_VEC3_NEAR(j[0].anchor_b, ph_v3(2, 4, 0), 0.0f);
    ENSURE(j[0].enable_spring && j[0].enable_limit);
    ENSURE_NEAR(j[0].spring_hertz, 2.0f, 0.0f);
    ENSURE_NEAR(j[0].spring_damping_ratio, 0.5f, 0.0f);
    ENSURE_NEAR(j[0].lower, 1.0f, 0.0f);
    ENSURE_NEAR(j[0].upper, 3.0f, 0.0f);
    ENSURE(j[1].type == SCENE_JOINT_ROPE && j[1].a == -1 && j[1].b == 2);
    ENSURE_NEAR(j[1].break_force, 100000.0f, 0.0f);
    ENSURE(j[2].type == SCENE_JOINT_SPHERICAL && j[2].collide && j[2].enable_cone && j[2].enable_twist);
    ENSURE_NEAR(j[2].cone, 45.0f * DEG, 1e-6f);
    ENSURE_NEAR(j[2].twist_lower, -30.0f * DEG, 1e-6f);
    ENSURE_NEAR(j[2].twist_upper, 30.0f * DEG, 1e-6f);
    ENSURE_NEAR(j[2].friction, 3.0f, 0.0f); // N m
    // "a" left out: the world. Hinge limits and motor speed in degrees in the file, radians here.
    ENSURE(j[3].type == SCENE_JOINT_REVOLUTE && j[3].a == -1 && j[3].b == 3);
    ENSURE_VEC3_NEAR(j[3].axis, ph_v3(0, 1, 0), 0.0f);
    ENSURE_NEAR(j[3].lower, -90.0f * DEG, 1e-6f);
    ENSURE(j[3].enable_motor);
    ENSURE_NEAR(j[3].motor_speed, 90.0f * DEG, 1e-6f);
    ENSURE_NEAR(j[3].max_motor_force, 50.0f, 0.0f);
    ENSURE_NEAR(j[3].break_torque, 1e6f, 0.0f);
    ENSURE_NEAR(j[3].friction, 1.5f, 0.0f);
    ENSURE_NEAR(j[0].friction, 0.0f, 0.0f); // the default
    // A slider's limits and spring target are metres; the axis is made unit.
    ENSURE(j[4].type == SCENE_JOINT_PRISMATIC);
    ENSURE_VEC3_NEAR(j[4].axis, ph_v3(1, 0, 0), 0.0f);
    ENSURE_NEAR(j[4].upper, 1.0f, 0.0f);
    ENSURE_NEAR(j[4].spring_target, 0.5f, 0.0f);
    ENSURE_NEAR(j[4].spring_damping_ratio, 1.0f, 0.0f); // the default
    ENSURE(j[5].type == SCENE_JOINT_WELD && j[5].enable_spring && !j[5].collide);
    ENSURE_VEC3_NEAR(j[5].axis, ph_v3(0, 0, 1), 0.0f);    // the default
    ENSURE(j[6].type == SCENE_JOINT_ROPE && j[6].b == 7); // a tower of one block is one body
    scene_free(d);
    return 0;
}

// Each bad joint, the JSON path it names and a phrase of its message.
static int scene_joints_errors(void)
{
    static const struct
    {
        const char *joints, *path, *phrase;
    } cases[] = {
        {"{}", "mem.json: joints: ", "must be an array"},
        {"[3]", "joints[0]: ", "must be an object"},
        {"[{\"b\": \"p\", \"anchor\": [0, 0, 0]}]", "joints[0]: ", "needs \"type\""},
        {"[{\"type\": \"glue\", \"b\": \"p\", \"anchor\": [0, 0, 0]}]", "joints[0].type: ", "glue"},
        {"[{\"type\": \"weld\", \"anchor\": [0, 0, 0]}]", "joints[0]: ", "needs \"b\""},
        {"[{\"type\": \"weld\", \"b\": \"p\"}]", "joints[0]: ", "needs \"anchor\""},
        {"[{\"type\": \"weld\", \"b\": \"nobody\", \"anchor\": [0, 0, 0]}]",
         "joints[0].b: ", "no entry is named 'nobody'"},
        {"[{\"type\": \"weld\", \"a\": \"p\", \"b\": \"world\", \"anchor\": [0, 0, 0]}]",
         "joints[0].b: ", "no entry is named 'world'"},
        {"[{\"type\": \"weld\", \"b\": \"p\", \"anchor\": [0, 0, 0]}, {\"type\": \"weld\", \"a\": \"pp\", "
         "\"b\": \"p\", \"anchor\": [0, 0, 0]}]",
         "joints[1].a: ", "no entry is named 'pp'"},
        {"[{\"type\": \"weld\", \"a\": \"t\", \"b\": \"p\", \"anchor\": [0, 0, 0]}]", "joints[0].a: ",
         "entry 't' (generator 'tower') makes 3 bodies: a joint end must be an entry that makes one body"},
        {"[{\"type\": \"weld\", \"a\": \"o\", \"b\": \"p\", \"anchor\": [0, 0, 0]}]",
         "joints[0].a: ", "obj_scene"},
        {"[{\"type\": \"weld\", \"a\": \"twin\", \"b\": \"p\", \"anchor\": [0, 0, 0]}]",
         "joints[0].a: ", "2 entries are named 'twin'"},
        {"[{\"type\": \"weld\", \"a\": \"p\", \"b\": \"p\", \"anchor\": [0, 0, 0]}]",
         "joints[0].b: ", "to itself"},
        {"[{\"type\": \"weld\", \"a\": \"p\", \"b\": \"post\", \"anchor\": [0, 0, 0]}]",
         "joints[0].b: ", "entry 'post' is not dynamic"},
        {"[{\"type\": \"rope\", \"b\": \"p\", \"anchor\": [0, 0, 0]}]", "joints[0]: ", "needs \"anchor_b\""},
        {"[{\"type\": \"weld\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"limits\": [0, 1]}]",
         "joints[0].limits: ", "a weld joint has no 'limits'"},
        {"[{\"type\": \"spherical\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"anchor_b\": [0, 1, 0]}]",
         "joints[0].anchor_b: ", "a spherical joint has no 'anchor_b'"},
        {"[{\"type\": \"rope\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"anchor_b\": [0, 1, 0], \"axis\": [1, "
         "0, "
         "0]}]",
         "joints[0].axis: ", "a rope joint has no 'axis'"},
        {"[{\"type\": \"revolute\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"axis\": [0, 0, 0]}]",
         "joints[0].axis: ", "must not be zero"},
        {"[{\"type\": \"revolute\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"limits\": [30, -30]}]",
         "joints[0].limits: ", "lower (30) is above upper (-30)"},
        {"[{\"type\": \"revolute\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"limits\": [-190, 0]}]",
         "joints[0].limits[0]: ", "must be >= -179"},
        {"[{\"type\": \"revolute\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"limits\": [1]}]",
         "joints[0].limits: ", "array of 2 numbers"},
        {"[{\"type\": \"spherical\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"cone\": 200}]",
         "joints[0].cone: ", "must be "},
        {"[{\"type\": \"revolute\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"motor\": {\"speed\": 1}}]",
         "joints[0].motor: ", "needs \"max_force\""},
        {"[{\"type\": \"revolute\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"motor\": {\"speed\": 1, "
         "\"max_force\": -1}}]",
         "joints[0].motor.max_force: ", "must be "},
        {"[{\"type\": \"revolute\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"spring\": {\"hertz\": 0}}]",
         "joints[0].spring.hertz: ", "must be "},
        {"[{\"type\": \"weld\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"spring\": {\"hertz\": 1, \"target\": "
         "1}}]",
         "joints[0].spring.target: ", "has no target"},
        {"[{\"type\": \"weld\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"speed\": 1}]", "joints[0]: ", "speed"},
        {"[{\"type\": \"weld\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"collide\": 1}]",
         "joints[0].collide: ", "true or false"},
        {"[{\"type\": \"weld\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"break_force\": -5}]",
         "joints[0].break_force: ", "must be "},
        {"[{\"type\": \"prismatic\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"friction\": 1}]",
         "joints[0].friction: ", "a prismatic joint has no 'friction'"},
        {"[{\"type\": \"spherical\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"friction\": -1}]",
         "joints[0].friction: ", "must be "},
        {"[{\"type\": \"distance\", \"b\": \"p\", \"anchor\": [0, 0, 0], \"anchor_b\": [2, 0, 0], "
         "\"limits\": [0, "
         "1]}]",
         "joints[0].limits: ", "must hold the anchors' distance 2 m"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        asset_error err;
        memset(&err, 0, sizeof err);
        scene_desc *d = parse_joints(cases[i].joints, &err);
        bool ok = !d && strstr(err.text, "mem.json: ") && strstr(err.text, cases[i].path) &&
                  strstr(err.text, cases[i].phrase);
        if (!ok)
            fprintf(stderr, "case %zu: %s\n  got: %s\n  want: '%s' and '%s'\n", i, cases[i].joints,
                    d ? "(parsed)" : err.text, cases[i].path, cases[i].phrase);
        scene_free(d);
        ENSURE(ok);
    }
    // The shipped bad files name the file, the joint and the entry.
    asset_error err;
    scene_desc *d = load("joints_bad_end.json", &err);
    ENSURE(!d && strstr(err.text, "tests/data/joints_bad_end.json: joints[0].b: entry 'stack' (generator "
                                  "'tower') makes 4 bodies"));
    d = load("joints_bad_name.json", &err);
    ENSURE(!d && strstr(err.text, "tests/data/joints_bad_name.json: joints[1].a: no entry is named 'bal'"));
    return 0;
}

// Builds joints_every_type.json and steps it 3 s: every joint holds what it says.
static int scene_joints_build_and_hold(void)
{
    asset_error err;
    scene_desc *d = load("joints_every_type.json", &err);
    ENSURE(d);
    ph_world_def wdef = scene_world_def(d);
    ph_world *world = ph_world_create(&wdef);
    ENSURE(world);
    model_set set = {0};
    asset_warnings warnings = {0};
    bool built = scene_build(world, d, &set, &warnings, &err);
    if (!built)
        fprintf(stderr, "%s\n", err.text);
    ENSURE(built);
    ENSURE(set.body_count == 8);
    ENSURE(ph_world_get_joint_count(world) == 7);
    ph_joint_id ids[8];
    ENSURE(ph_world_get_joints(world, ids, 8) == 7);
    // Joints come in file order: types and bodies as the file says.
    static const ph_joint_type want[7] = {PH_JOINT_DISTANCE, PH_JOINT_DISTANCE,  PH_JOINT_SPHERICAL,
                                          PH_JOINT_REVOLUTE, PH_JOINT_PRISMATIC, PH_JOINT_WELD,
                                          PH_JOINT_DISTANCE};
    for (int k = 0; k < 7; k++)
    {
        ph_joint_def jd = ph_joint_get_def(world, ids[k]);
        ENSURE(jd.type == want[k]);
    }
    ph_joint_def rope = ph_joint_get_def(world, ids[1]);
    ENSURE(PH_ID_IS_NULL(rope.body_a) && PH_ID_EQUALS(rope.body_b, set.bodies[2].body));
    ENSURE_NEAR(rope.min_length, 0.0f, 0.0f);
    ENSURE_NEAR(rope.max_length, 1.95f, 1e-5f);
    ph_joint_def rod = ph_joint_get_def(world, ids[0]);
    ENSURE_NEAR(rod.min_length, 1.0f, 0.0f);
    ENSURE_NEAR(rod.max_length, 3.0f, 0.0f);
    ENSURE(rod.enable_spring);
    ph_joint_def hinge = ph_joint_get_def(world, ids[3]);
    ENSURE(hinge.enable_limit && hinge.enable_motor && hinge.break_torque == 1e6f);
    ENSURE_NEAR(hinge.max_friction_torque, 1.5f, 0.0f);
    ENSURE_NEAR(ph_joint_get_def(world, ids[2]).max_friction_torque, 3.0f, 0.0f);
    ph_joint_def weld = ph_joint_get_def(world, ids[5]);
    ENSURE_NEAR(weld.angular_hertz, 5.0f, 0.0f);
    // The frames sit where the file put them at the start: anchors meet in the world.
    for (int k = 2; k < 6; k++)
    {
        ph_joint_info info;
        ENSURE(ph_joint_get_info(world, ids[k], &info) == PH_OK);
        ENSURE_VEC3_NEAR(info.anchor_a, info.anchor_b, 1e-4f);
    }
    for (int s = 0; s < 180; s++)
        ph_world_step(world);
    for (int i = 0; i < set.body_count; i++)
    {
        ph_body_id b = set.bodies[i].body;
        ENSURE(ph_is_finite_vec3(ph_body_get_position(world, b)));
    }
    ENSURE(ph_world_get_joint_count(world) == 7);
    // The rope's seat hangs at most its length below the anchor; the hinged door keeps its hinge line;
    // the slider stays on its axis.
    ph_joint_info info;
    ENSURE(ph_joint_get_info(world, ids[1], &info) == PH_OK);
    float len = glms_vec3_distance(info.anchor_a, info.anchor_b);
    fprintf(stderr, "rope length %.4f m (at most 1.95), ", (double)len);
    ENSURE(len < 1.95f + 0.02f);
    ENSURE(ph_joint_get_info(world, ids[3], &info) == PH_OK);
    float gap = glms_vec3_distance(info.anchor_a, info.anchor_b);
    fprintf(stderr, "hinge gap %.4f m, ", (double)gap);
    ENSURE(gap < 0.02f);
    ph_vec3 slider = ph_body_get_position(world, set.bodies[4].body);
    fprintf(stderr, "slider at (%.3f %.3f %.3f)\n", (double)slider.x, (double)slider.y, (double)slider.z);
    ENSURE(fabsf(slider.z + 3.0f) < 0.02f && fabsf(slider.y - 0.5f) < 0.02f && slider.x > -1.05f &&
           slider.x < 1.05f);
    model_set_free(&set);
    ph_world_destroy(world);
    scene_free(d);
    return 0;
}

// A joint that breaks: a 100 kg box on a rope whose break force is below its weight falls.
static int scene_joints_break(void)
{
    const char *json = "{\"entries\": [{\"name\": \"load\", \"generator\": \"box\", \"position\": [0, 5, 0],"
                       " \"material\": {\"density\": 100}}],"
                       " \"joints\": [{\"type\": \"rope\", \"b\": \"load\", \"anchor\": [0, 8, 0],"
                       " \"anchor_b\": [0, 5.5, 0], \"break_force\": 500}]}";
    asset_error err;
    scene_desc *d = NULL;
    ENSURE(scene_parse(json, strlen(json), "mem.json", NULL, &d, &err));
    ph_world_def wdef = scene_world_def(d);
    ph_world *world = ph_world_create(&wdef);
    model_set set = {0};
    ENSURE(scene_build(world, d, &set, NULL, &err));
    ENSURE(ph_world_get_joint_count(world) == 1);
    int breaks = 0;
    for (int s = 0; s < 120; s++)
    {
        ph_world_step(world);
        int n = 0;
        ph_world_get_joint_breaks(world, &n);
        breaks += n;
    }
    ENSURE(breaks == 1 && ph_world_get_joint_count(world) == 0);
    ENSURE(ph_body_get_position(world, set.bodies[0].body).y < 0.0f); // no ground: it fell
    model_set_free(&set);
    ph_world_destroy(world);
    scene_free(d);
    return 0;
}

const test_case test_scene_joints_cases[] = {
    {"scene_joints_parse_every_type", scene_joints_parse_every_type},
    {"scene_joints_errors", scene_joints_errors},
    {"scene_joints_build_and_hold", scene_joints_build_and_hold},
    {"scene_joints_break", scene_joints_break},
    {0},
};
