// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Orbit and fly cameras. The view direction is kept as yaw and pitch (no roll), so both cameras stay
// level with the horizon and a toggle between them never jumps: orbit derives its eye from the target,
// fly derives a target from its eye.

#include "game/camera.h"

#include <math.h> // sinf, cosf, tanf, powf, atan2f, asinf

// Turning speed of a drag (unit: rad/px).
#define CAMERA_RADIANS_PER_PIXEL 0.005f
// Pitch stays inside +-89 degrees so the view never flips over the pole (unit: rad).
#define CAMERA_MAX_PITCH 1.5533430f
// Orbit distance bounds (unit: m).
#define CAMERA_MIN_DISTANCE 0.5f
#define CAMERA_MAX_DISTANCE 5000.0f
// One wheel click scales the orbit distance by this factor (closer) or its inverse.
#define CAMERA_ZOOM_STEP 0.88f
// Fly speed, and with Shift held (unit: m/s).
#define CAMERA_FLY_SPEED 6.0f
#define CAMERA_FLY_FAST_SPEED 24.0f
// One wheel click moves the fly camera this far (unit: m).
#define CAMERA_FLY_WHEEL_STEP 1.0f
// The fly camera pans as if the point under the pointer were this far ahead (unit: m).
#define CAMERA_FLY_PAN_DEPTH 10.0f
// Clip planes (unit: m). The orbit camera scales them with its distance so that both a 1 m pebble seen
// from 2 m and a 500 m room seen from 1 km keep a usable depth precision (the far / near ratio stays
// CAMERA_FAR / CAMERA_NEAR at most).
#define CAMERA_NEAR 0.05f
#define CAMERA_FAR 1000.0f
#define CAMERA_NEAR_PER_DISTANCE 0.002f

static const vec3s WORLD_UP = {{0.0f, 1.0f, 0.0f}};

vec3s camera_forward(const camera *cam)
{
    float cp = cosf(cam->pitch);
    return (vec3s){{cp * sinf(cam->yaw), sinf(cam->pitch), -cp * cosf(cam->yaw)}};
}

static vec3s camera_right(const camera *cam)
{
    return (vec3s){{cosf(cam->yaw), 0.0f, sinf(cam->yaw)}};
}

