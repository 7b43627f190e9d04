#pragma once
// One walk of the whole DiT program. Every processor of every working core runs it in the same
// order and does its own part of each phase; the hubs take part in the rounds. Readers and spares
// have no work in direct mode, nor has the second hub in the simplified protocol. Phases are
// profiler zones on every processor: the trace shows them, the timing report finds the blocks, the
// rounds and the QKV matmul in them.
#include <stdint.h>

#include "attention.hpp"
#include "core_context.hpp"
#include "dram_tiles.hpp"
#include "euler_head.hpp"
#include "head_kv.hpp"
#include "hub_rounds.hpp"
#include "masked_score.hpp"
#include "part_exchange.hpp"
#include "residual_moves.hpp"
#include "residual_update.hpp"
#include "row_layer_norm.hpp"
#include "streamed_matmul.hpp"
#include "weight_stream.hpp"
#include "zone_tags.hpp"

namespace ditmk::tt::kernel {

class Walk {
 public:
  explicit Walk(Ctx& x) : x_(x), d_(x.dims), variant_(ProgramVariant(NAMED("variant"))), n_(d_.n_blocks) {}

  void run() {
    setup();
    for (uint32_t s = 0; s < NAMED("n_steps"); ++s) {
      const uint32_t step = variant_ == ProgramVariant::steps4 ? s : x_.step_index();
      if (variant_ == ProgramVariant::steps4) {
        DeviceZoneScopedN("encoder");
        DeviceTimestampedData(DIT_STEP_RECORD, step);
        encoder(step);
      }
      for (uint32_t b = 0; b < n_; ++b) {
        DeviceZoneScopedN("blk");
        DeviceTimestampedData(DIT_BLOCK_RECORD, block_tag(step, b));
        block(step, b);
      }
      if (variant_ != ProgramVariant::block) {
        DeviceZoneScopedN("head");
        DeviceTimestampedData(DIT_STEP_RECORD, step);
        output_head(step);
      }
    }
    finish();
  }

 private:
  bool trisc() const { return on_trisc(x_); }
  bool brisc() const { return on_brisc(x_); }
  bool ncrisc() const { return on_ncrisc(x_); }
  // hub 0, which also runs the Euler update
  bool hub_brisc() const { return on_hub_brisc(x_); }
  bool hub_trisc() const { return on_hub_trisc(x_); }

  uint32_t bias_table() const { return x_.io(Io::bias_rows); }
  uint32_t bias_row_bytes() const { return d_.ff_dim * 2; }
  uint32_t width_row_bytes() const { return d_.width * 2; }
  uint32_t adaln_row(uint32_t step, uint32_t index) const { return step * (2 * n_ + 2) + index; }

#if !defined(COMPILE_FOR_TRISC)
  // The data movers' own steps (their build alone has the dataflow API).
  void push_bias(uint32_t table, uint32_t row_bytes, uint32_t row, SmallList<uint32_t, 2> col_tiles) {
    IndexPairs at;
    for (uint32_t t : col_tiles) at.push_back({row, t});
    push_tiles(x_.cb_bias0, read_row_tiles(x_, table, row_bytes, at), 2);
  }

  void push_adaln(uint32_t scale_row, uint32_t shift_row) {
    const uint32_t table = x_.io(Io::adaln_rows);
    push_tiles(x_.cb_adaln, read_row_tiles(x_, table, width_row_bytes(), {{scale_row, x_.col}, {shift_row, x_.col}}), 2);
  }

  void contribute_front(uint32_t cb, uint32_t n_tiles, const IndexPairs& pages,
                        uint32_t hub = 0, uint32_t ahead = 0) {
    cb_wait_front(cb, n_tiles);
    contribute(x_, hub, get_read_ptr(cb), pages, ahead);
    cb_pop_front(cb, n_tiles);
  }

  // The own residual / normalised tile (r, t) from cb_h to page r * 48 + t of the hub.
  void contribute_own_tile() {
    if (brisc()) contribute_front(x_.cb_h, 1, {{0, x_.row * kRowTiles + x_.col}});
  }

  // The new residual tiles to every core (onehub), or (seed, the block variant's end) to DRAM.
  void residual_round(uint32_t dram_out = 0) {
    contribute_own_tile();
    mcast_round(x_, kComputeCores, 2 * kRowTiles, 0, dram_out);
    if (!brisc()) return;
    if (x_.seed()) cb_pop_front(x_.cb_a, kCbAPages);
    else refill_residual_row(x_);
  }
#endif

