#pragma once
// Element types of tensors on disk and in memory, and the scalar conversions between them.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace ditmk {

enum class DType : uint8_t { F32, F16, BF16, F64, I64, I32, U8, BOOL };

std::size_t dtype_size(DType dtype);
// Names as safetensors spells them ("F32", "BF16", ...).
std::string_view dtype_name(DType dtype);
inline bool is_float(DType dtype) {
  return dtype == DType::F32 || dtype == DType::F64 || dtype == DType::F16 || dtype == DType::BF16;
}
// Parses a safetensors dtype name; returns false for names ditmk does not read.
bool parse_dtype(std::string_view name, DType& out);

inline float bf16_to_f32(uint16_t bits) { return std::bit_cast<float>(uint32_t(bits) << 16); }

// Round to nearest, ties to even (what PyTorch's .to(bfloat16) does); NaN stays a quiet NaN.
inline uint16_t f32_to_bf16(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return uint16_t((bits >> 16) | 0x0040u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return uint16_t(bits >> 16);
}

inline float round_to_bf16(float value) { return bf16_to_f32(f32_to_bf16(value)); }

// IEEE binary16 <-> binary32, exact for every half value, round-to-nearest-even on the way down.
float f16_to_f32(uint16_t bits);
uint16_t f32_to_f16(float value);

// Reads element i of a buffer of the given floating dtype as double.
double load_as_double(const void* data, DType dtype, std::size_t i);
// Reads elements [first, first + n) the same way into out, choosing the conversion once.
void load_as_double(const void* data, DType dtype, std::size_t first, std::size_t n, double* out);

}  // namespace ditmk
