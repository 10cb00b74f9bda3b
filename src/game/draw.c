// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// One frame: the level's bodies interpolated, the debug views, the grab spring, the spawn preview and the
// throw's path, the HUD (crosshair and first-start hint included), the reel's caption, the help overlay,
// the ground where the level has one; then the recording, the screenshot and the swap.

#include "game/app_internal.h"

#include <math.h>  // fmaxf
#include <stdio.h> // snprintf, fprintf

// The grab spring is drawn as a line of this colour (sRGB 0xRRGGBBAA).
#define APP_GRAB_LINE_RGBA 0xffff40ffu

static void debug_views_text(const app *a, char *out, size_t size)
{
    snprintf(out, size, "%s%s%s%s%s%s", a->debug.draw_contacts ? "contacts " : "",
             a->debug.draw_bounds ? "bounds " : "", a->debug.draw_octree ? "octree " : "",
             a->tint_sleeping ? "sleeping " : "", a->debug.draw_calendar ? "calendar " : "",
             a->pair_view ? "gjk/epa " : "");
}

// Outlines of the blocks the held spawn key will make, where they will land.
static void draw_spawn_preview(app *a)
{
    ph_vec3 o, d;
    vec3s base;
    char err[256] = "";
    level_layout layout = (level_layout)(a->spawn_preview - 1);
    app_pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
    if (tools_spawn_place(&a->lv, layout, o, d, &base, err, sizeof err))
        level_draw_layout(&a->lv, a->r, layout, base);
}

// A joint tool's first click: a line from it to what is under the pointer, and a dot on it.
#define APP_PENDING_JOINT_RGBA 0x80e0ffffu
#define APP_PENDING_JOINT_POINT_PX 10.0f
static void draw_pending_joint(app *a, ph_vec3 from)
{
    ph_vec3 o, d, to;
    app_pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
    if (PH_ID_IS_NULL(tools_pick(&a->lv, o, d, &to)))
        to = glms_vec3_add(o, glms_vec3_scale(d, glms_vec3_distance(o, from)));
    renderer_point(a->r, from, APP_PENDING_JOINT_POINT_PX, APP_PENDING_JOINT_RGBA);
    renderer_line(a->r, from, to, APP_PENDING_JOINT_RGBA);
}

// The throw's path at the speed charged so far, to where it first meets a body, with a dot there.
#define APP_TRAJECTORY_RGBA 0xffd020ffu
#define APP_TRAJECTORY_POINT_PX 8.0f
static void draw_trajectory(app *a)
{
    enum
    {
        MAX_POINTS = 160
    };
    ph_vec3 o, d, start, dir, points[MAX_POINTS];
    app_pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
    float speed = tools_charge_speed(&a->tl);
    tools_aim(&a->lv, o, d, speed, &start, &dir);
    int n = tools_trajectory(&a->lv, start, glms_vec3_scale(dir, speed), points, MAX_POINTS);
    for (int i = 1; i < n; i++)
        renderer_line(a->r, points[i - 1], points[i], APP_TRAJECTORY_RGBA);
    if (n > 1)
        renderer_point(a->r, points[n - 1], APP_TRAJECTORY_POINT_PX, APP_TRAJECTORY_RGBA);
}
// The HUD's size: it keeps its share of the window's height from HUD_REFERENCE_HEIGHT up (text of a 1080p
// window is 1.5 times a 720p one's, as a player at that size expects), and never below the display's own
// pixels per point (a high-DPI screen); it never shrinks below its size at the reference height.
#define HUD_REFERENCE_HEIGHT 720.0f
static float hud_scale(const app *a)
{
    float by_height = (float)a->height / HUD_REFERENCE_HEIGHT;
    return fmaxf(a->ui_scale, by_height);
}

