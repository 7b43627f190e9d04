#include "ditmk/model/encodings.hpp"

#include <cmath>

namespace ditmk::model {

std::vector<double> timestep_sinusoid(int t, int channels) {
  const int half = channels / 2;
  std::vector<double> emb(channels);
  for (int j = 0; j < half; ++j) {
    const double f = std::exp(-std::log(10000.0) * j / double(half - 1));
    emb[j] = std::cos(t * f);
    emb[half + j] = std::sin(t * f);
  }
  return emb;
}

std::vector<double> tau_sinusoid(int t, int width) {
  const int half = width / 2;
  std::vector<double> tau(width);
  for (int j = 0; j < half; ++j) {
    const double g = std::exp(-double(j) * std::log(10000.0) / double(half));
    tau[j] = std::sin(t * g);
    tau[half + j] = std::cos(t * g);
  }
  return tau;
}

}  // namespace ditmk::model
