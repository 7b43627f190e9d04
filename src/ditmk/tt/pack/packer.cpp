#include "ditmk/tt/pack/packer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/pack/arena_image.hpp"
#include "ditmk/tt/pack/host_tables.hpp"
#include "ditmk/tt/pack/op_matrix.hpp"
#include "ditmk/tt/pack/pack_files.hpp"
#include "ditmk/tt/pack/pack_manifest.hpp"
#include "ditmk/tt/pack/slice_order.hpp"

namespace ditmk::tt {

namespace fs = std::filesystem;

namespace {

// A file written at arbitrary offsets; its full size is set up front, so bytes never written (the
// gaps between regions) read back as zeros.
class OffsetFile {
 public:
  OffsetFile(const fs::path& path, uint64_t size) : path_(path.string()) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd_ < 0) fail("{}: cannot create: {}", path_, std::strerror(errno));
    if (::ftruncate(fd_, off_t(size)) != 0) fail("{}: cannot size to {} B: {}", path_, size, std::strerror(errno));
  }
  ~OffsetFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  OffsetFile(const OffsetFile&) = delete;
  OffsetFile& operator=(const OffsetFile&) = delete;

  void write_at(uint64_t offset, const std::byte* data, std::size_t size) {
    while (size > 0) {
      const ssize_t n = ::pwrite(fd_, data, size, off_t(offset));
      if (n <= 0) fail("{}: write at {} failed: {}", path_, offset, std::strerror(errno));
      data += n, size -= std::size_t(n), offset += uint64_t(n);
    }
  }
  void close() {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("{}: cannot finish writing: {}", path_, std::strerror(errno));
  }

 private:
  std::string path_;
  int fd_ = -1;
};

void write_whole(const fs::path& path, const void* data, std::size_t size) {
  OffsetFile file(path, size);
  file.write_at(0, static_cast<const std::byte*>(data), size);
  file.close();
}

void pack_arena(const ArenaLayout& layout, Arena arena, const model::Weights& weights, int embodiment,
                const fs::path& dir) {
  const std::vector<std::byte> image = arena_image(layout, arena, weights, embodiment);
  write_whole(dir / pack_files::arena_file(arena), image.data(), image.size());
}

void write_table(const HostTable& t, const fs::path& dir) {
  std::vector<uint16_t> words(t.values.size());
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = f32_to_bf16(float(t.values[i]));
  write_whole(dir / (t.name + ".bin"), words.data(), words.size() * sizeof(uint16_t));
}

std::string tag_of(const model::ModelConfig& config, int id) {
  for (const auto& [tag, slot] : config.embodiment_ids)
    if (slot == id) return tag;
  return "";
}

uint64_t directory_bytes(const fs::path& dir) {
  uint64_t total = 0;
  for (const auto& entry : fs::directory_iterator(dir)) total += entry.file_size();
  return total;
}

// Removes the staging directory unless the pack finished.
struct StagingGuard {
  fs::path path;
  bool done = false;
  ~StagingGuard() {
    std::error_code ec;
    if (!done) fs::remove_all(path, ec);
  }
};

}  // namespace

ArenaLayout pack_layout(const model::ModelConfig& config, TileFormat dtype_stream) {
  ArenaOptions options;
  options.variant = Variant::steps4;
  options.dtype_stream = dtype_stream;
  options.reader_mode = ReaderMode::direct;
  return plan_arena(config, default_layout(config), options);
}

PackSummary pack_checkpoint(const model::Weights& weights, const std::string& out_dir, const PackOptions& options) {
  const model::ModelConfig& config = weights.config;
  if (options.version && *options.version != config.version)
    fail("--version {}: the checkpoint {} is {}", model::version_name(*options.version), weights.checkpoint->path(),
         model::version_name(config.version));
  require(!options.embodiment.empty(), "--embodiment: no embodiment given");
  PackSummary summary;
  summary.embodiment = weights.resolve_embodiment(options.embodiment);
  summary.layout = pack_layout(config, options.dtype_stream);
  const ArenaLayout& layout = summary.layout;

  const fs::path target(out_dir);
  std::error_code ec;
  require(!fs::exists(target, ec) || (fs::is_directory(target, ec) && fs::is_empty(target, ec)),
          "--out {}: exists and is not an empty directory", out_dir);
  StagingGuard staging{fs::path(out_dir + ".partial." + std::to_string(::getpid()))};
  fs::remove_all(staging.path, ec);
  if (!fs::create_directory(staging.path, ec)) fail("--out {}: cannot create {}: {}", out_dir, staging.path.string(), ec.message());

  pack_arena(layout, Arena::stream, weights, summary.embodiment, staging.path);
  pack_arena(layout, Arena::small, weights, summary.embodiment, staging.path);
  const std::vector<uint32_t> offsets = layout.offsets_table();
  write_whole(staging.path / pack_files::kOffsetsTable, offsets.data(), offsets.size() * sizeof(uint32_t));
  const std::vector<HostTable> tables = host_tables(layout, weights, summary.embodiment);
  for (const HostTable& t : tables) write_table(t, staging.path);
  const PackIdentity identity{weights.checkpoint->path(), summary.embodiment, tag_of(config, summary.embodiment)};
  const nlohmann::json manifest = pack_manifest(layout, identity, tables);
  summary.n_ranges = manifest["ranges"].size();
  const std::string text = manifest.dump(1) + "\n";
  write_whole(staging.path / pack_files::kManifest, text.data(), text.size());

  summary.bytes_written = directory_bytes(staging.path);
  fs::remove(target, ec);  // an empty directory given as the target
  fs::rename(staging.path, target, ec);
  if (ec) fail("--out {}: cannot finish writing: {}", out_dir, ec.message());
  staging.done = true;
  return summary;
}

}  // namespace ditmk::tt
