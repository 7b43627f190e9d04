#pragma once
// The FPU's tile matmul as the emulator computes it: out += a x b over 32 x 32 row-major fp32
// tiles, each output element summed over k ascending, one rounded multiply and one rounded add per
// term (no fused multiply-add), the order and rounding a host reference can reproduce exactly.
namespace ditmk::tt::emu {

// The definition, one element at a time: the slow side of matmul_tile_accumulate's test.
void matmul_tile_accumulate_reference(const float* a, const float* b, float* out);

// The same bits, a row of out held in registers across k (out may not alias a or b).
void matmul_tile_accumulate(const float* a, const float* b, float* out);

}  // namespace ditmk::tt::emu
