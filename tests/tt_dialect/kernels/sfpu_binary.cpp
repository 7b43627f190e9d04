// The shape of ttnn's binary SFPU kernels (eltwise_binary_sfpu_kernel.cpp, moreh's max/min) on
// CB 0 -> CB 16: two tiles copied into DST 0 and 1, the SFPU_BINARY define (an op's init and call)
// run on them, then DST[RESULT_DST] and DST 1 packed, so the result and the untouched second operand
// both come out.
#include <stdint.h>

#include "api/compute/add_int_sfpu.h"
#include "api/compute/binary_max_min.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/copy_dest_values.h"
#include "api/compute/cumsum.h"
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/eltwise_unary/binop_with_scalar.h"
#include "api/compute/eltwise_unary/comp.h"
#include "api/compute/mask.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
  constexpr uint32_t cb_in = tt::CBIndex::c_0;
  constexpr uint32_t cb_out = tt::CBIndex::c_16;
  compute_kernel_hw_startup(cb_in, cb_out);
  copy_init(cb_in);
  cb_wait_front(cb_in, 2);
  cb_reserve_back(cb_out, 2);
  tile_regs_acquire();
  copy_tile(cb_in, 0, 0);
  copy_tile(cb_in, 1, 1);
  SFPU_BINARY
  tile_regs_commit();
  tile_regs_wait();
  pack_tile(RESULT_DST, cb_out);
  pack_tile(1, cb_out);
  tile_regs_release();
  cb_pop_front(cb_in, 2);
  cb_push_back(cb_out, 2);
}
