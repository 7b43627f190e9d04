#pragma once
// ArenaLayout: where every weight byte of the megakernel lives in DRAM and which compute core
// streams it. Two arenas, each WIDTH_SHARDED over the 8 DRAM banks: `stream` (the DiT block
// projections, in the stream dtype) and `small` (the tail ops, always bf16). docs/plan.md gives
// the per-op ownership tables.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ditmk/model/config.hpp"
#include "ditmk/tt/formats.hpp"
#include "ditmk/tt/plan/layout_config.hpp"

namespace ditmk::tt {

enum class Variant { block, step, steps4 };
enum class ReaderMode { direct, relay };  // compute cores read DRAM / readers read and relay
// Order of the 8 x 2 tiles inside a K-block: row_major = (k0,n0) (k0,n1) (k1,n0) ...
enum class TileOrder { row_major, col_major };
enum class Arena { stream, small };

std::string_view variant_name(Variant variant);
Variant parse_variant(std::string_view name);
std::string_view reader_mode_name(ReaderMode mode);
std::string_view tile_order_name(TileOrder order);
std::string_view arena_name(Arena arena);

constexpr int kDramBanks = 8;
constexpr int kComputeCores = 96;
constexpr int kMPad = 64;  // token rows, 2 tile rows

enum class OpKind { qkv, q, out, ff1, ff2, proj_out_2, dec1, dec2, enc1, enc2a, enc3 };
std::string_view op_kind_name(OpKind kind);

// One checkpoint tensor (or part of one) copied into an op's padded [K, N] weight matrix.
struct WeightSource {
  std::string tensor;          // full key, e.g. action_head.model.transformer_blocks.3.attn1.to_q.weight
  bool per_embodiment = false;  // [32, in, out] category tensor: the packer takes the embodiment's slice
  bool out_in = true;           // stored [out, in] (nn.Linear); category tensors are [in, out]
  int src_k0 = 0;               // first input row taken
  int k_len = 0;                // input rows taken
  int n_len = 0;                // output columns taken (all of them, from column 0)
  int dst_k0 = 0;               // where input row src_k0 lands in the padded K
  int dst_n0 = 0;               // where output column 0 lands in the padded N
  // head_dim -> head_dim_pad remap inside the destination range (attention heads of 48 padded to 64;
  // the pad rows / columns are zero).
  bool pad_heads_k = false;
  bool pad_heads_n = false;
  double scale = 1.0;  // 1/sqrt(head_dim) when the attention scale is folded into Q
  std::string bias;    // bias tensor of these output columns (for the host's bias table), or empty
};

// The part of an op one compute core streams: a K x N range of tiles stored contiguously (K-blocks
// in K order, tiles inside a K-block in tile_order) at `offset` bytes into `bank` of the op's arena.
struct CoreSlice {
  int compute_idx = 0;
  int k_tile0 = 0, k_tiles = 0;
  int n_tile0 = 0, n_tiles = 0;
  int bank = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

struct ArenaOp {
  std::string name;  // "blk3.qkv", "proj_out_2", ...
  OpKind kind = OpKind::qkv;
  int block = -1;  // DiT block, -1 for tail ops
  Arena arena = Arena::stream;
  TileFormat format = TileFormat::bf16;
  int k_logical = 0, n_logical = 0;  // elements, as the checkpoint has them
  int k_pad = 0, n_pad = 0;          // elements, whole tiles, heads padded
  int k_split = 1;                   // cores that share one N slice, each taking a K range
  uint64_t bank_offset = 0;          // start of the op's region, the same in every bank
  uint64_t region_bytes = 0;         // bytes the region takes in its fullest bank
  uint64_t k_block_bytes = 0;        // one streamed transaction of a core
  std::vector<WeightSource> sources;
  std::vector<CoreSlice> slices;     // one per participating compute core, by compute_idx
};

struct ArenaLayout {
  model::Version version = model::Version::n15;
  Variant variant = Variant::steps4;
  int n_blocks = 0;
  TileFormat dtype_stream = TileFormat::bfp8_b;
  TileFormat dtype_small = TileFormat::bf16;
  ReaderMode reader_mode = ReaderMode::direct;
  TileOrder tile_order = TileOrder::row_major;
  bool fold_attn_scale = true;
  bool euler_fp32 = false;  // fp32 Euler state (N1.5); bf16 otherwise
  int m_logical = 0, m_pad = kMPad;
  int a_pad = 0, h = 0;
  int action_rows[2] = {0, 0};  // [first, end) rows of the action tokens
  int n_future_tokens = 0;
  int width = 0, n_heads = 0, head_dim = 0, head_dim_pad = 0, ff_dim = 0, out_dim = 0, hidden = 0;
  LayoutConfig layout_cfg;
  std::vector<model::KeySet> block_keys;  // key set of every block (self_attn for self blocks)
  std::vector<KeySetShape> key_sets;      // the cross key sets used, first-use order
  std::vector<ArenaOp> ops;               // stream ops in block order, then the small ops
  uint64_t arena_bank_bytes[2] = {0, 0};  // bytes per bank of the stream / small arena

  bool is_cross(int block) const { return block_keys.at(block) != model::KeySet::self_attn; }
  const KeySetShape& keys_of(int block) const;  // throws for self blocks
  int l_pad(model::KeySet keys) const;          // 0 when the set is unused
  bool uses(model::KeySet keys) const;
  std::vector<const ArenaOp*> stream_ops(Arena arena) const;
  const ArenaOp& op(std::string_view name) const;
  uint64_t stream_k_block_bytes() const;  // the largest K-block of the stream arena
  // One uint32 per op, in `ops` order: the op's byte offset in every bank of its arena.
  std::vector<uint32_t> offsets_table() const;
  uint64_t weight_bytes(Arena arena) const;  // bytes streamed per denoise step
};

struct ArenaOptions {
  Variant variant = Variant::steps4;
  TileFormat dtype_stream = TileFormat::bfp8_b;
  ReaderMode reader_mode = ReaderMode::direct;
  TileOrder tile_order = TileOrder::row_major;
  bool fold_attn_scale = true;
};

// Plans the arenas of `config` (its n_blocks and block schedule) under `layout`. Throws
// ditmk::Error naming the field when the shapes do not fit the 96-core ownership.
ArenaLayout plan_arena(const model::ModelConfig& config, const LayoutConfig& layout, const ArenaOptions& options);

}  // namespace ditmk::tt
