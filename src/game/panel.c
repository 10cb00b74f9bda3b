// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The settings panel (F11) on the game's side: each frame the app's values go into a panel_ui_model, the
// widgets (panel_ui.cpp) edit it, and what changed goes back: undo, redo, quick-save and load, screenshot,
// scenes, gravity, time scale, sub-steps, the material and size of what the player spawns and throws, the
// projectile, the debug views. Mouse events
// over the panel are the panel's; the rest reach the world as before.

#include "assets/obj.h"
#include "game/app_internal.h"
#include "game/panel_ui.h"

#include <stdio.h>  // snprintf, fprintf
#include <string.h> // strrchr

// The panel's text grows with the window beyond this height (unit: window points), up to 3x.
#define PANEL_BASE_HEIGHT 720.0f
#define PANEL_MAX_SCALE 3.0f

enum
{
    VIEW_CONTACTS,
    VIEW_BOUNDS,
    VIEW_OCTREE,
    VIEW_SLEEPING,
    VIEW_CALENDAR,
    VIEW_PAIR,
    VIEW_JOINTS,
    VIEW_SHADOWS,
    VIEW_XRAY,
    VIEW_HUD,
    VIEW_IMPACTS,
    VIEW_SHAPES,
    VIEW_COUNT
};

static const char *const VIEW_NAMES[VIEW_COUNT] = {
    "contacts (F2)", "bounds (F3)",  "octree (F4)", "sleeping (F5)", "calendar (F6)",  "GJK/EPA (F7)",
    "joints (J)",    "shadows (F9)", "x-ray (F10)", "HUD (F8)",      "impact flashes", "shapes (O)",
};

// Projectile choices: the primitives, the loaded model, then models/*.obj.
#define PANEL_FIRST_MODEL_FILE (TOOLS_PROJECTILE_MODEL + 1)
#define PANEL_MAX_PROJECTILES (PANEL_FIRST_MODEL_FILE + APP_MAX_MODEL_FILES)

void app_panel_init(app *a)
{
    int wh = a->cfg.height;
    SDL_GetWindowSize(a->window, NULL, &wh);
    float scale = (float)wh / PANEL_BASE_HEIGHT;
    scale = scale < 1.0f ? 1.0f : (scale > PANEL_MAX_SCALE ? PANEL_MAX_SCALE : scale);
    a->panel_started = panel_ui_init(a->window, a->gl, scale);
    if (!a->panel_started)
        fprintf(stderr, "sandbox: the settings panel (Dear ImGui) could not start; playing without it\n");
    a->tl.material = ph_default_material();
    app_list_models(a);
}

void app_panel_shutdown(app *a)
{
    if (a->panel_started)
        panel_ui_shutdown();
    a->panel_started = false;
}

bool app_panel_event(app *a, const SDL_Event *e)
{
    return a->panel_started && !a->reel_on && panel_ui_event(e, a->show_panel);
}

static void read_views(const app *a, bool *v)
{
    v[VIEW_CONTACTS] = a->debug.draw_contacts;
    v[VIEW_BOUNDS] = a->debug.draw_bounds;
    v[VIEW_OCTREE] = a->debug.draw_octree;
    v[VIEW_SLEEPING] = a->tint_sleeping;
    v[VIEW_CALENDAR] = a->debug.draw_calendar;
    v[VIEW_PAIR] = a->pair_view;
    v[VIEW_JOINTS] = a->debug.draw_joints;
    v[VIEW_SHADOWS] = a->ropts.shadows;
    v[VIEW_XRAY] = a->ropts.debug_xray;
    v[VIEW_HUD] = a->show_hud;
    v[VIEW_IMPACTS] = a->imp.on;
    v[VIEW_SHAPES] = a->show_shapes;
}

static void write_views(app *a, const bool *v)
{
    a->debug.draw_contacts = v[VIEW_CONTACTS];
    a->debug.draw_bounds = v[VIEW_BOUNDS];
    a->debug.draw_octree = v[VIEW_OCTREE];
    a->tint_sleeping = v[VIEW_SLEEPING];
    a->debug.draw_calendar = v[VIEW_CALENDAR];
    // The pair view needs a pair: switched on here it shows the last one picked, if still there.
    a->pair_view =
        v[VIEW_PAIR] && ph_body_is_valid(a->lv.world, a->pair_a) && ph_body_is_valid(a->lv.world, a->pair_b);
    if (v[VIEW_PAIR] && !a->pair_view)
        hud_message(&a->hd, false, "GJK/EPA view: point at a body that touches another and press F7");
    a->debug.draw_joints = v[VIEW_JOINTS];
    a->ropts.shadows = v[VIEW_SHADOWS];
    a->ropts.debug_xray = v[VIEW_XRAY];
    a->show_hud = v[VIEW_HUD];
    a->imp.on = v[VIEW_IMPACTS];
    a->show_shapes = v[VIEW_SHAPES];
}

