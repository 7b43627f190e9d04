#include "ditmk/tt/emu/integer_tiles.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "ditmk/core/dtype.hpp"
#include "ditmk/format/tile.hpp"

namespace ditmk::tt::emu {

namespace {

using format::kTile;

float word_of(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t bits_of(float word) { return std::bit_cast<uint32_t>(word); }
bool is_integer(DstKind kind) { return kind == DstKind::int32 || kind == DstKind::uint32; }

// v (an integer, exact in a double) rounded to nearest even with `bits` significant bits
double round_to_bits(double v, int bits) {
  if (v == 0) return 0;
  const double quantum = std::ldexp(1.0, std::ilogb(v) - (bits - 1));
  return std::nearbyint(v / quantum) * quantum;  // the default rounding mode: to nearest, ties to even
}

}  // namespace

bool raw_word_format(IntegerFormat format) {
  return format == IntegerFormat::int32 || format == IntegerFormat::uint32;
}

void unpack_word_tile(const std::byte* tile, float* dst) {
  for (int r = 0; r < kTile; ++r) {
    for (int c = 0; c < kTile; ++c) {
      uint32_t bits = 0;
      std::memcpy(&bits, tile + std::size_t(format::tile_index(r, c)) * 4, 4);
      dst[r * kTile + c] = word_of(bits);
    }
  }
}

void pack_word_tile(const float* dst, std::byte* tile) {
  for (int r = 0; r < kTile; ++r) {
    for (int c = 0; c < kTile; ++c) {
      const uint32_t bits = bits_of(dst[r * kTile + c]);
      std::memcpy(tile + std::size_t(format::tile_index(r, c)) * 4, &bits, 4);
    }
  }
}

std::optional<DstKind> dst_kind_of_format(uint32_t data_format) {
  switch (data_format) {
    case 0: return DstKind::float32;    // Float32
    case 5: return DstKind::bfloat16;   // Float16_b
    case 8: return DstKind::int32;      // Int32
    case 24: return DstKind::uint32;    // UInt32
  }
  return std::nullopt;
}

bool typecast_modelled(DstKind from, DstKind to) { return !(is_integer(from) && is_integer(to)) || from == to; }

std::optional<float> typecast_word(DstKind from, DstKind to, float word) {
  if (!typecast_modelled(from, to)) return std::nullopt;
  const bool from_int = is_integer(from), to_int = is_integer(to);
  if (from_int && to_int) return word;
  if (!from_int && !to_int) return to == DstKind::bfloat16 ? round_to_bf16(word) : word;
  if (from_int) {
    const uint32_t bits = bits_of(word);
    const double v = from == DstKind::int32 ? double(std::bit_cast<int32_t>(bits)) : double(bits);
    return float(round_to_bits(v, to == DstKind::bfloat16 ? 8 : 24));
  }
  // NaN takes the side of its sign bit: the SFPU sees only a sign and an exponent too large
  const float x = std::isnan(word) ? std::copysign(std::numeric_limits<float>::infinity(), word) : word;
  if (to == DstKind::uint32) {
    if (!(x >= 1.0f)) return word_of(0);  // negatives and values below 1
    if (x >= 4294967296.0f) return word_of(0xFFFFFFFFu);
    return word_of(uint32_t(x));  // truncates
  }
  if (x >= 2147483648.0f) return word_of(uint32_t(std::numeric_limits<int32_t>::max()));
  if (x < -2147483648.0f) return word_of(uint32_t(std::numeric_limits<int32_t>::min()));
  return word_of(uint32_t(int32_t(x)));  // truncates toward zero
}

}  // namespace ditmk::tt::emu
