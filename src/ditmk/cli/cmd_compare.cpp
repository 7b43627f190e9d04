#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ditmk/cli/commands.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/core/metrics.hpp"
#include "ditmk/io/npy.hpp"

namespace ditmk::cli {

void add_compare(CLI::App& app) {
  struct Options {
    std::string a, b;
    bool json = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("compare", "compare two arrays: cosine, relative L2 (against B), max abs error");
  cmd->add_option("a", opt->a, "array under test (.npy)")->required();
  cmd->add_option("b", opt->b, "reference array (.npy)")->required();
  cmd->add_flag("--json", opt->json, "print JSON");
  cmd->callback([opt] {
    const Tensor a = io::read_npy(opt->a), b = io::read_npy(opt->b);
    if (a.shape() != b.shape()) fail("{} has shape {} but {} has shape {}", opt->a, shape_str(a.shape()), opt->b, shape_str(b.shape()));
    std::vector<double> va(a.numel()), vb(b.numel());
    for (int64_t i = 0; i < a.numel(); ++i) va[i] = a.view().at(i), vb[i] = b.view().at(i);
    const Agreement m = agreement(va, vb);
    if (opt->json) {
      fmt::print("{}\n", nlohmann::json{{"cosine", m.cosine}, {"rel_l2", m.rel_l2}, {"max_abs_err", m.max_abs_err},
                                        {"numel", a.numel()}}.dump(2));
    } else {
      fmt::print("cosine {:.9f}  rel_l2 {:.3e}  max_abs_err {:.3e}  ({} values)\n", m.cosine, m.rel_l2, m.max_abs_err, a.numel());
    }
  });
}

}  // namespace ditmk::cli
