// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Throw, grab, spawn and delete. The grab is a critically damped spring between a point of the body and
// the pointer's target, written as an acceleration (so light and heavy bodies respond alike) and clamped
// so a fast drag cannot fling a body through the ground.

#include "game/tools.h"

#include <math.h>   // sqrtf, fabsf, fmaxf, fminf, atan2f, cosf, sinf
#include <stdio.h>  // snprintf
#include <string.h> // memset

// How far a ray looks for bodies (unit: m).
#define TOOLS_REACH 1000.0f
// Projectiles start this far along the ray, clear of the near plane (unit: m).
#define TOOLS_LAUNCH_DISTANCE 1.0f
// The player's throws start this far right of and below the view's centre line (unit: m).
#define TOOLS_HAND_OFFSET 0.3f
// Projectiles are steel (unit: kg/m^3): a 0.6 m block of it (TOOLS_DEFAULT_SIZE) weighs 1.7 t, enough to
// knock over the 1 t blocks (1 m^3 of water density) the layouts are built from; a block of the layouts'
// own density would bounce off them.
#define TOOLS_PROJECTILE_DENSITY 7800.0f
// Grab spring: natural frequency (unit: Hz) and damping ratio (1 = critical), and the largest
// acceleration it may give (unit: m/s^2).
#define TOOLS_GRAB_HERTZ 4.0f
#define TOOLS_GRAB_DAMPING_RATIO 1.0f
#define TOOLS_GRAB_MAX_ACCELERATION 400.0f
// Rotational damping of a grabbed body, as an angular deceleration per unit angular velocity (unit: 1/s)
// times its inertia, so it does not spin on the spring like a pendulum forever.
#define TOOLS_GRAB_ANGULAR_DAMPING 4.0f
// The wheel moves a held body this fraction of its distance from the eye per click, at least the step (unit:
// m), and no nearer than the least distance (unit: m).
#define TOOLS_GRAB_PUSH_FRACTION 0.1f
#define TOOLS_GRAB_PUSH_MIN_STEP 0.25f
#define TOOLS_GRAB_MIN_DISTANCE 1.5f
// Rays nearly parallel to the drag plane (|cos| below this) keep the last target.
#define TOOLS_MIN_PLANE_COSINE 1e-3f
#define TOOLS_PI 3.14159265358979f

static const char *const PROJECTILE_NAMES[TOOLS_PROJECTILE_COUNT] = {"box", "sphere", "capsule", "model"};

void tools_init(tools *t)
{
    memset(t, 0, sizeof *t);
    t->model_mesh = -1;
}

const char *tools_projectile_name(tools_projectile p)
{
    return (unsigned)p < TOOLS_PROJECTILE_COUNT ? PROJECTILE_NAMES[p] : "unknown";
}

void tools_next_projectile(tools *t)
{
    t->projectile = (tools_projectile)((t->projectile + 1) % TOOLS_PROJECTILE_COUNT);
}

void tools_begin_charge(tools *t)
{
    t->charging = true;
    t->charge_seconds = 0.0f;
}

void tools_update_charge(tools *t, float dt_seconds)
{
    if (t->charging && dt_seconds > 0.0f)
        t->charge_seconds += dt_seconds;
}

float tools_charge_speed(const tools *t)
{
    float f = t->charge_seconds / TOOLS_CHARGE_SECONDS;
    f = f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
    return TOOLS_MIN_THROW_SPEED + (TOOLS_MAX_THROW_SPEED - TOOLS_MIN_THROW_SPEED) * f;
}

tools_throw_def tools_default_throw(const tools *t, ph_vec3 origin, ph_vec3 dir, float speed)
{
    dir = ph_safe_normalize(dir, (ph_vec3){{0.0f, 0.0f, -1.0f}});
    tools_throw_def def = {
        .projectile = t->projectile,
        .position = glms_vec3_add(origin, glms_vec3_scale(dir, TOOLS_LAUNCH_DISTANCE)),
        .direction = dir,
        .speed = speed,
        .size = t->size > 0.0f ? t->size : TOOLS_DEFAULT_SIZE,
        .density = t->custom_material ? t->material.density : TOOLS_PROJECTILE_DENSITY,
        .custom_surface = t->custom_material,
        .friction = t->material.friction,
        .restitution = t->material.restitution,
    };
    return def;
}

