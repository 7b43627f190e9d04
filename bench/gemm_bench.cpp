// Our small-M GEMM against oneDNN's bf16 and int8 matmuls on the action head's M = 64 shapes.
//
//   gemm_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The *_cold variants cycle through enough copies of the weights to exceed the last-level cache,
// so every call streams its weights from DRAM as the engine's steps do (845 MB of weights per step);
// the plain variants reuse one copy, which stays in cache for the smaller shapes. BM_ditmk_block
// runs one DiT block's six GEMMs at a step's 49 rows with streamed weights: the figure to A/B a
// kernel change on before timing the whole engine. BM_ditmk_rows runs the precompute's shapes at
// its 300 VL-token rows (gemm_rows: 64-row calls in L2-sized column blocks, x rounded once), beside
// oneDNN's matmul at the same M, both with streamed weights.
//
// oneDNN int8 is u8 x s8 -> s32 with no scales at all; ours also quantizes x and applies a scale
// per 32-value block of each operand, so oneDNN's int8 rows do strictly less work.
//
// Counters: weight_GB/s (packed weight bytes streamed per second) and GFLOP/s (2 M K N per call,
// multiply-adds of any type).
// Two-thread runs split N for ours over a second std::thread that waits on a spin flag (as the
// engine's persistent workers do); oneDNN uses its own OpenMP threads, limited by omp_set_num_threads.
#include <benchmark/benchmark.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <oneapi/dnnl/dnnl.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ditmk/core/rng.hpp"
#include "ditmk/cpu/kernels/gemm.hpp"

namespace {

using namespace ditmk;
using namespace ditmk::cpu;

constexpr int64_t kRows = 64;
const int64_t kDims[] = {1536, 2048, 3072, 6144};

std::vector<float> random_values(std::size_t count, uint64_t stream, float scale) {
  const CounterRng rng(7, stream);
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = scale * float(rng.normal(i));
  return v;
}

// A second thread that runs one job per generation; the caller spins until it is done.
class Helper {
 public:
  Helper() : thread_([this] { loop(); }) {}
  ~Helper() {
    stop_ = true;
    generation_.fetch_add(1);
    thread_.join();
  }
  void run_with(const std::function<void()>& helper_job, const std::function<void()>& own_job) {
    job_ = helper_job;
    done_.store(false);
    generation_.fetch_add(1, std::memory_order_release);
    own_job();
    while (!done_.load(std::memory_order_acquire)) {
    }
  }

