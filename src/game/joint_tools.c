// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Weld, rope, hinge and break. Joints are made from world points through spawn_body_frame (recipes/spawn.h),
// so a frame sits where the player clicked on each body at its pose of that moment. A static body or the
// ground is the world's side of a joint (body_a null): the engine moves only body b, which must be dynamic.

#include "game/joint_tools.h"

#include "game/tools.h"
#include "recipes/spawn.h"

#include <math.h>  // fabsf, sqrtf
#include <stdio.h> // snprintf

#define JOINT_TOOLS_MAX_JOINTS 8192 // joints looked at by a pick
#define JOINT_TOOLS_PARALLEL 1e-6f  // a segment along the ray: its nearest point is its first end

static const char *const MODE_NAMES[JOINT_TOOLS_MODE_COUNT] = {"off", "weld", "rope", "hinge", "break"};

const char *joint_tools_mode_name(joint_tools_mode mode)
{
    return (unsigned)mode < JOINT_TOOLS_MODE_COUNT ? MODE_NAMES[mode] : "unknown";
}

void joint_tools_select(joint_tools *t, joint_tools_mode mode)
{
    t->mode = t->mode == mode ? JOINT_TOOLS_OFF : mode;
    t->clicks = 0;
    t->body = PH_NULL_BODY_ID;
}

const char *joint_tools_prompt(const joint_tools *t)
{
    switch (t->mode)
    {
    case JOINT_TOOLS_WELD:
        return t->clicks ? "weld: click the second body (G again: off)"
                         : "weld: click the first body (G again: off)";
    case JOINT_TOOLS_ROPE:
        return t->clicks ? "rope: click the other end on a body or the ground (T again: off)"
                         : "rope: click one end on a body or the ground (T again: off)";
    case JOINT_TOOLS_HINGE:
        return t->clicks
                   ? "hinge: click the hinge point, on this body (pinned to the world) or another one; the "
                     "axis is the view direction (H again: off)"
                   : "hinge: click the body to hinge (H again: off)";
    case JOINT_TOOLS_BREAK:
        return "break: click near a joint to remove it (B again: off)";
    default:
        return "";
    }
}

// What the ray meets: a body (static ones as the world: null) or the ground's plane. False when neither.
static bool under_ray(const level *lv, ph_vec3 origin, ph_vec3 dir, ph_body_id *out_body, ph_vec3 *out_point)
{
    ph_body_id id = tools_pick(lv, origin, dir, out_point);
    if (!PH_ID_IS_NULL(id))
    {
        *out_body = ph_body_get_type(lv->world, id) == PH_BODY_STATIC ? PH_NULL_BODY_ID : id;
        return true;
    }
    float ground_y = lv->has_ground ? lv->ground.hi.y : 0.0f;
    if (!(dir.y < 0.0f) || !(origin.y > ground_y))
        return false;
    *out_body = PH_NULL_BODY_ID;
    *out_point = glms_vec3_add(origin, glms_vec3_scale(dir, (ground_y - origin.y) / dir.y));
    return true;
}

static bool is_dynamic(const level *lv, ph_body_id id)
{
    return !PH_ID_IS_NULL(id) && ph_body_get_type(lv->world, id) == PH_BODY_DYNAMIC;
}

static bool create(level *lv, const ph_joint_def *d, const char *what, char *msg, size_t msg_size)
{
    ph_joint_id id = ph_joint_create(lv->world, d);
    if (PH_ID_IS_NULL(id))
    {
        snprintf(msg, msg_size, "%s failed: %s", what, ph_world_last_error(lv->world).message);
        return false;
    }
    snprintf(msg, msg_size, "%s made (%d joints)", what, ph_world_get_joint_count(lv->world));
    return true;
}

