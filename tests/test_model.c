// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Tests of models (src/assets/model_mesh.c, model_physics.c, scene_build.c). Render side: normals
// from the file, computed by crease angle and by smoothing group against analytic answers, colours,
// scale and re-centring, vertex sharing and ranges. Physics side: hulls of every shared model contain
// every vertex, mass properties are positive definite and match analytic volumes, compounds, static
// meshes, .obj scenes and their naming convention, models resting on a static concave mesh, and every
// scene in scenes/ built and simulated without NaN.
#include "assets/model_mesh.h"
#include "assets/model_physics.h"
#include "assets/obj.h"
#include "assets/scene.h"
#include "test.h"

#include "phys/phys.h"

#include <stdlib.h> // malloc, free
#include <string.h> // strlen, strcmp, strstr, strncmp, memset

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

static obj_model *load_path(const char *path)
{
    obj_model *m = NULL;
    asset_error err;
    if (!obj_load(path, NULL, &m, &err))
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
        float out[3] = {p[0] - 0.5f, p[1] - 0.5f, p[2] - 0.5f};
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
    obj_model *m2 =
        parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\ns 1\nf 1 3 2\ns 0\nf 1 2 4\nf 1 4 3\ns 1\nf 2 3 4\n");
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
    enum
    {
        rings = 24,
        segments = 48
    };
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
    // The band is open at both ends, so it is drawn from both sides: the second half of the vertices is
    // the back copy, with flipped normals.
    ENSURE(mesh->two_sided);
    int front = mesh->vertex_count / 2;
    float worst = 1.0f;
    for (int i = 0; i < front; i++)
    {
        const float *p = mesh->positions + 3 * i, *n = mesh->normals + 3 * i;
        float radial[3] = {p[0] / 2.0f, p[1] / 2.0f, p[2] / 2.0f};
        worst = fminf(worst, dot3(radial, n));
    }
    // Rows 1..rings-2 only: every kept vertex has its full ring of faces except on the two border
    // rows, whose one-sided normals still lie within half a ring step (3.75 degrees) of radial.
    ENSURE(worst > cosf(4.0f * GLM_PIf / 180.0f));
    // Shared vertices: one per position (no crease, no colour change).
    ENSURE(front == (rings - 1) * segments);
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
    ENSURE(mesh && mesh->vertex_count == 6 && mesh->two_sided); // one open triangle: front and back
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
    ENSURE(mesh && mesh->index_count == 6 && mesh->vertex_count == 6);
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

// Issue 22, defect 6: a mesh whose triangles are not closed (two walls of one side each) is drawn from
// both sides: every triangle also comes reversed, on vertices of flipped normals. Closed meshes (the
// cube, also with its positions repeated along seams) are drawn once.
static int model_mesh_open_two_sided(void)
{
    obj_model *m = load_path(SANDBOX_SOURCE_DIR "/tests/data/open_walls.obj");
    ENSURE(m && m->triangle_count == 4);
    ENSURE(!model_mesh_is_closed(m, 0, 4));
    model_mesh *mesh = model_mesh_build(m, NULL);
    ENSURE(mesh && mesh->two_sided && mesh->index_count == 24);
    int half = mesh->vertex_count / 2, tri = mesh->index_count / 2;
    for (int i = 0; i < tri; i += 3)
    {
        const uint32_t *f = mesh->indices + i, *b = mesh->indices + tri + i;
        // The back triangle has the front's corners in reverse order, on the copies of its vertices.
        ENSURE(b[0] == f[0] + (uint32_t)half && b[1] == f[2] + (uint32_t)half &&
               b[2] == f[1] + (uint32_t)half);
        for (int k = 0; k < 3; k++)
        {
            int j = (3 - k) % 3; // back corner k is front corner j
            const float *nf = mesh->normals + 3 * f[j], *nb = mesh->normals + 3 * b[k];
            const float *pf = mesh->positions + 3 * f[j], *pb = mesh->positions + 3 * b[k];
            ENSURE_VEC3_NEAR(ph_v3(nb[0], nb[1], nb[2]), ph_v3(-nf[0], -nf[1], -nf[2]), 0.0f);
            ENSURE_VEC3_NEAR(ph_v3(pb[0], pb[1], pb[2]), ph_v3(pf[0], pf[1], pf[2]), 0.0f);
        }
        // Winding and normal agree on both copies (counter-clockwise seen from where the normal points).
        const float *p0 = mesh->positions + 3 * b[0], *p1 = mesh->positions + 3 * b[1],
                    *p2 = mesh->positions + 3 * b[2];
        float u[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
        float v[3] = {p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]};
        float c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
        ENSURE(dot3(c, mesh->normals + 3 * b[0]) > 0.0f);
    }
    model_mesh_free(mesh);
    obj_free(m);

    m = cube("");
    ENSURE(m && model_mesh_is_closed(m, 0, m->triangle_count));
    mesh = model_mesh_build(m, NULL);
    ENSURE(mesh && !mesh->two_sided && mesh->index_count == 36);
    model_mesh_free(mesh);
    // Without one face the cube is open.
    ENSURE(!model_mesh_is_closed(m, 0, m->triangle_count - 2));
    obj_free(m);
    // Positions repeated with equal coordinates (a seam) still weld into a closed surface.
    m = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv -0 0 1\nf 1 3 2\nf 1 2 4\nf 1 5 3\nf 2 3 4\n");
    ENSURE(m && model_mesh_is_closed(m, 0, 4));
    obj_free(m);
    return 0;
}

// The shared cube has one normal per side: 6 sides x 9 positions = 54 distinct vertices.
static int model_mesh_shared_cube(void)
{
    REQUIRE_SHARED_TESTDATA();
    obj_model *m = NULL;
    asset_error err;
    ENSURE(obj_load(SHARED_TESTDATA_DIR "/obj/cube.obj", NULL, &m, &err));
    model_mesh *mesh = model_mesh_build(m, NULL);
    ENSURE(mesh && mesh->vertex_count == 54 && mesh->index_count == 144);
    model_mesh_free(mesh);
    obj_free(m);
    return 0;
}

// ---- Physics ---------------------------------------------------------------------------------------

static ph_world *new_world(void)
{
    ph_world_def def = ph_default_world_def();
    return ph_world_create(&def);
}

// Sylvester's criterion on the symmetric part, plus symmetry itself.
static int is_positive_definite(ph_mat3 m)
{
    double a = (double)m.col[0].raw[0], b = (double)m.col[1].raw[0], c = (double)m.col[2].raw[0];
    double d = (double)m.col[1].raw[1], e = (double)m.col[2].raw[1], f = (double)m.col[2].raw[2];
    double tol = 1e-5 * (fabs(a) + fabs(d) + fabs(f));
    if (fabs((double)m.col[0].raw[1] - b) > tol || fabs((double)m.col[0].raw[2] - c) > tol ||
        fabs((double)m.col[1].raw[2] - e) > tol)
        return 0;
    double minor2 = a * d - b * b;
    double det = a * (d * f - e * e) - b * (b * f - e * c) + c * (b * e - d * c);
    return a > 0.0 && minor2 > 0.0 && det > 0.0;
}

// Every shared model (and every object of the multi-object files): the hull built in a world holds
// every vertex of the model (moved by the shape's origin), its mass properties are positive definite,
// and the centre of mass is the body origin (the world hull's centroid is at zero).
static int model_hull_contains_vertices(void)
{
    REQUIRE_SHARED_TESTDATA();
    const char *files[] = {"cube.obj",       "low_poly_bunny.obj", "cornell_box.obj", "spot_control_mesh.obj",
                           "test_map01.obj", "spider.obj"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
    {
        char path[512];
        snprintf(path, sizeof path, "%s/obj/%s", SHARED_TESTDATA_DIR, files[f]);
        obj_model *m = load_path(path);
        ENSURE(m);
        ph_world *world = new_world();
        ENSURE(world);
        // The whole model, then each object with faces (the cornell box's walls are flat: no hull).
        for (int o = -1; o < m->object_count; o++)
        {
            model_shape_options so = model_default_shape_options();
            if (o >= 0)
            {
                if (m->objects[o].triangle_count == 0 || m->object_count == 1)
                    continue;
                so.first_triangle = m->objects[o].first_triangle;
                so.triangle_count = m->objects[o].triangle_count;
            }
            model_shape shape;
            asset_error err;
            if (!model_physics_build_shape(world, m, &so, &shape, NULL, &err))
            {
                // Only the cornell box's flat objects (its walls, light and floor quads: every object but
                // the two blocks) may fail, and say why.
                if (!(o >= 0 && strcmp(files[f], "cornell_box.obj") == 0 &&
                      strstr(m->objects[o].name, "block") == NULL))
                    fprintf(stderr, "%s object %d: %s\n", files[f], o, err.text);
                ENSURE(o >= 0 && strcmp(files[f], "cornell_box.obj") == 0 &&
                       strstr(m->objects[o].name, "block") == NULL);
                ENSURE(strstr(err.text, "flat"));
                continue;
            }
            const ph_hull *hull = ph_world_get_hull(world, shape.shape.geom);
            ENSURE(hull && hull->vertex_count >= 4);
            ph_vec3 ext = glms_vec3_sub(hull->bounds.hi, hull->bounds.lo);
            float tol = 1e-4f * sqrtf(glms_vec3_dot(ext, ext));
            float worst = -INFINITY;
            for (int t = so.first_triangle;
                 t < so.first_triangle + (o < 0 ? m->triangle_count : so.triangle_count); t++)
                for (int c = 0; c < 3; c++)
                {
                    const float *p = m->positions + 3 * m->triangles[t].corner[c].position;
                    ph_vec3 v = glms_vec3_sub(ph_v3(p[0], p[1], p[2]), shape.origin);
                    for (int h = 0; h < hull->face_count; h++)
                        worst = fmaxf(worst, glms_vec3_dot(hull->faces[h].normal, v) - hull->faces[h].offset);
                }
            if (!(worst <= tol))
                fprintf(stderr, "%s object %d: a vertex lies %g outside the hull (tol %g)\n", files[f], o,
                        (double)worst, (double)tol);
            ENSURE(worst <= tol);
            ENSURE(shape.mass.mass > 0.0f && shape.mass.volume > 0.0f);
            ENSURE(is_positive_definite(shape.mass.inertia));
            // A closed model's body origin is its solid's centre of mass, and the solid lies in its hull;
            // an open one's is its hull's centroid.
            ph_convex hc = ph_convex_hull(hull);
            if (shape.mass_from_mesh)
                ENSURE(shape.mass.volume <= ph_compute_mass(&hc, 1.0f).volume * (1.0f + 1e-5f));
            else
                ENSURE_VEC3_NEAR(hull->centroid, ph_v3(0, 0, 0), 1e-4f * sqrtf(glms_vec3_dot(ext, ext)));
        }
        ph_world_destroy(world);
        obj_free(m);
    }
    return 0;
}

// The shared cube's hull: volume 8, centre at the origin, inertia of a 2 m cube (m a^2 / 6 with a = 2).
static int model_hull_cube_mass(void)
{
    REQUIRE_SHARED_TESTDATA();
    obj_model *m = load_path(SHARED_TESTDATA_DIR "/obj/cube.obj");
    ENSURE(m);
    ph_world *world = new_world();
    model_shape shape;
    asset_error err;
    model_shape_options so = model_default_shape_options();
    so.density = 2.0f;
    so.scale[1] = 0.5f; // a 2 x 1 x 2 box: I_yy = m (4 + 4) / 12, I_xx = m (1 + 4) / 12
    ENSURE(model_physics_build_shape(world, m, &so, &shape, NULL, &err));
    ENSURE_NEAR(shape.mass.volume, 4.0f, 1e-4f);
    ENSURE_NEAR(shape.mass.mass, 8.0f, 1e-4f);
    ENSURE_VEC3_NEAR(shape.origin, ph_v3(0, 0, 0), 1e-5f);
    ENSURE_NEAR(shape.mass.inertia.col[1].raw[1], 8.0f * 8.0f / 12.0f, 1e-3f);
    ENSURE_NEAR(shape.mass.inertia.col[0].raw[0], 8.0f * 5.0f / 12.0f, 1e-3f);
    // The cube's hull drops the 18 face and edge midpoints.
    ENSURE(ph_world_get_hull(world, shape.shape.geom)->vertex_count == 8);
    ph_world_destroy(world);
    obj_free(m);
    return 0;
}

// The chair: a compound of 6 boxes (seat, back, 4 legs as `g` groups). Its mass and centre of mass
// from the boxes' analytic volumes and centres; the body origin is that centre.
static int model_compound_chair(void)
{
    obj_model *m = load_path(SANDBOX_SOURCE_DIR "/models/chair.obj");
    ENSURE(m && m->group_count == 6);
    ph_world *world = new_world();
    model_set set = {0};
    asset_error err;
    model_body_options bo = model_default_body_options();
    bo.shape.kind = MODEL_SHAPE_COMPOUND;
    bo.position = ph_v3(1.0f, 2.0f, 3.0f);
    ENSURE(model_physics_add_body(world, m, &bo, &set, NULL, &err));
    ENSURE(set.body_count == 1 && set.bodies[0].mesh);
    const ph_compound *c = ph_world_get_compound(world, ph_body_get_shape(world, set.bodies[0].body).geom);
    ENSURE(c && c->child_count == 6);
    // Boxes (lo, hi) as written by models/make_models.py.
    const double boxes[6][6] = {
        {-0.45, 0.45, -0.45, 0.45, 0.52, 0.45},  {-0.45, 0.52, 0.39, 0.45, 1.05, 0.45},
        {-0.44, 0.0, -0.44, -0.36, 0.45, -0.36}, {0.36, 0.0, -0.44, 0.44, 0.45, -0.36},
        {-0.44, 0.0, 0.36, -0.36, 0.45, 0.44},   {0.36, 0.0, 0.36, 0.44, 0.45, 0.44}};
    double volume = 0.0, cx = 0.0, cy = 0.0, cz = 0.0;
    for (int b = 0; b < 6; b++)
    {
        double v = (boxes[b][3] - boxes[b][0]) * (boxes[b][4] - boxes[b][1]) * (boxes[b][5] - boxes[b][2]);
        volume += v;
        cx += v * 0.5 * (boxes[b][0] + boxes[b][3]);
        cy += v * 0.5 * (boxes[b][1] + boxes[b][4]);
        cz += v * 0.5 * (boxes[b][2] + boxes[b][5]);
    }
    ENSURE_NEAR(ph_body_get_mass(world, set.bodies[0].body), 1000.0 * volume, 1e-3 * 1000.0 * volume);
    ph_vec3 com =
        ph_v3((float)(cx / volume) + 1.0f, (float)(cy / volume) + 2.0f, (float)(cz / volume) + 3.0f);
    ENSURE_VEC3_NEAR(ph_body_get_center_of_mass(world, set.bodies[0].body), com, 1e-4f);
    ENSURE_VEC3_NEAR(ph_body_get_position(world, set.bodies[0].body), com, 1e-4f);
    ENSURE(is_positive_definite(ph_body_get_world_inertia(world, set.bodies[0].body)));
    // The render mesh is in the body frame: its bounds are the chair's, moved by the centre of mass.
    const model_mesh *mesh = set.bodies[0].mesh;
    ENSURE_NEAR(mesh->bounds_lo[1], -(float)(cy / volume), 1e-5f);
    // A flat part is skipped with a warning naming its group; a chair of flat parts only is an error.
    obj_model *flat = NULL;
    const char *text =
        "o compound_x\ng solid\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\n"
        "f 2 3 4\ng sheet\nv 0 0 5\nv 1 0 5\nv 0 1 5\nf 5 6 7\n";
    ENSURE(obj_parse(text, strlen(text), "flat.obj", NULL, &flat, &err));
    asset_warnings warnings = {0};
    model_shape shape;
    model_shape_options so = model_default_shape_options();
    so.kind = MODEL_SHAPE_COMPOUND;
    ENSURE(model_physics_build_shape(world, flat, &so, &shape, &warnings, &err));
    ENSURE(warnings.count == 1 && strstr(warnings.text[0], "flat.obj:11: compound part 'sheet' skipped"));
    ENSURE(ph_world_get_compound(world, shape.shape.geom)->child_count == 1);
    so.first_triangle = 4;
    so.triangle_count = 1;
    ENSURE(!model_physics_build_shape(world, flat, &so, &shape, &warnings, &err));
    ENSURE(strstr(err.text, "no part has volume"));
    // A mesh shape on a dynamic body is refused.
    bo.shape.kind = MODEL_SHAPE_MESH;
    ENSURE(!model_physics_add_body(world, flat, &bo, &set, NULL, &err) && set.body_count == 1);
    obj_free(flat);
    model_set_free(&set);
    ph_world_destroy(world);
    obj_free(m);
    return 0;
}

// The room (.obj scene): every object its own body, by the naming convention; the flat curtain, named
// static, is a static mesh and loads without a warning; crates sit where their vertices are.
static int model_obj_scene_room(void)
{
    obj_model *m = load_path(SANDBOX_SOURCE_DIR "/models/room.obj");
    ENSURE(m);
    ph_world *world = new_world();
    model_set set = {0};
    asset_warnings warnings = {0};
    asset_error err;
    ENSURE(model_physics_add_scene(world, m, NULL, &set, &warnings, &err));
    ENSURE(set.body_count == m->object_count && set.body_count == 12); // no default ground: there is a floor
    int statics = 0, compounds = 0, meshes = 0;
    for (int i = 0; i < set.body_count; i++)
    {
        ph_body_id b = set.bodies[i].body;
        ph_shape shape = ph_body_get_shape(world, b);
        bool named_static =
            strncmp(set.bodies[i].name, "static", 6) == 0 || strncmp(set.bodies[i].name, "ground", 6) == 0;
        statics += ph_body_get_type(world, b) == PH_BODY_STATIC;
        compounds += shape.type == PH_SHAPE_COMPOUND;
        meshes += shape.type == PH_SHAPE_MESH;
        bool curtain = strcmp(set.bodies[i].name, "static_curtain") == 0;
        if (named_static && !curtain)
            ENSURE(ph_body_get_type(world, b) == PH_BODY_STATIC &&
                   shape.type == PH_SHAPE_HULL); // convex boxes
        if (strcmp(set.bodies[i].name, "crate1") == 0)
            ENSURE_VEC3_NEAR(ph_body_get_position(world, b), ph_v3(2.5f, 0.25f, -2.5f), 1e-4f);
        if (curtain)
            ENSURE(ph_body_get_type(world, b) == PH_BODY_STATIC && shape.type == PH_SHAPE_MESH);
        if (strncmp(set.bodies[i].name, "compound_", 9) == 0)
            ENSURE(ph_body_get_type(world, b) == PH_BODY_DYNAMIC && shape.type == PH_SHAPE_COMPOUND);
    }
    ENSURE(statics == 5 && compounds == 2 && meshes == 1);
    ENSURE(warnings.count == 0);
    // Settles: after 3 s nothing is NaN and nothing fell through the floor.
    for (int s = 0; s < 180; s++)
        ph_world_step(world);
    for (int i = 0; i < set.body_count; i++)
    {
        ph_vec3 p = ph_body_get_position(world, set.bodies[i].body);
        ENSURE(ph_is_finite_vec3(p) && p.y > -0.25f);
    }
    model_set_free(&set);
    ph_world_destroy(world);
    obj_free(m);
    return 0;
}

// Static objects of an .obj scene: a convex closed one collides as a hull, anything else as a triangle
// mesh: a cube written inside out (the exact test: its mesh volume is minus its hull's), an L-shaped
// prism and the bowl (caught by the quick test, without building a hull).
static int model_obj_scene_static_shapes(void)
{
    obj_model *m =
        parse("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
              "o static_cube\nf 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 4 8 7 3\nf 1 5 8 4\nf 2 3 7 6\n"
              "o static_inside_out\nf 2 3 4 1\nf 8 7 6 5\nf 5 6 2 1\nf 3 7 8 4\nf 4 8 5 1\nf 6 7 3 2\n"
              // An L (corners (0,0) (2,0) (2,1) (1,1) (1,2) (0,2)) extruded from z = 0 to 1.
              "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\n"
              "v 0 0 1\nv 2 0 1\nv 2 1 1\nv 1 1 1\nv 1 2 1\nv 0 2 1\n"
              "o ground_l\nf 14 13 12 11 10 9\nf 15 16 17 18 19 20\nf 9 10 16 15\nf 10 11 17 16\n"
              "f 11 12 18 17\nf 12 13 19 18\nf 13 14 20 19\nf 14 9 15 20\n");
    obj_model *bowl = load_path(SANDBOX_SOURCE_DIR "/models/bowl.obj");
    ENSURE(m && m->object_count == 3 && bowl);
    ph_world *world = new_world();
    model_set set = {0};
    asset_warnings warnings = {0};
    asset_error err;
    ENSURE(model_physics_add_scene(world, m, NULL, &set, &warnings, &err));
    ENSURE(model_physics_add_scene(world, bowl, NULL, &set, &warnings, &err));
    ENSURE(set.body_count == 4 && warnings.count == 0); // no default ground: the objects are static
    const ph_shape_type want[4] = {PH_SHAPE_HULL, PH_SHAPE_MESH, PH_SHAPE_MESH, PH_SHAPE_MESH};
    for (int i = 0; i < 4; i++)
    {
        ENSURE(ph_body_get_type(world, set.bodies[i].body) == PH_BODY_STATIC);
        ENSURE(ph_body_get_shape(world, set.bodies[i].body).type == want[i]);
    }
    model_set_free(&set);
    ph_world_destroy(world);
    obj_free(m);
    obj_free(bowl);
    return 0;
}

// Counts the occurrences of needle in hay.
static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

// Issue 22, defect 3: in an .obj scene an object of no volume and no area (a point, a line) is skipped
// with a warning naming file, line and object, and the rest of the scene loads; a flat sheet of some
// area still becomes static geometry.
static int model_obj_scene_zero_volume(void)
{
    obj_model *m = load_path(SANDBOX_SOURCE_DIR "/tests/data/scene_zero_volume.obj");
    ENSURE(m && m->object_count == 4);
    ph_world *world = new_world();
    model_set set = {0};
    asset_warnings warnings = {0};
    asset_error err;
    bool ok = model_physics_add_scene(world, m, NULL, &set, &warnings, &err);
    if (!ok)
        fprintf(stderr, "%s\n", err.text);
    ENSURE(ok);
    ENSURE(set.body_count == 3); // crate, sheet, default ground
    ENSURE(strcmp(set.bodies[0].name, "crate") == 0 &&
           ph_body_get_type(world, set.bodies[0].body) == PH_BODY_DYNAMIC);
    ENSURE(strcmp(set.bodies[1].name, "sheet") == 0 &&
           ph_body_get_type(world, set.bodies[1].body) == PH_BODY_STATIC);
    ENSURE(warnings.count == 3);
    ENSURE(strstr(warnings.text[0], "scene_zero_volume.obj:18: object 'point' has no area and no volume"));
    ENSURE(strstr(warnings.text[1], "scene_zero_volume.obj:21: object 'line' has no area and no volume"));
    ENSURE(strstr(warnings.text[2], "scene_zero_volume.obj:25: object 'sheet' is flat"));
    model_set_free(&set);
    ph_world_destroy(world);
    obj_free(m);
    return 0;
}

// Issue 22, defect 5: finite coordinates so large that the mass overflows are refused with a message
// that says so (naming the file once), as a model and as an .obj scene; scaled down, the model loads.
static int model_huge_coordinates(void)
{
    obj_model *m = load_path(SANDBOX_SOURCE_DIR "/tests/data/huge_coords.obj");
    ENSURE(m);
    ph_world *world = new_world();
    model_set set = {0};
    asset_warnings warnings = {0};
    asset_error err;
    ENSURE(!model_physics_add_body(world, m, NULL, &set, &warnings, &err));
    ENSURE(strstr(err.text, "huge_coords.obj: it is too large: it spans 1e+30 m"));
    ENSURE(count_of(err.text, "huge_coords.obj") == 1);
    ENSURE(!model_physics_add_scene(world, m, NULL, &set, &warnings, &err));
    ENSURE(strstr(err.text, "huge_coords.obj:6: object '(unnamed)' is too large"));
    ENSURE(count_of(err.text, "huge_coords.obj") == 1 && set.body_count == 0);
    model_body_options o = model_default_body_options();
    o.shape.scale[0] = o.shape.scale[1] = o.shape.scale[2] = 1e-30f;
    ENSURE(model_physics_add_body(world, m, &o, &set, &warnings, &err));
    ENSURE_NEAR(ph_body_get_mass(world, set.bodies[0].body), 1000.0f / 6.0f, 0.05f);
    // An engine error inside an .obj scene names the file once too: a hull 3e4 m across.
    obj_model *big =
        parse("o big\nv 0 0 0\nv 3e4 0 0\nv 0 3e4 0\nv 0 0 3e4\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
    ENSURE(big);
    ENSURE(!model_physics_add_scene(world, big, NULL, &set, &warnings, &err));
    ENSURE(count_of(err.text, "mesh.obj") == 1 && strstr(err.text, "mesh.obj:1: object 'big'"));
    model_set_free(&set);
    ph_world_destroy(world);
    obj_free(m);
    obj_free(big);
    return 0;
}

// Builds a scene given as JSON text (named tests/data/NAME.json, so that models are found beside it)
// into world; NULL with the message printed when it fails.
static scene_desc *build_scene_text(ph_world *world, const char *json, model_set *set, asset_error *err)
{
    scene_options so = scene_default_options();
    scene_desc *d = NULL;
    if (!scene_parse(json, strlen(json), SANDBOX_SOURCE_DIR "/tests/data/split.json", &so, &d, err))
        return NULL;
    asset_warnings warnings = {0};
    if (!scene_build(world, d, set, &warnings, err))
    {
        scene_free(d);
        return NULL;
    }
    return d;
}

// The compound of a body: its child count, and each child's hull volume and offset (x only).
static int compound_children(ph_world *world, ph_body_id body, float *volume, float *x, int max)
{
    ph_shape shape = ph_body_get_shape(world, body);
    const ph_compound *c = ph_world_get_compound(world, shape.geom);
    if (shape.type != PH_SHAPE_COMPOUND || !c)
        return -1;
    for (int i = 0; i < c->child_count && i < max; i++)
    {
        ph_convex hull = c->children[i].shape;
        volume[i] = ph_compute_mass(&hull, 1.0f).volume;
        x[i] = c->children[i].local.p.x;
    }
    return c->child_count;
}

// Issue 22, defect 7: a file that writes each `g` after the faces it names (with one group written in
// two pieces) splits into its two boxes; "split": "object" makes one part, "split": "material" one per
// material; "split" without "shape": "compound" is refused.
static int model_compound_split(void)
{
    obj_model *m = load_path(SANDBOX_SOURCE_DIR "/tests/data/groups_after_faces.obj");
    ENSURE(m && m->group_count == 4 && m->triangle_count == 24);
    const char *names[4] = {"left", "right", "left", "left"};
    const int lines[4] = {24, 32, 37, 37};
    for (int g = 0; g < 4; g++)
        ENSURE(strcmp(m->groups[g].name, names[g]) == 0 && m->groups[g].line == lines[g]);
    ph_world *world = new_world();
    model_set set = {0};
    asset_warnings warnings = {0};
    asset_error err;
    model_body_options o = model_default_body_options();
    o.shape.kind = MODEL_SHAPE_COMPOUND;
    ENSURE(model_physics_add_body(world, m, &o, &set, &warnings, &err));
    float volume[8], x[8];
    ENSURE(compound_children(world, set.bodies[0].body, volume, x, 8) == 2);
    // The left cube [0,1]^3 and the right one [3,4] x [0,1]^2, about their joint centre x = 2.
    ENSURE_NEAR(volume[0], 1.0f, 1e-5f);
    ENSURE_NEAR(volume[1], 1.0f, 1e-5f);
    ENSURE_NEAR(x[0], -1.5f, 1e-5f);
    ENSURE_NEAR(x[1], 1.5f, 1e-5f);
    obj_free(m);

    const char *by_object = "{\"entries\": [{\"model\": \"groups_after_faces.obj\", \"shape\": \"compound\", "
                            "\"split\": \"object\"}]}";
    scene_desc *d = build_scene_text(world, by_object, &set, &err);
    ENSURE(d);
    ENSURE(compound_children(world, set.bodies[1].body, volume, x, 8) == 1);
    ENSURE_NEAR(volume[0], 4.0f, 1e-4f); // the hull of both cubes
    scene_free(d);
    const char *by_material =
        "{\"entries\": [{\"model\": \"groups_after_faces.obj\", \"shape\": \"compound\", "
        "\"split\": \"material\"}]}";
    d = build_scene_text(world, by_material, &set, &err);
    ENSURE(d);
    // wood: the left cube's faces (written in two pieces), steel: the right cube's.
    ENSURE(compound_children(world, set.bodies[2].body, volume, x, 8) == 2);
    ENSURE_NEAR(volume[0], 1.0f, 1e-5f);
    ENSURE_NEAR(x[0], -1.5f, 1e-5f);
    ENSURE_NEAR(x[1], 1.5f, 1e-5f);
    scene_free(d);
    const char *bad = "{\"entries\": [{\"model\": \"groups_after_faces.obj\", \"split\": \"material\"}]}";
    ENSURE(!build_scene_text(world, bad, &set, &err));
    ENSURE(strstr(err.text, "entries[0].split: needs \"shape\": \"compound\""));
    model_set_free(&set);
    ph_world_destroy(world);
    return 0;
}

// A dynamic body of the model text (density 1000) in world; its mass, world centre of mass and inertia.
static int solid_body(ph_world *world, const char *text, float *mass, ph_vec3 *center, ph_mat3 *inertia,
                      bool *from_mesh)
{
    obj_model *m = parse(text);
    if (!m)
        return 1;
    model_set set = {0};
    asset_error err;
    model_body_options o = model_default_body_options();
    model_shape shape;
    bool ok = model_physics_build_shape(world, m, &o.shape, &shape, NULL, &err) &&
              model_physics_add_body(world, m, &o, &set, NULL, &err);
    if (!ok)
        fprintf(stderr, "%s\n", err.text);
    else
    {
        ph_body_id b = set.bodies[0].body;
        *mass = ph_body_get_mass(world, b);
        *center = ph_body_get_center_of_mass(world, b);
        *inertia = ph_body_get_world_inertia(world, b);
        *from_mesh = shape.mass_from_mesh;
    }
    model_set_free(&set);
    obj_free(m);
    return ok ? 0 : 1;
}

static int ensure_inertia(ph_mat3 got, double want[3][3], double tol)
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            ENSURE_NEAR(got.col[c].raw[r], want[r][c], tol);
    return 0;
}

// Mass from the mesh (issue 22): a dynamic model whose mesh is closed weighs what its solid does, with
// the solid's centre of mass and inertia, concave or not; an open one keeps its hull's. Analytic answers:
// a cube, an L-shaped prism (concave: its hull is 3.5 m^3, the solid 3), a tetrahedron far from the origin.
static int model_mass_from_mesh(void)
{
    ph_world *world = new_world();
    float mass;
    ph_vec3 c;
    ph_mat3 in;
    bool from_mesh = false;
    // The unit cube: m = 1000, I = m / 6 on the diagonal.
    obj_model *cm = cube("");
    ENSURE(cm);
    obj_free(cm);
    ENSURE(solid_body(world,
                      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
                      "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 4 8 7 3\nf 1 5 8 4\nf 2 3 7 6\n",
                      &mass, &c, &in, &from_mesh) == 0);
    ENSURE(from_mesh);
    ENSURE_NEAR(mass, 1000.0f, 1e-2f);
    ENSURE_VEC3_NEAR(c, ph_v3(0.5f, 0.5f, 0.5f), 1e-5f);
    double cube_i[3][3] = {{1000.0 / 6.0, 0, 0}, {0, 1000.0 / 6.0, 0}, {0, 0, 1000.0 / 6.0}};
    ENSURE(ensure_inertia(in, cube_i, 1e-2) == 0);

    // The L prism: three unit cubes at (0.5, 0.5), (1.5, 0.5), (0.5, 1.5) in x, y, z from 0 to 1. Its
    // inertia is theirs (m / 6 each about its own centre) moved to the joint centre (parallel axes).
    ENSURE(solid_body(world,
                      "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\n"
                      "v 0 0 1\nv 2 0 1\nv 2 1 1\nv 1 1 1\nv 1 2 1\nv 0 2 1\n"
                      "f 6 5 4 3 2 1\nf 7 8 9 10 11 12\nf 1 2 8 7\nf 2 3 9 8\nf 3 4 10 9\nf 4 5 11 10\n"
                      "f 5 6 12 11\nf 6 1 7 12\n",
                      &mass, &c, &in, &from_mesh) == 0);
    ENSURE(from_mesh);
    ENSURE_NEAR(mass, 3000.0f, 0.05f);
    const double cubes[3][3] = {{0.5, 0.5, 0.5}, {1.5, 0.5, 0.5}, {0.5, 1.5, 0.5}};
    double cc[3] = {2.5 / 3.0, 2.5 / 3.0, 0.5}, l_i[3][3] = {{0}};
    for (int k = 0; k < 3; k++)
    {
        double d[3] = {cubes[k][0] - cc[0], cubes[k][1] - cc[1], cubes[k][2] - cc[2]};
        double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 3; q++)
                l_i[r][q] += (r == q ? 1000.0 / 6.0 + 1000.0 * d2 : 0.0) - 1000.0 * d[r] * d[q];
    }
    ENSURE_VEC3_NEAR(c, ph_v3((float)cc[0], (float)cc[1], (float)cc[2]), 1e-5f);
    ENSURE(ensure_inertia(in, l_i, 0.05) == 0);

    // The tetrahedron (0,0,0) (1,0,0) (0,1,0) (0,0,1) moved by (5, -2, 3): volume 1/6, centre at a quarter
    // along each axis; about it, I_xx = rho / 80 and I_xy = rho / 480 (from int x^2 dV = 1/60, int xy dV
    // = 1/120 and the parallel-axis theorem).
    ENSURE(solid_body(world, "v 5 -2 3\nv 6 -2 3\nv 5 -1 3\nv 5 -2 4\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n",
                      &mass, &c, &in, &from_mesh) == 0);
    ENSURE(from_mesh);
    ENSURE_NEAR(mass, 1000.0f / 6.0f, 1e-3f);
    ENSURE_VEC3_NEAR(c, ph_v3(5.25f, -1.75f, 3.25f), 1e-5f);
    double tet_i[3][3] = {{12.5, 1000.0 / 480.0, 1000.0 / 480.0},
                          {1000.0 / 480.0, 12.5, 1000.0 / 480.0},
                          {1000.0 / 480.0, 1000.0 / 480.0, 12.5}};
    ENSURE(ensure_inertia(in, tet_i, 1e-3) == 0);

    // The L prism open (no top face): its hull's mass, 3.5 m^3 of it.
    ENSURE(solid_body(world,
                      "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\n"
                      "v 0 0 1\nv 2 0 1\nv 2 1 1\nv 1 1 1\nv 1 2 1\nv 0 2 1\n"
                      "f 6 5 4 3 2 1\nf 1 2 8 7\nf 2 3 9 8\nf 3 4 10 9\nf 4 5 11 10\n"
                      "f 5 6 12 11\nf 6 1 7 12\n",
                      &mass, &c, &in, &from_mesh) == 0);
    ENSURE(!from_mesh);
    ENSURE_NEAR(mass, 3500.0f, 0.05f);

    // The closed L in an .obj scene (a dynamic hull) and as a compound of two groups: the solid's mass.
    const char *l_text = "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\n"
                         "v 0 0 1\nv 2 0 1\nv 2 1 1\nv 1 1 1\nv 1 2 1\nv 0 2 1\n"
                         "o l_block\ng a\nf 6 5 4 3 2 1\nf 7 8 9 10 11 12\nf 1 2 8 7\nf 2 3 9 8\n"
                         "g b\nf 3 4 10 9\nf 4 5 11 10\nf 5 6 12 11\nf 6 1 7 12\n";
    obj_model *l = parse(l_text);
    ENSURE(l);
    model_set set = {0};
    asset_error err;
    ENSURE(model_physics_add_scene(world, l, NULL, &set, NULL, &err));
    ENSURE(ph_body_get_type(world, set.bodies[0].body) == PH_BODY_DYNAMIC);
    ENSURE_NEAR(ph_body_get_mass(world, set.bodies[0].body), 3000.0f, 0.05f);
    ENSURE_VEC3_NEAR(ph_body_get_center_of_mass(world, set.bodies[0].body),
                     ph_v3((float)cc[0], (float)cc[1], (float)cc[2]), 1e-5f);
    model_body_options o = model_default_body_options();
    o.shape.kind = MODEL_SHAPE_COMPOUND;
    ENSURE(model_physics_add_body(world, l, &o, &set, NULL, &err));
    ph_body_id compound = set.bodies[set.body_count - 1].body;
    ENSURE(ph_body_get_shape(world, compound).type == PH_SHAPE_COMPOUND);
    ENSURE_NEAR(ph_body_get_mass(world, compound), 3000.0f, 0.05f);
    ENSURE_VEC3_NEAR(ph_body_get_center_of_mass(world, compound),
                     ph_v3((float)cc[0], (float)cc[1], (float)cc[2]), 1e-5f);
    ENSURE(ensure_inertia(ph_body_get_world_inertia(world, compound), l_i, 0.05) == 0);
    model_set_free(&set);
    obj_free(l);
    ph_world_destroy(world);
    return 0;
}

// Whether p is inside the closed triangle surface: the parity of the crossings of a ray from p along a
// fixed direction that no edge or vertex of the test meshes lines up with.
static bool inside_mesh(const float *pos, const int *tri, int tri_count, const double p[3])
{
    const double d[3] = {0.8017837, 0.5345225, 0.2672612}; // (3, 2, 1) normalised
    int crossings = 0;
    for (int t = 0; t < tri_count; t++)
    {
        // Moller and Trumbore's ray-triangle test.
        const float *a = pos + 3 * tri[3 * t], *b = pos + 3 * tri[3 * t + 1], *c = pos + 3 * tri[3 * t + 2];
        double e1[3], e2[3], s[3];
        for (int k = 0; k < 3; k++)
        {
            e1[k] = (double)b[k] - (double)a[k];
            e2[k] = (double)c[k] - (double)a[k];
            s[k] = p[k] - (double)a[k];
        }
        double h[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]};
        double det = e1[0] * h[0] + e1[1] * h[1] + e1[2] * h[2];
        if (fabs(det) < 1e-15)
            continue;
        double u = (s[0] * h[0] + s[1] * h[1] + s[2] * h[2]) / det;
        if (u < 0.0 || u > 1.0)
            continue;
        double q[3] = {s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]};
        double v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
        if (v < 0.0 || u + v > 1.0)
            continue;
        if ((e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det > 0.0)
            crossings++;
    }
    return crossings % 2 == 1;
}

