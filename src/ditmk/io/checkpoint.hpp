#pragma once
// A checkpoint: one .safetensors file, or a release directory (config.json, embodiment_id.json and
// model.safetensors or shards listed by model.safetensors.index.json). Tensors are looked up by
// their full name wherever they live.
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "ditmk/io/safetensors.hpp"

namespace ditmk::io {

class Checkpoint {
 public:
  // Opens and validates every file; throws Error naming the path, file or tensor at fault.
  static Checkpoint open(const std::string& path);

  const std::string& path() const { return path_; }
  bool is_release() const { return is_release_; }
  bool has(const std::string& name) const { return where_.count(name) != 0; }
  TensorView get(const std::string& name) const;  // Error "<path>: missing tensor '<name>'"
  const std::string& file_of(const std::string& name) const;
  std::vector<std::string> names() const;
  // The weight files, in the order they were opened (the index's order for shards)
  const std::vector<std::shared_ptr<SafetensorsFile>>& files() const { return files_; }
  // config.json / embodiment_id.json of a release (null when absent or for a single file)
  const nlohmann::json& config() const;
  const nlohmann::json& embodiments() const;

 private:
  std::string path_;
  bool is_release_ = false;
  std::vector<std::shared_ptr<SafetensorsFile>> files_;
  std::map<std::string, std::size_t> where_;
  // held by pointer so that this header needs only json_fwd.hpp: nlohmann/json.hpp costs every
  // file that includes it about 3 s of parsing
  std::shared_ptr<const nlohmann::json> config_, embodiments_;
};

nlohmann::json read_json_file(const std::string& path);  // Error naming the file when malformed

}  // namespace ditmk::io
