#pragma once
// The L1 of every core of one emulated chip: one shared-memory file, mapped once for the emulator
// (all cores side by side) and, for kernels that dereference L1 addresses, once more through a
// window below 4 GiB that shows the running core's L1 (l1_window.hpp). Pages are materialised only
// where a program touches them.
#include <cstddef>
#include <cstdint>

namespace ditmk::tt::emu {

class L1Memory {
 public:
  L1Memory();
  ~L1Memory();
  L1Memory(const L1Memory&) = delete;
  L1Memory& operator=(const L1Memory&) = delete;

  std::byte* core(uint32_t index) { return all_ + std::size_t(index) * kCoreBytes; }
  const std::byte* core(uint32_t index) const { return all_ + std::size_t(index) * kCoreBytes; }

  // The window's base address (0 until the first show()).
  uint32_t window_base() const { return window_base_; }
  // Maps core `index`'s L1 at the window; free when it already shows that core.
  void show(uint32_t index);

 private:
  static constexpr std::size_t kCoreBytes = 1536 * 1024;
  int fd_ = -1;
  std::byte* all_ = nullptr;
  uint32_t window_base_ = 0;
  int shown_ = -1;
};

}  // namespace ditmk::tt::emu
