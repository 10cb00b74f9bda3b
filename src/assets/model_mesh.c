// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Render meshes from an obj_model (model_mesh.h): scaled, re-centred positions, unit normals (the
// file's, else computed) and colours, with vertices shared where all three agree. Computed normals are
// weighted averages of the unit face normals around a vertex, restricted to the
// faces of the same smoothing group or, without smoothing groups, to faces within the crease angle.
// Face normals are weighted by the face's angle at the vertex (Thuermer and Wuethrich, "Computing
// vertex normals from polygonal facets", JGT 1998): unlike area weights, the result does not depend
// on how a polygon was split into triangles, so a cube corner gets exactly (1, 1, 1) / sqrt(3).
#include "assets/model_mesh.h"

#include <math.h>   // sqrtf, cosf, atan2f
#include <stdint.h> // int64_t, INT32_MAX, uint64_t
#include <stdlib.h> // malloc, calloc, free, qsort
#include <string.h> // memcpy, memcmp, memset

// Normal of a triangle without area (all corners on a line), so that shading stays finite.
#define MODEL_MESH_FALLBACK_NORMAL_Y 1.0f

model_mesh_options model_mesh_default_options(void)
{
    model_mesh_options o;
    for (int k = 0; k < 3; k++)
    {
        o.scale[k] = 1.0f;
        o.origin[k] = 0.0f;
    }
    o.crease_angle = MODEL_MESH_DEFAULT_CREASE_ANGLE;
    o.first_triangle = 0;
    o.triangle_count = -1;
    return o;
}

// Open-addressing hash map from a model position index to a local index (positions used by the range),
// so the work stays proportional to the range, not to the whole model.
typedef struct index_map
{
    int *keys; // -1 for empty
    int *values;
    unsigned mask;
} index_map;

static unsigned hash_u32(uint32_t x)
{
    // A 32-bit integer mixer (Wang/Jenkins style): spreads consecutive indices over the table.
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static bool map_init(index_map *map, int entries)
{
    unsigned size = 16;
    while (size < 2u * (unsigned)entries)
        size *= 2;
    map->mask = size - 1;
    map->keys = malloc(size * sizeof(int));
    map->values = malloc(size * sizeof(int));
    if (!map->keys || !map->values)
        return false;
    memset(map->keys, 0xff, size * sizeof(int));
    return true;
}

// Returns the local index of key, inserting it as next_value when new (and then bumping *count).
static int map_get(index_map *map, int key, int *count)
{
    unsigned h = hash_u32((uint32_t)key) & map->mask;
    while (map->keys[h] != -1)
    {
        if (map->keys[h] == key)
            return map->values[h];
        h = (h + 1) & map->mask;
    }
    map->keys[h] = key;
    map->values[h] = (*count)++;
    return map->values[h];
}

static void map_free(index_map *map)
{
    free(map->keys);
    free(map->values);
}

static void normalize3(float *v)
{
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0.0f && isfinite(len))
    {
        v[0] /= len;
        v[1] /= len;
        v[2] /= len;
    }
    else
    {
        v[0] = 0.0f;
        v[1] = MODEL_MESH_FALLBACK_NORMAL_Y;
        v[2] = 0.0f;
    }
}

// A vertex of the output, compared bitwise when sharing.
typedef struct mesh_vertex
{
    float p[3], n[3], c[3];
} mesh_vertex;

static unsigned hash_vertex(const mesh_vertex *v)
{
    uint32_t words[9];
    memcpy(words, v, sizeof words);
    unsigned h = 2166136261u;
    for (int i = 0; i < 9; i++)
        h = hash_u32(h ^ words[i]);
    return h;
}

// The file's normal of a corner, scaled (normals transform with the inverse transpose of the scale)
// into out when not NULL. False when the corner has none, or a zero or non-finite one.
static bool file_normal(const obj_model *model, const obj_corner *corner, const float scale[3], float *out)
{
    if (corner->normal < 0 || corner->normal >= model->normal_count)
        return false;
    const float *fn = model->normals + 3 * corner->normal;
    float n[3];
    for (int k = 0; k < 3; k++)
        n[k] = scale[k] != 0.0f ? fn[k] / scale[k] : 0.0f;
    float len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if (out)
        memcpy(out, n, sizeof n);
    return len2 > 0.0f && isfinite(len2);
}

