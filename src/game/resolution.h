// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Dynamic resolution: the render scale of the 3D scene (render_options.render_scale), fixed or adapted once a
// second to keep the frame within its budget. On a software rasteriser (Mesa's llvmpipe) a frame's cost is
// mostly fill, which goes with the square of the scale, so drawing the scene at a lower resolution and
// upscaling it is the one lever that brings a 1280x720 frame under 16.6 ms there; on a GPU the scale stays
// where it is put. Plain logic on measured times: no SDL, no GL.
#pragma once

#include <stdbool.h> // bool

// The frame budget the automatic mode keeps to: 60 frames a second (unit: ms).
#define RESOLUTION_BUDGET_MS 16.6f

typedef struct resolution
{
    bool automatic;   // adapt the scale to the budget (else it stays as set)
    float scale;      // the render scale now, in [RENDER_SCALE_MIN, 1]
    double window_ms; // wall time of the frames measured since the last decision (unit: ms)
    double work_ms;   // their work: each frame until the GL had drawn it, presenting left out (unit: ms)
    int frames;       // frames since the last decision
    int calm_windows; // decisions in a row that found the frame well under the budget
} resolution;

// A fixed scale (clamped to [RENDER_SCALE_MIN, 1]), or automatic (starting at 1) when automatic is true.
void resolution_init(resolution *res, bool automatic, float scale);
// Adds one frame: its wall time and its work (unit: ms). Once a second of wall time the automatic mode
// compares the frames' mean work with the budget: over it, the scale drops (at once, by the square root of
// the ratio, as fill goes with its square); under 70 % of it for two seconds running, it
// rises one step. The gap between the two keeps it from flickering. Returns true when the scale changed.
bool resolution_update(resolution *res, float frame_ms, float work_ms);
