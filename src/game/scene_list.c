// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The scenes Page Up / Page Down and the panel offer: the built-ins, then scenes/*.json in name order,
// each with its name and the one-line description its file gives. And the models of models/, which the
// panel offers as projectiles.
#define _POSIX_C_SOURCE 200809L // opendir/readdir

#include "game/app_internal.h"

#include <cjson/cJSON.h> // a scene file's "description"
#include <dirent.h>      // opendir, readdir
#include <stdio.h>       // snprintf, fopen
#include <stdlib.h>      // qsort, malloc, free
#include <string.h>      // strcmp, strncmp, strrchr

// A scene file's description is read from at most this many bytes (the descriptions come first or near).
#define SCENE_LIST_MAX_FILE_BYTES (1 << 20)

static const char *const BUILTIN_DESCRIPTIONS[LEVEL_BUILTIN_COUNT] = {
    "a tower and a pyramid",
    "the ground and one cube",
    "boxes tumbling into a heap",
};

static int compare_slots(const void *a, const void *b)
{
    return strcmp(((const scene_slot *)a)->path, ((const scene_slot *)b)->path);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(a, b);
}

// A folder of the project's data: next to the working directory, else in the source tree.
static const char *data_folder(const char *here, const char *in_source)
{
    DIR *d = opendir(here);
    if (!d)
        return in_source;
    closedir(d);
    return here;
}

const char *app_scenes_folder(void)
{
    return data_folder("scenes", SANDBOX_SOURCE_DIR "/scenes");
}

// The file's "description", or "" when it has none or cannot be read (the scene itself reports its errors
// when it is loaded).
static void read_description(const char *path, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    char *buf = malloc(SCENE_LIST_MAX_FILE_BYTES + 1);
    size_t n = buf ? fread(buf, 1, SCENE_LIST_MAX_FILE_BYTES, f) : 0;
    fclose(f);
    if (!buf)
        return;
    buf[n] = '\0';
    cJSON *root = cJSON_Parse(buf);
    free(buf);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "description");
    if (cJSON_IsString(d) && d->valuestring)
        snprintf(out, size, "%s", d->valuestring);
    cJSON_Delete(root);
}

// A file's scene is named by its file name, .json included (the built-in "default" and default.json differ).
static void name_from_path(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    snprintf(out, size, "%s", slash ? slash + 1 : path);
}

void app_list_scenes(app *a)
{
    a->scene_count = 0;
    for (int b = 0; b < LEVEL_BUILTIN_COUNT && a->scene_count < APP_MAX_SCENES; b++)
    {
        scene_slot *s = &a->scenes[a->scene_count++];
        s->builtin = (level_builtin)b;
        s->path[0] = '\0';
        snprintf(s->name, sizeof s->name, "%s", level_builtin_name((level_builtin)b));
        snprintf(s->description, sizeof s->description, "%s", BUILTIN_DESCRIPTIONS[b]);
    }
    const char *folder = app_scenes_folder();
    DIR *d = opendir(folder);
    if (!d)
        return;
    int first_file = a->scene_count;
    struct dirent *e;
    // The reel file and its own scenes (reel*.json) are left to the reel.
    while ((e = readdir(d)) != NULL && a->scene_count < APP_MAX_SCENES)
    {
        if (!app_ends_with(e->d_name, ".json") || strncmp(e->d_name, "reel", strlen("reel")) == 0)
            continue;
        scene_slot *s = &a->scenes[a->scene_count];
        int n = snprintf(s->path, sizeof s->path, "%s/%s", folder, e->d_name);
        if (n > 0 && (size_t)n < sizeof s->path)
            a->scene_count++;
    }
    closedir(d);
    qsort(a->scenes + first_file, (size_t)(a->scene_count - first_file), sizeof a->scenes[0], compare_slots);
    for (int i = first_file; i < a->scene_count; i++)
    {
        name_from_path(a->scenes[i].path, a->scenes[i].name, sizeof a->scenes[i].name);
        read_description(a->scenes[i].path, a->scenes[i].description, sizeof a->scenes[i].description);
    }
}

void app_list_models(app *a)
{
    a->model_file_count = 0;
    const char *folder = data_folder("models", SANDBOX_SOURCE_DIR "/models");
    DIR *d = opendir(folder);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && a->model_file_count < APP_MAX_MODEL_FILES)
    {
        if (!app_ends_with(e->d_name, ".obj"))
            continue;
        char *p = a->model_files[a->model_file_count];
        int n = snprintf(p, sizeof a->model_files[0], "%s/%s", folder, e->d_name);
        if (n > 0 && (size_t)n < sizeof a->model_files[0])
            a->model_file_count++;
    }
    closedir(d);
    qsort(a->model_files, (size_t)a->model_file_count, sizeof a->model_files[0], compare_names);
}
