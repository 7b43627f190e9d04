// The compute calls tt-metal's normalisation kernels (softmax, layernorm, rmsnorm) make beyond the
// plain binaries: the dest-reuse binaries, with DST's tile as the first (DEST_TO_SRCA) or the second
// (DEST_TO_SRCB) operand, and the typed SFPU options api/compute/softmax.h and layernorm.h bring
// (ReciprocalDestAcc, ReciprocalApproxMode, RsqrtMode). norm_kernels/reuse_dest.cpp chains them into
// sqrt((2b - a) * b), checked against a float64 golden within bfloat16 rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "ditmk/core/build_paths.hpp"
#include "tt_dialect/descriptor_in_dir.hpp"

namespace ditmk::testing {
namespace {

using nlohmann::ordered_json;

constexpr int kTiles = 3;
constexpr int64_t kRows = 32;
constexpr int64_t kCols = 32 * kTiles;

std::string norm_kernel(const std::string& name) {
  return (std::filesystem::path(ditmk::build::source_dir()) / "tests/tt_dialect/norm_kernels" / name).string();
}

ordered_json one_core() { return ordered_json::array({{{"start", {0, 0}}, {"end", {0, 0}}}}); }

ordered_json bf16_tensor(const std::string& name) {
  return {{"name", name}, {"memory", "dram_interleaved"}, {"layout", "tile"}, {"data_format", "bfloat16"},
          {"shape", {kRows, kCols}}};
}

ordered_json bf16_cb(int id) {
  return {{"total_size", 2 * 2048},
          {"core_ranges", one_core()},
          {"format_descriptors", {{{"buffer_index", id}, {"data_format", "bfloat16"}, {"page_size", 2048}}}}};
}

// Reader, the compute kernel (with `define` when given) and writer on core (0, 0).
ordered_json program(const std::string& define) {
  ordered_json a = bf16_tensor("a"), b = bf16_tensor("b"), out = bf16_tensor("out");
  a["input"] = "a.npy";
  b["input"] = "b.npy";
  out["output"] = "out.npy";
  ordered_json compute = {{"kernel_source", norm_kernel("reuse_dest.cpp")},
                          {"core_ranges", one_core()},
                          {"config", {{"type", "compute"}, {"fp32_dest_acc_en", true}}},
                          {"runtime_args", {{{"core", {0, 0}}, {"args", {kTiles}}}}}};
  if (!define.empty()) compute["defines"] = {{define, "1"}};
  return {{"tensors", {a, b, out}},
          {"kernels",
           {{{"kernel_source", norm_kernel("read_pairs.cpp")},
             {"core_ranges", one_core()},
             {"config", {{"type", "reader"}}},
             {"compile_time_args", {{{"tensor_accessor_args", "a"}}, {{"tensor_accessor_args", "b"}}}},
             {"runtime_args", {{{"core", {0, 0}}, {"args", {{{"address_of", "a"}}, {{"address_of", "b"}}, kTiles}}}}}},
            compute,
            {{"kernel_source", norm_kernel("write_tiles.cpp")},
             {"core_ranges", one_core()},
             {"config", {{"type", "writer"}}},
             {"compile_time_args", {{{"tensor_accessor_args", "out"}}}},
             {"runtime_args", {{{"core", {0, 0}}, {"args", {{{"address_of", "out"}}, kTiles}}}}}}}},
          {"cbs", {bf16_cb(0), bf16_cb(1), bf16_cb(16)}}};
}

// Values of bfloat16 (8 mantissa bits), so the CBs hold them exactly.
Tensor bf16_values(float lo, float hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  Tensor t(DType::F32, {kRows, kCols});
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = std::ldexp(std::round(std::ldexp(dist(gen), 6)), -6);
  return t;
}

TEST(NormCompute, DestReuseBinariesAndTypedSfpuOptionsMatchTheGolden) {
  TempDir dir;
  const Tensor a = bf16_values(-1.0f, 1.0f, 1), b = bf16_values(1.0f, 2.0f, 2);
  io::write_npy(dir / "b.npy", b.view());
  const tt::dialect::DescriptorRun run = run_in(dir, program(""), "a.npy", a);
  ASSERT_TRUE(run.report.clean()) << first_fault(run);
  const Tensor out = io::read_npy(dir / "out.npy");
  ASSERT_EQ(out.numel(), a.numel());
  double worst = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double x = a.data<float>()[i], y = b.data<float>()[i];
    const double expected = std::sqrt((2 * y - x) * y);
    worst = std::max(worst, std::abs(out.data<float>()[i] - expected) / expected);
  }
  // the result is packed to bfloat16 (8 significant bits): within half its ulp, 2^-8 relative
  EXPECT_LE(worst, 1.0 / 256);
}

TEST(NormCompute, DestReuseTileWithoutItsInitFaultsNamingTheInit) {
  TempDir dir;
  io::write_npy(dir / "b.npy", bf16_values(1.0f, 2.0f, 2).view());
  const tt::dialect::DescriptorRun run = run_in(dir, program("WRONG_INIT"), "a.npy", bf16_values(-1.0f, 1.0f, 1));
  ASSERT_EQ(run.report.faults.size(), 1u);
  const std::string fault = first_fault(run);
  EXPECT_NE(fault.find("sub_reuse_dest_tiles<EltwiseBinaryReuseDestType::DEST_TO_SRCB>"), std::string::npos) << fault;
  EXPECT_NE(fault.find("the last op init was sub_reuse_dest_init<EltwiseBinaryReuseDestType::DEST_TO_SRCA>"),
            std::string::npos)
      << fault;
  EXPECT_NE(fault.find("reuse_dest.cpp"), std::string::npos) << fault;
}

}  // namespace
}  // namespace ditmk::testing
