// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The level: one ph_world with what the game keeps per body (colour, render mesh, tag, the pose of the
// previous physics step for interpolation), built from a scene source: a built-in scene made from
// src/recipes, a JSON scene (assets/scene.h) or an .obj model or .obj scene (assets/model_physics.h).
// Spawning layouts at a point and the per-body bookkeeping for bodies made later (projectiles, spawns)
// live here too, so tools and the reel share them. No SDL; the renderer is optional (NULL headless).
#pragma once

#include "render/renderer.h"

#include "phys/phys.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t
#include <stdint.h>  // uint32_t, uint8_t

// What a body is, for colours, tests and the report.
typedef enum level_tag
{
    LEVEL_TAG_NONE,
    LEVEL_TAG_GROUND, // the static ground (drawn as the renderer's ground plane)
    LEVEL_TAG_SCENE,  // made by a scene file entry
    LEVEL_TAG_BOX,    // a single box of a built-in scene
    LEVEL_TAG_TOWER,
    LEVEL_TAG_PYRAMID,
    LEVEL_TAG_WALL,
    LEVEL_TAG_DOMINOES,
    LEVEL_TAG_RAIN,
    LEVEL_TAG_PROJECTILE,
    LEVEL_TAG_MODEL,
    LEVEL_TAG_RAGDOLL,
    LEVEL_TAG_CHAIN, // a wrecking ball on a chain and its gantry
    LEVEL_TAG_BRIDGE,
    LEVEL_TAG_SWING,
    LEVEL_TAG_CRADLE,
    LEVEL_TAG_COUNT
} level_tag;

const char *level_tag_name(level_tag tag);

// Layouts the player (and the reel) can spawn at a point.
typedef enum level_layout
{
    LEVEL_LAYOUT_TOWER,
    LEVEL_LAYOUT_PYRAMID,
    LEVEL_LAYOUT_WALL,
    LEVEL_LAYOUT_DOMINOES,
    LEVEL_LAYOUT_RAIN,
    LEVEL_LAYOUT_RAGDOLL, // jointed layouts (recipes.h): a ragdoll standing at the point
    LEVEL_LAYOUT_CHAIN,   // a gantry with a wrecking ball on a chain, let go level
    LEVEL_LAYOUT_BRIDGE,  // a rope bridge of hinged planks between two posts
    LEVEL_LAYOUT_SWING,   // a swing on two ropes, pushed
    LEVEL_LAYOUT_CRADLE,  // a Newton's cradle, its first ball lifted
    LEVEL_LAYOUT_COUNT
} level_layout;

const char *level_layout_name(level_layout layout);

// Built-in scenes (selected by name; files are loaded by path).
typedef enum level_builtin
{
    LEVEL_BUILTIN_DEFAULT, // ground, a tower and a pyramid
    LEVEL_BUILTIN_FIRST,   // ground and one cube (the first window)
    LEVEL_BUILTIN_BOXES,   // ground and N boxes raining into a pile (frame-time measurements)
    LEVEL_BUILTIN_COUNT
} level_builtin;

// "default", "first", "boxes".
const char *level_builtin_name(level_builtin which);

// Colour of static scenery without a colour of its own (sRGB 0xRRGGBBAA).
#define LEVEL_STATIC_RGBA 0x8a8d91ffu
// A static box floor whose top is this close to y = 0 is taken for the ground plane (unit: m).
#define LEVEL_GROUND_PLANE_TOLERANCE 1e-4f
// The ground is the widest static box (no render mesh of its own) at least this wide on both horizontal
// half axes and at most this fraction of that as thick (unit: m; ratio).
#define LEVEL_GROUND_MIN_HALF_WIDTH 2.0f
#define LEVEL_GROUND_MAX_THICKNESS_RATIO 0.5f
// Dynamic bodies whose centre falls this far below the lowest static body (below y = 0 when there is
// none) are removed from the world and counted (unit: m).
#define LEVEL_FALL_DEPTH 50.0f

