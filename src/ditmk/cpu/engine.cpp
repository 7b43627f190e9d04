#include "ditmk/cpu/engine.hpp"

#include <malloc.h>

#include <algorithm>
#include <cmath>

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

// Activations of one denoise, sized at load; per-thread scratch for the kernels.
struct Engine::Workspace {
  int M, D, H, A, inner, ff, out, hidden, max_head_dim;
  Buffer h, n, qkv, attn, ffn, y, dec, enc_a, enc_e, x;
  std::vector<Buffer> velocity;
  std::vector<float> row_strength;  // [H]: this call's per-row Euler strength (1 without real-time chunking)
  std::vector<std::vector<std::byte>> gemm_scratch;  // per thread, 64-byte aligned inside
  // Two so that one GEMM's input can be prepared while another GEMM still reads the other: normed
  // for the LayerNorm outputs (and the precompute's inputs), mixed for the attention and FF outputs.
  PreparedX normed, mixed;
  std::vector<Buffer> attention_scratch;             // per thread
  std::vector<Buffer> cross_keys;                    // per cross block: its hoisted K laid out for attention
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
    const int64_t granule = rows > kGemmMaxRows ? gemm_column_block_panels(l.weights, engine.isa_, rows) : 1;
    engine.pool_.for_chunks(t, l.weights.panels(), granule, [&](int64_t p0, int64_t p1) {
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
  auto sized = [](std::size_t n) { return Buffer{std::vector<float>(n, 0.0f)}; };
  ws.h = sized(std::size_t(ws.M) * ws.D), ws.n = sized(std::size_t(ws.M) * ws.D);
  ws.qkv = sized(std::size_t(ws.M) * 3 * ws.inner), ws.attn = sized(std::size_t(ws.M) * ws.inner);
  ws.ffn = sized(std::size_t(ws.M) * ws.ff), ws.y = sized(std::size_t(ws.H) * ws.out);
  ws.dec = sized(std::size_t(ws.H) * ws.hidden), ws.enc_a = sized(std::size_t(ws.H) * ws.D);
  ws.enc_e = sized(std::size_t(ws.H) * ws.D), ws.x = sized(std::size_t(ws.H) * ws.A);
  for (int s = 0; s < c.n_steps; ++s) ws.velocity.push_back(sized(std::size_t(ws.H) * ws.A));
  ws.row_strength.assign(std::size_t(ws.H), 1.0f);
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
  for (const auto& b : model_.blocks) {
    ws.normed.reserve(std::max(cpu::gemm_scratch_bytes(b.qkv.weights, ws.M), cpu::gemm_scratch_bytes(b.ff1.weights, ws.M)));
    ws.mixed.reserve(std::max(cpu::gemm_scratch_bytes(b.out.weights, ws.M), cpu::gemm_scratch_bytes(b.ff2.weights, ws.M)));
  }
  ws.reserve_keys(ws.M, pool_.size());
}

Engine::~Engine() = default;

void Engine::use_embodiment(int id) {
  auto it = embodiments_.find(id);
  if (it == embodiments_.end()) it = embodiments_.emplace(id, pack_embodiment(weights_, id, model_, pool_.size())).first;
  embodiment_ = &it->second;
}

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

void Engine::run_program(int t, const model::CallInputs<float>& in) {
  Workspace& ws = *ws_;
  const model::ModelConfig& c = model_.config;
  const FastOps ops{*this};
  const PackedEmbodiment& e = *embodiment_;
  const int T = pool_.size();
  const int M = ws.M, D = ws.D, H = ws.H, row0 = c.action_row0();
  const float dt = float(model::euler_dt(c));
  auto gemm = [&](const PackedLinear& l, const float* x, int64_t xs, int64_t rows, float* y, int64_t ys, Activation act,
                  OutputMode mode, const float* bias, PreparedX* prepared = nullptr) {
    ops.gemm_columns(t, l, x, xs, rows, y, ys, act, mode, bias, prepared);
  };
  auto layer_norm_rows = [&](const float* x, float* y, int rows, float eps, const float* scale, const float* shift) {
    const Range r = share(rows, t, T);
    if (r.empty()) return;
    LayerNormArgs a;
    a.x = x + r.begin * D, a.x_stride = D, a.y = y + r.begin * D, a.y_stride = D;
    a.rows = r.end - r.begin, a.cols = D, a.eps = eps, a.scale = scale, a.shift = shift;
    layer_norm(a);
  };
  auto attention_args = [&](const float* q, int64_t qs, const float* k, const float* v, int64_t kvs, int64_t keys,
                            const uint8_t* mask) {
    const Range hs = share(c.dims.n_heads, t, T);
    AttentionArgs a;
    a.q = q, a.q_stride = qs, a.k = k, a.k_stride = kvs, a.v = v, a.v_stride = kvs;
    a.out = ws.attn.get(), a.out_stride = ws.inner, a.m = M, a.keys = keys;
    a.heads = c.dims.n_heads, a.head_dim = c.dims.head_dim, a.scale = float(1.0 / std::sqrt(double(c.dims.head_dim)));
    a.key_mask = mask, a.h_begin = hs.begin, a.h_end = hs.end;
    a.scratch = ws.attention_scratch[t].get(), a.scratch_floats = ws.attention_scratch[t].data.size();
    return a;
  };
  auto cross_args = [&](int b) {
    return attention_args(ws.qkv.get(), model_.blocks[b].qkv.n(), in.cross_k[b].data.data(), in.cross_v[b].data.data(),
                          ws.inner, in.cross_k[b].rows, in.key_mask[b].data());
  };

  // The hoisted cross K of this call is laid out for attention once (each thread its heads) and
  // read by all 4 steps, instead of being transposed again by every step.
  for (int b = 0; b < c.n_blocks; ++b) {
    if (!model_.blocks[b].cross) continue;
    const AttentionArgs a = cross_args(b);
    if (a.h_begin < a.h_end) attention_prepare_keys(a, ws.cross_keys[b].get(), ws.cross_keys[b].data.size());
  }
  pool_.barrier();

  for (int s = 0; s < c.n_steps; ++s) {
    // action encoder: W3(swish(W2 [W1 x; tau])) + position rows, written into the action rows of h
    gemm(e.enc1, ws.x.get(), ws.A, H, ws.enc_a.get(), D, Activation::none, OutputMode::store, e.enc1.bias.data());
    const Range rows = share(M, t, T);
    for (int64_t r = rows.begin; r < rows.end; ++r) {
      const float* src = r == 0 ? in.state_token.data.data()
                         : r < row0 ? model_.future_tokens.data() + (r - 1) * D
                                    : model_.position_rows.data() + (r - row0) * D;
      std::copy(src, src + D, ws.h.get() + r * D);
    }
    pool_.barrier();
    gemm(e.enc2_action, ws.enc_a.get(), D, H, ws.enc_e.get(), D, Activation::silu, OutputMode::store,
         e.tau_bias.data() + std::size_t(s) * D);
    pool_.barrier();
    gemm(e.enc3, ws.enc_e.get(), D, H, ws.h.get() + std::size_t(row0) * D, D, Activation::none,
         OutputMode::accumulate, e.enc3.bias.data());
    pool_.barrier();

    for (int b = 0; b < c.n_blocks; ++b) {
      const PackedBlock& blk = model_.blocks[b];
      const float* adaln = model_.adaln.data() + (std::size_t(s) * c.n_blocks + b) * 2 * D;
      // Each thread prepares the GEMM input rows it normalised, while they are in its cache.
      layer_norm_rows(ws.h.get(), ws.n.get(), M, 1e-5f, adaln, adaln + D);
      ops.prepare_rows(blk.qkv, ws.n.get(), D, share(M, t, T), ws.normed);
      pool_.barrier();
      const int64_t qkv_cols = blk.qkv.n();
      gemm(blk.qkv, ws.n.get(), D, M, ws.qkv.get(), qkv_cols, Activation::none, OutputMode::store, blk.qkv.bias.data(),
           &ws.normed);
      pool_.barrier();
      AttentionArgs a = blk.cross ? cross_args(b)
                                  : attention_args(ws.qkv.get(), qkv_cols, ws.qkv.get() + ws.inner,
                                                   ws.qkv.get() + 2 * ws.inner, qkv_cols, M, nullptr);
      if (blk.cross) a.prepared_keys = ws.cross_keys[b].get();
      if (a.h_begin < a.h_end) cpu::attention(a, isa_);
      pool_.barrier();
      ops.prepare_rows(blk.out, ws.attn.get(), ws.inner, share(M, t, T), ws.mixed);
      pool_.barrier();
      gemm(blk.out, ws.attn.get(), ws.inner, M, ws.h.get(), D, Activation::none, OutputMode::accumulate, blk.out.bias.data(),
           &ws.mixed);
      pool_.barrier();
      layer_norm_rows(ws.h.get(), ws.n.get(), M, float(c.ff_norm_eps), nullptr, nullptr);
      ops.prepare_rows(blk.ff1, ws.n.get(), D, share(M, t, T), ws.normed);
      pool_.barrier();
      // Each chunk's FF hidden columns are prepared for FF down by the thread that produced them,
      // while they are in its cache (whole 32-column blocks).
      ops.gemm_columns(t, blk.ff1, ws.n.get(), D, M, ws.ffn.get(), ws.ff, Activation::gelu_tanh, OutputMode::store,
                       blk.ff1.bias.data(), &ws.normed,
                       [&](Range cols) { ops.prepare_columns(blk.ff2, ws.ffn.get(), ws.ff, M, cols, ws.mixed); });
      pool_.barrier();
      gemm(blk.ff2, ws.ffn.get(), ws.ff, M, ws.h.get(), D, Activation::none, OutputMode::accumulate, blk.ff2.bias.data(),
           &ws.mixed);
      pool_.barrier();
    }

    // output head on the action rows only, action decoder, Euler update
    const float* shift_scale = model_.out_shift_scale.data() + std::size_t(s) * 2 * D;
    layer_norm_rows(ws.h.get() + std::size_t(row0) * D, ws.n.get(), H, 1e-6f, shift_scale + D, shift_scale);
    pool_.barrier();
    gemm(model_.proj_out_2, ws.n.get(), D, H, ws.y.get(), ws.out, Activation::none, OutputMode::store, model_.proj_out_2.bias.data());
    pool_.barrier();
    gemm(e.dec1, ws.y.get(), ws.out, H, ws.dec.get(), ws.hidden, Activation::relu, OutputMode::store, e.dec1.bias.data());
    pool_.barrier();
    float* v = ws.velocity[s].get();
    gemm(e.dec2, ws.dec.get(), ws.hidden, H, v, ws.A, Activation::none, OutputMode::store, e.dec2.bias.data());
    pool_.barrier();
    const Range xs = share(int64_t(H) * ws.A, t, T);
    for (int64_t i = xs.begin; i < xs.end; ++i) ws.x.get()[i] += dt * v[i] * ws.row_strength[std::size_t(i / ws.A)];
    pool_.barrier();
  }
}

model::DenoiseResult Engine::denoise(const model::CallInputs<float>& in, const Matrix<double>& noise,
                                     std::span<const double> row_strength) {
  Workspace& ws = *ws_;
  require(noise.rows == ws.H && noise.cols == ws.A, "cpu engine: noise is [{}, {}], expected [{}, {}]", noise.rows,
          noise.cols, ws.H, ws.A);
  require(row_strength.empty() || row_strength.size() == std::size_t(ws.H), "cpu engine: {} row strengths for {} rows",
          row_strength.size(), ws.H);
  for (std::size_t i = 0; i < noise.data.size(); ++i) ws.x.data[i] = float(noise.data[i]);
  for (int r = 0; r < ws.H; ++r) ws.row_strength[std::size_t(r)] = row_strength.empty() ? 1.0f : float(row_strength[std::size_t(r)]);
  // room for this call's cross keys, laid out by the program (grows only when a call has more keys)
  ws.cross_keys.resize(in.cross_k.size());
  for (std::size_t b = 0; b < in.cross_k.size(); ++b) {
    const std::size_t need =
        attention_prepared_keys_floats(in.cross_k[b].rows, model_.config.dims.n_heads, model_.config.dims.head_dim);
    if (ws.cross_keys[b].data.size() < need) ws.cross_keys[b].data.assign(need, 0.0f);
  }
  ws.reserve_keys(in.vl.rows, pool_.size());
  auto program = [&](int t) { run_program(t, in); };
  pool_.run(program);
  model::DenoiseResult result;
  auto to_double = [&](const Buffer& b) {
    Matrix<double> m(ws.H, ws.A);
    for (std::size_t i = 0; i < m.data.size(); ++i) m.data[i] = b.data[i];
    return m;
  };
  result.actions = to_double(ws.x);
  for (const auto& v : ws.velocity) result.velocities.push_back(to_double(v));
  return result;
}

model::DenoiseResult Engine::run(const model::Observation& obs, const Matrix<double>& noise,
                                 std::span<const double> row_strength) {
  const model::CallInputs<float> in = precompute(obs);
  return denoise(in, noise, row_strength);
}

}  // namespace ditmk::cpu
