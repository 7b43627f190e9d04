#pragma once
// The 8 DRAM banks and the buffers in them. A buffer has one base address, the same in every bank
// (as tt-metal allocates), and its pages or shards are spread over the banks:
//   interleaved: page p lives in bank p % 8 at base + (p / 8) * aligned page bytes;
//   sharded:     shard s lives in bank s % 8 at base + (s / 8) * shard bytes.
// Only the bytes a buffer covers in a bank are addressable; everything else is a fault.
#include <array>
#include <deque>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ditmk/tt/emu/chip.hpp"
#include "ditmk/tt/emu/written_map.hpp"
#include "ditmk/tt/formats.hpp"

namespace ditmk::tt::emu {

enum class DramLayout { interleaved, sharded };

struct DramBuffer {
  std::string name;
  DramLayout layout = DramLayout::interleaved;
  TileFormat format = TileFormat::bf16;  // what it streams as: sets the DRAM rate of the time bound
  uint32_t address = 0;     // base address in every bank
  uint64_t size = 0;        // logical bytes
  uint32_t unit_bytes = 0;  // page (interleaved) or shard (sharded) bytes
  uint32_t unit_stride = 0; // distance between a bank's consecutive units
  uint32_t units = 0;

  // Units held by a bank and the bytes they span there.
  uint32_t units_in_bank(uint32_t bank) const;
  uint64_t bytes_in_bank(uint32_t bank) const { return uint64_t(units_in_bank(bank)) * unit_stride; }
  // Where logical byte offset `offset` of the buffer lives: bank and address in the bank.
  std::pair<uint32_t, uint32_t> locate(uint64_t offset) const;
};

class Dram {
 public:
  // At the next free address, or at `address` (a host that chose its own addresses, as ttnn's
  // allocator does): 64 B aligned and overlapping no other buffer in any bank. Buffers allocated
  // afterwards without an address go above every buffer placed so far.
  const DramBuffer& allocate(std::string name, DramLayout layout, TileFormat format, uint64_t size,
                             uint32_t unit_bytes, std::optional<uint32_t> address = std::nullopt);
  // All of the buffer's bytes, or for a sharded buffer all but the tail of its last shard.
  void write(const DramBuffer& buffer, std::span<const std::byte> bytes);
  std::vector<std::byte> read(const DramBuffer& buffer) const;

  // The buffer whose bytes in `bank` contain [address, address+size), or none.
  const DramBuffer* buffer_at(uint32_t bank, uint32_t address, uint32_t size) const;
  std::byte* bank_bytes(uint32_t bank, uint32_t address) { return banks_[bank].data() + address; }
  WrittenMap& written(uint32_t bank) { return written_[bank]; }

 private:
  std::array<std::vector<std::byte>, kNumDramBanks> banks_;
  std::array<WrittenMap, kNumDramBanks> written_;
  std::deque<DramBuffer> buffers_;  // stable addresses: callers keep references
  uint32_t next_address_ = 0;
};

}  // namespace ditmk::tt::emu
