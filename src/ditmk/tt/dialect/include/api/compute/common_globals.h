#pragma once
// What every compute header shares: the thread macros, the compute defines' defaults, and
// tt-metal's compute enums (namespace ckernel, which kernels use unqualified).
#include <stdint.h>

#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "ditmk_device_abi.h"

// tt-metal compiles a compute kernel three times, once per TRISC thread, and these macros keep a
// statement on one thread only. The emulator runs one compute processor for all three, in program
// order: each macro keeps its statement once.
#define MATH(x) x
#define PACK(x) x
#define UNPACK(x) x

#ifndef DST_ACCUM_MODE
#define DST_ACCUM_MODE 0
#endif
#ifndef MATH_FIDELITY
#define MATH_FIDELITY 3
#endif
#ifndef APPROX
#define APPROX 0
#endif

namespace ckernel {

enum class BroadcastType : uint8_t { NONE = 0, COL = 1, ROW = 2, SCALAR = 3 };
enum class PoolType : uint8_t { SUM = 0, AVG = 1, MAX = 2 };
enum ReduceDim : uint8_t { REDUCE_ROW = 0, REDUCE_COL = 1, REDUCE_SCALAR = 2 };
enum EltwiseBinaryType : uint8_t { ELWMUL = 0, ELWDIV = 1, ELWADD = 2, ELWSUB = 3, ELWLESS = 4 };
enum class VectorMode : uint8_t { None = 0, R = 1, C = 2, RC = 4, RC_custom = 6, Invalid = 0xff };

}  // namespace ckernel

namespace tt {
enum class DstMode : uint8_t { Full = 0, Half = 1, Tile = 2, NUM_DST_MODES = 3 };
}  // namespace tt

using namespace ckernel;