// Per-body game state, indexed by the body's slot (id.index1 - 1).
typedef struct level_body
{
    ph_body_id id;      // null when the slot is not known to the game
    ph_transform prev;  // pose at the start of the last step (interpolation)
    ph_vec3 start;      // position when the game first saw the body (its creation) (unit: m)
    int contact_points; // contact points it had in its last awake step (level_update_contacts)
    uint32_t rgba;      // sRGB colour 0xRRGGBBAA
    int mesh;           // render mesh handle of a model, -1 to draw the physics shape
    uint8_t tag;        // level_tag
    bool frozen;        // made static in place by the player (F), who may unfreeze it
} level_body;

struct obj_model;  // assets/obj.h
struct scene_desc; // assets/scene.h

typedef struct level
{
    ph_world *world;
    char name[256];     // shown on the HUD
    level_body *bodies; // by slot
    int body_capacity;
    ph_body_id *scratch; // ph_world_get_bodies buffer
    int scratch_capacity;
    int *meshes; // renderer meshes this level added (freed on unload)
    int mesh_count, mesh_capacity;
    vec3s camera_eye, camera_target;
    float camera_fov; // (unit: degrees)
    uint32_t seed;
    int spawn_counter;         // varies colours of successive spawns
    char warning[700];         // the first warning of loading, "" when none (shown on the HUD)
    bool has_ground;           // a static box floor was found (level_update_ground)
    ph_aabb ground;            // its bounds; its top face is ground.hi.y (unit: m)
    float fall_limit_y;        // dynamic bodies below this height are removed (unit: m)
    int removed_count;         // bodies removed below fall_limit_y since the level was loaded
    int contact_count;         // contact points, sleeping bodies' included (level_update_contacts)
    ph_contact_info *contacts; // ph_world_get_contacts buffer: the last step's awake contacts
    int contacts_listed;       // how many of them it holds
    int contacts_capacity;
    struct obj_model *model; // the .obj a file level was made from (owned; the game may take it)
    // The player's material for spawned layouts (the panel), else each layout's own.
    bool spawn_material_set;
    ph_material spawn_material;
    ph_body_id highlight; // drawn brightened (the held body), null: none
} level;

// Creates the world of a built-in scene. box_count is used by LEVEL_BUILTIN_BOXES. On failure returns
// false with a message in err and leaves lv empty.
bool level_load_builtin(level *lv, level_builtin which, int box_count, uint32_t seed, char *err,
                        size_t err_size);
// Loads a .json scene or an .obj model / .obj scene. r may be NULL (headless: no render meshes).
bool level_load_file(level *lv, const char *path, renderer *r, uint32_t seed, char *err, size_t err_size);
// Builds a level from a scene already parsed (assets/scene.h): its world, camera and bodies. desc stays
// the caller's. False with a message, lv left empty.
bool level_load_scene(level *lv, const struct scene_desc *desc, renderer *r, uint32_t seed, char *err,
                      size_t err_size);
// Adds the bodies of every entry of desc to the level's world (the reel's spawn action); gravity and
// time step stay the level's. False with a message (the bodies of the failed entry are not made).
bool level_add_scene(level *lv, const struct scene_desc *desc, renderer *r, char *err, size_t err_size);
// Builds a named scene of src/recipes (recipe_scene_names(): pile1000, restitution_ladder, spinner, ...)
// with its gravity, time step and sleeping. Dynamic bodies are coloured from blue (restitution 0) to red
// (restitution 1), so bouncier bodies can be told apart. False with a message, lv left empty.
bool level_load_recipe(level *lv, const char *name, uint32_t seed, char *err, size_t err_size);
// Makes a model throwable in the level's world: its convex hull as world geometry in *out_geom and, when
// *inout_mesh is -1 and r is given, its render mesh about the hull's centre of mass (the body origin) in
// *inout_mesh, both scaled so that the model's largest extent is size (unit: m; 0: as the file has it).
// False with a message on failure.
// *out_from_mesh tells whether *out_mass holds the solid's mass properties (a closed surface) at a density
// of 1 kg/m^3, about the hull's origin.
bool level_model_projectile(level *lv, const struct obj_model *model, renderer *r, float size,
                            ph_geom_id *out_geom, ph_mass_properties *out_mass, bool *out_from_mesh,
                            int *inout_mesh, char *err, size_t err_size);
