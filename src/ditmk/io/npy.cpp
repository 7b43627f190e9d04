#include "ditmk/io/npy.hpp"

#include <zip.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
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
                                {"<i8", DType::I64}, {"<i4", DType::I32}, {"|u1", DType::U8}, {"|b1", DType::BOOL}};

// What an .npy header says: the dict literal numpy writes, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// followed by space padding and a newline. It is parsed exactly (numpy itself uses literal_eval):
// the three keys once each, in any order; a string, True/False and a tuple of integers as values.
struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  Shape shape;
};

class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& what) : text_(text), what_(what) {}

  NpyHeader parse() {
    NpyHeader header;
    bool seen_descr = false, seen_fortran = false, seen_shape = false;
    skip_space();
    expect('{');
    while (true) {
      skip_space();
      if (take('}')) break;
      const std::string key = string_literal();
      skip_space();
      expect(':');
      skip_space();
      if (key == "descr") {
        once(seen_descr, key);
        if (take('[')) fail("{}: unsupported dtype: a structured dtype (ditmk reads plain arrays)", what_);
        header.descr = string_literal();
      } else if (key == "fortran_order") {
        once(seen_fortran, key);
        header.fortran_order = boolean();
      } else if (key == "shape") {
        once(seen_shape, key);
        header.shape = tuple();
      } else {
        fail("{}: npy header has an unexpected key '{}'", what_, key);
      }
      skip_space();
      if (take('}')) break;
      expect(',');
    }
    skip_space();
    if (pos_ != text_.size()) malformed("nothing but padding after the dict");
    if (!seen_descr) fail("{}: npy header has no 'descr'", what_);
    if (!seen_fortran) fail("{}: npy header has no 'fortran_order'", what_);
    if (!seen_shape) fail("{}: npy header has no 'shape'", what_);
    return header;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool take(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) malformed(fmt::format("'{}'", c));
  }
  void once(bool& seen, const std::string& key) {
    if (seen) fail("{}: npy header repeats '{}'", what_, key);
    seen = true;
  }
  // 'text' or "text", without escapes (no numpy key or dtype needs one).
  std::string string_literal() {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) malformed("a quoted string");
    const char quote = text_[pos_++];
    const std::size_t end = text_.find_first_of(std::string{quote, '\\', '\n'}, pos_);
    if (end == std::string_view::npos || text_[end] != quote) malformed("a closing quote");
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }
  bool boolean() {
    for (const auto& [word, value] : {std::pair{std::string_view("True"), true}, {std::string_view("False"), false}})
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    malformed("True or False");
  }
  // (), (n,), (n, m), ... with an optional trailing comma; Python 2 wrote longs as 3L.
  Shape tuple() {
    Shape shape;
    expect('(');
    while (true) {
      skip_space();
      if (take(')')) break;
      shape.push_back(dimension());
      take('L');
      skip_space();
      if (take(')')) break;
      expect(',');
    }
    if (shape.size() > 64) fail("{}: npy shape has {} dimensions (at most 64)", what_, shape.size());
    return shape;
  }
  int64_t dimension() {
    const std::size_t begin = pos_;
    uint64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      value = value * 10 + uint64_t(text_[pos_++] - '0');
      if (value > kMaxDimension) fail("{}: npy shape has a dimension over {}", what_, kMaxDimension);
    }
    if (pos_ == begin) malformed("a non-negative integer dimension");
    return int64_t(value);
  }
  [[noreturn]] void malformed(const std::string& expected) {
    fail("{}: npy header is malformed at byte {} (expected {})", what_, pos_, expected);
  }

  static constexpr uint64_t kMaxDimension = uint64_t(1) << 48;
  std::string_view text_;
  const std::string& what_;
  std::size_t pos_ = 0;
};

