#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# Installs the Debian 12 packages the project needs that are missing; does nothing when all are there.
# Usage: tools/install-deps.sh [core|bench|arm64]   (core: build, run and test; bench: also Bullet, libccd;
# arm64: also the arm64 cross compiler, qemu-user and the engine's libraries for arm64, for make test-arm64)
set -eu
core="build-essential cmake pkg-config clang libclang-rt-14-dev libsdl2-dev libcglm-dev python3-glad
libstb-dev libcjson-dev libqhull-dev libccd-dev libimgui-dev libegl-mesa0 libgl1-mesa-dri xvfb xauth xdotool ffmpeg"
bench="libbullet-dev g++ linux-perf valgrind"
# The arm64 libraries are Debian's own arm64 packages beside the native ones (multiarch): the engine's tests
# need qhull_r, cglm and cJSON (about 40 packages with the compiler and qemu, mostly the cross toolchain).
arm64="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libqhull-dev:arm64 libcglm-dev:arm64
libcjson-dev:arm64"
want="$core"
[ "${1:-core}" = bench ] && want="$core $bench"
[ "${1:-core}" = arm64 ] && want="$core $arm64"

missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "Installing missing Debian packages:$missing"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "error: need root or sudo to install:$missing" >&2; exit 1; }
    sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
if [ "${1:-core}" = arm64 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $sudo dpkg --add-architecture arm64
fi
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing
