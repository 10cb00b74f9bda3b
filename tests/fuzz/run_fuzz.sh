#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# Runs each libFuzzer target for SECONDS: tests/fuzz/run_fuzz.sh BUILD_DIR SECONDS (`make fuzz`).
# Seeds: tests/fuzz/corpus/<target> (committed), the project's models or scenes, and for .obj the
# shared real-world files in ../shared/testdata/obj when present (read in place, never copied). New
# inputs go to tests/fuzz/corpus-work/<target> (ignored by git); a crash leaves its input in
# tests/fuzz/corpus-work/artifacts/ and fails the script: copy it to tests/data/fuzz-<target>-<name>
# so tests/test_fuzz_regression.c replays it, then fix the bug.
set -eu
build=${1:?usage: run_fuzz.sh BUILD_DIR SECONDS}
seconds=${2:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/tests/fuzz/corpus-work"
mkdir -p "$work/obj" "$work/scene" "$work/artifacts"

run() {
    target=$1
    shift
    echo "fuzz_$target: ${seconds} s"
    "$build/fuzz_$target" "$work/$target" "$@" \
        -dict="$root/tests/fuzz/$target.dict" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="$work/artifacts/$target-"
}

obj_seeds="$root/tests/fuzz/corpus/obj $root/models"
if [ -d "$root/../shared/testdata/obj" ]; then
    obj_seeds="$obj_seeds $root/../shared/testdata/obj"
fi
# shellcheck disable=SC2086 # the seed folders are separate arguments
run obj $obj_seeds
run scene "$root/tests/fuzz/corpus/scene" "$root/scenes"
