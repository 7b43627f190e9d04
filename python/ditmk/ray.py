"""ditmk.ray: the resident action head as a Ray Serve deployment, behind an ingress that speaks
`ditmk serve`'s protocol (GR00T's ZeroMQ + msgpack wire format), so that an unchanged GR00T
PolicyClient, or ditmk.client, works against a cluster as against one server (docs/serve.md).

    python -m ditmk ray-serve --address HEAD:6379 --checkpoint RELEASE_DIR --replicas 2 --port 5555

Each replica opens one ActionHead (loaded and packed once, its thread count the CPUs Ray gives the
replica) and answers with serve::Service, the server's own code, so its replies are the server's bytes.
The ingress answers what needs no model (ping, kill, and every refusal: size limit, token, malformed
envelope, unknown endpoint) with the server's checks and messages (the C++ codec, bound in _ditmk),
and routes get_info and get_action to the deployment, one sample per call. A request that a replica
fails to answer because the replica died is retried on another one; when the tries run out the client
gets an error reply naming the failure: a request is never dropped without a reply.
"""
import argparse
import concurrent.futures
import math
import os
import re
import signal
import sys
import threading
import time

import ray
import zmq
from ray import serve

from . import ActionHead, _ditmk

APP_NAME = "ditmk"
DEPLOYMENT_NAME = "ActionHead"


def request_limit(max_request_mb):
    """--max-request-mb in bytes, rounded as `ditmk serve` rounds it (half away from zero)."""
    return int(math.floor(max_request_mb * (1 << 20) + 0.5))


def transport_limit(max_request_bytes):
    """ZeroMQ drops (without a reply) messages larger than this before reading them, as `ditmk serve`
    does; requests between the limit and this get the error reply naming the limit."""
    return 4 * max_request_bytes + 4096


@serve.deployment(name=DEPLOYMENT_NAME, ray_actor_options={"num_cpus": 1}, max_ongoing_requests=8)
class PolicyReplica:
    """One resident head. `threads` None: the CPUs Ray assigned to this replica."""

    def __init__(self, checkpoint, version, backend, dtype, threads, isa, mask_padding, max_request_bytes):
        context = ray.get_runtime_context()
        if threads is None:
            threads = max(1, int(context.get_assigned_resources().get("CPU", 1)))
        self.head = ActionHead(checkpoint, version=version, backend=backend, dtype=dtype, threads=threads, isa=isa,
                               mask_padding=mask_padding)
        self.service = _ditmk.PolicyService(self.head._head, max_request_bytes)
        self.where = f"node {context.get_node_id()[:8]} replica {serve.get_replica_context().replica_id.unique_id}"

    def __call__(self, request: bytes):
        """-> (the server's reply bytes, its error message or "", its warnings, where it was computed)"""
        reply, _, error, warnings = self.service.handle(request)
        return reply, error, warnings, self.where


def application(checkpoint=None, version="n15", backend="cpu", dtype="bf16", threads=None, isa=None, mask_padding=False,
                max_request_mb=64, num_replicas=1, num_cpus=1, autoscaling_config=None, **deployment_options):
    """The deployment as a Serve application, for serve.run. checkpoint: a path every node can read (a
    shared file system), or None for the built-in model of `version` (generated on each node).
    num_replicas / autoscaling_config / other Ray Serve deployment options are Ray's own."""
    options = dict(deployment_options, ray_actor_options={"num_cpus": num_cpus})
    if autoscaling_config is not None:
        options["autoscaling_config"] = autoscaling_config
    else:
        options["num_replicas"] = num_replicas
    return PolicyReplica.options(**options).bind(None if checkpoint is None else str(checkpoint), version, backend, dtype,
                                                 threads, isa, mask_padding, request_limit(max_request_mb))


def _failure(error):
    """One line for an exception of the cluster (Ray's carry tracebacks on the following lines)."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    return f"{type(error).__name__}: {lines[0] if lines else 'no message'}"


def _deployment_failure(error):
    """The replicas' own error line (ditmk's one-line message), from the status Ray keeps, else Ray's."""
    try:
        message = serve.status().applications[APP_NAME].deployments[DEPLOYMENT_NAME].message
    except (KeyError, AttributeError):
        message = ""
    raised = re.findall(r"^(?:ValueError|FileNotFoundError|RuntimeError): (?!Traceback)(.+)$", message, re.MULTILINE)
    return raised[-1] if raised else _failure(error)


