#pragma once
// How tt-metal 0.81.1's JIT compiles a kernel for a Blackhole Tensix core, as plain lists: the
// include folders (relative to the reference tree), the defines every kernel build carries, and
// per processor the firmware file the kernel is compiled inside and that processor's defines. The
// facts are read from tt-metal's jit_build (build.cpp, genfiles.cpp) and the HAL's Blackhole
// include query; the firmware files come with the tree (tt_metal/hw/firmware/src/tt-1xx).
#include <string>
#include <vector>

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

// Every Tensix kernel build on Blackhole (a p150's 8 DRAM banks and 110 L1 banks, the PCIe core).
inline const std::vector<std::string> kCommonDefines = {
    "ARCH_BLACKHOLE",
    "TENSIX_FIRMWARE",
    "LOCAL_MEM_EN=0",
    "KERNEL_BUILD",
    "NOC_MODE=0",
    "NUM_DRAM_BANKS=8",
    "LOG_BASE_2_OF_NUM_DRAM_BANKS=3",
    "NUM_L1_BANKS=110",
    "IS_NOT_POW2_NUM_L1_BANKS=1",
    "PCIE_NOC_X=19",
    "PCIE_NOC_Y=24",
    "PROGRAMMABLE_CORE_TYPE=0",
    "DISPATCH_MESSAGE_ADDR=0xFFB70438",
};

// What a profiled build (TT_METAL_DEVICE_PROFILER) adds.
inline const std::vector<std::string> kProfilerDefines = {
    "PROFILE_KERNEL=1",
    "PROFILER_FULL_HOST_BUFFER_SIZE_PER_RISC=65536",
};

struct Processor {
  std::string name;                  // as tests name it
  std::string firmware;              // the JIT compiles the kernel inside this file
  std::vector<std::string> defines;  // this processor's own
  bool trisc = false;                // compute: the kernel arrives through chlkc_list.h
};

// The reader runs on NCRISC with NoC 0, the writer on BRISC with NoC 1 (tt-metal's defaults for
// ReaderDataMovementConfig / WriterDataMovementConfig); compute is built once per TRISC.
inline const std::vector<Processor> kProcessors = {
    {"Brisc", "tt_metal/hw/firmware/src/tt-1xx/brisck.cc", {"COMPILE_FOR_BRISC", "PROCESSOR_INDEX=0", "NOC_INDEX=1"}},
    {"Ncrisc", "tt_metal/hw/firmware/src/tt-1xx/ncrisck.cc", {"COMPILE_FOR_NCRISC", "PROCESSOR_INDEX=1", "NOC_INDEX=0"}},
    {"TriscUnpack",
     "tt_metal/hw/firmware/src/tt-1xx/trisck.cc",
     {"COMPILE_FOR_TRISC=0", "PROCESSOR_INDEX=2", "UCK_CHLKC_UNPACK", "NAMESPACE=chlkc_unpack", "NOC_INDEX=0"},
     true},
    {"TriscMath",
     "tt_metal/hw/firmware/src/tt-1xx/trisck.cc",
     {"COMPILE_FOR_TRISC=1", "PROCESSOR_INDEX=3", "UCK_CHLKC_MATH", "NAMESPACE=chlkc_math", "NOC_INDEX=0"},
     true},
    {"TriscPack",
     "tt_metal/hw/firmware/src/tt-1xx/trisck.cc",
     {"COMPILE_FOR_TRISC=2", "PROCESSOR_INDEX=4", "UCK_CHLKC_PACK", "NAMESPACE=chlkc_pack", "NOC_INDEX=0"},
     true},
};

// The three TRISC threads' generated sources (chlkc_<thread>.cpp) and the macro each defines.
inline const std::vector<std::pair<std::string, std::string>> kTriscThreads = {
    {"unpack", "TRISC_UNPACK"}, {"math", "TRISC_MATH"}, {"pack", "TRISC_PACK"}};

}  // namespace ditmk::test::jit