void app_draw_frame(app *a, float alpha, bool last_frame)
{
    double t0 = app_now_ms();
    render_camera rc = camera_render_camera(&a->cam, app_aspect(a));
    renderer_begin_frame(a->r, &rc);
    a->lv.highlight = a->tl.grabbing ? a->tl.grabbed : PH_NULL_BODY_ID;
    level_submit(&a->lv, a->r, alpha, a->tint_sleeping, a->show_shapes);
    if (a->debug.draw_contacts || a->debug.draw_bounds || a->debug.draw_octree || a->debug.draw_calendar ||
        a->debug.draw_joints)
        renderer_debug_world(a->r, a->lv.world, &a->debug);
    if (a->pair_view)
    {
        if (ph_body_is_valid(a->lv.world, a->pair_a) && ph_body_is_valid(a->lv.world, a->pair_b))
            renderer_debug_pair(a->r, a->lv.world, a->pair_a, a->pair_b, NULL);
        else
            a->pair_view = false;
    }
    if (a->tl.grabbing && ph_body_is_valid(a->lv.world, a->tl.grabbed))
    {
        ph_transform xf = level_interpolate(&a->lv, a->tl.grabbed, alpha);
        renderer_line(a->r, ph_transform_point(xf, a->tl.grab_local), a->tl.grab_target, APP_GRAB_LINE_RGBA);
    }
    ph_vec3 pending;
    if (!a->reel_on && joint_tools_pending_point(&a->jt, &a->lv, &pending))
        draw_pending_joint(a, pending);
    impacts_draw(&a->imp, a->r);
    if (a->spawn_preview && !a->reel_on)
        draw_spawn_preview(a);
    if (a->tl.charging && !a->reel_on)
        draw_trajectory(a);
    if (a->show_hud && !a->show_help)
    {
        char views[128];
        debug_views_text(a, views, sizeof views);
        hud_status st = {
            .time_scale = a->reel_on ? reel_time_scale(&a->reel) : a->time_scale,
            .paused = a->reel_on ? a->reel.paused : a->paused,
            .camera_mode = a->cam.mode == CAMERA_ORBIT ? "orbit" : "fly",
            .projectile = tools_projectile_name(a->tl.projectile),
            .scene = a->reel_on ? a->reel.desc->segments[a->reel.segment].name : a->lv.name,
            .charging = a->tl.charging,
            .charge_speed = tools_charge_speed(&a->tl),
            .charge_max_speed = TOOLS_MAX_THROW_SPEED,
            .debug_views = views,
            .shader_error = renderer_shader_error(a->r),
            .tool_prompt = a->reel_on ? "" : joint_tools_prompt(&a->jt),
        };
        hud_draw(&a->hd, a->r, &st, a->width, a->height, hud_scale(a));
        if (!a->reel_on && a->pointer_seen)
            hud_draw_crosshair(a->r, (float)a->mouse_x * a->ui_scale, (float)a->mouse_y * a->ui_scale,
                               hud_scale(a));
        if (!a->reel_on && a->hint)
            hud_draw_hint(a->r, HUD_FIRST_HINT, a->width, a->height, hud_scale(a));
    }
    if (a->reel_on && !a->show_help)
    {
        const reel_segment *seg = &a->reel.desc->segments[a->reel.segment];
        char status[256];
        reel_status_text(&a->reel, &a->lv, status, sizeof status);
        hud_draw_caption(a->r, seg->title, seg->line, status, a->width, a->height);
    }
    if (a->show_help)
        hud_draw_help(a->r, a->width, a->height, hud_scale(a));
    // The grid is drawn on the level's ground, as large as it is; a level without one has no grid.
    a->ropts.ground = a->lv.has_ground;
    a->ropts.ground_height = a->lv.ground.hi.y;
    a->ropts.ground_bounded = a->lv.has_ground;
    a->ropts.ground_lo[0] = a->lv.ground.lo.x;
    a->ropts.ground_lo[1] = a->lv.ground.lo.z;
    a->ropts.ground_hi[0] = a->lv.ground.hi.x;
    a->ropts.ground_hi[1] = a->lv.ground.hi.z;
    double submitted = app_now_ms();
    renderer_draw(a->r, &a->ropts);
    // Measuring the passes, the panel is one more: the GL finishes before and after it, as after each pass.
    double panel_t0 = app_now_ms();
    app_panel_render(a);
    if (a->ropts.profile_passes)
        renderer_finish(a->r);
    double panel_ms = app_now_ms() - panel_t0;
    if (a->screenshot_pending)
    {
        a->screenshot_pending = false;
        app_save_screenshot(a);
    }
    if (a->rec)
        app_record_current_frame(a);
    if (last_frame && a->cfg.screenshot_path)
    {
        char err[512] = "";
        if (!renderer_screenshot(a->r, a->cfg.screenshot_path, err, sizeof err))
            fprintf(stderr, "sandbox: %s\n", err);
    }
    double readback_t0 = app_now_ms();
    if (a->cfg.timing && a->readback)
    {
        // Reading the frame back waits until the GL has finished drawing it: without a display the
        // swap below need not wait, and the frame time would count only the submission.
        renderer_read_rgb(a->r, a->readback, a->readback_size);
    }
    else if (a->res.automatic)
    {
        // The automatic render scale measures the frame until the GL has drawn it, apart from the swap.
        renderer_finish(a->r);
    }
    const render_stats *rs = renderer_get_stats(a->r);
    a->frame.instances = rs->instances;
    a->frame.draw_calls = rs->draw_calls;
    a->frame.render_scale = rs->render_scale;
    a->frame.render_scale_auto = a->res.automatic;
    double drawn = app_now_ms();
    double readback_ms = drawn - readback_t0;
    // A recording draws off screen into a hidden window: there is nothing to show, and nothing to wait for.
    if (!a->rec)
        SDL_GL_SwapWindow(a->window);
    a->frame.present_ms = (float)(app_now_ms() - drawn);
    a->frame.render_ms = (float)(app_now_ms() - t0);
    if (a->frame_index >= APP_TIMING_WARMUP_FRAMES)
    {
        a->sum_render_cpu_ms += (double)rs->ms_cpu;
        a->sum_render_scale += (double)rs->render_scale;
        for (int p = 0; p < RENDER_PASS_COUNT; p++)
        {
            a->sum_pass_ms[p] += (double)rs->pass[p].ms_wall;
            a->sum_pass_cpu_ms[p] += (double)rs->pass[p].ms_cpu;
        }
        a->sum_submit_ms += submitted - t0;
        a->sum_panel_ms += panel_ms;
        a->sum_readback_ms += readback_ms;
        a->sum_present_ms += (double)a->frame.present_ms;
    }
}
