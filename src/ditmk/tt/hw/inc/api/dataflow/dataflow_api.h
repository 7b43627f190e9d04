#pragma once
// tt-metal's data-movement kernel API (api/dataflow/dataflow_api.h) on the emulated chip: runtime
// and compile-time args, circular buffers, NoC transfers, DRAM address generators, TensorAccessor,
// semaphores, debug printing and profiler zones. Data-movement kernels see it without including it,
// as on tt-metal. Every call forwards to the emulator through the ABI table (ditmk_device_abi.h).
#include <stddef.h>
#include <stdint.h>

#include "api/compile_time_args.h"
#include "api/named_compile_time_args.h"
#include "api/tensor/tensor_accessor.h"
#include "api/tensor/tensor_accessor_args.h"
#include "debug/assert.h"
#include "debug/dprint.h"
#include "debug/waypoint.h"
#include "ditmk/addrgen.h"
#include "ditmk/attributes.h"
#include "ditmk/cb_format.h"
#include "ditmk/circular_buffer.h"
#include "ditmk/data_format.h"
#include "ditmk/kernel_args.h"
#include "ditmk/noc.h"
// What the chip's dataflow API includes too: risc_attribs.h directly, invalidate_l1_cache through its
// profiler header's risc_common.h.
#include "internal/risc_attribs.h"
#include "internal/tt-1xx/cache.h"
#include "ditmk/noc_index.h"
#include "ditmk/noc_state.h"
#include "ditmk/semaphore.h"
#include "hostdevcommon/kernel_structs.h"
// 0.81.1 reaches it through internal/tt-1xx/risc_common.h
#include "internal/tt-1xx/cache.h"
#include "api/debug/kernel_profiler.hpp"
