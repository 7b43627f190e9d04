#pragma once
// Stands in for the SFPI toolchain's sfpi.h so a host compiler can parse tt-metal's compute headers
// (the megakernel parse test, test_megakernel_parse.cpp): SFPI's vector types, its register files,
// its intrinsics and its v_if blocks exist only in the tt compiler (riscv-tt-elf-g++), which the
// ttnn wheel does not carry. Every name here is declared permissively (any vector converts to any
// other, every operator yields a vector) so that the real LLK's SFPU code type-checks; nothing is
// linked or run. Only SFPI's own names live here: a kernel or tt-metal header that misuses the
// device API still fails the parse. See README.md.
#include <cstdint>

#define sfpi_inline inline __attribute__((always_inline))

// SFPI's one intrinsic the LLK calls by name (a fused multiply-add of three vector registers).
template <typename... Args>
inline int __builtin_rvtt_sfpmad(Args...) {
  return 0;
}

namespace sfpi {

// The SFPU's vector kinds: distinct types (the LLK overloads on them), all interconvertible.
template <int Kind>
struct Vec {
  constexpr Vec() = default;
  template <typename T>
  constexpr Vec(const T&) {}
  template <typename T>
  constexpr Vec(const T&, const T&) {}
  template <typename T>
  Vec& operator=(const T&) {
    return *this;
  }
  template <typename T>
  Vec& operator+=(const T&) { return *this; }
  template <typename T>
  Vec& operator-=(const T&) { return *this; }
  template <typename T>
  Vec& operator*=(const T&) { return *this; }
  template <typename T>
  Vec& operator&=(const T&) { return *this; }
  template <typename T>
  Vec& operator|=(const T&) { return *this; }
  template <typename T>
  Vec& operator^=(const T&) { return *this; }
  template <typename T>
  Vec& operator<<=(const T&) { return *this; }
  template <typename T>
  Vec& operator>>=(const T&) { return *this; }
  Vec& operator++() { return *this; }
  Vec operator++(int) { return *this; }
  Vec operator-() const { return *this; }
  Vec operator~() const { return *this; }
  Vec operator!() const { return *this; }
  Vec operator[](int) const { return *this; }
  explicit operator bool() const { return true; }
  int get() const { return 0; }  // the register, for the intrinsics
  void in_use() const {}         // marks a local register live
  template <auto layout>
  Vec& mode() {  // DST rows read as another layout (DataLayout::I32)
    return *this;
  }
  template <typename Layout>
  Vec& mode(Layout) {
    return *this;
  }
};

using vFloat = Vec<0>;
using vInt = Vec<1>;
using vUInt = Vec<2>;
using vBool = Vec<3>;
using vMag = Vec<4>;
using vSMag = Vec<5>;
using vSMag8 = Vec<6>;
using vSMag16 = Vec<7>;
using vUInt8 = Vec<8>;
using vFloat16b = Vec<9>;
using vLut16ss = Vec<10>;
using vLut16ii = Vec<11>;
using vLut8si = Vec<12>;
using vCond = Vec<13>;

// Scalar encodings a vector is loaded from.
struct sFloat16a {
  constexpr sFloat16a(float) {}
  constexpr sFloat16a(unsigned) {}
};
struct sFloat16b {
  constexpr sFloat16b(float) {}
  constexpr sFloat16b(unsigned) {}
};

#define DITMK_SFPI_BINARY(op)                          \
  template <int K, typename T>                         \
  constexpr Vec<K> operator op(const Vec<K>& a, const T&) { \
    return a;                                          \
  }                                                    \
  template <int K, typename T>                         \
  constexpr Vec<K> operator op(const T&, const Vec<K>& b) { \
    return b;                                          \
  }                                                    \
  template <int K, int L>                              \
  constexpr Vec<K> operator op(const Vec<K>& a, const Vec<L>&) { \
    return a;                                          \
  }
DITMK_SFPI_BINARY(+)
DITMK_SFPI_BINARY(-)
DITMK_SFPI_BINARY(*)
DITMK_SFPI_BINARY(/)
DITMK_SFPI_BINARY(&)
DITMK_SFPI_BINARY(|)
DITMK_SFPI_BINARY(^)
DITMK_SFPI_BINARY(<<)
DITMK_SFPI_BINARY(>>)
DITMK_SFPI_BINARY(<)
DITMK_SFPI_BINARY(<=)
DITMK_SFPI_BINARY(>)
DITMK_SFPI_BINARY(>=)
DITMK_SFPI_BINARY(==)
DITMK_SFPI_BINARY(!=)
DITMK_SFPI_BINARY(&&)
DITMK_SFPI_BINARY(||)
#undef DITMK_SFPI_BINARY

// The register files: DST rows (dst_reg[i], dst_reg++), the local registers, the programmable
// constants and the fixed ones.
enum class LRegs { LReg0, LReg1, LReg2, LReg3, LReg4, LReg5, LReg6, LReg7 };
struct RegFile {
  vFloat operator[](int) const { return {}; }
  vFloat operator[](LRegs) const { return {}; }
  RegFile& operator++() { return *this; }
  RegFile operator++(int) { return *this; }
  RegFile& operator+=(int) { return *this; }
};
inline RegFile dst_reg, l_reg;
inline vFloat vConstFloatPrgm0, vConstFloatPrgm1, vConstFloatPrgm2;
inline vInt vConstIntPrgm0, vConstIntPrgm1, vConstIntPrgm2;
inline const vFloat vConst0, vConst1, vConstNeg1, vConst0p8373, vConst0p0020;
inline const vInt vConstTileId;

enum class RoundMode { Nearest, Stochastic };
enum class ExponentMode { Biased, Debiased };
enum class MantissaMode { ImplicitOne, NoImplicitOne };
enum class ShiftMode { Logical, Arithmetic };
enum class LutSign { Retain, Update };
enum class DataLayout { M32, I32 };

// Keeps the compiler from spilling local registers in a block (a scoped guard).
struct lreg_pressure {};

// Instruction modifiers the LLK passes to TTI_ macros.
inline constexpr unsigned SFPABS_MOD1_INT = 0, SFPARECIP_MOD1_RECIP = 0, SFPEXMAN_MOD1_PAD9 = 1,
                          SFPIADD_MOD1_CC_NONE = 4, SFPLOADI_MOD0_FLOATA = 1, SFPLOADI_MOD0_FLOATB = 0,
                          SFPLOADI_MOD0_LOWER = 10, SFPLOADI_MOD0_UPPER = 8, SFPLOADI_MOD0_USHORT = 2,
                          SFPMAD_MOD1_OFFSET_NONE = 0, SFPSETCC_MOD1_LREG_LT0 = 0, SFPSHFT2_MOD1_SHFT_IMM = 1,
                          SFPSHFT2_MOD1_SUBVEC_SHFLROR1 = 3, SFPSTOCHRND_MOD1_FP32_TO_FP16B = 1,
                          SFPSTOCHRND_MOD1_FP32_TO_INT16 = 6, SFPSTOCHRND_MOD1_FP32_TO_UINT16 = 5,
                          SFPSTOCHRND_RND_EVEN = 0, SFPSWAP_MOD1_SWAP = 0, SFPSWAP_MOD1_VEC_MIN_MAX = 1;

// SFPI's operations: any arguments, a vector of the asked (or a float) kind back.
template <typename To, typename From>
constexpr To as(const From&) {
  return {};
}
template <typename To, typename From>
constexpr To reinterpret(const From&) {
  return {};
}
template <typename To, typename From, typename... Options>
constexpr To convert(const From&, Options...) {
  return {};
}
#define DITMK_SFPI_OP(name)             \
  template <typename... Args>           \
  constexpr vFloat name(const Args&...) { \
    return {};                          \
  }
DITMK_SFPI_OP(abs)
DITMK_SFPI_OP(addexp)
DITMK_SFPI_OP(approx_recip)
DITMK_SFPI_OP(clamp)
DITMK_SFPI_OP(copysgn)
DITMK_SFPI_OP(exexp)
DITMK_SFPI_OP(exexp_nodebias)
DITMK_SFPI_OP(exman)
DITMK_SFPI_OP(exman8)
DITMK_SFPI_OP(exman9)
DITMK_SFPI_OP(float_to_fp16a)
DITMK_SFPI_OP(float_to_fp16b)
DITMK_SFPI_OP(float_to_int16)
DITMK_SFPI_OP(float_to_uint16)
DITMK_SFPI_OP(int32_to_float)
DITMK_SFPI_OP(is_finite)
DITMK_SFPI_OP(is_nan)
DITMK_SFPI_OP(lut)
DITMK_SFPI_OP(lut2)
DITMK_SFPI_OP(lut2_sign)
DITMK_SFPI_OP(lut_sign)
DITMK_SFPI_OP(lz)
DITMK_SFPI_OP(max)
DITMK_SFPI_OP(min)
DITMK_SFPI_OP(nearby)
DITMK_SFPI_OP(setexp)
DITMK_SFPI_OP(setman)
DITMK_SFPI_OP(setsgn)
DITMK_SFPI_OP(setsgn2)
DITMK_SFPI_OP(shft)
DITMK_SFPI_OP(subvec_shflror1)
DITMK_SFPI_OP(subvec_transp)
DITMK_SFPI_OP(symmetric_clamp)
DITMK_SFPI_OP(vec_min_max)
DITMK_SFPI_OP(vec_swap)
#undef DITMK_SFPI_OP

inline bool v_condition(...) { return true; }

}  // namespace sfpi

// SFPI's predicated blocks (lanes where the condition holds run the block).
#define v_if(cond) { if (sfpi::v_condition(cond)) {
#define v_elseif(cond) } else if (sfpi::v_condition(cond)) {
#define v_else } else {
#define v_endif } }
#define v_block {
#define v_endblock }
#define v_and(cond) (void)(cond)
