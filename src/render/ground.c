// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The ground: a square of GROUND_HALF_SIZE under the camera (or the scene's floor top face), cut each frame
// into cells on the CPU. A software rasteriser runs every instruction of a shader for every fragment, both
// sides of a branch included, so a shadow lookup that ends in "outside the map: lit" costs as much as one
// that finds a shadow. The cells in the shadow map's footprint are drawn with the shadowed grid program and
// the others, most of the visible ground in a small scene, with a program that has no lookup at all. Both
// compute the same colour where the map holds no shadow, so the seam between them does not show.

#include "render/renderer.h"
#include "render/renderer_internal.h"

#include <math.h>   // fabsf, isfinite
#include <stdlib.h> // qsort

// Half size of the ground square drawn under the camera (unit: m); the haze hides its edge.
#define GROUND_HALF_SIZE 500.0f
// Depth offset of the ground plane towards the camera (glPolygonOffset factor, units), see
// render_ground_draw.
#define GROUND_OFFSET_FACTOR (-1.0f)
#define GROUND_OFFSET_UNITS (-4.0f)
// Below this sine of the sun's elevation the footprint of the shadow map on the ground is unbounded in
// practice (unit: 1): the whole ground is drawn with the shadow lookup.
#define MIN_SUN_SINE 0.05f

// Scene colours, linear RGB.
static const vec3s GROUND_COLOR = {{0.30f, 0.31f, 0.30f}};
static const vec3s GRID_LINE_COLOR = {{0.10f, 0.11f, 0.12f}};

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

// The cut positions along one axis: the regular grid over c - h .. c + h, the footprint's edges, all
// clamped to lo..hi, sorted, without repeats. Returns their count (at most GROUND_LINES_MAX).
static int axis_lines(float c, float h, float lo, float hi, const float *fp, float *out)
{
    float a = fmaxf(c - h, lo), b = fminf(c + h, hi);
    if (!(a < b))
        return 0;
    int n = 0;
    for (int i = 0; i <= GROUND_CELLS; i++)
    {
        float x = c + h * ((float)i / (float)GROUND_CELLS * 2.0f - 1.0f);
        out[n++] = fminf(fmaxf(x, a), b);
    }
    if (fp)
    {
        out[n++] = fminf(fmaxf(fp[0], a), b);
        out[n++] = fminf(fmaxf(fp[1], a), b);
    }
    qsort(out, (size_t)n, sizeof *out, compare_floats);
    int unique = 0;
    for (int i = 0; i < n; i++)
        if (unique == 0 || out[i] > out[unique - 1])
            out[unique++] = out[i];
    return unique;
}

void ground_mesh_build(ground_mesh *out, const float center[2], float half_size, const float lo[2],
                       const float hi[2], const float *fp_lo, const float *fp_hi)
{
    float xs[GROUND_LINES_MAX], zs[GROUND_LINES_MAX];
    float fx[2] = {fp_lo ? fp_lo[0] : 0.0f, fp_hi ? fp_hi[0] : 0.0f};
    float fz[2] = {fp_lo ? fp_lo[1] : 0.0f, fp_hi ? fp_hi[1] : 0.0f};
    bool footprint = fp_lo && fp_hi;
    int nx = axis_lines(center[0], half_size, lo[0], hi[0], footprint ? fx : NULL, xs);
    int nz = axis_lines(center[1], half_size, lo[1], hi[1], footprint ? fz : NULL, zs);
    out->vertex_count = 0;
    out->lit_count = out->plain_count = 0;
    if (nx < 2 || nz < 2)
        return;
    for (int j = 0; j < nz; j++)
    {
        for (int i = 0; i < nx; i++)
        {
            out->xz[j * nx + i][0] = xs[i];
            out->xz[j * nx + i][1] = zs[j];
        }
    }
    out->vertex_count = nx * nz;
    // Two passes over the cells: the lit ones first, so each program draws one range.
    int k = 0;
    for (int lit = 1; lit >= 0; lit--)
    {
        for (int j = 0; j + 1 < nz; j++)
        {
            for (int i = 0; i + 1 < nx; i++)
            {
                float mx = 0.5f * (xs[i] + xs[i + 1]), mz = 0.5f * (zs[j] + zs[j + 1]);
                bool inside = footprint && mx > fx[0] && mx < fx[1] && mz > fz[0] && mz < fz[1];
                if (inside != (lit == 1))
                    continue;
                uint32_t v00 = (uint32_t)(j * nx + i), v10 = v00 + 1, v01 = v00 + (uint32_t)nx, v11 = v01 + 1;
                uint32_t tri[6] = {v00, v01, v11, v00, v11, v10};
                for (int c = 0; c < 6; c++)
                    out->index[k++] = tri[c];
            }
        }
        if (lit == 1)
            out->lit_count = k;
    }
    out->plain_count = k - out->lit_count;
}

