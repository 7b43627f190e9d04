#include "ditmk/core/dtype.hpp"

#include <cmath>

#include "ditmk/core/error.hpp"

namespace ditmk {

namespace {
struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::size_t size;
};
constexpr DTypeInfo kInfo[] = {
    {DType::F32, "F32", 4}, {DType::F16, "F16", 2}, {DType::BF16, "BF16", 2},
    {DType::F64, "F64", 8}, {DType::I64, "I64", 8}, {DType::I32, "I32", 4},
    {DType::U8, "U8", 1},   {DType::BOOL, "BOOL", 1},
};
}  // namespace

std::size_t dtype_size(DType dtype) { return kInfo[std::size_t(dtype)].size; }
std::string_view dtype_name(DType dtype) { return kInfo[std::size_t(dtype)].name; }

bool parse_dtype(std::string_view name, DType& out) {
  for (const auto& info : kInfo) {
    if (info.name == name) {
      out = info.dtype;
      return true;
    }
  }
  return false;
}

float f16_to_f32(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {
    // zero or subnormal: value = mantissa * 2^-24, exact in float
    const float magnitude = std::ldexp(float(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t f32_to_f16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint16_t sign = uint16_t((bits >> 16) & 0x8000u);
  const float magnitude = std::fabs(value);
  if (std::isnan(value)) return sign | 0x7e00u;
  if (magnitude >= 65520.0f) return sign | 0x7c00u;  // rounds to infinity
  if (magnitude < 6.103515625e-05f) {
    // subnormal range: quantum 2^-24; nearbyint rounds half to even in the default mode
    return sign | uint16_t(std::nearbyint(magnitude * 16777216.0f));
  }
  uint32_t m = bits & 0x7fffffu;
  uint32_t e = ((bits >> 23) & 0xffu) - 112;
  uint32_t half = (e << 10) | (m >> 13);
  const uint32_t rest = m & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // carries into the exponent correctly
  return sign | uint16_t(half);
}

namespace {
// safetensors does not align tensors (a 7-element bf16 tensor shifts every later one), so elements
// are read with memcpy, which compiles to a plain load and is defined at any address.
template <typename T>
T load(const void* data, std::size_t i) {
  T value;
  std::memcpy(&value, static_cast<const std::byte*>(data) + i * sizeof(T), sizeof(T));
  return value;
}

template <typename T, typename Widen>
void load_run(const void* data, std::size_t first, std::size_t n, double* out, Widen widen) {
  for (std::size_t i = 0; i < n; ++i) out[i] = widen(load<T>(data, first + i));
}
}  // namespace

void load_as_double(const void* data, DType dtype, std::size_t first, std::size_t n, double* out) {
  const auto same = [](auto v) { return double(v); };
  switch (dtype) {
    case DType::F32: return load_run<float>(data, first, n, out, same);
    case DType::BF16: return load_run<uint16_t>(data, first, n, out, [](uint16_t v) { return double(bf16_to_f32(v)); });
    case DType::F16: return load_run<uint16_t>(data, first, n, out, [](uint16_t v) { return double(f16_to_f32(v)); });
    case DType::F64: return load_run<double>(data, first, n, out, same);
    case DType::I64: return load_run<int64_t>(data, first, n, out, same);
    case DType::I32: return load_run<int32_t>(data, first, n, out, same);
    case DType::U8:
    case DType::BOOL: return load_run<uint8_t>(data, first, n, out, same);
  }
  fail("unknown dtype {}", int(dtype));
}

double load_as_double(const void* data, DType dtype, std::size_t i) {
  double value;
  load_as_double(data, dtype, i, 1, &value);
  return value;
}

}  // namespace ditmk
