#pragma once
// What the megakernel computed and predicted before its kernel was rewritten in tt-metal's dialect,
// recorded from that code: a rewrite is the same program when it gives the same actions and step
// velocities bit for bit (a hash of their float64 bytes) for every version, stream format and
// protocol, and each block kind's predicted time within 1%.
#include <cstdint>
#include <optional>
#include <string_view>

#include "ditmk/model/config.hpp"
#include "ditmk/model/denoise.hpp"
#include "ditmk/tt/formats.hpp"
#include "ditmk/tt/host/emu_executor.hpp"

namespace ditmk::tt::host::testing {

// FNV-1a over the float64 bytes of the actions, then of each step's velocity, in order.
uint64_t result_bits_hash(const model::DenoiseResult& result);

// The recorded hash of the fixture model's steps4 denoise (kernel_fixture.hpp), if one was recorded.
std::optional<uint64_t> recorded_bits(model::Version version, TileFormat dtype, Protocol protocol);

// The recorded predicted microseconds of a block kind ("cross_all", "self", ...) in the fixture
// model's block variant (step 1, bfp8_b streams).
std::optional<double> recorded_block_us(model::Version version, Protocol protocol, std::string_view kind);

}  // namespace ditmk::tt::host::testing
