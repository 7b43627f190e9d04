#pragma once
// `ditmk export --tt-metal DIR`: what a tt-metal host needs besides the chip to run the megakernel
// for one call, in one folder: the kernel sources in tt-metal's dialect (kernels/), the plan's
// ProgramDescriptor (program.json, kernel_source kernels/dit_kernel.cpp), every input tensor as the
// bytes the device holds (inputs/*.npy: the packed arenas, the host tables, the call's tensors and
// the Euler state), and a README mapping each part to ttnn's ProgramDescriptor and generic_op.
// `ditmk emulate --descriptor DIR/program.json` runs the folder as it is and writes outputs/.
#include <filesystem>
#include <string>
#include <vector>

#include "ditmk/core/matrix.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/weights.hpp"
#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt::host {

struct ExportRequest {
  TileFormat dtype = TileFormat::bfp8_b;  // the stream arena's format
  Protocol protocol = Protocol::seed;
  int threads = 1;                        // of the host precompute
};

struct ExportSummary {
  std::vector<std::string> files;  // relative to the folder, in the order written
  uint64_t bytes = 0;
};

// The steps4 program for one call (`obs`, `noise`). The folder is written whole or not at all: it
// is built beside `dir` and renamed into place; `dir` must not exist or be empty.
ExportSummary export_tt_metal(const model::Weights& weights, int embodiment, const model::Observation& obs,
                              const Matrix<double>& noise, const ExportRequest& request,
                              const std::filesystem::path& dir);

}  // namespace ditmk::tt::host
