#pragma once
// The environment tt-metal 0.81.1's JIT build gives a Blackhole kernel, as facts read from its build
// code (tt_metal/jit_build/build.cpp, genfiles.cpp, the 1xx HAL's JIT query, the kernels'
// process_defines): the defines on the compiler's command line, the compute config it writes into
// the generated chlkc_descriptors.h, and the form of the named-args map it writes into a generated
// header. The kernel compiler builds every kernel with exactly this; a test that parses a kernel
// against tt-metal's own headers can call it for the same environment.
//
// The emulator runs the three TRISCs as one compute processor, so a compute kernel is built once with
// all three roles on: UCK_CHLKC_UNPACK, _MATH and _PACK and TRISC_UNPACK, _MATH and _PACK are all
// defined, and UNPACK(x), MATH(x), PACK(x) (the device headers') each keep their statement.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ditmk/tt/emu/chip.hpp"

namespace ditmk::tt::dialect {

// tt-metal's noc_mode (hostdev/dev_msgs.h): the JIT passes it as NOC_MODE.
enum class NocMode : uint8_t { dedicated = 0, dynamic = 1 };

// tt-metal's ckernel::MathFidelity values (llk_defs.h): what MATH_FIDELITY holds.
enum class LlkMathFidelity : uint8_t { lofi = 0, hifi2 = 2, hifi3 = 3, hifi4 = 4 };
// ditmk's fidelity index (0 LoFi .. 3 HiFi4, KernelBuild and the descriptor's MathFidelity) as
// tt-metal's value; a larger index is HiFi4.
LlkMathFidelity llk_math_fidelity(uint32_t index);

// Which TRISC a compute build is for: tt-metal's JIT builds one per role; the emulator runs all three
// as one processor (all).
enum class TriscRole : uint8_t { all, unpack, math, pack };

// A CB of a compute kernel's cores as the JIT's generated per-CB arrays describe it: its id, its
// tt-metal DataFormat value and the bytes of one of its tiles.
struct JitCbFormat {
  uint32_t id = 0;
  uint32_t data_format = 0;
  uint32_t tile_bytes = 0;
};

// What one kernel build's environment depends on.
struct JitTarget {
  emu::Processor processor = emu::Processor::ncrisc;
  TriscRole trisc_role = TriscRole::all;  // compute only
  uint32_t noc = 0;                    // data movement: NOC_INDEX
  NocMode noc_mode = NocMode::dedicated;
  // compute (ComputeConfig)
  LlkMathFidelity math_fidelity = LlkMathFidelity::hifi4;
  bool fp32_dest_acc_en = false;
  bool math_approx_mode = false;
  bool dst_full_sync_en = false;
  std::vector<JitCbFormat> cb_formats;  // the CBs on the kernel's cores
};

// (name, value) in command-line order; an empty value is a bare -DNAME (defined as 1).
using Define = std::pair<std::string, std::string>;

// The -D defines the JIT gives a kernel built for `target` (not the kernel's compile-time args or the
// descriptor's own defines).
std::vector<Define> jit_defines(const JitTarget& target);

// The text the JIT generates as chlkc_descriptors.h for a compute kernel: DST_ACCUM_MODE,
// DST_SYNC_MODE, MATH_FIDELITY, APPROX and the per-CB arrays (formats in L1 and in the registers,
// tile shapes), 64 entries each, which ttnn's kernel_lib reads in constant expressions (a CB not on
// the kernel's cores has format 255, Invalid). The register formats are the JIT's rule reduced to the
// formats the emulator has; the emulator itself unpacks and packs every CB in its own L1 format.
// Included before anything of the kernel; empty for data movement, which the JIT gives no
// descriptors.
std::string compute_descriptors_text(const JitTarget& target);

// The per-CB arrays of compute_descriptors_text (and DATA_FORMATS_DEFINED) for a data-movement
// kernel, which tt-metal's JIT also compiles in: its dataflow API's get_tile_size and get_dataformat
// read them in constant expressions. Empty for compute, whose descriptors carry them.
std::string data_movement_descriptors_text(const JitTarget& target);

// The header the JIT generates for the named compile-time args, force-included before anything
// else: `#define KERNEL_COMPILE_TIME_ARG_MAP {"a",1},{"b",2}`, sorted by name. Empty when there are
// none.
std::string named_args_header_text(const std::vector<std::pair<std::string, uint32_t>>& named_args);

// Metal 2.0 (a kernel a ProgramSpec creates): the names of its runtime args, per core and common,
// in the order their words travel (KernelSpec's runtime_arguments_schema). Words past the named
// ones are varargs.
struct RuntimeArgsSchema {
  std::vector<std::string> named_runtime_args;
  std::vector<std::string> named_common_runtime_args;
};

// The text the JIT generates as kernel_args_generated.h for a Metal 2.0 kernel: `args::<name>`
// constants (experimental/kernel_args.h's RtaArg at byte offset 4 * position, CrtaArg likewise,
// CtaVal of each named compile-time arg's value, sorted by name) and the vararg readers
// get_vararg / get_common_vararg, which skip the named words (and, for the common ones, the
// `crta_binding_words` base-address words of the kernel's tensor bindings that follow them), and the
// compile-time vararg readers get_compile_time_vararg(i), get_compile_time_vararg<i>() and
// get_num_compile_time_varargs(), over the first `compile_time_varargs` positional compile-time args.
std::string kernel_args_header_text(const RuntimeArgsSchema& schema,
                                    const std::vector<std::pair<std::string, uint32_t>>& named_args,
                                    uint32_t crta_binding_words = 0, uint32_t compile_time_varargs = 0);

// The format metadata a binding token carries (internal/llk_metadata.h): tt::DataFormat's number of
// its entries; faces are always 16x16, two by two (32x32 tiles).
struct LlkFormat {
  uint32_t data_format = 0;
};

// A tensor a Metal 2.0 kernel is bound to, as its generated tensor::<name> token places it: its
// accessor words among the compile-time args from word `cta_offset`, its base address in the common
// runtime arg at byte `addr_crta_offset`.
struct TensorBindingSlot {
  std::string name;
  uint32_t cta_offset = 0;
  uint32_t addr_crta_offset = 0;
  LlkFormat format;
};

// A scratchpad a Metal 2.0 kernel is bound to, as its generated scratch::<name> token places it: its
// base address in the common runtime arg at word `crta_word`, `size` bytes on each core.
struct ScratchpadSlot {
  std::string name;
  uint32_t crta_word = 0;
  uint32_t size = 0;
};

// Everything a Metal 2.0 kernel names instead of an index: dataflow buffers (name, CB id; the format
// comes from the CB on the kernel's cores), tensors (in declaration order), tensor sequences (name,
// member bindings), semaphores (name, id) and scratchpads.
struct KernelBindings {
  std::vector<std::pair<std::string, uint32_t>> dataflow_buffers;
  std::vector<TensorBindingSlot> tensors;
  std::vector<std::pair<std::string, std::vector<std::string>>> tensor_sequences;  // tuples of tensors, by name
  std::vector<std::pair<std::string, uint32_t>> semaphores;
  std::vector<ScratchpadSlot> scratchpads;
};

// The text the JIT generates as kernel_bindings_generated.h for a Metal 2.0 kernel:
//   namespace dfb    { constexpr DFBBindingToken in0{0, ::binding_details::LLKMetadata{...}}; }
//   namespace sem    { constexpr SemaphoreBindingToken ready{1u, SemScope::LOCAL_NONATOMIC}; }
//   namespace tensor { using src_t = ::tensor_accessor::TensorBindingToken<0u, 4u>;
//                      constexpr src_t src{::binding_details::LLKMetadata{...}};
//                      constexpr std::tuple<a_t, b_t> inputs{a, b}; }
//   namespace scratch { constexpr ScratchpadBindingToken pad{2u, 2048u}; }
// dfb and sem sorted by name, tensors, sequences and scratchpads in declaration order. A dataflow
// buffer whose CB has no entry in `cb_formats` gets the id-only token. Empty when there are no
// bindings.
std::string kernel_bindings_header_text(const KernelBindings& bindings, const std::vector<JitCbFormat>& cb_formats,
                                        bool compute);

// Defines the JIT owns: every name it gives (for any target), the ones it would give that ditmk does
// not (jit_defines_not_given) and the ones it writes into generated headers. A descriptor's
// `defines` may not set one.
const std::vector<std::string_view>& refused_jit_defines();

// Defines tt-metal's JIT gives that ditmk does not, each with why (docs/tt-dialect.md).
struct WithheldDefine {
  std::string_view name;
  std::string_view why;
};
const std::vector<WithheldDefine>& jit_defines_not_given();

// The defines jit_defines withholds that only tt-metal's firmware files read, with their Blackhole
// values: for a build that compiles a kernel inside that firmware, as tt-metal's JIT does (the test
// that parses the megakernel against 0.81.1). PROCESSOR_INDEX needs one processor: a compute target
// names its TRISC role.
std::vector<Define> firmware_defines(const JitTarget& target);

// -DNAME or -DNAME=VALUE.
std::string define_flag(const Define& define);

}  // namespace ditmk::tt::dialect
