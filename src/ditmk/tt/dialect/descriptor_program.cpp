#include "ditmk/tt/dialect/descriptor_program.hpp"

#include "ditmk/core/error.hpp"

namespace ditmk::tt::dialect {

namespace {

// ditmk's TensorAccessorArgs encoding (one word): bit 0 the tensor is in DRAM, bit 1 it is sharded
// (neither: L1-interleaved), bits 8..31 its page size as its banks lay pages out (so
// TensorAccessor(args, address) needs no page size), 0 when too large.
uint32_t accessor_word(const TensorDescriptor& t) {
  const uint32_t where = t.memory == TensorMemory::dram_interleaved ? 1u
                         : t.memory == TensorMemory::l1_sharded     ? 2u
                                                                    : 0u;
  const uint32_t page = t.memory == TensorMemory::l1_interleaved ? l1_page_stride(t.page_size) : t.page_size;
  return page < (1u << 24) ? where | page << 8 : where;
}

std::vector<uint32_t> compile_args(const ProgramDescriptor& program, const KernelDescriptor& k) {
  std::vector<uint32_t> out;
  for (const CompileTimeArg& arg : k.compile_time_args) {
    out.push_back(arg.tensor_accessor_args.empty() ? arg.value : accessor_word(*program.tensor(arg.tensor_accessor_args)));
  }
  return out;
}

std::vector<uint32_t> resolve(const ProgramDescriptor& d, const std::vector<ArgValue>& args,
                              const std::map<std::string, uint32_t>& addresses) {
  std::vector<uint32_t> out;
  for (const ArgValue& arg : args) {
    if (arg.address_of.empty()) {
      out.push_back(arg.value);
      continue;
    }
    auto it = addresses.find(arg.address_of);
    require(it != addresses.end(), "{}: an arg is the address of tensor '{}', which has no buffer", d.file.string(),
            arg.address_of);
    out.push_back(it->second);
  }
  return out;
}

KernelBuild build_of(const ProgramDescriptor& program, const KernelDescriptor& k) {
  KernelBuild build;
  build.compile_time_args = compile_args(program, k);
  build.named_args = k.named_compile_time_args;
  build.runtime_arguments_schema = k.runtime_arguments_schema;
  build.defines = k.defines;
  build.kernel_root = program.kernel_root;
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

}  // namespace

Program program_of(const ProgramDescriptor& d, const L1Layout& layout, const std::map<std::string, uint32_t>& addresses) {
  Program program = CreateProgram();
  program.name = d.name;
  for (const KernelDescriptor& k : d.kernels) {
    const KernelHandle handle = CreateKernel(program, k.source_path, k.core_ranges, build_of(d, k), k.kernel_source);
    SetCommonRuntimeArgs(program, handle, resolve(d, k.common_runtime_args, addresses));
    for (const CoreArgs& core : k.runtime_args) SetRuntimeArgs(program, handle, core.core, resolve(d, core.args, addresses));
  }
  for (std::size_t i = 0; i < d.cbs.size(); ++i) {
    const CBDescriptor& cb = d.cbs[i];
    const CBFormatDescriptor& f = cb.format_descriptors.front();
    CircularBufferConfig config{cb.total_size, f.buffer_index, f.data_format, f.page_size};
    // tt-metal's shared CB: the other format descriptors are more indices over the same L1
    for (std::size_t k = 1; k < cb.format_descriptors.size(); ++k) {
      const CBFormatDescriptor& more = cb.format_descriptors[k];
      config.shared_indices.push_back({more.buffer_index, more.data_format, more.page_size});
    }
    // the descriptor's layout, as validated
    if (cb.tensor.empty()) config.placed_address = layout.cb_addresses[i];
    else config.globally_allocated_address = layout.cb_addresses[i];
    config.name = !cb.name.empty() ? cb.name : !cb.tensor.empty() ? cb.tensor : "cb" + std::to_string(f.buffer_index);
    CreateCircularBuffer(program, cb.core_ranges, config);
  }
  for (const SemaphoreDescriptor& sem : d.semaphores) CreateSemaphore(program, sem.core_ranges, sem.initial_value, sem.id);
  return program;
}

}  // namespace ditmk::tt::dialect
