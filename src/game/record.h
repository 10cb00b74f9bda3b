// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Video recording (--record): frames of tightly packed RGB, read back by the renderer, are piped raw to
// the ffmpeg program, which encodes H.264 in yuv420p (what ordinary players play), or written as numbered
// PNG files into a folder. The game steps exactly one frame of simulated time per video frame; this file
// only moves pixels. No SDL and no GL.
#pragma once

#include <stdbool.h> // bool
#include <stddef.h>  // size_t
#include <stdint.h>  // uint8_t

// Default and largest frame rate of --fps (unit: frames per second).
#define RECORD_DEFAULT_FPS 60
#define RECORD_MAX_FPS 240

typedef struct record record;

// True when path names a folder of PNG frames rather than a video file (it ends in '/').
bool record_is_folder(const char *path);

// Starts a recording of width x height frames at fps into path: a folder ending in '/' (made when
// missing) receives frame_000000.png, frame_000001.png, ...; any other path is a video file that ffmpeg
// writes (its format from the extension: .mp4, .mkv, .mov). Returns NULL with a message in err when
// ffmpeg cannot be started (not installed), the folder cannot be made, or the size is odd (yuv420p
// halves both sides of the colour planes).
record *record_begin(const char *path, int width, int height, int fps, char *err, size_t err_size);
// Adds one frame of width * height * 3 bytes, top row first. False with a message when the frame cannot
// be written (ffmpeg has stopped, the disk is full); the recording should then be ended.
bool record_frame(record *rec, const uint8_t *rgb, char *err, size_t err_size);
// Finishes: closes the pipe, waits for ffmpeg to write the file, frees rec. False with a message when
// ffmpeg failed. rec may be NULL.
bool record_end(record *rec, char *err, size_t err_size);
// Frames added so far.
int record_frame_count(const record *rec);
