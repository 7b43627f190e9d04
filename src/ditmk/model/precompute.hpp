#pragma once
// What every executor computes before the Euler loop, defined once here and run with each
// executor's own math (`Ops`): the ref passes float64 ops, the CPU engine its fast fp32 kernels.
//
// Per call (depends on the observation): the VL tokens after vlln and the VL self-attention stack
// (each where the release has it),
// the hoisted K/V of every cross block (they depend only on the VL tokens), the key mask of every
// cross block (these depend only on the features and masks: vision_language_inputs, which a head may
// keep across calls), and the state token (state_token).
// Per model (weights and embodiment only, so executors may compute them once at load): for each of
// the 4 steps the AdaLN (scale, shift) rows of every block, the output layer's (shift, scale), and the
// action encoder's tau bias (W2's tau half folded with b2).
//
// Ops must provide, for Scalar T and Matrix<T>:
//   Matrix<T> linear(const Matrix<T>& x, const Linear& l, Act act)   // l in nn.Linear [out,in] layout
//   Matrix<T> linear_kn(const Matrix<T>& x, const Linear& l, Act act) // l in [in,out] layout (category)
//   Matrix<T> layernorm(const Matrix<T>& x, const TensorView* gamma, const TensorView* beta, double eps)
//   Matrix<T> attention(const Matrix<T>& q, const Matrix<T>& k, const Matrix<T>& v,
//                       const std::vector<uint8_t>* key_mask, int heads, int head_dim)
//   void add_inplace(Matrix<T>& a, const Matrix<T>& b)
#include <cstdint>
#include <vector>

#include "ditmk/core/matrix.hpp"
#include "ditmk/model/encodings.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/weights.hpp"

