#!/usr/bin/env bash
# Produces the tables of docs/performance.md on this machine: `ditmk bench` for every weight format
# and instruction set on the built-in N1.5 model (2 threads), side by side with the PyTorch peer, and
# the GEMM microbenchmark against oneDNN. Prints Markdown; takes ~15 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release
out=$(mktemp -d)
threads=${THREADS:-2}

row() {  # label, json file
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
label, path = sys.argv[1], sys.argv[2]
r = json.load(open(path))
peer = f"{r['peer']['median_ms_per_denoise']:.0f} ms, {r['speedup_vs_peer']:.1f}x" if "peer" in r else "-"
print(f"| {label} | {r['engine']['isa']} | {r['median_ms_per_denoise']:.0f} ({r['min_ms_per_denoise']:.0f}-{r['max_ms_per_denoise']:.0f}) "
      f"| {r['median_ms_per_step']:.1f} | {r['median_ms_precompute']:.0f} | {r['weight_bytes_per_step']/1e6:.0f} "
      f"| {r['achieved_gbps']:.2f} | {r['achieved_gflops']:.0f} | {r['stream_bandwidth_gbps']:.1f} "
      f"| {r['floor_ms_per_denoise']:.0f} | {r['ratio_to_floor']:.2f} "
      f"| {r['compute_peak_gflops']:.0f} | {r['compute_floor_ms_per_denoise']:.0f} | {r['ratio_to_compute_floor']:.2f} "
      f"| {r['cos_vs_ref']:.7f} / {r['rel_l2_vs_ref']:.1e} "
      f"| {r['max_step_rel_l2_vs_ref']:.1e} | {peer} |")
PY
}

echo "| weights | ISA | ms per denoise, median (min-max) | ms per step | precompute ms | MB per step | GB/s | GFLOP/s | stream GB/s | stream floor ms | ratio to stream floor | peak GFLOP/s | compute floor ms | ratio to compute floor | cos / rel-L2 vs ref (actions) | worst step rel-L2 | PyTorch peer (bf16 eager), speed-up |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
$bin/ditmk bench --threads "$threads" --dtype bf16 --peer torch --json > "$out/bf16.json"
row bf16 "$out/bf16.json"
for dtype in bfp8_b fp32; do
  $bin/ditmk bench --threads "$threads" --dtype "$dtype" --json > "$out/$dtype.json"
  row "$dtype" "$out/$dtype.json"
done
for dtype in bf16 bfp8_b; do
  $bin/ditmk bench --threads "$threads" --dtype "$dtype" --isa avx2 --json > "$out/$dtype-avx2.json"
  row "$dtype" "$out/$dtype-avx2.json"
done
echo
if [[ -x $bin/gemm_bench ]]; then
  echo '```'
  $bin/gemm_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true --benchmark_min_time=0.1 2>&1 | grep -E "median|Benchmark" || true
  echo '```'
fi
rm -rf "$out"