class Ingress:
    """A ZeroMQ ROUTER socket (REQ clients see a REP server) that routes get_info and get_action to a
    deployment handle from a pool of threads, replying in whatever order the replicas finish.
    Each request is answered exactly once: the reply of a replica, or an error reply."""

    def __init__(self, handle, host="127.0.0.1", port=5555, api_token=None, max_request_mb=64, tries=3, timeout_s=60.0,
                 workers=64, log=sys.stderr):
        self.handle = handle
        self.api_token = api_token
        self.max_request_bytes = request_limit(max_request_mb)
        self.tries = tries
        self.timeout_s = timeout_s
        self.log = log
        self.context = zmq.Context()
        self.socket = self.context.socket(zmq.ROUTER)
        self.socket.setsockopt(zmq.MAXMSGSIZE, transport_limit(self.max_request_bytes))
        self.socket.setsockopt(zmq.LINGER, 0)
        self.endpoint = f"tcp://{host}:{port}"
        try:
            self.socket.bind(self.endpoint)
        except zmq.ZMQError as e:
            raise RuntimeError(f"cannot listen on {self.endpoint}: {e}") from None
        # replies come back from the pool through this pair: a ZeroMQ socket is used by one thread only
        self.replies_address = f"inproc://replies-{id(self)}"
        self.replies = self.context.socket(zmq.PULL)
        self.replies.bind(self.replies_address)
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ingress")
        self.local = threading.local()
        self.stopping = threading.Event()
        self.log_lock = threading.Lock()

    def _print(self, line):
        with self.log_lock:  # whole lines from the pool's threads
            self.log.write(line + "\n")
            self.log.flush()

    def _route(self, request):
        """-> (reply bytes, error message or "", warnings, where, tries used); an error reply when every
        try failed."""
        failures = []
        for attempt in range(1, self.tries + 1):
            try:
                return (*self.handle.remote(request).result(timeout_s=self.timeout_s), attempt)
            except TimeoutError:
                # the replica may still be computing it: asking again would double the load
                error = f"cluster: no reply within {self.timeout_s:g} s"
                break
            except (ray.exceptions.RayActorError, ray.exceptions.ActorUnavailableError) as e:
                failures.append(_failure(e))  # the replica died or is unreachable: another one may answer
                error = f"cluster: no replica answered in {attempt} tries (last: {failures[-1]})"
                time.sleep(0.2 * attempt)
            except Exception as e:  # noqa: BLE001 - any other failure becomes the client's error reply
                error = f"cluster: {_failure(e)}"
                break
        return _ditmk.error_reply(error), error, [], "-", attempt

    def _answer(self, frames, endpoint, start):
        reply, error, warnings, where, tries = self._route(frames[-1])
        ms = (time.perf_counter() - start) * 1e3
        line = f"ray-serve: {endpoint} {'error' if error else 'ok'} {ms:.1f} ms on {where}"
        line += f" ({tries} tries)" if tries > 1 else ""
        self._print("\n".join([line + (f": {error}" if error else ""),
                               *(f"ray-serve: {endpoint} warning: {warning}" for warning in warnings)]))
        sender = getattr(self.local, "sender", None)
        if sender is None:
            sender = self.local.sender = self.context.socket(zmq.PUSH)
            sender.setsockopt(zmq.LINGER, 0)
            sender.connect(self.replies_address)
        sender.send_multipart([*frames[:-1], reply])

    def serve_forever(self):
        """Serves until stop() (a signal handler may call it) or the kill endpoint."""
        self._print(f"ray-serve: {self.endpoint} -> deployment {DEPLOYMENT_NAME}"
                    + (", api token required" if self.api_token else ""))
        poller = zmq.Poller()
        poller.register(self.socket, zmq.POLLIN)
        poller.register(self.replies, zmq.POLLIN)
        while not self.stopping.is_set():
            events = dict(poller.poll(200))
            if self.replies in events:
                self.socket.send_multipart(self.replies.recv_multipart())
            if self.socket not in events:
                continue
            frames = self.socket.recv_multipart()
            start = time.perf_counter()
            endpoint, reply, error = _ditmk.ingress_reply(frames[-1], self.api_token, self.max_request_bytes)
            if reply is None:
                self.pool.submit(self._answer, frames, endpoint, start)
                continue
            self.socket.send_multipart([*frames[:-1], reply])
            ms = (time.perf_counter() - start) * 1e3
            self._print(f"ray-serve: {endpoint} {'error' if error else 'ok'} {ms:.1f} ms" + (f": {error}" if error else ""))
            if endpoint == "kill" and not error:
                self.stopping.set()
        # requests in flight are answered before the socket closes
        self.pool.shutdown(wait=True)
        while self.replies.poll(0):
            self.socket.send_multipart(self.replies.recv_multipart())
        self.context.destroy(linger=0)  # the pool threads' sockets too

    def stop(self):
        self.stopping.set()


