#pragma once
// Weights in the order the GEMM streams them, made once at load time.
//
// Panel layout: the N output columns are cut into panels of kPanelWidth (32) columns; a panel is one
// contiguous run of memory holding all K rows for its 32 columns, K ascending, so a GEMM over a
// column range reads one sequential stream (what DRAM prefetchers and the TLB like best). Inside a
// panel, per format:
//   fp32    [K][32] floats: one k row of 32 columns is two 64-byte lines, two zmm loads.
//   bf16    [K/2][32][2]: a k pair of 32 columns; (k, k+1) of one column are adjacent because
//           vdpbf16ps multiplies bf16 pairs, and AVX2 splits a pair with one shift and one mask.
//   bfp8_b  per 16-row group of K: 32 shared exponent bytes (one per column: a group is 16
//           consecutive K values of one output column, a dot-product direction), then 8 k pairs of
//           32 columns of int8 magnitudes in the bf16 pair order. 544 bytes per 512 weights.
//   int8    per 32-row block of K (int8_block.hpp): 32 fp32 scales (one per column), 32 int32
//           offset corrections (-128 x the sum of the column's 32 values: x arrives offset to
//           unsigned), then 8 k quads x 32 columns x 4 int8, the 4 consecutive k of one column that
//           one vpdpbusd lane sums. 1280 bytes per 1024 weights.
// K is zero-padded to a multiple of 16 (one bfp8 group, 8 bf16 pairs; 32 for int8), N to a multiple
// of 32.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "ditmk/core/tensor.hpp"

namespace ditmk::cpu {

// Columns per weight panel, and so the granularity of a GEMM's column range: 32 fp32 accumulators
// per row are two zmm (four ymm) registers, and 12 rows of them fill 24 of the 32 zmm registers.
inline constexpr int64_t kPanelWidth = 32;
// K is padded to this; one bfp8_b exponent group.
inline constexpr int64_t kKAlign = 16;

enum class WeightFormat { fp32, bf16, bfp8_b, int8 };
std::string_view weight_format_name(WeightFormat format);
// "fp32", "bf16", "bfp8_b", "int8"; throws ditmk::Error naming the value otherwise.
WeightFormat parse_weight_format(std::string_view name);

// How the source matrix stores W: [N,K] is nn.Linear's [out, in]; [K,N] is a category-specific
// linear's W[e] slice, used as x @ W.
enum class WeightLayout { out_in, in_out };

class PackedWeights {
 public:
  PackedWeights() = default;
  // source: a 2-D F32/BF16/F16 tensor; name is used in error messages only.
  static PackedWeights pack(const TensorView& source, WeightLayout layout, WeightFormat format,
                            std::string_view name = "weight");
  // Packed bytes kept elsewhere (a mapped weight cache file), used in place: `data` holds
  // bytes_for(format, n, k) bytes exactly as pack() lays them out, 64-byte aligned (the kernels'
  // aligned loads); `owner` keeps that memory alive as long as any view of it.
  static PackedWeights view(WeightFormat format, int64_t n, int64_t k, const std::byte* data,
                            std::shared_ptr<const void> owner);
  // The packed size of an [n, k] weight in `format`.
  static std::size_t bytes_for(WeightFormat format, int64_t n, int64_t k);

  WeightFormat format() const { return format_; }
  int64_t n() const { return n_; }
  int64_t k() const { return k_; }
  int64_t k_padded() const { return k_padded_; }
  int64_t panels() const { return (n_ + kPanelWidth - 1) / kPanelWidth; }
  std::size_t panel_bytes() const { return panel_bytes_; }
  std::size_t bytes() const { return panel_bytes_ * std::size_t(panels()); }
  const std::byte* data() const { return data_; }
  const std::byte* panel(int64_t index) const { return data_ + std::size_t(index) * panel_bytes_; }

  // The weight W[n][k] as the kernels multiply it (after rounding or quantisation; for int8 the
  // fp32 product of its integer and its block's scale, which the kernels never form).
  float value(int64_t n, int64_t k) const;
  // int8 only: the integer of W[n][k] and the scale of its block.
  int8_t int8_value(int64_t n, int64_t k) const;
  float int8_scale(int64_t n, int64_t k) const;

  // Bytes of one bfp8_b group block of a panel.
  static constexpr std::size_t kBfp8GroupBytes = kPanelWidth + kPanelWidth * kKAlign;
  // Bytes of one int8 block of a panel, and where its parts start.
  static constexpr std::size_t kInt8ScalesOffset = 0;
  static constexpr std::size_t kInt8CorrectionsOffset = kPanelWidth * sizeof(float);
  static constexpr std::size_t kInt8ValuesOffset = kInt8CorrectionsOffset + kPanelWidth * sizeof(int32_t);
  static constexpr std::size_t kInt8GroupBytes = kInt8ValuesOffset + kPanelWidth * 32;

 private:
  WeightFormat format_ = WeightFormat::bf16;
  int64_t n_ = 0, k_ = 0, k_padded_ = 0;
  std::size_t panel_bytes_ = 0;
  const std::byte* data_ = nullptr;  // storage_'s bytes, or memory `owner_` keeps alive
  Tensor storage_;
  std::shared_ptr<const void> owner_;
  void set_shape(WeightFormat format, int64_t n, int64_t k);
};

// 2^(e - 133) for every bfp8_b shared exponent byte e: the weight of one magnitude step.
const float* bfp8_step_table();

}  // namespace ditmk::cpu