  void setup() {
    ON_COMPUTE(if (trisc() || hub_trisc()) start_compute(x_);)
#if !defined(COMPILE_FOR_TRISC)
    if (brisc()) {
      setup_constants(x_);
      learn_landing_rings(x_);
      if (variant_ != ProgramVariant::steps4) {
        cb_reserve_back(x_.cb_x, kRowTiles);  // the host uploaded x_rep
        cb_push_back(x_.cb_x, kRowTiles);
      } else if (x_.c < d_.width / kTileDim) {
        push_tail_constants();
      }
    }
    if (x_.hub && kProc == Proc::brisc) {
      // the statistics tiles' rows past the 48 cores stay zero: nothing else lands there
      if (x_.seed() && x_.hub_index == 1) {
        // (stored into a reserved window of the ring and pushed through it, which the emulator counts
        // as written; nothing reads the ring through the CB)
        cb_reserve_back(x_.cb_land, kLandPages);
        __builtin_memset(l1_bytes(x_.land[1] + kStatsLandPage * kBf16TileBytes), 0, kStatsPages * kBf16TileBytes);
        pointer_l1_bytes(kStatsPages * kBf16TileBytes);
        cb_push_back(x_.cb_land, kLandPages);
        cb_wait_front(x_.cb_land, kLandPages);
        cb_pop_front(x_.cb_land, kLandPages);
      }
      publish_landing_ring(x_);
    }
    if (hub_brisc()) {
      push_tiles(x_.cb_hconst, {identity_tile(1.0f / float(NAMED("n_steps")))}, 1);
      if (variant_ == ProgramVariant::steps4) {
        const uint32_t tiles = 2 * x_.nt;
        cb_reserve_back(x_.cb_act, tiles);
        const InterleavedAddrGen<true> state = {.bank_base_address = x_.io(out_io(x_.schedule, n_, OutIo::x_t)), .page_size = kFp32TileBytes};
        for (uint32_t p = 0; p < tiles; ++p)
          noc_async_read(state.get_noc_addr(p), get_write_ptr(x_.cb_act) + p * kFp32TileBytes, kFp32TileBytes);
        noc_async_read_barrier();
        cb_push_back(x_.cb_act, tiles);
      }
    }
#endif
  }

#if !defined(COMPILE_FOR_TRISC)
  // cb_tconst of the encoder cores: b3 + position rows, the action-row masks and the state /
  // future token rows of this core's column tile, for both tile rows.
  void push_tail_constants() {
    const int action_row0 = int(NAMED("action_row0")), horizon = int(NAMED("h"));
    const int n_future = int(NAMED("n_future_tokens"));
    TileList tiles;
    for (int r = 0; r < 2; ++r) {
      int rows[32];
      for (int i = 0; i < 32; ++i) rows[i] = 32 * r + i;
      tiles.push_back(read_rows_tile(x_, x_.io(Io::b3_pos_rows), width_row_bytes(), rows, x_.col));
    }
    for (int r = 0; r < 2; ++r)
      tiles.push_back(row_range_tile(action_row0 - 32 * r, action_row0 + horizon - 32 * r));
    for (int r = 0; r < 2; ++r) {
      int state_rows[32], future_rows[32];
      for (int i = 0; i < 32; ++i) {
        const int token = 32 * r + i;
        state_rows[i] = token == 0 ? 0 : -1;
        future_rows[i] = token >= 1 && token <= n_future ? token - 1 : -1;
      }
      Bf16Tile tile = read_rows_tile(x_, x_.io(out_io(x_.schedule, n_, OutIo::state_features)), width_row_bytes(), state_rows, x_.col);
      if (n_future > 0) {
        const Bf16Tile future = read_rows_tile(x_, x_.io(Io::future_tokens), width_row_bytes(), future_rows, x_.col);
        for (int i = 0; i < 32; ++i)
          if (future_rows[i] >= 0)
            for (int c = 0; c < 32; ++c) tile[tile_index(i, c)] = future[tile_index(i, c)];
      }
      tiles.push_back(tile);
    }
    push_tiles(x_.cb_tconst, tiles, 6);
  }
#endif

