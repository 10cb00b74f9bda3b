// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The player's input: SDL events (window, keys, mouse, dropped files) turned into the tools at the
// pointer (throw, grab, spawn with its preview, delete, F7's pair), camera moves, debug views, pause and
// scene keys; while the reel plays, its own keys.

#include "assets/obj.h"
#include "game/app_internal.h"

#include <math.h>   // fmaxf, INFINITY
#include <stdio.h>  // snprintf
#include <string.h> // memset

// Slow-motion time scale.
#define APP_SLOW_MOTION 0.1f
// F7's partner of a sleeping body: bodies whose bounds come within this of its own (unit: m).
#define APP_PAIR_MARGIN 0.01f

// ---- Input ----------------------------------------------------------------------------------------------

float app_aspect(const app *a)
{
    return a->height > 0 ? (float)a->width / (float)a->height : 1.0f;
}

// The camera ray through a point of the window (unit: window points).
void app_pointer_ray(const app *a, int x, int y, ph_vec3 *out_origin, ph_vec3 *out_dir)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(a->window, &ww, &wh);
    camera_pixel_ray(&a->cam, (float)x / (float)(ww > 0 ? ww : 1), (float)y / (float)(wh > 0 ? wh : 1),
                     app_aspect(a), out_origin, out_dir);
}

static void pick_pair(app *a)
{
    ph_vec3 o, d;
    app_pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
    ph_body_id picked = tools_pick(&a->lv, o, d, NULL);
    if (PH_ID_IS_NULL(picked))
    {
        hud_message(&a->hd, false, "GJK/EPA view: point at a body that touches another and press F7");
        return;
    }
    // Its partner: the body of the deepest contact it has in the last step.
    enum
    {
        MAX_CONTACTS = 4096
    };
    static ph_contact_info contacts[MAX_CONTACTS];
    int n = ph_world_get_contacts(a->lv.world, contacts, MAX_CONTACTS);
    n = n < MAX_CONTACTS ? n : MAX_CONTACTS;
    ph_body_id partner = PH_NULL_BODY_ID;
    float deepest = INFINITY;
    for (int i = 0; i < n; i++)
    {
        ph_body_id other = PH_ID_EQUALS(contacts[i].a, picked)   ? contacts[i].b
                           : PH_ID_EQUALS(contacts[i].b, picked) ? contacts[i].a
                                                                 : PH_NULL_BODY_ID;
        if (!PH_ID_IS_NULL(other) && contacts[i].separation < deepest)
        {
            deepest = contacts[i].separation;
            partner = other;
        }
    }
    if (PH_ID_IS_NULL(partner))
    {
        // A sleeping body keeps no contacts in the engine's list: its partner is then the body whose
        // bounds overlap its own (grown by a few millimetres) the most.
        ph_aabb box = ph_body_get_bounds(a->lv.world, picked);
        ph_vec3 grow = {{APP_PAIR_MARGIN, APP_PAIR_MARGIN, APP_PAIR_MARGIN}};
        box = (ph_aabb){glms_vec3_sub(box.lo, grow), glms_vec3_add(box.hi, grow)};
        static ph_body_id near[MAX_CONTACTS];
        int m = ph_world_query_box(a->lv.world, box, near, MAX_CONTACTS);
        m = m < MAX_CONTACTS ? m : MAX_CONTACTS;
        float most = 0.0f;
        for (int i = 0; i < m; i++)
        {
            if (PH_ID_EQUALS(near[i], picked))
                continue;
            ph_aabb other = ph_body_get_bounds(a->lv.world, near[i]);
            ph_vec3 lo = glms_vec3_maxv(box.lo, other.lo), hi = glms_vec3_minv(box.hi, other.hi);
            float v = fmaxf(hi.x - lo.x, 0.0f) * fmaxf(hi.y - lo.y, 0.0f) * fmaxf(hi.z - lo.z, 0.0f);
            if (v > most)
            {
                most = v;
                partner = near[i];
            }
        }
    }
    if (PH_ID_IS_NULL(partner))
    {
        hud_message(&a->hd, false, "GJK/EPA view: that body touches nothing");
        return;
    }
    a->pair_a = picked;
    a->pair_b = partner;
    a->pair_view = true;
}

