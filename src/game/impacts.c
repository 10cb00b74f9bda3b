// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Impact feedback (see impacts.h): a flash that shrinks and a ring that grows and fades, in the plane of
// the contact, sized by the impact's strength.

#include "game/impacts.h"

#include <math.h>   // cosf, sinf, fminf, fmaxf, fabsf
#include <string.h> // memset

// Points of one manifold arrive separately: an impact this near a younger one (unit: m, s) joins it.
#define IMPACTS_MERGE_DISTANCE 0.4f
#define IMPACTS_MERGE_AGE 0.05f
// The ring: segments, radius at the start and its growth at full strength (unit: m); the strength that
// counts as full (unit: m/s); the flash's size at the start (unit: px) and how long it lasts (unit: s).
#define IMPACTS_RING_SEGMENTS 16
#define IMPACTS_RING_START 0.1f
#define IMPACTS_RING_GROWTH 0.9f
#define IMPACTS_FULL_STRENGTH 12.0f
#define IMPACTS_FLASH_PX 26.0f
#define IMPACTS_FLASH_SECONDS 0.15f
#define IMPACTS_PI 3.14159265f

void impacts_init(impacts *im)
{
    memset(im, 0, sizeof *im);
    im->on = true;
    for (int i = 0; i < IMPACTS_MAX; i++)
        im->items[i].age = IMPACTS_SECONDS;
}

static float moving_mass(const ph_world *w, ph_body_id id)
{
    return ph_body_get_type(w, id) == PH_BODY_DYNAMIC ? ph_body_get_mass(w, id) : 0.0f;
}

static void add(impacts *im, const ph_contact_info *c, float strength)
{
    for (int i = 0; i < IMPACTS_MAX; i++)
    {
        impact *o = &im->items[i];
        if (o->age < IMPACTS_MERGE_AGE && glms_vec3_distance(o->point, c->point) < IMPACTS_MERGE_DISTANCE)
        {
            o->strength = fmaxf(o->strength, strength);
            return;
        }
    }
    im->items[im->next] = (impact){c->point, c->normal, strength, 0.0f};
    im->next = (im->next + 1) % IMPACTS_MAX;
    im->total++;
}

void impacts_collect(impacts *im, level *lv)
{
    if (!im->on || !lv->world)
        return;
    for (int i = 0; i < lv->contacts_listed; i++)
    {
        const ph_contact_info *c = &lv->contacts[i];
        float ma = moving_mass(lv->world, c->a), mb = moving_mass(lv->world, c->b);
        float m = ma > 0.0f && mb > 0.0f ? fminf(ma, mb) : fmaxf(ma, mb);
        if (!(m > 0.0f))
            continue;
        float strength = c->normal_impulse / m;
        if (strength >= IMPACTS_MIN_SPEED_CHANGE)
            add(im, c, strength);
    }
}

void impacts_advance(impacts *im, float dt_seconds)
{
    for (int i = 0; i < IMPACTS_MAX; i++)
        if (im->items[i].age < IMPACTS_SECONDS)
            im->items[i].age += dt_seconds;
}

// sRGB 0xRRGGBBAA from a warm white that fades with t in [0, 1].
static uint32_t fade(float t)
{
    uint32_t a = (uint32_t)(255.0f * (1.0f - t));
    uint32_t g = (uint32_t)(240.0f - 60.0f * t), b = (uint32_t)(200.0f - 120.0f * t);
    return 0xff000000u | g << 16 | b << 8 | a;
}

void impacts_draw(const impacts *im, renderer *r)
{
    if (!im->on)
        return;
    for (int i = 0; i < IMPACTS_MAX; i++)
    {
        const impact *o = &im->items[i];
        if (!(o->age < IMPACTS_SECONDS))
            continue;
        float t = o->age / IMPACTS_SECONDS, s = fminf(o->strength / IMPACTS_FULL_STRENGTH, 1.5f);
        if (o->age < IMPACTS_FLASH_SECONDS)
            renderer_point(r, o->point,
                           IMPACTS_FLASH_PX * (0.5f + s) * (1.0f - o->age / IMPACTS_FLASH_SECONDS),
                           0xffffffffu);
        // The ring lies in the contact's plane, about the point.
        ph_vec3 n = ph_safe_normalize(o->normal, (ph_vec3){{0.0f, 1.0f, 0.0f}});
        ph_vec3 u = ph_safe_normalize(
            glms_vec3_cross(n, fabsf(n.y) < 0.9f ? (ph_vec3){{0, 1, 0}} : (ph_vec3){{1, 0, 0}}),
            (ph_vec3){{1.0f, 0.0f, 0.0f}});
        ph_vec3 v = glms_vec3_cross(n, u);
        ph_vec3 centre = o->point;
        float radius = IMPACTS_RING_START + IMPACTS_RING_GROWTH * s * t;
        uint32_t rgba = fade(t);
        ph_vec3 prev = glms_vec3_add(centre, glms_vec3_scale(u, radius));
        for (int k = 1; k <= IMPACTS_RING_SEGMENTS; k++)
        {
            float angle = 2.0f * IMPACTS_PI * (float)k / IMPACTS_RING_SEGMENTS;
            ph_vec3 p = glms_vec3_add(centre, glms_vec3_add(glms_vec3_scale(u, radius * cosf(angle)),
                                                            glms_vec3_scale(v, radius * sinf(angle))));
            renderer_line(r, prev, p, rgba);
            prev = p;
        }
    }
}
