#pragma once
// vpdpbusd on the compilers' own int32 vector types (__v16si on zmm, __v8si on ymm), which keep a
// tile's accumulators in registers where the __m512i intrinsics' casts did not (gemm_int8_avx512vnni.cpp).
// GCC and clang name the builtin differently; each is used only in files built for its instructions.
#if defined(__clang__)
#define DITMK_VPDPBUSD_ZMM(acc, x, w) __builtin_ia32_vpdpbusd512((acc), (x), (w))
#define DITMK_VPDPBUSD_YMM(acc, x, w) __builtin_ia32_vpdpbusd256((acc), (x), (w))
#else
#define DITMK_VPDPBUSD_ZMM(acc, x, w) __builtin_ia32_vpdpbusd_v16si((acc), (x), (w))
#define DITMK_VPDPBUSD_YMM(acc, x, w) __builtin_ia32_vpdpbusd_v8si((acc), (x), (w))
#endif
