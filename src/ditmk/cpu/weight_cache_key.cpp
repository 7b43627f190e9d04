#include "ditmk/cpu/weight_cache_key.hpp"

#include <fmt/format.h>

#include <deque>
#include <nlohmann/json.hpp>

#include "ditmk/model/config_json.hpp"

namespace ditmk::cpu {

namespace {

// Each tensor's description (dtype and shape) then its bytes, so equal bytes of another shape differ.
struct Runs {
  std::deque<std::string> descriptions;  // the runs point into them: a deque never moves them
  std::vector<ByteRun> runs;
  void text(std::string s) {
    descriptions.push_back(std::move(s));
    const std::string& d = descriptions.back();
    runs.push_back({reinterpret_cast<const std::byte*>(d.data()), d.size()});
  }
  void tensor(const TensorView& v) {
    text(fmt::format("{} {}", dtype_name(v.dtype), shape_str(v.shape)));
    if (v.data != nullptr) runs.push_back({v.data, v.nbytes()});
  }
  void linear(const model::Linear& l) { tensor(l.weight), tensor(l.bias); }
};

// The packing version, format, embodiment and settings: what both digests start from.
std::string packing_header(const model::Weights& w, WeightFormat format, int embodiment) {
  model::ModelConfig settings = w.config;
  settings.mask_padding = false;  // a per-call choice; the packing never reads it
  return fmt::format("ditmk packing {}; format {}; embodiment {}; {}", kPackingVersion, weight_format_name(format),
                     embodiment, model::config_to_json(settings).dump());
}

}  // namespace

std::optional<Digest128> weight_source_identity(const model::Weights& w, WeightFormat format, int embodiment) {
  if (w.checkpoint == nullptr || w.checkpoint->files().empty()) return std::nullopt;
  Runs r;
  r.text("weight files of " + packing_header(w, format, embodiment));
  for (const auto& file : w.checkpoint->files()) {
    const io::FileIdentity& id = file->identity();
    r.text(fmt::format("{} {} {} {} {}", id.device, id.inode, id.size, id.modified_ns, id.changed_ns));
  }
  return digest_runs(r.runs, 1);
}

Digest128 weight_cache_key(const model::Weights& w, WeightFormat format, int embodiment, int threads) {
  Runs r;
  r.text(packing_header(w, format, embodiment));
  r.linear(w.temb1), r.linear(w.temb2);
  for (const model::DitBlock& b : w.blocks)
    for (const model::Linear* l : {&b.adaln, &b.q, &b.k, &b.v, &b.out, &b.ff1, &b.ff2}) r.linear(*l);
  r.linear(w.proj_out_1), r.linear(w.proj_out_2);
  for (const TensorView* v : {&w.position_embedding, &w.vlln_weight, &w.vlln_bias, &w.future_tokens}) r.tensor(*v);
  for (const model::VlLayer& layer : w.vl_layers) {
    for (const TensorView* v : {&layer.norm1_weight, &layer.norm1_bias, &layer.norm3_weight, &layer.norm3_bias}) r.tensor(*v);
    for (const model::Linear* l : {&layer.q, &layer.k, &layer.v, &layer.out, &layer.ff1, &layer.ff2}) r.linear(*l);
  }
  const model::EmbodimentWeights e = w.embodiment(embodiment);
  for (const model::Linear* l : {&e.state1, &e.state2, &e.enc1, &e.enc2, &e.enc3, &e.dec1, &e.dec2}) r.linear(*l);
  return digest_runs(r.runs, threads);
}

}  // namespace ditmk::cpu
