// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Tests of what keeps the frame cheap on a software rasteriser (white-box: renderer_internal.h). The ground's
// cells tile the ground exactly once and the shadowed ones hold the whole footprint of the shadow map; the
// footprint holds the ground shadow of every point the map covers; the anti-aliasing pass draws what its
// filter computes on the CPU; the per-pass profile adds up to the frame's counts; the ground body drawn after
// the ground plane leaves the picture as it was and its hidden top face unshaded.

#include "render/renderer_internal.h"
#include "test.h"
#include "test_render_gl.h"

#include <math.h>   // fabsf, fmaxf, fminf
#include <stdlib.h> // malloc, free
#include <string.h> // memcmp, memcpy

// Tolerance of areas summed over cells (unit: m^2, relative to areas of about 10^3 .. 10^6 m^2).
#define AREA_REL_TOL 1e-4f
// Rectangles the ground tests cut (unit: m).
#define GROUND_TEST_HALF 500.0f

static float cell_area(const ground_mesh *m, const uint32_t *tri)
{
    // Cells are axis-aligned: a triangle's area is half its bounding rectangle.
    float x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;
    for (int c = 0; c < 3; c++)
    {
        x0 = fminf(x0, m->xz[tri[c]][0]);
        x1 = fmaxf(x1, m->xz[tri[c]][0]);
        z0 = fminf(z0, m->xz[tri[c]][1]);
        z1 = fmaxf(z1, m->xz[tri[c]][1]);
    }
    return 0.5f * (x1 - x0) * (z1 - z0);
}

static float overlap(float a0, float a1, float b0, float b1)
{
    return fmaxf(fminf(a1, b1) - fmaxf(a0, b0), 0.0f);
}

// Seeded cases: a bounded or unbounded ground, a footprint inside, across the edge of or outside the
// ground. The cells cover the ground clipped to the square once (their areas add up to its area), the lit
// ones lie inside the footprint and cover all of it that is on the ground, and every index is a vertex.
static int ground_cells_tile_the_ground(void)
{
    uint64_t seed = test_seed() + 21;
    ground_mesh *m = malloc(sizeof *m);
    ENSURE(m);
    for (int trial = 0; trial < 200; trial++)
    {
        float center[2] = {test_rand_float(&seed, -50.0f, 50.0f), test_rand_float(&seed, -50.0f, 50.0f)};
        bool bounded = trial % 2 == 0;
        float lo[2] = {-INFINITY, -INFINITY}, hi[2] = {INFINITY, INFINITY};
        if (bounded)
        {
            lo[0] = test_rand_float(&seed, -40.0f, 0.0f);
            lo[1] = test_rand_float(&seed, -40.0f, 0.0f);
            hi[0] = lo[0] + test_rand_float(&seed, 1.0f, 60.0f);
            hi[1] = lo[1] + test_rand_float(&seed, 1.0f, 60.0f);
        }
        float fp_lo[2] = {test_rand_float(&seed, -80.0f, 40.0f), test_rand_float(&seed, -80.0f, 40.0f)};
        float fp_hi[2] = {fp_lo[0] + test_rand_float(&seed, 0.5f, 60.0f),
                          fp_lo[1] + test_rand_float(&seed, 0.5f, 60.0f)};
        bool with_footprint = trial % 4 < 3;
        ground_mesh_build(m, center, GROUND_TEST_HALF, lo, hi, with_footprint ? fp_lo : NULL,
                          with_footprint ? fp_hi : NULL);
        // The ground: the rectangle clipped to the square under the camera.
        float gx0 = fmaxf(lo[0], center[0] - GROUND_TEST_HALF),
              gx1 = fminf(hi[0], center[0] + GROUND_TEST_HALF);
        float gz0 = fmaxf(lo[1], center[1] - GROUND_TEST_HALF),
              gz1 = fminf(hi[1], center[1] + GROUND_TEST_HALF);
        float ground_area = (gx1 - gx0) * (gz1 - gz0);
        float lit_expected =
            with_footprint ? overlap(gx0, gx1, fp_lo[0], fp_hi[0]) * overlap(gz0, gz1, fp_lo[1], fp_hi[1])
                           : 0.0f;
        ENSURE(m->vertex_count > 0 && m->vertex_count <= GROUND_VERTEX_MAX);
        ENSURE((m->lit_count + m->plain_count) % 3 == 0);
        double lit = 0.0, all = 0.0;
        for (int i = 0; i < m->lit_count + m->plain_count; i += 3)
        {
            for (int c = 0; c < 3; c++)
                ENSURE(m->index[i + c] < (uint32_t)m->vertex_count);
            float a = cell_area(m, &m->index[i]);
            all += (double)a;
            if (i < m->lit_count)
            {
                lit += (double)a;
                for (int c = 0; c < 3; c++)
                {
                    const float *p = m->xz[m->index[i + c]];
                    ENSURE(p[0] >= fp_lo[0] - 1e-3f && p[0] <= fp_hi[0] + 1e-3f);
                    ENSURE(p[1] >= fp_lo[1] - 1e-3f && p[1] <= fp_hi[1] + 1e-3f);
                }
            }
        }
        ENSURE_NEAR((float)all, ground_area, AREA_REL_TOL * ground_area + 1e-3f);
        ENSURE_NEAR((float)lit, lit_expected, AREA_REL_TOL * ground_area + 1e-3f);
        if (!with_footprint)
            ENSURE(m->lit_count == 0);
    }
    free(m);
    return 0;
}

