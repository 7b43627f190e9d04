#pragma once
// `ditmk bench --peer NAME`: the same head, on the same inputs and threads, run the way a user would
// run it instead of ditmk: eager PyTorch in bf16 as the released runtime runs it (bench/peer_torch.py),
// or exported to ONNX and run by OpenVINO or ONNX Runtime (bench/peer_onnx.py). Each peer's actions
// are checked against the float64 reference like ditmk's.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "ditmk/core/matrix.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/weights.hpp"

namespace ditmk::cli {

// torch, openvino, openvino-bf16, onnxruntime, onnxruntime-int8: what --peer accepts
std::vector<std::string> peer_names();

struct PeerInputs {
  const model::Weights& weights;  // from a release directory
  int embodiment = 0;
  const model::Observation& observation;
  const Matrix<double>& noise;
  const Matrix<double>& reference_actions;  // the float64 reference's, for the peer's accuracy
  int threads = 1, runs = 5, warmup = 1;
};

// The peer's report (median/min/max ms per denoise and what it ran), with cos_vs_ref and
// rel_l2_vs_ref of its actions. Error (one line naming the peer) when its script fails, prints
// something other than its report, or leaves no actions of the head's shape.
nlohmann::json run_peer(const std::string& name, const PeerInputs& in);

}  // namespace ditmk::cli
