#include "ditmk/tt/jit/jit_defines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>


namespace ditmk::tt::dialect {

namespace {

// The build environment's device defines (JitBuildEnv::init, from the device's bank counts): what
// InterleavedAddrGen and the bank tables are sized by. The emulated chip has 8 DRAM banks and one
// L1 bank per worker core.
void add_device_defines(std::vector<Define>& out) {
  auto add_bank_count = [&](const char* count_name, const char* kind, uint32_t banks) {
    out.emplace_back(count_name, std::to_string(banks));
    if (std::has_single_bit(banks)) {
      out.emplace_back(fmt::format("LOG_BASE_2_OF_NUM_{}_BANKS", kind), std::to_string(std::countr_zero(banks)));
    } else {
      out.emplace_back(fmt::format("IS_NOT_POW2_NUM_{}_BANKS", kind), "1");
    }
  };
  add_bank_count("NUM_DRAM_BANKS", "DRAM", emu::kNumDramBanks);
  add_bank_count("NUM_L1_BANKS", "L1", emu::kNumCores);
}

struct TriscRoleNames {
  const char* upper;
  const char* lower;
  uint32_t index;  // COMPILE_FOR_TRISC: TRISC0..2
};

TriscRoleNames role_names(TriscRole role) {
  switch (role) {
    case TriscRole::unpack: return {"UNPACK", "unpack", 0};
    case TriscRole::pack: return {"PACK", "pack", 2};
    case TriscRole::math:
    case TriscRole::all: break;
  }
  return {"MATH", "math", 1};
}

}  // namespace

LlkMathFidelity llk_math_fidelity(uint32_t index) {
  constexpr LlkMathFidelity kFidelity[] = {LlkMathFidelity::lofi, LlkMathFidelity::hifi2, LlkMathFidelity::hifi3,
                                           LlkMathFidelity::hifi4};
  return kFidelity[std::min<uint32_t>(index, 3)];
}

std::vector<Define> firmware_defines(const JitTarget& target) {
  std::vector<Define> out;
  // The HAL numbers a Tensix core's RISCs BRISC 0, NCRISC 1, TRISC0..2 2..4.
  switch (target.processor) {
    case emu::Processor::brisc: out.emplace_back("PROCESSOR_INDEX", "0"); break;
    case emu::Processor::ncrisc: out.emplace_back("PROCESSOR_INDEX", "1"); break;
    case emu::Processor::trisc:
      if (target.trisc_role != TriscRole::all) {
        out.emplace_back("PROCESSOR_INDEX", std::to_string(2 + role_names(target.trisc_role).index));
      }
      break;
  }
  out.emplace_back("PROGRAMMABLE_CORE_TYPE", "0");  // the HAL's Tensix
  out.emplace_back("DISPATCH_MESSAGE_ADDR", "0xFFB70438");
  out.emplace_back("PCIE_NOC_X", "19");  // a p150's PCIe core, in virtual coordinates
  out.emplace_back("PCIE_NOC_Y", "24");
  return out;
}

std::vector<Define> jit_defines(const JitTarget& target) {
  std::vector<Define> out;
  out.emplace_back("ARCH_BLACKHOLE", "");
  add_device_defines(out);
  out.emplace_back("TENSIX_FIRMWARE", "");
  out.emplace_back("LOCAL_MEM_EN", "0");
  switch (target.processor) {
    case emu::Processor::brisc: out.emplace_back("COMPILE_FOR_BRISC", ""); break;
    case emu::Processor::ncrisc: out.emplace_back("COMPILE_FOR_NCRISC", ""); break;
    case emu::Processor::trisc:
      if (target.trisc_role != TriscRole::all) {
        // One TRISC's build, as the JIT makes it; TRISC_<ROLE> comes from genfiles' prolog of
        // chlkc_<role>.cpp, not from the command line.
        const TriscRoleNames names = role_names(target.trisc_role);
        out.emplace_back(fmt::format("UCK_CHLKC_{}", names.upper), "");
        out.emplace_back("NAMESPACE", fmt::format("chlkc_{}", names.lower));
        out.emplace_back("COMPILE_FOR_TRISC", std::to_string(names.index));
        break;
      }
      // The JIT builds trisc0 (unpack), trisc1 (math) and trisc2 (pack) each with its own role; the
      // emulated TRISC is all three, so all three roles are on. COMPILE_FOR_TRISC carries one index:
      // the math thread's, which the emulated TRISC's time is counted on.
      out.emplace_back("UCK_CHLKC_UNPACK", "");
      out.emplace_back("UCK_CHLKC_MATH", "");
      out.emplace_back("UCK_CHLKC_PACK", "");
      out.emplace_back("NAMESPACE", "chlkc_math");
      out.emplace_back("COMPILE_FOR_TRISC", "1");
      // genfiles' prologs of chlkc_unpack.cpp, chlkc_math.cpp, chlkc_pack.cpp
      out.emplace_back("TRISC_UNPACK", "");
      out.emplace_back("TRISC_MATH", "");
      out.emplace_back("TRISC_PACK", "");
      break;
  }
  out.emplace_back("KERNEL_BUILD", "");
  // DataMovementKernel::process_defines gives its NoC and mode; ComputeKernel's gives the default
  // mode only (no NOC_INDEX: the device headers' noc_index is 0 there).
  if (target.processor != emu::Processor::trisc) out.emplace_back("NOC_INDEX", std::to_string(target.noc));
  out.emplace_back("NOC_MODE", std::to_string(uint32_t(target.noc_mode)));
  return out;
}

namespace {

constexpr uint32_t kFormatInvalid = 255, kFormatFloat32 = 0, kFormatFloat16b = 5;

bool integer_format(uint32_t format) { return format == 8 || format == 9 || format == 14 || format == 24 || format == 30; }

// The DST side of a CB: integers stay integers; floats are Float32 in a 32-bit DST (fp32_dest_acc_en),
// else Float16_b.
uint32_t register_format(uint32_t l1_format, bool fp32_dest) {
  if (l1_format == kFormatInvalid || integer_format(l1_format)) return l1_format;
  return fp32_dest ? kFormatFloat32 : kFormatFloat16b;
}

std::string cb_array(std::string_view type, std::string_view name, const std::vector<uint32_t>& values) {
  return fmt::format("{} {}[{}] = {{{}}};\n", type, name, values.size(), fmt::join(values, ","));
}

// The per-CB arrays: 32x32 tiles of four 16-row faces for every CB.
std::string cb_arrays_text(const JitTarget& target) {
  std::vector<uint32_t> l1(emu::kMaxCbId, kFormatInvalid), unpack_dst(emu::kMaxCbId, kFormatInvalid),
      pack_src(emu::kMaxCbId, kFormatInvalid), tile_size(emu::kMaxCbId, 0);
  for (const JitCbFormat& cb : target.cb_formats) {
    if (cb.id >= emu::kMaxCbId || l1[cb.id] != kFormatInvalid) continue;
    l1[cb.id] = cb.data_format;
    unpack_dst[cb.id] = register_format(cb.data_format, target.fp32_dest_acc_en);
    pack_src[cb.id] = register_format(cb.data_format, target.fp32_dest_acc_en);
    tile_size[cb.id] = cb.tile_bytes;
  }
  const auto all = [](uint32_t value) { return std::vector<uint32_t>(emu::kMaxCbId, value); };
  std::string text = "#define DATA_FORMATS_DEFINED\n";
  text += cb_array("constexpr std::int32_t", "unpack_src_format", l1);
  text += cb_array("constexpr std::int32_t", "unpack_dst_format", unpack_dst);
  text += cb_array("constexpr unsigned char", "pack_src_format", pack_src);
  text += cb_array("constexpr unsigned char", "pack_dst_format", l1);
  for (const std::string_view side : {"unpack", "pack"}) {
    text += cb_array("constexpr uint8_t", fmt::format("{}_tile_num_faces", side), all(4));
    text += cb_array("constexpr uint8_t", fmt::format("{}_partial_face", side), all(0));
    text += cb_array("constexpr uint8_t", fmt::format("{}_tile_face_r_dim", side), all(16));
    text += cb_array("constexpr uint8_t", fmt::format("{}_narrow_tile", side), all(0));
    text += cb_array("constexpr uint8_t", fmt::format("{}_tile_r_dim", side), all(32));
    text += cb_array("constexpr uint8_t", fmt::format("{}_tile_c_dim", side), all(32));
    text += cb_array("constexpr uint16_t", fmt::format("{}_tile_size", side), tile_size);
    text += cb_array("constexpr uint8_t", fmt::format("{}_num_faces_r_dim", side), all(2));
    text += cb_array("constexpr uint8_t", fmt::format("{}_num_faces_c_dim", side), all(2));
  }
  return text;
}

}  // namespace

std::string compute_descriptors_text(const JitTarget& target) {
  if (target.processor != emu::Processor::trisc) return "";
  // genfiles' scalar descriptors, each under the role that gets it; the emulated TRISC has all roles.
  std::string text = fmt::format(
      "// chlkc_descriptors.h as tt-metal's JIT generates it\n"
      "#include <cstdint>\n"
      "#include \"llk_defs.h\"\n"
      "constexpr bool DST_ACCUM_MODE = {};\n"
      "#define DST_SYNC_MODE DstSync::Sync{}\n"
      "constexpr ckernel::MathFidelity MATH_FIDELITY = static_cast<ckernel::MathFidelity>({});\n"
      "constexpr bool APPROX = {};\n",
      target.fp32_dest_acc_en, target.dst_full_sync_en ? "Full" : "Half", uint32_t(target.math_fidelity),
      target.math_approx_mode);
  return text + cb_arrays_text(target);
}

std::string data_movement_descriptors_text(const JitTarget& target) {
  if (target.processor == emu::Processor::trisc) return "";
  return "// the per-CB format arrays, as tt-metal's JIT generates them for a data-movement kernel\n"
         "#include <cstdint>\n" +
         cb_arrays_text(target);
}

std::string named_args_header_text(const std::vector<std::pair<std::string, uint32_t>>& named_args) {
  if (named_args.empty()) return "";
  std::vector<std::pair<std::string, uint32_t>> sorted = named_args;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::string> entries;
  for (const auto& [name, value] : sorted) entries.push_back(fmt::format("{{\"{}\",{}}}", name, value));
  return fmt::format("// the named compile-time args, as tt-metal's JIT generates them\n"
                     "#define KERNEL_COMPILE_TIME_ARG_MAP {}\n",
                     fmt::join(entries, ","));
}

std::string kernel_args_header_text(const RuntimeArgsSchema& schema,
                                    const std::vector<std::pair<std::string, uint32_t>>& named_args,
                                    uint32_t crta_binding_words, uint32_t compile_time_varargs) {
  std::string text = "// kernel_args_generated.h as tt-metal's JIT generates it for a Metal 2.0 kernel\n"
                     "#include \"experimental/kernel_args.h\"\n";
  std::vector<std::pair<std::string, uint32_t>> constants = named_args;
  std::sort(constants.begin(), constants.end());
  if (!schema.named_runtime_args.empty() || !schema.named_common_runtime_args.empty() || !constants.empty()) {
    text += "namespace args {\n";
    for (size_t i = 0; i < schema.named_runtime_args.size(); ++i)
      text += fmt::format("constexpr experimental::RtaArg<uint32_t> {}{{{}}};\n", schema.named_runtime_args[i], 4 * i);
    for (size_t i = 0; i < schema.named_common_runtime_args.size(); ++i)
      text += fmt::format("constexpr experimental::CrtaArg<uint32_t> {}{{{}}};\n", schema.named_common_runtime_args[i],
                          4 * i);
    for (const auto& [name, value] : constants)
      text += fmt::format("constexpr experimental::CtaVal<uint32_t> {}{{{}u}};\n", name, value);
    text += "}  // namespace args\n";
  }
  text += fmt::format(
      "FORCE_INLINE uint32_t get_vararg(uint32_t idx) {{ return get_arg_val<uint32_t>({} + idx); }}\n"
      "FORCE_INLINE uint32_t get_common_vararg(uint32_t idx) {{ return get_common_arg_val<uint32_t>({} + idx); }}\n",
      schema.named_runtime_args.size(), schema.named_common_runtime_args.size() + crta_binding_words);
  // The compile-time varargs lead the positional compile-time args; index 0 is the first of them.
  // With none, the by-index reader is left out: over an empty array it could never be a constant.
  text += fmt::format("#include \"api/compile_time_args.h\"\n"
                      "constexpr uint32_t get_num_compile_time_varargs() {{ return {}u; }}\n",
                      compile_time_varargs);
  if (compile_time_varargs != 0)
    text += "constexpr uint32_t get_compile_time_vararg(uint32_t idx) { return kernel_compile_time_args[idx]; }\n";
  text += fmt::format(
      "template <uint32_t Idx>\n"
      "constexpr uint32_t get_compile_time_vararg() {{\n"
      "  static_assert(Idx < {0}u, \"get_compile_time_vararg: the index is past the kernel's compile-time varargs\");\n"
      "  return kernel_compile_time_args[Idx];\n"
      "}}\n",
      compile_time_varargs);
  return text;
}

namespace {

// serialize_llk_metadata's form: designated fields, so a reordered struct cannot swap them.
std::string llk_metadata_text(const LlkFormat& format) {
  return fmt::format("::binding_details::LLKMetadata{{.format = {}u, .face_r_dim = 16u, .face_c_dim = 16u, "
                     ".num_faces_r_dim = 2u, .num_faces_c_dim = 2u}}",
                     format.data_format);
}

}  // namespace

std::string kernel_bindings_header_text(const KernelBindings& bindings, const std::vector<JitCbFormat>& cb_formats,
                                        bool compute) {
  if (bindings.dataflow_buffers.empty() && bindings.tensors.empty() && bindings.semaphores.empty() &&
      bindings.scratchpads.empty())
    return "";
  std::string text = "// kernel_bindings_generated.h as tt-metal's JIT generates it for a Metal 2.0 kernel\n";
  if (!bindings.dataflow_buffers.empty()) text += "#include \"api/dataflow/dataflow_buffer.h\"\n";
  if (!bindings.semaphores.empty()) text += "#include \"api/dataflow/semaphore_binding_token.h\"\n";
  if (!bindings.tensors.empty()) text += "#include \"api/tensor/tensor_binding_token.h\"\n";
  if (!bindings.tensor_sequences.empty()) text += "#include <tuple>\n";
  if (!bindings.scratchpads.empty()) text += "#include \"api/scratchpad.h\"\n";
  if (!bindings.dataflow_buffers.empty()) {
    std::vector<std::pair<std::string, uint32_t>> sorted = bindings.dataflow_buffers;
    std::sort(sorted.begin(), sorted.end());
    text += "namespace dfb {\n";
    for (const auto& [name, id] : sorted) {
      const uint32_t cb_id = id;  // a copy: clang 14 cannot capture a structured binding in a lambda
      const auto cb = std::find_if(cb_formats.begin(), cb_formats.end(), [&](const JitCbFormat& f) { return f.id == cb_id; });
      if (cb == cb_formats.end()) text += fmt::format("constexpr DFBBindingToken {}{{{}}};\n", name, id);
      else text += fmt::format("constexpr DFBBindingToken {}{{{}, {}}};\n", name, id, llk_metadata_text({cb->data_format}));
    }
    text += "}  // namespace dfb\n";
  }
  if (!bindings.semaphores.empty()) {
    // A data-movement kernel's semaphore on Blackhole is a word in L1 (LOCAL_NONATOMIC); a compute
    // kernel's is the engine's own (COMPUTE_ATOMIC), which the host resolves for compute binders.
    std::vector<std::pair<std::string, uint32_t>> sorted = bindings.semaphores;
    std::sort(sorted.begin(), sorted.end());
    text += "namespace sem {\n";
    for (const auto& [name, id] : sorted)
      text += fmt::format("constexpr SemaphoreBindingToken {}{{{}u, SemScope::{}}};\n", name, id,
                          compute ? "COMPUTE_ATOMIC" : "LOCAL_NONATOMIC");
    text += "}  // namespace sem\n";
  }
  if (!bindings.tensors.empty()) {
    text += "namespace tensor {\n";
    for (const TensorBindingSlot& t : bindings.tensors) {
      text += fmt::format("using {}_t = ::tensor_accessor::TensorBindingToken<{}u, {}u>;\n", t.name, t.cta_offset,
                          t.addr_crta_offset);
      text += fmt::format("constexpr {}_t {}{{{}}};\n", t.name, t.name, llk_metadata_text(t.format));
    }
    // A sequence: the tuple of its members' tokens, in its order (make_tensor_accessors takes it).
    for (const auto& [name, members] : bindings.tensor_sequences) {
      std::vector<std::string> types;
      for (const std::string& member : members) types.push_back(member + "_t");
      text += fmt::format("constexpr std::tuple<{}> {}{{{}}};\n", fmt::join(types, ", "), name, fmt::join(members, ", "));
    }
    text += "}  // namespace tensor\n";
  }
  if (!bindings.scratchpads.empty()) {
    text += "namespace scratch {\n";
    for (const ScratchpadSlot& s : bindings.scratchpads)
      text += fmt::format("constexpr ScratchpadBindingToken {}{{{}u, {}u}};\n", s.name, s.crta_word, s.size);
    text += "}  // namespace scratch\n";
  }
  return text;
}

const std::vector<WithheldDefine>& jit_defines_not_given() {
  static const std::vector<WithheldDefine> withheld = {
      {"PROCESSOR_INDEX", "the HAL's index of one RISC; the emulated TRISC stands for three"},
      {"DISPATCH_MESSAGE_ADDR", "a firmware address of the dispatch path, which the emulator does not have"},
      {"PCIE_NOC_X", "the PCIe core's NoC coordinate; the emulated chip has no PCIe core"},
      {"PCIE_NOC_Y", "the PCIe core's NoC coordinate; the emulated chip has no PCIe core"},
      {"PROGRAMMABLE_CORE_TYPE", "the HAL's core type, read by firmware; every emulated kernel runs on a Tensix core"},
      {"FW_BUILD", "given to firmware builds, not kernels"},
      {"COMPILE_FOR_ERISC", "Ethernet cores are not emulated"},
      {"COMPILE_FOR_IDLE_ERISC", "Ethernet cores are not emulated"},
      {"ERISC", "Ethernet cores are not emulated"},
      {"RISC_B0_HW", "Ethernet cores are not emulated"},
      {"UCK_CHLKC_ISOLATE_SFPU", "Quasar's fourth TRISC"},
      {"TRISC_ISOLATE_SFPU", "Quasar's fourth TRISC"},
      {"DEBUG_PRINT_ENABLED", "a runtime debug option, off by default; the emulator prints DPRINT always"},
      {"PROFILE_KERNEL", "a runtime debug option, off by default; DeviceZoneScopedN zones are timed always"},
      {"WATCHER_ENABLED", "a runtime debug option, off by default; the emulator's own checks stand in"},
      {"DEBUG_NULL_KERNELS", "a runtime debug option, off by default"},
  };
  return withheld;
}

const std::vector<std::string_view>& refused_jit_defines() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string> owned;
    for (const emu::Processor processor : {emu::Processor::brisc, emu::Processor::ncrisc, emu::Processor::trisc}) {
      for (const Define& define : jit_defines({.processor = processor})) owned.push_back(define.first);
    }
    for (const WithheldDefine& withheld : jit_defines_not_given()) owned.emplace_back(withheld.name);
    // the positional args' define, what the JIT writes into generated headers, and the bank-count
    // forms it gives a chip whose counts differ from the emulated one's
    for (const char* generated : {"KERNEL_COMPILE_TIME_ARGS", "KERNEL_COMPILE_TIME_ARG_MAP", "DST_ACCUM_MODE",
                                  "DST_SYNC_MODE", "MATH_FIDELITY", "APPROX", "IS_NOT_POW2_NUM_DRAM_BANKS",
                                  "LOG_BASE_2_OF_NUM_L1_BANKS"}) {
      owned.emplace_back(generated);
    }
    std::sort(owned.begin(), owned.end());
    owned.erase(std::unique(owned.begin(), owned.end()), owned.end());
    // string_views into storage that lives as long as the list
    static const std::vector<std::string> storage = owned;
    return std::vector<std::string_view>(storage.begin(), storage.end());
  }();
  return names;
}

std::string define_flag(const Define& define) {
  return define.second.empty() ? "-D" + define.first : fmt::format("-D{}={}", define.first, define.second);
}

}  // namespace ditmk::tt::dialect
