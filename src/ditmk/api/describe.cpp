// What a release is (inspect) and how to make one (make_checkpoint): the CLI's `inspect` and
// `make-checkpoint` and the Python module's ditmk.inspect / ditmk.make_checkpoint.
#include <map>
#include <nlohmann/json.hpp>

#include "ditmk/api/ditmk.hpp"
#include "ditmk/model/release_layout.hpp"
#include "ditmk/model/synthetic.hpp"

namespace ditmk {

nlohmann::json inspect(const std::string& path) {
  const model::Weights w = model::load_weights(path);
  const model::ModelConfig& c = w.config;
  std::map<std::string, int64_t> params;
  std::map<std::string, int> dtypes;
  int64_t total = 0;
  for (const auto& spec : model::release_tensors(c)) {
    const int64_t n = shape_numel(spec.shape);
    params[std::string(model::component_name(spec.component))] += n;
    total += n;
    ++dtypes[std::string(dtype_name(w.checkpoint->get(spec.name).dtype))];
  }
  params["total"] = total;
  int cross = 0;
  for (int b = 0; b < c.n_blocks; ++b) cross += c.is_cross(b);
  std::vector<std::string> schedule;
  for (auto keys : c.block_keys) schedule.emplace_back(model::key_set_name(keys));
  const auto& d = c.dims;
  return {{"path", w.checkpoint->path()},
          {"version", model::version_name(c.version)},
          {"n_blocks", c.n_blocks},
          {"cross_blocks", cross},
          {"block_keys", schedule},
          {"vl_layers", c.vl_layers},
          {"future_tokens", c.n_future},
          {"action_dim", c.action_dim},
          {"state_dim", c.state_dim},
          {"horizon", c.horizon},
          {"m_rows", c.m_rows()},
          {"dims",
           {{"width", d.width}, {"heads", d.n_heads}, {"head_dim", d.head_dim}, {"ff", d.ff_dim}, {"ctx", d.ctx_dim},
            {"out", d.out_dim}, {"hidden", d.hidden}}},
          {"settings",
           {{"num_inference_timesteps", c.n_steps}, {"num_timestep_buckets", c.timestep_buckets},
            {"state_history_length", c.state_history}, {"add_pos_embed", c.add_pos_embed}, {"use_vlln", c.use_vlln},
            {"interleave_self_attention", c.interleave_self_attention}, {"use_alternate_vl_dit", c.alternate_vl_dit},
            {"attend_text_every_n_blocks", c.text_every_n_blocks}, {"ff_norm_eps", c.ff_norm_eps},
            {"vl_norm_eps", c.vl_norm_eps}}},
          {"dtypes", dtypes},
          {"params", params},
          {"n_embodiments", c.n_embodiments},
          {"embodiments", c.embodiment_ids}};
}

model::ModelConfig make_checkpoint(const MakeCheckpointOptions& o) {
  require(!o.out.empty(), "make_checkpoint: an output directory is needed");
  require(o.dtype == "bf16" || o.dtype == "fp32", "dtype '{}': synthetic releases are bf16 or fp32", o.dtype);
  const model::Version version = model::parse_version(o.version);
  model::ModelConfig config = o.tiny ? model::tiny_config(version) : model::default_config(version);
  if (o.n_blocks > 0) {
    config.n_blocks = o.n_blocks;
    config.block_keys = model::block_schedule(config);
  }
  model::SyntheticOptions options;
  options.dtype = o.dtype == "bf16" ? DType::BF16 : DType::F32;
  options.seed = o.seed;
  options.shard_bytes = uint64_t(o.shard_mb) << 20;
  options.progress = o.progress;
  model::write_synthetic_release(config, o.out, options);
  return config;
}

}  // namespace ditmk