// For suns from low to overhead and light boxes of several sizes, every point inside the light's box casts
// its shadow on the ground inside the footprint.
static int footprint_holds_every_shadow(void)
{
    uint64_t seed = test_seed() + 7;
    for (int trial = 0; trial < 100; trial++)
    {
        vec3s to_sun = glms_vec3_normalize(
            (vec3s){{test_rand_float(&seed, -1.0f, 1.0f), test_rand_float(&seed, 0.1f, 1.0f),
                     test_rand_float(&seed, -1.0f, 1.0f)}});
        vec3s center = {{test_rand_float(&seed, -20.0f, 20.0f), test_rand_float(&seed, 0.0f, 5.0f),
                         test_rand_float(&seed, -20.0f, 20.0f)}};
        float half = test_rand_float(&seed, 1.0f, 30.0f);
        vec3s up = fabsf(to_sun.y) > 0.99f ? (vec3s){{0.0f, 0.0f, 1.0f}} : (vec3s){{0.0f, 1.0f, 0.0f}};
        mat4s view = glms_lookat(glms_vec3_add(center, glms_vec3_scale(to_sun, half + 10.0f)), center, up);
        mat4s light = glms_mat4_mul(
            glms_ortho(-half, half, -half * 0.7f, half * 0.7f, 0.0f, 2.0f * half + 20.0f), view);
        float lo[2], hi[2];
        if (!ground_shadow_footprint(light, to_sun, 0.0f, lo, hi))
        {
            ENSURE(to_sun.y <= 0.06f);
            continue;
        }
        mat4s inv = glms_mat4_inv(light);
        for (int k = 0; k < 50; k++)
        {
            vec4s ndc = {{test_rand_float(&seed, -1.0f, 1.0f), test_rand_float(&seed, -1.0f, 1.0f),
                          test_rand_float(&seed, -1.0f, 1.0f), 1.0f}};
            vec4s w = glms_mat4_mulv(inv, ndc);
            vec3s p = glms_vec3_scale((vec3s){{w.x, w.y, w.z}}, 1.0f / w.w);
            vec3s g = glms_vec3_sub(p, glms_vec3_scale(to_sun, p.y / to_sun.y));
            float tol = 1e-3f * (1.0f + fabsf(g.x) + fabsf(g.z));
            ENSURE(g.x >= lo[0] - tol && g.x <= hi[0] + tol);
            ENSURE(g.z >= lo[1] - tol && g.z <= hi[1] + tol);
        }
    }
    return 0;
}

