#include "ditmk/serve/service.hpp"

#include "ditmk/wire/message.hpp"

namespace ditmk::serve {

namespace {

// Names and messages quote what a client sent: control characters become '?', so a reply and a
// log entry stay one line, and the length is bounded.
std::string one_line(std::string text) {
  constexpr std::size_t kMax = 2000;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return text;
}

}  // namespace

Service::Service(ActionHead& head, std::optional<std::string> api_token, std::size_t max_request_bytes)
    : head_(head), api_token_(std::move(api_token)), max_request_bytes_(max_request_bytes) {}

Reply Service::handle(const std::byte* bytes, std::size_t size) {
  Reply reply;  // endpoint "?" until the request is read
  try {
    if (size > max_request_bytes_)
      fail("request: {} bytes exceed the server's limit of {} bytes (--max-request-mb)", size, max_request_bytes_);
    const wire::Request request = wire::decode_request(bytes, size, api_token_);
    reply.endpoint = one_line(request.endpoint);
    if (request.endpoint == "ping") {
      reply.bytes = wire::encode_map({{"status", "ok"}, {"message", "Server is running"}});
    } else if (request.endpoint == "get_info") {
      reply.bytes = wire::encode_map(head_.info().to_json());
    } else if (request.endpoint == "kill") {
      reply.bytes = wire::encode_map({{"status", "ok"}, {"message", "Server is stopping"}});
      reply.stop = true;
    } else if (request.endpoint == "get_action") {
      const wire::ActionCall call = wire::action_call(request);
      CallOptions options;
      options.embodiment = call.embodiment, options.noise = call.noise, options.seed = call.seed;
      options.previous_actions = call.previous_actions, options.previous_actions_name = "action", options.rtc = call.rtc;
      const model::DenoiseResult result = head_.get_action(head_.observation(call.arrays), options);
      reply.bytes = wire::encode_actions(result.actions);
      for (const std::string& warning : result.warnings) reply.warnings.push_back(one_line(warning));
    } else {
      fail("endpoint '{}': unknown (expected ping, get_info, get_action, kill)", reply.endpoint);
    }
  } catch (const Error& e) {
    reply.error = e.what();
  } catch (const std::bad_alloc&) {
    reply.error = "out of memory";
  }
  if (!reply.error.empty()) {
    reply.error = one_line(reply.error);
    reply.bytes = wire::encode_error(reply.error);
  }
  return reply;
}

}  // namespace ditmk::serve
