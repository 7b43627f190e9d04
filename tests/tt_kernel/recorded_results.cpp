#include "recorded_results.hpp"

#include <cstring>
#include <string>

namespace ditmk::tt::host::testing {
namespace {

struct RecordedBits {
  model::Version version;
  TileFormat dtype;
  Protocol protocol;
  uint64_t hash;
};

// Recorded from the role programs (class-based C++ walk) the megakernel ran before the dialect port.
constexpr RecordedBits kRecordedBits[] = {
    {model::Version::n15, TileFormat::bf16, Protocol::seed, 0xe4b5ae5e2fe81d6eull},
    {model::Version::n16, TileFormat::bf16, Protocol::seed, 0xac90837778695d14ull},
    {model::Version::n17, TileFormat::bf16, Protocol::seed, 0xd572436af64b6c9eull},
    {model::Version::n15, TileFormat::bfp8_b, Protocol::seed, 0x277eec1fe6f29f1aull},
    {model::Version::n16, TileFormat::bfp8_b, Protocol::seed, 0xa5548a7aad494232ull},
    {model::Version::n17, TileFormat::bfp8_b, Protocol::seed, 0x76f4f9824ea2553aull},
    {model::Version::n15, TileFormat::bf16, Protocol::onehub, 0xa857a6acf76ce946ull},
    {model::Version::n15, TileFormat::bfp8_b, Protocol::onehub, 0xa15c20518f043cb9ull},
    {model::Version::n16, TileFormat::bf16, Protocol::onehub, 0xc71aaefee3c3c527ull},
    {model::Version::n16, TileFormat::bfp8_b, Protocol::onehub, 0x1eea9aa738fb1161ull},
    {model::Version::n17, TileFormat::bf16, Protocol::onehub, 0xf34e3dc35ad91449ull},
    {model::Version::n17, TileFormat::bfp8_b, Protocol::onehub, 0xc58b9855bb70a9e5ull},
};

struct RecordedBlock {
  model::Version version;
  Protocol protocol;
  const char* kind;
  double us;
};

// Predicted by the timing model for the role programs before the dialect port (microseconds).
constexpr RecordedBlock kRecordedBlocks[] = {
    {model::Version::n15, Protocol::seed, "cross_all", 130.309421},
    {model::Version::n15, Protocol::seed, "self", 98.280744},
    {model::Version::n15, Protocol::onehub, "cross_all", 177.078683},
    {model::Version::n15, Protocol::onehub, "self", 170.267179},
    {model::Version::n16, Protocol::seed, "cross_text", 112.163631},
    {model::Version::n16, Protocol::seed, "self", 100.355299},
    {model::Version::n16, Protocol::seed, "cross_image", 105.252399},
    {model::Version::n16, Protocol::onehub, "cross_text", 158.990111},
    {model::Version::n16, Protocol::onehub, "self", 171.399169},
    {model::Version::n16, Protocol::onehub, "cross_image", 154.093127},
};

void add_bytes(uint64_t& hash, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 0x100000001b3ull;
}

}  // namespace

uint64_t result_bits_hash(const model::DenoiseResult& result) {
  uint64_t hash = 0xcbf29ce484222325ull;
  add_bytes(hash, result.actions.data.data(), result.actions.data.size() * sizeof(double));
  for (const Matrix<double>& v : result.velocities) add_bytes(hash, v.data.data(), v.data.size() * sizeof(double));
  return hash;
}

std::optional<uint64_t> recorded_bits(model::Version version, TileFormat dtype, Protocol protocol) {
  for (const RecordedBits& r : kRecordedBits)
    if (r.version == version && r.dtype == dtype && r.protocol == protocol) return r.hash;
  return std::nullopt;
}

std::optional<double> recorded_block_us(model::Version version, Protocol protocol, std::string_view kind) {
  for (const RecordedBlock& r : kRecordedBlocks)
    if (r.version == version && r.protocol == protocol && kind == r.kind) return r.us;
  return std::nullopt;
}

}  // namespace ditmk::tt::host::testing
