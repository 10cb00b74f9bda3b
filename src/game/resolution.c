// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The automatic render scale: a controller with a dead band, deciding once a second on the mean of the
// second's frames (one frame's time jitters with the load of the machine; a second's mean does not).

#include "game/resolution.h"

#include "render/renderer.h" // RENDER_SCALE_MIN

#include <math.h>   // sqrtf, floorf, lroundf, fminf
#include <string.h> // memset

// Frames are judged a second at a time (unit: ms of wall time).
#define RESOLUTION_WINDOW_MS 1000.0
// The scale moves in steps of this size, so the scene's target is not made again for every small change.
#define RESOLUTION_STEP 0.05f
// A drop aims at this share of the budget, leaving room for the load to vary.
#define RESOLUTION_AIM_SHARE 0.85f
// Well under the budget: a mean work below this share of it. One step up from the lowest scale adds at most
// (0.55 / 0.5)^2 = 1.21 times the fill, 0.7 x 1.21 = 0.85 of the budget: a rise does not overshoot it.
#define RESOLUTION_RAISE_SHARE 0.7f
// Seconds in a row well under the budget before a rise.
#define RESOLUTION_CALM_WINDOWS 2

static float clamp_scale(float s)
{
    return s > RENDER_SCALE_MIN ? fminf(s, 1.0f) : RENDER_SCALE_MIN;
}

void resolution_init(resolution *res, bool automatic, float scale)
{
    memset(res, 0, sizeof *res);
    res->automatic = automatic;
    res->scale = automatic ? 1.0f : clamp_scale(scale);
}

bool resolution_update(resolution *res, float frame_ms, float work_ms)
{
    if (!res->automatic)
        return false;
    res->window_ms += (double)frame_ms;
    res->work_ms += (double)work_ms;
    res->frames++;
    if (res->window_ms < RESOLUTION_WINDOW_MS)
        return false;
    float mean = (float)(res->work_ms / (double)res->frames);
    res->window_ms = res->work_ms = 0.0;
    res->frames = 0;
    float old = res->scale;
    int steps = (int)lroundf(old / RESOLUTION_STEP);
    if (mean > RESOLUTION_BUDGET_MS)
    {
        // Fill goes with the square of the scale: this scale would bring it to the aim if all of the frame
        // were fill. The rest of it (physics, the shadow map) does not shrink, so a second look may drop
        // further. At least one step, rounded down to whole steps.
        float aim = old * sqrtf(RESOLUTION_AIM_SHARE * RESOLUTION_BUDGET_MS / mean);
        int aim_steps = (int)floorf(aim / RESOLUTION_STEP);
        steps = aim_steps < steps - 1 ? aim_steps : steps - 1;
        res->calm_windows = 0;
    }
    else if (mean < RESOLUTION_RAISE_SHARE * RESOLUTION_BUDGET_MS)
    {
        if (++res->calm_windows >= RESOLUTION_CALM_WINDOWS)
        {
            steps++;
            res->calm_windows = 0;
        }
    }
    else
    {
        res->calm_windows = 0;
    }
    res->scale = clamp_scale((float)steps * RESOLUTION_STEP);
    return res->scale != old;
}
