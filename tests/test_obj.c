// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Tests of the .obj/.mtl parser (src/assets/obj.c, mtl.c): every statement form, every malformed case
// and its "file:line: message", triangulation of concave polygons against exact areas, streaming across
// chunk boundaries, and the shared real-world files in ../shared/testdata/obj with counts checked by
// hand (SOURCES.md there lists vertices, faces by size and objects).
#define _POSIX_C_SOURCE 200809L // mkdtemp, getpid

#include "assets/obj.h"
#include "assets/text.h"
#include "test.h"

#include <stdint.h> // int32_t, INT32_MIN
#include <stdio.h>  // fopen, fwrite
#include <stdlib.h> // malloc, free, mkdtemp, strtof
#include <string.h> // strstr, strlen, memcpy
#include <unistd.h> // getpid, unlink, rmdir

static obj_model *parse_text(const char *text, asset_error *err)
{
    obj_model *m = NULL;
    obj_options opt = obj_default_options();
    opt.load_materials = false;
    if (!obj_parse(text, strlen(text), "mem.obj", &opt, &m, err))
        return NULL;
    return m;
}

// Parses text that must fail, and checks that the message starts with "mem.obj:LINE: " and holds what.
static int expect_error(const char *text, int line, const char *what)
{
    asset_error err;
    obj_model *m = parse_text(text, &err);
    if (m)
    {
        obj_free(m);
        fprintf(stderr, "expected an error for:\n%s\n", text);
        return 1;
    }
    char prefix[64];
    snprintf(prefix, sizeof prefix, "mem.obj:%d: ", line);
    if (strncmp(err.text, prefix, strlen(prefix)) != 0 || !strstr(err.text, what) || err.line != line)
    {
        fprintf(stderr, "error '%s' (line %d) should start with '%s' and contain '%s'\n", err.text, err.line,
                prefix, what);
        return 1;
    }
    return 0;
}

static int obj_vertex_forms(void)
{
    asset_error err;
    obj_model *m = parse_text("v 1 2 3\n"
                              "v 4 5 6 0.5\n"
                              "v 7 8 9 0.25 0.5 0.75\n"
                              "vt 0.5\n"
                              "vt 0.25 0.75\n"
                              "vt 0.1 0.2 0.3\n"
                              "vn 0 0 1\n"
                              "v -1.5e2 +2.5E-1 .5\n",
                              &err);
    ENSURE(m);
    ENSURE(m->position_count == 4 && m->uv_count == 3 && m->normal_count == 1);
    ENSURE_NEAR(m->positions[3], 4.0f, 0.0f);
    ENSURE_NEAR(m->positions[9], -150.0f, 0.0f);
    ENSURE_NEAR(m->positions[10], 0.25f, 0.0f);
    ENSURE_NEAR(m->positions[11], 0.5f, 0.0f);
    ENSURE(m->colors);
    // Vertices without colour are white; the coloured one keeps its r g b.
    ENSURE_NEAR(m->colors[0], 1.0f, 0.0f);
    ENSURE_NEAR(m->colors[6], 0.25f, 0.0f);
    ENSURE_NEAR(m->colors[8], 0.75f, 0.0f);
    ENSURE_NEAR(m->colors[9], 1.0f, 0.0f);
    ENSURE_NEAR(m->uvs[0], 0.5f, 0.0f);
    ENSURE_NEAR(m->uvs[1], 0.0f, 0.0f);
    ENSURE_NEAR(m->uvs[3], 0.75f, 0.0f);
    ENSURE_NEAR(m->normals[2], 1.0f, 0.0f);
    ENSURE(m->face_count == 0 && m->triangle_count == 0 && m->object_count == 0 && m->group_count == 0);
    obj_free(m);
    return 0;
}

// Numbers against strtod's correctly rounded answers.
static int obj_number_precision(void)
{
    const char *numbers[] = {
        "0.1",      "3.14159265358979", "-2.5e-3",        "1e10", "123456789012345678901234",
        "0.000001", "6.02214076e23",    "1.17549435e-38", "-0",   "99999.99999"};
    char text[512] = "";
    for (int i = 0; i < 10; i += 1)
    {
        char line[96];
        snprintf(line, sizeof line, "v %s 0 0\n", numbers[i]);
        strcat(text, line);
    }
    asset_error err;
    obj_model *m = parse_text(text, &err);
    ENSURE(m);
    for (int i = 0; i < 10; i++)
    {
        float want = strtof(numbers[i], NULL);
        float got = m->positions[3 * i];
        // Within one float ulp of the correctly rounded value.
        ENSURE_NEAR(got, want, fabsf(want) * 1.2e-7f);
    }
    obj_free(m);
    return 0;
}

