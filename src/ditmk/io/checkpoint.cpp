#include "ditmk/io/checkpoint.hpp"

#include <filesystem>

#include "ditmk/core/error.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/io/json_text.hpp"

namespace ditmk::io {

namespace fs = std::filesystem;
using nlohmann::json;

json read_json_file(const std::string& path) {
  json value = parse_json_bounded(read_text_file(path), path);
  if (value.is_discarded()) fail("{}: not well-formed JSON", path);
  return value;
}

namespace {
const json& or_null(const std::shared_ptr<const json>& value) {
  static const json null_value;
  return value ? *value : null_value;
}
}  // namespace

const json& Checkpoint::config() const { return or_null(config_); }
const json& Checkpoint::embodiments() const { return or_null(embodiments_); }

Checkpoint Checkpoint::open(const std::string& path) {
  Checkpoint ckpt;
  ckpt.path_ = path;
  std::error_code ec;
  if (!fs::exists(path, ec)) fail_not_found("{}: no such file or directory", path);
  if (!fs::is_directory(path, ec)) {
    ckpt.files_.push_back(std::make_shared<SafetensorsFile>(path));
    for (const auto& [name, entry] : ckpt.files_[0]->entries()) ckpt.where_[name] = 0;
    return ckpt;
  }
  ckpt.is_release_ = true;
  const fs::path dir(path);
  if (fs::exists(dir / "config.json"))
    ckpt.config_ = std::make_shared<const json>(read_json_file((dir / "config.json").string()));
  if (fs::exists(dir / "embodiment_id.json"))
    ckpt.embodiments_ = std::make_shared<const json>(read_json_file((dir / "embodiment_id.json").string()));
  const fs::path single = dir / "model.safetensors";
  const fs::path index = dir / "model.safetensors.index.json";
  if (fs::exists(index)) {
    const json idx = read_json_file(index.string());
    const auto map = idx.find("weight_map");
    if (map == idx.end() || !map->is_object()) fail("{}: missing object 'weight_map'", index.string());
    std::map<std::string, std::size_t> file_slot;
    for (const auto& [name, file] : map->items()) {
      if (!file.is_string()) fail("{}: weight_map['{}'] is not a file name", index.string(), name);
      const std::string shard = file.get<std::string>();
      if (shard.find('/') != std::string::npos) fail("{}: weight_map['{}'] names a path outside the release: {}", index.string(), name, shard);
      auto [it, added] = file_slot.emplace(shard, ckpt.files_.size());
      if (added) {
        if (!fs::exists(dir / shard)) fail("{}: shard {} listed in the index does not exist", path, shard);
        ckpt.files_.push_back(std::make_shared<SafetensorsFile>((dir / shard).string()));
      }
      if (!ckpt.files_[it->second]->has(name)) fail("{}: missing tensor '{}' (the index puts it there)", (dir / shard).string(), name);
      ckpt.where_[name] = it->second;
    }
  } else if (fs::exists(single)) {
    ckpt.files_.push_back(std::make_shared<SafetensorsFile>(single.string()));
    for (const auto& [name, entry] : ckpt.files_[0]->entries()) ckpt.where_[name] = 0;
  } else {
    fail("{}: not a GR00T release (no model.safetensors or model.safetensors.index.json)", path);
  }
  return ckpt;
}

TensorView Checkpoint::get(const std::string& name) const {
  const auto it = where_.find(name);
  if (it == where_.end()) fail("{}: missing tensor '{}'", path_, name);
  return files_[it->second]->view(name);
}

const std::string& Checkpoint::file_of(const std::string& name) const {
  const auto it = where_.find(name);
  if (it == where_.end()) fail("{}: missing tensor '{}'", path_, name);
  return files_[it->second]->path();
}

std::vector<std::string> Checkpoint::names() const {
  std::vector<std::string> out;
  for (const auto& [name, slot] : where_) out.push_back(name);
  return out;
}

}  // namespace ditmk::io