def _parser():
    p = argparse.ArgumentParser(prog="ditmk ray-serve", description="The action head on a Ray cluster, behind "
                                "an ingress speaking `ditmk serve`'s protocol (docs/serve.md)")
    p.add_argument("--address", required=True, help="the Ray cluster (HEAD_IP:6379, or 'auto' on one of its nodes)")
    p.add_argument("--checkpoint", help="release directory every node can read (default: the built-in model)")
    p.add_argument("--version", default="n15", choices=("n15", "n16", "n17"))
    p.add_argument("--backend", default="cpu", choices=("cpu", "ref", "emu"))
    p.add_argument("--dtype", default="bf16", choices=("bf16", "bfp8_b", "fp32", "int8"))
    p.add_argument("--threads", type=int, help="threads per replica (default: its --cpus-per-replica)")
    p.add_argument("--isa", help="cap on the CPU instruction set (portable, avx2, avx512f, avx512, amx)")
    p.add_argument("--mask-padding", action="store_true")
    p.add_argument("--replicas", type=int, default=1, help="fixed number of replicas")
    p.add_argument("--autoscale", metavar="MIN:MAX", help="let Ray Serve scale between MIN and MAX replicas")
    p.add_argument("--target-ongoing", type=float, default=1.0,
                   help="autoscaling: requests in flight per replica Ray Serve aims for (default 1)")
    p.add_argument("--cpus-per-replica", type=float, default=1.0)
    p.add_argument("--max-ongoing", type=int, default=8,
                   help="requests a replica holds at once, computing one and queueing the rest (default 8)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5555)
    p.add_argument("--api-token")
    p.add_argument("--max-request-mb", type=float, default=64.0)
    p.add_argument("--tries", type=int, default=3, help="tries per request when replicas die (default 3)")
    p.add_argument("--timeout-s", type=float, default=60.0, help="time one try may take (default 60)")
    return p


def _autoscaling(text, target):
    try:
        low, high = (int(part) for part in text.split(":"))
    except ValueError:
        raise SystemExit(f"ditmk ray-serve: error: --autoscale '{text}': expected MIN:MAX (integers)") from None
    if not 0 <= low <= high or high < 1:
        raise SystemExit(f"ditmk ray-serve: error: --autoscale '{text}': expected 0 <= MIN <= MAX, MAX >= 1")
    return {"min_replicas": low, "max_replicas": high, "target_ongoing_requests": target}


def main(argv=None):
    """`ditmk ray-serve`: deploys the head on the cluster, serves until SIGINT, SIGTERM or kill, then
    removes the deployment."""
    args = _parser().parse_args(argv)
    for name in ("replicas", "tries", "max_ongoing"):
        if getattr(args, name) < 1:
            raise SystemExit(f"ditmk ray-serve: error: --{name.replace('_', '-')} {getattr(args, name)}: expected at least 1")
    if not 0.001 <= args.max_request_mb <= 4096:
        raise SystemExit(f"ditmk ray-serve: error: --max-request-mb {args.max_request_mb:g}: expected 0.001 to 4096")
    if args.cpus_per_replica <= 0 or args.timeout_s <= 0:
        raise SystemExit("ditmk ray-serve: error: --cpus-per-replica and --timeout-s must be positive")
    if args.checkpoint is not None and not os.path.exists(args.checkpoint):
        raise SystemExit(f"ditmk ray-serve: error: {args.checkpoint}: no such release (it must be readable at this path "
                         "on every node, this one included)")
    autoscaling = None if args.autoscale is None else _autoscaling(args.autoscale, args.target_ongoing)
    try:
        ray.init(address=args.address, logging_level="WARNING", log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise SystemExit(f"ditmk ray-serve: error: --address {args.address}: {_failure(e)}") from None
    serve.start(proxy_location="Disabled")
    app = application(args.checkpoint, args.version, args.backend, args.dtype, args.threads, args.isa, args.mask_padding,
                      args.max_request_mb, args.replicas, args.cpus_per_replica, autoscaling,
                      max_ongoing_requests=args.max_ongoing, max_constructor_retry_count=3)
    try:  # listening first: a port in use fails before the cluster does any work
        ingress = Ingress(None, args.host, args.port, args.api_token, args.max_request_mb, args.tries, args.timeout_s)
    except RuntimeError as e:
        raise SystemExit(f"ditmk ray-serve: error: {e}") from None
    for sig in (signal.SIGINT, signal.SIGTERM):  # from here on, a signal still removes the deployment
        signal.signal(sig, lambda *_: ingress.stop())
    try:
        try:  # requests wait in the socket's queue until the deployment runs
            ingress.handle = serve.run(app, name=APP_NAME, route_prefix=None)
        except RuntimeError as e:  # a replica that cannot open the head
            raise SystemExit(f"ditmk ray-serve: error: the deployment failed: {_deployment_failure(e)}") from None
        ingress.serve_forever()
    finally:
        serve.delete(APP_NAME)
    print("ray-serve: stopped", file=sys.stderr, flush=True)
