#pragma once
// What a weight cache file is for: the digest of everything the packing reads and decides with.
// Two opens share a file exactly when they would pack the same bytes.
#include <optional>

#include "ditmk/cpu/kernels/packed_weights.hpp"
#include "ditmk/cpu/weight_digest.hpp"
#include "ditmk/model/weights.hpp"

namespace ditmk::cpu {

// Bump when pack_model, pack_embodiment or PackedWeights::pack change what they compute: files
// packed by the earlier code then no longer match.
inline constexpr int kPackingVersion = 1;

// The digest of: kPackingVersion, the weight format, the embodiment packed with the model, the
// model's settings as ditmk read them (config_to_json), and the dtype, shape and bytes of every
// tensor pack_model and pack_embodiment(embodiment) read (the embodiment's slices only of the
// category-specific layers). The packed bytes do not depend on the instruction set (every kernel
// reads the same panels), so one file serves avx2, avx512 and amx alike.
Digest128 weight_cache_key(const model::Weights& weights, WeightFormat format, int embodiment, int threads);

// What weight_cache_key reads, named without reading the weights: the same packing version, format,
// embodiment and settings, and the identity (io::FileIdentity) of each weight file of the checkpoint
// the tensors were mapped from. Equal identities mean the same key, so a later open can look the key
// up (weight_cache_stamp.hpp) instead of hashing gigabytes again. Nothing when the weights do not
// come from a checkpoint's files.
std::optional<Digest128> weight_source_identity(const model::Weights& weights, WeightFormat format, int embodiment);

}  // namespace ditmk::cpu
