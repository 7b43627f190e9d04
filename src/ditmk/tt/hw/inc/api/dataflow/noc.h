#pragma once
// tt-metal's object-style NoC API: a Noc moves bytes between endpoints (a TensorAccessor page, a
// DataflowBuffer or CircularBuffer, a Unicast/MulticastEndpoint, a Semaphore, ...), each endpoint
// type saying through noc_traits_t<T> how its arguments ({.page_id = i}, {.offset_bytes = 0}, ...)
// become a NoC address or a local L1 address. The transfers are the function API's
// (ditmk/noc.h): a read takes its source when issued and lands at the read barrier, a write lands at
// the write barrier.
//
// Hardware choices the options name (virtual channels, posted writes) are accepted and change
// nothing. Transaction ids are accepted too: a barrier or flush for one id waits for all of the
// kernel's transfers of that kind, which covers the id's. What the emulator cannot model
// (inline dword writes, polling an id) faults naming the call.
#include <stdint.h>

#include <type_traits>

#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dfb_access.h"
#include "ditmk/abi.h"
#include "ditmk/noc.h"
#include "ditmk/noc_state.h"

template <typename DSpecT>
struct TensorAccessor;
struct UnicastEndpoint;
struct MulticastEndpoint;
class CircularBuffer;

// The arguments of a DataflowBuffer endpoint: bytes past its read (source) or write (destination)
// pointer.
struct DataflowBufferArgs {
  uint32_t offset_bytes{};
};

// How an endpoint type turns its arguments into addresses. Each supported type specializes it with
// src_args_type / dst_args_type (and dst_args_mcast_type for multicast destinations) and the static
// src_addr / dst_addr / dst_addr_mcast functions.
template <typename T>
struct noc_traits_t {
  static_assert(sizeof(T) == 0, "NoC transfers are not supported for this endpoint type");
};

// May T be the local-L1 destination of Noc::async_write_zeros?
template <typename T>
inline constexpr bool noc_zero_l1_endpoint_v = false;

template <typename T>
inline constexpr bool is_scratchpad_v = false;

// Options of a transfer, OR-able at the call site: noc.async_write<NocOptions::POSTED>(...).
enum class NocOptions : uint32_t {
  DEFAULT = 0,
  TXN_ID = 1u << 0,
  POSTED = 1u << 1,
  CUSTOM_VC = 1u << 2,
  MCAST_INCL_SRC = 1u << 3,
  INLINE_L1 = 1u << 4,
  INLINE_REG = 1u << 5,
};

constexpr NocOptions operator|(NocOptions a, NocOptions b) noexcept {
  return static_cast<NocOptions>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}

constexpr bool has_flag(NocOptions opts, NocOptions flag) noexcept {
  return (static_cast<uint32_t>(opts) & static_cast<uint32_t>(flag)) != 0;
}

// The values of the options that take one: vc with CUSTOM_VC, trid with TXN_ID.
struct NocOptVals {
  uint32_t vc = NOC_UNICAST_WRITE_VC;
  uint32_t trid = 0;
};

class Noc {
 public:
  enum class AddressType { NOC, LOCAL_L1 };

  static constexpr uint32_t INVALID_TXN_ID = 0xFFFFFFFF;

 private:
  template <typename T>
  using src_args_t = typename noc_traits_t<T>::src_args_type;
  template <typename T>
  using dst_args_t = typename noc_traits_t<T>::dst_args_type;
  template <typename T>
  using dst_args_mcast_t = typename noc_traits_t<T>::dst_args_mcast_type;

  template <AddressType address_type>
  using address_t = std::conditional_t<address_type == Noc::AddressType::LOCAL_L1, uint32_t, uint64_t>;

  template <AddressType type, typename Src>
  address_t<type> src_address(const Src& src, const src_args_t<Src>& args) const {
    return address_t<type>(noc_traits_t<Src>::template src_addr<type>(src, *this, args));
  }
  template <AddressType type, typename Dst>
  address_t<type> dst_address(const Dst& dst, const dst_args_t<Dst>& args) const {
    return address_t<type>(noc_traits_t<Dst>::template dst_addr<type>(dst, *this, args));
  }

 public:
  Noc() : noc_id_(noc_index) {}
  explicit Noc(uint8_t noc_id) : noc_id_(noc_id) {}

  uint8_t get_noc_id() const { return noc_id_; }

  bool is_local_bank(uint32_t virtual_x, uint32_t virtual_y) const {
    return virtual_x == my_x[noc_id_] && virtual_y == my_y[noc_id_];
  }
  bool is_local_addr(const uint64_t noc_addr) const { return ditmk::detail::noc_addr_is_local(noc_addr, noc_id_); }

