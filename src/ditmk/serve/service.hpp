#pragma once
// The policy service: GR00T's inference endpoints over one resident ActionHead, message bytes in,
// reply bytes out (the transport is server.hpp's). Endpoints:
//   ping        {"status": "ok", "message": "Server is running"}
//   get_info    the head's facts (version, dims, horizon, embodiments, backend, weight format, ...)
//   get_action  data -> {"action_pred": ndarray float32 [1, H, A]} (wire::action_call lists the fields);
//               a batch (backbone_features [B, S, ctx], B > 1; wire::action_calls) -> [B, H, A], run as
//               one ActionHead::get_actions, each sample's actions those of its own request
//   kill        {"status": "ok", "message": "Server is stopping"}, then the server stops
// Any failure is the reply {"error": "<one line>"}; the service keeps serving.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ditmk/api/ditmk.hpp"
#include "ditmk/wire/message.hpp"

namespace ditmk::serve {

struct Reply {
  std::string bytes;    // the msgpack reply
  std::string endpoint = "?";  // what was asked ("?" when the request could not be read)
  std::string error;    // empty when it succeeded
  std::vector<std::string> warnings;  // get_action: inputs computed as released with a quirk (logged)
  bool stop = false;    // kill: stop after sending
  bool ran_alone = false;  // Service::run_together: run alone because the batch call failed
};

// Names and messages quote what a client sent: control characters become '?', so a reply and a log
// entry stay one line, and the length is bounded.
std::string one_line(std::string text);

// What the service answers before any model work, in its order: the size limit, the envelope and
// the token, then ping, kill and unknown endpoints. A request for the model (get_info, get_action)
// comes back decoded in model_request, its reply still to make; anything else has its reply (an
// error reply where it failed). An ingress that routes model requests elsewhere answers the rest
// with this, as `ditmk serve` does (python/ditmk/ray.py).
struct ScreenedRequest {
  Reply reply;
  std::optional<wire::Request> model_request;
};
ScreenedRequest screen_request(const std::byte* bytes, std::size_t size, const std::optional<std::string>& api_token,
                               std::size_t max_request_bytes);

// A get_action request read and checked, its model work still to do: each sample's observation and
// options (views into `request`, which it owns). `reply` carries the endpoint.
struct ActionRequest {
  std::unique_ptr<wire::Request> request;
  std::vector<model::Observation> observations;
  std::vector<CallOptions> calls;
};

// A request as far as it goes without model work: `reply` is its answer unless `action` is set.
struct PreparedRequest {
  Reply reply;
  std::optional<ActionRequest> action;
};

class Service {
 public:
  // `api_token`: when set, every request must carry it. `max_request_bytes`: larger requests are
  // refused before decoding.
  Service(ActionHead& head, std::optional<std::string> api_token, std::size_t max_request_bytes);

  // prepare then run.
  Reply handle(const std::byte* bytes, std::size_t size);

  // Everything but the denoise: screen_request, get_info's answer, a get_action's fields and each
  // sample's observation and embodiment checked (errors name the sample in a batch: "sample 2: ...").
  PreparedRequest prepare(const std::byte* bytes, std::size_t size);
  // One prepared get_action request alone: ActionHead::get_action, or get_actions for a batch.
  Reply run(ActionRequest& action, Reply reply);
  // Several prepared get_action requests as one ActionHead::get_actions (dynamic batching); the
  // replies, in order, those each would get alone. When the batch call fails, each runs alone, so a
  // request's failure is its own.
  std::vector<Reply> run_together(std::vector<ActionRequest>& actions, std::vector<Reply> replies);

 private:
  ActionHead& head_;
  std::optional<std::string> api_token_;
  std::size_t max_request_bytes_;
};

}  // namespace ditmk::serve
