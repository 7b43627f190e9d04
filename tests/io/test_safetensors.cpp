#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/io/checkpoint.hpp"
#include "ditmk/io/safetensors.hpp"
#include "support/error_of.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::io {
namespace {

using testing::TempDir;

// Writes a raw safetensors file from a header and a data section, to build broken files by hand.
void write_raw(const std::string& path, const std::string& header, std::size_t data_bytes, uint64_t claimed_len = 0) {
  std::ofstream out(path, std::ios::binary);
  const uint64_t len = claimed_len ? claimed_len : header.size();
  out.write(reinterpret_cast<const char*>(&len), 8);
  out << header;
  std::string data(data_bytes, '\x01');
  out << data;
}

using testing::error_of;

TEST(Safetensors, RoundTripKeepsValuesShapesAndDtypes) {
  TempDir dir;
  Tensor a(DType::F32, {3, 5});
  for (int i = 0; i < 15; ++i) a.data<float>()[i] = 0.25f * float(i) - 1.0f;
  Tensor b(DType::BF16, {7});
  for (int i = 0; i < 7; ++i) b.data<uint16_t>()[i] = f32_to_bf16(float(i) * 3.5f);
  Tensor c(DType::I64, {2});
  c.data<int64_t>()[0] = -7, c.data<int64_t>()[1] = 1ll << 40;
  write_safetensors(dir / "m.safetensors", {{"a", a.view()}, {"b", b.view()}, {"c", c.view()}}, {{"format", "pt"}});
  const SafetensorsFile f(dir / "m.safetensors");
  EXPECT_EQ(f.metadata().at("format"), "pt");
  const TensorView va = f.view("a"), vb = f.view("b"), vc = f.view("c");
  EXPECT_EQ(va.shape, (Shape{3, 5}));
  EXPECT_EQ(vb.dtype, DType::BF16);
  for (int i = 0; i < 15; ++i) EXPECT_EQ(va.at(i), 0.25 * i - 1.0);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(vb.at(i), i * 3.5);
  EXPECT_EQ(vc.at(1), double(1ll << 40));  // at 74 bytes: safetensors does not align tensors
  EXPECT_NE(error_of([&] { f.view("missing"); }).find("missing tensor 'missing'"), std::string::npos);
}

TEST(Safetensors, TruncatedFileIsRejectedNamingIt) {
  TempDir dir;
  Tensor a(DType::F32, {64});
  write_safetensors(dir / "t.safetensors", {{"a", a.view()}});
  std::filesystem::resize_file(dir / "t.safetensors", std::filesystem::file_size(dir / "t.safetensors") - 10);
  const std::string msg = error_of([&] { SafetensorsFile f(dir / "t.safetensors"); });
  EXPECT_NE(msg.find("t.safetensors"), std::string::npos) << msg;
  EXPECT_NE(msg.find("outside the data section"), std::string::npos) << msg;
  std::filesystem::resize_file(dir / "t.safetensors", 5);
  EXPECT_NE(error_of([&] { SafetensorsFile f(dir / "t.safetensors"); }).find("truncated"), std::string::npos);
}

TEST(Safetensors, HeaderLengthBeyondFileOrBoundIsRejected) {
  TempDir dir;
  write_raw(dir / "h.safetensors", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", 4, 1000);
  EXPECT_NE(error_of([&] { SafetensorsFile f(dir / "h.safetensors"); }).find("header length 1000"), std::string::npos);
  write_raw(dir / "b.safetensors", "{}", 0, kMaxSafetensorsHeader + 1);
  EXPECT_NE(error_of([&] { SafetensorsFile f(dir / "b.safetensors"); }).find("bound"), std::string::npos);
}

TEST(Safetensors, MalformedJsonIsRejected) {
  TempDir dir;
  write_raw(dir / "j.safetensors", R"({"a":{"dtype":"F32",)", 4);
  EXPECT_NE(error_of([&] { SafetensorsFile f(dir / "j.safetensors"); }).find("JSON"), std::string::npos);
}

TEST(Safetensors, LyingOffsetsAreRejected) {
  TempDir dir;
  write_raw(dir / "o.safetensors", R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,64]}})", 16);
  const std::string msg = error_of([&] { SafetensorsFile f(dir / "o.safetensors"); });
  EXPECT_NE(msg.find("tensor 'a'"), std::string::npos) << msg;
  write_raw(dir / "n.safetensors", R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,12]}})", 16);
  const std::string count = error_of([&] { SafetensorsFile f(dir / "n.safetensors"); });
  EXPECT_NE(count.find("12 bytes for shape [4] F32 (expected 16)"), std::string::npos) << count;
  write_raw(dir / "r.safetensors", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}})", 16);
  EXPECT_NE(error_of([&] { SafetensorsFile f(dir / "r.safetensors"); }).find("tensor 'a'"), std::string::npos);
}

TEST(Safetensors, OverlappingTensorsAreRejected) {
  TempDir dir;
  write_raw(dir / "v.safetensors",
            R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},"b":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})", 16);
  const std::string msg = error_of([&] { SafetensorsFile f(dir / "v.safetensors"); });
  EXPECT_NE(msg.find("'a' and 'b' overlap"), std::string::npos) << msg;
}

