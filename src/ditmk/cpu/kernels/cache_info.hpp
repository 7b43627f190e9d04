#pragma once
// The data cache sizes the GEMM blocking is derived from (gemm_blocking.hpp), detected once at run
// time: Linux's /sys/devices/system/cpu/cpu0/cache first (what the kernel read from the CPU, and the
// only source a hypervisor cannot make disagree with the OS's view), CPUID's deterministic cache
// leaves where sysfs is missing (0x8000001D on AMD, 4 on Intel), and conservative defaults when
// neither answers. DITMK_CACHE_SIZES="l1d,l2,l3" in KiB overrides the detection, to derive the
// blocking of another machine on this one.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ditmk::cpu {

struct CacheSizes {
  std::size_t l1d = 0;  // bytes, one core's level-1 data cache
  std::size_t l2 = 0;   // bytes, the level-2 cache one core sees
  std::size_t l3 = 0;   // bytes, the whole last level (0: none)
  std::string source;   // "sysfs", "cpuid", "default" or "DITMK_CACHE_SIZES"
  bool operator==(const CacheSizes& o) const { return l1d == o.l1d && l2 == o.l2 && l3 == o.l3; }
};

// Sizes of a CPU with 32 KiB L1D, 512 KiB L2 and 16 MiB L3: no larger than any x86 CPU with AVX2.
CacheSizes default_cache_sizes();

// The data and unified caches described under a sysfs cache directory (index*/level, type, size);
// nullopt when it holds no level-1 data or level-2 cache.
std::optional<CacheSizes> read_sysfs_caches(const std::filesystem::path& cache_dir);

// Bytes of the cache one CPUID deterministic-cache subleaf describes (leaf 4 and 0x8000001D share the
// layout): ways x partitions x line size x sets, each field stored minus one.
std::size_t cpuid_cache_bytes(unsigned ebx, unsigned ecx);
// The caches CPUID reports on this CPU (0x8000001D where the vendor is AMD, else 4); nullopt when
// the leaf is missing.
std::optional<CacheSizes> read_cpuid_caches();

// "l1d,l2,l3" in KiB (l3 may be 0); throws ditmk::Error naming DITMK_CACHE_SIZES when malformed.
CacheSizes parse_cache_sizes(std::string_view text);

// Detected once: DITMK_CACHE_SIZES, else sysfs, else CPUID, else default_cache_sizes().
const CacheSizes& cache_sizes();
// One line for reports: "L1D 48 KiB, L2 1024 KiB, L3 32768 KiB (sysfs)".
std::string describe(const CacheSizes& c);

}  // namespace ditmk::cpu
