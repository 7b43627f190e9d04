#!/usr/bin/env bash
# Builds ditmk and runs every test: the optimised build (all tests, full-size ones included), then the
# library and unit tests again under AddressSanitizer + UndefinedBehaviorSanitizer, then a short run of
# each libFuzzer harness (clang, ASan + UBSan) over its seed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)
cmake --preset release
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs"
cmake --preset asan
cmake --build --preset asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset asan -j "$jobs"
cmake --preset fuzz
cmake --build --preset fuzz -j "$jobs"
ctest --preset fuzz -j "$jobs"
