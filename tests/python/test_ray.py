"""`ditmk ray-serve` on a real Ray cluster of three nodes on this machine (every address on loopback;
Ray Serve's replicas also open an unused gRPC port on every interface, docs/serve.md): a head node
without CPUs and two one-CPU worker nodes, two replicas of one thread. The ingress gives the replies
of `ditmk serve` byte for byte (refusals included), its replicas sit on both worker nodes, 8 clients x
50 requests get the bytes a single server gives; with a replica killed mid-load every request is
answered (retried) or refused with an error naming the cluster, and Ray restarts the replica; with a
worker node removed the traffic moves to the other node. Every wait is bounded."""
import io
import os
import re
import subprocess
import sys
import threading
import time

import msgpack
import numpy as np
import pytest
import zmq

sys.path.insert(0, os.path.join(os.environ["DITMK_SOURCE_DIR"], "bench"))
import ray_load  # noqa: E402 - sets the loopback-only cluster up before ray is imported

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'ditmk[ray]')")
serve = pytest.importorskip("ray.serve", reason="ray[serve] is not installed (pip install 'ditmk[ray]')")

import serve_load  # noqa: E402
from conftest import DITMK, free_port  # noqa: E402
from ditmk.client import PolicyClient, ServerError  # noqa: E402

TOKEN = "s3cret"
LIMIT_MB = "0.05"  # 52429 bytes: a 24-token request fits, a 200-token one does not
CLIENT_TIMEOUT_MS = 120_000


@pytest.fixture(scope="module")
def cluster():
    """(cluster, its two worker nodes); the test process is a driver of it (to kill replicas)."""
    cluster, nodes = ray_load.start_cluster(workers=2)
    ray.init(address=cluster.address, logging_level="WARNING", log_to_driver=False)
    yield cluster, nodes
    ray.shutdown()
    cluster.shutdown()


@pytest.fixture(scope="module")
def servers(cluster, releases):
    """(ray-serve, ditmk serve): the same release, thread count, token and limit."""
    release = releases["n17"]
    options = ("--checkpoint", release, "--threads", 1, "--api-token", TOKEN, "--max-request-mb", LIMIT_MB)
    single = serve_load.Server(DITMK, free_port(), *options)
    clustered = ray_load.RayServe(cluster[0].address, free_port(), *options, "--replicas", 2, "--timeout-s", 60)
    yield clustered, single
    code, err = clustered.stop()
    assert code == 0, err[-3000:]
    assert single.stop()[0] == 0


@pytest.fixture(scope="module")
def requests(servers):
    info = PolicyClient(port=servers[1].port, api_token=TOKEN).get_info()
    return serve_load.make_requests(info, 8 * 50, tokens=24)


@pytest.fixture(scope="module")
def reference(servers, requests):
    """Each request's reply from the single server, served alone."""
    client = PolicyClient(port=servers[1].port, api_token=TOKEN)
    return [client.get_action(**r) for r in requests]


def npy_bytes(array):
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(array), allow_pickle=False)
    return buffer.getvalue()


def raw_reply(port, raw):
    """The reply's bytes as they came."""
    socket = zmq.Context.instance().socket(zmq.REQ)
    socket.setsockopt(zmq.RCVTIMEO, CLIENT_TIMEOUT_MS)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(f"tcp://127.0.0.1:{port}")
    try:
        socket.send(raw)
        return socket.recv()
    finally:
        socket.close()


def load(port, requests, clients, on_reply=None):
    """The requests split over `clients` threads: each outcome is the reply, or the ServerError; any
    other exception (a timeout: a request lost) is recorded as such."""
    outcomes = [None] * len(requests)

    def client_loop(indices):
        client = PolicyClient(port=port, api_token=TOKEN, timeout_ms=CLIENT_TIMEOUT_MS)
        for i in indices:
            try:
                outcomes[i] = client.get_action(**requests[i])
            except Exception as e:  # noqa: BLE001 - classified by the test
                outcomes[i] = e
            if on_reply:
                on_reply()

    threads = [threading.Thread(target=client_loop, args=(range(c, len(requests), clients),)) for c in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def check_answered_or_refused(outcomes, reference):
    """Every outcome is the reference's bytes or an error reply naming the cluster; -> refusals."""
    refused = []
    for i, outcome in enumerate(outcomes):
        if isinstance(outcome, ServerError) and str(outcome).startswith("cluster: "):
            refused.append(str(outcome))
            continue
        assert isinstance(outcome, np.ndarray), f"request {i}: {outcome!r}"
        assert outcome.tobytes() == reference[i].tobytes(), f"request {i}: not the single server's bytes"
    return refused


def served_on(server, since):
    """The nodes named by the ingress's get_action lines from line `since` on."""
    return {m.group(1) for line in server.lines[since:] if (m := re.search(r"get_action ok .* on node (\w+)", line))}


def replica_names():
    return sorted(a["name"] for a in ray.util.list_named_actors(all_namespaces=True) if a["name"].startswith("SERVE_REPLICA::"))


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.5)