  // A tail op on cores 0 .. N tiles - 1: stream, multiply (the whole input row, K tiles wide, from
  // cb_a), then gather the 2 output tiles of each into a [64, N tiles] landing row.
  void tail_phase(TailOp op, Activation act, uint32_t table, uint32_t row_bytes, uint32_t bias_row) {
    const uint32_t k_tiles = tail_k_tiles(x_.dims, op), n_tiles = tail_n_tiles(x_.dims, op);
    const bool mine = x_.compute && x_.c < n_tiles;
    ON_MOVERS(if (ncrisc() && mine) stream_tail_op(x_, op);)
    ON_COMPUTE(if (trisc()) {
      if (mine && op == TailOp::enc3) encoder_out_op(x_, k_tiles);
      else if (mine) tail_op(x_, k_tiles, k_tiles, act);
      else {
        cb_wait_front(x_.cb_a, kCbAPages);
        cb_pop_front(x_.cb_a, kCbAPages);
      }
    })
    ON_MOVERS(if (brisc() && mine) {
      if (table) push_bias(table, row_bytes, bias_row, {x_.c});
      contribute_front(x_.cb_o, 2, {{0, x_.c}, {1, n_tiles + x_.c}});
    })
    (void)act, (void)table, (void)row_bytes, (void)bias_row, (void)k_tiles;
  }

  void encoder(uint32_t step) {
    const uint32_t pages = 2 * x_.nt;
    ON_COMPUTE(if (hub_trisc()) hub_state_to_bf16(x_);)
    ON_MOVERS(if (hub_brisc()) cb_wait_front(x_.cb_xin, pages);
              mcast_round(x_, 0, pages, x_.hub ? get_read_ptr(x_.cb_xin) : 0);
              if (hub_brisc()) cb_pop_front(x_.cb_xin, pages);)
    (void)pages;
    const uint32_t w = d_.width / kTileDim;
    tail_phase(TailOp::enc1, Activation::none, bias_table(), bias_row_bytes(), 4 * n_ + 3);
    ON_MOVERS(mcast_round(x_, w, 2 * w);)
    tail_phase(TailOp::enc2a, Activation::silu, x_.io(Io::b2_step), width_row_bytes(), step);
    ON_MOVERS(mcast_round(x_, w, 2 * w);)
    tail_phase(TailOp::enc3, Activation::none, 0, 0, 0);
    ON_MOVERS(mcast_round(x_, w, 2 * w);)
    ON_MOVERS(if (brisc()) x_.seed() ? refill_own_tile(x_) : refill_residual_row(x_);)
    x_.x_row = !x_.seed();
  }

  // LayerNorm (AdaLN when modulated) of every core's own tile, then the round of the normalised
  // activation. Seed: the row statistics come from the 48 cores' partial sums, exchanged through a
  // statistics round of hub 1; onehub: each core has its whole row.
  void layer_norm_phase(bool modulate, uint32_t eps_cb, uint32_t eps_tile, uint32_t scale_row) {
    if (x_.seed()) {
      ON_COMPUTE(if (trisc()) layer_norm_partial_stats(x_);)
      ON_MOVERS(if (brisc()) send_ln_stats(x_);
                hub_round(x_, {1, kComputeCores, kStatsPages, 0, 0, 0, kStatsLandPage, true});)
      ON_MOVERS(if (brisc()) {
        DeviceZoneScopedN("round");
        DeviceTimestampedData(DIT_ROUND_RECORD, round_tag(1, x_.rounds[1]));
        cb_reserve_back(x_.cb_part, kPartPages);
        credit_hub(x_, 1);
        if (modulate) push_adaln(scale_row, scale_row + 1);
        await_round(x_, 1);
        cb_push_back(x_.cb_part, kPartPages);
      })
      ON_COMPUTE(if (trisc()) layer_norm_from_stats(x_, modulate, eps_cb, eps_tile);)
    } else {
      ON_COMPUTE(if (trisc()) layer_norm_own_tile(x_, modulate, eps_cb, eps_tile);)
      ON_MOVERS(if (brisc() && modulate) push_adaln(scale_row, scale_row + 1);)
    }
    ON_MOVERS(contribute_own_tile();
              mcast_round(x_, kComputeCores, 2 * kRowTiles);)
    (void)modulate, (void)eps_cb, (void)eps_tile, (void)scale_row;
  }