// The hand-written number parser (text.h) against strtof on random decimal strings of every shape:
// signs, leading zeros, no integer or no fraction part, long mantissas, exponents to +-45 (float
// overflow, underflow and subnormals). The float it gives is within one ulp of strtof's correctly
// rounded one (the double it computes first is rounded again), and equal almost always.
static int obj_number_random_vs_strtof(void)
{
    uint64_t rng = test_seed();
    const int trials = 200000;
    int exact = 0;
    char s[96];
    for (int t = 0; t < trials; t++)
    {
        int len = 0;
        uint64_t r = test_rand_u64(&rng);
        if (r % 3 == 0)
            s[len++] = (r / 3) % 2 ? '-' : '+';
        int int_digits = (int)(test_rand_u64(&rng) % 12), frac_digits = (int)(test_rand_u64(&rng) % 12);
        if (test_rand_u64(&rng) % 8 == 0)
            int_digits += 15; // past the 19 digits the mantissa keeps
        bool point = frac_digits > 0 || int_digits == 0 || test_rand_u64(&rng) % 4 == 0;
        if (int_digits == 0 && frac_digits == 0)
            frac_digits = 1;
        bool leading_zeros = test_rand_u64(&rng) % 4 == 0;
        for (int i = 0; i < int_digits; i++)
            s[len++] = (char)('0' + (leading_zeros && i < 3 ? 0 : test_rand_u64(&rng) % 10));
        if (point)
            s[len++] = '.';
        for (int i = 0; i < frac_digits; i++)
            s[len++] = (char)('0' + (leading_zeros && i < 4 ? 0 : test_rand_u64(&rng) % 10));
        if (test_rand_u64(&rng) % 2)
        {
            s[len++] = test_rand_u64(&rng) % 2 ? 'e' : 'E';
            uint64_t x = test_rand_u64(&rng);
            if (x % 3)
                s[len++] = x % 3 == 1 ? '-' : '+';
            len += snprintf(s + len, sizeof s - (size_t)len, "%d", (int)(test_rand_u64(&rng) % 46));
        }
        s[len] = '\0';

        double v = 0.0;
        const char *end = text_parse_number(s, s + len, &v);
        char *want_end = NULL;
        float want = strtof(s, &want_end);
        float got = (float)v;
        if (end != s + len || want_end != s + len)
        {
            fprintf(stderr, "'%s': parsed %d bytes, strtof %d\n", s, end ? (int)(end - s) : -1,
                    (int)(want_end - s));
            ENSURE(0);
        }
        if (isinf(want) || isinf(got))
        {
            ENSURE(got == want);
            exact++;
            continue;
        }
        // Distance in ulps: the ordered integer images of two floats of the same sign (zero of either
        // sign counts as the same).
        int32_t a, b;
        memcpy(&a, &got, sizeof a);
        memcpy(&b, &want, sizeof b);
        a = a < 0 ? INT32_MIN - a : a;
        b = b < 0 ? INT32_MIN - b : b;
        int64_t ulps = (int64_t)a - (int64_t)b;
        if (ulps < -1 || ulps > 1)
        {
            fprintf(stderr, "'%s': got %.9g, strtof %.9g\n", s, (double)got, (double)want);
            ENSURE(0);
        }
        exact += ulps == 0;
    }
    ENSURE(exact >= trials - trials / 1000);
    return 0;
}

static int obj_face_forms(void)
{
    asset_error err;
    obj_model *m = parse_text("v 0 0 0\nv 1 0 0\nv 0 1 0\n"
                              "vt 0 0\nvt 1 0\nvt 0 1\n"
                              "vn 0 0 1\nvn 0 0 1\nvn 0 0 1\n"
                              "f 1 2 3\n"
                              "f 1/1 2/2 3/3\n"
                              "f 1//3 2//2 3//1\n"
                              "f 3/1/2 1/2/3 2/3/1\n"
                              "f -3/-3/-3 -2/-2/-2 -1/-1/-1\n",
                              &err);
    ENSURE(m);
    ENSURE(m->face_count == 5 && m->triangle_count == 5);
    const obj_triangle *t = m->triangles;
    ENSURE(t[0].corner[0].position == 0 && t[0].corner[0].uv == -1 && t[0].corner[0].normal == -1);
    ENSURE(t[1].corner[1].position == 1 && t[1].corner[1].uv == 1 && t[1].corner[1].normal == -1);
    ENSURE(t[2].corner[0].position == 0 && t[2].corner[0].uv == -1 && t[2].corner[0].normal == 2);
    ENSURE(t[3].corner[0].position == 2 && t[3].corner[0].uv == 0 && t[3].corner[0].normal == 1);
    for (int k = 0; k < 3; k++)
        ENSURE(t[4].corner[k].position == k && t[4].corner[k].uv == k && t[4].corner[k].normal == k);
    for (int i = 0; i < 5; i++)
        ENSURE(t[i].face == i && t[i].material == -1 && t[i].smoothing == 0);
    // Faces outside any o/g make one implicit object and group named "".
    ENSURE(m->object_count == 1 && m->group_count == 1);
    ENSURE(strcmp(m->objects[0].name, "") == 0 && m->objects[0].face_count == 5);
    // They keep the line of their first face, so that warnings about them can name one.
    ENSURE(m->objects[0].line == 10 && m->groups[0].line == 10);
    obj_free(m);
    return 0;
}

// Negative indices count back from the last element defined before the face (cornell_box style).
static int obj_negative_indices(void)
{
    asset_error err;
    obj_model *m = parse_text("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf -4 -3 -2 -1\n"
                              "v 0 0 1\nv 1 0 1\nv 1 1 1\nf -3 -2 -1\nf 1 -1 -2\n",
                              &err);
    ENSURE(m);
    ENSURE(m->face_count == 3 && m->triangle_count == 4);
    const obj_triangle *t = &m->triangles[2];
    ENSURE(t->corner[0].position == 4 && t->corner[1].position == 5 && t->corner[2].position == 6);
    t = &m->triangles[3];
    ENSURE(t->corner[0].position == 0 && t->corner[1].position == 6 && t->corner[2].position == 5);
    obj_free(m);
    return 0;
}

static int obj_objects_groups_materials(void)
{
    asset_error err;
    obj_model *m = parse_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                              "o first thing\n"
                              "usemtl red\n"
                              "s 1\n"
                              "f 1 2 3\n"
                              "g part a\n"
                              "f 1 2 4\n"
                              "usemtl blue\n"
                              "s off\n"
                              "f 1 3 4\n"
                              "g part_b # comment\n"
                              "usemtl red\n"
                              "s 7\n"
                              "f 2 3 4\n"
                              "o empty\n"
                              "o\n"
                              "f 1 2 3\n",
                              &err);
    ENSURE(m);
    ENSURE(m->object_count == 3);
    ENSURE(strcmp(m->objects[0].name, "first thing") == 0);
    ENSURE(m->objects[0].first_face == 0 && m->objects[0].face_count == 4 && m->objects[0].line == 5);
    ENSURE(strcmp(m->objects[1].name, "empty") == 0 && m->objects[1].face_count == 0);
    ENSURE(strcmp(m->objects[2].name, "") == 0 && m->objects[2].first_face == 4 &&
           m->objects[2].face_count == 1);
    // Groups: the implicit one holding the first face of "first thing", "part a", "part_b", the implicit
    // one of the last object.
    ENSURE(m->group_count == 4);
    ENSURE(strcmp(m->groups[0].name, "") == 0 && m->groups[0].face_count == 1 && m->groups[0].object == 0);
    ENSURE(strcmp(m->groups[1].name, "part a") == 0 && m->groups[1].face_count == 2 &&
           m->groups[1].object == 0);
    ENSURE(strcmp(m->groups[2].name, "part_b") == 0 && m->groups[2].face_count == 1 &&
           m->groups[2].line == 14);
    ENSURE(m->groups[3].object == 2 && m->groups[3].first_triangle == 4);
    ENSURE(m->material_count == 2);
    ENSURE(strcmp(m->materials[0].name, "red") == 0 && strcmp(m->materials[1].name, "blue") == 0);
    ENSURE(m->triangles[0].material == 0 && m->triangles[2].material == 1 && m->triangles[3].material == 0);
    ENSURE(m->triangles[0].smoothing == 1 && m->triangles[2].smoothing == 0 &&
           m->triangles[3].smoothing == 7);
    ENSURE(m->has_smoothing);
    obj_free(m);
    return 0;
}

// Comments, blank and whitespace-only lines, CRLF, tabs, backslash continuations (LF and CRLF), a
// last line without newline and unknown statements.
static int obj_lexical_forms(void)
{
    asset_error err;
    obj_model *m = parse_text("# comment\r\n"
                              "   # indented comment\r\n"
                              "\r\n"
                              "  \t \r\n"
                              "v\t0 0 0 # trailing comment\r\n"
                              "v 1 \\\r\n"
                              "  0 0\r\n"
                              "v 0 1 0\n"
                              "vp 0.5 0.5\n"
                              "l 1 2\n"
                              "curv 0 1 1 2\n"
                              "mg 1\n"
                              "f 1 \\\n"
                              "2 \\\n"
                              "3\n"
                              "v 5 5 5",
                              &err);
    ENSURE(m);
    ENSURE(m->position_count == 4 && m->face_count == 1);
    ENSURE_NEAR(m->positions[3], 1.0f, 0.0f);
    ENSURE_NEAR(m->positions[4], 0.0f, 0.0f);
    ENSURE_NEAR(m->positions[11], 5.0f, 0.0f);
    obj_free(m);
    // Line numbers count physical lines, continuations included.
    ENSURE(expect_error("v 0 0 0\nv 1 \\\n 0 0\nf 1 2 \\\n 7\n", 4, "out of range") == 0);
    return 0;
}

