#include "ditmk/cpu/kernels/isa.hpp"

#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "ditmk/core/error.hpp"

namespace ditmk::cpu {
namespace {

struct CpuidRegs {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

CpuidRegs cpuid(unsigned leaf, unsigned subleaf) {
  CpuidRegs r;
  if (!__get_cpuid_count(leaf, subleaf, &r.eax, &r.ebx, &r.ecx, &r.edx)) return {};
  return r;
}

bool bit(unsigned value, int index) { return (value >> index) & 1u; }

}  // namespace

std::string cpu_identity() {
  const CpuidRegs vendor = cpuid(0, 0), leaf1 = cpuid(1, 0), leaf7 = cpuid(7, 0), leaf7_1 = cpuid(7, 1);
  char name[13] = {};
  std::memcpy(name, &vendor.ebx, 4), std::memcpy(name + 4, &vendor.edx, 4), std::memcpy(name + 8, &vendor.ecx, 4);
  const unsigned base_family = (leaf1.eax >> 8) & 0xf, base_model = (leaf1.eax >> 4) & 0xf;
  const unsigned family = base_family + (base_family == 0xf ? (leaf1.eax >> 20) & 0xff : 0);
  const unsigned model = base_model + (base_family == 0x6 || base_family == 0xf ? ((leaf1.eax >> 16) & 0xf) << 4 : 0);
  return fmt::format("{} family {} model {} stepping {}; features {:08x} {:08x} {:08x} {:08x} {:08x} {:08x}", name,
                     family, model, leaf1.eax & 0xf, leaf1.ecx, leaf1.edx, leaf7.ebx, leaf7.ecx, leaf7.edx, leaf7_1.eax);
}

namespace {

uint64_t read_xcr0() {
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (uint64_t(hi) << 32) | lo;
}

// Linux keeps AMX tile data off until a process asks for it; without the grant the first tile
// instruction faults, so a refusal means "no AMX" rather than an error.
bool request_amx_permission() {
  constexpr int kArchReqXcompPerm = 0x1023;
  constexpr int kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
}

struct VnniSupport {
  bool avx512 = false, avx = false;
};

VnniSupport detect_vnni() {
  const CpuidRegs leaf1 = cpuid(1, 0);
  if (!bit(leaf1.ecx, 27)) return {};
  const uint64_t xcr0 = read_xcr0();
  const bool os_ymm = (xcr0 & 0x6) == 0x6;
  const bool os_zmm = (xcr0 & 0xe6) == 0xe6;
  const CpuidRegs leaf7 = cpuid(7, 0);
  const CpuidRegs leaf7_1 = cpuid(7, 1);
  const bool avx512f_bw_vl = bit(leaf7.ebx, 16) && bit(leaf7.ebx, 30) && bit(leaf7.ebx, 31);
  return {.avx512 = os_zmm && avx512f_bw_vl && bit(leaf7.ecx, 11),  // AVX512_VNNI
          .avx = os_ymm && bit(leaf7.ebx, 5) && bit(leaf7_1.eax, 4)};  // AVX2 + AVX_VNNI
}

const VnniSupport& vnni_support() {
  static const VnniSupport support = detect_vnni();
  return support;
}

Isa detect() {
  const CpuidRegs leaf1 = cpuid(1, 0);
  if (!bit(leaf1.ecx, 27)) return Isa::portable;  // OSXSAVE: xgetbv is usable
  const uint64_t xcr0 = read_xcr0();
  const bool os_ymm = (xcr0 & 0x6) == 0x6;
  const bool os_zmm = (xcr0 & 0xe6) == 0xe6;
  const bool os_tiles = (xcr0 & 0x60000) == 0x60000;
  const CpuidRegs leaf7 = cpuid(7, 0);
  const CpuidRegs leaf7_1 = cpuid(7, 1);
  const bool avx2 = bit(leaf7.ebx, 5) && bit(leaf1.ecx, 12) && bit(leaf1.ecx, 28) && bit(leaf1.ecx, 29);
  const bool avx512f = bit(leaf7.ebx, 16) && bit(leaf7.ebx, 17) && bit(leaf7.ebx, 30) && bit(leaf7.ebx, 31);  // F, DQ, BW, VL
  const bool avx512_bf16 = bit(leaf7_1.eax, 5);
  const bool amx = bit(leaf7.edx, 24) && bit(leaf7.edx, 22);  // AMX-TILE, AMX-BF16
  if (!(avx2 && os_ymm)) return Isa::portable;
  if (!(avx512f && os_zmm)) return Isa::avx2;
  if (!avx512_bf16) return Isa::avx512f;
  if (!(amx && os_tiles && request_amx_permission())) return Isa::avx512_bf16;
  return Isa::amx_bf16;
}

Isa environment_limit() {
  const char* value = std::getenv("DITMK_ISA");
  if (value == nullptr || *value == '\0') return Isa::amx_bf16;
  try {
    return parse_isa(value);
  } catch (const Error&) {
    fail("DITMK_ISA: unknown instruction set '{}' (portable, avx2, avx512f, avx512, amx)", value);
  }
}

std::atomic<int> g_limit{int(Isa::amx_bf16)};

}  // namespace

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::portable: return "portable";
    case Isa::avx2: return "avx2";
    case Isa::avx512f: return "avx512f";
    case Isa::avx512_bf16: return "avx512";
    case Isa::amx_bf16: return "amx";
  }
  return "unknown";
}

