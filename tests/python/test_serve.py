"""`ditmk serve`: a client written against GR00T's wire format gets the bytes of `ditmk run`; every
malformed request gets an error reply naming the field and the next good request succeeds; tokens,
size limits, kill and SIGTERM; 8 concurrent clients x 50 requests answered exactly once, each reply
the bytes of the request served alone, resident memory steady."""
import io
import os
import signal
import sys

import msgpack
import torch
import types
import numpy as np
import pytest

from conftest import DITMK, VERSIONS, free_port, run_ditmk

sys.path.insert(0, os.path.join(os.environ["DITMK_SOURCE_DIR"], "bench"))
import serve_load  # noqa: E402
from ditmk.client import PolicyClient, ServerError  # noqa: E402
import ditmk.groot  # noqa: E402


@pytest.fixture(scope="module", params=VERSIONS)
def served(request, releases):
    """(version, release, port) of a running server on a small release."""
    port = free_port()
    server = serve_load.Server(DITMK, port, "--checkpoint", releases[request.param], "--threads", "1")
    yield request.param, releases[request.param], port
    code, err = server.stop()
    assert code == 0, err


def npy_bytes(array):
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def ndarray(raw):
    return {"__ndarray_class__": True, "as_npy": raw}


def test_same_bytes_as_the_command(served, tmp_path):
    version, release, port = served
    client = PolicyClient(port=port)
    assert client.ping() == {"status": "ok", "message": "Server is running"}
    info = client.get_info()
    assert info["version"] == version and info["horizon"] == 8 and info["action_dim"] == 6
    request = serve_load.make_requests(info, 1, tokens=24)[0]
    noise = np.random.default_rng(2).standard_normal((8, 6)).astype(np.float32)
    np.savez(tmp_path / "obs.npz", features=request["backbone_features"], attention_mask=request["backbone_attention_mask"],
             image_mask=request["image_mask"], state=request["state"])
    np.save(tmp_path / "noise.npy", noise)
    code, _, err = run_ditmk("run", "--checkpoint", release, "--observation", tmp_path / "obs.npz", "--noise",
                             tmp_path / "noise.npy", "--embodiment", "tiny_robot", "--threads", "1", "--out", tmp_path / "a.npy")
    assert code == 0, err
    want = np.load(tmp_path / "a.npy")
    request.pop("seed")
    got = client.get_action(**request, embodiment="tiny_robot", noise=noise)
    assert got.shape == (1, 8, 6) and got.dtype == np.float32
    assert got[0].tobytes() == want.tobytes()
    assert client.get_action(**request, embodiment_id=np.int64(1), noise=noise[None]).tobytes() == got.tobytes()


def good_request(info):
    request = serve_load.make_requests(info, 1, tokens=24)[0]
    request["backbone_features"] = request["backbone_features"][None]
    return request


def packed(data, endpoint="get_action"):
    encode = lambda v: ndarray(npy_bytes(v)) if isinstance(v, np.ndarray) else v  # noqa: E731
    return msgpack.packb({"endpoint": endpoint, "data": {k: encode(v) for k, v in data.items()}})


