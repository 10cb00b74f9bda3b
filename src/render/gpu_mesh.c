// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Builds the CPU-side meshes (unit box, sphere, cylinder; hulls and static meshes from the engine's
// geometry; user arrays from models) and uploads them into vertex array objects whose per-instance
// attributes read the renderer's instance buffer. OpenGL 3.3 has no base-instance draw, so the instance
// attribute pointers are re-pointed at the first instance of each draw (one cheap call per mesh).

#include "render/gpu_mesh.h"

#include <math.h>   // sinf, cosf, sqrtf, isfinite
#include <stddef.h> // offsetof
#include <stdlib.h> // malloc, calloc, free
#include <string.h> // memset

#define PI_F 3.14159265358979f
// Smallest triangle area whose flat normal is trusted (unit: mesh units^2).
#define MIN_TRIANGLE_AREA 1e-12f
// Largest vertex or index count of one mesh, a bound that keeps the byte sizes far from overflow.
#define MESH_MAX_ELEMENTS (16 * 1024 * 1024)

// Vertex attribute locations, the same numbers as the layout(location = N) in shaders/*.vert.
enum
{
    ATTR_POSITION = 0,
    ATTR_NORMAL = 1,
    ATTR_INSTANCE_POSITION = 2,
    ATTR_INSTANCE_SCALE = 3,
    ATTR_INSTANCE_ORIENTATION = 4,
    ATTR_INSTANCE_COLOR = 5,
    ATTR_COLOR = 6
};

static const uint8_t WHITE[4] = {255, 255, 255, 255};

static bool alloc_mesh(mesh_data *m, int vertex_count, int index_count)
{
    memset(m, 0, sizeof *m);
    if (vertex_count <= 0 || index_count <= 0 || vertex_count > MESH_MAX_ELEMENTS ||
        index_count > MESH_MAX_ELEMENTS)
        return false;
    m->vertices = calloc((size_t)vertex_count, sizeof *m->vertices);
    m->indices = calloc((size_t)index_count, sizeof *m->indices);
    if (!m->vertices || !m->indices)
    {
        mesh_data_free(m);
        return false;
    }
    m->vertex_count = vertex_count;
    m->index_count = index_count;
    return true;
}

static void set_vertex(gpu_vertex *v, vec3s p, vec3s n, const uint8_t color[4])
{
    v->position[0] = p.x;
    v->position[1] = p.y;
    v->position[2] = p.z;
    v->normal[0] = n.x;
    v->normal[1] = n.y;
    v->normal[2] = n.z;
    memcpy(v->color, color, 4);
}

void mesh_data_free(mesh_data *m)
{
    if (!m)
        return;
    free(m->vertices);
    free(m->indices);
    memset(m, 0, sizeof *m);
}

bool mesh_data_box(mesh_data *out)
{
    // Six faces of four vertices each (normals are per face), two triangles per face.
    if (!alloc_mesh(out, 24, 36))
        return false;
    for (int axis = 0; axis < 3; axis++)
    {
        for (int side = 0; side < 2; side++)
        {
            int face = axis * 2 + side;
            float sign = side ? -1.0f : 1.0f;
            vec3s n = glms_vec3_zero();
            n.raw[axis] = sign;
            // u, v span the face so that u x v = n (counter-clockwise seen from outside).
            vec3s u = glms_vec3_zero();
            vec3s v = glms_vec3_zero();
            u.raw[(axis + 1) % 3] = 1.0f;
            v.raw[(axis + 2) % 3] = sign;
            static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
            for (int c = 0; c < 4; c++)
            {
                vec3s p = glms_vec3_add(
                    n, glms_vec3_add(glms_vec3_scale(u, corners[c][0]), glms_vec3_scale(v, corners[c][1])));
                set_vertex(&out->vertices[face * 4 + c], p, n, WHITE);
            }
            static const int quad[6] = {0, 1, 2, 0, 2, 3};
            for (int i = 0; i < 6; i++)
                out->indices[face * 6 + i] = (uint32_t)(face * 4 + quad[i]);
        }
    }
    return true;
}

