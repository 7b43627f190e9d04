#include <gtest/gtest.h>

#include <algorithm>
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
  std::vector<float> output() const { return std::vector<float>(std::size_t(m * heads * d), -7.0f); }
};

// The largest error of got against the float64 oracle, relative to the oracle's largest value.
double relative_error(const std::vector<float>& got, const std::vector<float>& want) {
  double max_err = 0, max_ref = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    max_err = std::max(max_err, std::abs(double(got[i]) - want[i]));
    max_ref = std::max(max_ref, std::abs(double(want[i])));
  }
  return max_err / max_ref;
}

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

// Every instruction set here against the float64 oracle on all heads of p.
void expect_every_isa_matches_reference(Problem& p, bool masked) {
  std::vector<float> want = p.output();
  attention_reference(p.args(want.data(), masked, 0, p.heads));
  for (Isa isa : supported_isas()) {
    std::vector<float> got = p.output();
    attention(p.args(got.data(), masked, 0, p.heads), isa);
    EXPECT_LT(relative_error(got, want), 2e-5) << isa_name(isa);
  }
}

// Row tiles hold up to 6 rows, balanced (m = 13: 5 + 4 + 4); every row count up to 20 and the
// model's 49 and 300 meet every tile height, on every instruction set, with head sizes that take
// the 48 and 64 paths and the generic one (13: a partial vector on every width), key counts off a
// multiple of 16 and masks.
TEST(Attention, EveryRowCountAndHeadSizeMatchesReference) {
  std::vector<int64_t> rows;
  for (int64_t m = 1; m <= 20; ++m) rows.push_back(m);
  rows.push_back(49);
  uint64_t stream = 100;
  for (int64_t d : {48, 64, 13})
    for (int64_t m : rows)
      for (int64_t keys : {int64_t(37), m == 49 ? int64_t(300) : int64_t(16)}) {
        Problem p(m, keys, 2, d, stream += 4);
        for (bool masked : {false, true}) {
          SCOPED_TRACE(::testing::Message() << "m " << m << " keys " << keys << " d " << d << " masked " << masked);
          expect_every_isa_matches_reference(p, masked);
        }
      }
}

TEST(Attention, VisionLanguageSelfAttentionMatchesReference) {
  Problem p(300, 300, 2, 64, 300);
  for (bool masked : {false, true}) {
    SCOPED_TRACE(::testing::Message() << "masked " << masked);
    expect_every_isa_matches_reference(p, masked);
  }
}

// One, two or three admissible keys, wherever they are among keys that are not a multiple of 16.
TEST(Attention, FewAdmissibleKeysMatchReference) {
  const std::vector<std::vector<int64_t>> admitted = {{0}, {36}, {17}, {0, 36}, {5, 16, 31}, {299}, {3, 150, 298}};
  uint64_t stream = 400;
  for (const auto& keep : admitted) {
    const int64_t keys = keep.back() < 37 ? 37 : 300;
    for (int64_t d : {48, 64, 13}) {
      Problem p(11, keys, 3, d, stream += 4);
      std::fill(p.mask.begin(), p.mask.end(), 0);
      for (int64_t j : keep) p.mask[std::size_t(j)] = 1;
      std::vector<float> want = p.output();
      attention_reference(p.args(want.data(), true, 0, p.heads));
      for (Isa isa : supported_isas()) {
        std::vector<float> got = p.output();
        attention(p.args(got.data(), true, 0, p.heads), isa);
        EXPECT_LT(relative_error(got, want), 2e-5) << isa_name(isa) << " keys " << keys << " d " << d;
      }
    }
  }
}

