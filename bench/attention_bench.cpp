// The attention kernel on the model's shapes, one thread, all 32 heads per call: with the
// instruction set the kernels select here ("best"), then with the AVX2 and portable code.
//
//   attention_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// Counter: GFLOP/s, counting 4 m keys head_dim flops per head (the two matrix products; masked
// keys included).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "ditmk/core/rng.hpp"
#include "ditmk/cpu/kernels/attention.hpp"

namespace {

using namespace ditmk;
using namespace ditmk::cpu;

constexpr int64_t kHeads = 32;

std::vector<float> random_values(std::size_t count, uint64_t stream, float scale) {
  const CounterRng rng(7, stream);
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = scale * float(rng.normal(i));
  return v;
}

// args: m, keys, head_dim, masked (a quarter of the keys inadmissible), prepared keys
void BM_attention(benchmark::State& state, Isa isa) {
  if (!isa_supported(isa)) {
    state.SkipWithError("instruction set not supported here");
    return;
  }
  const int64_t m = state.range(0), keys = state.range(1), d = state.range(2);
  const bool masked = state.range(3) != 0, prepared = state.range(4) != 0;
  const int64_t w = kHeads * d;
  const std::vector<float> q = random_values(std::size_t(m * w), 1, 1.0f);
  const std::vector<float> k = random_values(std::size_t(keys * w), 2, 1.0f);
  const std::vector<float> v = random_values(std::size_t(keys * w), 3, 1.0f);
  std::vector<float> out(std::size_t(m * w)), scratch(attention_scratch_floats(keys, d));
  std::vector<uint8_t> mask(static_cast<std::size_t>(keys));
  for (int64_t j = 0; j < keys; ++j) mask[std::size_t(j)] = j % 4 != 3;
  AttentionArgs a;
  a.q = q.data(), a.q_stride = w, a.k = k.data(), a.k_stride = w, a.v = v.data(), a.v_stride = w;
  a.out = out.data(), a.out_stride = w, a.m = m, a.keys = keys, a.heads = kHeads, a.head_dim = d;
  a.scale = 1.0f / std::sqrt(float(d)), a.key_mask = masked ? mask.data() : nullptr;
  a.h_begin = 0, a.h_end = kHeads, a.scratch = scratch.data(), a.scratch_floats = scratch.size();
  std::vector<float> keys_ready;
  if (prepared) {
    keys_ready.resize(attention_prepared_keys_floats(keys, kHeads, d));
    attention_prepare_keys(a, keys_ready.data(), keys_ready.size());  // once, as for hoisted cross-attention keys
    a.prepared_keys = keys_ready.data();
  }
  for (auto _ : state) {
    attention(a, isa);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(4.0 * double(m * keys * d * kHeads) / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(std::string(isa_name(isa)));
}

void model_shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"m", "keys", "d", "masked", "prepared"})
      ->Args({49, 49, 48, 0, 0})    // DiT self-attention
      ->Args({49, 300, 48, 0, 0})   // DiT cross-attention against the vision-language tokens
      ->Args({49, 300, 48, 1, 0})
      ->Args({49, 300, 48, 0, 1})   // ... with the keys prepared once per denoise
      ->Args({49, 300, 48, 1, 1})
      ->Args({300, 300, 64, 0, 0})  // vision-language self-attention
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

BENCHMARK_CAPTURE(BM_attention, best, selected_isa())->Apply(model_shapes);
BENCHMARK_CAPTURE(BM_attention, avx2, Isa::avx2)->Apply(model_shapes);
BENCHMARK_CAPTURE(BM_attention, portable, Isa::portable)->Apply(model_shapes);

}  // namespace

BENCHMARK_MAIN();
