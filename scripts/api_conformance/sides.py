"""The two sides compared: ditmk's device headers and tt-metal 0.81.1's, each as translation units
under the defines of the processors a kernel is built for (data movement on BRISC, compute on
TRISC), with the include path tt-metal's JIT build gives a kernel (tt_metal/jit_build/build.cpp)."""
from __future__ import annotations

from pathlib import Path

from .decls import Side


def _headers(root: Path, patterns: list[str]) -> list[str]:
    found = set()
    for pattern in patterns:
        found.update(str(p.relative_to(root)) for p in root.glob(pattern) if p.is_file())
    return sorted(found)


# Which headers each unit includes, relative to the side's API root. Data movement and compute
# kernels see different APIs (a call may exist on both, declared by different headers).
DATAFLOW = ["api/*.h", "api/dataflow/*.h", "api/tensor/*.h", "api/debug/*.h", "api/debug/*.hpp",
            "debug/*.h", "dataflow_api.h", "hostdevcommon/*.h", "tools/profiler/*.hpp"]
COMPUTE = ["api/compile_time_args.h", "api/named_compile_time_args.h", "api/compute/*.h",
           "api/compute/eltwise_unary/*.h", "api/debug/*.h", "api/debug/*.hpp", "debug/*.h",
           "hostdevcommon/*.h", "tools/profiler/*.hpp"]


# A kernel with one compile-time arg and one named one: both sides declare
# get_named_compile_time_arg_val only then. Both write the map as tt-metal's JIT does, without outer
# braces (jit_defines.cpp's named_args_header_text).
NAMED_ARGS = ['-DKERNEL_COMPILE_TIME_ARG_MAP={"n",0}', "-DKERNEL_COMPILE_TIME_ARGS=0"]


def ditmk_side(include: Path) -> Side:
    def public(rel: str) -> bool:
        # ditmk/ and ditmk_*.h are the dialect's own plumbing (the ABI, the kernel prelude); internal/
        # is tt-metal's own non-public folder, whose stand-ins are as internal here.
        return not (rel.startswith("ditmk/") or rel.startswith("ditmk_") or rel.startswith("internal/"))

    return Side(
        name="ditmk",
        roots=[include.resolve()],
        owned=[include.resolve()],
        include_dirs=[include],
        is_public=public,
        # The kernel compiler's wrapper starts with the generated compute descriptors (compute only),
        # then the prelude, before anything of the kernel.
        prelude={"dataflow": ["ditmk_kernel_prelude.h"],
                 "compute": ["ditmk_compute_descriptors.h", "ditmk_kernel_prelude.h"]},
        defines={"dataflow": ["-DCOMPILE_FOR_BRISC", "-DNOC_INDEX=0"] + NAMED_ARGS,
                 "compute": ["-DCOMPILE_FOR_TRISC"] + NAMED_ARGS},
        headers={"dataflow": [h for h in _headers(include, DATAFLOW) if public(h)],
                 "compute": [h for h in _headers(include, COMPUTE) if public(h)]},
    )


# What tt-metal's JIT generates for a kernel and the reference tree does not hold: the compute
# descriptors (chlkc_descriptors.h; the values of a default ComputeConfig). Our own text. ditmk's
# kernel compiler writes its own form of them into the wrapper (compute_descriptors_text).
GENERATED = {
    "ditmk_compute_descriptors.h": """#pragma once
#include "llk_defs.h"
constexpr bool DST_ACCUM_MODE = false;
#define DST_SYNC_MODE DstSync::SyncHalf
constexpr ckernel::MathFidelity MATH_FIDELITY = static_cast<ckernel::MathFidelity>(4);
constexpr bool APPROX = false;
""",
    "chlkc_descriptors.h": """#pragma once
// Stand-in for the JIT's generated compute descriptors: the defaults of a ComputeConfig.
constexpr bool DST_ACCUM_MODE = false;
#define DST_SYNC_MODE DstSync::SyncHalf
constexpr bool APPROX = false;
constexpr int MATH_FIDELITY = 4;
""",
}


def tt_metal_side(tree: Path) -> Side:
    m = tree / "tt_metal"
    bh = m / "hw/inc/internal/tt-1xx/blackhole"
    include_dirs = [tree, m, m / "hw/inc", m / "hostdevcommon/api", m / "hw/inc/internal/tt-1xx", bh,
                    bh / "noc", m / "hw/ckernels/blackhole/metal/common", m / "hw/ckernels/blackhole/metal/llk_io",
                    m / "hw/ckernels/blackhole/metal/llk_api", m / "hw/ckernels/blackhole/metal/llk_api/llk_sfpu",
                    m / "tt-llk/tt_llk_blackhole/common/inc", m / "tt-llk/tt_llk_blackhole/common/inc/sfpu",
                    m / "tt-llk/common", m / "tt-llk/tt_llk_blackhole/llk_lib", m / "api", m / "api/tt-metalium",
                    tree / "ttnn", tree / "ttnn/cpp"]
    roots = [(m / "hw/inc").resolve(), (m / "hostdevcommon/api").resolve()]
    # The JIT derives the bank counts from the chip's descriptor; they size tables the API
    # declares, and no signature compared depends on them.
    common = NAMED_ARGS + ["-DARCH_BLACKHOLE", "-DKERNEL_BUILD", "-DTENSIX_FIRMWARE", "-DNUM_DRAM_BANKS=8",
                              "-DNUM_L1_BANKS=140", "-DLOG_BASE_2_OF_NUM_DRAM_BANKS=3"]

    def public(rel: str) -> bool:
        return rel.startswith("api/") or rel.startswith("hostdevcommon/")

    return Side(
        name="tt-metal",
        roots=roots,
        owned=[tree.resolve()],
        include_dirs=include_dirs,
        is_public=public,
        # A kernel is compiled inside its firmware's context, which has these already.
        prelude={"dataflow": ["internal/risc_attribs.h", "risc_common.h"], "compute": ["chlkc_descriptors.h"]},
        defines={"dataflow": common + ["-DCOMPILE_FOR_BRISC", "-DPROCESSOR_INDEX=0", "-DNOC_INDEX=0", "-DNOC_MODE=0"],
                 "compute": common + ["-DCOMPILE_FOR_TRISC=1", "-DUCK_CHLKC_MATH", "-DTRISC_MATH",
                                      "-DNAMESPACE=chlkc_math", "-DPROCESSOR_INDEX=3"]},
        headers={"dataflow": _headers(m / "hw/inc", DATAFLOW)
                 + _headers(m / "hostdevcommon/api", ["hostdevcommon/*.h*"]),
                 "compute": _headers(m / "hw/inc", COMPUTE)
                 + _headers(m / "hostdevcommon/api", ["hostdevcommon/kernel_structs.h"])},
    )
