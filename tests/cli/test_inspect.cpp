#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixtures.hpp"
#include "support/cli_runner.hpp"

namespace ditmk::testing {
namespace {

nlohmann::json inspect(const std::string& path) {
  const CliResult r = run_ditmk("inspect --json " + path);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(InspectCommand, DescribesATinyRelease) {
  const TinyFixture& f = tiny_fixture(model::Version::n17);
  const auto j = inspect(f.release);
  EXPECT_EQ(j["version"], "n17");
  EXPECT_EQ(j["n_blocks"], 4);
  EXPECT_EQ(j["vl_layers"], 2);
  EXPECT_EQ(j["horizon"], 8);
  EXPECT_GT(j["params"]["dit"].get<int64_t>(), 0);
  EXPECT_EQ(j["dtypes"]["F32"].get<int>(), 4 * 14 + 8 + 14 + 2 + 1 + 2 * 16);
}

// Full-size synthetic releases (gigabytes): the parameter counts of the released models.
TEST(InspectCommandFullSize, N15AndA32BlockRelease) {
  TempDir dir;
  const CliResult make = run_ditmk("make-checkpoint --version n15 --out " + (dir / "n15"));
  ASSERT_EQ(make.exit_code, 0) << make.err;
  const auto n15 = inspect(dir / "n15");
  EXPECT_EQ(n15["params"]["dit"].get<int64_t>(), 550'386'688);
  EXPECT_EQ(n15["params"]["total"].get<int64_t>(), 1'068'806'144);
  EXPECT_EQ(n15["n_blocks"], 16);
  const CliResult make16 = run_ditmk("make-checkpoint --version n16 --out " + (dir / "n16"));
  ASSERT_EQ(make16.exit_code, 0) << make16.err;
  const auto n16 = inspect(dir / "n16");
  EXPECT_EQ(n16["params"]["dit"].get<int64_t>(), 1'091'722'240);
  EXPECT_EQ(n16["n_blocks"], 32);
  EXPECT_EQ(n16["version"], "n16");
}

}  // namespace
}  // namespace ditmk::testing
