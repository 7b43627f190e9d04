#!/usr/bin/env bash
# Fetches tt-metal's reference tree (scripts/fetch-tt-metal.sh), builds ditmk and runs every test:
# the optimised build (all tests, full-size ones included), then the Python tests again against the
# wheel installed in a fresh venv (scripts/test-wheel.sh), then what the sanitizers check under
# AddressSanitizer + UndefinedBehaviorSanitizer (docs/testing.md), then a short run of each libFuzzer
# harness (clang, ASan + UBSan) over its seed corpus. Ends with a table of the phases' wall times and
# compiler cache hit rates (scripts/phases.sh), on failure too.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/phases.sh
trap print_phase_table EXIT

phase deps ./scripts/install-deps.sh peers
# tt-metal's reference tree (scripts/tt-metal.pin) into the user cache; without it (no PyPI) the tests
# that read it skip, each naming the missing tree
fetch_tree() {
  ./scripts/fetch-tt-metal.sh || echo "test: tt-metal reference tree unavailable, the tests that read it skip" >&2
}
phase tt-metal fetch_tree
jobs=$(nproc)
# The wheel compiles what the release build compiled, in another build directory: ccache serves it
# (the same absolute paths; the build directory, where debug info names it, is left out of the key).
export CCACHE_NOHASHDIR=1
# Paths under the checkout are hashed relative to it, so a clone in another folder (CI's) reuses what
# an earlier build of the same sources compiled.
export CCACHE_BASEDIR=$PWD
# configures and builds one preset
build_preset() {
  cmake --preset "$1" >/dev/null && cmake --build --preset "$1" -j "$jobs"
}
phase release-build build_preset release
phase release-test ctest --preset release -j "$jobs"
phase wheel ./scripts/test-wheel.sh
phase asan-build build_preset asan
phase asan-test env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset asan -j "$jobs"
phase fuzz-build build_preset fuzz
phase fuzz-run ctest --preset fuzz -j "$jobs"
