#include "pack_fixture.hpp"

#include <fmt/format.h>

#include <map>
#include <memory>

#include "ditmk/model/synthetic.hpp"

namespace ditmk::tt::testing {

model::ModelConfig small_n15_config() {
  model::ModelConfig c = model::default_config(model::Version::n15);
  c.n_blocks = 2;
  c.block_keys = model::block_schedule(c);
  c.vl_layers = 0;
  c.n_embodiments = 2;
  c.embodiment_ids = {{"gr1", 0}, {"new_embodiment", kPackedEmbodiment}};
  return c;
}

const ditmk::testing::TempDir& fixture_root() {
  static const ditmk::testing::TempDir root;
  return root;
}

namespace {

const std::string& small_release() {
  static const std::string dir = [] {
    const std::string path = fixture_root() / "n15_2blocks";
    model::SyntheticOptions options;
    options.dtype = DType::BF16;
    options.seed = 20240611;
    options.progress = false;
    model::write_synthetic_release(small_n15_config(), path, options);
    return path;
  }();
  return dir;
}

}  // namespace

const PackFixture& packed(TileFormat dtype) {
  static std::map<TileFormat, std::unique_ptr<PackFixture>> fixtures;
  auto& slot = fixtures[dtype];
  if (!slot) {
    auto f = std::make_unique<PackFixture>();
    f->release = small_release();
    f->weights = model::load_weights(f->release);
    f->pack_dir = fixture_root() / fmt::format("pack_{}", tile_format_name(dtype));
    PackOptions options;
    options.dtype_stream = dtype;
    options.embodiment = "new_embodiment";
    f->summary = pack_checkpoint(f->weights, f->pack_dir, options);
    slot = std::move(f);
  }
  return *slot;
}

}  // namespace ditmk::tt::testing
