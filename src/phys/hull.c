// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Convex hulls: building from a point cloud, adjacency, and the support queries over it.
#include "phys/collision.h"

// Hill climbing over the vertex graph. On a convex polytope the function x -> dot(x, d) has no local
// maximum over the vertex graph other than the global one (the vertices whose value beats the current
// one form a face of the polytope adjacent to it), so walking to any better neighbour ends at a
// support vertex. The value strictly increases with every move, so no vertex is visited twice and
// the walk takes at most vertex_count moves.
int ph_hull_support_index(const ph_hull *hull, ph_vec3 d, int *inout_start)
{
    int v = inout_start ? *inout_start : -1;
    if (v < 0 || v >= hull->vertex_count)
        v = 0;
    float best = glms_vec3_dot(hull->vertices[v], d);
    for (int moves = 0; moves < hull->vertex_count; moves++)
    {
        int next = -1;
        for (int k = hull->adjacency_offsets[v]; k < hull->adjacency_offsets[v + 1]; k++)
        {
            int n = hull->adjacency[k];
            float s = glms_vec3_dot(hull->vertices[n], d);
            if (s > best)
            {
                best = s;
                next = n;
            }
        }
        if (next < 0)
            break;
        v = next;
    }
    if (inout_start)
        *inout_start = v;
    return v;
}

int ph_hull_support_index_brute(const ph_hull *hull, ph_vec3 d)
{
    int best_index = 0;
    float best = glms_vec3_dot(hull->vertices[0], d);
    for (int i = 1; i < hull->vertex_count; i++)
    {
        float s = glms_vec3_dot(hull->vertices[i], d);
        if (s > best)
        {
            best = s;
            best_index = i;
        }
    }
    return best_index;
}