  // Phases are profiler zones on every processor: the trace shows them, the timing report finds
  // the rounds and the QKV matmul in them.
  void block(uint32_t step, uint32_t b) {
    {
      DeviceZoneScopedN("ln1");
      layer_norm_phase(true, x_.cb_stat, kBlockEpsTile, adaln_row(step, 2 * b)); }
    const bool head_core = x_.compute && x_.group == 0;
    if (block_keys(x_.schedule, b) == BlockKeys::self) {
      self_attention_inputs(b);
      {
      DeviceZoneScopedN("attn");
        ON_COMPUTE(if (trisc() && head_core) head_attention(x_, x_.cb_mm0, 1);)
      }
    } else {
      cross_attention_inputs(b);
    }
    {
      DeviceZoneScopedN("attn_out");
      // O_h leaves a tile row at a time (cb_o runs in 2-tile windows, shared with the tail ops)
      ON_MOVERS(if (brisc() && head_core) {
        for (uint32_t r = 0; r < 2; ++r)
          contribute_front(x_.cb_o, 2, {{0, r * kHeadTiles + 2 * x_.head}, {1, r * kHeadTiles + 2 * x_.head + 1}});
      }
      mcast_round(x_, 2 * d_.n_heads, 2 * kHeadTiles);)
      (void)head_core;
    }
    {
      DeviceZoneScopedN("out");
      k_split_residual(b, BlockOp::out, 4 * b + 1, x_.seed(), [&] {
        ON_COMPUTE(if (trisc()) partial_op(x_, 16, kHeadTiles, x_.quarter * 16);)
      });
    }
    if (!x_.seed()) {
      DeviceZoneScopedN("residual");
      ON_MOVERS(residual_round();)
    }
    {
      DeviceZoneScopedN("ln2");
      layer_norm_phase(false, x_.cb_stat, kBlockEpsTile, 0); }
    // the block variant's last residual goes to DRAM through a round
    const bool last = b + 1 == n_ && variant_ == ProgramVariant::block;
    feed_forward(b, x_.seed() && !last);
    if (!x_.seed() || last) {
      DeviceZoneScopedN("residual");
      ON_MOVERS(residual_round(last && hub_brisc() ? x_.io(out_io(x_.schedule, n_, OutIo::x_out)) : 0);)
    }
  }


  void self_attention_inputs(uint32_t b) {
    {
      DeviceZoneScopedN("qkv");
      ON_MOVERS(if (ncrisc()) stream_block_op(x_, b, BlockOp::attn_in);)
      ON_COMPUTE(if (trisc()) full_k_op(x_, kRowTiles, Activation::none);)
    }
    DeviceZoneScopedN("kv");
    ON_COMPUTE(if (trisc() && x_.group == 1) transpose_head_k(x_);)
#if !defined(COMPILE_FOR_TRISC)
    if (brisc()) {
      push_bias(bias_table(), bias_row_bytes(), 4 * b, {2 * x_.c, 2 * x_.c + 1});
      if (x_.group == 0) {
        const uint32_t mask = x_.io(Io::self_mask);
        push_tiles(x_.cb_mask, read_row_tiles(x_, mask, 128, {{0, 0}, {0, 1}}), 2);
      }
    }
    if (x_.seed()) {
      if (brisc()) x_.group == 0 ? receive_head_kv(x_) : send_head_kv(x_);
    } else {
      // K^T then V of every head through the hub; the head core keeps its own head's tiles
      for (uint32_t part = 1; part <= 2; ++part) {
        if (brisc() && x_.group == part) {
          IndexPairs pages;
          for (uint32_t i = 0; i < 4; ++i) pages.push_back({i, head_page(i)});
          contribute_front(x_.cb_mm0, 4, pages);
        }
        mcast_round(x_, d_.n_heads, 2 * kHeadTiles);
        if (!brisc()) continue;
        if (x_.group == 0) copy_head_tiles(part == 1 ? x_.cb_k : x_.cb_v);
        cb_pop_front(x_.cb_a, kCbAPages);
      }
    }
#endif
    x_.head_k_chunks += 1;
    (void)b;
  }

