// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Status codes, allocator/log/assert hooks and the live byte count of the engine.
#pragma once

#include <stddef.h> // size_t

// Result of every engine call that can fail. Creators return a null id or NULL instead and record
// the status and a message, readable through ph_world_last_error().
typedef enum ph_status
{
    PH_OK = 0,
    PH_ERR_INVALID_ARG,   // an argument is NaN, infinite, out of range, or a def was not initialised
    PH_ERR_STALE_ID,      // the id names a removed object, or was never valid
    PH_ERR_OUT_OF_MEMORY, // the allocator hook returned NULL
    PH_ERR_CAPACITY,      // a documented limit (bodies, hull vertices, mesh triangles) was exceeded
    PH_ERR_DEGENERATE,    // geometry without volume or area where the operation needs it
    PH_ERR_WRONG_TYPE,    // the object exists but is of another kind than the call needs
    PH_STATUS_COUNT
} ph_status;

// A short English name of a status ("invalid argument"). Never NULL.
const char *ph_status_string(ph_status status);

// Allocator hooks. alloc returns memory aligned for any type or NULL; free receives the size that was
// asked of alloc. ctx is passed back unchanged. Set them before creating any world; passing NULL
// functions restores malloc/free. The engine calls them from the thread that calls it only, never from its
// workers (ph_world_def.worker_count).
typedef void *ph_alloc_fn(size_t size, void *ctx);
typedef void ph_free_fn(void *ptr, size_t size, void *ctx);
void ph_set_allocator(ph_alloc_fn *alloc_fn, ph_free_fn *free_fn, void *ctx);

// Live bytes allocated through the hooks by every world and geometry. Returns to its earlier value
// after ph_world_destroy(); tests use it as a leak check that works without AddressSanitizer.
size_t ph_byte_count(void);

// Log hook: receives every error message the engine records (one sentence, no newline). The default
// writes nothing; the game and tools install one that prints. It may read a world but not change it
// (phys.h, Callbacks); it may be called from inside ph_world_step.
typedef enum ph_log_level
{
    PH_LOG_ERROR,
    PH_LOG_WARNING,
    PH_LOG_INFO
} ph_log_level;
typedef void ph_log_fn(ph_log_level level, const char *message, void *ctx);
void ph_set_log(ph_log_fn *log_fn, void *ctx);

// Assert hook for internal invariants (PH_ASSERT, on in Debug and RelWithDebInfo builds). The default
// prints the condition and aborts. User input never reaches an assert. It may be called from a step's
// worker threads (ph_world_def.worker_count), several at once.
typedef void ph_assert_fn(const char *condition, const char *file, int line);
void ph_set_assert_handler(ph_assert_fn *assert_fn);

// Engine version as "major.minor.patch".
const char *ph_version_string(void);
