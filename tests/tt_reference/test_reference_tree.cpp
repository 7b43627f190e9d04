// The reference tree is what scripts/fetch-tt-metal.sh promises: the pinned wheel's device headers
// and all of ttnn's kernels, in tt-metal's repository layout.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "support/tt_metal_tree.hpp"

namespace fs = std::filesystem;
using ditmk::test::tt_metal_tree;
using ditmk::test::tt_metal_tree_missing;

namespace {

// .cpp files below `under` whose path (relative to `under`) matches `pattern`
int count_sources(const fs::path& under, const std::regex& pattern) {
  int count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(under)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".cpp") continue;
    if (std::regex_search(fs::relative(entry.path(), under).generic_string(), pattern)) ++count;
  }
  return count;
}

TEST(TtReferenceTree, HoldsEveryTtnnKernel) {
  const auto tree = tt_metal_tree();
  if (!tree) GTEST_SKIP() << tt_metal_tree_missing();
  const fs::path ttnn = *tree / "ttnn/cpp/ttnn";
  // 0.81.1's wheel: 1,407 op kernels in operations/**/kernels/ and 11 in ttnn/cpp/ttnn/kernel/,
  // 1,418 in all (the folders named kernels_ng and the like hold more, not counted here)
  const int ops = count_sources(ttnn / "operations", std::regex("(^|/)kernels/"));
  const int shared = count_sources(ttnn / "kernel", std::regex(""));
  EXPECT_EQ(ops, 1407);
  EXPECT_EQ(shared, 11);
  EXPECT_EQ(ops + shared, 1418);
}

TEST(TtReferenceTree, HoldsTheDeviceHeaders) {
  const auto tree = tt_metal_tree();
  if (!tree) GTEST_SKIP() << tt_metal_tree_missing();
  for (const char* header : {
           "tt_metal/hw/inc/api/dataflow/dataflow_api.h",
           "tt_metal/hw/inc/api/dataflow/noc.h",  // the object-style dataflow API
           "tt_metal/hw/inc/api/compute/compute_kernel_api.h",
           "tt_metal/hw/inc/api/compute/compute_kernel_hw_startup.h",
           "tt_metal/hw/inc/api/compute/matmul.h",
           "tt_metal/hw/inc/api/compute/reduce.h",
           "tt_metal/hw/inc/api/compute/pack.h",
           "tt_metal/hw/inc/api/debug/kernel_profiler.hpp",
           "tt_metal/hostdevcommon/api/hostdevcommon/common_values.hpp",
           "ttnn/cpp/ttnn/kernel_lib/reduce_helpers_compute.hpp",
       }) {
    EXPECT_TRUE(fs::is_regular_file(*tree / header)) << header;
  }
  EXPECT_TRUE(fs::is_directory(*tree / "tt_metal/tt-llk/tt_llk_blackhole"));
  EXPECT_TRUE(fs::is_directory(*tree / "tt_metal/hw/ckernels/blackhole"));
}

TEST(TtReferenceTree, LeavesTheHostSideInTheWheel) {
  const auto tree = tt_metal_tree();
  if (!tree) GTEST_SKIP() << tt_metal_tree_missing();
  // host sources of ops (program factories) and the LLK's tests are not device code
  EXPECT_EQ(count_sources(*tree / "ttnn/cpp/ttnn/operations", std::regex("program_factory")), 0);
  EXPECT_FALSE(fs::exists(*tree / "tt_metal/tt-llk/tests"));
  EXPECT_FALSE(fs::exists(*tree / "tt_metal/pre-compiled"));
}

}  // namespace
