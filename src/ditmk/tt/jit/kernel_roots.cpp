#include "ditmk/tt/jit/kernel_roots.hpp"

#include <cstdlib>
#include <system_error>

namespace ditmk::tt::dialect {

namespace fs = std::filesystem;

namespace {

// Made absolute without throwing: a working folder that is gone leaves the path as it is.
fs::path absolute_normal(const fs::path& p) {
  std::error_code ec;
  const fs::path made = fs::absolute(p, ec);
  return (ec ? p : made).lexically_normal();
}

}  // namespace

std::optional<fs::path> kernel_root(const std::optional<fs::path>& option) {
  std::optional<fs::path> root;
  if (option && !option->empty()) {
    root = *option;
  } else if (const char* home = std::getenv("TT_METAL_HOME"); home && *home) {
    root = fs::path(home);
  }
  if (!root) return std::nullopt;
  return absolute_normal(*root);
}

std::vector<fs::path> kernel_root_include_dirs(const fs::path& root) {
  // tt_metal/jit_build/build.cpp's list less what ditmk's device headers replace (tt_metal/hw/inc,
  // tt_metal/hw/inc/debug, and the HAL's LLK and ckernels folders).
  std::vector<fs::path> dirs;
  for (const char* sub : {"", "ttnn", "ttnn/cpp", "tt_metal", "tt_metal/include", "tt_metal/hostdevcommon/api",
                          "tt_metal/api", "tt_metal/api/tt-metalium"}) {
    dirs.push_back(*sub ? root / sub : root);
  }
  return dirs;
}

std::vector<fs::path> kernel_source_candidates(const std::string& text, const fs::path& descriptor_folder,
                                               const std::optional<fs::path>& root) {
  const fs::path path(text);
  if (path.is_absolute()) return {path.lexically_normal()};
  std::vector<fs::path> candidates = {absolute_normal(descriptor_folder / path)};
  const fs::path in_working_folder = absolute_normal(path);
  if (in_working_folder != candidates.front()) candidates.push_back(in_working_folder);
  if (root) candidates.push_back((*root / path).lexically_normal());
  return candidates;
}

std::optional<fs::path> find_kernel_source(const std::vector<fs::path>& candidates) {
  for (const fs::path& candidate : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate;
  }
  return std::nullopt;
}

}  // namespace ditmk::tt::dialect