// Brute force: a random closed, concave surface (a sphere whose vertices sit at random radii) against
// Monte Carlo sampling of its inside. Volume, centre of mass and inertia agree within the sampling error.
static int model_mass_monte_carlo(void)
{
    enum
    {
        rings = 8,
        segments = 12,
        samples = 60000
    };
    uint64_t rng = test_seed();
    static char text[65536];
    size_t len = 0;
    len += (size_t)snprintf(text + len, sizeof text - len, "v 0 1.2 0\nv 0 -0.9 0\n");
    for (int r = 1; r < rings; r++)
        for (int k = 0; k < segments; k++)
        {
            float theta = GLM_PIf * (float)r / rings, phi = 2.0f * GLM_PIf * (float)k / segments;
            float rad = test_rand_float(&rng, 0.5f, 1.5f);
            len += (size_t)snprintf(text + len, sizeof text - len, "v %.6f %.6f %.6f\n",
                                    (double)(rad * sinf(theta) * cosf(phi)), (double)(rad * cosf(theta)),
                                    (double)(rad * sinf(theta) * sinf(phi)));
        }
    // Outward (counter-clockwise seen from outside) triangles: caps, then quads split in two.
    for (int k = 0; k < segments; k++)
    {
        int a = 3 + k, b = 3 + (k + 1) % segments;
        len += (size_t)snprintf(text + len, sizeof text - len, "f 1 %d %d\n", b, a);
        int la = 3 + (rings - 2) * segments + k, lb = 3 + (rings - 2) * segments + (k + 1) % segments;
        len += (size_t)snprintf(text + len, sizeof text - len, "f 2 %d %d\n", la, lb);
    }
    for (int r = 0; r + 1 < rings - 1; r++)
        for (int k = 0; k < segments; k++)
        {
            int a = 3 + r * segments + k, b = 3 + r * segments + (k + 1) % segments;
            len += (size_t)snprintf(text + len, sizeof text - len, "f %d %d %d\nf %d %d %d\n", a, b,
                                    b + segments, a, b + segments, a + segments);
        }
    obj_model *m = parse(text);
    ENSURE(m && model_mesh_is_closed(m, 0, m->triangle_count));
    ph_world *world = new_world();
    float mass;
    ph_vec3 c;
    ph_mat3 in;
    bool from_mesh = false;
    ENSURE(solid_body(world, text, &mass, &c, &in, &from_mesh) == 0 && from_mesh);

    int *tri = malloc((size_t)m->triangle_count * 3 * sizeof(int));
    ENSURE(tri);
    for (int t = 0; t < m->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            tri[3 * t + k] = m->triangles[t].corner[k].position;
    double lo[3] = {1e9, 1e9, 1e9}, hi[3] = {-1e9, -1e9, -1e9};
    for (int i = 0; i < m->position_count; i++)
        for (int k = 0; k < 3; k++)
        {
            lo[k] = fmin(lo[k], (double)m->positions[3 * i + k]);
            hi[k] = fmax(hi[k], (double)m->positions[3 * i + k]);
        }
    double box = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    double n_in = 0.0, sum[3] = {0}, second[3][3] = {{0}};
    for (int i = 0; i < samples; i++)
    {
        double p[3];
        for (int k = 0; k < 3; k++)
            p[k] = lo[k] + (hi[k] - lo[k]) * (double)test_rand_float(&rng, 0.0f, 1.0f);
        if (!inside_mesh(m->positions, tri, m->triangle_count, p))
            continue;
        n_in += 1.0;
        for (int k = 0; k < 3; k++)
        {
            sum[k] += p[k];
            for (int j = 0; j < 3; j++)
                second[k][j] += p[k] * p[j];
        }
    }
    ENSURE(n_in > 1000.0);
    double volume = box * n_in / samples, mc_mass = 1000.0 * volume;
    double mc_c[3] = {sum[0] / n_in, sum[1] / n_in, sum[2] / n_in};
    double size = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    // Sampling errors (a few standard deviations): the fraction inside is known to about 0.4 %.
    ENSURE_NEAR(mass, mc_mass, 0.02 * mc_mass);
    ENSURE_VEC3_NEAR(c, ph_v3((float)mc_c[0], (float)mc_c[1], (float)mc_c[2]), (float)(0.01 * size));
    // Inertia about the centre: I = m (tr(S) E - S) with S the covariance of the points inside.
    double cov[3][3], mc_i[3][3];
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            cov[k][j] = second[k][j] / n_in - mc_c[k] * mc_c[j];
    double tr = cov[0][0] + cov[1][1] + cov[2][2];
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            mc_i[k][j] = mc_mass * ((k == j ? tr : 0.0) - cov[k][j]);
    double scale = mc_i[0][0] + mc_i[1][1] + mc_i[2][2];
    ENSURE(ensure_inertia(in, mc_i, 0.02 * scale) == 0);
    // The hull would have weighed more: the surface is concave.
    model_shape_options so = model_default_shape_options();
    model_shape shape;
    asset_error err;
    ENSURE(model_physics_build_shape(world, m, &so, &shape, NULL, &err));
    const ph_hull *hull = ph_world_get_hull(world, shape.shape.geom);
    ph_convex hc = ph_convex_hull(hull);
    ENSURE(ph_compute_mass(&hc, 1000.0f).mass > 1.05f * mass);
    free(tri);
    obj_free(m);
    ph_world_destroy(world);
    return 0;
}

// Shared multi-object files as .obj scenes: test_map01 (7 closed convex objects, none named static)
// lands on a default ground; the cornell box's flat walls become static with warnings, its empty
// front wall is skipped with a warning.
static int model_obj_scene_shared(void)
{
    REQUIRE_SHARED_TESTDATA();
    obj_model *m = load_path(SHARED_TESTDATA_DIR "/obj/test_map01.obj");
    ENSURE(m);
    ph_world *world = new_world();
    model_set set = {0};
    asset_warnings warnings = {0};
    asset_error err;
    ENSURE(model_physics_add_scene(world, m, NULL, &set, &warnings, &err));
    ENSURE(set.body_count == 8 && warnings.count == 0);
    ENSURE(strcmp(set.bodies[7].name, "default ground") == 0);
    ENSURE(ph_body_get_type(world, set.bodies[7].body) == PH_BODY_STATIC);
    // The ground's top is at the lowest point of the file (y = -1: the floor slab's bottom).
    ENSURE_NEAR(ph_body_get_bounds(world, set.bodies[7].body).hi.y, -1.0f, 1e-4f);
    // The slab (object 0, 40 x 1 x 40 of density 1000) weighs 1.6e6 kg.
    ENSURE_NEAR(ph_body_get_mass(world, set.bodies[0].body), 1.6e6f, 1e-3f * 1.6e6f);
    model_set_free(&set);
    ph_world_destroy(world);
    obj_free(m);

    m = load_path(SHARED_TESTDATA_DIR "/obj/cornell_box.obj");
    ENSURE(m);
    world = new_world();
    memset(&warnings, 0, sizeof warnings);
    model_scene_options so = model_default_scene_options();
    so.scale = 0.01f; // millimetres to centimetres-ish: a 5.5 m room
    ENSURE(model_physics_add_scene(world, m, &so, &set, &warnings, &err));
    // 8 objects with faces + the default ground; the floor (3 coplanar quads), light, ceiling and 3
    // walls are flat; the two 5-sided blocks are dynamic hulls.
    ENSURE(set.body_count == 9);
    ENSURE(warnings.count == 7);
    ENSURE(strstr(warnings.text[0], "cornell_box.obj:10: object 'floor' is flat"));
    ENSURE(strstr(warnings.text[4], "cornell_box.obj:55: object 'front_wall' has no faces"));
    int dynamic = 0;
    for (int i = 0; i < set.body_count; i++)
        dynamic += ph_body_get_type(world, set.bodies[i].body) == PH_BODY_DYNAMIC;
    ENSURE(dynamic == 2);
    model_set_free(&set);
    ph_world_destroy(world);
    obj_free(m);
    return 0;
}

// Dynamic models dropped onto static concave meshes come to rest on them, not through them: two crates
// in hollows of the terrain (heights from the same formula as models/make_models.py), a rock in the
// bowl (it rolls to the bottom).
static float terrain_height(float x, float z)
{
    return 0.6f * sinf(0.55f * x) * cosf(0.45f * z) + 0.35f * sinf(0.9f * z + 0.4f * x);
}

static int model_rests_on_static_mesh(void)
{
    obj_model *terrain = load_path(SANDBOX_SOURCE_DIR "/models/terrain.obj");
    obj_model *rock = load_path(SANDBOX_SOURCE_DIR "/models/rock.obj");
    obj_model *bowl = load_path(SANDBOX_SOURCE_DIR "/models/bowl.obj");
    obj_model *crate = load_path(SANDBOX_SOURCE_DIR "/models/crate.obj");
    ENSURE(terrain && rock && bowl && crate);
    ph_world *world = new_world();
    model_set set = {0};
    asset_error err;
    model_body_options bo = model_default_body_options();
    bo.type = PH_BODY_STATIC;
    bo.shape.kind = MODEL_SHAPE_MESH;
    ENSURE(model_physics_add_body(world, terrain, &bo, &set, NULL, &err));
    bo.position = ph_v3(20.0f, 0.0f, 0.0f);
    ENSURE(model_physics_add_body(world, bowl, &bo, &set, NULL, &err));
    ENSURE(ph_body_get_shape(world, set.bodies[0].body).type == PH_SHAPE_MESH);
    bo = model_default_body_options();
    // Crates into two hollows of the terrain (local minima of its height at (-2.9, -0.3) and (4.2, -4.3);
    // on its slopes things slide or roll off the 16 m patch), a rock into the bowl.
    const ph_vec3 drops[3] = {{{-2.9f, 2.5f, -0.3f}}, {{4.2f, 2.5f, -4.3f}}, {{20.5f, 3.0f, 0.3f}}};
    bo.position = drops[0];
    bo.orientation = glms_quatv(0.7f, glms_vec3_normalize(ph_v3(1.0f, 1.0f, 0.0f)));
    ENSURE(model_physics_add_body(world, crate, &bo, &set, NULL, &err));
    bo.position = drops[1];
    bo.orientation = glms_quatv(0.5f, ph_v3(0.0f, 1.0f, 0.0f));
    ENSURE(model_physics_add_body(world, crate, &bo, &set, NULL, &err));
    bo.position = drops[2];
    ENSURE(model_physics_add_body(world, rock, &bo, &set, NULL, &err));
    // 10 s: the rock rolls about the bowl's bottom for about 8 s before it settles and sleeps.
    for (int s = 0; s < 600; s++)
        ph_world_step(world);
    for (int i = 2; i < 5; i++)
    {
        ph_body_id b = set.bodies[i].body;
        ph_vec3 p = ph_body_get_position(world, b);
        ph_aabb box = ph_body_get_bounds(world, b);
        ENSURE(ph_is_finite_vec3(p));
        ENSURE(glms_vec3_norm(ph_body_get_linear_velocity(world, b)) < 0.05f);
        if (i < 4)
        {
            // On the terrain: the crate's lowest point near the ground under it, its centre above.
            float ground = terrain_height(p.x, p.z);
            ENSURE(p.y > ground);
            ENSURE(box.lo.y > ground - 0.35f && box.lo.y < ground + 0.35f);
        }
        else
        {
            // In the bowl (bottom at y = 0, 20 m along x): the rock rests low inside it.
            ENSURE(box.lo.y > -0.05f && box.lo.y < 0.6f);
            ENSURE(fabsf(p.x - 20.0f) < 1.5f && fabsf(p.z) < 1.5f);
        }
    }
    model_set_free(&set);
    ph_world_destroy(world);
    obj_free(terrain);
    obj_free(rock);
    obj_free(bowl);
    obj_free(crate);
    return 0;
}

static int simulate_scene(const char *path, float seconds)
{
    scene_desc *desc = NULL;
    asset_error err;
    if (!scene_load(path, NULL, &desc, &err))
    {
        fprintf(stderr, "%s\n", err.text);
        return 1;
    }
    ph_world_def wdef = scene_world_def(desc);
    ph_world *world = ph_world_create(&wdef);
    ENSURE(world);
    model_set set = {0};
    asset_warnings warnings = {0};
    if (!scene_build(world, desc, &set, &warnings, &err))
    {
        fprintf(stderr, "%s\n", err.text);
        return 1;
    }
    ENSURE(set.body_count > 0 && ph_world_get_body_count(world) == set.body_count);
    int steps = (int)(seconds / desc->time_step);
    for (int s = 0; s < steps; s++)
        ph_world_step(world);
    for (int i = 0; i < set.body_count; i++)
    {
        ph_body_id b = set.bodies[i].body;
        ENSURE(ph_is_finite_vec3(ph_body_get_position(world, b)));
        ENSURE(ph_is_finite_quat(ph_body_get_orientation(world, b)));
        ENSURE(ph_is_finite_vec3(ph_body_get_linear_velocity(world, b)));
    }
    model_set_free(&set);
    ph_world_destroy(world);
    scene_free(desc);
    return 0;
}

// A scene with every kind of entry (each generator, each model shape and body type, an .obj scene)
// loads and simulates 5 s without NaN.
static int model_scene_every_entry(void)
{
    ENSURE(simulate_scene(SANDBOX_SOURCE_DIR "/tests/data/every_entry.json", 5.0f) == 0);
    return 0;
}

// Every shipped scene loads, builds and simulates 1 s without NaN.
static int model_scenes_shipped(void)
{
    const char *scenes[] = {"default", "stacking", "throwing", "room", "terrain", "dominoes", "models"};
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++)
    {
        char path[512];
        snprintf(path, sizeof path, "%s/scenes/%s.json", SANDBOX_SOURCE_DIR, scenes[i]);
        if (simulate_scene(path, 1.0f) != 0)
        {
            fprintf(stderr, "scene %s failed\n", path);
            return 1;
        }
    }
    return 0;
}

