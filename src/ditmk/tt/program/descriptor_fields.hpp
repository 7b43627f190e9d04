#pragma once
// Walking a descriptor's JSON: each value with its JSON path ("kernels[1].core_ranges[0].end"), so
// that every refusal is one line naming the file and the field. Internal to descriptor.cpp.
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ditmk/tt/program/descriptor_checks.hpp"

namespace ditmk::tt::dialect::detail {

// Objects keep their keys in file order, so lists read from objects (defines, named args) do too.
using Json = nlohmann::ordered_json;

// The JSON text of `text`: quoted and escaped to printable ASCII, so a message stays one line.
std::string in_quotes(std::string_view text);
// A value as it reads in a message: its JSON text, shortened when long.
std::string shown(const Json& value);
// Parses a descriptor's text, refusing (naming `file`) text that is not JSON or nests too deep.
Json parse_ordered_json(std::string_view text, const std::filesystem::path& file);

class Field {
 public:
  Field(const Json& value, std::string path, const std::filesystem::path& file)
      : value_(&value), path_(std::move(path)), file_(&file) {}

  const Json& json() const { return *value_; }
  const std::string& path() const { return path_; }
  const std::filesystem::path& file() const { return *file_; }

  template <typename... Args>
  [[noreturn]] void refuse(fmt::format_string<Args...> format, Args&&... args) const {
    fail_at(*file_, path_, fmt::format(format, std::forward<Args>(args)...));
  }
  [[noreturn]] void expected(std::string_view what) const;

  // An object whose keys are all among `keys` (a misspelt key is refused, not ignored).
  void object(std::initializer_list<std::string_view> keys) const;
  Field at(std::string_view key) const;                   // a member the object must have
  std::optional<Field> find(std::string_view key) const;  // a member it may have
  std::vector<Field> items() const;                       // an array's elements
  std::vector<std::pair<std::string, Field>> members() const;  // an object's members, in file order

  uint32_t u32() const;
  uint32_t u32_below(uint32_t limit) const;
  bool boolean() const;
  bool boolean_or(std::string_view key, bool fallback) const;  // the member `key`, or `fallback` when absent
  std::string text() const;
  std::string name() const;  // a non-empty string
  // This member's key `key` is a C identifier (it becomes a macro or a compile-time arg name).
  void identifier_key(const std::string& key) const;
  // This member's key `key` names a macro: a C identifier, or a function-like macro's "F(a, b)".
  void macro_key(const std::string& key) const;
  // The CB id this member's key names: "0" .. "63".
  uint32_t cb_id_key(const std::string& key) const;

  template <typename E>
  E choice(std::initializer_list<std::pair<std::string_view, E>> names) const {
    if (value_->is_string())
      for (const auto& [name, value] : names)
        if (value_->get_ref<const std::string&>() == name) return value;
    std::string listed;
    for (const auto& [name, value] : names) listed += (listed.empty() ? "" : ", ") + in_quotes(name);
    expected(fmt::format("one of {}", listed));
  }
  // The member `key` as one of `names`, or `fallback` when absent.
  template <typename E>
  E choice_or(std::string_view key, E fallback, std::initializer_list<std::pair<std::string_view, E>> names) const {
    const auto member = find(key);
    return member ? member->choice(names) : fallback;
  }

 private:
  uint64_t at_most(uint64_t max) const;
  Field member(const std::string& key, const Json& value) const;
  const Json* value_;
  std::string path_;
  const std::filesystem::path* file_;
};

// A core [x, y] on the grid.
emu::CoreCoord read_core(const Field& f);
// A non-empty list of {"start": [x, y], "end": [x, y]}, start <= end, no two ranges sharing a core.
CoreRangeSet read_range_set(const Field& f);

}  // namespace ditmk::tt::dialect::detail
