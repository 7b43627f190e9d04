#include "ditmk/ref/action_head.hpp"

#include "ditmk/core/error.hpp"

namespace ditmk::ref {

using model::layernorm_modulate;

using model::Act;

ActionHead::ActionHead(const model::Weights& weights, int embodiment, int threads)
    : w_(weights), e_(weights.embodiment(embodiment)), ops_{threads} {
  tables_ = model::precompute_steps<double>(ops_, w_, e_);
}

MatD ActionHead::dit_block(int b, const model::CallInputs<double>& in, int step, MatD h) const {
  const auto& blk = w_.blocks[b];
  const auto& d = w_.config.dims;
  const MatD& adaln = tables_.adaln[step];
  const MatD n = layernorm_modulate(h, 1e-5, adaln.row(2 * b), adaln.row(2 * b + 1));
  const MatD q = ops_.linear(n, blk.q, Act::none);
  MatD attn;
  if (w_.config.is_cross(b)) {
    attn = ops_.attention(q, in.cross_k[b], in.cross_v[b], &in.key_mask[b], d.n_heads, d.head_dim);
  } else {
    attn = ops_.attention(q, ops_.linear(n, blk.k, Act::none), ops_.linear(n, blk.v, Act::none), nullptr, d.n_heads,
                          d.head_dim);
  }
  ops_.add_inplace(h, ops_.linear(attn, blk.out, Act::none));
  const MatD n2 = ops_.layernorm(h, nullptr, nullptr, w_.config.ff_norm_eps);
  ops_.add_inplace(h, ops_.linear(ops_.linear(n2, blk.ff1, Act::gelu_tanh), blk.ff2, Act::none));
  return h;
}

MatD ActionHead::velocity(const model::CallInputs<double>& in, int step, const MatD& x) const {
  const auto& c = w_.config;
  const int D = c.dims.width;
  // action encoder: swish(W2 [W1 x; tau]) with the tau half folded into the step's bias
  const MatD a = ops_.linear_kn(x, e_.enc1, Act::none);
  const TensorView step_bias{DType::F64, {D}, reinterpret_cast<const std::byte*>(tables_.tau_bias.row(step))};
  const model::Linear w2_a_half{{e_.enc2.weight.dtype, {D, D}, e_.enc2.weight.data}, step_bias};
  const MatD enc = ops_.linear_kn(a, w2_a_half, Act::silu);
  const MatD action_tokens = ops_.linear_kn(enc, e_.enc3, Act::none);

  MatD h(c.m_rows(), D);
  std::copy(in.state_token.data.begin(), in.state_token.data.end(), h.row(0));
  for (int f = 0; f < c.n_future; ++f)
    for (int i = 0; i < D; ++i) h(1 + f, i) = w_.future_tokens.at(std::size_t(f) * D + i);
  for (int r = 0; r < c.horizon; ++r)
    for (int i = 0; i < D; ++i)
      h(c.action_row0() + r, i) = action_tokens(r, i) + w_.position(r, i);

  for (int b = 0; b < c.n_blocks; ++b) h = dit_block(b, in, step, std::move(h));

  const MatD& out_mod = tables_.out_modulation[step];
  const MatD y = ops_.linear(layernorm_modulate(h, 1e-6, out_mod.row(1), out_mod.row(0)), w_.proj_out_2, Act::none);
  MatD action_rows(c.horizon, y.cols);
  for (int r = 0; r < c.horizon; ++r) std::copy(y.row(c.action_row0() + r), y.row(c.action_row0() + r) + y.cols, action_rows.row(r));
  return ops_.linear_kn(ops_.linear_kn(action_rows, e_.dec1, Act::relu), e_.dec2, Act::none);
}

model::DenoiseResult ActionHead::run(const model::Observation& obs, const Matrix<double>& noise,
                                     std::span<const double> row_strength) const {
  return denoise(model::precompute_call<double>(ops_, w_, e_, obs), noise, row_strength);
}

model::DenoiseResult ActionHead::denoise(const model::CallInputs<double>& in, const Matrix<double>& noise,
                                         std::span<const double> row_strength) const {
  require(row_strength.empty() || row_strength.size() == std::size_t(noise.rows),
          "ref: {} row strengths for {} action rows", row_strength.size(), noise.rows);
  model::DenoiseResult result;
  MatD x = noise;
  const double dt = model::euler_dt(w_.config);
  for (int s = 0; s < w_.config.n_steps; ++s) {
    MatD v = velocity(in, s, x);
    for (int r = 0; r < x.rows; ++r) {
      const double strength = row_strength.empty() ? 1.0 : row_strength[std::size_t(r)];
      for (int a = 0; a < x.cols; ++a) x(r, a) += dt * v(r, a) * strength;
    }
    result.velocities.push_back(std::move(v));
  }
  result.actions = std::move(x);
  return result;
}

}  // namespace ditmk::ref
