// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The demo reel's data (scenes/reel.json, read with cJSON): a list of segments, each a scene (a
// scenes/*.json file or a recipe scene named by the game), a duration, a caption, camera keyframes and
// timed actions. Loading parses and validates everything, the segments' scene files included, into a
// plain reel_desc before any world exists; game/reel.c plays it. Errors name the file and the segment:
// "scenes/reel.json: segments[3] (\"thin wall\"): unknown scene \"foo\"". Camera paths are evaluated
// here too (reel_camera_at), so their maths is testable without a window.
#pragma once

#include "assets/asset_error.h"
#include "assets/path.h"
#include "assets/scene.h"

#include "phys/phys.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t

#define REEL_MAX_SEGMENTS 64          // segments in one reel
#define REEL_MAX_KEYFRAMES 32         // camera keyframes in one segment
#define REEL_MAX_ACTIONS 64           // timed actions in one segment
#define REEL_MAX_FILE_BYTES (1 << 20) // larger reel files are rejected
#define REEL_MAX_DURATION 600.0f      // one segment (unit: s)
#define REEL_MAX_SPEED 1000.0f        // thrown bodies (unit: m/s)
#define REEL_MAX_COORDINATE 10000.0f  // |eye|, |target|, |from| ... (unit: m)
#define REEL_MIN_TIME_SCALE 0.001f    // slowest slow motion or replay factor (0.001x)
#define REEL_NAME_SIZE 64             // bytes of a segment name, a recipe scene name
#define REEL_TITLE_SIZE 96            // bytes of a caption title
#define REEL_LINE_SIZE 200            // bytes of a caption's line of explanation

// What a timed action does. Playback (game/reel.c) maps each to the interactive tools' functions.
typedef enum reel_action_kind
{
    REEL_ACTION_THROW,       // throw a body from a point along a direction at a speed
    REEL_ACTION_SPAWN,       // add a generator entry (tower, pyramid, wall, dominoes, rain, box, sphere)
    REEL_ACTION_PAUSE,       // stop the simulation (the camera keeps moving)
    REEL_ACTION_RESUME,      // end a pause
    REEL_ACTION_SLOW_MOTION, // run the simulation at factor for duration seconds of reel time
    REEL_ACTION_TOGGLE_VIEW, // switch a debug view on or off
    REEL_ACTION_PICK_PAIR,   // choose the two bodies whose GJK simplex / EPA polytope the pair view draws
    REEL_ACTION_REPLAY,      // rewind to reel time `from` and play the history again at factor
    REEL_ACTION_COUNT
} reel_action_kind;

// The action's name in JSON ("throw", "spawn", "pause", "resume", "slow_motion", "toggle_view",
// "pick_pair", "replay").
const char *reel_action_name(reel_action_kind kind);

// Debug views an action can switch (the game's debug-view keys).
typedef enum reel_view
{
    REEL_VIEW_CONTACTS, // contact points and normals
    REEL_VIEW_BOUNDS,   // bounding boxes
    REEL_VIEW_OCTREE,   // octree nodes
    REEL_VIEW_SLEEPING, // sleeping bodies tinted
    REEL_VIEW_CALENDAR, // the last step's time-of-impact events
    REEL_VIEW_PAIR,     // the picked pair's GJK simplex and EPA polytope
    REEL_VIEW_COUNT
} reel_view;

// The view's name in JSON ("contacts", "bounds", "octree", "sleeping", "calendar", "pair").
const char *reel_view_name(reel_view view);

typedef enum reel_projectile
{
    REEL_PROJECTILE_BOX,
    REEL_PROJECTILE_SPHERE
} reel_projectile;

typedef struct reel_throw
{
    ph_vec3 from;          // start point of the body's centre (unit: m)
    ph_vec3 direction;     // unit; from "dir", or from "to" - "from"
    float speed;           // (unit: m/s) in (0, REEL_MAX_SPEED]
    reel_projectile shape; // "shape": "box" (default) or "sphere"
    float size;            // "size": box edge or sphere diameter (unit: m); default 0.5
    float density;         // "density" (unit: kg/m^3); default 1000
} reel_throw;

