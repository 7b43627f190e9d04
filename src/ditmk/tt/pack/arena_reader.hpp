#pragma once
// Reads weights back out of a pack directory the way the kernel finds them: the op's entry of the
// offsets table (offsets_table.bin), the core's slot in its bank and the slice's tile order, then
// unpack_tile. Used by the tests and by loaders that check a pack against the plan they run.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt {

class ArenaReader {
 public:
  // `layout` is the plan the pack is read for; the directory's arena files and offsets table must
  // have its sizes (Error naming the file otherwise).
  ArenaReader(std::string dir, const ArenaLayout& layout);

  const std::vector<uint32_t>& offsets_table() const { return offsets_; }

  // The raw bytes core `slice.compute_idx` streams for op number `op_index`.
  std::vector<std::byte> slice_bytes(std::size_t op_index, const CoreSlice& slice) const;
  // That slice decoded: row-major [k_tiles * 32, n_tiles * 32] floats.
  std::vector<float> read_slice(std::size_t op_index, const CoreSlice& slice) const;
  // The op's whole padded [k_pad, n_pad] matrix, assembled from every core's slice.
  std::vector<float> read_op(std::string_view name) const;

 private:
  std::string file_path(Arena arena) const;

  std::string dir_;
  const ArenaLayout& layout_;
  std::vector<uint32_t> offsets_;
};

}  // namespace ditmk::tt
