#pragma once
// This machine's arithmetic peak for the instruction the GEMM's inner loop runs, measured in the
// same way as the streaming bandwidth: every thread of the pool at once (clocks drop when all cores
// are busy), the best of several passes. With the streaming floor (bytes / bandwidth) it gives the
// other physical floor of a denoise: multiply-add flops / peak. Whichever is larger binds.
#include <string>

#include "ditmk/cpu/kernels/isa.hpp"
#include "ditmk/cpu/kernels/packed_weights.hpp"
#include "ditmk/cpu/worker_pool.hpp"

namespace ditmk::cpu {

struct ComputePeak {
  double flops_per_second = 0;  // all threads together
  std::string instruction;      // what was timed, e.g. "vdpbf16ps zmm"
  int passes = 0;
};

// The inner-loop instruction of the GEMM that `isa` runs for `format` weights, timed on
// independent accumulator chains (enough to cover its latency, no loads). For int8 weights that is
// the int8 dot product of int8_dot_for(isa), and the rate is in integer operations per second.
ComputePeak measure_compute_peak(WorkerPool& pool, Isa isa, WeightFormat format, int passes);

namespace detail {
// One thread's timed chains of `iterations` rounds of multiply-adds; returns the flops (or integer
// operations, a multiply-add counting 2) done. Per ISA file.
double peak_chain_avx512_bf16(long iterations);
double peak_chain_avx512_fp32(long iterations);
double peak_chain_avx2_fp32(long iterations);
double peak_chain_portable(long iterations);
double peak_chain_avx512_vnni(long iterations);
double peak_chain_avx_vnni(long iterations);
double peak_chain_avx2_int8(long iterations);
double peak_chain_portable_int8(long iterations);
}  // namespace detail

}  // namespace ditmk::cpu
