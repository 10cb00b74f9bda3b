// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Brute-force broadphase references (see brute_pairs.h): nested loops over every body, in the
// plainest form, so that their answer is obviously right.
#include "brute_pairs.h"

static bool overlap(ph_aabb a, ph_aabb b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

// Bodies with non-finite bounds take part in nothing (the octree's contract).
static bool usable(const brute_bodies *bodies, int i)
{
    ph_aabb b = bodies->bounds[i];
    return bodies->live[i] && ph_is_finite_vec3(b.lo) && ph_is_finite_vec3(b.hi);
}

static bool active(const brute_bodies *bodies, int i)
{
    return !bodies->is_static[i] && (!bodies->active || bodies->active[i]);
}

int brute_pairs(const brute_bodies *bodies, brute_pair *out, int capacity)
{
    int n = 0;
    for (int i = 0; i < bodies->count; i++)
    {
        if (!usable(bodies, i))
            continue;
        for (int j = i + 1; j < bodies->count; j++)
        {
            if (!usable(bodies, j) || (bodies->is_static[i] && bodies->is_static[j]))
                continue;
            if (!active(bodies, i) && !active(bodies, j))
                continue;
            if (!overlap(bodies->bounds[i], bodies->bounds[j]))
                continue;
            if (n < capacity)
            {
                out[n].a = i;
                out[n].b = j;
            }
            n++;
        }
    }
    return n;
}

int brute_query_box(const brute_bodies *bodies, ph_aabb box, int *out, int capacity)
{
    int n = 0;
    for (int i = 0; i < bodies->count; i++)
    {
        if (usable(bodies, i) && overlap(bodies->bounds[i], box))
        {
            if (n < capacity)
                out[n] = i;
            n++;
        }
    }
    return n;
}

int brute_query_frustum(const brute_bodies *bodies, const ph_vec4 planes[6], int *out, int capacity)
{
    int n = 0;
    for (int i = 0; i < bodies->count; i++)
    {
        if (!usable(bodies, i))
            continue;
        bool inside = true;
        for (int k = 0; k < 6 && inside; k++)
        {
            // Wholly outside plane k when all eight corners are.
            bool any_in = false;
            for (int c = 0; c < 8; c++)
            {
                ph_aabb b = bodies->bounds[i];
                float x = (c & 1) ? b.hi.x : b.lo.x, y = (c & 2) ? b.hi.y : b.lo.y,
                      z = (c & 4) ? b.hi.z : b.lo.z;
                if (planes[k].x * x + planes[k].y * y + planes[k].z * z + planes[k].w >= 0.0f)
                    any_in = true;
            }
            inside = any_in;
        }
        if (inside)
        {
            if (n < capacity)
                out[n] = i;
            n++;
        }
    }
    return n;
}

int brute_query_ray(const brute_bodies *bodies, ph_vec3 origin, ph_vec3 dir, float max_t, int *out,
                    float *out_t, int capacity)
{
    int n = 0;
    for (int i = 0; i < bodies->count; i++)
    {
        if (!usable(bodies, i))
            continue;
        double lo = 0.0, hi = (double)max_t;
        bool hit = true;
        for (int a = 0; a < 3 && hit; a++)
        {
            double o = (double)origin.raw[a], d = (double)dir.raw[a];
            double bl = (double)bodies->bounds[i].lo.raw[a], bh = (double)bodies->bounds[i].hi.raw[a];
            if (d == 0.0)
            {
                hit = o >= bl && o <= bh;
                continue;
            }
            double t1 = (bl - o) / d, t2 = (bh - o) / d;
            if (t1 > t2)
            {
                double t = t1;
                t1 = t2;
                t2 = t;
            }
            lo = t1 > lo ? t1 : lo;
            hi = t2 < hi ? t2 : hi;
            hit = lo <= hi;
        }
        if (hit)
        {
            if (n < capacity)
            {
                out[n] = i;
                if (out_t)
                    out_t[n] = (float)lo;
            }
            n++;
        }
    }
    return n;
}
