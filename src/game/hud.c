// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// HUD panels drawn with the renderer's stb_easy_font text. Figures are smoothed with an exponential
// moving average of time constant HUD_SMOOTHING_SECONDS, so a number that jitters every frame stays
// readable; counts (bodies, contacts) are shown as measured.

#include "game/hud.h"

#include <math.h>   // expf
#include <stdio.h>  // snprintf
#include <string.h> // strlen

// Time constant of the moving average of timings (unit: s).
#define HUD_SMOOTHING_SECONDS 0.5f
// How long a notice and an error stay on screen (unit: s).
#define HUD_NOTICE_SECONDS 3.0f
#define HUD_ERROR_SECONDS 10.0f
// Text scale at ui_scale 1, margin and line padding (unit: px).
#define HUD_TEXT_SCALE 1.5f
#define HUD_MARGIN 8.0f
#define HUD_PADDING 6.0f
// Size of the charge bar (unit: px).
#define HUD_BAR_WIDTH 240.0f
// The help overlay fills at most this fraction of the window's width and height.
#define HUD_HELP_FILL 0.95f
#define HUD_BAR_HEIGHT 14.0f
// The charge bar's top sits this many bar heights above the bottom of the window.
#define HUD_BAR_LIFT 4.0f

static const uint32_t PANEL_RGBA = 0x000000a0u;
static const uint32_t TEXT_RGBA = 0xf0f0f0ffu;
static const uint32_t ERROR_RGBA = 0xff6050ffu;
static const uint32_t TOOL_RGBA = 0x80e0ffffu; // the joint tool's prompt
static const uint32_t BAR_BACK_RGBA = 0x303030c0u;
static const uint32_t BAR_RGBA = 0xffb020ffu;
static const uint32_t TITLE_RGBA = 0xffd060ffu;
static const uint32_t HELP_SHADE_RGBA = 0x00000080u; // dims the scene behind the help

// The help overlay: section titles (action NULL) and key / action rows, drawn in two columns.
typedef struct help_row
{
    const char *key;
    const char *action;
} help_row;

static const help_row HELP_ROWS[] = {
    {"MOUSE", NULL},
    {"left click / hold", "throw onto the point under the crosshair; hold to charge 20 .. 100 m/s"},
    {"Ctrl + left drag", "grab a body and drag it (a spring to the pointer); it is drawn brighter"},
    {"  wheel, V, F", "  while held: push away / pull nearer, turn (Shift: the other way), freeze"},
    {"right drag", "orbit (orbit camera) / look around (fly camera)"},
    {"middle drag", "pan"},
    {"wheel", "zoom (orbit) / move forward (fly)"},
    {"drop a file", ".obj: add it at the pointer, and throw it with Tab; .json: load the scene"},
    {"KEYBOARD", NULL},
    {"C", "toggle orbit / fly camera"},
    {"W A S D, Q E, Shift", "fly: move, down / up, faster"},
    {"Tab", "cycle the projectile: box, sphere, capsule, model"},
    {"F11", "settings panel: scenes, gravity, time, sub-steps, material, projectile, views"},
    {"1 2 3 4 5", "spawn at the pointer: tower, pyramid, wall, domino line, box rain"},
    {"6 7 8 9 0", "spawn at the pointer: ragdoll, wrecking ball, rope bridge, swing, Newton's cradle"},
    {"G", "weld tool: click two bodies"},
    {"T", "rope tool: click two points on bodies or the ground"},
    {"H", "hinge tool: click a body, then the hinge point (axis: the view direction)"},
    {"B", "break tool: click near a joint to remove it"},
    {"J", "joints drawn on / off"},
    {"O", "models drawn as their collision shapes (hull, compound, decomposition) / their own meshes"},
    {"X or Delete", "delete the body under the pointer"},
    {"F", "freeze the held body (or the one under the pointer) in place; F on it unfreezes"},
    {"Ctrl+Z / Ctrl+Y", "undo / redo a spawn, throw, delete or freeze (64 steps)"},
    {"Ctrl+S / Ctrl+L", "quick-save to saves/quick.save.json / load it"},
    {"F12", "screenshot to screenshots/shot_NNN.png"},
    {"P or Space", "pause / resume"},
    {"N", "single step (pauses)"},
    {"M", "slow motion 0.1x on / off"},
    {"K", "impact sounds on / off"},
    {"R", "reset to the scene loaded last"},
    {"Page Down / Page Up", "next / previous scene"},
    {"Esc", "close this help / turn a joint tool off / quit"},
    {"DEBUG VIEWS", NULL},
    {"F2 / F3 / F4", "contacts / bounding boxes / octree nodes"},
    {"F5 / F6", "sleeping bodies tinted / calendar events of the last step"},
    {"F7", "GJK simplex and EPA polytope of the pair under the pointer"},
    {"F8 / F9 / F10", "HUD / shadows / debug lines through geometry"},
    {"F1", "this help"},
    {"DEMO REEL (--reel)", NULL},
    {"Right / Page Down", "next segment"},
    {"Left / Page Up", "previous segment"},
    {"R", "restart the segment"},
    {"P or Space", "pause the reel"},
};
#define HELP_ROW_COUNT ((int)(sizeof HELP_ROWS / sizeof HELP_ROWS[0]))
// Gap between the key and action columns, and indent of rows under a title (unit: px at scale 1).
#define HELP_COLUMN_GAP 24.0f
#define HELP_INDENT 12.0f
// The reel's caption at a frame height of CAPTION_REFERENCE_HEIGHT: text scales of the title, the line
// and the status line, margin from the frame's edges and padding inside the panel (unit: px); other
// heights scale all of it in proportion.
#define CAPTION_REFERENCE_HEIGHT 720.0f
#define CAPTION_TITLE_SCALE 3.0f
#define CAPTION_LINE_SCALE 2.0f
#define CAPTION_STATUS_SCALE 1.5f
#define CAPTION_MARGIN 16.0f
#define CAPTION_PADDING 10.0f
// Space between the caption's lines, as a fraction of the line above's height.
#define CAPTION_LINE_GAP 0.35f
static const uint32_t CAPTION_PANEL_RGBA = 0x000000b0u;
static const uint32_t CAPTION_STATUS_RGBA = 0xa8b4c0ffu;

