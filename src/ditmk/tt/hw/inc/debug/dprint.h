#pragma once
// Kernel debug printing, both of tt-metal's forms:
//   DPRINT << "x = " << x << HEX() << y << ENDL();    the stream form (older tt-metal)
//   DPRINT("x = {}, y = {:#x}\n", x, y);             the format form (DEVICE_PRINT, newer tt-metal)
// Each item goes to the emulator, which keeps the running processor's line and prints every
// finished line with the core and processor it came from; a line the kernel leaves unfinished is
// printed when the kernel returns. Manipulators are sticky as iostream's, except SETW, which applies
// to the next item only. The format form takes fmt's format specs.
#include <stdint.h>

#include <type_traits>

#include "ditmk/abi.h"
#include "ditmk/attributes.h"
#include "ditmk/noc_index.h"

namespace ditmk {
struct DebugPrinter {};
}  // namespace ditmk

struct ENDL {};
struct HEX {};
struct DEC {};
struct OCT {};
struct FIXED {};
struct DEFAULTFLOAT {};
struct SETW {
  constexpr SETW(uint32_t width_in) : width(width_in) {}
  uint32_t width;
};
struct SETPRECISION {
  constexpr SETPRECISION(uint32_t precision_in) : precision(precision_in) {}
  uint32_t precision;
};
// A bfloat16 given by its bits.
struct BF16 {
  constexpr BF16(uint16_t bits_in) : bits(bits_in) {}
  uint16_t bits;
};
struct bf16_t {
  constexpr bf16_t(uint16_t val_in) : val(val_in) {}
  uint16_t val;
};
struct F32 {
  constexpr F32(float value_in) : value(value_in) {}
  float value;
};
struct U32 {
  constexpr U32(uint32_t value_in) : value(value_in) {}
  uint32_t value;
};

namespace ditmk::detail {

FORCE_INLINE uint32_t text_size(const char* text) {
  uint32_t size = 0;
  while (text[size]) ++size;
  return size;
}

template <typename T>
FORCE_INLINE ditmk_dprint_arg dprint_arg(const T& value) {
  using V = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<V, bool>) {
    return {DITMK_DPRINT_BOOL, value ? 1u : 0u, nullptr};
  } else if constexpr (std::is_same_v<V, char>) {
    return {DITMK_DPRINT_CHAR, uint64_t(uint8_t(value)), nullptr};
  } else if constexpr (std::is_enum_v<V>) {
    return dprint_arg(static_cast<std::underlying_type_t<V>>(value));
  } else if constexpr (std::is_integral_v<V> && std::is_signed_v<V>) {
    return {sizeof(V) <= 4 ? uint32_t(DITMK_DPRINT_I32) : uint32_t(DITMK_DPRINT_I64), uint64_t(int64_t(value)),
            nullptr};
  } else if constexpr (std::is_integral_v<V>) {
    return {sizeof(V) <= 4 ? uint32_t(DITMK_DPRINT_U32) : uint32_t(DITMK_DPRINT_U64), uint64_t(value), nullptr};
  } else if constexpr (std::is_same_v<V, float>) {
    return {DITMK_DPRINT_F32, __builtin_bit_cast(uint32_t, value), nullptr};
  } else if constexpr (std::is_same_v<V, double>) {
    return {DITMK_DPRINT_F64, __builtin_bit_cast(uint64_t, value), nullptr};
  } else if constexpr (std::is_same_v<V, BF16>) {
    return {DITMK_DPRINT_BF16, value.bits, nullptr};
  } else if constexpr (std::is_same_v<V, bf16_t>) {
    return {DITMK_DPRINT_BF16, value.val, nullptr};
  } else if constexpr (std::is_same_v<V, F32>) {
    return dprint_arg(value.value);
  } else if constexpr (std::is_same_v<V, U32>) {
    return dprint_arg(value.value);
  } else if constexpr (std::is_array_v<V> && std::is_same_v<std::remove_cv_t<std::remove_extent_t<V>>, char>) {
    return {DITMK_DPRINT_TEXT, 0, value};
  } else if constexpr (std::is_pointer_v<V> && std::is_same_v<std::remove_cv_t<std::remove_pointer_t<V>>, char>) {
    return {DITMK_DPRINT_TEXT, 0, value};
  } else if constexpr (std::is_pointer_v<V>) {
    return {DITMK_DPRINT_POINTER, uint64_t(reinterpret_cast<uintptr_t>(value)), nullptr};
  } else {
    static_assert(sizeof(V) == 0, "DPRINT prints numbers, bools, chars, text, pointers and BF16/F32/U32");
  }
}

