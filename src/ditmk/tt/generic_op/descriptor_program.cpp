#include "ditmk/tt/generic_op/descriptor_program.hpp"

#include "ditmk/core/error.hpp"

namespace ditmk::tt::dialect {

namespace {

std::vector<uint32_t> compile_args(const ProgramDescriptor& program, const KernelDescriptor& k) {
  std::vector<uint32_t> out;
  for (const CompileTimeArg& arg : k.compile_time_args) {
    if (arg.tensor_accessor_args.empty()) {
      out.push_back(arg.value);
      continue;
    }
    const std::vector<uint32_t> words = tensor_accessor_args(*program.tensor(arg.tensor_accessor_args));
    out.insert(out.end(), words.begin(), words.end());
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

// Metal 2.0's layout of a kernel's tensor bindings, as tt-metal's ProgramSpec resolves it: each
// binding's accessor words follow the positional compile-time args, binding after binding; its base
// address is one common runtime arg, binding after binding, right after the named common args.
void bind_tensors(const ProgramDescriptor& program, const KernelDescriptor& k, KernelBuild& build) {
  const uint32_t named_common =
      k.runtime_arguments_schema ? uint32_t(k.runtime_arguments_schema->named_common_runtime_args.size()) : 0;
  for (size_t i = 0; i < k.tensor_bindings.size(); ++i) {
    const auto& [name, tensor_name] = k.tensor_bindings[i];
    const TensorDescriptor& tensor = *program.tensor(tensor_name);
    const std::vector<uint32_t> words = tensor_accessor_args(tensor);
    build.bindings.tensors.push_back({name, uint32_t(build.compile_time_args.size()),
                                      uint32_t((named_common + i) * sizeof(uint32_t)),
                                      {data_format_value(tensor.data_format)}});
    build.compile_time_args.insert(build.compile_time_args.end(), words.begin(), words.end());
  }
}

// Scratchpads, as tt-metal's ProgramSpec resolves them: one base-address common runtime arg each,
// after the tensor bindings' address words and before the common varargs.
void bind_scratchpads(const KernelDescriptor& k, KernelBuild& build) {
  if (k.scratchpad_bindings.empty()) return;
  const uint32_t first = uint32_t(k.runtime_arguments_schema->named_common_runtime_args.size() + k.tensor_bindings.size());
  for (size_t i = 0; i < k.scratchpad_bindings.size(); ++i) {
    const auto& [name, size] = k.scratchpad_bindings[i];
    build.bindings.scratchpads.push_back({name, first + uint32_t(i), size});
  }
}

// The common runtime args as the kernel receives them: the named ones, the tensor bindings' base
// addresses, the scratchpads' base addresses (`scratchpads`, where the layout placed them), then
// the varargs.
std::vector<ArgValue> common_args(const KernelDescriptor& k, const std::vector<uint32_t>& scratchpads) {
  std::vector<ArgValue> out = k.common_runtime_args;
  if (k.tensor_bindings.empty() && scratchpads.empty()) return out;
  const size_t named = k.runtime_arguments_schema->named_common_runtime_args.size();
  std::vector<ArgValue> addresses;
  for (const auto& [name, tensor] : k.tensor_bindings) addresses.push_back({0, tensor});
  for (const uint32_t address : scratchpads) addresses.push_back({address, ""});
  out.insert(out.begin() + std::ptrdiff_t(named), addresses.begin(), addresses.end());
  return out;
}

KernelBuild build_of(const ProgramDescriptor& program, const KernelDescriptor& k) {
  KernelBuild build;
  build.compile_time_args = compile_args(program, k);
  // A Metal 2.0 kernel's positional compile-time args are its compile-time varargs (KernelSpec's
  // advanced_options.compile_time_varargs), ahead of its tensor bindings' words.
  build.compile_time_vararg_count = uint32_t(build.compile_time_args.size());
  build.named_args = k.named_compile_time_args;
  build.runtime_arguments_schema = k.runtime_arguments_schema;
  build.bindings.dataflow_buffers = k.dataflow_buffer_bindings;
  build.bindings.semaphores = k.semaphore_bindings;
  build.bindings.tensor_sequences = k.tensor_binding_sequences;
  bind_tensors(program, k, build);
  bind_scratchpads(k, build);
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

// tt-metal's ArgConfig bits (hostdevcommon/tensor_accessor/arg_config.hpp).
constexpr uint32_t kAccessorSharded = 1u << 0;
constexpr uint32_t kAccessorIsDram = 1u << 1;
constexpr uint32_t kDramPageAlignment = 64;  // Blackhole's DRAM_ALIGNMENT, the DRAM banks' page stride

// Everything compile-time, as TensorAccessorArgs(buffer) gives it by default. A sharded tensor is, as
// ditmk lays it out, a run of pages cut into shards of shard_size bytes, shard k on the k-th of its
// cores: rank 1, the tensor's and a shard's page counts, one bank per core in that order.
std::vector<uint32_t> tensor_accessor_args(const TensorDescriptor& t) {
  switch (t.memory) {
    case TensorMemory::dram_interleaved:
      return {kAccessorIsDram, (t.page_size + kDramPageAlignment - 1) / kDramPageAlignment * kDramPageAlignment};
    case TensorMemory::l1_interleaved: return {0, l1_page_stride(t.page_size)};
    case TensorMemory::l1_sharded:
    case TensorMemory::dram_sharded: break;
  }
  require(t.page_size % kL1PageAlignment == 0,
          "tensor '{}': TensorAccessorArgs of a sharded tensor need a page_size that is a multiple of {} B (its "
          "shards hold pages back to back; tt-metal strides them by the aligned page), not {}",
          t.name, kL1PageAlignment, t.page_size);
  const std::vector<emu::CoreCoord> cores = cores_of(t.cores);
  // a DRAM shard's cores are its banks, (bank, 0): the device side takes the bank from x
  std::vector<uint32_t> words = {kAccessorSharded | (in_dram(t.memory) ? kAccessorIsDram : 0u), t.page_size};
  if (t.tensor_pages.empty()) {
    words.insert(words.end(), {1, uint32_t(cores.size()), uint32_t((t.bytes() + t.page_size - 1) / t.page_size),
                               t.shard_size / t.page_size});
  } else {  // the page grid: rank, banks, the tensor's extents, a shard's
    words.insert(words.end(), {uint32_t(t.tensor_pages.size()), uint32_t(cores.size())});
    words.insert(words.end(), t.tensor_pages.begin(), t.tensor_pages.end());
    words.insert(words.end(), t.shard_pages.begin(), t.shard_pages.end());
  }
  for (std::size_t bank = 0; bank < cores.size(); bank += 2) {
    auto packed = [&](std::size_t i) { return i < cores.size() ? (cores[i].x << 8 | cores[i].y) : 0u; };
    words.push_back(packed(bank) | packed(bank + 1) << 16);
  }
  return words;
}

Program program_of(const ProgramDescriptor& d, const L1Layout& layout, const std::map<std::string, uint32_t>& addresses) {
  Program program = CreateProgram();
  program.name = d.name;
  for (std::size_t i = 0; i < d.kernels.size(); ++i) {
    const KernelDescriptor& k = d.kernels[i];
    const KernelHandle handle = CreateKernel(program, k.source_path, k.core_ranges, build_of(d, k), k.kernel_source);
    SetCommonRuntimeArgs(program, handle, resolve(d, common_args(k, layout.scratchpad_addresses.at(i)), addresses));
    // each scratchpad's address word follows the named common args and the tensor bindings' words
    const std::size_t first_word =
        k.scratchpad_bindings.empty() ? 0 : k.runtime_arguments_schema->named_common_runtime_args.size() + k.tensor_bindings.size();
    for (std::size_t s = 0; s < k.scratchpad_bindings.size(); ++s)
      CreateScratchpad(program, handle, k.scratchpad_bindings[s].first, layout.scratchpad_addresses.at(i).at(s),
                       k.scratchpad_bindings[s].second, uint32_t(first_word + s));
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
