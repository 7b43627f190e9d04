#include "ditmk/tt/host/emu_executor.hpp"

#include <chrono>

#include "ditmk/core/error.hpp"
#include "ditmk/ref/action_head.hpp"
#include "ditmk/tt/generic_op/descriptor_program.hpp"
#include "ditmk/tt/program/plan_descriptor.hpp"
#include "ditmk/tt/host/call_tensors.hpp"
#include "ditmk/tt/host/launch_inputs.hpp"
#include "ditmk/tt/plan/io_tensors.hpp"
#include "ditmk/tt/plan/layout_config.hpp"
#include "ditmk/tt/plan/limits.hpp"
#include "ditmk/tt/plan/program_builder.hpp"

namespace ditmk::tt::host {

namespace {

using ref::MatD;

std::span<const std::byte> as_bytes(const std::vector<std::byte>& v) { return {v.data(), v.size()}; }


// One loaded program on one emulated chip: DRAM buffers filled, the plan's program loaded as the
// ProgramDescriptor `ditmk plan --descriptor` writes, its kernel compiled from the dialect source.
class DeviceRun {
 public:
  DeviceRun(const model::Weights& w, int embodiment, const model::Observation& obs,
          const model::CallInputs<double>& call, const model::ModelConfig& config, Variant variant,
          const EmuOptions& emu)
      : emu_(emu), host_(emu.kernel_cache), device_(host_.emulator()) {
    LaunchInputs in = launch_inputs(w, config, embodiment, obs, call, variant, emu.dtype);
    layout_ = std::move(in.layout);
    device_.set_timing(emu.timing);
    for (auto& [name, bytes] : in.tensors) put(name, std::move(bytes));
    for (const std::string& name : output_tensors(variant)) output(name);
  }

  const ArenaLayout& layout() const { return layout_; }
  emu::Device& device() { return device_; }
  const emu::DramBuffer& buffer(const std::string& name) const { return *buffers_.at(name); }
  const ProgramSpec& spec() const { return spec_; }

  // steps4: the Euler state x_t [m_pad, a_pad] fp32 with the noise at the action rows.
  void put_state(const MatD& noise) {
    put("x_t", state_tensor(layout_, noise));
  }

  // Builds the K4 program for `step_index`, loads it with the kernel and (block / step) uploads the
  // residual rows [m_logical, width] into every compute core's x_rep row.
  void load_program(int step_index, const MatD* residual) {
    std::map<std::string, uint32_t> dram;
    for (const auto& [name, buffer] : buffers_) dram[name] = buffer->address;
    spec_ = launch_program(layout_, emu_.protocol, step_index, emu_.cb_w_slots, dram);
    const dialect::ProgramDescriptor d = dialect::plan_descriptor(spec_, dialect::kMegakernelSource, dialect::megakernel_dir());
    const dialect::L1Layout l1 = dialect::l1_layout(d);
    std::map<std::string, uint32_t> addresses = l1.shard_addresses;
    for (const auto& [name, buffer] : buffers_) addresses[name] = buffer->address;
    host_.load(dialect::program_of(d, l1, addresses));
    if (!residual) return;
    const std::vector<std::byte> tiles = padded_tiles(*residual, 0, kMPad, layout_.width, TileFormat::bf16);
    const std::size_t row_bytes = tiles.size() / 2;
    for (std::size_t c = 0; c < spec_.core_map.compute.size(); ++c) {
      const Core core = spec_.core_map.compute[c];
      const std::size_t row = c / (layout_.width / kTile);
      device_.write_cb({uint32_t(core.x), uint32_t(core.y)}, "cb_x",
                       std::span<const std::byte>(tiles.data() + row * row_bytes, row_bytes));
    }
  }

  EmuLaunch launch() {
    const auto start = std::chrono::steady_clock::now();
    EmuLaunch out;
    out.compile = host_.compiler().stats();
    out.report = device_.launch();
    out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.trace = stream_trace(layout_, buffers_, out.report.counters);
    if (!out.report.clean()) fail("emulated launch faulted: {}", emu::to_string(out.report.faults.front()));
    return out;
  }

