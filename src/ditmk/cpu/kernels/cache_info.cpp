#include "ditmk/cpu/kernels/cache_info.hpp"

#include <cpuid.h>
#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "ditmk/core/error.hpp"

namespace ditmk::cpu {
namespace {

std::optional<std::string> read_word(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string word;
  if (!(in >> word)) return std::nullopt;
  return word;
}

// sysfs writes sizes as "48K", "1024K", "32768K" (and "M" on some kernels).
std::optional<std::size_t> parse_sysfs_size(const std::string& text) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{}) return std::nullopt;
  const std::string_view unit(end, text.data() + text.size() - end);
  if (unit.empty()) return value;
  if (unit == "K") return value << 10;
  if (unit == "M") return value << 20;
  return std::nullopt;
}

}  // namespace

CacheSizes default_cache_sizes() { return {32 << 10, 512 << 10, 16 << 20, "default"}; }

std::optional<CacheSizes> read_sysfs_caches(const std::filesystem::path& cache_dir) {
  CacheSizes c;
  c.source = "sysfs";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(cache_dir, ec)) {
    if (entry.path().filename().string().rfind("index", 0) != 0) continue;
    const auto level = read_word(entry.path() / "level");
    const auto type = read_word(entry.path() / "type");
    const auto size_text = read_word(entry.path() / "size");
    if (!level || !type || !size_text || *type == "Instruction") continue;
    const auto size = parse_sysfs_size(*size_text);
    if (!size) continue;
    if (*level == "1" && *type == "Data") c.l1d = *size;
    else if (*level == "2") c.l2 = *size;
    else if (*level == "3") c.l3 = *size;
  }
  if (c.l1d == 0 || c.l2 == 0) return std::nullopt;
  return c;
}

std::size_t cpuid_cache_bytes(unsigned ebx, unsigned ecx) {
  const std::size_t line = (ebx & 0xfffu) + 1, partitions = ((ebx >> 12) & 0x3ffu) + 1, ways = (ebx >> 22) + 1;
  return ways * partitions * line * (std::size_t(ecx) + 1);
}

std::optional<CacheSizes> read_cpuid_caches() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return std::nullopt;
  const bool amd = ebx == 0x68747541u;  // "Auth"enticAMD
  unsigned leaf = 4;
  if (amd) {
    // 0x8000001D exists where CPUID 0x80000001 reports TopologyExtensions (ecx bit 22).
    if (!__get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx) || !((ecx >> 22) & 1u)) return std::nullopt;
    leaf = 0x8000001Du;
  } else if (eax < 4) {
    return std::nullopt;
  }
  CacheSizes c;
  c.source = "cpuid";
  for (unsigned sub = 0; sub < 16; ++sub) {
    if (!__get_cpuid_count(leaf, sub, &eax, &ebx, &ecx, &edx)) return std::nullopt;
    const unsigned type = eax & 0x1fu, level = (eax >> 5) & 0x7u;
    if (type == 0) break;  // no more caches
    if (type == 2) continue;  // instruction cache
    const std::size_t bytes = cpuid_cache_bytes(ebx, ecx);
    if (level == 1 && type == 1) c.l1d = bytes;
    else if (level == 2) c.l2 = bytes;
    else if (level == 3) c.l3 = bytes;
  }
  if (c.l1d == 0 || c.l2 == 0) return std::nullopt;
  return c;
}

CacheSizes parse_cache_sizes(std::string_view text) {
  std::vector<std::size_t> kib;
  const char* p = text.data();
  const char* end = text.data() + text.size();
  while (p < end) {
    std::size_t value = 0;
    const auto [next, ec] = std::from_chars(p, end, value);
    require(ec == std::errc{} && value < (std::size_t(1) << 30), "DITMK_CACHE_SIZES \"{}\" is not \"l1d,l2,l3\" in KiB",
            text);
    kib.push_back(value);
    p = next;
    if (p < end) {
      require(*p == ',', "DITMK_CACHE_SIZES \"{}\" is not \"l1d,l2,l3\" in KiB", text);
      ++p;
    }
  }
  require(kib.size() == 3 && kib[0] > 0 && kib[1] > 0, "DITMK_CACHE_SIZES \"{}\" is not \"l1d,l2,l3\" in KiB (l1d, l2 > 0)",
          text);
  return {kib[0] << 10, kib[1] << 10, kib[2] << 10, "DITMK_CACHE_SIZES"};
}

const CacheSizes& cache_sizes() {
  static const CacheSizes sizes = [] {
    if (const char* env = std::getenv("DITMK_CACHE_SIZES"); env != nullptr && *env != '\0') return parse_cache_sizes(env);
    if (auto c = read_sysfs_caches("/sys/devices/system/cpu/cpu0/cache")) return *c;
    if (auto c = read_cpuid_caches()) return *c;
    return default_cache_sizes();
  }();
  return sizes;
}

std::string describe(const CacheSizes& c) {
  return fmt::format("L1D {} KiB, L2 {} KiB, L3 {} KiB ({})", c.l1d >> 10, c.l2 >> 10, c.l3 >> 10, c.source);
}

}  // namespace ditmk::cpu