typedef struct reel_action
{
    float time;            // "t": reel time into the segment (unit: s) in [0, duration]
    reel_action_kind kind; // "do"
    reel_throw throw_;     // throw
    scene_desc *spawn;     // spawn: a one-entry scene holding the generator (owned)
    float factor;          // slow_motion, replay: time scale in [REEL_MIN_TIME_SCALE, 1]
    float duration;        // slow_motion: reel seconds it lasts, > 0 (replay: the rest of the segment)
    float from;            // replay: reel time the history is replayed from, in [0, time)
    reel_view view;        // toggle_view
    bool on;               // toggle_view: "on" (default true)
    ph_vec3 pair[2];       // pick_pair: "a" and "b", points; the bodies nearest them (unit: m)
} reel_action;

typedef struct reel_keyframe
{
    float time;     // "t" (unit: s) in [0, duration], strictly increasing along the path
    ph_vec3 eye;    // camera position (unit: m)
    ph_vec3 target; // looked-at point (unit: m), != eye
} reel_keyframe;

typedef enum reel_scene_kind
{
    REEL_SCENE_FILE,  // a scenes/*.json file (joined against the reel file's folder)
    REEL_SCENE_RECIPE // a scene the game builds from src/recipes, by name
} reel_scene_kind;

typedef struct reel_segment
{
    char name[REEL_NAME_SIZE]; // "name", else the caption title
    reel_scene_kind scene_kind;
    char scene_path[PATH_MAX_LENGTH]; // REEL_SCENE_FILE: the file
    char recipe[REEL_NAME_SIZE];      // REEL_SCENE_RECIPE: the name
    scene_desc *scene;                // REEL_SCENE_FILE, when options.load_scenes (shared, see reel_free)
    float duration;                   // (unit: s) in (0, REEL_MAX_DURATION]
    char title[REEL_TITLE_SIZE];      // caption.title
    char line[REEL_LINE_SIZE];        // caption.line (may be "")
    bool views[REEL_VIEW_COUNT];      // "views": debug views on when the segment starts
    int keyframe_count;               // >= 1
    reel_keyframe keyframes[REEL_MAX_KEYFRAMES];
    int action_count;
    reel_action actions[REEL_MAX_ACTIONS]; // sorted by time (stable: equal times keep file order)
} reel_segment;

// A validated reel. reel_free() frees it with its scenes.
typedef struct reel_desc
{
    char file[PATH_MAX_LENGTH];
    char title[REEL_TITLE_SIZE]; // "title" (may be "")
    int segment_count;           // >= 1
    reel_segment *segments;
    float total_duration; // sum of the segments' durations (unit: s)
} reel_desc;

typedef struct reel_options
{
    // Parse every segment's scene file (and the models it names) at load, so that a reel with a bad
    // scene is rejected before playback; default true.
    bool load_scenes;
    // The recipe scenes the game can build, NULL-terminated; a segment's "scene" that is not a .json
    // file must be one of them. Default NULL (none).
    const char *const *recipe_names;
} reel_options;

reel_options reel_default_options(void);

// Reads, parses and validates the reel at path. On failure returns false, stores NULL and fills err
// ("scenes/reel.json: segments[1] (\"dominoes\"): camera[2].t: must be greater than ..."). A scene
// file's own error is given after the segment ("...: segments[0] (\"x\"): scenes/x.json: entries[2]...").
bool reel_load(const char *path, const reel_options *options, reel_desc **out_desc, asset_error *err);
// The same from memory; name is used in messages and scene paths are joined against its folder.
bool reel_parse(const char *buf, size_t len, const char *name, const reel_options *options,
                reel_desc **out_desc, asset_error *err);
void reel_free(reel_desc *desc);

// The camera of segment at reel time t (unit: s) into it: a cubic Hermite spline through the keyframes
// with Catmull-Rom tangents for uneven spacing and zero velocity at the first and last keyframe (so
// the camera eases in and out); before the first keyframe and after the last it holds still.
void reel_camera_at(const reel_segment *segment, float t, ph_vec3 *out_eye, ph_vec3 *out_target);

// The segment playing at reel time t (unit: s) from the start of the reel, and the time into it;
// t beyond the end gives the last segment at its end. Returns the segment index.
int reel_segment_at(const reel_desc *desc, float t, float *out_local_time);
