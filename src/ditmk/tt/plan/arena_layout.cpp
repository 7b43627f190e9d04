#include "ditmk/tt/plan/arena_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/plan/limits.hpp"

namespace ditmk::tt {

using model::KeySet;

std::string_view variant_name(Variant variant) {
  switch (variant) {
    case Variant::block: return "block";
    case Variant::step: return "step";
    case Variant::steps4: return "steps4";
  }
  return "?";
}

Variant parse_variant(std::string_view name) {
  for (Variant v : {Variant::block, Variant::step, Variant::steps4}) {
    if (name == variant_name(v)) return v;
  }
  fail("variant '{}' is not one of block, step, steps4", name);
}

std::string_view reader_mode_name(ReaderMode mode) { return mode == ReaderMode::direct ? "direct" : "relay"; }
std::string_view tile_order_name(TileOrder order) { return order == TileOrder::row_major ? "row_major" : "col_major"; }
std::string_view arena_name(Arena arena) { return arena == Arena::stream ? "stream" : "small"; }

std::string_view op_kind_name(OpKind kind) {
  switch (kind) {
    case OpKind::qkv: return "qkv";
    case OpKind::q: return "q";
    case OpKind::out: return "out";
    case OpKind::ff1: return "ff1";
    case OpKind::ff2: return "ff2";
    case OpKind::proj_out_2: return "proj_out_2";
    case OpKind::dec1: return "dec1";
    case OpKind::dec2: return "dec2";
    case OpKind::enc1: return "enc1";
    case OpKind::enc2a: return "enc2a";
    case OpKind::enc3: return "enc3";
  }
  return "?";
}

namespace {

constexpr uint64_t kRegionAlign = 64;  // DRAM read alignment of Blackhole

int tiles(int elems) { return elems / kTile; }
int round_tiles(int elems) { return (elems + kTile - 1) / kTile * kTile; }

// Which K x N tiles compute core c streams (docs/plan.md, "Op ownership"). Ops with 192 N tiles
// give each core 2 N tiles and the whole K; Q of a cross block (64 N tiles) gives each head's
// 2 tiles to its three cores h, 32+h, 64+h, a K third each; 48-N-tile ops give each 2-tile column
// pair to the four cores of output columns 2p, 2p+1 in both tile rows, a K quarter each. Every weight
// byte is streamed exactly once per step.
CoreSlice stream_slice(OpKind kind, int c, int k_tiles) {
  CoreSlice s;
  s.compute_idx = c;
  s.n_tiles = kNTilesPerCore;
  if (kind == OpKind::qkv || kind == OpKind::ff1) {
    s.n_tile0 = kNTilesPerCore * c;
    s.k_tiles = k_tiles;
  } else if (kind == OpKind::q) {
    int head = c % 32, third = c / 32;
    s.n_tile0 = kNTilesPerCore * head;
    s.k_tiles = k_tiles / 3;
    s.k_tile0 = third * s.k_tiles;
  } else {  // out, ff2
    int row = c / 48, col = c % 48;
    int quarter = 2 * row + col % 2;
    s.n_tile0 = kNTilesPerCore * (col / 2);
    s.k_tiles = k_tiles / 4;
    s.k_tile0 = quarter * s.k_tiles;
  }
  return s;
}

int k_split_of(OpKind kind) {
  switch (kind) {
    case OpKind::q: return 3;
    case OpKind::out:
    case OpKind::ff2: return 4;
    default: return 1;
  }
}

std::string block_key(int block, std::string_view rest) {
  return fmt::format("action_head.model.transformer_blocks.{}.{}", block, rest);
}

WeightSource linear(std::string weight, std::string bias, int k_len, int n_len, int dst_n0 = 0) {
  WeightSource s;
  s.tensor = std::move(weight);
  s.bias = std::move(bias);
  s.k_len = k_len;
  s.n_len = n_len;
  s.dst_n0 = dst_n0;
  return s;
}

WeightSource category(std::string layer, int k_len, int n_len) {
  WeightSource s = linear("action_head." + layer + ".W", "action_head." + layer + ".b", k_len, n_len);
  s.per_embodiment = true;
  s.out_in = false;
  return s;
}

void check_dims(const model::ModelConfig& config) {
  const model::Dims& d = config.dims;
  // The ownership tables assume the released widths: 96 cores x 2 N tiles = 192 tiles = 3 x 32
  // heads x 64 padded columns = FF inner 6144, and 48 N tiles of width split four ways.
  require(d.width == 1536, "dims.width {} is not 1536, the width the 96-core plan is built for", d.width);
  require(d.n_heads == 32, "dims.n_heads {} is not 32, one head per core of each third", d.n_heads);
  require(d.head_dim * d.n_heads == d.width, "dims.head_dim {} x n_heads {} != width {}", d.head_dim, d.n_heads,
          d.width);
  require(round_tiles(d.head_dim) == 2 * kTile, "dims.head_dim {} does not pad to 64", d.head_dim);
  require(d.ff_dim == 6144, "dims.ff_dim {} is not 6144 (2 N tiles on each of 96 cores)", d.ff_dim);
  require(d.out_dim % kTile == 0 && tiles(d.out_dim) <= kComputeCores, "dims.out_dim {} is not a tile multiple <= {}",
          d.out_dim, kComputeCores * kTile);
  require(d.hidden % kTile == 0 && tiles(d.hidden) <= kComputeCores, "dims.hidden {} is not a tile multiple <= {}",
          d.hidden, kComputeCores * kTile);
  require(config.m_rows() <= kMPad, "token rows {} (1 + future {} + horizon {}) exceed the {} planned rows",
          config.m_rows(), config.n_future, config.horizon, kMPad);
  require(config.action_dim > 0 && config.horizon > 0, "action_dim {} / horizon {} must be positive",
          config.action_dim, config.horizon);
  require(config.n_blocks > 0 && int(config.block_keys.size()) == config.n_blocks,
          "n_blocks {} does not match the block schedule ({} entries)", config.n_blocks, config.block_keys.size());
  // settings of config.json the device program keeps constant (the ref and cpu backends take any)
  require(config.n_steps == kSteps, "num_inference_timesteps {}: the megakernel plan runs {} Euler steps",
          config.n_steps, kSteps);
  require(config.ff_norm_eps == 1e-5, "diffusion_model_cfg.norm_eps {}: the megakernel's FF LayerNorm uses 1e-5",
          config.ff_norm_eps);
}

class Planner {
 public:
  Planner(const model::ModelConfig& config, ArenaLayout& layout) : config_(config), layout_(layout) {}

