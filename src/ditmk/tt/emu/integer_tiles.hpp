#pragma once
// 32-bit integers in DST. With fp32_dest_acc_en a DST word is 32 bits that each op reads in its own
// format, so the emulator keeps an Int32 or UInt32 value in its fp32 DST slot as the integer's bit
// pattern (two's complement): copy_tile from an Int32/UInt32 CB and pack_tile into one move those
// words unchanged, and typecast_tile converts between them and float values as the SFPU's typecast
// does (tt-metal 0.81.1 ckernel_sfpu_typecast.h). UInt16 and UInt8 tiles, which the packer reads
// from half or a quarter of a DST word, are not modelled.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "ditmk/tt/emu/program.hpp"

namespace ditmk::tt::emu {

// Int32 and UInt32: the formats whose tiles move to and from DST as raw words.
bool raw_word_format(IntegerFormat format);

// A 4096 B tile of 32-bit words in tile order <-> a row-major DST tile holding their bit patterns.
void unpack_word_tile(const std::byte* tile, float* dst);
void pack_word_tile(const float* dst, std::byte* tile);

// The value kinds typecast_tile converts between, as tt-metal's DataFormat codes name them.
enum class DstKind { float32, bfloat16, int32, uint32 };
std::optional<DstKind> dst_kind_of_format(uint32_t data_format);  // Float32, Float16_b, Int32, UInt32

// One DST word cast from `from` to `to`:
//   float -> UInt32: negatives and values below 1 give 0, values of 2^32 and more 0xFFFFFFFF, the rest
//                    truncate toward zero;
//   float -> Int32:  truncation toward zero, saturating at INT32_MIN and INT32_MAX;
//   integer -> Float32 / Float16_b: the integer rounded once, to nearest even, into the format;
//   Float32 -> Float16_b: rounded to nearest even; Float16_b -> Float32: unchanged.
// Int32 <-> UInt32 has no SFPU typecast (typecast_modelled is false): nullopt.
bool typecast_modelled(DstKind from, DstKind to);
std::optional<float> typecast_word(DstKind from, DstKind to, float word);

}  // namespace ditmk::tt::emu
