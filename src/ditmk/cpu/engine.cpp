#include "ditmk/cpu/engine.hpp"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "ditmk/core/error.hpp"
#include "ditmk/core/parallel.hpp"
#include "ditmk/cpu/kernels/attention.hpp"
#include "ditmk/cpu/kernels/gemm.hpp"
#include "ditmk/cpu/kernels/layer_norm.hpp"

namespace ditmk::cpu {

namespace {

// An aligned float buffer sized once.
struct Buffer {
  std::vector<float> data;
  float* get() { return data.data(); }
  const float* get() const { return data.data(); }
};

struct Range {
  int64_t begin, end;
  bool empty() const { return begin >= end; }
};

Range share(int64_t n, int thread, int threads) { return {n * thread / threads, n * (thread + 1) / threads}; }

Activation activation_of(model::Act act) {
  switch (act) {
    case model::Act::none: return Activation::none;
    case model::Act::relu: return Activation::relu;
    case model::Act::silu: return Activation::silu;
    case model::Act::gelu_tanh: return Activation::gelu_tanh;
  }
  return Activation::none;
}

}  // namespace

// x of a GEMM prepared (rounded to bf16 or quantized to int8) once for all threads: each thread
// prepares the rows or columns it owns, and a barrier separates that from the GEMM that reads it.
struct PreparedX {
  std::vector<std::byte> bytes;
  void reserve(std::size_t n) {
    if (bytes.size() < n + 64) bytes.resize(n + 64);
  }
  std::byte* data() { return bytes.data() + (64 - reinterpret_cast<uintptr_t>(bytes.data()) % 64) % 64; }
  std::size_t size() const { return bytes.size() - 64; }
};

// Samples [first, first + count) of a batch, all of one embodiment: its layers run once over their rows.
struct Engine::EmbodimentRun {
  int first = 0, count = 0;
  const PackedEmbodiment* embodiment = nullptr;
};

// Activations of one denoise of `batch` samples (rows of sample i follow those of sample i - 1), sized
// at load for one sample and grown, outside the program, when a call brings a larger batch;
// per-thread scratch for the kernels.
struct Engine::Workspace {
  int M, D, H, A, inner, ff, out, hidden, max_head_dim;
  int batch = 0;
  Buffer h, n, qkv, attn, ffn, y, dec, enc_a, enc_e, x;
  std::vector<Buffer> velocity;
  std::vector<float> row_strength;  // [batch * H]: this call's per-row Euler strength (1 without real-time chunking)
  std::vector<std::vector<std::byte>> gemm_scratch;  // per thread, 64-byte aligned inside
  // Two so that one GEMM's input can be prepared while another GEMM still reads the other: normed
  // for the LayerNorm outputs (and the precompute's inputs), mixed for the attention and FF outputs.
  PreparedX normed, mixed;
  std::vector<Buffer> attention_scratch;             // per thread
  std::vector<Buffer> cross_keys;                    // per sample and block: its hoisted K laid out for attention
  std::vector<const PackedEmbodiment*> embodiment;   // per sample
  std::vector<EmbodimentRun> runs;                   // consecutive samples of one embodiment
  std::size_t gemm_scratch_bytes = 0;