  // Page of cb_a holding tile i of this head's 4-tile window: two tiles of each head per tile row.
  uint32_t head_page(uint32_t i) const { return (i / 2) * kHeadTiles + 2 * x_.head + i % 2; }

#if !defined(COMPILE_FOR_TRISC)
  // This head's 4-tile window of K^T or V from the round in cb_a.
  void copy_head_tiles(uint32_t cb) {
    cb_reserve_back(cb, 4);
    for (uint32_t i = 0; i < 4; ++i)
      local_copy(get_read_ptr(x_.cb_a) + head_page(i) * kBf16TileBytes, get_write_ptr(cb) + i * kBf16TileBytes,
                 kBf16TileBytes);
    cb_push_back(cb, 4);
  }
#endif

  void cross_attention_inputs(uint32_t b) {
    DeviceZoneScopedN("attn");
    ON_MOVERS(if (ncrisc()) stream_block_op(x_, b, BlockOp::attn_in);)
    ON_COMPUTE(if (trisc()) partial_op(x_, 16, kRowTiles, x_.group * 16);)
    // long key sets split over the three cores of the head, each taking a third of the chunks
    const BlockKeys keys = block_keys(x_.schedule, b);
    const uint32_t chunks = key_chunks(x_.schedule, keys);
    const bool split = keys_split(x_.schedule, keys);
    const uint32_t first = split ? x_.group * chunks / 3 : 0;
    const uint32_t end = split ? (x_.group + 1) * chunks / 3 : (x_.group == 0 ? chunks : 0);
    x_.head_k_chunks += split ? chunks / 3 : chunks;  // the head core's share
#if !defined(COMPILE_FOR_TRISC)
    if (brisc()) {
      // The first chunk's K^T / V and the masks do not depend on Q: their DRAM reads, which queue
      // behind the weight streams, go out before the Q exchange and land under its barrier.
      const bool mine = first < end;
      if (mine) {
        cb_reserve_back(x_.cb_mask, 2);
        read_cross_masks(keys, first, end);
        read_cross_kv(b, keys, first);
      }
      // the three K-third cores of head h all-reduce their Q partials
      Members members;
      PartSends sends;
      for (uint32_t third = 0; third < 3; ++third) members.push_back(x_.head + 32 * third);
      for (uint32_t m : members)
        for (uint32_t i = 0; i < 4; ++i) sends.push_back({i, m, x_.group * 4 + i});
      cb_wait_front(x_.cb_scores, 4);
      exchange(x_, members, get_read_ptr(x_.cb_scores), sends);
      cb_pop_front(x_.cb_scores, 4);
      push_bias(bias_table(), bias_row_bytes(), 4 * b, {2 * x_.head, 2 * x_.head + 1});
      if (mine) {
        push_cross_masks(keys, first, end);
        cb_push_back(x_.cb_k, 4);
        cb_push_back(x_.cb_v, 4);
      }
      for (uint32_t j = first + 1; j < end; ++j) {
        read_cross_kv(b, keys, j);
        noc_async_read_barrier();
        cb_push_back(x_.cb_k, 4);
        cb_push_back(x_.cb_v, 4);
      }
    }
#else
    if (trisc()) {
      assemble_q(x_);
      if (split) {
        attention_part(x_, x_.cb_q, first, end);
        if (x_.group != 0) stage_part(x_);
      } else if (x_.group == 0) {
        head_attention(x_, x_.cb_q, chunks);
      } else {
        cb_wait_front(x_.cb_q, 4);
        cb_pop_front(x_.cb_q, 4);
      }
    }
#endif
    if (!split) return;
    ON_MOVERS(if (brisc()) send_parts();)
    ON_COMPUTE(if (trisc()) {
      if (x_.group == 0) {
        merge_parts(x_);
      } else {
        cb_wait_front(x_.cb_part, kPartPages);
        cb_pop_front(x_.cb_part, kPartPages);
      }
    })
    (void)b;
  }

#if !defined(COMPILE_FOR_TRISC)
  // The two part cores of a split head send their (m, l, O) to the head core's cb_part.
  void send_parts() {
    Members members;
    for (uint32_t third = 0; third < 3; ++third) members.push_back(x_.head + 32 * third);
    exchange_open(x_, members);
    if (x_.group != 0) {
      const uint32_t part_base = get_write_ptr(x_.cb_part);
      for (uint32_t half = 0; half < 2; ++half) {
        cb_wait_front(x_.cb_scores, 4);
        for (uint32_t i = 0; i < 4; ++i) {
          const uint32_t page = (x_.group - 1) * 8 + half * 4 + i;
          noc_async_write(get_read_ptr(x_.cb_scores) + i * kFp32TileBytes,
                          x_.compute_noc(x_.head, part_base + page * kFp32TileBytes), kFp32TileBytes);
        }
        noc_async_write_barrier();
        cb_pop_front(x_.cb_scores, 4);
      }
    }
    exchange_close(x_, members);
  }