void tools_aim(const level *lv, ph_vec3 origin, ph_vec3 dir, float speed, ph_vec3 *out_start,
               ph_vec3 *out_dir)
{
    dir = ph_safe_normalize(dir, (ph_vec3){{0.0f, 0.0f, -1.0f}});
    // From the lower right of the view, as from a hand: the path to the target is then seen from the side
    // and the preview shows its arc instead of a dot under the crosshair.
    ph_vec3 right =
        ph_safe_normalize(glms_vec3_cross(dir, (ph_vec3){{0.0f, 1.0f, 0.0f}}), (ph_vec3){{1.0f, 0.0f, 0.0f}});
    ph_vec3 up = glms_vec3_cross(right, dir);
    *out_start = glms_vec3_add(origin, glms_vec3_scale(dir, TOOLS_LAUNCH_DISTANCE));
    *out_start = glms_vec3_add(*out_start, glms_vec3_sub(glms_vec3_scale(right, TOOLS_HAND_OFFSET),
                                                         glms_vec3_scale(up, TOOLS_HAND_OFFSET)));
    *out_dir = dir;
    ph_vec3 target;
    if (!lv->world)
        return;
    if (PH_ID_IS_NULL(tools_pick(lv, origin, dir, &target)))
    {
        float ground_y = lv->has_ground ? lv->ground.hi.y : 0.0f;
        if (!(dir.y < -TOOLS_MIN_PLANE_COSINE) || !(origin.y > ground_y))
            return;
        target = glms_vec3_add(origin, glms_vec3_scale(dir, (ground_y - origin.y) / dir.y));
    }
    // Gravity along -y only (a sideways gravity keeps the straight aim). The launch angle theta above the
    // horizontal that reaches a point h away and y up at speed v: tan theta = (v^2 - sqrt(D)) / (g h) with
    // D = v^4 - g (g h^2 + 2 y v^2), the lower arc; D < 0: out of reach.
    ph_vec3 gravity = ph_world_get_gravity(lv->world);
    float g = -gravity.y;
    ph_vec3 d = glms_vec3_sub(target, *out_start);
    float h = sqrtf(d.x * d.x + d.z * d.z), y = d.y, v2 = speed * speed;
    if (!(g > 0.0f) || fabsf(gravity.x) + fabsf(gravity.z) > 1e-3f * g || !(h > 1e-3f) || !(speed > 0.0f))
        return;
    float disc = v2 * v2 - g * (g * h * h + 2.0f * y * v2);
    if (!(disc >= 0.0f))
        return;
    float theta = atan2f(v2 - sqrtf(disc), g * h);
    float c = cosf(theta);
    *out_dir = (ph_vec3){{c * d.x / h, sinf(theta), c * d.z / h}};
}

int tools_trajectory(const level *lv, ph_vec3 start, ph_vec3 velocity, ph_vec3 *out_points, int capacity)
{
    if (!lv->world || capacity <= 0)
        return 0;
    ph_vec3 gravity = ph_world_get_gravity(lv->world);
    int n = 0;
    out_points[n++] = start;
    int steps = (int)(TOOLS_TRAJECTORY_SECONDS / TOOLS_TRAJECTORY_STEP);
    for (int i = 1; i <= steps && n < capacity; i++)
    {
        float t = (float)i * TOOLS_TRAJECTORY_STEP;
        ph_vec3 p = glms_vec3_add(
            start, glms_vec3_add(glms_vec3_scale(velocity, t), glms_vec3_scale(gravity, 0.5f * t * t)));
        ph_vec3 seg = glms_vec3_sub(p, out_points[n - 1]);
        float len = glms_vec3_norm(seg);
        ph_ray_result hit;
        if (len > 0.0f &&
            ph_world_cast_ray(lv->world, out_points[n - 1], glms_vec3_scale(seg, 1.0f / len), len, &hit))
        {
            out_points[n++] = hit.point;
            break;
        }
        out_points[n++] = p;
        if (p.y < lv->fall_limit_y)
            break;
    }
    return n;
}

ph_body_id tools_throw(tools *t, level *lv, ph_vec3 origin, ph_vec3 dir, char *err, size_t err_size)
{
    tools_throw_def def = tools_default_throw(t, origin, dir, tools_charge_speed(t));
    tools_aim(lv, origin, dir, def.speed, &def.position, &def.direction);
    t->charging = false;
    t->charge_seconds = 0.0f;
    return tools_throw_body(t, lv, &def, err, err_size);
}

