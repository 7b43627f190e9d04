#pragma once
// Stands in for the SFPI toolchain's lltt.h (its replay-buffer builtins) so a host compiler can
// parse tt-metal's compute headers; never linked, never run. See README.md.
#include <cstdint>

namespace lltt {

enum ExecBool : bool { NoExec = false, Exec = true };

template <ExecBool exec = NoExec>
inline void record(std::uint32_t start, std::uint32_t length) {}
inline void replay(std::uint32_t start, std::uint32_t length) {}
constexpr std::uint32_t replay_insn(std::uint32_t start, std::uint32_t length) { return 1u << 31 | start << 16 | length; }

}  // namespace lltt
