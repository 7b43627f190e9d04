#pragma once
// What a host puts into the chip's DRAM before a launch of the megakernel, as bytes per io tensor
// in the layout io_tensors.hpp describes: the weights (both arenas as their banks' images, the host
// tables) once per model, the call's tensors (hoisted K/V, masks, state token) per observation, and
// steps4's Euler state. The emulated launch and `ditmk export --tt-metal` both take them from here.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ditmk/core/matrix.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/precompute.hpp"
#include "ditmk/model/weights.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"
#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt::host {

// In the order a host allocates them (the emulated launch's DRAM addresses follow it).
using TensorBytes = std::vector<std::pair<std::string, std::vector<std::byte>>>;

// steps4: the Euler state x_t [m_pad, a_pad] fp32 with the noise at the action rows.
std::vector<std::byte> state_tensor(const ArenaLayout& layout, const Matrix<double>& noise);

// The tensors the variant writes: x_out (block), y_out (step), velocity_out and action_pred (steps4).
std::vector<std::string> output_tensors(Variant variant);

// The arena layout of `variant` for an observation's key sets, and the tensors a host writes before
// its launch: the weights' (both arenas as their banks' images, the host tables the variant reads,
// laid out once for the steps4 program of these blocks), then the call's (self mask, hoisted K/V and
// masks of each cross block, steps4's state token rows). steps4's Euler state aside: state_tensor.
struct LaunchInputs {
  ArenaLayout layout;
  TensorBytes tensors;
};
LaunchInputs launch_inputs(const model::Weights& weights, const model::ModelConfig& config, int embodiment,
                           const model::Observation& obs, const model::CallInputs<double>& call, Variant variant,
                           TileFormat dtype);

// The K4 program of a launch of `layout`: its io slots at the DRAM addresses a host allocated
// (`dram`, by tensor name), x_rep and a_rep at the CBs they back. `cb_w_slots` 0: the plan's ring.
ProgramSpec launch_program(const ArenaLayout& layout, Protocol protocol, int step_index, int cb_w_slots,
                           const std::map<std::string, uint32_t>& dram);

}  // namespace ditmk::tt::host