// A scene whose last entry cannot be built (a flat model asked to be a hull) leaves the world as it
// was: the bodies of the entries before it are removed again.
static int model_scene_build_is_atomic(void)
{
    const char *json = "{\"entries\": [{\"generator\": \"wall\", \"rows\": 2, \"columns\": 3},"
                       " {\"model\": \"bad_flat.obj\"}]}";
    scene_desc *desc = NULL;
    asset_error err;
    ENSURE(scene_parse(json, strlen(json), SANDBOX_SOURCE_DIR "/tests/data/atomic.json", NULL, &desc, &err));
    ph_world *world = new_world();
    model_set set = {0};
    ph_body_def def = ph_default_body_def();
    ph_body_id before = ph_body_create(world, &def);
    ENSURE(!PH_ID_IS_NULL(before));
    ENSURE(!scene_build(world, desc, &set, NULL, &err));
    // The error names the scene file and the entry, then the model's own message.
    ENSURE(strncmp(err.text, SANDBOX_SOURCE_DIR "/tests/data/atomic.json: entries[1] (bad_flat.obj): ",
                   strlen(SANDBOX_SOURCE_DIR "/tests/data/atomic.json: entries[1] (bad_flat.obj): ")) == 0);
    ENSURE(strstr(err.text, "bad_flat.obj") && strstr(err.text, "flat"));
    ENSURE(set.body_count == 0 && ph_world_get_body_count(world) == 1 && ph_body_is_valid(world, before));
    // As an .obj scene the same file loads: its one (unnamed) object becomes static, with a warning that
    // names the file, the line of its first face and the object.
    obj_model *flat = load_path(SANDBOX_SOURCE_DIR "/tests/data/bad_flat.obj");
    ENSURE(flat);
    asset_warnings warnings = {0};
    ENSURE(model_physics_add_scene(world, flat, NULL, &set, &warnings, &err));
    ENSURE(set.body_count == 2 && ph_body_get_type(world, set.bodies[0].body) == PH_BODY_STATIC);
    ENSURE(warnings.count == 1 && strstr(warnings.text[0], "bad_flat.obj:6: object '(unnamed)' is flat"));
    obj_free(flat);
    model_set_free(&set);
    ph_world_destroy(world);
    scene_free(desc);
    return 0;
}

