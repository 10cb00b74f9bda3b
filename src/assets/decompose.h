// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Approximate convex decomposition of a closed triangle mesh: a concave solid (a bowl, a chair, a
// figure) cut by planes into at most a given number of pieces whose convex hulls stay close to the
// solid, so that a compound of those hulls collides like the solid. World-free and headless: the
// result is point clouds, one per piece, that model_physics.c turns into hulls of a compound.
#pragma once

#include "phys/collision.h" // ph_mass_properties
#include "phys/math.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t
#include <stdint.h>  // uint64_t

// Defaults of decompose_options.
#define DECOMPOSE_DEFAULT_MAX_PIECES 32
#define DECOMPOSE_DEFAULT_CONCAVITY 0.03f
#define DECOMPOSE_DEFAULT_RESOLUTION 48
// Largest settings accepted (bounds the work: cells grow as resolution^3).
#define DECOMPOSE_MAX_PIECES 256
#define DECOMPOSE_MAX_RESOLUTION 128

typedef struct decompose_options
{
    int max_pieces;  // most pieces, in [1, DECOMPOSE_MAX_PIECES]; default 32
    float concavity; // stop once the hulls exceed the solid's volume by at most this fraction of it;
                     // default 0.03
    int resolution;  // voxels along the longest side of the bounds, for the solid's volume in each
                     // piece, in [8, DECOMPOSE_MAX_RESOLUTION]; default 48
} decompose_options;

decompose_options decompose_default_options(void);

// The pieces: piece i's hull points are points[first[i], first[i] + count[i]) (at most
// PH_HULL_MAX_VERTICES - 1 each, so the engine builds their hulls without simplifying). One allocation:
// decompose_free() frees all.
typedef struct decompose_result
{
    int piece_count;
    int *first;
    int *count;
    ph_vec3 *points;
    float hull_volume;  // sum of the pieces' hull volumes (the pieces do not overlap) (unit: m^3)
    float solid_volume; // the solid's, by the divergence theorem (unit: m^3)
    // The mass properties of the surface as wound (ph_compute_polyhedron_mass at density 1: negative volume
    // when inside out), kept with the pieces so that a load from the cache need not weld and measure the
    // surface again.
    ph_mass_properties mesh_mass;
} decompose_result;

// Decomposes the closed, outward-wound surface of tri_count triangles (3 indices each into vertices).
// Returns NULL when the input is not usable (no positive volume, an index out of range) or out of
// memory; reason (when not NULL) then points to a static sentence saying which.
decompose_result *decompose_mesh(const ph_vec3 *vertices, int vertex_count, const int *tris, int tri_count,
                                 const decompose_options *options, const char **reason);
void decompose_free(decompose_result *result);

// ---- Cache -----------------------------------------------------------------------------------------
// A decomposition takes seconds for a large model, so it is kept in a file beside the model
// (model_physics.c: "<model>.obj.hulls"), under a key of everything it depends on: the vertices as
// given (scaled), the triangles, the options and the format's version. A file with another key, or one
// that is not a well-formed cache file, is simply not used.

// The key of a decomposition's input: decompose_key_start() over the options and the format's version, then
// decompose_key_add() over the bytes that determine the input, in order (model_physics.c: each triangle's
// scaled corners, so that a load from the cache reads the model's triangles once and welds nothing). A 64-bit
// hash of our own, a word at a time (multiply, rotate), not for adversarial input.
uint64_t decompose_key_start(const decompose_options *options);
uint64_t decompose_key_add(uint64_t key, const void *data, size_t bytes);
// The cached result for key in the file at path, or NULL (no file, another key, malformed).
decompose_result *decompose_cache_read(const char *path, uint64_t key);
// Writes result under key to path (through a temporary file renamed over it, so a reader never sees
// half a file). False when the file cannot be written.
bool decompose_cache_write(const char *path, uint64_t key, const decompose_result *result);
