#include "ditmk/tt/emu/l1_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "ditmk/core/error.hpp"
#include "ditmk/tt/emu/chip.hpp"

namespace ditmk::tt::emu {

namespace {

static_assert(kL1Bytes == 1536 * 1024);
// Window slots: 2 MiB apart from 1 GiB up, far below the heap and libraries of a 64-bit process and
// inside the range 32-bit kernel addresses can name. Each device takes the first free slot.
constexpr uint64_t kWindowFirst = 0x4000'0000;
constexpr uint64_t kWindowStride = 0x20'0000;
constexpr uint64_t kWindowSlots = 1024;

}  // namespace

L1Memory::L1Memory() {
  fd_ = memfd_create("ditmk-l1", MFD_CLOEXEC);
  require(fd_ >= 0, "cannot create the emulated L1: {}", std::strerror(errno));
  const std::size_t total = kCoreBytes * kNumCores;
  if (ftruncate(fd_, off_t(total)) != 0) {
    close(fd_);
    fail("cannot size the emulated L1: {}", std::strerror(errno));
  }
  void* all = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (all == MAP_FAILED) {
    close(fd_);
    fail("cannot map the emulated L1: {}", std::strerror(errno));
  }
  all_ = static_cast<std::byte*>(all);
}

L1Memory::~L1Memory() {
  if (window_base_) munmap(reinterpret_cast<void*>(uintptr_t(window_base_)), kCoreBytes);
  munmap(all_, kCoreBytes * kNumCores);
  close(fd_);
}

void L1Memory::show(uint32_t index) {
  if (int(index) == shown_) return;
  if (!window_base_) {
    for (uint64_t slot = 0; slot < kWindowSlots && !window_base_; ++slot) {
      void* want = reinterpret_cast<void*>(uintptr_t(kWindowFirst + slot * kWindowStride));
      void* got = mmap(want, kCoreBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
      if (got == want) window_base_ = uint32_t(uintptr_t(got));
      else if (got != MAP_FAILED) munmap(got, kCoreBytes);  // a kernel without MAP_FIXED_NOREPLACE
    }
    require(window_base_ != 0, "cannot place the L1 window below 4 GiB for kernel pointers");
  }
  void* window = reinterpret_cast<void*>(uintptr_t(window_base_));
  void* got = mmap(window, kCoreBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_,
                   off_t(std::size_t(index) * kCoreBytes));
  require(got == window, "cannot map core {}'s L1 at the window: {}", index, std::strerror(errno));
  shown_ = int(index);
}

}  // namespace ditmk::tt::emu
