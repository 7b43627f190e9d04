#pragma once
// Which instruction set the CPU kernels use. The build never assumes the CPU: every kernel family is
// compiled, and the best one the CPU and the OS both support is chosen at run time. Users may only
// lower that choice (DITMK_ISA in the environment, or limit_isa from the CLI's --isa), so a forced
// name can never select instructions the machine would fault on.
#include <string>
#include <string_view>
#include <vector>

namespace ditmk::cpu {

// Ordered from least to most capable: a lower value is always safe where a higher one is.
//   avx2         AVX2 + FMA + F16C: ymm FMA
//   avx512f      AVX-512 F/DQ/BW/VL: zmm FMA, bf16 weights widened in registers (Skylake-SP to Ice
//                Lake, the common cloud servers, have these without AVX512-BF16)
//   avx512_bf16  the above + AVX512-BF16: vdpbf16ps (Zen 4, Zen 5, Sapphire Rapids)
//   amx_bf16     the above + AMX tiles
// Each level's features are checked one by one (cpuid and the OS's register state); the int8 dot
// products are a separate axis (Int8Dot below).
enum class Isa { portable, avx2, avx512f, avx512_bf16, amx_bf16 };

// "portable", "avx2", "avx512f", "avx512", "amx": the names DITMK_ISA and --isa accept ("avx512" is
// AVX-512 with BF16).
std::string_view isa_name(Isa isa);
// Every isa_name, least capable first (what --isa offers).
std::vector<std::string> isa_names();
// Throws ditmk::Error naming the value when it is not one of isa_name's names.
Isa parse_isa(std::string_view name);

// The most capable ISA this CPU and OS support (cpuid + xgetbv; for AMX also the kernel's grant of
// tile-data state). Detected once.
Isa detected_isa();
// Every ISA usable here, portable first: tests run each of them.
std::vector<Isa> supported_isas();
bool isa_supported(Isa isa);

// The int8 dot-product extensions, which do not follow the order above: AVX512-VNNI (vpdpbusd on
// zmm) comes with every AVX512-BF16 CPU so far and with Cascade Lake and Ice Lake, which have no
// BF16; AVX-VNNI (the VEX form on ymm) with some AVX2 CPUs and not with others (Zen 4 has
// AVX512-VNNI but no AVX-VNNI). Detected once, with the OS's register-state support, like
// detected_isa().
bool has_avx512_vnni();
bool has_avx_vnni();

// The int8 dot product the GEMM runs under an ISA cap: vpdpbusd on zmm where the cap allows AVX-512
// (avx512f or above) and the CPU has AVX512-VNNI, whatever else it lacks, vpdpbusd on ymm where it allows AVX2 and the CPU has AVX-VNNI,
// AVX2's vpmaddubsw + vpmaddwd where it allows AVX2 and the CPU has no VNNI on ymm (Zen 3, Intel
// before Alder Lake), else plain C++. Ordered like Isa: a later one is faster where both run.
enum class Int8Dot { portable, avx2, avx_vnni, avx512_vnni };
Int8Dot int8_dot_for(Isa isa);
// Whether this CPU can run an int8 dot product (whichever int8_dot_for picks), and all those it can,
// portable first: the tests compare each of them with the reference.
bool int8_dot_supported(Int8Dot dot);
std::vector<Int8Dot> supported_int8_dots();
std::string_view int8_dot_name(Int8Dot dot);  // "portable", "avx2", "avx-vnni", "avx512-vnni"

// The CPU as CPUID names it: vendor, family, model and stepping (the display values), and the
// feature words of leaves 1 and 7 in hex. One line, the same on every run of the same CPU.
std::string cpu_identity();

// The ISA the kernels use by default: detected_isa() lowered by DITMK_ISA and by limit_isa.
Isa selected_isa();
// Lowers selected_isa() to at most the named ISA (a higher name changes nothing).
void limit_isa(std::string_view name);

}  // namespace ditmk::cpu
