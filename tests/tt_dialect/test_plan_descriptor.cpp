// plan -> descriptor -> the program the emulator runs: the megakernel's ProgramSpec written as a
// ProgramDescriptor (dialect::plan_descriptor), through its JSON and parse_descriptor, is the program
// the plan describes (emu::program_from_plan): on every core the same CBs (id, size, page, format and
// the L1 address tt-metal's placement gives them), the same semaphores, the reader / writer /
// compute kernels with the plan's named compile-time args and role flags, its common and per-core
// runtime args (the io addresses as address_of the io tensors) and its compute config; the
// L1-sharded io tensors lie at cb_x and cb_a. K1 and K4, every version and stream format.
#include <algorithm>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/tt/program/descriptor_json.hpp"
#include "ditmk/tt/program/plan_descriptor.hpp"
#include "ditmk/tt/emu/from_plan.hpp"
#include "ditmk/tt/plan/io_tensors.hpp"
#include "tt_plan/plan_fixture.hpp"

namespace ditmk::tt::dialect {
namespace {

const std::filesystem::path kSourceDir = ditmk::build::source_dir();

struct Case {
  model::Version version;
  TileFormat dtype;
  Kernel kernel;
  Variant variant = Variant::steps4;
  std::string name() const {
    return fmt::format("{} {} {} {}", model::version_name(version), tile_format_name(dtype), kernel_name(kernel),
                       variant_name(variant));
  }
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (model::Version version : {model::Version::n15, model::Version::n16, model::Version::n17})
    for (TileFormat dtype : {TileFormat::bf16, TileFormat::bfp8_b})
      for (Kernel kernel : {Kernel::k1, Kernel::k4}) out.push_back({version, dtype, kernel});
  out.push_back({model::Version::n16, TileFormat::bfp8_b, Kernel::k4, Variant::block});
  out.push_back({model::Version::n15, TileFormat::bf16, Kernel::k4, Variant::step});
  return out;
}

ProgramSpec spec_of(const Case& c) {
  ProgramOptions options;
  options.kernel = c.kernel;
  return build_program_spec(blackhole_core_map(), tt::testing::layout_of(c.version, c.variant, c.dtype), options);
}

// The descriptor as a file would hold it: written, then read back.
ProgramDescriptor round_trip(const ProgramSpec& spec) {
  const ProgramDescriptor written = plan_descriptor(spec, spec.kernel_source, kSourceDir);
  return parse_descriptor_text(descriptor_json(written).dump(1), kSourceDir / "program.json");
}

bool covers(const CoreRangeSet& ranges, emu::CoreCoord core) {
  for (emu::CoreCoord c : cores_of(ranges))
    if (c == core) return true;
  return false;
}

TEST(PlanDescriptor, WritingAndReadingGivesTheSameDescriptor) {
  for (const Case& c : cases()) {
    const ProgramSpec spec = spec_of(c);
    const ProgramDescriptor written = plan_descriptor(spec, spec.kernel_source, kSourceDir);
    const ProgramDescriptor read = round_trip(spec);
    EXPECT_EQ(descriptor_json(read), descriptor_json(written)) << c.name();
    EXPECT_EQ(read.kernels.front().source_path, kSourceDir / spec.kernel_source) << c.name();
  }
}

TEST(PlanDescriptor, IsTheProgramThePlanDescribes) {
  int checked_cores = 0;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name());
    const ProgramSpec spec = spec_of(c);
    const ProgramDescriptor d = round_trip(spec);
    const L1Layout l1 = l1_layout(d);
    const emu::Program plan = emu::program_from_plan(spec, [] {});
    ASSERT_EQ(plan.kernels.size(), 1u);
    const emu::KernelBinding& unified = plan.kernels.front();
    for (emu::CoreCoord core : plan.cores) {
      const std::string where = emu::core_name(core);
      // CBs: the plan's on this core, one for one
      std::size_t descriptor_cbs = 0;
      for (std::size_t i = 0; i < d.cbs.size(); ++i) descriptor_cbs += covers(d.cbs[i].core_ranges, core);
      std::size_t plan_cbs = 0;
      for (const emu::CbConfig& cb : plan.cbs) {
        if (cb.cores.count(core) == 0) continue;
        ++plan_cbs;
        int found = 0;
        for (std::size_t i = 0; i < d.cbs.size(); ++i) {
          const CBDescriptor& dcb = d.cbs[i];
          if (!covers(dcb.core_ranges, core) || dcb.format_descriptors.front().buffer_index != cb.id) continue;
          ++found;
          EXPECT_EQ(dcb.total_size, cb.total_bytes) << cb.name << " on " << where;
          EXPECT_EQ(dcb.format_descriptors.front().page_size, cb.page_bytes) << cb.name << " on " << where;
          EXPECT_EQ(dcb.format_descriptors.front().data_format, data_format_of(cb.format)) << cb.name;
          EXPECT_EQ(l1.cb_addresses[i], cb.address) << cb.name << " on " << where;
          EXPECT_EQ(!dcb.tensor.empty(), cb.tensor_backed) << cb.name;
          if (!dcb.tensor.empty()) {
            EXPECT_EQ(l1.shard_addresses.at(dcb.tensor), cb.address) << cb.name;
          }
        }
        EXPECT_EQ(found, 1) << cb.name << " on " << where;
      }
      EXPECT_EQ(descriptor_cbs, plan_cbs) << where;
      // semaphores: every plan semaphore on every core, with its initial value
      for (const emu::SemaphoreConfig& sem : plan.semaphores) {
        int found = 0;
        for (const SemaphoreDescriptor& s : d.semaphores) {
          if (s.id != sem.id || !covers(s.core_ranges, core)) continue;
          ++found;
          EXPECT_EQ(s.initial_value, sem.initial_value) << sem.name;
        }
        EXPECT_EQ(found, 1) << sem.name << " on " << where;
      }
      // kernels: a reader, a writer and a compute kernel with the unified kernel's args
      std::vector<emu::Processor> processors;
      for (const KernelDescriptor& k : d.kernels) {
        if (!covers(k.core_ranges, core)) continue;
        const bool reader = k.config.type == KernelType::reader, writer = k.config.type == KernelType::writer;
        processors.push_back(reader ? emu::Processor::ncrisc : writer ? emu::Processor::brisc : emu::Processor::trisc);
        std::map<std::string, uint32_t> named(k.named_compile_time_args.begin(), k.named_compile_time_args.end());
        ASSERT_EQ(named.size(), k.named_compile_time_args.size()) << "a named arg twice";
        std::map<std::string, uint32_t> expected = unified.named_args;
        for (const emu::RoleFlag& flag : unified.role_flags) expected[flag.name] = flag.cores.count(core);
        EXPECT_EQ(named, expected) << where;
        ASSERT_EQ(k.common_runtime_args.size(), unified.common_args.size());
        for (std::size_t i = 0; i < k.common_runtime_args.size(); ++i) {
          const ArgValue& arg = k.common_runtime_args[i];
          if (arg.address_of.empty()) EXPECT_EQ(arg.value, unified.common_args[i]) << spec.common_rt_names[i];
          else EXPECT_EQ("addr_" + arg.address_of, spec.common_rt_names[i]);
        }
        std::vector<uint32_t> per_core;
        for (const CoreArgs& args : k.runtime_args)
          if (args.core == core)
            for (const ArgValue& arg : args.args) per_core.push_back(arg.value);
        EXPECT_EQ(per_core, unified.core_args.at(core)) << where;
        if (k.config.type == KernelType::compute) {
          EXPECT_EQ(uint32_t(k.config.math_fidelity) + 1, uint32_t(unified.math_fidelity));
          EXPECT_TRUE(k.config.fp32_dest_acc_en);
          for (int cb : spec.unpack_to_dest_fp32_cbs)
            EXPECT_EQ(k.config.unpack_to_dest_mode.at(uint32_t(cb)), UnpackToDestMode::fp32);
        }
      }
      std::sort(processors.begin(), processors.end());
      EXPECT_EQ(processors, (std::vector<emu::Processor>{emu::Processor::ncrisc, emu::Processor::brisc,
                                                         emu::Processor::trisc}))
          << where;
      ++checked_cores;
    }
  }
  EXPECT_EQ(checked_cores, int(cases().size()) * 110);
}

// Every io slot the program reads or writes is a tensor, with the bytes its CB or its DRAM image
// holds, and address_of names exactly the slots the common args address.
TEST(PlanDescriptor, ListsTheIoTensors) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name());
    const ProgramSpec spec = spec_of(c);
    const ProgramDescriptor d = round_trip(spec);
    std::vector<std::string> expected, listed;
    for (const IoSlot& slot : spec.io)
      if (io_present(spec, slot)) expected.push_back(slot.name);
    for (const TensorDescriptor& t : d.tensors) listed.push_back(t.name);
    EXPECT_EQ(listed, expected);
    EXPECT_EQ(d.tensor("x_rep")->shard_size, spec.cb("cb_x").total_bytes);
    EXPECT_EQ(d.tensor("a_rep")->shard_size, spec.cb("cb_a").total_bytes);
    EXPECT_EQ(d.tensor("arena_stream")->bytes(), spec.layout.arena_bank_bytes[0] * kDramBanks);
    EXPECT_EQ(d.tensor("arena_stream")->data_format, data_format_of(c.dtype));
    EXPECT_EQ(d.tensor(spec.output_slot)->name, d.tensors.back().name);  // generic_op returns the last
  }
}

}  // namespace
}  // namespace ditmk::tt::dialect
