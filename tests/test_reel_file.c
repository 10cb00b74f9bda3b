// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Tests of the demo reel file (src/assets/reel_file.c): a good reel parses into the expected segments,
// keyframes and sorted actions; every kind of error (unknown scene, bad keyframe, bad action, a bad
// scene file) is rejected with a message naming the file and the segment; truncated and mutated files
// never crash; the camera spline passes through its keyframes, is C1 at them and eases at the ends;
// and the shipped scenes/reel.json loads with all its scenes and models.
#define _POSIX_C_SOURCE 200809L // mkdtemp

#include "assets/reel_file.h"
#include "recipes/recipes.h"
#include "test.h"

#include <stdio.h>  // fopen, fprintf, snprintf
#include <stdlib.h> // mkdtemp, free, malloc
#include <string.h> // strstr, strlen, memcpy
#include <unistd.h> // rmdir, unlink

static const char *const test_recipes[] = {"pile1000", "spinner", NULL};

static const char good_reel[] =
    "{ \"title\": \"test reel\", \"segments\": [\n"
    "  { \"name\": \"pyramid\", \"scene\": \"pile1000\", \"duration\": 4,\n"
    "    \"caption\": { \"title\": \"A pyramid\", \"line\": \"knocked down by a thrown box\" },\n"
    "    \"views\": [\"sleeping\", \"contacts\"],\n"
    "    \"camera\": [ { \"t\": 0, \"eye\": [10, 5, 10], \"target\": [0, 1, 0] },\n"
    "                { \"t\": 2, \"eye\": [0, 5, 14], \"target\": [0, 2, 0] },\n"
    "                { \"t\": 4, \"eye\": [-10, 5, 10], \"target\": [0, 1, 0] } ],\n"
    "    \"actions\": [ { \"t\": 2.5, \"do\": \"slow_motion\", \"factor\": 0.25, \"duration\": 1 },\n"
    "                 { \"t\": 1, \"do\": \"throw\", \"from\": [0, 2, 10], \"to\": [0, 2, 0], \"speed\": "
    "30,\n"
    "                   \"shape\": \"sphere\", \"size\": 0.4 },\n"
    "                 { \"t\": 1, \"do\": \"spawn\", \"generator\": \"rain\", \"position\": [0, 5, 0],\n"
    "                   \"count\": 20 },\n"
    "                 { \"t\": 3, \"do\": \"toggle_view\", \"view\": \"calendar\", \"on\": false },\n"
    "                 { \"t\": 3.5, \"do\": \"replay\", \"from\": 0.5, \"factor\": 0.1 },\n"
    "                 { \"t\": 0.5, \"do\": \"pick_pair\", \"a\": [0, 0.5, 0], \"b\": [0, 1.5, 0] },\n"
    "                 { \"t\": 0.2, \"do\": \"pause\", \"duration\": 0.1 },\n"
    "                 { \"t\": 0.4, \"do\": \"resume\" } ] },\n"
    "  { \"scene\": \"spinner\", \"duration\": 2, \"caption\": { \"title\": \"T-handle\" },\n"
    "    \"camera\": [ { \"t\": 0, \"eye\": [0, 0, 5], \"target\": [0, 0, 0] } ] }\n"
    "] }\n";

static reel_options test_options(void)
{
    reel_options o = reel_default_options();
    o.load_scenes = false;
    o.recipe_names = test_recipes;
    return o;
}

// Parses text (from memory, as "scenes/t.json") and expects failure with every fragment in the message.
static int expect_error(const char *text, const char *fragment1, const char *fragment2)
{
    reel_options o = test_options();
    reel_desc *desc = NULL;
    asset_error err = {0};
    bool ok = reel_parse(text, strlen(text), "scenes/t.json", &o, &desc, &err);
    if (ok)
    {
        fprintf(stderr, "expected an error containing '%s', but the reel loaded\n", fragment1);
        reel_free(desc);
        return 1;
    }
    ENSURE(desc == NULL);
    bool has1 = strstr(err.text, fragment1) != NULL;
    bool has2 = !fragment2 || strstr(err.text, fragment2) != NULL;
    if (!has1 || !has2 || strncmp(err.text, "scenes/t.json:", 14) != 0)
    {
        fprintf(stderr, "message '%s' lacks '%s' / '%s' or the file name\n", err.text, fragment1,
                fragment2 ? fragment2 : "");
        return 1;
    }
    return 0;
}

