#pragma once
// An io tensor's elements <-> the bytes the device holds for it. A tile tensor is tilized per matrix
// (the last two dims; the leading dims outermost, tiles row-major within a matrix) and each tile
// encoded in its format (bf16, bfp8_b or fp32, the tile codecs of src/ditmk/format; an integer
// format's elements in tile order, each in its width, little-endian); a row_major tensor is its
// elements one after another in the format's element encoding.
#include <cstddef>
#include <span>
#include <vector>

#include "ditmk/core/tensor.hpp"
#include "ditmk/tt/program/descriptor.hpp"

namespace ditmk::tt::dialect {

// `values` must have the tensor's shape; floats for float formats, integers for integer ones; or,
// for a tensor of any other format than uint8, a 1-D uint8 array of exactly its stored bytes (a
// packed arena, pre-tilized tiles), taken as they are. Errors name the tensor and `what` (the .npy file).
std::vector<std::byte> encode_tensor(const TensorDescriptor& tensor, const Tensor& values, std::string_view what);
// float32 for float formats, int32 for the integer ones (uint32 as its bit pattern).
Tensor decode_tensor(const TensorDescriptor& tensor, std::span<const std::byte> bytes);

}  // namespace ditmk::tt::dialect
