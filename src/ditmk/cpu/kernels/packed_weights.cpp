#include "ditmk/cpu/kernels/packed_weights.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/int8_block.hpp"
#include "ditmk/format/bfp8.hpp"

namespace ditmk::cpu {
namespace {

static_assert(format::kBfp8GroupSize == kKAlign);

// Reads the source as a dense [N][K] float matrix whatever its layout and dtype.
std::vector<float> read_as_n_by_k(const TensorView& source, WeightLayout layout, int64_t n, int64_t k) {
  std::vector<float> out(std::size_t(n * k));
  for (int64_t row = 0; row < source.shape[0]; ++row) {
    for (int64_t col = 0; col < source.shape[1]; ++col) {
      const std::size_t i = std::size_t(row * source.shape[1] + col);
      const float value = float(source.at(i));  // memcpy loads: checkpoint tensors need not be aligned
      const int64_t nn = layout == WeightLayout::out_in ? row : col;
      const int64_t kk = layout == WeightLayout::out_in ? col : row;
      out[std::size_t(nn * k + kk)] = value;
    }
  }
  return out;
}

// Position of (k, column c) inside a panel of paired layout: k pair, then column, then k parity.
std::size_t pair_index(int64_t k, int64_t c) { return std::size_t(((k / 2) * kPanelWidth + c) * 2 + k % 2); }

// Magnitude with its sign folded in as two's complement, so the kernels widen it with one signed
// byte extension. Values the codec flushes to zero are stored as zero, which keeps
// int8 * 2^(e - 133) equal to bfp8_decode_value for every byte.
int8_t signed_magnitude(uint8_t exponent, uint8_t mantissa) {
  if (format::bfp8_decode_value(exponent, mantissa) == 0.0f) return 0;
  const int magnitude = mantissa & 0x7f;
  return int8_t((mantissa & 0x80) ? -magnitude : magnitude);
}

// K is padded to whole groups of the format: 16 (a bfp8_b group, 8 bf16 pairs) or an int8 block.
int64_t k_alignment(WeightFormat format) { return format == WeightFormat::int8 ? kInt8Block : kKAlign; }

// Position of (k, column c) inside the values of an int8 block: k quad, then column, then k % 4.
std::size_t quad_index(int64_t k, int64_t c) { return std::size_t(((k / 4) * kPanelWidth + c) * 4 + k % 4); }

// One column's 32-row block: scale, offset correction and values, at their places in the block.
void pack_int8_block(const float* values, int64_t count, int64_t c, std::byte* block, std::string_view name, int64_t n,
                     int64_t k0) {
  for (int64_t i = 0; i < count; ++i)
    require(std::isfinite(values[i]), "{}: column {}, row {}: non-finite value {} cannot be quantized to int8", name, n,
            k0 + i, values[i]);
  int8_t q[kInt8Block];
  const float scale = quantize_int8_weights(values, count, q);
  int32_t sum = 0;
  for (int64_t i = 0; i < kInt8Block; ++i) {
    sum += q[i];
    reinterpret_cast<int8_t*>(block + PackedWeights::kInt8ValuesOffset)[quad_index(i, c)] = q[i];
  }
  reinterpret_cast<float*>(block + PackedWeights::kInt8ScalesOffset)[c] = scale;
  reinterpret_cast<int32_t*>(block + PackedWeights::kInt8CorrectionsOffset)[c] = -128 * sum;
}

}  // namespace

std::string_view weight_format_name(WeightFormat format) {
  switch (format) {
    case WeightFormat::fp32: return "fp32";
    case WeightFormat::bf16: return "bf16";
    case WeightFormat::bfp8_b: return "bfp8_b";
    case WeightFormat::int8: return "int8";
  }
  return "unknown";
}

WeightFormat parse_weight_format(std::string_view name) {
  for (WeightFormat f : {WeightFormat::fp32, WeightFormat::bf16, WeightFormat::bfp8_b, WeightFormat::int8})
    if (name == weight_format_name(f)) return f;
  fail("weight format: unknown '{}' (fp32, bf16, bfp8_b, int8)", name);
}

const float* bfp8_step_table() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int e = 0; e < 256; ++e) t[std::size_t(e)] = std::ldexp(1.0f, e - 133);
    return t;
  }();
  return table.data();
}

void PackedWeights::set_shape(WeightFormat format, int64_t n, int64_t k) {
  format_ = format;
  n_ = n, k_ = k;
  const int64_t align = k_alignment(format);
  k_padded_ = (k + align - 1) / align * align;
  const std::size_t panel_values = std::size_t(k_padded_ * kPanelWidth);
  switch (format) {
    case WeightFormat::fp32: panel_bytes_ = panel_values * 4; break;
    case WeightFormat::bf16: panel_bytes_ = panel_values * 2; break;
    case WeightFormat::bfp8_b: panel_bytes_ = std::size_t(k_padded_ / kKAlign) * kBfp8GroupBytes; break;
    case WeightFormat::int8: panel_bytes_ = std::size_t(k_padded_ / kInt8Block) * kInt8GroupBytes; break;
  }
}

std::size_t PackedWeights::bytes_for(WeightFormat format, int64_t n, int64_t k) {
  PackedWeights w;
  w.set_shape(format, n, k);
  return w.bytes();
}

PackedWeights PackedWeights::view(WeightFormat format, int64_t n, int64_t k, const std::byte* data,
                                  std::shared_ptr<const void> owner) {
  require(n > 0 && k > 0, "packed weight view: shape [{}, {}] is empty", n, k);
  require(reinterpret_cast<uintptr_t>(data) % 64 == 0, "packed weight view: data is not 64-byte aligned");
  PackedWeights w;
  w.set_shape(format, n, k);
  w.data_ = data;
  w.owner_ = std::move(owner);
  return w;
}

