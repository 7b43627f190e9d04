#include "ditmk/tt/dialect/kernel_roots.hpp"

#include <cstdlib>
#include <system_error>

namespace ditmk::tt::dialect {

namespace fs = std::filesystem;

std::optional<fs::path> kernel_root(const std::optional<fs::path>& option) {
  if (option && !option->empty()) return fs::absolute(*option).lexically_normal();
  if (const char* home = std::getenv("TT_METAL_HOME"); home && *home) return fs::absolute(home).lexically_normal();
  return std::nullopt;
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
  std::vector<fs::path> candidates = {fs::absolute(descriptor_folder / path).lexically_normal()};
  const fs::path in_working_folder = fs::absolute(path).lexically_normal();
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
