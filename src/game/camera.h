// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The game's two cameras: an orbit camera (turns about a target point, pans it, zooms by distance) and a
// fly camera (moves its eye with the keyboard, turns with the mouse). Both share one yaw/pitch, so
// toggling keeps the view. The game feeds mouse deltas in pixels and key states; the renderer gets the
// view and projection through camera_render_camera. No SDL and no GL here.
#pragma once

#include "render/renderer.h"

#include <stdbool.h> // bool

typedef enum camera_mode
{
    CAMERA_ORBIT,
    CAMERA_FLY
} camera_mode;

typedef struct camera
{
    camera_mode mode;
    vec3s target;   // orbit: the point turned about (unit: m)
    float distance; // orbit: eye to target (unit: m)
    vec3s eye;      // fly: the eye; orbit: kept equal to target - forward * distance (unit: m)
    float yaw;      // about +y, 0 looks along -z (unit: rad)
    float pitch;    // above the horizon, clamped to +-CAMERA_MAX_PITCH (unit: rad)
    float fov_y;    // vertical field of view (unit: rad)
    bool has_floor; // orbit: the eye stays CAMERA_FLOOR_CLEARANCE above floor_y
    float floor_y;  // (unit: m)
} camera;

// How far above its floor the orbit camera's eye stays (unit: m).
#define CAMERA_FLOOR_CLEARANCE 0.3f

// Looks from eye at target with a vertical field of view (unit: degrees); orbit mode.
void camera_init(camera *cam, vec3s eye, vec3s target, float fov_degrees);
// Keeps the orbit camera's eye above the ground's top at floor_y (lowering its pitch, or lifting the
// target onto the floor when it lies below it); has_floor false lets it go anywhere.
void camera_set_floor(camera *cam, bool has_floor, float floor_y);
// Unit direction of view.
vec3s camera_forward(const camera *cam);
// Right-drag in orbit mode, mouse look in fly mode: turns by a pointer delta (unit: px).
void camera_rotate(camera *cam, float dx_px, float dy_px);
// Middle-drag: moves the target (orbit) or eye (fly) in the view plane so the point under the pointer
// follows it; viewport_height in px.
void camera_pan(camera *cam, float dx_px, float dy_px, int viewport_height);
// Wheel: zooms by clicks (positive is closer). In fly mode it moves the eye forward.
void camera_zoom(camera *cam, float clicks);
// Fly movement for dt (unit: s): move.x right, move.y up, move.z forward, each in [-1, 1].
void camera_fly(camera *cam, vec3s move, float dt, bool fast);
// Switches between orbit and fly, keeping the eye and view direction.
void camera_toggle_mode(camera *cam);
// The ray from the eye through a point of the viewport given as fractions (u right, v down, both in
// [0, 1]); out_dir is unit.
void camera_pixel_ray(const camera *cam, float u, float v, float aspect, vec3s *out_origin, vec3s *out_dir);
// View and projection matrices for an aspect ratio (width / height).
render_camera camera_render_camera(const camera *cam, float aspect);
