#pragma once
// The additive score of a masked key, in the host's masks and the kernel's pad-key tiles: finite, so
// that 0 x mask stays 0 inside a matmul, and far enough below any real score that exp() of it is 0.
//
// Freestanding on purpose: the kernel in tt-metal's dialect includes it as it is.

namespace ditmk::tt::kernel {

inline constexpr float kMaskedScore = -1e30f;

}  // namespace ditmk::tt::kernel
