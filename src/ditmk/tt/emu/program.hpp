#pragma once
// What the emulator runs: a tt-metal style multi-core program. Every CB and semaphore has the L1
// address its plan or descriptor gave it; those regions are the only L1 a kernel may touch. A
// program has one or more kernels, each a function on a set of cores and processors with its own
// args, as tt-metal's KernelDescriptors: the seed's unified kernel is one binding on NCRISC, BRISC
// and TRISC of every core that picks its work from the role flags, the named args and the processor;
// a descriptor program binds a reader, a writer and a compute kernel to the processors they name.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ditmk/tt/emu/chip.hpp"
#include "ditmk/tt/formats.hpp"

namespace ditmk::tt::emu {

// tt-metal's integer tile formats (32x32 tiles of 16x16 faces, as bf16's). A CB may hold them for
// data movement; the emulator's compute ops model only the float TileFormats and fault on a CB
// holding one of these.
enum class IntegerFormat : uint8_t { none, int32, uint32, uint16, uint8 };
std::string_view integer_format_name(IntegerFormat format);  // "Int32", "UInt32", "UInt16", "UInt8"
uint32_t integer_tile_bytes(IntegerFormat format);          // 4096, 4096, 2048, 1024

struct CbConfig {
  std::string name;
  uint32_t id = 0;
  std::set<CoreCoord> cores;
  uint32_t address = 0;  // same L1 address on every core of the set
  uint32_t total_bytes = 0;
  uint32_t page_bytes = 0;
  TileFormat format = TileFormat::bf16;
  // Backed by a sharded tensor the host writes before a launch: its bytes stay valid across launches.
  // Every other CB starts each launch with undefined contents.
  bool tensor_backed = false;
  // tt-metal's shared CB: several buffer indices over one L1 range, each with its own pointers and
  // counts. CBs with the same non-zero group may overlap exactly; any other overlap is refused.
  uint32_t share_group = 0;
  IntegerFormat integer = IntegerFormat::none;  // set: the CB holds integer tiles and `format` is unused
};

// Bytes of one tile of the CB's format.
uint32_t cb_tile_bytes(const CbConfig& cb);

struct SemaphoreConfig {
  std::string name;
  uint32_t id = 0;
  uint32_t address = 0;  // same L1 address on every core of the program
  uint32_t initial_value = 0;
};

// A per-core compile-time flag: 1 on the cores of the set, 0 elsewhere (is_reader, is_hub, ...).
struct RoleFlag {
  std::string name;
  std::set<CoreCoord> cores;
};

using Kernel = std::function<void()>;

// The compute kernel's math fidelity: how many passes the FPU makes per multiply (timing only; the
// emulated math is exact fp32).
enum class MathFidelity : uint8_t { lofi = 1, hifi2 = 2, hifi3 = 3, hifi4 = 4 };

struct KernelBinding {
  std::string source;  // the kernel's file, named in faults; empty for a kernel built into ditmk
  std::set<CoreCoord> cores;
  std::vector<Processor> processors;
  std::optional<uint32_t> noc;  // a data-movement kernel's NoC; default: its processor's (noc_of)
  std::map<std::string, uint32_t> named_args;  // named compile-time args shared by its cores
  std::vector<RoleFlag> role_flags;
  std::vector<uint32_t> common_args;
  // Common args that hold an L1 address the kernel dereferences (a scratchpad's base): a compiled
  // kernel reads them as the running core's window address (l1_window.hpp).
  std::set<uint32_t> l1_pointer_common_args;
  std::map<CoreCoord, std::vector<uint32_t>> core_args;
  MathFidelity math_fidelity = MathFidelity::hifi4;  // tt-metal's default compute config
  // The kernel turns L1 addresses into pointers (compiled dialect kernels): the scheduler maps the
  // running core's L1 at the device's window (l1_window.hpp) before it runs.
  bool l1_pointers = false;
  Kernel body;
};

// A kernel's private L1 region on each core of a set (a Metal 2.0 scratchpad): plain bytes its
// kernels may read and write, at one address on every core.
struct ScratchRegion {
  std::string name;
  std::set<CoreCoord> cores;
  uint32_t address = 0;
  uint32_t bytes = 0;
};

struct Program {
  std::string name;
  std::vector<CoreCoord> cores;  // every core a kernel runs on
  std::vector<CbConfig> cbs;
  std::vector<SemaphoreConfig> semaphores;
  std::vector<ScratchRegion> scratch_regions;
  std::vector<KernelBinding> kernels;
};

// The seed's unified kernel: one binding on the three processors of every core of the program.
KernelBinding& add_unified_kernel(Program& program, Kernel body);

// Throws ditmk::Error naming the first CB, semaphore, arg, kernel or core the chip cannot hold: cores
// off the grid, regions outside L1 or overlapping on a core, a CB total that is not a positive
// multiple of its page, two CBs with one id on a core, semaphore ids out of range, a role flag that
// shadows a named arg, two kernels on one processor of a core, a kernel core outside the program.
void validate(const Program& program);

}  // namespace ditmk::tt::emu
