#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ditmk/cli/commands.hpp"
#include "ditmk/api/ditmk.hpp"

namespace ditmk::cli {

namespace {

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
  fmt::print("  settings       {}\n", j["settings"].dump());
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
    const nlohmann::json j = inspect(*path);
    if (*json) fmt::print("{}\n", j.dump(2));
    else print_table(j);
  });
}

}  // namespace ditmk::cli
