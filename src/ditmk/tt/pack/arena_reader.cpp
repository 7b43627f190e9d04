#include "ditmk/tt/pack/arena_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/formats.hpp"
#include "ditmk/tt/pack/pack_files.hpp"
#include "ditmk/tt/pack/slice_order.hpp"

namespace ditmk::tt {

namespace fs = std::filesystem;

namespace {

uint64_t file_size_of(const std::string& path) {
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  if (ec) fail("{}: cannot read: {}", path, ec.message());
  return size;
}

void read_at(const std::string& path, uint64_t offset, std::byte* out, std::size_t size) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("{}: cannot open: {}", path, std::strerror(errno));
  in.seekg(std::streamoff(offset));
  in.read(reinterpret_cast<char*>(out), std::streamsize(size));
  if (std::size_t(in.gcount()) != size) fail("{}: cannot read {} B at offset {}", path, size, offset);
}

std::size_t op_index_of(const ArenaLayout& layout, std::string_view name) {
  for (std::size_t i = 0; i < layout.ops.size(); ++i)
    if (layout.ops[i].name == name) return i;
  fail("arena has no op named '{}'", name);
}

}  // namespace

ArenaReader::ArenaReader(std::string dir, const ArenaLayout& layout) : dir_(std::move(dir)), layout_(layout) {
  const std::string table = (fs::path(dir_) / pack_files::kOffsetsTable).string();
  const uint64_t table_bytes = file_size_of(table);
  require(table_bytes == layout_.ops.size() * sizeof(uint32_t), "{}: {} B, expected {} entries of 4 B", table,
          table_bytes, layout_.ops.size());
  offsets_.resize(layout_.ops.size());
  read_at(table, 0, reinterpret_cast<std::byte*>(offsets_.data()), table_bytes);
  for (Arena arena : {Arena::stream, Arena::small}) {
    const std::string path = file_path(arena);
    const uint64_t expected = layout_.arena_bank_bytes[int(arena)] * kDramBanks;
    const uint64_t size = file_size_of(path);
    require(size == expected, "{}: {} B, the plan needs {} banks of {} B", path, size, kDramBanks,
            layout_.arena_bank_bytes[int(arena)]);
  }
}

std::string ArenaReader::file_path(Arena arena) const {
  return (fs::path(dir_) / pack_files::arena_file(arena)).string();
}

std::vector<std::byte> ArenaReader::slice_bytes(std::size_t op_index, const CoreSlice& slice) const {
  const ArenaOp& op = layout_.ops.at(op_index);
  const uint64_t bank_bytes = layout_.arena_bank_bytes[int(op.arena)];
  const uint64_t in_bank = slice_offset_in_bank(offsets_.at(op_index), slice);
  require(in_bank + slice.bytes <= bank_bytes, "{}: core {} slice at {} + {} B runs past bank {} ({} B)", op.name,
          slice.compute_idx, in_bank, slice.bytes, slice.bank, bank_bytes);
  std::vector<std::byte> bytes(slice.bytes);
  read_at(file_path(op.arena), pack_files::file_offset(bank_bytes, slice.compute_idx % kDramBanks, in_bank),
          bytes.data(), bytes.size());
  return bytes;
}

std::vector<float> ArenaReader::read_slice(std::size_t op_index, const CoreSlice& slice) const {
  const ArenaOp& op = layout_.ops.at(op_index);
  const std::vector<std::byte> bytes = slice_bytes(op_index, slice);
  const std::size_t cols = std::size_t(slice.n_tiles) * kTile;
  std::vector<float> out(std::size_t(slice.k_tiles) * kTile * cols);
  float tile[kTileElems];
  for (int k = 0; k < slice.k_tiles; ++k) {
    for (int n = 0; n < slice.n_tiles; ++n) {
      const std::size_t at = std::size_t(slice_tile_position(op, slice, layout_.tile_order, k, n));
      unpack_tile(op.format, bytes.data() + at * tile_bytes(op.format), tile);
      untilize_tile(tile, out.data() + std::size_t(k) * kTile * cols + std::size_t(n) * kTile, cols);
    }
  }
  return out;
}

std::vector<float> ArenaReader::read_op(std::string_view name) const {
  const std::size_t index = op_index_of(layout_, name);
  const ArenaOp& op = layout_.ops[index];
  // NaN where no slice lands, so a hole in the ownership cannot pass for zero padding.
  std::vector<float> m(std::size_t(op.k_pad) * op.n_pad, std::numeric_limits<float>::quiet_NaN());
  for (const CoreSlice& s : op.slices) {
    const std::vector<float> part = read_slice(index, s);
    const std::size_t cols = std::size_t(s.n_tiles) * kTile;
    for (std::size_t r = 0; r < std::size_t(s.k_tiles) * kTile; ++r) {
      std::copy_n(part.data() + r * cols, cols,
                  m.data() + (std::size_t(s.k_tile0) * kTile + r) * op.n_pad + std::size_t(s.n_tile0) * kTile);
    }
  }
  return m;
}

}  // namespace ditmk::tt
