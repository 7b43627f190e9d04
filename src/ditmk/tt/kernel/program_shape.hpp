#pragma once
// What the kernel takes as fixed about the program it runs in: the variants the plan builds
// (named arg `variant`, the plan's Variant order) and the 96 compute cores in two tile rows of 48
// (named arg `n_compute`; the plan refuses other widths).
//
// Freestanding on purpose (no library beyond <stdint.h>): the kernel in tt-metal's dialect
// includes it as it is.
#include <stdint.h>

namespace ditmk::tt::kernel {

enum class ProgramVariant : uint32_t { block = 0, step = 1, steps4 = 2 };

inline constexpr uint32_t kComputeCores = 96;

}  // namespace ditmk::tt::kernel
