// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The panel's widgets through Dear ImGui 1.86 (libimgui-dev: the library and its SDL2 and OpenGL 3
// backends, built into libimgui.a). The SDL2 backend polls SDL_GetMouseState each frame, which events
// pushed by --script (or sent by xdotool before SDL has seen the motion) do not move, so the mouse is fed
// to ImGui from the events themselves; the backend still handles keys, text and the clipboard.

#include "game/panel_ui.h"

#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <cstdio> // snprintf
#include <imgui.h>
#include <imgui_internal.h> // the windows' rectangles: which event lands on the panel

namespace
{
// The panel: its width at scale 1 (unit: window points) and its gap to the window's edge.
constexpr float PANEL_WIDTH = 330.0f;
constexpr float PANEL_MARGIN = 8.0f;
// Slider ranges.
constexpr float GRAVITY_MAX = 30.0f;
constexpr float TIME_SCALE_MIN = 0.05f, TIME_SCALE_MAX = 2.0f;
constexpr int SUBSTEPS_MIN = 1, SUBSTEPS_MAX = 16;
constexpr float DENSITY_MIN = 50.0f, DENSITY_MAX = 20000.0f;
constexpr float FRICTION_MAX = 2.0f;
constexpr float PROJECTILE_SIZE_MIN = 0.1f, PROJECTILE_SIZE_MAX = 3.0f;
// A dropped model's scale: 1 cm parts of a model in metres to 50 m buildings of a 0.5 m one.
constexpr float MODEL_SCALE_MIN = 0.01f, MODEL_SCALE_MAX = 100.0f;

struct widget_rect
{
    const char *name; // the caller's string, or copy when that was made here
    char copy[96];
    ImVec2 min, max;
};

struct state
{
    bool started;
    float scale;
    ImVec2 mouse;
    bool down[3];    // buttons held, as the events say
    bool pressed[3]; // pressed since the last frame: a click shorter than a frame still counts
    int owned;       // buttons pressed over the panel: their motion and release are the panel's too
    float wheel;
    widget_rect widgets[PANEL_UI_MAX_WIDGETS];
    int widget_count;
    bool stats_open;
};
state S;

void note_widget(const char *name)
{
    if (S.widget_count >= PANEL_UI_MAX_WIDGETS)
        return;
    widget_rect &w = S.widgets[S.widget_count++];
    w.name = name;
    w.min = ImGui::GetItemRectMin();
    w.max = ImGui::GetItemRectMax();
}

void note_widget_copy(const char *name)
{
    if (S.widget_count >= PANEL_UI_MAX_WIDGETS)
        return;
    note_widget(nullptr);
    widget_rect &w = S.widgets[S.widget_count - 1];
    std::snprintf(w.copy, sizeof w.copy, "%s", name);
    w.name = w.copy;
}

// Whether a window point is on one of ImGui's windows shown last frame (the panel, an open combo's list).
// This is the test behind io.WantCaptureMouse, made at the event's own point: WantCaptureMouse is worked
// out in NewFrame from the pointer of the frame before, so a move off the panel and a click in the world
// arriving in one frame (xdotool, a script, a quick hand) would give the click to the panel.
bool over_panel(float x, float y)
{
    ImGuiContext &g = *GImGui;
    ImVec2 p(x, y);
    for (ImGuiWindow *w : g.Windows)
        if (w->Active && !w->Hidden && !(w->Flags & ImGuiWindowFlags_Tooltip) && w->Rect().Contains(p))
            return true;
    return false;
}

int button_index(Uint8 button)
{
    return button == SDL_BUTTON_LEFT     ? 0
           : button == SDL_BUTTON_RIGHT  ? 1
           : button == SDL_BUTTON_MIDDLE ? 2
                                         : -1;
}

// A slider's rectangle is its frame alone, not its label: a click at a fraction of its width sets that
// fraction of its range.
void note_slider(const char *name)
{
    if (S.widget_count >= PANEL_UI_MAX_WIDGETS)
        return;
    note_widget(name);
    widget_rect &w = S.widgets[S.widget_count - 1];
    w.max.x = w.min.x + ImGui::CalcItemWidth();
}

bool slider_float(const char *label, float *v, float lo, float hi, const char *format, int flags = 0)
{
    bool changed = ImGui::SliderFloat(label, v, lo, hi, format, flags);
    note_slider(label);
    return changed;
}
} // namespace

