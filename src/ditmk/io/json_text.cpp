#include "ditmk/io/json_text.hpp"

#include "ditmk/core/error.hpp"

namespace ditmk::io {

using nlohmann::json;

json parse_json_bounded(std::string_view text, const std::string& what) {
  // The callback sees every value as it opens, so parsing stops at the first level too deep.
  const json::parser_callback_t guard = [&what](int depth, json::parse_event_t, json&) {
    if (depth > kMaxJsonDepth) fail("{}: JSON nests deeper than {} levels", what, kMaxJsonDepth);
    return true;
  };
  return json::parse(text.begin(), text.end(), guard, false);
}

}  // namespace ditmk::io
