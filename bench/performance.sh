#!/usr/bin/env bash
# Produces the tables of docs/performance.md on this machine: `ditmk bench` for every weight format
# and instruction set on the built-in N1.5 model (2 threads), side by side with the PyTorch peer (bf16)
# and with bf16 (int8, same run), the accuracy of every format against the float64 reference on the
# built-in N1.5, N1.6 and N1.7 models, and the GEMM microbenchmark against oneDNN. Prints Markdown;
# takes ~40 minutes on 2 cores (the first run also generates the full-size N1.6 and N1.7 models).
#
#   THREADS=2 ./bench/performance.sh            everything
#   PARTS="speed" ./bench/performance.sh        only the speed table (also: accuracy, gemm)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release
out=$(mktemp -d)
threads=${THREADS:-2}
parts=${PARTS:-speed accuracy gemm}

row() {  # label, json file
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
label, path = sys.argv[1], sys.argv[2]
r = json.load(open(path))
peer = f"{r['peer']['median_ms_per_denoise']:.0f} ms, {r['speedup_vs_peer']:.1f}x" if "peer" in r else "-"
isa = r['engine'].get('int8_dot', r['engine']['isa'])
print(f"| {label} | {isa} | {r['median_ms_per_denoise']:.0f} ({r['min_ms_per_denoise']:.0f}-{r['max_ms_per_denoise']:.0f}) "
      f"| {r['median_ms_per_step']:.1f} | {r['median_ms_precompute']:.0f} | {r['weight_bytes_per_step']/1e6:.0f} "
      f"| {r['achieved_gbps']:.2f} | {r['achieved_gflops']:.0f} | {r['stream_bandwidth_gbps']:.1f} "
      f"| {r['floor_ms_per_denoise']:.0f} | {r['ratio_to_floor']:.2f} "
      f"| {r['compute_peak_gflops']:.0f} | {r['compute_floor_ms_per_denoise']:.0f} | {r['ratio_to_compute_floor']:.2f} "
      f"| {r['cos_vs_ref']:.7f} / {r['rel_l2_vs_ref']:.1e} "
      f"| {r['max_step_rel_l2_vs_ref']:.1e} | {peer} |")
PY
}

side_by_side() {  # int8 json file: the int8 run and the bf16 run timed beside it
  /usr/bin/python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
b = r['bf16_same_run']
for label, x in (("int8 (" + r['engine']['int8_dot'] + ")", r), ("bf16 (" + b['engine']['isa'] + ")", b)):
    print(f"| {label} | {x['median_ms_per_denoise']:.0f} ({x['min_ms_per_denoise']:.0f}-{x['max_ms_per_denoise']:.0f}) "
          f"| {x['median_ms_per_step']:.1f} | {x['median_ms_precompute']:.0f} | {x['compute_peak_instruction']} "
          f"| {x['compute_peak_gflops']:.0f} | {x['compute_floor_ms_per_denoise']:.0f} | {x['ratio_to_compute_floor']:.2f} "
          f"| {x['cos_vs_ref']:.7f} | {x['min_step_cos_vs_ref']:.7f} |")
print(f"\nint8 / bf16 time in the same run: {r['median_ms_per_denoise'] / b['median_ms_per_denoise']:.2f} "
      f"(speed-up {r['speedup_vs_bf16']:.2f}x)")
PY
}

if [[ " $parts " == *" speed "* ]]; then
  echo "| weights | ISA | ms per denoise, median (min-max) | ms per step | precompute ms | MB per step | GB/s | GFLOP/s | stream GB/s | stream floor ms | ratio to stream floor | peak GFLOP/s | compute floor ms | ratio to compute floor | cos / rel-L2 vs ref (actions) | worst step rel-L2 | PyTorch peer (bf16 eager), speed-up |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  $bin/ditmk bench --threads "$threads" --dtype bf16 --peer torch --json > "$out/bf16.json"
  row bf16 "$out/bf16.json"
  for dtype in int8 bfp8_b fp32; do
    $bin/ditmk bench --threads "$threads" --dtype "$dtype" --json > "$out/$dtype.json"
    row "$dtype" "$out/$dtype.json"
  done
  for dtype in bf16 bfp8_b int8; do
    $bin/ditmk bench --threads "$threads" --dtype "$dtype" --isa avx2 --json > "$out/$dtype-avx2.json"
    row "$dtype" "$out/$dtype-avx2.json"
  done
  echo
  echo "int8 beside bf16 in one invocation (runs interleaved), each against the peak of its own instruction:"
  echo
  echo "| weights | ms per denoise, median (min-max) | ms per step | precompute ms | instruction | peak G(FL)OP/s | compute floor ms | ratio to compute floor | actions cos | worst step velocity cos |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  side_by_side "$out/int8.json"
  for isa in avx2; do
    echo
    echo "The same with the instruction set capped to $isa:"
    echo
    side_by_side "$out/int8-$isa.json"
  done
  echo
fi

if [[ " $parts " == *" accuracy "* ]]; then
  # Every format against the float64 reference on the built-in models (synthetic observation with
  # text, image and padding tokens for N1.6 / N1.7), actions and every step's velocity.
  echo "| model | weights | actions cos | actions rel-L2 | worst step velocity cos | worst step velocity rel-L2 |"
  echo "|---|---|---|---|---|---|"
  for version in n15 n16 n17; do
    $bin/ditmk run --version "$version" --backend ref --threads "$threads" --out "$out/$version-ref.npz" > /dev/null
    for dtype in fp32 bf16 bfp8_b int8; do
      $bin/ditmk run --version "$version" --backend cpu --dtype "$dtype" --threads "$threads" --out "$out/$version-$dtype.npz" > /dev/null
      /usr/bin/python3 - "$version" "$dtype" "$out/$version-$dtype.npz" "$out/$version-ref.npz" <<'PY'
import sys
import numpy as np
version, dtype, got, ref = sys.argv[1:5]
a, b = np.load(got), np.load(ref)
def agree(x, y):
    x, y = x.ravel().astype(np.float64), y.ravel().astype(np.float64)
    return float(x @ y / np.sqrt((x @ x) * (y @ y))), float(np.linalg.norm(x - y) / np.linalg.norm(y))
cos, rel = agree(a["actions"], b["actions"])
steps = [agree(v, w) for v, w in zip(a["velocities"], b["velocities"])]
print(f"| {version} | {dtype} | {cos:.7f} | {rel:.1e} | {min(c for c, _ in steps):.7f} | {max(r for _, r in steps):.1e} |")
PY
    done
  done
  echo
fi

if [[ " $parts " == *" gemm "* && -x $bin/gemm_bench ]]; then
  echo '```'
  $bin/gemm_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true --benchmark_min_time=0.1 2>&1 | grep -E "median|Benchmark" || true
  echo '```'
fi
rm -rf "$out"