  void block_ops(int i) {
    const model::Dims& d = config_.dims;
    const double q_scale = layout_.fold_attn_scale ? 1.0 / std::sqrt(double(d.head_dim)) : 1.0;
    const int hd = layout_.head_dim_pad;
    if (layout_.is_cross(i)) {
      ArenaOp op = make("q", OpKind::q, i, d.width, d.width, d.width, d.n_heads * hd);
      op.sources.push_back(head_n(linear(block_key(i, "attn1.to_q.weight"), block_key(i, "attn1.to_q.bias"),
                                         d.width, d.width),
                                  q_scale));
      add_stream(std::move(op));
    } else {
      ArenaOp op = make("qkv", OpKind::qkv, i, d.width, 3 * d.width, d.width, 3 * d.n_heads * hd);
      const char* names[3] = {"to_q", "to_k", "to_v"};
      for (int part = 0; part < 3; ++part) {
        std::string base = fmt::format("attn1.{}.", names[part]);
        op.sources.push_back(head_n(linear(block_key(i, base + "weight"), block_key(i, base + "bias"), d.width,
                                           d.width, part * d.n_heads * hd),
                                    part == 0 ? q_scale : 1.0));
      }
      add_stream(std::move(op));
    }
    ArenaOp out = make("out", OpKind::out, i, d.width, d.width, d.n_heads * hd, d.width);
    WeightSource out_src = linear(block_key(i, "attn1.to_out.0.weight"), block_key(i, "attn1.to_out.0.bias"),
                                  d.width, d.width);
    out_src.pad_heads_k = true;
    out.sources.push_back(out_src);
    add_stream(std::move(out));
    ArenaOp ff1 = make("ff1", OpKind::ff1, i, d.width, d.ff_dim, d.width, d.ff_dim);
    ff1.sources.push_back(linear(block_key(i, "ff.net.0.proj.weight"), block_key(i, "ff.net.0.proj.bias"), d.width,
                                 d.ff_dim));
    add_stream(std::move(ff1));
    ArenaOp ff2 = make("ff2", OpKind::ff2, i, d.ff_dim, d.width, d.ff_dim, d.width);
    ff2.sources.push_back(linear(block_key(i, "ff.net.2.weight"), block_key(i, "ff.net.2.bias"), d.ff_dim, d.width));
    add_stream(std::move(ff2));
  }