bool panel_ui_init(SDL_Window *window, void *gl_context, float ui_scale)
{
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO &io = ImGui::GetIO();
    io.IniFilename = nullptr; // the panel has one fixed place: nothing to remember between runs
    io.LogFilename = nullptr;
    S = state{};
    S.scale = ui_scale > 0.0f ? ui_scale : 1.0f;
    S.mouse = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::StyleColorsDark();
    ImGui::GetStyle().ScaleAllSizes(S.scale);
    io.FontGlobalScale = S.scale;
    if (!ImGui_ImplSDL2_InitForOpenGL(window, gl_context))
    {
        ImGui::DestroyContext();
        return false;
    }
    if (!ImGui_ImplOpenGL3_Init("#version 330 core"))
    {
        ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
        return false;
    }
    S.started = true;
    return true;
}

void panel_ui_shutdown(void)
{
    if (!S.started)
        return;
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    S.started = false;
}

bool panel_ui_event(const SDL_Event *e, bool visible)
{
    if (!S.started)
        return false;
    ImGuiIO &io = ImGui::GetIO();
    switch (e->type)
    {
    case SDL_MOUSEMOTION:
        S.mouse = ImVec2((float)e->motion.x, (float)e->motion.y);
        return visible && S.owned != 0;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
    {
        int b = button_index(e->button.button);
        S.mouse = ImVec2((float)e->button.x, (float)e->button.y);
        if (b < 0)
            return false;
        if (e->type == SDL_MOUSEBUTTONDOWN)
        {
            bool mine = visible && over_panel(S.mouse.x, S.mouse.y);
            S.down[b] = true;
            if (mine)
            {
                S.pressed[b] = true;
                S.owned |= 1 << b;
            }
            return mine;
        }
        S.down[b] = false;
        bool mine = (S.owned & (1 << b)) != 0;
        S.owned &= ~(1 << b);
        return visible && mine;
    }
    case SDL_MOUSEWHEEL:
        if (!visible || !over_panel(S.mouse.x, S.mouse.y))
            return false;
        S.wheel += (float)(e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e->wheel.y : e->wheel.y);
        return true;
    case SDL_KEYDOWN:
    case SDL_KEYUP:
    case SDL_TEXTINPUT:
        ImGui_ImplSDL2_ProcessEvent(e);
        // Keys are the panel's only while it edits a value as text (Ctrl + click on a slider).
        return visible && io.WantTextInput;
    default:
        ImGui_ImplSDL2_ProcessEvent(e);
        return false;
    }
}

