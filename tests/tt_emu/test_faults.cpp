// Every fault class, each from a deliberately broken small program.
#include <gtest/gtest.h>

#include "small_program.hpp"

namespace ditmk::tt::emu {
namespace {

using testing::SmallProgram;

Fault only_fault(const LaunchReport& report) {
  EXPECT_EQ(report.faults.size(), 1u);
  return report.faults.at(0);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// NCRISC fills one page with data, TRISC waits for two.
TEST(Faults, DeadlockNamesTheCbWaitAndItsState) {
  SmallProgram p(1, [] {
    if (current_processor() == Processor::ncrisc) {
      cb_reserve_back(0, 1);
      const std::vector<std::byte> tile = testing::random_bytes(1, testing::kBf16Tile);
      l1_write(get_write_ptr(0), tile.data(), testing::kBf16Tile);
      cb_push_back(0, 1);
    } else if (current_processor() == Processor::trisc) {
      cb_wait_front(0, 2);
    }
  });
  p.cb("cb_in", 0, 4);
  const Fault fault = only_fault(testing::run(p.program));
  EXPECT_EQ(fault.kind, FaultKind::deadlock);
  ASSERT_EQ(fault.waiters.size(), 1u);
  EXPECT_TRUE(contains(fault.waiters[0], "core (0,0) TRISC")) << fault.waiters[0];
  EXPECT_TRUE(contains(fault.waiters[0], "cb_wait_front(cb 'cb_in' #0, 2)")) << fault.waiters[0];
  EXPECT_TRUE(contains(fault.waiters[0], "1 of 4 pages filled")) << fault.waiters[0];
}

// Core 0 waits for two increments, core 1 sends one.
TEST(Faults, DeadlockNamesTheSemaphoreAndItsValue) {
  SmallProgram p(2, [] {
    if (current_processor() != Processor::brisc) return;
    if (my_core().x == 0) noc_semaphore_wait(get_semaphore(2), 2);
    else noc_semaphore_inc(get_noc_addr(0, 0, get_semaphore(2)), 1);
  });
  p.semaphore("sem_kv", 2);
  const Fault fault = only_fault(testing::run(p.program));
  EXPECT_EQ(fault.kind, FaultKind::deadlock);
  ASSERT_EQ(fault.waiters.size(), 1u);
  EXPECT_TRUE(contains(fault.waiters[0], "core (0,0) BRISC")) << fault.waiters[0];
  EXPECT_TRUE(contains(fault.waiters[0], "semaphore 'sem_kv' #2 == 2): value 1")) << fault.waiters[0];
}

TEST(Faults, PushWithoutRoomIsAnOverflow) {
  SmallProgram p(1, [] {
    if (current_processor() != Processor::ncrisc) return;
    const std::vector<std::byte> tile = testing::random_bytes(2, testing::kBf16Tile);
    for (int i = 0; i < 3; ++i) {  // nobody pops: the third push has no free page
      l1_write(get_write_ptr(0), tile.data(), testing::kBf16Tile);
      cb_push_back(0, 1);
    }
  });
  p.cb("cb_ring", 0, 2);
  const Fault fault = only_fault(testing::run(p.program));
  EXPECT_EQ(fault.kind, FaultKind::cb_overflow);
  EXPECT_TRUE(contains(fault.message, "cb_push_back(cb 'cb_ring' #0, 1): only 0 pages are free")) << fault.message;
}

TEST(Faults, ReservationLargerThanTheCbIsAnOverflow) {
  SmallProgram p(1, [] {
    if (current_processor() == Processor::ncrisc) cb_reserve_back(0, 5);
  });
  p.cb("cb_w", 0, 4);
  const Fault fault = only_fault(testing::run(p.program));
  EXPECT_EQ(fault.kind, FaultKind::cb_overflow);
  EXPECT_EQ(fault.where, "core (0,0) NCRISC");
}

TEST(Faults, PopBeyondTheFilledPagesIsAnUnderflow) {
  SmallProgram p(1, [] {
    if (current_processor() == Processor::ncrisc) {
      cb_reserve_back(0, 1);
      const std::vector<std::byte> tile = testing::random_bytes(3, testing::kBf16Tile);
      l1_write(get_write_ptr(0), tile.data(), testing::kBf16Tile);
      cb_push_back(0, 1);
    } else if (current_processor() == Processor::trisc) {
      cb_wait_front(0, 1);
      cb_pop_front(0, 2);
    }
  });
  p.cb("cb_in", 0, 4);
  const Fault fault = only_fault(testing::run(p.program));
  EXPECT_EQ(fault.kind, FaultKind::cb_underflow);
  EXPECT_TRUE(contains(fault.message, "only 1 pages are filled")) << fault.message;
}

// The producer pushes a page it never wrote.
TEST(Faults, ReadingAPushedButUnwrittenPageIsCaught) {
  SmallProgram p(1, [] {
    if (current_processor() == Processor::ncrisc) {
      cb_reserve_back(0, 1);
      cb_push_back(0, 1);
    } else if (current_processor() == Processor::trisc) {
      cb_wait_front(0, 1);
      tile_regs_acquire();
      copy_tile(0, 0, 0);
    }
  });
  p.cb("cb_in", 0, 2);
  const Fault fault = only_fault(testing::run(p.program));
  EXPECT_EQ(fault.kind, FaultKind::unwritten_read);
  EXPECT_EQ(fault.where, "core (0,0) TRISC");
  EXPECT_TRUE(contains(fault.message, "CB 'cb_in' #0")) << fault.message;
}

// The producer pushes before its read barrier: the data has not landed when TRISC reads it.
TEST(Faults, PushBeforeTheReadBarrierIsCaught) {
  Device device;
  const DramBuffer& buffer = device.allocate_interleaved("x", TileFormat::bf16, testing::kBf16Tile, testing::kBf16Tile);
  device.write_buffer(buffer, testing::random_bytes(4, testing::kBf16Tile));
  const uint32_t address = buffer.address;
  SmallProgram p(1, [address] {
    if (current_processor() == Processor::ncrisc) {
      cb_reserve_back(0, 1);
      noc_async_read(InterleavedAddrGen{address, testing::kBf16Tile}.get_noc_addr(0), get_write_ptr(0),
                     testing::kBf16Tile);
      cb_push_back(0, 1);
      noc_semaphore_wait(get_semaphore(0), 1);  // block before the kernel (and its reads) finish
    } else if (current_processor() == Processor::trisc) {
      cb_wait_front(0, 1);
      tile_regs_acquire();
      copy_tile(0, 0, 0);
    }
  });
  p.cb("cb_in", 0, 2);
  p.semaphore("sem_never", 0);
  device.load(p.program);
  const Fault fault = only_fault(device.launch());
  EXPECT_EQ(fault.kind, FaultKind::unwritten_read);
  EXPECT_EQ(fault.where, "core (0,0) TRISC");
}

// A 96 B page is allocated as 128 B (DRAM's 64 B alignment); reading the whole 128 B block reads
// 32 B no one wrote. Silicon allows it (embedding's index reader does it): a warning by default, a
// fault when strict. An unwritten byte inside the page itself stays a fault.
LaunchReport read_aligned_block(bool strict, bool write_page) {
  constexpr uint32_t kPage = 96, kBlock = 128;
  Device device;
  device.set_strict(strict);
  const DramBuffer& buffer = device.allocate_interleaved("indices", TileFormat::bf16, kPage, kPage);
  if (write_page) device.write_buffer(buffer, testing::random_bytes(6, kPage));
  const uint32_t address = buffer.address;
  SmallProgram p(1, [address] {
    if (current_processor() == Processor::ncrisc) {
      cb_reserve_back(0, 1);
      noc_async_read(InterleavedAddrGen{address, kPage}.get_noc_addr(0), get_write_ptr(0), kBlock);
      noc_async_read_barrier();
      cb_push_back(0, 1);
    }
  });
  p.cb("cb_in", 0, 2);
  device.load(p.program);
  return device.launch();
}

TEST(Faults, ReadingADramPagesAlignmentPaddingWarnsAndFaultsWhenStrict) {
  const LaunchReport relaxed = read_aligned_block(false, true);
  ASSERT_TRUE(relaxed.clean()) << relaxed.faults.at(0).message;
  ASSERT_EQ(relaxed.warnings.size(), 1u);
  EXPECT_TRUE(contains(relaxed.warnings[0], "alignment padding of DRAM buffer 'indices'")) << relaxed.warnings[0];
  const Fault fault = only_fault(read_aligned_block(true, true));
  EXPECT_EQ(fault.kind, FaultKind::unwritten_read);
  EXPECT_TRUE(contains(fault.message, "(alignment padding; strict)")) << fault.message;
  const Fault data = only_fault(read_aligned_block(false, false));  // the page itself was never written
  EXPECT_EQ(data.kind, FaultKind::unwritten_read);
  EXPECT_FALSE(contains(data.message, "alignment padding")) << data.message;
}

// Launch 1 fills the CB; launch 2 pushes without writing: the stale bytes are not taken as data.
TEST(Faults, StaleDataFromAnEarlierLaunchIsNotData) {
  static bool write_data = true;
  SmallProgram p(1, [] {
    if (current_processor() == Processor::ncrisc) {
      cb_reserve_back(0, 1);
      if (write_data) {
        const std::vector<std::byte> tile = testing::random_bytes(5, testing::kBf16Tile);
        l1_write(get_write_ptr(0), tile.data(), testing::kBf16Tile);
      }
      cb_push_back(0, 1);
    } else if (current_processor() == Processor::trisc) {
      cb_wait_front(0, 1);
      tile_regs_acquire();
      copy_tile(0, 0, 0);
      tile_regs_commit();
      tile_regs_wait();
      tile_regs_release();
      cb_pop_front(0, 1);
    }
  });
  p.cb("cb_in", 0, 2);
  Device device;
  device.load(p.program);
  write_data = true;
  EXPECT_TRUE(device.launch().clean());
  write_data = false;
  EXPECT_EQ(only_fault(device.launch()).kind, FaultKind::unwritten_read);
}

TEST(Faults, L1AccessOutsideTheRegionsIsOutOfBounds) {
  SmallProgram p(2, [] {
    if (current_processor() != Processor::brisc || my_core().x != 0) return;
    const std::vector<std::byte> tile = testing::random_bytes(6, testing::kBf16Tile);
    l1_write(get_write_ptr(0), tile.data(), testing::kBf16Tile);
    // one byte past the end of core 1's CB
    noc_async_write(get_write_ptr(0), get_noc_addr(1, 0, get_write_ptr(0) + 1), testing::kBf16Tile);
  });
  p.cb("cb_out", 0, 1);
  const Fault fault = only_fault(testing::run(p.program));
  EXPECT_EQ(fault.kind, FaultKind::out_of_bounds);
  EXPECT_TRUE(contains(fault.message, "core (1,0)")) << fault.message;
}

TEST(Faults, DramAccessOutsideTheBufferIsOutOfBounds) {
  Device device;
  // 3 pages: bank 3 holds none of them
  const DramBuffer& buffer = device.allocate_interleaved("small", TileFormat::bf16, 3 * 1024, 1024);
  device.write_buffer(buffer, testing::random_bytes(7, 3 * 1024));
  const uint32_t address = buffer.address;
  SmallProgram p(1, [address] {
    if (current_processor() != Processor::ncrisc) return;
    cb_reserve_back(0, 1);
    noc_async_read(InterleavedAddrGen{address, 1024}.get_noc_addr(3), get_write_ptr(0), 1024);
  });
  p.cb("cb_in", 0, 1);
  device.load(p.program);
  const Fault fault = only_fault(device.launch());
  EXPECT_EQ(fault.kind, FaultKind::out_of_bounds);
  EXPECT_TRUE(contains(fault.message, "DRAM bank 3")) << fault.message;
}

TEST(Faults, MulticastToACoreWithoutTheCbIsCaught) {
  SmallProgram p(3, [] {
    if (current_processor() != Processor::brisc || my_core().x != 0) return;
    const std::vector<std::byte> tile = testing::random_bytes(8, testing::kBf16Tile);
    l1_write(get_write_ptr(0), tile.data(), testing::kBf16Tile);
    noc_async_write_multicast(get_write_ptr(0), get_noc_multicast_addr(0, 0, 2, 0, get_write_ptr(0)),
                              testing::kBf16Tile, 2);
  });
  p.cb("cb_a", 0, 1, TileFormat::bf16, {{0, 0}, {1, 0}});  // core (2,0) lacks it
  const Fault fault = only_fault(testing::run(p.program));
  EXPECT_EQ(fault.kind, FaultKind::multicast_target);
  EXPECT_TRUE(contains(fault.message, "core (2,0)")) << fault.message;
}

TEST(Faults, MulticastWithTheWrongDestinationCountIsCaught) {
  SmallProgram p(3, [] {
    if (current_processor() != Processor::brisc || my_core().x != 0) return;
    const std::vector<std::byte> tile = testing::random_bytes(9, testing::kBf16Tile);
    l1_write(get_write_ptr(0), tile.data(), testing::kBf16Tile);
    noc_async_write_multicast(get_write_ptr(0), get_noc_multicast_addr(0, 0, 2, 0, get_write_ptr(0)),
                              testing::kBf16Tile, 3);  // the sender is not a destination
  });
  p.cb("cb_a", 0, 1);
  const Fault fault = only_fault(testing::run(p.program));
  EXPECT_EQ(fault.kind, FaultKind::multicast_target);
  EXPECT_TRUE(contains(fault.message, "num_dests 3")) << fault.message;
}

TEST(Faults, MissingArgsAreNamed) {
  struct Case {
    Kernel kernel;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {[] { get_arg_val(2); }, "get_arg_val(2): core (0,0) has 2 runtime args"},
      {[] { get_common_arg_val(1); }, "get_common_arg_val(1): the kernel has 1 common runtime args"},
      {[] { get_named_compile_time_arg_val("n_heads"); }, "get_named_compile_time_arg_val(\"n_heads\")"},
      {[] { get_semaphore(7); }, "get_semaphore(7)"},
  };
  for (const Case& c : cases) {
    SmallProgram p(1, c.kernel);
    p.kernel().core_args[{0, 0}] = {17, 0xFFFF};
    p.kernel().common_args = {4096};
    p.kernel().named_args = {{"n_blocks", 16}};
    const Fault fault = only_fault(testing::run(p.program));
    EXPECT_EQ(fault.kind, FaultKind::missing_arg);
    EXPECT_TRUE(contains(fault.message, c.expected)) << fault.message;
  }
}

TEST(Faults, ComputeCallOnADataflowProcessorIsABadCall) {
  SmallProgram p(1, [] {
    if (current_processor() == Processor::brisc) tile_regs_acquire();
  });
  const Fault fault = only_fault(testing::run(p.program));
  EXPECT_EQ(fault.kind, FaultKind::bad_call);
  EXPECT_EQ(fault.where, "core (0,0) BRISC");
}

TEST(Faults, SemaphoresAreReinitialisedEveryLaunch) {
  SmallProgram p(1, [] {
    if (current_processor() != Processor::ncrisc) return;
    noc_semaphore_inc(get_noc_addr(0, 0, get_semaphore(0)), 1);
    noc_semaphore_wait(get_semaphore(0), 4);  // initial 3 + 1, in every launch
  });
  p.semaphore("sem_w", 0, 3);
  Device device;
  device.load(p.program);
  for (int launch = 0; launch < 3; ++launch) EXPECT_TRUE(device.launch().clean()) << launch;
}

}  // namespace
}  // namespace ditmk::tt::emu
