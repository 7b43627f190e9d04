#pragma once
// The timed loop every compute-peak probe shares: `Chains` independent accumulators (24 by default:
// more than latency x issue width of any multiply-add here; VEX and SSE code, with 16 registers,
// take 12), `step` applied to each once per iteration. The empty asm keeps the operand in a register
// and unknown to the compiler, so the chains cannot be folded.
namespace ditmk::cpu::detail {

template <int Chains = 24, typename Acc, typename Operand, typename Step>
Acc run_peak_chains(long iterations, Acc zero, Operand operand, Step step) {
  Acc acc[Chains];
  for (Acc& a : acc) a = zero;
  for (long i = 0; i < iterations; ++i) {
#pragma GCC unroll 24
    for (int j = 0; j < Chains; ++j) acc[j] = step(acc[j], operand);
    asm volatile("" : "+x"(operand));
  }
  Acc total = zero;
  for (const Acc& a : acc) total = total + a;
  return total;
}

}  // namespace ditmk::cpu::detail
