// `ditmk plan`: plans the megakernel (arena, core map, K1/K4 program), checks every limit and
// prints the plan; --json / --descriptor write the manifest and the program's ProgramDescriptor, only
// once every check has passed.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "ditmk/cli/commands.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/tt/program/descriptor_json.hpp"
#include "ditmk/tt/program/plan_descriptor.hpp"
#include "ditmk/tt/plan/limits.hpp"
#include "ditmk/tt/plan/manifest.hpp"
#include "ditmk/tt/plan/program_builder.hpp"

namespace ditmk::cli {

namespace {

struct PlanArgs {
  std::string version = "n15";
  std::string variant = "steps4";
  std::string kernel = "k4";
  std::string dtype = "bfp8_b";
  std::string protocol = "seed";
  int n_blocks = 0;
  int cb_w_slots = 0;
  std::string json_path;
  std::string descriptor_path;
};

void print_plan(const tt::ProgramSpec& spec) {
  const tt::ArenaLayout& a = spec.layout;
  fmt::print("plan {} {} {} stream {}: {} blocks, layout {}, reader mode {}\n", model::version_name(a.version),
             tt::kernel_name(spec.kernel), tt::variant_name(spec.variant), tt::tile_format_name(a.dtype_stream),
             a.n_blocks, a.layout_cfg.name, tt::reader_mode_name(a.reader_mode));
  for (const tt::KeySetShape& k : a.key_sets) {
    fmt::print("  keys {:<6} {:>4} real -> {:>4} padded, {} chunks{}\n", model::key_set_name(k.keys), k.l_real,
               k.l_pad, k.chunks(), k.split() ? ", split over 3 cores" : "");
  }
  fmt::print("  arena: {} ops, K-block {} B, stream {} B/step ({} B per bank), small {} B/step\n", a.ops.size(),
             a.stream_k_block_bytes(), a.weight_bytes(tt::Arena::stream), a.arena_bank_bytes[0],
             a.weight_bytes(tt::Arena::small));
  for (const char* group : {"compute", "reader", "hub", "spare"}) {
    auto placed = spec.cb_l1_address.find(group);
    const uint32_t used = spec.l1_bytes.at(group);
    const uint32_t limit = std::string(group) == "compute" ? std::min(spec.l1_budget_compute, spec.l1_limit)
                                                           : spec.l1_limit;
    fmt::print("\n  {} L1: {} B of {} B ({:.1f} %)\n", group, used, limit, 100.0 * used / limit);
    if (placed == spec.cb_l1_address.end()) continue;
    for (const tt::CBSpec& cb : spec.cbs) {
      auto it = placed->second.find(cb.name);
      if (it == placed->second.end()) continue;
      fmt::print("    {:<13} id {:>2}  {:>8} B  page {:>5} B  {:<6}  @ {:>7}  {}\n", cb.name, cb.id, cb.total_bytes,
                 cb.page_bytes, tt::tile_format_name(cb.format), it->second, cb.role_set);
    }
  }
  const tt::DescriptorStats s = spec.stats();
  fmt::print("\n  args: {} named compile-time, {} common + {} per-core runtime words (limit {}), {} semaphores\n",
             s.n_named_ctas, s.n_common_rt_args, s.n_per_core_rt_args, tt::kMaxRtArgsPerCore, s.n_semaphores);
  fmt::print("  io ({}):", s.n_io_tensors);
  for (const tt::IoSlot& slot : spec.io) fmt::print(" {}{}", slot.name, slot.required ? "" : "?");
  fmt::print("\n  kernel groups ({}):", s.n_kernel_groups);
  for (const tt::KernelGroup& g : spec.kernel_groups()) fmt::print(" {} x{}", g.name, g.cores.size());
  fmt::print("\n");
}

void run_plan(const PlanArgs& args) {
  model::ModelConfig config = model::default_config(model::parse_version(args.version));
  if (args.n_blocks > 0) {
    config.n_blocks = args.n_blocks;
    config.block_keys = model::block_schedule(config);
  }
  tt::ArenaOptions arena;
  arena.variant = tt::parse_variant(args.variant);
  arena.dtype_stream = tt::parse_tile_format(args.dtype);
  tt::ProgramOptions options;
  options.kernel = tt::parse_kernel(args.kernel);
  options.protocol = tt::parse_protocol(args.protocol);
  if (args.cb_w_slots > 0) options.cb_w_slots = args.cb_w_slots;
  const tt::ArenaLayout layout = tt::plan_arena(config, tt::default_layout(config), arena);
  const tt::ProgramSpec spec = tt::build_program_spec(tt::blackhole_core_map(), layout, options);
  // Everything is serialised before the first file is written, so a failure leaves no output.
  const std::string manifest = args.json_path.empty() ? "" : tt::manifest_json(spec).dump(1) + "\n";
  std::string descriptor;
  if (!args.descriptor_path.empty()) {
    const std::filesystem::path folder = std::filesystem::absolute(args.descriptor_path).parent_path();
    // the kernel source as a path from the descriptor's folder, so that the file runs where it lies
    const std::filesystem::path kernel = tt::dialect::megakernel_dir() / tt::dialect::kMegakernelSource;
    std::error_code ec;
    std::filesystem::path source = std::filesystem::relative(kernel, folder, ec);
    if (ec || source.empty()) source = std::filesystem::absolute(kernel);
    descriptor = tt::dialect::descriptor_json(tt::dialect::plan_descriptor(spec, source.string(), folder)).dump(1) + "\n";
  }
  print_plan(spec);
  if (!args.json_path.empty()) io::write_file_atomic(args.json_path, manifest);
  if (!args.descriptor_path.empty()) io::write_file_atomic(args.descriptor_path, descriptor);
}

}  // namespace

void add_plan(CLI::App& app) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* cmd = app.add_subcommand("plan", "plan the Blackhole megakernel (arena, core map, K1/K4 program) and check it");
  cmd->add_option("--version", args->version, "n15, n16 or n17")->capture_default_str();
  cmd->add_option("--variant", args->variant, "block, step or steps4")->capture_default_str();
  cmd->add_option("--kernel", args->kernel, "k1 or k4")->capture_default_str();
  cmd->add_option("--dtype", args->dtype, "stream weight dtype: bfp8_b or bf16")->capture_default_str();
  cmd->add_option("--protocol", args->protocol, "K4 data movement: seed (two hubs) or onehub (named arg k4_onehub)")
      ->capture_default_str();
  cmd->add_option("--n-blocks", args->n_blocks, "plan only the first N DiT blocks (default: all)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--cb-w-slots", args->cb_w_slots, "weight-ring depth in K-blocks (default 15 bfp8_b, 9/13 bf16)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--json", args->json_path, "write the manifest here");
  cmd->add_option("--descriptor", args->descriptor_path, "write the program as a ProgramDescriptor (docs/tt-dialect.md) here");
  cmd->callback([args] { run_plan(*args); });
}

}  // namespace ditmk::cli
