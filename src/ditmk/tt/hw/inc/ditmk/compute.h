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

// An SFPU call with its 32-bit argument (a float's bits, or typecast's formats).
FORCE_INLINE void sfpu_param(uint32_t op, uint32_t idst, uint32_t param, VectorModeArg vector_mode, const char* call) {
  if (vector_mode.mode != uint32_t(ckernel::VectorMode::RC)) {
    detail::fault(DITMK_FAULT_BAD_CALL,
                  detail::Message() << call << ": vector_mode " << vector_mode.mode
                                    << " (part of the tile) is not modelled; the emulator computes whole tiles (RC)");
  }
  abi->sfpu_tile_param(op, idst, param);
}

// An SFPU call of two DST tiles into a third (ditmk_sfpu_binary_op).
FORCE_INLINE void sfpu_binary(uint32_t op, uint32_t idst0, uint32_t idst1, uint32_t odst, VectorModeArg vector_mode,
                              const char* call) {
  if (vector_mode.mode != uint32_t(ckernel::VectorMode::RC)) {
    detail::fault(DITMK_FAULT_BAD_CALL,
                  detail::Message() << call << ": vector_mode " << vector_mode.mode
                                    << " (part of the tile) is not modelled; the emulator computes whole tiles (RC)");
  }
  abi->sfpu_binary_tile(op, idst0, idst1, odst);
}

// mask_tile and mask_posinf_tile: the chip's SFPU reads the mask from DST[idst_data + 1] whatever
// idst2_mask says, so another idst2_mask faults rather than masking with a tile the chip would not.
FORCE_INLINE void sfpu_mask(uint32_t op, uint32_t idst_data, uint32_t idst2_mask, const char* call) {
  if (idst2_mask != idst_data + 1) {
    detail::fault(DITMK_FAULT_BAD_CALL, detail::Message() << call << "(" << idst_data << ", " << idst2_mask
                                                          << "): the SFPU reads the mask from DST[" << idst_data + 1
                                                          << "], the tile after the data's, not from DST["
                                                          << idst2_mask << "]");
  }
  sfpu_binary(op, idst_data, idst2_mask, idst_data, ckernel::VectorMode::RC, call);
}

// A call on integer values in DST: the emulator's DST holds fp32 values, so it faults naming itself.
[[noreturn]] FORCE_INLINE void integer_dst_call(const char* call) {
  detail::fault(DITMK_FAULT_BAD_CALL, detail::Message() << call
                                                        << ": integer values in DST are not modelled (the emulator's "
                                                           "DST holds fp32 values)");
}

// A float argument as the bits the SFPU receives.
FORCE_INLINE uint32_t float_bits(float value) { return __builtin_bit_cast(uint32_t, value); }

// A template vector mode (sigmoid_tile<VectorMode::RC, ...>) as the run-time argument sfpu takes.
template <auto mode>
constexpr VectorModeArg vector_mode_of() {
  return VectorModeArg(int(mode));
}

}  // namespace ditmk::compute

// The SFPU calls of the element-wise family: a tt-metal call `name_tile_init<...>()` /
// `name_tile<...>(idst)` whose template options (approximation modes, fp32 DST flags) do not change
// the emulator's result, which is the exact function.
#define DITMK_SFPU_UNARY(name, op)                                                               \
  template <auto... options>                                                                     \
  ALWI void name##_tile_init() {                                                                 \
    ditmk::compute::init(DITMK_INIT_SFPU, op);                                                   \
  }                                                                                              \
  template <auto... options>                                                                     \
  ALWI void name##_tile(uint32_t idst, ditmk::compute::VectorModeArg vector_mode = VectorMode::RC) { \
    ditmk::compute::sfpu(op, idst, vector_mode, #name "_tile");                                  \
  }
