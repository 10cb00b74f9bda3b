// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// libFuzzer target for the public API (see fuzz_api.h): a broken contract aborts, so that libFuzzer keeps
// the input as a crash. Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined; run by
// tests/fuzz/run_fuzz.sh.
#include "fuzz_api.h"

#include <stdio.h>  // fprintf
#include <stdlib.h> // abort

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int broken = fuzz_api_input(data, size);
    if (broken != FUZZ_API_OK)
    {
        fprintf(stderr, "fuzz_api: contract broken (%d)\n", broken);
        abort();
    }
    return 0;
}
