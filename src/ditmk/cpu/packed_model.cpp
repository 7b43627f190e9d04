#include "ditmk/cpu/packed_model.hpp"

#include <cstring>

#include "ditmk/core/error.hpp"
#include "ditmk/core/parallel.hpp"
#include "ditmk/cpu/weight_cache_file.hpp"
#include "ditmk/model/precompute.hpp"
#include "ditmk/model/float64_ops.hpp"

namespace ditmk::cpu {

namespace {

std::vector<float> to_floats(const TensorView& v) {
  std::vector<float> out(v.numel());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = float(v.at(i));
  return out;
}

// Rows of several [n_i, K] matrices of one dtype stacked into one [sum n_i, K] tensor (fused QKV).
Tensor stack_rows(const std::vector<TensorView>& parts) {
  int64_t rows = 0;
  for (const auto& p : parts) rows += p.shape[0];
  const bool same = std::all_of(parts.begin(), parts.end(), [&](const TensorView& p) { return p.dtype == parts[0].dtype; });
  Tensor out(same ? parts[0].dtype : DType::F32, {rows, parts[0].shape[1]});
  std::size_t offset = 0;
  for (const auto& p : parts) {
    if (same) {
      std::memcpy(out.bytes() + offset, p.data, p.nbytes());
      offset += p.nbytes();
    } else {
      for (int64_t i = 0; i < p.numel(); ++i) out.data<float>()[offset / 4 + i] = float(p.at(i));
      offset += std::size_t(p.numel()) * 4;
    }
  }
  return out;
}

}  // namespace

std::size_t PackedModel::step_weight_bytes(const PackedEmbodiment& e) const {
  std::size_t bytes = 0;
  for (const auto& b : blocks) bytes += b.qkv.weights.bytes() + b.out.weights.bytes() + b.ff1.weights.bytes() + b.ff2.weights.bytes();
  for (const PackedLinear* l : {&proj_out_2, &e.enc1, &e.enc2_action, &e.enc3, &e.dec1, &e.dec2}) bytes += l->weights.bytes();
  return bytes;
}

double PackedModel::step_flops(const PackedEmbodiment& e) const {
  const int m = config.m_rows(), h = config.horizon;
  double flops = 0;
  for (const auto& b : blocks) flops += 2.0 * m * double(b.qkv.n() * b.qkv.k() + b.out.n() * b.out.k() + b.ff1.n() * b.ff1.k() + b.ff2.n() * b.ff2.k());
  for (const PackedLinear* l : {&proj_out_2, &e.enc1, &e.enc2_action, &e.enc3, &e.dec1, &e.dec2}) flops += 2.0 * h * double(l->n() * l->k());
  return flops;
}

std::size_t PackedModel::precompute_weight_bytes() const {
  std::size_t bytes = 0;
  for (const auto& [src, l] : precompute) bytes += l.weights.bytes();
  return bytes;
}

const PackedLinear& PackedModel::packed(const model::Linear& l) const {
  const auto it = precompute.find(l.weight.data);
  require(it != precompute.end(), "cpu engine: a weight of shape {} was not packed at load", shape_str(l.weight.shape));
  return it->second;
}

const float* PackedModel::vector(const TensorView& v) const {
  const auto it = vectors.find(v.data);
  require(it != vectors.end(), "cpu engine: a vector of shape {} was not prepared at load", shape_str(v.shape));
  return it->second.data();
}

namespace {

// Packs what `add` collected, the jobs split over the threads, then records each in the cache file
// in the order they were added; with a cache file to read, takes each from it instead.
struct Packer {
  WeightFormat format;
  PackCache cache;
  struct Job {
    PackedWeights* dst;
    TensorView weight;
    WeightLayout layout;
    std::string name;
  };
  std::vector<Job> jobs;
  // weight.data may be null when the cache is read (only the shape is needed then).
  void add_weights(PackedWeights& dst, const TensorView& weight, WeightLayout layout, std::string name) {
    if (cache.from) {
      const int64_t rows = weight.shape[0], cols = weight.shape[1];
      dst = layout == WeightLayout::out_in ? cache.from->matrix(name, format, rows, cols)
                                           : cache.from->matrix(name, format, cols, rows);
      return;
    }
    jobs.push_back({&dst, weight, layout, std::move(name)});
  }
  void add(PackedLinear& dst, const TensorView& weight, const TensorView& bias, WeightLayout layout, std::string name) {
    dst.bias = to_floats(bias);
    add_weights(dst.weights, weight, layout, std::move(name));
  }
  void run(int threads) {
    parallel_ranges(int(jobs.size()), threads, [&](int j0, int j1) {
      for (int j = j0; j < j1; ++j) *jobs[j].dst = PackedWeights::pack(jobs[j].weight, jobs[j].layout, format, jobs[j].name);
    });
    if (cache.to)
      for (const Job& job : jobs) cache.to->matrix(job.name, *job.dst);
  }
  // A weight-only table: computed by `compute` (and recorded), or read from the cache.
  template <typename Compute>
  void table(std::vector<float>& dst, std::string_view name, std::size_t count, Compute compute) {
    if (cache.from) {
      dst = cache.from->table(name, count);
      return;
    }
    compute();
    require(dst.size() == count, "cpu engine: table {} has {} values, expected {}", name, dst.size(), count);
    if (cache.to) cache.to->table(name, dst);
  }
};

}  // namespace

PackedModel pack_model(const model::Weights& w, WeightFormat format, int threads, PackCache cache) {
  const model::ModelConfig& c = w.config;
  const int D = c.dims.width;
  PackedModel pm;
  pm.config = c;
  pm.format = format;
  pm.blocks.resize(c.n_blocks);
  Packer packer{format, cache};
  std::vector<Tensor> fused(c.n_blocks);
  for (int b = 0; b < c.n_blocks; ++b) {
    const model::DitBlock& blk = w.blocks[b];
    PackedBlock& pb = pm.blocks[b];
    pb.cross = c.is_cross(b);
    const std::string name = "transformer_blocks." + std::to_string(b);
    if (pb.cross) {
      packer.add(pb.qkv, blk.q.weight, blk.q.bias, WeightLayout::out_in, name + ".attn1.to_q");
    } else {
      pb.qkv.bias = to_floats(blk.q.bias);
      for (const auto* bias : {&blk.k.bias, &blk.v.bias}) {
        const auto more = to_floats(*bias);
        pb.qkv.bias.insert(pb.qkv.bias.end(), more.begin(), more.end());
      }
      // the fused rows are stacked only to be packed; read from a cache file only their shape counts
      TensorView qkv{blk.q.weight.dtype, {blk.q.weight.shape[0] + blk.k.weight.shape[0] + blk.v.weight.shape[0],
                                          blk.q.weight.shape[1]}, nullptr};
      if (!cache.from) {
        fused[b] = stack_rows({blk.q.weight, blk.k.weight, blk.v.weight});
        qkv = fused[b].view();
      }
      packer.add_weights(pb.qkv.weights, qkv, WeightLayout::out_in, name + ".attn1.qkv");
    }
    packer.add(pb.out, blk.out.weight, blk.out.bias, WeightLayout::out_in, name + ".attn1.to_out.0");
    packer.add(pb.ff1, blk.ff1.weight, blk.ff1.bias, WeightLayout::out_in, name + ".ff.net.0.proj");
    packer.add(pb.ff2, blk.ff2.weight, blk.ff2.bias, WeightLayout::out_in, name + ".ff.net.2");
    if (pb.cross) {
      packer.add(pm.precompute[blk.k.weight.data], blk.k.weight, blk.k.bias, WeightLayout::out_in, name + ".attn1.to_k");
      packer.add(pm.precompute[blk.v.weight.data], blk.v.weight, blk.v.bias, WeightLayout::out_in, name + ".attn1.to_v");
    }
  }
  packer.add(pm.proj_out_2, w.proj_out_2.weight, w.proj_out_2.bias, WeightLayout::out_in, "proj_out_2");
  if (c.use_vlln) {
    pm.vectors[w.vlln_weight.data] = to_floats(w.vlln_weight);
    pm.vectors[w.vlln_bias.data] = to_floats(w.vlln_bias);
  }
  for (const model::VlLayer& layer : w.vl_layers) {
    for (const model::Linear* l : {&layer.q, &layer.k, &layer.v, &layer.out, &layer.ff1, &layer.ff2})
      packer.add(pm.precompute[l->weight.data], l->weight, l->bias, WeightLayout::out_in, "vl_self_attention");
    for (const TensorView* v : {&layer.norm1_weight, &layer.norm1_bias, &layer.norm3_weight, &layer.norm3_bias})
      pm.vectors[v->data] = to_floats(*v);
  }
  packer.run(threads);

  // weight-only tables, once, in float64
  const std::size_t steps = std::size_t(c.n_steps);
  packer.table(pm.adaln, "adaln", steps * std::size_t(c.n_blocks) * 2 * D, [&] {
    const auto tables = model::dit_step_tables<double>(model::Float64Ops{threads}, w);
    for (std::size_t s = 0; s < steps; ++s) {
      for (double v : tables.adaln[s].data) pm.adaln.push_back(float(v));
      for (double v : tables.out_modulation[s].data) pm.out_shift_scale.push_back(float(v));
    }
  });
  packer.table(pm.out_shift_scale, "out_shift_scale", steps * 2 * D, [] {});  // computed with adaln
  pm.position_rows.resize(std::size_t(c.horizon) * D);
  for (int r = 0; r < c.horizon; ++r)
    for (int i = 0; i < D; ++i) pm.position_rows[std::size_t(r) * D + i] = float(w.position(r, i));
  if (c.n_future > 0) pm.future_tokens = to_floats(w.future_tokens);
  return pm;
}

PackedEmbodiment pack_embodiment(const model::Weights& w, int id, PackedModel& pm, int threads, PackCache cache) {
  const int D = w.config.dims.width;
  PackedEmbodiment pe;
  pe.source = w.embodiment(id);
  const model::EmbodimentWeights& e = pe.source;
  Packer packer{pm.format, cache};
  packer.add(pe.enc1, e.enc1.weight, e.enc1.bias, WeightLayout::in_out, "action_encoder.W1");
  const TensorView enc2_action{e.enc2.weight.dtype, {D, D}, e.enc2.weight.data};  // rows 0..D-1: the action half
  packer.add(pe.enc2_action, enc2_action, e.enc2.bias, WeightLayout::in_out, "action_encoder.W2");
  packer.add(pe.enc3, e.enc3.weight, e.enc3.bias, WeightLayout::in_out, "action_encoder.W3");
  packer.add(pe.dec1, e.dec1.weight, e.dec1.bias, WeightLayout::in_out, "action_decoder.layer1");
  packer.add(pe.dec2, e.dec2.weight, e.dec2.bias, WeightLayout::in_out, "action_decoder.layer2");
  packer.add(pm.precompute[e.state1.weight.data], e.state1.weight, e.state1.bias, WeightLayout::in_out, "state_encoder.layer1");
  packer.add(pm.precompute[e.state2.weight.data], e.state2.weight, e.state2.bias, WeightLayout::in_out, "state_encoder.layer2");
  packer.run(threads);
  packer.table(pe.tau_bias, "tau_bias", std::size_t(w.config.n_steps) * D, [&] {
    const auto tau = model::tau_bias_table<double>(model::Float64Ops{threads}, w, e);
    for (double v : tau.data) pe.tau_bias.push_back(float(v));
  });
  return pe;
}

}  // namespace ditmk::cpu
