#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/attention.hpp"
#include "random_data.hpp"

namespace ditmk::cpu {
namespace {

using testing::random_normal;

struct Problem {
  int64_t m, keys, heads, d;
  std::vector<float> q, k, v, scratch;
  std::vector<uint8_t> mask;
  Problem(int64_t m_, int64_t keys_, int64_t heads_, int64_t d_, uint64_t stream)
      : m(m_), keys(keys_), heads(heads_), d(d_) {
    q = random_normal(std::size_t(m * heads * d), stream, 1.5f);
    k = random_normal(std::size_t(keys * heads * d), stream + 1, 1.5f);
    v = random_normal(std::size_t(keys * heads * d), stream + 2);
    scratch.resize(attention_scratch_floats(keys, d));
    const CounterRng rng(9, stream + 3);
    for (int64_t j = 0; j < keys; ++j) mask.push_back(rng.uniform(std::size_t(j)) < 0.6 ? 1 : 0);
  }
  AttentionArgs args(float* out, bool masked, int64_t h_begin, int64_t h_end) {
    AttentionArgs a;
    const int64_t w = heads * d;
    a.q = q.data(), a.q_stride = w, a.k = k.data(), a.k_stride = w, a.v = v.data(), a.v_stride = w;
    a.out = out, a.out_stride = w, a.m = m, a.keys = keys, a.heads = heads, a.head_dim = d;
    a.scale = 1.0f / std::sqrt(float(d));
    a.key_mask = masked ? mask.data() : nullptr;
    a.h_begin = h_begin, a.h_end = h_end;
    a.scratch = scratch.data(), a.scratch_floats = scratch.size();
    return a;
  }
};

TEST(Attention, MatchesReferenceWithAndWithoutMask) {
  const int64_t shapes[][4] = {{49, 49, 32, 48}, {49, 384, 4, 48}, {64, 1000, 2, 64}, {1, 7, 3, 64}};
  uint64_t stream = 10;
  for (const auto& s : shapes) {
    Problem p(s[0], s[1], s[2], s[3], stream += 4);
    for (bool masked : {false, true}) {
      std::vector<float> got(std::size_t(p.m * p.heads * p.d)), want(got.size());
      attention(p.args(got.data(), masked, 0, p.heads));
      attention_reference(p.args(want.data(), masked, 0, p.heads));
      double max_err = 0, max_ref = 0;
      for (std::size_t i = 0; i < got.size(); ++i) {
        max_err = std::max(max_err, std::abs(double(got[i]) - want[i]));
        max_ref = std::max(max_ref, std::abs(double(want[i])));
      }
      EXPECT_LT(max_err, 2e-5 * max_ref) << "keys " << s[1] << " masked " << masked;
      EXPECT_GT(max_ref, 0.1);
    }
  }
}

// A masked key must not move the output however large its score or value.
TEST(Attention, MaskedKeysHaveNoInfluence) {
  Problem p(8, 40, 2, 48, 50);
  std::vector<float> before(std::size_t(p.m * p.heads * p.d)), after(before.size());
  attention(p.args(before.data(), true, 0, 2));
  for (int64_t j = 0; j < p.keys; ++j)
    if (!p.mask[std::size_t(j)])
      for (int64_t c = 0; c < p.heads * p.d; ++c) p.v[std::size_t(j * p.heads * p.d + c)] = 1e6f;
  attention(p.args(after.data(), true, 0, 2));
  EXPECT_EQ(before, after);
}

TEST(Attention, HeadRangeWritesOnlyItsHeads) {
  Problem p(5, 30, 4, 48, 60);
  std::vector<float> full(std::size_t(p.m * p.heads * p.d)), part(full.size(), -7.0f);
  attention(p.args(full.data(), false, 0, 4));
  attention(p.args(part.data(), false, 1, 3));
  for (int64_t i = 0; i < p.m; ++i)
    for (int64_t c = 0; c < p.heads * p.d; ++c) {
      const std::size_t at = std::size_t(i * p.heads * p.d + c);
      const int64_t h = c / p.d;
      if (h >= 1 && h < 3) ASSERT_EQ(part[at], full[at]);
      else ASSERT_EQ(part[at], -7.0f);
    }
}

TEST(Attention, NoAdmissibleKeyIsAnError) {
  Problem p(4, 16, 2, 48, 70);
  std::fill(p.mask.begin(), p.mask.end(), 0);
  std::vector<float> out(std::size_t(p.m * p.heads * p.d));
  try {
    attention(p.args(out.data(), true, 0, 2));
    FAIL() << "empty mask accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("key_mask"), std::string::npos) << e.what();
  }
  AttentionArgs bad = p.args(out.data(), false, 0, 3);  // head range past the heads
  EXPECT_THROW(attention(bad), Error);
}

}  // namespace
}  // namespace ditmk::cpu
