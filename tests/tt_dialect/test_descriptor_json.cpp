// descriptor_json writes what parse_descriptor reads: every example program, read, written and read
// again, is the same descriptor, field for field (defines, compile-time args with tensor accessor
// args, L1-sharded tensors, inputs and outputs included).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/tt/program/descriptor_json.hpp"

namespace ditmk::tt::dialect {
namespace {

namespace fs = std::filesystem;

TEST(DescriptorJson, ExamplesSurviveAWriteAndARead) {
  int programs = 0;
  for (const fs::directory_entry& folder : fs::directory_iterator(fs::path(ditmk::build::source_dir()) / "examples/tt")) {
    if (!folder.is_directory()) continue;
    for (const fs::directory_entry& file : fs::directory_iterator(folder.path())) {
      const std::string name = file.path().filename().string();
      if (!name.starts_with("program") || file.path().extension() != ".json") continue;
      const ProgramDescriptor read = read_descriptor(file.path());
      const nlohmann::ordered_json written = descriptor_json(read);
      const ProgramDescriptor again = parse_descriptor(written, file.path());
      EXPECT_EQ(descriptor_json(again), written) << file.path();
      EXPECT_EQ(again.kernels.size(), read.kernels.size());
      EXPECT_EQ(again.tensors.size(), read.tensors.size());
      ++programs;
    }
  }
  EXPECT_GE(programs, 6);
}

}  // namespace
}  // namespace ditmk::tt::dialect
