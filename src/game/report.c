// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// --report (for tests: the run's figures and every body alive at the end) and --timing (mean frame,
// physics and render times).

#define _POSIX_C_SOURCE 200809L // clock_gettime

#include "game/app_internal.h"
#include "render/gl.h"

#include <stdio.h> // fopen, fprintf, printf
#include <time.h>  // clock_gettime

static const char *body_type_name(ph_body_type t)
{
    return t == PH_BODY_STATIC ? "static" : t == PH_BODY_KINEMATIC ? "kinematic" : "dynamic";
}

bool app_write_report(app *a, float alpha)
{
    FILE *f = fopen(a->cfg.report_path, "w");
    if (!f)
    {
        fprintf(stderr, "sandbox: %s: cannot write the report\n", a->cfg.report_path);
        return false;
    }
    fprintf(f, "size %d %d\nframes %lld\nsteps %lld\ngl_errors %d\neye %.4f %.4f %.4f\nfov %.4f\n", a->width,
            a->height, a->frame_index, a->total_steps, a->r ? gl_error_count() : 0, (double)a->cam.eye.x,
            (double)a->cam.eye.y, (double)a->cam.eye.z, (double)glm_deg(a->cam.fov_y));
    if (a->lv.world)
        fprintf(f, "state_hash %016llx\n", (unsigned long long)ph_world_hash(a->lv.world));
    if (a->reel_on)
        fprintf(f, "reel_segment %d\nreel_segments_started %d\nreel_time %.4f\n", a->reel.segment,
                a->reel.segments_started, (double)reel_segment_time(&a->reel));
    fprintf(f, "scene %s\n", a->reel_on ? a->reel.desc->segments[a->reel.segment].name : a->lv.name);
    fprintf(f, "hud_contacts %d\n", a->hd.smooth.contact_count);
    fprintf(f, "hud_bodies %d %d %d\nhelp %d\npair_view %d\nquit %d\n", a->hd.smooth.body_count,
            a->hd.smooth.awake_count, a->hd.smooth.sleeping_count, a->show_help ? 1 : 0, a->pair_view ? 1 : 0,
            a->quit ? 1 : 0);
    fprintf(f, "joints %d\nhud_joints %d\n", a->lv.world ? ph_world_get_joint_count(a->lv.world) : 0,
            a->hd.smooth.joint_count);
    fprintf(f, "removed %d\nhint %d\n", a->lv.removed_count, a->hint && a->show_hud ? 1 : 0);
    if (!a->cfg.headless)
    {
        app_panel_report(a, f);
        fprintf(f, "render_scale %.2f %s\ngl_software %d\n", (double)a->res.scale,
                a->res.automatic ? "auto" : "fixed", renderer_is_software(a->r) ? 1 : 0);
    }
    fprintf(f, "history %d %d\nimpacts %d\nknocks %ld\n", a->hist.done, a->hist.count, a->imp.total,
            a->snd.knocks);
    if (a->lv.has_ground)
        fprintf(f, "ground %.4f %.4f %.4f %.4f %.4f\n", (double)a->lv.ground.lo.x, (double)a->lv.ground.lo.z,
                (double)a->lv.ground.hi.x, (double)a->lv.ground.hi.z, (double)a->lv.ground.hi.y);
    // One line per body alive at the end (those made during the run included): slot, tag, the position
    // where it was made, the drawn (interpolated) position of the last frame, where it projects in the
    // screenshot (-1 -1 when not visible), its bounds (lowest x y z, highest x y z) in the last step, its
    // drawn orientation (x y z w), its type, 1 when it is drawn highlighted (held), its material
    // (density, friction, restitution) and its mass (kg).
    int n = 0;
    const ph_body_id *ids = level_list_bodies(&a->lv, &n);
    for (int i = 0; i < n; i++)
    {
        ph_body_id id = ids[i];
        level_body *b = level_get_body(&a->lv, id);
        if (!b)
            continue;
        ph_transform xf = level_interpolate(&a->lv, id, alpha);
        float px = -1.0f, py = -1.0f;
        if (a->r && !renderer_project(a->r, xf.p, &px, &py))
            px = py = -1.0f;
        ph_vec3 s = b->start;
        ph_aabb bb = ph_body_get_bounds(a->lv.world, id);
        ph_material m = ph_body_get_material(a->lv.world, id);
        fprintf(f,
                "body %u %s %.4f %.4f %.4f %.4f %.4f %.4f %.1f %.1f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f "
                "%.4f %.4f %s %d %.4f %.4f %.4f %.6g\n",
                id.index1, level_tag_name(b->tag), (double)s.x, (double)s.y, (double)s.z, (double)xf.p.x,
                (double)xf.p.y, (double)xf.p.z, (double)px, (double)py, (double)bb.lo.x, (double)bb.lo.y,
                (double)bb.lo.z, (double)bb.hi.x, (double)bb.hi.y, (double)bb.hi.z, (double)xf.q.x,
                (double)xf.q.y, (double)xf.q.z, (double)xf.q.w,
                body_type_name(ph_body_get_type(a->lv.world, id)), PH_ID_EQUALS(id, a->lv.highlight) ? 1 : 0,
                (double)m.density, (double)m.friction, (double)m.restitution,
                (double)ph_body_get_mass(a->lv.world, id));
    }
    fclose(f);
    return true;
}