std::vector<std::string> isa_names() {
  std::vector<std::string> names;
  for (Isa isa : {Isa::portable, Isa::avx2, Isa::avx512f, Isa::avx512_bf16, Isa::amx_bf16}) names.emplace_back(isa_name(isa));
  return names;
}

Isa parse_isa(std::string_view name) {
  for (Isa isa : {Isa::portable, Isa::avx2, Isa::avx512f, Isa::avx512_bf16, Isa::amx_bf16})
    if (name == isa_name(isa)) return isa;
  fail("isa: unknown instruction set '{}' (portable, avx2, avx512f, avx512, amx)", name);
}

Isa detected_isa() {
  static const Isa detected = detect();
  return detected;
}

bool has_avx512_vnni() { return vnni_support().avx512; }
bool has_avx_vnni() { return vnni_support().avx; }

bool int8_dot_supported(Int8Dot dot) {
  switch (dot) {
    case Int8Dot::portable: return true;
    case Int8Dot::avx2: return isa_supported(Isa::avx2);
    case Int8Dot::avx_vnni: return isa_supported(Isa::avx2) && has_avx_vnni();
    case Int8Dot::avx512_vnni: return isa_supported(Isa::avx512f) && has_avx512_vnni();
  }
  return false;
}

Int8Dot int8_dot_for(Isa isa) {
  if (isa >= Isa::avx512f && isa_supported(isa) && int8_dot_supported(Int8Dot::avx512_vnni)) return Int8Dot::avx512_vnni;
  for (Int8Dot dot : {Int8Dot::avx_vnni, Int8Dot::avx2})
    if (isa >= Isa::avx2 && int8_dot_supported(dot)) return dot;
  return Int8Dot::portable;
}

std::vector<Int8Dot> supported_int8_dots() {
  std::vector<Int8Dot> dots;
  for (Int8Dot dot : {Int8Dot::portable, Int8Dot::avx2, Int8Dot::avx_vnni, Int8Dot::avx512_vnni})
    if (int8_dot_supported(dot)) dots.push_back(dot);
  return dots;
}

std::string_view int8_dot_name(Int8Dot dot) {
  switch (dot) {
    case Int8Dot::portable: return "portable";
    case Int8Dot::avx2: return "avx2";
    case Int8Dot::avx_vnni: return "avx-vnni";
    case Int8Dot::avx512_vnni: return "avx512-vnni";
  }
  return "unknown";
}

bool isa_supported(Isa isa) { return int(isa) <= int(detected_isa()); }

std::vector<Isa> supported_isas() {
  std::vector<Isa> isas;
  for (Isa isa : {Isa::portable, Isa::avx2, Isa::avx512f, Isa::avx512_bf16, Isa::amx_bf16})
    if (isa_supported(isa)) isas.push_back(isa);
  return isas;
}

Isa selected_isa() {
  static const Isa from_environment = environment_limit();
  return Isa(std::min({int(detected_isa()), int(from_environment), g_limit.load()}));
}

void limit_isa(std::string_view name) {
  const int requested = int(parse_isa(name));
  int current = g_limit.load();
  while (requested < current && !g_limit.compare_exchange_weak(current, requested)) {
  }
}

}  // namespace ditmk::cpu