  // K^T, V and mask tiles of each 64-key chunk of the hoisted cross K/V of block b.
  // Reserves the K^T and V windows of chunk j of the hoisted cross K/V of block b and issues their
  // reads (the caller waits for them).
  void read_cross_kv(uint32_t b, BlockKeys keys, uint32_t j) {
    const uint32_t key_tiles = 2 * key_chunks(x_.schedule, keys);
    const InterleavedAddrGen<true> k_tiles = {.bank_base_address = x_.io(kv_io(x_.schedule, b, false)), .page_size = kBf16TileBytes};
    const InterleavedAddrGen<true> v_tiles = {.bank_base_address = x_.io(kv_io(x_.schedule, b, true)), .page_size = kBf16TileBytes};
    cb_reserve_back(x_.cb_k, 4);
    cb_reserve_back(x_.cb_v, 4);
    // the host stores K transposed: page (kr, d) holds K^T tile (d, kr)
    for (uint32_t kr = 0; kr < 2; ++kr) {
      for (uint32_t d = 0; d < 2; ++d) {
        const uint32_t page = (x_.head * key_tiles + 2 * j + kr) * 2 + d;
        noc_async_read(k_tiles.get_noc_addr(page), get_write_ptr(x_.cb_k) + (d * 2 + kr) * kBf16TileBytes,
                       kBf16TileBytes);
        noc_async_read(v_tiles.get_noc_addr(page), get_write_ptr(x_.cb_v) + (kr * 2 + d) * kBf16TileBytes,
                       kBf16TileBytes);
      }
    }
  }

  static bool has_mask(BlockKeys keys) {
    return (keys == BlockKeys::text    ? NAMED("text_mask_present")
            : keys == BlockKeys::image ? NAMED("image_mask_present")
                                       : NAMED("all_mask_present")) != 0;
  }

  // With a per-call mask, issues the read of its row for chunks [first, end) into the reserved
  // cb_mask window (the caller waits for it).
  void read_cross_masks(BlockKeys keys, uint32_t first, uint32_t end) {
    if (!has_mask(keys)) return;
    const uint32_t chunk_bytes = 2 * kTileDim * 2;  // 64 bf16 keys
    const InterleavedAddrGen<true> table = {.bank_base_address = x_.io(mask_io(keys)), .page_size = chunk_bytes * key_chunks(x_.schedule, keys)};
    noc_async_read(table.get_noc_addr(0, first * chunk_bytes), get_write_ptr(x_.cb_mask), (end - first) * chunk_bytes);
  }

  // The additive mask tiles of chunks [first, end) from the row read_cross_masks landed, or open
  // keys up to the padded count when the set has no per-call mask.
  void push_cross_masks(BlockKeys keys, uint32_t first, uint32_t end) {
    // the row fills at most the 2-page cb_mask window read_cross_masks reads it into
    uint16_t row[kBf16TileBytes];
    const uint32_t values = (end - first) * 2 * kTileDim;
    if (values > kBf16TileBytes) __builtin_trap();
    if (has_mask(keys)) {
      __builtin_memcpy(row, l1_bytes(get_write_ptr(x_.cb_mask)), values * 2);
      pointer_l1_bytes(values * 2);
    } else {
      for (uint32_t i = 0; i < values; ++i) {
        const bool pad = (2 * first * kTileDim + i) >= padded_keys(x_.schedule, keys);
        row[i] = pad ? to_bf16(kMaskedScore) : 0;
      }
    }
    for (uint32_t j = first; j < end; ++j) {
      const uint16_t* chunk = row + (j - first) * 2 * kTileDim;
      push_tiles(x_.cb_mask, {row_tile(chunk), row_tile(chunk + kTileDim)}, 2);
    }
  }
#endif