const test_case test_model_cases[] = {
    {"model_mesh_cube_flat", model_mesh_cube_flat},
    {"model_mesh_cube_smoothing_groups", model_mesh_cube_smoothing_groups},
    {"model_mesh_sphere_smooth", model_mesh_sphere_smooth},
    {"model_mesh_normals_colours_scale", model_mesh_normals_colours_scale},
    {"model_mesh_shared_cube", model_mesh_shared_cube},
    {"model_mesh_open_two_sided", model_mesh_open_two_sided},
    {"model_hull_contains_vertices", model_hull_contains_vertices},
    {"model_hull_cube_mass", model_hull_cube_mass},
    {"model_compound_chair", model_compound_chair},
    {"model_obj_scene_room", model_obj_scene_room},
    {"model_obj_scene_static_shapes", model_obj_scene_static_shapes},
    {"model_obj_scene_shared", model_obj_scene_shared},
    {"model_obj_scene_zero_volume", model_obj_scene_zero_volume},
    {"model_huge_coordinates", model_huge_coordinates},
    {"model_compound_split", model_compound_split},
    {"model_mass_from_mesh", model_mass_from_mesh},
    {"model_mass_monte_carlo", model_mass_monte_carlo},
    {"model_rests_on_static_mesh", model_rests_on_static_mesh},
    {"model_scene_every_entry", model_scene_every_entry},
    {"model_scenes_shipped", model_scenes_shipped},
    {"model_scene_build_is_atomic", model_scene_build_is_atomic},
    {0},
};