model_mesh *model_mesh_build(const obj_model *model, const model_mesh_options *options)
{
    model_mesh_options opt = options ? *options : model_mesh_default_options();
    if (!model || opt.first_triangle < 0 || opt.first_triangle > model->triangle_count)
        return NULL;
    int count = opt.triangle_count < 0 ? model->triangle_count - opt.first_triangle : opt.triangle_count;
    if (count <= 0 || count > model->triangle_count - opt.first_triangle)
        return NULL;
    const obj_triangle *tris = model->triangles + opt.first_triangle;
    int corners = 3 * count;

    // Local positions and, per local position, the triangles around it (compressed rows).
    index_map pmap = {0}, vmap = {0};
    int local_count = 0;
    int *corner_local = malloc((size_t)corners * sizeof(int));
    int *offsets = NULL, *incident = NULL, *fill = NULL;
    float *face_n = malloc((size_t)count * 3 * sizeof(float)); // unit face normals
    float *angle = malloc((size_t)corners * sizeof(float));    // each corner's interior angle (unit: rad)
    float *local_p = NULL;
    mesh_vertex *verts = malloc((size_t)corners * sizeof(mesh_vertex));
    uint32_t *indices = malloc((size_t)corners * sizeof(uint32_t));
    model_mesh *mesh = NULL;
    bool ok = corner_local && face_n && angle && verts && indices && map_init(&pmap, corners) &&
              map_init(&vmap, corners);
    if (!ok)
        goto done;
    for (int i = 0; i < corners; i++)
        corner_local[i] = map_get(&pmap, tris[i / 3].corner[i % 3].position, &local_count);
    local_p = malloc((size_t)local_count * 3 * sizeof(float));
    offsets = calloc((size_t)local_count + 1, sizeof(int));
    incident = malloc((size_t)corners * sizeof(int));
    fill = calloc((size_t)local_count, sizeof(int));
    if (!local_p || !offsets || !incident || !fill)
        goto done;
    for (int i = 0; i < corners; i++)
    {
        const float *src = model->positions + 3 * tris[i / 3].corner[i % 3].position;
        float *dst = local_p + 3 * corner_local[i];
        for (int k = 0; k < 3; k++)
            dst[k] = src[k] * opt.scale[k] - opt.origin[k];
        offsets[corner_local[i] + 1]++;
    }
    for (int i = 0; i < local_count; i++)
        offsets[i + 1] += offsets[i];
    for (int i = 0; i < corners; i++)
        incident[offsets[corner_local[i]] + fill[corner_local[i]]++] = i;
    // Face normals and corner angles are only needed when some corner has no usable normal of its own.
    bool need_normals = false;
    for (int i = 0; i < corners && !need_normals; i++)
        need_normals = !file_normal(model, &tris[i / 3].corner[i % 3], opt.scale, NULL);
    for (int t = 0; need_normals && t < count; t++)
    {
        const float *a = local_p + 3 * corner_local[3 * t];
        const float *b = local_p + 3 * corner_local[3 * t + 1];
        const float *c = local_p + 3 * corner_local[3 * t + 2];
        float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        float *n = face_n + 3 * t;
        n[0] = u[1] * v[2] - u[2] * v[1];
        n[1] = u[2] * v[0] - u[0] * v[2];
        n[2] = u[0] * v[1] - u[1] * v[0];
        normalize3(n);
        for (int k = 0; k < 3; k++)
        {
            const float *p = local_p + 3 * corner_local[3 * t + k];
            const float *q = local_p + 3 * corner_local[3 * t + (k + 1) % 3];
            const float *r = local_p + 3 * corner_local[3 * t + (k + 2) % 3];
            float e1[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
            float e2[3] = {r[0] - p[0], r[1] - p[1], r[2] - p[2]};
            float cx = e1[1] * e2[2] - e1[2] * e2[1], cy = e1[2] * e2[0] - e1[0] * e2[2];
            float cz = e1[0] * e2[1] - e1[1] * e2[0];
            // atan2 of |cross| and dot: accurate for angles near 0 and pi, unlike acos.
            angle[3 * t + k] =
                atan2f(sqrtf(cx * cx + cy * cy + cz * cz), e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2]);
        }
    }

    float cos_crease = cosf(opt.crease_angle);
    int vertex_count = 0;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < corners; i++)
    {
        int t = i / 3;
        const obj_triangle *tri = &tris[t];
        const obj_corner *corner = &tri->corner[i % 3];
        mesh_vertex v;
        memcpy(v.p, local_p + 3 * corner_local[i], sizeof v.p);
        if (!file_normal(model, corner, opt.scale, v.n))
        {
            const float *own = face_n + 3 * t;
            bool flat = model->has_smoothing && tri->smoothing == 0;
            v.n[0] = v.n[1] = v.n[2] = 0.0f;
            int l = corner_local[i];
            for (int k = offsets[l]; k < offsets[l + 1] && !flat; k++)
            {
                int s = incident[k] / 3;
                const float *fn = face_n + 3 * s;
                bool share;
                if (model->has_smoothing)
                    share = tris[s].smoothing == tri->smoothing;
                else
                    share = s == t || fn[0] * own[0] + fn[1] * own[1] + fn[2] * own[2] >= cos_crease;
                if (share)
                    for (int c = 0; c < 3; c++)
                        v.n[c] += angle[incident[k]] * fn[c];
            }
            if (flat)
                memcpy(v.n, own, sizeof v.n);
        }
        normalize3(v.n);
        if (model->colors)
            memcpy(v.c, model->colors + 3 * corner->position, sizeof v.c);
        else if (tri->material >= 0 && tri->material < model->material_count)
            memcpy(v.c, model->materials[tri->material].diffuse, sizeof v.c);
        else
            v.c[0] = v.c[1] = v.c[2] = MODEL_MESH_DEFAULT_GREY;

        // Share the vertex with an identical earlier one.
        unsigned h = hash_vertex(&v) & vmap.mask;
        int found = -1;
        while (vmap.keys[h] != -1)
        {
            if (memcmp(&verts[vmap.keys[h]], &v, sizeof v) == 0)
            {
                found = vmap.keys[h];
                break;
            }
            h = (h + 1) & vmap.mask;
        }
        if (found < 0)
        {
            found = vertex_count++;
            verts[found] = v;
            vmap.keys[h] = found;
            for (int k = 0; k < 3; k++)
            {
                lo[k] = fminf(lo[k], v.p[k]);
                hi[k] = fmaxf(hi[k], v.p[k]);
            }
        }
        indices[i] = (uint32_t)found;
    }

    // An open surface is seen from behind too: its back copy doubles the vertices and the triangles.
    bool two_sided = !model_mesh_is_closed(model, opt.first_triangle, count);
    int copies = two_sided ? 2 : 1;
    if ((int64_t)vertex_count * copies > INT32_MAX / 3 || (int64_t)corners * copies > INT32_MAX)
        goto done;

    // One allocation: the struct, then positions, normals, colours, indices.
    size_t head = (sizeof(model_mesh) + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    size_t floats = (size_t)vertex_count * 3 * (size_t)copies;
    mesh = malloc(head + 3 * floats * sizeof(float) + (size_t)corners * (size_t)copies * sizeof(uint32_t));
    if (!mesh)
        goto done;
    mesh->vertex_count = vertex_count * copies;
    mesh->positions = (float *)((char *)mesh + head);
    mesh->normals = mesh->positions + floats;
    mesh->colors = mesh->normals + floats;
    mesh->index_count = corners * copies;
    mesh->indices = (uint32_t *)(mesh->colors + floats);
    mesh->two_sided = two_sided;
    for (int i = 0; i < vertex_count * copies; i++)
    {
        const mesh_vertex *v = &verts[i % vertex_count];
        float sign = i < vertex_count ? 1.0f : -1.0f;
        memcpy(mesh->positions + 3 * i, v->p, sizeof v->p);
        for (int k = 0; k < 3; k++)
            mesh->normals[3 * i + k] = sign * v->n[k];
        memcpy(mesh->colors + 3 * i, v->c, sizeof v->c);
    }
    memcpy(mesh->indices, indices, (size_t)corners * sizeof(uint32_t));
    for (int i = 0; two_sided && i < corners; i += 3)
    {
        // The back copy: corners 0, 2, 1 (reversed winding) of the flipped vertices.
        uint32_t *dst = mesh->indices + corners + i;
        dst[0] = indices[i] + (uint32_t)vertex_count;
        dst[1] = indices[i + 2] + (uint32_t)vertex_count;
        dst[2] = indices[i + 1] + (uint32_t)vertex_count;
    }
    memcpy(mesh->bounds_lo, lo, sizeof lo);
    memcpy(mesh->bounds_hi, hi, sizeof hi);

done:
    free(corner_local);
    free(face_n);
    free(angle);
    free(local_p);
    free(offsets);
    free(incident);
    free(fill);
    free(verts);
    free(indices);
    map_free(&pmap);
    map_free(&vmap);
    return mesh;
}

