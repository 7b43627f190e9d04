#include "ditmk/tt/host/tt_metal_export.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/tt/program/descriptor_json.hpp"
#include "ditmk/tt/program/plan_descriptor.hpp"
#include "ditmk/tt/host/emu_executor.hpp"
#include "ditmk/tt/host/launch_inputs.hpp"

namespace ditmk::tt::host {

namespace fs = std::filesystem;

namespace {

constexpr char kKernelFolder[] = "kernels";

// The README: what each part of the folder is and where it goes in ttnn.
std::string readme_text(const dialect::ProgramDescriptor& d, const ArenaLayout& layout, Protocol protocol,
                        const std::vector<std::string>& kernel_files) {
  std::string tensors;
  for (const dialect::TensorDescriptor& t : d.tensors) {
    std::string shape;
    for (uint64_t dim : t.shape) shape += (shape.empty() ? "" : " x ") + std::to_string(dim);
    const std::string role = !t.input.empty() ? "`" + t.input + "`" : !t.output.empty() ? "output `" + t.output + "`" : "kernel-filled";
    tensors += fmt::format("| `{}` | {} | {} | {} | {} B | {} |\n", t.name,
                           t.memory == dialect::TensorMemory::dram_interleaved ? "DRAM interleaved" : "L1 sharded",
                           dialect::data_format_name(t.data_format), shape, t.page_size, role);
  }
  std::string headers;
  for (const std::string& f : kernel_files) headers += fmt::format("`{}` ", f);
  return fmt::format(R"(# {name}: the GR00T DiT megakernel for tt-metal

**This program has not run on silicon.** It runs on ditmk's emulated Blackhole chip, which compiles
these kernel sources per processor as tt-metal's JIT does and runs them from this descriptor:
`ditmk emulate --descriptor program.json [--timing]` writes `outputs/` (the actions and the velocity
of every step). A chip is the check still to come.

The whole 4-step denoise of one call (`steps4`) is one launch: per step the action encoder, the
{blocks} DiT blocks, the output head, the action decoder and the Euler update. Stream weights are
{dtype}, the protocol is `{protocol}` (named arg `k4_onehub`).

## The parts and where they go in ttnn

| part | what it is | in ttnn |
|---|---|---|
| `kernels/dit_kernel.cpp` | the unified kernel: one source for every core and processor; a core's role comes from its named compile-time args (`is_compute`, `is_hub`, `is_reader`) and runtime args; each processor's build includes its own API only (compute on TRISC, dataflow on BRISC and NCRISC), the other side's statements kept out by `ON_COMPUTE(...)` / `ON_MOVERS(...)` as tt-metal's `MATH(...)` keeps a statement to one TRISC | `KernelDescriptor.kernel_source` of every kernel in `program.json`; tt-metal's JIT compiles it once per processor |
| `kernels/*.hpp` | its headers, one concept each: {headers}| found beside the kernel source (its folder is on the include path) |
| `program.json` `kernels` | per kernel group (cores sharing role flags) a reader (RISCV_1, NoC 0), a writer (RISCV_0, NoC 1) and a compute kernel (HiFi2, fp32 DST accumulation, `UnpackToDestFp32` where listed), each with its core ranges, named compile-time args, common runtime args and per-core runtime args | `ProgramDescriptor.kernels`: `KernelDescriptor` with `ReaderConfigDescriptor`, `WriterConfigDescriptor`, `ComputeConfigDescriptor` |
| `program.json` `cbs` | every circular buffer: total size, core ranges, id, format, page size; two are backed by the L1-sharded tensors `x_rep` and `a_rep` | `ProgramDescriptor.cbs`: `CBDescriptor` / `CBFormatDescriptor` (`cb_descriptor_from_sharded_tensor` for the backed two), created in the listed order so that the allocator gives the plan's L1 addresses |
| `program.json` `semaphores` | the protocol's semaphores on every core | `ProgramDescriptor.semaphores`: `SemaphoreDescriptor` |
| `program.json` `tensors`, `inputs/` | every io tensor (below); each input as the exact bytes the device holds, a 1-D uint8 `.npy` (the arenas packed per bank, tiles already in their format) | the io tensors handed to `ttnn.generic_op`, allocated as described and written byte for byte |

An arg written `{{"address_of": "name"}}` is the address of that tensor's buffer (a DRAM tensor's
base, the same in every bank; an L1 shard's address): a host puts the buffer's address there.

## The io tensors

| tensor | memory | format | shape | page | filled from |
|---|---|---|---|---|---|
{tensors}
The arenas are one page a bank: page p (bank p) is bank p's image of every op's weight slices, as
the plan's offsets table (in the common args) and the cores' slot rule place them. `x_t` is the
Euler state (fp32 tiles, the noise at the action rows {row0}..{row1}); `action_pred` holds the
actions at the same rows after the launch, `velocity_out` (when present) each step's velocity.

## What a tt-metal host does

1. Open the device; allocate every tensor of the table (DRAM interleaved with its page size, the
   L1-sharded ones on their cores) and write `inputs/<name>.npy`'s bytes into each input.
2. Build the `ProgramDescriptor` from `program.json`, replacing every `address_of` with the buffer's
   address, and launch it with `ttnn.generic_op` on the io tensors.
3. Read `action_pred` (and `velocity_out`).

## What this folder does not settle

- **NoC coordinates.** The named args `hub_noc_x/y`, `hub1_noc_x/y`, `mcast_x0..y1` and the
  compute-core table in the common args hold the emulated chip's coordinates, which are the logical
  ones. On a chip the host translates them (`worker_core_from_logical_core`) before the launch.
- **The emulator's timing note.** Where the data movers build tiles through L1 pointers, the kernel
  tells the emulator's timing model how many bytes they moved (`ditmk/risc_l1.h`, included only
  where `__has_include` finds it); with tt-metal's headers it compiles to nothing.
- **DRAM address 0.** The kernel reads an io address of 0 as "no tensor" (the block variant's
  optional output); the emulated host never places a tensor there.
)",
                     fmt::arg("name", d.name), fmt::arg("blocks", layout.n_blocks),
                     fmt::arg("dtype", tile_format_name(layout.dtype_stream)), fmt::arg("protocol", protocol_name(protocol)),
                     fmt::arg("headers", headers), fmt::arg("tensors", tensors), fmt::arg("row0", layout.action_rows[0]),
                     fmt::arg("row1", layout.action_rows[1] - 1));
}

