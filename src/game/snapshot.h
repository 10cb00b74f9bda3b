// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// A copy of bodies as they are (shape and its geometry, pose, velocities, sleep, material, mass, the game's
// colour, mesh and tag) and of the joints that hold them, made again later: in the same world (undo and
// redo, freezing a body) or in a new one (a save file, a world made again with other sub-steps). The engine
// has no setter for a body's type or material and reads sub-steps at world creation, so these are how the
// game changes them. No SDL, no GL.
#pragma once

#include "game/level.h"

#include "phys/phys.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t

typedef struct snapshot_child
{
    ph_shape_type type; // BOX, SPHERE, CAPSULE or HULL
    ph_vec3 half_extents;
    float radius, half_height;
    int first_point, point_count; // HULL: its vertices among the geometry's points
    ph_transform local;
} snapshot_child;

typedef struct snapshot_geom
{
    ph_geom_id id;      // in the world it was taken from
    ph_shape_type type; // HULL, COMPOUND or MESH
    ph_vec3 *points;    // hull: its vertices; compound: its hulls' vertices; mesh: 3 per triangle
    int point_count;
    snapshot_child *children; // compound
    int child_count;
} snapshot_geom;

typedef struct snapshot_body
{
    ph_body_id id; // in the world it was taken from
    ph_body_type type;
    ph_shape shape; // a geometry shape's geom is the old world's; geom below indexes the snapshot's copy
    int geom;       // -1 for a primitive
    ph_vec3 position;
    ph_quat orientation;
    ph_vec3 linear_velocity, angular_velocity;
    ph_vec3 spin;  // the angular velocity the world carries (ph_body_get_carried_spin)
    bool has_spin; // a save written before spin was kept has none
    bool awake;
    ph_material material;
    ph_mass_properties mass; // moving bodies: mass, centre in the shape frame, inertia in its axes
    ph_vec3 center;          // and the centre in the world
    uint32_t rgba;           // the game's: colour, render mesh (-1: the shape), tag, where it was made
    int mesh;
    int tag;
    ph_vec3 start;
    bool frozen; // made static by the player (who may unfreeze it)
} snapshot_body;

typedef struct snapshot_joint
{
    ph_joint_def def; // its body ids are the old world's
    int a, b; // its ends among the snapshot's bodies, -1: def's id as it is (the world, or a body not in it)
} snapshot_joint;

typedef struct snapshot
{
    ph_vec3 gravity;
    float time_step;
    float last_substep; // the world's (ph_world_get_last_substep): what its spinning bodies carry
    snapshot_body *bodies;
    int body_count;
    snapshot_geom *geoms;
    int geom_count;
    snapshot_joint *joints;
    int joint_count;
} snapshot;

// Copies the bodies ids[0..count) (ids NULL: every body of the level, in slot order) and every joint with
// an end among them. False when out of memory (s is then empty).
bool snapshot_take(snapshot *s, level *lv, const ph_body_id *ids, int count);
// Makes the bodies and joints again in the level's world. new_geometry: the world is another one, so
// hulls, compounds and meshes are built from the copied points (else the old geometry ids are used).
// keep_slots (a world with no bodies yet): every body gets the slot it had, so that ph_world_hash is
// the same as the old world's. out_ids (may be NULL) gets each body's new id. False with a message; the
// bodies made before the failure stay. Joints the engine refuses now are left out and said in err, with
// true returned (err is left as it was otherwise).
bool snapshot_restore(const snapshot *s, level *lv, bool new_geometry, bool keep_slots, ph_body_id *out_ids,
                      char *err, size_t err_size);
void snapshot_free(snapshot *s);
// Makes the level's world again, body for body and slot for slot (the same ph_world_hash), with the worlds'
// current settings (level_set_world_substeps). Every body id changes. False with a message, lv unchanged.
bool snapshot_remake_world(level *lv, renderer *r, char *err, size_t err_size);
// Replaces every old id in the snapshot's bodies and joints by its new one (undo history after a body was
// made again).
void snapshot_rename(snapshot *s, ph_body_id old_id, ph_body_id new_id);
