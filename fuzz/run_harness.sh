#!/usr/bin/env bash
# Runs one libFuzzer harness for a while:
#   fuzz/run_harness.sh BINARY SEED_DIR SECONDS FINDINGS_DIR [libFuzzer flags...]
# It starts from the seed corpus (replaying every input there, regression inputs included) and writes
# the inputs it discovers into a fresh temporary directory, removed afterwards, so the repository's
# corpus changes only by hand. A crash, leak, sanitizer report, out-of-memory or slow input stops it
# with a non-zero status and leaves the input in FINDINGS_DIR. The last lines it prints are
# libFuzzer's final statistics (stat::number_of_executed_units: how many inputs ran).
set -euo pipefail
if [[ $# -lt 4 ]]; then
  echo "usage: $0 BINARY SEED_DIR SECONDS FINDINGS_DIR [libFuzzer flags...]" >&2
  exit 2
fi
binary=$1 seeds=$2 seconds=$3 findings=$4
shift 4
work=$(mktemp -d "${TMPDIR:-/tmp}/ditmk-fuzz-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$findings"
# Any single allocation over 64 MiB is a finding: inputs are at most a few KiB, and nothing may
# allocate more than a bounded multiple of its input.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$binary" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -malloc_limit_mb=64 -print_final_stats=1 \
  -artifact_prefix="$findings/$(basename "$binary")-" "$@" "$work" "$seeds"