void hud_init(hud *h)
{
    memset(h, 0, sizeof *h);
}

static float blend(float old, float now, float k)
{
    return old + (now - old) * k;
}

void hud_update(hud *h, const hud_frame *frame, float dt_seconds)
{
    if (h->message_seconds > 0.0f)
        h->message_seconds -= dt_seconds;
    if (!h->has_frame)
    {
        h->smooth = *frame;
        h->has_frame = true;
        return;
    }
    // k = 1 - exp(-dt / tau) is the exact decay of a first-order filter over dt.
    float k = 1.0f - expf(-(dt_seconds > 0.0f ? dt_seconds : 0.0f) / HUD_SMOOTHING_SECONDS);
    hud_frame *s = &h->smooth;
    s->frame_ms = blend(s->frame_ms, frame->frame_ms, k);
    s->physics_ms = blend(s->physics_ms, frame->physics_ms, k);
    s->render_ms = blend(s->render_ms, frame->render_ms, k);
    for (int i = 0; i < PH_STAGE_COUNT; i++)
        s->stage_ms[i] = blend(s->stage_ms[i], frame->stage_ms[i], k);
    s->steps = frame->steps;
    s->calendar_events = frame->calendar_events;
    s->body_count = frame->body_count;
    s->awake_count = frame->awake_count;
    s->sleeping_count = frame->sleeping_count;
    s->contact_count = frame->contact_count;
    s->removed_count = frame->removed_count;
    s->joint_count = frame->joint_count;
    s->instances = frame->instances;
    s->draw_calls = frame->draw_calls;
    s->render_scale = frame->render_scale;
    s->render_scale_auto = frame->render_scale_auto;
}

void hud_message(hud *h, bool is_error, const char *text)
{
    snprintf(h->message, sizeof h->message, "%s", text ? text : "");
    h->message_is_error = is_error;
    h->message_seconds = is_error ? HUD_ERROR_SECONDS : HUD_NOTICE_SECONDS;
}

// A panel with text at (x, y); returns its height.
static float panel(renderer *r, float x, float y, float scale, uint32_t rgba, const char *text)
{
    float w = renderer_text_width(text, scale) + 2.0f * HUD_PADDING;
    float hgt = renderer_text_height(text, scale) + 2.0f * HUD_PADDING;
    renderer_rect(r, x, y, w, hgt, PANEL_RGBA);
    renderer_text(r, x + HUD_PADDING, y + HUD_PADDING, scale, rgba, text);
    return hgt;
}

