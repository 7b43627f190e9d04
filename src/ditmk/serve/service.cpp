#include "ditmk/serve/service.hpp"

#include <nlohmann/json.hpp>

#include "ditmk/wire/message.hpp"

namespace ditmk::serve {

namespace {

// A failed reply: the message as one line, in the reply bytes too.
void set_error(Reply& reply, const std::string& message) {
  reply.error = one_line(message);
  reply.bytes = wire::encode_error(reply.error);
}

}  // namespace

std::string one_line(std::string text) {
  constexpr std::size_t kMax = 2000;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return text;
}

ScreenedRequest screen_request(const std::byte* bytes, std::size_t size, const std::optional<std::string>& api_token,
                               std::size_t max_request_bytes) {
  ScreenedRequest screened;
  Reply& reply = screened.reply;  // endpoint "?" until the request is read
  try {
    if (size > max_request_bytes)
      fail("request: {} bytes exceed the server's limit of {} bytes (--max-request-mb)", size, max_request_bytes);
    wire::Request request = wire::decode_request(bytes, size, api_token);
    reply.endpoint = one_line(request.endpoint);
    if (request.endpoint == "ping") {
      reply.bytes = wire::encode_map({{"status", "ok"}, {"message", "Server is running"}});
    } else if (request.endpoint == "kill") {
      reply.bytes = wire::encode_map({{"status", "ok"}, {"message", "Server is stopping"}});
      reply.stop = true;
    } else if (request.endpoint == "get_info" || request.endpoint == "get_action") {
      screened.model_request = std::move(request);
    } else {
      fail("endpoint '{}': unknown (expected ping, get_info, get_action, kill)", reply.endpoint);
    }
  } catch (const Error& e) {
    set_error(reply, e.what());
  } catch (const std::bad_alloc&) {
    set_error(reply, "out of memory");
  }
  return screened;
}

Service::Service(ActionHead& head, std::optional<std::string> api_token, std::size_t max_request_bytes)
    : head_(head), api_token_(std::move(api_token)), max_request_bytes_(max_request_bytes) {}

Reply Service::handle(const std::byte* bytes, std::size_t size) {
  PreparedRequest prepared = prepare(bytes, size);
  if (!prepared.action) return std::move(prepared.reply);
  return run(*prepared.action, std::move(prepared.reply));
}

PreparedRequest Service::prepare(const std::byte* bytes, std::size_t size) {
  ScreenedRequest screened = screen_request(bytes, size, api_token_, max_request_bytes_);
  PreparedRequest prepared;
  prepared.reply = std::move(screened.reply);
  if (!screened.model_request) return prepared;
  Reply& reply = prepared.reply;
  try {
    if (screened.model_request->endpoint == "get_info") {
      reply.bytes = wire::encode_map(head_.info().to_json());
      return prepared;
    }
    ActionRequest action;
    action.request = std::make_unique<wire::Request>(std::move(*screened.model_request));
    const std::vector<wire::ActionCall> calls = wire::action_calls(*action.request);
    const bool batch = calls.size() > 1;
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const wire::ActionCall& call = calls[i];
      const std::string sample = batch ? "sample " + std::to_string(i) : "";
      try {
        action.observations.push_back(head_.observation(call.arrays));
        head_.embodiment_slot(call.embodiment);  // as get_action would, before the request joins a batch
      } catch (const Error& e) {
        if (!batch) throw;
        fail("{}: {}", sample, e.what());
      }
      CallOptions options;
      options.embodiment = call.embodiment, options.noise = call.noise, options.seed = call.seed;
      options.previous_actions = call.previous_actions, options.previous_actions_name = "action", options.rtc = call.rtc;
      action.calls.push_back(std::move(options));
    }
    prepared.action = std::move(action);
  } catch (const Error& e) {
    set_error(reply, e.what());
  } catch (const std::bad_alloc&) {
    set_error(reply, "out of memory");
  }
  return prepared;
}

namespace {

// The reply of one request's results: [1, H, A] for one sample, [B, H, A] for a batch; a batch's
// warnings name their sample.
void set_actions(Reply& reply, std::vector<model::DenoiseResult>::const_iterator first, std::size_t count) {
  std::vector<Matrix<double>> actions;
  for (std::size_t i = 0; i < count; ++i) {
    const model::DenoiseResult& result = first[std::ptrdiff_t(i)];
    actions.push_back(result.actions);
    for (const std::string& warning : result.warnings)
      reply.warnings.push_back(one_line(count == 1 ? warning : "sample " + std::to_string(i) + ": " + warning));
  }
  reply.bytes = wire::encode_actions(actions);
}

}  // namespace

Reply Service::run(ActionRequest& action, Reply reply) {
  try {
    if (action.observations.size() == 1) {
      const model::DenoiseResult result = head_.get_action(action.observations.front(), action.calls.front());
      reply.bytes = wire::encode_actions(result.actions);
      for (const std::string& warning : result.warnings) reply.warnings.push_back(one_line(warning));
    } else {
      const std::vector<model::DenoiseResult> results = head_.get_actions(action.observations, action.calls);
      set_actions(reply, results.begin(), results.size());
    }
  } catch (const Error& e) {
    set_error(reply, e.what());
  } catch (const std::bad_alloc&) {
    set_error(reply, "out of memory");
  }
  return reply;
}

std::vector<Reply> Service::run_together(std::vector<ActionRequest>& actions, std::vector<Reply> replies) {
  require(actions.size() == replies.size(), "run_together: {} requests, {} replies", actions.size(), replies.size());
  if (actions.size() == 1) {
    replies.front() = run(actions.front(), std::move(replies.front()));
    return replies;
  }
  std::vector<model::Observation> observations;
  std::vector<CallOptions> calls;
  for (const ActionRequest& action : actions) {
    observations.insert(observations.end(), action.observations.begin(), action.observations.end());
    calls.insert(calls.end(), action.calls.begin(), action.calls.end());
  }
  std::vector<model::DenoiseResult> results;
  try {
    results = head_.get_actions(observations, calls);
  } catch (const Error&) {
    results.clear();
  } catch (const std::bad_alloc&) {
    results.clear();
  }
  if (results.size() != observations.size()) {  // each alone: the failure is some request's own
    for (std::size_t i = 0; i < actions.size(); ++i) {
      replies[i] = run(actions[i], std::move(replies[i]));
      replies[i].ran_alone = true;
    }
    return replies;
  }
  auto first = results.cbegin();
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const std::size_t count = actions[i].observations.size();
    if (count == 1) {
      replies[i].bytes = wire::encode_actions(first->actions);
      for (const std::string& warning : first->warnings) replies[i].warnings.push_back(one_line(warning));
    } else {
      set_actions(replies[i], first, count);
    }
    first += std::ptrdiff_t(count);
  }
  return replies;
}

}  // namespace ditmk::serve
