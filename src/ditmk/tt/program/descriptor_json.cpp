#include "ditmk/tt/program/descriptor_json.hpp"

#include <string>
#include <nlohmann/json.hpp>

namespace ditmk::tt::dialect {

namespace {

using Json = nlohmann::ordered_json;

Json core_json(emu::CoreCoord core) { return Json::array({core.x, core.y}); }

Json ranges_json(const CoreRangeSet& ranges) {
  Json out = Json::array();
  for (const CoreRange& r : ranges) out.push_back({{"start", core_json(r.start)}, {"end", core_json(r.end)}});
  return out;
}

Json arg_json(const ArgValue& arg) {
  if (arg.address_of.empty()) return arg.value;
  return {{"address_of", arg.address_of}};
}

Json args_json(const std::vector<ArgValue>& args) {
  Json out = Json::array();
  for (const ArgValue& arg : args) out.push_back(arg_json(arg));
  return out;
}

const char* fidelity_name(MathFidelity fidelity) {
  switch (fidelity) {
    case MathFidelity::lofi: return "LoFi";
    case MathFidelity::hifi2: return "HiFi2";
    case MathFidelity::hifi3: return "HiFi3";
    case MathFidelity::hifi4: return "HiFi4";
  }
  return "HiFi4";
}

Json config_json(const KernelConfig& c) {
  switch (c.type) {
    case KernelType::reader: return {{"type", "reader"}};
    case KernelType::writer: return {{"type", "writer"}};
    case KernelType::data_movement:
      return {{"type", "data_movement"},
              {"processor", c.processor == RiscProcessor::riscv_0 ? "riscv_0" : "riscv_1"},
              {"noc", c.noc}};
    case KernelType::compute: break;
  }
  Json out = {{"type", "compute"},
              {"math_fidelity", fidelity_name(c.math_fidelity)},
              {"fp32_dest_acc_en", c.fp32_dest_acc_en},
              {"math_approx_mode", c.math_approx_mode}};
  if (!c.unpack_to_dest_mode.empty()) {
    Json modes = Json::object();
    for (const auto& [cb, mode] : c.unpack_to_dest_mode)
      modes[std::to_string(cb)] = mode == UnpackToDestMode::fp32 ? "UnpackToDestFp32" : "Default";
    out["unpack_to_dest_mode"] = modes;
  }
  return out;
}

Json kernel_json(const KernelDescriptor& k) {
  Json out = {{"kernel_source", k.kernel_source}, {"core_ranges", ranges_json(k.core_ranges)},
              {"config", config_json(k.config)}};
  if (!k.compile_time_args.empty()) {
    Json args = Json::array();
    for (const CompileTimeArg& arg : k.compile_time_args) {
      if (arg.tensor_accessor_args.empty()) args.push_back(arg.value);
      else args.push_back({{"tensor_accessor_args", arg.tensor_accessor_args}});
    }
    out["compile_time_args"] = args;
  }
  if (!k.named_compile_time_args.empty()) {
    Json named = Json::object();
    for (const auto& [name, value] : k.named_compile_time_args) named[name] = value;
    out["named_compile_time_args"] = named;
  }
  if (!k.defines.empty()) {
    Json defines = Json::object();
    for (const auto& [name, value] : k.defines) defines[name] = value;
    out["defines"] = defines;
  }
  if (!k.runtime_args.empty()) {
    Json per_core = Json::array();
    for (const CoreArgs& core : k.runtime_args) per_core.push_back({{"core", core_json(core.core)}, {"args", args_json(core.args)}});
    out["runtime_args"] = per_core;
  }
  if (!k.common_runtime_args.empty()) out["common_runtime_args"] = args_json(k.common_runtime_args);
  if (k.runtime_arguments_schema) {
    out["runtime_arguments_schema"] = {{"named_runtime_args", k.runtime_arguments_schema->named_runtime_args},
                                       {"named_common_runtime_args",
                                        k.runtime_arguments_schema->named_common_runtime_args}};
  }
  if (!k.dataflow_buffer_bindings.empty()) {
    Json bindings = Json::object();
    for (const auto& [name, id] : k.dataflow_buffer_bindings) bindings[name] = id;
    out["dataflow_buffer_bindings"] = bindings;
  }
  if (!k.tensor_bindings.empty()) {
    Json bindings = Json::array();
    for (const auto& [name, tensor] : k.tensor_bindings) bindings.push_back({{"name", name}, {"tensor", tensor}});
    out["tensor_bindings"] = bindings;
  }
  if (!k.tensor_binding_sequences.empty()) {
    Json sequences = Json::object();
    for (const auto& [name, members] : k.tensor_binding_sequences) sequences[name] = members;
    out["tensor_binding_sequences"] = sequences;
  }
  if (!k.semaphore_bindings.empty()) {
    Json bindings = Json::object();
    for (const auto& [name, id] : k.semaphore_bindings) bindings[name] = id;
    out["semaphore_bindings"] = bindings;
  }
  if (!k.scratchpad_bindings.empty()) {
    Json bindings = Json::array();
    for (const auto& [name, size] : k.scratchpad_bindings) bindings.push_back({{"name", name}, {"size", size}});
    out["scratchpad_bindings"] = bindings;
  }
  return out;
}

std::string_view memory_name(TensorMemory memory) {
  switch (memory) {
    case TensorMemory::dram_interleaved: return "dram_interleaved";
    case TensorMemory::l1_interleaved: return "l1_interleaved";
    case TensorMemory::dram_sharded: return "dram_sharded";
    case TensorMemory::l1_sharded: break;
  }
  return "l1_sharded";
}

Json tensor_json(const TensorDescriptor& t) {
  Json out = {{"name", t.name},
              {"memory", memory_name(t.memory)},
              {"layout", t.layout == TensorLayout::tile ? "tile" : "row_major"},
              {"data_format", data_format_name(t.data_format)},
              {"shape", t.shape},
              {"page_size", t.page_size}};
  if (sharded(t.memory)) {
    out["cores"] = ranges_json(t.cores);
    out["shard_size"] = t.shard_size;
    if (!t.tensor_pages.empty()) {
      out["tensor_pages"] = t.tensor_pages;
      out["shard_pages"] = t.shard_pages;
    }
  }
  if (!t.input.empty()) out["input"] = t.input;
  if (!t.output.empty()) out["output"] = t.output;
  return out;
}

Json cb_json(const CBDescriptor& cb) {
  Json formats = Json::array();
  for (const CBFormatDescriptor& f : cb.format_descriptors)
    formats.push_back({{"buffer_index", f.buffer_index}, {"data_format", data_format_name(f.data_format)},
                       {"page_size", f.page_size}});
  Json out = {{"total_size", cb.total_size}, {"core_ranges", ranges_json(cb.core_ranges)}, {"format_descriptors", formats}};
  if (!cb.tensor.empty()) out["tensor"] = cb.tensor;
  if (!cb.name.empty()) out["name"] = cb.name;
  return out;
}

}  // namespace

nlohmann::ordered_json descriptor_json(const ProgramDescriptor& program) {
  Json out = Json::object();
  if (!program.name.empty()) out["name"] = program.name;
  Json tensors = Json::array(), kernels = Json::array(), cbs = Json::array(), semaphores = Json::array();
  for (const TensorDescriptor& t : program.tensors) tensors.push_back(tensor_json(t));
  for (const KernelDescriptor& k : program.kernels) kernels.push_back(kernel_json(k));
  for (const CBDescriptor& cb : program.cbs) cbs.push_back(cb_json(cb));
  for (const SemaphoreDescriptor& s : program.semaphores)
    semaphores.push_back({{"id", s.id}, {"core_ranges", ranges_json(s.core_ranges)}, {"initial_value", s.initial_value}});
  out["tensors"] = tensors;
  out["kernels"] = kernels;
  out["cbs"] = cbs;
  out["semaphores"] = semaphores;
  return out;
}

}  // namespace ditmk::tt::dialect