ph_body_id tools_throw_body(const tools *t, level *lv, const tools_throw_def *def, char *err, size_t err_size)
{
    ph_body_def body = ph_default_body_def();
    body.type = PH_BODY_DYNAMIC;
    body.position = def->position;
    body.linear_velocity = glms_vec3_scale(def->direction, def->speed);
    body.material.density = def->density;
    if (def->custom_surface)
    {
        body.material.friction = def->friction;
        body.material.restitution = def->restitution;
    }
    tools_projectile kind = def->projectile;
    if (kind == TOOLS_PROJECTILE_MODEL && PH_ID_IS_NULL(t->model_geom))
    {
        snprintf(err, err_size, "no model loaded: drop an .obj file on the window (throwing a box)");
        kind = TOOLS_PROJECTILE_BOX;
    }
    float half = 0.5f * def->size;
    if (kind == TOOLS_PROJECTILE_SPHERE)
        body.shape = ph_make_sphere(half);
    else if (kind == TOOLS_PROJECTILE_CAPSULE)
        body.shape = ph_make_capsule(half, half);
    else if (kind == TOOLS_PROJECTILE_MODEL)
        body.shape = ph_make_geom_shape(PH_SHAPE_HULL, t->model_geom);
    else
        body.shape = ph_make_box((ph_vec3){{half, half, half}});
    ph_mass_properties solid;
    if (kind == TOOLS_PROJECTILE_MODEL && t->model_mass_from_mesh)
    {
        solid = t->model_mass;
        solid.mass *= def->density;
        solid.inertia = glms_mat3_scale(solid.inertia, def->density);
        body.mass_properties = &solid;
    }
    ph_body_id id = ph_body_create(lv->world, &body);
    if (PH_ID_IS_NULL(id))
    {
        snprintf(err, err_size, "throw failed: %s", ph_world_last_error(lv->world).message);
        return id;
    }
    level_adopt_new_bodies(lv, kind == TOOLS_PROJECTILE_MODEL ? LEVEL_TAG_MODEL : LEVEL_TAG_PROJECTILE);
    level_body *b = level_get_body(lv, id);
    if (b && kind == TOOLS_PROJECTILE_MODEL)
        b->mesh = t->model_mesh;
    return id;
}

ph_body_id tools_pick(const level *lv, ph_vec3 origin, ph_vec3 dir, ph_vec3 *out_point)
{
    ph_ray_result hit;
    if (!lv->world || !ph_world_cast_ray(lv->world, origin, ph_safe_normalize(dir, (ph_vec3){{0, 0, -1}}),
                                         TOOLS_REACH, &hit))
        return PH_NULL_BODY_ID;
    if (out_point)
        *out_point = hit.point;
    return hit.body;
}

bool tools_grab_begin(tools *t, level *lv, ph_vec3 origin, ph_vec3 dir, ph_vec3 camera_forward)
{
    ph_vec3 point;
    ph_body_id id = tools_pick(lv, origin, dir, &point);
    if (PH_ID_IS_NULL(id) || ph_body_get_type(lv->world, id) != PH_BODY_DYNAMIC)
        return false;
    t->grabbing = true;
    t->grabbed = id;
    t->grab_local = ph_inv_transform_point(ph_body_get_transform(lv->world, id), point);
    t->grab_target = point;
    // The plane through the grabbed point facing the camera: dragging moves the body across the screen
    // and keeps its distance from the camera.
    t->grab_normal = ph_safe_normalize(glms_vec3_negate(camera_forward), (ph_vec3){{0, 0, 1}});
    t->grab_plane_d = glms_vec3_dot(t->grab_normal, point);
    ph_body_wake(lv->world, id);
    return true;
}

void tools_grab_move(tools *t, ph_vec3 origin, ph_vec3 dir)
{
    if (!t->grabbing)
        return;
    float denom = glms_vec3_dot(t->grab_normal, dir);
    if (fabsf(denom) < TOOLS_MIN_PLANE_COSINE)
        return;
    float s = (t->grab_plane_d - glms_vec3_dot(t->grab_normal, origin)) / denom;
    if (s > 0.0f)
        t->grab_target = glms_vec3_add(origin, glms_vec3_scale(dir, s));
}

