// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The demo reel file (reel_file.h): JSON read with cJSON and checked key by key into a plain reel_desc.
// Every message names the file and the segment ("segments[3] (\"thin wall\")") and then the JSON path
// inside it. Each segment's scene file is loaded through scene_load, and a spawn action's entry through
// scene_parse, so the reel accepts exactly what scene files accept. Also the camera spline.
#include "assets/reel_file.h"

#include "assets/json_read.h"

#include <cjson/cJSON.h> // cJSON_ParseWithLengthOpts, cJSON_Duplicate, cJSON_PrintUnformatted, accessors
#include <math.h>        // isfinite, sqrtf
#include <stdio.h>       // snprintf
#include <stdlib.h>      // calloc, free, malloc
#include <string.h>      // strcmp, strlen, strncmp

#define REEL_PATH_TEXT 128           // bytes of a segment label + JSON path in messages
#define REEL_DEFAULT_THROW_SIZE 0.5f // box edge / sphere diameter (unit: m)
#define REEL_DEFAULT_DENSITY 1000.0f // (unit: kg/m^3) water
#define REEL_MAX_DENSITY 1e6f        // (unit: kg/m^3), as scene files
#define REEL_MAX_THROW_SIZE 100.0f   // (unit: m)
// Eye and target (or a throw's from and to) closer than this give no direction (unit: m).
#define REEL_MIN_DIRECTION_LENGTH 1e-4f

static const char *const action_names[REEL_ACTION_COUNT] = {
    "throw", "spawn", "pause", "resume", "slow_motion", "toggle_view", "pick_pair", "replay"};
static const char *const view_names[REEL_VIEW_COUNT] = {"contacts", "bounds",   "octree",
                                                        "sleeping", "calendar", "pair"};

const char *reel_action_name(reel_action_kind kind)
{
    return (unsigned)kind < REEL_ACTION_COUNT ? action_names[kind] : "unknown";
}

const char *reel_view_name(reel_view view)
{
    return (unsigned)view < REEL_VIEW_COUNT ? view_names[view] : "unknown";
}

typedef struct loader
{
    json_reader json; // json.context points at segment
    reel_options options;
    reel_desc *desc;
    char segment[REEL_PATH_TEXT]; // "segments[3] (\"thin wall\")", or "" outside segments
} loader;

// out = parent + "." + key. A path too long for the buffer is cut short, which only shortens the message
// (snprintf's result is checked to say so to the compiler too).
static void child_path(char out[REEL_PATH_TEXT], const char *parent, const char *key)
{
    if (snprintf(out, REEL_PATH_TEXT, "%s.%s", parent, key) < 0)
        out[0] = '\0';
}

static bool get_vec3(loader *ld, const cJSON *item, const char *path, ph_vec3 *out)
{
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3)
        return json_fail(&ld->json, path, "must be an array of 3 numbers, got %s%s", json_type_name(item),
                         cJSON_IsArray(item) ? " of another length" : "");
    float v[3];
    int i = 0;
    for (const cJSON *c = item->child; c; c = c->next, i++)
    {
        char p[REEL_PATH_TEXT];
        snprintf(p, sizeof p, "%s[%d]", path, i);
        if (!json_get_float(&ld->json, c, p, -REEL_MAX_COORDINATE, false, REEL_MAX_COORDINATE, &v[i]))
            return false;
    }
    *out = ph_v3(v[0], v[1], v[2]);
    return true;
}

// A string that fits in size bytes, copied to out.
static bool get_text(loader *ld, const cJSON *item, const char *path, char *out, size_t size)
{
    const char *s = NULL;
    if (!json_get_string(&ld->json, item, path, &s))
        return false;
    if (strlen(s) >= size)
        return json_fail(&ld->json, path, "too long (at most %zu bytes)", size - 1);
    snprintf(out, size, "%s", s);
    return true;
}

