#pragma once
// Multi-head attention for a block of query rows against a key/value set, not causal, with an
// optional key mask: out[i, h] = softmax_j(scale * q[i, h] . k[j, h], admissible j) @ v[:, h].
// Heads are interleaved in the columns (head h is columns [h*d, (h+1)*d)); a call computes only the
// heads [h_begin, h_end) so threads can split heads. Statistics (max, sum) are fp32.
#include <cstddef>
#include <cstdint>

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
};

// One head's keys transposed, a row of scores and the admissible key indices.
std::size_t attention_scratch_floats(int64_t keys, int64_t head_dim);

// Throws ditmk::Error naming the field for bad arguments, and when no key is admissible (a query
// row would have nothing to attend to).
void attention(const AttentionArgs& args);
// The same in double precision with a plain softmax.
void attention_reference(const AttentionArgs& args);

void check_attention_args(const AttentionArgs& args);

}  // namespace ditmk::cpu
