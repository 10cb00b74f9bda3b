#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# `make profile SCENE=pile1000` (issue 8): runs physbench on one scene under `perf record` and prints
# the functions where the time goes (self time, flat); where perf is missing or not permitted, runs
# it under `valgrind --tool=callgrind` instead (slower: PROFILE_STEPS, default 60, bounds the run).
# The per-stage times are in physbench's JSON line (ms_stage), printed first.
# Environment: BUILD_DIR (default build), PROFILE_STEPS (steps; default the scene's own under perf).
set -eu

SCENE=${1:-pile1000}
BUILD_DIR=${BUILD_DIR:-build}
PHYSBENCH="$BUILD_DIR/physbench"
OUT_DIR="$BUILD_DIR/profile"
TOP=${PROFILE_TOP:-30}

if [ ! -x "$PHYSBENCH" ]; then
    echo "profile.sh: $PHYSBENCH is not built (run 'make build')" >&2
    exit 1
fi
mkdir -p "$OUT_DIR"

if command -v perf > /dev/null 2>&1 && perf record -o "$OUT_DIR/probe.data" -- true > /dev/null 2>&1; then
    DATA="$OUT_DIR/perf-$SCENE.data"
    if [ -n "${PROFILE_STEPS:-}" ]; then
        perf record -F 999 -g -o "$DATA" -- "$PHYSBENCH" --scene "$SCENE" --steps "$PROFILE_STEPS"
    else
        perf record -F 999 -g -o "$DATA" -- "$PHYSBENCH" --scene "$SCENE"
    fi
    echo "top functions (self time), $SCENE:"
    perf report -i "$DATA" --stdio --no-children -g none --percent-limit 0.3 2> /dev/null |
        grep -v '^#' | grep -v '^$' | head -n "$TOP"
    echo "perf data: $DATA (perf report -i $DATA)"
elif command -v valgrind > /dev/null 2>&1; then
    DATA="$OUT_DIR/callgrind-$SCENE.out"
    valgrind --tool=callgrind --callgrind-out-file="$DATA" "$PHYSBENCH" --scene "$SCENE" \
        --steps "${PROFILE_STEPS:-60}"
    echo "top functions (instructions), $SCENE:"
    callgrind_annotate "$DATA" 2> /dev/null | head -n $((TOP + 20))
    echo "callgrind data: $DATA (callgrind_annotate $DATA)"
else
    echo "profile.sh: neither perf nor valgrind is installed (make bench-deps installs them)" >&2
    exit 1
fi