// One segment named "seg" with the given camera and actions JSON (either may be NULL for defaults).
static void one_segment(char *out, size_t size, const char *scene, const char *camera, const char *actions)
{
    snprintf(out, size,
             "{ \"segments\": [ { \"name\": \"first\", \"scene\": \"pile1000\", \"duration\": 1,"
             " \"caption\": { \"title\": \"first\" }, \"camera\": [ { \"t\": 0, \"eye\": [1, 1, 1],"
             " \"target\": [0, 0, 0] } ] },"
             " { \"name\": \"seg\", \"scene\": \"%s\", \"duration\": 5, \"caption\": { \"title\": \"T\" },"
             " \"camera\": %s, \"actions\": %s } ] }",
             scene, camera ? camera : "[ { \"t\": 0, \"eye\": [1, 2, 3], \"target\": [0, 0, 0] } ]",
             actions ? actions : "[]");
}

static int reel_file_good(void)
{
    reel_options o = test_options();
    reel_desc *desc = NULL;
    asset_error err = {0};
    bool ok = reel_parse(good_reel, sizeof good_reel - 1, "scenes/reel.json", &o, &desc, &err);
    if (!ok)
        fprintf(stderr, "%s\n", err.text);
    ENSURE(ok);
    ENSURE(strcmp(desc->title, "test reel") == 0);
    ENSURE(desc->segment_count == 2);
    ENSURE_NEAR(desc->total_duration, 6.0f, 0.0f);
    const reel_segment *s = &desc->segments[0];
    ENSURE(strcmp(s->name, "pyramid") == 0);
    ENSURE(s->scene_kind == REEL_SCENE_RECIPE && strcmp(s->recipe, "pile1000") == 0);
    ENSURE(strcmp(s->title, "A pyramid") == 0 && strcmp(s->line, "knocked down by a thrown box") == 0);
    ENSURE(s->views[REEL_VIEW_SLEEPING] && s->views[REEL_VIEW_CONTACTS] && !s->views[REEL_VIEW_OCTREE]);
    ENSURE(s->keyframe_count == 3);
    ENSURE_VEC3_NEAR(s->keyframes[1].eye, ph_v3(0, 5, 14), 0.0f);
    ENSURE(s->action_count == 8);
    // Sorted by time, equal times in file order (throw before spawn at t = 1).
    static const reel_action_kind order[] = {
        REEL_ACTION_PAUSE, REEL_ACTION_RESUME,      REEL_ACTION_PICK_PAIR,   REEL_ACTION_THROW,
        REEL_ACTION_SPAWN, REEL_ACTION_SLOW_MOTION, REEL_ACTION_TOGGLE_VIEW, REEL_ACTION_REPLAY};
    for (int i = 0; i < 8; i++)
    {
        if (s->actions[i].kind != order[i])
            fprintf(stderr, "actions[%d] is %s, expected %s\n", i, reel_action_name(s->actions[i].kind),
                    reel_action_name(order[i]));
        ENSURE(s->actions[i].kind == order[i]);
        ENSURE(i == 0 || s->actions[i].time >= s->actions[i - 1].time);
    }
    const reel_action *th = &s->actions[3];
    ENSURE_VEC3_NEAR(th->throw_.direction, ph_v3(0, 0, -1), 1e-6f);
    ENSURE_NEAR(th->throw_.speed, 30.0f, 0.0f);
    ENSURE(th->throw_.shape == REEL_PROJECTILE_SPHERE);
    ENSURE_NEAR(th->throw_.size, 0.4f, 1e-7f);
    const reel_action *sp = &s->actions[4];
    ENSURE(sp->spawn && sp->spawn->entry_count == 1);
    ENSURE(sp->spawn->entries[0].kind == SCENE_ENTRY_GENERATOR);
    ENSURE(sp->spawn->entries[0].generator == SCENE_GENERATOR_RAIN);
    ENSURE(sp->spawn->entries[0].params.count == 20);
    ENSURE_VEC3_NEAR(sp->spawn->entries[0].position, ph_v3(0, 5, 0), 0.0f);
    ENSURE_NEAR(s->actions[5].factor, 0.25f, 0.0f);
    ENSURE_NEAR(s->actions[5].duration, 1.0f, 0.0f);
    ENSURE(s->actions[6].view == REEL_VIEW_CALENDAR && !s->actions[6].on);
    ENSURE_NEAR(s->actions[7].from, 0.5f, 0.0f);
    ENSURE_NEAR(s->actions[7].factor, 0.1f, 1e-7f);
    ENSURE_NEAR(s->actions[7].duration, 0.5f, 1e-6f); // to the end of the segment
    ENSURE_VEC3_NEAR(s->actions[2].pair[1], ph_v3(0, 1.5f, 0), 0.0f);
    // The second segment is named after its caption title.
    ENSURE(strcmp(desc->segments[1].name, "T-handle") == 0);
    ENSURE(desc->segments[1].line[0] == '\0');
    reel_free(desc);
    return 0;
}