template <typename... Args>
FORCE_INLINE void device_print(const char* format, const Args&... args) {
  const ditmk_dprint_arg list[sizeof...(Args) + 1] = {dprint_arg(args)..., {DITMK_DPRINT_TEXT, 0, ""}};
  abi->dprint_format(format, list, uint32_t(sizeof...(Args)));
}

}  // namespace ditmk::detail

namespace ditmk {

// Found by argument-dependent lookup, so a kernel's own operator<< does not hide it.
template <typename T>
FORCE_INLINE const DebugPrinter& operator<<(const DebugPrinter& printer, const T& value) {
  const ditmk_device_abi& abi = *ditmk::abi;
  if constexpr (std::is_same_v<T, ENDL>) {
    abi.dprint(DITMK_DPRINT_ENDL, 0);
  } else if constexpr (std::is_same_v<T, HEX>) {
    abi.dprint(DITMK_DPRINT_HEX, 0);
  } else if constexpr (std::is_same_v<T, DEC>) {
    abi.dprint(DITMK_DPRINT_DEC, 0);
  } else if constexpr (std::is_same_v<T, OCT>) {
    abi.dprint(DITMK_DPRINT_OCT, 0);
  } else if constexpr (std::is_same_v<T, FIXED>) {
    abi.dprint(DITMK_DPRINT_FIXED, 0);
  } else if constexpr (std::is_same_v<T, DEFAULTFLOAT>) {
    abi.dprint(DITMK_DPRINT_DEFAULTFLOAT, 0);
  } else if constexpr (std::is_same_v<T, SETW>) {
    abi.dprint(DITMK_DPRINT_SETW, value.width);
  } else if constexpr (std::is_same_v<T, SETPRECISION>) {
    abi.dprint(DITMK_DPRINT_SETPRECISION, value.precision);
  } else {
    const ditmk_dprint_arg arg = ditmk::detail::dprint_arg(value);
    if (arg.kind == DITMK_DPRINT_TEXT) {
      abi.dprint_text(arg.text, ditmk::detail::text_size(arg.text));
    } else {
      abi.dprint(arg.kind, arg.bits);
    }
  }
  return printer;
}

}  // namespace ditmk

// The stream form's object, and the format form's macro: a name followed by '(' is the macro.
inline constexpr ditmk::DebugPrinter DPRINT{};
#define DEVICE_PRINT(...) ::ditmk::detail::device_print(__VA_ARGS__)
#define DPRINT(...) DEVICE_PRINT(__VA_ARGS__)

// Prints only on the processors tt-metal prints them on; the emulator's one compute processor
// stands for all three TRISCs.
// clang-format off
#if defined(COMPILE_FOR_TRISC)
#define DPRINT_MATH(...) do { __VA_ARGS__; } while (0)
#define DPRINT_PACK(...) do { __VA_ARGS__; } while (0)
#define DPRINT_UNPACK(...) do { __VA_ARGS__; } while (0)
#define DPRINT_DATA0(...) do { } while (0)
#define DPRINT_DATA1(...) do { } while (0)
#define DEVICE_PRINT_MATH(...) DEVICE_PRINT(__VA_ARGS__)
#define DEVICE_PRINT_PACK(...) DEVICE_PRINT(__VA_ARGS__)
#define DEVICE_PRINT_UNPACK(...) DEVICE_PRINT(__VA_ARGS__)
#define DEVICE_PRINT_DATA0(...) do { } while (0)
#define DEVICE_PRINT_DATA1(...) do { } while (0)
#else
#define DPRINT_MATH(...) do { } while (0)
#define DPRINT_PACK(...) do { } while (0)
#define DPRINT_UNPACK(...) do { } while (0)
#define DPRINT_DATA0(...) do { if (noc_index == 0) { __VA_ARGS__; } } while (0)
#define DPRINT_DATA1(...) do { if (noc_index == 1) { __VA_ARGS__; } } while (0)
#define DEVICE_PRINT_MATH(...) do { } while (0)
#define DEVICE_PRINT_PACK(...) do { } while (0)
#define DEVICE_PRINT_UNPACK(...) do { } while (0)
#define DEVICE_PRINT_DATA0(...) do { if (noc_index == 0) DEVICE_PRINT(__VA_ARGS__); } while (0)
#define DEVICE_PRINT_DATA1(...) do { if (noc_index == 1) DEVICE_PRINT(__VA_ARGS__); } while (0)
#endif
// clang-format on
