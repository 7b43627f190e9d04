#!/usr/bin/env python3
"""Load on `ditmk ray-serve` over loopback: a local Ray cluster of one-CPU worker nodes, the head
deployed with 1 and then 2 replicas (one thread each), N concurrent clients x R requests each.

  PYTHONPATH=build/release/python /usr/bin/python3 bench/ray_load.py [--checkpoint DIR | --version n17
      [--tiny] [--n-blocks N]] [--clients 8] [--requests 50] [--tokens 24] [--replicas 1 2]

For each replica count it starts the command, serves every request once alone (single-client
latency), then all of them from --clients concurrent clients, and prints one JSON object per count:
requests answered, replies identical to the first run's, p50/p99 latency alone and under load, and
throughput. The cluster and command helpers are shared with tests/python/test_ray.py.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

import msgpack

from ditmk.client import PolicyClient

# Ray resolves 127.0.0.1 in a cluster address to the machine's outward address unless told that the
# cluster is this host alone; read when ray is first imported (by start_cluster or the test).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_load  # noqa: E402


def start_cluster(workers=2, cpus_per_worker=1):
    """A Ray cluster on this machine, loopback only: a head node without CPUs (Ray's and Serve's own
    actors live there, no replica) and `workers` nodes of `cpus_per_worker` CPUs. -> (cluster, nodes)"""
    from ray.cluster_utils import Cluster

    common = {"node_ip_address": "127.0.0.1", "object_store_memory": 100 << 20}
    cluster = Cluster(initialize_head=True, head_node_args=dict(common, num_cpus=0, include_dashboard=False))
    nodes = [cluster.add_node(num_cpus=cpus_per_worker, **common) for _ in range(workers)]
    cluster.wait_for_nodes()
    return cluster, nodes


class RayServe:
    """`python -m ditmk ray-serve` in a subprocess, ready when its ingress answers ping (it binds once
    the deployment runs); its stderr lines are collected in `lines`."""

    def __init__(self, address, port, *args, ready_s=300):
        self.port = port
        self.args = list(map(str, args))
        env = dict(os.environ, RAY_ADDRESS=address)
        self.process = subprocess.Popen([sys.executable, "-m", "ditmk", "ray-serve", "--address", address,
                                         "--port", str(port), *self.args],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        self.lines = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        ping = {"endpoint": "ping"}
        if "--api-token" in self.args:
            ping["api_token"] = self.args[self.args.index("--api-token") + 1]
        client = PolicyClient(port=port, timeout_ms=500)
        deadline = time.monotonic() + ready_s
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"ditmk ray-serve exited {self.process.returncode}: {self.text()[-3000:]}")
            try:
                client.call("ping", raw=msgpack.packb(ping))
                break
            except TimeoutError as e:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"ditmk ray-serve did not answer within {ready_s} s: {self.text()[-3000:]}") from e
        client.socket.close()

    def _read(self):
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    def text(self):
        return "\n".join(self.lines)

    def stop(self, already_asked=False, timeout_s=120):
        """SIGTERM (or, already_asked, only wait); -> (exit code, stderr text)."""
        if not already_asked and self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.reader.join(timeout=10)
        return self.process.returncode, self.text()


def measure(address, port, release, replicas, requests, clients, reference=None, extra=()):
    server = RayServe(address, port, "--checkpoint", release, "--replicas", replicas, "--threads", 1, *extra)
    try:
        alone, alone_ms = serve_load.serve_alone(port, requests)
        loaded, loaded_ms, wall = serve_load.serve_concurrently(port, requests, clients)
    finally:
        code, _ = server.stop()
    reference = reference or alone
    report = {
        "replicas": replicas, "threads_per_replica": 1, "clients": clients, "requests": len(requests),
        "answered": sum(r is not None for r in loaded),
        "identical": sum(a.tobytes() == b.tobytes() for a, b in zip(reference, loaded)),
        "alone_p50_ms": serve_load.percentile(alone_ms, 50), "alone_p99_ms": serve_load.percentile(alone_ms, 99),
        "loaded_p50_ms": serve_load.percentile(loaded_ms, 50), "loaded_p99_ms": serve_load.percentile(loaded_ms, 99),
        "throughput_per_s": len(requests) / wall, "exit": code,
    }
    return report, alone


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", help="release directory (default: one made with --version and --tiny)")
    parser.add_argument("--version", default="n17")
    parser.add_argument("--tiny", action="store_true", help="a small released-width model (make-checkpoint --tiny)")
    parser.add_argument("--n-blocks", type=int, default=0, help="a full-width model of this many blocks (0: all)")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=50, help="per client")
    parser.add_argument("--tokens", type=int, default=24)
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--port", type=int, default=5598)
    parser.add_argument("--max-ongoing", type=int, help="ray-serve's --max-ongoing (default: its own)")
    args = parser.parse_args()
    import ditmk

    with tempfile.TemporaryDirectory() as scratch:
        release = args.checkpoint or ditmk.make_checkpoint(os.path.join(scratch, args.version), version=args.version,
                                                           tiny=args.tiny, n_blocks=args.n_blocks)
        head = ditmk.ActionHead(release, threads=1)
        requests = serve_load.make_requests(head.info, args.clients * args.requests, args.tokens)
        del head
        cluster, _ = start_cluster(workers=max(args.replicas))
        try:
            reference = None
            for replicas in args.replicas:
                extra = () if args.max_ongoing is None else ("--max-ongoing", args.max_ongoing)
                report, alone = measure(cluster.address, args.port, release, replicas, requests, args.clients, reference,
                                        extra)
                reference = reference or alone
                report["model"] = args.checkpoint or (f"{args.version}" + (" tiny" if args.tiny else "")
                                                      + (f" {args.n_blocks} blocks" if args.n_blocks else ""))
                print(json.dumps(report), flush=True)
        finally:
            cluster.shutdown()


if __name__ == "__main__":
    main()
