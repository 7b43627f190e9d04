#pragma once
// The running sum down a tile's columns: not modelled; both calls fault naming themselves
// (ditmk/not_modelled.h), declared so that ttnn's kernel_lib, which includes this header for every
// kernel of its eltwise chain, compiles.
#include "api/compute/common.h"
#include "ditmk/not_modelled.h"

namespace ckernel {

ALWI void cumsum_tile_init() { ditmk::detail::not_modelled("cumsum_tile_init"); }

ALWI void cumsum_tile(uint32_t idst, bool first = true) {
  (void)idst, (void)first;
  ditmk::detail::not_modelled("cumsum_tile");
}

}  // namespace ckernel
