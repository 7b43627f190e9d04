#pragma once
// safetensors files, memory mapped, with the header checked before any tensor is touched: length
// bound, well-formed JSON, known dtypes, every tensor's bytes inside the data section, byte count =
// product(shape) x dtype size, no two tensors overlapping.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ditmk/core/tensor.hpp"
#include "ditmk/io/mapped_file.hpp"

namespace ditmk::io {

struct TensorEntry {
  DType dtype = DType::F32;
  Shape shape;
  uint64_t begin = 0, end = 0;  // offsets inside the data section
};

// A safetensors file's header: its tensors (offsets inside the data section) and __metadata__.
struct SafetensorsHeader {
  std::size_t data_offset = 0;  // where the data section begins: 8 + the header's length
  std::map<std::string, TensorEntry> entries;
  std::map<std::string, std::string> metadata;
};

// Validates the header of a safetensors file held in `data` (the whole file: the data section's size
// bounds every tensor); throws Error naming `what`.
SafetensorsHeader parse_safetensors_header(const std::byte* data, std::size_t size, const std::string& what);

class SafetensorsFile {
 public:
  explicit SafetensorsFile(const std::string& path);  // maps and validates; throws Error naming the file

  const std::string& path() const { return file_.path(); }
  const FileIdentity& identity() const { return file_.identity(); }
  const std::map<std::string, TensorEntry>& entries() const { return header_.entries; }
  const std::map<std::string, std::string>& metadata() const { return header_.metadata; }
  bool has(const std::string& name) const { return header_.entries.count(name) != 0; }
  TensorView view(const std::string& name) const;

 private:
  MappedFile file_;
  SafetensorsHeader header_;
};

// The largest header ditmk accepts (real releases use well under 1 MiB).
constexpr uint64_t kMaxSafetensorsHeader = 100ull << 20;

// Streams a safetensors file: every tensor is declared up front (the header comes first), then
// each tensor's bytes are produced in declaration order by `fill`, so a gigabyte file never needs to
// sit in memory. The file appears only when complete.
struct TensorDecl {
  std::string name;
  DType dtype;
  Shape shape;
};
using FillTensor = std::function<void(std::size_t index, std::byte* out, std::size_t nbytes)>;
void write_safetensors(const std::string& path, const std::vector<TensorDecl>& tensors, const FillTensor& fill,
                       const std::map<std::string, std::string>& metadata = {},
                       const std::function<void(std::size_t)>& on_bytes = {});
// Convenience for small files: tensors already in memory.
void write_safetensors(const std::string& path, const std::vector<std::pair<std::string, TensorView>>& tensors,
                       const std::map<std::string, std::string>& metadata = {});

}  // namespace ditmk::io
