// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// --script: "FRAME EVENT ARGS; ..." parsed at start into events that are pushed into SDL's queue on
// their frame, so scripted input takes the same path as a player's.

#include "game/app_internal.h"

#include <stdio.h>  // snprintf, sscanf
#include <stdlib.h> // calloc
#include <string.h> // strchr, strcmp, memcpy, memset

// Most script events.
#define APP_MAX_SCRIPT_EVENTS 1024

static bool parse_button(const char *s, Uint8 *out)
{
    if (strcmp(s, "left") == 0)
        *out = SDL_BUTTON_LEFT;
    else if (strcmp(s, "middle") == 0)
        *out = SDL_BUTTON_MIDDLE;
    else if (strcmp(s, "right") == 0)
        *out = SDL_BUTTON_RIGHT;
    else
        return false;
    return true;
}

// Parses "FRAME EVENT ARGS; ..." (see --help). False with a message naming the bad command.
bool app_parse_script(app *a, const char *text, char *err, size_t err_size)
{
    a->script = calloc(APP_MAX_SCRIPT_EVENTS, sizeof *a->script);
    if (!a->script)
    {
        snprintf(err, err_size, "--script: out of memory");
        return false;
    }
    const char *p = text;
    int index = 0;
    while (*p)
    {
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char cmd[256];
        if (len >= sizeof cmd)
        {
            snprintf(err, err_size, "--script: command %d is too long", index + 1);
            return false;
        }
        memcpy(cmd, p, len);
        cmd[len] = '\0';
        p = end ? end + 1 : p + len;
        char word[32] = "", arg[64] = "";
        int frame = -1, x = 0, y = 0, used = 0;
        if (sscanf(cmd, " %d %31s%n", &frame, word, &used) < 2)
        {
            bool blank = true;
            for (const char *c = cmd; *c; c++)
                blank = blank && (*c == ' ' || *c == '\t' || *c == '\n');
            if (blank)
                continue;
            snprintf(err, err_size, "--script: command %d '%s': expected 'FRAME EVENT ARGS'", index + 1, cmd);
            return false;
        }
        if (a->script_count >= APP_MAX_SCRIPT_EVENTS || frame < 0)
        {
            snprintf(err, err_size, "--script: command %d '%s': bad frame or too many commands", index + 1,
                     cmd);
            return false;
        }
        script_event *ev = &a->script[a->script_count];
        ev->frame = frame;
        const char *rest = cmd + used;
        bool ok = false;
        if (strcmp(word, "move") == 0)
        {
            ev->kind = SCRIPT_MOVE;
            ok = sscanf(rest, "%d %d", &x, &y) == 2;
        }
        else if (strcmp(word, "down") == 0 || strcmp(word, "up") == 0)
        {
            ev->kind = word[0] == 'd' ? SCRIPT_DOWN : SCRIPT_UP;
            ok = sscanf(rest, "%d %d %63s", &x, &y, arg) == 3 && parse_button(arg, &ev->button);
        }
        else if (strcmp(word, "key") == 0 || strcmp(word, "keydown") == 0 || strcmp(word, "keyup") == 0)
        {
            ev->kind = strcmp(word, "key") == 0
                           ? SCRIPT_KEY
                           : (strcmp(word, "keydown") == 0 ? SCRIPT_KEYDOWN : SCRIPT_KEYUP);
            // The key name is the rest of the command, spaces included ("Left Ctrl"), trimmed.
            while (*rest == ' ' || *rest == '\t')
                rest++;
            snprintf(arg, sizeof arg, "%s", rest);
            for (size_t n = strlen(arg);
                 n > 0 && (arg[n - 1] == ' ' || arg[n - 1] == '\t' || arg[n - 1] == '\n'); n--)
                arg[n - 1] = '\0';
            ok = arg[0] && (ev->key = SDL_GetKeyFromName(arg)) != SDLK_UNKNOWN;
        }
        else if (strcmp(word, "drop") == 0)
        {
            ev->kind = SCRIPT_DROP;
            ok = sscanf(rest, " %255s", ev->path) == 1;
        }
        else if (strcmp(word, "wheel") == 0)
        {
            ev->kind = SCRIPT_WHEEL;
            ok = sscanf(rest, "%d", &ev->wheel) == 1;
        }
        if (!ok)
        {
            snprintf(err, err_size, "--script: command %d '%s': unknown event or bad arguments", index + 1,
                     cmd);
            return false;
        }
        ev->x = x;
        ev->y = y;
        a->script_count++;
        index++;
    }
    return true;
}

static void push_key(app *a, SDL_Keycode key, bool down)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.windowID = SDL_GetWindowID(a->window);
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.sym = key;
    e.key.keysym.scancode = SDL_GetScancodeFromKey(key);
    SDL_PushEvent(&e);
}

// Pushes this frame's scripted events into SDL's queue: they are handled exactly like real input.
void app_push_script_events(app *a)
{
    Uint32 window_id = SDL_GetWindowID(a->window);
    for (int i = 0; i < a->script_count; i++)
    {
        const script_event *s = &a->script[i];
        if (s->frame != a->frame_index)
            continue;
        SDL_Event e;
        memset(&e, 0, sizeof e);
        switch (s->kind)
        {
        case SCRIPT_MOVE:
            e.type = SDL_MOUSEMOTION;
            e.motion.windowID = window_id;
            e.motion.x = s->x;
            e.motion.y = s->y;
            SDL_PushEvent(&e);
            break;
        case SCRIPT_DOWN:
        case SCRIPT_UP:
            e.type = s->kind == SCRIPT_DOWN ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
            e.button.windowID = window_id;
            e.button.button = s->button;
            e.button.state = s->kind == SCRIPT_DOWN ? SDL_PRESSED : SDL_RELEASED;
            e.button.clicks = 1;
            e.button.x = s->x;
            e.button.y = s->y;
            SDL_PushEvent(&e);
            break;
        case SCRIPT_KEY:
            push_key(a, s->key, true);
            push_key(a, s->key, false);
            break;
        case SCRIPT_KEYDOWN:
            push_key(a, s->key, true);
            break;
        case SCRIPT_KEYUP:
            push_key(a, s->key, false);
            break;
        case SCRIPT_DROP:
            // As SDL delivers a dropped file: a copy the handler frees with SDL_free.
            e.type = SDL_DROPFILE;
            e.drop.windowID = window_id;
            e.drop.file = SDL_strdup(s->path);
            if (e.drop.file && SDL_PushEvent(&e) != 1)
                SDL_free(e.drop.file);
            break;
        case SCRIPT_WHEEL:
            e.type = SDL_MOUSEWHEEL;
            e.wheel.windowID = window_id;
            e.wheel.y = s->wheel;
            SDL_PushEvent(&e);
            break;
        }
    }
}
