// The ProgramDescriptor reader over arbitrary bytes: the text parsed and validated as a descriptor
// file lying in a folder that holds the kernel files the seeds name (kernels/reader.cpp, writer.cpp,
// compute.cpp), so that kernel_source checks pass for them and the fuzzer reaches everything behind.
// An Error is the expected answer to bad input; any other exception, a crash, a leak or a sanitizer
// report is a finding. For a descriptor it accepts, the harness also checks what the reader promises:
// the same text read as plain nlohmann::json is accepted too, and the L1 layout keeps every region
// of a core inside its usable L1 and apart from the others.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "ditmk/core/error.hpp"
#include "ditmk/io/json_text.hpp"
#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/plan/limits.hpp"

namespace {

namespace fs = std::filesystem;
using namespace ditmk::tt;
using namespace ditmk::tt::dialect;

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "program_descriptor harness: %s\n", what);
  std::abort();
}

// A fresh folder with the seeds' kernel files, removed when the fuzzer exits.
class KernelFolder {
 public:
  KernelFolder() {
    std::string pattern = (fs::temp_directory_path() / "ditmk-fuzz-descriptor-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) finding("cannot create the kernel folder");
    dir_ = pattern;
    fs::create_directories(dir_ / "kernels");
    for (const char* name : {"reader.cpp", "writer.cpp", "compute.cpp"})
      std::ofstream(dir_ / "kernels" / name) << "void kernel_main() {}\n";
  }
  ~KernelFolder() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path descriptor() const { return dir_ / "program.json"; }

 private:
  fs::path dir_;
};

struct Region {
  uint64_t begin, end;
};

// Every core's CBs and shards lie in [kL1CbBase, kL1Bytes) and do not overlap (a tensor-backed CB
// is its shard).
void check_layout(const ProgramDescriptor& program) {
  const L1Layout layout = l1_layout(program);
  if (layout.cb_addresses.size() != program.cbs.size()) finding("a CB without an address");
  std::vector<std::vector<Region>> regions(emu::kNumCores);
  for (size_t i = 0; i < program.cbs.size(); ++i) {
    if (!program.cbs[i].tensor.empty()) continue;
    for (const emu::CoreCoord core : cores_of(program.cbs[i].core_ranges))
      regions[emu::core_index(core)].push_back({layout.cb_addresses[i], layout.cb_addresses[i] + program.cbs[i].total_size});
  }
  for (const TensorDescriptor& tensor : program.tensors) {
    if (tensor.memory != TensorMemory::l1_sharded) continue;
    const uint64_t address = layout.shard_addresses.at(tensor.name);
    for (const emu::CoreCoord core : cores_of(tensor.cores))
      regions[emu::core_index(core)].push_back({address, address + tensor.shard_size});
  }
  for (const std::vector<Region>& core : regions)
    for (size_t i = 0; i < core.size(); ++i) {
      if (core[i].begin < kL1CbBase || core[i].end > kL1Bytes || core[i].begin % kL1CbAlign != 0)
        finding("an L1 region outside usable L1 or unaligned");
      for (size_t j = 0; j < i; ++j)
        if (core[i].begin < core[j].end && core[j].begin < core[i].end) finding("two L1 regions overlap");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const KernelFolder folder;
  const fs::path file = folder.descriptor();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ProgramDescriptor program;
  try {
    program = parse_descriptor_text(text, file);
  } catch (const ditmk::Error&) {
    return 0;
  }
  check_layout(program);
  try {
    parse_descriptor(ditmk::io::parse_json_bounded(text, file.string()), file);
  } catch (const ditmk::Error&) {
    finding("accepted as ordered_json, refused as json");
  }
  return 0;
}
