#pragma once
// Tiles the data movers build in L1 from raw bytes: row-broadcast tiles of a 32-value row (bias,
// AdaLN, mask rows) and the constant tiles the compute
// processor uses as matmul operands. All in the device tile order (four 16x16 faces).
#include <array>
#include <cstdint>
#include <vector>

namespace ditmk::tt::kernel {

constexpr uint32_t kBf16TileBytes = 2048;
constexpr uint32_t kFp32TileBytes = 4096;
using Bf16Tile = std::array<uint16_t, 1024>;
using Fp32Tile = std::array<float, 1024>;

// Every row of the tile holds `row` (32 bf16 values).
Bf16Tile row_tile(const uint16_t* row);
// 1.0 on the diagonal / everywhere / in column 0; `scale` times the identity.
Bf16Tile identity_tile(float scale = 1.0f);
Bf16Tile ones_tile();
Bf16Tile column0_tile();
// Rows [row0, row1) of the tile 1.0, the others 0.
Bf16Tile row_range_tile(int row0, int row1);
Fp32Tile filled_fp32_tile(float value);
// 1.0 at (row, col) only: as a matmul B operand it moves column `row` of A to column `col`.
Bf16Tile unit_tile(int row, int col);
// 0 in columns [0, open_cols), `value` in the others.
Bf16Tile column_fill_tile(int open_cols, float value);

}  // namespace ditmk::tt::kernel
