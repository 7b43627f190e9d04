#pragma once
// Multi-head attention for a block of query rows against a key/value set, not causal, with an
// optional key mask: out[i, h] = softmax_j(scale * q[i, h] . k[j, h], admissible j) @ v[:, h].
// Heads are interleaved in the columns (head h is columns [h*d, (h+1)*d)); a call computes only the
// heads [h_begin, h_end) so threads can split heads. Statistics (max, sum) are fp32.
#include <cstddef>
#include <cstdint>

#include "ditmk/cpu/kernels/isa.hpp"

namespace ditmk::cpu {

struct AttentionArgs {
  const float* q = nullptr;  // [m, heads * head_dim]
  int64_t q_stride = 0;
  const float* k = nullptr;  // [keys, heads * head_dim]
  int64_t k_stride = 0;
  const float* v = nullptr;  // [keys, heads * head_dim]
  int64_t v_stride = 0;
  float* out = nullptr;  // [m, heads * head_dim]
  int64_t out_stride = 0;
  int64_t m = 0, keys = 0, heads = 0, head_dim = 0;
  float scale = 0.0f;
  const uint8_t* key_mask = nullptr;  // keys bytes, 1 = admissible; null = all admissible
  int64_t h_begin = 0, h_end = 0;
  float* scratch = nullptr;  // attention_scratch_floats(keys, head_dim) floats
  std::size_t scratch_floats = 0;
  // Optional: k already laid out by attention_prepare_keys for these k, keys, heads, head_dim and
  // key_mask. When set the scores read it instead of k (k must still be given; v is read as
  // always), so a caller attending several times to the same keys (cross attention against
  // hoisted K) lays them out once rather than once per call and head.
  const float* prepared_keys = nullptr;
};

// One head's keys transposed, a few rows of scores and the admissible key indices.
std::size_t attention_scratch_floats(int64_t keys, int64_t head_dim);

// Prepared keys: a 16-float header (keys, heads, head_dim and the admissible count, which attention
// checks against its arguments), then per head the admissible keys transposed and zero-padded to
// whole 16-key blocks, the layout the kernel otherwise builds in scratch for every head and call.
std::size_t attention_prepared_keys_floats(int64_t keys, int64_t heads, int64_t head_dim);
// Lays out heads [h_begin, h_end) of args.k (reading only k, k_stride, keys, heads, head_dim,
// key_mask and the head range) into prepared, which holds attention_prepared_keys_floats floats.
// Threads may prepare disjoint head ranges of one buffer; the call whose range starts at head 0
// writes the header. Results with prepared keys are bit-identical to those without. attention
// checks only the shape and the admissible count, so prepare again whenever k or key_mask change.
void attention_prepare_keys(const AttentionArgs& args, float* prepared, std::size_t floats);

// Throws ditmk::Error naming the field for bad arguments, and when no key is admissible (a query
// row would have nothing to attend to). Runs the code of isa, which must be supported here
// (amx_bf16 runs the AVX-512 code); without isa, selected_isa()'s. avx2 and avx512 give
// bit-identical results (the same fused multiply-adds in the same order); portable has no FMA, so
// it rounds differently. With any isa a row's result does not depend on the other rows of the call,
// on the head range or on prepared_keys.
void attention(const AttentionArgs& args, Isa isa);
inline void attention(const AttentionArgs& args) { attention(args, selected_isa()); }
// The same in double precision with a plain softmax.
void attention_reference(const AttentionArgs& args);

void check_attention_args(const AttentionArgs& args);

}  // namespace ditmk::cpu
