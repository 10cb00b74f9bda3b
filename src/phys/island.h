// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Islands and sleeping: awake bodies joined by touching contacts form islands (union-find, rebuilt each
// step from the contact list, so there is no persistent graph to keep in sync); an island whose every
// body stayed slow for PH_SLEEP_TIME falls asleep as a whole, its members linked in a ring (ph_body's
// sleep_next), so waking one of its bodies wakes all of them at a cost of the island's size, not the world's.
#pragma once

typedef struct ph_step_context ph_step_context;

// Updates sleep timers, then, when some body has been quiet for PH_SLEEP_TIME, builds the islands and puts
// the quiet ones to sleep. False when the arena could not hold the union-find (the timers are updated, but
// nothing falls asleep this step then).
int ph_islands_update(ph_step_context *ctx);
