#pragma once
// The acceptance program: the core of the K4 dataflow for one DiT linear layer, y = a x W with
// a [64,1536] bf16 and W [1536,6144] in the weight format. 96 compute cores each own 2 N tiles:
// their NCRISC streams the core's weight K-blocks (8 K tiles x 2 N tiles) from its DRAM bank
// straight into the cb_w ring (direct mode), TRISC multiplies the activation held in cb_a by them
// with fp32 DST accumulation, and the NCRISC gathers the 4 output tiles into the hub's cb_y. The
// hub then multicasts the whole [64,6144] result into cb_y of every other core of the grid.
#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ditmk/tt/emu/device.hpp"

namespace ditmk::tt::emu {

struct LinearShape {
  static constexpr uint32_t m_tiles = 2;          // 64 rows
  static constexpr uint32_t k_tiles = 48;         // 1536
  static constexpr uint32_t n_tiles = 192;        // 6144
  static constexpr uint32_t n_compute = 96;
  static constexpr uint32_t n_tiles_per_core = 2;
  static constexpr uint32_t k_block_tiles = 8;
  static constexpr uint32_t k_blocks = k_tiles / k_block_tiles;
  static constexpr uint32_t block_pages = k_block_tiles * n_tiles_per_core;
};

struct LinearOptions {
  TileFormat weight_format = TileFormat::bf16;
  uint64_t seed = 1;
  // Pages of the cb_w ring; 0 takes the K4 plan's ring (13 K-blocks for bf16, 15 for bfp8_b).
  uint32_t cb_w_pages = 0;
  uint32_t launches = 2;
};

struct LinearRun {
  std::vector<LaunchReport> launches;
  bool clean = false;                 // every launch ran without a fault
  double max_abs_err_vs_host = 0;     // over every core's cb_y and every launch (when clean)
  double max_abs_host = 0;            // the largest |y| of the host result, for scale
  bool launches_identical = false;    // every launch left the same cb_y bytes on every core
  uint64_t expected_dram_bytes = 0;   // the weight bytes: each read exactly once per launch
  double wall_seconds_per_launch = 0;
};

// The cores of each role and the program with its L1 layout (cb_w of `cb_w_pages` pages).
Program build_linear_program(TileFormat weight_format, uint32_t cb_w_pages, uint32_t weight_address);
uint32_t default_cb_w_pages(TileFormat weight_format);

LinearRun run_linear(const LinearOptions& options);
nlohmann::json to_json(const LinearRun& run, const LinearOptions& options);

}  // namespace ditmk::tt::emu
