#include "ditmk/io/safetensors.hpp"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/io/json_text.hpp"

namespace ditmk::io {

using nlohmann::json;

namespace {

constexpr uint64_t kMaxElements = uint64_t(1) << 48;

uint64_t read_u64_le(const std::byte* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | uint64_t(p[i]);
  return v;
}

TensorEntry parse_entry(const std::string& what, const std::string& name, const json& value, uint64_t data_size) {
  if (!value.is_object()) fail("{}: tensor '{}': header entry is not an object", what, name);
  TensorEntry e;
  const auto dtype = value.find("dtype");
  if (dtype == value.end() || !dtype->is_string()) fail("{}: tensor '{}': missing dtype", what, name);
  if (!parse_dtype(dtype->get<std::string>(), e.dtype))
    fail("{}: tensor '{}': unsupported dtype {}", what, name, dtype->get<std::string>());
  const auto shape = value.find("shape");
  if (shape == value.end() || !shape->is_array()) fail("{}: tensor '{}': missing shape", what, name);
  uint64_t numel = 1;
  for (const auto& d : *shape) {
    if (!d.is_number_unsigned()) fail("{}: tensor '{}': shape entries must be non-negative integers", what, name);
    const uint64_t dim = d.get<uint64_t>();
    // each dimension too, not just the product: behind a zero any dimension would pass
    if (dim > kMaxElements || (dim != 0 && numel > kMaxElements / dim))
      fail("{}: tensor '{}': shape too large", what, name);
    numel *= dim;
    e.shape.push_back(int64_t(dim));
  }
  const auto offsets = value.find("data_offsets");
  if (offsets == value.end() || !offsets->is_array() || offsets->size() != 2 || !(*offsets)[0].is_number_unsigned() ||
      !(*offsets)[1].is_number_unsigned())
    fail("{}: tensor '{}': data_offsets must be [begin, end]", what, name);
  e.begin = (*offsets)[0].get<uint64_t>();
  e.end = (*offsets)[1].get<uint64_t>();
  if (e.begin > e.end || e.end > data_size)
    fail("{}: tensor '{}': data_offsets [{}, {}] outside the data section of {} bytes", what, name, e.begin, e.end,
         data_size);
  const uint64_t expected = numel * dtype_size(e.dtype);
  if (e.end - e.begin != expected)
    fail("{}: tensor '{}': {} bytes for shape {} {} (expected {})", what, name, e.end - e.begin,
         shape_str(e.shape), dtype_name(e.dtype), expected);
  return e;
}

}  // namespace

SafetensorsHeader parse_safetensors_header(const std::byte* data, std::size_t size, const std::string& what) {
  if (size < 8) fail("{}: truncated: {} bytes, too short for a safetensors header", what, size);
  const uint64_t header_len = read_u64_le(data);
  if (header_len > kMaxSafetensorsHeader)
    fail("{}: header length {} exceeds the {} byte bound", what, header_len, kMaxSafetensorsHeader);
  if (header_len > size - 8) fail("{}: truncated: header length {} but only {} bytes follow", what, header_len, size - 8);
  const json header = parse_json_bounded({reinterpret_cast<const char*>(data + 8), std::size_t(header_len)}, what);
  if (header.is_discarded() || !header.is_object()) fail("{}: header is not a well-formed JSON object", what);
  SafetensorsHeader parsed;
  parsed.data_offset = 8 + header_len;
  const uint64_t data_size = size - parsed.data_offset;
  for (const auto& [name, value] : header.items()) {
    if (name == "__metadata__") {
      if (!value.is_object()) fail("{}: __metadata__ is not an object", what);
      for (const auto& [k, v] : value.items()) parsed.metadata[k] = v.is_string() ? v.get<std::string>() : v.dump();
      continue;
    }
    parsed.entries.emplace(name, parse_entry(what, name, value, data_size));
  }
  std::vector<std::pair<const std::string*, const TensorEntry*>> by_offset;
  for (const auto& [name, e] : parsed.entries)
    if (e.end > e.begin) by_offset.emplace_back(&name, &e);  // empty tensors occupy no bytes
  std::sort(by_offset.begin(), by_offset.end(),
            [](const auto& a, const auto& b) { return a.second->begin < b.second->begin; });
  for (std::size_t i = 1; i < by_offset.size(); ++i) {
    const auto& [prev_name, prev] = by_offset[i - 1];
    const auto& [name, e] = by_offset[i];
    if (e->begin < prev->end)
      fail("{}: tensors '{}' and '{}' overlap in the data section", what, *prev_name, *name);
  }
  return parsed;
}

SafetensorsFile::SafetensorsFile(const std::string& path)
    : file_(path), header_(parse_safetensors_header(file_.data(), file_.size(), path)) {}

TensorView SafetensorsFile::view(const std::string& name) const {
  const auto it = header_.entries.find(name);
  if (it == header_.entries.end()) fail("{}: missing tensor '{}'", path(), name);
  return {it->second.dtype, it->second.shape, file_.data() + header_.data_offset + it->second.begin};
}

void write_safetensors(const std::string& path, const std::vector<TensorDecl>& tensors, const FillTensor& fill,
                       const std::map<std::string, std::string>& metadata,
                       const std::function<void(std::size_t)>& on_bytes) {
  json header = json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  uint64_t offset = 0;
  std::vector<std::size_t> sizes;
  for (const auto& t : tensors) {
    const std::size_t nbytes = std::size_t(shape_numel(t.shape)) * dtype_size(t.dtype);
    header[t.name] = {{"dtype", dtype_name(t.dtype)}, {"shape", t.shape}, {"data_offsets", {offset, offset + nbytes}}};
    offset += nbytes;
    sizes.push_back(nbytes);
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // keeps the data section 8-byte aligned
  AtomicFile file(path);
  std::byte len_bytes[8];
  for (int i = 0; i < 8; ++i) len_bytes[i] = std::byte((uint64_t(text.size()) >> (8 * i)) & 0xff);
  file.write(len_bytes, 8);
  file.write(text.data(), text.size());
  std::vector<std::byte> buffer;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    buffer.assign(sizes[i], std::byte{0});
    fill(i, buffer.data(), sizes[i]);
    file.write(buffer.data(), sizes[i]);
    if (on_bytes) on_bytes(sizes[i]);
  }
  file.commit();
}

void write_safetensors(const std::string& path, const std::vector<std::pair<std::string, TensorView>>& tensors,
                       const std::map<std::string, std::string>& metadata) {
  std::vector<TensorDecl> decls;
  for (const auto& [name, view] : tensors) decls.push_back({name, view.dtype, view.shape});
  write_safetensors(
      path, decls, [&](std::size_t i, std::byte* out, std::size_t n) { std::memcpy(out, tensors[i].second.data, n); },
      metadata);
}

}  // namespace ditmk::io
