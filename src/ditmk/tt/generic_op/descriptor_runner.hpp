#pragma once
// ttnn.generic_op on the emulated chip: a ProgramDescriptor's kernels compiled (or found in the cache)
// and loaded through the host API, its io tensors placed (at their fixed addresses, else allocated)
// and filled, one launch, and the tensors read back. Two entries over one path: the .npy one (the
// CLI's `emulate --descriptor`) and the in-memory one (ditmk.ttnn), which takes and returns each
// tensor's device bytes: its encoded pages, what EnqueueWriteBuffer takes (tensor_codec.hpp).
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/jit/kernel_compiler.hpp"
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

// Device bytes by tensor name.
using TensorBytes = std::map<std::string, std::vector<std::byte>>;

struct DescriptorRun {
  emu::LaunchReport report;
  CompileStats compile;
  double run_seconds = 0;
  // After a clean launch, the bytes of every io tensor (a kernel may write any of them); a tensor
  // in L1 with bytes nobody wrote (neither the host nor a kernel) is left out.
  TensorBytes tensors;
  std::vector<std::filesystem::path> outputs;  // .npy entry: written only when the launch ran clean
};

// The in-memory entry: `inputs` fill the tensors they name before the launch (each exactly the
// tensor's bytes(); an unknown name or a wrong size is one error line); the rest stay unwritten.
// Tensors' input/output .npy fields are ignored.
DescriptorRun run_descriptor(const ProgramDescriptor& program, const TensorBytes& inputs, const RunOptions& options);
// The .npy entry: reads the tensors' input files (relative to options.data_dir, else the
// descriptor's folder), runs the in-memory entry, writes their output files.
DescriptorRun run_descriptor(const ProgramDescriptor& program, const RunOptions& options);

// The launch report of a run as the CLI's --report writes it and ditmk.ttnn returns it: the emulator's
// report (faults, counters, time bound), the program's name, compile stats (compiled, cache_hits,
// compile_seconds, load_seconds), run_seconds, and timing.predicted_us when the launch was timed.
nlohmann::json run_report(const ProgramDescriptor& program, const DescriptorRun& run);

}  // namespace ditmk::tt::dialect