def bad_requests(info):
    """name -> (request bytes, what the error must say)."""
    good = good_request(info)
    features = npy_bytes(good["backbone_features"])
    header_end = features.index(b"\n") + 1
    lying = features.replace(b"(1, 24,", b"(1, 25,")
    fortran = npy_bytes(np.asfortranarray(good["backbone_features"][0]))
    big_endian = npy_bytes(good["backbone_features"][0].astype(">f4"))
    obj_dtype = features.replace(b"'<f4'", b"'|O' ")
    with_features = lambda raw: msgpack.packb({"endpoint": "get_action", "data": dict(  # noqa: E731
        {k: ndarray(npy_bytes(v)) if isinstance(v, np.ndarray) else v for k, v in good.items()},
        backbone_features=ndarray(raw))})
    nan = good["backbone_features"].copy()
    nan[0, 3, 7] = np.inf
    cases = {
        "not msgpack": (b"\xc1garbage", "request: not msgpack"),
        "truncated msgpack": (packed(good)[:-7], "request: truncated msgpack"),
        "not a map": (msgpack.packb([1, 2]), "request: an array, not a map"),
        "endpoint not a string": (msgpack.packb({"endpoint": 5}), "endpoint: an integer, not a string"),
        "data not a map": (msgpack.packb({"endpoint": "get_action", "data": [1]}), "data: an array, not a map"),
        "unknown endpoint": (msgpack.packb({"endpoint": "get_actions"}), "endpoint 'get_actions': unknown"),
        "missing features": (packed({k: v for k, v in good.items() if k != "backbone_features"}),
                             "backbone_features: missing"),
        "features not an array": (packed(dict(good, backbone_features="abc")), "backbone_features: expected an ndarray"),
        "state not an array": (packed(dict(good, state=3)), "state: expected an ndarray"),
        "unknown field": (packed(dict(good, actions=np.zeros(3, np.float32))), "actions: unknown field"),
        "float seed": (packed(dict(good, seed=1.5)), "seed: expected an integer"),
        "truncated npy header": (with_features(features[:header_end - 20]), "backbone_features: truncated .npy header"),
        "npy shape larger than its bytes": (with_features(lying), "backbone_features: 9216 data bytes for shape [1, 25, 96] (expected 9600)"),
        "fortran order": (with_features(fortran), "backbone_features: Fortran-order arrays are not supported"),
        "big endian": (with_features(big_endian), "backbone_features: unsupported dtype '>f4'"),
        "object dtype": (with_features(obj_dtype), "backbone_features: unsupported dtype '|O'"),
        "wrong shape": (packed(dict(good, backbone_features=good["backbone_features"][..., :50])),
                        "backbone_features: shape [1, 24, 50]"),
        "inf in features": (packed(dict(good, backbone_features=nan)), "backbone_features: non-finite value inf at row 3"),
        "mask of other length": (packed(dict(good, backbone_attention_mask=np.ones(5, bool))),
                                 "backbone_attention_mask: shape [5]"),
        "unknown embodiment": (packed(dict(good, embodiment="warehouse_bot")), "embodiment 'warehouse_bot': unknown"),
        "embodiment id out of range": (packed(dict(good, embodiment_id=9)), "embodiment 9: id outside 0..2"),
        "noise and seed": (packed(dict(good, noise=np.zeros((8, 6), np.float32))), "noise: give noise or seed, not both"),
        "wrong noise": (packed(dict({k: v for k, v in good.items() if k != "seed"}, noise=np.zeros((3, 6), np.float32))),
                        "noise: noise shape [3, 6]"),
    }
    if info["version"] != "n15":
        cases["missing image mask"] = (packed({k: v for k, v in good.items() if k != "image_mask"}),
                                       "'image' key set is empty")
    return cases


def test_every_bad_request_gets_an_error_and_the_next_good_one_succeeds(served):
    _, _, port = served
    client = PolicyClient(port=port)
    info = client.get_info()
    good = good_request(info)
    want = client.get_action(**good)
    for name, (raw, message) in bad_requests(info).items():
        with pytest.raises(ServerError) as raised:
            client.call(None, raw=raw)
        assert message in str(raised.value), (name, str(raised.value))
        assert "\n" not in str(raised.value)
        assert client.get_action(**good).tobytes() == want.tobytes(), name


def test_token_size_limit_kill_and_signal(releases):
    port = free_port()
    server = serve_load.Server(DITMK, port, "--checkpoint", releases["n15"], "--threads", "1", "--api-token", "s3cret",
                               "--max-request-mb", "0.05")
    info = PolicyClient(port=port, api_token="s3cret").get_info()
    good = good_request(info)
    for token, message in ((None, "Unauthorized: this server needs an api_token"), ("s3cre", "Unauthorized: invalid API token"),
                           ("s3cretX", "Unauthorized: invalid API token")):
        with pytest.raises(ServerError, match=message):
            PolicyClient(port=port, api_token=token).get_action(**good)
    client = PolicyClient(port=port, api_token="s3cret")
    assert client.get_action(**good).shape == (1, 8, 6)
    big = dict(good, backbone_features=np.zeros((1, 200, info["context_dim"]), np.float32))
    with pytest.raises(ServerError, match=r"request: \d+ bytes exceed the server's limit of 52429 bytes"):
        client.get_action(**big)
    assert client.kill() == {"status": "ok", "message": "Server is stopping"}
    code, err = server.stop(already_asked=True)
    assert code == 0 and "serve: stopped (kill)" in err
    assert "serve: ? error" in err and "Unauthorized" in err and "serve: get_action ok" in err
    port = free_port()
    server = serve_load.Server(DITMK, port, "--checkpoint", releases["n15"], "--threads", "1")
    server.process.send_signal(signal.SIGINT)
    code, err = server.stop(already_asked=True)
    assert code == 0 and "serve: stopped (signal)" in err


