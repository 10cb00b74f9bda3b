#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# bench/ab/ab.sh REV_A REV_B SCENE [STEPS] [BLOCK] [WORKERS[,WORKERS_B]]: the speed of two revisions of the
# engine on one physbench scene (or of one revision on two worker counts: `ab.sh WORK WORK large_pyramid 200 10
# 1,2`), stepped in turns in one process (ab_drive.c says why). Each revision (a commit, or WORK for
# the working tree) is built as the release build builds it, its engine (phys, recipes) linked with
# ab_engine.c into a shared library under build/ab/. Example: bench/ab/ab.sh HEAD~1 WORK convex_pile5120 500
set -eu
[ $# -ge 3 ] || { echo "usage: bench/ab/ab.sh REV_A REV_B SCENE [STEPS] [BLOCK] [WORKERS]" >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
out=$root/build/ab
mkdir -p "$out"
build_rev() { # build_rev REV NAME
    dir=$out/$2
    rm -rf "$dir/src"
    mkdir -p "$dir/src"
    if [ "$1" = WORK ]; then
        # The tracked and untracked files that are not ignored, as the working tree has them (a tracked file
        # deleted there is skipped).
        (cd "$root" && git ls-files -co --exclude-standard -z |
            tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$dir/src"
    else
        git -C "$root" archive "$1" | tar -xf - -C "$dir/src"
    fi
    cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
        -DGAME=OFF -DBENCH=OFF >/dev/null
    cmake --build "$dir/build" --target phys recipes -j"$(nproc)" >/dev/null
    cc -O2 -std=c11 -fPIC -shared -fvisibility=hidden -Wl,-Bsymbolic -I"$dir/src/include" -I"$dir/src/src" \
        "$root/bench/ab/ab_engine.c" "$dir/build/src/librecipes.a" "$dir/build/src/libphys.a" \
        -lqhull_r -lm -lpthread -o "$dir/engine.so"
}
build_rev "$1" a
build_rev "$2" b
cc -O2 -std=c11 "$root/bench/ab/ab_drive.c" -o "$out/ab_drive" -ldl
"$out/ab_drive" "$out/a/engine.so" "$out/b/engine.so" "$3" "${4:-300}" "${5:-20}" "${6:-1}"
