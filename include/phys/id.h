// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Generational ids of bodies and geometries. index1 is the slot plus one, so the all-zero id is null;
// the generation changes when a slot is reused, so a removed object's id is detected as stale.
// The struct wrappers make passing one kind of id for another a compile error.
#pragma once

#include <stdint.h> // uint32_t

typedef struct ph_body_id
{
    uint32_t index1;
    uint32_t generation;
} ph_body_id;

typedef struct ph_geom_id
{
    uint32_t index1;
    uint32_t generation;
} ph_geom_id;

typedef struct ph_joint_id
{
    uint32_t index1;
    uint32_t generation;
} ph_joint_id;

#define PH_NULL_BODY_ID ((ph_body_id){0, 0})
#define PH_NULL_JOINT_ID ((ph_joint_id){0, 0})
#define PH_NULL_GEOM_ID ((ph_geom_id){0, 0})
#define PH_ID_IS_NULL(id) ((id).index1 == 0)
#define PH_ID_EQUALS(a, b) ((a).index1 == (b).index1 && (a).generation == (b).generation)
