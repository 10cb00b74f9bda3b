// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// libFuzzer target for the .mtl material library parser (see fuzz_targets.h). Built by `make fuzz`
// with clang -fsanitize=fuzzer,address,undefined; run by tests/fuzz/run_fuzz.sh.
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_mtl_input(data, size);
    return 0;
}
