# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# Cross-build for arm64 (AArch64) Linux with Debian 12's cross compiler, so that the solver's Neon kernels are
# built and tested on an x86-64 machine: `make test-arm64` configures build-arm64 with this file and runs
# phys_tests under qemu-user. The libraries come from Debian's arm64 packages installed beside the native ones
# (multiarch: `tools/install-deps.sh arm64`), found through their arm64 pkg-config files; headers shared by
# both architectures stay in /usr/include.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
# Runs the test programs (ctest, and anything CMake itself runs) under qemu with the arm64 libraries.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
# The multiarch libraries (qhull_r, cJSON) live outside the cross compiler's own sysroot.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,-rpath-link,/usr/lib/aarch64-linux-gnu -L/usr/lib/aarch64-linux-gnu")