static int obj_malformed(void)
{
    const char *tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    char text[256];
    int failures = 0;
    struct
    {
        const char *tail;
        const char *what;
    } cases[] = {
        {"f 1 2 4\n", "vertex index 4 out of range (3 defined so far)"},
        {"f 1 2 -4\n", "vertex index -4 out of range"},
        {"f 1 2 0\n", "index 0"},
        {"f 1 2\n", "face with 2 vertices"},
        {"f\n", "face with 0 vertices"},
        {"f 1 2 x\n", "non-numeric vertex index 'x'"},
        {"f 1/1 2 3\n", "texture index 1 out of range (0 defined so far)"},
        {"f 1//1 2 3\n", "normal index 1 out of range"},
        {"f 1 2 3x\n", "unexpected 'x'"},
        {"v 1 2\n", "expected x y z"},
        {"v 1 2 3 4 5\n", "expected x y z"},
        {"v 1 abc 3\n", "non-numeric value 'abc'"},
        {"v 1 2.5.5 3\n", "non-numeric value"},
        {"v 1 1e 3\n", "non-numeric value"},
        {"v nan 0 0\n", "NaN coordinate"},
        {"v 0 inf 0\n", "infinite coordinate"},
        {"v 0 0 1e39\n", "infinite coordinate"},
        {"vn 0 0\n", "vn: expected x y z"},
        {"vt\n", "vt: expected u"},
        {"vt 0 0 0 0\n", "too many numbers"},
        {"s maybe\n", "smoothing group"},
        {"f 99999999999 2 3\n", "out of range"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        snprintf(text, sizeof text, "%s%s", tri, cases[i].tail);
        failures += expect_error(text, 4, cases[i].what);
    }
    ENSURE(failures == 0);
    return 0;
}

// Limits turn absurd input into an error, not unbounded memory.
static int obj_limits(void)
{
    asset_error err;
    obj_options opt = obj_default_options();
    opt.load_materials = false;
    opt.max_vertices = 3;
    obj_model *m = NULL;
    const char *text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n";
    ENSURE(!obj_parse(text, strlen(text), "mem.obj", &opt, &m, &err) && !m);
    ENSURE(strstr(err.text, "mem.obj:4: more than 3 vertices"));

    opt = obj_default_options();
    opt.max_triangles = 2;
    text = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\nf 1 2 3\n";
    ENSURE(!obj_parse(text, strlen(text), "mem.obj", &opt, &m, &err));
    ENSURE(strstr(err.text, "mem.obj:6: more than 2 triangles"));

    // A line past OBJ_MAX_LINE_LENGTH, also when made of continuations.
    size_t n = OBJ_MAX_LINE_LENGTH + 4000;
    char *big = malloc(n + 1);
    ENSURE(big);
    memset(big, ' ', n);
    memcpy(big, "v 0 0 0\nv", 9);
    big[n] = '\0';
    m = parse_text(big, &err);
    ENSURE(!m && strstr(err.text, "mem.obj:2: line longer than"));
    for (size_t i = 20; i + 2 < n; i += 1000)
    {
        big[i] = '\\';
        big[i + 1] = '\n';
    }
    m = parse_text(big, &err);
    ENSURE(!m && strstr(err.text, "line longer than"));
    free(big);

    char name[400];
    memset(name, 'a', sizeof name);
    memcpy(name, "o ", 2);
    name[sizeof name - 1] = '\0';
    m = parse_text(name, &err);
    ENSURE(!m && strstr(err.text, "mem.obj:1: name longer than"));

    // A polygon with more corners than OBJ_MAX_FACE_CORNERS.
    size_t cap = 4 * (OBJ_MAX_FACE_CORNERS + 2) + 64;
    char *face = malloc(cap);
    ENSURE(face);
    strcpy(face, "v 0 0 0\nf");
    for (int i = 0; i <= OBJ_MAX_FACE_CORNERS; i++)
        strcat(face, " 1");
    m = parse_text(face, &err);
    free(face);
    ENSURE(!m && strstr(err.text, "mem.obj:2: face with more than"));
    return 0;
}

// ---- Triangulation ---------------------------------------------------------------------------------

// Signed area of triangle (a, b, c) along unit normal n.
static double tri_area_along(const float *a, const float *b, const float *c, const double n[3])
{
    double u[3], v[3];
    for (int k = 0; k < 3; k++)
    {
        u[k] = (double)b[k] - (double)a[k];
        v[k] = (double)c[k] - (double)a[k];
    }
    double cx = u[1] * v[2] - u[2] * v[1], cy = u[2] * v[0] - u[0] * v[2], cz = u[0] * v[1] - u[1] * v[0];
    return 0.5 * (cx * n[0] + cy * n[1] + cz * n[2]);
}

// Parses one polygon: its corners as `v` lines, then one face through them all in order.
static obj_model *parse_polygon(const ph_vec3 *points, int n, asset_error *err)
{
    size_t cap = (size_t)n * 64 + 64, len = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(text + len, cap - len, "v %.9g %.9g %.9g\n", (double)points[i].x,
                                (double)points[i].y, (double)points[i].z);
    len += (size_t)snprintf(text + len, cap - len, "f");
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(text + len, cap - len, " %d", i + 1);
    snprintf(text + len, cap - len, "\n");
    obj_model *m = parse_text(text, err);
    free(text);
    return m;
}

// A random simple polygon (star-shaped around its centre, so simple by construction, and concave
// wherever the radius dips), rotated and moved in 3D. Its triangulation must have n - 2 triangles, each
// with positive area along the polygon's normal, and their areas must add up to the polygon's area
// (the shoelace formula in its plane): a triangle outside the polygon or two overlapping would break
// the sum, since every triangle counts positively.
static int obj_triangulate_concave_random(void)
{
    uint64_t rng = test_seed();
    for (int trial = 0; trial < 206; trial++)
    {
        // Mostly small polygons; the last few have hundreds to thousands of corners, many of them
        // reflex (the clipper tests only those).
        int n = trial < 200 ? 4 + (int)(test_rand_u64(&rng) % 40)
                            : 200 + (int)(test_rand_u64(&rng) % (unsigned)(trial == 205 ? 3800 : 1000));
        ph_quat q = test_rand_quat(&rng);
        ph_vec3 offset = test_rand_vec3(&rng, -50.0f, 50.0f);
        double area = 0.0;
        float *px = malloc(2 * (size_t)n * sizeof(float)), *py = px + n;
        ph_vec3 *points = malloc((size_t)n * sizeof(ph_vec3));
        ENSURE(px && points);
        for (int i = 0; i < n; i++)
        {
            float angle = 2.0f * GLM_PIf * ((float)i + test_rand_float(&rng, 0.1f, 0.9f)) / (float)n;
            float r = test_rand_float(&rng, 0.2f, 3.0f);
            px[i] = r * cosf(angle);
            py[i] = r * sinf(angle);
        }
        for (int i = 0; i < n; i++)
        {
            int j = (i + 1) % n;
            area += 0.5 * ((double)px[i] * (double)py[j] - (double)px[j] * (double)py[i]);
            points[i] = glms_vec3_add(glms_quat_rotatev(q, ph_v3(px[i], py[i], 0.0f)), offset);
        }
        asset_error err;
        obj_model *m = parse_polygon(points, n, &err);
        free(px);
        free(points);
        ENSURE(m);
        ENSURE(m->triangle_count == n - 2);
        ph_vec3 nz = glms_quat_rotatev(q, ph_v3(0.0f, 0.0f, 1.0f));
        double normal[3] = {(double)nz.x, (double)nz.y, (double)nz.z};
        double sum = 0.0;
        for (int t = 0; t < m->triangle_count; t++)
        {
            const obj_corner *c = m->triangles[t].corner;
            double a = tri_area_along(m->positions + 3 * c[0].position, m->positions + 3 * c[1].position,
                                      m->positions + 3 * c[2].position, normal);
            ENSURE(a > -1e-4 * area);
            sum += a;
        }
        ENSURE_NEAR(sum, area, 1e-4 * area);
        obj_free(m);
    }
    return 0;
}

// A hand-checked concave case: an L-shaped hexagon whose fan from corner 1 would leave the polygon.
static int obj_triangulate_l_shape(void)
{
    asset_error err;
    // Corners: (0,0) (2,0) (2,1) (1,1) (1,2) (0,2); area 3. Written starting at the reflex corner (1,1),
    // so the fan from the first corner would cover (2,2), which is outside.
    obj_model *m = parse_text("v 1 1 0\nv 1 2 0\nv 0 2 0\nv 0 0 0\nv 2 0 0\nv 2 1 0\nf 1 2 3 4 5 6\n", &err);
    ENSURE(m);
    ENSURE(m->triangle_count == 4 && m->face_count == 1);
    double normal[3] = {0.0, 0.0, 1.0}, sum = 0.0;
    for (int t = 0; t < 4; t++)
    {
        const obj_corner *c = m->triangles[t].corner;
        double a = tri_area_along(m->positions + 3 * c[0].position, m->positions + 3 * c[1].position,
                                  m->positions + 3 * c[2].position, normal);
        ENSURE(a > 0.0);
        sum += a;
    }
    ENSURE_NEAR(sum, 3.0, 1e-9);
    obj_free(m);
    // A clockwise-written quad keeps its (clockwise) winding: the triangles face -z.
    m = parse_text("v 0 0 0\nv 0 1 0\nv 1 1 0\nv 1 0 0\nf 1 2 3 4\n", &err);
    ENSURE(m && m->triangle_count == 2);
    for (int t = 0; t < 2; t++)
    {
        const obj_corner *c = m->triangles[t].corner;
        double a = tri_area_along(m->positions + 3 * c[0].position, m->positions + 3 * c[1].position,
                                  m->positions + 3 * c[2].position, normal);
        ENSURE_NEAR(a, -0.5, 1e-9);
    }
    obj_free(m);
    // A degenerate polygon (all corners on a line) still gives n - 2 triangles and no error.
    m = parse_text("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 3 0 0\nv 4 0 0\nf 1 2 3 4 5\n", &err);
    ENSURE(m && m->triangle_count == 3);
    obj_free(m);
    return 0;
}

// Self-intersecting polygons (random points in space, a bow tie, corners repeated) have no right
// triangulation, but they still give n - 2 triangles over their own corners and no error; the largest
// one also exercises the clipper's work budget.
static int obj_triangulate_self_intersecting(void)
{
    uint64_t rng = test_seed();
    const int sizes[] = {4, 5, 9, 50, 700, OBJ_MAX_FACE_CORNERS};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
        int n = sizes[s];
        ph_vec3 *points = malloc((size_t)n * sizeof(ph_vec3));
        ENSURE(points);
        for (int i = 0; i < n; i++)
            points[i] = test_rand_vec3(&rng, -1.0f, 1.0f);
        asset_error err;
        obj_model *m = parse_polygon(points, n, &err);
        free(points);
        ENSURE(m && m->face_count == 1 && m->triangle_count == n - 2);
        // Every corner of the polygon is used, none twice as the clipped tip.
        int *used = calloc((size_t)n, sizeof(int));
        ENSURE(used);
        for (int t = 0; t < m->triangle_count; t++)
            for (int k = 0; k < 3; k++)
            {
                int v = m->triangles[t].corner[k].position;
                ENSURE(v >= 0 && v < n);
                used[v] = 1;
            }
        int count = 0;
        for (int i = 0; i < n; i++)
            count += used[i];
        free(used);
        ENSURE(count == n);
        obj_free(m);
    }
    // A bow tie and a polygon that visits a corner twice.
    asset_error err;
    obj_model *m = parse_text("v 0 0 0\nv 1 1 0\nv 1 0 0\nv 0 1 0\nf 1 2 3 4\nf 1 3 2 1 4 2\n", &err);
    ENSURE(m && m->triangle_count == 6);
    obj_free(m);
    return 0;
}

