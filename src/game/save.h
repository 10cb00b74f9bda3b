// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Save files: the sandbox as it is (every body with its shape and geometry, pose, velocities, sleep,
// material, mass, colour and tag; every joint; gravity, time step, sub-steps, the camera) as JSON, loaded
// back into a world with the same ph_world_hash. A save is a scene file the game opens like the others
// (command line, drop, the panel, R); it is told apart by its name's ending, SAVE_SUFFIX. Floats are
// written with enough digits to read back the same bits. Models' render meshes are not saved: a loaded
// save draws each body's physics shape. No SDL, no GL.
#pragma once

#include "game/camera.h"
#include "game/level.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t

#define SAVE_SUFFIX ".save.json"
// Where the quick-save key writes (relative to the working directory).
#define SAVE_QUICK_PATH "saves/quick" SAVE_SUFFIX

bool save_is_save_file(const char *path);
// Writes the level and the camera to path (its folder is made when missing). False with a message.
bool save_write(level *lv, const camera *cam, const char *path, char *err, size_t err_size);
// Loads a save into a new level (the worlds' sub-steps become the save's, level_set_world_substeps). False
// with a message naming the file and the field ("saves/x.save.json: bodies[3].position: must be ..."), lv
// then empty.
bool save_load(level *lv, const char *path, uint32_t seed, char *err, size_t err_size);