  std::byte* scratch_of(int t) {
    auto& s = gemm_scratch[t];
    const auto base = reinterpret_cast<uintptr_t>(s.data());
    return s.data() + ((64 - base % 64) % 64);
  }
  void reserve_keys(int64_t keys, int threads) {
    const std::size_t need = attention_scratch_floats(keys, max_head_dim);
    attention_scratch.resize(threads);
    for (auto& b : attention_scratch)
      if (b.data.size() < need) b.data.assign(need, 0.0f);
  }
  // Room for b samples' activations (buffers only grow).
  void reserve_batch(int b, int steps, const PackedModel& model) {
    if (b <= batch) return;
    batch = b;
    auto size = [](Buffer& buffer, std::size_t n) { buffer.data.assign(n, 0.0f); };
    const std::size_t rows = std::size_t(b) * M, actions = std::size_t(b) * H;
    size(h, rows * D), size(n, rows * D), size(qkv, rows * 3 * inner), size(attn, rows * inner), size(ffn, rows * ff);
    size(y, actions * out), size(dec, actions * hidden), size(enc_a, actions * D), size(enc_e, actions * D);
    size(x, actions * A);
    velocity.resize(std::size_t(steps));
    for (auto& v : velocity) size(v, actions * A);
    row_strength.assign(actions, 1.0f);
    const auto m = int64_t(rows);
    for (const auto& blk : model.blocks) {
      normed.reserve(std::max(cpu::gemm_scratch_bytes(blk.qkv.weights, m), cpu::gemm_scratch_bytes(blk.ff1.weights, m)));
      mixed.reserve(std::max(cpu::gemm_scratch_bytes(blk.out.weights, m), cpu::gemm_scratch_bytes(blk.ff2.weights, m)));
    }
  }
};

// The precompute's ops on the fast kernels: each op is one dispatch of the pool.
struct Engine::FastOps {
  Engine& engine;

  // Rows [r.begin, r.end) of x prepared for l's weights into `into`.
  void prepare_rows(const PackedLinear& l, const float* x, int64_t x_stride, Range r, PreparedX& into) const {
    if (r.empty() || l.weights.format() == WeightFormat::fp32) return;
    const std::size_t row_bytes = gemm_prepared_row_bytes(l.weights, engine.isa_);
    GemmArgs a;
    a.x = x + r.begin * x_stride, a.x_stride = x_stride, a.m = r.end - r.begin, a.weights = &l.weights;
    a.scratch = into.data() + r.begin * row_bytes, a.scratch_bytes = into.size() - r.begin * row_bytes;
    gemm_prepare_x(a, engine.isa_);
  }
  // Columns [k.begin, k.end) of every row of x prepared for l's weights into `into`.
  void prepare_columns(const PackedLinear& l, const float* x, int64_t x_stride, int64_t rows, Range k, PreparedX& into) const {
    if (k.empty() || l.weights.format() == WeightFormat::fp32) return;
    GemmArgs a;
    a.x = x, a.x_stride = x_stride, a.m = rows, a.weights = &l.weights, a.scratch = into.data(), a.scratch_bytes = into.size();
    gemm_prepare_x_columns(a, engine.isa_, k.begin, k.end);
  }

  // The columns of y = x W: each thread's share of the panels in chunks, then help with the others'
  // shares (WorkerPool::for_chunks). x as given (every thread then rounds it itself) or already
  // prepared for all threads in `prepared`; any number of rows (gemm_rows walks the VL tokens in
  // L2-sized column blocks, and a chunk is whole such blocks). after_chunk(columns) runs on each
  // chunk's columns once they are written, on the thread that wrote them.
  template <typename AfterChunk = decltype([](Range) {})>
  void gemm_columns(int t, const PackedLinear& l, const float* x, int64_t x_stride, int64_t rows, float* y,
                    int64_t y_stride, Activation act, OutputMode mode, const float* bias,
                    PreparedX* prepared = nullptr, AfterChunk after_chunk = {}) const {
    GemmArgs a;
    a.x = x, a.x_stride = x_stride, a.m = rows, a.weights = &l.weights, a.bias = bias, a.activation = act, a.output = mode;
    a.y = y, a.y_stride = y_stride;
    a.x_prepared = prepared != nullptr;
    if (a.x_prepared) a.scratch = prepared->data(), a.scratch_bytes = prepared->size();
    else a.scratch = engine.ws_->scratch_of(t), a.scratch_bytes = engine.ws_->gemm_scratch_bytes;
    // Past 64 rows whole L2-sized column blocks, but at least 4 chunks per thread, so that the threads
    // stay balanced when a GEMM has few blocks (a batch's FF down: 48 panels, blocks of ~16).
    const int64_t panels = l.weights.panels(), threads = engine.pool_.size();
    const int64_t granule =
        rows > kGemmMaxRows
            ? std::clamp<int64_t>(panels / (4 * threads), 1, gemm_column_block_panels(l.weights, engine.isa_, rows))
            : 1;
    engine.pool_.for_chunks(t, panels, granule, [&](int64_t p0, int64_t p1) {
      a.n_begin = p0 * kPanelWidth, a.n_end = std::min(p1 * kPanelWidth, l.n());
      gemm_rows(a, engine.isa_);
      after_chunk(Range{a.n_begin, a.n_end});
    });
  }

