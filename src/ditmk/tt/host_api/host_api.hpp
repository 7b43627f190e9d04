#pragma once
// The host side of a tt-metal program on the emulated chip, close to tt-metal's host API in names and
// meaning: a device, interleaved DRAM buffers, L1 buffers, a program with kernels on core ranges
// (compiled from their dialect sources for the processors their config names), circular buffers,
// semaphores and runtime args, then a blocking enqueue that runs it. The descriptor runner is built on it.
//
//   HostDevice device;
//   Program program = CreateProgram();
//   auto in = CreateBuffer(device, {.size = bytes, .page_size = 2048});
//   KernelHandle reader = CreateKernel(program, "reader.cpp", cores, ReaderDataMovementConfig{});
//   CreateCircularBuffer(program, cores, {.total_size = 4096, .buffer_index = 0, .page_size = 2048});
//   SetRuntimeArgs(program, reader, core, {in->address(), n_tiles});
//   EnqueueWriteBuffer(device, *in, bytes);
//   EnqueueProgram(device, program);   // throws ditmk::Error naming the fault
//   EnqueueReadBuffer(device, *out, result);
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/jit/kernel_compiler.hpp"
#include "ditmk/tt/emu/device.hpp"

namespace ditmk::tt::dialect {

class HostDevice;

// An interleaved DRAM buffer: page p in bank p % 8 at address() + (p / 8) * the 64 B-aligned page.
class Buffer {
 public:
  explicit Buffer(const emu::DramBuffer& dram) : dram_(&dram) {}
  uint32_t address() const { return dram_->address; }
  uint64_t size() const { return dram_->size; }
  uint32_t page_size() const { return dram_->unit_bytes; }
  const emu::DramBuffer& dram() const { return *dram_; }

 private:
  const emu::DramBuffer* dram_;
};

struct InterleavedBufferConfig {
  uint64_t size = 0;
  uint32_t page_size = 0;
  DataFormat format = DataFormat::float16_b;  // what the timing model streams it as
  std::string name = "buffer";
  // The bank-local address the host chose (64 B aligned, clear of every other buffer); none: the
  // next free one.
  std::optional<uint32_t> address;
};

// A tensor sharded over the DRAM banks: shard s (shard_size bytes of the buffer in order) in bank
// s % 8 at address() + (s / 8) * shard_size rounded up to 64 B.
struct DramShardedBufferConfig {
  uint64_t size = 0;
  uint32_t shard_size = 0;
  DataFormat format = DataFormat::float16_b;
  std::string name = "buffer";
  std::optional<uint32_t> address;  // as InterleavedBufferConfig's
};

// A tensor in L1 (tt-metal's BufferType::L1) at an address the caller's layout chose (l1_layout
// places a descriptor's). Interleaved: page p on the core of L1 bank p % 110 (emu::l1_bank_core) at
// address() + (p / 110) * the page rounded up to 16 B. Sharded: the i-th shard_size bytes on the
// i-th of shard_cores.
struct L1BufferConfig {
  uint64_t size = 0;
  uint32_t page_size = 0;                    // interleaved
  uint32_t address = 0;
  std::vector<emu::CoreCoord> shard_cores;   // empty: interleaved over every L1 bank
  uint32_t shard_size = 0;                   // sharded
  std::string name = "buffer";
};

class L1Buffer {
 public:
  L1Buffer(const emu::L1Buffer& l1, L1BufferConfig config) : l1_(&l1), config_(std::move(config)) {}
  uint32_t address() const { return l1_->address; }
  uint64_t size() const { return config_.size; }
  const emu::L1Buffer& l1() const { return *l1_; }
  // The buffer's bytes as they lie on the cores: bytes [at, at + size) of the tensor at `offset` of
  // the buffer's range on `core`.
  struct Piece {
    emu::CoreCoord core;
    uint32_t offset = 0;
    uint64_t at = 0;
    uint32_t size = 0;
  };
  std::vector<Piece> pieces() const;