  void tail_ops() {
    const model::Dims& d = config_.dims;
    const int a = config_.action_dim;
    auto add = [&](const char* name, OpKind kind, int k, int n, WeightSource src) {
      ArenaOp op = make(name, kind, -1, k, n, round_tiles(k), round_tiles(n));
      op.arena = Arena::small;
      op.format = layout_.dtype_small;
      op.sources.push_back(std::move(src));
      add_small(std::move(op));
    };
    add("proj_out_2", OpKind::proj_out_2, d.width, d.out_dim,
        linear("action_head.model.proj_out_2.weight", "action_head.model.proj_out_2.bias", d.width, d.out_dim));
    if (layout_.variant != Variant::steps4) return;
    add("dec1", OpKind::dec1, d.out_dim, d.hidden, category("action_decoder.layer1", d.out_dim, d.hidden));
    add("dec2", OpKind::dec2, d.hidden, a, category("action_decoder.layer2", d.hidden, a));
    add("enc1", OpKind::enc1, a, d.width, category("action_encoder.W1", a, d.width));
    // Only the action half of W2's input (rows 0..width) streams: the tau half is the same for every
    // row and folds into the per-step bias b2_step on the host.
    WeightSource w2a = category("action_encoder.W2", d.width, d.width);
    w2a.bias.clear();
    add("enc2a", OpKind::enc2a, d.width, d.width, w2a);
    add("enc3", OpKind::enc3, d.width, d.width, category("action_encoder.W3", d.width, d.width));
  }

 private:
  static WeightSource head_n(WeightSource s, double scale) {
    s.pad_heads_n = true;
    s.scale = scale;
    return s;
  }

  ArenaOp make(std::string_view name, OpKind kind, int block, int k, int n, int k_pad, int n_pad) {
    ArenaOp op;
    op.name = block >= 0 ? fmt::format("blk{}.{}", block, name) : std::string(name);
    op.kind = kind;
    op.block = block;
    op.format = layout_.dtype_stream;
    op.k_logical = k, op.n_logical = n, op.k_pad = k_pad, op.n_pad = n_pad;
    op.k_split = block >= 0 ? k_split_of(kind) : 1;
    return op;
  }

  // Places the slices bank-major: core c streams from bank c % 8, the 12 cores of a bank one after
  // another (slot c / 8), so a core's slice offset is the op offset + slot x slice bytes.
  void place(ArenaOp& op, std::vector<CoreSlice> slices) {
    uint64_t& top = layout_.arena_bank_bytes[int(op.arena)];
    op.bank_offset = (top + kRegionAlign - 1) / kRegionAlign * kRegionAlign;
    const uint64_t tile = tile_bytes(op.format);
    uint64_t fullest = 0;
    for (CoreSlice& s : slices) {
      s.bank = s.compute_idx % kDramBanks;
      s.bytes = uint64_t(s.k_tiles) * s.n_tiles * tile;
      s.offset = op.bank_offset + uint64_t(s.compute_idx / kDramBanks) * s.bytes;
      fullest = std::max(fullest, s.offset + s.bytes - op.bank_offset);
    }
    op.region_bytes = fullest;
    op.slices = std::move(slices);
    top = op.bank_offset + fullest;
  }

  void add_stream(ArenaOp op) {
    std::vector<CoreSlice> slices;
    for (int c = 0; c < kComputeCores; ++c) slices.push_back(stream_slice(op.kind, c, tiles(op.k_pad)));
    require(slices[0].k_tiles % kKBlockTiles == 0, "{}: {} K tiles per core are not whole {}-tile K-blocks", op.name,
            slices[0].k_tiles, kKBlockTiles);
    op.k_block_bytes = uint64_t(kKBlockTiles) * kNTilesPerCore * tile_bytes(op.format);
    place(op, std::move(slices));
    layout_.ops.push_back(std::move(op));
  }

