#include "ditmk/tt/program/descriptor.hpp"

#include <algorithm>
#include <array>
#include <bitset>
#include <initializer_list>
#include <limits>
#include <set>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "ditmk/core/error.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/io/json_text.hpp"
#include "ditmk/tt/program/descriptor_checks.hpp"
#include "ditmk/tt/program/descriptor_fields.hpp"
#include "ditmk/tt/jit/jit_defines.hpp"
#include "ditmk/tt/jit/kernel_roots.hpp"
#include "ditmk/tt/emu/l1_buffers.hpp"
#include "ditmk/tt/plan/limits.hpp"

namespace ditmk::tt::dialect {

namespace {

using detail::Field;
using detail::Json;
using detail::in_quotes;
using detail::read_core;
using detail::read_range_set;

struct FormatInfo {
  DataFormat format;
  std::string_view metal_name, ttnn_name;
  uint32_t metal_value;  // tt::DataFormat's number (tensix_types.h)
  uint32_t tile_bytes;
  uint32_t element_bytes;  // 0: a block format, tiles only
};
constexpr std::array<FormatInfo, 7> kFormats{{
    {DataFormat::float32, "Float32", "float32", 0, 4096, 4},
    {DataFormat::float16_b, "Float16_b", "bfloat16", 5, 2048, 2},
    {DataFormat::bfp8_b, "Bfp8_b", "bfloat8_b", 6, 1088, 0},  // 1024 mantissa bytes + 64 shared exponents
    {DataFormat::uint32, "UInt32", "uint32", 24, 4096, 4},
    {DataFormat::uint16, "UInt16", "uint16", 9, 2048, 2},
    {DataFormat::int32, "Int32", "int32", 8, 4096, 4},
    {DataFormat::uint8, "UInt8", "uint8", 30, 1024, 1},
}};

const FormatInfo& info(DataFormat format) {
  return *std::find_if(kFormats.begin(), kFormats.end(), [&](const FormatInfo& f) { return f.format == format; });
}

// A p150 holds 32 GiB of DRAM (8 banks of 4 GiB): no io tensor can be larger. The bound also keeps
// every size computed from a shape far from overflowing.
constexpr uint64_t kMaxTensorBytes = uint64_t(32) << 30;
constexpr size_t kMaxRank = 8;

DataFormat read_format(const Field& f) {
  const auto format = parse_data_format(f.text());
  if (!format)
    f.refuse("unknown data format {} (tt-metal's Float32, Float16_b, Bfp8_b, UInt32, UInt16, Int32, UInt8 or "
             "ttnn's float32, bfloat16, bfloat8_b, uint32, uint16, int32, uint8)", in_quotes(f.text()));
  return *format;
}

// ---- tensors ----

std::vector<uint64_t> read_shape(const Field& f, TensorLayout layout) {
  const std::vector<Field> dims = f.items();
  if (dims.size() < 2 || dims.size() > kMaxRank)
    f.refuse("has {} dims: a tensor has 2 to {} (the last two the matrix)", dims.size(), kMaxRank);
  std::vector<uint64_t> shape;
  uint64_t elements = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    const uint32_t dim = dims[i].u32();
    if (dim == 0) dims[i].refuse("is 0: every dim holds at least one element");
    if (layout == TensorLayout::tile && i + 2 >= dims.size() && dim % 32 != 0)
      dims[i].refuse("{} is not a multiple of 32: a tile tensor's last two dims are whole 32x32 tiles", dim);
    if (elements > kMaxTensorBytes / dim) f.refuse("holds more than the 32 GiB of DRAM a p150 has");
    elements *= dim;
    shape.push_back(dim);
  }
  return shape;
}

std::string read_npy_path(const Field& f) {
  const std::string path = f.text();
  if (path.size() <= 4 || !path.ends_with(".npy") || path.find('\0') != std::string::npos)
    f.expected("the path of a .npy file");
  return path;
}

// The bytes a DRAM tensor spans in bank 0, the bank holding the most of its pages (a shard, sharded).
uint64_t dram_bank_bytes(const TensorDescriptor& t) {
  if (t.memory == TensorMemory::dram_sharded) return t.shard_size;
  const uint64_t pages = t.bytes() / t.page_size;
  const uint64_t stride = (uint64_t(t.page_size) + emu::kDramAlignment - 1) / emu::kDramAlignment * emu::kDramAlignment;
  return (pages + emu::kNumDramBanks - 1) / emu::kNumDramBanks * stride;
}

// A fixed address: aligned and inside its memory; overlaps are checked once every tensor is read.
void read_address(const Field& f, TensorDescriptor& t) {
  const uint32_t address = f.u32();
  if (in_dram(t.memory)) {
    if (address % emu::kDramAlignment != 0) f.refuse("{:#x} is not {} B aligned (DRAM)", address, emu::kDramAlignment);
    if (address < emu::kDramAlignment)
      f.refuse("{:#x} lies in the first {} B of DRAM, which stay unused (address 0 means no tensor)", address,
               emu::kDramAlignment);
    if (address + dram_bank_bytes(t) > (uint64_t(1) << 32))
      f.refuse("{:#x} + the {} B the tensor spans in a bank passes the 32-bit bank address space", address,
               dram_bank_bytes(t));
  } else {
    if (address % kL1PageAlignment != 0) f.refuse("{:#x} is not {} B aligned (L1)", address, kL1PageAlignment);
    const uint64_t bytes = t.memory == TensorMemory::l1_sharded ? t.shard_size : l1_bank_bytes(t.bytes(), t.page_size);
    if (address < kL1CbBase || address + bytes > kL1Bytes)
      f.refuse("[{:#x}, {:#x}) is outside usable L1 [{:#x}, {:#x})", address, address + bytes, kL1CbBase, kL1Bytes);
  }
  t.address = address;
}

std::vector<uint32_t> read_pages(const Field& f) {
  std::vector<uint32_t> extents;
  for (const Field& item : f.items()) {
    extents.push_back(item.u32());
    if (extents.back() == 0) item.refuse("an extent in pages is positive");
  }
  if (extents.empty()) f.refuse("an extent in pages has at least one dimension");
  return extents;
}

// The optional page grid of a sharded tensor: the tensor's pages whole, shards of whole pages,
// shard_size one shard's pages, a core for every shard.
void read_page_grid(const Field& f, TensorDescriptor& t) {
  const auto tensor = f.find("tensor_pages"), shard = f.find("shard_pages");
  if (!tensor && !shard) return;
  if (!tensor || !shard) f.refuse("tensor_pages and shard_pages come together");
  t.tensor_pages = read_pages(*tensor);
  t.shard_pages = read_pages(*shard);
  if (t.tensor_pages.size() != t.shard_pages.size())
    shard->refuse("has rank {}, tensor_pages rank {}", t.shard_pages.size(), t.tensor_pages.size());
  uint64_t pages = 1, shard_pages = 1, shards = 1;
  for (size_t d = 0; d < t.tensor_pages.size(); ++d) {
    pages *= t.tensor_pages[d];
    shard_pages *= t.shard_pages[d];
    shards *= (t.tensor_pages[d] + t.shard_pages[d] - 1) / t.shard_pages[d];
  }
  for (size_t d = 0; d < t.tensor_pages.size(); ++d)
    if (t.tensor_pages[d] % t.shard_pages[d] != 0)
      shard->refuse("does not cut the tensor's {} pages in dimension {} into whole shards", t.tensor_pages[d], d);
  if (pages * t.page_size != t.bytes())
    tensor->refuse("{} pages of {} B are not the tensor's {} B", pages, t.page_size, t.bytes());
  if (shard_pages * t.page_size != t.shard_size)
    shard->refuse("{} pages of {} B are not the shard_size {}", shard_pages, t.page_size, t.shard_size);
  if (shards > cores_of(t.cores).size())
    shard->refuse("cut the tensor into {} shards, more than its {} cores", shards, cores_of(t.cores).size());
}

// DRAM shards go to banks 0, 1, ... in order, each a shard at the tensor's address, its pages at the
// DRAM page stride: the cores are the first banks as (bank, 0) and the pages whole 64 B units.
void check_dram_shards(const Field& f, const TensorDescriptor& t) {
  const std::vector<emu::CoreCoord> banks = cores_of(t.cores);
  for (std::size_t i = 0; i < banks.size(); ++i) {
    if (banks[i].x != i || banks[i].y != 0 || i >= emu::kNumDramBanks)
      f.at("cores").refuse("a dram_sharded tensor's cores are DRAM banks 0..n-1 as (bank, 0), n <= {}; "
                           "({}, {}) is not bank {}", emu::kNumDramBanks, banks[i].x, banks[i].y, i);
  }
  if (t.page_size % emu::kDramAlignment != 0)
    (f.find("page_size") ? *f.find("page_size") : f)
        .refuse("a dram_sharded tensor's page_size {} is not a multiple of {} B: a DRAM shard's pages lie back to "
                "back at the DRAM alignment", t.page_size, emu::kDramAlignment);
}

void read_shards(const Field& f, TensorDescriptor& t) {
  if (!sharded(t.memory)) {
    for (const char* key : {"cores", "shard_size", "tensor_pages", "shard_pages"})
      if (const auto field = f.find(key)) field->refuse("only an l1_sharded or dram_sharded tensor has {}", key);
    return;
  }
  t.cores = read_range_set(f.at("cores"));
  if (t.memory == TensorMemory::dram_sharded) check_dram_shards(f, t);
  const Field size = f.at("shard_size");
  t.shard_size = size.u32();
  if (t.shard_size == 0 || t.shard_size % t.page_size != 0)
    size.refuse("{} is not a positive multiple of the page_size {}: a shard holds whole pages", t.shard_size,
                t.page_size);
  const uint64_t cores = cores_of(t.cores).size();
  if (cores * t.shard_size < t.bytes())
    size.refuse("{} cores x {} B hold {} B, less than the tensor's {} B", cores, t.shard_size, cores * t.shard_size,
                t.bytes());
  read_page_grid(f, t);
}

TensorDescriptor read_tensor(const Field& f) {
  f.object({"name", "memory", "layout", "data_format", "shape", "page_size", "cores", "shard_size", "tensor_pages",
            "shard_pages", "input", "output", "address"});
  TensorDescriptor t;
  t.name = f.at("name").name();
  t.memory = f.at("memory").choice<TensorMemory>({{"dram_interleaved", TensorMemory::dram_interleaved},
                                                  {"l1_interleaved", TensorMemory::l1_interleaved},
                                                  {"l1_sharded", TensorMemory::l1_sharded},
                                                  {"dram_sharded", TensorMemory::dram_sharded}});
  t.layout = f.at("layout").choice<TensorLayout>({{"tile", TensorLayout::tile}, {"row_major", TensorLayout::row_major}});
  t.data_format = read_format(f.at("data_format"));
  if (t.layout == TensorLayout::row_major && info(t.data_format).element_bytes == 0)
    f.at("data_format").refuse("{} is a block format of tiles: a row_major tensor cannot hold it",
                               data_format_name(t.data_format));
  t.shape = read_shape(f.at("shape"), t.layout);
  const uint64_t bytes = t.bytes();
  if (bytes > kMaxTensorBytes) f.at("shape").refuse("takes {} B, more than the 32 GiB of DRAM a p150 has", bytes);
  const uint64_t default_page = t.layout == TensorLayout::tile
                                    ? tile_size(t.data_format)
                                    : t.shape.back() * info(t.data_format).element_bytes;
  if (const auto page = f.find("page_size")) {
    t.page_size = page->u32();
    if (t.page_size == 0 || bytes % t.page_size != 0)
      page->refuse("{} does not divide the tensor's {} B into whole pages", t.page_size, bytes);
  } else {
    if (default_page > std::numeric_limits<uint32_t>::max())
      f.refuse("a row of {} B is too long for one page: give a page_size", default_page);
    t.page_size = uint32_t(default_page);
  }
  read_shards(f, t);
  if (t.memory == TensorMemory::l1_interleaved && l1_bank_bytes(bytes, t.page_size) > kL1UsableBytes)
    f.at("shape").refuse("takes {} B in each of the {} L1 banks, more than the {} B of usable L1 (1427 KiB)",
                         l1_bank_bytes(bytes, t.page_size), emu::kNumL1Banks, kL1UsableBytes);
  if (const auto input = f.find("input")) t.input = read_npy_path(*input);
  if (const auto output = f.find("output")) t.output = read_npy_path(*output);
  if (const auto address = f.find("address")) read_address(*address, t);
  return t;
}

std::vector<TensorDescriptor> read_tensors(const Field& f) {
  std::vector<TensorDescriptor> tensors;
  const std::vector<Field> items = f.items();
  for (size_t i = 0; i < items.size(); ++i) {
    tensors.push_back(read_tensor(items[i]));
    for (size_t j = 0; j < i; ++j) {
      if (tensors[j].name == tensors[i].name)
        items[i].at("name").refuse("{} is also the name of tensors[{}]", in_quotes(tensors[i].name), j);
      if (!tensors[i].output.empty() && tensors[j].output == tensors[i].output)
        items[i].at("output").refuse("{} is also the output of tensors[{}]", in_quotes(tensors[i].output), j);
      const TensorDescriptor& a = tensors[j];
      const TensorDescriptor& b = tensors[i];
      if (a.address && b.address && in_dram(a.memory) && in_dram(b.memory) && *a.address < *b.address + dram_bank_bytes(b) &&
          *b.address < *a.address + dram_bank_bytes(a))
        items[i].at("address").refuse("[{:#x}, {:#x}) overlaps tensors[{}] ({}) at [{:#x}, {:#x}) in the DRAM banks",
                                      *b.address, *b.address + dram_bank_bytes(b), j, in_quotes(a.name), *a.address,
                                      *a.address + dram_bank_bytes(a));
    }
  }
  return tensors;
}

// ---- kernels ----

std::string read_tensor_name(const Field& f, const ProgramDescriptor& program) {
  std::string name = f.text();
  if (program.tensor(name) == nullptr) f.refuse("no tensor named {}", in_quotes(name));
  return name;
}

ArgValue read_arg(const Field& f, const ProgramDescriptor& program) {
  if (!f.json().is_object()) return {f.u32(), {}};
  f.object({"address_of"});
  return {0, read_tensor_name(f.at("address_of"), program)};
}

std::vector<ArgValue> read_args(const Field& f, const ProgramDescriptor& program) {
  std::vector<ArgValue> args;
  for (const Field& item : f.items()) args.push_back(read_arg(item, program));
  return args;
}

std::vector<CompileTimeArg> read_compile_time_args(const Field& f, const ProgramDescriptor& program) {
  std::vector<CompileTimeArg> args;
  for (const Field& item : f.items()) {
    if (!item.json().is_object()) {
      args.push_back({item.u32(), {}});
      continue;
    }
    item.object({"tensor_accessor_args"});
    args.push_back({0, read_tensor_name(item.at("tensor_accessor_args"), program)});
  }
  return args;
}

void read_data_movement(const Field& f, KernelConfig& c) {
  // tt-metal's DataMovementConfig defaults: RISCV_0 on NOC 0.
  f.object({"type", "processor", "noc"});
  c.processor = f.choice_or<RiscProcessor>("processor", RiscProcessor::riscv_0,
                                           {{"riscv_0", RiscProcessor::riscv_0}, {"riscv_1", RiscProcessor::riscv_1}});
  c.noc = f.find("noc") ? f.at("noc").u32_below(2) : 0;
}

void read_compute(const Field& f, KernelConfig& c) {
  f.object({"type", "math_fidelity", "fp32_dest_acc_en", "math_approx_mode", "unpack_to_dest_mode"});
  c.math_fidelity = f.choice_or<MathFidelity>("math_fidelity", MathFidelity::hifi4,
                                              {{"LoFi", MathFidelity::lofi}, {"HiFi2", MathFidelity::hifi2},
                                               {"HiFi3", MathFidelity::hifi3}, {"HiFi4", MathFidelity::hifi4}});
  c.fp32_dest_acc_en = f.boolean_or("fp32_dest_acc_en", false);
  c.math_approx_mode = f.boolean_or("math_approx_mode", false);
  if (const auto modes = f.find("unpack_to_dest_mode"))
    for (const auto& [key, mode] : modes->members())
      c.unpack_to_dest_mode[mode.cb_id_key(key)] = mode.choice<UnpackToDestMode>(
          {{"Default", UnpackToDestMode::standard}, {"UnpackToDestFp32", UnpackToDestMode::fp32}});
}

KernelConfig read_config(const Field& f) {
  if (!f.json().is_object()) f.expected("an object with a \"type\"");
  KernelConfig c;
  c.type = f.at("type").choice<KernelType>({{"reader", KernelType::reader},
                                              {"writer", KernelType::writer},
                                              {"data_movement", KernelType::data_movement},
                                              {"compute", KernelType::compute}});
  switch (c.type) {
    case KernelType::reader:  // RISCV_1 on NoC 0, as tt-metal's ReaderDataMovementConfig on Blackhole
      f.object({"type"});
      c.processor = RiscProcessor::riscv_1;
      c.noc = 0;
      break;
    case KernelType::writer:  // RISCV_0 on NoC 1, as WriterDataMovementConfig
      f.object({"type"});
      c.processor = RiscProcessor::riscv_0;
      c.noc = 1;
      break;
    case KernelType::data_movement: read_data_movement(f, c); break;
    case KernelType::compute: read_compute(f, c); break;
  }
  return c;
}

std::string read_define_value(const Field& f) {
  std::string value = f.text();
  if (std::any_of(value.begin(), value.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    f.refuse("contains a control character: a define is one line of C++");
  return value;
}

std::vector<std::pair<std::string, std::string>> read_defines(const Field& f, const std::string& kernel_source) {
  std::vector<std::pair<std::string, std::string>> defines;
  const std::vector<std::string_view>& refused = refused_jit_defines();
  for (const auto& [name, value] : f.members()) {
    value.macro_key(name);
    if (std::find(refused.begin(), refused.end(), name) != refused.end())
      value.refuse("kernel {}: tt-metal's JIT defines {} itself (docs/tt-dialect.md, \"The JIT's environment\"); "
                   "a descriptor may not set it", in_quotes(kernel_source), name);
    defines.emplace_back(name, read_define_value(value));
  }
  return defines;
}

std::filesystem::path read_source(const Field& f, const ProgramDescriptor& program) {
  const std::string text = f.text();
  if (text.empty() || text.find('\0') != std::string::npos) f.expected("the path of a kernel source file");
  const std::vector<std::filesystem::path> tried =
      kernel_source_candidates(text, program.file.parent_path(), program.kernel_root);
  if (const std::optional<std::filesystem::path> found = find_kernel_source(tried)) return *found;
  std::vector<std::string> shown;
  for (const std::filesystem::path& place : tried) shown.push_back(in_quotes(place.string()));
  f.refuse("{} is not a file (looked for {}{})", in_quotes(text), fmt::join(shown, ", "),
           program.kernel_root ? "" : "; no kernel root: --kernel-root DIR or $TT_METAL_HOME");
}

std::vector<CoreArgs> read_runtime_args(const Field& f, const KernelDescriptor& kernel,
                                        const ProgramDescriptor& program) {
  std::bitset<emu::kNumCores> mine;
  for (const emu::CoreCoord core : cores_of(kernel.core_ranges)) mine.set(emu::core_index(core));
  std::array<int, emu::kNumCores> first;
  first.fill(-1);
  std::vector<CoreArgs> cores;
  const std::vector<Field> items = f.items();
  for (size_t i = 0; i < items.size(); ++i) {
    items[i].object({"core", "args"});
    const Field where = items[i].at("core");
    const emu::CoreCoord core = read_core(where);
    const uint32_t index = emu::core_index(core);
    if (!mine[index]) where.refuse("core {} is not one of the kernel's core_ranges", emu::core_name(core));
    if (first[index] >= 0) where.refuse("core {} already has its args in runtime_args[{}]", emu::core_name(core), first[index]);
    first[index] = int(i);
    cores.push_back({core, read_args(items[i].at("args"), program)});
    const size_t words = cores.back().args.size() + kernel.common_runtime_args.size();
    if (words > kMaxRtArgsPerCore)
      items[i].at("args").refuse("{} words and {} common_runtime_args words on core {} are {}, over the {} a kernel "
                                 "takes per core", cores.back().args.size(), kernel.common_runtime_args.size(),
                                 emu::core_name(core), words, kMaxRtArgsPerCore);
  }
  return cores;
}

// A Metal 2.0 kernel's argument names: identifiers, each once among them and the named compile-time
// args (all become args::<name>), and no more than the words every core (and the common args) give.
RuntimeArgsSchema read_runtime_arguments_schema(const Field& f, const KernelDescriptor& k) {
  f.object({"named_runtime_args", "named_common_runtime_args"});
  RuntimeArgsSchema schema;
  std::set<std::string> seen;
  for (const auto& [name, value] : k.named_compile_time_args) seen.insert(name);
  auto names = [&](std::string_view key, std::vector<std::string>& out) {
    const auto list = f.find(key);
    if (!list) return;
    for (const Field& item : list->items()) {
      const std::string name = item.name();
      item.identifier_key(name);
      if (!seen.insert(name).second)
        item.refuse("{} is named twice among the kernel's named args (runtime, common and compile-time all become "
                    "args::{})", in_quotes(name), name);
      out.push_back(name);
    }
  };
  names("named_runtime_args", schema.named_runtime_args);
  names("named_common_runtime_args", schema.named_common_runtime_args);
  return schema;
}

void check_named_arg_words(const Field& f, const KernelDescriptor& k) {
  const RuntimeArgsSchema& schema = *k.runtime_arguments_schema;
  const std::vector<Field> cores = f.find("runtime_args") ? f.at("runtime_args").items() : std::vector<Field>{};
  for (size_t i = 0; i < k.runtime_args.size(); ++i)
    if (k.runtime_args[i].args.size() < schema.named_runtime_args.size())
      cores[i].at("args").refuse("{} words, fewer than the {} named_runtime_args of runtime_arguments_schema",
                                 k.runtime_args[i].args.size(), schema.named_runtime_args.size());
  if (k.common_runtime_args.size() < schema.named_common_runtime_args.size()) {
    const Field at = f.find("common_runtime_args") ? f.at("common_runtime_args") : f.at("runtime_arguments_schema");
    at.refuse("{} common words, fewer than the {} named_common_runtime_args of runtime_arguments_schema",
              k.common_runtime_args.size(), schema.named_common_runtime_args.size());
  }
}

// A Metal 2.0 kernel's tensor bindings: [{"name": accessor name, "tensor": io tensor}], names
// identifiers and each once; each adds a base-address word to the kernel's common runtime args.
std::vector<std::pair<std::string, std::string>> read_tensor_bindings(const Field& f, const KernelDescriptor& k,
                                                                      const ProgramDescriptor& program) {
  if (!k.runtime_arguments_schema)
    f.refuse("tensor:: names are Metal 2.0's; the kernel needs a runtime_arguments_schema too");
  std::vector<std::pair<std::string, std::string>> bindings;
  for (const Field& item : f.items()) {
    item.object({"name", "tensor"});
    const Field name_field = item.at("name");
    const std::string name = name_field.name();
    name_field.identifier_key(name);
    for (const auto& [seen, tensor] : bindings)
      if (seen == name) name_field.refuse("{} is bound twice (each becomes tensor::{})", in_quotes(name), name);
    bindings.emplace_back(name, read_tensor_name(item.at("tensor"), program));
  }
  const size_t words = k.common_runtime_args.size() + bindings.size();
  if (words > kMaxRtArgsPerCore)
    f.refuse("{} common_runtime_args words and {} tensor address words are {}, over the {} a kernel takes",
             k.common_runtime_args.size(), bindings.size(), words, kMaxRtArgsPerCore);
  return bindings;
}

// {"inputs": ["in0", "in1"]}: each sequence an identifier that is not a binding's name (nor its
// `<name>_t` alias), its members the kernel's tensor bindings, each at most once.
std::vector<std::pair<std::string, std::vector<std::string>>> read_tensor_binding_sequences(const Field& f,
                                                                                          const KernelDescriptor& k) {
  std::vector<std::pair<std::string, std::vector<std::string>>> sequences;
  for (const auto& [name, members] : f.members()) {
    members.identifier_key(name);
    for (const auto& [binding, tensor] : k.tensor_bindings)
      if (name == binding || name == binding + "_t")
        members.refuse("{} is also the name of tensor::{} (a binding or its type)", in_quotes(name), name);
    std::vector<std::string> names;
    for (const Field& member : members.items()) {
      const std::string binding = member.name();
      const bool bound = std::any_of(k.tensor_bindings.begin(), k.tensor_bindings.end(),
                                     [&](const auto& b) { return b.first == binding; });
      if (!bound) member.refuse("{} is not one of the kernel's tensor_bindings", in_quotes(binding));
      if (std::find(names.begin(), names.end(), binding) != names.end())
        member.refuse("{} is in the sequence twice", in_quotes(binding));
      names.push_back(binding);
    }
    sequences.emplace_back(name, names);
  }
  return sequences;
}

// A Metal 2.0 kernel's scratchpads: [{"name": accessor name, "size": bytes}], names identifiers and
// each once, sizes not zero; each adds a base-address word to the kernel's common runtime args.
std::vector<std::pair<std::string, uint32_t>> read_scratchpad_bindings(const Field& f, const KernelDescriptor& k) {
  if (!k.runtime_arguments_schema)
    f.refuse("scratch:: names are Metal 2.0's; the kernel needs a runtime_arguments_schema too");
  std::vector<std::pair<std::string, uint32_t>> bindings;
  for (const Field& item : f.items()) {
    item.object({"name", "size"});
    const Field name_field = item.at("name");
    const std::string name = name_field.name();
    name_field.identifier_key(name);
    for (const auto& [seen, size] : bindings)
      if (seen == name) name_field.refuse("{} is bound twice (each becomes scratch::{})", in_quotes(name), name);
    const uint32_t size = item.at("size").u32();
    if (size == 0) item.at("size").refuse("a scratchpad reserves a non-zero number of bytes per core");
    bindings.emplace_back(name, size);
  }
  const size_t words = k.common_runtime_args.size() + k.tensor_bindings.size() + bindings.size();
  if (words > kMaxRtArgsPerCore)
    f.refuse("{} common_runtime_args words, {} tensor address words and {} scratchpad address words are {}, over the "
             "{} a kernel takes",
             k.common_runtime_args.size(), k.tensor_bindings.size(), bindings.size(), words, kMaxRtArgsPerCore);
  return bindings;
}

KernelDescriptor read_kernel(const Field& f, const ProgramDescriptor& program) {
  f.object({"kernel_source", "core_ranges", "config", "compile_time_args", "named_compile_time_args", "defines",
            "runtime_args", "common_runtime_args", "runtime_arguments_schema", "dataflow_buffer_bindings",
            "tensor_bindings", "tensor_binding_sequences", "semaphore_bindings", "scratchpad_bindings"});
  KernelDescriptor k;
  k.kernel_source = f.at("kernel_source").text();
  k.source_path = read_source(f.at("kernel_source"), program);
  k.core_ranges = read_range_set(f.at("core_ranges"));
  k.config = read_config(f.at("config"));
  if (const auto args = f.find("compile_time_args")) k.compile_time_args = read_compile_time_args(*args, program);
  if (const auto named = f.find("named_compile_time_args"))
    for (const auto& [name, value] : named->members()) {
      value.identifier_key(name);
      k.named_compile_time_args.emplace_back(name, value.u32());
    }
  if (const auto defines = f.find("defines")) k.defines = read_defines(*defines, k.kernel_source);
  if (const auto common = f.find("common_runtime_args")) {
    k.common_runtime_args = read_args(*common, program);
    if (k.common_runtime_args.size() > kMaxRtArgsPerCore)
      common->refuse("{} words are over the {} a kernel takes per core", k.common_runtime_args.size(),
                     kMaxRtArgsPerCore);
  }
  if (const auto per_core = f.find("runtime_args")) k.runtime_args = read_runtime_args(*per_core, k, program);
  if (const auto schema = f.find("runtime_arguments_schema")) {
    k.runtime_arguments_schema = read_runtime_arguments_schema(*schema, k);
    check_named_arg_words(f, k);
  }
  if (const auto bindings = f.find("dataflow_buffer_bindings")) {
    if (!k.runtime_arguments_schema)
      bindings->refuse("dfb:: names are Metal 2.0's; the kernel needs a runtime_arguments_schema too");
    for (const auto& [name, id] : bindings->members()) {
      id.identifier_key(name);
      k.dataflow_buffer_bindings.emplace_back(name, id.u32_below(emu::kMaxCbId));
    }
  }
  if (const auto tensors = f.find("tensor_bindings")) k.tensor_bindings = read_tensor_bindings(*tensors, k, program);
  if (const auto sequences = f.find("tensor_binding_sequences"))
    k.tensor_binding_sequences = read_tensor_binding_sequences(*sequences, k);
  if (const auto scratchpads = f.find("scratchpad_bindings"))
    k.scratchpad_bindings = read_scratchpad_bindings(*scratchpads, k);
  if (const auto semaphores = f.find("semaphore_bindings")) {
    if (!k.runtime_arguments_schema)
      semaphores->refuse("sem:: names are Metal 2.0's; the kernel needs a runtime_arguments_schema too");
    for (const auto& [name, id] : semaphores->members()) {
      id.identifier_key(name);
      k.semaphore_bindings.emplace_back(name, id.u32_below(emu::kSemaphoresPerCore));
    }
  }
  return k;
}

// Each binding a kernel names (field `key`: name -> id) is one of the program's `plural` on every core
// the kernel runs on; `has(id, core)` says whether the program has that id there.
template <typename Has>
void check_bindings_on_kernel_cores(const Field& f, const char* key,
                                    const std::vector<std::pair<std::string, uint32_t>>& named, const KernelDescriptor& k,
                                    const char* what, const char* plural, Has has) {
  if (named.empty()) return;
  const Field bindings = f.at(key);
  for (const auto& [name, id] : named) {
    for (const emu::CoreCoord core : cores_of(k.core_ranges)) {
      if (!has(id, core)) {
        bindings.at(name).refuse("{} {} is not one of the program's {} on core {}", what, id, plural, emu::core_name(core));
      }
    }
  }
}

bool on_core(const CoreRangeSet& ranges, emu::CoreCoord core) {
  const std::vector<emu::CoreCoord> cores = cores_of(ranges);
  return std::find(cores.begin(), cores.end(), core) != cores.end();
}

// Each dataflow buffer a kernel names is a CB of the program, and each semaphore one of its semaphores,
// on every core the kernel runs on.
void check_kernel_bindings(const Field& f, const KernelDescriptor& k, const ProgramDescriptor& program) {
  check_bindings_on_kernel_cores(f, "dataflow_buffer_bindings", k.dataflow_buffer_bindings, k, "CB", "cbs",
                                 [&](uint32_t id, emu::CoreCoord core) {
    return std::any_of(program.cbs.begin(), program.cbs.end(), [&](const CBDescriptor& cb) {
      return on_core(cb.core_ranges, core) &&
             std::any_of(cb.format_descriptors.begin(), cb.format_descriptors.end(),
                         [&](const CBFormatDescriptor& format) { return format.buffer_index == id; });
    });
  });
  check_bindings_on_kernel_cores(f, "semaphore_bindings", k.semaphore_bindings, k, "semaphore", "semaphores",
                                 [&](uint32_t id, emu::CoreCoord core) {
    return std::any_of(program.semaphores.begin(), program.semaphores.end(),
                       [&](const SemaphoreDescriptor& s) { return s.id == id && on_core(s.core_ranges, core); });
  });
}

// ---- CBs and semaphores ----

CBFormatDescriptor read_cb_format(const Field& f, uint32_t total_size) {
  f.object({"buffer_index", "data_format", "page_size"});
  CBFormatDescriptor format;
  format.buffer_index = f.at("buffer_index").u32_below(emu::kMaxCbId);
  format.data_format = read_format(f.at("data_format"));
  const Field page = f.at("page_size");
  format.page_size = page.u32();
  if (format.page_size == 0 || total_size % format.page_size != 0)
    page.refuse("{} does not divide the CB's total_size {} into whole pages", format.page_size, total_size);
  return format;
}

void check_backing(const Field& f, const CBDescriptor& cb, const TensorDescriptor& tensor) {
  if (tensor.memory != TensorMemory::l1_sharded)
    f.refuse("tensor {} is {}: only an l1_sharded tensor backs a CB", in_quotes(tensor.name),
             in_dram(tensor.memory) ? "in DRAM" : "L1-interleaved");
  if (cb.total_size != tensor.shard_size)
    f.refuse("the CB's total_size {} is not the shard_size {} of tensor {}", cb.total_size, tensor.shard_size,
             in_quotes(tensor.name));
  if (cores_of(cb.core_ranges) != cores_of(tensor.cores))
    f.refuse("the CB's cores are not the cores of tensor {}: a backed CB lies on exactly its shards",
             in_quotes(tensor.name));
}

CBDescriptor read_cb(const Field& f, const ProgramDescriptor& program) {
  f.object({"total_size", "core_ranges", "format_descriptors", "tensor", "name"});
  CBDescriptor cb;
  cb.total_size = f.at("total_size").u32();
  if (cb.total_size == 0) f.at("total_size").refuse("is 0: a CB holds at least one page");
  cb.core_ranges = read_range_set(f.at("core_ranges"));
  const std::vector<Field> formats = f.at("format_descriptors").items();
  if (formats.empty()) f.at("format_descriptors").refuse("is empty: a CB has at least one buffer_index");
  for (size_t i = 0; i < formats.size(); ++i) {
    cb.format_descriptors.push_back(read_cb_format(formats[i], cb.total_size));
    for (size_t j = 0; j < i; ++j)
      if (cb.format_descriptors[j].buffer_index == cb.format_descriptors[i].buffer_index)
        formats[i].at("buffer_index").refuse("CB {} is also format_descriptors[{}]", cb.format_descriptors[i].buffer_index, j);
  }
  if (const auto tensor = f.find("tensor")) {
    cb.tensor = read_tensor_name(*tensor, program);
    check_backing(*tensor, cb, *program.tensor(cb.tensor));
  }
  if (const auto name = f.find("name")) cb.name = name->name();
  return cb;
}

SemaphoreDescriptor read_semaphore(const Field& f) {
  f.object({"id", "core_ranges", "initial_value"});
  SemaphoreDescriptor s;
  s.id = f.at("id").u32_below(emu::kSemaphoresPerCore);
  s.core_ranges = read_range_set(f.at("core_ranges"));
  if (const auto initial = f.find("initial_value")) s.initial_value = initial->u32();
  return s;
}

ProgramDescriptor read_program(const Field& root, const KernelRootOption& kernel_root_option) {
  root.object({"$schema", "name", "tensors", "kernels", "cbs", "semaphores"});
  ProgramDescriptor p;
  p.file = root.file();
  p.kernel_root = kernel_root(kernel_root_option);
  if (const auto schema = root.find("$schema")) schema->text();
  p.name = root.find("name") ? root.at("name").name() : p.file.stem().string();
  if (const auto tensors = root.find("tensors")) p.tensors = read_tensors(*tensors);
  const std::vector<Field> kernels = root.at("kernels").items();
  if (kernels.empty()) root.at("kernels").refuse("is empty: a program runs at least one kernel");
  for (const Field& kernel : kernels) p.kernels.push_back(read_kernel(kernel, p));
  if (const auto cbs = root.find("cbs"))
    for (const Field& cb : cbs->items()) p.cbs.push_back(read_cb(cb, p));
  if (const auto semaphores = root.find("semaphores"))
    for (const Field& semaphore : semaphores->items()) p.semaphores.push_back(read_semaphore(semaphore));
  for (size_t i = 0; i < kernels.size(); ++i) {
    check_kernel_bindings(kernels[i], p.kernels[i], p);
  }
  return p;
}

}  // namespace

std::vector<emu::CoreCoord> cores_of(const CoreRangeSet& ranges) {
  std::bitset<emu::kNumCores> in;
  for (const CoreRange& r : ranges)
    for (uint32_t y = r.start.y; y <= std::min(r.end.y, emu::kGridY - 1); ++y)
      for (uint32_t x = r.start.x; x <= std::min(r.end.x, emu::kGridX - 1); ++x) in.set(emu::core_index({x, y}));
  std::vector<emu::CoreCoord> cores;
  for (uint32_t i = 0; i < emu::kNumCores; ++i)
    if (in[i]) cores.push_back(emu::core_at(i));
  return cores;
}

std::string_view data_format_name(DataFormat format) { return info(format).metal_name; }

uint32_t data_format_value(DataFormat format) { return info(format).metal_value; }

std::optional<DataFormat> parse_data_format(std::string_view name) {
  for (const FormatInfo& f : kFormats)
    if (name == f.metal_name || name == f.ttnn_name) return f.format;
  return std::nullopt;
}

uint32_t tile_size(DataFormat format) { return info(format).tile_bytes; }

uint64_t TensorDescriptor::bytes() const {
  if (shape.empty()) return 0;
  uint64_t elements = 1;
  for (const uint64_t dim : shape) elements *= dim;
  if (layout == TensorLayout::tile) return elements / (32 * 32) * tile_size(data_format);
  return elements * info(data_format).element_bytes;
}

uint32_t l1_page_stride(uint32_t page_size) {
  return (page_size + kL1PageAlignment - 1) / kL1PageAlignment * kL1PageAlignment;
}

uint64_t l1_bank_bytes(uint64_t bytes, uint32_t page_size) {
  const uint64_t pages = bytes / page_size;
  return (pages + emu::kNumL1Banks - 1) / emu::kNumL1Banks * l1_page_stride(page_size);
}

namespace {

// Where page p of a tensor with a page grid lies in its shard order: (shard * shard pages + the
// page's place in its shard).
uint64_t shard_order_page(const TensorDescriptor& t, uint64_t p) {
  uint64_t shard = 0, in_shard = 0, grid_stride = 1, shard_stride = 1, shard_volume = 1;
  for (const uint32_t extent : t.shard_pages) shard_volume *= extent;
  for (size_t d = t.tensor_pages.size(); d-- > 0;) {
    const uint64_t coord = p % t.tensor_pages[d];
    p /= t.tensor_pages[d];
    shard += coord / t.shard_pages[d] * grid_stride;
    in_shard += coord % t.shard_pages[d] * shard_stride;
    grid_stride *= t.tensor_pages[d] / t.shard_pages[d];
    shard_stride *= t.shard_pages[d];
  }
  return shard * shard_volume + in_shard;
}

std::vector<std::byte> reorder_pages(const TensorDescriptor& t, const std::vector<std::byte>& from, bool to_shards) {
  if (t.tensor_pages.empty()) return from;
  std::vector<std::byte> to(from.size());
  for (uint64_t p = 0, pages = from.size() / t.page_size; p < pages; ++p) {
    const uint64_t q = shard_order_page(t, p);
    const uint64_t src = (to_shards ? p : q) * t.page_size, dst = (to_shards ? q : p) * t.page_size;
    std::copy_n(from.begin() + std::ptrdiff_t(src), t.page_size, to.begin() + std::ptrdiff_t(dst));
  }
  return to;
}

}  // namespace

std::vector<std::byte> bytes_in_shard_order(const TensorDescriptor& t, const std::vector<std::byte>& bytes) {
  return reorder_pages(t, bytes, true);
}

std::vector<std::byte> bytes_in_page_order(const TensorDescriptor& t, const std::vector<std::byte>& shards) {
  return reorder_pages(t, shards, false);
}

const TensorDescriptor* ProgramDescriptor::tensor(std::string_view name) const {
  const auto it = std::find_if(tensors.begin(), tensors.end(), [&](const TensorDescriptor& t) { return t.name == name; });
  return it == tensors.end() ? nullptr : &*it;
}

ProgramDescriptor parse_descriptor(const nlohmann::ordered_json& json, const std::filesystem::path& file,
                                   const KernelRootOption& kernel_root_option) {
  ProgramDescriptor program = read_program(Field(json, "", file), kernel_root_option);
  detail::check_kernel_placement(program);
  detail::check_cb_ids(program);
  detail::check_semaphore_ids(program);
  detail::place_l1(program);
  return program;
}

ProgramDescriptor parse_descriptor(const nlohmann::json& json, const std::filesystem::path& file,
                                   const KernelRootOption& kernel_root_option) {
  return parse_descriptor(nlohmann::ordered_json(json), file, kernel_root_option);
}

ProgramDescriptor parse_descriptor_text(std::string_view text, const std::filesystem::path& file,
                                        const KernelRootOption& kernel_root_option) {
  return parse_descriptor(detail::parse_ordered_json(text, file), file, kernel_root_option);
}

ProgramDescriptor read_descriptor(const std::filesystem::path& file, const KernelRootOption& kernel_root_option) {
  // A descriptor is a few KiB; the bound keeps a wrong path (a tensor, a log) from being read whole.
  constexpr uintmax_t kMaxDescriptorBytes = 16 << 20;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) fail_not_found("{}: no such descriptor file", file.string());
  if (std::filesystem::file_size(file, ec) > kMaxDescriptorBytes)
    fail("{}: {} B is too large for a program descriptor (at most {} B)", file.string(),
         std::filesystem::file_size(file, ec), kMaxDescriptorBytes);
  return parse_descriptor_text(io::read_text_file(file.string()), file, kernel_root_option);
}

}  // namespace ditmk::tt::dialect