// The bytes an array of this shape and dtype holds, or nullopt when that does not fit in 63 bits.
std::optional<std::size_t> array_bytes(const Shape& shape, DType dtype) {
  constexpr uint64_t kLimit = uint64_t(1) << 62;
  uint64_t nonzero = dtype_size(dtype);  // the product of the non-zero dimensions bounds every partial product
  bool empty = false;
  for (const int64_t d : shape) {
    if (d == 0) empty = true;
    else if (nonzero > kLimit / uint64_t(d)) return std::nullopt;
    else nonzero *= uint64_t(d);
  }
  return empty ? 0 : std::size_t(nonzero);
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
  const std::string_view text(reinterpret_cast<const char*>(data + offset), header_len);
  const NpyHeader header = HeaderParser(text, what).parse();
  if (header.fortran_order) fail("{}: Fortran-order arrays are not supported (save it C-contiguous)", what);
  const NpyDescr* found = nullptr;
  for (const auto& d : kDescrs)
    if (header.descr == d.descr) found = &d;
  if (found == nullptr)
    fail("{}: unsupported dtype '{}' (ditmk reads float32, float16, float64, int64, int32, bool; little endian)", what,
         header.descr);
  // The byte count is checked before anything is allocated: the header may claim any shape.
  const std::optional<std::size_t> expected = array_bytes(header.shape, found->dtype);
  if (!expected) fail("{}: npy shape {} is too large", what, shape_str(header.shape));
  const std::size_t body = offset + header_len;
  if (size - body != *expected)
    fail("{}: {} data bytes for shape {} (expected {})", what, size - body, shape_str(header.shape), *expected);
  Tensor tensor(found->dtype, header.shape);
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

namespace {

// A deflate stream expands at most 1032-fold (one 258-byte match per 2-bit code); a stored entry is
// exactly its size. An entry claiming more is refused before its bytes are allocated.
constexpr uint64_t kMaxDeflateRatio = 1032;

using Archive = std::unique_ptr<zip_t, decltype(&zip_discard)>;

Archive open_archive(const std::byte* data, std::size_t size, const std::string& what) {
  if (size == 0) fail("{}: not an .npz archive (empty)", what);  // libzip would open it as an empty archive
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(data, size, 0, &error);
  zip_t* archive = source ? zip_open_from_source(source, ZIP_RDONLY, &error) : nullptr;
  zip_error_fini(&error);
  if (archive == nullptr) {
    if (source) zip_source_free(source);
    fail("{}: not an .npz archive", what);
  }
  return {archive, zip_discard};  // the archive owns the source now
}

// Checks what an entry declares against the archive it comes from; `compressed_total` adds up the
// entries' compressed sizes, which cannot exceed the archive since no two entries share bytes.
void check_entry_sizes(const zip_stat_t& st, std::size_t archive_size, uint64_t& compressed_total,
                       const std::string& what, const std::string& name) {
  constexpr zip_uint64_t kNeeded = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD | ZIP_STAT_ENCRYPTION_METHOD;
  if ((st.valid & kNeeded) != kNeeded) fail("{}: array '{}': the archive does not record its sizes", what, name);
  if (st.encryption_method != ZIP_EM_NONE) fail("{}: array '{}' is encrypted", what, name);
  compressed_total += st.comp_size;
  if (st.comp_size > archive_size || compressed_total > archive_size)
    fail("{}: array '{}': entries claim {} compressed bytes in an archive of {}", what, name, compressed_total,
         archive_size);
  if (st.comp_method == ZIP_CM_STORE) {
    if (st.size != st.comp_size)
      fail("{}: array '{}': a stored entry of {} bytes claims {} bytes", what, name, st.comp_size, st.size);
  } else if (st.comp_method == ZIP_CM_DEFLATE) {
    if (st.size / kMaxDeflateRatio > st.comp_size)
      fail("{}: array '{}': {} deflated bytes cannot expand to the {} bytes claimed", what, name, st.comp_size,
           st.size);
  } else {
    fail("{}: array '{}': compression method {} is not supported (numpy writes stored or deflated entries)", what,
         name, st.comp_method);
  }
}

}  // namespace

std::map<std::string, Tensor> read_npz_bytes(const std::byte* data, std::size_t size, const std::string& what) {
  const Archive archive = open_archive(data, size, what);
  std::map<std::string, Tensor> arrays;
  uint64_t compressed_total = 0;
  const zip_int64_t n = zip_get_num_entries(archive.get(), 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    if (zip_stat_index(archive.get(), zip_uint64_t(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME))
      fail("{}: unreadable archive entry {}", what, i);
    std::string name = st.name;
    if (name.size() < 4 || name.substr(name.size() - 4) != ".npy") continue;
    name.resize(name.size() - 4);
    if (arrays.count(name)) fail("{}: array '{}' appears twice", what, name);
    check_entry_sizes(st, size, compressed_total, what, name);
    std::vector<std::byte> bytes(st.size);
    zip_file_t* entry = zip_fopen_index(archive.get(), zip_uint64_t(i), 0);
    if (entry == nullptr) fail("{}: cannot read array '{}'", what, name);
    const zip_int64_t got = zip_fread(entry, bytes.data(), st.size);
    zip_fclose(entry);
    if (got < 0 || zip_uint64_t(got) != st.size) fail("{}: array '{}' is truncated", what, name);
    arrays.emplace(name, parse_npy(bytes.data(), bytes.size(), what + ":" + name));
  }
  return arrays;
}

std::map<std::string, Tensor> read_npz(const std::string& path) {
  const MappedFile file(path);
  return read_npz_bytes(file.data(), file.size(), path);
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