bool ground_shadow_footprint(mat4s light_view_proj, vec3s to_sun, float height, float out_lo[2],
                             float out_hi[2])
{
    if (!(to_sun.y > MIN_SUN_SINE))
        return false;
    // The light's projection is orthographic: a corner of the map at any depth casts onto the same
    // ground point along the sun direction.
    mat4s inv = glms_mat4_inv(light_view_proj);
    out_lo[0] = out_lo[1] = INFINITY;
    out_hi[0] = out_hi[1] = -INFINITY;
    for (int c = 0; c < 4; c++)
    {
        vec4s p = glms_mat4_mulv(inv, (vec4s){{(c & 1) ? 1.0f : -1.0f, (c & 2) ? 1.0f : -1.0f, 0.0f, 1.0f}});
        vec3s w = glms_vec3_scale((vec3s){{p.x, p.y, p.z}}, 1.0f / p.w);
        vec3s g = glms_vec3_sub(w, glms_vec3_scale(to_sun, (w.y - height) / to_sun.y));
        out_lo[0] = fminf(out_lo[0], g.x);
        out_lo[1] = fminf(out_lo[1], g.z);
        out_hi[0] = fmaxf(out_hi[0], g.x);
        out_hi[1] = fmaxf(out_hi[1], g.z);
    }
    return isfinite(out_lo[0]) && isfinite(out_lo[1]) && isfinite(out_hi[0]) && isfinite(out_hi[1]);
}

void render_ground_create(renderer *r)
{
    glGenVertexArrays(1, &r->ground_vao);
    glGenBuffers(1, &r->ground_vbo);
    glGenBuffers(1, &r->ground_ebo);
    glBindVertexArray(r->ground_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->ground_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof r->ground.xz, NULL, GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * (GLsizei)sizeof(float), NULL);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->ground_ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof r->ground.index, NULL, GL_STREAM_DRAW);
    glBindVertexArray(0);
}

static void draw_cells(renderer *r, const grid_program *g, vec3s to_sun, float normal_offset, float height,
                       int first, int count)
{
    if (count <= 0)
        return;
    glUseProgram(g->sp.id);
    render_set_lit_uniforms(r, &g->u, to_sun, normal_offset);
    glUniform1f(g->height, height);
    render_set_vec3(g->ground_color, GROUND_COLOR);
    render_set_vec3(g->line_color, GRID_LINE_COLOR);
    glDrawElements(GL_TRIANGLES, count, GL_UNSIGNED_INT, (const void *)((size_t)first * sizeof(uint32_t)));
    render_count_draw(r, RENDER_PASS_GROUND, count / 3);
}

void render_ground_draw(renderer *r, const render_options *opts, vec3s to_sun, bool shadows,
                        float normal_offset)
{
    float center[2] = {r->camera.eye.x, r->camera.eye.z};
    float lo[2] = {-INFINITY, -INFINITY}, hi[2] = {INFINITY, INFINITY};
    // A ground of finite size: the square under the camera is cut to its top face, so the grid ends where
    // the ground ends.
    if (opts->ground_bounded)
    {
        lo[0] = opts->ground_lo[0];
        lo[1] = opts->ground_lo[1];
        hi[0] = opts->ground_hi[0];
        hi[1] = opts->ground_hi[1];
    }
    float fp_lo[2] = {-INFINITY, -INFINITY}, fp_hi[2] = {INFINITY, INFINITY};
    if (shadows)
        ground_shadow_footprint(r->light_view_proj, to_sun, opts->ground_height, fp_lo, fp_hi);
    ground_mesh *m = &r->ground;
    ground_mesh_build(m, center, GROUND_HALF_SIZE, lo, hi, shadows ? fp_lo : NULL, shadows ? fp_hi : NULL);
    if (m->vertex_count == 0)
        return;
    glBindVertexArray(r->ground_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->ground_vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)m->vertex_count * sizeof m->xz[0]), m->xz);
    glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, 0,
                    (GLsizeiptr)((size_t)(m->lit_count + m->plain_count) * sizeof m->index[0]), m->index);
    // Seen from below, the ground is still drawn (a camera can dip under it). Pulled slightly towards the
    // camera, it wins the depth test against a coplanar ground body's top face (a scene's static floor
    // slab), so the grid shows on it instead of fighting it.
    glDisable(GL_CULL_FACE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(GROUND_OFFSET_FACTOR, GROUND_OFFSET_UNITS);
    glDepthFunc(GL_LEQUAL);
    draw_cells(r, &r->grid_prog[1], to_sun, normal_offset, opts->ground_height, 0, m->lit_count);
    draw_cells(r, &r->grid_prog[0], to_sun, normal_offset, opts->ground_height, m->lit_count, m->plain_count);
    glDepthFunc(GL_LESS);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glEnable(GL_CULL_FACE);
}
