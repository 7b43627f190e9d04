#pragma once
// The CPU megakernel: the whole 4-step denoise as one persistent program on a worker pool.
//
// Load: weights are packed once (PackedModel; an embodiment's encoders and decoder on its first use,
// then kept); per call only the VL preprocessing, the hoisted
// cross K/V and the state token are computed (the shared model::precompute_call, run here with the
// fast kernels). Then ONE dispatch runs every step: action encoder, all DiT blocks, output head,
// action decoder and Euler update, four times, with the threads splitting each op's columns (GEMM),
// heads (attention) or rows (LayerNorm) and meeting at barriers. Nothing is allocated, spawned or
// returned to the caller inside that loop.
#include <map>
#include <memory>
#include <span>
#include <string>

#include "ditmk/core/matrix.hpp"
#include "ditmk/cpu/isa_calibration.hpp"
#include "ditmk/cpu/kernels/isa.hpp"
#include "ditmk/cpu/packed_model.hpp"
#include "ditmk/cpu/weight_cache.hpp"
#include "ditmk/cpu/worker_pool.hpp"
#include "ditmk/model/denoise.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/precompute.hpp"

namespace ditmk::cpu {

struct EngineOptions {
  int threads = 0;  // 0: one per core
  WeightFormat format = WeightFormat::bf16;
  std::string isa;  // cap on the instruction set ("portable", "avx2", "avx512", "amx"); empty: best
  WeightCacheOptions weight_cache;  // off unless enabled: the packed weights of a release kept on disk
  // Without a cap (isa empty, no DITMK_ISA): time the paths this CPU can run and use the fastest,
  // cached per CPU in weight_cache's folder (its `calibration/`, also when the weight cache is off;
  // isa_calibration.hpp). False: the most capable path, unmeasured.
  bool calibrate = true;
  // The paths calibrate times (empty: isa_candidates of the detected ISA); each must run here.
  std::vector<Isa> calibration_candidates;
};

// One sample of a batched denoise: its precomputed inputs, embodiment slot, x_0 [H, A] and Euler row
// strengths (empty: every row moves fully). The caller keeps them alive for the call.
struct BatchSample {
  const model::CallInputs<float>* inputs = nullptr;
  int embodiment = 0;
  const Matrix<double>* noise = nullptr;
  std::span<const double> row_strength;
};

class Engine {
 public:
  // `weights` must outlive the engine (the per-call precompute reads its views). `embodiment` is the
  // one calls use until use_embodiment picks another.
  Engine(const model::Weights& weights, int embodiment, const EngineOptions& options);
  ~Engine();

  // The embodiment of the next calls; its layers are packed on its first use (Error for a slot the
  // release does not have).
  void use_embodiment(int embodiment);
  int embodiment() const { return embodiment_->source.id; }

  // row_strength: model::EulerStart's (empty: every row moves fully).
  model::DenoiseResult run(const model::Observation& obs, const Matrix<double>& noise,
                           std::span<const double> row_strength = {});

  // The two halves of run(), for benchmarks that time them apart.
  model::CallInputs<float> precompute(const model::Observation& obs);
  // precompute() in its two parts: what depends only on the VL features and masks (into's VL tokens,
  // cross K/V and key masks; VisionLanguageCache keeps it), and the state token of the current
  // embodiment. Together they are precompute()'s bytes.
  void precompute_vision_language(const model::Observation& obs, model::CallInputs<float>& into);
  Matrix<float> state_token(const model::Observation& obs);
  model::DenoiseResult denoise(const model::CallInputs<float>& inputs, const Matrix<double>& noise,
                               std::span<const double> row_strength = {});
  // B samples as one program: every GEMM whose weights all samples share (the DiT blocks, the output
  // layer) runs once over all B samples' rows, so each weight is streamed once per step instead of B
  // times; attention runs per sample (its own keys, VL length and mask) and the embodiment layers per
  // run of consecutive samples of one embodiment. Each sample's result is bit-identical to its own
  // denoise(): a GEMM row's value does not depend on the other rows in its block, nor a LayerNorm
  // row's or an attention head's on the others.
  std::vector<model::DenoiseResult> denoise_batch(std::span<const BatchSample> samples);

  const PackedModel& packed() const { return model_; }
  const PackedEmbodiment& packed_embodiment() const { return *embodiment_; }
  Isa isa() const { return isa_; }
  // How isa() was chosen: measured (and each candidate's ms), cached, forced or the only candidate.
  const IsaChoice& isa_choice() const { return isa_choice_; }
  // Whether the packed weights came from the weight cache, were written to it, or neither.
  WeightCacheUse weight_cache_use() const { return weight_cache_use_; }
  int threads() const { return pool_.size(); }

 private:
  struct Workspace;
  struct FastOps;
  struct EmbodimentRun;
  void run_program(int thread, std::span<const BatchSample> batch);
  const PackedEmbodiment& packed_embodiment_of(int id);  // packed on its first use
  void choose_isa(const EngineOptions& options);         // isa_ and isa_choice_, once packed

  const model::Weights& weights_;  // the caller keeps the mapped checkpoint alive
  Isa isa_;
  IsaChoice isa_choice_;
  WeightCacheUse weight_cache_use_ = WeightCacheUse::off;
  PackedModel model_;
  std::map<int, PackedEmbodiment> embodiments_;
  const PackedEmbodiment* embodiment_ = nullptr;
  WorkerPool pool_;
  std::unique_ptr<Workspace> ws_;
};

}  // namespace ditmk::cpu
