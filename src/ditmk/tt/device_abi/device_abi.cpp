#include "ditmk/tt/device_abi/device_abi.hpp"

#include <algorithm>

#include "ditmk/tt/device_abi/device_abi_parts.hpp"
#include "ditmk/tt/emu/kernel_guard.hpp"

namespace ditmk::tt::dialect {

namespace {

// A function's name as a template argument.
template <std::size_t N>
struct CallName {
  char text[N];
  constexpr CallName(const char (&name)[N]) { std::copy_n(name, N, text); }
};

// Each entry marks its call for the kernel guard (tt/emu/kernel_guard.hpp): progress for the
// watchdog, the last call a fault names, and "inside the emulator" while it runs.
template <CallName Name, auto Function>
struct Traced;

template <CallName Name, typename Result, typename... Args, Result (*Function)(Args...)>
struct Traced<Name, Function> {
  static Result call(Args... args) {
    emu::ApiCallScope scope(Name.text);
    return Function(args...);
  }
};

}  // namespace

#define DITMK_ABI_ENTRY(name) .name = Traced<#name, abi::name>::call

// Designated in declaration order, so a member left out or moved in the C header fails to compile
// here rather than reaching a kernel as a null pointer.
const ditmk_device_abi& device_abi() {
  static constexpr ditmk_device_abi table = {
      DITMK_ABI_ENTRY(fault),
      DITMK_ABI_ENTRY(dprint),
      DITMK_ABI_ENTRY(dprint_text),
      DITMK_ABI_ENTRY(dprint_format),
      DITMK_ABI_ENTRY(zone_begin),
      DITMK_ABI_ENTRY(zone_end),
      DITMK_ABI_ENTRY(zone_data),
      DITMK_ABI_ENTRY(risc_l1_bytes),
      DITMK_ABI_ENTRY(my_x),
      DITMK_ABI_ENTRY(my_y),
      DITMK_ABI_ENTRY(arg),
      DITMK_ABI_ENTRY(common_arg),
      DITMK_ABI_ENTRY(arg_address),
      DITMK_ABI_ENTRY(common_arg_address),
      DITMK_ABI_ENTRY(cb_reserve_back),
      DITMK_ABI_ENTRY(cb_push_back),
      DITMK_ABI_ENTRY(cb_wait_front),
      DITMK_ABI_ENTRY(cb_pop_front),
      DITMK_ABI_ENTRY(cb_pages_ready),
      DITMK_ABI_ENTRY(get_write_ptr),
      DITMK_ABI_ENTRY(get_read_ptr),
      DITMK_ABI_ENTRY(get_tile_size),
      DITMK_ABI_ENTRY(get_dataformat),
      DITMK_ABI_ENTRY(noc_addr),
      DITMK_ABI_ENTRY(noc_multicast_addr),
      DITMK_ABI_ENTRY(dram_noc_addr),
      DITMK_ABI_ENTRY(noc_async_read),
      DITMK_ABI_ENTRY(noc_async_write),
      DITMK_ABI_ENTRY(noc_async_write_multicast),
      DITMK_ABI_ENTRY(noc_barrier),
      DITMK_ABI_ENTRY(get_semaphore),
      DITMK_ABI_ENTRY(noc_semaphore_wait),
      DITMK_ABI_ENTRY(noc_semaphore_set),
      DITMK_ABI_ENTRY(noc_semaphore_inc),
      DITMK_ABI_ENTRY(noc_semaphore_set_multicast),
      DITMK_ABI_ENTRY(compute_init),
      DITMK_ABI_ENTRY(dst),
      DITMK_ABI_ENTRY(copy_tile),
      DITMK_ABI_ENTRY(transpose_wh_tile),
      DITMK_ABI_ENTRY(binary_tiles),
      DITMK_ABI_ENTRY(matmul_tiles),
      DITMK_ABI_ENTRY(reduce_tile),
      DITMK_ABI_ENTRY(sfpu_tile),
      DITMK_ABI_ENTRY(pack_tile),
      DITMK_ABI_ENTRY(l1_bank_noc_addr),
      DITMK_ABI_ENTRY(get_cb_interface),
      DITMK_ABI_ENTRY(noc_set_state),
      DITMK_ABI_ENTRY(noc_with_state),
      DITMK_ABI_ENTRY(unpack_tilize),
      DITMK_ABI_ENTRY(pack_untilize),
      DITMK_ABI_ENTRY(sfpu_tile_param),
      DITMK_ABI_ENTRY(unary_bcast_tile),
      DITMK_ABI_ENTRY(binary_reuse_dest_tile),
      DITMK_ABI_ENTRY(sfpu_binary_tile),
  };
  return table;
}

#undef DITMK_ABI_ENTRY

}  // namespace ditmk::tt::dialect
