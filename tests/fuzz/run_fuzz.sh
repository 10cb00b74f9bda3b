#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# Runs each libFuzzer target for SECONDS: tests/fuzz/run_fuzz.sh BUILD_DIR SECONDS [TARGET...] (`make fuzz`;
# the targets are obj, mtl, model, scene and api, all by default). Seeds: tests/fuzz/corpus/<target>
# (committed), the test files in tests/data, the project's models or scenes, and for .obj and .mtl the
# shared real-world files in ../shared/testdata/obj when present (read in place, never copied). New inputs
# go to tests/fuzz/corpus-work/<target> (ignored by git); a crash leaves its input in
# tests/fuzz/corpus-work/artifacts/ and fails the script once every target has run: minimise it
# (fuzz_<target> -minimize_crash=1 -runs=10000 FILE), copy it to tests/data/fuzz-<target>-<name> so
# tests/test_fuzz_regression.c replays it, then fix the bug.
set -eu
build=${1:?usage: run_fuzz.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:-60}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
targets=${*:-obj mtl model scene api}
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/tests/fuzz/corpus-work"
shared="$root/../shared/testdata/obj"
failed=""

# A unit taking longer than this many seconds is reported as a timeout. fuzz_model builds convex hulls
# (qhull, and the engine's simplification when a hull passes 256 vertices: up to ~0.5 s per input under
# the sanitizers), so it gets more room on a busy shared machine.
timeout_of() {
    case $1 in
    model) echo 30 ;;
    *) echo 10 ;;
    esac
}

run() {
    target=$1
    dict=$2
    shift 2
    mkdir -p "$work/$target" "$work/artifacts"
    echo "fuzz_$target: ${seconds} s"
    dict_arg=""
    if [ -n "$dict" ]; then
        dict_arg="-dict=$root/tests/fuzz/$dict.dict"
    fi
    # shellcheck disable=SC2086 # dict_arg is empty or one argument without spaces
    if ! "$build/fuzz_$target" "$work/$target" "$@" \
        $dict_arg -max_total_time="$seconds" -timeout="$(timeout_of "$target")" \
        -rss_limit_mb=2048 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="$work/artifacts/$target-"; then
        echo "fuzz_$target: FAILED (input in $work/artifacts/)"
        failed="$failed $target"
    fi
}

# The seed folders of each target (the shared folder only when it exists).
seeds() {
    which=$1
    case $which in
    obj | model) set -- "$root/tests/fuzz/corpus/obj" "$root/models" "$root/tests/data" ;;
    mtl) set -- "$root/tests/fuzz/corpus/mtl" "$root/models" ;;
    scene) set -- "$root/tests/fuzz/corpus/scene" "$root/scenes" "$root/tests/data" ;;
    api) set -- ;; # from nothing: the input is a sequence of calls, not a file format
    esac
    if [ "$which" != scene ] && [ "$which" != api ] && [ -d "$shared" ]; then
        set -- "$@" "$shared"
    fi
    echo "$@"
}

for target in $targets; do
    case $target in
    obj | model) dict=obj ;;
    mtl) dict=mtl ;;
    scene) dict=scene ;;
    api) dict="" ;;
    *)
        echo "run_fuzz.sh: unknown target '$target' (obj, mtl, model, scene, api)"
        exit 1
        ;;
    esac
    # shellcheck disable=SC2046 # the seed folders are separate arguments (no spaces in them)
    run "$target" "$dict" $(seeds "$target")
done
if [ -n "$failed" ]; then
    echo "run_fuzz.sh: crashes in:$failed"
    exit 1
fi