  // out / ff2: the four K-quarter partials of each output tile meet on the tile's owner, which adds
  // them, the bias and its residual tile.
  // `in_place`: the new residual tile replaces this core's old one in cb_x (seed) instead of going
  // to a residual round.
  template <typename Multiply>
  void k_split_residual(uint32_t b, BlockOp op, uint32_t bias_row, bool in_place, Multiply multiply) {
    ON_MOVERS(if (ncrisc()) stream_block_op(x_, b, op);)
    multiply();
    ON_MOVERS(if (brisc()) {
      Members members;
      PartSends sends;
      for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t n = 0; n < 2; ++n) {
          const uint32_t owner = r * kRowTiles + 2 * x_.pair + n;
          members.push_back(owner);
          sends.push_back({r * 2 + n, owner, x_.quarter});
        }
      cb_wait_front(x_.cb_scores, 4);
      exchange(x_, members, get_read_ptr(x_.cb_scores), sends);
      cb_pop_front(x_.cb_scores, 4);
      push_bias(bias_table(), bias_row_bytes(), bias_row, {x_.col});
    })
    ON_COMPUTE(if (trisc()) residual_update(x_, in_place);)
    (void)b, (void)op, (void)bias_row, (void)in_place;
  }

  void feed_forward(uint32_t b, bool in_place) {
    {
      DeviceZoneScopedN("ff1");
      ON_MOVERS(if (ncrisc()) stream_block_op(x_, b, BlockOp::ff1);)
      ON_COMPUTE(if (trisc()) full_k_op(x_, kRowTiles, Activation::gelu);)
      ON_MOVERS(if (brisc()) push_bias(bias_table(), bias_row_bytes(), 4 * b + 2, {2 * x_.c, 2 * x_.c + 1});)
    }
    DeviceZoneScopedN("ff2");
    if (x_.seed()) {
      k_split_residual(b, BlockOp::ff2, 4 * b + 3, in_place, [&] { ff2_chunk_ring(); });
      return;
    }
    // the [64, 6144] FF1 output reaches the ff2 cores a K quarter (1536 columns) per round
    const uint32_t cores_per_quarter = kComputeCores / 4;
    k_split_residual(b, BlockOp::ff2, 4 * b + 3, in_place, [&] {
      for (uint32_t q = 0; q < 4; ++q) {
        ON_MOVERS(if (brisc() && x_.c / cores_per_quarter == q) {
          const uint32_t col0 = 2 * x_.c - 2 * cores_per_quarter * q;
          IndexPairs pages;
          for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t n = 0; n < 2; ++n) pages.push_back({r * 2 + n, r * kRowTiles + col0 + n});
          contribute_front(x_.cb_mm0, 4, pages);
        }
        mcast_round(x_, cores_per_quarter, 2 * kRowTiles);)
        ON_COMPUTE(if (!trisc()) continue;
        if (x_.quarter == q) {
          partial_op(x_, kRowTiles, kRowTiles, 0);
        } else {
          cb_wait_front(x_.cb_a, kCbAPages);
          cb_pop_front(x_.cb_a, kCbAPages);
        })
      }
    });
  }

  // Seed: the FF1 output as a ring of [64, 1024] chunks over the two hubs (even chunks on hub 0,
  // odd on hub 1, each landing in its own slot of the hub's ring so a gather never waits for an
  // earlier multicast); cb_a holds two chunk windows and every compute core credits a chunk as soon
  // as its window is free, one chunk ahead of the one it waits for.
  void ff2_chunk_ring() {
    const uint32_t chunk_tiles = kChunkPages / 2;
    const uint32_t chunks = d_.ff_dim / kTileDim / chunk_tiles;
    const uint32_t cores_per_chunk = kComputeCores / chunks;
#if !defined(COMPILE_FOR_TRISC)
    if (brisc()) {
      const uint32_t kc = x_.c / cores_per_chunk;
      const uint32_t col0 = 2 * x_.c - chunk_tiles * kc;
      IndexPairs pages;
      for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t n = 0; n < 2; ++n) pages.push_back({r * 2 + n, (kc / 2) * kChunkPages + r * chunk_tiles + col0 + n});
      contribute_front(x_.cb_mm0, 4, pages, kc % 2, kc / 2);
      cb_reserve_back(x_.cb_a, kCbAPages);
      credit_hub(x_, 0);
      credit_hub(x_, 1);
    }
    for (uint32_t kc = 0; kc < chunks; ++kc) {
      hub_round(x_, {kc % 2, cores_per_chunk, kChunkPages, 0, (kc % 2) * kChunkPages, 0, (kc / 2) * kChunkPages});
      if (!brisc()) continue;
      {
        DeviceZoneScopedN("round");
        DeviceTimestampedData(DIT_ROUND_RECORD, round_tag(kc % 2, x_.rounds[kc % 2]));
        await_round(x_, kc % 2);
        cb_push_back(x_.cb_a, kChunkPages);
      }
      if (kc >= 1 && kc + 1 < chunks) {
        cb_reserve_back(x_.cb_a, kChunkPages);
        credit_hub(x_, (kc + 1) % 2);
      }
    }
