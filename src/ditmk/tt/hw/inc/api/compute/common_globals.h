#pragma once
// What every compute header shares: the thread macros and tt-metal's compute enums (namespace
// ckernel, which kernels use unqualified). The compute config (DST_ACCUM_MODE, MATH_FIDELITY,
// APPROX, DST_SYNC_MODE) comes from the generated descriptors, as on tt-metal (jit_defines.hpp).
#include <stdint.h>

#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "ditmk_device_abi.h"
#include "llk_defs.h"

// tt-metal compiles a compute kernel three times, once per TRISC thread, and these macros keep a
// statement on one thread only. The emulator runs one compute processor for all three roles (the
// kernel compiler defines TRISC_UNPACK, TRISC_MATH and TRISC_PACK together), in program order: each
// macro keeps its statement once.
#define MATH(x) x
#define PACK(x) x
#define UNPACK(x) x

namespace tt {
enum class DstMode : uint8_t { Full = 0, Half = 1, Tile = 2, NUM_DST_MODES = 3 };
}  // namespace tt

namespace ckernel {
// A tile's and a face's rows and columns (the LLK's constants: pack untilize's template defaults name
// TILE_R_DIM and TILE_C_DIM, ttnn's transpose_wh_rm.cpp TILE_WIDTH).
constexpr uint32_t FACE_HEIGHT = 16;
constexpr uint32_t FACE_WIDTH = 16;
constexpr uint32_t TILE_HEIGHT = 32;
constexpr uint32_t TILE_WIDTH = 32;
constexpr uint32_t FACE_R_DIM = FACE_HEIGHT;
constexpr uint32_t FACE_C_DIM = FACE_WIDTH;
constexpr uint32_t TILE_R_DIM = TILE_HEIGHT;
constexpr uint32_t TILE_C_DIM = TILE_WIDTH;
constexpr uint32_t TILE_NUM_FACES = (TILE_R_DIM * TILE_C_DIM) / (FACE_R_DIM * FACE_C_DIM);
}  // namespace ckernel

using namespace ckernel;
