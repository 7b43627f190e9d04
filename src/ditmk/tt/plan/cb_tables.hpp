#pragma once
// The CBs and semaphores of the K1 and K4 megakernels. Names and ids are protocol: the role
// programs bind to them through named compile-time args.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ditmk/tt/plan/arena_layout.hpp"
#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt {

using IdTable = std::vector<std::pair<std::string, int>>;

const IdTable& k1_cb_ids();
const IdTable& k4_cb_ids();      // compute-core ids (and cb_a on every core)
const IdTable& k4_hub_cb_ids();  // hub-only ids, reusing compute ids on disjoint cores
const IdTable& semaphore_ids();

// K4 tail constants: one fixed 48-tile bf16 transaction per tail op (the largest tail slice per core,
// proj_out_2 / enc2a / enc3), 6 constant tiles per compute core, 2-slot SDPA rings, the hub's
// 256-page gather landing ring (two 128-page transactions) and 2 x 8 fp32 pages of remote parts.
constexpr int kK4TailTiles = 48;
constexpr int kK4TconstTiles = 6;
constexpr int kK4SdpaSlots = 2;
constexpr int kK4LandPages = 256;
constexpr int kK4PartPages = 2 * 8;
constexpr int kRelaySlots = 6;  // K1 readers: 3-deep transaction ring x 2 of relay lookahead

// Default weight-ring depth in K-blocks: K1 15 bfp8_b / 9 bf16, K4 15 / 13.
int default_cb_w_slots(Kernel kernel, TileFormat stream);

// The CB list of a kernel; cb_w holds cb_w_slots K-blocks of the layout's stream arena.
std::vector<CBSpec> k1_cbs(const ArenaLayout& layout, int cb_w_slots);
std::vector<CBSpec> k4_cbs(const ArenaLayout& layout, int cb_w_slots);

}  // namespace ditmk::tt
