#include "ditmk/tt/program/tensor_codec.hpp"

#include <cstring>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/formats.hpp"

namespace ditmk::tt::dialect {

namespace {

bool is_integer(DataFormat format) {
  return format == DataFormat::uint32 || format == DataFormat::int32 || format == DataFormat::uint16 ||
         format == DataFormat::uint8;
}

Shape shape_of(const TensorDescriptor& t) { return {t.shape.begin(), t.shape.end()}; }

// Rows x cols of each matrix and how many matrices the leading dims make.
struct Matrices {
  int64_t count, rows, cols;
};
Matrices matrices_of(const TensorDescriptor& t) {
  const int64_t cols = int64_t(t.shape.back());
  const int64_t rows = t.shape.size() >= 2 ? int64_t(t.shape[t.shape.size() - 2]) : 1;
  return {shape_numel(shape_of(t)) / (rows * cols), rows, cols};
}

std::vector<float> as_floats(const Tensor& values) {
  std::vector<float> out(std::size_t(values.numel()));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = float(values.view().at(i));
  return out;
}

int64_t integer_at(const Tensor& values, std::size_t i) {
  switch (values.dtype()) {
    case DType::I32: return values.data<int32_t>()[i];
    case DType::I64: return values.data<int64_t>()[i];
    case DType::U8: return values.data<uint8_t>()[i];
    default: return int64_t(values.view().at(i));
  }
}

void put_element(DataFormat format, const Tensor& values, std::size_t i, std::byte* out) {
  switch (format) {
    case DataFormat::float32: {
      const float v = float(values.view().at(i));
      std::memcpy(out, &v, 4);
      return;
    }
    case DataFormat::float16_b: {
      const uint16_t v = f32_to_bf16(float(values.view().at(i)));
      std::memcpy(out, &v, 2);
      return;
    }
    case DataFormat::uint16: {
      const uint16_t v = uint16_t(integer_at(values, i));
      std::memcpy(out, &v, 2);
      return;
    }
    case DataFormat::uint8: out[0] = std::byte(integer_at(values, i)); return;
    default: {
      const uint32_t v = uint32_t(integer_at(values, i));
      std::memcpy(out, &v, 4);
    }
  }
}

uint32_t element_bytes(DataFormat format) {
  switch (format) {
    case DataFormat::float16_b:
    case DataFormat::uint16: return 2;
    case DataFormat::uint8: return 1;
    default: return 4;
  }
}

// Where element i (row-major over the whole tensor) lies among the device's elements: itself in a
// row_major tensor; in a tile tensor, in its matrix's tile (tiles row-major per matrix) at its place
// in tile order (four 16x16 faces), as the bf16 tiles lay elements out.
std::size_t device_position(const TensorDescriptor& t, const Matrices& m, std::size_t i) {
  if (t.layout == TensorLayout::row_major) return i;
  constexpr std::size_t side = kTile, elems = kTileElems;
  const std::size_t cols = std::size_t(m.cols), per_matrix = std::size_t(m.rows) * cols;
  const std::size_t matrix = i / per_matrix, row = i % per_matrix / cols, col = i % cols;
  const std::size_t tile = matrix * per_matrix / elems + row / side * (cols / side) + col / side;
  return tile * elems + std::size_t(tile_index(int(row % side), int(col % side)));
}

}  // namespace

std::vector<std::byte> encode_tensor(const TensorDescriptor& t, const Tensor& values, std::string_view what) {
  // Bytes as the device stores them (a packed arena, tiles already in their format): taken as they are.
  if (values.dtype() == DType::U8 && t.data_format != DataFormat::uint8 && values.shape().size() == 1) {
    require(uint64_t(values.numel()) == t.bytes(), "{}: tensor '{}' holds {} B; a uint8 array of its stored bytes must "
            "have that many, not {}", what, t.name, t.bytes(), values.numel());
    const std::byte* first = values.bytes();
    return {first, first + t.bytes()};
  }
  require(values.shape() == shape_of(t), "{}: tensor '{}' has shape {}, the descriptor says {}", what, t.name,
          shape_str(values.shape()), shape_str(shape_of(t)));
  require(is_integer(t.data_format) != is_float(values.dtype()), "{}: tensor '{}' is {}, which needs {} values, not {}",
          what, t.name, data_format_name(t.data_format), is_integer(t.data_format) ? "integer" : "float",
          dtype_name(values.dtype()));
  std::vector<std::byte> bytes(t.bytes());
  const Matrices m = matrices_of(t);
  if (t.layout == TensorLayout::row_major || is_integer(t.data_format)) {
    const uint32_t size = element_bytes(t.data_format);
    for (std::size_t i = 0; i < std::size_t(values.numel()); ++i)
      put_element(t.data_format, values, i, &bytes[device_position(t, m, i) * size]);
    return bytes;
  }
  const TileFormat format = t.data_format == DataFormat::bfp8_b ? TileFormat::bfp8_b
                            : t.data_format == DataFormat::float32 ? TileFormat::fp32 : TileFormat::bf16;
  const std::vector<float> floats = as_floats(values);
  const std::size_t matrix_tiles = std::size_t(m.rows / kTile * m.cols / kTile);
  for (int64_t i = 0; i < m.count; ++i) {
    const std::vector<float> tiles = tilize(floats.data() + i * m.rows * m.cols, int(m.rows), int(m.cols));
    pack_tiles(format, tiles.data(), matrix_tiles, bytes.data() + i * matrix_tiles * tile_bytes(format),
               std::string(what) + " tensor '" + t.name + "'");
  }
  return bytes;
}

Tensor decode_tensor(const TensorDescriptor& t, std::span<const std::byte> bytes) {
  require(bytes.size() >= t.bytes(), "tensor '{}': {} B read back, {} B expected", t.name, bytes.size(), t.bytes());
  if (is_integer(t.data_format)) {
    Tensor out(DType::I32, shape_of(t));
    const uint32_t size = element_bytes(t.data_format);
    const Matrices m = matrices_of(t);
    for (std::size_t i = 0; i < std::size_t(out.numel()); ++i) {
      uint32_t v = 0;
      std::memcpy(&v, &bytes[device_position(t, m, i) * size], size);
      out.data<int32_t>()[i] = int32_t(v);
    }
    return out;
  }
  Tensor out(DType::F32, shape_of(t));
  float* values = out.data<float>();
  if (t.layout == TensorLayout::row_major) {
    for (std::size_t i = 0; i < std::size_t(out.numel()); ++i) {
      if (t.data_format == DataFormat::float16_b) {
        uint16_t v;
        std::memcpy(&v, &bytes[i * 2], 2);
        values[i] = bf16_to_f32(v);
      } else {
        std::memcpy(&values[i], &bytes[i * 4], 4);
      }
    }
    return out;
  }
  const TileFormat format = t.data_format == DataFormat::bfp8_b ? TileFormat::bfp8_b
                            : t.data_format == DataFormat::float32 ? TileFormat::fp32 : TileFormat::bf16;
  const Matrices m = matrices_of(t);
  const std::size_t matrix_tiles = std::size_t(m.rows / kTile * m.cols / kTile);
  std::vector<float> tiles(matrix_tiles * kTileElems);
  for (int64_t i = 0; i < m.count; ++i) {
    unpack_tiles(format, bytes.data() + i * matrix_tiles * tile_bytes(format), matrix_tiles, tiles.data());
    const std::vector<float> matrix = untilize(tiles.data(), int(m.rows), int(m.cols));
    std::memcpy(values + i * m.rows * m.cols, matrix.data(), matrix.size() * sizeof(float));
  }
  return out;
}

}  // namespace ditmk::tt::dialect