// ---- Files and materials ---------------------------------------------------------------------------

typedef struct temp_dir
{
    char path[128];
} temp_dir;

static int make_temp_dir(temp_dir *dir)
{
    snprintf(dir->path, sizeof dir->path, "/tmp/assets_test_%d_XXXXXX", (int)getpid());
    return mkdtemp(dir->path) != NULL;
}

static int write_file(const temp_dir *dir, const char *name, const char *data, size_t len, char *out_path)
{
    snprintf(out_path, 256, "%s/%s", dir->path, name);
    FILE *f = fopen(out_path, "wb");
    if (!f)
        return 0;
    size_t wrote = fwrite(data, 1, len, f);
    fclose(f);
    return wrote == len;
}

static int obj_materials_and_warnings(void)
{
    temp_dir dir;
    ENSURE(make_temp_dir(&dir));
    char obj_path[256], mtl_path[256];
    const char *mtl =
        "# materials\r\nnewmtl red\r\nKd 1 0 0\r\nd 0.5\r\n\r\nnewmtl glass\nKd 0.2 0.3 0.4\nTr 0.75\n"
        "map_Kd .\\tex.jpg\nnewmtl plain";
    const char *obj = "mtllib m.mtl missing.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl glass\nf 1 2 3\n"
                      "usemtl red\nf 1 2 3\nusemtl nowhere\nf 1 2 3\nusemtl plain\nf 1 2 3\n";
    ENSURE(write_file(&dir, "m.mtl", mtl, strlen(mtl), mtl_path));
    ENSURE(write_file(&dir, "a.obj", obj, strlen(obj), obj_path));
    obj_model *m = NULL;
    asset_error err;
    ENSURE(obj_load(obj_path, NULL, &m, &err));
    ENSURE(m->material_count == 4);
    ENSURE(strcmp(m->materials[0].name, "glass") == 0);
    ENSURE_NEAR(m->materials[0].diffuse[2], 0.4f, 1e-6f);
    ENSURE_NEAR(m->materials[0].opacity, 0.25f, 1e-6f);
    ENSURE_NEAR(m->materials[1].diffuse[0], 1.0f, 0.0f);
    ENSURE_NEAR(m->materials[1].opacity, 0.5f, 1e-6f);
    ENSURE_NEAR(m->materials[3].diffuse[1], 0.8f, 1e-6f); // "plain": the default Kd
    // Two warnings: the missing library (line 1) and the unknown material (line 9).
    ENSURE(m->warning_count == 2 && m->kept_warning_count == 2);
    ENSURE(strstr(m->warnings[0], "a.obj:1: ") && strstr(m->warnings[0], "missing.mtl"));
    ENSURE(strstr(m->warnings[1], "a.obj:9: ") && strstr(m->warnings[1], "unknown material 'nowhere'"));
    obj_free(m);

    // A malformed .mtl is a warning naming its own file and line; the model still loads.
    const char *bad = "newmtl x\nKd 1 zero 0\n";
    ENSURE(write_file(&dir, "m.mtl", bad, strlen(bad), mtl_path));
    ENSURE(obj_load(obj_path, NULL, &m, &err));
    ENSURE(m->warning_count >= 2 && strstr(m->warnings[0], "m.mtl:2: Kd: non-numeric"));
    obj_free(m);
    unlink(mtl_path);
    unlink(obj_path);
    rmdir(dir.path);

    // mtl_parse on its own: statements before newmtl are an error.
    mtl_library *lib = NULL;
    ENSURE(!mtl_parse("Kd 1 1 1\n", 9, "x.mtl", &lib, &err) && !lib);
    ENSURE(strstr(err.text, "x.mtl:1: Kd before any newmtl"));
    ENSURE(mtl_parse("", 0, "x.mtl", &lib, &err) && lib && lib->material_count == 0);
    mtl_free(lib);
    return 0;
}

