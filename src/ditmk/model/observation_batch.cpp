#include "ditmk/model/observation_batch.hpp"

#include "ditmk/core/error.hpp"

namespace ditmk::model {

namespace {

std::string field_of(const std::string& what, const std::string& name) { return what.empty() ? name : what + ":" + name; }

}  // namespace

TensorView sample_of(const TensorView& batched, int64_t i) {
  TensorView one = batched;
  one.shape.erase(one.shape.begin());
  one.data = batched.data + std::size_t(i) * one.nbytes();
  return one;
}

int64_t batch_size(const ObservationArrays& batched, const std::string& what) {
  if (batched.empty()) fail("{}: no arrays in the batch", what.empty() ? "observation" : what);
  // The batch is the features' where they are given (errors then name the other array), else the
  // first array's.
  const auto features = batched.count("features") ? batched.find("features") : batched.find("backbone_features");
  std::vector<std::pair<std::string, TensorView>> arrays;
  if (features != batched.end()) arrays.emplace_back(*features);
  for (const auto& entry : batched)
    if (features == batched.end() || entry.first != features->first) arrays.emplace_back(entry);
  const std::string* first = nullptr;
  int64_t batch = 0;
  for (const auto& [name, view] : arrays) {
    if (view.shape.empty())
      fail("{}: a scalar, where a batch needs a leading batch dimension", field_of(what, name));
    if (!first) {
      first = &name, batch = view.shape[0];
      if (batch < 1) fail("{}: an empty batch (leading dimension 0)", field_of(what, name));
    } else if (view.shape[0] != batch) {
      fail("{}: a batch of {}, but {} has a batch of {}", field_of(what, name), view.shape[0], *first, batch);
    }
  }
  return batch;
}

std::vector<ObservationArrays> split_batch(const ObservationArrays& batched, const std::string& what) {
  const int64_t batch = batch_size(batched, what);
  std::vector<ObservationArrays> samples(static_cast<std::size_t>(batch));
  for (const auto& [name, view] : batched)
    for (int64_t i = 0; i < batch; ++i) samples[std::size_t(i)][name] = sample_of(view, i);
  return samples;
}

}  // namespace ditmk::model
