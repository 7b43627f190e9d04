#include "ditmk/tt/plan/program_builder.hpp"

#include <algorithm>
#include <set>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/plan/cb_tables.hpp"
#include "ditmk/tt/plan/io_slots.hpp"
#include "ditmk/tt/plan/limits.hpp"
#include "ditmk/tt/plan/program_checks.hpp"

namespace ditmk::tt {

using model::KeySet;

namespace {

// The two args from which the kernel computes every block's attention (kernel/block_schedule.hpp):
// odd blocks self-attention or not, and how often the cross blocks switch between text and image
// keys (0: they all attend to all keys). Throws when the layout's schedule is not that rule's.
std::pair<uint32_t, uint32_t> schedule_args(const ArenaLayout& layout) {
  const std::vector<KeySet>& keys = layout.block_keys;
  const uint32_t interleave = keys.size() > 1 && keys[1] == KeySet::self_attn;
  auto rule = [&](int i, uint32_t text_every) {
    if (interleave && i % 2 == 1) return KeySet::self_attn;
    if (text_every == 0) return KeySet::all;
    return i % (2 * text_every) == 0 ? KeySet::text : KeySet::image;
  };
  for (uint32_t text_every = 0; text_every <= keys.size(); ++text_every) {
    bool same = true;
    for (int i = 0; i < int(keys.size()); ++i) same = same && rule(i, text_every) == keys[i];
    if (same) return {interleave, text_every};
  }
  fail("the block schedule of {} blocks is not one the kernel computes (self-attention on odd blocks or none, "
       "cross blocks on all keys or alternating text / image)", keys.size());
}

// Structure constants shared by every core (the kernel reads them as named compile-time args).
std::vector<NamedArg> structure_ctas(const ArenaLayout& layout, const CoreMap& cm, Variant variant, size_t n_io) {
  const MaskPresence masks = mask_presence(layout);
  auto [lo, hi] = cm.mcast_rect;
  auto u = [](auto v) { return uint32_t(v); };
  const auto [interleave, text_every] = schedule_args(layout);
  return {
      {"variant", u(variant)},
      {"n_steps", u(variant == Variant::steps4 ? kSteps : 1)},
      {"n_blocks", u(layout.n_blocks)},
      {"m_logical", u(layout.m_logical)},
      {"m_pad", u(layout.m_pad)},
      {"l_txt_pad", u(layout.l_pad(KeySet::text))},
      {"l_img_pad", u(layout.l_pad(KeySet::image))},
      {"l_all_pad", u(layout.l_pad(KeySet::all))},
      {"a_pad", u(layout.a_pad)},
      {"h", u(layout.h)},
      {"action_row0", u(layout.action_rows[0])},
      {"n_future_tokens", u(layout.n_future_tokens)},
      {"euler_fp32", u(layout.euler_fp32)},
      {"reader_mode", u(layout.reader_mode)},
      {"tile_order", u(layout.tile_order)},
      {"fold_attn_scale", u(layout.fold_attn_scale)},
      {"text_mask_present", u(masks.text)},
      {"image_mask_present", u(masks.image)},
      {"all_mask_present", u(masks.all)},
      {"width", u(layout.width)},
      {"n_heads", u(layout.n_heads)},
      {"head_dim_pad", u(layout.head_dim_pad)},
      {"ff_dim", u(layout.ff_dim)},
      {"out_dim", u(layout.out_dim)},
      {"hidden", u(layout.hidden)},
      {"stream_tile_bytes", u(tile_bytes(layout.dtype_stream))},
      {"small_tile_bytes", u(tile_bytes(layout.dtype_small))},
      {"k_block_tiles", u(kKBlockTiles)},
      {"n_compute", u(cm.n_compute())},
      {"n_readers", u(cm.n_readers())},
      {"n_spare", u(cm.spare.size())},
      {"grid_x", u(cm.grid.x)},
      {"grid_y", u(cm.grid.y)},
      {"hub_x", u(cm.hub.x)},
      {"hub_y", u(cm.hub.y)},
      {"mcast_x0", u(lo.x)},
      {"mcast_y0", u(lo.y)},
      {"mcast_x1", u(hi.x)},
      {"mcast_y1", u(hi.y)},
      {"cb_relay_slots", u(kRelaySlots)},
      {"n_io_tensors", u(n_io)},
      {"n_key_sets", 3u},  // text, image, all
      {"interleave_self_attention", interleave},
      {"text_every_n_blocks", text_every},
  };
}

// K4's exchanges go from compute core to compute core and its partial rounds land in the compute
// cores' cb_part, which the hubs do not have: what the kernel cannot know from the seed's args comes
// after the offsets table, located by named args. The NoC coordinates of each compute core (two a
// word, x | y << 8 each, compute_idx order), the rectangles that cover the compute cores (x0 | y0 <<
// 8 | x1 << 16 | y1 << 24, count first), and cb_part's L1 address there (filled in once the CBs are
// placed). The coordinates are the emulated chip's, its logical ones; a chip host writes its own.
// Returns the index of the cb_part word.
std::size_t append_compute_core_table(ProgramSpec& spec, const CoreMap& cm) {
  auto push = [&](std::string name, uint32_t value) {
    spec.common_rt_names.push_back(std::move(name));
    spec.common_rt_args.push_back(value);
  };
  auto xy = [](Core c) { return uint32_t(c.x) | uint32_t(c.y) << 8; };
  spec.named_ctas.push_back({"k4_compute_noc_base", uint32_t(spec.common_rt_args.size())});
  for (std::size_t i = 0; i < cm.compute.size(); i += 2) {
    const uint32_t second = i + 1 < cm.compute.size() ? xy(cm.compute[i + 1]) : 0;
    push(fmt::format("compute_noc[{}]", i / 2), xy(cm.compute[i]) | second << 16);
  }
  const std::vector<CoreRange> rects = to_ranges(cm.compute);
  spec.named_ctas.push_back({"k4_compute_rects_base", uint32_t(spec.common_rt_args.size())});
  push("compute_rects_len", uint32_t(rects.size()));
  for (std::size_t i = 0; i < rects.size(); ++i)
    push(fmt::format("compute_rects[{}]", i), xy(rects[i].start) | xy(rects[i].end) << 16);
  spec.named_ctas.push_back({"k4_cb_part_address_index", uint32_t(spec.common_rt_args.size())});
  push("cb_part_address", 0);
  return spec.common_rt_args.size() - 1;
}

uint32_t address_of(const IoSlot& slot, const ProgramOptions& options) {
  auto it = options.io.find(slot.name);
  if (it == options.io.end()) {
    require(!slot.required || options.dry_run, "io tensor '{}' is required for this variant/version but missing",
            slot.name);
    return 0;
  }
  if (options.dry_run) return 0;
  require(it->second != 0 && it->second <= UINT32_MAX, "io tensor '{}' has address {:#x}, not a 32-bit DRAM address",
          slot.name, it->second);
  return uint32_t(it->second);
}

}  // namespace

std::vector<const CBSpec*> cb_placement_order(const ProgramSpec& spec) {
  std::vector<const CBSpec*> order;
  for (const CBSpec& cb : spec.cbs)
    if (!cb.tensor_backed.empty()) order.push_back(&cb);
  for (bool whole_grid : {true, false})
    for (const CBSpec& cb : spec.cbs)
      if (cb.tensor_backed.empty() && (cb.role_set == "all") == whole_grid) order.push_back(&cb);
  return order;
}

void place_cbs(ProgramSpec& spec) {
  const std::vector<KernelGroup> groups = spec.kernel_groups();
  const auto align_up = [](uint32_t bytes) { return (bytes + kL1CbAlign - 1) / kL1CbAlign * kL1CbAlign; };
  // Per group: the first offset above its CBs, and the lowest offset its shards hold.
  std::map<std::string, uint32_t> next, bottom;
  for (const KernelGroup& g : groups) next[g.name] = kL1CbBase, bottom[g.name] = kL1Bytes;
  const auto spans_of = [&](const CBSpec& cb) {
    const std::vector<Core> cores = spec.core_map.cores_of(cb.role_set);
    std::vector<std::string> spans;
    for (const KernelGroup& g : groups) {
      if (std::any_of(g.cores.begin(), g.cores.end(),
                      [&](Core c) { return std::find(cores.begin(), cores.end(), c) != cores.end(); }))
        spans.push_back(g.name);
    }
    return spans;
  };
  spec.cb_l1_address.clear();
  spec.l1_bytes = {{"compute", 0}, {"reader", 0}, {"hub", 0}, {"spare", 0}};
  const auto place = [&](const CBSpec& cb, const std::vector<std::string>& spans, uint32_t address) {
    for (const std::string& g : spans) {
      spec.cb_l1_address[g][cb.name] = address;
      spec.l1_bytes[g] += cb.total_bytes;
    }
  };
  for (const CBSpec* cb : cb_placement_order(spec)) {
    const std::vector<std::string> spans = spans_of(*cb);
    if (!cb->tensor_backed.empty()) {
      uint32_t lowest = kL1Bytes;
      for (const std::string& g : spans) lowest = std::min(lowest, bottom[g]);
      // Below kL1CbBase (too many shards) the address is still recorded; check_program refuses it.
      const uint32_t size = align_up(cb->total_bytes);
      const uint32_t address = lowest >= size ? lowest - size : 0;
      for (const std::string& g : spans) bottom[g] = address;
      place(*cb, spans, address);
      continue;
    }
    uint32_t address = kL1CbBase;
    for (const std::string& g : spans) address = std::max(address, align_up(next[g]));
    for (const std::string& g : spans) next[g] = address + cb->total_bytes;
    place(*cb, spans, address);
  }
}

ProgramSpec build_program_spec(const CoreMap& core_map, const ArenaLayout& layout, const ProgramOptions& options) {
  require(options.step_index >= 0 && options.step_index < kSteps, "step_index {} is outside 0..{}",
          options.step_index, kSteps - 1);
  const Kernel kernel = options.kernel;
  if (kernel == Kernel::k4) {
    require(layout.reader_mode == ReaderMode::direct, "the K4 kernel streams weights in direct mode only, not {}",
            reader_mode_name(layout.reader_mode));
    for (const ArenaOp* op : layout.stream_ops(Arena::small)) {
      require(op->k_block_bytes <= uint64_t(kK4TailTiles) * tile_bytes(TileFormat::bf16),
              "{}: tail slice of {} B exceeds the {}-tile cb_tw transaction", op->name, op->k_block_bytes,
              kK4TailTiles);
    }
  }
  ProgramSpec spec;
  spec.kernel = kernel;
  spec.variant = layout.variant;
  spec.kernel_source = options.kernel_source;
  spec.core_map = core_map;
  spec.layout = layout;
  spec.l1_budget_compute = kernel == Kernel::k1 ? kK1ComputeBudget : kK4ComputeBudget;
  spec.l1_limit = kernel == Kernel::k1 ? kL1UsableBytes : kL1UsableBytes - kK4L1Margin;
  spec.io = io_slots(kernel, layout);
  spec.output_slot = spec.io.back().name;

  std::set<std::string> known;
  for (const IoSlot& s : spec.io) known.insert(s.name);
  for (const auto& [name, address] : options.io) {
    require(known.count(name) > 0, "io tensor '{}' is unknown to the {} {} program", name, kernel_name(kernel),
            variant_name(layout.variant));
  }

  const int slots = options.cb_w_slots.value_or(default_cb_w_slots(kernel, layout.dtype_stream));
  spec.cbs = kernel == Kernel::k1 ? k1_cbs(layout, slots) : k4_cbs(layout, slots);

  spec.named_ctas = structure_ctas(layout, core_map, layout.variant, spec.io.size());
  for (const auto& [name, id] : kernel == Kernel::k1 ? k1_cb_ids() : k4_cb_ids()) {
    spec.named_ctas.push_back({name, uint32_t(id)});
  }
  for (const CBSpec& cb : spec.cbs) spec.named_ctas.push_back({cb.name + "_bytes", cb.total_bytes});
  for (const auto& [name, id] : semaphore_ids()) spec.named_ctas.push_back({name, uint32_t(id)});
  if (kernel == Kernel::k4) {
    for (const auto& [name, id] : k4_hub_cb_ids()) spec.named_ctas.push_back({"k4_" + name, uint32_t(id)});
    bool taps = !options.dry_run && options.io.count("velocity_out") > 0;
    spec.named_ctas.insert(spec.named_ctas.end(), {{"k4_tw_tiles", uint32_t(kK4TailTiles)},
                                                   {"k4_tconst_tiles", uint32_t(kK4TconstTiles)},
                                                   {"k4_sdpa_slots", uint32_t(kK4SdpaSlots)},
                                                   {"k4_nt_a", uint32_t(layout.a_pad / kTile)},
                                                   {"k4_velocity_out_present", uint32_t(taps)},
                                                   {"k4_onehub", uint32_t(options.protocol == Protocol::onehub)}});
    spec.unpack_to_dest_fp32_cbs = {19};  // cb_stat32 on compute cores, cb_act on the hubs
  }

  // Common runtime args: io addresses, the step index, then the length-prefixed offsets table.
  for (const IoSlot& s : spec.io) {
    spec.common_rt_names.push_back("addr_" + s.name);
    spec.common_rt_args.push_back(address_of(s, options));
  }
  spec.common_rt_names.push_back("step_index");
  spec.common_rt_args.push_back(uint32_t(options.step_index));
  const std::vector<uint32_t> offsets = layout.offsets_table();
  spec.common_rt_names.push_back("offsets_table_len");
  spec.common_rt_args.push_back(uint32_t(offsets.size()));
  for (size_t i = 0; i < offsets.size(); ++i) {
    spec.common_rt_names.push_back(fmt::format("offsets[{}]", i));
    spec.common_rt_args.push_back(offsets[i]);
  }
  spec.named_ctas.push_back({"offsets_table_base", uint32_t(spec.io.size() + 2)});
  std::size_t cb_part_arg = 0;
  if (kernel == Kernel::k4) cb_part_arg = append_compute_core_table(spec, core_map);
  spec.named_ctas.push_back({"common_rt_args_len", uint32_t(spec.common_rt_args.size())});

  spec.per_core_rt_args = core_map.per_core_args();
  for (const auto& [name, id] : semaphore_ids()) spec.semaphores.push_back({name, id, 0});
  // K4b: is_hub is set on both hubs; the per-core `group` word tells them apart.
  const char* hub_set = kernel == Kernel::k4 ? "hubs" : "hub";
  spec.role_flags = {{"is_reader", "readers"}, {"is_hub", hub_set}, {"is_compute", "compute"}};

  place_cbs(spec);
  if (kernel == Kernel::k4) spec.common_rt_args[cb_part_arg] = spec.cb_l1_address.at("compute").at("cb_part");
  check_program(spec);
  return spec;
}

}  // namespace ditmk::tt
