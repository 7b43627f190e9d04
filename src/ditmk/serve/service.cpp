#include "ditmk/serve/service.hpp"

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
  ScreenedRequest screened = screen_request(bytes, size, api_token_, max_request_bytes_);
  if (!screened.model_request) return screened.reply;
  Reply reply = std::move(screened.reply);
  const wire::Request& request = *screened.model_request;
  try {
    if (request.endpoint == "get_info") {
      reply.bytes = wire::encode_map(head_.info().to_json());
    } else {
      const wire::ActionCall call = wire::action_call(request);
      CallOptions options;
      options.embodiment = call.embodiment, options.noise = call.noise, options.seed = call.seed;
      options.previous_actions = call.previous_actions, options.previous_actions_name = "action", options.rtc = call.rtc;
      const model::DenoiseResult result = head_.get_action(head_.observation(call.arrays), options);
      reply.bytes = wire::encode_actions(result.actions);
      for (const std::string& warning : result.warnings) reply.warnings.push_back(one_line(warning));
    }
  } catch (const Error& e) {
    set_error(reply, e.what());
  } catch (const std::bad_alloc&) {
    set_error(reply, "out of memory");
  }
  return reply;
}

}  // namespace ditmk::serve
