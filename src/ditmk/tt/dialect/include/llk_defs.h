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

}  // namespace ckernel
