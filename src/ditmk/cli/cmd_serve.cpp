// `ditmk serve`: a GR00T policy server (ZeroMQ REQ/REP, msgpack, the released inference service's
// wire format) over one resident action head (docs/serve.md).
#include <cmath>

#include "ditmk/api/ditmk.hpp"
#include "ditmk/cli/commands.hpp"
#include "ditmk/cli/model_source.hpp"
#include "ditmk/cpu/kernels/isa.hpp"
#include "ditmk/serve/server.hpp"

namespace ditmk::cli {

void add_serve(CLI::App& app) {
  struct Options {
    ModelSource model;
    std::string backend = "cpu", dtype = "bf16", isa, host = "127.0.0.1", api_token;
    int threads = 0, port = 5555;
    double max_request_mb = 64, batch_window_ms = 0;
    int max_batch = 8;
    bool no_reuse_vl = false;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("serve", "serve actions over ZeroMQ in GR00T's inference wire format");
  add_model_options(*cmd, o->model);
  add_weight_cache_flag(*cmd, o->model);
  cmd->add_option("--backend", o->backend, "executor: cpu, ref or emu")->check(CLI::IsMember({"cpu", "ref", "emu"}));
  cmd->add_option("--dtype", o->dtype, "weight format")->check(CLI::IsMember({"bf16", "bfp8_b", "fp32", "int8"}));
  cmd->add_option("--threads", o->threads, "worker threads (default: one per core)")->check(CLI::Range(1, 1024));
  cmd->add_option("--isa", o->isa, "cap the CPU instruction set")->check(CLI::IsMember(cpu::isa_names()));
  cmd->add_option("--host", o->host, "address to listen on (default: loopback only)");
  cmd->add_option("--port", o->port, "TCP port")->check(CLI::Range(1, 65535));
  cmd->add_option("--api-token", o->api_token, "require this token in every request");
  cmd->add_option("--max-request-mb", o->max_request_mb, "refuse larger requests before decoding them")
      ->check(CLI::Range(0.001, 4096.0));
  cmd->add_option("--batch-window-ms", o->batch_window_ms,
                  "dynamic batching: run the get_action requests arriving within this many milliseconds of the first "
                  "waiting one as one batch, each answered with its own actions (default 0: off)")
      ->check(CLI::Range(0.0, 10000.0));
  cmd->add_option("--max-batch", o->max_batch, "dynamic batching: at most this many samples in one batch (default 8)")
      ->check(CLI::Range(1, 1024));
  cmd->add_flag("--no-reuse-vl", o->no_reuse_vl,
                "recompute the vision-language work on every call (default: reuse it while a request's features and "
                "masks are the previous request's bytes; same actions)");
  cmd->callback([o] {
    ActionHead head({o->model.checkpoint, o->model.version, o->backend, o->dtype, o->threads, o->isa, o->model.mask_padding,
                     !o->model.no_weight_cache, "", !o->no_reuse_vl});
    serve::ServerOptions options;
    options.host = o->host, options.port = o->port;
    if (!o->api_token.empty()) options.api_token = o->api_token;
    options.max_request_bytes = std::size_t(std::llround(o->max_request_mb * (1 << 20)));
    options.batch_window_ms = o->batch_window_ms, options.max_batch = o->max_batch;
    serve::run_server(head, options);
  });
}

}  // namespace ditmk::cli
