#pragma once
// A dense row-major matrix of activations, the unit the executors' math passes around.
#include <cassert>
#include <vector>

namespace ditmk {

template <typename T>
struct Matrix {
  int rows = 0, cols = 0;
  std::vector<T> data;

  Matrix() = default;
  Matrix(int r, int c) : rows(r), cols(c), data(std::size_t(r) * c, T(0)) {}
  T* row(int r) { return data.data() + std::size_t(r) * cols; }
  const T* row(int r) const { return data.data() + std::size_t(r) * cols; }
  T& operator()(int r, int c) { return data[std::size_t(r) * cols + c]; }
  const T& operator()(int r, int c) const { return data[std::size_t(r) * cols + c]; }
};

}  // namespace ditmk
