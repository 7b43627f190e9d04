#pragma once
// DFBBindingToken<P, C>: what the JIT's kernel_bindings_generated.h names dfb::<name> for each
// dataflow buffer a Metal 2.0 kernel is bound to: the buffer's id (the CB index on Blackhole) and the
// format metadata of its entries. It converts to the id in constant expressions, so a token passes
// wherever a CB index does (template arguments, the compute API), and DataflowBuffer(token) opens it.
#include <stdint.h>

#include "api/dataflow/dfb_access.h"
#include "internal/llk_metadata.h"

template <dfb::AccessPattern Pap = dfb::AccessPattern::UNKNOWN, dfb::AccessPattern Cap = dfb::AccessPattern::UNKNOWN>
struct DFBBindingToken {
  explicit constexpr DFBBindingToken(uint16_t id) noexcept : id_(id) {}
  constexpr DFBBindingToken(uint16_t id, binding_details::LLKMetadata llk) noexcept : id_(id), llk_metadata_(llk) {}

  constexpr operator uint32_t() const noexcept { return id_; }

 private:
  template <const auto& Token>
  friend struct binding_details::LLKOperandExtractor;

  uint16_t id_;
  binding_details::LLKMetadata llk_metadata_{};
};

// The token of a relay dataflow buffer (a CrossNode or PrefetcherPipe relay on chips that have
// them); Blackhole programs have none, and DataflowBuffer does not open one.
struct RelayDFBBindingToken {
  static constexpr uint8_t NO_PREFETCHER_PIPE = 0xFF;

  explicit constexpr RelayDFBBindingToken(uint16_t id, uint8_t prefetcher_pipe_id = NO_PREFETCHER_PIPE) noexcept
      : id_(id), prefetcher_pipe_id_(prefetcher_pipe_id) {}

  constexpr operator uint32_t() const noexcept { return id_; }
  constexpr uint8_t prefetcher_pipe_id() const noexcept { return prefetcher_pipe_id_; }

 private:
  uint16_t id_;
  uint8_t prefetcher_pipe_id_;
};
