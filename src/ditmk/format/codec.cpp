#include "ditmk/format/codec.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "ditmk/core/dtype.hpp"
#include "ditmk/core/error.hpp"

namespace ditmk::format {

// The device is little-endian; host words are copied to it as they lie in memory.
static_assert(std::endian::native == std::endian::little, "tile codecs assume a little-endian host");

namespace {

constexpr int kGroupsPerTile = kTileElems / kBfp8GroupSize;

// Which tile a message is about: the tensor it belongs to (may be empty) and its index there.
struct TileName {
  std::string_view tensor;
  std::size_t index = 0;
};

std::string describe(TileName name) {
  if (name.tensor.empty()) return "tile";
  return fmt::format("tile {} of '{}'", name.index, name.tensor);
}

// bfp8_b has no encoding for inf/NaN; name the first such element by its (row, col) in the tile.
void require_finite_tile(const float* tile_values, TileName name) {
  for (int row = 0; row < kTile; ++row) {
    for (int col = 0; col < kTile; ++col) {
      const float value = tile_values[tile_index(row, col)];
      if (!std::isfinite(value)) {
        fail("bfp8_b {}: element (row {}, col {}) is {}, which bfp8_b cannot encode",
             describe(name), row, col, std::isnan(value) ? "NaN" : "infinite");
      }
    }
  }
}

bool all_finite(const float* tile_values) {
  uint32_t any_all_ones_exponent = 0;
  for (int i = 0; i < kTileElems; ++i) {
    const uint32_t bits = std::bit_cast<uint32_t>(tile_values[i]);
    any_all_ones_exponent |= uint32_t((bits & 0x7f800000u) == 0x7f800000u);
  }
  return any_all_ones_exponent == 0;
}

void pack_bfp8(const float* tile_values, std::byte* out, TileName name) {
  if (!all_finite(tile_values)) require_finite_tile(tile_values, name);
  auto* exponents = reinterpret_cast<uint8_t*>(out + kBfp8ExponentOffset);
  auto* mantissas = reinterpret_cast<uint8_t*>(out + kBfp8MantissaOffset);
  for (int group = 0; group < kGroupsPerTile; ++group) {
    exponents[group] = bfp8_encode_group(tile_values + group * kBfp8GroupSize,
                                         mantissas + group * kBfp8GroupSize);
  }
}

void unpack_bfp8(const std::byte* in, float* tile_values) {
  const auto* exponents = reinterpret_cast<const uint8_t*>(in + kBfp8ExponentOffset);
  const auto* mantissas = reinterpret_cast<const uint8_t*>(in + kBfp8MantissaOffset);
  for (int group = 0; group < kGroupsPerTile; ++group) {
    bfp8_decode_group(exponents[group], mantissas + group * kBfp8GroupSize,
                      tile_values + group * kBfp8GroupSize);
  }
}

void pack_bf16(const float* tile_values, std::byte* out) {
  for (int i = 0; i < kTileElems; ++i) {
    const uint16_t word = f32_to_bf16(tile_values[i]);
    std::memcpy(out + 2 * i, &word, sizeof(word));
  }
}

void unpack_bf16(const std::byte* in, float* tile_values) {
  for (int i = 0; i < kTileElems; ++i) {
    uint16_t word;
    std::memcpy(&word, in + 2 * i, sizeof(word));
    tile_values[i] = bf16_to_f32(word);
  }
}

void pack_named(TileFormat format, const float* tile_values, std::byte* out, TileName name) {
  switch (format) {
    case TileFormat::bf16: return pack_bf16(tile_values, out);
    case TileFormat::bfp8_b: return pack_bfp8(tile_values, out, name);
    case TileFormat::fp32: std::memcpy(out, tile_values, tile_bytes(format)); return;
  }
  fail("tile format {} is not a TileFormat", int(format));
}

}  // namespace

void pack_tile(TileFormat format, const float* tile_values, std::byte* out) {
  pack_named(format, tile_values, out, TileName{});
}

void unpack_tile(TileFormat format, const std::byte* in, float* tile_values) {
  switch (format) {
    case TileFormat::bf16: return unpack_bf16(in, tile_values);
    case TileFormat::bfp8_b: return unpack_bfp8(in, tile_values);
    case TileFormat::fp32: std::memcpy(tile_values, in, tile_bytes(format)); return;
  }
  fail("tile format {} is not a TileFormat", int(format));
}

void round_tile(TileFormat format, const float* tile_values, float* out) {
  switch (format) {
    case TileFormat::bf16:
      for (int i = 0; i < kTileElems; ++i) out[i] = round_to_bf16(tile_values[i]);
      return;
    case TileFormat::bfp8_b:
      if (!all_finite(tile_values)) require_finite_tile(tile_values, TileName{});
      for (int group = 0; group < kGroupsPerTile; ++group) {
        bfp8_round_group(tile_values + group * kBfp8GroupSize, out + group * kBfp8GroupSize);
      }
      return;
    case TileFormat::fp32:
      std::memmove(out, tile_values, kTileElems * sizeof(float));
      return;
  }
  fail("tile format {} is not a TileFormat", int(format));
}

void pack_tiles(TileFormat format, const float* tiles, std::size_t n_tiles, std::byte* out,
                std::string_view what) {
  const std::size_t bytes = tile_bytes(format);
  for (std::size_t t = 0; t < n_tiles; ++t) {
    pack_named(format, tiles + t * kTileElems, out + t * bytes, TileName{what, t});
  }
}

void unpack_tiles(TileFormat format, const std::byte* in, std::size_t n_tiles, float* tiles) {
  const std::size_t bytes = tile_bytes(format);
  for (std::size_t t = 0; t < n_tiles; ++t) unpack_tile(format, in + t * bytes, tiles + t * kTileElems);
}

}  // namespace ditmk::format
