// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Replays every input the fuzzers ever failed on, crash or timeout (tests/data/fuzz-<target>-*, one test
// per target: obj, mtl, model, scene) through the same code the fuzz targets run
// (tests/fuzz/fuzz_targets.h). Under ASan + UBSan (the test build) a regression is a sanitizer report;
// the test also checks that each input was found and read.
#define _POSIX_C_SOURCE 200809L // opendir, readdir

#include "fuzz/fuzz_api.h"
#include "fuzz/fuzz_targets.h"
#include "test.h"

#include <dirent.h> // opendir, readdir, closedir
#include <stdlib.h> // malloc, free
#include <string.h> // strncmp

#define FUZZ_DATA_DIR SANDBOX_SOURCE_DIR "/tests/data"
// Saved crash inputs are small; the fuzzers run with -max_len=16384.
#define FUZZ_MAX_REPLAY_BYTES (1 << 20)

static int replay(const char *prefix, int (*run)(const uint8_t *, size_t), int *out_count)
{
    DIR *dir = opendir(FUZZ_DATA_DIR);
    ENSURE(dir);
    size_t prefix_len = strlen(prefix);
    int count = 0, failures = 0;
    for (struct dirent *e = readdir(dir); e; e = readdir(dir))
    {
        if (strncmp(e->d_name, prefix, prefix_len) != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", FUZZ_DATA_DIR, e->d_name);
        FILE *f = fopen(path, "rb");
        uint8_t *data = malloc(FUZZ_MAX_REPLAY_BYTES);
        size_t size = f && data ? fread(data, 1, FUZZ_MAX_REPLAY_BYTES, f) : 0;
        if (!f || !data)
        {
            fprintf(stderr, "cannot read %s\n", path);
            failures++;
        }
        else
            run(data, size);
        if (f)
            fclose(f);
        free(data);
        count++;
    }
    closedir(dir);
    *out_count = count;
    ENSURE(failures == 0);
    return 0;
}

// One test per fuzz target; the name says which files it replays.
#define FUZZ_REGRESSION(target)                                                                              \
    static int fuzz_regression_##target(void)                                                                \
    {                                                                                                        \
        int count = 0;                                                                                       \
        ENSURE(replay("fuzz-" #target "-", fuzz_##target##_input, &count) == 0);                             \
        printf("fuzz_regression_" #target ": %d inputs replayed\n", count);                                  \
        return 0;                                                                                            \
    }

FUZZ_REGRESSION(obj)
FUZZ_REGRESSION(mtl)
FUZZ_REGRESSION(model)
FUZZ_REGRESSION(scene)

// The API fuzzer's inputs must also keep the contract it checks (fuzz_api.h), not only run clean.
static int fuzz_api_contract_result;
static int fuzz_api_replay(const uint8_t *data, size_t size)
{
    int broken = fuzz_api_input(data, size);
    if (broken != FUZZ_API_OK)
    {
        fprintf(stderr, "fuzz_api input broke the contract (%d)\n", broken);
        fuzz_api_contract_result = broken;
    }
    return broken;
}

static int fuzz_regression_api(void)
{
    int count = 0;
    fuzz_api_contract_result = FUZZ_API_OK;
    ENSURE(replay("fuzz-api-", fuzz_api_replay, &count) == 0);
    printf("fuzz_regression_api: %d inputs replayed\n", count);
    ENSURE(fuzz_api_contract_result == FUZZ_API_OK);
    return 0;
}

const test_case test_fuzz_regression_cases[] = {
    {"fuzz_regression_obj", fuzz_regression_obj},     {"fuzz_regression_mtl", fuzz_regression_mtl},
    {"fuzz_regression_model", fuzz_regression_model}, {"fuzz_regression_scene", fuzz_regression_scene},
    {"fuzz_regression_api", fuzz_regression_api},     {0},
};
