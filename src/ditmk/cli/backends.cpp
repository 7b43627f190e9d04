#include "ditmk/cli/backends.hpp"

#include "ditmk/core/error.hpp"
#include "ditmk/core/parallel.hpp"
#include "ditmk/cpu/engine.hpp"
#include "ditmk/ref/action_head.hpp"
#include "ditmk/tt/kernel/emu_executor.hpp"

namespace ditmk::cli {

const std::vector<std::string>& backend_names() {
  static const std::vector<std::string> names = {"cpu", "ref", "emu"};
  return names;
}

model::DenoiseResult run_backend(const std::string& backend, const model::Weights& weights, int embodiment,
                                 const model::Observation& obs, const Matrix<double>& noise,
                                 const BackendOptions& options) {
  const int threads = options.threads > 0 ? options.threads : hardware_threads();
  if (backend == "ref") return ref::ActionHead(weights, embodiment, threads).run(obs, noise);
  if (backend == "cpu") {
    cpu::Engine engine(weights, embodiment, {threads, cpu::parse_weight_format(options.dtype), options.isa});
    return engine.run(obs, noise);
  }
  if (backend == "emu") {
    // the megakernel on the emulated Blackhole chip; --dtype is its stream arena format
    const tt::kernel::EmuExecutor emu(weights, embodiment, {tt::parse_tile_format(options.dtype), threads});
    return emu.denoise(obs, noise).denoise;
  }
  fail("--backend '{}': unknown backend", backend);
}

}  // namespace ditmk::cli