void hud_draw(const hud *h, renderer *r, const hud_status *status, int width, int height, float ui_scale)
{
    float scale = HUD_TEXT_SCALE * (ui_scale > 0.0f ? ui_scale : 1.0f);
    float margin = HUD_MARGIN * scale / HUD_TEXT_SCALE;
    const hud_frame *s = &h->smooth;
    char text[1024];
    int n = snprintf(
        text, sizeof text,
        "frame %.2f ms (%.0f fps)  physics %.2f ms (%d steps)  render %.2f ms\n"
        "bodies %d: awake %d, asleep %d, fell off %d   joints %d   contacts %d   calendar events %d/frame\n"
        "instances %d  draw calls %d  render scale %.2f%s\n",
        (double)s->frame_ms, s->frame_ms > 0.0f ? 1000.0 / (double)s->frame_ms : 0.0, (double)s->physics_ms,
        s->steps, (double)s->render_ms, s->body_count, s->awake_count, s->sleeping_count, s->removed_count,
        s->joint_count, s->contact_count, s->calendar_events, s->instances, s->draw_calls,
        (double)s->render_scale, s->render_scale_auto ? " (auto)" : "");
    for (int i = 0; i < PH_STAGE_COUNT && n > 0 && (size_t)n < sizeof text; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "%s%s %.2f",
                      i == 0 ? "stages ms: " : (i % 4 == 0 ? "\n  " : "  "), ph_stage_name((ph_stage)i),
                      (double)s->stage_ms[i]);
    float y = margin;
    y += panel(r, margin, y, scale, TEXT_RGBA, text) + margin;

    snprintf(text, sizeof text, "%s   time x%.2g%s   camera %s   projectile %s%s%s   F1 help",
             status->scene ? status->scene : "", (double)status->time_scale, status->paused ? "  PAUSED" : "",
             status->camera_mode, status->projectile,
             status->debug_views && *status->debug_views ? "   views: " : "",
             status->debug_views ? status->debug_views : "");
    y += panel(r, margin, y, scale, TEXT_RGBA, text) + margin;

    if (status->charging)
    {
        float frac = status->charge_max_speed > 0.0f ? status->charge_speed / status->charge_max_speed : 0.0f;
        frac = frac < 0.0f ? 0.0f : (frac > 1.0f ? 1.0f : frac);
        float bw = HUD_BAR_WIDTH * scale / HUD_TEXT_SCALE, bh = HUD_BAR_HEIGHT * scale / HUD_TEXT_SCALE;
        float bx = 0.5f * ((float)width - bw), by = (float)height - HUD_BAR_LIFT * bh;
        renderer_rect(r, bx, by, bw, bh, BAR_BACK_RGBA);
        renderer_rect(r, bx, by, bw * frac, bh, BAR_RGBA);
        snprintf(text, sizeof text, "charge %.0f m/s", (double)status->charge_speed);
        renderer_text(r, bx, by - renderer_text_height(text, scale) - HUD_PADDING, scale, TEXT_RGBA, text);
    }
    if (status->tool_prompt && status->tool_prompt[0])
        y += panel(r, margin, y, scale, TOOL_RGBA, status->tool_prompt) + margin;
    if (h->message_seconds > 0.0f && h->message[0])
        y += panel(r, margin, y, scale, h->message_is_error ? ERROR_RGBA : TEXT_RGBA, h->message) + margin;
    // A shader that fails to reload stays on screen (with file and line) until it compiles again.
    if (status->shader_error && status->shader_error[0])
        panel(r, margin, y, scale, ERROR_RGBA, status->shader_error);
}

// Crosshair arms: length from the centre, the open gap at the centre, width, outline (unit: px at ui
// scale 1).
#define CROSSHAIR_ARM 9.0f
#define CROSSHAIR_GAP 3.0f
#define CROSSHAIR_WIDTH 2.0f
#define CROSSHAIR_OUTLINE 1.0f
static const uint32_t CROSSHAIR_RGBA = 0xffffffffu;
static const uint32_t CROSSHAIR_OUTLINE_RGBA = 0x000000c0u;

void hud_draw_crosshair(renderer *r, float x, float y, float ui_scale)
{
    float k = ui_scale > 0.0f ? ui_scale : 1.0f;
    float arm = CROSSHAIR_ARM * k, gap = CROSSHAIR_GAP * k, w = CROSSHAIR_WIDTH * k,
          o = CROSSHAIR_OUTLINE * k;
    float len = arm - gap;
    // Left, right, up, down: (x, y, w, h) of each arm.
    const float arms[4][4] = {{x - arm, y - 0.5f * w, len, w},
                              {x + gap, y - 0.5f * w, len, w},
                              {x - 0.5f * w, y - arm, w, len},
                              {x - 0.5f * w, y + gap, w, len}};
    for (int i = 0; i < 4; i++)
        renderer_rect(r, arms[i][0] - o, arms[i][1] - o, arms[i][2] + 2.0f * o, arms[i][3] + 2.0f * o,
                      CROSSHAIR_OUTLINE_RGBA);
    for (int i = 0; i < 4; i++)
        renderer_rect(r, arms[i][0], arms[i][1], arms[i][2], arms[i][3], CROSSHAIR_RGBA);
}

void hud_draw_hint(renderer *r, const char *text, int width, int height, float ui_scale)
{
    float scale = HUD_TEXT_SCALE * (ui_scale > 0.0f ? ui_scale : 1.0f);
    float margin = HUD_MARGIN * scale / HUD_TEXT_SCALE;
    // Shrunk where the window is narrower than the line.
    float w = renderer_text_width(text, scale) + 2.0f * HUD_PADDING;
    if (w > (float)width - 2.0f * margin && w > 0.0f)
    {
        scale *= ((float)width - 2.0f * margin) / w;
        w = renderer_text_width(text, scale) + 2.0f * HUD_PADDING;
    }
    float h = renderer_text_height(text, scale) + 2.0f * HUD_PADDING;
    panel(r, 0.5f * ((float)width - w), (float)height - margin - h, scale, TITLE_RGBA, text);
}

