#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# `make bench` (issue 8): runs physbench (our engine) and bullet_ref (Bullet) on the same recipe scenes,
# alternating scene by scene so that machine noise falls on both alike (Bullet's bullet_wall,
# thin_wall and highspeed also run with its continuous collision, as NAME_ccd), then collide_bench
# (our narrow phase against libccd). Every JSON line goes to $BUILD_DIR/bench.json, each with an "engine" key
# (collide_bench's lines carry "engine":"collide"); then a side-by-side table is printed.
# It builds nothing: `make bench` builds first.
#
# Environment: BUILD_DIR (default build), BENCH_SCENES (space-separated names; default all of
# `physbench --list`), BENCH_STEPS (override every scene's step count), BENCH_SEED.
set -eu

BUILD_DIR=${BUILD_DIR:-build}
OUT="$BUILD_DIR/bench.json"
PHYSBENCH="$BUILD_DIR/physbench"
BULLET="$BUILD_DIR/bullet_ref"
COLLIDE="$BUILD_DIR/collide_bench"
HERE=$(dirname "$0")

if [ ! -x "$PHYSBENCH" ] && [ ! -x "$BULLET" ]; then
    echo "run_bench.sh: neither $PHYSBENCH nor $BULLET is built (run 'make bench')" >&2
    exit 1
fi

set --
[ -n "${BENCH_STEPS:-}" ] && set -- "$@" --steps "$BENCH_STEPS"
[ -n "${BENCH_SEED:-}" ] && set -- "$@" --seed "$BENCH_SEED"

if [ -n "${BENCH_SCENES:-}" ]; then
    scenes=$BENCH_SCENES
elif [ -x "$PHYSBENCH" ]; then
    scenes=$("$PHYSBENCH" --list)
else
    scenes=$("$BULLET" --list)
fi

: > "$OUT"
status=0
for scene in $scenes; do
    if [ -x "$PHYSBENCH" ]; then
        echo "physbench  $scene ..." >&2
        "$PHYSBENCH" --scene "$scene" "$@" >> "$OUT" || { echo "physbench failed on $scene" >&2; status=1; }
    fi
    if [ -x "$BULLET" ]; then
        echo "bullet_ref $scene ..." >&2
        "$BULLET" --scene "$scene" "$@" >> "$OUT" || { echo "bullet_ref failed on $scene" >&2; status=1; }
        case "$scene" in
        bullet_wall | thin_wall | highspeed)
            echo "bullet_ref $scene (ccd) ..." >&2
            "$BULLET" --scene "$scene" --ccd "$@" >> "$OUT" || status=1
            ;;
        esac
    fi
done

if [ -x "$COLLIDE" ]; then
    echo "collide_bench ..." >&2
    "$COLLIDE" | sed 's/^{/{"engine":"collide",/' >> "$OUT" || status=1
else
    echo "run_bench.sh: $COLLIDE is not built (needs libccd-dev)" >&2
fi

python3 "$HERE/bench_table.py" "$OUT"
echo "JSON lines: $OUT"
exit $status
