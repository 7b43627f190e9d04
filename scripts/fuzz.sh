#!/usr/bin/env bash
# The long fuzzing campaign: builds the fuzz preset and runs each libFuzzer harness for SECONDS, one
# after another (each harness is one process; the machine's cores stay free for the rest), then prints
# per harness how many inputs ran and what it found.
#   scripts/fuzz.sh SECONDS [HARNESS...]      (default: every harness of fuzz/)
# A finding leaves its input in build/fuzz/findings/ and makes the script exit non-zero. Once the bug
# is fixed, copy that input into fuzz/corpus/HARNESS/ as crash-<what> so that every short run (the
# fuzz stage of scripts/test.sh) replays it, and add a unit test where the bug was (tests/io, tests/model).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 SECONDS [HARNESS...]" >&2
  exit 2
fi
seconds=$1
shift
harnesses=("$@")
if [[ ${#harnesses[@]} -eq 0 ]]; then
  for source in fuzz/*.cpp; do harnesses+=("$(basename "$source" .cpp)"); done
fi
cmake --preset fuzz >/dev/null
nice -n 10 cmake --build --preset fuzz -j "$(nproc)" --target "${harnesses[@]/#/fuzz_}"
findings=build/fuzz/findings/$(date +%Y%m%d-%H%M%S)
logs=build/fuzz/logs
mkdir -p "$logs"
summary=()
status=0
for harness in "${harnesses[@]}"; do
  log=$logs/$harness.log
  echo "fuzzing $harness for ${seconds}s (log: $log)"
  result=clean
  if ! fuzz/run_harness.sh "build/fuzz/fuzz_$harness" "fuzz/corpus/$harness" "$seconds" "$findings" >"$log" 2>&1; then
    result="FINDING: $(grep -m1 -E '^==[0-9]+==ERROR|runtime error|^SUMMARY|deadly signal|out-of-memory|timeout' "$log" || echo "see $log")"
    status=1
  fi
  executed=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  summary+=("$(printf '%-20s %12s executions  %s' "$harness" "${executed:-?}" "$result")")
done
echo
printf '%s\n' "${summary[@]}"
if [[ $status -ne 0 ]]; then
  echo "inputs of the findings:"
  ls -1 "$findings"
fi
exit $status