 private:
  const emu::L1Buffer* l1_;
  L1BufferConfig config_;
};

struct ReaderDataMovementConfig {  // RISCV_1 (NCRISC) on NoC 0
  std::vector<uint32_t> compile_args;
  std::vector<std::pair<std::string, std::string>> defines;
  std::vector<std::pair<std::string, uint32_t>> named_compile_args;
};
struct WriterDataMovementConfig {  // RISCV_0 (BRISC) on NoC 1
  std::vector<uint32_t> compile_args;
  std::vector<std::pair<std::string, std::string>> defines;
  std::vector<std::pair<std::string, uint32_t>> named_compile_args;
};
struct DataMovementConfig {
  RiscProcessor processor = RiscProcessor::riscv_0;
  uint32_t noc = 0;
  std::vector<uint32_t> compile_args;
  std::vector<std::pair<std::string, std::string>> defines;
  std::vector<std::pair<std::string, uint32_t>> named_compile_args;
};
struct ComputeConfig {
  MathFidelity math_fidelity = MathFidelity::hifi4;
  bool fp32_dest_acc_en = false;
  bool math_approx_mode = false;
  std::vector<uint32_t> compile_args;
  std::vector<std::pair<std::string, std::string>> defines;
  std::vector<std::pair<std::string, uint32_t>> named_compile_args;
};

struct CircularBufferConfig {
  uint32_t total_size = 0;
  uint32_t buffer_index = 0;
  DataFormat data_format = DataFormat::float16_b;
  uint32_t page_size = 0;
  // Placed here instead of by the program (a CB backed by an L1-sharded tensor); the host fills it
  // with WriteShard before the launch.
  std::optional<uint32_t> globally_allocated_address;
  // Placed here by a layout computed beforehand (a descriptor's, l1_layout), not backed by a tensor.
  std::optional<uint32_t> placed_address;
  std::string name;  // for faults; default "cb<index>"
  // More buffer indices over the same L1 (tt-metal's shared CB: one CircularBufferConfig whose
  // format map has several indices, c_16 and c_24 say); each has its own pointers and counts.
  struct SharedIndex {
    uint32_t buffer_index = 0;
    DataFormat data_format = DataFormat::float16_b;
    uint32_t page_size = 0;
  };
  std::vector<SharedIndex> shared_indices;
};

using KernelHandle = uint32_t;

class Program {
 public:
  std::string name = "program";

 private:
  friend class HostDevice;
  friend KernelHandle CreateKernel(Program&, const std::filesystem::path&, const CoreRangeSet&,
                                   const KernelBuild&, std::string);
  friend void SetRuntimeArgs(Program&, KernelHandle, emu::CoreCoord, std::vector<uint32_t>);
  friend void SetCommonRuntimeArgs(Program&, KernelHandle, std::vector<uint32_t>);
  friend void CreateCircularBuffer(Program&, const CoreRangeSet&, const CircularBufferConfig&);
  friend uint32_t CreateSemaphore(Program&, const CoreRangeSet&, uint32_t, std::optional<uint32_t>);
  friend void CreateScratchpad(Program&, KernelHandle, std::string, uint32_t, uint32_t, uint32_t);
  struct Kernel {
    std::string source_name;
    KernelBuild build;
    std::vector<emu::CoreCoord> cores;
    std::map<emu::CoreCoord, std::vector<uint32_t>> runtime_args;
    std::vector<uint32_t> common_args;
    std::set<uint32_t> l1_pointer_common_args;  // emu::KernelBinding's
  };
  std::vector<Kernel> kernels_;
  std::vector<emu::CbConfig> cbs_;
  // Each CB index's tt-metal format, for the compute kernels' generated descriptors.
  struct CbFormat {
    uint32_t id = 0;
    DataFormat format = DataFormat::float16_b;
    std::vector<emu::CoreCoord> cores;
  };
  std::vector<CbFormat> cb_formats_;
  std::vector<emu::SemaphoreConfig> semaphores_;
  std::vector<emu::ScratchRegion> scratch_regions_;
  std::map<emu::CoreCoord, uint32_t> next_free_;  // each core's lowest unallocated L1 offset
};

Program CreateProgram();
KernelHandle CreateKernel(Program& program, const std::filesystem::path& file, const CoreRangeSet& cores,
                          const ReaderDataMovementConfig& config);
KernelHandle CreateKernel(Program& program, const std::filesystem::path& file, const CoreRangeSet& cores,
                          const WriterDataMovementConfig& config);
KernelHandle CreateKernel(Program& program, const std::filesystem::path& file, const CoreRangeSet& cores,
                          const DataMovementConfig& config);
KernelHandle CreateKernel(Program& program, const std::filesystem::path& file, const CoreRangeSet& cores,
                          const ComputeConfig& config);
// The form the others reduce to: the build (processor, args, defines) made by the caller;
// `source_name` is how faults and compile errors name the file.
KernelHandle CreateKernel(Program& program, const std::filesystem::path& file, const CoreRangeSet& cores,
                          const KernelBuild& build, std::string source_name);
void SetRuntimeArgs(Program& program, KernelHandle kernel, emu::CoreCoord core, std::vector<uint32_t> args);
void SetCommonRuntimeArgs(Program& program, KernelHandle kernel, std::vector<uint32_t> args);
void CreateCircularBuffer(Program& program, const CoreRangeSet& cores, const CircularBufferConfig& config);
// Returns the semaphore's id (the next free one unless `id` is given); kernels find it with
// get_semaphore(id).
uint32_t CreateSemaphore(Program& program, const CoreRangeSet& cores, uint32_t initial_value,
                         std::optional<uint32_t> id = std::nullopt);

// A Metal 2.0 kernel's scratchpad: `bytes` of private L1 at `address` on every core of `kernel`
// (the descriptor's layout places it above the CBs), its base address in the kernel's common
// runtime arg `common_arg` (which the kernel reads as a pointer it may dereference).
void CreateScratchpad(Program& program, KernelHandle kernel, std::string name, uint32_t address, uint32_t bytes,
                      uint32_t common_arg);

// The emulated chip with a kernel compiler.
class HostDevice {
 public:
  explicit HostDevice(std::filesystem::path kernel_cache = KernelCompiler::default_kernel_cache());
  emu::Device& emulator() { return device_; }
  KernelCompiler& compiler() { return compiler_; }

