#include "ditmk/tt/plan/io_slots.hpp"

#include <fmt/format.h>

#include "ditmk/core/error.hpp"

namespace ditmk::tt {

using model::KeySet;

MaskPresence mask_presence(const ArenaLayout& layout) {
  MaskPresence m;
  m.text = layout.uses(KeySet::text);
  m.all = layout.uses(KeySet::all);
  if (layout.uses(KeySet::image)) {
    const auto& keys = layout.layout_cfg.cross_image_keys;
    require(keys.has_value(), "layout {} uses the image key set without image keys", layout.layout_cfg.name);
    m.image = keys->first != keys->second;
  }
  return m;
}

std::vector<IoSlot> io_slots(Kernel kernel, const ArenaLayout& layout) {
  const Variant v = layout.variant;
  const MaskPresence masks = mask_presence(layout);
  std::vector<IoSlot> slots = {
      {"x_rep", true, "residual bf16, HEIGHT_SHARDED on the compute cores (cb_x)"},
      {"a_rep", true, "in0 arena [64,2048] bf16, HEIGHT_SHARDED on all 110 cores (cb_a, multicast target)"},
      {"arena_stream", true, "block projections, WIDTH_SHARDED over the 8 DRAM banks"},
      {"arena_small", v != Variant::block, "tail ops (proj_out_2, decoder, encoder), WIDTH_SHARDED"},
      {"adaln_rows", true, "AdaLN table [4*(2*n_blocks+2), 1536] bf16 ROW_MAJOR"},
      {"bias_rows", true, "bias table [4*n_blocks+4, 6144] bf16 ROW_MAJOR"},
      {"b2_step", v == Variant::steps4, "[4,1536] bf16 action-encoder step biases"},
      {"b3_pos_rows", v == Variant::steps4, "[64,1536] bf16: b3 + position rows at the action rows"},
      {"future_tokens", v == Variant::steps4 && layout.n_future_tokens > 0, "[F,1536] bf16 (N1.5)"},
      {"self_mask", true, "[1,1,64,64] bf16 additive self mask"},
      {"text_mask", masks.text, "[1,1,64,L_txt_pad] bf16 per-call text mask"},
      {"image_mask", masks.image, "[1,1,64,L_img_pad] bf16 constant image pad-key mask"},
      {"all_mask", masks.all, "[1,1,64,L_all_pad] bf16 per-call all-token mask (N1.5)"},
  };
  for (int i = 0; i < layout.n_blocks; ++i) {
    if (!layout.is_cross(i)) continue;
    slots.push_back({fmt::format("kv_k_{}", i), true, fmt::format("hoisted K of cross block {} [1,32,L_pad,64] bf16", i)});
    slots.push_back({fmt::format("kv_v_{}", i), true, fmt::format("hoisted V of cross block {} [1,32,L_pad,64] bf16", i)});
  }
  switch (v) {
    case Variant::block:
      slots.push_back({"x_out", true, "[64,1536] bf16 residual after the last block"});
      break;
    case Variant::step:
      slots.push_back({"y_out", true, "[64,1024] bf16 output head result"});
      break;
    case Variant::steps4:
      slots.push_back({"x_t", true, "[64,A_pad] Euler state (fp32 for N1.5, bf16 otherwise), noise at the action rows"});
      slots.push_back({"state_features", true, "[1,1536] bf16 (row 0 of sa_embs)"});
      if (kernel == Kernel::k4) {
        slots.push_back({"velocity_out", false, "[4*64,A_pad] bf16 decoder output of every step (taps)"});
      }
      slots.push_back({"action_pred", true, "[64,A_pad] output actions"});
      break;
  }
  return slots;
}

}  // namespace ditmk::tt
