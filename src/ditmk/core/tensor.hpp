#pragma once
// Tensors: a dtype, a row-major shape and bytes. Tensor owns its bytes (64-byte aligned, so SIMD
// kernels may use aligned loads); TensorView points into memory owned elsewhere (a mapped file).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ditmk/core/dtype.hpp"

namespace ditmk {

using Shape = std::vector<int64_t>;

int64_t shape_numel(const Shape& shape);
std::string shape_str(const Shape& shape);  // "[64, 1536]"

struct TensorView {
  DType dtype = DType::F32;
  Shape shape;
  const std::byte* data = nullptr;

  int64_t numel() const { return shape_numel(shape); }
  std::size_t nbytes() const { return std::size_t(numel()) * dtype_size(dtype); }
  double at(std::size_t i) const { return load_as_double(data, dtype, i); }
  template <typename T>
  const T* as() const { return reinterpret_cast<const T*>(data); }
};

class Tensor {
 public:
  Tensor() = default;
  Tensor(DType dtype, Shape shape);  // zero-filled
  static Tensor from_view(const TensorView& view);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int64_t numel() const { return shape_numel(shape_); }
  std::size_t nbytes() const { return nbytes_; }
  std::byte* bytes() { return data_.get(); }
  const std::byte* bytes() const { return data_.get(); }
  template <typename T>
  T* data() { return reinterpret_cast<T*>(data_.get()); }
  template <typename T>
  const T* data() const { return reinterpret_cast<const T*>(data_.get()); }
  TensorView view() const { return {dtype_, shape_, data_.get()}; }

 private:
  struct FreeAligned {
    void operator()(std::byte* p) const;
  };
  DType dtype_ = DType::F32;
  Shape shape_;
  std::size_t nbytes_ = 0;
  std::unique_ptr<std::byte[], FreeAligned> data_;
};

}  // namespace ditmk
