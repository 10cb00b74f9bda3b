// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The player's joint tools, each a mode that left clicks feed: weld (two bodies), rope (two points on
// bodies or the ground: a distance joint from 0 up to their distance), hinge (a body, then the hinge point:
// a revolute joint about the view direction between that body and what is under the second click, or the
// world when that is the same body, a static body or the ground) and break (removes the joint nearest the
// pointer's ray). Points come from camera rays as for the other tools. No SDL and no GL.
#pragma once

#include "game/level.h"

#include "phys/phys.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t

typedef enum joint_tools_mode
{
    JOINT_TOOLS_OFF,
    JOINT_TOOLS_WELD,
    JOINT_TOOLS_ROPE,
    JOINT_TOOLS_HINGE,
    JOINT_TOOLS_BREAK,
    JOINT_TOOLS_MODE_COUNT
} joint_tools_mode;

// Ropes shorter than this are refused (unit: m).
#define JOINT_TOOLS_MIN_ROPE 0.05f
// Break picks the joint whose anchors' segment passes within this of the pointer's ray, plus this fraction
// of its distance from the camera (unit: m; ratio), so far joints are as easy to hit as near ones.
#define JOINT_TOOLS_PICK_RADIUS 0.3f
#define JOINT_TOOLS_PICK_SLOPE 0.02f

typedef struct joint_tools
{
    joint_tools_mode mode;
    int clicks;      // clicks taken towards the current joint (0 or 1)
    ph_body_id body; // the first click's body (null: the ground or the world)
    ph_vec3 local;   // the first click's point in that body's frame (the world point when null)
    ph_vec3 point;   // the first click's point in the world (unit: m)
} joint_tools;

// "off", "weld", "rope", "hinge", "break".
const char *joint_tools_mode_name(joint_tools_mode mode);
// Selects a mode (the same mode again turns the tools off) and forgets a half-made joint.
void joint_tools_select(joint_tools *t, joint_tools_mode mode);
// What the next click does, for the HUD ("" when off).
const char *joint_tools_prompt(const joint_tools *t);
// A left click along the ray (view_dir: the camera's forward direction). Returns true when it did its
// part; false with the reason in msg. A finished joint or a break puts a notice in msg.
bool joint_tools_click(joint_tools *t, level *lv, ph_vec3 origin, ph_vec3 dir, ph_vec3 view_dir, char *msg,
                       size_t msg_size);
// The first click's point now (it moves with its body); false when no click is pending.
bool joint_tools_pending_point(const joint_tools *t, const level *lv, ph_vec3 *out);
// The joint nearest the ray (within the pick radius), null when none.
ph_joint_id joint_tools_pick(const level *lv, ph_vec3 origin, ph_vec3 dir);
