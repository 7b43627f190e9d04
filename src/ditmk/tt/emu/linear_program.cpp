#include "ditmk/tt/emu/linear_program.hpp"

#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "ditmk/core/dtype.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/core/rng.hpp"
#include "ditmk/tt/emu/device_api.hpp"
#include "ditmk/tt/formats.hpp"

namespace ditmk::tt::emu {

namespace {

using S = LinearShape;

// CB ids: cb_a / cb_w / cb_mm0 keep the seed's protocol ids; cb_y is this program's result buffer.
constexpr uint32_t kCbA = 1, kCbW = 2, kCbMm0 = 3, kCbY = 4;
// Semaphore ids of the seed's protocol.
constexpr uint32_t kSemMcastSender = 3, kSemMcastReceiver = 4, kSemGatherNoc0 = 5;

constexpr uint32_t kBf16Tile = 2048;
constexpr uint32_t kActivationPages = S::m_tiles * S::k_tiles;  // 96
constexpr uint32_t kResultPages = S::m_tiles * S::n_tiles;      // 384
constexpr uint32_t kNotApplicable = 0xFFFF;

// Roles over the grid in row-major order: compute 0..95, readers 96..103 (one per bank, idle in
// direct mode), the hub 104, spares 105..109.
constexpr uint32_t kFirstReader = 96, kHub = 104;

// L1 from the bottom of the CB area upwards (firmware and the kernel-config ring sit below it):
// the semaphores, then cb_y, which every core has, so it lies at one address everywhere.
constexpr uint32_t kL1CbBase = 111'616;
constexpr uint32_t kCbAlignment = 32;

uint32_t align(uint32_t value) { return (value + kCbAlignment - 1) / kCbAlignment * kCbAlignment; }

uint32_t kblock_bytes(TileFormat format) { return S::block_pages * uint32_t(tile_bytes(format)); }
uint32_t shard_bytes(TileFormat format) { return S::k_blocks * kblock_bytes(format); }

void compute_ncrisc() {
  const uint32_t cb_w = get_named_compile_time_arg_val("cb_w");
  const uint32_t cb_mm0 = get_named_compile_time_arg_val("cb_mm0");
  const uint32_t cb_y = get_named_compile_time_arg_val("cb_y");
  const uint32_t compute_idx = get_arg_val(0), bank = get_arg_val(1);
  const uint32_t weights = get_common_arg_val(0);
  const uint32_t block_bytes = get_named_compile_time_arg_val("k_block_bytes");
  const uint32_t shard = get_named_compile_time_arg_val("weight_shard_bytes");
  const uint32_t y_address = get_write_ptr(cb_y);  // cb_y lies at one address on every core
  const uint32_t shard_base = weights + (compute_idx / get_named_compile_time_arg_val("n_dram_banks")) * shard;
  for (uint32_t block = 0; block < get_named_compile_time_arg_val("k_blocks"); ++block) {
    cb_reserve_back(cb_w, S::block_pages);
    noc_async_read(get_noc_addr_from_bank_id(bank, shard_base + block * block_bytes), get_write_ptr(cb_w),
                   block_bytes);
    noc_async_read_barrier();
    cb_push_back(cb_w, S::block_pages);
  }
  // gather: output tile (row r, own column n) goes to page r * n_tiles + 2 * compute_idx + n of the
  // hub's cb_y
  const uint32_t hub_x = get_named_compile_time_arg_val("hub_x");
  const uint32_t hub_y = get_named_compile_time_arg_val("hub_y");
  cb_wait_front(cb_mm0, S::m_tiles * S::n_tiles_per_core);
  const uint32_t source = get_read_ptr(cb_mm0);
  for (uint32_t r = 0; r < S::m_tiles; ++r) {
    for (uint32_t n = 0; n < S::n_tiles_per_core; ++n) {
      const uint32_t page = r * S::n_tiles + S::n_tiles_per_core * compute_idx + n;
      noc_async_write(source + (r * S::n_tiles_per_core + n) * kBf16Tile,
                      get_noc_addr(hub_x, hub_y, y_address + page * kBf16Tile), kBf16Tile);
    }
  }
  noc_async_write_barrier();
  noc_semaphore_inc(get_noc_addr(hub_x, hub_y, get_semaphore(get_named_compile_time_arg_val("sem_gather_noc0"))), 1);
  cb_pop_front(cb_mm0, S::m_tiles * S::n_tiles_per_core);
}

void compute_trisc() {
  const uint32_t cb_a = get_named_compile_time_arg_val("cb_a");
  const uint32_t cb_w = get_named_compile_time_arg_val("cb_w");
  const uint32_t cb_mm0 = get_named_compile_time_arg_val("cb_mm0");
  cb_wait_front(cb_a, kActivationPages);
  tile_regs_acquire();
  // DST holds the 2 x 2 output tiles across all K-blocks; a K-block's tiles are K-major (k * 2 + n)
  for (uint32_t block = 0; block < S::k_blocks; ++block) {
    cb_wait_front(cb_w, S::block_pages);
    for (uint32_t k = 0; k < S::k_block_tiles; ++k) {
      for (uint32_t r = 0; r < S::m_tiles; ++r) {
        for (uint32_t n = 0; n < S::n_tiles_per_core; ++n) {
          matmul_tiles(cb_a, cb_w, r * S::k_tiles + block * S::k_block_tiles + k,
                       k * S::n_tiles_per_core + n, r * S::n_tiles_per_core + n);
        }
      }
    }
    cb_pop_front(cb_w, S::block_pages);
  }
  tile_regs_commit();
  tile_regs_wait();
  cb_reserve_back(cb_mm0, S::m_tiles * S::n_tiles_per_core);
  for (uint32_t t = 0; t < S::m_tiles * S::n_tiles_per_core; ++t) pack_tile(t, cb_mm0);
  cb_push_back(cb_mm0, S::m_tiles * S::n_tiles_per_core);
  tile_regs_release();
  cb_pop_front(cb_a, kActivationPages);
}

// Every core but the hub: make room for the result, tell the hub, wait for its multicast.
void receiver_brisc() {
  const uint32_t cb_y = get_named_compile_time_arg_val("cb_y");
  if (get_named_compile_time_arg_val("is_compute")) {
    // cb_a is backed by the host-written activation shard: publish its pages to TRISC
    const uint32_t cb_a = get_named_compile_time_arg_val("cb_a");
    cb_reserve_back(cb_a, kActivationPages);
    cb_push_back(cb_a, kActivationPages);
  }
  cb_reserve_back(cb_y, kResultPages);
  noc_semaphore_inc(get_noc_addr(get_named_compile_time_arg_val("hub_x"), get_named_compile_time_arg_val("hub_y"),
                                 get_semaphore(get_named_compile_time_arg_val("sem_mcast_sender"))),
                    1);
  noc_semaphore_wait(get_semaphore(get_named_compile_time_arg_val("sem_mcast_receiver")), 1);
  cb_push_back(cb_y, kResultPages);
}

void hub_brisc() {
  const uint32_t cb_y = get_named_compile_time_arg_val("cb_y");
  const uint32_t receivers = get_named_compile_time_arg_val("n_receivers");
  const uint32_t x0 = get_named_compile_time_arg_val("mcast_x0"), y0 = get_named_compile_time_arg_val("mcast_y0");
  const uint32_t x1 = get_named_compile_time_arg_val("mcast_x1"), y1 = get_named_compile_time_arg_val("mcast_y1");
  cb_reserve_back(cb_y, kResultPages);
  const uint32_t y_address = get_write_ptr(cb_y);
  noc_semaphore_wait(get_semaphore(get_named_compile_time_arg_val("sem_gather_noc0")),
                     get_named_compile_time_arg_val("n_compute"));
  noc_semaphore_wait(get_semaphore(get_named_compile_time_arg_val("sem_mcast_sender")), receivers);
  noc_async_write_multicast(y_address, get_noc_multicast_addr(x0, y0, x1, y1, y_address),
                            kResultPages * kBf16Tile, receivers);
  noc_async_write_barrier();
  const uint32_t ready = get_semaphore(get_named_compile_time_arg_val("sem_mcast_receiver"));
  noc_semaphore_set(ready, 1);
  noc_semaphore_set_multicast(ready, get_noc_multicast_addr(x0, y0, x1, y1, ready), receivers);
  cb_push_back(cb_y, kResultPages);
}

// The unified kernel: role flags and the processor pick the work.
void linear_kernel() {
  const bool compute = get_named_compile_time_arg_val("is_compute");
  const bool hub = get_named_compile_time_arg_val("is_hub");
  switch (current_processor()) {
    case Processor::ncrisc:
      if (compute) compute_ncrisc();
      break;
    case Processor::brisc:
      if (hub) hub_brisc();
      else receiver_brisc();
      break;
    case Processor::trisc:
      if (compute) compute_trisc();
      break;
  }
}

std::set<CoreCoord> cores_in(uint32_t begin, uint32_t end) {
  std::set<CoreCoord> cores;
  for (uint32_t i = begin; i < end; ++i) cores.insert(core_at(i));
  return cores;
}

// Random [rows, cols] matrix, values a few units in size so products do not cancel to zero.
std::vector<float> random_matrix(uint64_t seed, uint64_t stream, int rows, int cols) {
  CounterRng rng(seed, stream);
  std::vector<float> values(std::size_t(rows) * cols);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(rng.normal(i));
  return values;
}

// The tiles of `matrix` (row-major, `cols` wide) at tile (tr, tc), packed in `format`.
void pack_block(const std::vector<float>& matrix, int cols, int tr, int tc, TileFormat format,
                std::byte* out) {
  float ordered[kTileElems];
  tilize_tile(matrix.data() + std::size_t(tr) * kTile * cols + std::size_t(tc) * kTile, cols, ordered);
  tt::pack_tile(format, ordered, out);
}

// What each value becomes in `format`, for the host computation.
std::vector<float> rounded(const std::vector<float>& matrix, int rows, int cols, TileFormat format) {
  std::vector<float> tiles = tilize(matrix.data(), rows, cols);
  for (std::size_t t = 0; t < tiles.size() / kTileElems; ++t) {
    round_tile(format, tiles.data() + t * kTileElems, tiles.data() + t * kTileElems);
  }
  return untilize(tiles.data(), rows, cols);
}

// y = a x w with k ascending for every element (the DST accumulation order), then bf16.
std::vector<float> host_linear(const std::vector<float>& a, const std::vector<float>& w, int m, int k, int n) {
  std::vector<float> y(std::size_t(m) * n);
  std::vector<float> row(n);
  for (int i = 0; i < m; ++i) {
    std::fill(row.begin(), row.end(), 0.0f);
    for (int kk = 0; kk < k; ++kk) {
      const float scale = a[std::size_t(i) * k + kk];
      const float* w_row = w.data() + std::size_t(kk) * n;
      for (int j = 0; j < n; ++j) row[j] += scale * w_row[j];
    }
    for (int j = 0; j < n; ++j) y[std::size_t(i) * n + j] = round_to_bf16(row[j]);
  }
  return y;
}

}  // namespace

uint32_t default_cb_w_pages(TileFormat weight_format) {
  return (weight_format == TileFormat::bfp8_b ? 15 : 13) * S::block_pages;
}

Program build_linear_program(TileFormat weight_format, uint32_t cb_w_pages, uint32_t weight_address) {
  require(weight_format != TileFormat::fp32, "linear program: weights stream as bf16 or bfp8_b");
  Program program;
  program.name = "linear";
  for (uint32_t i = 0; i < kNumCores; ++i) program.cores.push_back(core_at(i));
  const std::set<CoreCoord> all = cores_in(0, kNumCores);
  const std::set<CoreCoord> compute = cores_in(0, S::n_compute);
  const CoreCoord hub = core_at(kHub);

  uint32_t address = kL1CbBase;
  for (auto [name, id] : {std::pair{"sem_mcast_sender", kSemMcastSender},
                          std::pair{"sem_mcast_receiver", kSemMcastReceiver},
                          std::pair{"sem_gather_noc0", kSemGatherNoc0}}) {
    program.semaphores.push_back({name, id, address, 0});
    address += kSemaphoreBytes;
  }
  auto add_cb = [&](const char* name, uint32_t id, const std::set<CoreCoord>& cores, uint32_t pages,
                    TileFormat format, bool backed) {
    address = align(address);
    const uint32_t page = uint32_t(tile_bytes(format));
    program.cbs.push_back({name, id, cores, address, pages * page, page, format, backed});
    address += pages * page;
  };
  add_cb("cb_y", kCbY, all, kResultPages, TileFormat::bf16, false);
  add_cb("cb_a", kCbA, compute, kActivationPages, TileFormat::bf16, true);
  add_cb("cb_w", kCbW, compute, cb_w_pages, weight_format, false);
  add_cb("cb_mm0", kCbMm0, compute, S::m_tiles * S::n_tiles_per_core, TileFormat::bf16, false);

  KernelBinding& kernel = add_unified_kernel(program, linear_kernel);
  kernel.role_flags = {{"is_compute", compute}, {"is_reader", cores_in(kFirstReader, kHub)}, {"is_hub", {hub}}};
  kernel.named_args = {
      {"cb_a", kCbA}, {"cb_w", kCbW}, {"cb_mm0", kCbMm0}, {"cb_y", kCbY},
      {"sem_mcast_sender", kSemMcastSender}, {"sem_mcast_receiver", kSemMcastReceiver},
      {"sem_gather_noc0", kSemGatherNoc0},
      {"k_blocks", S::k_blocks}, {"k_block_bytes", kblock_bytes(weight_format)},
      {"weight_shard_bytes", shard_bytes(weight_format)}, {"n_dram_banks", kNumDramBanks},
      {"n_compute", S::n_compute}, {"n_receivers", kNumCores - 1},
      {"hub_x", hub.x}, {"hub_y", hub.y},
      {"mcast_x0", 0}, {"mcast_y0", 0}, {"mcast_x1", kGridX - 1}, {"mcast_y1", kGridY - 1},
  };
  kernel.common_args = {weight_address};
  for (uint32_t i = 0; i < kNumCores; ++i) {
    const bool is_compute = i < S::n_compute;
    const bool is_reader = i >= kFirstReader && i < kHub;
    const uint32_t bank = is_compute ? i % kNumDramBanks : is_reader ? i - kFirstReader : kNotApplicable;
    kernel.core_args[core_at(i)] = {is_compute ? i : kNotApplicable, bank, kNotApplicable,
                                     kNotApplicable, kNotApplicable};
  }
  return program;
}

LinearRun run_linear(const LinearOptions& options) {
  const TileFormat format = options.weight_format;
  const int m = S::m_tiles * kTile, k = S::k_tiles * kTile, n = S::n_tiles * kTile;
  const std::vector<float> a = random_matrix(options.seed, 1, m, k);
  std::vector<float> w = random_matrix(options.seed, 2, k, n);
  for (float& v : w) v *= 0.05f;

  Device device;
  const std::size_t tile = tile_bytes(format);
  const DramBuffer& weights = device.allocate_sharded("linear.weight", format,
                                                      uint64_t(shard_bytes(format)) * S::n_compute,
                                                      shard_bytes(format));
  // shard c = compute core c's K-blocks, each K-major over its 2 N tiles
  std::vector<std::byte> packed(weights.size);
  for (uint32_t c = 0; c < S::n_compute; ++c) {
    for (uint32_t b = 0; b < S::k_blocks; ++b) {
      for (uint32_t kk = 0; kk < S::k_block_tiles; ++kk) {
        for (uint32_t nn = 0; nn < S::n_tiles_per_core; ++nn) {
          const std::size_t page = (std::size_t(c) * S::k_blocks + b) * S::block_pages + kk * S::n_tiles_per_core + nn;
          pack_block(w, n, int(b * S::k_block_tiles + kk), int(c * S::n_tiles_per_core + nn), format,
                     packed.data() + page * tile);
        }
      }
    }
  }
  device.write_buffer(weights, packed);

  const uint32_t cb_w_pages = options.cb_w_pages ? options.cb_w_pages : default_cb_w_pages(format);
  device.load(build_linear_program(format, cb_w_pages, weights.address));
  std::vector<std::byte> activation(std::size_t(kActivationPages) * kBf16Tile);
  for (uint32_t r = 0; r < S::m_tiles; ++r) {
    for (uint32_t kt = 0; kt < S::k_tiles; ++kt) {
      pack_block(a, k, int(r), int(kt), TileFormat::bf16, activation.data() + (r * S::k_tiles + kt) * kBf16Tile);
    }
  }
  for (uint32_t c = 0; c < S::n_compute; ++c) device.write_cb(core_at(c), "cb_a", activation);

  const std::vector<float> expected =
      host_linear(rounded(a, m, k, TileFormat::bf16), rounded(w, k, n, format), m, k, n);
  LinearRun run;
  run.expected_dram_bytes = weights.size;
  for (float v : expected) run.max_abs_host = std::max(run.max_abs_host, double(std::fabs(v)));
  run.clean = true;
  run.launches_identical = true;
  std::vector<std::vector<std::byte>> first_results;
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t launch = 0; launch < options.launches; ++launch) {
    run.launches.push_back(device.launch());
    if (!run.launches.back().clean()) {
      run.clean = false;
      run.launches_identical = false;
      break;
    }
    for (uint32_t i = 0; i < kNumCores; ++i) {
      std::vector<std::byte> bytes = device.read_cb(core_at(i), "cb_y");
      if (launch == 0) {
        std::vector<float> tiles(std::size_t(kResultPages) * kTileElems);
        unpack_tiles(TileFormat::bf16, bytes.data(), kResultPages, tiles.data());
        const std::vector<float> y = untilize(tiles.data(), m, n);
        for (std::size_t e = 0; e < y.size(); ++e) {
          run.max_abs_err_vs_host = std::max(run.max_abs_err_vs_host, double(std::fabs(y[e] - expected[e])));
        }
        first_results.push_back(std::move(bytes));
      } else if (bytes != first_results[i]) {
        run.launches_identical = false;
      }
    }
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  run.wall_seconds_per_launch = elapsed.count() / double(run.launches.size());
  if (!run.clean) run.max_abs_err_vs_host = std::nan("");
  return run;
}

nlohmann::json to_json(const LinearRun& run, const LinearOptions& options) {
  const LaunchReport& last = run.launches.back();
  nlohmann::json high_water = nlohmann::json::object();
  for (const CbHighWater& cb : last.counters.cb_high_water) {
    high_water[cb.name] = {{"used", cb.used_bytes}, {"planned", cb.planned_bytes}};
  }
  nlohmann::json faults = nlohmann::json::array();
  for (const Fault& fault : last.faults) faults.push_back(to_string(fault));
  nlohmann::json launches = nlohmann::json::array();
  for (const LaunchReport& report : run.launches) launches.push_back(to_json(report));
  return {{"program", "linear"},
          {"dtype", tile_format_name(options.weight_format)},
          {"seed", options.seed},
          {"shape", {{"m", LinearShape::m_tiles * kTile}, {"k", LinearShape::k_tiles * kTile}, {"n", LinearShape::n_tiles * kTile}}},
          {"clean", run.clean},
          {"max_abs_err_vs_host", run.clean ? nlohmann::json(run.max_abs_err_vs_host) : nlohmann::json(nullptr)},
          {"max_abs_host", run.max_abs_host},
          {"launches_identical", run.launches_identical},
          {"dram_bytes_read", last.counters.dram_read_bytes()},
          {"expected_dram_bytes", run.expected_dram_bytes},
          {"cb_high_water", high_water},
          {"faults", faults},
          {"time_lower_bound_seconds", last.bound.seconds},
          {"time_lower_bound", to_json(last.bound)},
          {"wall_seconds_per_launch", run.wall_seconds_per_launch},
          {"launches", launches}};
}

}  // namespace ditmk::tt::emu
