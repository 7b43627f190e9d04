#pragma once
// JSON text from files ditmk did not write (config.json, safetensors headers, index files), parsed
// with a bound on nesting: real files nest a few levels, and a file nesting millions deep would
// overflow the stack of whatever walks or prints it later.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ditmk::io {

constexpr int kMaxJsonDepth = 64;

// The value `text` holds; a discarded value when it is not well-formed JSON (the caller says what it
// expected), an Error naming `what` when it nests deeper than kMaxJsonDepth.
nlohmann::json parse_json_bounded(std::string_view text, const std::string& what);

}  // namespace ditmk::io