static void release_input(app *a)
{
    memset(a->held, 0, sizeof a->held);
    a->left_down = a->right_down = a->middle_down = false;
    a->grabbing_with_left = false;
    a->spawn_preview = 0;
    tools_grab_end(&a->tl);
    a->tl.charging = false;
}

static void set_held(app *a, SDL_Keycode key, bool down)
{
    switch (key)
    {
    case SDLK_w:
        a->held[KEY_W] = down;
        break;
    case SDLK_a:
        a->held[KEY_A] = down;
        break;
    case SDLK_s:
        a->held[KEY_S] = down;
        break;
    case SDLK_d:
        a->held[KEY_D] = down;
        break;
    case SDLK_q:
        a->held[KEY_Q] = down;
        break;
    case SDLK_e:
        a->held[KEY_E] = down;
        break;
    case SDLK_LSHIFT:
    case SDLK_RSHIFT:
        a->held[KEY_SHIFT] = down;
        break;
    case SDLK_LCTRL:
    case SDLK_RCTRL:
        a->held[KEY_CTRL] = down;
        break;
    default:
        break;
    }
}

// The reel's keys. Returns false for the keys that keep their usual meaning while the reel plays (help,
// debug views, HUD, shadows, quit); the tools' keys do nothing, since the reel drives the scene.
static bool on_reel_key(app *a, SDL_Keycode key)
{
    switch (key)
    {
    case SDLK_RIGHT:
    case SDLK_PAGEDOWN:
        reel_skip(&a->reel, &a->stage, 1);
        break;
    case SDLK_LEFT:
    case SDLK_PAGEUP:
        reel_skip(&a->reel, &a->stage, -1);
        break;
    case SDLK_r:
        reel_skip(&a->reel, &a->stage, 0);
        break;
    case SDLK_p:
    case SDLK_SPACE:
        a->reel.paused = !a->reel.paused;
        break;
    case SDLK_ESCAPE:
    case SDLK_F1:
    case SDLK_F2:
    case SDLK_F3:
    case SDLK_F4:
    case SDLK_F5:
    case SDLK_F6:
    case SDLK_F7:
    case SDLK_F8:
    case SDLK_F9:
    case SDLK_F10:
        return false;
    default:
        break;
    }
    return true;
}

// Ctrl + a key: undo (Z), redo (Y, or Shift + Z), quick-save (S), quick-load (L). True when it was one.
static bool on_ctrl_key(app *a, SDL_Keycode key)
{
    switch (key)
    {
    case SDLK_z:
        app_undo(a, a->held[KEY_SHIFT]);
        return true;
    case SDLK_y:
        app_undo(a, true);
        return true;
    case SDLK_s:
        a->held[KEY_S] = false; // not a step backwards of the fly camera
        app_quick_save(a);
        return true;
    case SDLK_l:
        app_quick_load(a);
        return true;
    default:
        return false;
    }
}

