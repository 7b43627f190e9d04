#pragma once
// tt-metal's device-side DataFormat (tensix_types.h), with its values, and the bytes of one tile of
// a format as InterleavedAddrGenFast lays pages out.
#include <stdint.h>

enum class DataFormat : uint8_t {
  Float32 = 0,
  Float16 = 1,
  Bfp8 = 2,
  Bfp4 = 3,
  Tf32 = 4,
  Float16_b = 5,
  Bfp8_b = 6,
  Bfp4_b = 7,
  Int32 = 8,
  UInt16 = 9,
  Lf8 = 10,
  Bfp2 = 11,
  Int8 = 14,
  Bfp2_b = 15,
  UInt32 = 24,
  UInt8 = 30,
  RawUInt8 = 0xf0,
  RawUInt16 = 0xf1,
  RawUInt32 = 0xf2,
  Invalid = 0xff
};

namespace ditmk::detail {

// Bytes of `tiles` tiles of tile_hw elements: the datums plus, for the block-float formats, the
// shared exponents (one byte per 16 datums, at least 16 bytes). Formats without a case of their own
// are laid out as Bfp8, as tt-metal does.
constexpr uint32_t tile_bytes(DataFormat format, uint32_t tiles, uint32_t tile_hw = 1024) {
  const uint32_t exponents = tile_hw >= 1024 ? 64 : tile_hw == 512 ? 32 : 16;
  switch (format) {
    case DataFormat::UInt8: return tiles * tile_hw;
    case DataFormat::UInt16:
    case DataFormat::Float16:
    case DataFormat::Float16_b: return tiles * tile_hw * 2;
    case DataFormat::Int32:
    case DataFormat::UInt32:
    case DataFormat::Float32: return tiles * tile_hw * 4;
    case DataFormat::Bfp2:
    case DataFormat::Bfp2_b: return tiles * (tile_hw / 4 + exponents);
    case DataFormat::Bfp4:
    case DataFormat::Bfp4_b: return tiles * (tile_hw / 2 + exponents);
    default: return tiles * (tile_hw + exponents);
  }
}

}  // namespace ditmk::detail
