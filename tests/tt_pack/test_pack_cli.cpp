#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "ditmk/io/atomic_file.hpp"
#include "ditmk/tt/formats.hpp"
#include "ditmk/tt/pack/arena_reader.hpp"
#include "ditmk/tt/pack/pack_files.hpp"
#include "expected_ops.hpp"
#include "pack_fixture.hpp"
#include "support/cli_runner.hpp"

namespace ditmk::tt::testing {
namespace {

namespace fs = std::filesystem;
using ditmk::testing::CliResult;
using ditmk::testing::run_ditmk;

// Nothing named after the output directory exists: neither it nor a partial staging directory.
bool no_output(const fs::path& out) {
  if (fs::exists(out)) return false;
  for (const auto& entry : fs::directory_iterator(out.parent_path()))
    if (entry.path().filename().string().rfind(out.filename().string(), 0) == 0) return false;
  return true;
}

void expect_one_line_error(const std::string& args, const fs::path& out, const std::string& names) {
  const CliResult r = run_ditmk("pack " + args + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 1) << args;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
  EXPECT_TRUE(no_output(out)) << args;
}

TEST(PackCommand, BadInputGivesOneLineAndNoOutput) {
  const std::string release = packed(TileFormat::bf16).release;
  const ditmk::testing::TempDir dir;
  const fs::path out = dir.path() / "pack";
  expect_one_line_error("--checkpoint " + (dir / "missing"), out, dir / "missing");
  expect_one_line_error("--checkpoint " + release + " --dtype fp8", out, "fp8");
  expect_one_line_error("--checkpoint " + release + " --dtype fp32", out, "--dtype fp32");
  expect_one_line_error("--checkpoint " + release + " --embodiment robot_x", out, "robot_x");
  expect_one_line_error("--checkpoint " + release + " --embodiment 7", out, "embodiment 7");
  expect_one_line_error("--checkpoint " + release + " --version n16", out, "--version n16");
  fs::create_directory(out);
  io::write_file_atomic((out / "keep").string(), "x");
  const CliResult r = run_ditmk("pack --checkpoint " + release + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("not an empty directory"), std::string::npos) << r.err;
  EXPECT_EQ(io::read_text_file((out / "keep").string()), "x");
}

// A full-size N1.5 release (16 blocks, 32 embodiments, the VL stack; about 2 GB) packed in bfp8_b
// by the command line.
TEST(PackFullSize, N15ReleaseInBfp8) {
  const ditmk::testing::TempDir dir;
  const CliResult make = run_ditmk("make-checkpoint --version n15 --seed 7 --out " + (dir / "n15"));
  ASSERT_EQ(make.exit_code, 0) << make.err;
  const CliResult pack = run_ditmk("pack --checkpoint " + (dir / "n15") + " --dtype bfp8_b --embodiment gr1 --out " +
                                   (dir / "pack"));
  ASSERT_EQ(pack.exit_code, 0) << pack.err;
  std::cout << pack.out;

  const model::Weights weights = model::load_weights(dir / "n15");
  const ArenaLayout layout = pack_layout(weights.config, TileFormat::bfp8_b);
  ASSERT_EQ(layout.n_blocks, 16);
  // docs/plan.md: 481 MB streamed per step in bfp8_b; 30 MB per block
  EXPECT_NEAR(layout.weight_bytes(Arena::stream) / 1e6, 481.0, 1.0);
  for (Arena arena : {Arena::stream, Arena::small})
    EXPECT_EQ(fs::file_size(fs::path(dir / "pack") / pack_files::arena_file(arena)),
              kDramBanks * layout.arena_bank_bytes[int(arena)]);
  EXPECT_EQ(fs::file_size(fs::path(dir / "pack") / "adaln_rows.bin"), std::size_t(4 * 34 * 1536 * 2));
  EXPECT_EQ(fs::file_size(fs::path(dir / "pack") / "bias_rows.bin"), std::size_t(68 * 6144 * 2));
  const auto manifest = nlohmann::json::parse(io::read_text_file(dir / "pack/manifest.json"));
  EXPECT_EQ(manifest["embodiment"], 24);

  ArenaReader reader(dir / "pack", layout);
  EXPECT_EQ(reader.offsets_table(), layout.offsets_table());
  for (const char* name : {"blk0.q", "blk7.qkv", "blk10.out", "blk15.ff2", "proj_out_2", "enc2a", "dec2"}) {
    const ArenaOp& op = layout.op(name);
    const std::vector<float> want = rounded(op.format, expected_op(op, weights, 24), op.k_pad, op.n_pad);
    const std::vector<float> got = reader.read_op(name);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < want.size(); ++i) mismatches += got[i] != want[i];
    EXPECT_EQ(mismatches, 0u) << name;
  }
}

}  // namespace
}  // namespace ditmk::tt::testing
