#pragma once
// `ditmk pack`: turns a checkpoint into what the megakernel reads from DRAM for the steps4 K4
// program of the checkpoint's version: both arenas in tile format laid out over the 8 banks exactly
// as ArenaLayout places them, the offsets table, the host row tables and a manifest (pack_files.hpp,
// docs/plan.md "Packing"). Everything depends on the weights and the embodiment only.
#include <optional>
#include <string>

#include "ditmk/model/weights.hpp"
#include "ditmk/tt/plan/arena_layout.hpp"

namespace ditmk::tt {

struct PackOptions {
  TileFormat dtype_stream = TileFormat::bfp8_b;
  std::string embodiment;                 // id or tag of embodiment_id.json
  std::optional<model::Version> version;  // when set, the checkpoint must be of this version
};

struct PackSummary {
  ArenaLayout layout;
  int embodiment = 0;
  uint64_t bytes_written = 0;  // all files of the directory
  std::size_t n_ranges = 0;    // manifest byte ranges
};

// The layout a pack is written for: steps4, direct reads, the version's released key layout.
ArenaLayout pack_layout(const model::ModelConfig& config, TileFormat dtype_stream);

// Writes the pack directory `out_dir`, which must not exist (or be empty). Files are written into
// `<out_dir>.partial.<pid>` and renamed at the end, so `out_dir` appears only when complete; on any
// error the partial directory is removed and ditmk::Error names the file, tensor or field.
PackSummary pack_checkpoint(const model::Weights& weights, const std::string& out_dir, const PackOptions& options);

}  // namespace ditmk::tt
