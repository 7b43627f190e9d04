#pragma once
// What the host hands the unified DiT kernel besides its args: the arena layout (the slice geometry
// of each op, a pure function of the plan's ownership rules) and the io slot order, both fixed at
// "compile time" on the real chip. The kernel reads every address from the common runtime args and
// every op offset from the offsets table there.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ditmk/tt/emu/chip.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt::kernel {

// A masked key's additive score (host masks and the kernel's pad-key tiles): finite, so that
// 0 x mask stays 0 inside a matmul, and far enough below any real score that exp() of it is 0.
constexpr float kMaskedScore = -1e30f;

// How the role programs move activations between cores (docs/megakernel.md):
//   seed    the seed's K4b: two hubs, each multicast split over both NoCs, the FF2 input as a chunk
//           ring over the hubs with lookahead credits, self-attention K / V written straight to the
//           head cores (counted on sem_kv), the Euler state rounded to bf16 per step unless
//           euler_fp32;
//   onehub  the simplified protocol: one hub does every round on one NoC, FF2 in four quarter
//           rounds, K / V through two hub rounds, an fp32 Euler state for every version.
enum class Protocol { seed, onehub };
std::string_view protocol_name(Protocol protocol);
Protocol parse_protocol(std::string_view name);

struct KernelConfig {
  const ArenaLayout* layout = nullptr;
  uint32_t n_steps = 1;                      // iterations of the persistent loop (4 in steps4)
  Protocol protocol = Protocol::seed;
};

}  // namespace ditmk::tt::kernel