// Keys laid out once give the same bytes as keys laid out by every call, whether one call or
// several (as threads would) prepared them.
TEST(Attention, PreparedKeysGiveIdenticalBytes) {
  const int64_t shapes[][4] = {{49, 300, 4, 48}, {49, 49, 4, 48}, {7, 40, 3, 64}, {5, 23, 3, 13}};
  uint64_t stream = 500;
  for (const auto& s : shapes) {
    Problem p(s[0], s[1], s[2], s[3], stream += 4);
    for (bool masked : {false, true}) {
      std::vector<float> whole(attention_prepared_keys_floats(p.keys, p.heads, p.d), 0.0f), split(whole.size(), 0.0f);
      attention_prepare_keys(p.args(nullptr, masked, 0, p.heads), whole.data(), whole.size());
      attention_prepare_keys(p.args(nullptr, masked, 1, p.heads), split.data(), split.size());
      attention_prepare_keys(p.args(nullptr, masked, 0, 1), split.data(), split.size());
      for (Isa isa : supported_isas()) {
        std::vector<float> plain = p.output(), from_whole = p.output(), from_split = p.output();
        attention(p.args(plain.data(), masked, 0, p.heads), isa);
        AttentionArgs a = p.args(from_whole.data(), masked, 0, p.heads);
        a.prepared_keys = whole.data();
        attention(a, isa);
        a.out = from_split.data(), a.prepared_keys = split.data();
        attention(a, isa);
        EXPECT_EQ(plain, from_whole) << isa_name(isa) << " keys " << s[1] << " masked " << masked;
        EXPECT_EQ(plain, from_split) << isa_name(isa) << " keys " << s[1] << " masked " << masked;
      }
    }
  }
}

TEST(Attention, PreparedKeysMustMatchTheArguments) {
  Problem p(4, 40, 2, 48, 600);
  std::vector<float> prepared(attention_prepared_keys_floats(p.keys, p.heads, p.d));
  EXPECT_THROW(attention_prepare_keys(p.args(nullptr, false, 0, 2), prepared.data(), prepared.size() - 1), Error);
  attention_prepare_keys(p.args(nullptr, false, 0, 2), prepared.data(), prepared.size());
  std::vector<float> out = p.output();
  AttentionArgs a = p.args(out.data(), true, 0, 2);  // prepared for all keys, used with the mask
  a.prepared_keys = prepared.data();
  try {
    attention(a);
    FAIL() << "prepared keys of another mask accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("prepared_keys"), std::string::npos) << e.what();
  }
}

// However threads split the heads, every head's bytes are the same.
TEST(Attention, HeadSplitsGiveIdenticalBytes) {
  Problem p(49, 300, 6, 48, 700);
  for (bool masked : {false, true})
    for (Isa isa : supported_isas()) {
      std::vector<float> whole = p.output();
      attention(p.args(whole.data(), masked, 0, p.heads), isa);
      for (const std::vector<int64_t>& cuts : {std::vector<int64_t>{0, 1, 6}, {0, 3, 6}, {0, 2, 4, 5, 6}}) {
        std::vector<float> parts = p.output();
        for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
          attention(p.args(parts.data(), masked, cuts[i], cuts[i + 1]), isa);
        EXPECT_EQ(whole, parts) << isa_name(isa) << " masked " << masked;
      }
    }
}

// A row's result does not depend on the rows computed with it (the tile it falls in).
TEST(Attention, RowsDoNotDependOnTheirNeighbours) {
  Problem p(23, 45, 2, 64, 800);
  for (Isa isa : supported_isas()) {
    std::vector<float> together = p.output();
    attention(p.args(together.data(), true, 0, p.heads), isa);
    const int64_t w = p.heads * p.d;
    for (int64_t i = 0; i < p.m; ++i) {
      std::vector<float> alone(static_cast<std::size_t>(w));
      AttentionArgs a = p.args(alone.data(), true, 0, p.heads);
      a.q = p.q.data() + i * w, a.m = 1;
      attention(a, isa);
      ASSERT_TRUE(std::equal(alone.begin(), alone.end(), together.begin() + i * w)) << isa_name(isa) << " row " << i;
    }
  }
}

// The AVX2 and AVX-512 code do the same fused multiply-adds in the same order (AVX-512F is all the
// attention kernels use).
TEST(Attention, Avx2AndAvx512GiveIdenticalBytes) {
  if (!isa_supported(Isa::avx512f)) GTEST_SKIP() << "no AVX-512 here";
  uint64_t stream = 900;
  for (int64_t d : {48, 64, 13, 24})
    for (int64_t m : {1, 5, 49}) {
      Problem p(m, 77, 2, d, stream += 4);
      std::vector<float> avx2 = p.output(), avx512 = p.output();
      attention(p.args(avx2.data(), true, 0, p.heads), Isa::avx2);
      attention(p.args(avx512.data(), true, 0, p.heads), Isa::avx512f);
      EXPECT_EQ(avx2, avx512) << "d " << d << " m " << m;
    }
}

}  // namespace
}  // namespace ditmk::cpu