bool mesh_data_sphere(mesh_data *out, int slices, int stacks)
{
    if (slices < 3 || stacks < 2 || slices > 1024 || stacks > 1024)
        return false;
    int ring = slices + 1; // the seam vertex is duplicated so every quad is regular
    if (!alloc_mesh(out, ring * (stacks + 1), slices * stacks * 6))
        return false;
    for (int j = 0; j <= stacks; j++)
    {
        float theta = PI_F * (float)j / (float)stacks; // from the north pole (+y)
        for (int i = 0; i <= slices; i++)
        {
            float phi = 2.0f * PI_F * (float)i / (float)slices;
            vec3s p = {{sinf(theta) * cosf(phi), cosf(theta), -sinf(theta) * sinf(phi)}};
            set_vertex(&out->vertices[j * ring + i], p, p, WHITE);
        }
    }
    int k = 0;
    for (int j = 0; j < stacks; j++)
    {
        for (int i = 0; i < slices; i++)
        {
            uint32_t a = (uint32_t)(j * ring + i), b = a + 1, c = a + (uint32_t)ring, d = c + 1;
            // phi grows counter-clockwise seen from +y, so (a, c, d) faces outwards.
            out->indices[k++] = a;
            out->indices[k++] = c;
            out->indices[k++] = d;
            out->indices[k++] = a;
            out->indices[k++] = d;
            out->indices[k++] = b;
        }
    }
    return true;
}

bool mesh_data_cylinder(mesh_data *out, int slices)
{
    if (slices < 3 || slices > 1024)
        return false;
    int ring = slices + 1;
    // Side: two rings; caps: a centre plus a ring each (separate vertices for the sharp normals).
    int vertex_count = 2 * ring + 2 * (1 + ring);
    int index_count = slices * 6 + 2 * slices * 3;
    if (!alloc_mesh(out, vertex_count, index_count))
        return false;
    int v = 0, k = 0;
    for (int i = 0; i <= slices; i++)
    {
        float phi = 2.0f * PI_F * (float)i / (float)slices;
        vec3s n = {{cosf(phi), 0.0f, -sinf(phi)}};
        set_vertex(&out->vertices[v++], (vec3s){{n.x, 1.0f, n.z}}, n, WHITE);
        set_vertex(&out->vertices[v++], (vec3s){{n.x, -1.0f, n.z}}, n, WHITE);
    }
    for (int i = 0; i < slices; i++)
    {
        uint32_t top = (uint32_t)(2 * i), bottom = top + 1, top2 = top + 2, bottom2 = top + 3;
        out->indices[k++] = top;
        out->indices[k++] = bottom;
        out->indices[k++] = bottom2;
        out->indices[k++] = top;
        out->indices[k++] = bottom2;
        out->indices[k++] = top2;
    }
    for (int cap = 0; cap < 2; cap++)
    {
        float y = cap == 0 ? 1.0f : -1.0f;
        vec3s n = {{0.0f, y, 0.0f}};
        uint32_t centre = (uint32_t)v;
        set_vertex(&out->vertices[v++], n, n, WHITE);
        for (int i = 0; i <= slices; i++)
        {
            float phi = 2.0f * PI_F * (float)i / (float)slices;
            set_vertex(&out->vertices[v++], (vec3s){{cosf(phi), y, -sinf(phi)}}, n, WHITE);
        }
        for (int i = 0; i < slices; i++)
        {
            uint32_t a = centre + 1 + (uint32_t)i, b = a + 1;
            out->indices[k++] = centre;
            // Seen from +y the ring runs counter-clockwise; the bottom cap is seen from -y.
            out->indices[k++] = cap == 0 ? a : b;
            out->indices[k++] = cap == 0 ? b : a;
        }
    }
    return true;
}

bool mesh_data_hull(mesh_data *out, const ph_hull *hull)
{
    if (!hull || hull->face_count <= 0)
        return false;
    int vertex_count = 0, index_count = 0;
    for (int f = 0; f < hull->face_count; f++)
    {
        int n = hull->faces[f].index_count;
        if (n < 3)
            return false;
        vertex_count += n;
        index_count += (n - 2) * 3;
    }
    if (!alloc_mesh(out, vertex_count, index_count))
        return false;
    int v = 0, k = 0;
    for (int f = 0; f < hull->face_count; f++)
    {
        const ph_hull_face *face = &hull->faces[f];
        uint32_t first = (uint32_t)v;
        for (int i = 0; i < face->index_count; i++)
        {
            int vi = hull->face_indices[face->first_index + i];
            if (vi < 0 || vi >= hull->vertex_count)
            {
                mesh_data_free(out);
                return false;
            }
            set_vertex(&out->vertices[v++], hull->vertices[vi], face->normal, WHITE);
        }
        // Faces are convex polygons listed counter-clockwise from outside: a fan keeps the winding.
        for (int i = 1; i + 1 < face->index_count; i++)
        {
            out->indices[k++] = first;
            out->indices[k++] = first + (uint32_t)i;
            out->indices[k++] = first + (uint32_t)i + 1;
        }
    }
    return true;
}

