#include "ditmk/tt/host_api/host_api.hpp"

#include <algorithm>
#include <set>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/device_abi/device_abi.hpp"
#include "ditmk/tt/emu/from_plan.hpp"
#include "ditmk/tt/plan/limits.hpp"

namespace ditmk::tt::dialect {

namespace {

KernelBuild data_movement_build(emu::Processor processor, uint32_t noc, const std::vector<uint32_t>& args,
                                const std::vector<std::pair<std::string, std::string>>& defines,
                                const std::vector<std::pair<std::string, uint32_t>>& named) {
  KernelBuild build;
  build.processor = processor;
  build.noc = noc;
  build.compile_time_args = args;
  build.defines = defines;
  build.named_args = named;
  return build;
}

emu::MathFidelity emu_fidelity(uint32_t fidelity) {
  switch (fidelity) {
    case 0: return emu::MathFidelity::lofi;
    case 1: return emu::MathFidelity::hifi2;
    case 2: return emu::MathFidelity::hifi3;
    default: return emu::MathFidelity::hifi4;
  }
}

uint32_t align32(uint32_t address) { return (address + tt::kL1CbAlign - 1) / tt::kL1CbAlign * tt::kL1CbAlign; }

}  // namespace

TileFormat tile_format_of(DataFormat format) {
  switch (format) {
    case DataFormat::bfp8_b: return TileFormat::bfp8_b;
    case DataFormat::float16_b:
    case DataFormat::uint16: return TileFormat::bf16;
    default: return TileFormat::fp32;
  }
}

emu::IntegerFormat integer_format_of(DataFormat format) {
  switch (format) {
    case DataFormat::int32: return emu::IntegerFormat::int32;
    case DataFormat::uint32: return emu::IntegerFormat::uint32;
    case DataFormat::uint16: return emu::IntegerFormat::uint16;
    case DataFormat::uint8: return emu::IntegerFormat::uint8;
    default: return emu::IntegerFormat::none;
  }
}

Program CreateProgram() { return Program{}; }

KernelHandle CreateKernel(Program& program, const std::filesystem::path& file, const CoreRangeSet& cores,
                          const KernelBuild& build, std::string source_name) {
  Program::Kernel kernel;
  kernel.source_name = source_name.empty() ? file.string() : std::move(source_name);
  kernel.build = build;
  kernel.build.source = file;
  kernel.build.source_name = kernel.source_name;
  kernel.cores = cores_of(cores);
  require(!kernel.cores.empty(), "CreateKernel {}: no cores", kernel.source_name);
  for (emu::CoreCoord core : kernel.cores) {
    require(emu::on_grid(core), "CreateKernel {}: core {} is off the {}x{} grid", kernel.source_name,
            emu::core_name(core), emu::kGridX, emu::kGridY);
  }
  program.kernels_.push_back(std::move(kernel));
  return KernelHandle(program.kernels_.size() - 1);
}

KernelHandle CreateKernel(Program& program, const std::filesystem::path& file, const CoreRangeSet& cores,
                          const ReaderDataMovementConfig& c) {
  return CreateKernel(program, file, cores,
                      data_movement_build(emu::Processor::ncrisc, 0, c.compile_args, c.defines, c.named_compile_args), "");
}

KernelHandle CreateKernel(Program& program, const std::filesystem::path& file, const CoreRangeSet& cores,
                          const WriterDataMovementConfig& c) {
  return CreateKernel(program, file, cores,
                      data_movement_build(emu::Processor::brisc, 1, c.compile_args, c.defines, c.named_compile_args), "");
}

KernelHandle CreateKernel(Program& program, const std::filesystem::path& file, const CoreRangeSet& cores,
                          const DataMovementConfig& c) {
  const emu::Processor processor = c.processor == RiscProcessor::riscv_0 ? emu::Processor::brisc : emu::Processor::ncrisc;
  return CreateKernel(program, file, cores,
                      data_movement_build(processor, c.noc, c.compile_args, c.defines, c.named_compile_args), "");
}

KernelHandle CreateKernel(Program& program, const std::filesystem::path& file, const CoreRangeSet& cores,
                          const ComputeConfig& c) {
  KernelBuild build;
  build.processor = emu::Processor::trisc;
  build.compile_time_args = c.compile_args;
  build.defines = c.defines;
  build.named_args = c.named_compile_args;
  build.math_fidelity = uint32_t(c.math_fidelity);
  build.fp32_dest_acc_en = c.fp32_dest_acc_en;
  build.math_approx_mode = c.math_approx_mode;
  return CreateKernel(program, file, cores, build, "");
}

void SetRuntimeArgs(Program& program, KernelHandle kernel, emu::CoreCoord core, std::vector<uint32_t> args) {
  require(kernel < program.kernels_.size(), "SetRuntimeArgs: no kernel {}", kernel);
  Program::Kernel& k = program.kernels_[kernel];
  require(std::find(k.cores.begin(), k.cores.end(), core) != k.cores.end(),
          "SetRuntimeArgs {}: core {} does not run the kernel", k.source_name, emu::core_name(core));
  require(args.size() + k.common_args.size() <= tt::kMaxRtArgsPerCore,
          "SetRuntimeArgs {}: {} runtime args on core {} (with {} common) exceed {}", k.source_name, args.size(),
          emu::core_name(core), k.common_args.size(), tt::kMaxRtArgsPerCore);
  k.runtime_args[core] = std::move(args);
}

void SetCommonRuntimeArgs(Program& program, KernelHandle kernel, std::vector<uint32_t> args) {
  require(kernel < program.kernels_.size(), "SetCommonRuntimeArgs: no kernel {}", kernel);
  program.kernels_[kernel].common_args = std::move(args);
}

void CreateCircularBuffer(Program& program, const CoreRangeSet& ranges, const CircularBufferConfig& config) {
  const std::vector<emu::CoreCoord> cores = cores_of(ranges);
  require(!cores.empty(), "CreateCircularBuffer #{}: no cores", config.buffer_index);
  emu::CbConfig cb;
  cb.name = config.name.empty() ? "cb" + std::to_string(config.buffer_index) : config.name;
  cb.id = config.buffer_index;
  cb.cores = {cores.begin(), cores.end()};
  cb.total_bytes = config.total_size;
  cb.page_bytes = config.page_size;
  cb.format = tile_format_of(config.data_format);
  cb.integer = integer_format_of(config.data_format);
  if (config.globally_allocated_address) {
    cb.address = *config.globally_allocated_address;
    cb.tensor_backed = true;
  } else if (config.placed_address) {
    cb.address = *config.placed_address;
  } else {
    // As tt-metal's allocator: one address on every core of the set, above what each already holds.
    uint32_t address = tt::kL1CbBase;
    for (emu::CoreCoord core : cores) {
      auto it = program.next_free_.find(core);
      if (it != program.next_free_.end()) address = std::max(address, it->second);
    }
    cb.address = align32(address);
    for (emu::CoreCoord core : cores) program.next_free_[core] = cb.address + cb.total_bytes;
  }
  if (!config.shared_indices.empty()) cb.share_group = uint32_t(program.cbs_.size()) + 1;  // unique per program
  for (const CircularBufferConfig::SharedIndex& shared : config.shared_indices) {
    emu::CbConfig alias = cb;
    alias.id = shared.buffer_index;
    alias.name = cb.name + "/" + std::to_string(shared.buffer_index);
    alias.page_bytes = shared.page_size;
    alias.format = tile_format_of(shared.data_format);
    alias.integer = integer_format_of(shared.data_format);
    program.cbs_.push_back(std::move(alias));
    program.cb_formats_.push_back({shared.buffer_index, shared.data_format, cores});
  }
  program.cbs_.push_back(std::move(cb));
  program.cb_formats_.push_back({config.buffer_index, config.data_format, cores});
}

uint32_t CreateSemaphore(Program& program, const CoreRangeSet& cores, uint32_t initial_value, std::optional<uint32_t> id) {
  uint32_t sem_id = id.value_or(0);
  if (!id) {
    while (std::any_of(program.semaphores_.begin(), program.semaphores_.end(),
                       [&](const emu::SemaphoreConfig& s) { return s.id == sem_id; })) {
      ++sem_id;
    }
  }
  require(sem_id < emu::kSemaphoresPerCore, "CreateSemaphore: id {} is not below {}", sem_id, emu::kSemaphoresPerCore);
  // The emulator gives a semaphore one address and value on every core of the program (kernels reach
  // it by id), so the cores given only say where tt-metal would create it.
  (void)cores;
  program.semaphores_.push_back(
      {"sem" + std::to_string(sem_id), sem_id, emu::plan_semaphore_address(sem_id), initial_value});
  return sem_id;
}

void CreateScratchpad(Program& program, KernelHandle kernel, std::string name, uint32_t address, uint32_t bytes,
                      uint32_t common_arg) {
  require(kernel < program.kernels_.size(), "CreateScratchpad '{}': no kernel {}", name, kernel);
  Program::Kernel& k = program.kernels_[kernel];
  require(common_arg < k.common_args.size(), "CreateScratchpad '{}': kernel {} has no common runtime arg {}", name,
          k.source_name, common_arg);
  k.l1_pointer_common_args.insert(common_arg);
  program.scratch_regions_.push_back({std::move(name), {k.cores.begin(), k.cores.end()}, address, bytes});
}

HostDevice::HostDevice(std::filesystem::path kernel_cache) : compiler_(std::move(kernel_cache)) {
  // DRAM address 0 stays unused, so that a kernel may take an address of 0 to mean "no tensor"
  device_.allocate_interleaved("reserved", TileFormat::bf16, 64, 64);
}

std::shared_ptr<Buffer> HostDevice::create_buffer(const InterleavedBufferConfig& config) {
  require(config.page_size > 0 && config.size > 0, "CreateBuffer {}: size and page size must be positive", config.name);
  return std::make_shared<Buffer>(
      device_.allocate_interleaved(config.name, tile_format_of(config.format), config.size, config.page_size, config.address));
}

std::shared_ptr<Buffer> HostDevice::create_dram_sharded_buffer(const DramShardedBufferConfig& config) {
  require(config.shard_size > 0 && config.size > 0, "CreateBuffer {}: size and shard size must be positive",
          config.name);
  return std::make_shared<Buffer>(device_.allocate_sharded(config.name, tile_format_of(config.format), config.size,
                                                           config.shard_size, config.address));
}

void HostDevice::load(const Program& program) {
  emu::Program chip_program;
  chip_program.name = program.name;
  // Row by row, as the chip's grid runs: the emulator starts its processors in this order, which
  // also settles the timing model's ties between cores.
  auto row_major = [](emu::CoreCoord a, emu::CoreCoord b) { return a.y != b.y ? a.y < b.y : a.x < b.x; };
  std::set<emu::CoreCoord, decltype(row_major)> all(row_major);
  for (const Program::Kernel& k : program.kernels_) all.insert(k.cores.begin(), k.cores.end());
  chip_program.cores = {all.begin(), all.end()};
  chip_program.cbs = program.cbs_;
  chip_program.semaphores = program.semaphores_;
  chip_program.scratch_regions = program.scratch_regions_;
  std::vector<std::shared_ptr<LoadedKernel>> loaded;
  std::vector<std::string> warnings;
  for (const Program::Kernel& k : program.kernels_) {
    // Every kernel's build carries the formats of the CBs on its cores (the JIT's per-CB arrays), one
    // format per CB id as tt-metal compiles one table per kernel.
    KernelBuild build = k.build;
    for (const Program::CbFormat& cb : program.cb_formats_) {
      const bool on_kernel_cores = std::any_of(cb.cores.begin(), cb.cores.end(), [&](emu::CoreCoord core) {
        return std::find(k.cores.begin(), k.cores.end(), core) != k.cores.end();
      });
      if (!on_kernel_cores) continue;
      const JitCbFormat format{cb.id, data_format_value(cb.format), tile_size(cb.format)};
      const auto same_id = std::find_if(build.cb_formats.begin(), build.cb_formats.end(),
                                        [&](const JitCbFormat& f) { return f.id == cb.id; });
      if (same_id == build.cb_formats.end()) {
        build.cb_formats.push_back(format);
      } else {
        require(same_id->data_format == format.data_format,
                "kernel {}: CB #{} has two formats on the kernel's cores; tt-metal compiles one format table per kernel",
                k.source_name, cb.id);
      }
    }
    std::shared_ptr<LoadedKernel> code = compiler_.load(build);
    for (const std::string& warning : code->warnings()) {
      // A strict run refuses what a default run warns about, here before anything launches.
      if (device_.strict()) fail("{} (refused under --strict)", warning);
      if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end()) warnings.push_back(warning);
    }
    emu::KernelBinding& binding = chip_program.kernels.emplace_back();
    binding.source = k.source_name;
    binding.cores = {k.cores.begin(), k.cores.end()};
    binding.processors = {k.build.processor};
    if (k.build.processor != emu::Processor::trisc) binding.noc = k.build.noc;
    binding.common_args = k.common_args;
    binding.l1_pointer_common_args = k.l1_pointer_common_args;
    binding.core_args = k.runtime_args;
    binding.math_fidelity = emu_fidelity(k.build.math_fidelity);
    binding.l1_pointers = true;
    const KernelEntry entry = code->entry();
    binding.body = [entry] { entry(&device_abi()); };
    loaded.push_back(std::move(code));
  }
  device_.load(std::move(chip_program));
  loaded_ = std::move(loaded);
  build_warnings_ = std::move(warnings);
  cb_names_.clear();
  for (const emu::CbConfig& cb : program.cbs_) cb_names_[cb.id] = cb.name;
}

