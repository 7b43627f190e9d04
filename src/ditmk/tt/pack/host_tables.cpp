#include "ditmk/tt/pack/host_tables.hpp"

#include <algorithm>
#include <thread>

#include "ditmk/core/error.hpp"
#include "ditmk/model/precompute.hpp"
#include "ditmk/model/float64_ops.hpp"
#include "ditmk/tt/pack/op_matrix.hpp"

namespace ditmk::tt {

namespace {

HostTable make_table(std::string name, int rows, int cols) {
  return HostTable{std::move(name), rows, cols, std::vector<double>(std::size_t(rows) * cols, 0.0), {}};
}

// Block op kinds in their bias-row order; tail ops with a bias row likewise.
int block_bias_row(OpKind kind) {
  switch (kind) {
    case OpKind::qkv:
    case OpKind::q: return 0;
    case OpKind::out: return 1;
    case OpKind::ff1: return 2;
    case OpKind::ff2: return 3;
    default: return -1;
  }
}

int tail_bias_row(OpKind kind) {
  switch (kind) {
    case OpKind::proj_out_2: return 0;
    case OpKind::dec1: return 1;
    case OpKind::dec2: return 2;
    case OpKind::enc1: return 3;
    default: return -1;  // enc2a: folded into b2_step; enc3: in b3_pos_rows
  }
}

TensorView bias_view(const WeightSource& s, const model::Weights& w, int embodiment) {
  TensorView b = w.checkpoint->get(s.bias);
  if (s.per_embodiment) {
    require(b.shape.size() == 2 && embodiment < b.shape[0], "tensor '{}' {} has no embodiment slice {}", s.bias,
            shape_str(b.shape), embodiment);
    b = {b.dtype, {b.shape[1]}, b.data + std::size_t(embodiment * b.shape[1]) * dtype_size(b.dtype)};
  }
  require(b.shape.size() == 1 && b.shape[0] >= s.n_len, "tensor '{}' {} does not hold {} biases", s.bias,
          shape_str(b.shape), s.n_len);
  return b;
}

HostTable adaln_rows(const ArenaLayout& layout, const model::StepTables<double>& steps) {
  const int n = layout.n_blocks, d = layout.width, per_step = 2 * n + 2;
  const int n_steps = int(steps.adaln.size());
  HostTable t = make_table("adaln_rows", n_steps * per_step, d);
  auto put = [&](int row, const double* src, double add, std::string what, std::string tensor, int step, int block) {
    for (int j = 0; j < d; ++j) t.values[std::size_t(row) * d + j] = add + src[j];
    TableRun run{row, 0, d, std::move(what), {std::move(tensor)}};
    run.step = step, run.block = block;
    t.runs.push_back(std::move(run));
  };
  for (int s = 0; s < n_steps; ++s) {
    const int base = s * per_step;
    for (int b = 0; b < n; ++b) {
      const std::string tensor = model::dit_name(fmt::format("transformer_blocks.{}.norm1.linear.weight", b));
      put(base + 2 * b, steps.adaln[s].row(2 * b), 1.0, "1 + scale", tensor, s, b);
      put(base + 2 * b + 1, steps.adaln[s].row(2 * b + 1), 0.0, "shift", tensor, s, b);
    }
    const std::string out = model::dit_name("proj_out_1.weight");
    put(base + 2 * n, steps.out_modulation[s].row(1), 1.0, "1 + scale", out, s, -1);
    put(base + 2 * n + 1, steps.out_modulation[s].row(0), 0.0, "shift", out, s, -1);
  }
  return t;
}

HostTable bias_rows(const ArenaLayout& layout, const model::Weights& w, int embodiment) {
  const int n = layout.n_blocks;
  HostTable t = make_table("bias_rows", 4 * n + 4, layout.ff_dim);
  for (const ArenaOp& op : layout.ops) {
    const int slot = op.block >= 0 ? block_bias_row(op.kind) : tail_bias_row(op.kind);
    if (slot < 0) continue;
    const int row = op.block >= 0 ? 4 * op.block + slot : 4 * n + slot;
    require(op.n_pad <= t.cols, "{}: {} padded outputs do not fit a bias row of {}", op.name, op.n_pad, t.cols);
    for (const WeightSource& s : op.sources) {
      if (s.bias.empty()) continue;
      const TensorView b = bias_view(s, w, embodiment);
      for (int j = 0; j < s.n_len; ++j) {
        const int col = s.dst_n0 + padded_index(j, s.pad_heads_n, layout.head_dim, layout.head_dim_pad);
        t.values[std::size_t(row) * t.cols + col] = b.at(j) * s.scale;
      }
      const int last = s.dst_n0 + padded_index(s.n_len - 1, s.pad_heads_n, layout.head_dim, layout.head_dim_pad);
      TableRun run{row, s.dst_n0, last + 1, s.pad_heads_n ? "bias, heads padded" : "bias", {s.bias}};
      run.scale = s.scale;
      run.block = op.block;
      t.runs.push_back(std::move(run));
    }
  }
  return t;
}

HostTable b2_step(const ArenaLayout& layout, const model::StepTables<double>& steps) {
  const int d = layout.width;
  HostTable t = make_table("b2_step", steps.tau_bias.rows, d);
  std::copy(steps.tau_bias.data.begin(), steps.tau_bias.data.end(), t.values.begin());
  for (int s = 0; s < t.rows; ++s) {
    TableRun run{s, 0, d, "W2[tau half] tau(t) + b2",
                 {model::head_name("action_encoder.W2.W"), model::head_name("action_encoder.W2.b")}};
    run.step = s;
    t.runs.push_back(std::move(run));
  }
  return t;
}

HostTable b3_pos_rows(const ArenaLayout& layout, const model::Weights& w, const model::EmbodimentWeights& e) {
  const int d = layout.width;
  HostTable t = make_table("b3_pos_rows", layout.m_pad, d);
  require(e.enc3.bias.numel() == d, "tensor '{}' slice has {} values, expected {}",
          model::head_name("action_encoder.W3.b"), e.enc3.bias.numel(), d);
  for (int j = 0; j < layout.h; ++j) {
    const int row = layout.action_rows[0] + j;
    for (int c = 0; c < d; ++c) {
      t.values[std::size_t(row) * d + c] = e.enc3.bias.at(c) + w.position(j, c);
    }
    TableRun run{row, 0, d, w.config.add_pos_embed ? "b3 + position" : "b3", {model::head_name("action_encoder.W3.b")}};
    if (w.config.add_pos_embed) run.tensors.push_back(model::head_name("position_embedding.weight"));
    run.tensor_row = j;
    t.runs.push_back(std::move(run));
  }
  return t;
}

HostTable future_tokens(const ArenaLayout& layout, const model::Weights& w) {
  const int d = layout.width;
  HostTable t = make_table("future_tokens", layout.n_future_tokens, d);
  for (std::size_t i = 0; i < t.values.size(); ++i) t.values[i] = w.future_tokens.at(i);
  for (int r = 0; r < t.rows; ++r) {
    TableRun run{r, 0, d, "future token", {model::head_name("future_tokens.weight")}};
    run.tensor_row = r;
    t.runs.push_back(std::move(run));
  }
  return t;
}

}  // namespace

std::vector<HostTable> host_tables(const ArenaLayout& layout, const model::Weights& weights, int embodiment) {
  require(layout.variant == Variant::steps4, "host tables are laid out for the steps4 variant, not {}",
          variant_name(layout.variant));
  const model::EmbodimentWeights e = weights.embodiment(embodiment);
  model::Float64Ops ops;
  ops.threads = int(std::max(1u, std::thread::hardware_concurrency()));
  const model::StepTables<double> steps = model::precompute_steps<double>(ops, weights, e);
  std::vector<HostTable> tables;
  tables.push_back(adaln_rows(layout, steps));
  tables.push_back(bias_rows(layout, weights, embodiment));
  tables.push_back(b2_step(layout, steps));
  tables.push_back(b3_pos_rows(layout, weights, e));
  if (layout.n_future_tokens > 0) tables.push_back(future_tokens(layout, weights));
  return tables;
}

}  // namespace ditmk::tt
