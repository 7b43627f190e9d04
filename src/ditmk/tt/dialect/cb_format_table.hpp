#pragma once
// The per-CB format tables tt-metal's JIT compiles into every kernel from its program (genfiles'
// data-format descriptors: unpack_src_format, unpack_tile_size, ...), which make get_tile_size and
// get_dataformat constant expressions in the kernel. One table per kernel, from the CBs on its cores.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "ditmk/tt/emu/program.hpp"

namespace ditmk::tt::dialect {

// One CB buffer index as a kernel's table lists it.
struct CbFormatEntry {
  uint32_t index = 0;
  uint32_t data_format = 0;  // tt-metal's DataFormat value
  uint32_t tile_bytes = 0;
  bool operator==(const CbFormatEntry&) const = default;
};

// tt-metal's DataFormat value of a CB's format.
uint32_t cb_data_format_value(const emu::CbConfig& cb);

// The entries of the CBs on any of `cores`, by buffer index. A buffer index with two formats on the
// kernel's cores has no single table: one line naming the kernel and the index.
std::vector<CbFormatEntry> cb_format_table(const std::vector<emu::CbConfig>& cbs, const std::set<emu::CoreCoord>& cores,
                                           const std::string& kernel);

// The generated header text: DATA_FORMATS_DEFINED and the tables over every buffer index (an index
// the kernel's cores do not have: format Invalid, tile size 0).
std::string cb_format_table_text(const std::vector<CbFormatEntry>& entries);

}  // namespace ditmk::tt::dialect
