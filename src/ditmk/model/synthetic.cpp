#include "ditmk/model/synthetic.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "ditmk/core/error.hpp"
#include "ditmk/core/progress.hpp"
#include "ditmk/core/rng.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/io/safetensors.hpp"
#include "ditmk/model/config_json.hpp"
#include "ditmk/model/release_layout.hpp"

namespace ditmk::model {

namespace fs = std::filesystem;

namespace {

uint64_t name_stream(const std::string& name) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a: a tensor's values depend on its name only
  for (char ch : name) h = (h ^ uint8_t(ch)) * 1099511628211ull;
  return h;
}

// Value scale of each tensor: weights keep unit variance per output (uniform with std 1/sqrt(fan_in)),
// biases and embeddings are small, LayerNorm gains sit near 1.
struct ValueRule {
  double center = 0.0, std = 0.0;
};

ValueRule rule_for(const TensorSpec& spec) {
  const std::string& n = spec.name;
  auto ends_with = [&](const char* s) { return n.size() >= std::strlen(s) && n.compare(n.size() - std::strlen(s), std::string::npos, s) == 0; };
  if (n.find("norm1.weight") != std::string::npos || n.find("norm3.weight") != std::string::npos || ends_with("vlln.weight"))
    return {1.0, 0.05};
  if (spec.is_bias_or_norm || ends_with(".b")) return {0.0, 0.02};
  if (ends_with("position_embedding.weight") || ends_with("future_tokens.weight")) return {0.0, 0.1};
  const int64_t fan_in = spec.shape.size() == 3 ? spec.shape[1] : spec.shape[1];
  return {0.0, 1.0 / std::sqrt(double(fan_in))};
}

void fill_tensor(const TensorSpec& spec, DType dtype, uint64_t seed, std::byte* out) {
  const CounterRng rng(seed, name_stream(spec.name));
  const ValueRule rule = rule_for(spec);
  const double half_width = rule.std * std::sqrt(3.0);  // uniform on [-a, a] has std a/sqrt(3)
  const int64_t n = shape_numel(spec.shape);
  auto fill_range = [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const float v = float(rule.center + half_width * (2.0 * rng.uniform(uint64_t(i)) - 1.0));
      if (dtype == DType::BF16) reinterpret_cast<uint16_t*>(out)[i] = f32_to_bf16(v);
      else reinterpret_cast<float*>(out)[i] = v;
    }
  };
  const int64_t mid = n / 2;
  std::thread other(fill_range, mid, n);
  fill_range(0, mid);
  other.join();
}

}  // namespace

void write_synthetic_release(const ModelConfig& config, const std::string& dir, const SyntheticOptions& options) {
  require(options.dtype == DType::BF16 || options.dtype == DType::F32, "--dtype: synthetic releases are bf16 or fp32");
  std::error_code ec;
  if (fs::exists(dir, ec) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec)))
    fail("{}: already exists and is not an empty directory", dir);
  const fs::path target = fs::absolute(dir);
  const fs::path staging = target.string() + ".partial." + std::to_string(::getpid());
  fs::remove_all(staging, ec);
  fs::create_directories(staging, ec);
  if (ec) fail("{}: cannot create: {}", staging.string(), ec.message());
  try {
    const auto tensors = release_tensors(config);
    // group tensors into shards in release order
    std::vector<std::vector<std::size_t>> shards(1);
    uint64_t shard_size = 0, total = 0;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      const uint64_t bytes = uint64_t(shape_numel(tensors[i].shape)) * dtype_size(options.dtype);
      if (shard_size > 0 && shard_size + bytes > options.shard_bytes) shards.emplace_back(), shard_size = 0;
      shards.back().push_back(i);
      shard_size += bytes;
      total += bytes;
    }
    Progress progress("writing " + target.filename().string(), options.progress ? total : 0);
    nlohmann::json weight_map = nlohmann::json::object();
    for (std::size_t s = 0; s < shards.size(); ++s) {
      const std::string file = fmt::format("model-{:05d}-of-{:05d}.safetensors", s + 1, shards.size());
      std::vector<io::TensorDecl> decls;
      for (std::size_t i : shards[s]) {
        decls.push_back({tensors[i].name, options.dtype, tensors[i].shape});
        weight_map[tensors[i].name] = file;
      }
      io::write_safetensors(
          (staging / file).string(), decls,
          [&](std::size_t k, std::byte* out, std::size_t) { fill_tensor(tensors[shards[s][k]], options.dtype, options.seed, out); },
          {{"format", "pt"}}, [&](std::size_t bytes) { if (options.progress) progress.advance(bytes); });
    }
    progress.finish();
    const nlohmann::json index = {{"metadata", {{"total_size", total}}}, {"weight_map", weight_map}};
    io::write_file_atomic((staging / "model.safetensors.index.json").string(), index.dump(2) + "\n");
    io::write_file_atomic((staging / "config.json").string(), config_to_json(config).dump(2) + "\n");
    io::write_file_atomic((staging / "embodiment_id.json").string(), nlohmann::json(config.embodiment_ids).dump(2) + "\n");
    fs::remove(target, ec);  // an empty directory given as target
    fs::rename(staging, target, ec);
    if (ec) fail("{}: cannot finish writing: {}", target.string(), ec.message());
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
}

