#pragma once
// ScratchpadBindingToken: what the JIT's kernel_bindings_generated.h names scratch::<name> for each
// scratchpad a Metal 2.0 kernel is bound to: the common runtime arg word that holds the scratchpad's
// base address on the running core, and its size in bytes (the host's size per node). Only
// Scratchpad (api/scratchpad.h) opens it.
#include <stdint.h>

#include "internal/llk_metadata.h"

template <typename T>
class Scratchpad;

class ScratchpadBindingToken {
 public:
  explicit constexpr ScratchpadBindingToken(uint32_t crta_offset, uint32_t size_in_bytes) noexcept
      : crta_offset_(crta_offset), size_in_bytes_(size_in_bytes) {}
  constexpr ScratchpadBindingToken(uint32_t crta_offset, uint32_t size_in_bytes,
                                   binding_details::LLKMetadata llk) noexcept
      : crta_offset_(crta_offset), size_in_bytes_(size_in_bytes), llk_metadata_(llk) {}

 private:
  template <typename T>
  friend class Scratchpad;
  template <const auto& Token>
  friend struct binding_details::LLKOperandExtractor;

  uint32_t crta_offset_;    // a word index into the common runtime args
  uint32_t size_in_bytes_;  // per core
  binding_details::LLKMetadata llk_metadata_{};
};