 private:
  void loop() {
    uint64_t seen = 0;
    for (;;) {
      while (generation_.load(std::memory_order_acquire) == seen) {
      }
      seen = generation_.load();
      if (stop_) return;
      job_();
      done_.store(true, std::memory_order_release);
    }
  }
  std::function<void()> job_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<bool> done_{true};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

void set_counters(benchmark::State& state, double flops, double weight_bytes) {
  state.counters["weight_GB/s"] = benchmark::Counter(weight_bytes / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["GFLOP/s"] = benchmark::Counter(flops / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

// Multiply-adds (as 2 flops) of one [rows, k] x [k, n] product.
double product_flops(int64_t rows, int64_t k, int64_t n) { return 2.0 * double(rows) * double(k) * double(n); }

// Copies of `bytes` of weights that together exceed the last-level cache (sysconf's, which on
// some machines is the whole package's; at least 768 MiB).
int64_t cold_copies(std::size_t bytes) {
  long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
  const std::size_t target = std::max<std::size_t>(std::size_t(llc > 0 ? llc : 0) * 3 / 2, std::size_t(768) << 20);
  return int64_t((target + bytes - 1) / bytes);
}

// The threads a benchmark of ours runs on, each with its own scratch for `widest`'s rows of x: a
// second thread (spinning) only for two, since on one it would compete for the core.
class OurThreads {
 public:
  OurThreads(int64_t threads, const PackedWeights& widest, int64_t rows) {
    for (int64_t t = 0; t < threads; ++t) scratch_.emplace_back(DType::U8, Shape{int64_t(gemm_scratch_bytes(widest, rows)) + 64});
    if (threads == 2) helper_.emplace();
  }
  // One call over the columns [0, a.n_end): on two threads split at a panel boundary as the
  // engine's workers split them.
  void gemm(const GemmArgs& a) {
    split(a, [&](int t, GemmArgs part) {
      part.scratch = scratch_[std::size_t(t)].bytes(), part.scratch_bytes = scratch_[std::size_t(t)].nbytes();
      cpu::gemm(part);
    });
  }
  // gemm_rows over all a.m rows of x, which a.scratch holds prepared (x_prepared), split as gemm() is.
  void rows(const GemmArgs& a) {
    split(a, [&](int, const GemmArgs& part) { cpu::gemm_rows(part, selected_isa()); });
  }

 private:
  // run(t, a with thread t's share of the columns) on each thread.
  template <class Run>
  void split(const GemmArgs& a, const Run& run) {
    const auto columns = [&](int t, int64_t begin, int64_t end) {
      GemmArgs part = a;
      part.n_begin = begin, part.n_end = end;
      run(t, part);
    };
    const int64_t n = a.n_end;
    if (!helper_) return columns(0, 0, n);
    const int64_t half = (n / 2 + kGemmColumnStep - 1) / kGemmColumnStep * kGemmColumnStep;
    helper_->run_with([&] { columns(1, half, n); }, [&] { columns(0, 0, half); });
  }


  std::vector<Tensor> scratch_;
  std::optional<Helper> helper_;
};

// Which of our kernels runs `format` on this CPU, for a benchmark's label.
std::string kernel_name(WeightFormat format) {
  return format == WeightFormat::int8 ? std::string(int8_dot_name(int8_dot_for(selected_isa())))
                                      : std::string(isa_name(selected_isa()));
}

// cold: cycle through cold_copies() packed copies of the weights, else reuse one.
void BM_ditmk(benchmark::State& state, WeightFormat format, bool cold) {
  const int64_t k = state.range(0), n = state.range(1), threads = state.range(2);
  std::vector<float> w_src = random_values(std::size_t(n * k), 1, 0.03f);
  const TensorView view{DType::F32, {n, k}, reinterpret_cast<const std::byte*>(w_src.data())};
  std::vector<PackedWeights> copies;
  copies.push_back(PackedWeights::pack(view, WeightLayout::out_in, format));
  const int64_t count = cold ? cold_copies(copies[0].bytes()) : 1;
  while (int64_t(copies.size()) < count) copies.push_back(PackedWeights::pack(view, WeightLayout::out_in, format));
  const std::vector<float> x = random_values(std::size_t(kRows * k), 2, 1.0f);
  std::vector<float> y(std::size_t(kRows * n));
  OurThreads on(threads, copies[0], kRows);
  std::size_t next = 0;
  for (auto _ : state) {
    const PackedWeights& w = copies[next];
    next = (next + 1) % copies.size();
    GemmArgs a;
    a.x = x.data(), a.x_stride = k, a.m = kRows, a.weights = &w, a.y = y.data(), a.y_stride = n, a.n_end = n;
    on.gemm(a);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, product_flops(kRows, k, n), double(copies[0].bytes()));
  state.SetLabel(kernel_name(format) + (cold ? ", " + std::to_string(copies.size()) + " copies" : ""));
}

// One DiT block's GEMMs at a step's rows (N1.5: 16 actions, the state token and 32 future tokens),
// in the engine's order: q, k, v, attention out, FF up, FF down. The block's weights are cycled
// through copies that exceed the last-level cache, so this is a step's mix of per-call costs
// (rounding x, the 49-row tail tiles, epilogues) and weights streamed from DRAM: the GEMM side of
// the engine without its attention, norms and barriers, cheap enough to A/B kernel changes on.
constexpr int64_t kStepRows = 49;
constexpr std::pair<int64_t, int64_t> kBlockShapes[] = {{1536, 1536}, {1536, 1536}, {1536, 1536},
                                                       {1536, 1536}, {1536, 6144}, {6144, 1536}};

void BM_ditmk_block(benchmark::State& state, WeightFormat format) {
  const int64_t threads = state.range(0);
  std::vector<std::vector<float>> sources;
  std::vector<PackedWeights> weights;  // the block's matrices, copy after copy
  double flops = 0, bytes = 0;
  const auto pack = [&](std::size_t i) {
    const auto [k, n] = kBlockShapes[i];
    const TensorView view{DType::F32, {n, k}, reinterpret_cast<const std::byte*>(sources[i].data())};
    weights.push_back(PackedWeights::pack(view, WeightLayout::out_in, format));
  };
  for (auto [k, n] : kBlockShapes) {
    sources.push_back(random_values(std::size_t(n * k), uint64_t(sources.size()) + 3, 0.03f));
    pack(sources.size() - 1);
    flops += product_flops(kStepRows, k, n), bytes += double(weights.back().bytes());
  }
  const int64_t copies = cold_copies(std::size_t(bytes));
  for (int64_t c = 1; c < copies; ++c)
    for (std::size_t i = 0; i < sources.size(); ++i) pack(i);
  constexpr int64_t kWidest = 6144;
  const std::vector<float> x = random_values(std::size_t(kStepRows * kWidest), 2, 1.0f);
  std::vector<float> y(std::size_t(kStepRows * kWidest));
  OurThreads on(threads, weights.back(), kStepRows);
  std::size_t next = 0;
  for (auto _ : state) {
    for (auto [k, n] : kBlockShapes) {
      const PackedWeights& w = weights[next];
      next = (next + 1) % weights.size();
      GemmArgs a;
      a.x = x.data(), a.x_stride = k, a.m = kStepRows, a.weights = &w, a.y = y.data(), a.y_stride = n, a.n_end = n;
      on.gemm(a);
    }
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, flops, bytes);
  state.SetLabel(kernel_name(format) + ", " + std::to_string(copies) + " copies");
}

// The precompute's products at its VL-token rows with weights streamed from DRAM: x rounded once
// for all rows and threads (timed), then gemm_rows on each thread's columns, as the engine runs them.
constexpr int64_t kVlRows = 300;

void BM_ditmk_rows(benchmark::State& state, WeightFormat format) {
  const int64_t k = state.range(0), n = state.range(1), threads = state.range(2);
  std::vector<float> w_src = random_values(std::size_t(n * k), 1, 0.03f);
  const TensorView view{DType::F32, {n, k}, reinterpret_cast<const std::byte*>(w_src.data())};
  std::vector<PackedWeights> copies;
  copies.push_back(PackedWeights::pack(view, WeightLayout::out_in, format));
  while (int64_t(copies.size()) < cold_copies(copies[0].bytes()))
    copies.push_back(PackedWeights::pack(view, WeightLayout::out_in, format));
  const std::vector<float> x = random_values(std::size_t(kVlRows * k), 2, 1.0f);
  std::vector<float> y(std::size_t(kVlRows * n));
  Tensor prepared(DType::U8, Shape{int64_t(gemm_scratch_bytes(copies[0], kVlRows)) + 64});
  OurThreads on(threads, copies[0], kGemmMaxRows);
  std::size_t next = 0;
  for (auto _ : state) {
    GemmArgs a;
    a.x = x.data(), a.x_stride = k, a.m = kVlRows, a.weights = &copies[next], a.y = y.data(), a.y_stride = n, a.n_end = n;
    a.scratch = prepared.bytes(), a.scratch_bytes = prepared.nbytes();
    gemm_prepare_x(a, selected_isa());
    a.x_prepared = true;
    on.rows(a);
    next = (next + 1) % copies.size();
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, product_flops(kVlRows, k, n), double(copies[0].bytes()));
  state.SetLabel(kernel_name(format) + ", " + std::to_string(copies.size()) + " copies");
}

// The operand types of a oneDNN matmul, and the spread of the random f32 values its operands are
// converted from (int8 operands need values that do not all round to zero).
struct OnednnTypes {
  dnnl::memory::data_type src, weights, dst;
  float src_scale, src_mean, weight_scale;
};
const OnednnTypes kOnednnBf16{dnnl::memory::data_type::bf16, dnnl::memory::data_type::bf16, dnnl::memory::data_type::f32,
                              1.0f, 0.0f, 0.03f};
const OnednnTypes kOnednnInt8{dnnl::memory::data_type::u8, dnnl::memory::data_type::s8, dnnl::memory::data_type::s32,
                              40.0f, 128.0f, 40.0f};

void BM_onednn(benchmark::State& state, OnednnTypes types, bool cold, int64_t rows = kRows) {
  const int64_t k = state.range(0), n = state.range(1), threads = state.range(2);
  omp_set_num_threads(int(threads));
  using dt = dnnl::memory::data_type;
  using tag = dnnl::memory::format_tag;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const dnnl::memory::desc src_md({rows, k}, types.src, tag::ab);
  const dnnl::memory::desc any_weights_md({k, n}, types.weights, tag::any);
  const dnnl::memory::desc dst_md({rows, n}, types.dst, tag::ab);
  dnnl::matmul::primitive_desc pd;
  try {
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(src_md, any_weights_md, dst_md), engine);
  } catch (const dnnl::error& e) {
    // e.g. u8 x s8 on a CPU without VNNI in this oneDNN build: a row of the table, not the end of it
    state.SkipWithError(("oneDNN has no matmul for these types on this CPU: " + std::string(e.what())).c_str());
    return;
  }
  const dnnl::matmul matmul(pd);

  std::vector<float> w_src = random_values(std::size_t(k * n), 1, types.weight_scale);
  const dnnl::memory::desc plain_f32_md({k, n}, dt::f32, tag::ab);
  dnnl::memory plain(plain_f32_md, engine, w_src.data());
  std::vector<dnnl::memory> copies;  // packed once each, as at load time
  const int64_t count = cold ? cold_copies(pd.weights_desc().get_size()) : 1;
  for (int64_t i = 0; i < count; ++i) {
    copies.emplace_back(pd.weights_desc(), engine);
    dnnl::reorder(plain, copies.back()).execute(stream, plain, copies.back());
  }
  std::vector<float> x_src = random_values(std::size_t(rows * k), 2, types.src_scale);
  for (float& v : x_src) v += types.src_mean;
  dnnl::memory x_f32({{rows, k}, dt::f32, tag::ab}, engine, x_src.data());
  dnnl::memory src(src_md, engine);
  dnnl::reorder(x_f32, src).execute(stream, x_f32, src);
  dnnl::memory dst(dst_md, engine);
  stream.wait();
  std::size_t next = 0;
  for (auto _ : state) {
    matmul.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, copies[next]}, {DNNL_ARG_DST, dst}});
    stream.wait();
    next = (next + 1) % copies.size();
  }
  set_counters(state, product_flops(rows, k, n), double(pd.weights_desc().get_size()));
}

void shapes(benchmark::internal::Benchmark* b) {
  for (int64_t threads : {1, 2})
    for (int64_t k : kDims)
      for (int64_t n : kDims) b->Args({k, n, threads});
  b->ArgNames({"K", "N", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK_CAPTURE(BM_ditmk, bf16, WeightFormat::bf16, false)->Apply(shapes);
BENCHMARK_CAPTURE(BM_ditmk, bfp8_b, WeightFormat::bfp8_b, false)->Apply(shapes);
BENCHMARK_CAPTURE(BM_ditmk, fp32, WeightFormat::fp32, false)->Apply(shapes);
BENCHMARK_CAPTURE(BM_ditmk, int8, WeightFormat::int8, false)->Apply(shapes);
BENCHMARK_CAPTURE(BM_onednn, bf16, kOnednnBf16, false)->Apply(shapes);
BENCHMARK_CAPTURE(BM_onednn, int8, kOnednnInt8, false)->Apply(shapes);

// The step's shapes (attention projections, FF up and down) with weights streamed from DRAM.
void cold_shapes(benchmark::internal::Benchmark* b) {
  for (int64_t threads : {1, 2})
    for (auto [k, n] : {std::pair<int64_t, int64_t>{1536, 1536}, {1536, 6144}, {6144, 1536}}) b->Args({k, n, threads});
  b->ArgNames({"K", "N", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK_CAPTURE(BM_ditmk, bf16_cold, WeightFormat::bf16, true)->Apply(cold_shapes);
BENCHMARK_CAPTURE(BM_ditmk, int8_cold, WeightFormat::int8, true)->Apply(cold_shapes);
BENCHMARK_CAPTURE(BM_onednn, bf16_cold, kOnednnBf16, true)->Apply(cold_shapes);
BENCHMARK_CAPTURE(BM_onednn, int8_cold, kOnednnInt8, true)->Apply(cold_shapes);

// The precompute's shapes (N1.5): the VL stack's q / k / v / out, FF up and down, the cross K / V.
void vl_shapes(benchmark::internal::Benchmark* b) {
  for (int64_t threads : {1, 2})
    for (auto [k, n] : {std::pair<int64_t, int64_t>{2048, 2048}, {2048, 8192}, {8192, 2048}, {2048, 1536}})
      b->Args({k, n, threads});
  b->ArgNames({"K", "N", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK_CAPTURE(BM_ditmk_rows, bf16, WeightFormat::bf16)->Apply(vl_shapes);
BENCHMARK_CAPTURE(BM_ditmk_rows, int8, WeightFormat::int8)->Apply(vl_shapes);
BENCHMARK_CAPTURE(BM_onednn, bf16_rows, kOnednnBf16, true, kVlRows)->Apply(vl_shapes);
BENCHMARK_CAPTURE(BM_onednn, int8_rows, kOnednnInt8, true, kVlRows)->Apply(vl_shapes);

void block_threads(benchmark::internal::Benchmark* b) {
  b->Arg(1)->Arg(2)->ArgNames({"threads"})->UseRealTime()->Unit(benchmark::kMillisecond);
}
BENCHMARK_CAPTURE(BM_ditmk_block, bf16, WeightFormat::bf16)->Apply(block_threads);
BENCHMARK_CAPTURE(BM_ditmk_block, int8, WeightFormat::int8)->Apply(block_threads);

}  // namespace

BENCHMARK_MAIN();