static int reel_file_unknown_scene(void)
{
    char text[2048];
    one_segment(text, sizeof text, "foo", NULL, NULL);
    if (expect_error(text, "segments[1] (\"seg\"): unknown scene \"foo\"", "\"pile1000\""))
        return 1;
    // A scene file that does not exist is named with the segment.
    one_segment(text, sizeof text, "reel_missing.json", NULL, NULL);
    reel_options o = reel_default_options();
    reel_desc *desc = NULL;
    asset_error err = {0};
    o.recipe_names = test_recipes;
    ENSURE(!reel_parse(text, strlen(text), "scenes/t.json", &o, &desc, &err));
    if (!strstr(err.text, "segments[1] (\"seg\"): scenes/reel_missing.json: cannot open"))
        fprintf(stderr, "message: %s\n", err.text);
    ENSURE(strstr(err.text, "segments[1] (\"seg\"): scenes/reel_missing.json: cannot open") != NULL);
    // Without a list of recipes, a bare name is unknown too, and the message says why.
    o.recipe_names = NULL;
    one_segment(text, sizeof text, "pile1000", NULL, NULL);
    ENSURE(!reel_parse(text, strlen(text), "scenes/t.json", &o, &desc, &err));
    ENSURE(strstr(err.text, "segments[0] (\"first\"): unknown scene \"pile1000\"") != NULL);
    return 0;
}