TEST(Safetensors, UnknownDtypeIsRejected) {
  TempDir dir;
  write_raw(dir / "d.safetensors", R"({"a":{"dtype":"C64","shape":[1],"data_offsets":[0,8]}})", 8);
  EXPECT_NE(error_of([&] { SafetensorsFile f(dir / "d.safetensors"); }).find("unsupported dtype C64"), std::string::npos);
}

TEST(Safetensors, HeaderParsesFromMemoryAsFromAFile) {
  std::string bytes(8, '\0');
  const std::string header = R"({"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  bytes[0] = char(header.size());
  bytes += header + std::string(8, '\0');
  const SafetensorsHeader parsed =
      parse_safetensors_header(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size(), "mem.safetensors");
  EXPECT_EQ(parsed.data_offset, 8 + header.size());
  EXPECT_EQ(parsed.metadata.at("format"), "pt");
  EXPECT_EQ(parsed.entries.at("a").shape, (Shape{2}));
  EXPECT_NE(error_of([&] { parse_safetensors_header(reinterpret_cast<const std::byte*>(bytes.data()), 4, "mem.safetensors"); })
                .find("mem.safetensors: truncated"),
            std::string::npos);
}

TEST(Safetensors, HugeDimensionBehindAZeroIsRejected) {
  TempDir dir;
  // numel is 0, but the second dimension is no int64
  write_raw(dir / "z.safetensors", R"({"a":{"dtype":"F32","shape":[0,18446744073709551615],"data_offsets":[0,0]}})", 0);
  EXPECT_NE(error_of([&] { SafetensorsFile f(dir / "z.safetensors"); }).find("tensor 'a': shape too large"),
            std::string::npos);
}

TEST(Safetensors, DeeplyNestedHeaderIsRejectedWhileParsing) {
  TempDir dir;
  const int depth = 200000;  // deep enough to overflow the stack of anything recursing over it
  write_raw(dir / "n.safetensors", R"({"__metadata__":{"k":)" + std::string(depth, '[') + std::string(depth, ']') + "}}", 0);
  EXPECT_NE(error_of([&] { SafetensorsFile f(dir / "n.safetensors"); }).find("n.safetensors: JSON nests deeper than 64 levels"),
            std::string::npos);
}

TEST(Checkpoint, ShardedIndexResolvesTensorsAcrossFiles) {
  TempDir dir;
  Tensor a(DType::F32, {2}), b(DType::F32, {3});
  a.data<float>()[1] = 4.0f;
  b.data<float>()[2] = -2.0f;
  write_safetensors(dir / "model-00001-of-00002.safetensors", {{"x.a", a.view()}});
  write_safetensors(dir / "model-00002-of-00002.safetensors", {{"x.b", b.view()}});
  nlohmann::json index = {{"weight_map", {{"x.a", "model-00001-of-00002.safetensors"}, {"x.b", "model-00002-of-00002.safetensors"}}}};
  std::ofstream(dir / "model.safetensors.index.json") << index.dump();
  const Checkpoint ckpt = Checkpoint::open(dir.path().string());
  EXPECT_TRUE(ckpt.is_release());
  EXPECT_EQ(ckpt.get("x.a").at(1), 4.0);
  EXPECT_EQ(ckpt.get("x.b").at(2), -2.0);
  EXPECT_NE(ckpt.file_of("x.b").find("00002"), std::string::npos);
  EXPECT_NE(error_of([&] { ckpt.get("x.c"); }).find("missing tensor 'x.c'"), std::string::npos);
}

TEST(Checkpoint, IndexNamingAnAbsentTensorOrShardIsRejected) {
  TempDir dir;
  Tensor a(DType::F32, {2});
  write_safetensors(dir / "s1.safetensors", {{"x.a", a.view()}});
  std::ofstream(dir / "model.safetensors.index.json") << R"({"weight_map": {"x.a": "s1.safetensors", "x.z": "s1.safetensors"}})";
  EXPECT_NE(error_of([&] { Checkpoint::open(dir.path().string()); }).find("missing tensor 'x.z'"), std::string::npos);
  std::ofstream(dir / "model.safetensors.index.json") << R"({"weight_map": {"x.a": "s9.safetensors"}})";
  EXPECT_NE(error_of([&] { Checkpoint::open(dir.path().string()); }).find("s9.safetensors"), std::string::npos);
}

TEST(Checkpoint, DeeplyNestedConfigIsRejectedNamingIt) {
  TempDir dir;
  Tensor a(DType::F32, {2});
  write_safetensors(dir / "model.safetensors", {{"x.a", a.view()}});
  const int depth = 200000;  // walking this recursively would overflow the stack
  std::string nested;
  for (int i = 0; i < depth; ++i) nested += R"({"a":)";
  std::ofstream(dir / "config.json") << nested << "1" << std::string(depth, '}');
  const std::string msg = error_of([&] { Checkpoint::open(dir.path().string()); });
  EXPECT_NE(msg.find("config.json: JSON nests deeper than 64 levels"), std::string::npos) << msg;
}

TEST(Checkpoint, DirectoryWithoutModelFilesIsNotARelease) {
  TempDir dir;
  std::ofstream(dir / "config.json") << "{}";
  const std::string msg = error_of([&] { Checkpoint::open(dir.path().string()); });
  EXPECT_NE(msg.find("not a GR00T release"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ditmk::io
