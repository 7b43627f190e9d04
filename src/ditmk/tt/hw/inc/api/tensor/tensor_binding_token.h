#pragma once
// TensorBindingToken<CTA_OFFSET, ADDR_CRTA_OFFSET>: what the JIT's kernel_bindings_generated.h names
// tensor::<name> for each tensor a Metal 2.0 kernel is bound to. The tensor's accessor words are the
// kernel's compile-time args from word CTA_OFFSET; its base address is the common runtime arg at byte
// ADDR_CRTA_OFFSET (after the kernel's named common args, one word per binding). TensorAccessor(token)
// builds the accessor from both (tensor_accessor.h).
#include <stdint.h>

#include "api/tensor/tensor_accessor_args.h"
#include "internal/llk_metadata.h"

namespace tensor_accessor {

template <uint32_t CTA_OFFSET, uint32_t ADDR_CRTA_OFFSET>
struct TensorBindingToken {
  using args_t = TensorAccessorArgs<CTA_OFFSET>;
  static constexpr args_t args{};
  static constexpr uint32_t addr_crta_offset = ADDR_CRTA_OFFSET;  // in bytes

  explicit constexpr TensorBindingToken(binding_details::LLKMetadata llk) noexcept : llk_metadata_(llk) {}

 private:
  template <const auto& Token>
  friend struct binding_details::LLKOperandExtractor;

  binding_details::LLKMetadata llk_metadata_;
};

// The type of tensor::get_token_if_present's null answer: a name the host did not bind. Never made.
struct NullTensorBindingToken {
  NullTensorBindingToken() = delete;
  NullTensorBindingToken(const NullTensorBindingToken&) = delete;
  NullTensorBindingToken(NullTensorBindingToken&&) = delete;
  NullTensorBindingToken& operator=(const NullTensorBindingToken&) = delete;
  NullTensorBindingToken& operator=(NullTensorBindingToken&&) = delete;
};

}  // namespace tensor_accessor