void model_mesh_free(model_mesh *mesh)
{
    free(mesh);
}

// A directed edge between welded positions, keyed by its ends in increasing order; sign +1 when it
// runs from the smaller to the larger.
typedef struct edge_key
{
    uint64_t ends;
    int sign;
} edge_key;

static int compare_edge(const void *a, const void *b)
{
    uint64_t x = ((const edge_key *)a)->ends, y = ((const edge_key *)b)->ends;
    return (x > y) - (x < y);
}

// Sorts the n edges by their ends in linear time: a counting sort by the larger end, then a stable one by
// the smaller (both are position indices below positions). qsort's comparisons were a third of a
// decomposed model's load from its cache (216,000 edges for 72,000 triangles). Falls back to qsort when
// out of memory.
static void sort_edges(edge_key *edges, int n, int positions)
{
    edge_key *tmp = malloc((size_t)n * sizeof *tmp);
    int *start = malloc(((size_t)positions + 1) * sizeof(int));
    if (!tmp || !start)
    {
        free(tmp);
        free(start);
        qsort(edges, (size_t)n, sizeof *edges, compare_edge);
        return;
    }
    for (int pass = 0; pass < 2; pass++)
    {
        const edge_key *from = pass == 0 ? edges : tmp;
        edge_key *to = pass == 0 ? tmp : edges;
        int shift = pass == 0 ? 0 : 32;
        memset(start, 0, ((size_t)positions + 1) * sizeof(int));
        for (int i = 0; i < n; i++)
            start[(uint32_t)(from[i].ends >> shift) + 1]++;
        for (int v = 0; v < positions; v++)
            start[v + 1] += start[v];
        for (int i = 0; i < n; i++)
            to[start[(uint32_t)(from[i].ends >> shift)]++] = from[i];
    }
    free(tmp);
    free(start);
}

