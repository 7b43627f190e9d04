#pragma once
// Where tests find tt-metal's reference tree (the device headers and kernels of the ttnn wheel that
// scripts/fetch-tt-metal.sh unpacks): the same place the script puts it, from the same pin file, so
// the version is written once (scripts/tt-metal.pin). Tests that need the tree skip, naming the
// path, when it is absent or incomplete.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "ditmk/core/build_paths.hpp"

namespace ditmk::test {

struct TtMetalPin {
  std::string version;
  std::string sha256;
  std::string layout;  // which folders the script keeps
};

inline TtMetalPin tt_metal_pin() {
  std::ifstream in(std::string(ditmk::build::source_dir()) + "/scripts/tt-metal.pin");
  TtMetalPin pin;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("version=", 0) == 0) pin.version = line.substr(8);
    if (line.rfind("sha256=", 0) == 0) pin.sha256 = line.substr(7);
    if (line.rfind("layout=", 0) == 0) pin.layout = line.substr(7);
  }
  return pin;
}

// $DITMK_TT_METAL, else ${XDG_CACHE_HOME:-$HOME/.cache}/ditmk/tt-metal-<version>, as the script.
inline std::filesystem::path tt_metal_tree_path() {
  if (const char* set = std::getenv("DITMK_TT_METAL"); set != nullptr && *set != '\0') return set;
  std::filesystem::path cache;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    cache = xdg;
  } else {
    const char* home = std::getenv("HOME");
    cache = std::filesystem::path(home != nullptr ? home : "") / ".cache";
  }
  return cache / "ditmk" / ("tt-metal-" + tt_metal_pin().version);
}

// The tree when it is complete, of the pinned version and layout (its stamp, written last, says so:
// the version and hash, then the layout).
inline std::optional<std::filesystem::path> tt_metal_tree() {
  const auto path = tt_metal_tree_path();
  const TtMetalPin pin = tt_metal_pin();
  std::ifstream stamp(path / ".ditmk-tree");
  std::string text, layout;
  std::getline(stamp, text);
  std::getline(stamp, layout);
  if (text != "ttnn " + pin.version + " sha256 " + pin.sha256 || layout != "layout " + pin.layout) return std::nullopt;
  return path;
}

// The one line a test skips with.
inline std::string tt_metal_tree_missing() {
  return "tt-metal " + tt_metal_pin().version + " reference tree missing at " +
         tt_metal_tree_path().string() + " (scripts/fetch-tt-metal.sh fetches it)";
}

}  // namespace ditmk::test
