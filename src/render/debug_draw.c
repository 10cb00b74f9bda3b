// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Debug lines and points: collected per frame (renderer_line, renderer_point; the engine's debug views
// arrive through world_view.c) and drawn after the scene, once with the depth test and, in the x-ray
// view, once more faintly through the geometry.

#include "render/renderer.h"
#include "render/renderer_internal.h"

// Alpha multiplier of the see-through pass of the x-ray view.
#define XRAY_ALPHA 0.3f
// Largest point size asked of GL (unit: px); llvmpipe's limit is far above it.
#define MAX_POINT_SIZE 32.0f

static void set_line_vertex(line_vertex *v, vec3s p, uint32_t rgba, float size)
{
    v->position[0] = p.x;
    v->position[1] = p.y;
    v->position[2] = p.z;
    render_rgba_bytes(rgba, v->color);
    v->size = size;
}

void renderer_line(renderer *r, vec3s a, vec3s b, uint32_t rgba)
{
    if (!r || !glms_vec3_isvalid(a) || !glms_vec3_isvalid(b) || !RENDER_PUSH_ROOM(r->lines, 2))
        return;
    set_line_vertex(&r->lines.data[r->lines.count++], a, rgba, 1.0f);
    set_line_vertex(&r->lines.data[r->lines.count++], b, rgba, 1.0f);
}

void renderer_point(renderer *r, vec3s p, float size_px, uint32_t rgba)
{
    if (!r || !glms_vec3_isvalid(p) || !RENDER_PUSH_ROOM(r->points, 1))
        return;
    float size = size_px < 1.0f ? 1.0f : (size_px > MAX_POINT_SIZE ? MAX_POINT_SIZE : size_px);
    set_line_vertex(&r->points.data[r->points.count++], p, rgba, size);
}

void render_lines_draw(renderer *r, bool xray, float point_scale)
{
    int total = r->lines.count + r->points.count;
    if (total == 0)
        return;
    glBindBuffer(GL_ARRAY_BUFFER, r->lines_vbo);
    if (!xray)
    {
        // One upload per frame: lines first, then points.
        if (total > r->lines_vbo_capacity)
        {
            int cap = r->lines_vbo_capacity > 0 ? r->lines_vbo_capacity : 4096;
            while (cap < total)
                cap *= 2;
            r->lines_vbo_capacity = cap;
        }
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->lines_vbo_capacity * sizeof(line_vertex)), NULL,
                     GL_STREAM_DRAW);
        if (r->lines.count > 0)
            glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)r->lines.count * sizeof(line_vertex)),
                            r->lines.data);
        if (r->points.count > 0)
            glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)((size_t)r->lines.count * sizeof(line_vertex)),
                            (GLsizeiptr)((size_t)r->points.count * sizeof(line_vertex)), r->points.data);
    }
    glUseProgram(r->lines_prog.sp.id);
    glUniformMatrix4fv(r->lines_prog.view_proj, 1, GL_FALSE, r->view_proj.raw[0]);
    glUniform1f(r->lines_prog.alpha_scale, xray ? XRAY_ALPHA : 1.0f);
    glUniform1f(r->lines_prog.point_scale, point_scale);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    if (xray)
        glDisable(GL_DEPTH_TEST);
    else
        glDepthFunc(GL_LEQUAL); // lines lying on faces (bounds, contacts) win the depth tie
    glBindVertexArray(r->lines_vao);
    if (r->lines.count > 0)
    {
        glDrawArrays(GL_LINES, 0, r->lines.count);
        render_count_draw(r, RENDER_PASS_LINES, 0);
    }
    if (r->points.count > 0)
    {
        glDrawArrays(GL_POINTS, r->lines.count, r->points.count);
        render_count_draw(r, RENDER_PASS_LINES, 0);
    }
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDisable(GL_BLEND);
    glDisable(GL_PROGRAM_POINT_SIZE);
}