static int reel_file_bad_keyframe(void)
{
    char text[2048];
    static const struct
    {
        const char *camera;
        const char *fragment;
    } cases[] = {
        {"[ { \"t\": 0, \"eye\": [1, 2, 3], \"target\": [0, 0, 0] }, { \"t\": 0, \"eye\": [1, 2, 4], "
         "\"target\": [0, 0, 0] } ]",
         "segments[1] (\"seg\"): camera[1].t: must be greater than camera[0].t (0), got 0"},
        {"[ { \"t\": 0, \"eye\": [1, 2, 3], \"target\": [1, 2, 3] } ]",
         "segments[1] (\"seg\"): camera[0]: eye and target must differ"},
        {"[ { \"t\": 6, \"eye\": [1, 2, 3], \"target\": [0, 0, 0] } ]",
         "segments[1] (\"seg\"): camera[0].t: must be <= 5, got 6"},
        {"[ { \"t\": 0, \"target\": [0, 0, 0] } ]", "segments[1] (\"seg\"): camera[0]: missing \"eye\""},
        {"[ { \"t\": 0, \"eye\": [1, 2], \"target\": [0, 0, 0] } ]",
         "segments[1] (\"seg\"): camera[0].eye: must be an array of 3 numbers"},
        {"[ { \"t\": 0, \"eye\": [1, 2, 3], \"target\": [0, 0, 0], \"fov\": 3 } ]",
         "segments[1] (\"seg\"): camera[0]: unknown key 'fov'"},
        {"[]", "segments[1] (\"seg\"): camera: needs 1 to 32 keyframes, got 0"},
        {"{}", "segments[1] (\"seg\"): camera: must be an array"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        one_segment(text, sizeof text, "spinner", cases[i].camera, NULL);
        if (expect_error(text, cases[i].fragment, NULL))
            return 1;
    }
    return 0;
}

static int reel_file_bad_action(void)
{
    char text[4096];
    static const struct
    {
        const char *actions;
        const char *fragment;
    } cases[] = {
        {"[ { \"t\": 1, \"do\": \"explode\" } ]", "segments[1] (\"seg\"): actions[0].do: must be one of"},
        {"[ { \"do\": \"pause\" } ]", "segments[1] (\"seg\"): actions[0]: missing \"t\""},
        {"[ { \"t\": 9, \"do\": \"pause\" } ]", "segments[1] (\"seg\"): actions[0].t: must be <= 5, got 9"},
        {"[ { \"t\": 1, \"do\": \"throw\", \"from\": [0, 1, 0], \"dir\": [0, 0, 1], \"speed\": 0 } ]",
         "segments[1] (\"seg\"): actions[0].speed: must be > 0"},
        {"[ { \"t\": 1, \"do\": \"throw\", \"from\": [0, 1, 0], \"to\": [0, 1, 0], \"speed\": 5 } ]",
         "segments[1] (\"seg\"): actions[0].to: must differ from \"from\""},
        {"[ { \"t\": 1, \"do\": \"throw\", \"from\": [0, 1, 0], \"speed\": 5 } ]",
         "segments[1] (\"seg\"): actions[0]: needs exactly one of \"to\""},
        {"[ { \"t\": 1, \"do\": \"throw\", \"from\": [0, 1, 0], \"dir\": [1, 0, 0], \"speed\": 5, "
         "\"shape\": \"cone\" } ]",
         "segments[1] (\"seg\"): actions[0].shape: must be one of 'box', 'sphere'"},
        {"[ { \"t\": 1, \"do\": \"slow_motion\", \"factor\": 2, \"duration\": 1 } ]",
         "segments[1] (\"seg\"): actions[0].factor: must be <= 1, got 2"},
        {"[ { \"t\": 1, \"do\": \"slow_motion\", \"factor\": 0.5 } ]",
         "segments[1] (\"seg\"): actions[0]: missing \"duration\""},
        {"[ { \"t\": 1, \"do\": \"toggle_view\", \"view\": \"xray\" } ]",
         "segments[1] (\"seg\"): actions[0].view: must be one of 'contacts'"},
        {"[ { \"t\": 1, \"do\": \"toggle_view\", \"view\": \"bounds\", \"on\": 1 } ]",
         "segments[1] (\"seg\"): actions[0].on: must be true or false"},
        {"[ { \"t\": 1, \"do\": \"replay\", \"from\": 2 } ]",
         "segments[1] (\"seg\"): actions[0].from: must be before the replay's own time 1, got 2"},
        {"[ { \"t\": 2, \"do\": \"replay\", \"from\": 1 }, { \"t\": 3, \"do\": \"replay\", \"from\": 1 } ]",
         "segments[1] (\"seg\"): actions: has more than one replay"},
        {"[ { \"t\": 1, \"do\": \"pick_pair\", \"a\": [0, 0, 0] } ]",
         "segments[1] (\"seg\"): actions[0]: missing \"b\""},
        {"[ { \"t\": 1, \"do\": \"resume\", \"factor\": 1 } ]",
         "segments[1] (\"seg\"): actions[0]: unknown key 'factor'"},
        // Spawns are checked by the scene file rules, re-labelled with the action's path.
        {"[ { \"t\": 1, \"do\": \"spawn\", \"generator\": \"rain\", \"count\": 0 } ]",
         "segments[1] (\"seg\"): actions[0].count: must be in [1, 5000], got 0"},
        {"[ { \"t\": 1, \"do\": \"spawn\", \"generator\": \"volcano\" } ]",
         "segments[1] (\"seg\"): actions[0].generator: must be one of"},
        {"[ { \"t\": 1, \"do\": \"spawn\", \"position\": [0, 0, 0] } ]",
         "segments[1] (\"seg\"): actions[0]: needs exactly one of \"model\", \"obj_scene\" or \"generator\""},
        {"[ 3 ]", "segments[1] (\"seg\"): actions[0]: must be an object, got a number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        one_segment(text, sizeof text, "spinner", NULL, cases[i].actions);
        if (expect_error(text, cases[i].fragment, NULL))
            return 1;
    }
    return 0;
}

static int reel_file_bad_segment(void)
{
    // Errors before the name is known name the index; caption and duration problems name the segment.
    if (expect_error("{ \"segments\": [ 7 ] }", "segments[0]: must be an object, got a number", NULL))
        return 1;
    if (expect_error("{ \"segments\": [ { \"name\": \"x\", \"scene\": \"spinner\", \"duration\": 1,"
                     " \"camera\": [ { \"t\": 0, \"eye\": [1, 1, 1], \"target\": [0, 0, 0] } ] } ] }",
                     "segments[0] (\"x\"): missing \"caption\"", NULL))
        return 1;
    if (expect_error("{ \"segments\": [ { \"scene\": \"spinner\", \"duration\": -1, \"caption\": "
                     "{ \"title\": \"named by title\" }, \"camera\": [] } ] }",
                     "segments[0] (\"named by title\"): duration: must be > 0, got -1", NULL))
        return 1;
    if (expect_error(
            "{ \"segments\": [ { \"scene\": \"spinner\", \"duration\": 1, \"caption\": "
            "{ \"title\": \"t\" }, \"camera\": [ { \"t\": 0, \"eye\": [1, 1, 1], \"target\": [0, 0, 0] } ],"
            " \"colour\": 1 } ] }",
            "segments[0] (\"t\"): unknown key 'colour'", NULL))
        return 1;
    if (expect_error("{ \"segments\": [] }", "segments: needs 1 to 64 segments, got 0", NULL))
        return 1;
    if (expect_error("{ \"segment\": [] }", "unknown key 'segment'", NULL))
        return 1;
    if (expect_error("{ \"segments\": [ }", "scenes/t.json:1: JSON syntax error", NULL))
        return 1;
    return 0;
}

// A segment's scene file with an error: the scene's own message follows the segment's label.
static int reel_file_bad_scene_file(void)
{
    char dir[] = "/tmp/reel_test_XXXXXX";
    ENSURE(mkdtemp(dir) != NULL);
    char scene_path[256], reel_path[256];
    snprintf(scene_path, sizeof scene_path, "%s/reel_bad.json", dir);
    snprintf(reel_path, sizeof reel_path, "%s/reel.json", dir);
    FILE *f = fopen(scene_path, "wb");
    ENSURE(f != NULL);
    fputs("{ \"entries\": [ { \"generator\": \"box\", \"material\": { \"friction\": -1 } } ] }", f);
    fclose(f);
    char text[2048];
    one_segment(text, sizeof text, "reel_bad.json", NULL, NULL);
    reel_options o = test_options();
    o.load_scenes = true;
    reel_desc *desc = NULL;
    asset_error err = {0};
    bool ok = reel_parse(text, strlen(text), reel_path, &o, &desc, &err);
    unlink(scene_path);
    rmdir(dir);
    ENSURE(!ok);
    char expected[512];
    snprintf(expected, sizeof expected,
             "segments[1] (\"seg\"): %s: entries[0].material.friction: must be >= 0", scene_path);
    if (!strstr(err.text, expected))
        fprintf(stderr, "message '%s' lacks '%s'\n", err.text, expected);
    ENSURE(strstr(err.text, expected) != NULL);
    return 0;
}

// Every prefix of a good file, and files with random bytes changed, parse or fail cleanly (ASan checks
// the rest), and a failure always leaves *out NULL with a message.
static int reel_file_truncated_and_mutated(void)
{
    reel_options o = test_options();
    size_t len = sizeof good_reel - 1;
    char *buf = malloc(len);
    ENSURE(buf != NULL);
    for (size_t n = 0; n + 1 < len; n++) // the last byte is the newline after the document
    {
        reel_desc *desc = (reel_desc *)1;
        asset_error err = {0};
        memcpy(buf, good_reel, n);
        bool ok = reel_parse(buf, n, "t.json", &o, &desc, &err);
        ENSURE(!ok); // no proper prefix of the file is a whole JSON document
        ENSURE(desc == NULL && err.text[0] != '\0');
    }
    uint64_t rng = test_seed();
    static const char alphabet[] = "{}[]\":,0123456789.-e tnf\\x";
    int loaded = 0;
    for (int trial = 0; trial < 2000; trial++)
    {
        memcpy(buf, good_reel, len);
        int changes = 1 + (int)(test_rand_u64(&rng) % 3);
        for (int k = 0; k < changes; k++)
            buf[test_rand_u64(&rng) % len] = alphabet[test_rand_u64(&rng) % (sizeof alphabet - 1)];
        reel_desc *desc = NULL;
        asset_error err = {0};
        if (reel_parse(buf, len, "t.json", &o, &desc, &err))
        {
            loaded++;
            ENSURE(desc->segment_count >= 1);
            for (int i = 0; i < desc->segment_count; i++)
                ENSURE(desc->segments[i].keyframe_count >= 1 && desc->segments[i].duration > 0.0f);
            reel_free(desc);
        }
        else
            ENSURE(desc == NULL && err.text[0] != '\0');
    }
    printf("  mutated reels that still loaded: %d of 2000\n", loaded);
    free(buf);
    return 0;
}

static reel_segment spline_segment(void)
{
    reel_segment s;
    memset(&s, 0, sizeof s);
    s.duration = 10.0f;
    s.keyframe_count = 4;
    const float times[4] = {0.0f, 1.0f, 4.0f, 6.0f}; // uneven spacing
    const ph_vec3 eyes[4] = {ph_v3(0, 1, 0), ph_v3(3, 2, 1), ph_v3(5, -1, 4), ph_v3(9, 0, 0)};
    for (int i = 0; i < 4; i++)
    {
        s.keyframes[i].time = times[i];
        s.keyframes[i].eye = eyes[i];
        s.keyframes[i].target = glms_vec3_scale(eyes[i], -1.0f);
    }
    return s;
}

static int reel_file_camera_spline(void)
{
    reel_segment s = spline_segment();
    ph_vec3 eye, target;
    // Through every keyframe; still before the first and after the last.
    for (int i = 0; i < s.keyframe_count; i++)
    {
        reel_camera_at(&s, s.keyframes[i].time, &eye, &target);
        ENSURE_VEC3_NEAR(eye, s.keyframes[i].eye, 1e-5f);
        ENSURE_VEC3_NEAR(target, s.keyframes[i].target, 1e-5f);
    }
    reel_camera_at(&s, -1.0f, &eye, &target);
    ENSURE_VEC3_NEAR(eye, s.keyframes[0].eye, 0.0f);
    reel_camera_at(&s, 8.0f, &eye, &target);
    ENSURE_VEC3_NEAR(eye, s.keyframes[3].eye, 0.0f);
    // C1 at the interior keyframes: one-sided difference quotients agree with the Catmull-Rom tangent
    // (p[i+1] - p[i-1]) / (t[i+1] - t[i-1]); at the ends the velocity is zero.
    const float h = 1e-3f;
    for (int i = 0; i < s.keyframe_count; i++)
    {
        float t = s.keyframes[i].time;
        ph_vec3 before, after, unused;
        reel_camera_at(&s, t - h, &before, &unused);
        reel_camera_at(&s, t + h, &after, &unused);
        ph_vec3 left = glms_vec3_scale(glms_vec3_sub(s.keyframes[i].eye, before), 1.0f / h);
        ph_vec3 right = glms_vec3_scale(glms_vec3_sub(after, s.keyframes[i].eye), 1.0f / h);
        ph_vec3 expected = ph_v3(0, 0, 0);
        if (i > 0 && i < s.keyframe_count - 1)
            expected = glms_vec3_scale(glms_vec3_sub(s.keyframes[i + 1].eye, s.keyframes[i - 1].eye),
                                       1.0f / (s.keyframes[i + 1].time - s.keyframes[i - 1].time));
        // Tolerance: the difference quotient's error is about |p''| h, a few units per second squared here.
        if (i < s.keyframe_count - 1)
            ENSURE_VEC3_NEAR(right, expected, 0.05f);
        if (i > 0)
            ENSURE_VEC3_NEAR(left, expected, 0.05f);
    }
    // Evenly spaced collinear keyframes moving at constant speed: the interior spans are exactly linear.
    reel_segment line;
    memset(&line, 0, sizeof line);
    line.duration = 3.0f;
    line.keyframe_count = 4;
    for (int i = 0; i < 4; i++)
    {
        line.keyframes[i].time = (float)i;
        line.keyframes[i].eye = ph_v3(2.0f * (float)i, 1.0f, -(float)i);
        line.keyframes[i].target = ph_v3(0, 0, 10);
    }
    for (float t = 1.0f; t <= 2.0f; t += 0.125f)
    {
        reel_camera_at(&line, t, &eye, &target);
        ENSURE_VEC3_NEAR(eye, ph_v3(2.0f * t, 1.0f, -t), 1e-5f);
        ENSURE_VEC3_NEAR(target, ph_v3(0, 0, 10), 1e-5f);
    }
    return 0;
}

static int reel_file_segment_at(void)
{
    reel_segment segs[3];
    memset(segs, 0, sizeof segs);
    segs[0].duration = 2.0f;
    segs[1].duration = 3.0f;
    segs[2].duration = 1.0f;
    reel_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.segment_count = 3;
    desc.segments = segs;
    float local = -1.0f;
    ENSURE(reel_segment_at(&desc, 0.0f, &local) == 0 && local == 0.0f);
    ENSURE(reel_segment_at(&desc, 1.5f, &local) == 0 && local == 1.5f);
    ENSURE(reel_segment_at(&desc, 2.0f, &local) == 1 && local == 0.0f);
    ENSURE(reel_segment_at(&desc, 4.5f, &local) == 1 && local == 2.5f);
    ENSURE(reel_segment_at(&desc, 5.25f, &local) == 2 && local == 0.25f);
    ENSURE(reel_segment_at(&desc, 99.0f, &local) == 2 && local == 1.0f);
    ENSURE(reel_segment_at(&desc, -3.0f, &local) == 0 && local == 0.0f);
    return 0;
}

// The shipped reel, with every scene file and model it names.
static int reel_file_shipped_reel(void)
{
    reel_options o = reel_default_options();
    o.recipe_names = recipe_scene_names();
    reel_desc *desc = NULL;
    asset_error err = {0};
    bool ok = reel_load(SANDBOX_SOURCE_DIR "/scenes/reel.json", &o, &desc, &err);
    if (!ok)
        fprintf(stderr, "%s\n", err.text);
    ENSURE(ok);
    ENSURE(desc->segment_count >= 10);
    for (int i = 0; i < desc->segment_count; i++)
    {
        const reel_segment *s = &desc->segments[i];
        ENSURE(s->scene_kind == REEL_SCENE_RECIPE || s->scene != NULL);
        ENSURE(s->title[0] != '\0' && s->line[0] != '\0');
    }
    printf("  %d segments, %.1f s\n", desc->segment_count, (double)desc->total_duration);
    reel_free(desc);
    return 0;
}

const test_case test_reel_file_cases[] = {
    {"reel_file_good", reel_file_good},
    {"reel_file_unknown_scene", reel_file_unknown_scene},
    {"reel_file_bad_keyframe", reel_file_bad_keyframe},
    {"reel_file_bad_action", reel_file_bad_action},
    {"reel_file_bad_segment", reel_file_bad_segment},
    {"reel_file_bad_scene_file", reel_file_bad_scene_file},
    {"reel_file_truncated_and_mutated", reel_file_truncated_and_mutated},
    {"reel_file_camera_spline", reel_file_camera_spline},
    {"reel_file_segment_at", reel_file_segment_at},
    {"reel_file_shipped_reel", reel_file_shipped_reel},
    {0},
};
