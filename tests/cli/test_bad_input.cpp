// Every kind of bad input gives one error line naming the file, tensor or field, exit status 1, no
// crash and no output file.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ditmk/io/npy.hpp"
#include "ditmk/io/safetensors.hpp"
#include "fixtures.hpp"
#include "support/cli_runner.hpp"

namespace ditmk::testing {
namespace {

namespace fs = std::filesystem;
using model::Version;

class BadInput : public ::testing::Test {
 protected:
  // Runs `ditmk run ... --out OUT` and checks the contract; returns stderr.
  std::string expect_rejected(const std::string& args, const std::string& must_name) {
    const std::string out = dir_ / "out.npy";
    const CliResult r = run_ditmk("run --backend ref " + args + " --out " + out);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_EQ(r.err.rfind("ditmk: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(must_name), std::string::npos) << "expected '" << must_name << "' in: " << r.err;
    EXPECT_FALSE(fs::exists(out));
    for (const auto& entry : fs::directory_iterator(dir_.path()))
      EXPECT_EQ(entry.path().string().find(".partial"), std::string::npos) << entry.path();
    return r.err;
  }
  // A copy of the tiny N1.5 release whose single tensor list went through `edit`, as one file.
  std::string edited_release(const std::function<void(std::vector<std::pair<std::string, Tensor>>&)>& edit) {
    const TinyFixture& f = tiny_fixture(Version::n15);
    const std::string copy = dir_ / "edited";
    fs::create_directories(copy);
    fs::copy_file(f.release + "/config.json", copy + "/config.json");
    std::vector<std::pair<std::string, Tensor>> tensors;
    const auto index = nlohmann::json::parse(slurp(f.release + "/model.safetensors.index.json"));
    std::map<std::string, std::unique_ptr<io::SafetensorsFile>> files;
    for (const auto& [name, file] : index["weight_map"].items()) {
      auto& slot = files[file.get<std::string>()];
      if (!slot) slot = std::make_unique<io::SafetensorsFile>(f.release + "/" + file.get<std::string>());
      tensors.emplace_back(name, Tensor::from_view(slot->view(name)));
    }
    edit(tensors);
    std::vector<std::pair<std::string, TensorView>> views;
    for (auto& [n, t] : tensors) views.emplace_back(n, t.view());
    io::write_safetensors(copy + "/model.safetensors", views);
    return copy;
  }
  TempDir dir_;
};

const std::string kQ = "action_head.model.transformer_blocks.1.attn1.to_q.weight";

TEST_F(BadInput, TruncatedShard) {
  const TinyFixture& f = tiny_fixture(Version::n15);
  const std::string copy = dir_ / "trunc";
  fs::copy(f.release, copy);
  const std::string shard = copy + "/model-00001-of-00001.safetensors";
  fs::resize_file(shard, fs::file_size(shard) / 2);
  expect_rejected("--checkpoint " + copy, "model-00001-of-00001.safetensors");
}

TEST_F(BadInput, LyingHeaderOffsets) {
  const std::string file = dir_ / "lying.safetensors";
  std::ofstream out(file, std::ios::binary);
  const std::string header = R"({")" + kQ + R"(":{"dtype":"F32","shape":[64,64],"data_offsets":[0,16384]}})";
  const uint64_t len = header.size();
  out.write(reinterpret_cast<const char*>(&len), 8);
  out << header << std::string(100, '\0');
  out.close();
  expect_rejected("--checkpoint " + file, kQ);
}

TEST_F(BadInput, OverlappingTensors) {
  const std::string file = dir_ / "overlap.safetensors";
  std::ofstream out(file, std::ios::binary);
  const std::string header = R"({"a.weight":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
                             R"("b.weight":{"dtype":"F32","shape":[4],"data_offsets":[8,24]}})";
  const uint64_t len = header.size();
  out.write(reinterpret_cast<const char*>(&len), 8);
  out << header << std::string(24, '\0');
  out.close();
  expect_rejected("--checkpoint " + file, "overlap");
}

TEST_F(BadInput, WrongShape) {
  const std::string r = edited_release([](auto& t) {
    for (auto& [n, v] : t)
      if (n == kQ) v = Tensor(DType::F32, {64, 60});
  });
  expect_rejected("--checkpoint " + r, kQ);
}

TEST_F(BadInput, WrongDtype) {
  const std::string r = edited_release([](auto& t) {
    for (auto& [n, v] : t)
      if (n == kQ) v = Tensor(DType::I32, {64, 64});
  });
  expect_rejected("--checkpoint " + r, kQ);
}

TEST_F(BadInput, MissingTensor) {
  const std::string r = edited_release([](auto& t) { std::erase_if(t, [](auto& p) { return p.first == kQ; }); });
  expect_rejected("--checkpoint " + r, kQ);
}

TEST_F(BadInput, NaNInFeatures) {
  const TinyFixture& f = tiny_fixture(Version::n15);
  model::Observation obs = model::synthetic_observation(f.config, 1);
  Tensor features = Tensor::from_view(obs.features);
  features.data<float>()[37] = std::numeric_limits<float>::quiet_NaN();
  obs.own_features(std::move(features));
  model::write_observation(obs, f.config, dir_ / "nan.npz");
  expect_rejected("--checkpoint " + f.release + " --observation " + (dir_ / "nan.npz"), "nan.npz:features");
}

TEST_F(BadInput, UnknownEmbodiment) {
  const TinyFixture& f = tiny_fixture(Version::n15);
  expect_rejected("--checkpoint " + f.release + " --embodiment warehouse_bot", "warehouse_bot");
  expect_rejected("--checkpoint " + f.release + " --embodiment 17", "embodiment 17: id outside");
}

TEST_F(BadInput, MaskWithNoAdmissibleKey) {
  const TinyFixture& f = tiny_fixture(Version::n17);
  model::Observation obs = model::synthetic_observation(f.config, 1);
  std::fill(obs.image_mask.begin(), obs.image_mask.end(), 0);  // no image tokens: image blocks have no key
  model::write_observation(obs, f.config, dir_ / "noimg.npz");
  expect_rejected("--checkpoint " + f.release + " --observation " + (dir_ / "noimg.npz"), "'image' key set is empty");
}

TEST_F(BadInput, DirectoryThatIsNotARelease) {
  fs::create_directories(dir_ / "empty");
  expect_rejected("--checkpoint " + (dir_ / "empty"), "not a GR00T release");
  expect_rejected("--checkpoint " + (dir_ / "nowhere"), "nowhere");
}

TEST_F(BadInput, WrongNoiseShape) {
  const TinyFixture& f = tiny_fixture(Version::n16);
  io::write_npy(dir_ / "noise.npy", Tensor(DType::F32, {3, 3}).view());
  expect_rejected("--checkpoint " + f.release + " --noise " + (dir_ / "noise.npy"), "noise.npy");
}

// Real-time chunking (N1.7): the four options come together with the previous chunk, and every
// option or chunk the released code would assert on, fail to slice, or turn into non-finite actions
// is refused by name.
TEST_F(BadInput, RealTimeChunking) {
  const TinyFixture& f = tiny_fixture(Version::n17);
  const int H = f.config.horizon, A = f.config.action_dim;
  const std::string prev = dir_ / "prev.npy";
  io::write_npy(prev, model::synthetic_noise(f.config, 3).view());
  const std::string run = "--checkpoint " + f.release + " --previous-actions " + prev;
  auto options = [](int horizon, int overlap, int frozen, const std::string& rate) {
    return fmt::format(" --rtc-horizon={} --rtc-overlap={} --rtc-frozen={} --rtc-ramp-rate={}", horizon, overlap, frozen, rate);
  };
  expect_rejected(run + fmt::format(" --rtc-horizon {} --rtc-overlap 4 --rtc-frozen 1", H), "--rtc-ramp-rate: missing");
  expect_rejected("--checkpoint " + f.release + " --rtc-overlap 4", "--rtc-overlap: real-time chunking needs --previous-actions");
  expect_rejected(run + options(H, H + 1, 1, "2"), fmt::format("rtc_overlap_steps {}", H + 1));
  expect_rejected(run + options(H + 1, 4, 1, "2"), fmt::format("action_horizon {}: more than the {} rows", H + 1, H));
  expect_rejected(run + options(H, 4, 6, "2"), "rtc_frozen_steps 6: more than rtc_overlap_steps 4 + 1");
  expect_rejected(run + options(H, -1, 0, "2"), "rtc_overlap_steps -1: negative");
  expect_rejected(run + options(H, 4, 1, "nan"), "rtc_ramp_rate nan");
  Tensor nan = model::synthetic_noise(f.config, 3);
  nan.data<float>()[(H - 1) * A + 1] = std::numeric_limits<float>::quiet_NaN();
  io::write_npy(dir_ / "nan.npy", nan.view());
  expect_rejected("--checkpoint " + f.release + " --previous-actions " + (dir_ / "nan.npy") + options(H, 4, 1, "2"),
                  fmt::format("nan.npy: non-finite value at row {}, column 1", H - 1));
  io::write_npy(dir_ / "narrow.npy", Tensor(DType::F32, {H, A - 1}).view());
  expect_rejected("--checkpoint " + f.release + " --previous-actions " + (dir_ / "narrow.npy") + options(H, 4, 1, "2"),
                  "narrow.npy: shape");
  io::write_npy(dir_ / "ints.npy", Tensor(DType::I32, {H, A}).view());
  expect_rejected("--checkpoint " + f.release + " --previous-actions " + (dir_ / "ints.npy") + options(H, 4, 1, "2"),
                  "ints.npy: dtype");
  for (const Version v : {Version::n15, Version::n16}) {
    const TinyFixture& other = tiny_fixture(v);
    io::write_npy(dir_ / "prev_other.npy", model::synthetic_noise(other.config, 3).view());
    expect_rejected("--checkpoint " + other.release + " --previous-actions " + (dir_ / "prev_other.npy") +
                        options(other.config.horizon, 4, 1, "2"),
                    "real-time chunking is N1.7's");
  }
}

// The reference runs on NaN weights (and says so in its output); int8 cannot quantize them.
TEST_F(BadInput, NaNWeightForInt8) {
  const std::string release = edited_release([](auto& tensors) {
    for (auto& [name, t] : tensors)
      if (name == kQ) t.template data<float>()[5] = std::numeric_limits<float>::quiet_NaN();
  });
  const std::string out = dir_ / "out.npy";
  const CliResult r = run_ditmk("run --backend cpu --dtype int8 --embodiment 1 --checkpoint " + release + " --out " + out);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("transformer_blocks.1.attn1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("int8"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(BadInput, MakeCheckpointRefusesANonEmptyTarget) {
  fs::create_directories(dir_ / "busy");
  std::ofstream(dir_ / "busy/file") << "x";
  const CliResult r = run_ditmk("make-checkpoint --tiny --version n16 --out " + (dir_ / "busy"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("busy"), std::string::npos);
}

}  // namespace
}  // namespace ditmk::testing