// The filter of shaders/fxaa.frag on the CPU, for one pixel of an RGB image (top row first): the reference
// the two GL passes must match. Bilinear taps as the GL samples them (texel centres at half integers,
// clamped at the border).
static float ref_luma(const float *c)
{
    return 0.299f * c[0] + 0.587f * c[1] + 0.114f * c[2];
}

static void ref_texel(const uint8_t *img, int w, int h, int x, int y, float out[3])
{
    x = x < 0 ? 0 : (x >= w ? w - 1 : x);
    y = y < 0 ? 0 : (y >= h ? h - 1 : y);
    // GL rows go up, the image's down.
    const uint8_t *p = img + 3 * ((size_t)(h - 1 - y) * (size_t)w + (size_t)x);
    for (int k = 0; k < 3; k++)
        out[k] = (float)p[k] / 255.0f;
}

static void ref_bilinear(const uint8_t *img, int w, int h, float u, float v, float out[3])
{
    float fx = u * (float)w - 0.5f, fy = v * (float)h - 0.5f;
    int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
    float tx = fx - (float)x0, ty = fy - (float)y0;
    float c[4][3];
    ref_texel(img, w, h, x0, y0, c[0]);
    ref_texel(img, w, h, x0 + 1, y0, c[1]);
    ref_texel(img, w, h, x0, y0 + 1, c[2]);
    ref_texel(img, w, h, x0 + 1, y0 + 1, c[3]);
    for (int k = 0; k < 3; k++)
        out[k] = (c[0][k] * (1.0f - tx) + c[1][k] * tx) * (1.0f - ty) +
                 (c[2][k] * (1.0f - tx) + c[3][k] * tx) * ty;
}

// Returns whether the pixel (x, y) (GL coordinates) is on an edge, and its filtered colour in out.
static bool ref_fxaa(const uint8_t *img, int w, int h, int x, int y, float out[3])
{
    float c[3], nb[4][3];
    ref_texel(img, w, h, x, y, c);
    ref_texel(img, w, h, x, y + 1, nb[0]);
    ref_texel(img, w, h, x, y - 1, nb[1]);
    ref_texel(img, w, h, x + 1, y, nb[2]);
    ref_texel(img, w, h, x - 1, y, nb[3]);
    float lc = ref_luma(c), n = ref_luma(nb[0]), s = ref_luma(nb[1]), e = ref_luma(nb[2]),
          wl = ref_luma(nb[3]);
    float lo = fminf(lc, fminf(fminf(n, s), fminf(e, wl))), hi = fmaxf(lc, fmaxf(fmaxf(n, s), fmaxf(e, wl)));
    memcpy(out, c, sizeof c);
    if (hi - lo < fmaxf(1.0f / 24.0f, hi / 8.0f))
        return false;
    float dx = s - n, dy = e - wl;
    float reduce = fmaxf((n + s + e + wl) * 0.25f / 8.0f, 1.0f / 128.0f);
    float scale = 1.0f / (fminf(fabsf(dx), fabsf(dy)) + reduce);
    dx = fminf(fmaxf(dx * scale, -8.0f), 8.0f) / (float)w;
    dy = fminf(fmaxf(dy * scale, -8.0f), 8.0f) / (float)h;
    float u = ((float)x + 0.5f) / (float)w, v = ((float)y + 0.5f) / (float)h;
    float t[4][3];
    const float along[4] = {1.0f / 3.0f - 0.5f, 2.0f / 3.0f - 0.5f, -0.5f, 0.5f};
    for (int i = 0; i < 4; i++)
        ref_bilinear(img, w, h, u + dx * along[i], v + dy * along[i], t[i]);
    float near[3], far[3];
    for (int k = 0; k < 3; k++)
    {
        near[k] = 0.5f * (t[0][k] + t[1][k]);
        far[k] = 0.5f * near[k] + 0.25f * (t[2][k] + t[3][k]);
    }
    float lf = ref_luma(far);
    memcpy(out, (lf < lo || lf > hi) ? near : far, sizeof near);
    return true;
}

