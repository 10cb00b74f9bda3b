// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Dynamic resolution: a scene drawn at a lower render scale and upscaled by the post pass stays close to the
// full-size frame while the HUD drawn after it is the same to the bit; scale 1 adds no pass; and the game's
// automatic scale (src/game/resolution.c) follows the frame budget without flickering.

#include "game/resolution.h"
#include "test.h"
#include "test_render_gl.h"

#include <stdlib.h> // malloc, free, abs
#include <string.h> // memcmp

// The HUD panel drawn over the scene, opaque so that its pixels do not depend on what is behind (unit: px).
#define HUD_X 4
#define HUD_Y 4
#define HUD_W 120
#define HUD_H 24

// Draws the smooth scene (lit boxes on the ground under the sky, shadows, no debug lines) and an opaque HUD
// panel with text, at the render scale, into rgb (TEST_GL_WIDTH x TEST_GL_HEIGHT, top row first).
static bool draw_scene(renderer *r, const render_options *o, uint8_t *rgb, size_t size)
{
    render_camera cam = test_gl_camera((vec3s){{5.0f, 3.5f, 8.0f}}, (vec3s){{0.0f, 0.8f, 0.0f}});
    renderer_begin_frame(r, &cam);
    for (int i = 0; i < 6; i++)
    {
        vec3s p = {{(float)(i % 3) * 1.6f - 1.6f, 0.6f, (float)(i / 3) * 1.6f - 0.8f}};
        if (!renderer_submit(r, RENDER_MESH_BOX, p, glms_quatv(0.4f * (float)i, (vec3s){{0.0f, 1.0f, 0.0f}}),
                             (vec3s){{0.6f, 0.6f, 0.6f}}, 0xe0694affu + (uint32_t)(i * 0x1830400), 0))
            return false;
    }
    renderer_rect(r, (float)HUD_X, (float)HUD_Y, (float)HUD_W, (float)HUD_H, 0x202020ffu);
    renderer_text(r, (float)HUD_X + 4.0f, (float)HUD_Y + 4.0f, 1.5f, 0xf0f0f0ffu, "frame 16.6 ms");
    renderer_draw(r, o);
    return renderer_read_rgb(r, rgb, size);
}

// At scales 0.75 and 0.5, with the anti-aliasing filter (at the scene's size, then the upscale) and without
// it (the upscale alone), the frame differs from the full-size one by little (a mean of a few levels of 255,
// more only along edges), and the HUD's pixels are unchanged; the statistics report the scale and the scene's
// size. At scale 1 the post pass is not drawn without fxaa, and render_scale 0 (zero-initialised options)
// draws exactly what 1 draws.
static int frame_scaled_close_to_full_hud_unchanged(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    int errors = gl_error_count();
    int w = TEST_GL_WIDTH, h = TEST_GL_HEIGHT;
    size_t size = (size_t)w * (size_t)h * 3;
    uint8_t *full = malloc(size), *scaled = malloc(size);
    ENSURE(full && scaled);
    render_options o = renderer_default_options();
    o.msaa_samples = 0;
    for (int fxaa = 0; fxaa < 2; fxaa++)
    {
        o.fxaa = fxaa == 1;
        o.render_scale = 1.0f;
        ENSURE(draw_scene(r, &o, full, size));
        const render_stats *s = renderer_get_stats(r);
        ENSURE(s->render_scale == 1.0f && s->scene_width == w && s->scene_height == h);
        ENSURE(s->pass[RENDER_PASS_POST].draw_calls == fxaa);
        o.render_scale = 0.0f;
        ENSURE(draw_scene(r, &o, scaled, size));
        ENSURE(memcmp(full, scaled, size) == 0);
        static const float SCALES[2] = {0.75f, 0.5f};
        for (int k = 0; k < 2; k++)
        {
            o.render_scale = SCALES[k];
            ENSURE(draw_scene(r, &o, scaled, size));
            s = renderer_get_stats(r);
            ENSURE(s->render_scale == SCALES[k]);
            ENSURE(s->scene_width == (int)(SCALES[k] * (float)w) &&
                   s->scene_height == (int)(SCALES[k] * (float)h));
            ENSURE(s->pass[RENDER_PASS_POST].draw_calls ==
                   1 + fxaa); // the filter at the scene's size, the upscale
            long sum = 0, far_off = 0, hud_changed = 0;
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                {
                    size_t i = 3 * ((size_t)y * (size_t)w + (size_t)x);
                    bool hud = x >= HUD_X && x < HUD_X + HUD_W && y >= HUD_Y && y < HUD_Y + HUD_H;
                    int most = 0;
                    for (int c = 0; c < 3; c++)
                    {
                        int d = abs((int)full[i + c] - (int)scaled[i + c]);
                        most = d > most ? d : most;
                    }
                    sum += most;
                    far_off += most > 48;
                    hud_changed += hud && most != 0;
                }
            double mean = (double)sum / (double)(w * h);
            fprintf(stderr, "  scale %.2f%s: mean difference %.2f of 255, %ld pixels off by more than 48\n",
                    (double)SCALES[k], o.fxaa ? " with fxaa" : "", mean, far_off);
            ENSURE(hud_changed == 0);
            ENSURE(mean < 5.0);
            ENSURE(far_off < w * h / 100);
        }
    }
    free(full);
    free(scaled);
    ENSURE(gl_error_count() == errors);
    return 0;
}

