#pragma once
// A descriptor given as JSON, run in a temporary folder as `ditmk emulate --descriptor` runs it: its
// inputs written there as .npy first, its outputs read back.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/core/tensor.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/generic_op/descriptor_runner.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::testing {

// The folder of this file's kernels, absolute (descriptors name them by absolute path).
inline std::string l1_kernel(const std::string& name) {
  return (std::filesystem::path(ditmk::build::source_dir()) / "tests/tt_dialect/l1_kernels" / name).string();
}

// Writes `input` into `dir` as `input_file`, parses and runs `json` there (timed when `timing`).
inline tt::dialect::DescriptorRun run_in(const TempDir& dir, const nlohmann::ordered_json& json,
                                         const std::string& input_file, const Tensor& input, bool timing = false) {
  io::write_npy(dir / input_file, input.view());
  const tt::dialect::ProgramDescriptor program = tt::dialect::parse_descriptor(json, dir.path() / "program.json");
  tt::dialect::RunOptions options;
  options.data_dir = dir.path();
  options.kernel_cache = std::filesystem::path(ditmk::build::binary_dir()) / "kernel-cache-tests";
  options.timing = timing;
  return tt::dialect::run_descriptor(program, options);
}

inline std::string first_fault(const tt::dialect::DescriptorRun& run) {
  return run.report.faults.empty() ? "" : tt::emu::to_string(run.report.faults.front());
}

// The one line parsing `json` refuses it with, or "" when it is accepted.
inline std::string refusal(const nlohmann::ordered_json& json) {
  TempDir dir;
  try {
    tt::dialect::parse_descriptor(json, dir.path() / "program.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace ditmk::testing
