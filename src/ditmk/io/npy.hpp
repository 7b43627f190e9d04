#pragma once
// NumPy .npy and .npz (C order, little endian): float32, float16, float64, int64, int32, bool.
// Anything else (Fortran order, big endian, other dtypes) is an Error naming the file and array.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ditmk/core/tensor.hpp"

namespace ditmk::io {

// `what` names the array in error messages ("obs.npz:features").
Tensor parse_npy(const std::byte* data, std::size_t size, const std::string& what);
std::string encode_npy(const TensorView& tensor);

Tensor read_npy(const std::string& path);
void write_npy(const std::string& path, const TensorView& tensor);

// Arrays of an .npz by name (without the .npy suffix). Every size an entry declares is checked against
// the archive before anything is allocated, so nothing read exceeds about 1032x the archive's size.
std::map<std::string, Tensor> read_npz(const std::string& path);
std::map<std::string, Tensor> read_npz_bytes(const std::byte* data, std::size_t size, const std::string& what);
void write_npz(const std::string& path, const std::vector<std::pair<std::string, TensorView>>& arrays);

}  // namespace ditmk::io
