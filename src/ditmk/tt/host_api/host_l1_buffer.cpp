// The host API's L1 buffers (host_api.hpp): where a tensor's bytes lie on the cores, and the host
// writes and reads that go there.
#include <algorithm>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/host_api/host_api.hpp"

namespace ditmk::tt::dialect {

std::vector<L1Buffer::Piece> L1Buffer::pieces() const {
  std::vector<Piece> out;
  if (!config_.shard_cores.empty()) {
    for (std::size_t i = 0; i < config_.shard_cores.size(); ++i) {
      const uint64_t at = uint64_t(i) * config_.shard_size;
      if (at >= config_.size) break;
      out.push_back({config_.shard_cores[i], 0, at, uint32_t(std::min<uint64_t>(config_.shard_size, config_.size - at))});
    }
    return out;
  }
  const uint64_t pages = config_.size / config_.page_size;
  for (uint64_t p = 0; p < pages; ++p) {
    out.push_back({emu::l1_bank_core(uint32_t(p % emu::kNumL1Banks)),
                   uint32_t(p / emu::kNumL1Banks) * l1_page_stride(config_.page_size), p * config_.page_size,
                   config_.page_size});
  }
  return out;
}

std::shared_ptr<L1Buffer> HostDevice::create_l1_buffer(const L1BufferConfig& config) {
  require(config.size > 0, "CreateL1Buffer {}: the size must be positive", config.name);
  emu::L1Buffer l1{config.name, {}, config.address, 0};
  if (config.shard_cores.empty()) {
    require(config.page_size > 0 && config.size % config.page_size == 0,
            "CreateL1Buffer {}: {} B are not whole pages of {} B", config.name, config.size, config.page_size);
    const uint64_t bank_bytes = l1_bank_bytes(config.size, config.page_size);
    require(bank_bytes <= emu::kL1Bytes, "CreateL1Buffer {}: {} B per L1 bank do not fit in L1", config.name, bank_bytes);
    for (uint32_t bank = 0; bank < emu::kNumL1Banks; ++bank) l1.cores.push_back(emu::l1_bank_core(bank));
    l1.bytes = uint32_t(bank_bytes);
  } else {
    require(config.shard_size > 0 && uint64_t(config.shard_size) * config.shard_cores.size() >= config.size,
            "CreateL1Buffer {}: {} shards of {} B do not hold {} B", config.name, config.shard_cores.size(),
            config.shard_size, config.size);
    l1.cores = config.shard_cores;
    l1.bytes = config.shard_size;
  }
  return std::make_shared<L1Buffer>(device_.allocate_l1(std::move(l1)), config);
}

std::shared_ptr<L1Buffer> CreateL1Buffer(HostDevice& device, const L1BufferConfig& config) {
  return device.create_l1_buffer(config);
}

void EnqueueWriteBuffer(HostDevice& device, const L1Buffer& buffer, std::span<const std::byte> bytes) {
  require(bytes.size() == buffer.size(), "EnqueueWriteBuffer {}: {} B for a buffer of {} B", buffer.l1().name,
          bytes.size(), buffer.size());
  for (const L1Buffer::Piece& piece : buffer.pieces())
    device.emulator().write_l1(buffer.l1(), piece.core, piece.offset, bytes.subspan(piece.at, piece.size));
}

void EnqueueReadBuffer(HostDevice& device, const L1Buffer& buffer, std::vector<std::byte>& bytes) {
  bytes.assign(buffer.size(), std::byte{0});
  for (const L1Buffer::Piece& piece : buffer.pieces()) {
    const std::vector<std::byte> part = device.emulator().read_l1(buffer.l1(), piece.core, piece.offset, piece.size);
    std::copy(part.begin(), part.end(), bytes.begin() + std::ptrdiff_t(piece.at));
  }
}

}  // namespace ditmk::tt::dialect