// ---- Timing ---------------------------------------------------------------------------------------------

// CPU time of every thread of the process: ours, the engine's workers and the GL's rasterisers (unit: ms).
static double process_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec * 1e-6;
}

void app_add_timing(app *a)
{
    if (a->frame_index == APP_TIMING_WARMUP_FRAMES - 1)
        a->timing_cpu_start_ms = process_cpu_ms();
    if (a->frame_index < APP_TIMING_WARMUP_FRAMES)
        return;
    a->sum_frame_ms += (double)a->frame.frame_ms;
    a->sum_physics_ms += (double)a->frame.physics_ms;
    a->sum_render_ms += (double)a->frame.render_ms;
    a->timed_frames++;
}

void app_print_timing(const app *a)
{
    if (a->timed_frames <= 0)
    {
        printf("timing: too few frames (the first %d are warm-up)\n", APP_TIMING_WARMUP_FRAMES);
        return;
    }
    double n = (double)a->timed_frames;
    // The process's CPU time a frame stands beside the wall time: on a machine shared with other work the
    // wall time varies with the load, the work done much less.
    printf("timing: %lld frames at %dx%d, %d bodies, shadows %s: frame %.2f ms, physics %.2f ms, "
           "render %.2f ms (renderer_draw %.2f ms; the rest is waiting for the GL to finish, read back, and "
           "presenting), render scale %.2f%s, process CPU %.2f ms a frame (all threads)\n",
           a->timed_frames, a->width, a->height, ph_world_get_body_count(a->lv.world),
           a->ropts.shadows ? "on" : "off", a->sum_frame_ms / n, a->sum_physics_ms / n, a->sum_render_ms / n,
           a->sum_render_cpu_ms / n, a->sum_render_scale / n,
           a->res.automatic ? " (automatic: the mean)" : "", (process_cpu_ms() - a->timing_cpu_start_ms) / n);
    if (!a->cfg.timing_passes)
        return;
    // The frame in the order it is made: the game's submission of bodies, lines and text, the renderer's
    // passes (each one measured until the GL finished it: wall time, and the CPU time of all threads, the
    // GL's rasterisers included), the panel, the read-back and the swap.
    printf("timing passes (ms, mean): submit %.2f", a->sum_submit_ms / n);
    for (int p = 0; p < RENDER_PASS_COUNT; p++)
        printf(", %s %.2f (CPU %.2f)", renderer_pass_name(p), a->sum_pass_ms[p] / n,
               a->sum_pass_cpu_ms[p] / n);
    printf(", panel %.2f, read-back %.2f, swap %.2f\n", a->sum_panel_ms / n, a->sum_readback_ms / n,
           a->sum_present_ms / n);
}
