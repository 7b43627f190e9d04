#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "ditmk/io/atomic_file.hpp"
#include "ditmk/tt/pack/pack_files.hpp"
#include "pack_fixture.hpp"

namespace ditmk::tt::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json manifest_of(const PackFixture& f) {
  return json::parse(io::read_text_file((fs::path(f.pack_dir) / pack_files::kManifest).string()));
}

const json* slice_entry(const json& m, const std::string& op, int core) {
  for (const json& r : m["ranges"])
    if (r.contains("core") && r["op"] == op && r["core"] == core) return &r;
  return nullptr;
}

class PackManifest : public ::testing::TestWithParam<TileFormat> {};

TEST_P(PackManifest, RangesCoverEveryByteOfEveryFileExactlyOnce) {
  const PackFixture& f = packed(GetParam());
  const json m = manifest_of(f);
  std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> by_file;
  std::size_t slices = 0;
  for (const json& r : m["ranges"]) {
    by_file[r["file"]].emplace_back(r["offset"].get<uint64_t>(), r["length"].get<uint64_t>());
    slices += r.contains("core");
  }
  std::size_t files_on_disk = 0;
  for (const auto& entry : fs::directory_iterator(f.pack_dir)) {
    const std::string name = entry.path().filename().string();
    if (name == pack_files::kManifest) continue;
    ++files_on_disk;
    ASSERT_TRUE(by_file.count(name)) << name << " has no ranges";
    auto ranges = by_file[name];
    std::sort(ranges.begin(), ranges.end());
    uint64_t at = 0;
    for (const auto& [offset, length] : ranges) {
      ASSERT_EQ(offset, at) << name << ": gap or overlap";
      ASSERT_GT(length, 0u) << name;
      at = offset + length;
    }
    EXPECT_EQ(at, entry.file_size()) << name;
  }
  EXPECT_EQ(files_on_disk, by_file.size());
  std::size_t layout_slices = 0;
  for (const ArenaOp& op : f.summary.layout.ops) layout_slices += op.slices.size();
  EXPECT_EQ(slices, layout_slices);
  EXPECT_EQ(f.summary.n_ranges, m["ranges"].size());
}

INSTANTIATE_TEST_SUITE_P(Formats, PackManifest, ::testing::Values(TileFormat::bf16, TileFormat::bfp8_b),
                         [](const auto& info) { return std::string(tile_format_name(info.param)); });

TEST(PackManifest, TiesSlicesToTensorPartsAndStatesTheFoldedScale) {
  const PackFixture& f = packed(TileFormat::bfp8_b);
  const json m = manifest_of(f);
  EXPECT_EQ(m["version"], "n15");
  EXPECT_EQ(m["variant"], "steps4");
  EXPECT_EQ(m["dtype_stream"], "bfp8_b");
  EXPECT_EQ(m["dtype_small"], "bf16");
  EXPECT_EQ(m["embodiment"], kPackedEmbodiment);
  EXPECT_EQ(m["embodiment_tag"], "new_embodiment");
  EXPECT_TRUE(m["fold_attn_scale"].get<bool>());
  EXPECT_DOUBLE_EQ(m["attn_scale"].get<double>(), 1.0 / std::sqrt(48.0));

  const std::string block1 = "action_head.model.transformer_blocks.1.";
  // core 33 of the self block's qkv streams head 1 of K: output rows 48..96 of to_k, all inputs
  const json* k = slice_entry(m, "blk1.qkv", 33);
  ASSERT_NE(k, nullptr);
  ASSERT_EQ((*k)["sources"].size(), 1u);
  EXPECT_EQ((*k)["sources"][0]["tensor"], block1 + "attn1.to_k.weight");
  EXPECT_EQ((*k)["sources"][0]["rows"], json({48, 96}));
  EXPECT_EQ((*k)["sources"][0]["cols"], json({0, 1536}));
  EXPECT_FALSE((*k)["sources"][0].contains("scale"));
  EXPECT_EQ((*k)["bank"], 1);
  EXPECT_EQ((*k)["length"], 48 * 2 * 1088);
  // core 1: head 1 of Q, scaled
  const json* q = slice_entry(m, "blk1.qkv", 1);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ((*q)["sources"][0]["tensor"], block1 + "attn1.to_q.weight");
  EXPECT_DOUBLE_EQ((*q)["sources"][0]["scale"].get<double>(), 1.0 / std::sqrt(48.0));
  // core 50 of out: tile row 1, column 2 -> column pair 1 (outputs 64..128), K quarter 2 = padded
  // rows 1024..1536 = heads 16..24 = to_out inputs 768..1152
  const json* out = slice_entry(m, "blk1.out", 50);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ((*out)["sources"][0]["rows"], json({64, 128}));
  EXPECT_EQ((*out)["sources"][0]["cols"], json({768, 1152}));
  EXPECT_EQ((*out)["k_tiles"], json({32, 48}));
  // a category tensor: the embodiment's [in, out] slice
  const json* dec2 = slice_entry(m, "dec2", 0);
  ASSERT_NE(dec2, nullptr);
  EXPECT_EQ((*dec2)["format"], "bf16");
  EXPECT_EQ((*dec2)["sources"][0]["tensor"], "action_head.action_decoder.layer2.W");
  EXPECT_EQ((*dec2)["sources"][0]["embodiment"], kPackedEmbodiment);
  EXPECT_EQ((*dec2)["sources"][0]["rows"], json({0, 1024}));
  EXPECT_EQ((*dec2)["sources"][0]["cols"], json({0, 32}));
  // enc2a streams only W2's action half (rows 0..1536 of 3072)
  const json* enc2a = slice_entry(m, "enc2a", 47);
  ASSERT_NE(enc2a, nullptr);
  EXPECT_EQ((*enc2a)["sources"][0]["rows"], json({0, 1536}));
  EXPECT_EQ((*enc2a)["sources"][0]["cols"], json({1504, 1536}));
}

}  // namespace
}  // namespace ditmk::tt::testing
