#!/usr/bin/env bash
# Fetches tt-metal's reference tree (scripts/fetch-tt-metal.sh), builds ditmk and runs every test:
# the optimised build (all tests, full-size ones included), then the Python tests again against the
# wheel installed in a fresh venv (scripts/test-wheel.sh), then the library and unit tests under AddressSanitizer + UndefinedBehaviorSanitizer, then a short run of each
# libFuzzer harness (clang, ASan + UBSan) over its seed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh test
# tt-metal's reference tree (scripts/tt-metal.pin) into the user cache; without it (no PyPI) the tests
# that read it skip, each naming the missing tree
./scripts/fetch-tt-metal.sh || echo "test: tt-metal reference tree unavailable, the tests that read it skip" >&2
jobs=$(nproc)
# The wheel compiles what the release build compiled, in another build directory: ccache serves it
# (the same absolute paths; the build directory, where debug info names it, is left out of the key).
export CCACHE_NOHASHDIR=1
# Paths under the checkout are hashed relative to it, so a clone in another folder (CI's) reuses what
# an earlier build of the same sources compiled.
export CCACHE_BASEDIR=$PWD
cmake --preset release
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs"
./scripts/test-wheel.sh
cmake --preset asan
cmake --build --preset asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset asan -j "$jobs"
cmake --preset fuzz
cmake --build --preset fuzz -j "$jobs"
ctest --preset fuzz -j "$jobs"