static void stats_text(const app *a, char *out, size_t size)
{
    const hud_frame *f = &a->hd.smooth; // the last frames' figures, smoothed as the HUD shows them
    int n = snprintf(out, size,
                     "bodies %d (awake %d, asleep %d)\njoints %d, contacts %d\nfell off %d\n"
                     "physics %.2f ms in %d steps\n",
                     f->body_count, f->awake_count, f->sleeping_count, f->joint_count, f->contact_count,
                     f->removed_count, (double)f->physics_ms, f->steps);
    for (int s = 0; s < PH_STAGE_COUNT && n > 0 && (size_t)n < size; s++)
        n += snprintf(out + n, size - (size_t)n, "  %-12s %.3f ms\n", ph_stage_name((ph_stage)s),
                      (double)f->stage_ms[s]);
    if (n > 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n,
                 "calendar events %d\ndraw calls %d, instances %d\nframe %.1f ms\nrender scale %.2f%s",
                 f->calendar_events, f->draw_calls, f->instances, (double)f->frame_ms,
                 (double)f->render_scale, f->render_scale_auto ? " (auto)" : "");
}

// Picks models/<file> as the projectile: loaded now, thrown as the model from the next click.
static void use_model_file(app *a, const char *path)
{
    obj_model *model = NULL;
    asset_error aerr;
    memset(&aerr, 0, sizeof aerr);
    if (!obj_load(path, NULL, &model, &aerr))
    {
        app_show_error(a, aerr.text);
        return;
    }
    app_use_projectile_model(a, model);
    a->tl.projectile = TOOLS_PROJECTILE_MODEL;
    char text[600];
    snprintf(text, sizeof text, "projectile: %s", path);
    hud_message(&a->hd, false, text);
}

static const char *projectile_model_label(const app *a, char *buf, size_t size)
{
    if (!a->projectile_model)
        return "loaded model (none yet)";
    const char *name = a->projectile_model->name ? a->projectile_model->name : "";
    const char *slash = strrchr(name, '/');
    snprintf(buf, size, "loaded model: %s", slash ? slash + 1 : name);
    return buf;
}

