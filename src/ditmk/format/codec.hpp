#pragma once
// One tile of values in tile order <-> the bytes the device holds for it, per TileFormat.
//   fp32:   1024 little-endian floats.
//   bf16:   1024 little-endian bf16 words, each f32_to_bf16 of the value (round to nearest even).
//   bfp8_b: 64 shared-exponent bytes first, one per 16-value face row in tile order (face 0 rows
//           0..15, then faces 1, 2, 3), then 1024 sign/magnitude bytes in tile order.
// bf16 and fp32 carry inf/NaN through; bfp8_b cannot hold them and packing throws ditmk::Error
// naming the element.
#include <cstddef>
#include <string_view>

#include "ditmk/format/bfp8.hpp"
#include "ditmk/format/tile.hpp"

namespace ditmk::format {

// Byte offsets inside a bfp8_b tile.
constexpr std::size_t kBfp8ExponentOffset = 0;
constexpr std::size_t kBfp8MantissaOffset = kTileElems / kBfp8GroupSize;

void pack_tile(TileFormat format, const float* tile_values, std::byte* out);
void unpack_tile(TileFormat format, const std::byte* in, float* tile_values);

// What each value becomes after a round trip through the format: host computation with the same
// rounding as the device data. out may alias tile_values.
void round_tile(TileFormat format, const float* tile_values, float* out);

// n_tiles consecutive tiles <-> n_tiles * tile_bytes(format) bytes. `what` names the tensor in the
// error raised for a value bfp8_b cannot hold, together with the tile and element.
void pack_tiles(TileFormat format, const float* tiles, std::size_t n_tiles, std::byte* out,
                std::string_view what);
void unpack_tiles(TileFormat format, const std::byte* in, std::size_t n_tiles, float* tiles);

}  // namespace ditmk::format