static const cJSON *field(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

// A required field: present, else an error naming it.
static const cJSON *need(loader *ld, const cJSON *obj, const char *path, const char *key)
{
    const cJSON *c = field(obj, key);
    if (!c)
        json_fail(&ld->json, path, "missing \"%s\"", key);
    return c;
}

// Unit direction from a vector, or false when it is (nearly) zero.
static bool unit_direction(ph_vec3 v, ph_vec3 *out)
{
    float len = glms_vec3_norm(v);
    if (!(len > REEL_MIN_DIRECTION_LENGTH))
        return false;
    *out = glms_vec3_scale(v, 1.0f / len);
    return true;
}

// ---- Actions ------------------------------------------------------------------------------------------

static bool parse_throw(loader *ld, const cJSON *item, const char *path, reel_action *a)
{
    static const char *const keys[] = {"t",     "do",    "from", "to",      "dir",
                                       "speed", "shape", "size", "density", NULL};
    if (!json_check_keys(&ld->json, item, path, keys))
        return false;
    reel_throw *th = &a->throw_;
    th->shape = REEL_PROJECTILE_BOX;
    th->size = REEL_DEFAULT_THROW_SIZE;
    th->density = REEL_DEFAULT_DENSITY;
    char p[REEL_PATH_TEXT];
    const cJSON *c;
    child_path(p, path, "from");
    if (!(c = need(ld, item, path, "from")) || !get_vec3(ld, c, p, &th->from))
        return false;
    const cJSON *to = field(item, "to"), *dir = field(item, "dir");
    if ((to != NULL) == (dir != NULL))
        return json_fail(&ld->json, path, "needs exactly one of \"to\" (a point) or \"dir\" (a direction)");
    ph_vec3 v;
    child_path(p, path, to ? "to" : "dir");
    if (!get_vec3(ld, to ? to : dir, p, &v))
        return false;
    if (to)
        v = glms_vec3_sub(v, th->from);
    if (!unit_direction(v, &th->direction))
        return json_fail(&ld->json, p, to ? "must differ from \"from\"" : "must not be zero");
    child_path(p, path, "speed");
    if (!(c = need(ld, item, path, "speed")) ||
        !json_get_float(&ld->json, c, p, 0.0f, true, REEL_MAX_SPEED, &th->speed))
        return false;
    if ((c = field(item, "shape")))
    {
        static const char *const shapes[] = {"box", "sphere"};
        int s = 0;
        child_path(p, path, "shape");
        if (!json_get_choice(&ld->json, c, p, shapes, 2, &s))
            return false;
        th->shape = (reel_projectile)s;
    }
    if ((c = field(item, "size")))
    {
        child_path(p, path, "size");
        if (!json_get_float(&ld->json, c, p, 0.0f, true, REEL_MAX_THROW_SIZE, &th->size))
            return false;
    }
    if ((c = field(item, "density")))
    {
        child_path(p, path, "density");
        if (!json_get_float(&ld->json, c, p, 0.0f, true, REEL_MAX_DENSITY, &th->density))
            return false;
    }
    return true;
}

// A spawn action is a scene entry plus "t" and "do": the entry is handed to scene_parse as a one-entry
// scene named after the reel file (so model paths join against the reel's folder, and the rules are
// exactly those of scene files). Its messages, "reel.json: entries[0].count: ...", are re-labelled.
static bool parse_spawn(loader *ld, const cJSON *item, const char *path, reel_action *a)
{
    cJSON *entry = cJSON_Duplicate(item, true);
    cJSON *root = cJSON_CreateObject();
    cJSON *entries = cJSON_CreateArray();
    char *text = NULL;
    if (entry && root && entries)
    {
        cJSON_DeleteItemFromObjectCaseSensitive(entry, "t");
        cJSON_DeleteItemFromObjectCaseSensitive(entry, "do");
        cJSON_AddItemToArray(entries, entry);
        entry = NULL;
        cJSON_AddItemToObject(root, "entries", entries);
        entries = NULL;
        text = cJSON_PrintUnformatted(root);
    }
    cJSON_Delete(entry);
    cJSON_Delete(entries);
    cJSON_Delete(root);
    if (!text)
        return json_fail(&ld->json, path, "out of memory");
    scene_options so = scene_default_options();
    so.load_models = ld->options.load_scenes;
    asset_error e = {0};
    bool ok = scene_parse(text, strlen(text), ld->json.file, &so, &a->spawn, &e);
    free(text);
    if (ok)
        return true;
    char prefix[PATH_MAX_LENGTH + 32];
    snprintf(prefix, sizeof prefix, "%s: entries[0]", ld->json.file);
    size_t n = strlen(prefix);
    if (strncmp(e.text, prefix, n) == 0)
        return json_fail(&ld->json, NULL, "%s%s", path, e.text + n); // ".count: must be ..." or ": needs ..."
    return json_fail(&ld->json, path, "%s", e.text); // a model file's own "file:line: message"
}

static bool parse_action(loader *ld, const cJSON *item, int index, float duration, reel_action *a)
{
    char path[REEL_PATH_TEXT], p[REEL_PATH_TEXT];
    snprintf(path, sizeof path, "actions[%d]", index);
    memset(a, 0, sizeof *a);
    a->factor = 1.0f;
    a->on = true;
    if (!cJSON_IsObject(item))
        return json_fail(&ld->json, path, "must be an object, got %s", json_type_name(item));
    const cJSON *c;
    child_path(p, path, "t");
    if (!(c = need(ld, item, path, "t")) || !json_get_float(&ld->json, c, p, 0.0f, false, duration, &a->time))
        return false;
    int kind = 0;
    child_path(p, path, "do");
    if (!(c = need(ld, item, path, "do")) ||
        !json_get_choice(&ld->json, c, p, action_names, REEL_ACTION_COUNT, &kind))
        return false;
    a->kind = (reel_action_kind)kind;
    switch (a->kind)
    {
    case REEL_ACTION_THROW:
        return parse_throw(ld, item, path, a);
    case REEL_ACTION_SPAWN:
        return parse_spawn(ld, item, path, a);
    case REEL_ACTION_PAUSE:
    {
        static const char *const keys[] = {"t", "do", "duration", NULL};
        if (!json_check_keys(&ld->json, item, path, keys))
            return false;
        child_path(p, path, "duration");
        return !(c = field(item, "duration")) ||
               json_get_float(&ld->json, c, p, 0.0f, true, REEL_MAX_DURATION, &a->duration);
    }
    case REEL_ACTION_RESUME:
    {
        static const char *const keys[] = {"t", "do", NULL};
        return json_check_keys(&ld->json, item, path, keys);
    }
    case REEL_ACTION_SLOW_MOTION:
    {
        static const char *const keys[] = {"t", "do", "factor", "duration", NULL};
        if (!json_check_keys(&ld->json, item, path, keys))
            return false;
        child_path(p, path, "factor");
        if (!(c = need(ld, item, path, "factor")) ||
            !json_get_float(&ld->json, c, p, REEL_MIN_TIME_SCALE, false, 1.0f, &a->factor))
            return false;
        child_path(p, path, "duration");
        return (c = need(ld, item, path, "duration")) &&
               json_get_float(&ld->json, c, p, 0.0f, true, REEL_MAX_DURATION, &a->duration);
    }
    case REEL_ACTION_TOGGLE_VIEW:
    {
        static const char *const keys[] = {"t", "do", "view", "on", NULL};
        if (!json_check_keys(&ld->json, item, path, keys))
            return false;
        int v = 0;
        child_path(p, path, "view");
        if (!(c = need(ld, item, path, "view")) ||
            !json_get_choice(&ld->json, c, p, view_names, REEL_VIEW_COUNT, &v))
            return false;
        a->view = (reel_view)v;
        if ((c = field(item, "on")))
        {
            if (!cJSON_IsBool(c))
            {
                child_path(p, path, "on");
                return json_fail(&ld->json, p, "must be true or false, got %s", json_type_name(c));
            }
            a->on = cJSON_IsTrue(c);
        }
        return true;
    }
    case REEL_ACTION_PICK_PAIR:
    {
        static const char *const keys[] = {"t", "do", "a", "b", NULL};
        if (!json_check_keys(&ld->json, item, path, keys))
            return false;
        for (int k = 0; k < 2; k++)
        {
            const char *key = k ? "b" : "a";
            child_path(p, path, key);
            if (!(c = need(ld, item, path, key)) || !get_vec3(ld, c, p, &a->pair[k]))
                return false;
        }
        return true;
    }
    case REEL_ACTION_REPLAY:
    {
        static const char *const keys[] = {"t", "do", "from", "factor", NULL};
        if (!json_check_keys(&ld->json, item, path, keys))
            return false;
        child_path(p, path, "from");
        if (!(c = need(ld, item, path, "from")) ||
            !json_get_float(&ld->json, c, p, 0.0f, false, duration, &a->from))
            return false;
        if (!(a->from < a->time))
            return json_fail(&ld->json, p, "must be before the replay's own time %g, got %g", (double)a->time,
                             (double)a->from);
        child_path(p, path, "factor");
        if ((c = field(item, "factor")) &&
            !json_get_float(&ld->json, c, p, REEL_MIN_TIME_SCALE, false, 1.0f, &a->factor))
            return false;
        a->duration = duration - a->time;
        return true;
    }
    default:
        return json_fail(&ld->json, path, "unknown action");
    }
}

// ---- Camera keyframes ----------------------------------------------------------------------------------

static bool parse_keyframes(loader *ld, const cJSON *camera, reel_segment *s)
{
    if (!cJSON_IsArray(camera))
        return json_fail(&ld->json, "camera",
                         "must be an array of keyframes {\"t\", \"eye\", \"target\"}, got %s",
                         json_type_name(camera));
    int n = cJSON_GetArraySize(camera);
    if (n < 1 || n > REEL_MAX_KEYFRAMES)
        return json_fail(&ld->json, "camera", "needs 1 to %d keyframes, got %d", REEL_MAX_KEYFRAMES, n);
    static const char *const keys[] = {"t", "eye", "target", NULL};
    int i = 0;
    for (const cJSON *k = camera->child; k; k = k->next, i++)
    {
        char path[REEL_PATH_TEXT], p[REEL_PATH_TEXT];
        snprintf(path, sizeof path, "camera[%d]", i);
        reel_keyframe *kf = &s->keyframes[i];
        if (!cJSON_IsObject(k))
            return json_fail(&ld->json, path, "must be an object {\"t\", \"eye\", \"target\"}, got %s",
                             json_type_name(k));
        if (!json_check_keys(&ld->json, k, path, keys))
            return false;
        const cJSON *c;
        child_path(p, path, "t");
        if (!(c = need(ld, k, path, "t")) ||
            !json_get_float(&ld->json, c, p, 0.0f, false, s->duration, &kf->time))
            return false;
        if (i > 0 && !(kf->time > s->keyframes[i - 1].time))
            return json_fail(&ld->json, p, "must be greater than camera[%d].t (%g), got %g", i - 1,
                             (double)s->keyframes[i - 1].time, (double)kf->time);
        child_path(p, path, "eye");
        if (!(c = need(ld, k, path, "eye")) || !get_vec3(ld, c, p, &kf->eye))
            return false;
        child_path(p, path, "target");
        if (!(c = need(ld, k, path, "target")) || !get_vec3(ld, c, p, &kf->target))
            return false;
        ph_vec3 unused;
        if (!unit_direction(glms_vec3_sub(kf->target, kf->eye), &unused))
            return json_fail(&ld->json, path, "eye and target must differ");
    }
    s->keyframe_count = n;
    return true;
}

// ---- Segments ------------------------------------------------------------------------------------------

static bool is_recipe(const loader *ld, const char *name)
{
    for (const char *const *r = ld->options.recipe_names; r && *r; r++)
        if (strcmp(*r, name) == 0)
            return true;
    return false;
}

static bool parse_scene(loader *ld, const cJSON *item, int index, reel_segment *s)
{
    const char *name = NULL;
    if (!json_get_string(&ld->json, item, "scene", &name))
        return false;
    if (path_has_extension(name, ".json"))
    {
        s->scene_kind = REEL_SCENE_FILE;
        if (!path_join_sibling(ld->json.file, name, s->scene_path, sizeof s->scene_path))
            return json_fail(&ld->json, "scene", "path too long (at most %d bytes)", PATH_MAX_LENGTH - 1);
        if (!ld->options.load_scenes)
            return true;
        reel_desc *desc = ld->desc;
        for (int i = 0; i < index; i++) // a scene used by several segments is loaded once
            if (desc->segments[i].scene && strcmp(desc->segments[i].scene_path, s->scene_path) == 0)
            {
                s->scene = desc->segments[i].scene;
                return true;
            }
        asset_error e = {0};
        if (!scene_load(s->scene_path, NULL, &s->scene, &e))
            return json_fail(&ld->json, NULL, "%s", e.text);
        return true;
    }
    if (!is_recipe(ld, name))
    {
        char list[256] = "";
        for (const char *const *r = ld->options.recipe_names; r && *r; r++)
        {
            size_t n = strlen(list);
            snprintf(list + n, sizeof list - n, "%s\"%s\"", list[0] ? ", " : "", *r);
        }
        return json_fail(&ld->json, NULL, "unknown scene \"%.64s\" (a .json file, or one of: %s)", name,
                         list[0] ? list : "no recipe scenes in this program");
    }
    s->scene_kind = REEL_SCENE_RECIPE;
    snprintf(s->recipe, sizeof s->recipe, "%s", name);
    return true;
}

static bool parse_caption(loader *ld, const cJSON *item, reel_segment *s)
{
    static const char *const keys[] = {"title", "line", NULL};
    if (!cJSON_IsObject(item))
        return json_fail(&ld->json, "caption", "must be an object {\"title\", \"line\"}, got %s",
                         json_type_name(item));
    if (!json_check_keys(&ld->json, item, "caption", keys))
        return false;
    const cJSON *c;
    if (!(c = need(ld, item, "caption", "title")) ||
        !get_text(ld, c, "caption.title", s->title, sizeof s->title))
        return false;
    if (!s->title[0])
        return json_fail(&ld->json, "caption.title", "must not be empty");
    return !(c = field(item, "line")) || get_text(ld, c, "caption.line", s->line, sizeof s->line);
}

static bool parse_views(loader *ld, const cJSON *item, reel_segment *s)
{
    if (!cJSON_IsArray(item))
        return json_fail(&ld->json, "views", "must be an array of view names, got %s", json_type_name(item));
    int i = 0;
    for (const cJSON *c = item->child; c; c = c->next, i++)
    {
        char p[REEL_PATH_TEXT];
        snprintf(p, sizeof p, "views[%d]", i);
        int v = 0;
        if (!json_get_choice(&ld->json, c, p, view_names, REEL_VIEW_COUNT, &v))
            return false;
        s->views[v] = true;
    }
    return true;
}

static bool parse_segment(loader *ld, const cJSON *item, int index, reel_segment *s)
{
    static const char *const keys[] = {"name",   "scene",   "duration", "caption",
                                       "camera", "actions", "views",    NULL};
    snprintf(ld->segment, sizeof ld->segment, "segments[%d]", index);
    if (!cJSON_IsObject(item))
        return json_fail(&ld->json, NULL, "must be an object, got %s", json_type_name(item));
    const cJSON *c;
    // The name first, so that every later message can carry it.
    const cJSON *caption = field(item, "caption");
    const cJSON *title = caption && cJSON_IsObject(caption) ? field(caption, "title") : NULL;
    if ((c = field(item, "name")))
    {
        if (!get_text(ld, c, "name", s->name, sizeof s->name))
            return false;
    }
    else if (title && cJSON_IsString(title) && title->valuestring)
        snprintf(s->name, sizeof s->name, "%s", title->valuestring);
    if (s->name[0])
        snprintf(ld->segment, sizeof ld->segment, "segments[%d] (\"%.60s\")", index, s->name);
    if (!json_check_keys(&ld->json, item, "", keys))
        return false;
    if (!caption)
        return json_fail(&ld->json, NULL, "missing \"caption\" ({\"title\", \"line\"})");
    if (!parse_caption(ld, caption, s))
        return false;
    if (!(c = need(ld, item, "", "duration")) ||
        !json_get_float(&ld->json, c, "duration", 0.0f, true, REEL_MAX_DURATION, &s->duration))
        return false;
    if (!(c = need(ld, item, "", "scene")) || !parse_scene(ld, c, index, s))
        return false;
    if ((c = field(item, "views")) && !parse_views(ld, c, s))
        return false;
    if (!(c = need(ld, item, "", "camera")) || !parse_keyframes(ld, c, s))
        return false;
    const cJSON *actions = field(item, "actions");
    if (actions)
    {
        if (!cJSON_IsArray(actions))
            return json_fail(&ld->json, "actions", "must be an array, got %s", json_type_name(actions));
        int n = cJSON_GetArraySize(actions);
        if (n > REEL_MAX_ACTIONS)
            return json_fail(&ld->json, "actions", "has %d actions (at most %d)", n, REEL_MAX_ACTIONS);
        int i = 0, replays = 0;
        for (const cJSON *a = actions->child; a; a = a->next, i++)
        {
            s->action_count = i + 1; // so that reel_free frees the spawns parsed so far
            if (!parse_action(ld, a, i, s->duration, &s->actions[i]))
                return false;
            if (s->actions[i].kind == REEL_ACTION_REPLAY && ++replays > 1)
                return json_fail(&ld->json, "actions",
                                 "has more than one replay (a replay plays the history to the "
                                 "segment's end)");
        }
        // Stable insertion sort by time: actions at the same time keep their order in the file.
        for (int k = 1; k < s->action_count; k++)
        {
            reel_action a = s->actions[k];
            int j = k - 1;
            for (; j >= 0 && s->actions[j].time > a.time; j--)
                s->actions[j + 1] = s->actions[j];
            s->actions[j + 1] = a;
        }
    }
    return true;
}

static bool parse_root(loader *ld, const cJSON *root, reel_desc *desc)
{
    static const char *const keys[] = {"title", "description", "segments", NULL};
    if (!cJSON_IsObject(root))
        return json_fail(&ld->json, NULL, "the top level must be a JSON object, got %s",
                         json_type_name(root));
    if (!json_check_keys(&ld->json, root, "", keys))
        return false;
    const cJSON *c;
    if ((c = field(root, "title")) && !get_text(ld, c, "title", desc->title, sizeof desc->title))
        return false;
    const char *unused;
    if ((c = field(root, "description")) && !json_get_string(&ld->json, c, "description", &unused))
        return false;
    const cJSON *segments = need(ld, root, "", "segments");
    if (!segments)
        return false;
    if (!cJSON_IsArray(segments))
        return json_fail(&ld->json, "segments", "must be an array, got %s", json_type_name(segments));
    int n = cJSON_GetArraySize(segments);
    if (n < 1 || n > REEL_MAX_SEGMENTS)
        return json_fail(&ld->json, "segments", "needs 1 to %d segments, got %d", REEL_MAX_SEGMENTS, n);
    desc->segments = calloc((size_t)n, sizeof(reel_segment));
    if (!desc->segments)
        return json_fail(&ld->json, NULL, "out of memory");
    int i = 0;
    for (const cJSON *s = segments->child; s; s = s->next, i++)
    {
        desc->segment_count = i + 1; // so that reel_free frees what was loaded so far
        if (!parse_segment(ld, s, i, &desc->segments[i]))
            return false;
        desc->total_duration += desc->segments[i].duration;
    }
    ld->segment[0] = '\0';
    return true;
}

reel_options reel_default_options(void)
{
    reel_options o;
    o.load_scenes = true;
    o.recipe_names = NULL;
    return o;
}

bool reel_parse(const char *buf, size_t len, const char *name, const reel_options *options,
                reel_desc **out_desc, asset_error *err)
{
    if (!out_desc)
        return false;
    *out_desc = NULL;
    loader ld;
    memset(&ld, 0, sizeof ld);
    ld.json.file = name ? name : "(memory)";
    ld.json.err = err;
    ld.json.context = ld.segment;
    ld.options = options ? *options : reel_default_options();
    cJSON *root = json_parse_text(&ld.json, buf, len, REEL_MAX_FILE_BYTES);
    if (!root)
        return false;
    reel_desc *desc = calloc(1, sizeof *desc);
    if (!desc)
    {
        cJSON_Delete(root);
        return json_fail(&ld.json, NULL, "out of memory");
    }
    snprintf(desc->file, sizeof desc->file, "%s", ld.json.file);
    ld.desc = desc;
    bool ok = parse_root(&ld, root, desc);
    cJSON_Delete(root);
    if (!ok)
    {
        reel_free(desc);
        return false;
    }
    *out_desc = desc;
    return true;
}

bool reel_load(const char *path, const reel_options *options, reel_desc **out_desc, asset_error *err)
{
    if (!out_desc)
        return false;
    *out_desc = NULL;
    size_t len;
    char *buf = asset_read_file(path, REEL_MAX_FILE_BYTES, &len, err);
    if (!buf)
        return false;
    bool ok = reel_parse(buf, len, path, options, out_desc, err);
    free(buf);
    return ok;
}

void reel_free(reel_desc *desc)
{
    if (!desc)
        return;
    for (int i = 0; i < desc->segment_count; i++)
    {
        reel_segment *s = &desc->segments[i];
        bool shared = false;
        for (int j = 0; j < i && !shared; j++)
            shared = desc->segments[j].scene == s->scene;
        if (!shared)
            scene_free(s->scene);
        for (int k = 0; k < s->action_count; k++)
            scene_free(s->actions[k].spawn);
    }
    free(desc->segments);
    free(desc);
}

// ---- Camera path ---------------------------------------------------------------------------------------

// The tangent (unit: m/s) at keyframe i of one coordinate track (eye or target): Catmull-Rom's central
// difference over the two neighbours, divided by their time span so uneven spacing keeps the speed
// right; zero at the ends, where the camera starts from rest and comes to rest.
static ph_vec3 tangent(const reel_segment *s, int i, bool eye)
{
    int n = s->keyframe_count;
    if (i == 0 || i == n - 1)
        return ph_v3(0.0f, 0.0f, 0.0f);
    const reel_keyframe *a = &s->keyframes[i - 1], *b = &s->keyframes[i + 1];
    ph_vec3 d = glms_vec3_sub(eye ? b->eye : b->target, eye ? a->eye : a->target);
    return glms_vec3_scale(d, 1.0f / (b->time - a->time));
}

void reel_camera_at(const reel_segment *segment, float t, ph_vec3 *out_eye, ph_vec3 *out_target)
{
    const reel_segment *s = segment;
    int n = s->keyframe_count;
    if (n <= 0)
    {
        *out_eye = ph_v3(0.0f, 1.0f, 10.0f);
        *out_target = ph_v3(0.0f, 1.0f, 0.0f);
        return;
    }
    if (!(t > s->keyframes[0].time)) // also NaN
    {
        *out_eye = s->keyframes[0].eye;
        *out_target = s->keyframes[0].target;
        return;
    }
    if (t >= s->keyframes[n - 1].time)
    {
        *out_eye = s->keyframes[n - 1].eye;
        *out_target = s->keyframes[n - 1].target;
        return;
    }
    int i = 0;
    while (i + 1 < n - 1 && t >= s->keyframes[i + 1].time)
        i++;
    const reel_keyframe *k0 = &s->keyframes[i], *k1 = &s->keyframes[i + 1];
    float h = k1->time - k0->time;
    float u = (t - k0->time) / h;
    // Cubic Hermite basis on [0, 1]: position weights h00, h01 and tangent weights h10, h11 (times h,
    // which turns tangents in m/s into the m per unit parameter the basis expects).
    float u2 = u * u, u3 = u2 * u;
    float h00 = 2.0f * u3 - 3.0f * u2 + 1.0f;
    float h10 = u3 - 2.0f * u2 + u;
    float h01 = -2.0f * u3 + 3.0f * u2;
    float h11 = u3 - u2;
    for (int track = 0; track < 2; track++)
    {
        bool eye = track == 0;
        ph_vec3 p0 = eye ? k0->eye : k0->target, p1 = eye ? k1->eye : k1->target;
        ph_vec3 m0 = tangent(s, i, eye), m1 = tangent(s, i + 1, eye);
        ph_vec3 p = glms_vec3_add(glms_vec3_add(glms_vec3_scale(p0, h00), glms_vec3_scale(m0, h10 * h)),
                                  glms_vec3_add(glms_vec3_scale(p1, h01), glms_vec3_scale(m1, h11 * h)));
        if (eye)
            *out_eye = p;
        else
            *out_target = p;
    }
}

int reel_segment_at(const reel_desc *desc, float t, float *out_local_time)
{
    float start = 0.0f;
    int last = desc->segment_count - 1;
    for (int i = 0; i < last; i++)
    {
        if (t < start + desc->segments[i].duration)
        {
            *out_local_time = t > start ? t - start : 0.0f;
            return i;
        }
        start += desc->segments[i].duration;
    }
    float local = t - start;
    float d = desc->segments[last].duration;
    *out_local_time = local < 0.0f ? 0.0f : (local > d ? d : local);
    return last;
}