def test_eight_clients_fifty_requests_each(releases):
    port = free_port()
    server = serve_load.Server(DITMK, port, "--checkpoint", releases["n17"], "--threads", "1")
    try:
        info = PolicyClient(port=port).get_info()
        requests = serve_load.make_requests(info, 8 * 50, tokens=24)
        reference, _ = serve_load.serve_alone(port, requests[:10])
        rss_after_10 = server.rss_kb()
        more, _ = serve_load.serve_alone(port, requests[10:])
        loaded, latencies, _ = serve_load.serve_concurrently(port, requests, clients=8)
        rss_after_all = server.rss_kb()
    finally:
        code, _ = server.stop()
    assert code == 0
    reference += more
    assert all(r is not None for r in loaded)
    assert all(a.tobytes() == b.tobytes() for a, b in zip(reference, loaded))
    # Under AddressSanitizer freed memory waits in its quarantine, so resident memory grows by design;
    # there LeakSanitizer, at the server's exit, is what finds memory that is never given back.
    if not os.environ.get("DITMK_SANITIZED"):
        assert rss_after_all <= 1.05 * rss_after_10, (rss_after_10, rss_after_all)
    print(f"8 x 50 requests: p50 {serve_load.percentile(latencies, 50):.2f} ms, "
          f"p99 {serve_load.percentile(latencies, 99):.2f} ms; RSS {rss_after_10} -> {rss_after_all} kB")


def test_a_policy_patched_to_a_remote_server_gets_the_in_process_actions(served):
    version, release, port = served
    policy = types.SimpleNamespace(model=types.SimpleNamespace(action_head=types.SimpleNamespace(get_action=None)))
    remote = ditmk.groot.patch_remote(policy, port=port)
    local = ditmk.groot.ActionHead(release, threads=1)
    info = local.info
    requests = serve_load.make_requests(info, 2, tokens=24)
    backbone_output = {"backbone_features": torch.from_numpy(np.stack([r["backbone_features"] for r in requests])).to(torch.bfloat16),
                       "backbone_attention_mask": torch.from_numpy(np.stack([r["backbone_attention_mask"] for r in requests])),
                       "image_mask": torch.from_numpy(np.stack([r["image_mask"] for r in requests]))}
    action_input = {"state": torch.from_numpy(np.stack([r["state"] for r in requests])), "embodiment_id": torch.tensor([1, 2])}
    sent = []
    call = remote._client.call
    remote._client.call = lambda endpoint, data=None, raw=None: sent.append(endpoint) or call(endpoint, data, raw)
    torch.manual_seed(7)
    got = policy.model.action_head.get_action(backbone_output, action_input)
    assert sent == ["get_action"]  # the batch as one request
    torch.manual_seed(7)
    want = local.get_action(backbone_output, action_input)
    assert got.action_pred.dtype == torch.bfloat16
    if os.environ.get("DITMK_SANITIZED"):
        # The server is the sanitized build (-O1) and the in-process head the release module (-O3): one
        # sum may round differently, so the two agree to a bf16 unit, not to the bit.
        assert torch.allclose(got.action_pred.float(), want.action_pred.float(), rtol=2**-7, atol=2**-7)
    else:
        assert torch.equal(got.action_pred, want.action_pred)
    assert remote.info["version"] == version


def batch_of(requests, **extra):
    """One batched get_action request: each array of `requests` stacked on a leading batch dimension."""
    batch = {name: np.stack([r[name] for r in requests]) for name in ("backbone_features", "backbone_attention_mask",
                                                                       "image_mask", "state")}
    batch.update(extra)
    return batch


def alone(request):
    return {k: v for k, v in request.items() if k != "seed"}