static vec3s triangle_normal(vec3s a, vec3s b, vec3s c)
{
    vec3s n = glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a));
    float len = glms_vec3_norm(n);
    // A degenerate triangle gets an arbitrary up normal: it covers no pixels anyway.
    return len > MIN_TRIANGLE_AREA ? glms_vec3_scale(n, 1.0f / len) : (vec3s){{0.0f, 1.0f, 0.0f}};
}

static uint8_t unit_to_byte(float x)
{
    x = x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
    return (uint8_t)lrintf(x * 255.0f);
}

bool mesh_data_from_arrays(mesh_data *out, const float *positions, const float *normals, const float *colors,
                           int vertex_count, const uint32_t *indices, int index_count)
{
    memset(out, 0, sizeof *out);
    if (!positions || !indices || vertex_count <= 0 || index_count <= 0 || index_count % 3 != 0 ||
        vertex_count > MESH_MAX_ELEMENTS || index_count > MESH_MAX_ELEMENTS)
        return false;
    for (int i = 0; i < index_count; i++)
        if (indices[i] >= (uint32_t)vertex_count)
            return false;
    for (int i = 0; i < vertex_count * 3; i++)
        if (!isfinite(positions[i]) || (normals && !isfinite(normals[i])) || (colors && !isfinite(colors[i])))
            return false;
    // Flat normals need one vertex per triangle corner; given normals keep the shared vertices.
    bool flat = normals == NULL;
    if (!alloc_mesh(out, flat ? index_count : vertex_count, index_count))
        return false;
    if (flat)
    {
        for (int t = 0; t < index_count; t += 3)
        {
            vec3s p[3];
            for (int c = 0; c < 3; c++)
                p[c] = (vec3s){{positions[3 * indices[t + c]], positions[3 * indices[t + c] + 1],
                                positions[3 * indices[t + c] + 2]}};
            vec3s n = triangle_normal(p[0], p[1], p[2]);
            for (int c = 0; c < 3; c++)
            {
                uint32_t src = indices[t + c];
                uint8_t color[4] = {255, 255, 255, 255};
                if (colors)
                    for (int ch = 0; ch < 3; ch++)
                        color[ch] = unit_to_byte(colors[3 * src + (uint32_t)ch]);
                set_vertex(&out->vertices[t + c], p[c], n, color);
                out->indices[t + c] = (uint32_t)(t + c);
            }
        }
        return true;
    }
    for (int i = 0; i < vertex_count; i++)
    {
        vec3s p = {{positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]}};
        vec3s n = {{normals[3 * i], normals[3 * i + 1], normals[3 * i + 2]}};
        float len = glms_vec3_norm(n);
        n = len > 0.0f ? glms_vec3_scale(n, 1.0f / len) : (vec3s){{0.0f, 1.0f, 0.0f}};
        uint8_t color[4] = {255, 255, 255, 255};
        if (colors)
            for (int ch = 0; ch < 3; ch++)
                color[ch] = unit_to_byte(colors[3 * i + ch]);
        set_vertex(&out->vertices[i], p, n, color);
    }
    memcpy(out->indices, indices, (size_t)index_count * sizeof *indices);
    return true;
}

bool mesh_data_triangles(mesh_data *out, int tri_count, mesh_corner_fn *corner, const void *ctx)
{
    memset(out, 0, sizeof *out);
    if (!corner || tri_count <= 0 || tri_count > MESH_MAX_ELEMENTS / 6)
        return false;
    if (!alloc_mesh(out, tri_count * 6, tri_count * 6))
        return false;
    for (int t = 0; t < tri_count; t++)
    {
        vec3s p[3];
        for (int c = 0; c < 3; c++)
            p[c] = corner(t, c, ctx);
        vec3s n = triangle_normal(p[0], p[1], p[2]);
        // The front copy, then the back one: reversed corners, opposite normal.
        for (int c = 0; c < 3; c++)
        {
            set_vertex(&out->vertices[6 * t + c], p[c], n, WHITE);
            set_vertex(&out->vertices[6 * t + 3 + c], p[2 - c], glms_vec3_negate(n), WHITE);
        }
        for (int c = 0; c < 6; c++)
            out->indices[6 * t + c] = (uint32_t)(6 * t + c);
    }
    return true;
}

