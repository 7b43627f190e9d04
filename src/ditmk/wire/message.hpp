#pragma once
// GR00T's inference wire format, as the released inference service speaks it: every message is one
// msgpack map; a numpy array travels as {"__ndarray_class__": true, "as_npy": <bin: np.save bytes,
// allow_pickle=False>}.
//   request  {"endpoint": str (default "get_action"), "data": map, "api_token": str (optional)}
//   reply    a map; {"error": "<one line>"} on any failure
// Decoding is strict (every malformed field is an Error naming it) and bounded: nothing it allocates
// exceeds a small multiple of the message's own size, whatever the message claims.
#include <cstddef>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ditmk/core/error.hpp"
#include "ditmk/core/matrix.hpp"
#include "ditmk/core/tensor.hpp"
#include "ditmk/model/observation.hpp"
#include "ditmk/model/realtime_chunking.hpp"

namespace ditmk::wire {

// A field of a request's data: an array, an integer, a float, a string or a list of integers or
// strings (a batch's embodiment ids or tags; at most 4096 items).
struct Value {
  enum class Kind { array, integer, number, string, list } kind = Kind::integer;
  Tensor array;
  int64_t integer = 0;
  double number = 0.0;
  std::string string;
  std::vector<Value> items;  // list: integers and strings, not nested
};

struct Request {
  std::string endpoint = "get_action";
  std::optional<std::string> api_token;
  std::map<std::string, Value> data;
};

// A request whose api_token is not the expected one (the server replies "Unauthorized: ...").
class Unauthorized : public Error {
 public:
  using Error::Error;
};

// Decodes a request. With `expected_token`, the token is checked (in constant time) before the data
// is decoded, so an unauthorised request costs no more than reading its envelope.
Request decode_request(const std::byte* bytes, std::size_t size, const std::optional<std::string>& expected_token = {});

// Compares in time that depends only on the expected token's length.
bool same_token(const std::string& given, const std::string& expected);

// What a get_action request asks for, its fields checked and named as the client sent them:
//   backbone_features [S, ctx] or [1, S, ctx]; backbone_attention_mask, image_mask [S] or [1, S];
//   state; embodiment_id (int) or embodiment (tag); noise [H, A] or [1, H, A] or seed (int >= 0);
//   N1.7's real-time chunking: action [H_prev, A] or [1, H_prev, A] (the previous chunk) with
//   action_horizon, rtc_overlap_steps, rtc_frozen_steps (ints) and rtc_ramp_rate (a number), all or none.
// The arrays are views into `request`, which must outlive the call.
struct ActionCall {
  model::ObservationArrays arrays;
  std::string embodiment;  // empty: the head's default
  std::optional<TensorView> noise;
  uint64_t seed = 0;
  std::optional<TensorView> previous_actions;
  std::optional<model::RealTimeChunking> rtc;
};
ActionCall action_call(const Request& request);

// The samples of a get_action request, one ActionCall each. backbone_features [S, ctx] or [1, S, ctx]
// is one sample: action_call's. backbone_features [B, S, ctx] with B > 1 is a batch, every other array
// with the same leading B: masks [B, S], state [B, ...], noise [B, H, A], action [B, H_prev, A];
// embodiment_id an int for every sample or B of them (a list or an integer array [B]), embodiment a
// tag or a list of B tags; seed: sample i draws its noise from seed + i (seed absent: 0 + i); the
// real-time chunking options are every sample's. Errors name the field ("noise: a batch of 2, but
// backbone_features has a batch of 3").
std::vector<ActionCall> action_calls(const Request& request);

// Replies.
std::string encode_error(const std::string& message);
std::string encode_map(const nlohmann::json& object);  // JSON objects, arrays and scalars as msgpack
std::string encode_actions(const Matrix<double>& actions);  // {"action_pred": float32 [1, H, A]}
std::string encode_actions(const std::vector<Matrix<double>>& batch);  // {"action_pred": float32 [B, H, A]}

}  // namespace ditmk::wire