static void on_key(app *a, SDL_Keycode key)
{
    a->hint = false;
    if (a->reel_on && on_reel_key(a, key))
        return;
    if (a->held[KEY_CTRL] && !a->reel_on && on_ctrl_key(a, key))
        return;
    switch (key)
    {
    case SDLK_ESCAPE:
        // The help overlay closes first, then a joint tool; Esc again quits.
        if (a->show_help)
            a->show_help = false;
        else if (a->jt.mode != JOINT_TOOLS_OFF)
            joint_tools_select(&a->jt, a->jt.mode);
        else
            a->quit = true;
        break;
    case SDLK_F1:
        a->show_help = !a->show_help;
        break;
    case SDLK_F2:
        a->debug.draw_contacts = !a->debug.draw_contacts;
        break;
    case SDLK_F3:
        a->debug.draw_bounds = !a->debug.draw_bounds;
        break;
    case SDLK_F4:
        a->debug.draw_octree = !a->debug.draw_octree;
        break;
    case SDLK_F5:
        a->tint_sleeping = !a->tint_sleeping;
        break;
    case SDLK_F6:
        a->debug.draw_calendar = !a->debug.draw_calendar;
        break;
    case SDLK_F7:
        if (a->pair_view)
            a->pair_view = false;
        else
            pick_pair(a);
        break;
    case SDLK_F8:
        a->show_hud = !a->show_hud;
        break;
    case SDLK_F9:
        a->ropts.shadows = !a->ropts.shadows;
        break;
    case SDLK_F10:
        a->ropts.debug_xray = !a->ropts.debug_xray;
        break;
    case SDLK_F11:
        a->show_panel = !a->show_panel;
        break;
    case SDLK_c:
        camera_toggle_mode(&a->cam);
        break;
    case SDLK_TAB:
        tools_next_projectile(&a->tl);
        break;
    case SDLK_1:
        a->spawn_preview = LEVEL_LAYOUT_TOWER + 1;
        a->spawn_key = key;
        break;
    case SDLK_2:
        a->spawn_preview = LEVEL_LAYOUT_PYRAMID + 1;
        a->spawn_key = key;
        break;
    case SDLK_3:
        a->spawn_preview = LEVEL_LAYOUT_WALL + 1;
        a->spawn_key = key;
        break;
    case SDLK_4:
        a->spawn_preview = LEVEL_LAYOUT_DOMINOES + 1;
        a->spawn_key = key;
        break;
    case SDLK_5:
        a->spawn_preview = LEVEL_LAYOUT_RAIN + 1;
        a->spawn_key = key;
        break;
    case SDLK_6:
    case SDLK_7:
    case SDLK_8:
    case SDLK_9:
    case SDLK_0:
        // The jointed layouts: 6 ragdoll, 7 wrecking ball, 8 rope bridge, 9 swing, 0 Newton's cradle.
        a->spawn_preview =
            (key == SDLK_0 ? LEVEL_LAYOUT_CRADLE : LEVEL_LAYOUT_RAGDOLL + (int)(key - SDLK_6)) + 1;
        a->spawn_key = key;
        break;
    case SDLK_g:
        joint_tools_select(&a->jt, JOINT_TOOLS_WELD);
        break;
    case SDLK_t:
        joint_tools_select(&a->jt, JOINT_TOOLS_ROPE);
        break;
    case SDLK_h:
        joint_tools_select(&a->jt, JOINT_TOOLS_HINGE);
        break;
    case SDLK_b:
        joint_tools_select(&a->jt, JOINT_TOOLS_BREAK);
        break;
    case SDLK_j:
        a->debug.draw_joints = !a->debug.draw_joints;
        break;
    case SDLK_o:
        a->show_shapes = !a->show_shapes;
        hud_message(&a->hd, false, a->show_shapes ? "collision shapes" : "models' own meshes");
        break;
    case SDLK_x:
    case SDLK_DELETE:
        app_delete_at_pointer(a);
        break;
    case SDLK_f:
        app_toggle_freeze(a);
        break;
    case SDLK_k:
        a->snd.on = !a->snd.on;
        hud_message(&a->hd, false, a->snd.on ? "impact sounds on" : "impact sounds off");
        break;
    case SDLK_v:
        // Held: the held body turns about the vertical (Shift: the other way).
        a->tl.grab_spin = a->held[KEY_SHIFT] ? -TOOLS_GRAB_SPIN_SPEED : TOOLS_GRAB_SPIN_SPEED;
        break;
    case SDLK_F12:
        a->screenshot_pending = true;
        break;
    case SDLK_p:
    case SDLK_SPACE:
        a->paused = !a->paused;
        break;
    case SDLK_n:
        a->paused = true;
        a->step_once = true;
        break;
    case SDLK_m:
        a->time_scale = a->time_scale < 1.0f ? 1.0f : APP_SLOW_MOTION;
        break;
    case SDLK_r:
        app_reset_scene(a);
        break;
    case SDLK_PAGEDOWN:
        app_switch_scene(a, 1);
        break;
    case SDLK_PAGEUP:
        app_switch_scene(a, -1);
        break;
    default:
        break;
    }
}

// The point under the pointer: the body it meets, else the ground's plane, else the camera's target.
static ph_vec3 pointer_point(app *a)
{
    ph_vec3 o, d, point;
    app_pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
    if (!PH_ID_IS_NULL(tools_pick(&a->lv, o, d, &point)))
        return point;
    float ground_y = a->lv.has_ground ? a->lv.ground.hi.y : 0.0f;
    if (d.y < 0.0f && o.y > ground_y)
        return glms_vec3_add(o, glms_vec3_scale(d, (ground_y - o.y) / d.y));
    return a->cam.target;
}

// A dropped scene (.json) replaces the level; a dropped model (.obj) is added to it at the pointer and
// becomes the model projectile (Tab).
static void on_drop(app *a, const char *path)
{
    char err[1024] = "";
    if (app_ends_with(path, ".json"))
    {
        scene_slot slot;
        memset(&slot, 0, sizeof slot);
        snprintf(slot.path, sizeof slot.path, "%s", path);
        if (app_load_scene(a, &slot, err, sizeof err))
        {
            if (!a->lv.warning[0])
                hud_message(&a->hd, false, a->lv.name);
        }
        else
            app_show_error(a, err);
    }
    else if (app_ends_with(path, ".obj"))
    {
        obj_model *model = NULL;
        a->lv.warning[0] = '\0';
        if (!level_add_model_file(&a->lv, path, a->r, pointer_point(a), a->model_scale, &model, err,
                                  sizeof err))
        {
            app_show_error(a, err);
            return;
        }
        app_use_projectile_model(a, model);
        if (a->lv.warning[0])
            hud_message(&a->hd, false, a->lv.warning);
        else
        {
            snprintf(err, sizeof err, "added %s at the pointer, scaled %gx (Tab: throw it)", path,
                     (double)a->model_scale);
            hud_message(&a->hd, false, err);
        }
    }
    else
    {
        snprintf(err, sizeof err, "%s: not a scene (.json) or model (.obj)", path);
        app_show_error(a, err);
    }
}

// Mouse motion, buttons and wheel: the camera and the tools.
static void handle_pointer(app *a, const SDL_Event *e)
{
    ph_vec3 o, d;
    switch (e->type)
    {
    case SDL_MOUSEMOTION:
    {
        int dx = e->motion.x - a->mouse_x, dy = e->motion.y - a->mouse_y;
        a->pointer_seen = true;
        a->mouse_x = e->motion.x;
        a->mouse_y = e->motion.y;
        if (a->right_down)
            camera_rotate(&a->cam, (float)dx * a->ui_scale, (float)dy * a->ui_scale);
        if (a->middle_down)
            camera_pan(&a->cam, (float)dx * a->ui_scale, (float)dy * a->ui_scale, a->height);
        break;
    }
    case SDL_MOUSEBUTTONDOWN:
        a->mouse_x = e->button.x;
        a->mouse_y = e->button.y;
        a->hint = false;
        a->pointer_seen = true;
        if (e->button.button == SDL_BUTTON_LEFT)
        {
            a->left_down = true;
            app_pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
            // Ctrl as seen in the events (not SDL_GetModState), so scripted input can grab too.
            if (a->jt.mode != JOINT_TOOLS_OFF && !a->held[KEY_CTRL])
            {
                char msg[512];
                bool ok = joint_tools_click(&a->jt, &a->lv, o, d, camera_forward(&a->cam), msg, sizeof msg);
                if (msg[0])
                    hud_message(&a->hd, !ok, msg);
            }
            else if (a->held[KEY_CTRL] && tools_grab_begin(&a->tl, &a->lv, o, d, camera_forward(&a->cam)))
                a->grabbing_with_left = true;
            else
                tools_begin_charge(&a->tl);
        }
        else if (e->button.button == SDL_BUTTON_RIGHT)
            a->right_down = true;
        else if (e->button.button == SDL_BUTTON_MIDDLE)
            a->middle_down = true;
        break;
    case SDL_MOUSEBUTTONUP:
        a->mouse_x = e->button.x;
        a->mouse_y = e->button.y;
        if (e->button.button == SDL_BUTTON_LEFT && a->left_down)
        {
            a->left_down = false;
            if (a->grabbing_with_left)
            {
                tools_grab_end(&a->tl);
                a->grabbing_with_left = false;
            }
            else if (a->tl.charging)
                app_throw_at_pointer(a);
        }
        else if (e->button.button == SDL_BUTTON_RIGHT)
            a->right_down = false;
        else if (e->button.button == SDL_BUTTON_MIDDLE)
            a->middle_down = false;
        break;
    case SDL_MOUSEWHEEL:
    {
        float clicks = (float)(e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e->wheel.y : e->wheel.y);
        // Holding a body, the wheel pushes it away (up) and pulls it nearer (down); else it zooms.
        if (a->tl.grabbing)
            tools_grab_push(&a->tl, clicks, a->cam.eye);
        else
            camera_zoom(&a->cam, clicks);
        break;
    }
    default:
        break;
    }
}

