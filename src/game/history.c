// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The undo history (see history.h). A step is two snapshots, so spawn, throw, delete and freeze are undone
// and redone by one rule: remove one side's bodies, make the other side's again.

#include "game/history.h"

#include <stdio.h>  // snprintf
#include <stdlib.h> // realloc, free
#include <string.h> // memset

void history_init(history *h)
{
    memset(h, 0, sizeof *h);
}

static history_step *step_at(history *h, int i)
{
    return &h->steps[(h->first + i) % HISTORY_MAX_STEPS];
}

static void free_step(history_step *s)
{
    snapshot_free(&s->before);
    snapshot_free(&s->after);
}

void history_clear(history *h)
{
    for (int i = 0; i < h->count; i++)
        free_step(step_at(h, i));
    h->first = h->count = h->done = 0;
}

void history_free(history *h)
{
    history_clear(h);
    free(h->seen);
    h->seen = NULL;
    h->seen_capacity = h->seen_count = 0;
}

// A new step: what could be redone is dropped, and the oldest step when the history is full. The caller
// fills its snapshots.
static history_step *push(history *h, const char *what)
{
    while (h->count > h->done)
        free_step(step_at(h, --h->count));
    if (h->count == HISTORY_MAX_STEPS)
    {
        free_step(step_at(h, 0));
        h->first = (h->first + 1) % HISTORY_MAX_STEPS;
        h->count--;
        h->done--;
    }
    history_step *s = step_at(h, h->count++);
    h->done = h->count;
    memset(s, 0, sizeof *s);
    snprintf(s->what, sizeof s->what, "%s", what);
    return s;
}

void history_mark(history *h, level *lv)
{
    int n = 0;
    const ph_body_id *ids = level_list_bodies(lv, &n);
    h->seen_count = 0;
    if (n > h->seen_capacity)
    {
        ph_body_id *p = realloc(h->seen, (size_t)n * sizeof *p);
        if (!p)
            return;
        h->seen = p;
        h->seen_capacity = n;
    }
    memcpy(h->seen, ids, (size_t)n * sizeof *ids);
    h->seen_count = n;
}

void history_made(history *h, level *lv, const char *what)
{
    int n = 0;
    const ph_body_id *ids = level_list_bodies(lv, &n);
    ph_body_id *made = malloc((size_t)(n > 0 ? n : 1) * sizeof *made);
    if (!made)
        return;
    // Both lists are in slot order: a body is new when the earlier list has no such id.
    int count = 0, k = 0;
    for (int i = 0; i < n; i++)
    {
        while (k < h->seen_count && h->seen[k].index1 < ids[i].index1)
            k++;
        if (!(k < h->seen_count && PH_ID_EQUALS(h->seen[k], ids[i])))
            made[count++] = ids[i];
    }
    if (count > 0)
    {
        history_step *s = push(h, what);
        snapshot_take(&s->after, lv, made, count);
    }
    free(made);
}

void history_made_body(history *h, level *lv, ph_body_id id, const char *what)
{
    if (!ph_body_is_valid(lv->world, id))
        return;
    history_step *s = push(h, what);
    snapshot_take(&s->after, lv, &id, 1);
}

// Removes the bodies of a snapshot that still exist (their joints go with them).
static void remove_bodies(level *lv, const snapshot *s)
{
    for (int i = 0; i < s->body_count; i++)
        if (ph_body_is_valid(lv->world, s->bodies[i].id))
            ph_body_destroy(lv->world, s->bodies[i].id);
}

// Makes a snapshot's bodies again and renames them everywhere in the history.
static bool make_again(history *h, level *lv, snapshot *s, char *err, size_t err_size)
{
    ph_body_id *ids = malloc((size_t)(s->body_count > 0 ? s->body_count : 1) * sizeof *ids);
    if (!ids)
    {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    bool ok = snapshot_restore(s, lv, false, false, ids, err, err_size);
    for (int i = 0; ok && i < s->body_count; i++)
    {
        ph_body_id old = s->bodies[i].id;
        for (int k = 0; k < h->count; k++)
        {
            snapshot_rename(&step_at(h, k)->before, old, ids[i]);
            snapshot_rename(&step_at(h, k)->after, old, ids[i]);
        }
    }
    free(ids);
    return ok;
}

bool history_delete(history *h, level *lv, ph_body_id id)
{
    if (!ph_body_is_valid(lv->world, id))
        return false;
    history_step *s = push(h, "delete");
    snapshot_take(&s->before, lv, &id, 1);
    return ph_body_destroy(lv->world, id) == PH_OK;
}

ph_body_id history_set_frozen(history *h, level *lv, ph_body_id id, bool frozen, char *err, size_t err_size)
{
    if (!ph_body_is_valid(lv->world, id))
        return PH_NULL_BODY_ID;
    history_step *s = push(h, frozen ? "freeze" : "unfreeze");
    snapshot changed;
    if (!snapshot_take(&s->before, lv, &id, 1) || !snapshot_take(&changed, lv, &id, 1))
    {
        snprintf(err, err_size, "out of memory");
        return PH_NULL_BODY_ID;
    }
    snapshot_body *b = &changed.bodies[0];
    b->type = frozen ? PH_BODY_STATIC : PH_BODY_DYNAMIC;
    b->frozen = frozen;
    b->linear_velocity = b->angular_velocity = (ph_vec3){{0.0f, 0.0f, 0.0f}};
    b->awake = true;
    // A frozen body has no mass; unfrozen, it gets its shape's (made from its material's density).
    b->mass.mass = 0.0f;
    ph_body_destroy(lv->world, id);
    ph_body_id made = PH_NULL_BODY_ID;
    if (snapshot_restore(&changed, lv, false, false, &made, err, err_size))
        snapshot_take(&s->after, lv, &made, 1);
    snapshot_free(&changed);
    return made;
}

bool history_undo(history *h, level *lv, char *err, size_t err_size)
{
    if (h->done == 0)
    {
        snprintf(err, err_size, "nothing to undo");
        return false;
    }
    history_step *s = step_at(h, h->done - 1);
    remove_bodies(lv, &s->after);
    if (!make_again(h, lv, &s->before, err, err_size))
        return false;
    h->done--;
    if (!err[0])
        snprintf(err, err_size, "undone: %s", s->what);
    return true;
}

bool history_redo(history *h, level *lv, char *err, size_t err_size)
{
    if (h->done == h->count)
    {
        snprintf(err, err_size, "nothing to redo");
        return false;
    }
    history_step *s = step_at(h, h->done);
    remove_bodies(lv, &s->before);
    if (!make_again(h, lv, &s->after, err, err_size))
        return false;
    h->done++;
    if (!err[0])
        snprintf(err, err_size, "redone: %s", s->what);
    return true;
}
