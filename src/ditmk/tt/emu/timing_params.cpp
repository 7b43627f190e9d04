#include "ditmk/tt/emu/timing_params.hpp"

namespace ditmk::tt::emu {

namespace {

// Public sources, as cited in the rows below.
constexpr const char* kNocDoc = "tt-isa-documentation BlackholeA0/NoC/README.md";
constexpr const char* kMatrixDoc = "tt-metal tech_reports/matrix_engine/matrix_engine.md (Wormhole and Blackhole)";
constexpr const char* kDmPlots = "tt-metal tests/tt_metal/tt_metal/data_movement perf_plots/blackhole";
constexpr const char* kOpModel = "tt-budabackend netlist_analyzer/opmodel.cpp (cycles per tile, datacopy 150)";

// The measured QKV matmul of TARGET.md section 7: 2 rows x 2 N tiles x 48 K tiles at HiFi2 in
// 5.5 us, i.e. 192 matmul_tiles, the 4 bias matmuls and 4 packs of the op's epilogue.
constexpr double kQkvSeconds = 5.5e-6;
constexpr double kQkvMatmuls = 192 + 4;
constexpr double kQkvPacks = 4;
constexpr double kHiFi2Phases = 2;

struct Row {
  const char* name;
  double TimingParams::*field;
  double value;
  const char* unit;
  std::string source;
};

std::vector<Row> rows() {
  const double hz = 1.35e9;
  const double matmul = 16, pack = 75;
  // what is left of the QKV time per tile call once the FPU phases and the packs are paid
  const double call = (kQkvSeconds * hz - kQkvMatmuls * kHiFi2Phases * matmul - kQkvPacks * pack) / kQkvMatmuls;
  // the one-to-one / one-from-one 64 B rows (366 / 368 cycles) less the issue, two NIU passes, one
  // hop each way and the two flits of the packet
  const double route = 25 + 2 * (2 * 5) + 2 * 9 + 2;
  return {
      {"aiclk_hz", &TimingParams::aiclk_hz, hz, "Hz", "TARGET.md section 1; " + std::string(kNocDoc) + " (1.35 GHz)"},
      {"noc_flit_bytes", &TimingParams::noc_flit_bytes, 64, "B", std::string(kNocDoc) + ": 512-bit flits"},
      {"noc_packet_bytes", &TimingParams::noc_packet_bytes, 16384, "B",
       std::string(kNocDoc) + ": at most 256 data flits behind one header flit"},
      {"noc_niu_cycles", &TimingParams::noc_niu_cycles, 5, "cycles", std::string(kNocDoc) + ": NIU <-> router ~5"},
      {"noc_hop_cycles", &TimingParams::noc_hop_cycles, 9, "cycles", std::string(kNocDoc) + ": router -> router 9"},
      {"noc_issue_cycles", &TimingParams::noc_issue_cycles, 25, "cycles",
       std::string(kDmPlots) + " One to One: 256 x 64 B writes in 6496 cycles"},
      {"noc_write_fixed_cycles", &TimingParams::noc_write_fixed_cycles, 366 - route, "cycles",
       std::string(kDmPlots) + " One to One 64 B x1: 366 cycles, less the modelled issue, route and flits"},
      {"noc_read_fixed_cycles", &TimingParams::noc_read_fixed_cycles, 368 - route, "cycles",
       std::string(kDmPlots) + " One from One 64 B x1: 368 cycles, less the modelled issue, route and flits"},
      {"mcast_base_cycles", &TimingParams::mcast_base_cycles, 69, "cycles",
       std::string(kDmPlots) + " One to All Multicast 5x5 / 11x10, 256 x 64 B: 136 / 375 cycles per packet, "
                               "fitted as base + per destination"},
      {"mcast_dest_cycles", &TimingParams::mcast_dest_cycles, 2.8, "cycles", "as mcast_base_cycles"},
      {"dram_access_cycles", &TimingParams::dram_access_cycles, 479 - 368, "cycles",
       std::string(kDmPlots) + " DRAM Interleaved 64 B x1 (479) against One from One (368)"},
      {"dram_bank_bf16_bytes_per_cycle", &TimingParams::dram_bank_bf16_bytes_per_cycle, 464e9 / 8 / hz, "B/cycle",
       "TARGET.md section 7: direct-mode streaming 464 GB/s (bf16) over the 8 banks"},
      {"dram_bank_bfp8_bytes_per_cycle", &TimingParams::dram_bank_bfp8_bytes_per_cycle, 414e9 / 8 / hz, "B/cycle",
       "TARGET.md section 7: direct-mode streaming 414 GB/s (bfp8_b) over the 8 banks"},
      {"dram_reader_bytes_per_cycle", &TimingParams::dram_reader_bytes_per_cycle, 34.9, "B/cycle",
       std::string(kDmPlots) + " DRAM Interleaved, one reader, 256 x 64 KB"},
      {"fpu_matmul_cycles", &TimingParams::fpu_matmul_cycles, matmul, "cycles/phase",
       std::string(kMatrixDoc) + ": 8x16 x 16x16 per cycle, a 32x32x32 tile in 16 per fidelity phase"},
      {"fpu_eltwise_cycles", &TimingParams::fpu_eltwise_cycles, 8, "cycles/phase",
       std::string(kMatrixDoc) + ": 8x16 elementwise per cycle (multiply: per fidelity phase)"},
      {"fpu_reduce_cycles", &TimingParams::fpu_reduce_cycles, 4, "cycles/phase",
       std::string(kMatrixDoc) + ": 16x16 reduction per cycle (sum: per fidelity phase)"},
      {"tile_call_cycles", &TimingParams::tile_call_cycles, call, "cycles",
       "calibrated: TARGET.md section 7 QKV matmul 5.5 us = 196 x (2 x 16 + this) + 4 packs"},
      {"unpack_tile_cycles", &TimingParams::unpack_tile_cycles, 75, "cycles", std::string(kOpModel) + ", half of it"},
      {"pack_tile_cycles", &TimingParams::pack_tile_cycles, pack, "cycles", std::string(kOpModel) + ", half of it"},
      {"sfpu_exp_cycles", &TimingParams::sfpu_exp_cycles, 450 - 150, "cycles", std::string(kOpModel) + ": exp 450"},
      {"sfpu_recip_cycles", &TimingParams::sfpu_recip_cycles, 950 - 150, "cycles",
       std::string(kOpModel) + ": reciprocal 950"},
      {"sfpu_sqrt_cycles", &TimingParams::sfpu_sqrt_cycles, 250 - 150, "cycles", std::string(kOpModel) + ": sqrt 250"},
      {"sfpu_rsqrt_cycles", &TimingParams::sfpu_rsqrt_cycles, (250 - 150) + (950 - 150), "cycles",
       std::string(kOpModel) + ": sqrt then reciprocal"},
      {"sfpu_gelu_cycles", &TimingParams::sfpu_gelu_cycles, 350 - 150, "cycles", std::string(kOpModel) + ": gelu 350"},
      {"sfpu_silu_cycles", &TimingParams::sfpu_silu_cycles, 225 - 150, "cycles",
       std::string(kOpModel) + ": sigmoid 225"},
      {"risc_l1_bytes_per_cycle", &TimingParams::risc_l1_bytes_per_cycle, 4, "B/cycle",
       "tt-isa-documentation BlackholeA0/TensixTile/BabyRISCV/README.md: single-issue 32-bit cores, one load or "
       "(coalesced) store per cycle"},
  };
}

}  // namespace

const TimingParams& blackhole_timing() {
  static const TimingParams params = [] {
    TimingParams p;
    for (const Row& row : rows()) p.*(row.field) = row.value;
    return p;
  }();
  return params;
}

std::vector<TimingParamRow> timing_param_table() {
  std::vector<TimingParamRow> table;
  for (const Row& row : rows()) table.push_back({row.name, row.value, row.unit, row.source});
  return table;
}

}  // namespace ditmk::tt::emu