PackedWeights PackedWeights::pack(const TensorView& source, WeightLayout layout, WeightFormat format,
                                  std::string_view name) {
  require(source.shape.size() == 2 && source.shape[0] > 0 && source.shape[1] > 0,
          "{}: expected a non-empty 2-D weight, got shape {}", name, shape_str(source.shape));
  require(source.dtype == DType::F32 || source.dtype == DType::BF16 || source.dtype == DType::F16,
          "{}: weight dtype {} is not F32, BF16 or F16", name, dtype_name(source.dtype));
  require(source.data != nullptr, "{}: weight has no data", name);
  PackedWeights w;
  w.set_shape(format, layout == WeightLayout::out_in ? source.shape[0] : source.shape[1],
              layout == WeightLayout::out_in ? source.shape[1] : source.shape[0]);
  w.storage_ = Tensor(DType::U8, {int64_t(w.bytes())});
  w.data_ = w.storage_.bytes();

  const std::vector<float> dense = read_as_n_by_k(source, layout, w.n_, w.k_);
  const auto at = [&](int64_t n, int64_t k) { return n < w.n_ && k < w.k_ ? dense[std::size_t(n * w.k_ + k)] : 0.0f; };
  for (int64_t p = 0; p < w.panels(); ++p) {
    std::byte* panel = w.storage_.bytes() + std::size_t(p) * w.panel_bytes_;
    for (int64_t c = 0; c < kPanelWidth; ++c) {
      const int64_t n = p * kPanelWidth + c;
      if (format == WeightFormat::int8) {
        for (int64_t b = 0; b < w.k_padded_ / kInt8Block; ++b) {
          const int64_t k0 = b * kInt8Block;
          const int64_t count = n < w.n_ ? std::clamp<int64_t>(w.k_ - k0, 0, kInt8Block) : 0;
          const float* values = count > 0 ? dense.data() + std::size_t(n * w.k_ + k0) : nullptr;
          pack_int8_block(values, count, c, panel + std::size_t(b) * kInt8GroupBytes, name, n, k0);
        }
        continue;
      }
      for (int64_t g = 0; g < w.k_padded_ / kKAlign; ++g) {
        float group[kKAlign];
        for (int64_t i = 0; i < kKAlign; ++i) group[i] = at(n, g * kKAlign + i);
        if (format == WeightFormat::fp32) {
          auto* dst = reinterpret_cast<float*>(panel);
          for (int64_t i = 0; i < kKAlign; ++i) dst[(g * kKAlign + i) * kPanelWidth + c] = group[i];
        } else if (format == WeightFormat::bf16) {
          auto* dst = reinterpret_cast<uint16_t*>(panel);
          for (int64_t i = 0; i < kKAlign; ++i) dst[pair_index(g * kKAlign + i, c)] = f32_to_bf16(group[i]);
        } else {
          uint8_t mantissas[kKAlign];
          uint8_t exponent = 0;
          try {
            exponent = format::bfp8_encode_group(group, mantissas);
          } catch (const Error& e) {
            fail("{}: column {}, rows {}..{}: {}", name, n, g * kKAlign, g * kKAlign + kKAlign - 1, e.what());
          }
          auto* block = reinterpret_cast<uint8_t*>(panel) + std::size_t(g) * kBfp8GroupBytes;
          block[c] = exponent;
          for (int64_t i = 0; i < kKAlign; ++i)
            block[kPanelWidth + pair_index(i, c)] = uint8_t(signed_magnitude(exponent, mantissas[i]));
        }
      }
    }
  }
  return w;
}

float PackedWeights::value(int64_t n, int64_t k) const {
  require(n >= 0 && n < n_ && k >= 0 && k < k_, "packed weight: index ({}, {}) outside [{}, {}]", n, k, n_, k_);
  const std::byte* p = panel(n / kPanelWidth);
  const int64_t c = n % kPanelWidth;
  switch (format_) {
    case WeightFormat::fp32: return reinterpret_cast<const float*>(p)[k * kPanelWidth + c];
    case WeightFormat::bf16: return bf16_to_f32(reinterpret_cast<const uint16_t*>(p)[pair_index(k, c)]);
    case WeightFormat::bfp8_b: {
      const auto* block = reinterpret_cast<const uint8_t*>(p) + std::size_t(k / kKAlign) * kBfp8GroupBytes;
      const auto q = int8_t(block[kPanelWidth + pair_index(k % kKAlign, c)]);
      return float(q) * bfp8_step_table()[block[c]];
    }
    case WeightFormat::int8: return float(int8_value(n, k)) * int8_scale(n, k);
  }
  return 0.0f;
}

int8_t PackedWeights::int8_value(int64_t n, int64_t k) const {
  require(format_ == WeightFormat::int8 && n >= 0 && n < n_ && k >= 0 && k < k_padded_,
          "packed weight: no int8 value at ({}, {})", n, k);
  const std::byte* block = panel(n / kPanelWidth) + std::size_t(k / kInt8Block) * kInt8GroupBytes;
  return reinterpret_cast<const int8_t*>(block + kInt8ValuesOffset)[quad_index(k % kInt8Block, n % kPanelWidth)];
}

float PackedWeights::int8_scale(int64_t n, int64_t k) const {
  require(format_ == WeightFormat::int8 && n >= 0 && n < n_ && k >= 0 && k < k_padded_,
          "packed weight: no int8 scale at ({}, {})", n, k);
  const std::byte* block = panel(n / kPanelWidth) + std::size_t(k / kInt8Block) * kInt8GroupBytes;
  return reinterpret_cast<const float*>(block + kInt8ScalesOffset)[n % kPanelWidth];
}

}  // namespace ditmk::cpu
