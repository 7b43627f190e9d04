#pragma once
// The bytes of one arena as the 8 DRAM banks hold them, bank after bank (bank b's bytes at
// b x arena_bank_bytes): what `ditmk pack` writes to an arena file and what the emulated device's
// sharded arena buffer is loaded with, so a run needs no pack directory on disk.
#include <cstddef>
#include <vector>

#include "ditmk/model/weights.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt {

std::vector<std::byte> arena_image(const ArenaLayout& layout, Arena arena, const model::Weights& weights,
                                   int embodiment);

}  // namespace ditmk::tt
