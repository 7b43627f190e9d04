#include "ditmk/core/tensor.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace ditmk {

int64_t shape_numel(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string shape_str(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

void Tensor::FreeAligned::operator()(std::byte* p) const { std::free(p); }

Tensor::Tensor(DType dtype, Shape shape) : dtype_(dtype), shape_(std::move(shape)) {
  nbytes_ = std::size_t(shape_numel(shape_)) * dtype_size(dtype_);
  const std::size_t rounded = (nbytes_ + 63) / 64 * 64;
  // No transparent huge pages: asking for them (2 MiB-aligned, MADV_HUGEPAGE) made the whole
  // engine slower on the shared 2-core machine (N1.5 bf16 denoise 658 -> 917 ms side by side),
  // although single cold GEMMs gained ~5%.
  auto* p = static_cast<std::byte*>(std::aligned_alloc(64, rounded == 0 ? 64 : rounded));
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, rounded == 0 ? 64 : rounded);
  data_.reset(p);
}

Tensor Tensor::from_view(const TensorView& view) {
  Tensor t(view.dtype, view.shape);
  if (t.nbytes_) std::memcpy(t.bytes(), view.data, t.nbytes_);
  return t;
}

}  // namespace ditmk
