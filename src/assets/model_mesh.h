// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The render side of a model: plain arrays of positions, unit normals, colours and triangle indices,
// ready for render/gpu_mesh.c to upload (no GL here). Normals missing from the file are computed from
// the faces, shared across smoothing groups when the file has them, else across edges whose faces
// meet at less than a crease angle. Colours come from vertex colours, else the material's Kd.
#pragma once

#include "assets/obj.h"

#include <stdbool.h> // bool
#include <stdint.h>  // uint32_t

// Faces that meet at less than this angle share a smooth normal when the file has no smoothing
// groups (unit: rad; 40 degrees keeps a cube faceted and a sphere smooth).
#define MODEL_MESH_DEFAULT_CREASE_ANGLE 0.6981317f
// Colour of faces without vertex colours or material (linear RGB).
#define MODEL_MESH_DEFAULT_GREY 0.8f

// A triangle list. One allocation: model_mesh_free() frees all.
typedef struct model_mesh
{
    int vertex_count;
    float *positions; // 3 per vertex: (model position * scale) - origin (unit: m)
    float *normals;   // 3 per vertex, unit length
    float *colors;    // 3 per vertex, linear RGB in [0, 1]
    int index_count;  // 3 per triangle
    uint32_t *indices;
    bool two_sided; // the range is not a closed surface (walls of one side, an open box): every triangle
                    // comes twice, the second reversed with its own vertices of flipped normals, so
                    // back-face culling draws it from both sides
    float bounds_lo[3], bounds_hi[3]; // of positions
} model_mesh;

typedef struct model_mesh_options
{
    float scale[3];     // multiplies model coordinates first (non-uniform is fine); default 1 1 1
    float origin[3];    // then subtracted: the body's origin in scaled model coordinates; default 0
    float crease_angle; // see MODEL_MESH_DEFAULT_CREASE_ANGLE (unit: rad)
    int first_triangle; // the triangles of the model to use, e.g. one object's range; default 0
    int triangle_count; // -1 for all from first_triangle; default -1
} model_mesh_options;

model_mesh_options model_mesh_default_options(void);

// Builds the render mesh of (a range of) the model. NULL when out of memory or the range is empty or
// out of bounds. Vertices are shared where position, normal and colour agree.
model_mesh *model_mesh_build(const obj_model *model, const model_mesh_options *options);
void model_mesh_free(model_mesh *mesh);

// True when triangles [first, first + count) of the model form closed surfaces: with positions of equal
// coordinates welded, every edge is crossed as often in one direction as in the other (each edge of a
// closed, consistently wound surface has exactly one twin). Triangles with a repeated corner are
// ignored. False for an empty or invalid range, or when out of memory.
bool model_mesh_is_closed(const obj_model *model, int first, int count);