// A pile of boxes with shadows, ground and sky, drawn without and with the anti-aliasing pass. Every pixel
// of the second is the filter of shaders/fxaa.frag applied to the first, as computed on the CPU (within the
// GL's bilinear rounding): a reference for any cheaper way of running the filter.
static int fxaa_matches_reference(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    render_options o = renderer_default_options();
    o.msaa_samples = 0;
    render_camera cam = test_gl_camera((vec3s){{6.0f, 4.0f, 9.0f}}, (vec3s){{0.0f, 0.5f, 0.0f}});
    int w = TEST_GL_WIDTH, h = TEST_GL_HEIGHT;
    size_t size = (size_t)w * (size_t)h * 3;
    uint8_t *image[2] = {malloc(size), malloc(size)};
    ENSURE(image[0] && image[1]);
    for (int run = 0; run < 2; run++)
    {
        o.fxaa = run == 1;
        renderer_begin_frame(r, &cam);
        for (int i = 0; i < 40; i++)
        {
            vec3s p = {{(float)(i % 7) - 3.0f, 0.5f + (float)(i / 14), (float)((i / 7) % 2) * 1.5f - 0.75f}};
            ENSURE(renderer_submit(r, RENDER_MESH_BOX, p,
                                   glms_quatv(0.3f * (float)i, (vec3s){{0.0f, 1.0f, 0.0f}}),
                                   (vec3s){{0.4f, 0.4f, 0.4f}}, 0xe0694affu + (uint32_t)(i * 0x1020300), 0));
        }
        renderer_draw(r, &o);
        ENSURE(renderer_get_stats(r)->pass[RENDER_PASS_POST].draw_calls == (run == 1 ? 1 : 0));
        ENSURE(renderer_read_rgb(r, image[run], size));
    }
    long edges = 0, judged = 0, wrong = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
        {
            float ref[3], c[3];
            bool edge = ref_fxaa(image[0], w, h, x, y, ref);
            ref_texel(image[1], w, h, x, y, c);
            edges += edge;
            judged++;
            float err = fmaxf(fabsf(ref[0] - c[0]), fmaxf(fabsf(ref[1] - c[1]), fabsf(ref[2] - c[2])));
            if (err > 3.5f / 255.0f)
            {
                if (wrong < 5)
                    fprintf(stderr, "  fxaa at (%d, %d): %.0f %.0f %.0f, reference %.0f %.0f %.0f\n", x, y,
                            (double)(c[0] * 255.0f), (double)(c[1] * 255.0f), (double)(c[2] * 255.0f),
                            (double)(ref[0] * 255.0f), (double)(ref[1] * 255.0f), (double)(ref[2] * 255.0f));
                wrong++;
            }
        }
    fprintf(stderr, "  fxaa: %ld edge pixels, %ld of %ld pixels off the reference\n", edges, wrong, judged);
    free(image[0]);
    free(image[1]);
    ENSURE(edges > 500);
    ENSURE(wrong <= judged / 2000);
    return 0;
}

// render_options.profile_passes: the passes' draw calls and triangles add up to the frame's, the passes
// drawn shaded fragments, and the ground's and the sky's fragments with the boxes' fill about the window.
static int profile_adds_up(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    render_options o = renderer_default_options();
    o.msaa_samples = 0;
    o.fxaa = false;
    o.profile_passes = true;
    render_camera cam = test_gl_camera((vec3s){{0.0f, 3.0f, 8.0f}}, (vec3s){{0.0f, 0.5f, 0.0f}});
    renderer_begin_frame(r, &cam);
    ENSURE(renderer_submit(r, RENDER_MESH_BOX, (vec3s){{0.0f, 0.5f, 0.0f}}, glms_quat_identity(),
                           (vec3s){{0.5f, 0.5f, 0.5f}}, 0xd02020ff, 0));
    renderer_text(r, 4.0f, 4.0f, 1.0f, 0xffffffff, "profile");
    renderer_draw(r, &o);
    const render_stats *s = renderer_get_stats(r);
    int draws = 0;
    long long triangles = 0, shaded = 0;
    for (int p = 0; p < RENDER_PASS_COUNT; p++)
    {
        draws += s->pass[p].draw_calls;
        triangles += s->pass[p].triangles;
        ENSURE(s->pass[p].ms_cpu >= 0.0f);
        if (p == RENDER_PASS_MESHES || p == RENDER_PASS_GROUND || p == RENDER_PASS_SKY)
        {
            ENSURE(s->pass[p].draw_calls > 0 && s->pass[p].samples > 0);
            shaded += s->pass[p].samples;
        }
    }
    ENSURE(draws == s->draw_calls && triangles == s->triangles);
    ENSURE(s->pass[RENDER_PASS_SHADOW].samples > 0 && s->pass[RENDER_PASS_MESHES].triangles == 12);
    long long window = (long long)TEST_GL_WIDTH * TEST_GL_HEIGHT;
    fprintf(stderr, "  profile: %lld fragments shaded in a %lld-pixel window\n", shaded, window);
    ENSURE(shaded >= window && shaded < 2 * window);
    return 0;
}

