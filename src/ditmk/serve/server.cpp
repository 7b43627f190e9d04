#include "ditmk/serve/server.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <optional>
#include <vector>
#include <zmq.hpp>

#include "ditmk/serve/service.hpp"

namespace ditmk::serve {

namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop_signal(int) { g_stop_signal = 1; }

// ZeroMQ drops (without a reply) messages larger than this before they are read into memory;
// requests between the limit and this get an error reply naming the limit.
std::size_t transport_limit(std::size_t max_request_bytes) { return 4 * max_request_bytes + 4096; }

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void log_reply(const Reply& reply, double ms, const std::string& batch = "") {
  for (const std::string& warning : reply.warnings) fmt::print(stderr, "serve: {} warning: {}\n", reply.endpoint, warning);
  if (reply.error.empty()) fmt::print(stderr, "serve: {} ok {:.1f} ms{}\n", reply.endpoint, ms, batch);
  else fmt::print(stderr, "serve: {} error {:.1f} ms{}: {}\n", reply.endpoint, ms, batch, reply.error);
}

// Waits up to `timeout` for a message; false on timeout or a signal.
bool wait_readable(zmq::socket_t& socket, std::chrono::milliseconds timeout) {
  zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
  try {
    return zmq::poll(&item, 1, timeout) > 0;
  } catch (const zmq::error_t& e) {
    if (e.num() == EINTR) return false;
    throw;
  }
}

// A request on the ROUTER socket: the peer's envelope (identity frames up to the empty delimiter a
// REQ socket puts before its body) and the body.
struct Incoming {
  std::vector<zmq::message_t> envelope;
  zmq::message_t body;
  Clock::time_point arrived;
};

// The next whole message, or nullopt (nothing waiting, a signal, or a message without an envelope,
// which cannot be answered and is dropped).
std::optional<Incoming> receive(zmq::socket_t& socket) {
  std::vector<zmq::message_t> frames;
  try {
    do {
      zmq::message_t frame;
      if (!socket.recv(frame, frames.empty() ? zmq::recv_flags::dontwait : zmq::recv_flags::none)) return std::nullopt;
      frames.push_back(std::move(frame));
    } while (frames.back().more());
  } catch (const zmq::error_t& e) {
    if (e.num() == EINTR && frames.empty()) return std::nullopt;
    throw;
  }
  if (frames.size() < 3 || frames[frames.size() - 2].size() != 0) {
    fmt::print(stderr, "serve: ? dropped a message of {} frames without a REQ envelope\n", frames.size());
    return std::nullopt;
  }
  Incoming in;
  in.arrived = Clock::now();
  in.body = std::move(frames.back());
  frames.pop_back();
  in.envelope = std::move(frames);
  return in;
}

void send_reply(zmq::socket_t& socket, const std::vector<zmq::message_t>& envelope, const std::string& bytes) {
  for (const zmq::message_t& frame : envelope) socket.send(zmq::buffer(frame.data(), frame.size()), zmq::send_flags::sndmore);
  socket.send(zmq::buffer(bytes), zmq::send_flags::none);
}

// A get_action request waiting for its batch.
struct Waiting {
  Incoming in;
  PreparedRequest prepared;
};

// Dynamic batching on a ROUTER socket (server.hpp).
bool serve_windowed(zmq::socket_t& socket, Service& service, const ServerOptions& o) {
  const auto window = std::chrono::duration<double, std::milli>(o.batch_window_ms);
  std::optional<Waiting> carried;  // a request that did not fit the last batch: the next one's first
  bool stop = false;
  // Reads one request: answers it at once unless it is a get_action that passed its checks.
  auto take = [&](Incoming in) -> std::optional<Waiting> {
    PreparedRequest prepared = service.prepare(static_cast<const std::byte*>(in.body.data()), in.body.size());
    if (prepared.action) return Waiting{std::move(in), std::move(prepared)};
    send_reply(socket, in.envelope, prepared.reply.bytes);
    log_reply(prepared.reply, ms_since(in.arrived));
    stop = stop || prepared.reply.stop;
    return std::nullopt;
  };
  while (!stop && !g_stop_signal) {
    std::vector<Waiting> batch;
    std::size_t samples = 0;
    if (carried) {
      batch.push_back(std::move(*carried)), carried.reset();
    } else {
      if (!wait_readable(socket, std::chrono::milliseconds(200))) continue;
      std::optional<Incoming> in = receive(socket);
      if (!in) continue;
      std::optional<Waiting> waiting = take(std::move(*in));
      if (!waiting) continue;
      batch.push_back(std::move(*waiting));
    }
    samples = batch.front().prepared.action->observations.size();
    const Clock::time_point deadline =
        batch.front().in.arrived + std::chrono::duration_cast<Clock::duration>(window);
    while (!stop && !g_stop_signal && samples < std::size_t(o.max_batch)) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
      const bool ready = wait_readable(socket, std::max(left, std::chrono::milliseconds(0)));
      if (!ready && Clock::now() >= deadline) break;
      std::optional<Incoming> in = receive(socket);
      if (!in) continue;
      std::optional<Waiting> waiting = take(std::move(*in));
      if (!waiting) continue;
      const std::size_t n = waiting->prepared.action->observations.size();
      if (samples + n > std::size_t(o.max_batch)) {
        carried = std::move(waiting);
        break;
      }
      samples += n;
      batch.push_back(std::move(*waiting));
    }
    const Clock::time_point start = Clock::now();
    std::vector<ActionRequest> actions;
    std::vector<Reply> replies;
    for (Waiting& w : batch) {
      actions.push_back(std::move(*w.prepared.action));
      replies.push_back(std::move(w.prepared.reply));
    }
    replies = service.run_together(actions, std::move(replies));
    const double run_ms = ms_since(start);
    const std::string size = fmt::format(" (batch of {} request{}, {} sample{}; {:.1f} ms denoising)", batch.size(),
                                         batch.size() == 1 ? "" : "s", samples, samples == 1 ? "" : "s", run_ms);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      send_reply(socket, batch[i].in.envelope, replies[i].bytes);
      log_reply(replies[i], ms_since(batch[i].in.arrived),
                replies[i].ran_alone ? size.substr(0, size.find(';')) + ", run alone: the batch failed)" : size);
    }
  }
  if (carried) {  // stopping with a request read: answer it
    Reply reply = service.run(*carried->prepared.action, std::move(carried->prepared.reply));
    send_reply(socket, carried->in.envelope, reply.bytes);
    log_reply(reply, ms_since(carried->in.arrived), " (batch of 1 request)");
  }
  return stop;
}

}  // namespace

void run_server(ActionHead& head, const ServerOptions& o) {
  Service service(head, o.api_token, o.max_request_bytes);
  zmq::context_t context(1);
  const bool windowed = o.batch_window_ms > 0;
  zmq::socket_t socket(context, windowed ? zmq::socket_type::router : zmq::socket_type::rep);
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
  const std::string batching =
      windowed ? fmt::format(", batch window {} ms, up to {} samples", o.batch_window_ms, o.max_batch) : "";
  fmt::print(stderr, "serve: {} {} on {} ({}, {}, {} threads{}){}\n", head.info().version, head.info().checkpoint,
             endpoint, head.info().backend, head.info().dtype, head.info().threads, batching,
             o.api_token ? ", api token required" : "");
  bool stop = windowed && serve_windowed(socket, service, o);
  while (!windowed && !stop && !g_stop_signal) {
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
