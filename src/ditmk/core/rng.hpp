#pragma once
// Deterministic random numbers, identical on every platform and thread count: a counter-based
// generator (SplitMix64 of seed and index), so element i of a stream never depends on how many
// values were drawn before it or by which thread. std::normal_distribution is avoided on purpose:
// its algorithm is implementation-defined.
#include <cmath>
#include <cstdint>

namespace ditmk {

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class CounterRng {
 public:
  // stream separates independent uses of one seed (tensor index, noise, features...).
  CounterRng(uint64_t seed, uint64_t stream) : key_(splitmix64(seed ^ splitmix64(stream + 0x51ed27))) {}

  uint64_t bits(uint64_t index) const { return splitmix64(key_ ^ splitmix64(index)); }
  // uniform in (0, 1): never 0, so log() below is safe
  double uniform(uint64_t index) const { return (double(bits(index) >> 11) + 0.5) * 0x1.0p-53; }
  // standard normal by Box-Muller on two uniforms derived from one index
  double normal(uint64_t index) const {
    const double u1 = uniform(2 * index), u2 = uniform(2 * index + 1);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  uint64_t key_;
};

}  // namespace ditmk