// A floor slab under the ground plane (its top face the plane's, as the game's ground body) with boxes on it,
// drawn as an ordinary caster and then flagged RENDER_FLAG_GROUND | RENDER_FLAG_NO_SHADOW: the picture is the
// same (the plane hid the top face, the shadow of the slab fell below the ground), and the lit pass shades
// less than half the fragments, the top face failing the depth test under the plane.
static int ground_body_after_plane(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    render_options o = renderer_default_options();
    o.msaa_samples = 0;
    o.fxaa = false;
    o.profile_passes = true;
    // Seen from outside the slab's corner, so its two near side faces are in the picture too.
    render_camera cam = test_gl_camera((vec3s){{14.0f, 5.0f, 16.0f}}, (vec3s){{0.0f, 0.0f, 0.0f}});
    int w = TEST_GL_WIDTH, h = TEST_GL_HEIGHT;
    size_t size = (size_t)w * (size_t)h * 3;
    uint8_t *image[2] = {malloc(size), malloc(size)};
    ENSURE(image[0] && image[1]);
    long long shaded[2];
    for (int run = 0; run < 2; run++)
    {
        uint32_t flags = run == 1 ? RENDER_FLAG_GROUND | RENDER_FLAG_NO_SHADOW : 0;
        renderer_begin_frame(r, &cam);
        ENSURE(renderer_submit(r, RENDER_MESH_BOX, (vec3s){{0.0f, -0.5f, 0.0f}}, glms_quat_identity(),
                               (vec3s){{10.0f, 0.5f, 10.0f}}, 0x8a8d91ff, flags));
        for (int i = 0; i < 6; i++)
            ENSURE(renderer_submit(r, RENDER_MESH_BOX, (vec3s){{(float)i - 2.5f, 0.5f, (float)(i % 2)}},
                                   glms_quatv(0.3f * (float)i, (vec3s){{0.0f, 1.0f, 0.0f}}),
                                   (vec3s){{0.4f, 0.5f, 0.4f}}, 0xe0694affu, 0));
        renderer_draw(r, &o);
        shaded[run] = renderer_get_stats(r)->pass[RENDER_PASS_MESHES].samples;
        ENSURE(renderer_read_rgb(r, image[run], size));
    }
    long off = 0;
    for (size_t i = 0; i < size; i++)
        off += abs((int)image[0][i] - (int)image[1][i]) > 2;
    fprintf(stderr,
            "  ground body: %lld fragments shaded in the lit pass before the plane, %lld after it; %ld "
            "channels differ\n",
            shaded[0], shaded[1], off);
    free(image[0]);
    free(image[1]);
    ENSURE(off <= (long)(size / 1000));
    ENSURE(shaded[1] > 0 && 2 * shaded[1] < shaded[0]);
    return 0;
}

const test_case test_render_passes_cases[] = {
    {"render_passes_ground_cells_tile_the_ground", ground_cells_tile_the_ground},
    {"render_passes_footprint_holds_every_shadow", footprint_holds_every_shadow},
    {"render_passes_fxaa_matches_reference", fxaa_matches_reference},
    {"render_passes_profile_adds_up", profile_adds_up},
    {"render_passes_ground_body_after_plane", ground_body_after_plane},
    {0},
};