static void point_instance_attributes(GLuint instance_vbo, int first)
{
    glBindBuffer(GL_ARRAY_BUFFER, instance_vbo);
    size_t base = (size_t)first * sizeof(gpu_instance);
    GLsizei stride = (GLsizei)sizeof(gpu_instance);
    glVertexAttribPointer(ATTR_INSTANCE_POSITION, 3, GL_FLOAT, GL_FALSE, stride,
                          (const void *)(base + offsetof(gpu_instance, position)));
    glVertexAttribPointer(ATTR_INSTANCE_SCALE, 3, GL_FLOAT, GL_FALSE, stride,
                          (const void *)(base + offsetof(gpu_instance, scale)));
    glVertexAttribPointer(ATTR_INSTANCE_ORIENTATION, 4, GL_FLOAT, GL_FALSE, stride,
                          (const void *)(base + offsetof(gpu_instance, orientation)));
    glVertexAttribPointer(ATTR_INSTANCE_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                          (const void *)(base + offsetof(gpu_instance, color)));
}

bool gpu_mesh_create(gpu_mesh *out, const mesh_data *data, GLuint instance_vbo)
{
    memset(out, 0, sizeof *out);
    if (!data || !data->vertices || !data->indices || data->vertex_count <= 0 || data->index_count <= 0)
        return false;
    float radius_sq = 0.0f;
    for (int i = 0; i < data->vertex_count; i++)
    {
        const float *p = data->vertices[i].position;
        float d = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
        radius_sq = d > radius_sq ? d : radius_sq;
    }
    out->radius = sqrtf(radius_sq);
    glGenVertexArrays(1, &out->vao);
    glGenBuffers(1, &out->vbo);
    glGenBuffers(1, &out->ebo);
    glBindVertexArray(out->vao);
    glBindBuffer(GL_ARRAY_BUFFER, out->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)data->vertex_count * sizeof(gpu_vertex)),
                 data->vertices, GL_STATIC_DRAW);
    GLsizei stride = (GLsizei)sizeof(gpu_vertex);
    glEnableVertexAttribArray(ATTR_POSITION);
    glVertexAttribPointer(ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, stride,
                          (const void *)offsetof(gpu_vertex, position));
    glEnableVertexAttribArray(ATTR_NORMAL);
    glVertexAttribPointer(ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, stride,
                          (const void *)offsetof(gpu_vertex, normal));
    glEnableVertexAttribArray(ATTR_COLOR);
    glVertexAttribPointer(ATTR_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                          (const void *)offsetof(gpu_vertex, color));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, out->ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)data->index_count * sizeof(uint32_t)),
                 data->indices, GL_STATIC_DRAW);
    static const GLuint instance_attributes[] = {ATTR_INSTANCE_POSITION, ATTR_INSTANCE_SCALE,
                                                 ATTR_INSTANCE_ORIENTATION, ATTR_INSTANCE_COLOR};
    for (size_t i = 0; i < sizeof instance_attributes / sizeof instance_attributes[0]; i++)
    {
        glEnableVertexAttribArray(instance_attributes[i]);
        glVertexAttribDivisor(instance_attributes[i], 1);
    }
    point_instance_attributes(instance_vbo, 0);
    glBindVertexArray(0);
    out->index_count = data->index_count;
    out->vertex_count = data->vertex_count;
    return true;
}

void gpu_mesh_free(gpu_mesh *m)
{
    if (!m || !m->vao)
        return;
    glDeleteVertexArrays(1, &m->vao);
    glDeleteBuffers(1, &m->vbo);
    glDeleteBuffers(1, &m->ebo);
    memset(m, 0, sizeof *m);
}

void gpu_mesh_draw_instanced(const gpu_mesh *m, GLuint instance_vbo, int first, int count)
{
    if (!m || !m->vao || count <= 0)
        return;
    glBindVertexArray(m->vao);
    point_instance_attributes(instance_vbo, first);
    glDrawElementsInstanced(GL_TRIANGLES, m->index_count, GL_UNSIGNED_INT, NULL, count);
}
