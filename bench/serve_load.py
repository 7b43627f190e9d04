#!/usr/bin/env python3
"""Load on `ditmk serve` over loopback: N concurrent clients x R requests each, without and with dynamic batching.

  PYTHONPATH=build/release/python /usr/bin/python3 bench/serve_load.py [--version n15] [--checkpoint DIR]
      [--clients 8] [--requests 50] [--threads 2] [--dtype bf16] [--ditmk build/release/ditmk] [--port 5599]
      [--window-ms 10] [--max-batch 8] [--no-in-process]

Starts a server, serves every request once alone (the reference replies and the single-client
latency), then all of them again from --clients concurrent clients, then the first --clients of them
as one batched request; then a server with
--batch-window-ms (skipped with --window-ms 0) serves them again from the same clients. Prints one
JSON object: the batched request's time against its samples' sum alone, per server requests sent and answered, replies identical to the reference, p50/p99
latency and throughput under load, the server's resident memory after 10 and after all requests;
the load average while it ran; and the server's overhead: single-client p50 minus the in-process
median of the same call (ditmk.ActionHead, same model, threads and dtype).
The functions are shared with tests/python/test_serve.py.
"""
import argparse
import json
import os
import statistics
import subprocess
import threading
import time

import numpy as np

from ditmk.client import PolicyClient


class Server:
    """`ditmk serve` in a subprocess, ready when it answers ping; stopped by kill or SIGTERM."""

    def __init__(self, ditmk, port, *args):
        self.port = port
        self.process = subprocess.Popen([ditmk, "serve", "--port", str(port), *map(str, args)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        client = PolicyClient(port=port, timeout_ms=500)
        deadline = time.monotonic() + 600
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"ditmk serve exited {self.process.returncode}: {self.process.stderr.read()}")
            try:
                client.call("ping", raw=_ping_bytes(args))
                break
            except TimeoutError as e:  # the server answers once the head is loaded
                if time.monotonic() > deadline:
                    raise RuntimeError("ditmk serve did not answer") from e
        client.socket.close()

    def rss_kb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self, already_asked=False):
        """SIGTERM, or with already_asked (after the kill endpoint or a signal) only wait for the exit;
        returns (exit code, stderr)."""
        if not already_asked and self.process.poll() is None:
            self.process.terminate()
        _, err = self.process.communicate(timeout=60)
        return self.process.returncode, err


def _ping_bytes(args):
    import msgpack

    args = list(map(str, args))
    request = {"endpoint": "ping"}
    if "--api-token" in args:
        request["api_token"] = args[args.index("--api-token") + 1]
    return msgpack.packb(request)


def make_requests(info, count, tokens=64):
    """`count` distinct get_action requests (features, masks, state, seed) for a model's info."""
    rng = np.random.default_rng(1234)
    requests = []
    for i in range(count):
        image_mask = np.zeros(tokens, bool)
        if info["version"] != "n15":
            image_mask[4:4 + 20 + i % 20] = True
        requests.append(dict(
            backbone_features=rng.standard_normal((tokens, info["context_dim"]), dtype=np.float32),
            backbone_attention_mask=np.arange(tokens) < tokens - i % 5,
            image_mask=image_mask,
            state=rng.standard_normal((info["state_history"], info["state_dim"]), dtype=np.float32),
            seed=i))
    return requests


def serve_alone(port, requests):
    """Every request from one client, one after another: (replies, latencies in ms)."""
    client = PolicyClient(port=port)
    replies, latencies = [], []
    for request in requests:
        start = time.perf_counter()
        replies.append(client.get_action(**request))
        latencies.append((time.perf_counter() - start) * 1e3)
    return replies, latencies


