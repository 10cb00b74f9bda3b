// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The settings panel's widgets, drawn with Dear ImGui (Debian's libimgui-dev, its SDL2 and OpenGL 3
// backends) in panel_ui.cpp, the game's one C++ file, behind this C API (as Box2D's samples do). It knows
// nothing of the game: panel.c fills a panel_ui_model with the values and lists to show, panel_ui_build
// edits the values in place and says which changed. The mouse is fed from the game's own events (a
// scripted click then reaches the panel exactly as a player's), not polled from SDL.
#pragma once

#include <SDL2/SDL.h> // SDL_Window, SDL_Event
#include <stdbool.h>  // bool

#ifdef __cplusplus
extern "C"
{
#endif

// Most widgets whose rectangles panel_ui_widget reports (for the tests, which click them).
#define PANEL_UI_MAX_WIDGETS 96

    typedef struct panel_ui_model
    {
        // Scenes: names and one-line descriptions; clicking one sets load_scene.
        int scene_count;
        const char *const *scene_names;
        const char *const *scene_descriptions;
        int scene_current;
        // World
        float gravity;    // downward, m/s^2
        float time_scale; // 1: real time
        int substeps;     // solver sub-steps per step
        // What the player spawns and throws
        float density, friction, restitution;
        int projectile_count;
        const char *const *projectile_names;
        int projectile;
        float projectile_size; // edge or diameter (unit: m)
        float model_scale;     // of an .obj dropped on the window (1: as its file has it)
        // Debug views: names and their switches (edited in place)
        int view_count;
        const char *const *view_names;
        bool *views;
        // The engine's statistics, several lines, shown folded away by default
        const char *stats;
    } panel_ui_model;

    enum
    {
        PANEL_UI_CHANGED_GRAVITY = 1 << 0,
        PANEL_UI_CHANGED_TIME_SCALE = 1 << 1,
        PANEL_UI_CHANGED_SUBSTEPS = 1 << 2,
        PANEL_UI_CHANGED_MATERIAL = 1 << 3,
        PANEL_UI_CHANGED_PROJECTILE = 1 << 4,
        PANEL_UI_CHANGED_VIEWS = 1 << 5,
        PANEL_UI_LOAD_SCENE = 1 << 6, // load_scene holds the scene's index
        PANEL_UI_UNDO = 1 << 7,       // the buttons
        PANEL_UI_REDO = 1 << 8,
        PANEL_UI_SAVE = 1 << 9,
        PANEL_UI_LOAD = 1 << 10,
        PANEL_UI_SCREENSHOT = 1 << 11,
        PANEL_UI_CHANGED_MODEL_SCALE = 1 << 12
    };

    // Starts ImGui on the window's current GL context. False when the backends cannot start.
    bool panel_ui_init(SDL_Window *window, void *gl_context, float ui_scale);
    void panel_ui_shutdown(void);
    // Every SDL event of the frame, before panel_ui_build. Returns true when the panel takes it: a mouse
    // event over the panel (or while one of its widgets is held), a key while it edits text.
    bool panel_ui_event(const SDL_Event *e, bool visible);
    // Builds this frame's panel (when visible) and returns the PANEL_UI_* flags of what the player changed.
    int panel_ui_build(panel_ui_model *m, bool visible, float dt_seconds, int *out_load_scene);
    // Draws the panel built last into the bound framebuffer (after the world, before the screenshot).
    void panel_ui_render(void);
    // The panel's widgets of the last frame, for --report: name and rectangle in window points. False past
    // the last.
    bool panel_ui_widget(int index, const char **out_name, float *out_x, float *out_y, float *out_w,
                         float *out_h);
    // Whether the statistics section is open.
    bool panel_ui_stats_open(void);

#ifdef __cplusplus
}
#endif
