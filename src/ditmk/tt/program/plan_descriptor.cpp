#include "ditmk/tt/program/plan_descriptor.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/tt/jit/kernel_compiler.hpp"
#include "ditmk/tt/plan/io_tensors.hpp"
#include "ditmk/tt/plan/program_builder.hpp"

namespace ditmk::tt::dialect {

namespace {

emu::CoreCoord coord_of(tt::Core core) { return {uint32_t(core.x), uint32_t(core.y)}; }

CoreRangeSet ranges_of(const std::vector<tt::CoreRange>& ranges) {
  CoreRangeSet out;
  for (const tt::CoreRange& r : ranges) out.push_back({coord_of(r.start), coord_of(r.end)});
  return out;
}

using RangeSets = std::map<std::string, std::vector<tt::CoreRange>>;  // the core map's named sets

TensorDescriptor tensor_of(const RangeSets& sets, const IoTensor& io) {
  TensorDescriptor t;
  t.name = io.name;
  t.memory = io.memory == IoMemory::dram_interleaved ? TensorMemory::dram_interleaved : TensorMemory::l1_sharded;
  t.layout = io.layout == IoLayout::tile ? TensorLayout::tile : TensorLayout::row_major;
  t.data_format = data_format_of(io.format);
  t.shape = {uint64_t(io.rows), uint64_t(io.cols)};
  t.page_size = io.page_bytes;
  if (io.memory == IoMemory::l1_sharded) {
    t.cores = ranges_of(sets.at(io.core_set));
    t.shard_size = io.shard_bytes;
  }
  return t;
}

// The plan's named compile-time args, then what a host takes from the chip (noc_named_args).
std::vector<std::pair<std::string, uint32_t>> shared_named_args(const ProgramSpec& spec) {
  std::vector<std::pair<std::string, uint32_t>> named;
  for (const NamedArg& arg : spec.named_ctas) named.emplace_back(arg.name, arg.value);
  for (const NamedArg& arg : noc_named_args(spec.core_map)) named.emplace_back(arg.name, arg.value);
  return named;
}

// The common args with each present io slot's address as address_of its tensor.
std::vector<ArgValue> common_args(const ProgramSpec& spec) {
  std::vector<ArgValue> args;
  for (uint32_t value : spec.common_rt_args) args.push_back({value, {}});
  for (std::size_t i = 0; i < spec.io.size(); ++i) {
    require(spec.common_rt_names.at(i) == "addr_" + spec.io[i].name, "plan common arg {} is {}, not the address of {}",
            i, spec.common_rt_names.at(i), spec.io[i].name);
    if (io_present(spec, spec.io[i])) args[i] = {0, spec.io[i].name};
  }
  return args;
}

}  // namespace

DataFormat data_format_of(TileFormat format) {
  switch (format) {
    case TileFormat::bf16: return DataFormat::float16_b;
    case TileFormat::bfp8_b: return DataFormat::bfp8_b;
    case TileFormat::fp32: return DataFormat::float32;
  }
  fail("tile format {} has no tt-metal data format", int(format));
}

std::filesystem::path megakernel_dir() {
  if (const char* dir = std::getenv("DITMK_MEGAKERNEL_DIR"); dir && *dir) return dir;
  if (std::optional<std::filesystem::path> installed = installed_share("megakernel", kMegakernelSource)) return *installed;
  return std::filesystem::path(build::source_dir()) / "src/ditmk/tt/kernel";
}

ProgramDescriptor plan_descriptor(const ProgramSpec& spec, const std::string& kernel_source,
                                  const std::filesystem::path& folder) {
  ProgramDescriptor d;
  d.file = folder / "program.json";
  d.name = fmt::format("ditmk {} {} {} {}", model::version_name(spec.layout.version), kernel_name(spec.kernel),
                       variant_name(spec.variant), tile_format_name(spec.layout.dtype_stream));
  const RangeSets sets = spec.core_map.to_core_range_sets();
  for (const IoTensor& io : io_tensors(spec)) d.tensors.push_back(tensor_of(sets, io));

  const std::vector<std::pair<std::string, uint32_t>> named = shared_named_args(spec);
  const std::vector<ArgValue> common = common_args(spec);
  KernelConfig reader, writer, compute;
  reader.type = KernelType::reader, reader.processor = RiscProcessor::riscv_1, reader.noc = 0;
  writer.type = KernelType::writer, writer.processor = RiscProcessor::riscv_0, writer.noc = 1;
  compute.type = KernelType::compute;
  compute.math_fidelity = MathFidelity::hifi2;
  compute.fp32_dest_acc_en = true;
  compute.math_approx_mode = false;
  for (int cb : spec.unpack_to_dest_fp32_cbs) compute.unpack_to_dest_mode[uint32_t(cb)] = UnpackToDestMode::fp32;
  for (const KernelGroup& group : spec.kernel_groups()) {
    KernelDescriptor k;
    k.kernel_source = kernel_source;
    k.source_path = std::filesystem::absolute(folder / kernel_source).lexically_normal();
    k.core_ranges = ranges_of(tt::to_ranges(group.cores));
    k.named_compile_time_args = named;
    for (std::size_t i = 0; i < spec.role_flags.size(); ++i)
      k.named_compile_time_args.emplace_back(spec.role_flags[i].name, uint32_t(group.flags[i]));
    k.common_runtime_args = common;
    for (tt::Core core : group.cores) {
      std::vector<ArgValue> args;
      for (uint32_t value : spec.per_core_rt_args.at(core)) args.push_back({value, {}});
      k.runtime_args.push_back({coord_of(core), std::move(args)});
    }
    for (const KernelConfig& config : {reader, writer, compute}) {
      k.config = config;
      // The kernel's one reduce (a row max) names its op and dimension, but older trees' reduce.h
      // default its template args to REDUCE_OP / REDUCE_DIM, which must then be defined to compile.
      k.defines.clear();
      if (config.type == KernelType::compute) k.defines = {{"REDUCE_DIM", "ReduceDim::REDUCE_ROW"}, {"REDUCE_OP", "PoolType::MAX"}};
      d.kernels.push_back(k);
    }
  }
  for (const CBSpec* cb : cb_placement_order(spec)) {
    d.cbs.push_back({cb->total_bytes, ranges_of(sets.at(cb->role_set)),
                     {{uint32_t(cb->id), data_format_of(cb->format), cb->page_bytes}}, cb->tensor_backed, cb->name});
  }
  for (const SemSpec& sem : spec.semaphores) d.semaphores.push_back({uint32_t(sem.id), ranges_of(sets.at("all")), sem.initial_value});
  return d;
}

}  // namespace ditmk::tt::dialect
