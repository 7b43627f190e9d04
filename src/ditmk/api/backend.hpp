#pragma once
// The executors an ActionHead runs on, behind one interface: each keeps what it prepared at open
// (packed weights, per-embodiment tables) and runs one denoise per call.
#include <memory>
#include <string>

#include "ditmk/api/ditmk.hpp"

namespace ditmk::api {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual model::DenoiseResult run(const model::Observation& obs, const model::EulerStart& start, int embodiment) = 0;
  virtual std::string isa() const = 0;  // the instruction set in use, or how it computes
  virtual int threads() const = 0;
  virtual std::string weight_cache() const { return "off"; }  // ModelInfo::weight_cache
  // Vision-language work kept from the last call for the next (cpu: cpu::VisionLanguageCache; ref and
  // emu recompute it every call): its bytes, and whether the last call reused it.
  virtual std::size_t vision_language_bytes() const { return 0; }
  virtual bool reused_vision_language() const { return false; }
};

// Error naming the option when backend, dtype or isa is not one ditmk has (checked before any loading).
void check_backend_options(const OpenOptions& options);

// The backend `options.backend` names, opened on `weights` (which must outlive it); `embodiment` is
// prepared now, others on their first call.
std::unique_ptr<Backend> open_backend(const model::Weights& weights, int embodiment, const OpenOptions& options);

}  // namespace ditmk::api
