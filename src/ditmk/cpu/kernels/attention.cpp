#include "ditmk/cpu/kernels/attention.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "ditmk/core/error.hpp"

namespace ditmk::cpu {

namespace {

// Keys are padded to whole blocks of 16, in scratch and in prepared keys, whatever the vector width,
// and the softmax sums run over 16 lanes: the layout and the order of every sum are then the same
// for every instruction set.
constexpr int64_t kBlock = 16;
constexpr int64_t kMaxRowTile = 6;     // the tallest row tile of any instruction set (Tiles::NR)
constexpr int64_t kHeaderFloats = 16;  // prepared keys open with their shape (one cache line)

int64_t padded_keys(int64_t keys) { return (keys + kBlock - 1) / kBlock * kBlock; }

// The key-side arguments, shared by attention and attention_prepare_keys (which has no q or out).
void check_key_args(const AttentionArgs& a) {
  require(a.k != nullptr, "attention: k is null");
  require(a.keys >= 1 && a.heads >= 1 && a.head_dim >= 1, "attention: empty shape (keys {}, heads {}, head_dim {})",
          a.keys, a.heads, a.head_dim);
  require(a.k_stride >= a.heads * a.head_dim, "attention: k_stride {} is below heads * head_dim = {}", a.k_stride,
          a.heads * a.head_dim);
  require(a.h_begin >= 0 && a.h_begin < a.h_end && a.h_end <= a.heads,
          "attention: head range [{}, {}) not inside [0, {})", a.h_begin, a.h_end, a.heads);
  if (a.key_mask != nullptr) {
    int64_t admissible = 0;
    for (int64_t j = 0; j < a.keys; ++j) admissible += a.key_mask[j] != 0;
    require(admissible > 0, "attention: key_mask admits none of the {} keys, so no query row has a key to attend to",
            a.keys);
  }
}

int64_t collect_admissible(const AttentionArgs& a, int32_t* admissible) {
  int64_t n = 0;
  for (int64_t j = 0; j < a.keys; ++j)
    if (!a.key_mask || a.key_mask[j]) admissible[n++] = int32_t(j);
  return n;
}

// GCC vector types of one register's width (SSE, AVX2, AVX-512): each instruction set runs the same
// templates with its own width, in functions compiled for it. Vectors cross only always-inline
// helpers, never a call boundary, so GCC's notes on their ABI do not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
#define DITMK_INLINE __attribute__((always_inline)) inline

template <int64_t W>
struct Vec;
template <>
struct Vec<4> {
  using f = float __attribute__((vector_size(16)));
  using i = int32_t __attribute__((vector_size(16)));
};
template <>
struct Vec<8> {
  using f = float __attribute__((vector_size(32)));
  using i = int32_t __attribute__((vector_size(32)));
};
template <>
struct Vec<16> {
  using f = float __attribute__((vector_size(64)));
  using i = int32_t __attribute__((vector_size(64)));
};
template <class V>
constexpr int64_t kW = int64_t(sizeof(V) / sizeof(float));
template <class V>
using IntVec = typename Vec<kW<V>>::i;

template <class V>
DITMK_INLINE V load(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class V>
DITMK_INLINE void store(float* p, V v) {
  std::memcpy(p, &v, sizeof v);
}
template <class V>
DITMK_INLINE V splat(float x) {
  return V{} + x;
}
template <class V>
DITMK_INLINE V vmax(V x, V y) {
  return x > y ? x : y;
}
template <class V, std::size_t... I>
DITMK_INLINE IntVec<V> lane_index(std::index_sequence<I...>) {
  return IntVec<V>{int32_t(I)...};
}
template <class V>
DITMK_INLINE IntVec<V> lane_index() {
  return lane_index<V>(std::make_index_sequence<kW<V>>());
}

// Lane u swapped with lane u ^ S.
template <int64_t S, class V, std::size_t... I>
DITMK_INLINE V swap_lanes(V x, std::index_sequence<I...>) {
  return __builtin_shufflevector(x, x, int(int64_t(I) ^ S)...);
}

// Lane reductions as a tree, 16 lanes -> 8 -> 4 -> 2 -> 1, lane u meeting lane u + step: a fixed
// order (the same for every width, see sum_blocks) of 4 dependent steps instead of 15.
template <class V>
DITMK_INLINE float sum_lanes(V x) {
  constexpr auto seq = std::make_index_sequence<kW<V>>();
  if constexpr (kW<V> > 8) x += swap_lanes<8>(x, seq);
  if constexpr (kW<V> > 4) x += swap_lanes<4>(x, seq);
  x += swap_lanes<2>(x, seq);
  x += swap_lanes<1>(x, seq);
  return x[0];
}
template <class V>
DITMK_INLINE float max_lanes(V x) {
  constexpr auto seq = std::make_index_sequence<kW<V>>();
  if constexpr (kW<V> > 8) x = vmax(x, swap_lanes<8>(x, seq));
  if constexpr (kW<V> > 4) x = vmax(x, swap_lanes<4>(x, seq));
  x = vmax(x, swap_lanes<2>(x, seq));
  x = vmax(x, swap_lanes<1>(x, seq));
  return x[0];
}
// The sum of 16 lanes held as G = 16 / W vectors (vector g holds lanes g*W .. g*W + W-1): halves are
// added first, so the pairs are those of sum_lanes on one 16-lane vector.
template <class V, int64_t G>
DITMK_INLINE float sum_blocks(V (&x)[G]) {
  for (int64_t n = G; n > 1; n /= 2)
    for (int64_t g = 0; g < n / 2; ++g) x[g] += x[g + n / 2];
  return sum_lanes(x[0]);
}

// e^v for v <= 0 (softmax arguments after the max is subtracted), to about 2 ulp: v = n ln2 + r,
// a degree-6 polynomial for e^r (Cephes' expf coefficients), times 2^n built in the exponent bits.
// n is rounded with the 1.5 * 2^23 trick, which is exact for |n| < 2^22.
template <class V>
DITMK_INLINE V exp_nonpositive(V v) {
  v = v < -87.0f ? splat<V>(-87.0f) : v;
  const V n = (v * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  V r = v - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  V p = splat<V>(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + (r + 1.0f);
  const IntVec<V> bits = (__builtin_convertvector(n, IntVec<V>) + 127) << 23;
  V scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

// One step of a W x W transpose held in W vectors: swaps bit B of the row index with bit B of the
// column index, between the rows r and r + 2^B. After the steps for every bit, x[c] holds what
// column c held.
constexpr int from_lower(int64_t c, int64_t bit, int64_t w) { return int(c & bit ? w + c - bit : c); }
constexpr int from_upper(int64_t c, int64_t bit, int64_t w) { return int(c & bit ? w + c : c + bit); }
template <int64_t B, class V, std::size_t... I>
DITMK_INLINE void transpose_step(V* x, std::index_sequence<I...>) {
  constexpr int64_t bit = int64_t(1) << B, w = kW<V>;
  for (int64_t r = 0; r < w; ++r)
    if (!(r & bit)) {
      const V lo = x[r], hi = x[r + bit];
      x[r] = __builtin_shufflevector(lo, hi, from_lower(int64_t(I), bit, w)...);
      x[r + bit] = __builtin_shufflevector(lo, hi, from_upper(int64_t(I), bit, w)...);
    }
}
template <class V>
DITMK_INLINE void transpose(V* x) {
  constexpr auto seq = std::make_index_sequence<kW<V>>();
  transpose_step<0>(x, seq);
  transpose_step<1>(x, seq);
  if constexpr (kW<V> > 4) transpose_step<2>(x, seq);
  if constexpr (kW<V> > 8) transpose_step<3>(x, seq);
}

// Head h's admissible keys transposed and padded with zeros to whole 16-key blocks:
// key_t[c * padded + jj] = k[admissible[jj], h * d + c]. W keys x W columns go through registers at
// a time; the columns past the last multiple of W are copied one by one.
template <class V>
DITMK_INLINE void transpose_keys(const AttentionArgs& a, int64_t h, const int32_t* admissible, int64_t n_keys,
                                 float* key_t) {
  constexpr int64_t w = kW<V>;
  const int64_t d = a.head_dim, padded = padded_keys(n_keys), dw = d / w * w;
  const float* k = a.k + h * d;
  for (int64_t j0 = 0; j0 < padded; j0 += w) {
    const int64_t in_block = n_keys - j0 < w ? n_keys - j0 : w;  // <= 0 in a padding-only group
    for (int64_t c0 = 0; c0 < dw; c0 += w) {
      V x[w];
      for (int64_t u = 0; u < w; ++u) x[u] = u < in_block ? load<V>(k + admissible[j0 + u] * a.k_stride + c0) : V{};
      transpose(x);
      for (int64_t c = 0; c < w; ++c) store(key_t + (c0 + c) * padded + j0, x[c]);
    }
    for (int64_t c = dw; c < d; ++c)
      for (int64_t u = 0; u < w; ++u)
        key_t[c * padded + j0 + u] = u < in_block ? k[admissible[j0 + u] * a.k_stride + c] : 0.0f;
  }
}

// An instruction set's register tiles: vectors V, tiles of NR query rows, NV score vectors per row
// at a time in the score loop (NR x NV accumulators, NV key vectors and a broadcast), REGS vector
// registers in all.
template <class V_, int64_t NR_, int64_t NV_, int64_t REGS_>
struct Tiles {
  using V = V_;
  static constexpr int64_t NR = NR_, NV = NV_, REGS = REGS_;
  static_assert(NR <= kMaxRowTile && NR * NV + NV + 1 <= REGS);
};
using Avx512Tiles = Tiles<Vec<16>::f, 6, 4, 32>;
using Avx2Tiles = Tiles<Vec<8>::f, 4, 3, 16>;
using PortableTiles = Tiles<Vec<4>::f, 3, 3, 16>;

// Vectors per row of the weighted sum's accumulators: the most (a divisor of the row's vectors)
// that fit with the V row's vectors and a broadcast.
constexpr int64_t value_chunk(int64_t vectors, int64_t rows, int64_t regs) {
  for (int64_t cw = vectors; cw > 1; --cw)
    if (vectors % cw == 0 && rows * cw + cw + 1 <= regs) return cw;
  return 1;
}

// What the row tiles of one head read and write.
struct HeadData {
  const float* key_t;         // [head_dim][padded]: the admissible keys transposed, zero-padded
  const float* v;             // the head's first column of v
  const int32_t* admissible;  // [n_keys] key indices
  float* scores;              // kMaxRowTile * padded floats: a tile's scores, then probabilities
  int64_t n_keys, padded;
};

// A tile's scores (then probabilities) are stored in groups of W keys, group-major: the keys
// g*W .. g*W + W-1 of row r at scores[(g * NR + r) * W], so the weighted sum finds every row's
// probability of a key at a fixed offset from one pointer instead of needing a pointer per row.

// Scaled scores of NR query rows against NB groups of W keys: NR x NB accumulators, so each key_t
// load serves NR rows and each q broadcast NB groups (one accumulator per row and group would wait
// on the FMA latency). Every score is one chain over c = 0..d-1, whatever the tile and the width.
template <class V, int64_t NR, int64_t NB>
DITMK_INLINE void score_groups(const float* q, int64_t q_stride, int64_t d, const float* key_t, int64_t padded,
                               float scale, float* scores) {
  constexpr int64_t w = kW<V>;
  V acc[NR][NB] = {};
  for (int64_t c = 0; c < d; ++c) {
    V k[NB];
    for (int64_t b = 0; b < NB; ++b) k[b] = load<V>(key_t + c * padded + b * w);
    for (int64_t r = 0; r < NR; ++r) {
      const float qc = q[r * q_stride + c];
      for (int64_t b = 0; b < NB; ++b) acc[r][b] += qc * k[b];
    }
  }
  for (int64_t r = 0; r < NR; ++r)
    for (int64_t b = 0; b < NB; ++b) store(scores + (b * NR + r) * w, acc[r][b] * scale);
}

// The last `groups` (< NV) groups of a score row.
template <class V, int64_t NR, int64_t NB>
DITMK_INLINE void score_last_groups(int64_t groups, const float* q, int64_t q_stride, int64_t d, const float* key_t,
                                    int64_t padded, float scale, float* scores) {
  if constexpr (NB > 0) {
    if (groups == NB) score_groups<V, NR, NB>(q, q_stride, d, key_t, padded, scale, scores);
    else score_last_groups<V, NR, NB - 1>(groups, q, q_stride, d, key_t, padded, scale, scores);
  }
}

// In place, the NR rows of a tile's scores become unnormalised probabilities, padding keys getting
// 0, and inv[r] the reciprocal of row r's sum. The rows go through each step together so that their
// dependency chains (the max, the sum and their lane reductions) overlap. Statistics are fp32; the
// sums run per lane of a 16-key block, whatever W is.
template <class V, int64_t NR>
DITMK_INLINE void softmax_rows(float* s, int64_t n_keys, int64_t padded, float* inv) {
  constexpr int64_t w = kW<V>, G = kBlock / w;  // groups per 16-key block
  const V minus_inf = splat<V>(-std::numeric_limits<float>::infinity());
  const int64_t last = padded / kBlock - 1;  // the one block that may hold padding keys
  IntVec<V> real[G];  // the lanes of the last block's groups that hold keys, not padding
  for (int64_t g = 0; g < G; ++g) real[g] = lane_index<V>() < int32_t(n_keys - (last * G + g) * w);
  V block_max[NR];
  for (int64_t r = 0; r < NR; ++r) block_max[r] = minus_inf;
  for (int64_t b = 0; b <= last; ++b)
    for (int64_t g = 0; g < G; ++g)
      for (int64_t r = 0; r < NR; ++r) {
        const V x = load<V>(s + ((b * G + g) * NR + r) * w);
        block_max[r] = vmax(block_max[r], b < last ? x : real[g] ? x : minus_inf);
      }
  float max_score[NR];
  for (int64_t r = 0; r < NR; ++r) max_score[r] = max_lanes(block_max[r]);
  V block_sum[NR][G] = {};
  for (int64_t b = 0; b <= last; ++b)
    for (int64_t g = 0; g < G; ++g)
      for (int64_t r = 0; r < NR; ++r) {
        float* x = s + ((b * G + g) * NR + r) * w;
        V p = exp_nonpositive(load<V>(x) - max_score[r]);
        if (b == last) p = real[g] ? p : V{};
        store(x, p);
        block_sum[r][g] += p;
      }
  for (int64_t r = 0; r < NR; ++r) inv[r] = 1.0f / sum_blocks(block_sum[r]);
}

// out[r] = inv[r] * sum_jj p[r][jj] V[admissible[jj]] for NR rows, a chunk of each output row held
// in NR x CW registers over all keys: each V load serves NR rows. Each output is one chain over jj
// in key order, whatever the chunking.
template <class T, int64_t D, int64_t NR>
DITMK_INLINE void weighted_values(const HeadData& hd, int64_t v_stride, const float* p, const float* inv, float* out,
                                  int64_t out_stride) {
  using V = typename T::V;
  constexpr int64_t w = kW<V>;
  static_assert(D % w == 0);
  constexpr int64_t CW = value_chunk(D / w, NR, T::REGS);
  for (int64_t c0 = 0; c0 < D / w; c0 += CW) {
    V acc[NR][CW] = {};
    const float* pg = p;
    for (int64_t j0 = 0; j0 < hd.n_keys; j0 += w, pg += NR * w) {
      const int64_t group_end = j0 + w < hd.n_keys ? j0 + w : hd.n_keys;
      for (int64_t jj = j0; jj < group_end; ++jj) {
        const float* row = hd.v + hd.admissible[jj] * v_stride + c0 * w;
        V vj[CW];
        for (int64_t c = 0; c < CW; ++c) vj[c] = load<V>(row + c * w);
        for (int64_t r = 0; r < NR; ++r) {
          const float pj = pg[r * w + jj - j0];
          for (int64_t c = 0; c < CW; ++c) acc[r][c] += pj * vj[c];
        }
      }
    }
    for (int64_t r = 0; r < NR; ++r)
      for (int64_t c = 0; c < CW; ++c) store(out + r * out_stride + (c0 + c) * w, acc[r][c] * inv[r]);
  }
}

// Row r's probability of key jj in a tile's group-major layout.
template <int64_t W, int64_t NR>
DITMK_INLINE float probability(const float* p, int64_t r, int64_t jj) {
  return p[(jj / W * NR + r) * W + jj % W];
}

// Any head_dim: W columns at a time for NR rows, then the last d % W columns one by one, with the
// same per-output chain as weighted_values.
template <class V, int64_t NR>
DITMK_INLINE void weighted_values_any(const HeadData& hd, int64_t d, int64_t v_stride, const float* p,
                                      const float* inv, float* out, int64_t out_stride) {
  constexpr int64_t w = kW<V>;
  int64_t c0 = 0;
  for (; c0 + w <= d; c0 += w) {
    V acc[NR] = {};
    for (int64_t jj = 0; jj < hd.n_keys; ++jj) {
      const V vj = load<V>(hd.v + hd.admissible[jj] * v_stride + c0);
      for (int64_t r = 0; r < NR; ++r) acc[r] += probability<w, NR>(p, r, jj) * vj;
    }
    for (int64_t r = 0; r < NR; ++r) store(out + r * out_stride + c0, acc[r] * inv[r]);
  }
  for (int64_t c = c0; c < d; ++c)
    for (int64_t r = 0; r < NR; ++r) {
      float acc = 0.0f;
      for (int64_t jj = 0; jj < hd.n_keys; ++jj)
        acc += probability<w, NR>(p, r, jj) * hd.v[hd.admissible[jj] * v_stride + c];
      out[r * out_stride + c] = acc * inv[r];
    }
}

// Query rows [i0, i0 + NR) of head h: scores over the key groups (NV at a time, then the rest),
// softmax, then the weighted sum of V rows.
template <class T, int64_t NR>
DITMK_INLINE void attend_rows(const AttentionArgs& a, int64_t h, int64_t i0, const HeadData& hd) {
  using V = typename T::V;
  constexpr int64_t w = kW<V>;
  const int64_t d = a.head_dim, padded = hd.padded, groups = padded / w;
  const float* q = a.q + i0 * a.q_stride + h * d;
  int64_t g = 0;
  for (; g + T::NV <= groups; g += T::NV)
    score_groups<V, NR, T::NV>(q, a.q_stride, d, hd.key_t + g * w, padded, a.scale, hd.scores + g * NR * w);
  score_last_groups<V, NR, T::NV - 1>(groups - g, q, a.q_stride, d, hd.key_t + g * w, padded, a.scale,
                                      hd.scores + g * NR * w);
  float inv[NR];
  softmax_rows<V, NR>(hd.scores, hd.n_keys, padded, inv);
  float* out = a.out + i0 * a.out_stride + h * d;
  if (d == 48) weighted_values<T, 48, NR>(hd, a.v_stride, hd.scores, inv, out, a.out_stride);
  else if (d == 64) weighted_values<T, 64, NR>(hd, a.v_stride, hd.scores, inv, out, a.out_stride);
  else weighted_values_any<V, NR>(hd, d, a.v_stride, hd.scores, inv, out, a.out_stride);
}

// A tile of `rows` rows (1..NR) starting at row i0.
template <class T, int64_t NR>
DITMK_INLINE void attend_tile(const AttentionArgs& a, int64_t h, int64_t i0, int64_t rows, const HeadData& hd) {
  if constexpr (NR > 0) {
    if (rows == NR) attend_rows<T, NR>(a, h, i0, hd);
    else attend_tile<T, NR - 1>(a, h, i0, rows, hd);
  }
}

// Every query row of heads [h_begin, h_end), in as few row tiles as T::NR allows with heights
// differing by at most one (49 rows: 4 x 6 + 5 x 5, not 8 x 6 + 1, as a lone row runs at a fraction
// of the speed). Rows are independent and each result is computed the same way whatever tile holds
// its row, so the output does not depend on m, on the tiling or on how heads are split over threads.
template <class T>
DITMK_INLINE void attend_heads(const AttentionArgs& a, HeadData hd, float* key_t) {
  const int64_t tiles = (a.m + T::NR - 1) / T::NR, base = a.m / tiles, taller = a.m % tiles;
  const int64_t head_floats = a.head_dim * hd.padded;
  for (int64_t h = a.h_begin; h < a.h_end; ++h) {
    if (a.prepared_keys != nullptr) {
      hd.key_t = a.prepared_keys + kHeaderFloats + h * head_floats;
    } else {
      transpose_keys<typename T::V>(a, h, hd.admissible, hd.n_keys, key_t);
      hd.key_t = key_t;
    }
    hd.v = a.v + h * a.head_dim;
    for (int64_t t = 0, i0 = 0; t < tiles; ++t) {
      const int64_t rows = base + (t < taller);
      attend_tile<T, T::NR>(a, h, i0, rows, hd);
      i0 += rows;
    }
  }
}

__attribute__((target("avx512f"))) void attend_heads_avx512(const AttentionArgs& a, const HeadData& hd, float* key_t) {
  attend_heads<Avx512Tiles>(a, hd, key_t);
}
// Every AVX2 CPU has FMA, and with it this code does the same roundings as the AVX-512 code.
__attribute__((target("avx2,fma"))) void attend_heads_avx2(const AttentionArgs& a, const HeadData& hd, float* key_t) {
  attend_heads<Avx2Tiles>(a, hd, key_t);
}
void attend_heads_portable(const AttentionArgs& a, const HeadData& hd, float* key_t) {
  attend_heads<PortableTiles>(a, hd, key_t);
}

__attribute__((target("avx512f"))) void transpose_heads_avx512(const AttentionArgs& a, const int32_t* admissible,
                                                               int64_t n_keys, float* prepared) {
  for (int64_t h = a.h_begin; h < a.h_end; ++h)
    transpose_keys<Vec<16>::f>(a, h, admissible, n_keys, prepared + h * a.head_dim * padded_keys(n_keys));
}
__attribute__((target("avx2"))) void transpose_heads_avx2(const AttentionArgs& a, const int32_t* admissible,
                                                          int64_t n_keys, float* prepared) {
  for (int64_t h = a.h_begin; h < a.h_end; ++h)
    transpose_keys<Vec<8>::f>(a, h, admissible, n_keys, prepared + h * a.head_dim * padded_keys(n_keys));
}
void transpose_heads_portable(const AttentionArgs& a, const int32_t* admissible, int64_t n_keys, float* prepared) {
  for (int64_t h = a.h_begin; h < a.h_end; ++h)
    transpose_keys<Vec<4>::f>(a, h, admissible, n_keys, prepared + h * a.head_dim * padded_keys(n_keys));
}

}  // namespace

// one head's keys transposed, a tile of scores, the admissible key indices
std::size_t attention_scratch_floats(int64_t keys, int64_t head_dim) {
  return std::size_t(padded_keys(keys)) * std::size_t(head_dim + kMaxRowTile + 1);
}

std::size_t attention_prepared_keys_floats(int64_t keys, int64_t heads, int64_t head_dim) {
  return std::size_t(kHeaderFloats + padded_keys(keys) * heads * head_dim);
}

void check_attention_args(const AttentionArgs& a) {
  require(a.q && a.k && a.v && a.out, "attention: q, k, v or out is null");
  require(a.m >= 1 && a.keys >= 1 && a.heads >= 1 && a.head_dim >= 1,
          "attention: empty shape (m {}, keys {}, heads {}, head_dim {})", a.m, a.keys, a.heads, a.head_dim);
  const int64_t width = a.heads * a.head_dim;
  require(a.q_stride >= width && a.k_stride >= width && a.v_stride >= width && a.out_stride >= width,
          "attention: a row stride is below heads * head_dim = {}", width);
  require(std::isfinite(a.scale) && a.scale > 0.0f, "attention: scale must be positive and finite, got {}", a.scale);
  check_key_args(a);
}

void attention_prepare_keys(const AttentionArgs& a, float* prepared, std::size_t floats) {
  check_key_args(a);
  const std::size_t need = attention_prepared_keys_floats(a.keys, a.heads, a.head_dim);
  require(prepared != nullptr && floats >= need, "attention: prepared keys have {} floats, need {}", floats, need);
  std::vector<int32_t> admissible(std::size_t(a.keys));
  const int64_t n_keys = collect_admissible(a, admissible.data());
  // Only the call owning head 0 writes the header, so threads preparing disjoint heads never write
  // the same floats.
  if (a.h_begin == 0) {
    const float header[4] = {float(a.keys), float(a.heads), float(a.head_dim), float(n_keys)};
    std::memset(prepared, 0, kHeaderFloats * sizeof(float));
    std::memcpy(prepared, header, sizeof header);
  }
  // A copy: every instruction set lays the keys out identically.
  const Isa isa = selected_isa();
  float* heads = prepared + kHeaderFloats;
  if (isa >= Isa::avx512f) transpose_heads_avx512(a, admissible.data(), n_keys, heads);
  else if (isa == Isa::avx2) transpose_heads_avx2(a, admissible.data(), n_keys, heads);
  else transpose_heads_portable(a, admissible.data(), n_keys, heads);
}

void attention(const AttentionArgs& a, Isa isa) {
  check_attention_args(a);
  require(isa_supported(isa), "attention: instruction set {} is not supported here", isa_name(isa));
  const std::size_t need = attention_scratch_floats(a.keys, a.head_dim);
  require(a.scratch != nullptr && a.scratch_floats >= need, "attention: scratch has {} floats, needs {}", a.scratch_floats,
          need);
  const int64_t padded = padded_keys(a.keys);
  float* key_t = a.scratch;
  float* scores = key_t + padded * a.head_dim;
  auto* admissible = reinterpret_cast<int32_t*>(scores + kMaxRowTile * padded);
  const int64_t n_keys = collect_admissible(a, admissible);
  if (a.prepared_keys != nullptr) {
    const float* header = a.prepared_keys;
    require(header[0] == float(a.keys) && header[1] == float(a.heads) && header[2] == float(a.head_dim) &&
                header[3] == float(n_keys),
            "attention: prepared_keys hold {} keys ({} admissible), {} heads of {}; the arguments have {} keys ({} "
            "admissible), {} heads of {}",
            header[0], header[3], header[1], header[2], a.keys, n_keys, a.heads, a.head_dim);
  }
  const HeadData hd{nullptr, nullptr, admissible, scores, n_keys, padded_keys(n_keys)};
  // amx_bf16 machines run the AVX-512 code
  if (isa >= Isa::avx512f) attend_heads_avx512(a, hd, key_t);
  else if (isa == Isa::avx2) attend_heads_avx2(a, hd, key_t);
  else attend_heads_portable(a, hd, key_t);
}

}  // namespace ditmk::cpu
