#include "ditmk/tt/kernel/kernel_config.hpp"

#include "ditmk/core/error.hpp"

namespace ditmk::tt::kernel {

std::string_view protocol_name(Protocol protocol) { return protocol == Protocol::seed ? "seed" : "onehub"; }

Protocol parse_protocol(std::string_view name) {
  if (name == "seed") return Protocol::seed;
  if (name == "onehub") return Protocol::onehub;
  fail("--protocol: unknown protocol '{}' (known: seed, onehub)", name);
}

}  // namespace ditmk::tt::kernel
