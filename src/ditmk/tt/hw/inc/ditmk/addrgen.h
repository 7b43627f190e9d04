#pragma once
// Pages of interleaved buffers, as tt-metal's address generators compute them: page p lies in bank
// p % the bank count (NUM_DRAM_BANKS DRAM banks, or with DRAM = false NUM_L1_BANKS L1 banks, one per
// worker core) at bank_base_address + (p / the bank count) * stride + offset. The stride is the page
// rounded up to DRAM_ALIGNMENT or L1_ALIGNMENT (InterleavedAddrGen), the tile size of data_format
// (InterleavedAddrGenFast) or a power of two.
#include <stdint.h>

#include <type_traits>
#include <utility>

#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "ditmk/data_format.h"
#include "ditmk/noc.h"

namespace ditmk::detail {

template <bool DRAM>
FORCE_INLINE uint64_t interleaved_page_addr(uint32_t id, uint32_t stride, uint32_t base, uint32_t offset) {
  if constexpr (!DRAM) return abi->l1_bank_noc_addr(id % NUM_L1_BANKS, base + (id / NUM_L1_BANKS) * stride + offset);
  return abi->dram_noc_addr(id % NUM_DRAM_BANKS, base + (id / NUM_DRAM_BANKS) * stride + offset);
}

constexpr uint32_t align_up(uint32_t value, uint32_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

template <typename, typename = void>
inline constexpr bool has_get_noc_addr_v = false;
template <typename T>
inline constexpr bool
    has_get_noc_addr_v<T, std::void_t<decltype(std::declval<T>().get_noc_addr(
                              std::declval<uint32_t>(), std::declval<uint32_t>(), std::declval<uint8_t>()))>> = true;

template <typename, typename = void>
inline constexpr bool has_page_size_v = false;
template <typename T>
inline constexpr bool has_page_size_v<T, std::void_t<decltype(std::declval<T>().page_size)>> = true;

template <typename, typename = void>
inline constexpr bool has_get_aligned_page_size_v = false;
template <typename T>
inline constexpr bool has_get_aligned_page_size_v<T, std::void_t<decltype(std::declval<T>().get_aligned_page_size())>> =
    true;

// The bytes one page transfer of an address generator moves, as tt-metal's noc_async_read_page picks
// them.
template <typename AddrGen>
FORCE_INLINE uint32_t page_size_of(const AddrGen& addrgen) {
  if constexpr (has_get_aligned_page_size_v<AddrGen>) {
    return addrgen.get_aligned_page_size();
  } else if constexpr (has_page_size_v<AddrGen>) {
    return addrgen.page_size;
  } else {
    return 1u << addrgen.log_base_2_of_page_size;
  }
}

}  // namespace ditmk::detail

template <bool DRAM>
struct InterleavedAddrGen {
  static constexpr bool is_dram = DRAM;
  uint32_t bank_base_address;
  const uint32_t page_size;
  const uint32_t aligned_page_size = ditmk::detail::align_up(page_size, DRAM ? DRAM_ALIGNMENT : L1_ALIGNMENT);

  FORCE_INLINE uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
    (void)noc;
    return ditmk::detail::interleaved_page_addr<DRAM>(id, aligned_page_size, bank_base_address, offset);
  }
};

template <bool DRAM>
struct InterleavedPow2AddrGen {
  static constexpr bool is_dram = DRAM;
  const uint32_t bank_base_address;
  const uint32_t log_base_2_of_page_size;

  FORCE_INLINE uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
    (void)noc;
    const uint32_t stride =
        ditmk::detail::align_up(1u << log_base_2_of_page_size, DRAM ? DRAM_ALIGNMENT : L1_ALIGNMENT);
    return ditmk::detail::interleaved_page_addr<DRAM>(id, stride, bank_base_address, offset);
  }
};

template <bool DRAM, uint32_t tile_hw = 1024>
struct InterleavedAddrGenFast {
  static constexpr bool is_dram = DRAM;
  uint32_t bank_base_address;
  uint32_t page_size;
  DataFormat data_format;

  FORCE_INLINE uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
    (void)noc;
    return ditmk::detail::interleaved_page_addr<DRAM>(id, ditmk::detail::tile_bytes(data_format, 1, tile_hw),
                                                      bank_base_address, offset);
  }
};

template <bool DRAM>
struct InterleavedPow2AddrGenFast {
  static constexpr bool is_dram = DRAM;
  uint32_t bank_base_address;
  const uint32_t log_base_2_of_page_size;

  FORCE_INLINE uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
    (void)noc;
    const uint32_t stride =
        ditmk::detail::align_up(1u << log_base_2_of_page_size, DRAM ? DRAM_ALIGNMENT : L1_ALIGNMENT);
    return ditmk::detail::interleaved_page_addr<DRAM>(id, stride, bank_base_address, offset);
  }
};

template <typename AddrGen, std::enable_if_t<ditmk::detail::has_get_noc_addr_v<AddrGen>, int> = 0>
FORCE_INLINE uint64_t get_noc_addr(const uint32_t id, const AddrGen& addrgen, uint32_t offset = 0,
                                   uint8_t noc = noc_index) {
  return addrgen.get_noc_addr(id, offset, noc);
}

inline uint64_t get_dram_noc_addr(const uint32_t id, const uint32_t page_size, const uint32_t bank_base_address,
                                  const uint32_t offset = 0, uint8_t noc = noc_index) {
  (void)noc;
  return ditmk::detail::interleaved_page_addr<true>(id, ditmk::detail::align_up(page_size, DRAM_ALIGNMENT),
                                                    bank_base_address, offset);
}

template <typename AddrGen, bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_read_page(const uint32_t id, const AddrGen& addrgen, uint32_t dst_local_l1_addr,
                                      uint32_t offset = 0, uint8_t noc = noc_index) {
  noc_async_read(addrgen.get_noc_addr(id, offset, noc), dst_local_l1_addr, ditmk::detail::page_size_of(addrgen), noc);
}

template <typename AddrGen>
FORCE_INLINE void noc_async_read_tile(const uint32_t id, const AddrGen& addrgen, uint32_t dst_local_l1_addr,
                                      uint32_t offset = 0, uint8_t noc = noc_index) {
  noc_async_read_page(id, addrgen, dst_local_l1_addr, offset, noc);
}

// size 0: one page of the generator.
template <typename AddrGen, bool enable_noc_tracing = true, bool posted = false>
FORCE_INLINE void noc_async_write_page(const uint32_t id, const AddrGen& addrgen, uint32_t src_local_l1_addr,
                                       uint32_t size = 0, uint32_t offset = 0, uint8_t noc = noc_index) {
  noc_async_write(src_local_l1_addr, addrgen.get_noc_addr(id, offset, noc),
                  size ? size : ditmk::detail::page_size_of(addrgen), noc);
}

template <typename AddrGen>
FORCE_INLINE void noc_async_write_tile(const uint32_t id, const AddrGen& addrgen, uint32_t src_local_l1_addr,
                                       uint8_t noc = noc_index) {
  noc_async_write_page(id, addrgen, src_local_l1_addr, 0, 0, noc);
}