void hud_draw_help(renderer *r, int width, int height, float ui_scale)
{
    float key_w = 0.0f, action_w = 0.0f, line_h = renderer_text_height("Mg", 1.0f);
    for (int i = 0; i < HELP_ROW_COUNT; i++)
    {
        float kw = renderer_text_width(HELP_ROWS[i].key, 1.0f) + (HELP_ROWS[i].action ? HELP_INDENT : 0.0f);
        float aw = HELP_ROWS[i].action ? renderer_text_width(HELP_ROWS[i].action, 1.0f) : 0.0f;
        key_w = HELP_ROWS[i].action && kw > key_w ? kw : key_w;
        action_w = aw > action_w ? aw : action_w;
    }
    // The usual text size, shrunk where the window is too small for the whole list.
    float w1 = key_w + HELP_COLUMN_GAP + action_w + 2.0f * HUD_PADDING;
    float h1 = line_h * (float)HELP_ROW_COUNT + 2.0f * HUD_PADDING;
    float scale = HUD_TEXT_SCALE * (ui_scale > 0.0f ? ui_scale : 1.0f);
    float fit_w = HUD_HELP_FILL * (float)width / w1, fit_h = HUD_HELP_FILL * (float)height / h1;
    scale = scale < fit_w ? scale : fit_w;
    scale = scale < fit_h ? scale : fit_h;
    float w = w1 * scale, hgt = h1 * scale;
    float x = 0.5f * ((float)width - w), y = 0.5f * ((float)height - hgt);
    x = x > 0.0f ? x : 0.0f;
    y = y > 0.0f ? y : 0.0f;
    renderer_rect(r, 0.0f, 0.0f, (float)width, (float)height, HELP_SHADE_RGBA);
    renderer_rect(r, x, y, w, hgt, PANEL_RGBA);
    for (int i = 0; i < HELP_ROW_COUNT; i++)
    {
        float ty = y + (HUD_PADDING + line_h * (float)i) * scale;
        float tx = x + (HUD_PADDING + (HELP_ROWS[i].action ? HELP_INDENT : 0.0f)) * scale;
        renderer_text(r, tx, ty, scale, HELP_ROWS[i].action ? TEXT_RGBA : TITLE_RGBA, HELP_ROWS[i].key);
        if (HELP_ROWS[i].action)
            renderer_text(r, x + (HUD_PADDING + key_w + HELP_COLUMN_GAP) * scale, ty, scale, TEXT_RGBA,
                          HELP_ROWS[i].action);
    }
}

void hud_draw_caption(renderer *r, const char *title, const char *line, const char *status, int width,
                      int height)
{
    const char *texts[3] = {title ? title : "", line ? line : "", status ? status : ""};
    const float scales[3] = {CAPTION_TITLE_SCALE, CAPTION_LINE_SCALE, CAPTION_STATUS_SCALE};
    const uint32_t colours[3] = {TITLE_RGBA, TEXT_RGBA, CAPTION_STATUS_RGBA};
    float k = (float)height / CAPTION_REFERENCE_HEIGHT;
    float margin = CAPTION_MARGIN * k, padding = CAPTION_PADDING * k;
    // One factor for all three lines: the widest must fit inside the margins.
    float widest = 0.0f;
    for (int i = 0; i < 3; i++)
    {
        float w = renderer_text_width(texts[i], scales[i] * k);
        widest = w > widest ? w : widest;
    }
    float room = (float)width - 2.0f * (margin + padding);
    if (widest > room && widest > 0.0f)
        k *= room / widest;
    float panel_w = 0.0f, panel_h = 2.0f * padding;
    for (int i = 0; i < 3; i++)
    {
        float w = renderer_text_width(texts[i], scales[i] * k);
        panel_w = w > panel_w ? w : panel_w;
        panel_h += renderer_text_height(texts[i], scales[i] * k) * (i < 2 ? 1.0f + CAPTION_LINE_GAP : 1.0f);
    }
    panel_w += 2.0f * padding;
    float x = margin, y = (float)height - margin - panel_h;
    renderer_rect(r, x, y, panel_w, panel_h, CAPTION_PANEL_RGBA);
    y += padding;
    for (int i = 0; i < 3; i++)
    {
        renderer_text(r, x + padding, y, scales[i] * k, colours[i], texts[i]);
        y += renderer_text_height(texts[i], scales[i] * k) * (1.0f + CAPTION_LINE_GAP);
    }
}
