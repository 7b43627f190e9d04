// The device ABI's compute calls: forwards to tt/emu/compute_api.hpp, which models the math, after
// the checks tt-metal leaves to the hardware's configuration. On the chip an init configures the
// unpacker, math engine and packer for one op, and a tile call runs whatever the last init set up:
// here a tile call faults unless a full init ran and the last op init was its own. The emulator's
// compute API has no transposed matmul, no reduce scaler and no reduce accumulation; they are
// built here on top of its calls, which keep making the checks and the timing records.
#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <string>

#include "ditmk/tt/device_abi/device_abi_parts.hpp"
#include "ditmk/tt/device_abi/launch_access.hpp"
#include "ditmk/tt/emu/compute_api.hpp"
#include "ditmk/tt/emu/integer_tiles.hpp"
#include "ditmk/tt/emu/dataflow_api.hpp"
#include "ditmk/tt/emu/launch_state.hpp"
#include "ditmk/tt/emu/sfpu_binary_functions.hpp"
#include "ditmk/tt/emu/sfpu_functions.hpp"
#include "ditmk/tt/formats.hpp"

namespace ditmk::tt::dialect::abi {

using emu::FaultKind;
using State = emu::ProcessorRuntime::DialectState;

namespace {

constexpr std::array<std::string_view, 3> kBinaryNames = {"add", "sub", "mul"};
constexpr std::array<std::string_view, 4> kBroadcastNames = {"", "cols", "rows", "scalar"};
constexpr std::array<std::string_view, 4> kBroadcastTypeNames = {"BroadcastType::NONE", "BroadcastType::COL",
                                                                  "BroadcastType::ROW", "BroadcastType::SCALAR"};
constexpr std::array<std::string_view, 3> kPoolNames = {"SUM", "AVG", "MAX"};
constexpr uint32_t kPoolMin = 3;  // ckernel::PoolType::MIN, which 0.81.1's kernel helpers name
constexpr std::array<std::string_view, 3> kDimNames = {"REDUCE_ROW", "REDUCE_COL", "REDUCE_SCALAR"};
// ditmk_sfpu_op's names, as tt-metal's `<name>_tile` calls spell them (the erf GELU is gelu_tile<false>).
constexpr std::array<std::string_view, 45> kSfpuNames = {
    "exp",        "recip",      "sqrt",       "rsqrt",      "gelu",       "silu",      "sigmoid",  "tanh",
    "log",        "abs",        "negative",   "square",     "relu",       "sin",       "cos",      "tan",
    "gelu",       "fill",       "rpow",       "rdiv",       "leaky_relu", "power",     "typecast", "identity",
    "cbrt",       "log1p",      "gtz",        "nez",        "gez",        "ltz",       "eqz",      "lez",
    "add_unary",  "sub_unary",  "mul_unary",  "div_unary",  "rsub_unary", "unary_ne",  "unary_eq", "unary_gt",
    "unary_ge",   "unary_lt",   "unary_le",   "sign",       "power_iterative"};
// ditmk_sfpu_binary_op's calls, as tt-metal spells them.
constexpr std::array<std::string_view, 17> kSfpuBinaryNames = {
    "add_binary_tile", "sub_binary_tile", "mul_binary_tile", "div_binary_tile", "rsub_binary_tile",
    "power_binary_tile", "eq_binary_tile", "ne_binary_tile", "lt_binary_tile", "gt_binary_tile",
    "le_binary_tile", "ge_binary_tile", "binary_max_tile", "binary_min_tile", "copy_dest_values",
    "mask_tile", "mask_posinf_tile"};
constexpr std::array<std::string_view, 3> kReuseDestNames = {"", "DEST_TO_SRCA", "DEST_TO_SRCB"};

State& state() { return dialect_state(); }

void require_trisc(std::string_view call) {
  if (emu::current_processor() != emu::Processor::trisc) {
    emu::raise(FaultKind::bad_call, "{} is a compute call; only TRISC runs it", call);
  }
}

void require_hw(std::string_view call) {
  if (!state().hw_configured) {
    emu::raise(FaultKind::bad_call,
               "{}: no full compute init ran first (compute_kernel_hw_startup, binary_op_init_common, "
               "unary_op_init_common, init_sfpu, mm_init, init_bcast, transpose_wh_init, ...), so the unpacker and "
               "packer are not configured",
               call);
  }
}

std::string binary_call(uint32_t op, uint32_t broadcast) {
  if (broadcast == DITMK_BCAST_NONE) return fmt::format("{}_tiles", kBinaryNames[op]);
  return fmt::format("{}_tiles_bcast_{}", kBinaryNames[op], kBroadcastNames[broadcast]);
}

// The init tt-metal pairs with a binary call.
std::string binary_init(uint32_t op, uint32_t broadcast) {
  if (broadcast == DITMK_BCAST_NONE) return fmt::format("{}_tiles_init", kBinaryNames[op]);
  if (broadcast == DITMK_BCAST_SCALAR) {
    return op == DITMK_BINARY_ADD ? "add_bcast_scalar_init_short"
                                  : fmt::format("{}_tiles_bcast_scalar_init_short", kBinaryNames[op]);
  }
  return fmt::format("{}_bcast_{}_init_short", kBinaryNames[op], kBroadcastNames[broadcast]);
}

// The init tt-metal pairs with a dest-reuse binary call.
std::string reuse_dest_init(uint32_t op, uint32_t reuse) {
  return fmt::format("{}_reuse_dest_init<EltwiseBinaryReuseDestType::{}>", kBinaryNames[op], kReuseDestNames[reuse]);
}

bool valid_reuse_dest(uint32_t op, uint32_t reuse) {
  return op < kBinaryNames.size() && (reuse == DITMK_REUSE_DEST_TO_SRCA || reuse == DITMK_REUSE_DEST_TO_SRCB);
}

// What the last op init configured, for a fault message.
std::string last_init() {
  const State& s = state();
  switch (s.op_init) {
    case DITMK_INIT_BINARY: return binary_init(s.op_param0, s.op_param1);
    case DITMK_INIT_MATMUL: return s.op_param0 ? "mm_init (B transposed)" : "mm_init";
    case DITMK_INIT_REDUCE: return fmt::format("reduce_init<{}, {}>", kPoolNames[s.op_param0], kDimNames[s.op_param1]);
    case DITMK_INIT_COPY: return s.op_param0 ? "copy_tile_init (transposing)" : "copy_tile_init";
    case DITMK_INIT_TRANSPOSE: return "transpose_wh_init";
    case DITMK_INIT_TILIZE: return s.op_param1 ? "fast_tilize_init" : "tilize_init";
    case DITMK_INIT_UNARY_BCAST: return fmt::format("unary_bcast_init<{}>", kBroadcastTypeNames[s.op_param0]);
    case DITMK_INIT_BINARY_REUSE_DEST: return reuse_dest_init(s.op_param0, s.op_param1);
  }
  return "none";
}

// Whether require_op would pass, without building its messages (tile calls are the hot path).
bool op_ready(uint32_t init, bool params_match) {
  const State& s = state();
  return params_match && s.op_init == init && s.hw_configured && emu::current_processor() == emu::Processor::trisc;
}

// A tile call runs the op the last op init configured.
void require_op(uint32_t init, bool params_match, std::string_view call, std::string_view needed) {
  require_trisc(call);
  require_hw(call);
  if (state().op_init == UINT32_MAX) {
    emu::raise(FaultKind::bad_call, "{}: no op init ran yet; {} must come first", call, needed);
  }
  if (state().op_init != init || !params_match) {
    emu::raise(FaultKind::bad_call,
               "{}: the last op init was {}; {} must come first (the unpacker and math engine run the op the "
               "last init configured)",
               call, last_init(), needed);
  }
}

void mark_written(uint32_t dst) {
  if (dst < emu::kDstTiles) state().dst_written |= 1u << dst;
}

// DST[dst] before an emulator call rewrites it (zeros while the DST does not exist yet; the call
// then faults before anything reads them).
std::vector<float> dst_before(uint32_t dst) {
  std::vector<float> values(kTileElems, 0.0f);
  if (dst < emu::kDstTiles && !emu::current().dst.empty())
    std::copy(dst_tile(dst), dst_tile(dst) + kTileElems, values.begin());
  return values;
}

// A x B^T accumulated into DST[dst]. The emulator's matmul makes the checks and the timing record;
// its product is replaced by the transposed one, with k ascending as the emulator sums.
void matmul_transposed(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst) {
  const std::vector<float> before = dst_before(dst);
  emu::matmul_tiles(cb_a, cb_b, tile_a, tile_b, dst);
  std::vector<float> a(kTileElems), b(kTileElems);
  read_front_tile(cb_a, tile_a, a.data(), "matmul_tiles");
  read_front_tile(cb_b, tile_b, b.data(), "matmul_tiles");
  float* out = dst_tile(dst);
  std::copy(before.begin(), before.end(), out);
  for (int r = 0; r < kTile; ++r) {
    float* row = out + r * kTile;
    for (int k = 0; k < kTile; ++k) {
      const float scale = a[r * kTile + k];
      for (int c = 0; c < kTile; ++c) row[c] += scale * b[c * kTile + k];
    }
  }
}

bool reduce_result_element(uint32_t dim, int r, int c) {
  return dim == DITMK_REDUCE_ROW ? c == 0 : dim == DITMK_REDUCE_COL ? r == 0 : r == 0 && c == 0;
}

}  // namespace

void compute_init(uint32_t init, uint32_t param0, uint32_t param1) {
  require_trisc("a compute init (mm_init, add_tiles_init, reduce_init, ...)");
  State& s = state();
  switch (init) {
    case DITMK_INIT_HW:
      s.hw_configured = true;
      s.reduce_mask = false;
      s.pack_untilize = false;
      return;
    case DITMK_INIT_REDUCE:
      if (param0 == kPoolMin) {
        emu::raise(FaultKind::bad_call, "reduce_init<PoolType::MIN>: not modelled (the FPU reduces by SUM, AVG or "
                                        "MAX; ttnn takes MIN as -MAX(-x) or on the SFPU)");
      }
      if (param0 >= kPoolNames.size()) {
        emu::raise(FaultKind::bad_call, "reduce_init: no PoolType template arg and no REDUCE_OP define");
      }
      if (param1 >= kDimNames.size()) {
        emu::raise(FaultKind::bad_call, "reduce_init: no ReduceDim template arg and no REDUCE_DIM define");
      }
      s.reduce_mask = true;
      [[fallthrough]];
    case DITMK_INIT_BINARY:
    case DITMK_INIT_MATMUL:
    case DITMK_INIT_COPY:
    case DITMK_INIT_TRANSPOSE:
    case DITMK_INIT_TILIZE:
      s.op_init = init;
      s.op_param0 = param0;
      s.op_param1 = param1;
      return;
    case DITMK_INIT_UNARY_BCAST:
      if (param0 >= kBroadcastTypeNames.size()) break;
      s.op_init = init;
      s.op_param0 = param0;
      s.op_param1 = param1;
      return;
    case DITMK_INIT_BINARY_REUSE_DEST:
      if (!valid_reuse_dest(param0, param1)) {
        emu::raise(FaultKind::bad_call, "dest-reuse binary init: op {} reuse {}: not one of device ABI {}", param0,
                   param1, DITMK_DEVICE_ABI_VERSION);
      }
      s.op_init = init;
      s.op_param0 = param0;
      s.op_param1 = param1;
      return;
    case DITMK_INIT_REDUCE_UNINIT: s.reduce_mask = false; return;
    case DITMK_INIT_PACK_UNTILIZE: s.pack_untilize = param0 != 0; return;
    case DITMK_INIT_SFPU:
      if (param0 >= kSfpuNames.size()) break;
      s.sfpu_inits |= uint64_t(1) << param0;
      return;
    case DITMK_INIT_SFPU_BINARY:
      if (param0 >= kSfpuBinaryNames.size()) break;
      s.sfpu_binary_inits |= 1u << param0;
      return;
  }
  emu::raise(FaultKind::bad_call, "compute init {} ({}): not one of device ABI {}", init, param0,
             DITMK_DEVICE_ABI_VERSION);
}

// acquire_dst/release_dst bracket math and packs alike; the emulator's DST protocol separates them,
// so a pack inside the pair steps DST through commit and wait and back.
void dst(uint32_t step) {
  State& s = state();
  switch (step) {
    case DITMK_DST_ACQUIRE:
    case DITMK_DST_ACQUIRE_LEGACY:
      emu::tile_regs_acquire();
      s.legacy_dst = step == DITMK_DST_ACQUIRE_LEGACY;
      s.dst_written = 0;
      return;
    case DITMK_DST_COMMIT: emu::tile_regs_commit(); return;
    case DITMK_DST_WAIT: emu::tile_regs_wait(); return;
    case DITMK_DST_RELEASE: emu::tile_regs_release(); return;
    case DITMK_DST_RELEASE_LEGACY:
      require_trisc("release_dst");
      if (!s.legacy_dst) emu::raise(FaultKind::bad_call, "release_dst: no acquire_dst is open");
      emu::tile_regs_commit();
      emu::tile_regs_wait();
      emu::tile_regs_release();
      s.legacy_dst = false;
      return;
  }
  emu::raise(FaultKind::bad_call, "DST step {}: not one of device ABI {}", step, DITMK_DEVICE_ABI_VERSION);
}

void copy_tile(uint32_t cb, uint32_t tile, uint32_t dst) {
  require_op(DITMK_INIT_COPY, true, "copy_tile",
             "copy_tile_init (or copy_tile_to_dst_init_short, unary_op_init_common)");
  if (state().op_param0) {
    emu::transpose_wh_tile(cb, tile, dst);
  } else {
    emu::copy_tile(cb, tile, dst);
  }
  mark_written(dst);
}

void transpose_wh_tile(uint32_t cb, uint32_t tile, uint32_t dst) {
  require_op(DITMK_INIT_TRANSPOSE, true, "transpose_wh_tile", "transpose_wh_init (or transpose_wh_init_short)");
  emu::transpose_wh_tile(cb, tile, dst);
  mark_written(dst);
}

void unary_bcast_tile(uint32_t broadcast, uint32_t cb, uint32_t tile, uint32_t dst) {
  if (broadcast >= kBroadcastTypeNames.size()) {
    emu::raise(FaultKind::bad_call, "unary_bcast: broadcast {} is not one of device ABI {}", broadcast,
               DITMK_DEVICE_ABI_VERSION);
  }
  const bool params_match = state().op_param0 == broadcast;
  if (!op_ready(DITMK_INIT_UNARY_BCAST, params_match)) {
    require_op(DITMK_INIT_UNARY_BCAST, params_match, fmt::format("unary_bcast<{}>", kBroadcastTypeNames[broadcast]),
               fmt::format("unary_bcast_init<{}>", kBroadcastTypeNames[broadcast]));
  }
  static constexpr std::array<emu::Broadcast, 4> kBroadcast = {emu::Broadcast::none, emu::Broadcast::col,
                                                               emu::Broadcast::row, emu::Broadcast::scalar};
  emu::unary_bcast_tile(kBroadcast[broadcast], cb, tile, dst);
  mark_written(dst);
}

void binary_tiles(uint32_t op, uint32_t broadcast, uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b,
                  uint32_t dst) {
  if (op >= kBinaryNames.size() || broadcast >= kBroadcastNames.size()) {
    emu::raise(FaultKind::bad_call, "binary op {} broadcast {}: not one of device ABI {}", op, broadcast,
               DITMK_DEVICE_ABI_VERSION);
  }
  const State& s = state();
  const bool params_match = s.op_param0 == op && s.op_param1 == broadcast;
  if (!op_ready(DITMK_INIT_BINARY, params_match)) {
    require_op(DITMK_INIT_BINARY, params_match, binary_call(op, broadcast), binary_init(op, broadcast));
  }
  static constexpr std::array<emu::Broadcast, 4> kBroadcast = {emu::Broadcast::none, emu::Broadcast::col,
                                                               emu::Broadcast::row, emu::Broadcast::scalar};
  const emu::Broadcast b = kBroadcast[broadcast];
  switch (op) {
    case DITMK_BINARY_ADD: emu::add_tiles(cb_a, cb_b, tile_a, tile_b, dst, b); break;
    case DITMK_BINARY_SUB: emu::sub_tiles(cb_a, cb_b, tile_a, tile_b, dst, b); break;
    default: emu::mul_tiles(cb_a, cb_b, tile_a, tile_b, dst, b); break;
  }
  mark_written(dst);
}

// One operand from DST: the unpacker moves DST[dst]'s tile into the source register the init named.
void binary_reuse_dest_tile(uint32_t op, uint32_t reuse, uint32_t cb, uint32_t tile, uint32_t dst) {
  if (!valid_reuse_dest(op, reuse)) {
    emu::raise(FaultKind::bad_call, "dest-reuse binary op {} reuse {}: not one of device ABI {}", op, reuse,
               DITMK_DEVICE_ABI_VERSION);
  }
  const State& s = state();
  const bool params_match = s.op_param0 == op && s.op_param1 == reuse;
  if (!op_ready(DITMK_INIT_BINARY_REUSE_DEST, params_match)) {
    require_op(DITMK_INIT_BINARY_REUSE_DEST, params_match,
               fmt::format("{}_reuse_dest_tiles<EltwiseBinaryReuseDestType::{}>", kBinaryNames[op],
                           kReuseDestNames[reuse]),
               reuse_dest_init(op, reuse));
  }
  static constexpr std::array<emu::BinaryOp, 3> kOps = {emu::BinaryOp::add, emu::BinaryOp::sub, emu::BinaryOp::mul};
  emu::binary_reuse_dest(kOps[op], reuse == DITMK_REUSE_DEST_TO_SRCA, cb, tile, dst);
  mark_written(dst);
}

void matmul_tiles(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst, uint32_t transpose) {
  require_op(DITMK_INIT_MATMUL, true, "matmul_tiles", "mm_init (or mm_init_short, matmul_init)");
  const bool init_transpose = state().op_param0 != 0;
  if (transpose != DITMK_MATMUL_TRANSPOSE_FROM_INIT && (transpose != 0) != init_transpose) {
    emu::raise(FaultKind::bad_call,
               "matmul_tiles(..., transpose {}): the matmul init set transpose {}; they must agree (the unpacker "
               "transposes within faces, the math engine the faces)",
               transpose, init_transpose ? 1 : 0);
  }
  if (init_transpose) {
    matmul_transposed(cb_a, cb_b, tile_a, tile_b, dst);
  } else {
    emu::matmul_tiles(cb_a, cb_b, tile_a, tile_b, dst);
  }
  mark_written(dst);
}

// The emulator's reduce weighs the tile by the scaler tile as the FPU does (emu/reduce_scaler.hpp);
// tt-metal's also accumulates into DST (a sum adds, a max keeps the larger, a DST tile no op wrote
// since the acquire takes the value).
void reduce_tile(uint32_t pool, uint32_t dim, uint32_t cb, uint32_t cb_scaler, uint32_t tile, uint32_t tile_scaler,
                 uint32_t dst) {
  const State& s = state();
  const bool params_match = s.op_param0 == pool && s.op_param1 == dim;
  if (!op_ready(DITMK_INIT_REDUCE, params_match)) {
    const std::string needed = pool < kPoolNames.size() && dim < kDimNames.size()
                                   ? fmt::format("reduce_init<{}, {}>", kPoolNames[pool], kDimNames[dim])
                                   : std::string("reduce_init with the same op and dimension");
    require_op(DITMK_INIT_REDUCE, params_match, "reduce_tile", needed);
  }
  const bool fresh = dst >= emu::kDstTiles || (s.dst_written & (1u << dst)) == 0;
  const std::vector<float> before = dst_before(dst);
  const emu::ReduceFunc func = pool == DITMK_POOL_MAX ? emu::ReduceFunc::max : emu::ReduceFunc::sum;
  static constexpr std::array<emu::ReduceDim, 3> kDims = {emu::ReduceDim::row, emu::ReduceDim::col,
                                                          emu::ReduceDim::scalar};
  std::vector<float> scaler(kTileElems);
  read_front_tile(cb_scaler, tile_scaler, scaler.data(), "reduce_tile");
  emu::reduce_tile(func, kDims[dim], cb, tile, dst, scaler.data());
  float* out = dst_tile(dst);
  for (int r = 0; r < kTile; ++r) {
    for (int c = 0; c < kTile; ++c) {
      float& v = out[r * kTile + c];
      const float old = before[r * kTile + c];
      if (!reduce_result_element(dim, r, c)) {
        v = old;
      } else if (func == emu::ReduceFunc::max) {
        v = fresh ? v : std::max(old, v);
      } else {
        v = old + v;
      }
    }
  }
  mark_written(dst);
}

namespace {

// An SFPU tile call runs after its own init: the SFPU's instruction tables and constants are the
// ones the last init of that op loaded.
void require_sfpu_init(uint32_t op) {
  if (op >= kSfpuNames.size()) {
    emu::raise(FaultKind::bad_call, "SFPU op {}: not one of device ABI {}", op, DITMK_DEVICE_ABI_VERSION);
  }
  const bool ready = emu::current_processor() == emu::Processor::trisc && state().hw_configured &&
                     (state().sfpu_inits & (uint64_t(1) << op)) != 0;
  if (!ready) {
    const std::string call = fmt::format("{}_tile", kSfpuNames[op]);
    require_trisc(call);
    require_hw(call);
    emu::raise(FaultKind::bad_call, "{}: {}_tile_init has not run (the SFPU is not set up for it)", call,
               kSfpuNames[op]);
  }
}

// The ops from DITMK_SFPU_SIGMOID on, in ditmk_sfpu_op's order.
using F = emu::SfpuFunction;
constexpr std::array<emu::SfpuFunction, 39> kFunctions = {
    F::sigmoid,    F::tanh,       F::log,        F::abs,        F::negative,    F::square,     F::relu,
    F::sin,        F::cos,        F::tan,        F::gelu_erf,   F::fill,        F::rpow,       F::rdiv,
    F::leaky_relu, F::power,      F::round_bf16, F::identity,   F::cbrt,        F::log1p,      F::gtz,
    F::nez,        F::gez,        F::ltz,        F::eqz,        F::lez,         F::add_scalar, F::sub_scalar,
    F::mul_scalar, F::div_scalar, F::rsub_scalar, F::unary_ne,  F::unary_eq,    F::unary_gt,   F::unary_ge,
    F::unary_lt,   F::unary_le,   F::sign,       F::power};
static_assert(DITMK_SFPU_SIGMOID + kFunctions.size() == kSfpuNames.size());
static_assert(kSfpuNames.size() <= 64, "sfpu_inits holds one bit per op");

// The ops that take sfpu_tile_param's argument: DITMK_SFPU_FILL to DITMK_SFPU_TYPECAST,
// DITMK_SFPU_ADD_SCALAR to DITMK_SFPU_UNARY_LE, and DITMK_SFPU_POWER_ITERATIVE.
bool takes_argument(uint32_t op) {
  return (op >= DITMK_SFPU_FILL && op <= DITMK_SFPU_TYPECAST) ||
         (op >= DITMK_SFPU_ADD_SCALAR && op <= DITMK_SFPU_UNARY_LE) || op == DITMK_SFPU_POWER_ITERATIVE;
}

// ditmk_sfpu_binary_op's functions, in its order.
using B = emu::SfpuBinaryFunction;
constexpr std::array<emu::SfpuBinaryFunction, 17> kBinaryFunctions = {
    B::add, B::sub, B::mul, B::div, B::rsub, B::power, B::eq,   B::ne,         B::lt,
    B::gt,  B::le,  B::ge,  B::max, B::min,  B::copy,  B::mask, B::mask_posinf};
static_assert(kBinaryFunctions.size() == kSfpuBinaryNames.size());

bool integer_format(uint32_t format) {
  switch (format) {
    case 8: case 9: case 14: case 24: case 30: return true;  // Int32, UInt16, Int8, UInt32, UInt8
  }
  return false;
}

// typecast_tile<in, out> inside DST. Between float formats the cast is the rounding the output
// format asks for (bf16: to nearest even; fp32 and the block-float formats: none here, the packer
// rounds). With Int32 or UInt32 on either side the words convert as the SFPU's typecast converts
// them (emu/integer_tiles.hpp); the other integer formats are not modelled.
void typecast(uint32_t dst, uint32_t formats) {
  const uint32_t in = formats >> 8, out = formats & 0xFF;
  if (!integer_format(in) && !integer_format(out)) {
    if (out == 5) {  // Float16_b
      emu::sfpu_function_tile(emu::SfpuFunction::round_bf16, dst);
    } else {
      emu::sfpu_pass(dst, "typecast_tile", 0.0, [](float x) { return x; });
    }
    return;
  }
  // a float format other than Float16_b holds fp32 values in DST
  auto kind = [](uint32_t format) -> std::optional<emu::DstKind> {
    return integer_format(format) ? emu::dst_kind_of_format(format)
                                  : format == 5 ? emu::DstKind::bfloat16 : emu::DstKind::float32;
  };
  const std::optional<emu::DstKind> from = kind(in), to = kind(out);
  if (!from || !to || !emu::typecast_modelled(*from, *to)) {
    emu::raise(FaultKind::bad_call,
               "typecast_tile<{}, {}>: integer values in DST are modelled as Int32 and UInt32 words only, cast "
               "to and from float formats",
               in, out);
  }
  emu::sfpu_pass(dst, "typecast_tile", 0.0, [f = *from, t = *to](float x) { return *emu::typecast_word(f, t, x); });
}

}  // namespace

void sfpu_tile(uint32_t op, uint32_t dst) {
  require_sfpu_init(op);
  if (takes_argument(op)) {
    emu::raise(FaultKind::bad_call, "{}_tile: called without its argument (device ABI {})", kSfpuNames[op],
               DITMK_DEVICE_ABI_VERSION);
  }
  switch (op) {
    case DITMK_SFPU_EXP: emu::exp_tile(dst); break;
    case DITMK_SFPU_RECIP: emu::recip_tile(dst); break;
    case DITMK_SFPU_SQRT: emu::sqrt_tile(dst); break;
    case DITMK_SFPU_RSQRT: emu::rsqrt_tile(dst); break;
    case DITMK_SFPU_GELU: emu::gelu_tile(dst); break;
    case DITMK_SFPU_SILU: emu::silu_tile(dst); break;
    default: emu::sfpu_function_tile(kFunctions[op - DITMK_SFPU_SIGMOID], dst); break;
  }
  mark_written(dst);
}

void sfpu_tile_param(uint32_t op, uint32_t dst, uint32_t param) {
  require_sfpu_init(op);
  if (!takes_argument(op)) {
    emu::raise(FaultKind::bad_call, "{}_tile takes no argument (device ABI {})", kSfpuNames[op],
               DITMK_DEVICE_ABI_VERSION);
  }
  if (op == DITMK_SFPU_TYPECAST) {
    typecast(dst, param);
  } else if (op == DITMK_SFPU_POWER_ITERATIVE) {
    emu::sfpu_function_tile(emu::SfpuFunction::power, dst, float(param));  // the exponent as an integer
  } else {
    emu::sfpu_function_tile(kFunctions[op - DITMK_SFPU_SIGMOID], dst, std::bit_cast<float>(param));
  }
  mark_written(dst);
}

// A binary SFPU call runs after its own init, like the unary ones.
void sfpu_binary_tile(uint32_t op, uint32_t dst0, uint32_t dst1, uint32_t odst) {
  if (op >= kSfpuBinaryNames.size()) {
    emu::raise(FaultKind::bad_call, "binary SFPU op {}: not one of device ABI {}", op, DITMK_DEVICE_ABI_VERSION);
  }
  const std::string_view call = kSfpuBinaryNames[op];
  require_trisc(call);
  require_hw(call);
  if ((state().sfpu_binary_inits & (1u << op)) == 0) {
    emu::raise(FaultKind::bad_call, "{}: {}_init has not run (the SFPU is not set up for it)", call, call);
  }
  emu::sfpu_binary_function_tile(kBinaryFunctions[op], dst0, dst1, odst);
  mark_written(odst);
}

void pack_tile(uint32_t dst, uint32_t cb, uint32_t out_tile, uint32_t out_of_order) {
  require_trisc("pack_tile");
  require_hw("pack_tile");
  const State& s = state();
  if (s.reduce_mask && s.op_init != DITMK_INIT_REDUCE) {
    emu::raise(FaultKind::bad_call,
               "pack_tile after {}: reduce_init's packer edge mask is still set; call reduce_uninit() after the "
               "reduce",
               last_init());
  }
  if (s.pack_untilize) {
    emu::raise(FaultKind::bad_call,
               "pack_tile: the packer still writes row-major rows (pack_untilize_init or untilize_init); "
               "pack_untilize_uninit (or untilize_uninit) must come first");
  }
  if (out_of_order) {
    const emu::CbRuntime& c = running_cb(cb, "pack_tile");
    if (out_tile != c.packed) {
      emu::raise(FaultKind::bad_call,
                 "pack_tile<true>(dst {}, cb {}, tile {}): the emulator packs a reservation in order, and its next "
                 "tile is {}",
                 dst, c.name(), out_tile, c.packed);
    }
  }
  emu::ProcessorRuntime& p = emu::current();
  if (s.legacy_dst && p.dst_state == emu::DstState::acquired) {
    emu::tile_regs_commit();
    emu::tile_regs_wait();
    emu::pack_tile(dst, cb);
    p.dst_state = emu::DstState::acquired;
  } else {
    emu::pack_tile(dst, cb);
  }
}

// The tilize init set the rows' width and the unpacker's precision; tilize_block's tiles follow it.
void unpack_tilize(uint32_t cb, uint32_t tile, uint32_t dst) {
  require_op(DITMK_INIT_TILIZE, true, "tilize_block", "tilize_init (or fast_tilize_init)");
  const State& s = state();
  emu::unpack_tilize(cb, tile, s.op_param0, dst, s.op_param1 != 0);
  mark_written(dst);
}

void pack_untilize(uint32_t block_tiles, uint32_t full_tiles, uint32_t cb, uint32_t block_index, uint32_t tile_rows) {
  require_trisc("pack_untilize_block");
  require_hw("pack_untilize_block");
  if (!state().pack_untilize) {
    emu::raise(FaultKind::bad_call,
               "pack_untilize_block / pack_untilize_dest: the packer writes whole tiles; pack_untilize_init (or "
               "pack_untilize_dest_init, untilize_init) must come first");
  }
  emu::pack_untilize(block_tiles, full_tiles, block_index, tile_rows, cb);
}

}  // namespace ditmk::tt::dialect::abi
