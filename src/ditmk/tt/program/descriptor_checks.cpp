#include "ditmk/tt/program/descriptor_checks.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

#include "ditmk/tt/plan/limits.hpp"

namespace ditmk::tt::dialect::detail {

namespace {

// The processors a kernel can own on a core: BRISC, NCRISC and the compute processor (TRISC).
enum Slot { kRiscv0, kRiscv1, kCompute, kSlots };

Slot slot_of(const KernelConfig& config) {
  if (config.type == KernelType::compute) return kCompute;
  return config.processor == RiscProcessor::riscv_0 ? kRiscv0 : kRiscv1;
}

std::string_view slot_name(Slot slot) {
  switch (slot) {
    case kRiscv0: return "riscv_0 (BRISC)";
    case kRiscv1: return "riscv_1 (NCRISC)";
    default: return "the compute processor";
  }
}

// For every core, which object (by index) holds each of `Ids` ids there; -1: none yet.
template <size_t Ids>
struct IdTable {
  IdTable() {
    for (auto& core : owner) core.fill(-1);
  }
  std::array<std::array<int, Ids>, emu::kNumCores> owner;
  int& at(emu::CoreCoord core, uint32_t id) { return owner[emu::core_index(core)][id]; }
};

constexpr uint64_t align_up(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

}  // namespace

void check_kernel_placement(const ProgramDescriptor& program) {
  IdTable<kSlots> table;
  for (size_t k = 0; k < program.kernels.size(); ++k) {
    const KernelDescriptor& kernel = program.kernels[k];
    const Slot slot = slot_of(kernel.config);
    for (size_t r = 0; r < kernel.core_ranges.size(); ++r)
      for (const emu::CoreCoord core : cores_of({kernel.core_ranges[r]})) {
        int& owner = table.at(core, slot);
        if (owner >= 0)
          fail_at(program.file, fmt::format("kernels[{}].core_ranges[{}]", k, r),
                  fmt::format("core {} already runs kernels[{}] on {}", emu::core_name(core), owner, slot_name(slot)));
        owner = int(k);
      }
  }
}

void check_cb_ids(const ProgramDescriptor& program) {
  IdTable<emu::kMaxCbId> table;
  for (size_t c = 0; c < program.cbs.size(); ++c) {
    const CBDescriptor& cb = program.cbs[c];
    const std::vector<emu::CoreCoord> cores = cores_of(cb.core_ranges);
    for (size_t f = 0; f < cb.format_descriptors.size(); ++f) {
      const uint32_t id = cb.format_descriptors[f].buffer_index;
      for (const emu::CoreCoord core : cores) {
        int& owner = table.at(core, id);
        if (owner >= 0 && owner != int(c))
          fail_at(program.file, fmt::format("cbs[{}].format_descriptors[{}].buffer_index", c, f),
                  fmt::format("CB {} on core {} is also cbs[{}]", id, emu::core_name(core), owner));
        owner = int(c);
      }
    }
  }
}

void check_semaphore_ids(const ProgramDescriptor& program) {
  IdTable<emu::kSemaphoresPerCore> table;
  for (size_t s = 0; s < program.semaphores.size(); ++s) {
    const SemaphoreDescriptor& semaphore = program.semaphores[s];
    for (const emu::CoreCoord core : cores_of(semaphore.core_ranges)) {
      int& owner = table.at(core, semaphore.id);
      if (owner >= 0)
        fail_at(program.file, fmt::format("semaphores[{}].id", s),
                fmt::format("semaphore {} on core {} is also semaphores[{}]", semaphore.id, emu::core_name(core), owner));
      owner = int(s);
    }
  }
}

L1Layout place_l1(const ProgramDescriptor& program) {
  L1Layout layout;
  // Per core: the lowest offset the L1 tensors hold and the first offset above the CBs.
  std::array<uint64_t, emu::kNumCores> top, next;
  top.fill(kL1Bytes);
  next.fill(kL1CbBase);
  const CoreRangeSet every_core = {{{0, 0}, {emu::kGridX - 1, emu::kGridY - 1}}};
  struct Region {
    uint64_t begin, end;
    size_t tensor;
  };
  std::vector<std::vector<Region>> fixed(emu::kNumCores);  // the fixed-address tensors on each core
  // Tensors with a fixed address first (so the others go below all of them), then the rest in
  // descriptor order.
  for (const bool fixed_pass : {true, false}) {
    for (size_t t = 0; t < program.tensors.size(); ++t) {
      const TensorDescriptor& tensor = program.tensors[t];
      if (in_dram(tensor.memory) || tensor.address.has_value() != fixed_pass) continue;
      const bool sharded = tensor.memory == TensorMemory::l1_sharded;
      // an interleaved tensor has a bank on every worker core
      const std::vector<emu::CoreCoord> cores = cores_of(sharded ? tensor.cores : every_core);
      const uint64_t bytes = sharded ? tensor.shard_size : l1_bank_bytes(tensor.bytes(), tensor.page_size);
      auto& addresses = sharded ? layout.shard_addresses : layout.interleaved_addresses;
      if (fixed_pass) {
        const Region region{*tensor.address, *tensor.address + bytes, t};
        for (const emu::CoreCoord core : cores) {
          for (const Region& other : fixed[emu::core_index(core)])
            if (region.begin < other.end && other.begin < region.end)
              fail_at(program.file, fmt::format("tensors[{}].address", t),
                      fmt::format("[{:#x}, {:#x}) overlaps tensors[{}] ('{}') at [{:#x}, {:#x}) on core {}", region.begin,
                                  region.end, other.tensor, program.tensors[other.tensor].name, other.begin, other.end,
                                  emu::core_name(core)));
          fixed[emu::core_index(core)].push_back(region);
          top[emu::core_index(core)] = std::min(top[emu::core_index(core)], region.begin);
        }
        addresses[tensor.name] = *tensor.address;
        continue;
      }
      const uint64_t size = align_up(bytes, kL1CbAlign);
      const emu::CoreCoord fullest = *std::min_element(cores.begin(), cores.end(), [&](emu::CoreCoord a, emu::CoreCoord b) {
        return top[emu::core_index(a)] < top[emu::core_index(b)];
      });
      const uint64_t bottom = top[emu::core_index(fullest)] / kL1CbAlign * kL1CbAlign;
      if (bottom < kL1CbBase + size)
        fail_at(program.file, fmt::format("tensors[{}].{}", t, sharded ? "shard_size" : "shape"),
                fmt::format("the L1 tensors on core {} need {} B, more than the {} B of usable L1 (1427 KiB)",
                            emu::core_name(fullest), kL1Bytes - bottom + size, kL1UsableBytes));
      for (const emu::CoreCoord core : cores) top[emu::core_index(core)] = bottom - size;
      addresses[tensor.name] = uint32_t(bottom - size);
    }
  }
  for (size_t c = 0; c < program.cbs.size(); ++c) {
    const CBDescriptor& cb = program.cbs[c];
    if (!cb.tensor.empty()) {
      layout.cb_addresses.push_back(layout.shard_addresses.at(cb.tensor));
      continue;
    }
    const std::vector<emu::CoreCoord> cores = cores_of(cb.core_ranges);
    uint64_t address = kL1CbBase;
    for (const emu::CoreCoord core : cores) address = std::max(address, align_up(next[emu::core_index(core)], kL1CbAlign));
    const uint64_t end = address + cb.total_size;
    for (const emu::CoreCoord core : cores) {
      const uint64_t limit = top[emu::core_index(core)];
      if (end > limit)
        fail_at(program.file, fmt::format("cbs[{}].total_size", c),
                fmt::format("the CBs on core {} need L1 up to offset {}, past the {} B usable from {} up (1427 KiB{})",
                            emu::core_name(core), end, kL1UsableBytes, kL1CbBase,
                            limit == kL1Bytes ? "" : fmt::format(", {} B of it held by L1 tensors", kL1Bytes - limit)));
      next[emu::core_index(core)] = end;
    }
    layout.cb_addresses.push_back(uint32_t(address));
  }
  // Scratchpads above the CBs (tt-metal allocates them with the program's other per-node L1), each
  // at one address on all of its kernel's cores.
  for (size_t k = 0; k < program.kernels.size(); ++k) {
    const KernelDescriptor& kernel = program.kernels[k];
    std::vector<uint32_t>& addresses = layout.scratchpad_addresses.emplace_back();
    const std::vector<emu::CoreCoord> cores = cores_of(kernel.core_ranges);
    for (size_t s = 0; s < kernel.scratchpad_bindings.size(); ++s) {
      uint64_t address = kL1CbBase;
      for (const emu::CoreCoord core : cores) address = std::max(address, align_up(next[emu::core_index(core)], kL1CbAlign));
      const uint64_t end = address + kernel.scratchpad_bindings[s].second;
      for (const emu::CoreCoord core : cores) {
        if (end > top[emu::core_index(core)])
          fail_at(program.file, fmt::format("kernels[{}].scratchpad_bindings[{}].size", k, s),
                  fmt::format("the CBs and scratchpads on core {} need L1 up to offset {}, past the {} B usable from {} "
                              "up (1427 KiB)",
                              emu::core_name(core), end, kL1UsableBytes, kL1CbBase));
        next[emu::core_index(core)] = end;
      }
      addresses.push_back(uint32_t(address));
    }
  }
  return layout;
}

}  // namespace ditmk::tt::dialect::detail

namespace ditmk::tt::dialect {

L1Layout l1_layout(const ProgramDescriptor& program) { return detail::place_l1(program); }

}  // namespace ditmk::tt::dialect
