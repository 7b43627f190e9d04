#include "ditmk/tt/emu/tile_matmul.hpp"

#include <cstring>

#include "ditmk/format/tile.hpp"

namespace ditmk::tt::emu {

using format::kTile;

void matmul_tile_accumulate_reference(const float* a, const float* b, float* out) {
  for (int r = 0; r < kTile; ++r)
    for (int c = 0; c < kTile; ++c) {
      float sum = out[r * kTile + c];
      for (int k = 0; k < kTile; ++k) sum += a[r * kTile + k] * b[k * kTile + c];
      out[r * kTile + c] = sum;
    }
}

namespace {
// Eight columns of a row; kept inside the function (passed by value, a 32-byte vector's ABI would
// differ between the portable and the AVX2 build).
using Columns = float __attribute__((vector_size(32)));
constexpr int kParts = kTile / 8;
}  // namespace

// The AVX2 build has no FMA (the avx2 target does not include it), so it rounds as the portable one.
__attribute__((target_clones("avx2", "default"))) void matmul_tile_accumulate(const float* a, const float* b,
                                                                              float* out) {
  for (int r = 0; r < kTile; ++r) {
    Columns row[kParts];
#pragma GCC unroll 4
    for (int p = 0; p < kParts; ++p) std::memcpy(&row[p], out + r * kTile + 8 * p, sizeof(Columns));
    for (int k = 0; k < kTile; ++k) {
      const float scale = a[r * kTile + k];
#pragma GCC unroll 4
      for (int p = 0; p < kParts; ++p) {
        Columns b_part;
        std::memcpy(&b_part, b + k * kTile + 8 * p, sizeof(Columns));
        row[p] += scale * b_part;
      }
    }
#pragma GCC unroll 4
    for (int p = 0; p < kParts; ++p) std::memcpy(out + r * kTile + 8 * p, &row[p], sizeof(Columns));
  }
}

}  // namespace ditmk::tt::emu
