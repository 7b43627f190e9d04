#pragma once
// The executors `run` and `bench` can use, by name, fastest first.
#include <string>
#include <vector>

#include "ditmk/model/denoise.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/weights.hpp"

namespace ditmk::cli {

struct BackendOptions {
  int threads = 0;            // 0: one per core
  std::string dtype = "bf16"; // weight format of the fast executors
  std::string isa;            // cap on the CPU instruction set (empty: best available)
};

const std::vector<std::string>& backend_names();  // fastest first
model::DenoiseResult run_backend(const std::string& backend, const model::Weights& weights, int embodiment,
                                 const model::Observation& obs, const Matrix<double>& noise,
                                 const BackendOptions& options);

}  // namespace ditmk::cli