void tools_grab_apply(tools *t, level *lv)
{
    if (!t->grabbing)
        return;
    if (!ph_body_is_valid(lv->world, t->grabbed))
    {
        tools_grab_end(t);
        return;
    }
    // a = w^2 (target - x) - 2 zeta w v: a spring-damper of frequency w per unit mass. The force is
    // applied at the grabbed point so the body swings naturally about it.
    float mass = ph_body_get_mass(lv->world, t->grabbed);
    ph_transform xf = ph_body_get_transform(lv->world, t->grabbed);
    ph_vec3 point = ph_transform_point(xf, t->grab_local);
    ph_vec3 com = ph_body_get_center_of_mass(lv->world, t->grabbed);
    ph_vec3 v = ph_body_get_linear_velocity(lv->world, t->grabbed);
    ph_vec3 w = ph_body_get_angular_velocity(lv->world, t->grabbed);
    ph_vec3 v_point = glms_vec3_add(v, glms_vec3_cross(w, glms_vec3_sub(point, com)));
    float omega = 2.0f * TOOLS_PI * TOOLS_GRAB_HERTZ;
    ph_vec3 accel = glms_vec3_sub(glms_vec3_scale(glms_vec3_sub(t->grab_target, point), omega * omega),
                                  glms_vec3_scale(v_point, 2.0f * TOOLS_GRAB_DAMPING_RATIO * omega));
    float a = glms_vec3_norm(accel);
    if (a > TOOLS_GRAB_MAX_ACCELERATION)
        accel = glms_vec3_scale(accel, TOOLS_GRAB_MAX_ACCELERATION / a);
    // The spring also carries the body's weight, so it hangs at the pointer instead of sagging below it.
    accel = glms_vec3_sub(accel, ph_world_get_gravity(lv->world));
    ph_body_apply_force_at_point(lv->world, t->grabbed, glms_vec3_scale(accel, mass), point);
    ph_mat3 inertia = ph_body_get_world_inertia(lv->world, t->grabbed);
    // Damped towards the spin the rotate key asks for (none: the body just stops swinging).
    ph_vec3 spin = {{0.0f, t->grab_spin, 0.0f}};
    ph_vec3 torque =
        glms_vec3_scale(glms_mat3_mulv(inertia, glms_vec3_sub(spin, w)), TOOLS_GRAB_ANGULAR_DAMPING);
    ph_body_apply_torque(lv->world, t->grabbed, torque);
}

void tools_grab_end(tools *t)
{
    t->grabbing = false;
    t->grabbed = PH_NULL_BODY_ID;
    t->grab_spin = 0.0f;
}

void tools_grab_push(tools *t, float clicks, ph_vec3 eye)
{
    if (!t->grabbing)
        return;
    // The drag plane faces the camera (its normal points at it): its distance from the eye along the normal.
    float distance = glms_vec3_dot(t->grab_normal, eye) - t->grab_plane_d;
    float step = fmaxf(TOOLS_GRAB_PUSH_MIN_STEP, TOOLS_GRAB_PUSH_FRACTION * distance);
    float pushed = fminf(fmaxf(distance + clicks * step, TOOLS_GRAB_MIN_DISTANCE), TOOLS_REACH);
    t->grab_plane_d = glms_vec3_dot(t->grab_normal, eye) - pushed;
}

bool tools_spawn_place(level *lv, level_layout layout, ph_vec3 origin, ph_vec3 dir, vec3s *out_base,
                       char *err, size_t err_size)
{
    ph_vec3 point;
    if (PH_ID_IS_NULL(tools_pick(lv, origin, dir, &point)))
    {
        // Nothing hit: the ground's plane, when the ray goes down to it.
        float ground_y = lv->has_ground ? lv->ground.hi.y : 0.0f;
        if (!(dir.y < -TOOLS_MIN_PLANE_COSINE) || !(origin.y > ground_y))
        {
            snprintf(err, err_size, "point at the ground or a body to spawn a %s", level_layout_name(layout));
            return false;
        }
        point = glms_vec3_add(origin, glms_vec3_scale(dir, (ground_y - origin.y) / dir.y));
    }
    if (!level_place_layout(lv, layout, point, out_base))
    {
        snprintf(err, err_size, "cannot spawn a %s there", level_layout_name(layout));
        return false;
    }
    return true;
}

bool tools_spawn_at(level *lv, level_layout layout, ph_vec3 origin, ph_vec3 dir, char *err, size_t err_size)
{
    vec3s base;
    return tools_spawn_place(lv, layout, origin, dir, &base, err, err_size) &&
           level_spawn_layout(lv, layout, base, err, err_size);
}
