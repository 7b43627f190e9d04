#pragma once
// Kernels compiled at run time, the way tt-metal's JIT build does it: each kernel file is compiled
// once per processor it runs on, with its compile-time args and defines, by the host C++ compiler,
// into a shared object that the emulator loads, in the JIT's environment (jit_defines.hpp). Kernels
// are built against the device headers (src/ditmk/tt/hw/inc) and the kernel root's folders
// above the hardware layer (kernel_roots.hpp), freestanding, without exceptions or the C and C++
// runtimes; a kernel that includes a hosted standard header (<cstring>, <cmath>, ...) builds with a
// warning, one that includes any other host header is refused. Objects are cached by a hash of everything that
// goes in (the wrapper, the kernel source and every header it reached, args, defines, flags and the
// compiler), so a second run of the same program compiles nothing.
//
// A kernel is native code running inside ditmk: run only kernels you trust.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ditmk/tt/jit/jit_defines.hpp"
#include "ditmk/tt/emu/chip.hpp"

struct ditmk_device_abi;

namespace ditmk::tt::dialect {

// Everything one compile of one kernel for one processor depends on besides the files.
struct KernelBuild {
  std::filesystem::path source;  // the kernel file
  std::string source_name;       // as the descriptor names it (errors use it)
  emu::Processor processor = emu::Processor::ncrisc;
  uint32_t noc = 0;  // data movement: NOC_INDEX
  std::vector<uint32_t> compile_time_args;
  // Metal 2.0 kernels only: how many of compile_time_args, from the first, are the kernel's
  // compile-time varargs (get_compile_time_vararg); its tensor bindings' words follow them.
  uint32_t compile_time_vararg_count = 0;
  std::vector<std::pair<std::string, uint32_t>> named_args;
  std::vector<std::pair<std::string, std::string>> defines;
  // Metal 2.0 kernels only: their named runtime args (the JIT then also emits args:: constants).
  std::optional<RuntimeArgsSchema> runtime_arguments_schema;
  KernelBindings bindings;  // dfb::, tensor::, sem:: (kernel_bindings_generated.h)
  // compute only
  uint32_t math_fidelity = 3;  // 0 LoFi .. 3 HiFi4
  bool fp32_dest_acc_en = false;
  bool math_approx_mode = false;
  std::vector<JitCbFormat> cb_formats;  // the CBs on the kernel's cores, for the generated descriptors
  // The kernel root whose include folders the compile uses after the device headers (kernel_roots.hpp).
  std::optional<std::filesystem::path> kernel_root;
};

using KernelEntry = void (*)(const ditmk_device_abi*);

// A loaded kernel object; the entry stays valid while it is alive.
class LoadedKernel {
 public:
  LoadedKernel(void* handle, KernelEntry entry, std::vector<std::string> warnings = {})
      : handle_(handle), entry_(entry), warnings_(std::move(warnings)) {}
  ~LoadedKernel();
  LoadedKernel(const LoadedKernel&) = delete;
  LoadedKernel& operator=(const LoadedKernel&) = delete;
  KernelEntry entry() const { return entry_; }
  // What its build accepted that a strict run refuses (a hosted standard header), one line each.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  void* handle_;
  KernelEntry entry_;
  std::vector<std::string> warnings_;
};

struct CompileStats {
  uint32_t compiled = 0;    // objects built this time
  uint32_t cache_hits = 0;  // objects found in the cache
  double compile_seconds = 0;  // wall time spent in the compiler
  double load_seconds = 0;     // wall time spent checking the cache and loading
};

class KernelCompiler {
 public:
  explicit KernelCompiler(std::filesystem::path cache_dir = default_kernel_cache());
  // Compiles (or finds in the cache) and loads; throws ditmk::Error with one line on a compile error
  // ("kernels/reader.cpp:12: error: ... (compiling for BRISC)") or a refused include.
  std::shared_ptr<LoadedKernel> load(const KernelBuild& build);
  const CompileStats& stats() const { return stats_; }
  const std::filesystem::path& cache_dir() const { return cache_dir_; }

  // $DITMK_KERNEL_CACHE, else $XDG_CACHE_HOME/ditmk/kernels, else ~/.cache/ditmk/kernels.
  static std::filesystem::path default_kernel_cache();

 private:
  std::filesystem::path cache_dir_;
  CompileStats stats_;
  std::map<std::string, std::weak_ptr<LoadedKernel>> loaded_;  // by cache key
};

// The device headers: $DITMK_DEVICE_INCLUDE, else an installed ditmk's share/device_include, else
// the ones the build was made from.
std::filesystem::path device_include_dir();
// share/<folder> of an installed ditmk (beside the binary's bin/ or the Python extension) when it
// holds `marker`.
std::optional<std::filesystem::path> installed_share(const std::string& folder, const std::string& marker);

}  // namespace ditmk::tt::dialect