// Destroys the world and frees the renderer meshes of the level (r may be NULL).
void level_unload(level *lv, renderer *r);

// Finds the ground (the widest static floor box, tagged LEVEL_TAG_GROUND) and the height below which
// fallen bodies are removed. The loaders call it; call it again after adding static bodies.
void level_update_ground(level *lv);
// Removes the dynamic bodies below fall_limit_y (lost past the ground's edge); returns how many, which
// are added to removed_count.
int level_remove_fallen(level *lv);

// Counts the contact points of the last step into contact_count, those of sleeping bodies included: the
// engine lists only the contacts of awake bodies, so each body keeps the count of its last awake step
// (a point goes to the dynamic body of its pair, to the first when both are), which holds while it
// sleeps since nothing of it moves. Call after each ph_world_step.
void level_update_contacts(level *lv);

// Records every body's current pose as the previous one (call before each ph_world_step).
void level_begin_step(level *lv);
// Gives bodies the level does not know yet (made since the last call) a tag and a colour.
void level_adopt_new_bodies(level *lv, level_tag tag);
// The body's bookkeeping, or NULL for a stale or unknown id.
level_body *level_get_body(level *lv, ph_body_id id);
// The pose between the previous step (alpha 0) and the current one (alpha 1).
ph_transform level_interpolate(const level *lv, ph_body_id id, float alpha);
// Live body ids (valid until bodies are made or destroyed); *out_count gets the number.
const ph_body_id *level_list_bodies(level *lv, int *out_count);

// N boxes raining into a pile around the origin (the frame-time measurements' scene).
bool level_spawn_boxes(level *lv, int count, char *err, size_t err_size);
// Spawns a layout with its base centred at base (unit: m). False with a message on failure.
bool level_spawn_layout(level *lv, level_layout layout, vec3s base, char *err, size_t err_size);
// Where a layout asked for at point goes so that none of its blocks starts inside a body: lifted onto
// the highest surface of a static mesh under its footprint and above the bounds of every other body its
// blocks would overlap. *out_base is the base to give level_spawn_layout. False for no world or a bad
// point (then *out_base = point).
bool level_place_layout(level *lv, level_layout layout, vec3s point, vec3s *out_base);
// How far boxes (world bounds, unit: m) must rise so that none overlaps a body's bounds and none starts
// below a static mesh's surface under them; the placing rule of level_place_layout (at most 200 m).
float level_clear_lift(level *lv, const ph_aabb *boxes, int count);
// Adds the bodies of an .obj file (see assets/model_physics.h; no default ground) to the level, scaled by
// scale (> 0; 1: as its file has it), the bottom centre of its bounds at point, lifted by
// level_clear_lift. *out_model gets the parsed model (the caller's, for the projectile). False with a
// message.
bool level_add_model_file(level *lv, const char *path, renderer *r, vec3s point, float scale,
                          struct obj_model **out_model, char *err, size_t err_size);
// Draws the outlines of the blocks a layout would make at base (the spawn preview) as renderer lines.
void level_draw_layout(const level *lv, renderer *r, level_layout layout, vec3s base);
// Sub-steps of the worlds made from now on (the panel's slider), 0: the engine's default; and the number in
// use. The engine reads them when a world is made, so the game makes the world again to change them.
void level_set_world_substeps(int substeps);
int level_world_substeps(void);
// Threads the worlds step on: the processors online, at most 8 (level.c says why).
int level_world_workers(void);
// For the level's own files: starts an empty level around a new world (false with a message), and
// copies a message into err.
bool level_begin_world(level *lv, const ph_world_def *def, uint32_t seed, char *err, size_t err_size);
void level_set_error(char *err, size_t err_size, const char *text);
// Records a renderer mesh the level made, so level_unload removes it. False when out of memory.
bool level_track_mesh(level *lv, int mesh);

// Submits every visible body, interpolated by alpha, with its colour (and model mesh, unless shapes: then
// every body is drawn as its collision shape, so a model's hull, compound or decomposition can be seen).
int level_submit(level *lv, renderer *r, float alpha, bool tint_sleeping, bool shapes);
