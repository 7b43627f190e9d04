#pragma once
// ditmk's public C++ API: a resident GR00T action head. Open a release (or a built-in model) once,
// with its backend, weight format, threads and instruction-set cap: weights are mapped and packed
// then. Call get_action any number of times: each call validates the observation, draws or takes the
// noise and runs the whole denoise; nothing is allocated inside the denoise loop. The `ditmk` command,
// the Python module and the policy server all call this class; there is no second engine wrapper.
//
// A head serves one call at a time (calls from several threads must be serialised by the caller; the
// Python module and the server do). Two heads are independent and may run at once.
//
// Errors are ditmk::Error with one line naming the file, array or field (ditmk::NotFound when a path
// does not exist); a call that fails leaves the head ready for the next call.
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ditmk/core/error.hpp"
#include "ditmk/core/matrix.hpp"
#include "ditmk/core/tensor.hpp"
#include "ditmk/model/denoise.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/realtime_chunking.hpp"
#include "ditmk/model/weights.hpp"

namespace ditmk {

struct OpenOptions {
  std::string checkpoint;        // a release directory or .safetensors; empty: the built-in model of `version`
  std::string version = "n15";   // n15, n16 or n17 (the built-in model's)
  std::string backend = "cpu";   // cpu (the fast engine), ref (float64 oracle), emu (the emulated megakernel)
  std::string dtype = "bf16";    // weight format: bf16, bfp8_b, fp32 (cpu, emu); int8 (cpu)
  int threads = 0;               // 0: one per core
  std::string isa;               // cap on the CPU instruction set (portable, avx2, avx512, amx); empty: best
  bool mask_padding = false;     // the opt-in deviation of docs/model.md (default: as released)
  // cpu: keep the packed weights in a cache file and map it on the next open of the same release,
  // format and embodiment instead of packing again (docs/performance.md, "Opening a head").
  // DITMK_WEIGHT_CACHE=off in the environment turns it off as well.
  bool weight_cache = true;
  std::string weight_cache_dir;  // empty: $DITMK_WEIGHT_CACHE, else ~/.cache/ditmk/packed (XDG_CACHE_HOME honoured)
  // Keep the last call's vision-language work (VL tokens, cross K/V) and reuse it while a call's
  // features and masks are the same bytes: bit-identical actions, about half a call saved (cpu
  // backend; ref and emu recompute).
  bool reuse_vision_language = true;
};

// What a head is: the model's facts and how it runs.
struct ModelInfo {
  std::string version, checkpoint, backend, dtype, isa;
  int threads = 0;
  int n_blocks = 0, width = 0, heads = 0, head_dim = 0, context_dim = 0, vl_layers = 0, future_tokens = 0;
  int action_dim = 0, state_dim = 0, state_history = 1, horizon = 0, n_steps = 0, n_embodiments = 0;
  std::map<std::string, int> embodiments;  // tag -> slot
  std::string default_embodiment;          // new_embodiment where the release names it, else "0"
  bool mask_padding = false;
  std::string weight_cache = "off";        // cpu: mapped, written or unavailable when the weight cache is on
  bool reuse_vision_language = true;
  // Live: the bytes kept for vision-language reuse (the set features and masks, the backend's kept VL
  // work; one entry, bounded by one call's), and how many calls reused that work.
  std::size_t vl_cache_bytes = 0;
  int64_t vl_reused_calls = 0;
  nlohmann::json to_json() const;
};

struct CallOptions {
  std::string embodiment;           // slot id ("24") or tag ("gr1"); empty: the default embodiment
  std::optional<TensorView> noise;  // x at step 0, [H, A] or [1, H, A], float; absent: drawn from `seed`
  std::string noise_name = "noise"; // how errors name the noise (its file, say)
  uint64_t seed = 0;                // the counter-based Gaussian noise of ditmk (same on every machine)
  // N1.7's real-time chunking (model/realtime_chunking.hpp), both or neither: the previous chunk
  // [H_prev, A] or [1, H_prev, A], float, and the release's options.
  std::optional<TensorView> previous_actions;
  std::string previous_actions_name = "previous actions";  // how errors name it (its file, say)
  std::optional<model::RealTimeChunking> rtc;
};

class ActionHead {
 public:
  explicit ActionHead(const OpenOptions& options);
  ~ActionHead();
  ActionHead(ActionHead&&) noexcept;
  ActionHead& operator=(ActionHead&&) noexcept;

