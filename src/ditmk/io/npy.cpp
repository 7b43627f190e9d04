#include "ditmk/io/npy.hpp"

#include <zip.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <unistd.h>

#include "ditmk/core/error.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/io/mapped_file.hpp"

namespace ditmk::io {

namespace {

struct NpyDescr {
  const char* descr;
  DType dtype;
};
constexpr NpyDescr kDescrs[] = {{"<f4", DType::F32}, {"<f2", DType::F16}, {"<f8", DType::F64},
                                {"<i8", DType::I64}, {"<i4", DType::I32}, {"|b1", DType::BOOL}};

// The value text of 'key' in the header's Python dict literal.
std::string dict_value(const std::string& header, const std::string& key, const std::string& what) {
  const std::string quoted = "'" + key + "'";
  const auto k = header.find(quoted);
  if (k == std::string::npos) fail("{}: npy header has no '{}'", what, key);
  auto p = header.find(':', k + quoted.size());
  if (p == std::string::npos) fail("{}: npy header is malformed at '{}'", what, key);
  ++p;
  while (p < header.size() && header[p] == ' ') ++p;
  std::size_t end = p;
  if (header[p] == '(') end = header.find(')', p) + 1;
  else if (header[p] == '\'') end = header.find('\'', p + 1) + 1;
  else end = header.find_first_of(",}", p);
  if (end == std::string::npos || end == 0) fail("{}: npy header is malformed at '{}'", what, key);
  return header.substr(p, end - p);
}

Shape parse_shape(const std::string& text, const std::string& what) {
  Shape shape;
  std::size_t p = 1;
  while (p < text.size()) {
    while (p < text.size() && (text[p] == ' ' || text[p] == ',')) ++p;
    if (p >= text.size() || text[p] == ')') break;
    std::size_t used = 0;
    long long dim = 0;
    try {
      dim = std::stoll(text.substr(p), &used);
    } catch (const std::exception&) {
      fail("{}: npy shape {} is malformed", what, text);
    }
    if (dim < 0) fail("{}: npy shape {} has a negative dimension", what, text);
    shape.push_back(dim);
    p += used;
    while (p < text.size() && text[p] == 'L') ++p;
  }
  return shape;
}

}  // namespace

Tensor parse_npy(const std::byte* data, std::size_t size, const std::string& what) {
  static const char kMagic[] = "\x93NUMPY";
  if (size < 10 || std::memcmp(data, kMagic, 6) != 0) fail("{}: not an .npy array (bad magic)", what);
  const int major = int(data[6]);
  std::size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = std::size_t(data[8]) | (std::size_t(data[9]) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) fail("{}: truncated .npy header", what);
    for (int i = 0; i < 4; ++i) header_len |= std::size_t(data[8 + i]) << (8 * i);
    offset = 12;
  } else {
    fail("{}: unsupported .npy version {}", what, major);
  }
  if (header_len > size - offset) fail("{}: truncated .npy header", what);
  const std::string header(reinterpret_cast<const char*>(data + offset), header_len);
  const std::string descr = dict_value(header, "descr", what);
  const std::string fortran = dict_value(header, "fortran_order", what);
  const Shape shape = parse_shape(dict_value(header, "shape", what), what);
  if (fortran != "False") fail("{}: Fortran-order arrays are not supported (save it C-contiguous)", what);
  const NpyDescr* found = nullptr;
  for (const auto& d : kDescrs)
    if (descr == std::string("'") + d.descr + "'") found = &d;
  if (found == nullptr)
    fail("{}: unsupported dtype {} (ditmk reads float32, float16, float64, int64, int32, bool; little endian)", what,
         descr);
  Tensor tensor(found->dtype, shape);
  const std::size_t body = offset + header_len;
  if (size - body != tensor.nbytes())
    fail("{}: {} data bytes for shape {} (expected {})", what, size - body, shape_str(shape), tensor.nbytes());
  if (tensor.nbytes()) std::memcpy(tensor.bytes(), data + body, tensor.nbytes());
  return tensor;
}

std::string encode_npy(const TensorView& tensor) {
  const char* descr = nullptr;
  for (const auto& d : kDescrs)
    if (d.dtype == tensor.dtype) descr = d.descr;
  if (descr == nullptr) fail("cannot write dtype {} to .npy", dtype_name(tensor.dtype));
  std::string shape = "(";
  for (std::size_t i = 0; i < tensor.shape.size(); ++i) shape += std::to_string(tensor.shape[i]) + ", ";
  if (tensor.shape.size() > 1) shape.resize(shape.size() - 2);
  else if (tensor.shape.size() == 1) shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(tensor.data), tensor.nbytes());
  return out;
}

Tensor read_npy(const std::string& path) {
  MappedFile file(path);
  return parse_npy(file.data(), file.size(), path);
}

void write_npy(const std::string& path, const TensorView& tensor) { write_file_atomic(path, encode_npy(tensor)); }

std::map<std::string, Tensor> read_npz(const std::string& path) {
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &error);
  if (archive == nullptr) {
    if (access(path.c_str(), R_OK) != 0) {
      if (errno == ENOENT) fail_not_found("{}: no such file", path);
      fail("{}: cannot open: {}", path, std::strerror(errno));
    }
    fail("{}: not an .npz archive", path);
  }
  std::unique_ptr<zip_t, decltype(&zip_discard)> guard(archive, zip_discard);
  std::map<std::string, Tensor> arrays;
  const zip_int64_t n = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    if (zip_stat_index(archive, i, 0, &st) != 0) fail("{}: unreadable archive entry {}", path, i);
    std::string name = st.name;
    if (name.size() < 4 || name.substr(name.size() - 4) != ".npy") continue;
    name.resize(name.size() - 4);
    std::vector<std::byte> bytes(st.size);
    zip_file_t* entry = zip_fopen_index(archive, i, 0);
    if (entry == nullptr) fail("{}: cannot read array '{}'", path, name);
    const zip_int64_t got = zip_fread(entry, bytes.data(), st.size);
    zip_fclose(entry);
    if (got < 0 || zip_uint64_t(got) != st.size) fail("{}: array '{}' is truncated", path, name);
    arrays.emplace(name, parse_npy(bytes.data(), bytes.size(), path + ":" + name));
  }
  return arrays;
}

void write_npz(const std::string& path, const std::vector<std::pair<std::string, TensorView>>& arrays) {
  const std::string temp = path + ".partial." + std::to_string(getpid());
  int error = 0;
  zip_t* archive = zip_open(temp.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (archive == nullptr) fail("{}: cannot create", path);
  std::vector<std::string> encoded;
  encoded.reserve(arrays.size());
  for (const auto& [name, tensor] : arrays) {
    encoded.push_back(encode_npy(tensor));
    zip_source_t* source = zip_source_buffer(archive, encoded.back().data(), encoded.back().size(), 0);
    const zip_int64_t index = source ? zip_file_add(archive, (name + ".npy").c_str(), source, ZIP_FL_OVERWRITE) : -1;
    if (index < 0) {
      if (source) zip_source_free(source);
      zip_discard(archive);
      std::remove(temp.c_str());
      fail("{}: cannot add array '{}'", path, name);
    }
    zip_set_file_compression(archive, zip_uint64_t(index), ZIP_CM_STORE, 0);
  }
  if (zip_close(archive) != 0) {
    zip_discard(archive);
    std::remove(temp.c_str());
    fail("{}: cannot write archive", path);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    fail("{}: cannot finish writing: {}", path, std::strerror(errno));
  }
}

}  // namespace ditmk::io
