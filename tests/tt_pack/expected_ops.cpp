#include "expected_ops.hpp"

#include <cmath>

#include "ditmk/tt/formats.hpp"

namespace ditmk::tt::testing {

namespace {

constexpr int kHeads = 32, kHeadDim = 48, kHeadPad = 64;

// y = x W^T: element (k, n) of the [K, N] matrix is weight[n][k].
float out_in(const model::Linear& l, int k, int n) { return float(l.weight.at(std::size_t(n) * l.in() + k)); }
// Category slice [in, out]: element (k, n) is W[k][n].
float in_out(const model::Linear& l, int k, int n) {
  return float(l.weight.at(std::size_t(k) * l.weight.shape[1] + n));
}

}  // namespace

std::vector<float> expected_op(const ArenaOp& op, const model::Weights& w, int embodiment) {
  std::vector<float> m(std::size_t(op.k_pad) * op.n_pad, 0.0f);
  auto at = [&](int k, int n) -> float& { return m[std::size_t(k) * op.n_pad + n]; };
  const double q_scale = 1.0 / std::sqrt(double(kHeadDim));
  const model::EmbodimentWeights e = w.embodiment(embodiment);
  auto dense = [&](auto value, int k_len, int n_len) {
    for (int k = 0; k < k_len; ++k)
      for (int n = 0; n < n_len; ++n) at(k, n) = value(k, n);
  };
  switch (op.kind) {
    case OpKind::qkv:
    case OpKind::q: {
      const model::DitBlock& b = w.blocks[op.block];
      const model::Linear* parts[3] = {&b.q, &b.k, &b.v};
      const int n_parts = op.kind == OpKind::qkv ? 3 : 1;
      for (int p = 0; p < n_parts; ++p)
        for (int h = 0; h < kHeads; ++h)
          for (int d = 0; d < kHeadDim; ++d)
            for (int k = 0; k < 1536; ++k) {
              const float v = out_in(*parts[p], k, h * kHeadDim + d);
              at(k, p * kHeads * kHeadPad + h * kHeadPad + d) = p == 0 ? float(double(v) * q_scale) : v;
            }
      break;
    }
    case OpKind::out: {
      const model::Linear& o = w.blocks[op.block].out;
      for (int h = 0; h < kHeads; ++h)
        for (int d = 0; d < kHeadDim; ++d)
          for (int n = 0; n < 1536; ++n) at(h * kHeadPad + d, n) = out_in(o, h * kHeadDim + d, n);
      break;
    }
    case OpKind::ff1: dense([&](int k, int n) { return out_in(w.blocks[op.block].ff1, k, n); }, 1536, 6144); break;
    case OpKind::ff2: dense([&](int k, int n) { return out_in(w.blocks[op.block].ff2, k, n); }, 6144, 1536); break;
    case OpKind::proj_out_2: dense([&](int k, int n) { return out_in(w.proj_out_2, k, n); }, 1536, 1024); break;
    case OpKind::dec1: dense([&](int k, int n) { return in_out(e.dec1, k, n); }, 1024, 1024); break;
    case OpKind::dec2: dense([&](int k, int n) { return in_out(e.dec2, k, n); }, 1024, w.config.action_dim); break;
    case OpKind::enc1: dense([&](int k, int n) { return in_out(e.enc1, k, n); }, w.config.action_dim, 1536); break;
    case OpKind::enc2a: dense([&](int k, int n) { return in_out(e.enc2, k, n); }, 1536, 1536); break;
    case OpKind::enc3: dense([&](int k, int n) { return in_out(e.enc3, k, n); }, 1536, 1536); break;
  }
  return m;
}

std::vector<float> rounded(TileFormat format, const std::vector<float>& m, int rows, int cols) {
  std::vector<float> tiles = tilize(m.data(), rows, cols);
  for (std::size_t t = 0; t < tiles.size(); t += kTileElems) round_tile(format, tiles.data() + t, tiles.data() + t);
  return untilize(tiles.data(), rows, cols);
}

}  // namespace ditmk::tt::testing
