#pragma once
// `ditmk serve`: the policy service on a ZeroMQ REP socket (GR00T's inference transport). One
// request at a time, in arrival order; a line per request on stderr (endpoint, status,
// milliseconds); stops cleanly on SIGINT / SIGTERM or the kill endpoint.
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
};

// Serves until killed; returns when the server has stopped and its socket is closed.
void run_server(ActionHead& head, const ServerOptions& options);

}  // namespace ditmk::serve
