#include "ditmk/tt/program/descriptor_fields.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "ditmk/core/error.hpp"
#include "ditmk/io/json_text.hpp"

namespace ditmk::tt::dialect::detail {

namespace {

// A descriptor object has a handful of keys (defines and named args a few dozen). ordered_json finds
// a key by a linear search, so the bound keeps a hostile file from making parsing quadratic.
constexpr size_t kMaxMembers = 1024;

bool is_identifier(std::string_view text) {
  const auto letter = [](char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  return !text.empty() && letter(text[0]) &&
         std::all_of(text.begin(), text.end(), [&](char c) { return letter(c) || digit(c); });
}

// A macro's name as -D takes it: an identifier, or a function-like macro's identifier and parameter
// list ("F(a, b)"; ttnn's binary_ng factory defines PROCESS_LHS_ACTIVATIONS(i) and the like).
bool is_macro_name(std::string_view text) {
  const size_t open = text.find('(');
  if (open == std::string_view::npos) return is_identifier(text);
  if (!is_identifier(text.substr(0, open)) || text.back() != ')') return false;
  std::string_view params = text.substr(open + 1, text.size() - open - 2);
  if (params.find_first_not_of(' ') == std::string_view::npos) return true;  // F()
  while (true) {
    const size_t comma = params.find(',');
    std::string_view param = params.substr(0, comma);
    while (!param.empty() && param.front() == ' ') param.remove_prefix(1);
    while (!param.empty() && param.back() == ' ') param.remove_suffix(1);
    if (!is_identifier(param)) return false;
    if (comma == std::string_view::npos) return true;
    params.remove_prefix(comma + 1);
  }
}

// Where the member `key` of the value at `path` lies: "a.key", or "a[\"odd key\"]" when the key is
// not an identifier.
std::string member_path(const std::string& path, const std::string& key) {
  if (!is_identifier(key)) return fmt::format("{}[{}]", path, in_quotes(key));
  return path.empty() ? key : path + "." + key;
}

CoreRange read_range(const Field& f) {
  f.object({"start", "end"});
  const CoreRange range{read_core(f.at("start")), read_core(f.at("end"))};
  if (range.start.x > range.end.x || range.start.y > range.end.y)
    f.refuse("start {} is past end {}", emu::core_name(range.start), emu::core_name(range.end));
  return range;
}

}  // namespace

void fail_at(const std::filesystem::path& file, std::string_view path, std::string_view message) {
  if (path.empty()) fail("{}: {}", file.string(), message);
  fail("{}: {}: {}", file.string(), path, message);
}

std::string in_quotes(std::string_view text) {
  return Json(std::string(text)).dump(-1, ' ', true, Json::error_handler_t::replace);
}

std::string shown(const Json& value) {
  constexpr size_t kShown = 48;
  std::string text = value.dump(-1, ' ', true, Json::error_handler_t::replace);
  if (text.size() > kShown) text = text.substr(0, kShown - 3) + "...";
  return text;
}

Json parse_ordered_json(std::string_view text, const std::filesystem::path& file) {
  // The callback sees every value as it opens and every key, so parsing stops at the first level too
  // deep or the first object with too many members.
  std::vector<size_t> members;
  const Json::parser_callback_t guard = [&](int depth, Json::parse_event_t event, Json&) {
    if (depth > io::kMaxJsonDepth) fail("{}: JSON nests deeper than {} levels", file.string(), io::kMaxJsonDepth);
    if (event == Json::parse_event_t::object_start) members.push_back(0);
    if (event == Json::parse_event_t::object_end && !members.empty()) members.pop_back();
    if (event == Json::parse_event_t::key && !members.empty() && ++members.back() > kMaxMembers)
      fail("{}: a JSON object has more than {} members", file.string(), kMaxMembers);
    return true;
  };
  try {
    return Json::parse(text.begin(), text.end(), guard);
  } catch (const Json::exception& e) {
    // A syntax error, or a number too large for a double (out_of_range.406): "[json.exception.<id>] <what>".
    const std::string_view what = e.what();
    const size_t tag = what.find("] ");
    fail("{}: not valid JSON: {}", file.string(), tag == std::string_view::npos ? what : what.substr(tag + 2));
  }
}

void Field::expected(std::string_view what) const { refuse("expected {}, got {}", what, shown(*value_)); }

Field Field::member(const std::string& key, const Json& value) const { return {value, member_path(path_, key), *file_}; }

void Field::object(std::initializer_list<std::string_view> keys) const {
  if (!value_->is_object()) expected("an object");
  for (const auto& [key, value] : value_->items()) {
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    std::string known;
    for (const std::string_view k : keys) known += fmt::format("{}{}", known.empty() ? "" : ", ", k);
    member(key, value).refuse("unknown field (known: {})", known);
  }
}

Field Field::at(std::string_view key) const {
  if (!value_->is_object()) expected("an object");
  const auto it = value_->find(key);
  if (it == value_->end()) Field(*value_, member_path(path_, std::string(key)), *file_).refuse("is missing");
  return member(std::string(key), *it);
}

std::optional<Field> Field::find(std::string_view key) const {
  if (!value_->is_object()) expected("an object");
  const auto it = value_->find(key);
  if (it == value_->end()) return std::nullopt;
  return member(std::string(key), *it);
}

std::vector<Field> Field::items() const {
  if (!value_->is_array()) expected("an array");
  std::vector<Field> items;
  items.reserve(value_->size());
  for (size_t i = 0; i < value_->size(); ++i) items.emplace_back((*value_)[i], fmt::format("{}[{}]", path_, i), *file_);
  return items;
}

std::vector<std::pair<std::string, Field>> Field::members() const {
  if (!value_->is_object()) expected("an object");
  std::vector<std::pair<std::string, Field>> members;
  for (const auto& [key, value] : value_->items()) members.emplace_back(key, member(key, value));
  return members;
}

uint32_t Field::u32() const { return uint32_t(at_most(std::numeric_limits<uint32_t>::max())); }

uint32_t Field::u32_below(uint32_t limit) const { return uint32_t(at_most(uint64_t(limit) - 1)); }

uint64_t Field::at_most(uint64_t max) const {
  // Parsed text gives non-negative integers as unsigned, a document built in code may hold them
  // signed, and JSON (and JSON Schema's "integer") counts 8.0 as the integer 8.
  const Json& v = *value_;
  std::optional<uint64_t> number;
  if (v.is_number_unsigned()) number = v.get<uint64_t>();
  if (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() >= 0) number = uint64_t(v.get<int64_t>());
  if (v.is_number_float() && v.get<double>() >= 0 && v.get<double>() <= double(max) &&
      v.get<double>() == std::floor(v.get<double>()))
    number = uint64_t(v.get<double>());
  if (!number || *number > max) expected(fmt::format("an integer in 0..{}", max));
  return *number;
}

bool Field::boolean() const {
  if (!value_->is_boolean()) expected("true or false");
  return value_->get<bool>();
}

bool Field::boolean_or(std::string_view key, bool fallback) const {
  const auto member = find(key);
  return member ? member->boolean() : fallback;
}

std::string Field::text() const {
  if (!value_->is_string()) expected("a string");
  return value_->get<std::string>();
}

std::string Field::name() const {
  std::string text = this->text();
  if (text.empty()) refuse("is empty: give a name");
  return text;
}

void Field::identifier_key(const std::string& key) const {
  if (!is_identifier(key)) refuse("{} is not a C identifier (letters, digits, _; not a digit first)", in_quotes(key));
}

void Field::macro_key(const std::string& key) const {
  if (!is_macro_name(key))
    refuse("{} is not a macro name (a C identifier, or one with a parameter list as in \"F(i)\")", in_quotes(key));
}

uint32_t Field::cb_id_key(const std::string& key) const {
  const bool digits = std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; });
  const bool canonical = digits && !key.empty() && key.size() <= 2 && (key.size() == 1 || key[0] != '0');
  if (!canonical || std::stoul(key) >= emu::kMaxCbId) refuse("{} is not a CB id (\"0\" .. \"63\")", in_quotes(key));
  return uint32_t(std::stoul(key));
}

emu::CoreCoord read_core(const Field& f) {
  const std::vector<Field> xy = f.items();
  if (xy.size() != 2) f.expected("a core [x, y]");
  const emu::CoreCoord core{xy[0].u32(), xy[1].u32()};
  if (!emu::on_grid(core))
    f.refuse("core {} is off the {}x{} grid", emu::core_name(core), emu::kGridX, emu::kGridY);
  return core;
}

CoreRangeSet read_range_set(const Field& f) {
  const std::vector<Field> items = f.items();
  if (items.empty()) f.refuse("is empty: name at least one core range");
  const std::string_view set_name = std::string_view(f.path()).substr(f.path().rfind('.') + 1);
  CoreRangeSet set;
  std::array<int, emu::kNumCores> owner;
  owner.fill(-1);
  for (size_t i = 0; i < items.size(); ++i) {
    set.push_back(read_range(items[i]));
    for (const emu::CoreCoord core : cores_of({set.back()})) {
      int& slot = owner[emu::core_index(core)];
      if (slot >= 0) items[i].refuse("overlaps {}[{}] at core {}", set_name, slot, emu::core_name(core));
      slot = int(i);
    }
  }
  return set;
}

}  // namespace ditmk::tt::dialect::detail
