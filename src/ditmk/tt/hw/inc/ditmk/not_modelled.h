#pragma once
// The fault of a call a header declares, so that kernels naming it compile, but whose semantics the
// emulator does not model: the kernel stops there with one line naming the call.
#include "ditmk/abi.h"

namespace ditmk::detail {
[[noreturn]] inline void not_modelled(const char* call) {
  fault(DITMK_FAULT_BAD_CALL, Message() << "not modelled: " << call);
}
}  // namespace ditmk::detail
