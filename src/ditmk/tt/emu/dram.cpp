#include "ditmk/tt/emu/dram.hpp"

#include <algorithm>
#include <cstring>

#include "ditmk/core/error.hpp"

namespace ditmk::tt::emu {

namespace {
uint64_t align_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}
}  // namespace

uint32_t DramBuffer::units_in_bank(uint32_t bank) const {
  return bank < units % kNumDramBanks ? units / kNumDramBanks + 1 : units / kNumDramBanks;
}

std::pair<uint32_t, uint32_t> DramBuffer::locate(uint64_t offset) const {
  const uint64_t unit = offset / unit_bytes, within = offset % unit_bytes;
  return {uint32_t(unit % kNumDramBanks),
          uint32_t(address + (unit / kNumDramBanks) * unit_stride + within)};
}

const DramBuffer& Dram::allocate(std::string name, DramLayout layout, TileFormat format,
                                 uint64_t size, uint32_t unit_bytes, std::optional<uint32_t> address) {
  require(size > 0 && unit_bytes > 0 && size % unit_bytes == 0,
          "DRAM buffer '{}': size {} is not a positive multiple of its {} unit of {} B", name, size,
          layout == DramLayout::interleaved ? "page" : "shard", unit_bytes);
  DramBuffer buffer;
  buffer.name = std::move(name);
  buffer.layout = layout;
  buffer.format = format;
  buffer.address = address.value_or(next_address_);
  buffer.size = size;
  buffer.unit_bytes = unit_bytes;
  buffer.unit_stride = uint32_t(align_up(unit_bytes, kDramAlignment));
  buffer.units = uint32_t(size / unit_bytes);
  const uint64_t end = align_up(uint64_t(buffer.address) + buffer.bytes_in_bank(0), kDramAlignment);
  require(end < (1ull << 32), "DRAM buffer '{}' does not fit the 32-bit bank address space",
          buffer.name);
  if (address) {
    require(*address % kDramAlignment == 0, "DRAM buffer '{}': address {:#x} is not {} B aligned", buffer.name,
            *address, kDramAlignment);
    // bank 0 holds the most units of any buffer, so its span bounds every bank's
    for (const DramBuffer& other : buffers_) {
      require(end <= other.address || buffer.address >= other.address + other.bytes_in_bank(0),
              "DRAM buffer '{}' at {:#x} overlaps DRAM buffer '{}' at {:#x}", buffer.name, buffer.address, other.name,
              other.address);
    }
  }
  if (end > next_address_) {
    next_address_ = uint32_t(end);
    for (uint32_t bank = 0; bank < kNumDramBanks; ++bank) {
      banks_[bank].resize(next_address_);
      written_[bank].grow(next_address_);
    }
  }
  buffers_.push_back(std::move(buffer));
  return buffers_.back();
}

void Dram::write(const DramBuffer& buffer, std::span<const std::byte> bytes) {
  // a sharded tensor whose last shard it does not fill leaves that shard's tail unwritten
  const bool short_last_shard = buffer.layout == DramLayout::sharded && bytes.size() < buffer.size &&
                                bytes.size() + buffer.unit_bytes > buffer.size;
  require(bytes.size() == buffer.size || short_last_shard, "DRAM buffer '{}': host wrote {} B, the buffer holds {} B",
          buffer.name, bytes.size(), buffer.size);
  for (uint64_t offset = 0; offset < bytes.size(); offset += buffer.unit_bytes) {
    const auto [bank, address] = buffer.locate(offset);
    const uint32_t n = uint32_t(std::min<uint64_t>(buffer.unit_bytes, bytes.size() - offset));
    std::memcpy(banks_[bank].data() + address, bytes.data() + offset, n);
    written_[bank].mark(address, n);
  }
}

std::vector<std::byte> Dram::read(const DramBuffer& buffer) const {
  std::vector<std::byte> out(buffer.size);
  for (uint64_t offset = 0; offset < buffer.size; offset += buffer.unit_bytes) {
    const auto [bank, address] = buffer.locate(offset);
    std::memcpy(out.data() + offset, banks_[bank].data() + address, buffer.unit_bytes);
  }
  return out;
}

const DramBuffer* Dram::buffer_at(uint32_t bank, uint32_t address, uint32_t size) const {
  for (const DramBuffer& buffer : buffers_) {
    const uint64_t end = uint64_t(buffer.address) + buffer.bytes_in_bank(bank);
    if (address >= buffer.address && uint64_t(address) + size <= end) return &buffer;
  }
  return nullptr;
}

}  // namespace ditmk::tt::emu