def test_a_batched_request_answers_each_sample_as_its_own_request(served):
    version, _, port = served
    client = PolicyClient(port=port)
    info = client.get_info()
    requests = serve_load.make_requests(info, 3, tokens=24)
    requests[2]["backbone_attention_mask"][-7:] = False  # VL lengths differ within the batch
    noise = np.random.default_rng(5).standard_normal((3, 8, 6)).astype(np.float32)
    ids = [1, 2, 1]
    want = [client.get_action(**alone(r), embodiment_id=ids[i], noise=noise[i]) for i, r in enumerate(requests)]
    got = client.get_action(**batch_of(requests, embodiment_id=ids, noise=noise))
    assert got.shape == (3, 8, 6) and got.dtype == np.float32
    assert all(got[i].tobytes() == want[i][0].tobytes() for i in range(3))
    # the ids as an integer array; one id for every sample
    assert client.get_action(**batch_of(requests, embodiment_id=np.array(ids), noise=noise)).tobytes() == got.tobytes()
    same = client.get_action(**batch_of(requests, embodiment_id=2, noise=noise))
    assert same[0].tobytes() == client.get_action(**alone(requests[0]), embodiment_id=2, noise=noise[0])[0].tobytes()
    # a seed: sample i draws from seed + i
    seeded = client.get_action(**batch_of(requests, seed=40, embodiment="tiny_robot"))
    for i, r in enumerate(requests):
        assert seeded[i].tobytes() == client.get_action(**alone(r), seed=40 + i, embodiment="tiny_robot")[0].tobytes()
    if version == "n17":  # real-time chunking: the previous chunks [B, H_prev, A], the options every sample's
        options = dict(action_horizon=8, rtc_overlap_steps=4, rtc_frozen_steps=2, rtc_ramp_rate=0.5)
        previous = np.random.default_rng(6).standard_normal((3, 8, 6)).astype(np.float32)
        chunked = client.get_action(**batch_of(requests, noise=noise, action=previous), options=options)
        for i, r in enumerate(requests):
            one = client.get_action(**alone(r), noise=noise[i], action=previous[i], options=options)
            assert chunked[i].tobytes() == one[0].tobytes()
        assert chunked.tobytes() != client.get_action(**batch_of(requests, noise=noise)).tobytes()


def test_a_bad_batch_is_refused_in_one_line_naming_the_field_and_the_sample(served):
    _, _, port = served
    client = PolicyClient(port=port)
    info = client.get_info()
    requests = serve_load.make_requests(info, 3, tokens=24)
    good = batch_of(requests, seed=3)
    want = client.get_action(**good)
    inf = good["backbone_features"].copy()
    inf[2, 5, 1] = np.inf
    cases = {
        "state of another batch": (dict(good, state=good["state"][:2].copy()),
                                   "a batch of 2, but backbone_features has a batch of 3"),
        "mask of another batch": (dict(good, image_mask=good["image_mask"][:1]), "image_mask: shape [1, 24], a batch of 1"),
        "noise of another batch": ({**alone(good), "noise": np.zeros((2, 8, 6), np.float32)},
                                   "noise: shape [2, 8, 6], a batch of 2, but backbone_features has a batch of 3"),
        "too few ids": (dict(good, embodiment_id=[1, 2]), "embodiment_id: 2 ids for a batch of 3"),
        "too few tags": (dict(good, embodiment=["tiny_robot"]), "embodiment: 1 tags for a batch of 3"),
        "list too long": (dict(good, embodiment_id=[1] * 5000), "embodiment_id: a list of 5000 items (at most 4096)"),
        "list of floats": (dict(good, embodiment_id=[1, 2.5, 1]),
                           "embodiment_id: item 1 of the list is a float (expected integers or strings)"),
        "inf in sample 2": (dict(good, backbone_features=inf), "sample 2: backbone_features: non-finite value inf at row 5"),
        "bad id of sample 1": (dict(good, embodiment_id=[1, 9, 2]), "sample 1: embodiment 9: id outside 0..2"),
        "bad noise of sample 0": ({**alone(good), "noise": np.concatenate([np.full((1, 8, 6), np.nan, np.float32),
                                                                         np.zeros((2, 8, 6), np.float32)])},
                                  "sample 0: noise"),
    }
    for name, (data, message) in cases.items():
        with pytest.raises(ServerError) as raised:
            client.call(None, raw=packed(data))
        assert message in str(raised.value), (name, str(raised.value))
        field = {"state": "state: ", "mask": "image_mask: ", "noise": "noise: "}.get(name.split()[0], message.split(":")[0])
        assert str(raised.value).startswith(field), (name, str(raised.value))
        assert "\n" not in str(raised.value)
        assert client.get_action(**good).tobytes() == want.tobytes(), name