  const ModelInfo& info() const;
  const model::Weights& weights() const;

  // An observation from named arrays (model::ObservationArrays: features, attention_mask, image_mask,
  // input_ids, state), viewed without copying; errors name `what:array`, or the array alone. Without
  // features (nor masks): the features and masks set_vision_language kept, with this state.
  model::Observation observation(const model::ObservationArrays& arrays, const std::string& what = "") const;
  // Names the vision-language inputs once (features, attention_mask, image_mask, input_ids; copied
  // and checked now) for calls that pass only a state: robots re-plan from the last features with a
  // new state. With reuse_vision_language the cpu backend then skips their precompute.
  void set_vision_language(const model::ObservationArrays& arrays, const std::string& what = "");
  void clear_vision_language();
  bool has_vision_language() const;
  model::Observation load_observation(const std::string& npz, int image_token_id = -1) const;
  // The built-in deterministic observation of this model (docs/model.md, "Defaults").
  model::Observation synthetic_observation(uint64_t seed = 0) const;
  // The slot of an embodiment id or tag (Error naming it when the release has no such embodiment).
  int embodiment_slot(const std::string& id_or_tag) const;

  // One denoise: the actions [H, A] and every step's velocity. When obs's features and masks are the
  // bytes of the previous call's, its vision-language work is reused (reuse_vision_language).
  model::DenoiseResult get_action(const model::Observation& obs, const CallOptions& call = {});

  // A batch: B observations, sample i with calls[i] (its own embodiment, noise or seed, real-time
  // chunking; VL lengths may differ). The cpu backend runs them as one program, streaming each weight
  // once per step for all B samples (ref and emu: one after another); each result is bit-identical
  // to get_action(batch[i], calls[i]) on this head. Every sample is checked before any work, and an
  // error names the sample ("sample 2: ..."). Vision-language reuse goes sample after sample as
  // single calls would: a sample with the previous sample's (or the kept) features and masks reuses
  // that work, and the last sample's is kept for the next call.
  std::vector<model::DenoiseResult> get_actions(std::span<const model::Observation> batch,
                                                std::span<const CallOptions> calls);
  // The observations of arrays with a leading batch dimension (model/observation_batch.hpp): features
  // [B, S, ctx], masks [B, S], state [B, ...]; errors name the array and the sample ("what:sample 2:state").
  std::vector<model::Observation> observations(const model::ObservationArrays& batched, const std::string& what = "") const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The weights OpenOptions name (checkpoint, or the built-in model of version; mask_padding applied),
// for tools that run an executor themselves (bench, emulate).
model::Weights open_weights(const OpenOptions& options);

// What `ditmk inspect --json` prints for a release: version, blocks, dims, settings, dtypes,
// parameter counts, embodiments.
nlohmann::json inspect(const std::string& path);

struct MakeCheckpointOptions {
  std::string out;               // the release directory to create (must not exist or be empty)
  std::string version = "n15";
  std::string dtype = "bf16";    // bf16 or fp32
  uint64_t seed = 0;
  int n_blocks = 0;              // 0: as released
  int shard_mb = 1024;
  bool tiny = false;             // narrow widths for fast tests
  bool progress = true;
};
// Writes a deterministic synthetic release in the released form of its version; returns its config.
model::ModelConfig make_checkpoint(const MakeCheckpointOptions& options);

}  // namespace ditmk
