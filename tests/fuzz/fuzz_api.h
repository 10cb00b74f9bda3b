// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// What one input of the API fuzzer does (issue 24), shared by the libFuzzer target (fuzz_api.c) and the
// replay of its saved failures (tests/test_fuzz_regression.c): the bytes are decoded into a world def and
// a sequence of public calls with arbitrary arguments (create, destroy, set, apply, step, geometry,
// queries, debug draw with callbacks that try to change the world) on one world. The contract checked,
// besides what ASan and UBSan see: a call that fails says why (the log hook hears a sentence), no body
// holds a NaN or an infinity after a step, and destroying the world frees every byte. The engine only:
// nothing here touches files.
#pragma once

#include "phys/phys.h"

#include <stdbool.h> // bool
#include <stddef.h>  // size_t
#include <stdint.h>  // uint8_t, uint32_t
#include <string.h>  // memcpy

// Bounds that keep one input fast: calls per input, steps per input, bodies and hull points per call.
#define FUZZ_API_MAX_CALLS 96
#define FUZZ_API_MAX_STEPS 24
#define FUZZ_API_MAX_BODIES 48
#define FUZZ_API_MAX_POINTS 16

// What an input broke: 0 when the contract held.
enum
{
    FUZZ_API_OK = 0,
    FUZZ_API_SILENT_FAILURE,   // a call failed without a word to the log hook
    FUZZ_API_NOT_FINITE,       // a body's position or velocity is NaN or infinite after a step
    FUZZ_API_LEAK,             // the byte count did not come back after ph_world_destroy
    FUZZ_API_CALLBACK_CHANGED, // a debug-draw callback changed the world
};

typedef struct fuzz_reader
{
    const uint8_t *data;
    size_t size, at;
} fuzz_reader;

static inline uint8_t fuzz_byte(fuzz_reader *r)
{
    return r->at < r->size ? r->data[r->at++] : 0;
}

static inline bool fuzz_done(const fuzz_reader *r)
{
    return r->at >= r->size;
}