namespace ditmk::model {

enum class Act { none, relu, silu, gelu_tanh };

template <typename T>
struct CallInputs {
  Matrix<T> vl;                               // [S, ctx]
  std::vector<Matrix<T>> cross_k, cross_v;    // per block; empty for self-attention blocks
  std::vector<std::vector<uint8_t>> key_mask; // per block; empty for self-attention blocks
  Matrix<T> state_token;                      // [1, D]
};

template <typename T>
struct StepTables {
  std::vector<Matrix<T>> adaln;  // [step] -> [2 * n_blocks, D]: row 2b = scale, row 2b+1 = shift
  std::vector<Matrix<T>> out_modulation;  // [step] -> [2, D]: row 0 = shift, row 1 = scale
  Matrix<T> tau_bias;            // [steps, D]
};

template <typename T>
Matrix<T> matrix_from(const std::vector<double>& values, int rows, int cols) {
  Matrix<T> m(rows, cols);
  for (std::size_t i = 0; i < m.data.size(); ++i) m.data[i] = T(values[i]);
  return m;
}

template <typename T>
Matrix<T> matrix_from(const TensorView& view, int rows, int cols, int row0 = 0) {
  Matrix<T> m(rows, cols);
  for (std::size_t i = 0; i < m.data.size(); ++i) m.data[i] = T(view.at(std::size_t(row0) * cols + i));
  return m;
}

// vlln (use_vlln) and the VL self-attention stack. The stack attends to every token as released; with
// the mask_padding opt-in, padding tokens are not keys.
template <typename T, typename Ops>
Matrix<T> vl_tokens(const Ops& ops, const Weights& w, const Observation& obs) {
  const ModelConfig& c = w.config;
  const Dims& d = c.dims;
  Matrix<T> vl = matrix_from<T>(obs.features, obs.tokens(), d.ctx_dim);
  if (c.use_vlln) vl = ops.layernorm(vl, &w.vlln_weight, &w.vlln_bias, 1e-5);
  const std::vector<uint8_t> keys = obs.key_mask(KeySet::all, c.mask_padding);
  const std::vector<uint8_t>* mask = c.mask_padding ? &keys : nullptr;
  for (const VlLayer& layer : w.vl_layers) {
    const Matrix<T> n1 = ops.layernorm(vl, &layer.norm1_weight, &layer.norm1_bias, c.vl_norm_eps);
    const Matrix<T> attn = ops.attention(ops.linear(n1, layer.q, Act::none), ops.linear(n1, layer.k, Act::none),
                                         ops.linear(n1, layer.v, Act::none), mask, d.vl_heads, d.vl_head_dim);
    ops.add_inplace(vl, ops.linear(attn, layer.out, Act::none));
    const Matrix<T> n3 = ops.layernorm(vl, &layer.norm3_weight, &layer.norm3_bias, c.vl_norm_eps);
    ops.add_inplace(vl, ops.linear(ops.linear(n3, layer.ff1, Act::gelu_tanh), layer.ff2, Act::none));
  }
  return vl;
}

// The part of a call that depends only on the VL features and masks (and the head's mask_padding):
// the VL tokens, every cross block's hoisted K/V and key mask. A head may keep it and reuse it while
// a later call's VL inputs are the same bytes (the state token is the rest of the call).
template <typename T, typename Ops>
void vision_language_inputs(const Ops& ops, const Weights& w, const Observation& obs, CallInputs<T>& in) {
  in.vl = vl_tokens<T>(ops, w, obs);
  const int n = w.config.n_blocks;
  in.cross_k.assign(n, {}), in.cross_v.assign(n, {}), in.key_mask.assign(n, {});
  for (int b = 0; b < n; ++b) {
    if (!w.config.is_cross(b)) continue;
    in.cross_k[b] = ops.linear(in.vl, w.blocks[b].k, Act::none);
    in.cross_v[b] = ops.linear(in.vl, w.blocks[b].v, Act::none);
    in.key_mask[b] = obs.key_mask(w.blocks[b].keys, w.config.mask_padding);
  }
}

// The state token of embodiment e: the call's only precompute that depends on the state.
template <typename T, typename Ops>
Matrix<T> state_token(const Ops& ops, const Weights& w, const EmbodimentWeights& e, const Observation& obs) {
  Matrix<T> state(1, w.config.state_input());  // N1.7's state history: the frames side by side
  for (int i = 0; i < w.config.state_input(); ++i) state.data[i] = T(obs.state[i]);
  return ops.linear_kn(ops.linear_kn(state, e.state1, Act::relu), e.state2, Act::none);
}

template <typename T, typename Ops>
CallInputs<T> precompute_call(const Ops& ops, const Weights& w, const EmbodimentWeights& e, const Observation& obs) {
  CallInputs<T> in;
  vision_language_inputs<T>(ops, w, obs, in);
  in.state_token = state_token<T>(ops, w, e, obs);
  return in;
}

// The action encoder's tau bias of every step: W2's tau half applied to tau(t), plus b2 ([steps, D]).
template <typename T, typename Ops>
Matrix<T> tau_bias_table(const Ops& ops, const Weights& w, const EmbodimentWeights& e) {
  const ModelConfig& c = w.config;
  const int D = c.dims.width;
  Matrix<T> table(c.n_steps, D);
  // W2 = [a half; tau half] in [in, out] layout: the tau half is rows D..2D-1
  const std::size_t elem = dtype_size(e.enc2.weight.dtype);
  const Linear tau_half{{e.enc2.weight.dtype, {D, D}, e.enc2.weight.data + std::size_t(D) * D * elem}, e.enc2.bias};
  for (int s = 0; s < c.n_steps; ++s) {
    const Matrix<T> tau = matrix_from<T>(tau_sinusoid(c.step_bucket(s), D), 1, D);
    const Matrix<T> bias = ops.linear_kn(tau, tau_half, Act::none);
    std::copy(bias.data.begin(), bias.data.end(), table.row(s));
  }
  return table;
}

// The tables every embodiment shares: AdaLN rows and the output modulation of every step.
template <typename T, typename Ops>
StepTables<T> dit_step_tables(const Ops& ops, const Weights& w) {
  const ModelConfig& c = w.config;
  const int D = c.dims.width;
  StepTables<T> tables;
  for (int s = 0; s < c.n_steps; ++s) {
    const int t = c.step_bucket(s);
    const Matrix<T> emb = matrix_from<T>(timestep_sinusoid(t, c.dims.temb_channels), 1, c.dims.temb_channels);
    const Matrix<T> silu_temb =
        ops.linear(ops.linear(emb, w.temb1, Act::silu), w.temb2, Act::silu);  // SiLU(temb) feeds every AdaLN
    Matrix<T> adaln(2 * c.n_blocks, D);
    for (int b = 0; b < c.n_blocks; ++b) {
      const Matrix<T> m = ops.linear(silu_temb, w.blocks[b].adaln, Act::none);  // [scale, shift]
      std::copy(m.data.begin(), m.data.end(), adaln.row(2 * b));
    }
    tables.adaln.push_back(std::move(adaln));
    const Matrix<T> m = ops.linear(silu_temb, w.proj_out_1, Act::none);  // [shift, scale]
    Matrix<T> out(2, D);
    std::copy(m.data.begin(), m.data.end(), out.row(0));
    tables.out_modulation.push_back(std::move(out));
  }
  return tables;
}

template <typename T, typename Ops>
StepTables<T> precompute_steps(const Ops& ops, const Weights& w, const EmbodimentWeights& e) {
  StepTables<T> tables = dit_step_tables<T>(ops, w);
  tables.tau_bias = tau_bias_table<T>(ops, w, e);
  return tables;
}

}  // namespace ditmk::model
