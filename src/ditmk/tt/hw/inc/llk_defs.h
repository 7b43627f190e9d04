#pragma once
// ckernel's enums, where tt-metal's LLK declares them (llk_defs.h): the ones kernels name
// unqualified in template args and the compute config's MATH_FIDELITY and DST_SYNC_MODE, which the
// generated descriptors (the kernel compiler's wrapper) define before any other header.
#include <stdint.h>

namespace ckernel {

enum class DstSync { SyncHalf = 0, SyncFull = 1 };
enum class MathFidelity : uint8_t { LoFi = 0, HiFi2 = 2, HiFi3 = 3, HiFi4 = 4 };
enum class BroadcastType : uint8_t { NONE = 0, COL = 1, ROW = 2, SCALAR = 3 };
// MIN is declared for kernels that name it; a MIN reduce faults (its init names the op).
enum class PoolType : uint8_t { SUM = 0, AVG = 1, MAX = 2, MIN = 3 };
enum ReduceDim : uint8_t { REDUCE_ROW = 0, REDUCE_COL = 1, REDUCE_SCALAR = 2 };
enum EltwiseBinaryType : uint8_t { ELWMUL = 0, ELWDIV = 1, ELWADD = 2, ELWSUB = 3, ELWLESS = 4 };
enum class EltwiseBinaryReuseDestType { NONE = 0, DEST_TO_SRCA = 1, DEST_TO_SRCB = 2 };
enum class VectorMode : uint8_t { None = 0, R = 1, C = 2, RC = 4, RC_custom = 6, Invalid = 0xff };
enum class RoundingMode : uint8_t { None = 0, Trunc = 1, Floor = 2 };

// The packer's ReLU: a mode and a 16-bit threshold (pack_relu_config; only NO_RELU is modelled).
enum class ReluType : uint8_t { NO_RELU = 0, ZERO_RELU, MIN_THRESHOLD_RELU, MAX_THRESHOLD_RELU };

struct ReluConfig {
  static constexpr ReluConfig none() { return {ReluType::NO_RELU}; }
  static constexpr ReluConfig zero() { return {ReluType::ZERO_RELU}; }
  static constexpr ReluConfig min_threshold(uint32_t t) { return {ReluType::MIN_THRESHOLD_RELU, t}; }
  static constexpr ReluConfig max_threshold(uint32_t t) { return {ReluType::MAX_THRESHOLD_RELU, t}; }
  // The hardware's word: the mode in bits 0-1, the threshold in bits 16-31.
  static constexpr ReluConfig from_packed(uint32_t packed) {
    return {static_cast<ReluType>(packed & 0x3), (packed >> 16) & 0xFFFF};
  }
  constexpr ReluType get_mode() const { return mode; }
  constexpr uint32_t get_threshold() const { return threshold; }

 private:
  constexpr ReluConfig(ReluType m, uint32_t t = 0) : mode(m), threshold(t) {}
  ReluType mode = ReluType::NO_RELU;
  uint32_t threshold = 0;
};

}  // namespace ckernel
