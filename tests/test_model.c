// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Tests of the render side of models (src/assets/model_mesh.c): normals from the file, computed by
// crease angle and by smoothing group against analytic answers, colours, scale and re-centring,
// vertex sharing and ranges.
#include "test.h"

#include "assets/model_mesh.h"
#include "assets/obj.h"

#include <string.h> // strlen

static obj_model *parse(const char *text)
{
    obj_model *m = NULL;
    obj_options opt = obj_default_options();
    opt.load_materials = false;
    asset_error err;
    if (!obj_parse(text, strlen(text), "mesh.obj", &opt, &m, &err))
        fprintf(stderr, "%s\n", err.text);
    return m;
}

// A unit cube [0,1]^3 written as 6 outward quads, with an optional statement before the faces.
static obj_model *cube(const char *before_faces)
{
    char text[1024];
    snprintf(text, sizeof text,
             "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n%s\n"
             "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 4 8 7 3\nf 1 5 8 4\nf 2 3 7 6\n",
             before_faces);
    return parse(text);
}

static float dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Without smoothing groups, the 90 degree edges of a cube are creases: 24 vertices with axis normals
// that point away from the centre.
static int model_mesh_cube_flat(void)
{
    obj_model *m = cube("");
    ENSURE(m);
    model_mesh *mesh = model_mesh_build(m, NULL);
    ENSURE(mesh);
    ENSURE(mesh->vertex_count == 24 && mesh->index_count == 36);
    for (int i = 0; i < mesh->vertex_count; i++)
    {
        const float *n = mesh->normals + 3 * i, *p = mesh->positions + 3 * i;
        ENSURE_NEAR(dot3(n, n), 1.0f, 1e-6f);
        ENSURE_NEAR(fabsf(n[0]) + fabsf(n[1]) + fabsf(n[2]), 1.0f, 1e-6f);
        float out[3] = { p[0] - 0.5f, p[1] - 0.5f, p[2] - 0.5f };
        ENSURE(dot3(n, out) > 0.49f);
        ENSURE_NEAR(mesh->colors[3 * i], MODEL_MESH_DEFAULT_GREY, 0.0f);
    }
    ENSURE_VEC3_NEAR(ph_v3(mesh->bounds_lo[0], mesh->bounds_lo[1], mesh->bounds_lo[2]), ph_v3(0, 0, 0), 0.0f);
    ENSURE_VEC3_NEAR(ph_v3(mesh->bounds_hi[0], mesh->bounds_hi[1], mesh->bounds_hi[2]), ph_v3(1, 1, 1), 0.0f);
    model_mesh_free(mesh);
    // A crease angle above 90 degrees smooths the edges: 8 vertices.
    model_mesh_options opt = model_mesh_default_options();
    opt.crease_angle = 1.7f;
    mesh = model_mesh_build(m, &opt);
    ENSURE(mesh && mesh->vertex_count == 8);
    model_mesh_free(mesh);
    obj_free(m);
    return 0;
}

// One smoothing group over the whole cube: 8 vertices with the corner normals (+-1, +-1, +-1)/sqrt(3)
// exactly, whatever diagonal split each face (angle weighting); `s off` gives flat faces again.
static int model_mesh_cube_smoothing_groups(void)
{
    obj_model *m = cube("s 1");
    ENSURE(m && m->has_smoothing);
    model_mesh *mesh = model_mesh_build(m, NULL);
    ENSURE(mesh && mesh->vertex_count == 8);
    const float inv_sqrt3 = 0.57735027f;
    for (int i = 0; i < 8; i++)
    {
        const float *n = mesh->normals + 3 * i, *p = mesh->positions + 3 * i;
        ph_vec3 want = ph_v3(p[0] > 0.5f ? inv_sqrt3 : -inv_sqrt3, p[1] > 0.5f ? inv_sqrt3 : -inv_sqrt3,
                             p[2] > 0.5f ? inv_sqrt3 : -inv_sqrt3);
        ENSURE_VEC3_NEAR(ph_v3(n[0], n[1], n[2]), want, 1e-6f);
    }
    model_mesh_free(mesh);
    obj_free(m);
    // Smoothing group 0 in a file that has groups elsewhere: flat.
    obj_model *m2 = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\ns 1\nf 1 3 2\ns 0\nf 1 2 4\nf 1 4 3\ns 1\nf 2 3 4\n");
    ENSURE(m2);
    mesh = model_mesh_build(m2, NULL);
    ENSURE(mesh);
    // Faces 2 and 3 (s 0) are flat: their corners carry exactly -y and -x.
    const float *n = mesh->normals + 3 * mesh->indices[3];
    ENSURE_VEC3_NEAR(ph_v3(n[0], n[1], n[2]), ph_v3(0, -1, 0), 1e-6f);
    n = mesh->normals + 3 * mesh->indices[6];
    ENSURE_VEC3_NEAR(ph_v3(n[0], n[1], n[2]), ph_v3(-1, 0, 0), 1e-6f);
    model_mesh_free(mesh);
    obj_free(m2);
    return 0;
}

