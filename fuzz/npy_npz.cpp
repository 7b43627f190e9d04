// The .npy parser and the .npz reader over arbitrary bytes: both see every input (an .npz is a zip
// archive, an .npy a header and its data). An Error is the expected answer to bad input; any other
// exception, a crash, a leak or a sanitizer report is a finding. An array that passes must own
// exactly the bytes its shape and dtype say: the harness reads all of them, which ASan checks.
#include <cstddef>
#include <cstdint>
#include <numeric>

#include "ditmk/core/error.hpp"
#include "ditmk/io/npy.hpp"

namespace {

void touch(const ditmk::Tensor& tensor) {
  if (tensor.nbytes() != std::size_t(tensor.numel()) * ditmk::dtype_size(tensor.dtype())) __builtin_trap();
  volatile std::byte sink = std::accumulate(tensor.bytes(), tensor.bytes() + tensor.nbytes(), std::byte{},
                                            [](std::byte a, std::byte b) { return a ^ b; });
  (void)sink;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto* bytes = reinterpret_cast<const std::byte*>(data);
  try {
    touch(ditmk::io::parse_npy(bytes, size, "fuzz.npy"));
  } catch (const ditmk::Error&) {
  }
  try {
    for (const auto& [name, tensor] : ditmk::io::read_npz_bytes(bytes, size, "fuzz.npz")) touch(tensor);
  } catch (const ditmk::Error&) {
  }
  return 0;
}