int panel_ui_build(panel_ui_model *m, bool visible, float dt_seconds, int *out_load_scene)
{
    if (!S.started)
        return 0;
    ImGuiIO &io = ImGui::GetIO();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    // After the backend's poll: the events' mouse, and a time step that a --frames run repeats exactly.
    io.DeltaTime = dt_seconds > 0.0f ? dt_seconds : 1.0f / 60.0f;
    io.MousePos = S.mouse;
    for (int b = 0; b < 3; b++)
    {
        io.MouseDown[b] = S.pressed[b] || (S.down[b] && (S.owned & (1 << b)) != 0);
        S.pressed[b] = false;
    }
    io.MouseWheel = S.wheel;
    S.wheel = 0.0f;
    ImGui::NewFrame();
    S.widget_count = 0;
    int changed = 0;
    if (visible)
    {
        float width = PANEL_WIDTH * S.scale;
        ImGui::SetNextWindowPos(
            ImVec2(io.DisplaySize.x - width - PANEL_MARGIN * S.scale, PANEL_MARGIN * S.scale),
            ImGuiCond_Always);
        ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Always);
        ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0.0f),
                                            ImVec2(width, io.DisplaySize.y - 2.0f * PANEL_MARGIN * S.scale));
        ImGui::Begin("Sandbox (F11)", nullptr,
                     ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                         ImGuiWindowFlags_AlwaysAutoResize);
        static const struct
        {
            const char *label;
            int flag;
        } buttons[] = {{"Undo", PANEL_UI_UNDO},
                       {"Redo", PANEL_UI_REDO},
                       {"Save", PANEL_UI_SAVE},
                       {"Load", PANEL_UI_LOAD},
                       {"Screenshot", PANEL_UI_SCREENSHOT}};
        for (size_t i = 0; i < sizeof buttons / sizeof buttons[0]; i++)
        {
            if (i > 0)
                ImGui::SameLine();
            if (ImGui::Button(buttons[i].label))
                changed |= buttons[i].flag;
            note_widget(buttons[i].label);
        }
        if (ImGui::CollapsingHeader("Scenes", ImGuiTreeNodeFlags_DefaultOpen))
        {
            for (int i = 0; i < m->scene_count; i++)
            {
                ImGui::PushID(i);
                char label[160];
                std::snprintf(label, sizeof label, "%s##scene", m->scene_names[i]);
                if (ImGui::Selectable(label, i == m->scene_current))
                {
                    changed |= PANEL_UI_LOAD_SCENE;
                    *out_load_scene = i;
                }
                note_widget(m->scene_names[i]);
                if (m->scene_descriptions[i] && m->scene_descriptions[i][0])
                {
                    ImGui::SameLine();
                    ImGui::TextDisabled("%s", m->scene_descriptions[i]);
                }
                ImGui::PopID();
            }
        }
        if (ImGui::CollapsingHeader("World", ImGuiTreeNodeFlags_DefaultOpen))
        {
            if (slider_float("gravity", &m->gravity, 0.0f, GRAVITY_MAX, "%.2f m/s^2"))
                changed |= PANEL_UI_CHANGED_GRAVITY;
            if (slider_float("time scale", &m->time_scale, TIME_SCALE_MIN, TIME_SCALE_MAX, "%.2fx"))
                changed |= PANEL_UI_CHANGED_TIME_SCALE;
            if (ImGui::SliderInt("sub-steps", &m->substeps, SUBSTEPS_MIN, SUBSTEPS_MAX))
                changed |= PANEL_UI_CHANGED_SUBSTEPS;
            note_slider("sub-steps");
        }
        if (ImGui::CollapsingHeader("Spawn and throw", ImGuiTreeNodeFlags_DefaultOpen))
        {
            if (slider_float("density", &m->density, DENSITY_MIN, DENSITY_MAX, "%.0f kg/m^3",
                             ImGuiSliderFlags_Logarithmic))
                changed |= PANEL_UI_CHANGED_MATERIAL;
            if (slider_float("friction", &m->friction, 0.0f, FRICTION_MAX, "%.2f"))
                changed |= PANEL_UI_CHANGED_MATERIAL;
            if (slider_float("restitution", &m->restitution, 0.0f, 1.0f, "%.2f"))
                changed |= PANEL_UI_CHANGED_MATERIAL;
            bool open = m->projectile >= 0 && m->projectile < m->projectile_count &&
                        ImGui::BeginCombo("projectile", m->projectile_names[m->projectile]);
            note_widget("projectile");
            if (open)
            {
                for (int i = 0; i < m->projectile_count; i++)
                {
                    ImGui::PushID(i);
                    if (ImGui::Selectable(m->projectile_names[i], i == m->projectile))
                    {
                        m->projectile = i;
                        changed |= PANEL_UI_CHANGED_PROJECTILE;
                    }
                    // Listed as "projectile:NAME", so that a test can pick one from the open list.
                    char name[96];
                    std::snprintf(name, sizeof name, "projectile:%s", m->projectile_names[i]);
                    note_widget_copy(name);
                    ImGui::PopID();
                }
                ImGui::EndCombo();
            }
            if (slider_float("size", &m->projectile_size, PROJECTILE_SIZE_MIN, PROJECTILE_SIZE_MAX, "%.2f m"))
                changed |= PANEL_UI_CHANGED_PROJECTILE;
            if (slider_float("model scale", &m->model_scale, MODEL_SCALE_MIN, MODEL_SCALE_MAX, "%.3gx",
                             ImGuiSliderFlags_Logarithmic))
                changed |= PANEL_UI_CHANGED_MODEL_SCALE;
        }
        if (ImGui::CollapsingHeader("Debug views", ImGuiTreeNodeFlags_DefaultOpen))
        {
            // Two columns: the panel then fits a 720-point window with every section open.
            for (int i = 0; i < m->view_count; i++)
            {
                if (i % 2 == 1)
                    ImGui::SameLine(ImGui::GetContentRegionAvail().x * 0.5f);
                if (ImGui::Checkbox(m->view_names[i], &m->views[i]))
                    changed |= PANEL_UI_CHANGED_VIEWS;
                note_widget(m->view_names[i]);
            }
        }
        S.stats_open = ImGui::CollapsingHeader("Engine statistics");
        note_widget("Engine statistics");
        if (S.stats_open && m->stats)
            ImGui::TextUnformatted(m->stats);
        ImGui::End();
    }
    ImGui::Render();
    return changed;
}

void panel_ui_render(void)
{
    if (!S.started)
        return;
    ImDrawData *d = ImGui::GetDrawData();
    if (d && d->CmdListsCount > 0)
        ImGui_ImplOpenGL3_RenderDrawData(d);
}

bool panel_ui_widget(int index, const char **out_name, float *out_x, float *out_y, float *out_w, float *out_h)
{
    if (index < 0 || index >= S.widget_count)
        return false;
    const widget_rect &w = S.widgets[index];
    *out_name = w.name;
    *out_x = w.min.x;
    *out_y = w.min.y;
    *out_w = w.max.x - w.min.x;
    *out_h = w.max.y - w.min.y;
    return true;
}

bool panel_ui_stats_open(void)
{
    return S.stats_open;
}