  Matrix<float> linear_packed(const Matrix<float>& x, const PackedLinear& l, model::Act act) const {
    require(x.cols == l.k(), "cpu engine: linear input width {} != {}", x.cols, l.k());
    Matrix<float> y(x.rows, int(l.n()));
    PreparedX& prepared = engine.ws_->normed;
    prepared.reserve(gemm_scratch_bytes(l.weights, x.rows));
    auto program = [&](int t) {
      prepare_rows(l, x.data.data(), x.cols, share(x.rows, t, engine.pool_.size()), prepared);
      engine.pool_.barrier();
      gemm_columns(t, l, x.data.data(), x.cols, x.rows, y.data.data(), y.cols, activation_of(act), OutputMode::store,
                   l.bias.data(), &prepared);
    };
    engine.pool_.run(program);
    return y;
  }
  Matrix<float> linear(const Matrix<float>& x, const model::Linear& l, model::Act act) const {
    return linear_packed(x, engine.model_.packed(l), act);
  }
  Matrix<float> linear_kn(const Matrix<float>& x, const model::Linear& l, model::Act act) const {
    return linear_packed(x, engine.model_.packed(l), act);
  }
  Matrix<float> layernorm(const Matrix<float>& x, const TensorView* gamma, const TensorView* beta, double eps) const {
    Matrix<float> y(x.rows, x.cols);
    LayerNormArgs a;
    a.x = x.data.data(), a.x_stride = x.cols, a.y = y.data.data(), a.y_stride = y.cols;
    a.rows = x.rows, a.cols = x.cols, a.eps = float(eps);
    if (gamma) a.gamma = engine.model_.vector(*gamma), a.beta = engine.model_.vector(*beta);
    auto program = [&](int t) {  // rows are independent: each thread normalises its share
      const Range rows = share(x.rows, t, engine.pool_.size());
      if (rows.empty()) return;
      LayerNormArgs part = a;
      part.x = a.x + rows.begin * a.x_stride, part.y = a.y + rows.begin * a.y_stride, part.rows = rows.end - rows.begin;
      layer_norm(part);
    };
    engine.pool_.run(program);
    return y;
  }
  Matrix<float> attention(const Matrix<float>& q, const Matrix<float>& k, const Matrix<float>& v,
                          const std::vector<uint8_t>* key_mask, int heads, int head_dim) const {
    Matrix<float> out(q.rows, heads * head_dim);
    engine.ws_->reserve_keys(k.rows, engine.pool_.size());
    auto program = [&](int t) {
      const Range hs = share(heads, t, engine.pool_.size());
      if (hs.empty()) return;
      AttentionArgs a;
      a.q = q.data.data(), a.q_stride = q.cols, a.k = k.data.data(), a.k_stride = k.cols;
      a.v = v.data.data(), a.v_stride = v.cols, a.out = out.data.data(), a.out_stride = out.cols;
      a.m = q.rows, a.keys = k.rows, a.heads = heads, a.head_dim = head_dim;
      a.scale = float(1.0 / std::sqrt(double(head_dim)));
      a.key_mask = key_mask ? key_mask->data() : nullptr;
      a.h_begin = hs.begin, a.h_end = hs.end;
      auto& scratch = engine.ws_->attention_scratch[t];
      a.scratch = scratch.get(), a.scratch_floats = scratch.data.size();
      cpu::attention(a, engine.isa_);
    };
    engine.pool_.run(program);
    return out;
  }
  void add_inplace(Matrix<float>& a, const Matrix<float>& b) const {
    auto program = [&](int t) {
      const Range r = share(int64_t(a.data.size()), t, engine.pool_.size());
      for (int64_t i = r.begin; i < r.end; ++i) a.data[std::size_t(i)] += b.data[std::size_t(i)];
    };
    engine.pool_.run(program);
  }
};

Engine::Engine(const model::Weights& weights, int embodiment, const EngineOptions& options)
    : weights_(weights),
      isa_(selected_isa()),
      pool_(options.threads > 0 ? options.threads : hardware_threads()) {
  // The per-call precompute builds activations of tens of MB; glibc would map and unmap each one and
  // pay page faults on every call. Keeping freed memory in the heap makes later calls reuse it.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  if (!options.isa.empty()) {
    const Isa cap = parse_isa(options.isa);
    if (cap < isa_) isa_ = cap;
  }
  PackedAtOpen packed = open_packed(weights, embodiment, options.format, pool_.size(), options.weight_cache);
  model_ = std::move(packed.model);
  weight_cache_use_ = packed.use;
  embodiments_.emplace(embodiment, std::move(packed.embodiment));
  use_embodiment(embodiment);
  const model::ModelConfig& c = model_.config;
  ws_ = std::make_unique<Workspace>();
  Workspace& ws = *ws_;
  ws.M = c.m_rows(), ws.D = c.dims.width, ws.H = c.horizon, ws.A = c.action_dim;
  ws.inner = c.dims.n_heads * c.dims.head_dim, ws.ff = c.dims.ff_dim, ws.out = c.dims.out_dim, ws.hidden = c.dims.hidden;
  ws.max_head_dim = std::max(c.dims.head_dim, c.dims.vl_head_dim);
  require(ws.M <= kGemmMaxRows, "cpu engine: {} token rows exceed the GEMM's {}", ws.M, kGemmMaxRows);
  std::size_t scratch = 0;
  auto need = [&](const PackedLinear& l) { scratch = std::max(scratch, cpu::gemm_scratch_bytes(l.weights, kGemmMaxRows)); };
  for (const auto& b : model_.blocks) need(b.qkv), need(b.out), need(b.ff1), need(b.ff2);
  need(model_.proj_out_2);
  // every embodiment's layers have the shapes of the first one's
  for (const PackedLinear* l : {&embodiment_->enc1, &embodiment_->enc2_action, &embodiment_->enc3, &embodiment_->dec1, &embodiment_->dec2})
    need(*l);
  for (const auto& [src, l] : model_.precompute) need(l);
  ws.gemm_scratch_bytes = scratch;
  ws.gemm_scratch.assign(pool_.size(), std::vector<std::byte>(scratch + 64));
  ws.reserve_batch(1, c.n_steps, model_);
  ws.reserve_keys(ws.M, pool_.size());
  choose_isa(options);
}

