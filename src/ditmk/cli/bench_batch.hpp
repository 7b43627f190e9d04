#pragma once
// `ditmk bench --batch N`: the throughput of batched denoises against the same samples run as single
// calls, run after run in one process (a shared machine's slow moments fall on both alike).
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "ditmk/cpu/packed_model.hpp"
#include "ditmk/model/weights.hpp"

namespace ditmk::cli {

struct BatchBenchOptions {
  int max_batch = 8;  // B = 1, 2, 4, ... up to it (and it)
  int runs = 3;
  int threads = 1;
  std::string isa;
  int embodiment = 0;
};

// For each weight format: per B, the median of B single calls (each its precompute and denoise, the
// samples' own observations and noise) and of one batched call of the same B samples, the
// throughputs (denoises per second) and their ratio, and whether every batched sample's actions were
// its single call's bytes.
nlohmann::json time_batches(const BatchBenchOptions& o, const model::Weights& w, const std::vector<cpu::WeightFormat>& formats);

void print_batches(const nlohmann::json& batches);

}  // namespace ditmk::cli
