#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
  for (const Tensor* t : {&f32, &i64, &f16c, &bc}) {
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

}  // namespace
}  // namespace ditmk::io