void Engine::choose_isa(const EngineOptions& options) {
  // --isa or DITMK_ISA (which lowers selected_isa()) force the path; otherwise the fastest measured.
  const bool forced = !options.isa.empty() || selected_isa() != detected_isa();
  if (forced || !options.calibrate) {
    isa_choice_ = {.isa = isa_, .source = forced ? "forced" : "ladder"};
    return;
  }
  // The head's own products at a step's rows: one DiT block's four GEMMs on the engine's threads.
  // Their inputs are made on the first timing only: a cached choice times nothing.
  std::vector<std::pair<const PackedLinear*, Matrix<float>>> products;
  const auto time_once = [&](Isa isa) {
    if (products.empty()) {
      const PackedBlock& block = model_.blocks.front();
      for (const PackedLinear* l : {&block.qkv, &block.out, &block.ff1, &block.ff2}) {
        Matrix<float> x(ws_->M, int(l->k()));
        for (std::size_t i = 0; i < x.data.size(); ++i) x.data[i] = 0.05f * float(int(i % 13) - 6);
        products.emplace_back(l, std::move(x));
      }
    }
    const Isa kept = isa_;
    isa_ = isa;
    const FastOps ops{*this};
    const auto start = std::chrono::steady_clock::now();
    for (const auto& [l, x] : products) ops.linear_packed(x, *l, model::Act::none);
    isa_ = kept;
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  const std::vector<Isa> candidates =
      options.calibration_candidates.empty() ? isa_candidates(isa_) : options.calibration_candidates;
  for (Isa isa : candidates) require(isa_supported(isa), "cpu engine: this CPU cannot run {}", isa_name(isa));
  isa_choice_ = calibrate_isa(options.format, candidates, cpu_signature(pool_.size()),
                              (std::filesystem::path(weight_cache_dir(options.weight_cache)) / "calibration").string(),
                              time_once);
  isa_ = isa_choice_.isa;
}

Engine::~Engine() = default;

const PackedEmbodiment& Engine::packed_embodiment_of(int id) {
  auto it = embodiments_.find(id);
  if (it == embodiments_.end()) it = embodiments_.emplace(id, pack_embodiment(weights_, id, model_, pool_.size())).first;
  return it->second;
}

void Engine::use_embodiment(int id) { embodiment_ = &packed_embodiment_of(id); }

model::CallInputs<float> Engine::precompute(const model::Observation& obs) {
  const FastOps ops{*this};
  return model::precompute_call<float>(ops, weights_, embodiment_->source, obs);
}

void Engine::precompute_vision_language(const model::Observation& obs, model::CallInputs<float>& into) {
  const FastOps ops{*this};
  model::vision_language_inputs<float>(ops, weights_, obs, into);
}

Matrix<float> Engine::state_token(const model::Observation& obs) {
  const FastOps ops{*this};
  return model::state_token<float>(ops, weights_, embodiment_->source, obs);
}

void Engine::run_program(int t, std::span<const BatchSample> batch) {
  Workspace& ws = *ws_;
  const model::ModelConfig& c = model_.config;
  const FastOps ops{*this};
  const int T = pool_.size();
  const int B = int(batch.size());
  const int M = ws.M, D = ws.D, H = ws.H, A = ws.A, row0 = c.action_row0();
  const int64_t all_rows = int64_t(B) * M, action_rows = int64_t(B) * H;
  const int heads = c.dims.n_heads;
  const float dt = float(model::euler_dt(c));
  auto gemm = [&](const PackedLinear& l, const float* x, int64_t xs, int64_t rows, float* y, int64_t ys, Activation act,
                  OutputMode mode, const float* bias, PreparedX* prepared = nullptr) {
    ops.gemm_columns(t, l, x, xs, rows, y, ys, act, mode, bias, prepared);
  };
  auto layer_norm_rows = [&](const float* x, float* y, Range r, float eps, const float* scale, const float* shift) {
    if (r.empty()) return;
    LayerNormArgs a;
    a.x = x + r.begin * D, a.x_stride = D, a.y = y + r.begin * D, a.y_stride = D;
    a.rows = r.end - r.begin, a.cols = D, a.eps = eps, a.scale = scale, a.shift = shift;
    layer_norm(a);
  };
  // The (sample, head) pairs are shared among the threads; the heads of sample i this thread runs.
  const Range pairs = share(int64_t(B) * heads, t, T);
  auto heads_of = [&](int i) {
    return Range{std::max<int64_t>(pairs.begin - int64_t(i) * heads, 0), std::min<int64_t>(pairs.end - int64_t(i) * heads, heads)};
  };
  auto attention_args = [&](int i, const float* q, int64_t qs, const float* k, const float* v, int64_t kvs, int64_t keys,
                            const uint8_t* mask) {
    const Range hs = heads_of(i);
    AttentionArgs a;
    a.q = q, a.q_stride = qs, a.k = k, a.k_stride = kvs, a.v = v, a.v_stride = kvs;
    a.out = ws.attn.get() + std::size_t(i) * M * ws.inner, a.out_stride = ws.inner, a.m = M, a.keys = keys;
    a.heads = heads, a.head_dim = c.dims.head_dim, a.scale = float(1.0 / std::sqrt(double(c.dims.head_dim)));
    a.key_mask = mask, a.h_begin = hs.begin, a.h_end = std::max(hs.begin, hs.end);
    a.scratch = ws.attention_scratch[t].get(), a.scratch_floats = ws.attention_scratch[t].data.size();
    return a;
  };
  auto cross_args = [&](int i, int b) {
    const model::CallInputs<float>& in = *batch[std::size_t(i)].inputs;
    return attention_args(i, ws.qkv.get() + std::size_t(i) * M * model_.blocks[b].qkv.n(), model_.blocks[b].qkv.n(),
                          in.cross_k[b].data.data(), in.cross_v[b].data.data(), ws.inner, in.cross_k[b].rows,
                          in.key_mask[b].data());
  };
  auto prepared_keys = [&](int i, int b) { return &ws.cross_keys[std::size_t(i) * c.n_blocks + b]; };

  // The hoisted cross K of each sample is laid out for attention once (each thread its heads) and
  // read by all 4 steps, instead of being transposed again by every step.
  for (int b = 0; b < c.n_blocks; ++b) {
    if (!model_.blocks[b].cross) continue;
    for (int i = 0; i < B; ++i) {
      const AttentionArgs a = cross_args(i, b);
      if (a.h_begin < a.h_end) attention_prepare_keys(a, prepared_keys(i, b)->get(), prepared_keys(i, b)->data.size());
    }
  }
  pool_.barrier();

  for (int s = 0; s < c.n_steps; ++s) {
    // action encoder: W3(swish(W2 [W1 x; tau])) + position rows, written into the action rows of h
    for (const EmbodimentRun& run : ws.runs)
      gemm(run.embodiment->enc1, ws.x.get() + std::size_t(run.first) * H * A, A, int64_t(run.count) * H,
           ws.enc_a.get() + std::size_t(run.first) * H * D, D, Activation::none, OutputMode::store,
           run.embodiment->enc1.bias.data());
    const Range rows = share(all_rows, t, T);
    for (int64_t row = rows.begin; row < rows.end; ++row) {
      const int64_t r = row % M;
      const float* src = r == 0 ? batch[std::size_t(row / M)].inputs->state_token.data.data()
                         : r < row0 ? model_.future_tokens.data() + (r - 1) * D
                                    : model_.position_rows.data() + (r - row0) * D;
      std::copy(src, src + D, ws.h.get() + row * D);
    }
    pool_.barrier();
    for (const EmbodimentRun& run : ws.runs)
      gemm(run.embodiment->enc2_action, ws.enc_a.get() + std::size_t(run.first) * H * D, D, int64_t(run.count) * H,
           ws.enc_e.get() + std::size_t(run.first) * H * D, D, Activation::silu, OutputMode::store,
           run.embodiment->tau_bias.data() + std::size_t(s) * D);
    pool_.barrier();
    // the action rows of the samples are not adjacent in h (each sample's state and future rows lie
    // between), so this one runs per sample
    for (int i = 0; i < B; ++i) {
      const PackedEmbodiment& e = *ws.embodiment[std::size_t(i)];
      gemm(e.enc3, ws.enc_e.get() + std::size_t(i) * H * D, D, H, ws.h.get() + (std::size_t(i) * M + row0) * D, D,
           Activation::none, OutputMode::accumulate, e.enc3.bias.data());
    }
    pool_.barrier();

    for (int b = 0; b < c.n_blocks; ++b) {
      const PackedBlock& blk = model_.blocks[b];
      const float* adaln = model_.adaln.data() + (std::size_t(s) * c.n_blocks + b) * 2 * D;
      // Each thread prepares the GEMM input rows it normalised, while they are in its cache.
      layer_norm_rows(ws.h.get(), ws.n.get(), rows, 1e-5f, adaln, adaln + D);
      ops.prepare_rows(blk.qkv, ws.n.get(), D, rows, ws.normed);
      pool_.barrier();
      const int64_t qkv_cols = blk.qkv.n();
      gemm(blk.qkv, ws.n.get(), D, all_rows, ws.qkv.get(), qkv_cols, Activation::none, OutputMode::store,
           blk.qkv.bias.data(), &ws.normed);
      pool_.barrier();
      for (int i = 0; i < B; ++i) {
        const float* q = ws.qkv.get() + std::size_t(i) * M * qkv_cols;
        AttentionArgs a = blk.cross ? cross_args(i, b)
                                    : attention_args(i, q, qkv_cols, q + ws.inner, q + 2 * ws.inner, qkv_cols, M, nullptr);
        if (blk.cross) a.prepared_keys = prepared_keys(i, b)->get();
        if (a.h_begin < a.h_end) cpu::attention(a, isa_);
      }
      pool_.barrier();
      ops.prepare_rows(blk.out, ws.attn.get(), ws.inner, rows, ws.mixed);
      pool_.barrier();
      gemm(blk.out, ws.attn.get(), ws.inner, all_rows, ws.h.get(), D, Activation::none, OutputMode::accumulate,
           blk.out.bias.data(), &ws.mixed);
      pool_.barrier();
      layer_norm_rows(ws.h.get(), ws.n.get(), rows, float(c.ff_norm_eps), nullptr, nullptr);
      ops.prepare_rows(blk.ff1, ws.n.get(), D, rows, ws.normed);
      pool_.barrier();
      // Each chunk's FF hidden columns are prepared for FF down by the thread that produced them,
      // while they are in its cache (whole 32-column blocks).
      ops.gemm_columns(t, blk.ff1, ws.n.get(), D, all_rows, ws.ffn.get(), ws.ff, Activation::gelu_tanh, OutputMode::store,
                       blk.ff1.bias.data(), &ws.normed,
                       [&](Range cols) { ops.prepare_columns(blk.ff2, ws.ffn.get(), ws.ff, all_rows, cols, ws.mixed); });
      pool_.barrier();
      gemm(blk.ff2, ws.ffn.get(), ws.ff, all_rows, ws.h.get(), D, Activation::none, OutputMode::accumulate,
           blk.ff2.bias.data(), &ws.mixed);
      pool_.barrier();
    }

    // output head on the action rows only (gathered from each sample into n), action decoder, Euler update
    const float* shift_scale = model_.out_shift_scale.data() + std::size_t(s) * 2 * D;
    const Range out_rows = share(action_rows, t, T);
    for (int i = 0; i < B; ++i) {
      const int64_t first = int64_t(i) * H;
      const Range r{std::max(out_rows.begin, first) - first, std::min(out_rows.end, first + H) - first};
      layer_norm_rows(ws.h.get() + (std::size_t(i) * M + row0) * D, ws.n.get() + first * D, r, 1e-6f, shift_scale + D,
                      shift_scale);
    }
    pool_.barrier();
    gemm(model_.proj_out_2, ws.n.get(), D, action_rows, ws.y.get(), ws.out, Activation::none, OutputMode::store,
         model_.proj_out_2.bias.data());
    pool_.barrier();
    for (const EmbodimentRun& run : ws.runs)
      gemm(run.embodiment->dec1, ws.y.get() + std::size_t(run.first) * H * ws.out, ws.out, int64_t(run.count) * H,
           ws.dec.get() + std::size_t(run.first) * H * ws.hidden, ws.hidden, Activation::relu, OutputMode::store,
           run.embodiment->dec1.bias.data());
    pool_.barrier();
    float* v = ws.velocity[s].get();
    for (const EmbodimentRun& run : ws.runs)
      gemm(run.embodiment->dec2, ws.dec.get() + std::size_t(run.first) * H * ws.hidden, ws.hidden, int64_t(run.count) * H,
           v + std::size_t(run.first) * H * A, A, Activation::none, OutputMode::store, run.embodiment->dec2.bias.data());
    pool_.barrier();
    const Range xs = share(action_rows * A, t, T);
    for (int64_t i = xs.begin; i < xs.end; ++i) ws.x.get()[i] += dt * v[i] * ws.row_strength[std::size_t(i / A)];
    pool_.barrier();
  }
}

std::vector<model::DenoiseResult> Engine::denoise_batch(std::span<const BatchSample> batch) {
  Workspace& ws = *ws_;
  const model::ModelConfig& c = model_.config;
  const int B = int(batch.size());
  require(B >= 1, "cpu engine: a batch needs at least one sample");
  for (int i = 0; i < B; ++i) {
    const BatchSample& sample = batch[std::size_t(i)];
    require(sample.inputs && sample.noise, "cpu engine: sample {} has no inputs or noise", i);
    require(sample.noise->rows == ws.H && sample.noise->cols == ws.A, "cpu engine: sample {}: noise is [{}, {}], expected [{}, {}]",
            i, sample.noise->rows, sample.noise->cols, ws.H, ws.A);
    require(sample.row_strength.empty() || sample.row_strength.size() == std::size_t(ws.H),
            "cpu engine: sample {}: {} row strengths for {} rows", i, sample.row_strength.size(), ws.H);
  }
  ws.reserve_batch(B, c.n_steps, model_);
  ws.embodiment.assign(std::size_t(B), nullptr);
  ws.runs.clear();
  int64_t keys = ws.M;
  for (int i = 0; i < B; ++i) {
    const BatchSample& sample = batch[std::size_t(i)];
    const PackedEmbodiment* e = &packed_embodiment_of(sample.embodiment);
    ws.embodiment[std::size_t(i)] = e;
    if (ws.runs.empty() || ws.runs.back().embodiment != e) ws.runs.push_back({i, 0, e});
    ++ws.runs.back().count;
    const std::size_t x0 = std::size_t(i) * ws.H * ws.A;
    for (std::size_t k = 0; k < sample.noise->data.size(); ++k) ws.x.data[x0 + k] = float(sample.noise->data[k]);
    for (int r = 0; r < ws.H; ++r)
      ws.row_strength[std::size_t(i) * ws.H + r] = sample.row_strength.empty() ? 1.0f : float(sample.row_strength[std::size_t(r)]);
    keys = std::max<int64_t>(keys, sample.inputs->vl.rows);
  }
  // room for each sample's cross keys, laid out by the program (grows only when a call has more keys)
  ws.cross_keys.resize(std::max(ws.cross_keys.size(), std::size_t(B) * c.n_blocks));
  for (int i = 0; i < B; ++i) {
    const model::CallInputs<float>& in = *batch[std::size_t(i)].inputs;
    for (std::size_t b = 0; b < in.cross_k.size(); ++b) {
      const std::size_t need = attention_prepared_keys_floats(in.cross_k[b].rows, c.dims.n_heads, c.dims.head_dim);
      Buffer& keys_of = ws.cross_keys[std::size_t(i) * c.n_blocks + b];
      if (keys_of.data.size() < need) keys_of.data.assign(need, 0.0f);
    }
  }
  ws.reserve_keys(keys, pool_.size());
  auto program = [&](int t) { run_program(t, batch); };
  pool_.run(program);
  std::vector<model::DenoiseResult> results(static_cast<std::size_t>(B));
  auto rows_of = [&](const Buffer& buffer, int i) {
    Matrix<double> m(ws.H, ws.A);
    const float* src = buffer.get() + std::size_t(i) * ws.H * ws.A;
    for (std::size_t k = 0; k < m.data.size(); ++k) m.data[k] = src[k];
    return m;
  };
  for (int i = 0; i < B; ++i) {
    results[std::size_t(i)].actions = rows_of(ws.x, i);
    for (const auto& v : ws.velocity) results[std::size_t(i)].velocities.push_back(rows_of(v, i));
  }
  return results;
}

model::DenoiseResult Engine::denoise(const model::CallInputs<float>& in, const Matrix<double>& noise,
                                     std::span<const double> row_strength) {
  const BatchSample one{&in, embodiment(), &noise, row_strength};
  return std::move(denoise_batch(std::span(&one, 1)).front());
}

model::DenoiseResult Engine::run(const model::Observation& obs, const Matrix<double>& noise,
                                 std::span<const double> row_strength) {
  const model::CallInputs<float> in = precompute(obs);
  return denoise(in, noise, row_strength);
}

}  // namespace ditmk::cpu
