#pragma once
// TensorAccessorArgs<CTA_OFFSET>: what TensorAccessorArgs(buffer) appends to a kernel's compile-time
// args on the host, in ditmk's encoding (the descriptor's {"tensor_accessor_args": "name"}): one
// word, bit 0 set for a DRAM-interleaved tensor, bit 1 for a sharded one, bits 8..31 the aligned page
// size when the host gives it (0: the kernel passes the page size to TensorAccessor). The accessor
// consumes no common runtime args.
#include <stdint.h>

#include "api/compile_time_args.h"

template <uint32_t CTA_OFFSET, uint32_t CRTA_OFFSET = 0>
struct TensorAccessorArgs {
  static_assert(CTA_OFFSET < kernel_compile_time_args.size(),
                "TensorAccessorArgs<CTA_OFFSET>: the offset is past the kernel's compile_time_args");
  static constexpr uint32_t encoding = kernel_compile_time_args[CTA_OFFSET];
  static constexpr bool is_dram = (encoding & 1u) != 0;
  static constexpr bool is_sharded = (encoding & 2u) != 0;
  static constexpr uint32_t AlignedPageSize = encoding >> 8;

  constexpr TensorAccessorArgs() = default;
  static constexpr uint32_t next_compile_time_args_offset() { return CTA_OFFSET + 1; }
  static constexpr uint32_t next_common_runtime_args_offset() { return CRTA_OFFSET; }
  static constexpr uint32_t num_compile_time_args() { return 1; }
  static constexpr uint32_t num_common_runtime_args() { return 0; }
};
