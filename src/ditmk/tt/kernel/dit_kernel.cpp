// The DiT megakernel: one unified kernel source in tt-metal's dialect, compiled for every processor
// of every core (reader: NCRISC, writer: BRISC, compute: TRISC) with the role flags and named
// compile-time args of its core range, launched from the ProgramDescriptor `ditmk plan
// --descriptor` writes. Each header owns one part of the walk (docs/megakernel.md has a row per
// header); this file is the entry.
#include <stdint.h>

// Each processor's build sees its own API only, as tt-metal's JIT builds them: the compute API on
// TRISC, the dataflow API on BRISC and NCRISC. The headers are tt-metal 0.81.1's: silu_tile is
// declared in compute_kernel_api.h alone, the profiler's macros in api/debug/kernel_profiler.hpp.
#if defined(COMPILE_FOR_TRISC)
#include "api/compute/bcast.h"
#include "api/compute/compute_kernel_api.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/gelu.h"
#include "api/compute/eltwise_unary/recip.h"
#include "api/compute/eltwise_unary/rsqrt.h"
#include "api/compute/eltwise_unary/sqrt.h"
#include "api/compute/matmul.h"
#include "api/compute/pack.h"
#include "api/compute/reconfig_data_format.h"
#include "api/compute/reduce.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/transpose.h"
#else
#include "api/dataflow/dataflow_api.h"
#endif
#include "api/debug/kernel_profiler.hpp"
#include "block_walk.hpp"

void kernel_main() {
  using namespace ditmk::tt::kernel;
  // Readers and spares have no work in direct mode: their build is this test alone.
  if constexpr (get_named_compile_time_arg_val("is_compute") != 0 || get_named_compile_time_arg_val("is_hub") != 0) {
    Ctx x;
    if (!x.compute && !x.hub) return;  // the second hub in the simplified protocol
    Walk(x).run();
  }
}
