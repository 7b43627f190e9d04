#pragma once
// How tt-metal 0.81.1's JIT compiles a kernel for a Blackhole Tensix core: the include folders
// (relative to the reference tree) and per processor the firmware file the kernel is compiled inside
// and its JitTarget, whose defines come from jit_defines.hpp, the kernel compiler's own source of
// them. The facts are read from tt-metal's jit_build (build.cpp, genfiles.cpp) and the HAL's
// Blackhole include query; the firmware files come with the tree (tt_metal/hw/firmware/src/tt-1xx).
#include <string>
#include <vector>

#include "ditmk/tt/jit/jit_defines.hpp"

namespace ditmk::test::jit {

// -I folders, in the JIT's order (its generated files' folder goes first, added by the caller).
inline const std::vector<std::string> kIncludeDirs = {
    "tt_metal/hw/inc",
    "tt_metal/hw/inc/internal/tt-1xx",
    "tt_metal/hw/inc/internal/tt-1xx/blackhole",
    "tt_metal/hw/inc/internal/tt-1xx/blackhole/noc",
    "tt_metal/hostdevcommon/api",
    "tt_metal/hw/ckernels/blackhole/metal/common",
    "tt_metal/hw/ckernels/blackhole/metal/llk_io",
    "tt_metal/hw/ckernels/blackhole/metal/llk_api",
    "tt_metal/hw/ckernels/blackhole/metal/llk_api/llk_sfpu",
    "tt_metal/tt-llk/tt_llk_blackhole/common/inc",
    "tt_metal/tt-llk/tt_llk_blackhole/common/inc/sfpu",
    "tt_metal/tt-llk/tt_llk_blackhole/llk_lib",
    "tt_metal/tt-llk/common",
    "tt_metal/tt-llk/tools/include",
    "tt_metal/hw/firmware/src/tt-1xx",
    "tt_metal/api",
    "tt_metal",
    ".",
};

// What a profiled build (TT_METAL_DEVICE_PROFILER) adds.
inline const std::vector<std::string> kProfilerDefines = {
    "PROFILE_KERNEL=1",
    "PROFILER_FULL_HOST_BUFFER_SIZE_PER_RISC=65536",
};

struct Processor {
  std::string name;                      // as tests name it
  std::string firmware;                  // the JIT compiles the kernel inside this file
  tt::dialect::JitTarget target;         // its defines: jit_defines and firmware_defines
  bool trisc = false;                    // compute: the kernel arrives through chlkc_list.h
};

// The reader runs on NCRISC with NoC 0, the writer on BRISC with NoC 1 (tt-metal's defaults for
// ReaderDataMovementConfig / WriterDataMovementConfig); compute is built once per TRISC.
inline const std::vector<Processor> kProcessors = {
    {"Brisc", "tt_metal/hw/firmware/src/tt-1xx/brisck.cc", {.processor = tt::emu::Processor::brisc, .noc = 1}},
    {"Ncrisc", "tt_metal/hw/firmware/src/tt-1xx/ncrisck.cc", {.processor = tt::emu::Processor::ncrisc, .noc = 0}},
    {"TriscUnpack", "tt_metal/hw/firmware/src/tt-1xx/trisck.cc",
     {.processor = tt::emu::Processor::trisc, .trisc_role = tt::dialect::TriscRole::unpack}, true},
    {"TriscMath", "tt_metal/hw/firmware/src/tt-1xx/trisck.cc",
     {.processor = tt::emu::Processor::trisc, .trisc_role = tt::dialect::TriscRole::math}, true},
    {"TriscPack", "tt_metal/hw/firmware/src/tt-1xx/trisck.cc",
     {.processor = tt::emu::Processor::trisc, .trisc_role = tt::dialect::TriscRole::pack}, true},
};

// The -D defines of one processor's build: the JIT's for that target (src/ditmk/tt/jit/
// jit_defines.hpp, what the emulator's kernel compiler uses too) and the firmware's own.
inline std::vector<std::string> processor_defines(const Processor& processor) {
  std::vector<std::string> out;
  for (const auto& define : tt::dialect::jit_defines(processor.target)) out.push_back(tt::dialect::define_flag(define));
  for (const auto& define : tt::dialect::firmware_defines(processor.target)) out.push_back(tt::dialect::define_flag(define));
  return out;
}

// The three TRISC threads' generated sources (chlkc_<thread>.cpp) and the macro each defines.
inline const std::vector<std::pair<std::string, std::string>> kTriscThreads = {
    {"unpack", "TRISC_UNPACK"}, {"math", "TRISC_MATH"}, {"pack", "TRISC_PACK"}};

}  // namespace ditmk::test::jit
