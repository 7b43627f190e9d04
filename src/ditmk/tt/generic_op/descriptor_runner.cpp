#include "ditmk/tt/generic_op/descriptor_runner.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/tt/generic_op/descriptor_program.hpp"
#include "ditmk/tt/host_api/host_api.hpp"
#include "ditmk/tt/program/tensor_codec.hpp"

namespace ditmk::tt::dialect {

namespace fs = std::filesystem;

namespace {

fs::path resolve_path(const std::string& path, const fs::path& folder) {
  const fs::path p(path);
  return p.is_absolute() ? p : folder / p;
}

struct Placed {
  std::map<std::string, uint32_t> addresses;                   // what address_of gives, by tensor
  std::map<std::string, std::shared_ptr<Buffer>> buffers;      // DRAM tensors
  std::map<std::string, std::shared_ptr<L1Buffer>> l1_buffers;  // L1 tensors that back no CB
  std::map<std::string, uint32_t> shard_cb;                    // L1-sharded tensors: the CB id backed by each
};

// DRAM tensors with a fixed address go first, so the ones the runner places land above all of them.
Placed place_tensors(HostDevice& device, const ProgramDescriptor& program, const L1Layout& layout) {
  Placed placed;
  for (const CBDescriptor& cb : program.cbs) {
    if (!cb.tensor.empty()) placed.shard_cb[cb.tensor] = cb.format_descriptors.front().buffer_index;
  }
  for (const bool fixed_pass : {true, false}) {
    for (const TensorDescriptor& t : program.tensors) {
      if (!in_dram(t.memory) || t.address.has_value() != fixed_pass) continue;
      auto buffer = t.memory == TensorMemory::dram_sharded
                        ? CreateDramShardedBuffer(device, {(t.bytes() + t.shard_size - 1) / t.shard_size * t.shard_size,
                                                           t.shard_size, t.data_format, t.name, t.address})
                        : CreateBuffer(device, InterleavedBufferConfig{t.bytes(), t.page_size, t.data_format, t.name,
                                                                       t.address});
      placed.addresses[t.name] = buffer->address();
      placed.buffers[t.name] = std::move(buffer);
    }
  }
  for (const TensorDescriptor& t : program.tensors) {
    switch (t.memory) {
      case TensorMemory::dram_interleaved:
      case TensorMemory::dram_sharded: break;
      case TensorMemory::l1_interleaved: {
        const uint32_t address = layout.interleaved_addresses.at(t.name);
        placed.l1_buffers[t.name] = CreateL1Buffer(device, {t.bytes(), t.page_size, address, {}, 0, t.name});
        placed.addresses[t.name] = address;
        break;
      }
      case TensorMemory::l1_sharded: {
        const uint32_t address = layout.shard_addresses.at(t.name);
        // backing a CB, the shard is the CB's storage; otherwise a plain L1 buffer on its cores
        if (!placed.shard_cb.count(t.name)) {
          placed.l1_buffers[t.name] =
              CreateL1Buffer(device, {t.bytes(), 0, address, cores_of(t.cores), t.shard_size, t.name});
        }
        placed.addresses[t.name] = address;
        break;
      }
    }
  }
  return placed;
}

void write_tensor(HostDevice& device, const Placed& placed, const TensorDescriptor& t,
                  std::span<const std::byte> given) {
  if (t.memory == TensorMemory::dram_interleaved) return EnqueueWriteBuffer(device, *placed.buffers.at(t.name), given);
  // a tensor with a page grid goes to its cores (or banks) shard by shard
  const std::vector<std::byte> ordered =
      t.tensor_pages.empty() ? std::vector<std::byte>{} : bytes_in_shard_order(t, {given.begin(), given.end()});
  const std::span<const std::byte> bytes = t.tensor_pages.empty() ? given : std::span<const std::byte>(ordered);
  if (t.memory == TensorMemory::dram_sharded) return EnqueueWriteBuffer(device, *placed.buffers.at(t.name), bytes);
  if (placed.l1_buffers.count(t.name)) return EnqueueWriteBuffer(device, *placed.l1_buffers.at(t.name), bytes);
  const std::vector<emu::CoreCoord> cores = cores_of(t.cores);
  for (std::size_t i = 0; i < cores.size(); ++i) {
    const std::size_t begin = std::min(bytes.size(), i * t.shard_size);
    const std::size_t end = std::min(bytes.size(), begin + t.shard_size);
    if (end > begin) device.write_shard(cores[i], placed.shard_cb.at(t.name), bytes.subspan(begin, end - begin));
  }
}

// The tensor's bytes, or none when some of its L1 bytes were never written (a last shard the tensor
// does not fill is read only as far as the tensor goes).
std::optional<std::vector<std::byte>> read_tensor(HostDevice& device, const Placed& placed, const TensorDescriptor& t) {
  std::vector<std::byte> bytes;
  if (in_dram(t.memory)) {
    EnqueueReadBuffer(device, *placed.buffers.at(t.name), bytes);
    if (t.memory == TensorMemory::dram_interleaved) return bytes;
    bytes.resize(t.bytes());  // whole shards were allocated; a short last one's tail is not the tensor's
    return bytes_in_page_order(t, bytes);
  }
  try {
    if (placed.l1_buffers.count(t.name)) {
      EnqueueReadBuffer(device, *placed.l1_buffers.at(t.name), bytes);
      return bytes_in_page_order(t, bytes);
    }
    // only the tensor's bytes of each shard: a last shard shorter than the others leaves the rest of
    // its CB unwritten, as the pages past the tensor's end are on the chip
    for (emu::CoreCoord core : cores_of(t.cores)) {
      if (bytes.size() >= t.bytes()) break;
      const auto left = static_cast<uint32_t>(t.bytes() - bytes.size());
      const std::vector<std::byte> shard =
          device.read_shard(core, placed.shard_cb.at(t.name), std::min<uint32_t>(left, t.shard_size));
      bytes.insert(bytes.end(), shard.begin(), shard.end());
    }
    bytes.resize(std::min<std::size_t>(bytes.size(), t.bytes()));
    return bytes_in_page_order(t, bytes);
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace

DescriptorRun run_descriptor(const ProgramDescriptor& d, const TensorBytes& inputs, const RunOptions& options) {
  for (const auto& [name, bytes] : inputs) {
    const TensorDescriptor* t = d.tensor(name);
    require(t != nullptr, "{}: input bytes for '{}', which is not a tensor of the program", d.file.string(), name);
    require(bytes.size() == t->bytes(), "{}: tensor '{}' takes {} B, the input has {} B", d.file.string(), name,
            t->bytes(), bytes.size());
  }
  HostDevice device(options.kernel_cache);
  device.emulator().set_timing(options.timing);
  device.emulator().set_watchdog(options.watchdog_seconds);
  device.emulator().set_strict(options.strict);
  const L1Layout layout = l1_layout(d);
  const Placed placed = place_tensors(device, d, layout);
  Program program = program_of(d, layout, placed.addresses);
  device.load(program);
  // A CB backed by a tensor is not a "written" region until the host fills it; bytes of a tensor no
  // input fills stay unwritten, so a kernel that reads them faults.
  for (const TensorDescriptor& t : d.tensors) {
    auto input = inputs.find(t.name);
    if (input != inputs.end()) write_tensor(device, placed, t, input->second);
  }
  DescriptorRun run;
  const auto start = std::chrono::steady_clock::now();
  run.report = device.run();
  run.run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.compile = device.compiler().stats();
  if (!run.report.clean()) return run;
  for (const TensorDescriptor& t : d.tensors) {
    if (auto bytes = read_tensor(device, placed, t)) run.tensors[t.name] = std::move(*bytes);
  }
  return run;
}

DescriptorRun run_descriptor(const ProgramDescriptor& d, const RunOptions& options) {
  const fs::path folder = options.data_dir.empty() ? d.file.parent_path() : options.data_dir;
  // Inputs are read before anything compiles, so a missing file costs nothing.
  TensorBytes inputs;
  for (const TensorDescriptor& t : d.tensors) {
    if (t.input.empty()) continue;
    const fs::path path = resolve_path(t.input, folder);
    inputs[t.name] = encode_tensor(t, io::read_npy(path.string()), path.string());
  }
  DescriptorRun run = run_descriptor(d, inputs, options);
  if (!run.report.clean()) return run;
  for (const TensorDescriptor& t : d.tensors) {
    if (t.output.empty()) continue;
    auto bytes = run.tensors.find(t.name);
    require(bytes != run.tensors.end(), "{}: output tensor '{}' has L1 bytes no kernel wrote", d.file.string(), t.name);
    const fs::path path = resolve_path(t.output, folder);
    io::write_npy(path.string(), decode_tensor(t, bytes->second).view());
    run.outputs.push_back(path);
  }
  return run;
}

nlohmann::json run_report(const ProgramDescriptor& program, const DescriptorRun& run) {
  nlohmann::json report = emu::to_json(run.report);
  report["program"] = program.name;
  report["compile"] = {{"compiled", run.compile.compiled}, {"cache_hits", run.compile.cache_hits},
                       {"compile_seconds", run.compile.compile_seconds}, {"load_seconds", run.compile.load_seconds}};
  report["run_seconds"] = run.run_seconds;
  if (run.report.clean() && run.report.timing)
    report["timing"] = {{"predicted_us", run.report.timing->seconds(run.report.timing->end) * 1e6}};
  return report;
}

}  // namespace ditmk::tt::dialect