def test_the_ingress_replies_as_the_single_server(servers, requests):
    clustered, single = servers
    good = dict(requests[0])
    pack = lambda endpoint, data=None, token=TOKEN: msgpack.packb(  # noqa: E731
        {"endpoint": endpoint, **({"data": data} if data is not None else {}), **({"api_token": token} if token else {})},
        default=lambda v: {"__ndarray_class__": True, "as_npy": npy_bytes(v)})
    cases = {
        "ping": pack("ping"),
        "get_info": pack("get_info"),
        "get_action": pack("get_action", good),
        "no token": pack("get_action", good, token=None),
        "wrong token": pack("get_action", good, token="s3cre"),
        "over the limit": pack("get_action", dict(good, backbone_features=np.zeros((200, 96), np.float32))),
        "not msgpack": b"\xc1garbage",
        "unknown endpoint, control characters": pack("get_\x01actions"),
        "unknown key": msgpack.packb({"endpoint": "ping", "api_token": TOKEN, "extra": 1}),
        "wrong shape (refused by a replica)": pack("get_action", dict(good, backbone_features=good["backbone_features"][:, :50])),
        "unknown embodiment (refused by a replica)": pack("get_action", dict(good, embodiment="warehouse_bot")),
        "a release quirk (answered with a warning)": pack("get_action", dict(
            good, action=np.full((8, 6), 0.5, np.float32), action_horizon=8, rtc_overlap_steps=4, rtc_frozen_steps=5,
            rtc_ramp_rate=1.0)),
    }
    since = len(clustered.lines)
    for name, raw in cases.items():
        assert raw_reply(clustered.port, raw) == raw_reply(single.port, raw), name
    # the server's warning line, as `ditmk serve` writes it, on the ingress's log
    assert any(line.startswith("ray-serve: get_action warning: rtc_frozen_steps 5 with rtc_overlap_steps 4")
               for line in clustered.lines[since:]), clustered.lines[since:]


def test_two_nodes_eight_clients_fifty_requests_each(cluster, servers, requests, reference):
    _, nodes = cluster
    clustered, _ = servers
    since = len(clustered.lines)
    start = time.perf_counter()
    outcomes = load(clustered.port, requests, clients=8)
    seconds = time.perf_counter() - start
    assert not check_answered_or_refused(outcomes, reference)
    worker_ids = {node.node_id[:8] for node in nodes}
    assert served_on(clustered, since) == worker_ids  # both replicas served, one on each worker node
    print(f"8 x 50 requests on 2 replicas: {len(requests) / seconds:.0f} requests/s")


def test_a_replica_killed_mid_load(servers, requests, reference):
    clustered, _ = servers
    before = replica_names()
    assert len(before) == 2
    answered = []
    killed = threading.Event()

    def kill_after_40():
        answered.append(1)
        if len(answered) == 40 and not killed.is_set():
            killed.set()
            ray.kill(ray.get_actor(before[0], namespace="serve"), no_restart=True)

    since = len(clustered.lines)
    outcomes = load(clustered.port, requests, clients=8, on_reply=kill_after_40)
    assert killed.is_set()
    refused = check_answered_or_refused(outcomes, reference)
    retried = sum("tries)" in line for line in clustered.lines[since:])
    print(f"replica killed after 40 replies: {len(requests) - len(refused)} answered ({retried} after a retry), "
          f"{len(refused)} refused: {refused[:2]}")
    # Ray Serve starts a replica in place of the killed one
    wait_for(lambda: len(replica_names()) == 2 and before[0] not in replica_names(), 120, "a new replica")
    wait_for(lambda: serve.status().applications["ditmk"].deployments["ActionHead"].replica_states.get("RUNNING") == 2,
             120, "two running replicas")
    assert check_answered_or_refused(load(clustered.port, requests[:40], clients=8), reference) == []


def test_a_node_removed_moves_the_traffic_to_the_other(cluster, servers, requests, reference):
    ray_cluster, nodes = cluster
    clustered, _ = servers
    removed = threading.Event()

    def remove_after_40(count=[]):  # noqa: B006 - counts replies across the client threads
        count.append(1)
        if len(count) == 40 and not removed.is_set():
            removed.set()
            ray_cluster.remove_node(nodes[1])

    outcomes = load(clustered.port, requests[:200], clients=8, on_reply=remove_after_40)
    assert removed.is_set()
    refused = check_answered_or_refused(outcomes, reference)
    since = len(clustered.lines)
    after = load(clustered.port, requests[200:260], clients=8)
    assert check_answered_or_refused(after, reference[200:260]) == []
    assert served_on(clustered, since) == {nodes[0].node_id[:8]}
    print(f"worker node removed after 40 replies: {200 - len(refused)} of 200 answered, {len(refused)} refused; "
          "the next 60 all served on the other node")


def test_bad_options_are_one_line_errors(tmp_path):
    for args, message in ((["--checkpoint", tmp_path / "missing"], "no such release"),
                          (["--autoscale", "3"], "--autoscale '3': expected MIN:MAX"),
                          (["--replicas", "0"], "--replicas 0: expected at least 1"),
                          (["--max-request-mb", "0"], "--max-request-mb 0: expected 0.001 to 4096")):
        done = subprocess.run([sys.executable, "-m", "ditmk", "ray-serve", "--address", "127.0.0.1:1", *map(str, args)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith("ditmk ray-serve: error: ") and message in done.stderr, done.stderr
