// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Meshes on the GPU and their instanced draws. A gpu_mesh is one vertex array object with interleaved
// position, normal and colour (attributes 0, 1 and 6) and 32-bit indices; the per-instance attributes (2..5)
// come from a buffer the renderer fills each frame and are bound at draw time with a base offset, so every
// mesh is drawn with one glDrawElementsInstanced per pass. The CPU-side builders make the built-in unit
// shapes and turn hulls into flat-shaded triangle lists.
#pragma once

#include "phys/collision.h"

#include <glad/gl.h> // GLuint
#include <stdbool.h> // bool
#include <stdint.h>  // uint32_t

// Per-instance data as the vertex shaders read it (attributes 2..5), 44 bytes. The model transform is
// x_world = position + rotate(orientation, scale * x_mesh); normals use rotate(q, n / scale) so that
// non-uniform scale keeps them correct without a per-instance inverse matrix.
typedef struct gpu_instance
{
    float position[3];    // attribute 2 (unit: m)
    float scale[3];       // attribute 3: per-axis scale of the mesh
    float orientation[4]; // attribute 4: unit quaternion x, y, z, w
    uint8_t color[4];     // attribute 5: r, g, b, a as normalised bytes (linear colour)
} gpu_instance;

// One vertex: 28 bytes. The colour multiplies the instance colour (white for the built-in shapes; a
// model's per-vertex or material colour otherwise), linear RGB as normalised bytes.
typedef struct gpu_vertex
{
    float position[3]; // attribute 0 (unit: mesh units, metres for world geometry)
    float normal[3];   // attribute 1, unit length
    uint8_t color[4];  // attribute 6
} gpu_vertex;

typedef struct gpu_mesh
{
    GLuint vao;
    GLuint vbo; // gpu_vertex array
    GLuint ebo;
    int index_count;
    int vertex_count;
    float radius; // largest distance of a vertex from the origin (unit: mesh units), for shadow fitting
} gpu_mesh;

// A mesh on the CPU: vertices and triangle indices. Owned arrays (free with mesh_data_free).
typedef struct mesh_data
{
    gpu_vertex *vertices;
    int vertex_count;
    uint32_t *indices;
    int index_count;
} mesh_data;

bool mesh_data_box(mesh_data *out);                            // [-1, 1]^3, 24 vertices
bool mesh_data_sphere(mesh_data *out, int slices, int stacks); // radius 1, UV sphere
bool mesh_data_cylinder(mesh_data *out, int slices);           // radius 1, y in [-1, 1], capped
bool mesh_data_hull(mesh_data *out, const ph_hull *hull);      // flat faces, fan-triangulated
// From user arrays (see renderer_add_mesh); normals NULL gives flat normals, colors (linear RGB, 3 floats
// per vertex) NULL gives white. False on invalid input (index out of range, count not a multiple of 3,
// NaN).
bool mesh_data_from_arrays(mesh_data *out, const float *positions, const float *normals, const float *colors,
                           int vertex_count, const uint32_t *indices, int index_count);
// A triangle list as flat-shaded triangles: tri_count triangles from corner(i, c, ctx) (triangle i,
// corner c in 0..2, counter-clockwise seen from the front), each also turned the other way, since a
// static mesh is a surface that may be seen from either side (walls of one side, a terrain's underside).
// Used for static meshes (world_view.c).
typedef vec3s mesh_corner_fn(int triangle, int corner, const void *ctx);
bool mesh_data_triangles(mesh_data *out, int tri_count, mesh_corner_fn *corner, const void *ctx);
void mesh_data_free(mesh_data *m);

// Uploads data and sets up the vertex array with the instance attributes reading from instance_vbo.
bool gpu_mesh_create(gpu_mesh *out, const mesh_data *data, GLuint instance_vbo);
void gpu_mesh_free(gpu_mesh *m);
// Draws count instances starting at instance index first of instance_vbo (the buffer given at creation;
// its attribute pointers are moved to first, since GL 3.3 has no base-instance draw).
void gpu_mesh_draw_instanced(const gpu_mesh *m, GLuint instance_vbo, int first, int count);
