#include "ditmk/tt/emu/compute_api.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "ditmk/core/dtype.hpp"
#include "ditmk/tt/emu/integer_tiles.hpp"
#include "ditmk/tt/emu/launch_state.hpp"
#include "ditmk/tt/emu/reduce_scaler.hpp"
#include "ditmk/tt/emu/tile_matmul.hpp"
#include "ditmk/tt/emu/timing_params.hpp"
#include "ditmk/tt/formats.hpp"

namespace ditmk::tt::emu {

void record_compute(double cycles, bool matmul) {
  ProcessorLog* log = current().log;
  if (!log) return;
  if (log->ops.empty() || log->ops.back().kind != OpKind::compute) log->ops.push_back({OpKind::compute});
  TimedOp& op = log->ops.back();
  op.cost += cycles;
  (matmul ? op.a : op.b) += 1;
}

namespace {

const TimingParams& tp() { return blackhole_timing(); }
double phases() { return double(current().kernel->math_fidelity); }
// what the unpacker, FPU and call overhead of one tile call cost beside the FPU's own cycles
double fpu_call(double fpu_cycles) { return fpu_cycles + tp().tile_call_cycles; }

ProcessorRuntime& trisc(std::string_view call) {
  ProcessorRuntime& p = current();
  if (p.processor != Processor::trisc) {
    raise(FaultKind::bad_call, "{} is a compute call; only TRISC runs it", call);
  }
  if (p.dst.empty()) {
    p.dst.assign(std::size_t(kDstTiles) * kTileElems, 0.0f);
    p.operand.assign(std::size_t(2) * kTileElems, 0.0f);
  }
  return p;
}

void require_state(ProcessorRuntime& p, DstState state, std::string_view call, std::string_view need) {
  // With the packer waiting ahead of the commit, math calls fill DST and pack calls read it in
  // program order (dst_tile refuses math into a tile already packed).
  if (p.dst_state == DstState::wait_ahead && (state == DstState::acquired || state == DstState::waited)) return;
  if (p.dst_state != state) raise(FaultKind::bad_call, "{}: DST must be {} first", call, need);
}

float* dst_tile(ProcessorRuntime& p, uint32_t dst, std::string_view call) {
  if (dst >= kDstTiles) {
    raise(FaultKind::bad_call, "{}: DST index {} is not below the {} DST tiles", call, dst, kDstTiles);
  }
  // The packer waiting ahead of the commit packs after it on silicon, so it would see math that
  // follows a pack in program order; here it does not: math into a tile already packed is refused.
  if (p.dst_state == DstState::wait_ahead) {
    const uint32_t bit = 1u << dst;
    if (call == "pack_tile" || call == "pack_untilize") {
      p.packed_ahead |= bit;
    } else if (p.packed_ahead & bit) {
      raise(FaultKind::bad_call,
            "{}: not modelled: DST tile {} after its pack, whose tile_regs_wait came before tile_regs_commit", call,
            dst);
    }
  }
  return p.dst.data() + std::size_t(dst) * kTileElems;
}

// The CB a tile call reads or writes: float tiles, or with `words` also Int32 / UInt32 tiles, which
// copy_tile and pack_tile move as raw DST words (integer_tiles.hpp).
CbRuntime& tile_cb(uint32_t id, std::string_view call, bool words = false) {
  CbRuntime* cb = id < kMaxCbId ? current().core->cbs[id] : nullptr;
  if (!cb) raise(FaultKind::bad_call, "{}: core {} has no CB #{}", call, core_name(current().core->coord), id);
  if (!(words && raw_word_format(cb->config->integer))) require_float_tiles(*cb, call);
  if (cb->config->page_bytes != cb_tile_bytes(*cb->config)) {
    raise(FaultKind::bad_call, "{}: CB {} pages are {} B, not one {} tile", call, cb->name(),
          cb->config->page_bytes,
          cb->config->integer == IntegerFormat::none ? tile_format_name(cb->config->format)
                                                     : integer_format_name(cb->config->integer));
  }
  return *cb;
}

// Unpacks tile `tile` counted from the CB's front into row-major fp32 values.
void unpack(uint32_t id, uint32_t tile, float* out, std::string_view call, bool words = false) {
  const CbRuntime& cb = tile_cb(id, call, words);
  if (tile >= cb.occupied()) {
    raise(FaultKind::cb_underflow, "{}: reads tile {} of cb {}, which has {} pages at the front", call,
          tile, cb.name(), cb.occupied());
  }
  if (cb.rd_page + tile >= cb.pages) {
    raise(FaultKind::cb_overflow, "{}: tile {} from front page {} of cb {} lies past its {}-page end",
          call, tile, cb.rd_page, cb.name(), cb.pages);
  }
  const uint32_t address = cb.config->address + (cb.rd_page + tile) * cb.config->page_bytes;
  const uint32_t index = core_index(current().core->coord);
  require_written_l1(index, address, cb.config->page_bytes, call);
  if (cb.config->integer != IntegerFormat::none) {
    unpack_word_tile(l1_bytes(index, address), out);
    return;
  }
  float ordered[kTileElems];
  unpack_tile(cb.config->format, l1_bytes(index, address), ordered);
  untilize_tile(ordered, out, kTile);
}

// The start every two-operand compute call shares: TRISC only, DST acquired, both tiles unpacked
// into the operand registers, and the destination tile.
struct TwoOperands {
  const float* a;
  const float* b;
  float* out;
};
TwoOperands unpack_two(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst,
                       std::string_view call) {
  ProcessorRuntime& p = trisc(call);
  require_state(p, DstState::acquired, call, "acquired");
  float* a = p.operand.data();
  float* b = a + kTileElems;
  unpack(cb_a, tile_a, a, call);
  unpack(cb_b, tile_b, b, call);
  return {a, b, dst_tile(p, dst, call)};
}

template <typename Op>
void binary(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst,
            Broadcast broadcast, std::string_view call, Op op) {
  const TwoOperands t = unpack_two(cb_a, cb_b, tile_a, tile_b, dst, call);
  const float *a = t.a, *b = t.b;
  float* out = t.out;
  record_compute(fpu_call(tp().fpu_eltwise_cycles * (call == "mul_tiles" ? phases() : 1.0)), false);
  for (int r = 0; r < kTile; ++r) {
    for (int c = 0; c < kTile; ++c) {
      const int br = broadcast == Broadcast::row || broadcast == Broadcast::scalar ? 0 : r;
      const int bc = broadcast == Broadcast::col || broadcast == Broadcast::scalar ? 0 : c;
      out[r * kTile + c] = op(a[r * kTile + c], b[br * kTile + bc]);
    }
  }
}

template <typename Op>
void unary(uint32_t dst, std::string_view call, double cycles, Op op) {
  ProcessorRuntime& p = trisc(call);
  require_state(p, DstState::acquired, call, "acquired");
  float* values = dst_tile(p, dst, call);
  record_compute(cycles, false);
  for (int i = 0; i < kTileElems; ++i) values[i] = op(values[i]);
}

// Bytes of one row-major element of a CB that holds rows (tilize's input, untilize's output).
uint32_t row_element_bytes(const CbRuntime& cb, std::string_view call) {
  require_float_tiles(cb, call);
  if (cb.config->format == TileFormat::bfp8_b) {
    raise(FaultKind::bad_call, "{}: cb {} is Bfp8_b, which has no row-major form (Float16_b or Float32 rows only)",
          call, cb.name());
  }
  return cb.config->format == TileFormat::fp32 ? 4 : 2;
}

CbRuntime& row_cb(uint32_t id, std::string_view call) {
  CbRuntime* cb = id < kMaxCbId ? current().core->cbs[id] : nullptr;
  if (!cb) raise(FaultKind::bad_call, "{}: core {} has no CB #{}", call, core_name(current().core->coord), id);
  return *cb;
}

// The fast tilize's unpacker reads fp32 as tf32: the low 13 mantissa bits are dropped.
float to_tf32(float value) { return std::bit_cast<float>(std::bit_cast<uint32_t>(value) & 0xFFFFE000u); }

}  // namespace

void tile_regs_acquire() {
  ProcessorRuntime& p = trisc("tile_regs_acquire");
  require_state(p, DstState::released, "tile_regs_acquire", "released");
  std::fill(p.dst.begin(), p.dst.end(), 0.0f);
  p.dst_state = DstState::acquired;
  p.packed_ahead = 0;
}

void tile_regs_commit() {
  ProcessorRuntime& p = trisc("tile_regs_commit");
  if (p.dst_state == DstState::wait_ahead) {  // the packer's wait, met
    p.dst_state = DstState::waited;
    return;
  }
  require_state(p, DstState::acquired, "tile_regs_commit", "acquired");
  p.dst_state = DstState::committed;
}

void tile_regs_wait() {
  ProcessorRuntime& p = trisc("tile_regs_wait");
  if (p.dst_state == DstState::acquired) {  // the packer waits for the commit that follows
    p.dst_state = DstState::wait_ahead;
    return;
  }
  require_state(p, DstState::committed, "tile_regs_wait", "committed");
  p.dst_state = DstState::waited;
}

void tile_regs_release() {
  ProcessorRuntime& p = trisc("tile_regs_release");
  if (p.dst_state == DstState::wait_ahead) {
    raise(FaultKind::bad_call, "tile_regs_release: DST must be committed first (the packer waits for the commit)");
  }
  require_state(p, DstState::waited, "tile_regs_release", "waited on");
  p.dst_state = DstState::released;
}

void copy_tile(uint32_t cb, uint32_t tile, uint32_t dst) {
  ProcessorRuntime& p = trisc("copy_tile");
  require_state(p, DstState::acquired, "copy_tile", "acquired");
  unpack(cb, tile, dst_tile(p, dst, "copy_tile"), "copy_tile", true);
  record_compute(tp().unpack_tile_cycles, false);
}

void transpose_wh_tile(uint32_t cb, uint32_t tile, uint32_t dst) {
  constexpr std::string_view call = "transpose_wh_tile";
  ProcessorRuntime& p = trisc(call);
  require_state(p, DstState::acquired, call, "acquired");
  float* in = p.operand.data();
  unpack(cb, tile, in, call);
  float* out = dst_tile(p, dst, call);
  for (int r = 0; r < kTile; ++r)
    for (int c = 0; c < kTile; ++c) out[c * kTile + r] = in[r * kTile + c];
  record_compute(tp().unpack_tile_cycles, false);
}

void unary_bcast_tile(Broadcast broadcast, uint32_t cb, uint32_t tile, uint32_t dst) {
  constexpr std::string_view call = "unary_bcast";
  ProcessorRuntime& p = trisc(call);
  require_state(p, DstState::acquired, call, "acquired");
  float* in = p.operand.data();
  unpack(cb, tile, in, call);
  float* out = dst_tile(p, dst, call);
  for (int r = 0; r < kTile; ++r) {
    for (int c = 0; c < kTile; ++c) {
      const int br = broadcast == Broadcast::row || broadcast == Broadcast::scalar ? 0 : r;
      const int bc = broadcast == Broadcast::col || broadcast == Broadcast::scalar ? 0 : c;
      out[r * kTile + c] = in[br * kTile + bc];
    }
  }
  record_compute(tp().unpack_tile_cycles, false);
}

void matmul_tiles(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst) {
  constexpr std::string_view call = "matmul_tiles";
  const TwoOperands t = unpack_two(cb_a, cb_b, tile_a, tile_b, dst, call);
  record_compute(fpu_call(tp().fpu_matmul_cycles * phases()), true);
  matmul_tile_accumulate(t.a, t.b, t.out);
}

void add_tiles(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst,
               Broadcast broadcast) {
  binary(cb_a, cb_b, tile_a, tile_b, dst, broadcast, "add_tiles", [](float x, float y) { return x + y; });
}

void sub_tiles(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst,
               Broadcast broadcast) {
  binary(cb_a, cb_b, tile_a, tile_b, dst, broadcast, "sub_tiles", [](float x, float y) { return x - y; });
}

void mul_tiles(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t dst,
               Broadcast broadcast) {
  binary(cb_a, cb_b, tile_a, tile_b, dst, broadcast, "mul_tiles", [](float x, float y) { return x * y; });
}

void binary_reuse_dest(BinaryOp op, bool dst_first, uint32_t cb, uint32_t tile, uint32_t dst) {
  constexpr std::string_view call = "binary_reuse_dest";
  ProcessorRuntime& p = trisc(call);
  require_state(p, DstState::acquired, call, "acquired");
  float* in = p.operand.data();
  unpack(cb, tile, in, call);
  float* out = dst_tile(p, dst, call);
  record_compute(fpu_call(tp().fpu_eltwise_cycles * (op == BinaryOp::mul ? phases() : 1.0)), false);
  for (int i = 0; i < kTileElems; ++i) {
    const float a = dst_first ? out[i] : in[i];
    const float b = dst_first ? in[i] : out[i];
    out[i] = op == BinaryOp::add ? a + b : op == BinaryOp::sub ? a - b : a * b;
  }
}

void reduce_tile(ReduceFunc func, ReduceDim dim, uint32_t cb, uint32_t tile, uint32_t dst, const float* scaler) {
  constexpr std::string_view call = "reduce_tile";
  ProcessorRuntime& p = trisc(call);
  require_state(p, DstState::acquired, call, "acquired");
  float* in = p.operand.data();
  unpack(cb, tile, in, call);
  static const std::vector<float> kOnes(kTileElems, 1.0f);
  record_compute(fpu_call(tp().fpu_reduce_cycles * (func == ReduceFunc::sum ? phases() : 1.0)), false);
  reduce_with_scaler(func, dim, in, scaler ? scaler : kOnes.data(), dst_tile(p, dst, call));
}

void exp_tile(uint32_t dst) { unary(dst, "exp_tile", tp().sfpu_exp_cycles, [](float x) { return std::exp(x); }); }
void recip_tile(uint32_t dst) { unary(dst, "recip_tile", tp().sfpu_recip_cycles, [](float x) { return 1.0f / x; }); }
void sqrt_tile(uint32_t dst) { unary(dst, "sqrt_tile", tp().sfpu_sqrt_cycles, [](float x) { return std::sqrt(x); }); }
void rsqrt_tile(uint32_t dst) {
  unary(dst, "rsqrt_tile", tp().sfpu_rsqrt_cycles, [](float x) { return 1.0f / std::sqrt(x); });
}
void silu_tile(uint32_t dst) {
  unary(dst, "silu_tile", tp().sfpu_silu_cycles, [](float x) { return x / (1.0f + std::exp(-x)); });
}
void gelu_tile(uint32_t dst) {
  unary(dst, "gelu_tile", tp().sfpu_gelu_cycles, [](float x) {
    constexpr float kSqrt2OverPi = 0.7978845608028654f;
    return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
  });
}

void sfpu_pass(uint32_t dst, std::string_view call, double cycles, const std::function<float(float)>& fn) {
  unary(dst, call, cycles, fn);
}

void sfpu_binary_pass(uint32_t dst0, uint32_t dst1, uint32_t odst, std::string_view call, double cycles,
                      const std::function<float(float, float)>& fn) {
  ProcessorRuntime& p = trisc(call);
  require_state(p, DstState::acquired, call, "acquired");
  const float* a = dst_tile(p, dst0, call);
  const float* b = dst_tile(p, dst1, call);
  float* out = dst_tile(p, odst, call);
  record_compute(cycles, false);
  // Element by element, so an output that is one of the inputs reads each value before overwriting it.
  for (int i = 0; i < kTileElems; ++i) out[i] = fn(a[i], b[i]);
}

void pack_tile(uint32_t dst, uint32_t id) {
  constexpr std::string_view call = "pack_tile";
  ProcessorRuntime& p = trisc(call);
  require_state(p, DstState::waited, call, "committed and waited on");
  CbRuntime& cb = tile_cb(id, call, true);
  if (cb.packed >= cb.reserved) {
    // Silicon's packer writes at the CB's write pointer whether or not the kernel reserved the
    // page (a published tt-metal example relies on it): a warning, a fault only when strict. Pages
    // the consumer has not popped, or past the CB's end, would be overwritten data: always a fault.
    if (chip().strict) {
      raise(FaultKind::cb_overflow, "{}: tile {} into cb {}, whose reservation holds {} pages (strict)", call,
            cb.packed, cb.name(), cb.reserved);
    }
    if (cb.packed >= cb.free_pages() || cb.wr_page + cb.packed >= cb.pages) {
      raise(FaultKind::cb_overflow, "{}: tile {} into cb {} without cb_reserve_back lands on a page not free; {}",
            call, cb.packed, cb.name(), cb.state());
    }
    warn("{}: pack_tile into cb {} without cb_reserve_back: accepted, as on silicon (a fault under --strict)",
         p.where(), cb.name());
  }
  const uint32_t address = cb.config->address + (cb.wr_page + cb.packed) * cb.config->page_bytes;
  const uint32_t index = core_index(p.core->coord);
  if (cb.config->integer != IntegerFormat::none) {
    pack_word_tile(dst_tile(p, dst, call), l1_bytes(index, address));
  } else {
    float ordered[kTileElems];
    tilize_tile(dst_tile(p, dst, call), kTile, ordered);
    tt::pack_tile(cb.config->format, ordered, l1_bytes(index, address));
  }
  chip().memory[index].written.mark(address, cb.config->page_bytes);
  ++cb.packed;
  record_compute(tp().pack_tile_cycles, false);
}

void unpack_tilize(uint32_t id, uint32_t tile, uint32_t row_tiles, uint32_t dst, bool tf32) {
  constexpr std::string_view call = "tilize_block";
  ProcessorRuntime& p = trisc(call);
  require_state(p, DstState::acquired, call, "acquired");
  const CbRuntime& cb = row_cb(id, call);
  const uint32_t element = row_element_bytes(cb, call);
  if (row_tiles == 0) raise(FaultKind::bad_call, "{}: the tilize init gave rows 0 tiles wide", call);
  const uint32_t row_bytes = row_tiles * kTile * element;
  const uint32_t tile_row = tile / row_tiles, tile_col = tile % row_tiles;
  // every row of the block up to this tile's last one must be at the front
  const uint32_t needed = (tile_row + 1) * kTile * row_bytes;
  const uint32_t at_front = cb.occupied() * cb.config->page_bytes;
  if (needed > at_front) {
    raise(FaultKind::cb_underflow,
          "{}: tile {} of a row-major block {} tiles wide needs {} B at the front of cb {}, which has {} pages ({} B)",
          call, tile, row_tiles, needed, cb.name(), cb.occupied(), at_front);
  }
  if (cb.rd_page * cb.config->page_bytes + needed > cb.pages * cb.config->page_bytes) {
    raise(FaultKind::cb_overflow, "{}: the row-major block from front page {} of cb {} runs past its {}-page end",
          call, cb.rd_page, cb.name(), cb.pages);
  }
  const uint32_t index = core_index(p.core->coord);
  const uint32_t first = cb.config->address + cb.rd_page * cb.config->page_bytes + tile_row * kTile * row_bytes +
                         tile_col * kTile * element;
  float* out = dst_tile(p, dst, call);
  for (int r = 0; r < kTile; ++r) {
    const uint32_t address = first + uint32_t(r) * row_bytes;
    require_written_l1(index, address, kTile * element, call);
    const std::byte* row = l1_bytes(index, address);
    for (int c = 0; c < kTile; ++c) {
      float value;
      if (element == 4) {
        std::memcpy(&value, row + c * 4, 4);
        if (tf32) value = to_tf32(value);
      } else {
        uint16_t bits;
        std::memcpy(&bits, row + c * 2, 2);
        value = bf16_to_f32(bits);
      }
      out[r * kTile + c] = value;
    }
  }
  record_compute(tp().unpack_tile_cycles, false);
}

void pack_untilize(uint32_t block_tiles, uint32_t full_tiles, uint32_t block_index, uint32_t tile_rows,
                   uint32_t id) {
  constexpr std::string_view call = "pack_untilize";
  ProcessorRuntime& p = trisc(call);
  require_state(p, DstState::waited, call, "committed and waited on");
  CbRuntime& cb = row_cb(id, call);
  const uint32_t element = row_element_bytes(cb, call);
  if (block_tiles == 0 || full_tiles == 0 || (block_index + 1) * block_tiles > full_tiles) {
    raise(FaultKind::bad_call, "{}: block {} of {} tiles does not fit rows {} tiles wide", call, block_index,
          block_tiles, full_tiles);
  }
  if (tile_rows * block_tiles > kDstTiles) {
    raise(FaultKind::bad_call, "{}: {} x {} tiles are more than the {} DST tiles", call, tile_rows, block_tiles,
          kDstTiles);
  }
  const uint32_t row_bytes = full_tiles * kTile * element;
  const uint32_t span = tile_rows * kTile * row_bytes;
  const uint32_t reserved = cb.reserved * cb.config->page_bytes;
  if (span > reserved) {
    raise(FaultKind::cb_overflow, "{}: {} rows of {} B into cb {}, whose reservation holds {} pages ({} B); {}", call,
          tile_rows * kTile, row_bytes, cb.name(), cb.reserved, reserved, cb.state());
  }
  if (cb.wr_page * cb.config->page_bytes + span > cb.pages * cb.config->page_bytes) {
    raise(FaultKind::cb_overflow, "{}: the rows from page {} of cb {} run past its {}-page end", call, cb.wr_page,
          cb.name(), cb.pages);
  }
  const uint32_t index = core_index(p.core->coord);
  const uint32_t base = cb.config->address + cb.wr_page * cb.config->page_bytes;
  for (uint32_t tr = 0; tr < tile_rows; ++tr) {
    for (uint32_t c = 0; c < block_tiles; ++c) {
      const float* tile = dst_tile(p, tr * block_tiles + c, call);
      const uint32_t column = (block_index * block_tiles + c) * kTile * element;
      for (int r = 0; r < kTile; ++r) {
        const uint32_t address = base + (tr * kTile + uint32_t(r)) * row_bytes + column;
        std::byte* row = l1_bytes(index, address);
        for (int k = 0; k < kTile; ++k) {
          const float value = tile[r * kTile + k];
          if (element == 4) {
            std::memcpy(row + k * 4, &value, 4);
          } else {
            const uint16_t bits = f32_to_bf16(value);
            std::memcpy(row + k * 2, &bits, 2);
          }
        }
        chip().memory[index].written.mark(address, kTile * element);
      }
      record_compute(tp().pack_tile_cycles, false);
    }
  }
}

}  // namespace ditmk::tt::emu
