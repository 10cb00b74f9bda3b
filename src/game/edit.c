// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The player's edits of the world that undo can take back (spawn, throw, delete, freeze and unfreeze,
// through history.c), saving and loading (save.c), the world made again for other sub-steps, and the
// screenshot key. input.c calls these from the keys and buttons.

#define _POSIX_C_SOURCE 200809L // mkdir

#include "game/app_internal.h"
#include "game/save.h"

#include <stdio.h>    // snprintf
#include <string.h>   // memset
#include <sys/stat.h> // mkdir

// Screenshots go to this folder (relative to the working directory).
#define APP_SCREENSHOT_FOLDER "screenshots"
// Past this many the last name is written over.
#define APP_MAX_SCREENSHOTS 100000

// Every body id the game holds belongs to the world that is going: forgotten.
void app_forget_world(app *a)
{
    tools_grab_end(&a->tl);
    a->grabbing_with_left = false;
    a->jt.clicks = 0; // a half-made joint's first body was in the old world
    a->jt.body = PH_NULL_BODY_ID;
    a->tl.charging = false;
    a->tl.model_geom = PH_NULL_GEOM_ID;
    a->pair_view = false;
    a->projectile_prepared = false; // the model's hull is made again in the new world at its first throw
    history_clear(&a->hist);
}

void app_spawn_at_pointer(app *a, level_layout layout)
{
    ph_vec3 o, d;
    app_pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
    char err[512] = "";
    history_mark(&a->hist, &a->lv);
    bool ok = tools_spawn_at(&a->lv, layout, o, d, err, sizeof err);
    history_made(&a->hist, &a->lv, "spawn");
    if (!ok)
        app_show_error(a, err);
}

void app_throw_at_pointer(app *a)
{
    ph_vec3 o, d;
    app_pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
    char err[512] = "";
    if (a->tl.projectile == TOOLS_PROJECTILE_MODEL)
        app_prepare_projectile_model(a);
    ph_body_id id = tools_throw(&a->tl, &a->lv, o, d, err, sizeof err);
    history_made_body(&a->hist, &a->lv, id, "throw");
    if (err[0])
        app_show_error(a, err);
}

void app_delete_at_pointer(app *a)
{
    ph_vec3 o, d;
    app_pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
    ph_body_id id = tools_pick(&a->lv, o, d, NULL);
    if (PH_ID_IS_NULL(id) || ph_body_get_type(a->lv.world, id) == PH_BODY_STATIC)
    {
        hud_message(&a->hd, false, "nothing to delete under the pointer (static bodies stay)");
        return;
    }
    if (a->tl.grabbing && PH_ID_EQUALS(a->tl.grabbed, id))
        tools_grab_end(&a->tl);
    history_delete(&a->hist, &a->lv, id);
}

// F: the held body (else the body under the pointer) is frozen where it is, made static; a body the player
// froze is unfrozen, dynamic again at rest.
void app_toggle_freeze(app *a)
{
    ph_body_id id = a->tl.grabbing ? a->tl.grabbed : PH_NULL_BODY_ID;
    if (PH_ID_IS_NULL(id))
    {
        ph_vec3 o, d;
        app_pointer_ray(a, a->mouse_x, a->mouse_y, &o, &d);
        id = tools_pick(&a->lv, o, d, NULL);
    }
    level_body *b = level_get_body(&a->lv, id);
    bool frozen = b && b->frozen;
    if (!b || (!frozen && ph_body_get_type(a->lv.world, id) != PH_BODY_DYNAMIC))
    {
        hud_message(&a->hd, false, "freeze: hold a body (Ctrl + drag) or point at one; F again unfreezes it");
        return;
    }
    tools_grab_end(&a->tl);
    a->grabbing_with_left = false;
    char err[512] = "";
    ph_body_id made = history_set_frozen(&a->hist, &a->lv, id, !frozen, err, sizeof err);
    if (PH_ID_IS_NULL(made) || err[0])
        app_show_error(a, err[0] ? err : "freeze failed");
    else
        hud_message(&a->hd, false, frozen ? "unfrozen" : "frozen in place (F again to unfreeze)");
}

void app_undo(app *a, bool redo)
{
    tools_grab_end(&a->tl);
    a->grabbing_with_left = false;
    char msg[512] = "";
    bool ok = redo ? history_redo(&a->hist, &a->lv, msg, sizeof msg)
                   : history_undo(&a->hist, &a->lv, msg, sizeof msg);
    hud_message(&a->hd, !ok, msg);
}

void app_quick_save(app *a)
{
    char err[1024] = "";
    if (!save_write(&a->lv, &a->cam, SAVE_QUICK_PATH, err, sizeof err))
        app_show_error(a, err);
    else
        hud_message(&a->hd, false, "saved to " SAVE_QUICK_PATH " (Ctrl+L loads it)");
}

void app_quick_load(app *a)
{
    scene_slot slot;
    memset(&slot, 0, sizeof slot);
    snprintf(slot.path, sizeof slot.path, "%s", SAVE_QUICK_PATH);
    char err[1024] = "";
    if (!app_load_scene(a, &slot, err, sizeof err))
        app_show_error(a, err);
    else
        hud_message(&a->hd, false, "loaded " SAVE_QUICK_PATH);
}

// The world made again with the panel's sub-steps: every body where it is, moving as it was.
void app_set_substeps(app *a, int substeps)
{
    level_set_world_substeps(substeps);
    a->substeps = level_world_substeps();
    app_forget_world(a);
    char err[512] = "";
    if (!snapshot_remake_world(&a->lv, a->r, err, sizeof err))
        app_show_error(a, err);
}

// F12: the frame being drawn goes to screenshots/shot_NNN.png (the panel and HUD as they are on screen), the
// first number no file has yet.
void app_save_screenshot(app *a)
{
    char path[256], err[512] = "";
    mkdir(APP_SCREENSHOT_FOLDER, 0777);
    for (;;)
    {
        snprintf(path, sizeof path, APP_SCREENSHOT_FOLDER "/shot_%03d.png", a->screenshot_count++);
        FILE *f = fopen(path, "rb");
        if (!f || a->screenshot_count > APP_MAX_SCREENSHOTS)
        {
            if (f)
                fclose(f);
            break;
        }
        fclose(f);
    }
    if (!renderer_screenshot(a->r, path, err, sizeof err))
        app_show_error(a, err);
    else
    {
        char text[300];
        snprintf(text, sizeof text, "screenshot: %s", path);
        hud_message(&a->hd, false, text);
    }
}
