#pragma once
// ttnn.generic_op on the emulated chip: a ProgramDescriptor's kernels compiled (or found in the cache)
// and loaded through the host API, its io tensors allocated and filled from their .npy files, one
// launch, and the output tensors written back as .npy.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "ditmk/tt/dialect/descriptor.hpp"
#include "ditmk/tt/dialect/kernel_compiler.hpp"
#include "ditmk/tt/emu/device.hpp"

namespace ditmk::tt::dialect {

struct RunOptions {
  std::filesystem::path data_dir;  // where relative input/output paths lie; empty: the descriptor's folder
  std::filesystem::path kernel_cache = KernelCompiler::default_kernel_cache();
  bool timing = false;
};

struct DescriptorRun {
  emu::LaunchReport report;
  CompileStats compile;
  double run_seconds = 0;
  std::vector<std::filesystem::path> outputs;  // written only when the launch ran clean
};

DescriptorRun run_descriptor(const ProgramDescriptor& program, const RunOptions& options);

}  // namespace ditmk::tt::dialect
