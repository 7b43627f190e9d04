#pragma once
// The io tensors of the megakernel as a device allocates them: where each lies (DRAM interleaved, or
// L1-sharded behind the CB it backs), its element layout and format, its 2-D shape and its page.
// One description serves the emulated launch (which allocates and fills them) and the program
// descriptor (which lists them for ttnn's generic_op).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ditmk/tt/formats.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"
#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt {

enum class IoMemory { dram_interleaved, l1_sharded };
// tile: 32x32 tiles in tile order, one or more tiles a page; row_major: rows, one row a page.
enum class IoLayout { tile, row_major };

struct IoTensor {
  std::string name;
  IoMemory memory = IoMemory::dram_interleaved;
  IoLayout layout = IoLayout::tile;
  TileFormat format = TileFormat::bf16;
  int rows = 0, cols = 0;   // elements
  uint32_t page_bytes = 0;  // DRAM interleaved: page p in bank p % 8
  std::string core_set;     // L1-sharded: the CoreMap set holding one shard a core
  uint32_t shard_bytes = 0;
  uint64_t bytes() const;   // the whole tensor in its format and layout
};

// A DRAM io tensor of the layout's program by slot name (the stream and small arenas: one page per
// bank, the bank's whole image; the kv tensors: K^T or V tiles head-major). Throws for a name that
// is not a DRAM slot.
IoTensor dram_io_tensor(const ArenaLayout& layout, std::string_view slot);

// Whether the program reads or writes the slot: the required ones, and velocity_out when the
// program was planned with its taps.
bool io_present(const ProgramSpec& spec, const IoSlot& slot);

// Every present io tensor of the program, in io slot order; x_rep and a_rep are the shards behind
// cb_x and cb_a.
std::vector<IoTensor> io_tensors(const ProgramSpec& spec);

}  // namespace ditmk::tt