  // size_bytes from the source endpoint into the local L1 destination.
  template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
            bool enable_noc_tracing = true, typename Src, typename Dst>
  void async_read(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                  const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}) const {
    (void)noc_opts;
    ditmk::abi->noc_async_read(src_address<AddressType::NOC>(src, src_args),
                               dst_address<AddressType::LOCAL_L1>(dst, dst_args), size_bytes);
  }

  // The stateful pair (ditmk/noc_state.h): the state fixes the source endpoint and, for the
  // one-packet form (max_page_size <= NOC_MAX_BURST_SIZE), the size; each read then names the
  // address within that endpoint.
  template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src>
  void set_async_read_state(const Src& src, uint32_t size_bytes, const src_args_t<Src>& src_args,
                            const NocOptVals& noc_opts = {}) const {
    (void)noc_opts;
    ditmk::abi->noc_set_state(ditmk::detail::kNocRead, src_address<AddressType::NOC>(src, src_args),
                              max_page_size <= NOC_MAX_BURST_SIZE ? size_bytes : 0);
  }

  template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src,
            typename Dst>
  void async_read_with_state(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                             const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}) const {
    (void)noc_opts;
    ditmk::abi->noc_with_state(ditmk::detail::kNocRead, uint32_t(src_address<AddressType::NOC>(src, src_args)),
                               dst_address<AddressType::LOCAL_L1>(dst, dst_args),
                               max_page_size <= NOC_MAX_BURST_SIZE ? 0 : size_bytes);
  }

  // size_bytes from the local L1 source to the destination endpoint.
  template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
            bool enable_noc_tracing = true, typename Src, typename Dst>
  void async_write(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                   const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}) const {
    (void)noc_opts;
    ditmk::abi->noc_async_write(src_address<AddressType::LOCAL_L1>(src, src_args),
                                dst_address<AddressType::NOC>(dst, dst_args), size_bytes);
  }

  // To every core of the destination rectangle but the sender (num_dsts counts them), or with
  // MCAST_INCL_SRC the sender too (num_dsts counts it).
  template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
            bool enable_noc_tracing = true, typename Src, typename Dst>
  void async_write_multicast(const Src& src, const Dst& dst, uint32_t size_bytes, uint32_t num_dsts,
                             const src_args_t<Src>& src_args, const dst_args_mcast_t<Dst>& dst_args,
                             bool linked = false) const {
    static_assert(!has_flag(opts, NocOptions::TXN_ID), "Noc::async_write_multicast takes no transaction id");
    static_assert(!has_flag(opts, NocOptions::POSTED), "Noc::async_write_multicast cannot be posted");
    (void)linked;
    const uint64_t dst_mcast = noc_traits_t<Dst>::template dst_addr_mcast<AddressType::NOC>(dst, *this, dst_args);
    ditmk::abi->noc_async_write_multicast(src_address<AddressType::LOCAL_L1>(src, src_args), dst_mcast, size_bytes,
                                          num_dsts, has_flag(opts, NocOptions::MCAST_INCL_SRC) ? 1 : 0);
  }

  template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Dst>
  void set_async_write_state(const Dst& dst, uint32_t size_bytes, const dst_args_t<Dst>& dst_args,
                             const NocOptVals& noc_opts = {}) const {
    static_assert(!has_flag(opts, NocOptions::TXN_ID), "Noc::set_async_write_state takes no transaction id");
    (void)noc_opts;
    ditmk::abi->noc_set_state(ditmk::detail::kNocWrite, dst_address<AddressType::NOC>(dst, dst_args),
                              max_page_size <= NOC_MAX_BURST_SIZE ? size_bytes : 0);
  }

  template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src,
            typename Dst>
  void async_write_with_state(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                              const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}) const {
    static_assert(!has_flag(opts, NocOptions::TXN_ID), "Noc::async_write_with_state takes no transaction id");
    (void)noc_opts;
    ditmk::abi->noc_with_state(ditmk::detail::kNocWrite, uint32_t(dst_address<AddressType::NOC>(dst, dst_args)),
                               src_address<AddressType::LOCAL_L1>(src, src_args),
                               max_page_size <= NOC_MAX_BURST_SIZE ? 0 : size_bytes);
  }

  template <NocOptions opts = NocOptions::DEFAULT, typename Dst>
  void inline_dw_write(const Dst&, uint32_t, const dst_args_t<Dst>&, uint8_t = 0xF, const NocOptVals& = {}) const {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "not modelled: Noc::inline_dw_write");
  }

  bool is_read_trid_flushed(uint32_t) const {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "not modelled: Noc::is_read_trid_flushed");
  }

  template <NocOptions opts = NocOptions::DEFAULT>
  void async_read_barrier(const NocOptVals& noc_opts = {}) const {
    (void)noc_opts;
    noc_async_read_barrier(noc_id_);
  }

  template <NocOptions opts = NocOptions::DEFAULT>
  void async_write_barrier(const NocOptVals& noc_opts = {}) const {
    (void)noc_opts;
    noc_async_write_barrier(noc_id_);
  }

  template <NocOptions opts = NocOptions::DEFAULT>
  void async_writes_flushed(const NocOptVals& noc_opts = {}) const {
    static_assert(!(has_flag(opts, NocOptions::POSTED) && has_flag(opts, NocOptions::TXN_ID)),
                  "Noc::async_writes_flushed: posted writes have no transaction ids");
    (void)noc_opts;
    noc_async_writes_flushed(noc_id_);
  }

  void async_atomic_barrier() const { noc_async_atomic_barrier(noc_id_); }
  void async_full_barrier() const { noc_async_full_barrier(noc_id_); }

  // Zeroes `size_bytes` of local L1 at the destination (a buffer's write pointer, ...). The chip
  // streams zeros over the NoC to itself; here they are stored at once and charged as the RISC's
  // L1 stores, so the barrier has nothing left to wait for.
  template <typename Dst>
  void async_write_zeros(const Dst& dst, uint32_t size_bytes, const dst_args_t<Dst>& args = {}) const {
    volatile uint32_t* word = reinterpret_cast<volatile uint32_t*>(
        uintptr_t(dst_address<AddressType::LOCAL_L1>(dst, args)));
    for (uint32_t i = 0; i < size_bytes / 4; ++i) word[i] = 0;
    volatile uint8_t* tail = reinterpret_cast<volatile uint8_t*>(word + size_bytes / 4);
    for (uint32_t i = 0; i < size_bytes % 4; ++i) tail[i] = 0;
    ditmk::abi->risc_l1_bytes(size_bytes);
  }
  void write_zeros_l1_barrier() const {}
  void write_zeros_dram_barrier() const {
    ditmk::detail::fault(DITMK_FAULT_BAD_CALL, "not modelled: Noc::write_zeros_dram_barrier");
  }

 private:
  uint8_t noc_id_;
};