static bool same_position(const float *a, const float *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

bool model_mesh_is_closed(const obj_model *model, int first, int count)
{
    if (!model || first < 0 || count <= 0 || count > model->triangle_count - first)
        return false;
    const obj_triangle *tris = model->triangles + first;
    int corners = 3 * count;
    // Weld: the first position of the range with the same coordinates (bitwise) stands for all of them,
    // since exporters repeat positions along seams of texture coordinates or normals.
    index_map welded = {0};
    int *canon = malloc((size_t)corners * sizeof(int));
    edge_key *edges = malloc((size_t)corners * sizeof(edge_key));
    bool closed = false;
    if (!canon || !edges || !map_init(&welded, corners))
        goto done;
    for (int i = 0; i < corners; i++)
    {
        int pos = tris[i / 3].corner[i % 3].position;
        uint32_t words[3];
        memcpy(words, model->positions + 3 * pos, sizeof words);
        for (int k = 0; k < 3; k++)
            words[k] = words[k] == 0x80000000u ? 0u : words[k]; // -0 is 0
        unsigned h = hash_u32(hash_u32(hash_u32(words[0]) ^ words[1]) ^ words[2]) & welded.mask;
        while (welded.keys[h] != -1 &&
               !same_position(model->positions + 3 * welded.keys[h], model->positions + 3 * pos))
            h = (h + 1) & welded.mask;
        if (welded.keys[h] == -1)
            welded.keys[h] = pos;
        canon[i] = welded.keys[h];
    }
    int n = 0;
    for (int t = 0; t < count; t++)
        for (int k = 0; k < 3; k++)
        {
            int a = canon[3 * t + k], b = canon[3 * t + (k + 1) % 3];
            if (a == b)
                continue;
            uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
            edges[n].ends = (uint64_t)lo << 32 | hi;
            edges[n].sign = a < b ? 1 : -1;
            n++;
        }
    sort_edges(edges, n, model->position_count);
    closed = n > 0;
    for (int i = 0; i < n && closed;)
    {
        int j = i, sum = 0;
        while (j < n && edges[j].ends == edges[i].ends)
            sum += edges[j++].sign;
        closed = sum == 0;
        i = j;
    }
done:
    free(canon);
    free(edges);
    map_free(&welded);
    return closed;
}
