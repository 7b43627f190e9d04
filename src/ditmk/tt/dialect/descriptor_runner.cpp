#include "ditmk/tt/dialect/descriptor_runner.hpp"

#include <chrono>

#include "ditmk/core/error.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/tt/dialect/host_api.hpp"
#include "ditmk/tt/dialect/tensor_codec.hpp"

namespace ditmk::tt::dialect {

namespace fs = std::filesystem;

namespace {

// ditmk's TensorAccessorArgs encoding (one word): bit 0 the tensor is in DRAM, bit 1 it is sharded,
// bits 8..31 its page size (so TensorAccessor(args, address) needs no page size), 0 when too large.
uint32_t accessor_word(const TensorDescriptor& t) {
  const uint32_t where = t.memory == TensorMemory::dram_interleaved ? 1u : 2u;
  return t.page_size < (1u << 24) ? where | t.page_size << 8 : where;
}

std::vector<uint32_t> compile_args(const ProgramDescriptor& program, const KernelDescriptor& k) {
  std::vector<uint32_t> out;
  for (const CompileTimeArg& arg : k.compile_time_args) {
    out.push_back(arg.tensor_accessor_args.empty() ? arg.value : accessor_word(*program.tensor(arg.tensor_accessor_args)));
  }
  return out;
}

std::vector<uint32_t> resolve(const std::vector<ArgValue>& args, const std::map<std::string, uint32_t>& addresses) {
  std::vector<uint32_t> out;
  for (const ArgValue& arg : args) out.push_back(arg.address_of.empty() ? arg.value : addresses.at(arg.address_of));
  return out;
}

KernelBuild build_of(const ProgramDescriptor& program, const KernelDescriptor& k) {
  KernelBuild build;
  build.compile_time_args = compile_args(program, k);
  build.named_args = k.named_compile_time_args;
  build.defines = k.defines;
  const KernelConfig& c = k.config;
  switch (c.type) {
    case KernelType::reader: build.processor = emu::Processor::ncrisc; build.noc = 0; break;
    case KernelType::writer: build.processor = emu::Processor::brisc; build.noc = 1; break;
    case KernelType::data_movement:
      build.processor = c.processor == RiscProcessor::riscv_0 ? emu::Processor::brisc : emu::Processor::ncrisc;
      build.noc = c.noc;
      break;
    case KernelType::compute:
      build.processor = emu::Processor::trisc;
      build.math_fidelity = uint32_t(c.math_fidelity);
      build.fp32_dest_acc_en = c.fp32_dest_acc_en;
      build.math_approx_mode = c.math_approx_mode;
      break;
  }
  return build;
}

fs::path resolve_path(const std::string& path, const fs::path& folder) {
  const fs::path p(path);
  return p.is_absolute() ? p : folder / p;
}

struct Placed {
  std::map<std::string, uint32_t> addresses;               // what address_of gives, by tensor
  std::map<std::string, std::shared_ptr<Buffer>> buffers;  // DRAM tensors
  std::map<std::string, uint32_t> shard_cb;                // L1 tensors: the CB id backed by each
};

Placed place_tensors(HostDevice& device, const ProgramDescriptor& program, const L1Layout& layout) {
  Placed placed;
  for (const TensorDescriptor& t : program.tensors) {
    if (t.memory == TensorMemory::dram_interleaved) {
      auto buffer = CreateBuffer(device, {t.bytes(), t.page_size, t.data_format, t.name});
      placed.addresses[t.name] = buffer->address();
      placed.buffers[t.name] = std::move(buffer);
    } else {
      placed.addresses[t.name] = layout.shard_addresses.at(t.name);
    }
  }
  for (const CBDescriptor& cb : program.cbs) {
    if (!cb.tensor.empty()) placed.shard_cb[cb.tensor] = cb.format_descriptors.front().buffer_index;
  }
  for (const TensorDescriptor& t : program.tensors) {
    require(t.memory != TensorMemory::l1_sharded || placed.shard_cb.count(t.name),
            "{}: tensor '{}' is L1-sharded but backs no CB: on the emulated chip an L1 tensor is reached "
            "through the CB it backs", program.file.string(), t.name);
  }
  return placed;
}

Program program_of(const ProgramDescriptor& d, const L1Layout& layout, const Placed& placed) {
  Program program = CreateProgram();
  program.name = d.name;
  for (const KernelDescriptor& k : d.kernels) {
    const KernelHandle handle = CreateKernel(program, k.source_path, k.core_ranges, build_of(d, k), k.kernel_source);
    SetCommonRuntimeArgs(program, handle, resolve(k.common_runtime_args, placed.addresses));
    for (const CoreArgs& core : k.runtime_args) SetRuntimeArgs(program, handle, core.core, resolve(core.args, placed.addresses));
  }
  for (std::size_t i = 0; i < d.cbs.size(); ++i) {
    const CBDescriptor& cb = d.cbs[i];
    require(cb.format_descriptors.size() == 1,
            "{}: cbs[{}]: {} format descriptors share one CB; the emulator models one CB id per CB",
            d.file.string(), i, cb.format_descriptors.size());
    const CBFormatDescriptor& f = cb.format_descriptors.front();
    CircularBufferConfig config{cb.total_size, f.buffer_index, f.data_format, f.page_size};
    config.globally_allocated_address = layout.cb_addresses[i];  // the descriptor's layout, as validated
    if (cb.tensor.empty()) config.name = "cb" + std::to_string(f.buffer_index);
    else config.name = cb.tensor;
    CreateCircularBuffer(program, cb.core_ranges, config);
  }
  for (const SemaphoreDescriptor& sem : d.semaphores) CreateSemaphore(program, sem.core_ranges, sem.initial_value, sem.id);
  return program;
}

}  // namespace

DescriptorRun run_descriptor(const ProgramDescriptor& d, const RunOptions& options) {
  const fs::path folder = options.data_dir.empty() ? d.file.parent_path() : options.data_dir;
  HostDevice device(options.kernel_cache);
  device.emulator().set_timing(options.timing);
  const L1Layout layout = l1_layout(d);
  const Placed placed = place_tensors(device, d, layout);
  Program program = program_of(d, layout, placed);
  // Inputs are read before anything compiles, so a missing file costs nothing.
  std::map<std::string, std::vector<std::byte>> inputs;
  for (const TensorDescriptor& t : d.tensors) {
    if (t.input.empty()) continue;
    const fs::path path = resolve_path(t.input, folder);
    inputs[t.name] = encode_tensor(t, io::read_npy(path.string()), path.string());
  }
  device.load(program);
  // A CB backed by a tensor is not a "written" region until the host fills it; bytes of a tensor no
  // input fills stay unwritten, so a kernel that reads them faults.
  for (const TensorDescriptor& t : d.tensors) {
    auto input = inputs.find(t.name);
    if (input == inputs.end()) continue;
    if (t.memory == TensorMemory::dram_interleaved) {
      EnqueueWriteBuffer(device, *placed.buffers.at(t.name), input->second);
      continue;
    }
    const std::vector<emu::CoreCoord> cores = cores_of(t.cores);
    for (std::size_t i = 0; i < cores.size(); ++i) {
      const std::size_t begin = std::min(input->second.size(), i * t.shard_size);
      const std::size_t end = std::min(input->second.size(), begin + t.shard_size);
      if (end > begin) device.write_shard(cores[i], placed.shard_cb.at(t.name), {input->second.data() + begin, end - begin});
    }
  }
  DescriptorRun run;
  const auto start = std::chrono::steady_clock::now();
  run.report = device.run();
  run.run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.compile = device.compiler().stats();
  if (!run.report.clean()) return run;
  for (const TensorDescriptor& t : d.tensors) {
    if (t.output.empty()) continue;
    std::vector<std::byte> bytes;
    if (t.memory == TensorMemory::dram_interleaved) {
      EnqueueReadBuffer(device, *placed.buffers.at(t.name), bytes);
    } else {
      for (emu::CoreCoord core : cores_of(t.cores)) {
        const std::vector<std::byte> shard = device.read_shard(core, placed.shard_cb.at(t.name));
        bytes.insert(bytes.end(), shard.begin(), shard.end());
      }
    }
    const fs::path path = resolve_path(t.output, folder);
    io::write_npy(path.string(), decode_tensor(t, bytes).view());
    run.outputs.push_back(path);
  }
  return run;
}

}  // namespace ditmk::tt::dialect
