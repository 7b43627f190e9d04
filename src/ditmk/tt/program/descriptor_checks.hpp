#pragma once
// The checks of a ProgramDescriptor that span several of its objects (which kernel runs where, CB and
// semaphore ids per core, the L1 each core needs), run once every object has been read on its own.
// Fields are named by their JSON path, rebuilt from the objects' indices in the descriptor.
#include <filesystem>
#include <string_view>

#include "ditmk/tt/program/descriptor.hpp"

namespace ditmk::tt::dialect::detail {

// "program.json: kernels[1].core_ranges[0].end: core (11,0) is off the 11x10 grid"
[[noreturn]] void fail_at(const std::filesystem::path& file, std::string_view path, std::string_view message);

void check_kernel_placement(const ProgramDescriptor& program);
void check_cb_ids(const ProgramDescriptor& program);
void check_semaphore_ids(const ProgramDescriptor& program);
// The L1 layout, refusing (at the region that does not fit) a core whose regions overflow its L1.
L1Layout place_l1(const ProgramDescriptor& program);

}  // namespace ditmk::tt::dialect::detail