void write_bytes_npy(const fs::path& path, const std::vector<std::byte>& bytes) {
  io::write_npy(path.string(), TensorView{DType::U8, {int64_t(bytes.size())}, bytes.data()});
}

// A folder beside `dir` that nothing else uses.
fs::path staging_folder(const fs::path& dir) {
  return dir.parent_path() / fmt::format(".{}.partial-{}", dir.filename().string(), getpid());
}

}  // namespace

ExportSummary export_tt_metal(const model::Weights& weights, int embodiment, const model::Observation& obs,
                              const Matrix<double>& noise, const ExportRequest& request, const fs::path& dir_in) {
  const fs::path dir = fs::absolute(dir_in).lexically_normal();
  require(!dir.filename().empty(), "--tt-metal: '{}' names no folder", dir_in.string());
  std::error_code ec;
  require(!fs::exists(dir, ec) || (fs::is_directory(dir, ec) && fs::is_empty(dir, ec)),
          "--tt-metal: '{}' exists and is not an empty folder", dir_in.string());
  require(fs::is_directory(dir.parent_path(), ec), "--tt-metal: the folder '{}' does not exist",
          dir.parent_path().string());
  require(request.dtype != TileFormat::fp32, "--dtype: the stream arena is bf16 or bfp8_b, not fp32");

  // What the emulated launch puts into DRAM, built the same way.
  const EmuExecutor executor(weights, embodiment, {request.dtype, request.threads, request.protocol});
  LaunchInputs in = launch_inputs(weights, weights.config, embodiment, obs, executor.precompute(obs), Variant::steps4,
                                  request.dtype);
  const ArenaLayout& layout = in.layout;
  TensorBytes& inputs = in.tensors;
  inputs.emplace_back("x_t", state_tensor(layout, noise));
  std::map<std::string, uint32_t> placeholder;  // any distinct addresses: the descriptor names tensors
  for (const auto& [name, bytes] : inputs) placeholder[name] = uint32_t(64 * (placeholder.size() + 1));
  for (const std::string& name : output_tensors(Variant::steps4)) placeholder[name] = uint32_t(64 * (placeholder.size() + 1));
  const ProgramSpec spec = launch_program(layout, request.protocol, 0, 0, placeholder);

  const fs::path stage = staging_folder(dir);
  fs::remove_all(stage, ec);
  fs::create_directories(stage / kKernelFolder);
  fs::create_directories(stage / "inputs");
  ExportSummary summary;
  auto note = [&](const fs::path& relative) {
    summary.files.push_back(relative.string());
    summary.bytes += fs::file_size(stage / relative);
  };
  try {
    std::vector<std::string> kernel_files;
    for (const fs::directory_entry& e : fs::directory_iterator(dialect::megakernel_dir())) {
      const std::string ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".cpp" || ext == ".hpp")) kernel_files.push_back(e.path().filename().string());
    }
    std::sort(kernel_files.begin(), kernel_files.end());
    for (const std::string& f : kernel_files) {
      fs::copy_file(dialect::megakernel_dir() / f, stage / kKernelFolder / f);
      note(fs::path(kKernelFolder) / f);
    }
    dialect::ProgramDescriptor d =
        dialect::plan_descriptor(spec, std::string(kKernelFolder) + "/" + dialect::kMegakernelSource, dir);
    for (dialect::TensorDescriptor& t : d.tensors) {
      auto in = std::find_if(inputs.begin(), inputs.end(), [&](const auto& p) { return p.first == t.name; });
      if (in != inputs.end()) {
        t.input = "inputs/" + t.name + ".npy";
        write_bytes_npy(stage / t.input, in->second);
        note(t.input);
      } else if (t.memory == dialect::TensorMemory::dram_interleaved) {
        t.output = "outputs/" + t.name + ".npy";
      }
    }
    io::write_file_atomic((stage / "program.json").string(), dialect::descriptor_json(d).dump(1) + "\n");
    note("program.json");
    io::write_file_atomic((stage / "README.md").string(), readme_text(d, layout, request.protocol, kernel_files));
    note("README.md");
    fs::create_directories(stage / "outputs");  // where a run of the descriptor writes
    if (fs::exists(dir, ec)) fs::remove(dir);  // empty, as checked
    fs::rename(stage, dir);
  } catch (...) {
    fs::remove_all(stage, ec);
    throw;
  }
  return summary;
}

}  // namespace ditmk::tt::host
