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
#include "ditmk/tt/emu/kernel_guard.hpp"

namespace ditmk::tt::dialect {

struct RunOptions {
  std::filesystem::path data_dir;  // where relative input/output paths lie; empty: the descriptor's folder
  std::filesystem::path kernel_cache = KernelCompiler::default_kernel_cache();
  bool timing = false;
  // A kernel that runs this long without a device API call or a wait ends the launch with a
  // no_progress fault; 0: no limit (tt/emu/kernel_guard.hpp).
  double watchdog_seconds = emu::kDefaultWatchdogSeconds;
  // Fault where silicon would go on and a default run warns (emu::Device::set_strict).
  bool strict = false;
};

struct DescriptorRun {
  emu::LaunchReport report;
  CompileStats compile;
  double run_seconds = 0;
  std::vector<std::filesystem::path> outputs;  // written only when the launch ran clean
};

DescriptorRun run_descriptor(const ProgramDescriptor& program, const RunOptions& options);

}  // namespace ditmk::tt::dialect