ModelConfig tiny_config(Version version, int n_blocks) {
  ModelConfig c = default_config(version);
  // The widths the released code fixes stay as released (256 timestep channels, feed-forwards 4x
  // their width), so that the released modules (and LeRobot's) can load a tiny release.
  c.dims = {.width = 64, .n_heads = 4, .head_dim = 16, .ff_dim = 256, .ctx_dim = 96, .out_dim = 48, .hidden = 48,
            .temb_channels = 256, .vl_heads = 4, .vl_head_dim = 24, .vl_ff_dim = 384, .pos_rows = 64};
  c.n_blocks = n_blocks;
  c.vl_layers = version == Version::n16 ? 0 : 2;
  c.n_future = version == Version::n15 ? 4 : 0;
  c.action_dim = 6;
  c.state_dim = 5;
  c.horizon = 8;
  c.n_embodiments = 3;
  c.embodiment_ids = {{"tiny_robot", 1}, {"new_embodiment", 2}};
  c.block_keys = block_schedule(c);
  return c;
}

Observation synthetic_observation(const ModelConfig& config, uint64_t seed) {
  const bool full = config.dims.width == 1536;
  // text before and after the image tokens, padding last (the backbone's order)
  int text = 0, image = 0, pad = 0;
  switch (config.version) {
    case Version::n15: text = full ? 300 : 24; break;
    case Version::n16: text = full ? 40 : 6, image = full ? 81 : 10, pad = full ? 7 : 2; break;
    case Version::n17: text = full ? 50 : 6, image = full ? 448 : 12, pad = full ? 14 : 2; break;
  }
  const int tokens = text + image + pad;
  Observation obs;
  Tensor features(DType::F32, {tokens, config.dims.ctx_dim});
  const CounterRng rng(seed, 0xfea7);
  for (int64_t i = 0; i < features.numel(); ++i) features.data<float>()[i] = float(rng.normal(uint64_t(i)));
  obs.own_features(std::move(features));
  obs.attention_mask.assign(tokens, 1);
  obs.image_mask.assign(tokens, 0);
  const int image_begin = text / 2;
  for (int j = image_begin; j < image_begin + image; ++j) obs.image_mask[j] = 1;
  for (int j = tokens - pad; j < tokens; ++j) obs.attention_mask[j] = 0;
  const CounterRng state_rng(seed, 0x57a7e);
  obs.state.resize(config.state_input());
  for (int i = 0; i < config.state_input(); ++i) obs.state[i] = float(0.5 * state_rng.normal(uint64_t(i)));
  return obs;
}

Tensor synthetic_noise(const ModelConfig& config, uint64_t seed) {
  Tensor noise(DType::F32, {config.horizon, config.action_dim});
  const CounterRng rng(seed, 0x0015e);
  for (int64_t i = 0; i < noise.numel(); ++i) noise.data<float>()[i] = float(rng.normal(uint64_t(i)));
  return noise;
}

std::string default_model_dir(Version version) {
  fs::path root;
  if (const char* cache = std::getenv("DITMK_CACHE"); cache && *cache) root = cache;
  else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) root = fs::path(xdg) / "ditmk";
  else if (const char* home = std::getenv("HOME"); home && *home) root = fs::path(home) / ".cache" / "ditmk";
  else root = fs::temp_directory_path() / "ditmk-cache";
  // "-r2": the released config.json forms; a cache written in the earlier form is not read again
  return (root / fmt::format("groot-{}-bf16-seed0-r2", version_name(version))).string();
}

std::string ensure_default_model(Version version) {
  const std::string dir = default_model_dir(version);
  const fs::path index = fs::path(dir) / "model.safetensors.index.json";
  if (fs::exists(index)) return dir;
  std::error_code ec;
  fs::create_directories(fs::path(dir).parent_path(), ec);
  // Several processes may ask for it at once (tests run in parallel, two commands): one generates it
  // while the others wait on the lock, then find it whole.
  const std::string lock_path = dir + ".lock";
  const int lock = ::open(lock_path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock < 0) fail("{}: cannot open: {}", lock_path, std::strerror(errno));
  struct Unlock {
    int fd;
    ~Unlock() { ::close(fd); }  // closing releases the lock
  } unlock{lock};
  if (::flock(lock, LOCK_EX) != 0) fail("{}: cannot lock: {}", lock_path, std::strerror(errno));
  if (fs::exists(index)) return dir;
  if (is_terminal(stderr))
    fmt::print(stderr, "ditmk: generating the built-in {} model into {} (first use only)\n", version_name(version), dir);
  write_synthetic_release(default_config(version), dir, {});
  return dir;
}

}  // namespace ditmk::model
