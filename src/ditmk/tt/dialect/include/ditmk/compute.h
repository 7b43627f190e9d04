#pragma once
// Helpers of the compute headers: the ABI's encodings of tt-metal's compute enums.
#include <stdint.h>

#include "api/compute/common_globals.h"
#include "ditmk/abi.h"
#include "ditmk/attributes.h"

namespace ditmk::compute {

FORCE_INLINE void init(uint32_t kind, uint32_t param0 = 0, uint32_t param1 = 0) {
  abi->compute_init(kind, param0, param1);
}

constexpr uint32_t broadcast(ckernel::BroadcastType type) { return uint32_t(type); }

template <ckernel::EltwiseBinaryType type>
constexpr uint32_t binary_op() {
  static_assert(type == ckernel::ELWADD || type == ckernel::ELWSUB || type == ckernel::ELWMUL,
                "the emulator models the ELWADD, ELWSUB and ELWMUL binary ops");
  return type == ckernel::ELWADD ? DITMK_BINARY_ADD : type == ckernel::ELWSUB ? DITMK_BINARY_SUB : DITMK_BINARY_MUL;
}

// An SFPU call's vector_mode: tt-metal passes a VectorMode or, in older kernels, its int value.
struct VectorModeArg {
  constexpr VectorModeArg(ckernel::VectorMode mode_in) : mode(uint32_t(mode_in)) {}
  constexpr VectorModeArg(int mode_in) : mode(uint32_t(mode_in)) {}
  uint32_t mode;
};

FORCE_INLINE void sfpu(uint32_t op, uint32_t idst, VectorModeArg vector_mode, const char* call) {
  if (vector_mode.mode != uint32_t(ckernel::VectorMode::RC)) {
    detail::fault(DITMK_FAULT_BAD_CALL,
                  detail::Message() << call << ": vector_mode " << vector_mode.mode
                                    << " (part of the tile) is not modelled; the emulator computes whole tiles (RC)");
  }
  abi->sfpu_tile(op, idst);
}

}  // namespace ditmk::compute