def test_windowed_server_batches_concurrent_clients_bit_identical_to_serving_alone(releases):
    port = free_port()
    server = serve_load.Server(DITMK, port, "--checkpoint", releases["n17"], "--threads", "1")
    try:
        info = PolicyClient(port=port).get_info()
        requests = serve_load.make_requests(info, 6 * 8, tokens=24)
        batched = batch_of(requests[:2], seed=100)
        reference, _ = serve_load.serve_alone(port, requests)
        reference_batch = PolicyClient(port=port).get_action(**batched)
    finally:
        code, _ = server.stop()
    assert code == 0
    port = free_port()
    server = serve_load.Server(DITMK, port, "--checkpoint", releases["n17"], "--threads", "1", "--batch-window-ms", "30",
                               "--max-batch", "5")
    try:
        client = PolicyClient(port=port)
        bad = dict(requests[0], embodiment_id=9)
        results = {}

        def odd_client():  # a batched request, a ping, a bad request and get_info among the others
            c = PolicyClient(port=port)
            results["batch"] = c.get_action(**batched)
            results["ping"] = c.ping()
            try:
                c.get_action(**bad)
            except ServerError as e:
                results["bad"] = str(e)
            results["info"] = c.get_info()

        import threading

        odd = threading.Thread(target=odd_client)
        odd.start()
        loaded, _, _ = serve_load.serve_concurrently(port, requests, clients=6)
        odd.join()
        assert client.kill()["status"] == "ok"
        code, err = server.stop(already_asked=True)
    finally:
        if server.process.poll() is None:
            server.stop()
    assert code == 0, err
    assert all(r is not None for r in loaded)
    assert all(a.tobytes() == b.tobytes() for a, b in zip(reference, loaded))
    assert results["batch"].tobytes() == reference_batch.tobytes()
    assert results["ping"]["status"] == "ok" and results["info"]["version"] == "n17"
    assert "embodiment 9: id outside 0..2" in results["bad"]
    sizes = [int(line.split("(batch of ")[1].split()[0]) for line in err.splitlines() if "get_action ok" in line]
    assert len(sizes) == len(requests) + 1 and max(sizes) > 1, err
    samples = [int(line.split(" request")[1].split(", ")[1].split()[0]) for line in err.splitlines()
               if "get_action ok" in line]
    assert max(samples) <= 5, err


def test_a_request_that_fails_the_batch_gets_its_own_error_and_the_others_their_actions(releases):
    """Noise of the wrong shape passes the checks before batching and fails the batch call: each
    request of the batch then runs alone."""
    port = free_port()
    server = serve_load.Server(DITMK, port, "--checkpoint", releases["n15"], "--threads", "1")
    try:
        info = PolicyClient(port=port).get_info()
        requests = serve_load.make_requests(info, 2, tokens=24)
        reference, _ = serve_load.serve_alone(port, requests)
    finally:
        server.stop()
    port = free_port()
    server = serve_load.Server(DITMK, port, "--checkpoint", releases["n15"], "--threads", "1", "--batch-window-ms", "1500")
    import threading

    barrier = threading.Barrier(3)
    results = [None] * 3

    def send(i):
        client = PolicyClient(port=port)
        barrier.wait()
        try:
            if i == 2:
                client.get_action(**alone(requests[0]), noise=np.zeros((3, 6), np.float32))
            else:
                results[i] = client.get_action(**requests[i])
        except ServerError as e:
            results[i] = str(e)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(3)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        code, err = server.stop()
    assert code == 0
    assert "noise: noise shape [3, 6]" in results[2], results[2]
    assert results[0].tobytes() == reference[0].tobytes() and results[1].tobytes() == reference[1].tobytes()
    assert err.count("(batch of 3 requests, 3 samples, run alone: the batch failed)") == 3, err