// The streaming file reader must give exactly what the in-memory parser gives, with lines and
// continuations crossing its 1 MiB chunk boundaries.
static int obj_streaming_matches_memory(void)
{
    size_t cap = 3u << 20;
    char *text = malloc(cap);
    ENSURE(text);
    size_t len = 0;
    int i = 0;
    while (len + 200 < cap - 64)
    {
        if (i % 97 == 5)
            len += (size_t)snprintf(text + len, cap - len, "v %d.25 \\\r\n %d.5 \\\n -%d\r\n", i, i, i);
        else
            len += (size_t)snprintf(text + len, cap - len, "v %d.125 %d 0.%d\n", i, i % 7, i);
        if (i % 3 == 2)
            len += (size_t)snprintf(text + len, cap - len, "f -1 -2 -3\n# a comment line %d\n", i);
        i++;
    }
    obj_model *a = NULL, *b = NULL;
    asset_error err;
    ENSURE(obj_parse(text, len, "mem.obj", NULL, &a, &err));
    temp_dir dir;
    ENSURE(make_temp_dir(&dir));
    char path[256];
    ENSURE(write_file(&dir, "big.obj", text, len, path));
    free(text);
    ENSURE(obj_load(path, NULL, &b, &err));
    unlink(path);
    rmdir(dir.path);
    ENSURE(a->position_count == i && b->position_count == i);
    ENSURE(a->triangle_count == b->triangle_count && a->triangle_count == i / 3);
    ENSURE(memcmp(a->positions, b->positions, (size_t)i * 3 * sizeof(float)) == 0);
    ENSURE(memcmp(a->triangles, b->triangles, (size_t)a->triangle_count * sizeof(obj_triangle)) == 0);
    ENSURE_NEAR(a->positions[3 * 5 + 1], 5.5f, 0.0f);
    obj_free(a);
    obj_free(b);
    // An error far into the file names its line.
    ENSURE(!obj_load("/nonexistent/x.obj", NULL, &a, &err) && !a);
    ENSURE(strstr(err.text, "/nonexistent/x.obj: cannot open"));
    obj_free(NULL);
    return 0;
}

