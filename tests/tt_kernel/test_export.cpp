// `ditmk export --tt-metal`: the folder runs as it is, through its own descriptor and kernel sources
// (compiled against the device headers alone), and computes the bits of the emulated launch of the
// same call; a folder in use or a variant the export does not write is one error line and nothing
// written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ditmk/io/npy.hpp"
#include "ditmk/tt/generic_op/descriptor_runner.hpp"
#include "ditmk/tt/host/emu_executor.hpp"
#include "ditmk/tt/host/tt_metal_export.hpp"
#include "kernel_fixture.hpp"
#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::tt::host::testing {
namespace {

namespace fs = std::filesystem;

TEST(TtMetalExport, RunsFromItsOwnDescriptorWithTheEmulatedLaunchsBits) {
  const KernelModel& m = kernel_model(model::Version::n15);
  ditmk::testing::TempDir tmp;
  const fs::path dir = tmp.path() / "n15";
  ExportRequest request;
  request.dtype = TileFormat::bfp8_b;
  const ExportSummary summary = export_tt_metal(m.weights, kEmbodiment, m.obs, m.noise, request, dir);
  for (const char* f : {"README.md", "program.json", "kernels/dit_kernel.cpp", "kernels/block_walk.hpp",
                        "inputs/arena_stream.npy", "inputs/x_t.npy"}) {
    EXPECT_TRUE(fs::is_regular_file(dir / f)) << f;
  }
  EXPECT_GT(summary.bytes, 0u);
  EXPECT_NE(ditmk::testing::slurp((dir / "README.md").string()).find("has not run on silicon"), std::string::npos);

  // the folder as a tt-metal host would take it: nothing of ditmk's build beyond the device headers
  const dialect::ProgramDescriptor program = dialect::read_descriptor(dir / "program.json");
  const dialect::DescriptorRun run = dialect::run_descriptor(program, {});
  ASSERT_TRUE(run.report.clean()) << emu::to_string(run.report.faults.front());
  EXPECT_EQ(run.compile.compiled + run.compile.cache_hits, 12u) << "reader, writer and compute of 4 kernel groups";

  const EmuResult launch = EmuExecutor(m.weights, kEmbodiment, {TileFormat::bfp8_b, 1, Protocol::seed})
                               .denoise(m.obs, m.call, m.noise);
  const Tensor actions = io::read_npy((dir / "outputs/action_pred.npy").string());
  ASSERT_EQ(actions.shape().size(), 2u);
  const int a_pad = int(actions.shape()[1]), row0 = launch.layout.action_rows[0];
  const Matrix<double>& want = launch.denoise.actions;
  for (int r = 0; r < want.rows; ++r)
    for (int c = 0; c < want.cols; ++c)
      ASSERT_EQ(double(actions.data<float>()[(row0 + r) * a_pad + c]), want(r, c)) << r << "," << c;
}

TEST(TtMetalExport, AFolderInUseIsOneErrorLineAndStaysAsItWas) {
  ditmk::testing::TempDir tmp;
  const fs::path dir = tmp.path() / "taken";
  fs::create_directories(dir);
  std::ofstream(dir / "keep.txt") << "mine";
  const auto r = ditmk::testing::run_command(ditmk::testing::ditmk_binary() + " export --checkpoint " +
                                             release_dir(model::Version::n15) + " --tt-metal " + dir.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("--tt-metal"), std::string::npos) << r.err;
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1) << "no partial folder";
}

TEST(TtMetalExport, TheBlockVariantIsOneErrorLineAndNoFolder) {
  ditmk::testing::TempDir tmp;
  const fs::path dir = tmp.path() / "block";
  const auto r = ditmk::testing::run_command(ditmk::testing::ditmk_binary() + " export --checkpoint " +
                                             release_dir(model::Version::n15) + " --variant block --tt-metal " +
                                             dir.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("--variant"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir));
}

}  // namespace
}  // namespace ditmk::tt::host::testing
