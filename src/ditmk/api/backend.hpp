#pragma once
// The executors an ActionHead runs on, behind one interface: each keeps what it prepared at open
// (packed weights, per-embodiment tables) and runs one denoise per call.
#include <memory>
#include <span>
#include <vector>
#include <string>

#include "ditmk/api/ditmk.hpp"

namespace ditmk::api {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual model::DenoiseResult run(const model::Observation& obs, const model::EulerStart& start, int embodiment) = 0;
  // B samples (sample i with starts[i] on embodiment slots[i]); each result is that sample's run().
  // The default runs them one after another; cpu runs them as one program (cpu::Engine::denoise_batch).
  virtual std::vector<model::DenoiseResult> run_batch(std::span<const model::Observation> batch,
                                                      std::span<const model::EulerStart> starts, std::span<const int> slots);
  virtual std::string isa() const = 0;  // the instruction set in use, or how it computes
  virtual int threads() const = 0;
  virtual std::string weight_cache() const { return "off"; }  // ModelInfo::weight_cache
  // Vision-language work kept from the last call for the next (cpu: cpu::VisionLanguageCache; ref and
  // emu recompute it every call): its bytes, and how many samples of the last call reused it.
  virtual std::size_t vision_language_bytes() const { return 0; }
  virtual int reused_vision_language() const { return 0; }
};

// Error naming the option when backend, dtype or isa is not one ditmk has (checked before any loading).
void check_backend_options(const OpenOptions& options);

// The backend `options.backend` names, opened on `weights` (which must outlive it); `embodiment` is
// prepared now, others on their first call.
std::unique_ptr<Backend> open_backend(const model::Weights& weights, int embodiment, const OpenOptions& options);

}  // namespace ditmk::api