// A finely tessellated sphere without normals: the computed normals are within a degree or so of the
// radial direction (all edges are far below the crease angle).
static int model_mesh_sphere_smooth(void)
{
    enum { rings = 24, segments = 48 };
    static char text[200000];
    size_t len = 0;
    for (int r = 0; r <= rings; r++)
        for (int s = 0; s < segments; s++)
        {
            float theta = GLM_PIf * (float)r / rings, phi = 2.0f * GLM_PIf * (float)s / segments;
            len += (size_t)snprintf(text + len, sizeof text - len, "v %.7f %.7f %.7f\n",
                                    (double)(2.0f * sinf(theta) * cosf(phi)), (double)(2.0f * cosf(theta)),
                                    (double)(2.0f * sinf(theta) * sinf(phi)));
        }
    for (int r = 1; r < rings - 1; r++)
        for (int s = 0; s < segments; s++)
        {
            int a = r * segments + s + 1, b = r * segments + (s + 1) % segments + 1;
            len += (size_t)snprintf(text + len, sizeof text - len, "f %d %d %d %d\n", a, b, b + segments,
                                    a + segments);
        }
    obj_model *m = parse(text);
    ENSURE(m);
    model_mesh *mesh = model_mesh_build(m, NULL);
    ENSURE(mesh);
    float worst = 1.0f;
    for (int i = 0; i < mesh->vertex_count; i++)
    {
        const float *p = mesh->positions + 3 * i, *n = mesh->normals + 3 * i;
        float radial[3] = { p[0] / 2.0f, p[1] / 2.0f, p[2] / 2.0f };
        worst = fminf(worst, dot3(radial, n));
    }
    // Rows 1..rings-2 only: every kept vertex has its full ring of faces except on the two border
    // rows, whose one-sided normals still lie within half a ring step (3.75 degrees) of radial.
    ENSURE(worst > cosf(4.0f * GLM_PIf / 180.0f));
    // Shared vertices: one per position (no crease, no colour change).
    ENSURE(mesh->vertex_count == (rings - 1) * segments);
    model_mesh_free(mesh);
    obj_free(m);
    return 0;
}

// File normals are used as given (unit length after the inverse-transpose scale), colours come from
// vertex colours first, then materials; scale and origin move positions.
static int model_mesh_normals_colours_scale(void)
{
    obj_model *m = parse("v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 1 0 0 1\nvn 0 -1 1\nf 1//1 2//1 3//1\n");
    ENSURE(m);
    model_mesh_options opt = model_mesh_default_options();
    opt.scale[1] = 2.0f;
    opt.origin[0] = 0.5f;
    model_mesh *mesh = model_mesh_build(m, &opt);
    ENSURE(mesh && mesh->vertex_count == 3);
    // The plane y = z scaled by 2 in y becomes y = 2 z: normal (0, -1/2, 1) normalised.
    const float *n = mesh->normals;
    float s = 1.0f / sqrtf(1.25f);
    ENSURE_VEC3_NEAR(ph_v3(n[0], n[1], n[2]), ph_v3(0.0f, -0.5f * s, s), 1e-6f);
    const float *p = mesh->positions + 3 * mesh->indices[2];
    ENSURE_VEC3_NEAR(ph_v3(p[0], p[1], p[2]), ph_v3(-0.5f, 2.0f, 1.0f), 0.0f);
    const float *c = mesh->colors + 3 * mesh->indices[1];
    ENSURE_VEC3_NEAR(ph_v3(c[0], c[1], c[2]), ph_v3(0, 1, 0), 0.0f);
    model_mesh_free(mesh);
    obj_free(m);

    m = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nusemtl a\nf 1 3 2\nf 1 2 4\n");
    ENSURE(m);
    m->materials[0].diffuse[0] = 0.25f; // as if the .mtl said Kd 0.25 ...
    mesh = model_mesh_build(m, NULL);
    ENSURE(mesh);
    ENSURE_NEAR(mesh->colors[3 * mesh->indices[0]], 0.25f, 0.0f);
    model_mesh_free(mesh);

    // A range: the second triangle only.
    opt = model_mesh_default_options();
    opt.first_triangle = 1;
    opt.triangle_count = 1;
    mesh = model_mesh_build(m, &opt);
    ENSURE(mesh && mesh->index_count == 3 && mesh->vertex_count == 3);
    n = mesh->normals;
    ENSURE_VEC3_NEAR(ph_v3(n[0], n[1], n[2]), ph_v3(0, -1, 0), 1e-6f);
    model_mesh_free(mesh);
    // Ranges outside the model give NULL.
    opt.first_triangle = 2;
    ENSURE(model_mesh_build(m, &opt) == NULL);
    opt.first_triangle = -1;
    ENSURE(model_mesh_build(m, &opt) == NULL);
    ENSURE(model_mesh_build(NULL, NULL) == NULL);
    obj_free(m);
    return 0;
}

// The shared cube has one normal per side: 6 sides x 9 positions = 54 distinct vertices.
static int model_mesh_shared_cube(void)
{
    obj_model *m = NULL;
    asset_error err;
    ENSURE(obj_load(SHARED_TESTDATA_DIR "/obj/cube.obj", NULL, &m, &err));
    model_mesh *mesh = model_mesh_build(m, NULL);
    ENSURE(mesh && mesh->vertex_count == 54 && mesh->index_count == 144);
    model_mesh_free(mesh);
    obj_free(m);
    return 0;
}

const test_case test_model_cases[] = {
    { "model_mesh_cube_flat", model_mesh_cube_flat },
    { "model_mesh_cube_smoothing_groups", model_mesh_cube_smoothing_groups },
    { "model_mesh_sphere_smooth", model_mesh_sphere_smooth },
    { "model_mesh_normals_colours_scale", model_mesh_normals_colours_scale },
    { "model_mesh_shared_cube", model_mesh_shared_cube },
    { 0 },
};
