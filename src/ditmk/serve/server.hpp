#pragma once
// `ditmk serve`: the policy service on a ZeroMQ REP socket (GR00T's inference transport). One
// request at a time, in arrival order; a line per request on stderr (endpoint, status,
// milliseconds); stops cleanly on SIGINT / SIGTERM or the kill endpoint.
// Dynamic batching (batch_window_ms > 0): a ROUTER socket (GR00T's REQ clients speak to it as to REP)
// holds the get_action requests arriving within the window after the first waiting one, up to
// max_batch samples, and runs them as one ActionHead::get_actions; each client gets the reply it
// would get alone. ping, get_info, kill and requests that fail their own checks are answered at once.
#include <cstddef>
#include <optional>
#include <string>

#include "ditmk/api/ditmk.hpp"

namespace ditmk::serve {

struct ServerOptions {
  std::string host = "127.0.0.1";       // loopback unless told otherwise
  int port = 5555;
  std::optional<std::string> api_token;
  std::size_t max_request_bytes = std::size_t(64) << 20;
  double batch_window_ms = 0;  // 0: off (REP, one request at a time)
  int max_batch = 8;           // samples in one windowed batch
};

// Serves until killed; returns when the server has stopped and its socket is closed.
void run_server(ActionHead& head, const ServerOptions& options);

}  // namespace ditmk::serve
