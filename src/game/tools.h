// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The player's tools on a level: throwing a projectile along a ray with a charged speed, grabbing a body
// with a damped spring to a point that follows the pointer in the plane facing the camera, spawning
// layouts at the pointer and deleting the body under it. Rays come from the camera; the game turns
// SDL input into these calls, and the demo reel can call them too. No SDL and no GL.
#pragma once

#include "game/level.h"

#include "phys/phys.h"

#include <stdbool.h> // bool

// Throw speeds: a click throws at the minimum, holding charges linearly to the maximum (unit: m/s, s).
// A click's speed carries a box 40 m on flat ground (v^2 / g), past everything a scene's camera frames.
#define TOOLS_MIN_THROW_SPEED 20.0f
#define TOOLS_MAX_THROW_SPEED 100.0f
#define TOOLS_CHARGE_SECONDS 1.5f
// The projectiles' size when the player has not chosen one (unit: m).
#define TOOLS_DEFAULT_SIZE 0.6f

typedef enum tools_projectile
{
    TOOLS_PROJECTILE_BOX,
    TOOLS_PROJECTILE_SPHERE,
    TOOLS_PROJECTILE_CAPSULE, // as long as two sizes, one size thick
    TOOLS_PROJECTILE_MODEL,
    TOOLS_PROJECTILE_COUNT
} tools_projectile;

typedef struct tools
{
    tools_projectile projectile;
    float size;            // box edge, sphere and capsule diameter, a model's largest extent (unit: m); 0:
                           // TOOLS_DEFAULT_SIZE, and a model as its file has it
    bool custom_material;  // the player chose the projectiles' material (the panel), else steel
    ph_material material;  // that material
    ph_geom_id model_geom; // hull of the loaded model (null: none loaded)
    // Where the model's surface is closed, its solid's mass properties at a density of 1 kg/m^3 about the
    // hull's origin (its centre of mass): a thrown model weighs what the solid does (times the throw's
    // density), as a model in a scene does, not what its hull would.
    bool model_mass_from_mesh;
    ph_mass_properties model_mass;
    int model_mesh; // its render mesh, -1 when none
    bool charging;
    float charge_seconds; // how long the button has been held (unit: s)
    bool grabbing;
    ph_body_id grabbed;
    ph_vec3 grab_local;  // grabbed point in the body's frame (unit: m)
    ph_vec3 grab_target; // where the spring pulls it (unit: m)
    ph_vec3 grab_normal; // the drag plane: normal (towards the camera at grab time)
    float grab_plane_d;  // and offset, n . x = d (unit: m)
    float grab_spin;     // the rotate key's turn of the held body about the vertical (unit: rad/s)
} tools;

// How fast the rotate key turns a held body (unit: rad/s; a quarter turn a second).
#define TOOLS_GRAB_SPIN_SPEED 1.5707963f

void tools_init(tools *t);
const char *tools_projectile_name(tools_projectile p);
void tools_next_projectile(tools *t);

// One thrown body: what the player's throw and the demo reel's "throw" action both make.
typedef struct tools_throw_def
{
    tools_projectile projectile; // box, sphere, or the loaded model (a box when none is loaded)
    ph_vec3 position;            // start of the body's centre (unit: m)
    ph_vec3 direction;           // unit (used as given: the velocity is direction * speed)
    float speed;                 // (unit: m/s)
    float size;          // box edge, sphere or capsule diameter (unit: m); a model is made at its size
                         // before (app_prepare_projectile_model)
    float density;       // (unit: kg/m^3)
    bool custom_surface; // friction and restitution below, else the engine's defaults
    float friction, restitution;
} tools_throw_def;

// The player's throw from a camera ray: the current projectile, starting a metre along the ray (clear of
// the near plane), at speed, with the player's size and material (steel's density by default).
tools_throw_def tools_default_throw(const tools *t, ph_vec3 origin, ph_vec3 dir, float speed);

// Throwing: begin on press, advance while held, release throws along (origin, dir) and returns the body.
void tools_begin_charge(tools *t);
void tools_update_charge(tools *t, float dt_seconds);
float tools_charge_speed(const tools *t);
// The player's throw along a camera ray at speed: it starts a metre along the ray and is aimed up, on
// the lower of the two arcs, so that it falls onto the point the ray meets (a body, else the ground's
// plane); along the ray itself when that point is out of reach at this speed or there is none.
void tools_aim(const level *lv, ph_vec3 origin, ph_vec3 dir, float speed, ph_vec3 *out_start,
               ph_vec3 *out_dir);
// The path of a body thrown from start at velocity: up to capacity points, TOOLS_TRAJECTORY_STEP apart
// in time, ending where it first meets a body or after TOOLS_TRAJECTORY_SECONDS. Returns the count.
#define TOOLS_TRAJECTORY_STEP (1.0f / 30.0f)
#define TOOLS_TRAJECTORY_SECONDS 4.0f
int tools_trajectory(const level *lv, ph_vec3 start, ph_vec3 velocity, ph_vec3 *out_points, int capacity);
ph_body_id tools_throw(tools *t, level *lv, ph_vec3 origin, ph_vec3 dir, char *err, size_t err_size);
// Creates the body of def in the level (tagged as a projectile, or a model). Returns it, or a null id
// with a message in err; a model projectile without a loaded model throws a box and says so in err.
ph_body_id tools_throw_body(const tools *t, level *lv, const tools_throw_def *def, char *err,
                            size_t err_size);

// Grabbing: begin picks the dynamic body under the ray (false when none), move follows the pointer's ray,
// apply adds the spring force before each physics step, end lets go.
bool tools_grab_begin(tools *t, level *lv, ph_vec3 origin, ph_vec3 dir, ph_vec3 camera_forward);
void tools_grab_move(tools *t, ph_vec3 origin, ph_vec3 dir);
void tools_grab_apply(tools *t, level *lv);
void tools_grab_end(tools *t);
// The wheel while holding: pushes the held body away from the eye (clicks > 0) or pulls it nearer, by a
// tenth of its distance a click (the drag plane moves; the pointer keeps steering it across the screen).
void tools_grab_push(tools *t, float clicks, ph_vec3 eye);

// The closest body along the ray within reach, null when none.
ph_body_id tools_pick(const level *lv, ph_vec3 origin, ph_vec3 dir, ph_vec3 *out_point);
// Where a layout spawned along the ray goes: where the ray meets a body (or else the ground's plane),
// lifted by level_place_layout so that it lands on top of what is there. False with a message.
bool tools_spawn_place(level *lv, level_layout layout, ph_vec3 origin, ph_vec3 dir, vec3s *out_base,
                       char *err, size_t err_size);
// Spawns a layout at tools_spawn_place's base. False with a message.
bool tools_spawn_at(level *lv, level_layout layout, ph_vec3 origin, ph_vec3 dir, char *err, size_t err_size);
