#include "ditmk/tt/host/call_tensors.hpp"

#include <algorithm>
#include <cstring>

#include "ditmk/core/dtype.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/tt/formats.hpp"
#include "ditmk/tt/kernel/masked_score.hpp"

namespace ditmk::tt::host {

std::vector<int> admissible_keys(const model::Observation& obs, model::KeySet keys, bool mask_padding) {
  const std::vector<uint8_t> mask = obs.key_mask(keys, mask_padding);
  std::vector<int> out;
  for (std::size_t j = 0; j < mask.size(); ++j)
    if (mask[j]) out.push_back(int(j));
  return out;
}

LayoutConfig observation_layout(const model::ModelConfig& config, const model::Observation& obs) {
  KeyCounts counts;
  counts.all = int(admissible_keys(obs, model::KeySet::all, config.mask_padding).size());
  counts.text = int(admissible_keys(obs, model::KeySet::text, config.mask_padding).size());
  counts.image = int(admissible_keys(obs, model::KeySet::image, config.mask_padding).size());
  return derive_layout(config, counts, "observation");
}

std::vector<std::byte> head_key_tiles(const ArenaLayout& layout, const Matrix<double>& kv,
                                      const std::vector<int>& keys, int chunks, bool transposed) {
  require(int(keys.size()) <= chunks * kKeyChunk, "{} admissible keys exceed the {} planned key slots",
          keys.size(), chunks * kKeyChunk);
  const int key_tiles = 2 * chunks;
  const int heads = layout.n_heads, hd = layout.head_dim;
  std::vector<std::byte> out(std::size_t(heads) * key_tiles * 2 * tile_bytes(TileFormat::bf16));
  std::vector<float> block(kTileElems), tile(kTileElems);
  for (int h = 0; h < heads; ++h) {
    for (int kt = 0; kt < key_tiles; ++kt) {
      for (int d = 0; d < 2; ++d) {
        for (int i = 0; i < kTile; ++i) {
          const int slot = kt * kTile + i;
          for (int j = 0; j < kTile; ++j) {
            const int dim = d * kTile + j;
            const bool real = slot < int(keys.size()) && dim < hd;
            const float value = real ? float(kv(keys[slot], h * hd + dim)) : 0.0f;
            block[transposed ? j * kTile + i : i * kTile + j] = value;
          }
        }
        tilize_tile(block.data(), kTile, tile.data());
        const std::size_t page = std::size_t(h * key_tiles + kt) * 2 + d;
        pack_tile(TileFormat::bf16, tile.data(), out.data() + page * tile_bytes(TileFormat::bf16));
      }
    }
  }
  return out;
}

std::vector<std::byte> key_mask_rows(int rows, int cols, int admissible) {
  std::vector<uint16_t> values(std::size_t(rows) * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) values[std::size_t(r) * cols + c] = f32_to_bf16(c < admissible ? 0.0f : kernel::kMaskedScore);
  std::vector<std::byte> out(values.size() * 2);
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

std::vector<std::byte> bf16_rows(const Matrix<double>& m, int rows) {
  std::vector<uint16_t> values(std::size_t(rows) * m.cols, 0);
  for (int r = 0; r < std::min(rows, m.rows); ++r)
    for (int c = 0; c < m.cols; ++c) values[std::size_t(r) * m.cols + c] = f32_to_bf16(float(m(r, c)));
  std::vector<std::byte> out(values.size() * 2);
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

std::vector<std::byte> padded_tiles(const Matrix<double>& block, int row0, int rows, int cols, TileFormat format) {
  std::vector<float> dense(std::size_t(rows) * cols, 0.0f);
  for (int r = 0; r < block.rows; ++r)
    for (int c = 0; c < block.cols; ++c) dense[std::size_t(row0 + r) * cols + c] = float(block(r, c));
  const std::vector<float> tiles = tilize(dense.data(), rows, cols);
  std::vector<std::byte> out(tiles.size() / kTileElems * tile_bytes(format));
  pack_tiles(format, tiles.data(), tiles.size() / kTileElems, out.data(), "padded io tensor");
  return out;
}

Matrix<double> unpadded(const std::vector<std::byte>& tiles, int rows, int cols, TileFormat format, int row0,
                        int n_rows, int n_cols) {
  const std::size_t n_tiles = std::size_t(rows / kTile) * (cols / kTile);
  std::vector<float> values(n_tiles * kTileElems);
  unpack_tiles(format, tiles.data(), n_tiles, values.data());
  const std::vector<float> dense = untilize(values.data(), rows, cols);
  Matrix<double> out(n_rows, n_cols);
  for (int r = 0; r < n_rows; ++r)
    for (int c = 0; c < n_cols; ++c) out(r, c) = dense[std::size_t(row0 + r) * cols + c];
  return out;
}

}  // namespace ditmk::tt::host