 private:
  // Allocates the io tensor as the plan describes it (io_tensors.hpp) and fills it with `bytes`.
  void put(const std::string& name, std::vector<std::byte> bytes) {
    const IoTensor t = dram_io_tensor(layout_, name);
    require(bytes.size() == t.bytes(), "io tensor {}: {} B built, the plan's [{}, {}] holds {} B", name, bytes.size(),
            t.rows, t.cols, t.bytes());
    // the arenas are one page a bank, each the bank's image
    const bool arena = name == "arena_stream" || name == "arena_small";
    const emu::DramBuffer& b = arena ? device_.allocate_sharded(name, t.format, bytes.size(), t.page_bytes)
                                     : device_.allocate_interleaved(name, t.format, bytes.size(), t.page_bytes);
    device_.write_buffer(b, as_bytes(bytes));
    buffers_[name] = &b;
  }
  void output(const std::string& name) {
    const IoTensor t = dram_io_tensor(layout_, name);
    buffers_[name] = &device_.allocate_interleaved(name, t.format, t.bytes(), t.page_bytes);
  }

 private:
  EmuOptions emu_;
  ArenaLayout layout_;
  dialect::HostDevice host_;  // the chip and the kernel compiler
  emu::Device& device_;
  std::map<std::string, const emu::DramBuffer*> buffers_;
  ProgramSpec spec_;
};

void describe(EmuResult& r, const DeviceRun& s, Protocol protocol) {
  r.layout = s.layout();
  r.protocol = protocol;
  r.planned_l1 = s.spec().l1_bytes;
  for (const CBSpec& cb : s.spec().cbs) r.cb_planned[cb.name] = cb.total_bytes;
  r.arena_block_bytes.assign(r.layout.n_blocks, 0);
  for (const ArenaOp& op : r.layout.ops) {
    uint64_t bytes = 0;
    for (const CoreSlice& slice : op.slices) bytes += slice.bytes;
    if (op.block >= 0) r.arena_block_bytes[op.block] += bytes;
    else r.arena_tail_bytes += bytes;
  }
}

model::ModelConfig first_blocks(model::ModelConfig config, int n_blocks) {
  require(n_blocks >= 1 && n_blocks <= config.n_blocks, "n_blocks {} outside 1..{}", n_blocks, config.n_blocks);
  config.n_blocks = n_blocks;
  config.block_keys.resize(n_blocks);
  return config;
}

// The action encoder and token assembly on the host (the step variant's between-launch ops).
MatD host_tokens(const ref::ActionHead& ref, const model::Weights& w, const model::EmbodimentWeights& e,
                 const model::CallInputs<double>& call, int step, const MatD& x) {
  const auto& c = w.config;
  const int d = c.dims.width;
  const auto& ops = ref.ops();
  const TensorView step_bias{DType::F64, {d}, reinterpret_cast<const std::byte*>(ref.step_tables().tau_bias.row(step))};
  const model::Linear w2_a_half{{e.enc2.weight.dtype, {d, d}, e.enc2.weight.data}, step_bias};
  const MatD tokens = ops.linear_kn(ops.linear_kn(ops.linear_kn(x, e.enc1, model::Act::none), w2_a_half,
                                                  model::Act::silu),
                                    e.enc3, model::Act::none);
  MatD h(c.m_rows(), d);
  std::copy(call.state_token.data.begin(), call.state_token.data.end(), h.row(0));
  for (int f = 0; f < c.n_future; ++f)
    for (int i = 0; i < d; ++i) h(1 + f, i) = w.future_tokens.at(std::size_t(f) * d + i);
  for (int r = 0; r < c.horizon; ++r)
    for (int i = 0; i < d; ++i)
      h(c.action_row0() + r, i) = tokens(r, i) + w.position(r, i);
  return h;
}

}  // namespace

EmuExecutor::EmuExecutor(const model::Weights& weights, int embodiment, const EmuOptions& options)
    : weights_(weights), embodiment_(embodiment), options_(options) {
  require(options.dtype != TileFormat::fp32, "--dtype: the stream arena is bf16 or bfp8_b, not fp32");
}

model::CallInputs<double> EmuExecutor::precompute(const model::Observation& obs) const {
  const model::Float64Ops ops{options_.threads};
  return model::precompute_call<double>(ops, weights_, weights_.embodiment(embodiment_), obs);
}

EmuResult EmuExecutor::denoise(const model::Observation& obs, const Matrix<double>& noise, int launches) const {
  return denoise(obs, precompute(obs), noise, launches);
}

EmuResult EmuExecutor::denoise(const model::Observation& obs, const model::CallInputs<double>& call,
                               const Matrix<double>& noise, int launches) const {
  require(launches >= 1, "launches {} must be at least 1", launches);
  DeviceRun device_run(weights_, embodiment_, obs, call, weights_.config, Variant::steps4, options_);
  device_run.put_state(noise);
  device_run.load_program(0, nullptr);
  EmuResult r;
  describe(r, device_run, options_.protocol);
  const ArenaLayout& l = device_run.layout();
  const auto& c = weights_.config;
  std::vector<std::byte> first_actions, first_taps;
  for (int i = 0; i < launches; ++i) {
    r.launches.push_back(device_run.launch());
    const std::vector<std::byte> actions = device_run.device().read_buffer(device_run.buffer("action_pred"));
    const std::vector<std::byte> taps = device_run.device().read_buffer(device_run.buffer("velocity_out"));
    if (i == 0) {
      first_actions = actions, first_taps = taps;
      r.denoise.actions = unpadded(actions, kMPad, l.a_pad, TileFormat::fp32, l.action_rows[0], c.horizon, c.action_dim);
      const std::size_t step_bytes = taps.size() / kSteps;
      for (int s = 0; s < kSteps; ++s) {
        const std::vector<std::byte> one(taps.begin() + s * step_bytes, taps.begin() + (s + 1) * step_bytes);
        r.denoise.velocities.push_back(
            unpadded(one, kMPad, l.a_pad, TileFormat::bf16, l.action_rows[0], c.horizon, c.action_dim));
      }
    } else {
      r.launches_identical = r.launches_identical && actions == first_actions && taps == first_taps;
    }
  }
  return r;
}

EmuResult EmuExecutor::denoise_by_steps(const model::Observation& obs, const model::CallInputs<double>& call,
                                        const Matrix<double>& noise) const {
  const ref::ActionHead ref(weights_, embodiment_, options_.threads);
  const model::EmbodimentWeights e = weights_.embodiment(embodiment_);
  DeviceRun device_run(weights_, embodiment_, obs, call, weights_.config, Variant::step, options_);
  EmuResult r;
  describe(r, device_run, options_.protocol);
  const auto& c = weights_.config;
  MatD x = noise;
  for (int s = 0; s < kSteps; ++s) {
    const MatD tokens = host_tokens(ref, weights_, e, call, s, x);
    device_run.load_program(s, &tokens);
    r.launches.push_back(device_run.launch());
    const MatD y = unpadded(device_run.device().read_buffer(device_run.buffer("y_out")), kMPad, r.layout.out_dim,
                            TileFormat::bf16, c.action_row0(), c.horizon, r.layout.out_dim);
    MatD v = ref.ops().linear_kn(ref.ops().linear_kn(y, e.dec1, model::Act::relu), e.dec2, model::Act::none);
    for (std::size_t i = 0; i < x.data.size(); ++i) x.data[i] += model::euler_dt(c) * v.data[i];
    r.denoise.velocities.push_back(std::move(v));
  }
  r.denoise.actions = x;
  return r;
}

EmuResult EmuExecutor::blocks(const model::Observation& obs, const model::CallInputs<double>& call,
                              const Matrix<double>& residual, int step, int n_blocks) const {
  const model::ModelConfig config = first_blocks(weights_.config, n_blocks);
  require(residual.rows == config.m_rows() && residual.cols == config.dims.width,
          "residual is [{}, {}], the blocks take [{}, {}]", residual.rows, residual.cols, config.m_rows(),
          config.dims.width);
  DeviceRun device_run(weights_, embodiment_, obs, call, config, Variant::block, options_);
  device_run.load_program(step, &residual);
  EmuResult r;
  describe(r, device_run, options_.protocol);
  r.launches.push_back(device_run.launch());
  r.residual = unpadded(device_run.device().read_buffer(device_run.buffer("x_out")), kMPad, config.dims.width,
                        TileFormat::bf16, 0, config.m_rows(), config.dims.width);
  return r;
}

}  // namespace ditmk::tt::host