static float clampf(float x, float lo, float hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

static void sync_eye(camera *cam)
{
    if (cam->mode != CAMERA_ORBIT)
        return;
    if (cam->has_floor)
    {
        // eye.y = target.y - sin(pitch) distance stays above the floor when sin(pitch) <= (target.y -
        // floor) / distance; a target below the floor is lifted onto it first.
        float floor = cam->floor_y + CAMERA_FLOOR_CLEARANCE;
        if (cam->target.y < floor)
            cam->target.y = floor;
        float most = clampf((cam->target.y - floor) / cam->distance, -1.0f, 1.0f);
        if (sinf(cam->pitch) > most)
            cam->pitch = clampf(asinf(most), -CAMERA_MAX_PITCH, CAMERA_MAX_PITCH);
    }
    cam->eye = glms_vec3_sub(cam->target, glms_vec3_scale(camera_forward(cam), cam->distance));
}

void camera_set_floor(camera *cam, bool has_floor, float floor_y)
{
    cam->has_floor = has_floor;
    cam->floor_y = floor_y;
    sync_eye(cam);
}

void camera_init(camera *cam, vec3s eye, vec3s target, float fov_degrees)
{
    vec3s d = glms_vec3_sub(target, eye);
    float len = glms_vec3_norm(d);
    if (!(len > CAMERA_MIN_DISTANCE))
    {
        d = (vec3s){{0.0f, 0.0f, -1.0f}};
        len = CAMERA_MIN_DISTANCE;
    }
    d = glms_vec3_scale(d, 1.0f / len);
    cam->mode = CAMERA_ORBIT;
    cam->target = target;
    cam->distance = clampf(len, CAMERA_MIN_DISTANCE, CAMERA_MAX_DISTANCE);
    cam->yaw = atan2f(d.x, -d.z);
    cam->pitch = clampf(asinf(clampf(d.y, -1.0f, 1.0f)), -CAMERA_MAX_PITCH, CAMERA_MAX_PITCH);
    cam->fov_y = glm_rad(clampf(fov_degrees, 1.0f, 179.0f));
    cam->eye = eye;
    cam->has_floor = false;
    sync_eye(cam);
}

void camera_rotate(camera *cam, float dx_px, float dy_px)
{
    cam->yaw += dx_px * CAMERA_RADIANS_PER_PIXEL;
    cam->pitch = clampf(cam->pitch - dy_px * CAMERA_RADIANS_PER_PIXEL, -CAMERA_MAX_PITCH, CAMERA_MAX_PITCH);
    sync_eye(cam);
}

void camera_pan(camera *cam, float dx_px, float dy_px, int viewport_height)
{
    // At the target's depth one pixel spans 2 d tan(fov/2) / height metres, so the grabbed point stays
    // under the pointer.
    float depth = cam->mode == CAMERA_ORBIT ? cam->distance : CAMERA_FLY_PAN_DEPTH;
    float h = viewport_height > 0 ? (float)viewport_height : 1.0f;
    float metres_per_px = 2.0f * depth * tanf(0.5f * cam->fov_y) / h;
    vec3s right = camera_right(cam);
    vec3s up = glms_vec3_cross(right, camera_forward(cam));
    vec3s delta = glms_vec3_add(glms_vec3_scale(right, -dx_px * metres_per_px),
                                glms_vec3_scale(up, dy_px * metres_per_px));
    cam->target = glms_vec3_add(cam->target, delta);
    cam->eye = glms_vec3_add(cam->eye, delta);
    sync_eye(cam);
}

void camera_zoom(camera *cam, float clicks)
{
    if (cam->mode == CAMERA_ORBIT)
    {
        cam->distance =
            clampf(cam->distance * powf(CAMERA_ZOOM_STEP, clicks), CAMERA_MIN_DISTANCE, CAMERA_MAX_DISTANCE);
        sync_eye(cam);
    }
    else
    {
        cam->eye =
            glms_vec3_add(cam->eye, glms_vec3_scale(camera_forward(cam), clicks * CAMERA_FLY_WHEEL_STEP));
    }
}

void camera_fly(camera *cam, vec3s move, float dt, bool fast)
{
    if (cam->mode != CAMERA_FLY || !(dt > 0.0f))
        return;
    float speed = (fast ? CAMERA_FLY_FAST_SPEED : CAMERA_FLY_SPEED) * dt;
    vec3s step = glms_vec3_scale(camera_right(cam), move.x * speed);
    step = glms_vec3_add(step, glms_vec3_scale(WORLD_UP, move.y * speed));
    step = glms_vec3_add(step, glms_vec3_scale(camera_forward(cam), move.z * speed));
    cam->eye = glms_vec3_add(cam->eye, step);
}

void camera_toggle_mode(camera *cam)
{
    if (cam->mode == CAMERA_ORBIT)
    {
        cam->mode = CAMERA_FLY;
    }
    else
    {
        // The new target sits at the old orbit distance straight ahead, so orbiting resumes smoothly.
        cam->mode = CAMERA_ORBIT;
        cam->target = glms_vec3_add(cam->eye, glms_vec3_scale(camera_forward(cam), cam->distance));
        sync_eye(cam);
    }
}

render_camera camera_render_camera(const camera *cam, float aspect)
{
    render_camera rc;
    rc.eye = cam->eye;
    rc.view = glms_lookat(cam->eye, glms_vec3_add(cam->eye, camera_forward(cam)), WORLD_UP);
    float scale = cam->distance * CAMERA_NEAR_PER_DISTANCE / CAMERA_NEAR;
    scale = scale > 1.0f ? scale : 1.0f;
    rc.proj =
        glms_perspective(cam->fov_y, aspect > 0.0f ? aspect : 1.0f, CAMERA_NEAR * scale, CAMERA_FAR * scale);
    return rc;
}

void camera_pixel_ray(const camera *cam, float u, float v, float aspect, vec3s *out_origin, vec3s *out_dir)
{
    // Normalised device coordinates scaled by the half extents of the image plane at unit distance.
    float t = tanf(0.5f * cam->fov_y);
    float x = (2.0f * u - 1.0f) * t * (aspect > 0.0f ? aspect : 1.0f);
    float y = (1.0f - 2.0f * v) * t;
    vec3s f = camera_forward(cam);
    vec3s r = camera_right(cam);
    vec3s up = glms_vec3_cross(r, f);
    vec3s d = glms_vec3_add(f, glms_vec3_add(glms_vec3_scale(r, x), glms_vec3_scale(up, y)));
    *out_origin = cam->eye;
    *out_dir = glms_vec3_normalize(d);
}
