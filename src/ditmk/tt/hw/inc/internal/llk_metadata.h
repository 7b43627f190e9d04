#pragma once
// What a Metal 2.0 binding token carries for the compute engine's unpacker and packer: the format of
// the entries (tt::DataFormat's number) and the tile's face geometry. tt-metal's JIT writes it into
// every generated dfb:: and tensor:: token (a 32x32 tile: faces of 16x16, two by two); kernels reach
// it only through LLKOperandFrom.
#include <stdint.h>

namespace binding_details {

struct LLKMetadata {
  static constexpr uint8_t kNoFormat = 0xFF;

  uint8_t format = kNoFormat;
  uint8_t face_r_dim = 16;
  uint8_t face_c_dim = 16;
  uint8_t num_faces_r_dim = 2;
  uint8_t num_faces_c_dim = 2;
};

// Reads a token's metadata (llk_operand_from_tokens.h); the tokens befriend it.
template <const auto& Token>
struct LLKOperandExtractor;

}  // namespace binding_details