// A float: mostly small values (a byte as -12.8 .. 12.7, or a size near the table's edges), sometimes the
// raw bits of four bytes (NaN, infinities, huge and tiny values).
static inline float fuzz_float(fuzz_reader *r)
{
    uint8_t kind = fuzz_byte(r);
    if (kind < 0xC0)
        return (float)((int)fuzz_byte(r) - 128) * 0.1f;
    if (kind < 0xE0)
    {
        static const float edges[16] = {
            0.0f,  PH_MIN_SIZE, PH_MAX_SIZE, PH_MIN_MASS, PH_MAX_MASS,          PH_MAX_SPEED,   -1.0f, 1e-30f,
            1e30f, 0.5f,        1e4f,        -1e6f,       PH_MAX_GRAVITY_SCALE, PH_MAX_DENSITY, 3e38f, 1e-3f};
        return edges[fuzz_byte(r) & 15];
    }
    uint32_t bits = 0;
    for (int i = 0; i < 4; i++)
        bits = bits << 8 | fuzz_byte(r);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline ph_vec3 fuzz_vec3(fuzz_reader *r)
{
    ph_vec3 v;
    v.x = fuzz_float(r);
    v.y = fuzz_float(r);
    v.z = fuzz_float(r);
    return v;
}

static inline ph_quat fuzz_quat(fuzz_reader *r)
{
    if (fuzz_byte(r) < 0xC0)
        return glms_quat_identity();
    ph_quat q;
    q.x = fuzz_float(r);
    q.y = fuzz_float(r);
    q.z = fuzz_float(r);
    q.w = fuzz_float(r);
    return q;
}

typedef struct fuzz_api_state
{
    ph_world *world;
    ph_body_id bodies[FUZZ_API_MAX_BODIES];
    int body_count;
    ph_geom_id geoms[8];
    int geom_count;
    ph_joint_id joints[16];
    int joint_count;
    int meddles;  // changes the debug-draw callbacks tried during the current draw
    bool changed; // one of them went through (the contract broken)
} fuzz_api_state;

static int s_fuzz_api_logs;

static inline void fuzz_api_log(ph_log_level level, const char *message, void *ctx)
{
    (void)level;
    (void)message;
    (void)ctx;
    s_fuzz_api_logs++;
}

static inline ph_body_id fuzz_pick_body(fuzz_reader *r, const fuzz_api_state *s)
{
    uint8_t k = fuzz_byte(r);
    if (k == 0xFF) // a forged id
    {
        ph_body_id forged;
        forged.index1 = fuzz_byte(r);
        forged.generation = fuzz_byte(r);
        return forged;
    }
    return s->body_count > 0 ? s->bodies[k % s->body_count] : PH_NULL_BODY_ID;
}

static inline ph_geom_id fuzz_pick_geom(fuzz_reader *r, const fuzz_api_state *s)
{
    uint8_t k = fuzz_byte(r);
    if (k == 0xFF || s->geom_count == 0)
    {
        ph_geom_id forged;
        forged.index1 = fuzz_byte(r);
        forged.generation = fuzz_byte(r);
        return forged;
    }
    return s->geoms[k % s->geom_count];
}

static inline ph_shape fuzz_shape(fuzz_reader *r, const fuzz_api_state *s)
{
    uint8_t kind = fuzz_byte(r);
    switch (kind % 7)
    {
    case 0:
        return ph_make_box(fuzz_vec3(r));
    case 1:
        return ph_make_sphere(fuzz_float(r));
    case 2:
    {
        float h = fuzz_float(r);
        return ph_make_capsule(h, fuzz_float(r));
    }
    case 3:
        return ph_make_geom_shape(PH_SHAPE_HULL, fuzz_pick_geom(r, s));
    case 4:
        return ph_make_geom_shape(PH_SHAPE_COMPOUND, fuzz_pick_geom(r, s));
    case 5:
        return ph_make_geom_shape(PH_SHAPE_MESH, fuzz_pick_geom(r, s));
    default:
    {
        ph_shape bad = ph_make_box(ph_v3(0.5f, 0.5f, 0.5f));
        bad.type = (ph_shape_type)fuzz_byte(r);
        return bad;
    }
    }
}

// Callbacks that try to change the world: every try must be refused (the world is drawn, not changed).
static inline void fuzz_meddle(fuzz_api_state *s)
{
    ph_body_def d = ph_default_body_def();
    d.type = PH_BODY_DYNAMIC;
    if (!PH_ID_IS_NULL(ph_body_create(s->world, &d)))
        s->changed = true;
    if (s->body_count > 0)
    {
        ph_joint_def jd = ph_default_joint_def(PH_JOINT_SPHERICAL);
        jd.body_b = s->bodies[0];
        if (!PH_ID_IS_NULL(ph_joint_create(s->world, &jd)))
            s->changed = true;
    }
    if (s->joint_count > 0 && ph_joint_destroy(s->world, s->joints[0]) == PH_OK)
        s->changed = true;
    if (s->body_count > 0 && ph_body_destroy(s->world, s->bodies[0]) == PH_OK)
        s->changed = true;
}

static inline void fuzz_segment(ph_vec3 a, ph_vec3 b, uint32_t rgba, void *context)
{
    (void)a;
    (void)b;
    (void)rgba;
    fuzz_api_state *s = context;
    if (s->meddles < 4) // a few tries per draw keep the input fast
    {
        s->meddles++;
        fuzz_meddle(s);
    }
}

static inline void fuzz_point(ph_vec3 p, float size_px, uint32_t rgba, void *context)
{
    (void)size_px;
    fuzz_segment(p, p, rgba, context);
}

// After a step: every live body's pose and velocities are finite.
static inline bool fuzz_bodies_finite(const fuzz_api_state *s)
{
    for (int i = 0; i < s->body_count; i++)
    {
        if (!ph_body_is_valid(s->world, s->bodies[i]))
            continue;
        ph_transform xf = ph_body_get_transform(s->world, s->bodies[i]);
        if (!ph_is_finite_vec3(xf.p) || !ph_is_finite_quat(xf.q) ||
            !ph_is_finite_vec3(ph_body_get_linear_velocity(s->world, s->bodies[i])) ||
            !ph_is_finite_vec3(ph_body_get_angular_velocity(s->world, s->bodies[i])))
            return false;
    }
    return true;
}

// Runs one input; returns FUZZ_API_OK or what broke.
static inline int fuzz_api_input(const uint8_t *data, size_t size)
{
    fuzz_reader r = {data, size, 0};
    size_t bytes_before = ph_byte_count();
    ph_set_log(fuzz_api_log, NULL);
    ph_world_def wd = ph_default_world_def();
    uint8_t tweaks = fuzz_byte(&r);
    if (tweaks & 1)
        wd.gravity = fuzz_vec3(&r);
    if (tweaks & 2)
        wd.time_step = fuzz_float(&r);
    if (tweaks & 4)
        wd.substeps = 1 + fuzz_byte(&r) % 8;
    if (tweaks & 8)
        wd.calendar_event_budget = fuzz_byte(&r) * 16;
    if (tweaks & 16)
        wd.speculative_margin = fuzz_float(&r);
    if (tweaks & 32)
        wd.enable_sleep = false;
    int logs = s_fuzz_api_logs;
    fuzz_api_state s = {0};
    s.world = ph_world_create(&wd);
    int result = FUZZ_API_OK;
    if (!s.world)
    {
        result = s_fuzz_api_logs > logs ? FUZZ_API_OK : FUZZ_API_SILENT_FAILURE;
        ph_set_log(NULL, NULL);
        return result;
    }
    int steps = 0;
    for (int call = 0; call < FUZZ_API_MAX_CALLS && !fuzz_done(&r) && result == FUZZ_API_OK; call++)
    {
        ph_world *w = s.world;
        logs = s_fuzz_api_logs;
        bool failed = false;
        uint8_t op = fuzz_byte(&r);
        switch (op % 24)
        {
        case 0:
        case 1:
        {
            ph_body_def d = ph_default_body_def();
            d.type = (ph_body_type)(fuzz_byte(&r) % 4);
            d.position = fuzz_vec3(&r);
            d.orientation = fuzz_quat(&r);
            d.shape = fuzz_shape(&r, &s);
            uint8_t extras = fuzz_byte(&r);
            if (extras & 1)
                d.linear_velocity = fuzz_vec3(&r);
            if (extras & 2)
                d.angular_velocity = fuzz_vec3(&r);
            if (extras & 4)
                d.mass = fuzz_float(&r);
            if (extras & 8)
                d.material.density = fuzz_float(&r);
            if (extras & 16)
                d.gravity_scale = fuzz_float(&r);
            if (extras & 32)
                d.material.restitution = fuzz_float(&r);
            if (extras & 64)
                d.is_awake = false;
            ph_body_id id = ph_body_create(w, &d);
            failed = PH_ID_IS_NULL(id);
            if (!failed && s.body_count < FUZZ_API_MAX_BODIES)
                s.bodies[s.body_count++] = id;
            break;
        }
        case 2:
            failed = ph_body_destroy(w, fuzz_pick_body(&r, &s)) != PH_OK;
            break;
        case 3:
        {
            ph_body_id id = fuzz_pick_body(&r, &s);
            ph_vec3 p = fuzz_vec3(&r);
            failed = ph_body_set_transform(w, id, p, fuzz_quat(&r)) != PH_OK;
            break;
        }
        case 4:
        {
            ph_body_id id = fuzz_pick_body(&r, &s);
            failed = ph_body_set_linear_velocity(w, id, fuzz_vec3(&r)) != PH_OK;
            break;
        }
        case 5:
        {
            ph_body_id id = fuzz_pick_body(&r, &s);
            failed = ph_body_set_angular_velocity(w, id, fuzz_vec3(&r)) != PH_OK;
            break;
        }
        case 6:
        {
            ph_body_id id = fuzz_pick_body(&r, &s);
            failed = ph_body_apply_force(w, id, fuzz_vec3(&r)) != PH_OK;
            break;
        }
        case 7:
        {
            ph_body_id id = fuzz_pick_body(&r, &s);
            ph_vec3 f = fuzz_vec3(&r);
            failed = ph_body_apply_force_at_point(w, id, f, fuzz_vec3(&r)) != PH_OK;
            break;
        }
        case 8:
        {
            ph_body_id id = fuzz_pick_body(&r, &s);
            failed = ph_body_apply_torque(w, id, fuzz_vec3(&r)) != PH_OK;
            break;
        }
        case 9:
        {
            ph_body_id id = fuzz_pick_body(&r, &s);
            failed = ph_body_apply_impulse(w, id, fuzz_vec3(&r)) != PH_OK;
            break;
        }
        case 10:
        {
            ph_body_id id = fuzz_pick_body(&r, &s);
            ph_vec3 j = fuzz_vec3(&r);
            failed = ph_body_apply_impulse_at_point(w, id, j, fuzz_vec3(&r)) != PH_OK;
            break;
        }
        case 11:
            failed = ph_body_wake(w, fuzz_pick_body(&r, &s)) != PH_OK;
            break;
        case 12:
        case 13:
            if (steps < FUZZ_API_MAX_STEPS)
            {
                int n = 1 + fuzz_byte(&r) % 4;
                for (int k = 0; k < n && steps < FUZZ_API_MAX_STEPS; k++, steps++)
                    ph_world_step(w);
                if (!fuzz_bodies_finite(&s))
                    result = FUZZ_API_NOT_FINITE;
            }
            break;
        case 14:
            failed = ph_world_set_gravity(w, fuzz_vec3(&r)) != PH_OK;
            break;
        case 15:
        {
            ph_vec3 pts[FUZZ_API_MAX_POINTS];
            int n = fuzz_byte(&r) % (FUZZ_API_MAX_POINTS + 1);
            for (int i = 0; i < n; i++)
                pts[i] = fuzz_vec3(&r);
            ph_hull_def hd = ph_default_hull_def();
            hd.points = pts;
            hd.point_count = n;
            if (fuzz_byte(&r) >= 0xF0)
                hd.vertex_budget = fuzz_byte(&r);
            ph_geom_id g = ph_world_add_hull(w, &hd);
            failed = PH_ID_IS_NULL(g);
            if (!failed && s.geom_count < 8)
                s.geoms[s.geom_count++] = g;
            break;
        }
        case 16:
        {
            ph_compound_child_def kids[4];
            int n = fuzz_byte(&r) % 5;
            for (int i = 0; i < n; i++)
            {
                kids[i].shape = fuzz_shape(&r, &s);
                kids[i].local.p = fuzz_vec3(&r);
                kids[i].local.q = fuzz_quat(&r);
                kids[i].density = fuzz_byte(&r) < 0xF0 ? 1000.0f : fuzz_float(&r);
            }
            ph_compound_def cd = ph_default_compound_def();
            cd.children = n > 0 ? kids : NULL;
            cd.child_count = n;
            ph_geom_id g = ph_world_add_compound(w, &cd);
            failed = PH_ID_IS_NULL(g);
            if (!failed && s.geom_count < 8)
                s.geoms[s.geom_count++] = g;
            break;
        }
        case 17:
        {
            ph_vec3 verts[6];
            int idx[6];
            int nv = 3 + fuzz_byte(&r) % 4, nt = 1 + fuzz_byte(&r) % 2;
            for (int i = 0; i < nv; i++)
                verts[i] = fuzz_vec3(&r);
            for (int i = 0; i < 3 * nt; i++)
                idx[i] = (int)fuzz_byte(&r) % (nv + 1); // sometimes out of range
            ph_mesh_def md = ph_default_mesh_def();
            md.vertices = verts;
            md.vertex_count = nv;
            md.indices = idx;
            md.triangle_count = nt;
            ph_geom_id g = ph_world_add_mesh(w, &md);
            failed = PH_ID_IS_NULL(g);
            if (!failed && s.geom_count < 8)
                s.geoms[s.geom_count++] = g;
            break;
        }
        case 18:
        {
            ph_ray_result hit;
            ph_vec3 o = fuzz_vec3(&r);
            ph_world_cast_ray(w, o, glms_vec3_normalize(fuzz_vec3(&r)), fuzz_float(&r), &hit);
            ph_body_id found[8];
            ph_aabb box;
            box.lo = fuzz_vec3(&r);
            box.hi = fuzz_vec3(&r);
            ph_world_query_box(w, box, found, 8);
            ph_contact_info contacts[8];
            ph_world_get_contacts(w, contacts, 8);
            ph_pair_trace trace;
            ph_body_id a = fuzz_pick_body(&r, &s);
            ph_world_trace_pair(w, a, fuzz_pick_body(&r, &s), &trace);
            break;
        }
        case 19:
        case 20:
        {
            // A joint of any type between two bodies (or a body and the world) with fuzzed settings.
            ph_joint_def jd = ph_default_joint_def((ph_joint_type)(fuzz_byte(&r) % 6));
            uint8_t what = fuzz_byte(&r);
            jd.body_a = (what & 1) ? PH_NULL_BODY_ID : fuzz_pick_body(&r, &s);
            jd.body_b = fuzz_pick_body(&r, &s);
            jd.frame_a.p = fuzz_vec3(&r);
            jd.frame_b.p = fuzz_vec3(&r);
            if (what & 2)
                jd.frame_a.q = fuzz_quat(&r);
            if (what & 4)
            {
                jd.enable_limit = true;
                jd.lower = fuzz_float(&r);
                jd.upper = fuzz_float(&r);
            }
            if (what & 8)
            {
                jd.enable_motor = true;
                jd.motor_speed = fuzz_float(&r);
                jd.max_motor_force = fuzz_float(&r);
            }
            if (what & 16)
            {
                jd.enable_spring = true;
                jd.spring_hertz = fuzz_float(&r);
                jd.spring_damping_ratio = fuzz_float(&r);
                jd.angular_hertz = fuzz_float(&r);
            }
            if (what & 32)
            {
                jd.enable_cone = jd.enable_twist = true;
                jd.cone_angle = fuzz_float(&r);
                jd.twist_lower = fuzz_float(&r);
                jd.twist_upper = fuzz_float(&r);
            }
            if (what & 64)
            {
                jd.min_length = fuzz_float(&r);
                jd.max_length = fuzz_float(&r);
                jd.length = fuzz_float(&r);
                jd.break_force = fuzz_float(&r);
            }
            jd.collide_connected = (what & 128) != 0;
            ph_joint_id id = ph_joint_create(w, &jd);
            failed = PH_ID_IS_NULL(id);
            if (!failed && s.joint_count < 16)
                s.joints[s.joint_count++] = id;
            break;
        }
        case 21:
        {
            uint8_t k = fuzz_byte(&r);
            ph_joint_id id = s.joint_count > 0 ? s.joints[k % s.joint_count] : PH_NULL_JOINT_ID;
            if (k & 0x80)
                failed = ph_joint_destroy(w, id) != PH_OK;
            else if (k & 0x40)
                failed = ph_joint_set_motor(w, id, true, fuzz_float(&r), fuzz_float(&r)) != PH_OK;
            else
                failed =
                    ph_joint_set_spring(w, id, true, fuzz_float(&r), fuzz_float(&r), fuzz_float(&r)) != PH_OK;
            break;
        }
        case 22:
        {
            ph_joint_id ids[16];
            int n = ph_world_get_joints(w, ids, 16);
            for (int i = 0; i < n && i < 16; i++)
            {
                ph_joint_info info;
                if (ph_joint_get_info(w, ids[i], &info) == PH_OK &&
                    (!ph_is_finite_vec3(info.anchor_a) || !ph_is_finite_vec3(info.force)))
                    result = FUZZ_API_NOT_FINITE;
            }
            int breaks = 0;
            ph_world_get_joint_breaks(w, &breaks);
            break;
        }
        default:
        {
            s.meddles = 0;
            ph_debug_draw dd = {fuzz_segment, fuzz_point, true, true, true, true, &s, true};
            ph_world_debug_draw(w, &dd);
            if (s.changed)
                result = FUZZ_API_CALLBACK_CHANGED;
            break;
        }
        }
        if (failed && s_fuzz_api_logs == logs)
            result = FUZZ_API_SILENT_FAILURE;
    }
    ph_world_destroy(s.world);
    if (result == FUZZ_API_OK && ph_byte_count() != bytes_before)
        result = FUZZ_API_LEAK;
    ph_set_log(NULL, NULL);
    return result;
}
