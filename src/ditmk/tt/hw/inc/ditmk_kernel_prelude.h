#pragma once
// What a compiled dialect kernel sees before its own source (the kernel compiler's wrapper includes
// it first): tt-metal's kernel attributes and macros, the compile-time args, the kernel's NoC, and
// weak declarations of the entry points a kernel may define, which ditmk_kernel_entry.h calls.
#include <stddef.h>
#include <stdint.h>

#include "api/compile_time_args.h"
#include "api/named_compile_time_args.h"
#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "ditmk/noc_index.h"
#include "ditmk_device_abi.h"

// `uint`: the RISC-V toolchain's C library declares it for every kernel (ttnn's moreh_common.hpp
// casts to it); the host's declares it only in its hosted headers.
typedef unsigned int uint;

// The kernel defines one of these; hidden weak declarations leave the other one null.
__attribute__((weak, visibility("hidden"))) void kernel_main();

#if defined(COMPILE_FOR_TRISC)
// The older compute form: namespace NAMESPACE { void MAIN { ... } } (NAMESPACE: the JIT's define).
#define MAIN ditmk_compute_main()
namespace NAMESPACE {
__attribute__((weak, visibility("hidden"))) void MAIN;
}
#endif
