#include "ditmk/cli/model_source.hpp"

#include "ditmk/model/synthetic.hpp"

namespace ditmk::cli {

model::Weights load_model(const ModelSource& source) {
  if (!source.checkpoint.empty()) return model::load_weights(source.checkpoint);
  return model::load_weights(model::ensure_default_model(model::parse_version(source.version)));
}

std::string default_embodiment(const model::ModelConfig& config) {
  return config.embodiment_ids.count("new_embodiment") ? "new_embodiment" : "0";
}

}  // namespace ditmk::cli