// The joint between the first click (a, pa) and the second (b, pb), in the mode's kind.
static bool finish(joint_tools *t, level *lv, ph_body_id b, ph_vec3 pb, ph_vec3 view_dir, char *msg,
                   size_t msg_size)
{
    ph_body_id a = t->body;
    ph_vec3 pa;
    joint_tools_pending_point(t, lv, &pa);
    const ph_vec3 z = {{0.0f, 0.0f, 1.0f}};
    if (t->mode == JOINT_TOOLS_HINGE)
    {
        // The first body turns about the view direction through the second point, held by what is there.
        ph_body_id hinge_body = a;
        ph_body_id holder = PH_ID_EQUALS(b, hinge_body) ? PH_NULL_BODY_ID : b;
        ph_joint_def d = ph_default_joint_def(PH_JOINT_REVOLUTE);
        d.body_a = holder;
        d.body_b = hinge_body;
        d.frame_a = spawn_body_frame(lv->world, holder, pb, view_dir);
        d.frame_b = spawn_body_frame(lv->world, hinge_body, pb, view_dir);
        return create(lv, &d, PH_ID_IS_NULL(holder) ? "hinge to the world" : "hinge", msg, msg_size);
    }
    if (PH_ID_EQUALS(a, b) && !PH_ID_IS_NULL(a))
    {
        snprintf(msg, msg_size, "%s: that is the same body; click another", joint_tools_mode_name(t->mode));
        return false;
    }
    // Body b must be dynamic: swap the ends when only the first one is.
    if (!is_dynamic(lv, b))
    {
        ph_body_id tb = a;
        ph_vec3 tp = pa;
        a = b;
        pa = pb;
        b = tb;
        pb = tp;
    }
    if (!is_dynamic(lv, b))
    {
        snprintf(msg, msg_size, "%s: neither end is a dynamic body", joint_tools_mode_name(t->mode));
        return false;
    }
    if (!PH_ID_IS_NULL(a) && !is_dynamic(lv, a))
        a = PH_NULL_BODY_ID; // a kinematic end holds like the world
    if (t->mode == JOINT_TOOLS_WELD)
    {
        ph_vec3 mid = glms_vec3_scale(glms_vec3_add(pa, pb), 0.5f);
        ph_joint_def d = ph_default_joint_def(PH_JOINT_WELD);
        d.body_a = a;
        d.body_b = b;
        d.frame_a = spawn_body_frame(lv->world, a, mid, z);
        d.frame_b = spawn_body_frame(lv->world, b, mid, z);
        return create(lv, &d, "weld", msg, msg_size);
    }
    float length = glms_vec3_distance(pa, pb);
    if (!(length >= JOINT_TOOLS_MIN_ROPE))
    {
        snprintf(msg, msg_size, "rope: the ends are %.0f mm apart (at least %.0f mm)",
                 (double)(length * 1000.0f), (double)(JOINT_TOOLS_MIN_ROPE * 1000.0f));
        return false;
    }
    ph_joint_def d = ph_default_joint_def(PH_JOINT_DISTANCE);
    d.body_a = a;
    d.body_b = b;
    d.frame_a = spawn_body_frame(lv->world, a, pa, z);
    d.frame_b = spawn_body_frame(lv->world, b, pb, z);
    d.length = d.max_length = length;
    d.min_length = 0.0f;
    return create(lv, &d, "rope", msg, msg_size);
}

bool joint_tools_click(joint_tools *t, level *lv, ph_vec3 origin, ph_vec3 dir, ph_vec3 view_dir, char *msg,
                       size_t msg_size)
{
    msg[0] = '\0';
    if (!lv->world || t->mode == JOINT_TOOLS_OFF)
        return false;
    dir = ph_safe_normalize(dir, (ph_vec3){{0.0f, 0.0f, -1.0f}});
    if (t->mode == JOINT_TOOLS_BREAK)
    {
        ph_joint_id j = joint_tools_pick(lv, origin, dir);
        if (PH_ID_IS_NULL(j))
        {
            snprintf(msg, msg_size, "break: no joint near the pointer");
            return false;
        }
        ph_joint_destroy(lv->world, j);
        snprintf(msg, msg_size, "joint removed (%d left)", ph_world_get_joint_count(lv->world));
        return true;
    }
    ph_body_id body;
    ph_vec3 point;
    bool hit = under_ray(lv, origin, dir, &body, &point);
    // Weld and the hinge's first click need a dynamic body; the rest may be the ground.
    bool needs_body = t->mode == JOINT_TOOLS_WELD || (t->mode == JOINT_TOOLS_HINGE && t->clicks == 0);
    if (!hit || (needs_body && t->mode == JOINT_TOOLS_HINGE && !is_dynamic(lv, body)) ||
        (needs_body && t->mode == JOINT_TOOLS_WELD && PH_ID_IS_NULL(body) && t->clicks == 0))
    {
        snprintf(msg, msg_size, "%s: %s", joint_tools_mode_name(t->mode),
                 hit ? "click a dynamic body" : "nothing under the pointer");
        return false;
    }
    if (t->clicks == 0)
    {
        t->clicks = 1;
        t->body = body;
        t->point = point;
        t->local = PH_ID_IS_NULL(body)
                       ? point
                       : ph_inv_transform_point(ph_body_get_transform(lv->world, body), point);
        return true;
    }
    bool ok = finish(t, lv, body, point, ph_safe_normalize(view_dir, (ph_vec3){{0.0f, 0.0f, -1.0f}}), msg,
                     msg_size);
    t->clicks = 0;
    t->body = PH_NULL_BODY_ID;
    return ok;
}

