#pragma once
// tt-metal's tensix_types.h (internal/tt-1xx/blackhole/): the Tensix firmware's structures (packer and
// mover configs, tile and section headers, I/O queue pointers, test messages) and a few sizes of the
// core. ttnn's kernels include it without naming any of it; the emulator has no firmware, so this
// stand-in declares only the sizes of the DST register, which describe the core the emulator models.
#include <cstdint>

static constexpr std::uint32_t DEST_FACE_WIDTH = 16;
static constexpr std::uint32_t DEST_FACE_WIDTH_LOG2 = 4;
static constexpr std::uint32_t DEST_FACE_HEIGHT = 16;
static constexpr std::uint32_t DEST_FACE_HEIGHT_LOG2 = 4;
static constexpr std::uint32_t DEST_REGISTER_FULL_SIZE = 64 * DEST_FACE_HEIGHT;
static constexpr std::uint32_t DEST_REGISTER_FULL_SIZE_LOG2 = 12;
static constexpr std::uint32_t DEST_REGISTER_HALF_SIZE = DEST_REGISTER_FULL_SIZE / 2;
static constexpr std::uint32_t BIT32_DEST_REGISTER_HALF_SIZE = DEST_REGISTER_HALF_SIZE / 2;
static constexpr std::uint32_t DEST_REGISTER_FULL_SIZE_BYTES = DEST_REGISTER_FULL_SIZE * 2 * 16;
static constexpr std::uint32_t DEST_REGISTER_HALF_SIZE_BYTES = DEST_REGISTER_FULL_SIZE_BYTES / 2;
