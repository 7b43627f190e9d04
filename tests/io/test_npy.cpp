#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "ditmk/core/error.hpp"
#include "ditmk/io/npy.hpp"
#include "support/error_of.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::io {
namespace {

using testing::TempDir;

template <typename T>
Tensor filled(DType dtype, Shape shape, T start) {
  Tensor t(dtype, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.data<T>()[i] = T(start + T(i));
  return t;
}

TEST(Npy, RoundTripEveryDtype) {
  TempDir dir;
  const Tensor f32 = filled<float>(DType::F32, {2, 3}, -1.5f);
  const Tensor i64 = filled<int64_t>(DType::I64, {4}, int64_t(-2));
  Tensor f16(DType::F16, {3});
  const Tensor& f16c = f16;
  for (int i = 0; i < 3; ++i) f16.data<uint16_t>()[i] = f32_to_f16(0.1f * float(i + 1));
  Tensor b(DType::BOOL, {5});
  const Tensor& bc = b;
  b.data<uint8_t>()[1] = b.data<uint8_t>()[4] = 1;
  const Tensor u8 = filled<uint8_t>(DType::U8, {7}, uint8_t(250));  // wraps past 255
  for (const Tensor* t : {&f32, &i64, &f16c, &bc, &u8}) {
    write_npy(dir / "a.npy", t->view());
    const Tensor back = read_npy(dir / "a.npy");
    EXPECT_EQ(back.dtype(), t->dtype());
    EXPECT_EQ(back.shape(), t->shape());
    EXPECT_EQ(std::memcmp(back.bytes(), t->bytes(), t->nbytes()), 0);
  }
}

TEST(Npy, ScalarAndEmptyShapesRoundTrip) {
  TempDir dir;
  const Tensor scalar = filled<float>(DType::F32, {}, 7.0f);
  write_npy(dir / "s.npy", scalar.view());
  EXPECT_EQ(read_npy(dir / "s.npy").shape(), Shape{});
  const Tensor empty(DType::F32, {0, 4});
  write_npy(dir / "e.npy", empty.view());
  EXPECT_EQ(read_npy(dir / "e.npy").shape(), (Shape{0, 4}));
}

using testing::error_of;

void write_header(const std::string& path, const std::string& dict, std::size_t data_bytes) {
  std::string header = dict;
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff) << char(header.size() >> 8) << header
      << std::string(data_bytes, '\0');
}

TEST(Npy, UnsupportedLayoutsAreRejectedWithAClearMessage) {
  TempDir dir;
  write_header(dir / "u.npy", "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }", 4);
  EXPECT_NE(error_of([&] { read_npy(dir / "u.npy"); }).find("unsupported dtype '<u2'"), std::string::npos);
  write_header(dir / "f.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16);
  EXPECT_NE(error_of([&] { read_npy(dir / "f.npy"); }).find("Fortran-order"), std::string::npos);
  write_header(dir / "b.npy", "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8);
  EXPECT_NE(error_of([&] { read_npy(dir / "b.npy"); }).find("unsupported dtype '>f4'"), std::string::npos);
  write_header(dir / "t.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 20);
  EXPECT_NE(error_of([&] { read_npy(dir / "t.npy"); }).find("20 data bytes for shape [2, 3]"), std::string::npos);
  std::ofstream(dir / "g.npy") << "garbage";
  EXPECT_NE(error_of([&] { read_npy(dir / "g.npy"); }).find("bad magic"), std::string::npos);
}

TEST(Npy, LyingShapeIsRejectedBeforeAnythingIsAllocated) {
  TempDir dir;
  // claims 4 PB; 16 bytes follow
  write_header(dir / "l.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000, 1000), }", 16);
  const std::string lie = error_of([&] { read_npy(dir / "l.npy"); });
  EXPECT_NE(lie.find("16 data bytes for shape [1000000, 1000000, 1000] (expected 4000000000000000)"), std::string::npos)
      << lie;
  // a product beyond 64 bits, hidden in front of a zero dimension
  write_header(dir / "o.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 0), }", 0);
  EXPECT_NE(error_of([&] { read_npy(dir / "o.npy"); }).find("is too large"), std::string::npos);
  write_header(dir / "d.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", 0);
  EXPECT_NE(error_of([&] { read_npy(dir / "d.npy"); }).find("dimension over"), std::string::npos);
}

TEST(Npy, HeaderIsParsedExactly) {
  TempDir dir;
  const auto error_for = [&](const std::string& dict) {
    write_header(dir / "h.npy", dict, 8);
    return error_of([&] { read_npy(dir / "h.npy"); });
  };
  // numpy's own forms: any key order, double quotes, no trailing comma, Python 2 longs
  EXPECT_EQ(error_for("{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<f4\"}"), "");
  EXPECT_EQ(error_for("{'descr': '<f4', 'fortran_order': False, 'shape': (2L,)}"), "");
  EXPECT_NE(error_for("{'descr': '<f4', 'shape': (2,), }").find("no 'fortran_order'"), std::string::npos);
  EXPECT_NE(error_for("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}").find("unexpected key 'x'"),
            std::string::npos);
  EXPECT_NE(error_for("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}").find("repeats 'descr'"),
            std::string::npos);
  // a key's name inside another value does not stand in for the key
  EXPECT_NE(error_for("{'descr': \"'shape': (2,)\", 'fortran_order': False}").find("no 'shape'"), std::string::npos);
  EXPECT_NE(error_for("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}").find("malformed at byte"),
            std::string::npos);
  EXPECT_NE(error_for("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x").find("malformed"), std::string::npos);
  EXPECT_NE(error_for("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,)}").find("True or False"),
            std::string::npos);
  EXPECT_NE(error_for("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}").find("structured dtype"),
            std::string::npos);
  EXPECT_NE(error_for("{'descr': '<f4").find("malformed"), std::string::npos);
}

TEST(Npz, RoundTripKeepsNamesAndValues) {
  TempDir dir;
  const Tensor a = filled<float>(DType::F32, {3, 2}, 0.5f);
  const Tensor m = filled<int64_t>(DType::I64, {3}, int64_t(0));
  write_npz(dir / "o.npz", {{"features", a.view()}, {"attention_mask", m.view()}});
  const auto arrays = read_npz(dir / "o.npz");
  ASSERT_EQ(arrays.size(), 2u);
  EXPECT_EQ(arrays.at("features").data<float>()[5], 5.5f);
  EXPECT_EQ(arrays.at("attention_mask").data<int64_t>()[2], 2);
  std::ofstream(dir / "bad.npz") << "not a zip";
  EXPECT_NE(error_of([&] { read_npz(dir / "bad.npz"); }).find("not an .npz archive"), std::string::npos);
}

TEST(Npz, ReadsWhatNumpyWrites) {
  TempDir dir;
  const std::string script = "import numpy as np; np.savez_compressed('" + (dir / "np.npz") +
                             "', features=np.arange(6, dtype=np.float32).reshape(2, 3), mask=np.array([True, False]))";
  if (std::system(("/usr/bin/python3 -c \"" + script + "\" 2>/dev/null").c_str()) != 0) GTEST_SKIP() << "numpy not available";
  const auto arrays = read_npz(dir / "np.npz");
  EXPECT_EQ(arrays.at("features").shape(), (Shape{2, 3}));
  EXPECT_EQ(arrays.at("features").data<float>()[4], 4.0f);
  EXPECT_EQ(arrays.at("mask").dtype(), DType::BOOL);
  EXPECT_EQ(arrays.at("mask").data<uint8_t>()[0], 1);
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::map<std::string, Tensor> from_memory(const std::string& bytes) {
  return read_npz_bytes(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size(), "mem.npz");
}

// Overwrites the little-endian u32 at `at`.
void put_u32(std::string& bytes, std::size_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = char((value >> (8 * i)) & 0xff);
}

// Offset of the central directory record of the archive's only entry.
std::size_t central_record(const std::string& zip) {
  const std::size_t at = zip.find("PK\x01\x02");
  EXPECT_NE(at, std::string::npos);
  return at;
}

TEST(Npz, ReadsFromMemoryAsFromAFile) {
  TempDir dir;
  const Tensor a = filled<float>(DType::F32, {2, 2}, 1.0f);
  write_npz(dir / "m.npz", {{"a", a.view()}});
  const auto arrays = from_memory(file_bytes(dir / "m.npz"));
  EXPECT_EQ(arrays.at("a").data<float>()[3], 4.0f);
  EXPECT_NE(error_of([&] { from_memory("PK\x03\x04 not really"); }).find("mem.npz: not an .npz archive"),
            std::string::npos);
  EXPECT_NE(error_of([&] { from_memory(""); }).find("not an .npz archive"), std::string::npos);
}

TEST(Npz, EntrySizesBeyondWhatTheArchiveHoldsAreRefusedBeforeAllocating) {
  TempDir dir;
  const Tensor a = filled<float>(DType::F32, {16}, 0.0f);
  write_npz(dir / "s.npz", {{"a", a.view()}});  // stored entries
  const std::string zip = file_bytes(dir / "s.npz");
  const std::size_t cd = central_record(zip);
  std::string lie = zip;
  put_u32(lie, cd + 24, 0xfffffff0u);  // uncompressed size
  const std::string stored = error_of([&] { from_memory(lie); });
  EXPECT_NE(stored.find("mem.npz: array 'a': a stored entry of"), std::string::npos) << stored;
  lie = zip;
  put_u32(lie, cd + 20, 0xfffffff0u);  // compressed size
  put_u32(lie, cd + 24, 0xfffffff0u);
  const std::string compressed = error_of([&] { from_memory(lie); });
  EXPECT_NE(compressed.find("array 'a'"), std::string::npos) << compressed;

  // a deflated entry claiming more than 1032x its compressed bytes
  const std::string script = "import numpy as np; np.savez_compressed('" + (dir / "d.npz") +
                             "', a=np.arange(64, dtype=np.float32))";
  if (std::system(("/usr/bin/python3 -c \"" + script + "\" 2>/dev/null").c_str()) != 0) GTEST_SKIP() << "numpy not available";
  std::string deflated = file_bytes(dir / "d.npz");
  EXPECT_EQ(from_memory(deflated).at("a").data<float>()[63], 63.0f);
  const std::size_t dcd = central_record(deflated);
  put_u32(deflated, dcd + 24, 0xfffffff0u);
  const std::string bomb = error_of([&] { from_memory(deflated); });
  EXPECT_NE(bomb.find("deflated bytes cannot expand to the 4294967280 bytes claimed"), std::string::npos) << bomb;
}

}  // namespace
}  // namespace ditmk::io
