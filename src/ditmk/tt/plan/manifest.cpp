#include "ditmk/tt/plan/manifest.hpp"

#include <nlohmann/json.hpp>

#include "ditmk/tt/plan/limits.hpp"

namespace ditmk::tt {

using nlohmann::json;

namespace {

json source_json(const WeightSource& s) {
  return {{"tensor", s.tensor},     {"per_embodiment", s.per_embodiment}, {"out_in", s.out_in},
          {"src_k0", s.src_k0},     {"k_len", s.k_len},                   {"n_len", s.n_len},
          {"dst_k0", s.dst_k0},     {"dst_n0", s.dst_n0},                 {"pad_heads_k", s.pad_heads_k},
          {"pad_heads_n", s.pad_heads_n}, {"scale", s.scale},             {"bias", s.bias}};
}

json op_json(const ArenaOp& op) {
  json slices = json::array();
  for (const CoreSlice& s : op.slices) {
    slices.push_back({{"compute_idx", s.compute_idx}, {"k_tile0", s.k_tile0}, {"k_tiles", s.k_tiles},
                      {"n_tile0", s.n_tile0},         {"n_tiles", s.n_tiles}, {"bank", s.bank},
                      {"offset", s.offset},           {"bytes", s.bytes}});
  }
  json sources = json::array();
  for (const WeightSource& s : op.sources) sources.push_back(source_json(s));
  return {{"name", op.name},
          {"kind", op_kind_name(op.kind)},
          {"block", op.block},
          {"arena", arena_name(op.arena)},
          {"format", tile_format_name(op.format)},
          {"logical_kn", {op.k_logical, op.n_logical}},
          {"padded_kn", {op.k_pad, op.n_pad}},
          {"k_split", op.k_split},
          {"bank_offset", op.bank_offset},
          {"region_bytes", op.region_bytes},
          {"k_block_bytes", op.k_block_bytes},
          {"sources", sources},
          {"slices", slices}};
}

}  // namespace

json stats_json(const DescriptorStats& s) {
  return {{"n_cbs", s.n_cbs},
          {"n_common_rt_args", s.n_common_rt_args},
          {"n_kernel_groups", s.n_kernel_groups},
          {"l1_bytes_compute", s.l1_bytes_compute},
          {"l1_bytes_reader", s.l1_bytes_reader},
          {"l1_bytes_hub", s.l1_bytes_hub},
          {"n_named_ctas", s.n_named_ctas},
          {"n_semaphores", s.n_semaphores},
          {"n_io_tensors", s.n_io_tensors},
          {"n_per_core_rt_args", s.n_per_core_rt_args}};
}

json arena_json(const ArenaLayout& a) {
  json key_sets = json::array();
  for (const KeySetShape& k : a.key_sets) {
    key_sets.push_back({{"name", model::key_set_name(k.keys)}, {"l_real", k.l_real}, {"l_pad", k.l_pad},
                        {"chunks", k.chunks()}, {"split", k.split()}});
  }
  json blocks = json::array();
  for (int i = 0; i < a.n_blocks; ++i) blocks.push_back(model::key_set_name(a.block_keys[i]));
  json ops = json::array();
  for (const ArenaOp& op : a.ops) ops.push_back(op_json(op));
  json image = nullptr;
  if (a.layout_cfg.cross_image_keys) image = {a.layout_cfg.cross_image_keys->first, a.layout_cfg.cross_image_keys->second};
  return {{"version", model::version_name(a.version)},
          {"variant", variant_name(a.variant)},
          {"n_blocks", a.n_blocks},
          {"dtype_stream", tile_format_name(a.dtype_stream)},
          {"dtype_small", tile_format_name(a.dtype_small)},
          {"reader_mode", reader_mode_name(a.reader_mode)},
          {"tile_order", tile_order_name(a.tile_order)},
          {"fold_attn_scale", a.fold_attn_scale},
          {"euler_fp32", a.euler_fp32},
          {"m_logical", a.m_logical},
          {"m_pad", a.m_pad},
          {"a_pad", a.a_pad},
          {"h", a.h},
          {"action_rows", {a.action_rows[0], a.action_rows[1]}},
          {"n_future_tokens", a.n_future_tokens},
          {"width", a.width},
          {"n_heads", a.n_heads},
          {"head_dim_pad", a.head_dim_pad},
          {"ff_dim", a.ff_dim},
          {"out_dim", a.out_dim},
          {"hidden", a.hidden},
          {"layout", {{"name", a.layout_cfg.name}, {"cross_image_keys", image}}},
          {"key_sets", key_sets},
          {"block_keys", blocks},
          {"k_block_bytes", a.stream_k_block_bytes()},
          {"bank_bytes", {{"stream", a.arena_bank_bytes[0]}, {"small", a.arena_bank_bytes[1]}}},
          {"weight_bytes_per_step", {{"stream", a.weight_bytes(Arena::stream)}, {"small", a.weight_bytes(Arena::small)}}},
          {"offsets_table", a.offsets_table()},
          {"ops", ops}};
}

json manifest_json(const ProgramSpec& spec) {
  json named = json::object();
  for (const NamedArg& a : spec.named_ctas) named[a.name] = a.value;
  json cbs = json::array();
  for (const CBSpec& cb : spec.cbs) {
    json address = json::object();
    for (const auto& [group, by_name] : spec.cb_l1_address) {
      auto it = by_name.find(cb.name);
      if (it != by_name.end()) address[group] = it->second;
    }
    cbs.push_back({{"name", cb.name},
                   {"cb_id", cb.id},
                   {"role_set", cb.role_set},
                   {"total_bytes", cb.total_bytes},
                   {"page_bytes", cb.page_bytes},
                   {"data_format", tile_format_name(cb.format)},
                   {"tensor_backed", cb.tensor_backed.empty() ? json(nullptr) : json(cb.tensor_backed)},
                   {"l1_address", address}});
  }
  json sems = json::array();
  for (const SemSpec& s : spec.semaphores) sems.push_back({{"name", s.name}, {"sem_id", s.id}, {"initial_value", s.initial_value}});
  json io = json::array();
  json io_required = json::object();
  for (const IoSlot& s : spec.io) {
    io.push_back(s.name);
    io_required[s.name] = s.required;
  }
  json groups = json::array();
  for (const KernelGroup& g : spec.kernel_groups()) {
    groups.push_back({{"name", g.name}, {"flags", g.flags}, {"n_cores", g.cores.size()}});
  }
  json flags = json::array();
  for (const RoleFlag& f : spec.role_flags) flags.push_back({{"name", f.name}, {"core_set", f.core_set}});
  return {{"kernel", kernel_name(spec.kernel)},
          {"variant", variant_name(spec.variant)},
          {"kernel_source", spec.kernel_source},
          {"stats", stats_json(spec.stats())},
          {"named_ctas", named},
          {"role_flags", flags},
          {"kernel_groups", groups},
          {"common_rt_names", spec.common_rt_names},
          {"common_rt_args", spec.common_rt_args},
          {"per_core_rt_arg_names", kPerCoreArgNames},
          {"cbs", cbs},
          {"semaphores", sems},
          {"io", io},
          {"io_required", io_required},
          {"output_slot", spec.output_slot},
          {"l1_bytes", spec.l1_bytes},
          {"l1_cb_base", kL1CbBase},
          {"l1_limit", spec.l1_limit},
          {"l1_budget_compute", spec.l1_budget_compute},
          {"unpack_to_dest_fp32_cbs", spec.unpack_to_dest_fp32_cbs},
          {"arena", arena_json(spec.layout)}};
}

}  // namespace ditmk::tt
