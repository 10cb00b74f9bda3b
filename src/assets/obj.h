// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Wavefront .obj (and .mtl) parsing into a plain obj_model: arrays of positions, colours, texture
// coordinates, normals, triangulated faces with per-corner indices, objects, groups, smoothing groups
// and materials. No GL and no physics: render/ and assets/model_physics.c consume the result.
#pragma once

#include "assets/asset_error.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t

// Bounds on absurd input. Exceeding one is a parse error naming the file and line, so memory stays
// bounded whatever the input.
#define OBJ_MAX_VERTICES (16 * 1024 * 1024)  // positions, uvs or normals, each
#define OBJ_MAX_TRIANGLES (32 * 1024 * 1024) // after triangulation
#define OBJ_MAX_LINE_LENGTH (256 * 1024)     // bytes in one logical line (continuations joined)
#define OBJ_MAX_FACE_CORNERS 4096            // vertices of one polygon
#define OBJ_MAX_NAMES 65536                  // objects + groups + materials
#define OBJ_MAX_NAME_LENGTH 255              // bytes; longer names are a parse error
#define OBJ_MAX_MATERIAL_FILES 16            // mtllib files per model
#define OBJ_MAX_MTL_BYTES (16 * 1024 * 1024) // a larger .mtl is skipped with a warning

// One corner of a triangle: indices into the model's arrays, -1 where the face gave none.
typedef struct obj_corner
{
    int position;
    int uv;
    int normal;
} obj_corner;

typedef struct obj_triangle
{
    obj_corner corner[3]; // counter-clockwise when the source polygon was
    int face;             // the source polygon (index among faces, in file order)
    int material;         // index into materials, -1 for none
    int smoothing;        // smoothing group from `s`, 0 for off
} obj_triangle;

// An `o` object or a `g` group: a contiguous run of faces (and of their triangles) in file order.
// A new run starts at every `o` and every `g` statement. Faces before the first `o` belong to an
// object named "" (created only when there are such faces); likewise for groups. Several runs may share
// a name (a group written in pieces). A file that writes each `g` after the faces it names is
// recognised (an object whose first run is unnamed with faces and whose last `g` names no faces): its
// runs then take the name and line of the `g` that follows them.
typedef struct obj_range
{
    const char *name; // never NULL
    int first_face;   // polygons [first_face, first_face + face_count)
    int face_count;
    int first_triangle; // triangles [first_triangle, first_triangle + triangle_count)
    int triangle_count;
    int object; // for a group: the object it sits in; for an object: its own index
    int line;   // line of the `o`/`g` statement (for an implicit one: of its first face)
} obj_range;

typedef struct obj_material
{
    const char *name;
    float diffuse[3]; // Kd, linear RGB in [0, 1]; default 0.8 0.8 0.8
    float opacity;    // d (or 1 - Tr); default 1
} obj_material;

// The parsed model. Every pointer points into one allocation owned by the model: obj_free() frees
// all of it. Arrays are packed: positions holds 3 floats per position, uvs 2 per uv, and so on.
typedef struct obj_model
{
    const char *name; // the file name it was loaded as
    int position_count;
    float *positions; // x y z
    float *colors;    // r g b per position when the file gave vertex colours (`v x y z r g b`), else NULL
    int uv_count;
    float *uvs; // u v
    int normal_count;
    float *normals; // x y z, as written (not renormalised)
    int face_count; // polygons as written
    int triangle_count;
    obj_triangle *triangles;
    int object_count;
    obj_range *objects;
    int group_count;
    obj_range *groups;
    int material_count;
    obj_material *materials;
    bool has_smoothing; // some `s` statement turned a nonzero smoothing group on
    int warning_count;  // all warnings, including the ones not kept
    int kept_warning_count;
    const char *
        *warnings; // "file:line: message" (a missing .mtl, an unknown material), at most ASSET_MAX_WARNINGS
} obj_model;

typedef struct obj_options
{
    bool load_materials; // read the files named by mtllib (joined against the .obj's folder); default true
    int max_vertices;    // default OBJ_MAX_VERTICES (the fuzzer lowers it)
    int max_triangles;   // default OBJ_MAX_TRIANGLES
} obj_options;

obj_options obj_default_options(void);

// Loads and parses the file at path (streamed in chunks, never read whole). On success returns true
// and stores a model that the caller frees with obj_free(). On failure returns false, stores NULL and
// fills *out_error (when not NULL) with "path:line: message". options may be NULL for the defaults.
bool obj_load(const char *path, const obj_options *options, obj_model **out_model, asset_error *out_error);

// The same from memory: buf holds len bytes (not necessarily NUL-terminated); name is used in messages
// and, when options->load_materials is set, its folder is where mtllib files are looked for.
bool obj_parse(const char *buf, size_t len, const char *name, const obj_options *options,
               obj_model **out_model, asset_error *out_error);

// Frees everything of the model. NULL is fine.
void obj_free(obj_model *model);

// A parsed .mtl file: materials (Kd, d, Tr; other statements skipped) in one allocation.
typedef struct mtl_library
{
    int material_count;
    obj_material *materials; // names point into the same allocation
} mtl_library;

// Parses .mtl text; name is used in messages. Used by the .obj loader for every mtllib file (a
// malformed or missing one becomes a warning there); public for tests and the fuzzer. On failure
// returns false, stores NULL and fills *out_error. Free with mtl_free().
bool mtl_parse(const char *buf, size_t len, const char *name, mtl_library **out_library,
               asset_error *out_error);
void mtl_free(mtl_library *library);