  std::shared_ptr<Buffer> create_buffer(const InterleavedBufferConfig& config);
  std::shared_ptr<Buffer> create_dram_sharded_buffer(const DramShardedBufferConfig& config);
  std::shared_ptr<L1Buffer> create_l1_buffer(const L1BufferConfig& config);
  // Compiles the program's kernels (or finds them in the cache) and loads it onto the chip.
  void load(const Program& program);
  // Fills a tensor-backed CB of one core (an L1 shard) after load.
  void write_shard(emu::CoreCoord core, uint32_t buffer_index, std::span<const std::byte> bytes);
  // The first `size` bytes of the shard (all of it by default).
  std::vector<std::byte> read_shard(emu::CoreCoord core, uint32_t buffer_index, uint32_t size = UINT32_MAX) const;
  // Runs the loaded program once; a fault is a ditmk::Error naming kernel, core and processor.
  emu::LaunchReport run();

 private:
  emu::Device device_;
  KernelCompiler compiler_;
  std::vector<std::shared_ptr<LoadedKernel>> loaded_;  // keeps the loaded program's code alive
  std::vector<std::string> build_warnings_;             // its kernels' builds', each once
  std::map<uint32_t, std::string> cb_names_;           // of the loaded program, by id
};

std::shared_ptr<Buffer> CreateBuffer(HostDevice& device, const InterleavedBufferConfig& config);
// (a name of its own: CreateBuffer(device, {...}) stays unambiguous)
std::shared_ptr<Buffer> CreateDramShardedBuffer(HostDevice& device, const DramShardedBufferConfig& config);
void EnqueueWriteBuffer(HostDevice& device, const Buffer& buffer, std::span<const std::byte> bytes);
void EnqueueReadBuffer(HostDevice& device, const Buffer& buffer, std::vector<std::byte>& bytes);
std::shared_ptr<L1Buffer> CreateL1Buffer(HostDevice& device, const L1BufferConfig& config);
void EnqueueWriteBuffer(HostDevice& device, const L1Buffer& buffer, std::span<const std::byte> bytes);
void EnqueueReadBuffer(HostDevice& device, const L1Buffer& buffer, std::vector<std::byte>& bytes);
// Loads and runs the program, blocking (the emulated queue has one program in flight).
emu::LaunchReport EnqueueProgram(HostDevice& device, const Program& program);

// tt-metal's storage format of a DataFormat, for the emulator's tile codecs and DRAM rates.
TileFormat tile_format_of(DataFormat format);
// The integer tile format of a DataFormat (none for the float formats): what a CB of it holds.
emu::IntegerFormat integer_format_of(DataFormat format);

}  // namespace ditmk::tt::dialect