void HostDevice::write_shard(emu::CoreCoord core, uint32_t buffer_index, std::span<const std::byte> bytes) {
  auto it = cb_names_.find(buffer_index);
  require(it != cb_names_.end(), "write_shard: the program has no CB #{}", buffer_index);
  device_.write_cb(core, it->second, bytes);
}

std::vector<std::byte> HostDevice::read_shard(emu::CoreCoord core, uint32_t buffer_index, uint32_t size) const {
  auto it = cb_names_.find(buffer_index);
  require(it != cb_names_.end(), "read_shard: the program has no CB #{}", buffer_index);
  return device_.read_cb(core, it->second, size);
}

emu::LaunchReport HostDevice::run() {
  emu::LaunchReport report = device_.launch();
  // The builds' warnings come first: they were met before the launch.
  report.warnings.insert(report.warnings.begin(), build_warnings_.begin(), build_warnings_.end());
  return report;
}

std::shared_ptr<Buffer> CreateBuffer(HostDevice& device, const InterleavedBufferConfig& config) {
  return device.create_buffer(config);
}

std::shared_ptr<Buffer> CreateDramShardedBuffer(HostDevice& device, const DramShardedBufferConfig& config) {
  return device.create_dram_sharded_buffer(config);
}

void EnqueueWriteBuffer(HostDevice& device, const Buffer& buffer, std::span<const std::byte> bytes) {
  device.emulator().write_buffer(buffer.dram(), bytes);
}

void EnqueueReadBuffer(HostDevice& device, const Buffer& buffer, std::vector<std::byte>& bytes) {
  bytes = device.emulator().read_buffer(buffer.dram());
}

emu::LaunchReport EnqueueProgram(HostDevice& device, const Program& program) {
  device.load(program);
  return device.run();
}

}  // namespace ditmk::tt::dialect
