// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Undo and redo of what the player does to the world's bodies: spawn, throw, delete, freeze and unfreeze.
// Each step keeps the bodies as they were before it and as they were after it (snapshots, see snapshot.h);
// undoing removes the "after" bodies and makes the "before" ones again, redoing the reverse. Bodies made
// again get new ids, so the ids in every step are renamed then. A world made anew (another scene, a loaded
// save, other sub-steps) clears the history. No SDL, no GL.
#pragma once

#include "game/snapshot.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t

// Steps kept; the oldest is dropped beyond.
#define HISTORY_MAX_STEPS 64

typedef struct history_step
{
    char what[32]; // "spawn", "throw", "delete", "freeze", "unfreeze"
    snapshot before, after;
} history_step;

typedef struct history
{
    history_step steps[HISTORY_MAX_STEPS]; // a ring: the oldest at first
    int first, count;                      // steps held
    int done;                              // of them, how many are done (the rest can be redone)
    ph_body_id *seen;                      // history_mark: each slot's live id before an action
    int seen_capacity, seen_count;
} history;

void history_init(history *h);
void history_clear(history *h);
void history_free(history *h);

// Before an action that makes bodies (a spawn): notes the live bodies. history_made then records the step
// of the bodies made since (nothing when none was made).
void history_mark(history *h, level *lv);
void history_made(history *h, level *lv, const char *what);
// Records that one body was made (a throw).
void history_made_body(history *h, level *lv, ph_body_id id, const char *what);
// Deletes a body, recorded. False when it is not a body.
bool history_delete(history *h, level *lv, ph_body_id id);
// Makes a dynamic body static where it is (frozen), or a static one dynamic again (at rest), recorded.
// Returns the body's new id (null on failure, err says why).
ph_body_id history_set_frozen(history *h, level *lv, ph_body_id id, bool frozen, char *err, size_t err_size);

// Undo and redo: false with a message when there is nothing to undo / redo or the world refused.
bool history_undo(history *h, level *lv, char *err, size_t err_size);
bool history_redo(history *h, level *lv, char *err, size_t err_size);
