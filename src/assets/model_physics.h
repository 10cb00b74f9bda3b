// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// From an obj_model to bodies in a ph_world, through the public engine API only: the convex hull of a
// model (dynamic default), a compound of the hulls of its `o`/`g` parts, or a static triangle mesh;
// and .obj scenes, where every `o` object becomes its own body. Each body comes with its render mesh
// (model_mesh.h) so the game can draw it with the body's transform.
//
// Conventions of an .obj scene (also in the README): an object whose name starts with "static" or
// "ground" is static (a triangle mesh when concave, a hull when convex); "compound_" makes a dynamic
// compound of its `g` parts; any other object is a dynamic convex hull, unless it is (nearly) flat,
// which makes it static with a warning naming it. Bodies are placed where their vertices are, with the
// body origin at the centre of mass. A file with no object named static/ground gets a default ground:
// a static box whose top is at the lowest point of the scene (or y = 0 when everything is above it).
#pragma once

#include "assets/asset_error.h"
#include "assets/decompose.h"
#include "assets/model_mesh.h"
#include "assets/obj.h"

#include "phys/phys.h"

#include <stdbool.h> // bool

// How a model collides.
typedef enum model_shape_kind
{
    MODEL_SHAPE_HULL,     // convex hull of all vertices (dynamic default)
    MODEL_SHAPE_COMPOUND, // one convex hull per part (model_shape_options.split)
    MODEL_SHAPE_MESH,     // static concave triangle mesh (static bodies only)
    MODEL_SHAPE_DECOMPOSE // compound of the pieces of a convex decomposition of its closed surface
                          // (decompose.h); an open surface becomes its hull, with a warning
} model_shape_kind;

// How a compound is split into convex parts (scene entries: "split").
typedef enum model_split
{
    MODEL_SPLIT_GROUP,   // by `g` group (runs of one name together), by `o` object when that gives one part
    MODEL_SPLIT_OBJECT,  // by `o` object
    MODEL_SPLIT_MATERIAL // by usemtl material
} model_split;

// An object is flat (and cannot be a dynamic body) when its thinnest extent is below this fraction
// of its largest extent.
#define MODEL_FLAT_RATIO 1e-2f

typedef struct model_shape_options
{
    model_shape_kind kind; // default MODEL_SHAPE_HULL
    float scale[3];        // multiplies model coordinates; default 1 1 1
    int first_triangle;    // triangles of the model to use (an object's range); default 0
    int triangle_count;    // -1 for all; default -1
    int vertex_budget;     // hull vertices at most; default PH_HULL_MAX_VERTICES (the exact hull of
                           // most models: a smaller budget simplifies it and may cut vertices off)
    float density;         // (unit: kg/m^3) for the mass properties; default 1000
    model_split split;     // the parts of a compound; default MODEL_SPLIT_GROUP
    // MODEL_SHAPE_DECOMPOSE: most pieces, tolerance; default decompose_default_options().
    decompose_options decompose;
    // MODEL_SHAPE_DECOMPOSE: reuse the pieces kept in "<model file>.hulls" when they were made from the
    // same input (scaled points, options), else make them and keep them there (a folder that cannot be
    // written to means no cache); default false (scene entries turn it on).
    bool cache;
} model_shape_options;

model_shape_options model_default_shape_options(void);

// The collision shape of a model, built in a world.
typedef struct model_shape
{
    ph_shape shape;          // hull, compound or mesh geometry of the world
    ph_vec3 origin;          // the shape frame's origin in scaled model coordinates: the centre of mass
                             // for hulls and compounds, (0 0 0) for meshes (unit: m)
    ph_mass_properties mass; // at options.density, about origin (zero for meshes)
    bool mass_from_mesh;     // mass (and origin) are the closed mesh's, not the hulls': a dynamic body
                             // takes them as ph_body_def.mass_properties
} model_shape;

// Builds the geometry of the model (or its triangle range) in world. Where the range is a closed
// surface (model_mesh_is_closed) enclosing a positive volume, the mass properties are the solid's
// (exact polyhedral integrals), concave or not, and the origin is its centre of mass; otherwise those
// of the hull (or of the compound's hulls). On failure returns false and
// fills err: degenerate (flat) points for a hull, no triangles, engine errors. Parts of a compound
// that are flat are skipped with a warning in warnings (may be NULL).
bool model_physics_build_shape(ph_world *world, const obj_model *model, const model_shape_options *options,
                               model_shape *out, asset_warnings *warnings, asset_error *err);

// A body made from a model, with what the game needs to draw it.
typedef struct model_body
{
    ph_body_id body;
    model_mesh *mesh; // in the body's frame (owned by the model_set); NULL: draw the body's shape
    float color[3];   // tint, linear RGB (multiplies mesh colours)
    char name[64];    // the `o` name or the scene entry's name
} model_body;

// The bodies made by one load (a model, an .obj scene, a JSON scene). Free with model_set_free(), which
// frees the meshes but leaves the bodies in the world.
typedef struct model_set
{
    int body_count;
    int body_capacity;
    model_body *bodies;
} model_set;

void model_set_free(model_set *set);
// Appends a body (mesh ownership passes to the set). False when out of memory (the mesh is freed).
bool model_set_add(model_set *set, ph_body_id body, model_mesh *mesh, const float color[3], const char *name);

typedef struct model_body_options
{
    model_shape_options shape; // kind, scale, range, density (shape.density is overwritten by material)
    ph_body_type type;         // default PH_BODY_DYNAMIC (MODEL_SHAPE_MESH forces static)
    ph_vec3 position;          // where the model's own origin (0 0 0 of the file) goes (unit: m)
    ph_quat orientation;       // default identity
    ph_vec3 linear_velocity;   // (unit: m/s) default 0
    ph_vec3 angular_velocity;  // (unit: rad/s) default 0
    ph_material material;      // default ph_default_material()
    float color[3];            // tint; default 1 1 1
    const char *name;          // for messages and the set; default the model's file name
} model_body_options;

model_body_options model_default_body_options(void);

// Makes one body from the model: its shape, mass properties from material.density, its render mesh.
// Appends it to out. False on failure, with err filled (nothing is added to the set).
bool model_physics_add_body(ph_world *world, const obj_model *model, const model_body_options *options,
                            model_set *out, asset_warnings *warnings, asset_error *err);

typedef struct model_scene_options
{
    float scale;          // uniform scale of the whole file; default 1
    ph_vec3 offset;       // added to every position (unit: m); default 0
    ph_material material; // of every body; default ph_default_material()
    bool default_ground;  // add the default ground when no object is named static/ground; default true
} model_scene_options;

model_scene_options model_default_scene_options(void);

// Turns every object of an .obj scene into a body (see the conventions above) and appends them to
// out. Objects without faces are skipped with a warning. On failure no body is left in the world
// (the ones made are destroyed), false is returned and err filled.
bool model_physics_add_scene(ph_world *world, const obj_model *model, const model_scene_options *options,
                             model_set *out, asset_warnings *warnings, asset_error *err);
