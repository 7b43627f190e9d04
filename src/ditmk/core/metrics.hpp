#pragma once
// How close a result is to a reference: the numbers every accuracy gate and report uses.
#include <cmath>
#include <span>

namespace ditmk {

struct Agreement {
  double cosine = 0, rel_l2 = 0, max_abs_err = 0;
};

// rel_l2 = |a - ref| / |ref|. Two all-zero vectors count as identical.
inline Agreement agreement(std::span<const double> a, std::span<const double> ref) {
  double dot = 0, na = 0, nr = 0, diff = 0, max_abs = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    dot += a[i] * ref[i], na += a[i] * a[i], nr += ref[i] * ref[i];
    const double d = a[i] - ref[i];
    diff += d * d;
    max_abs = std::fmax(max_abs, std::fabs(d));
  }
  Agreement m;
  m.cosine = (na == 0 && nr == 0) ? 1.0 : dot / std::sqrt(na * nr);
  m.rel_l2 = nr == 0 ? std::sqrt(diff) : std::sqrt(diff / nr);
  m.max_abs_err = max_abs;
  return m;
}

}  // namespace ditmk
