#include "ditmk/api/backend.hpp"

#include <map>

#include "ditmk/core/parallel.hpp"
#include "ditmk/cpu/engine.hpp"
#include "ditmk/cpu/vision_language_cache.hpp"
#include "ditmk/model/denoise.hpp"
#include "ditmk/model/synthetic.hpp"
#include "ditmk/ref/action_head.hpp"
#include "ditmk/tt/host/emu_executor.hpp"

namespace ditmk::api {

namespace {

class CpuBackend : public Backend {
 public:
  CpuBackend(const model::Weights& w, int embodiment, const OpenOptions& o, int threads)
      : engine_(w, embodiment, {threads, cpu::parse_weight_format(o.dtype), o.isa, weight_cache_options(o)}),
        reuse_(o.reuse_vision_language) {
    // One denoise on the built-in synthetic observation at open: the heap the per-call activations
    // reuse is faulted in here, so the first real call costs what later ones do (it was ~1.5x).
    // Not when the packed weights were mapped from the weight cache: the file's pages are in the page
    // cache (read by the checksum pass, or read ahead at open), and the first call then faults in
    // its ~60 MB of activations and the weight pages' mappings (tens of ms against a call of
    // seconds; docs/performance.md, "Opening a head"), while this denoise would be most of the open.
    if (engine_.weight_cache_use() == cpu::WeightCacheUse::mapped) return;
    const model::Observation obs = model::synthetic_observation(w.config, 0);
    engine_.run(obs, model::noise_matrix(model::synthetic_noise(w.config, 0).view(), w.config, "warm-up noise"));
  }
  model::DenoiseResult run(const model::Observation& obs, const model::EulerStart& start, int embodiment) override {
    engine_.use_embodiment(embodiment);
    reused_ = 0;
    if (!reuse_) return engine_.run(obs, start.x0, start.row_strength);
    const model::CallInputs<float>& inputs = vision_language_.inputs(engine_, obs);
    reused_ = vision_language_.last_reused();
    return engine_.denoise(inputs, start.x0, start.row_strength);
  }
  // Each sample's precompute through the kept VL work, sample after sample as single calls would go
  // (a sample whose features and masks are the previous sample's, or the kept ones, reuses that work;
  // the last sample's stays kept), then one program over all of them.
  std::vector<model::DenoiseResult> run_batch(std::span<const model::Observation> batch,
                                              std::span<const model::EulerStart> starts, std::span<const int> slots) override {
    std::vector<model::CallInputs<float>> inputs(batch.size());
    std::vector<cpu::BatchSample> samples(batch.size());
    reused_ = 0;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      engine_.use_embodiment(slots[i]);
      if (reuse_) {
        inputs[i] = vision_language_.inputs(engine_, batch[i]);
        reused_ += vision_language_.last_reused();
      } else {
        inputs[i] = engine_.precompute(batch[i]);
      }
      samples[i] = {&inputs[i], slots[i], &starts[i].x0, starts[i].row_strength};
    }
    return engine_.denoise_batch(samples);
  }
  std::string isa() const override { return std::string(cpu::isa_name(engine_.isa())); }
  int threads() const override { return engine_.threads(); }
  std::string weight_cache() const override { return std::string(cpu::weight_cache_use_name(engine_.weight_cache_use())); }
  std::size_t vision_language_bytes() const override { return vision_language_.bytes(); }
  int reused_vision_language() const override { return reused_; }

 private:
  static cpu::WeightCacheOptions weight_cache_options(const OpenOptions& o) {
    cpu::WeightCacheOptions cache;
    cache.enabled = o.weight_cache;
    cache.dir = o.weight_cache_dir;
    return cache;
  }
  cpu::Engine engine_;
  bool reuse_;
  cpu::VisionLanguageCache vision_language_;
  int reused_ = 0;
};

// The float64 oracle; an embodiment's step tables are computed on its first call and kept.
class RefBackend : public Backend {
 public:
  RefBackend(const model::Weights& w, int embodiment, int threads) : weights_(w), threads_(threads) { head(embodiment); }
  model::DenoiseResult run(const model::Observation& obs, const model::EulerStart& start, int embodiment) override {
    return head(embodiment).run(obs, start.x0, start.row_strength);
  }
  std::string isa() const override { return "float64"; }
  int threads() const override { return threads_; }

 private:
  const ref::ActionHead& head(int embodiment) {
    auto& slot = heads_[embodiment];
    if (!slot) slot = std::make_unique<ref::ActionHead>(weights_, embodiment, threads_);
    return *slot;
  }
  const model::Weights& weights_;
  int threads_;
  std::map<int, std::unique_ptr<ref::ActionHead>> heads_;
};

// The megakernel on the emulated Blackhole chip: every call plans, loads and launches anew, as the
// host of a real chip would for a new call.
class EmuBackend : public Backend {
 public:
  EmuBackend(const model::Weights& w, const OpenOptions& o, int threads)
      : weights_(w), options_{tt::parse_tile_format(o.dtype), threads} {}
  model::DenoiseResult run(const model::Observation& obs, const model::EulerStart& start, int embodiment) override {
    if (!start.row_strength.empty())
      fail("real-time chunking: the emu backend's megakernel has no per-row velocity strength input (use cpu or ref)");
    return tt::host::EmuExecutor(weights_, embodiment, options_).denoise(obs, start.x0).denoise;
  }
  std::string isa() const override { return "emulated Blackhole"; }
  int threads() const override { return options_.threads; }

 private:
  const model::Weights& weights_;
  tt::host::EmuOptions options_;
};

}  // namespace

std::vector<model::DenoiseResult> Backend::run_batch(std::span<const model::Observation> batch,
                                                     std::span<const model::EulerStart> starts, std::span<const int> slots) {
  std::vector<model::DenoiseResult> results;
  for (std::size_t i = 0; i < batch.size(); ++i) results.push_back(run(batch[i], starts[i], slots[i]));
  return results;
}

void check_backend_options(const OpenOptions& o) {
  if (o.backend != "cpu" && o.backend != "ref" && o.backend != "emu")
    fail("backend '{}': unknown (expected cpu, ref or emu)", o.backend);
  if (o.backend == "cpu") cpu::parse_weight_format(o.dtype);
  if (o.backend == "emu") tt::parse_tile_format(o.dtype);
  if (!o.isa.empty()) cpu::parse_isa(o.isa);
  require(o.threads >= 0, "threads {}: must be positive (0: one per core)", o.threads);
}

std::unique_ptr<Backend> open_backend(const model::Weights& w, int embodiment, const OpenOptions& o) {
  const int threads = o.threads > 0 ? o.threads : hardware_threads();
  if (o.backend == "cpu") return std::make_unique<CpuBackend>(w, embodiment, o, threads);
  if (o.backend == "ref") return std::make_unique<RefBackend>(w, embodiment, threads);
  if (o.backend == "emu") return std::make_unique<EmuBackend>(w, o, threads);
  fail("backend '{}': unknown (expected cpu, ref or emu)", o.backend);
}

}  // namespace ditmk::api
