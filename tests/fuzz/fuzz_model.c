// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// libFuzzer target for models to bodies: .obj scenes, hulls and compounds (model_physics.c; see
// fuzz_targets.h). Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined; run by
// tests/fuzz/run_fuzz.sh.
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_model_input(data, size);
    return 0;
}
