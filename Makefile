# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# A thin wrapper over CMake. `make run` and `make test` are the README's quick start.
#   build/       release build: sandbox, physbench, collide_bench
#   build-test/  -Werror + AddressSanitizer + UndefinedBehaviorSanitizer, for ctest
#   build-clang/ clang -Werror compile check (warnings differ between compilers)
#   build-werror/ gcc Release -Werror compile check (-O2 finds uninitialised-use warnings the test build misses)
#   build-fuzz/  clang + libFuzzer targets
#   build-arm64/ arm64 cross-build of the engine's tests (cmake/aarch64.cmake), run under qemu-user
JOBS ?= $(shell nproc)
ARGS ?=
SCENE ?= pile1000
FUZZ_SECONDS ?= 60
# The phys_tests areas make test-arm64 runs under qemu (empty: all of them). qemu takes about 50 times the
# native time (the solver and simd areas: 17 s and 38 s, against 0.3 s and 0.8 s natively), the whole set over
# an hour on one core by that estimate, so the default is the solver's areas: the Neon kernels against the
# scalar solver and the lanes against each other.
ARM64_AREAS ?= solver simd

.PHONY: all deps bench-deps arm64-deps build run test test-clang test-release test-arm64 bench fuzz soak profile \
	format format-check clean

all: build

deps:
	@tools/install-deps.sh core

bench-deps:
	@tools/install-deps.sh bench

arm64-deps:
	@tools/install-deps.sh arm64

build/CMakeCache.txt: | deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release

build: deps build/CMakeCache.txt
	@cmake --build build -j $(JOBS)

run: build
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ] && [ -z "$$SDL_VIDEODRIVER" ]; then \
	  echo "No display found: run 'xvfb-run -a build/sandbox', or 'SDL_VIDEODRIVER=offscreen build/sandbox --frames 120 --screenshot out.png', or 'build/sandbox --headless --frames 600'."; \
	  exit 1; \
	fi
	build/sandbox $(ARGS)

build-test/CMakeCache.txt: | deps
	cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSANITIZE=ON -DWERROR=ON -DBENCH=OFF

test: deps build-test/CMakeCache.txt
	@cmake --build build-test -j $(JOBS)
	@cd build-test && ctest --output-on-failure -j $(JOBS)

# Minutes of random player input to the AddressSanitizer build (tools/soak.py says what it checks); not part of
# `make test`. SOAK_MINUTES=1 for a short one.
SOAK_MINUTES ?= 10
soak: deps build-test/CMakeCache.txt
	@cmake --build build-test -j $(JOBS)
	@python3 tools/soak.py --minutes $(SOAK_MINUTES)

build-clang/CMakeCache.txt: | deps
	CC=clang cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWERROR=ON

test-clang: deps build-clang/CMakeCache.txt
	@cmake --build build-clang -j $(JOBS)

build-werror/CMakeCache.txt: | deps
	cmake -S . -B build-werror -DCMAKE_BUILD_TYPE=Release -DWERROR=ON

test-release: deps build-werror/CMakeCache.txt
	@cmake --build build-werror -j $(JOBS)

build-arm64/CMakeCache.txt: | arm64-deps
	cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64.cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DWERROR=ON -DGAME=OFF -DBENCH=OFF

# Exit 77 from an area: some cases skipped (the shared test data is not beside a clean clone), none failed.
test-arm64: arm64-deps build-arm64/CMakeCache.txt
	@cmake --build build-arm64 -j $(JOBS) --target phys_tests
	@for area in $(if $(strip $(ARM64_AREAS)),$(ARM64_AREAS),""); do \
	  qemu-aarch64 -L /usr/aarch64-linux-gnu build-arm64/phys_tests $$area; status=$$?; \
	  if [ $$status -ne 0 ] && [ $$status -ne 77 ]; then exit 1; fi; \
	done

# Configures again: Bullet and libccd may have been installed just now, after build/ was first configured
# without them (CMake looks again for what it did not find).
bench: bench-deps build/CMakeCache.txt
	@cmake -S . -B build > /dev/null
	@cmake --build build -j $(JOBS)
	@bench/run_bench.sh

fuzz: deps
	CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFUZZ=ON -DGAME=OFF -DBENCH=OFF
	@cmake --build build-fuzz -j $(JOBS)
	@tests/fuzz/run_fuzz.sh build-fuzz $(FUZZ_SECONDS)

profile: bench-deps build
	@bench/profile.sh $(SCENE)

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

format-check:
	@clang-format --dry-run -Werror $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build build-test build-clang build-werror build-fuzz build-arm64