void app_handle_event(app *a, const SDL_Event *e)
{
    if (app_panel_event(a, e))
        return;
    switch (e->type)
    {
    case SDL_QUIT:
        a->quit = true;
        break;
    case SDL_WINDOWEVENT:
        switch (e->window.event)
        {
        case SDL_WINDOWEVENT_SIZE_CHANGED:
        case SDL_WINDOWEVENT_RESIZED:
        {
            // A recording keeps the size it started with: its frames come from the off-screen target.
            if (a->cfg.record_path)
                break;
            int ww = 1;
            SDL_GL_GetDrawableSize(a->window, &a->width, &a->height);
            SDL_GetWindowSize(a->window, &ww, NULL);
            a->ui_scale = ww > 0 ? (float)a->width / (float)ww : 1.0f;
            if (a->width > 0 && a->height > 0)
                renderer_resize(a->r, a->width, a->height);
            break;
        }
        case SDL_WINDOWEVENT_MINIMIZED:
            a->minimised = true;
            break;
        case SDL_WINDOWEVENT_RESTORED:
        case SDL_WINDOWEVENT_MAXIMIZED:
        case SDL_WINDOWEVENT_SHOWN:
            a->minimised = false;
            break;
        case SDL_WINDOWEVENT_FOCUS_LOST:
            release_input(a);
            break;
        default:
            break;
        }
        break;
    case SDL_KEYDOWN:
        set_held(a, e->key.keysym.sym, true);
        if (!e->key.repeat)
            on_key(a, e->key.keysym.sym);
        break;
    case SDL_KEYUP:
        set_held(a, e->key.keysym.sym, false);
        if (e->key.keysym.sym == SDLK_v)
            a->tl.grab_spin = 0.0f;
        // A spawn key shows where the layout will go while held and spawns it when released.
        if (a->spawn_preview && e->key.keysym.sym == a->spawn_key)
        {
            app_spawn_at_pointer(a, (level_layout)(a->spawn_preview - 1));
            a->spawn_preview = 0;
        }
        break;
    case SDL_MOUSEMOTION:
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
    case SDL_MOUSEWHEEL:
        // While the reel plays, its camera path and actions drive the scene, not the pointer.
        if (a->reel_on)
            break;
        handle_pointer(a, e);
        break;
    case SDL_DROPFILE:
        if (e->drop.file)
        {
            if (a->reel_on)
                hud_message(&a->hd, false, "the demo reel is playing: dropped files are not loaded");
            else
                on_drop(a, e->drop.file);
            SDL_free(e->drop.file);
        }
        break;
    default:
        break;
    }
}
