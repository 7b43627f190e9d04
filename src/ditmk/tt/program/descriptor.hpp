#pragma once
// A tt-metal program as data: the JSON form of ttnn's ProgramDescriptor (kernels, CBs, semaphores)
// plus the io tensors it reads and writes (docs/tt-dialect.md, schemas/program_descriptor.schema.json).
// Reading validates every field against the emulated chip; an error is one ditmk::Error line naming
// the descriptor file and the field ("program.json: kernels[1].core_ranges[0].end: core (11,0) is off
// the 11x10 grid").
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ditmk/tt/jit/jit_defines.hpp"
#include "ditmk/tt/emu/chip.hpp"

namespace ditmk::tt::dialect {

// An inclusive rectangle of logical worker cores, as ttnn's CoreRange.
struct CoreRange {
  emu::CoreCoord start;
  emu::CoreCoord end;
};
using CoreRangeSet = std::vector<CoreRange>;  // disjoint ranges, as ttnn's CoreRangeSet
std::vector<emu::CoreCoord> cores_of(const CoreRangeSet& ranges);  // row-major, no duplicates

// tt-metal's data formats (tt::DataFormat) a CB page or a tensor may hold.
enum class DataFormat { float32, float16_b, bfp8_b, uint32, uint16, int32, uint8 };
std::string_view data_format_name(DataFormat format);  // "Float32", "Float16_b", "Bfp8_b", ...
// tt::DataFormat's number of a format (Float32 0, Float16_b 5, Bfp8_b 6, Int32 8, UInt16 9, ...).
uint32_t data_format_value(DataFormat format);
// Accepts tt-metal's names and ttnn's dtype names ("bfloat16", "bfloat8_b", "float32", "uint32", ...).
std::optional<DataFormat> parse_data_format(std::string_view name);
// Bytes of one 32x32 tile: 4096, 2048, 1088, 4096, 2048, 4096, 1024.
uint32_t tile_size(DataFormat format);

// A kernel argument: a number, or the address of an io tensor (its base address in every DRAM or L1
// bank, or its L1 shard address on the core), filled in when the program is loaded.
struct ArgValue {
  uint32_t value = 0;
  std::string address_of;  // empty: `value` is the argument
};

// An entry of compile_time_args: a number, or {"tensor_accessor_args": "name"}, which expands to the
// compile-time args TensorAccessorArgs(tensor) appends on the host (docs/tt-dialect.md).
struct CompileTimeArg {
  uint32_t value = 0;
  std::string tensor_accessor_args;  // empty: `value` is the argument
};

enum class KernelType { reader, writer, data_movement, compute };
enum class RiscProcessor { riscv_0, riscv_1 };  // BRISC, NCRISC
enum class MathFidelity { lofi, hifi2, hifi3, hifi4 };
enum class UnpackToDestMode { standard, fp32 };

struct KernelConfig {
  KernelType type = KernelType::reader;
  // Data movement (reader: RISCV_1 on NoC 0, writer: RISCV_0 on NoC 1, as tt-metal defaults them on
  // Blackhole; data_movement names both).
  RiscProcessor processor = RiscProcessor::riscv_1;
  uint32_t noc = 0;
  // Compute.
  MathFidelity math_fidelity = MathFidelity::hifi4;
  bool fp32_dest_acc_en = false;
  bool math_approx_mode = false;
  std::map<uint32_t, UnpackToDestMode> unpack_to_dest_mode;  // by CB id; absent: standard
};

struct CoreArgs {
  emu::CoreCoord core;
  std::vector<ArgValue> args;
};

struct KernelDescriptor {
  std::string kernel_source;            // as written in the descriptor
  std::filesystem::path source_path;    // absolute: the file kernel_source names (kernel_roots.hpp)
  CoreRangeSet core_ranges;
  KernelConfig config;
  std::vector<CompileTimeArg> compile_time_args;
  std::vector<std::pair<std::string, uint32_t>> named_compile_time_args;  // in descriptor order
  std::vector<std::pair<std::string, std::string>> defines;              // in descriptor order
  std::vector<CoreArgs> runtime_args;   // per core; each core inside core_ranges, at most once
  std::vector<ArgValue> common_runtime_args;
  // Present for a Metal 2.0 kernel (one a ProgramSpec creates in tt-metal): the names of its leading
  // runtime args, which it reads as get_arg(args::<name>), as do its named_compile_time_args.
  std::optional<RuntimeArgsSchema> runtime_arguments_schema;
  // Metal 2.0 only: the dataflow buffers it names, dfb::<name> -> CB id, in descriptor order.
  std::vector<std::pair<std::string, uint32_t>> dataflow_buffer_bindings;
  // Metal 2.0 only: the io tensors it names, tensor::<name> -> tensor, in declaration order (the
  // order of their accessor words among the compile-time args and of their address words among the
  // common runtime args, after the named ones).
  std::vector<std::pair<std::string, std::string>> tensor_bindings;
  // Metal 2.0 only: tensor::<sequence>, a tuple of some of its tensor bindings in the order given
  // (KernelAdvancedOptions::tensor_binding_sequences), in descriptor order.
  std::vector<std::pair<std::string, std::vector<std::string>>> tensor_binding_sequences;
  // Metal 2.0 only: the semaphores it names, sem::<name> -> semaphore id, in descriptor order.
  std::vector<std::pair<std::string, uint32_t>> semaphore_bindings;
  // Metal 2.0 only: its scratchpads, scratch::<name> -> bytes of private L1 on each of its cores, in
  // descriptor order (the order of their base-address words among the common runtime args, after the
  // tensor bindings' words).
  std::vector<std::pair<std::string, uint32_t>> scratchpad_bindings;
};

struct CBFormatDescriptor {
  uint32_t buffer_index = 0;  // the CB id, 0..63
  DataFormat data_format = DataFormat::float16_b;
  uint32_t page_size = 0;
};

struct CBDescriptor {
  uint32_t total_size = 0;
  CoreRangeSet core_ranges;
  std::vector<CBFormatDescriptor> format_descriptors;  // one or more ids sharing the space
  std::string tensor;  // backed by this L1-sharded io tensor (empty: not backed)
  std::string name;    // ditmk's annotation for faults and reports (empty: the tensor's, else cb<id>)
};

struct SemaphoreDescriptor {
  uint32_t id = 0;
  CoreRangeSet core_ranges;
  uint32_t initial_value = 0;
};

// An io tensor. Its elements are a 2-D or higher array (the last two dims the matrix); a "tile"
// tensor is stored as 32x32 tiles in tile order (faces), one tile per page unless page_size says
// otherwise, a "row_major" one as rows. DRAM interleaved: page p in bank p % 8. L1 sharded: each
// core of `cores` holds shard_size bytes, core i of the row-major list the i-th shard. DRAM sharded:
// as L1 sharded with DRAM banks for cores, `cores` being banks 0..n-1 as (bank, 0), shard i in bank i
// at the tensor's address, its pages back to back (page_size a multiple of 64 B, the DRAM
// alignment). L1 interleaved: page p in L1 bank p % 110 (one bank per worker core,
// emu::l1_bank_core), at the tensor's address + (p / 110) * l1_page_stride(page_size).
enum class TensorLayout { tile, row_major };
enum class TensorMemory { dram_interleaved, l1_sharded, l1_interleaved, dram_sharded };
inline bool in_dram(TensorMemory m) { return m == TensorMemory::dram_interleaved || m == TensorMemory::dram_sharded; }
inline bool sharded(TensorMemory m) { return m == TensorMemory::l1_sharded || m == TensorMemory::dram_sharded; }

struct TensorDescriptor {
  std::string name;
  TensorMemory memory = TensorMemory::dram_interleaved;
  TensorLayout layout = TensorLayout::tile;
  DataFormat data_format = DataFormat::float16_b;
  std::vector<uint64_t> shape;  // elements
  uint32_t page_size = 0;       // interleaved: bytes per page
  CoreRangeSet cores;           // sharded: the cores (DRAM: banks) holding the shards
  uint32_t shard_size = 0;      // sharded: bytes per core
  // Sharded, optional: the tensor's and a shard's extents in pages, one rank (tt-metal's
  // DistributionSpec in pages; a width-sharded row-major tensor is {rows, pages per row} in shards
  // of {rows, 1}). Shards go row-major over the tensor's grid of shards, shard k on the k-th core,
  // each shard's pages row-major, the tensor's bytes its pages in row-major order. Absent: rank 1,
  // the run of pages cut into shards of shard_size bytes.
  std::vector<uint32_t> tensor_pages;
  std::vector<uint32_t> shard_pages;
  // The .npy read before the launch / written after it, or empty; as written in the descriptor (a
  // path ending in ".npy"): the runner resolves a relative one against --data DIR (default: the
  // descriptor's folder), so one descriptor runs on several data folders.
  std::string input;
  std::string output;
  // Where the host placed it (ttnn's tensor.buffer_address()), or none: the runner places it. DRAM
  // interleaved: the bank-local address, 64 B aligned, above the first 64 B (address 0 means "no
  // tensor"); L1: the address on every core it lies on, 16 B aligned, inside usable L1. Fixed
  // tensors overlap no other tensor and lie above the program's CBs.
  std::optional<uint32_t> address;
  uint64_t bytes() const;        // device bytes of the whole tensor in its format and layout
};

// An L1-interleaved tensor of `bytes` in pages of `page_size`: its page stride in a bank (the page
// rounded up to tt-metal's L1_ALIGNMENT, 16 B on Blackhole) and the bytes the fullest bank holds.
constexpr uint32_t kL1PageAlignment = 16;
uint32_t l1_page_stride(uint32_t page_size);
uint64_t l1_bank_bytes(uint64_t bytes, uint32_t page_size);

// A sharded tensor with a page grid: its bytes (pages in row-major order over tensor_pages) in shard
// order (shard after shard, each shard's pages row-major), as its cores hold them; and back. Without
// a page grid both return the bytes as they are.
std::vector<std::byte> bytes_in_shard_order(const TensorDescriptor& t, const std::vector<std::byte>& bytes);
std::vector<std::byte> bytes_in_page_order(const TensorDescriptor& t, const std::vector<std::byte>& shards);

struct ProgramDescriptor {
  std::filesystem::path file;  // where it was read from (errors name it)
  // --kernel-root, else $TT_METAL_HOME, else none: where kernel sources are last looked for and
  // whose include folders the kernels compile with (kernel_roots.hpp).
  std::optional<std::filesystem::path> kernel_root;
  std::string name;
  std::vector<KernelDescriptor> kernels;
  std::vector<CBDescriptor> cbs;
  std::vector<SemaphoreDescriptor> semaphores;
  std::vector<TensorDescriptor> tensors;
  const TensorDescriptor* tensor(std::string_view name) const;  // nullptr when absent
};

// Parses and validates; `file` names the descriptor in errors and kernel_source paths are resolved
// against its folder, the working folder, then the kernel root (`kernel_root_option`, else
// $TT_METAL_HOME; kernel_roots.hpp). Throws ditmk::Error (one line) on the first bad field.
// nlohmann::json keeps object keys sorted, so named_compile_time_args and defines come out in name
// order from it; the ordered_json overload (what read_descriptor uses) keeps the descriptor's order.
using KernelRootOption = std::optional<std::filesystem::path>;
ProgramDescriptor parse_descriptor(const nlohmann::json& json, const std::filesystem::path& file,
                                   const KernelRootOption& kernel_root_option = {});
ProgramDescriptor parse_descriptor(const nlohmann::ordered_json& json, const std::filesystem::path& file,
                                   const KernelRootOption& kernel_root_option = {});
// The text of a descriptor file (JSON, nesting bounded as io::parse_json_bounded bounds it).
ProgramDescriptor parse_descriptor_text(std::string_view text, const std::filesystem::path& file,
                                        const KernelRootOption& kernel_root_option = {});
// Reads the file, then parses.
ProgramDescriptor read_descriptor(const std::filesystem::path& file, const KernelRootOption& kernel_root_option = {});

// Where a program's L1 regions lie, each at one address on every core of its set (as tt-metal
// allocates them): the CBs upwards from kL1CbBase in descriptor order, each at the lowest 32 B
// aligned offset above the CBs placed before it on all of its cores, then the kernels' scratchpads
// the same way (one region per binding on its kernel's cores); the L1 tensors (sharded on
// their cores, interleaved on every core) downwards from the top of L1 in descriptor order, the same
// way; a tensor-backed CB at its tensor's shard. parse_descriptor refuses a program whose regions
// do not fit, so this never throws for a parsed descriptor.
struct L1Layout {
  std::vector<uint32_t> cb_addresses;                     // by index of ProgramDescriptor::cbs
  std::map<std::string, uint32_t> shard_addresses;        // by name of each L1-sharded tensor
  std::map<std::string, uint32_t> interleaved_addresses;  // by name of each L1-interleaved tensor
  std::vector<std::vector<uint32_t>> scratchpad_addresses;  // by kernel index, by scratchpad binding
};
L1Layout l1_layout(const ProgramDescriptor& program);

}  // namespace ditmk::tt::dialect