def serve_concurrently(port, requests, clients):
    """The requests split over `clients` threads, each with its own REQ socket: (replies by request
    index, latencies in ms, wall seconds). A reply missing or arriving twice is an error."""
    replies = [None] * len(requests)
    latencies = []
    lock = threading.Lock()
    errors = []

    def client_loop(indices):
        client = PolicyClient(port=port)
        for i in indices:
            start = time.perf_counter()
            try:
                reply = client.get_action(**requests[i])
            except Exception as e:  # noqa: BLE001 - recorded and reported
                errors.append(f"request {i}: {e}")
                continue
            with lock:
                latencies.append((time.perf_counter() - start) * 1e3)
                if replies[i] is not None:
                    errors.append(f"request {i} answered twice")
                replies[i] = reply

    threads = [threading.Thread(target=client_loop, args=(range(c, len(requests), clients),)) for c in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    if errors:
        raise RuntimeError("; ".join(errors[:5]))
    return replies, latencies, wall


def percentile(values, q):
    return float(np.percentile(np.asarray(values), q))


def loaded_report(requests, reference, loaded, loaded_ms, wall):
    return {
        "requests": len(requests), "answered": sum(r is not None for r in loaded),
        "identical_to_served_alone": sum(a is not None and a.tobytes() == b.tobytes() for a, b in zip(loaded, reference)),
        "loaded_p50_ms": percentile(loaded_ms, 50), "loaded_p99_ms": percentile(loaded_ms, 99),
        "throughput_per_s": len(requests) / wall,
    }


def batched_request(port, requests, reference):
    """The requests as one batched request (seed 0: sample i draws from seed i, as request i does):
    its time, and how many samples are the bytes of the request served alone."""
    batch = {name: np.stack([r[name] for r in requests]) for name in ("backbone_features", "backbone_attention_mask",
                                                                       "image_mask", "state")}
    assert [r["seed"] for r in requests] == list(range(len(requests)))
    start = time.perf_counter()
    pred = PolicyClient(port=port).get_action(**batch, seed=0)
    ms = (time.perf_counter() - start) * 1e3
    return {"samples": len(requests), "ms": ms,
            "identical_to_served_alone": sum(pred[i].tobytes() == reference[i][0].tobytes() for i in range(len(requests)))}


def batch_sizes(err):
    """The batch sizes (samples) a windowed server's log lines give, one per answered get_action."""
    return [int(line.split(" request")[1].split(", ")[1].split()[0]) for line in err.splitlines()
            if "get_action ok" in line and "(batch of " in line]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default="n15")
    parser.add_argument("--checkpoint")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=50, help="per client")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--dtype", default="bf16")
    parser.add_argument("--tokens", type=int, default=300)
    parser.add_argument("--ditmk", default="build/release/ditmk")
    parser.add_argument("--port", type=int, default=5599)
    parser.add_argument("--window-ms", type=float, default=10, help="the windowed server's --batch-window-ms (0: skip it)")
    parser.add_argument("--max-batch", type=int, help="the windowed server's --max-batch (default: --clients)")
    parser.add_argument("--no-in-process", action="store_true", help="skip the in-process comparison")
    args = parser.parse_args()
    model = ["--checkpoint", args.checkpoint] if args.checkpoint else ["--version", args.version]
    common = [*model, "--threads", args.threads, "--dtype", args.dtype]
    load_before = os.getloadavg()
    server = Server(args.ditmk, args.port, *common)
    try:
        info = PolicyClient(port=args.port).get_info()
        requests = make_requests(info, args.clients * args.requests, args.tokens)
        alone, alone_ms = serve_alone(args.port, requests[:10])
        rss_after_10 = server.rss_kb()
        reference, more_ms = serve_alone(args.port, requests[10:])
        reference = alone + reference
        alone_ms += more_ms
        loaded, loaded_ms, wall = serve_concurrently(args.port, requests, args.clients)
        rss_after_all = server.rss_kb()  # before the batched request's larger working memory
        batched = batched_request(args.port, requests[:args.clients], reference[:args.clients])
    finally:
        code, _ = server.stop()
    report = {
        "model": args.checkpoint or args.version, "dtype": args.dtype, "threads": args.threads, "tokens": args.tokens,
        "clients": args.clients, "requests": len(requests),
        "alone_p50_ms": percentile(alone_ms, 50), "alone_p99_ms": percentile(alone_ms, 99),
        "alone_first_batch_sum_ms": sum(alone_ms[:args.clients]), "batched_request": batched,
        "unwindowed": dict(loaded_report(requests, reference, loaded, loaded_ms, wall), rss_kb_after_10=rss_after_10,
                           rss_kb_after_all=rss_after_all, rss_growth=rss_after_all / rss_after_10 - 1.0, server_exit=code),
    }
    if args.window_ms > 0:
        max_batch = args.max_batch or args.clients
        server = Server(args.ditmk, args.port, *common, "--batch-window-ms", args.window_ms, "--max-batch", max_batch)
        try:
            loaded, loaded_ms, wall = serve_concurrently(args.port, requests, args.clients)
            rss = server.rss_kb()
        finally:
            code, err = server.stop()
        sizes = batch_sizes(err)
        report["windowed"] = dict(loaded_report(requests, reference, loaded, loaded_ms, wall), window_ms=args.window_ms,
                                  max_batch=max_batch, mean_batch=float(np.mean(sizes)) if sizes else 0.0,
                                  rss_kb_after_all=rss, server_exit=code)
        report["windowed_throughput_x"] = report["windowed"]["throughput_per_s"] / report["unwindowed"]["throughput_per_s"]
    report["load_average_before"] = load_before
    report["load_average_after"] = os.getloadavg()
    if not args.no_in_process:
        report.update(in_process_overhead(args, requests[:10], report["alone_p50_ms"]))
    print(json.dumps(report, indent=1))


def in_process_overhead(args, requests, server_p50_ms):
    """The same calls on an in-process head (after the server stopped, so they do not share the CPU)."""
    import ditmk

    head = ditmk.ActionHead(checkpoint=args.checkpoint, version=args.version, dtype=args.dtype, threads=args.threads)
    times = []
    for r in requests:
        kwargs = dict(features=r["backbone_features"], attention_mask=r["backbone_attention_mask"],
                      image_mask=r["image_mask"], state=r["state"], seed=r["seed"])
        start = time.perf_counter()
        head.get_action(**kwargs)
        times.append((time.perf_counter() - start) * 1e3)
    median = statistics.median(times)
    return {"in_process_median_ms": median, "server_overhead_ms": server_p50_ms - median}


if __name__ == "__main__":
    main()