bool joint_tools_pending_point(const joint_tools *t, const level *lv, ph_vec3 *out)
{
    if (t->mode == JOINT_TOOLS_OFF || t->clicks == 0)
        return false;
    *out = t->point;
    if (!PH_ID_IS_NULL(t->body) && lv->world && ph_body_is_valid(lv->world, t->body))
        *out = ph_transform_point(ph_body_get_transform(lv->world, t->body), t->local);
    return true;
}

// The distance between the ray (o, unit d; s >= 0) and the segment [p, q].
static float ray_segment_distance(ph_vec3 o, ph_vec3 d, ph_vec3 p, ph_vec3 q, float *out_s)
{
    // Closest points of two lines (Ericson, Real-Time Collision Detection 5.1.9), the segment's parameter
    // clamped to [0, 1] and the ray's to s >= 0.
    ph_vec3 e = glms_vec3_sub(q, p), r = glms_vec3_sub(o, p);
    float a = glms_vec3_dot(e, e), b = glms_vec3_dot(e, d), c = glms_vec3_dot(d, r), f = glms_vec3_dot(e, r);
    float denom = a - b * b; // |d| = 1
    float u = denom > JOINT_TOOLS_PARALLEL * (a > 1.0f ? a : 1.0f) ? (f - b * c) / denom : 0.0f;
    u = u < 0.0f ? 0.0f : (u > 1.0f ? 1.0f : u);
    ph_vec3 x = glms_vec3_add(p, glms_vec3_scale(e, u));
    float s = glms_vec3_dot(glms_vec3_sub(x, o), d);
    s = s < 0.0f ? 0.0f : s;
    *out_s = s;
    return glms_vec3_distance(x, glms_vec3_add(o, glms_vec3_scale(d, s)));
}

ph_joint_id joint_tools_pick(const level *lv, ph_vec3 origin, ph_vec3 dir)
{
    static ph_joint_id ids[JOINT_TOOLS_MAX_JOINTS];
    if (!lv->world)
        return PH_NULL_JOINT_ID;
    dir = ph_safe_normalize(dir, (ph_vec3){{0.0f, 0.0f, -1.0f}});
    int n = ph_world_get_joints(lv->world, ids, JOINT_TOOLS_MAX_JOINTS);
    n = n < JOINT_TOOLS_MAX_JOINTS ? n : JOINT_TOOLS_MAX_JOINTS;
    ph_joint_id best = PH_NULL_JOINT_ID;
    float best_score = 1.0f; // distance over the pick radius at that range
    for (int i = 0; i < n; i++)
    {
        ph_joint_info info;
        if (ph_joint_get_info(lv->world, ids[i], &info) != PH_OK)
            continue;
        float s;
        float dist = ray_segment_distance(origin, dir, info.anchor_a, info.anchor_b, &s);
        float score = dist / (JOINT_TOOLS_PICK_RADIUS + JOINT_TOOLS_PICK_SLOPE * s);
        if (score < best_score)
        {
            best_score = score;
            best = ids[i];
        }
    }
    return best;
}
