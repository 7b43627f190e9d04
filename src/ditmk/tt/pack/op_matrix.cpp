#include "ditmk/tt/pack/op_matrix.hpp"

#include <algorithm>

#include "ditmk/core/error.hpp"

namespace ditmk::tt {

namespace {

// Number of source elements j of a padded axis with padded_index(j) < dst (dst relative to the
// source's first destination index): whole heads before it plus the real part of the current head.
int source_count_below(int dst, bool pad_heads, int head_dim, int head_dim_pad) {
  if (!pad_heads) return dst;
  return (dst / head_dim_pad) * head_dim + std::min(dst % head_dim_pad, head_dim);
}

std::optional<AxisRange> source_axis(int dst_begin, int dst_end, int dst0, int len, bool pad_heads, int head_dim,
                                     int head_dim_pad) {
  const int padded_len = pad_heads ? (len / head_dim) * head_dim_pad : len;
  const int a = std::clamp(dst_begin - dst0, 0, padded_len), e = std::clamp(dst_end - dst0, 0, padded_len);
  AxisRange r{source_count_below(a, pad_heads, head_dim, head_dim_pad),
              source_count_below(e, pad_heads, head_dim, head_dim_pad)};
  if (r.begin >= r.end) return std::nullopt;
  return r;
}

float element(const TensorView& view, std::size_t i) {
  switch (view.dtype) {
    case DType::F32: return view.as<float>()[i];
    case DType::BF16: return bf16_to_f32(view.as<uint16_t>()[i]);
    default: return float(view.at(i));
  }
}

}  // namespace

TensorView source_view(const WeightSource& source, const model::Weights& weights, int embodiment) {
  TensorView view = weights.checkpoint->get(source.tensor);
  if (source.per_embodiment) {
    require(view.shape.size() == 3 && embodiment >= 0 && embodiment < view.shape[0],
            "tensor '{}' {} has no embodiment slice {}", source.tensor, shape_str(view.shape), embodiment);
    const int64_t in = view.shape[1], out = view.shape[2];
    view = {view.dtype, {in, out}, view.data + std::size_t(embodiment * in * out) * dtype_size(view.dtype)};
  }
  require(view.shape.size() == 2, "tensor '{}' {} is not a matrix", source.tensor, shape_str(view.shape));
  const int64_t in_rows = source.out_in ? view.shape[1] : view.shape[0];
  const int64_t out_cols = source.out_in ? view.shape[0] : view.shape[1];
  require(in_rows >= source.src_k0 + source.k_len && out_cols >= source.n_len,
          "tensor '{}' {} is too small for input rows {}..{} and {} outputs", source.tensor, shape_str(view.shape),
          source.src_k0, source.src_k0 + source.k_len, source.n_len);
  return view;
}

void op_matrix(const ArenaOp& op, const model::Weights& weights, int embodiment, int head_dim, int head_dim_pad,
               std::vector<float>& m) {
  m.assign(std::size_t(op.k_pad) * op.n_pad, 0.0f);
  for (const WeightSource& s : op.sources) {
    const TensorView view = source_view(s, weights, embodiment);
    const int k_end = s.dst_k0 + padded_index(s.k_len - 1, s.pad_heads_k, head_dim, head_dim_pad) + 1;
    const int n_end = s.dst_n0 + padded_index(s.n_len - 1, s.pad_heads_n, head_dim, head_dim_pad) + 1;
    require(s.k_len > 0 && s.n_len > 0 && k_end <= op.k_pad && n_end <= op.n_pad,
            "{}: tensor '{}' lands at rows ..{} / columns ..{}, outside the padded [{}, {}]", op.name, s.tensor, k_end,
            n_end, op.k_pad, op.n_pad);
    const std::size_t ld = std::size_t(view.shape[1]);
    // K in strips so that both the [out, in] source rows and the destination rows stay in cache.
    constexpr int kStrip = 64;
    for (int k0 = 0; k0 < s.k_len; k0 += kStrip) {
      const int k1 = std::min(s.k_len, k0 + kStrip);
      for (int n = 0; n < s.n_len; ++n) {
        const std::size_t dst_col = s.dst_n0 + padded_index(n, s.pad_heads_n, head_dim, head_dim_pad);
        for (int k = k0; k < k1; ++k) {
          const std::size_t src =
              s.out_in ? std::size_t(n) * ld + s.src_k0 + k : std::size_t(s.src_k0 + k) * ld + n;
          const float w = element(view, src);
          const std::size_t dst_row = s.dst_k0 + padded_index(k, s.pad_heads_k, head_dim, head_dim_pad);
          m[dst_row * op.n_pad + dst_col] = s.scale == 1.0 ? w : float(double(w) * s.scale);
        }
      }
    }
  }
}

std::optional<SourcePart> source_part(const WeightSource& source, int k0, int k1, int n0, int n1, int head_dim,
                                      int head_dim_pad) {
  const auto k = source_axis(k0, k1, source.dst_k0, source.k_len, source.pad_heads_k, head_dim, head_dim_pad);
  const auto n = source_axis(n0, n1, source.dst_n0, source.n_len, source.pad_heads_n, head_dim, head_dim_pad);
  if (!k || !n) return std::nullopt;
  const AxisRange in{k->begin + source.src_k0, k->end + source.src_k0};
  SourcePart part{&source, in, *n};
  if (source.out_in) std::swap(part.rows, part.cols);
  return part;
}

}  // namespace ditmk::tt