// The hand-written malformed files in tests/data: loaded from disk, errors name the real path and line.
static int obj_data_files(void)
{
    struct
    {
        const char *file;
        int line;
        const char *what;
    } cases[] = {
        {"bad_index.obj", 7, "vertex index 9 out of range (3 defined so far)"},
        {"bad_zero_index_crlf.obj", 5, "normal index 0"},
        {"bad_number_continued.obj", 4, "non-numeric value '1,5'"},
        {"bad_nan.obj", 4, "NaN coordinate"},
        {"bad_short_face.obj", 3, "face with 2 vertices"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        char path[512], prefix[600];
        snprintf(path, sizeof path, "%s/tests/data/%s", SANDBOX_SOURCE_DIR, cases[i].file);
        snprintf(prefix, sizeof prefix, "%s:%d: ", path, cases[i].line);
        obj_model *m = NULL;
        asset_error err;
        ENSURE(!obj_load(path, NULL, &m, &err) && !m);
        if (strncmp(err.text, prefix, strlen(prefix)) != 0 || !strstr(err.text, cases[i].what))
        {
            fprintf(stderr, "got '%s', want '%s%s'\n", err.text, prefix, cases[i].what);
            ENSURE(0);
        }
        ENSURE(err.line == cases[i].line && strcmp(err.file, path) == 0);
    }
    // A missing .mtl is a warning: the model loads with the material's default colour.
    obj_model *m = NULL;
    asset_error err;
    ENSURE(obj_load(SANDBOX_SOURCE_DIR "/tests/data/missing_mtl.obj", NULL, &m, &err));
    ENSURE(m->triangle_count == 4 && m->material_count == 1 && m->warning_count == 2);
    ENSURE(strstr(m->warnings[0], "missing_mtl.obj:1: material library") &&
           strstr(m->warnings[0], "does_not_exist.mtl"));
    ENSURE(strstr(m->warnings[1], "missing_mtl.obj:6: usemtl: unknown material 'stone'"));
    ENSURE_NEAR(m->materials[0].diffuse[0], 0.8f, 1e-6f);
    obj_free(m);
    return 0;
}

static double model_volume(const obj_model *m, int first, int count);

// Loads tests/data/<file>; returns the model or NULL with err filled, and the path in path.
static obj_model *load_data(const char *file, char *path, size_t path_size, asset_error *err)
{
    snprintf(path, path_size, "%s/tests/data/%s", SANDBOX_SOURCE_DIR, file);
    obj_model *m = NULL;
    if (!obj_load(path, NULL, &m, err))
        return NULL;
    return m;
}

// Issue 22, defects 1 and 2: an empty usemtl is a warning (Blender writes it for an unassigned
// material), and a UTF-8 byte-order mark before a first `v` line does not drop that vertex.
static int obj_usemtl_empty_and_bom(void)
{
    char path[512];
    asset_error err;
    obj_model *m = load_data("usemtl_empty.obj", path, sizeof path, &err);
    if (!m)
        fprintf(stderr, "%s\n", err.text);
    ENSURE(m);
    ENSURE(m->triangle_count == 4 && m->warning_count == 2);
    ENSURE(strstr(m->warnings[0], "usemtl_empty.obj:6: usemtl without a material name"));
    ENSURE(strstr(m->warnings[1], "usemtl_empty.obj:9: usemtl without a material name"));
    for (int t = 0; t < m->triangle_count; t++)
        ENSURE(m->triangles[t].material == -1);
    obj_free(m);

    m = load_data("bom_tetra.obj", path, sizeof path, &err);
    ENSURE(m);
    ENSURE(m->position_count == 4 && m->triangle_count == 4 && m->warning_count == 0);
    ENSURE_NEAR(model_volume(m, 0, 4), 1.0 / 6.0, 1e-9);
    obj_free(m);
    // The same from memory, and a BOM alone or before a comment.
    const char *bom = "\xef\xbb\xbf# comment\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    m = parse_text(bom, &err);
    ENSURE(m && m->position_count == 3 && m->triangle_count == 1);
    obj_free(m);
    m = parse_text("\xef\xbb\xbf", &err);
    ENSURE(m && m->position_count == 0);
    obj_free(m);
    return 0;
}

// Issue 22, defect 5: messages name what is wrong as written in the file.
static int obj_messages(void)
{
    struct
    {
        const char *file;
        int line;
        const char *what;
    } cases[] = {
        {"bad_index_huge.obj", 5, "vertex index 99999999999999999999 out of range (3 defined so far)"},
        {"bad_nul_number.obj", 3, "v: a NUL byte (0x00) at column 4"},
        {"bad_lone_cr.obj", 3, "a lone carriage return at column 8"},
        {"bad_binary.obj", 3, "not a text file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        char path[512], prefix[600];
        asset_error err;
        obj_model *m = load_data(cases[i].file, path, sizeof path, &err);
        ENSURE(!m);
        snprintf(prefix, sizeof prefix, "%s:%d: ", path, cases[i].line);
        if (strncmp(err.text, prefix, strlen(prefix)) != 0 || !strstr(err.text, cases[i].what))
        {
            fprintf(stderr, "got '%s', want '%s%s'\n", err.text, prefix, cases[i].what);
            ENSURE(0);
        }
    }
    // The same in memory: a NUL in a face index and a negative index past the range.
    ENSURE(expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -99999999999\n", 4,
                        "index -99999999999 out of range") == 0);
    return 0;
}

// ---- Shared real-world files -----------------------------------------------------------------------

static obj_model *load_shared(const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/obj/%s", SHARED_TESTDATA_DIR, file);
    obj_model *m = NULL;
    asset_error err;
    if (!obj_load(path, NULL, &m, &err))
        fprintf(stderr, "%s\n", err.text);
    return m;
}

// Signed volume by the divergence theorem over the triangles (positive for outward winding).
static double model_volume(const obj_model *m, int first, int count)
{
    double v = 0.0;
    for (int t = first; t < first + count; t++)
    {
        const float *a = m->positions + 3 * m->triangles[t].corner[0].position;
        const float *b = m->positions + 3 * m->triangles[t].corner[1].position;
        const float *c = m->positions + 3 * m->triangles[t].corner[2].position;
        v += ((double)a[0] * ((double)b[1] * (double)c[2] - (double)b[2] * (double)c[1]) -
              (double)a[1] * ((double)b[0] * (double)c[2] - (double)b[2] * (double)c[0]) +
              (double)a[2] * ((double)b[0] * (double)c[1] - (double)b[1] * (double)c[0])) /
             6.0;
    }
    return v;
}

// Counts from ../shared/testdata/obj/SOURCES.md (v, vt, vn, faces by vertex count, objects, groups);
// triangles are sum(face size - 2) over those faces.
static int obj_shared_counts(void)
{
    REQUIRE_SHARED_TESTDATA();
    struct
    {
        const char *file;
        int v, vt, vn, faces, triangles, objects, groups, materials;
    } expect[] = {
        {"cube.obj", 26, 39, 6, 48, 48, 1, 1, 0},
        {"low_poly_bunny.obj", 350, 0, 350, 696, 696, 1, 1, 0},
        // 18 quads; 9 objects (front_wall has no face, so 8 implicit groups); 5 materials.
        {"cornell_box.obj", 76, 0, 0, 18, 36, 9, 8, 5},
        // 4 triangles + 160 quads + 16 pentagons = 4 + 320 + 48 triangles.
        {"spot_control_mesh.obj", 188, 267, 0, 180, 372, 1, 1, 0},
        // 82 quads + 8 16-gons = 164 + 112 triangles; 7 objects.
        {"test_map01.obj", 152, 0, 0, 90, 276, 7, 7, 0},
        // 19 `g` groups before any `o` (one implicit object), 4 materials used.
        {"spider.obj", 762, 302, 747, 1368, 1368, 1, 19, 4},
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
    {
        obj_model *m = load_shared(expect[i].file);
        ENSURE(m);
        if (m->position_count != expect[i].v || m->uv_count != expect[i].vt ||
            m->normal_count != expect[i].vn || m->face_count != expect[i].faces ||
            m->triangle_count != expect[i].triangles || m->object_count != expect[i].objects ||
            m->group_count != expect[i].groups || m->material_count != expect[i].materials)
        {
            fprintf(stderr, "%s: v %d vt %d vn %d faces %d triangles %d objects %d groups %d materials %d\n",
                    expect[i].file, m->position_count, m->uv_count, m->normal_count, m->face_count,
                    m->triangle_count, m->object_count, m->group_count, m->material_count);
            obj_free(m);
            ENSURE(0);
        }
        ENSURE(m->warning_count == 0);
        obj_free(m);
    }
    return 0;
}

// Geometry facts from SOURCES.md: volumes by the divergence theorem and the bunny's bounding box.
static int obj_shared_geometry(void)
{
    REQUIRE_SHARED_TESTDATA();
    obj_model *m = load_shared("cube.obj");
    ENSURE(m);
    ENSURE_NEAR(model_volume(m, 0, m->triangle_count), 8.0, 1e-9);
    obj_free(m);

    m = load_shared("low_poly_bunny.obj");
    ENSURE(m);
    ENSURE_NEAR(model_volume(m, 0, m->triangle_count), 5.97041, 1e-4);
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (int i = 0; i < m->position_count; i++)
        for (int k = 0; k < 3; k++)
        {
            lo[k] = fminf(lo[k], m->positions[3 * i + k]);
            hi[k] = fmaxf(hi[k], m->positions[3 * i + k]);
        }
    ENSURE_VEC3_NEAR(ph_v3(lo[0], lo[1], lo[2]), ph_v3(-1.906f, -0.331f, -1.242f), 1e-3f);
    ENSURE_VEC3_NEAR(ph_v3(hi[0], hi[1], hi[2]), ph_v3(1.234f, 2.730f, 1.188f), 1e-3f);
    obj_free(m);

    // Every object of the level is closed and convex; their volumes (planar faces, so any triangulation
    // gives the same) from SOURCES.md.
    m = load_shared("test_map01.obj");
    ENSURE(m);
    const double volumes[7] = {1600.0, 8.0, 39.99995, 0.1377661, 0.1377661, 0.1377661, 0.1377661};
    for (int o = 0; o < 7; o++)
        ENSURE_NEAR(model_volume(m, m->objects[o].first_triangle, m->objects[o].triangle_count), volumes[o],
                    1e-5 * volumes[o] + 1e-6);
    ENSURE(strcmp(m->objects[6].name, "Cylinder.003") == 0);
    obj_free(m);

    // Spot's quads are not exactly planar, so its volume depends on the diagonal that splits each quad
    // (SOURCES.md's 0.844791 fans from the first corner). Every triangulation of a quad or a pentagon is
    // a fan from one of its corners, so the volume lies between the sums over faces of the smallest and
    // the largest fan volume: 0.815387 and 0.884325 (computed once from the file's faces by a short script).
    m = load_shared("spot_control_mesh.obj");
    ENSURE(m);
    double spot = model_volume(m, 0, m->triangle_count);
    ENSURE(spot >= 0.815386 && spot <= 0.884326);
    obj_free(m);

    m = load_shared("cornell_box.obj");
    ENSURE(m);
    ENSURE(strcmp(m->objects[4].name, "front_wall") == 0 && m->objects[4].face_count == 0);
    ENSURE(strcmp(m->materials[4].name, "red") == 0);
    ENSURE_NEAR(m->materials[4].diffuse[0], 1.0f, 0.0f);
    ENSURE_NEAR(m->materials[4].diffuse[1], 0.0f, 0.0f);
    obj_free(m);

    m = load_shared("spider.obj");
    ENSURE(m);
    ENSURE(strcmp(m->groups[0].name, "HLeib01") == 0 && m->groups[0].line == 1822);
    ENSURE(m->has_smoothing);
    obj_free(m);
    return 0;
}

// The shared .mtl files parsed on their own (cornell_box.mtl: 5 materials, LF; spider.mtl: 5 materials,
// Windows texture paths, no newline at the end), and their colours reaching the models that use them.
static int obj_shared_materials(void)
{
    REQUIRE_SHARED_TESTDATA();
    const struct
    {
        const char *file;
        int count;
        const char *name;
        float kd[3];
    } expect[] = {
        {"cornell_box.mtl", 5, "green", {0.0f, 1.0f, 0.0f}},
        {"spider.mtl", 5, "Skin", {0.827451f, 0.792157f, 0.772549f}},
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
    {
        char path[512];
        snprintf(path, sizeof path, "%s/obj/%s", SHARED_TESTDATA_DIR, expect[i].file);
        FILE *f = fopen(path, "rb");
        ENSURE(f);
        char buf[4096];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        ENSURE(len > 0 && len < sizeof buf);
        mtl_library *lib = NULL;
        asset_error err;
        ENSURE(mtl_parse(buf, len, path, &lib, &err));
        ENSURE(lib->material_count == expect[i].count);
        int found = 0;
        for (int k = 0; k < lib->material_count; k++)
        {
            if (strcmp(lib->materials[k].name, expect[i].name) != 0)
                continue;
            found++;
            for (int c = 0; c < 3; c++)
                ENSURE_NEAR(lib->materials[k].diffuse[c], expect[i].kd[c], 1e-6f);
            ENSURE_NEAR(lib->materials[k].opacity, 1.0f, 0.0f);
        }
        mtl_free(lib);
        ENSURE(found == 1);
    }
    obj_model *m = load_shared("spider.obj");
    ENSURE(m && m->material_count == 4);
    int skin = 0;
    for (int k = 0; k < m->material_count; k++)
        if (strcmp(m->materials[k].name, "Skin") == 0)
        {
            skin++;
            ENSURE_NEAR(m->materials[k].diffuse[0], 0.827451f, 1e-6f);
        }
    ENSURE(skin == 1);
    obj_free(m);
    return 0;
}

const test_case test_obj_cases[] = {
    {"obj_vertex_forms", obj_vertex_forms},
    {"obj_number_precision", obj_number_precision},
    {"obj_number_random_vs_strtof", obj_number_random_vs_strtof},
    {"obj_face_forms", obj_face_forms},
    {"obj_negative_indices", obj_negative_indices},
    {"obj_objects_groups_materials", obj_objects_groups_materials},
    {"obj_lexical_forms", obj_lexical_forms},
    {"obj_malformed", obj_malformed},
    {"obj_limits", obj_limits},
    {"obj_triangulate_concave_random", obj_triangulate_concave_random},
    {"obj_triangulate_l_shape", obj_triangulate_l_shape},
    {"obj_triangulate_self_intersecting", obj_triangulate_self_intersecting},
    {"obj_materials_and_warnings", obj_materials_and_warnings},
    {"obj_streaming_matches_memory", obj_streaming_matches_memory},
    {"obj_data_files", obj_data_files},
    {"obj_usemtl_empty_and_bom", obj_usemtl_empty_and_bom},
    {"obj_messages", obj_messages},
    {"obj_shared_counts", obj_shared_counts},
    {"obj_shared_geometry", obj_shared_geometry},
    {"obj_shared_materials", obj_shared_materials},
    {0},
};