  // Tail ops: one N tile per core over the whole K, on cores 0..n_tiles-1, one transaction each.
  void add_small(ArenaOp op) {
    std::vector<CoreSlice> slices;
    for (int c = 0; c < tiles(op.n_pad); ++c) {
      CoreSlice s;
      s.compute_idx = c;
      s.k_tiles = tiles(op.k_pad);
      s.n_tile0 = c;
      s.n_tiles = 1;
      slices.push_back(s);
    }
    op.k_block_bytes = uint64_t(tiles(op.k_pad)) * tile_bytes(op.format);
    place(op, std::move(slices));
    layout_.ops.push_back(std::move(op));
  }

  const model::ModelConfig& config_;
  ArenaLayout& layout_;
};

}  // namespace

const KeySetShape& ArenaLayout::keys_of(int block) const {
  KeySet keys = block_keys.at(block);
  for (const KeySetShape& s : key_sets) {
    if (s.keys == keys) return s;
  }
  fail("block {} is a self-attention block and reads no cross key set", block);
}

int ArenaLayout::l_pad(KeySet keys) const {
  for (const KeySetShape& s : key_sets) {
    if (s.keys == keys) return s.l_pad;
  }
  return 0;
}

bool ArenaLayout::uses(KeySet keys) const { return l_pad(keys) > 0; }

std::vector<const ArenaOp*> ArenaLayout::stream_ops(Arena arena) const {
  std::vector<const ArenaOp*> out;
  for (const ArenaOp& op : ops) {
    if (op.arena == arena) out.push_back(&op);
  }
  return out;
}

const ArenaOp& ArenaLayout::op(std::string_view name) const {
  for (const ArenaOp& o : ops) {
    if (o.name == name) return o;
  }
  fail("arena has no op named '{}'", name);
}

uint64_t ArenaLayout::stream_k_block_bytes() const {
  uint64_t bytes = 0;
  for (const ArenaOp* op : stream_ops(Arena::stream)) bytes = std::max(bytes, op->k_block_bytes);
  return bytes;
}

std::vector<uint32_t> ArenaLayout::offsets_table() const {
  std::vector<uint32_t> table;
  for (const ArenaOp& op : ops) {
    require(op.bank_offset <= std::numeric_limits<uint32_t>::max(),
            "{}: bank offset {} does not fit the uint32 offsets table", op.name, op.bank_offset);
    table.push_back(uint32_t(op.bank_offset));
  }
  return table;
}

uint64_t ArenaLayout::weight_bytes(Arena arena) const {
  uint64_t bytes = 0;
  for (const ArenaOp* op : stream_ops(arena)) {
    for (const CoreSlice& s : op->slices) bytes += s.bytes;
  }
  return bytes;
}

ArenaLayout plan_arena(const model::ModelConfig& config, const LayoutConfig& layout, const ArenaOptions& options) {
  check_dims(config);
  const model::Dims& d = config.dims;
  ArenaLayout a;
  a.version = config.version;
  a.variant = options.variant;
  a.n_blocks = config.n_blocks;
  a.dtype_stream = options.dtype_stream;
  require(options.dtype_stream != TileFormat::fp32, "stream dtype fp32 is not planned (bf16 or bfp8_b)");
  a.reader_mode = options.reader_mode;
  a.tile_order = options.tile_order;
  a.fold_attn_scale = options.fold_attn_scale;
  a.euler_fp32 = config.version == model::Version::n15;
  a.m_logical = config.m_rows();
  a.a_pad = round_tiles(config.action_dim);
  a.h = config.horizon;
  a.action_rows[0] = config.action_row0();
  a.action_rows[1] = config.action_row0() + config.horizon;
  a.n_future_tokens = config.n_future;
  a.width = d.width, a.n_heads = d.n_heads, a.head_dim = d.head_dim;
  a.head_dim_pad = round_tiles(d.head_dim);
  a.ff_dim = d.ff_dim, a.out_dim = d.out_dim, a.hidden = d.hidden;
  a.layout_cfg = layout;
  a.block_keys = config.block_keys;
  a.key_sets = key_set_shapes(config, layout);
  Planner planner(config, a);
  for (int i = 0; i < a.n_blocks; ++i) planner.block_ops(i);
  if (a.variant != Variant::block) planner.tail_ops();
  require(a.arena_bank_bytes[0] <= std::numeric_limits<uint32_t>::max(),
          "stream arena needs {} B per bank, more than the uint32 offsets table can address", a.arena_bank_bytes[0]);
  return a;
}

}  // namespace ditmk::tt
