#pragma once
// The chip parameters of the timing model (docs/timing.md): one table, in timing_params.cpp, where
// each value carries its public source or the component measurement of TARGET.md section 7 it was
// calibrated on. Times are aiclk cycles, sizes bytes.
#include <string>
#include <vector>

namespace ditmk::tt::emu {

struct TimingParams {
  double aiclk_hz = 0;
  // NoC: flits, packets, latencies, what a data mover pays to issue a transaction
  double noc_flit_bytes = 0;
  double noc_packet_bytes = 0;
  double noc_niu_cycles = 0;
  double noc_hop_cycles = 0;
  double noc_issue_cycles = 0;
  double noc_write_fixed_cycles = 0;  // round trip of a write and its acknowledgement beyond the route
  double noc_read_fixed_cycles = 0;   // the same for a read request and its data
  double mcast_base_cycles = 0;       // per multicast packet at the sender: path reservation ...
  double mcast_dest_cycles = 0;       // ... and one acknowledgement per destination
  // DRAM: a bank serves its requests in order at its share of the measured streaming rate
  double dram_access_cycles = 0;
  double dram_bank_bf16_bytes_per_cycle = 0;
  double dram_bank_bfp8_bytes_per_cycle = 0;
  double dram_reader_bytes_per_cycle = 0;  // what one core's reads can take, all banks together
  // Tensix: FPU cycles per tile and fidelity phase, the unpacker / packer, SFPU functions
  double fpu_matmul_cycles = 0;
  double fpu_eltwise_cycles = 0;
  double fpu_reduce_cycles = 0;
  double tile_call_cycles = 0;
  double unpack_tile_cycles = 0;
  double pack_tile_cycles = 0;
  double sfpu_exp_cycles = 0;
  double sfpu_recip_cycles = 0;
  double sfpu_sqrt_cycles = 0;
  double sfpu_rsqrt_cycles = 0;
  double sfpu_gelu_cycles = 0;
  double sfpu_silu_cycles = 0;
  // data-mover RISC-V cores touching L1 themselves (tiles built by hand)
  double risc_l1_bytes_per_cycle = 0;
};

struct TimingParamRow {
  std::string name;
  double value = 0;
  std::string unit;
  std::string source;
};

// The Blackhole p150 as the model sees it.
const TimingParams& blackhole_timing();
// The same values with their units and sources, in table order (docs/timing.md prints it).
std::vector<TimingParamRow> timing_param_table();

}  // namespace ditmk::tt::emu
