#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

#include "ditmk/cli/commands.hpp"
#include "ditmk/model/release_layout.hpp"
#include "ditmk/model/weights.hpp"

namespace ditmk::cli {

namespace {

nlohmann::json describe(const model::Weights& w) {
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
          {"dtypes", dtypes},
          {"params", params},
          {"n_embodiments", c.n_embodiments},
          {"embodiments", c.embodiment_ids}};
}

void print_table(const nlohmann::json& j) {
  fmt::print("{}\n", j["path"].get<std::string>());
  fmt::print("  version        {}\n", j["version"].get<std::string>());
  fmt::print("  DiT blocks     {} ({} cross)\n", j["n_blocks"].get<int>(), j["cross_blocks"].get<int>());
  fmt::print("  VL layers      {}\n", j["vl_layers"].get<int>());
  fmt::print("  future tokens  {}\n", j["future_tokens"].get<int>());
  fmt::print("  A / S / H      {} / {} / {}\n", j["action_dim"].get<int>(), j["state_dim"].get<int>(), j["horizon"].get<int>());
  const auto& d = j["dims"];
  fmt::print("  width          {} ({} heads x {}), ff {}, context {}\n", d["width"].get<int>(), d["heads"].get<int>(),
             d["head_dim"].get<int>(), d["ff"].get<int>(), d["ctx"].get<int>());
  fmt::print("  dtypes         {}\n", j["dtypes"].dump());
  fmt::print("  parameters\n");
  for (const auto& [name, n] : j["params"].items()) fmt::print("    {:<20} {:>15L}\n", name, n.get<int64_t>());
  fmt::print("  embodiments    {} slots; {}\n", j["n_embodiments"].get<int>(), j["embodiments"].dump());
}

}  // namespace

void add_inspect(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("inspect", "describe a checkpoint: version, blocks, dims, dtypes, parameter counts");
  cmd->add_option("path", *path, "release directory or .safetensors file")->required();
  cmd->add_flag("--json", *json, "print JSON");
  cmd->callback([path, json] {
    const nlohmann::json j = describe(model::load_weights(*path));
    if (*json) fmt::print("{}\n", j.dump(2));
    else print_table(j);
  });
}

}  // namespace ditmk::cli