void app_panel_build(app *a, float dt_seconds)
{
    if (!a->panel_started)
        return;
    static const char *scene_names[APP_MAX_SCENES], *scene_descriptions[APP_MAX_SCENES];
    static const char *projectile_names[PANEL_MAX_PROJECTILES];
    static char model_label[300];
    static char stats[1024];
    bool views[VIEW_COUNT];
    for (int i = 0; i < a->scene_count; i++)
    {
        scene_names[i] = a->scenes[i].name;
        scene_descriptions[i] = a->scenes[i].description;
    }
    int projectile_count = 0;
    for (int p = 0; p < TOOLS_PROJECTILE_MODEL; p++)
        projectile_names[projectile_count++] = tools_projectile_name((tools_projectile)p);
    projectile_names[projectile_count++] = projectile_model_label(a, model_label, sizeof model_label);
    for (int i = 0; i < a->model_file_count; i++)
    {
        const char *slash = strrchr(a->model_files[i], '/');
        projectile_names[projectile_count++] = slash ? slash + 1 : a->model_files[i];
    }
    read_views(a, views);
    stats_text(a, stats, sizeof stats);
    ph_material spawn = a->tl.material;
    panel_ui_model m = {
        .scene_count = a->scene_count,
        .scene_names = scene_names,
        .scene_descriptions = scene_descriptions,
        .scene_current = a->scene_index,
        .gravity = -ph_world_get_gravity(a->lv.world).y,
        .time_scale = a->time_scale,
        .substeps = a->substeps,
        .density = spawn.density,
        .friction = spawn.friction,
        .restitution = spawn.restitution,
        .projectile_count = projectile_count,
        .projectile_names = projectile_names,
        .projectile = (int)a->tl.projectile,
        .projectile_size = a->tl.size > 0.0f ? a->tl.size : TOOLS_DEFAULT_SIZE,
        .model_scale = a->model_scale,
        .view_count = VIEW_COUNT,
        .view_names = VIEW_NAMES,
        .views = views,
        .stats = stats,
    };
    int load = -1;
    bool visible = a->show_panel && !a->reel_on;
    int changed = panel_ui_build(&m, visible, dt_seconds, &load);
    if (changed & PANEL_UI_CHANGED_GRAVITY)
    {
        ph_vec3 g = ph_world_get_gravity(a->lv.world);
        ph_world_set_gravity(a->lv.world, (ph_vec3){{g.x, -m.gravity, g.z}});
        // Bodies asleep under the old gravity would hang in the air under the new one.
        int n = 0;
        const ph_body_id *ids = level_list_bodies(&a->lv, &n);
        for (int i = 0; i < n; i++)
            if (ph_body_get_type(a->lv.world, ids[i]) == PH_BODY_DYNAMIC)
                ph_body_wake(a->lv.world, ids[i]);
    }
    if (changed & PANEL_UI_CHANGED_TIME_SCALE)
        a->time_scale = m.time_scale;
    if (changed & PANEL_UI_CHANGED_SUBSTEPS)
        app_set_substeps(a, m.substeps);
    if (changed & PANEL_UI_CHANGED_MATERIAL)
    {
        a->tl.custom_material = true;
        a->tl.material = (ph_material){m.density, m.friction, m.restitution};
        a->lv.spawn_material_set = true;
        a->lv.spawn_material = a->tl.material;
    }
    if (changed & PANEL_UI_CHANGED_PROJECTILE)
    {
        a->tl.size = m.projectile_size;
        if (m.projectile >= PANEL_FIRST_MODEL_FILE)
            use_model_file(a, a->model_files[m.projectile - PANEL_FIRST_MODEL_FILE]);
        else if (m.projectile >= 0)
            a->tl.projectile = (tools_projectile)m.projectile;
    }
    if (changed & PANEL_UI_CHANGED_MODEL_SCALE)
        a->model_scale = m.model_scale;
    if (changed & PANEL_UI_CHANGED_VIEWS)
        write_views(a, views);
    if (changed & (PANEL_UI_UNDO | PANEL_UI_REDO))
        app_undo(a, (changed & PANEL_UI_REDO) != 0);
    if (changed & PANEL_UI_SAVE)
        app_quick_save(a);
    if (changed & PANEL_UI_LOAD)
        app_quick_load(a);
    if (changed & PANEL_UI_SCREENSHOT)
        a->screenshot_pending = true;
    if ((changed & PANEL_UI_LOAD_SCENE) && load >= 0 && load < a->scene_count)
    {
        a->scene_index = load;
        app_switch_scene(a, 0);
    }
}

void app_panel_render(app *a)
{
    if (a->panel_started)
        panel_ui_render();
}

// --report: the panel's state and its widgets' rectangles (window points), which the tests click.
void app_panel_report(app *a, FILE *f)
{
    fprintf(f, "panel %d\n", a->show_panel && a->panel_started ? 1 : 0);
    fprintf(f, "panel_stats_open %d\n", a->panel_started && panel_ui_stats_open() ? 1 : 0);
    fprintf(f, "gravity %.4f\n", a->lv.world ? (double)-ph_world_get_gravity(a->lv.world).y : 0.0);
    fprintf(f, "time_scale %.4f\n", (double)a->time_scale);
    fprintf(f, "substeps %d\n", a->substeps);
    fprintf(f, "spawn_material %d %.4f %.4f %.4f\n", a->tl.custom_material ? 1 : 0,
            (double)a->tl.material.density, (double)a->tl.material.friction,
            (double)a->tl.material.restitution);
    fprintf(f, "projectile %s %.4f\n", tools_projectile_name(a->tl.projectile),
            (double)(a->tl.size > 0.0f ? a->tl.size : TOOLS_DEFAULT_SIZE));
    bool views[VIEW_COUNT];
    read_views(a, views);
    fprintf(f, "views");
    for (int i = 0; i < VIEW_COUNT; i++)
        fprintf(f, " %d", views[i] ? 1 : 0);
    fprintf(f, "\n");
    if (!a->panel_started)
        return;
    const char *name;
    float x, y, w, h;
    for (int i = 0; panel_ui_widget(i, &name, &x, &y, &w, &h); i++)
    {
        // Names with spaces are written with underscores, so that a test reads them as one field.
        char word[96];
        snprintf(word, sizeof word, "%s", name);
        for (char *c = word; *c; c++)
            *c = *c == ' ' ? '_' : *c;
        fprintf(f, "panel_widget %s %.1f %.1f %.1f %.1f\n", word, (double)x, (double)y, (double)w, (double)h);
    }
}
