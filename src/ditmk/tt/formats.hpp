#pragma once
// The number formats as the tt layer names them. The bf16 / bfp8_b / fp32 tile codecs live one layer
// below every executor (src/ditmk/format, namespace ditmk::format), shared with the CPU engine's
// packed weights; the plan, the packer, the emulator and the kernels speak of tt::TileFormat,
// tt::tile_bytes, ... as the device's own formats.
#include "ditmk/format/bfp8.hpp"
#include "ditmk/format/codec.hpp"
#include "ditmk/format/tile.hpp"

namespace ditmk::tt {
using namespace ditmk::format;
}  // namespace ditmk::tt
