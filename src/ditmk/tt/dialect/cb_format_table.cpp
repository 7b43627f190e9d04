#include "ditmk/tt/dialect/cb_format_table.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ditmk/core/error.hpp"

namespace ditmk::tt::dialect {

namespace {

constexpr uint32_t kBufferIndices = 64;  // Blackhole's NUM_CIRCULAR_BUFFERS
constexpr uint32_t kInvalidFormat = 0xff;

// One table row: `constexpr <type> <name>[64] = {...};` with `value(entry)` at each entry's index.
template <typename Value>
std::string table(const char* type, const char* name, const std::vector<CbFormatEntry>& entries, uint32_t absent,
                  Value value) {
  std::vector<uint32_t> row(kBufferIndices, absent);
  for (const CbFormatEntry& e : entries) row[e.index] = value(e);
  return fmt::format("constexpr {} {}[{}] = {{{}}};\n", type, name, kBufferIndices, fmt::join(row, ","));
}

}  // namespace

uint32_t cb_data_format_value(const emu::CbConfig& cb) {
  switch (cb.integer) {
    case emu::IntegerFormat::int32: return 8;    // Int32
    case emu::IntegerFormat::uint16: return 9;   // UInt16
    case emu::IntegerFormat::uint32: return 24;  // UInt32
    case emu::IntegerFormat::uint8: return 30;   // UInt8
    case emu::IntegerFormat::none: break;
  }
  switch (cb.format) {
    case TileFormat::fp32: return 0;    // Float32
    case TileFormat::bf16: return 5;    // Float16_b
    case TileFormat::bfp8_b: return 6;  // Bfp8_b
  }
  return kInvalidFormat;
}

std::vector<CbFormatEntry> cb_format_table(const std::vector<emu::CbConfig>& cbs, const std::set<emu::CoreCoord>& cores,
                                           const std::string& kernel) {
  std::map<uint32_t, CbFormatEntry> by_index;
  for (const emu::CbConfig& cb : cbs) {
    if (std::none_of(cores.begin(), cores.end(), [&](const emu::CoreCoord& c) { return cb.cores.count(c) != 0; })) {
      continue;
    }
    const CbFormatEntry entry{cb.id, cb_data_format_value(cb), emu::cb_tile_bytes(cb)};
    const auto [it, added] = by_index.emplace(cb.id, entry);
    require(added || it->second == entry,
            "kernel {}: CB #{} has two formats on the kernel's cores; tt-metal compiles one format table per kernel",
            kernel, cb.id);
  }
  std::vector<CbFormatEntry> out;
  for (const auto& [index, entry] : by_index) out.push_back(entry);
  return out;
}

std::string cb_format_table_text(const std::vector<CbFormatEntry>& entries) {
  // A CB holds one format and one 32 x 32 tile of it: unpacker and packer see the same values.
  auto format = [](const CbFormatEntry& e) { return e.data_format; };
  auto bytes = [](const CbFormatEntry& e) { return e.tile_bytes; };
  auto given = [](uint32_t v) { return [v](const CbFormatEntry&) { return v; }; };
  std::string text = "// the per-CB format tables, as tt-metal's JIT generates them from the program\n"
                     "#define DATA_FORMATS_DEFINED\n";
  text += table("unsigned char", "unpack_src_format", entries, kInvalidFormat, format);
  text += table("unsigned char", "unpack_dst_format", entries, kInvalidFormat, format);
  text += table("unsigned char", "pack_src_format", entries, kInvalidFormat, format);
  text += table("unsigned char", "pack_dst_format", entries, kInvalidFormat, format);
  text += table("unsigned int", "unpack_tile_size", entries, 0, bytes);
  text += table("unsigned int", "pack_tile_size", entries, 0, bytes);
  text += table("unsigned char", "unpack_tile_r_dim", entries, 0, given(32));
  text += table("unsigned char", "unpack_tile_c_dim", entries, 0, given(32));
  text += table("unsigned char", "unpack_tile_num_faces", entries, 0, given(4));
  text += table("unsigned char", "unpack_tile_face_r_dim", entries, 0, given(16));
  return text;
}

}  // namespace ditmk::tt::dialect
