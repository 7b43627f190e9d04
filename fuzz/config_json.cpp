// The config.json reader over arbitrary bytes: the text parsed as a checkpoint's config.json is
// (nesting bounded), then read as each version's release would write it, its version and image token
// looked up. An Error is the expected answer to bad input; any other exception, a crash, a leak or a
// sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ditmk/core/error.hpp"
#include "ditmk/io/json_text.hpp"
#include "ditmk/model/config_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ditmk::model::Version;
  try {
    const nlohmann::json config =
        ditmk::io::parse_json_bounded({reinterpret_cast<const char*>(data), size}, "config.json");
    if (config.is_discarded()) return 0;
    ditmk::model::version_from_json(config);
    ditmk::model::image_token_index(config);
    for (const Version version : {Version::n15, Version::n16, Version::n17}) {
      try {
        ditmk::model::read_config_json(config, version, "config.json");
      } catch (const ditmk::Error&) {
      }
    }
  } catch (const ditmk::Error&) {
  }
  return 0;
}