// The shadow map's side follows the render scale (the same texels per scene pixel), rounded to 64 texels and
// never above the side asked for, and the shadow is still drawn at the lowest scale: the ground beside a box,
// away from the sun, is darker than the open ground.
static int shadow_map_follows_scale(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    size_t size = (size_t)TEST_GL_WIDTH * (size_t)TEST_GL_HEIGHT * 3;
    uint8_t *rgb = malloc(size);
    ENSURE(rgb);
    render_options o = renderer_default_options();
    o.msaa_samples = 0;
    o.fxaa = false;
    static const struct
    {
        int asked;
        float scale;
        int side;
    } CASES[] = {{0, 1.0f, 1024}, {0, 0.75f, 768},    {0, 0.5f, 512},
                 {0, 0.6f, 640},  {2048, 0.5f, 1024}, {48, 0.5f, 48}};
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
    {
        o.shadow_map_size = CASES[i].asked;
        o.render_scale = CASES[i].scale;
        ENSURE(draw_scene(r, &o, rgb, size));
        int side = renderer_get_stats(r)->shadow_map_size;
        fprintf(stderr, "  shadow map %d asked, scale %.2f: %d texels\n", CASES[i].asked,
                (double)CASES[i].scale, side);
        ENSURE(side == CASES[i].side);
    }
    free(rgb);
    // The lowest scale's shadow: where a box's shadow falls (the light travels towards +x and -z) against the
    // open ground on the box's sunny side, at the same distance from the camera.
    o.shadow_map_size = 0;
    o.render_scale = RENDER_SCALE_MIN;
    render_camera cam = test_gl_camera((vec3s){{0.0f, 6.0f, 8.0f}}, (vec3s){{0.0f, 0.0f, 0.0f}});
    renderer_begin_frame(r, &cam);
    ENSURE(renderer_submit(r, RENDER_MESH_BOX, (vec3s){{0.0f, 1.0f, 0.0f}}, glms_quat_identity(),
                           (vec3s){{0.6f, 1.0f, 0.6f}}, 0xe0e0e0ff, 0));
    renderer_draw(r, &o);
    ENSURE(renderer_get_stats(r)->shadow_map_size == 512);
    ENSURE(test_gl_read_frame(r));
    vec3s shade, open;
    ENSURE(test_gl_sample_world(r, (vec3s){{1.2f, 0.0f, -0.8f}}, &shade));
    ENSURE(test_gl_sample_world(r, (vec3s){{-1.2f, 0.0f, 0.8f}}, &open));
    fprintf(stderr, "  shadow at scale %.2f: %.0f against open ground %.0f\n", (double)RENDER_SCALE_MIN,
            (double)shade.x, (double)open.x);
    ENSURE(shade.x + 20.0f < open.x);
    return 0;
}

// Feeds the controller one second of frames of the given work (unit: ms) at a time.
static bool run_second(resolution *res, float work_ms)
{
    bool changed = false;
    for (double t = 0.0; t < 1000.0; t += (double)work_ms)
        changed = resolution_update(res, work_ms, work_ms) || changed;
    return changed;
}

// A fixed scale never moves. The automatic one starts at 1, drops at once when the frame is far over the
// budget (a frame whose cost is all fill, cost = 45 ms x scale^2, lands under the budget within a few
// seconds), never below RENDER_SCALE_MIN, rises again only after two seconds well under the budget, and
// holds still inside the band between (no flicker on a steady load).
static int auto_scale_follows_budget(void)
{
    resolution res;
    resolution_init(&res, false, 0.3f);
    ENSURE(res.scale == RENDER_SCALE_MIN);
    ENSURE(!run_second(&res, 100.0f) && res.scale == RENDER_SCALE_MIN);
    resolution_init(&res, false, 0.8f);
    ENSURE(!run_second(&res, 5.0f) && !run_second(&res, 5.0f) && res.scale == 0.8f);

    resolution_init(&res, true, 0.0f);
    ENSURE(res.scale == 1.0f);
    // All fill: 45 ms at full size.
    int seconds = 0;
    while (45.0f * res.scale * res.scale > RESOLUTION_BUDGET_MS && seconds < 5)
    {
        ENSURE(run_second(&res, 45.0f * res.scale * res.scale));
        seconds++;
    }
    fprintf(stderr, "  auto: scale %.2f after %d s (frame %.1f ms)\n", (double)res.scale, seconds,
            (double)(45.0f * res.scale * res.scale));
    ENSURE(seconds <= 2 && res.scale >= RENDER_SCALE_MIN);
    // Steady there: no change for a minute.
    float settled = res.scale;
    for (int i = 0; i < 60; i++)
        ENSURE(!run_second(&res, 45.0f * res.scale * res.scale));
    ENSURE(res.scale == settled);
    // Far over even at the lowest scale: it stays at the lowest.
    for (int i = 0; i < 10; i++)
        run_second(&res, 80.0f);
    ENSURE(res.scale == RENDER_SCALE_MIN);
    // Well under: one second is not enough, two rise one step; it climbs back to 1 and stays.
    ENSURE(!run_second(&res, 5.0f));
    ENSURE(run_second(&res, 5.0f) && res.scale > RENDER_SCALE_MIN && res.scale < 0.6f);
    for (int i = 0; i < 40; i++)
        run_second(&res, 5.0f);
    ENSURE(res.scale == 1.0f);
    // Alternating seconds over and just under the budget would flicker a controller without a band: here
    // the scale only ever goes down.
    float last = res.scale;
    for (int i = 0; i < 20; i++)
    {
        run_second(&res, (i % 2 == 0 ? 1.05f : 0.9f) * RESOLUTION_BUDGET_MS);
        ENSURE(res.scale <= last);
        last = res.scale;
    }
    return 0;
}

const test_case test_render_scale_cases[] = {
    {"render_scale_frame_close_to_full_hud_unchanged", frame_scaled_close_to_full_hud_unchanged},
    {"render_scale_auto_follows_budget", auto_scale_follows_budget},
    {"render_scale_shadow_map_follows_scale", shadow_map_follows_scale},
    {0},
};
