// The wire request decoder over arbitrary bytes: a msgpack request (with .npy arrays inside) decoded,
// read as a get_action call (one sample, or a batch split into its samples) and each sample's arrays
// checked as an observation of a small N1.6 head. An Error
// is the expected answer to bad input; any other exception, a crash, a leak or a sanitizer report is
// a finding.
#include <cstddef>
#include <cstdint>

#include "ditmk/core/error.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/synthetic.hpp"
#include "ditmk/wire/message.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ditmk::model::ModelConfig config = ditmk::model::tiny_config(ditmk::model::Version::n16);
  try {
    const ditmk::wire::Request request = ditmk::wire::decode_request(reinterpret_cast<const std::byte*>(data), size);
    for (const ditmk::wire::ActionCall& call : ditmk::wire::action_calls(request))
      ditmk::model::make_observation(call.arrays, config, "");
  } catch (const ditmk::Error&) {
  }
  return 0;
}
