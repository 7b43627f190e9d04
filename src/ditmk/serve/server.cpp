#include "ditmk/serve/server.hpp"

#include <fmt/format.h>

#include <chrono>
#include <csignal>
#include <zmq.hpp>

#include "ditmk/serve/service.hpp"

namespace ditmk::serve {

namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop_signal(int) { g_stop_signal = 1; }

// ZeroMQ drops (without a reply) messages larger than this before they are read into memory;
// requests between the limit and this get an error reply naming the limit.
std::size_t transport_limit(std::size_t max_request_bytes) { return 4 * max_request_bytes + 4096; }

}  // namespace

void run_server(ActionHead& head, const ServerOptions& o) {
  Service service(head, o.api_token, o.max_request_bytes);
  zmq::context_t context(1);
  zmq::socket_t socket(context, zmq::socket_type::rep);
  socket.set(zmq::sockopt::maxmsgsize, int64_t(transport_limit(o.max_request_bytes)));
  socket.set(zmq::sockopt::linger, 0);
  const std::string endpoint = fmt::format("tcp://{}:{}", o.host, o.port);
  try {
    socket.bind(endpoint);
  } catch (const zmq::error_t& e) {
    fail("serve: cannot listen on {}: {}", endpoint, e.what());
  }
  g_stop_signal = 0;
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  fmt::print(stderr, "serve: {} {} on {} ({}, {}, {} threads){}\n", head.info().version, head.info().checkpoint, endpoint,
             head.info().backend, head.info().dtype, head.info().threads, o.api_token ? ", api token required" : "");
  bool stop = false;
  while (!stop && !g_stop_signal) {
    zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
    try {
      if (zmq::poll(&item, 1, std::chrono::milliseconds(200)) == 0) continue;
    } catch (const zmq::error_t& e) {
      if (e.num() == EINTR) continue;
      throw;
    }
    zmq::message_t request;
    try {
      if (!socket.recv(request, zmq::recv_flags::dontwait)) continue;
    } catch (const zmq::error_t& e) {
      if (e.num() == EINTR) continue;
      throw;
    }
    const auto start = std::chrono::steady_clock::now();
    const Reply reply = service.handle(static_cast<const std::byte*>(request.data()), request.size());
    socket.send(zmq::buffer(reply.bytes), zmq::send_flags::none);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    for (const std::string& warning : reply.warnings) fmt::print(stderr, "serve: {} warning: {}\n", reply.endpoint, warning);
    if (reply.error.empty()) fmt::print(stderr, "serve: {} ok {:.1f} ms\n", reply.endpoint, ms);
    else fmt::print(stderr, "serve: {} error {:.1f} ms: {}\n", reply.endpoint, ms, reply.error);
    stop = reply.stop;
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  fmt::print(stderr, "serve: stopped ({})\n", stop ? "kill" : "signal");
}

}  // namespace ditmk::serve