#else
    if (trisc()) ff2_chunk_partials(x_, chunks);
    (void)cores_per_chunk;
#endif
  }

  void output_head(uint32_t step) {
    layer_norm_phase(true, x_.cb_stat32, 0, adaln_row(step, 2 * n_));
    if (trisc()) cb_pop_front(x_.cb_x, x_.x_pages());
    const uint32_t out = d_.out_dim / kTileDim, hidden = d_.hidden / kTileDim;
    tail_phase(TailOp::proj_out_2, Activation::none, bias_table(), bias_row_bytes(), 4 * n_);
    if (variant_ == ProgramVariant::step) {
      ON_MOVERS(hub_gather(x_, out);
                if (hub_brisc()) write_tiles(x_.land[0], x_.io(out_io(x_.schedule, n_, OutIo::y_out)), 2 * out, kBf16TileBytes);)
      return;
    }
    ON_MOVERS(mcast_round(x_, out, 2 * out);)
    tail_phase(TailOp::dec1, Activation::relu, bias_table(), bias_row_bytes(), 4 * n_ + 1);
    ON_MOVERS(mcast_round(x_, hidden, 2 * hidden);)
    tail_phase(TailOp::dec2, Activation::none, bias_table(), bias_row_bytes(), 4 * n_ + 2);
    ON_MOVERS(if (hub_brisc()) cb_reserve_back(x_.cb_land, kLandPages);
              hub_gather(x_, x_.nt);
              if (hub_brisc()) cb_push_back(x_.cb_land, kLandPages);)
    ON_COMPUTE(if (hub_trisc()) hub_euler_update(x_, x_.seed() && NAMED("euler_fp32") == 0);)
    (void)out, (void)hidden;
  }

#if !defined(COMPILE_FOR_TRISC)
  void write_tiles(uint32_t src_l1, uint32_t buffer, uint32_t tiles, uint32_t tile_bytes) {
    const InterleavedAddrGen<true> out = {.bank_base_address = buffer, .page_size = tile_bytes};
    for (uint32_t p = 0; p < tiles; ++p) noc_async_write(src_l1 + p * tile_bytes, out.get_noc_addr(p), tile_bytes);
    noc_async_write_barrier();
  }

#endif

  void finish() {
#if !defined(COMPILE_FOR_TRISC)
    if (!hub_brisc() || variant_ != ProgramVariant::steps4) return;
    // cb_act always holds the state; the last step's velocity taps, packed after each state tile,
    // say that the final Euler update is complete
    const uint32_t tiles = 2 * x_.nt;
    const uint32_t taps = NAMED("n_steps") * tiles;
    cb_wait_front(x_.cb_vel, taps);
    if (NAMED("k4_velocity_out_present")) write_tiles(get_read_ptr(x_.cb_vel), x_.io(out_io(x_.schedule, n_, OutIo::velocity_out)), taps, kBf16TileBytes);
    cb_pop_front(x_.cb_vel, taps);
    cb_wait_front(x_.cb_act, tiles);
    write_tiles(get_read_ptr(x_.cb_act), x_.io(out_io(x_.schedule, n_, OutIo::action_pred)), tiles, kFp32TileBytes);
#endif
  }

  Ctx& x_;
  const ArenaDims& d_;
  ProgramVariant variant_;
  uint32_t n_;
};

}  // namespace ditmk::tt::kernel
