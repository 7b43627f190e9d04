#pragma once
// Which instruction set the CPU kernels use. The build never assumes the CPU: every kernel family is
// compiled, and the best one the CPU and the OS both support is chosen at run time. Users may only
// lower that choice (DITMK_ISA in the environment, or limit_isa from the CLI's --isa), so a forced
// name can never select instructions the machine would fault on.
#include <string_view>
#include <vector>

namespace ditmk::cpu {

// Ordered from least to most capable: a lower value is always safe where a higher one is.
enum class Isa { portable, avx2, avx512_bf16, amx_bf16 };

// "portable", "avx2", "avx512", "amx": the names DITMK_ISA and --isa accept.
std::string_view isa_name(Isa isa);
// Throws ditmk::Error naming the value when it is not one of isa_name's names.
Isa parse_isa(std::string_view name);

// The most capable ISA this CPU and OS support (cpuid + xgetbv; for AMX also the kernel's grant of
// tile-data state). Detected once.
Isa detected_isa();
// Every ISA usable here, portable first: tests run each of them.
std::vector<Isa> supported_isas();
bool isa_supported(Isa isa);

// The ISA the kernels use by default: detected_isa() lowered by DITMK_ISA and by limit_isa.
Isa selected_isa();
// Lowers selected_isa() to at most the named ISA (a higher name changes nothing).
void limit_isa(std::string_view name);

}  // namespace ditmk::cpu
