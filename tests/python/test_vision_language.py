"""Vision-language reuse: a head keeps its last call's VL work and reuses it while a call's features
and masks are the same bytes, or after set_vision_language for calls that pass only a state. Every
call gives the bytes of a head that recomputes (reuse_vision_language=False), in ditmk.ActionHead,
the drop-in and `ditmk serve`; other features or masks are recomputed; a call without features and
none set is one error naming them; `ditmk bench --reuse-vl` times reused calls beside full ones."""
import json
import os
import sys

import numpy as np
import pytest

import ditmk
import ditmk.groot
from conftest import DITMK, VERSIONS, free_port, make_observation, run_ditmk

sys.path.insert(0, os.path.join(os.environ["DITMK_SOURCE_DIR"], "bench"))
import serve_load  # noqa: E402
from ditmk.client import PolicyClient  # noqa: E402


def with_state(obs, shift):
    return {**obs, "state": obs["state"] + np.float32(shift)}


@pytest.mark.parametrize("version", VERSIONS)
def test_reused_calls_give_the_bytes_of_full_calls(releases, version):
    reusing = ditmk.ActionHead(releases[version], threads=1)
    recomputing = ditmk.ActionHead(releases[version], threads=1, reuse_vision_language=False)
    assert reusing.info["reuse_vision_language"] and not recomputing.info["reuse_vision_language"]
    assert reusing.info["vl_cache_bytes"] == 0
    a, b = make_observation(reusing.info, 1, padding=2), make_observation(reusing.info, 2)
    a_masked = {**a, "attention_mask": a["attention_mask"].copy()}
    a_masked["attention_mask"][-3] = False
    calls = [  # (observation, embodiment, seed, reused)
        (a, 1, 0, False), (with_state(a, 0.4), 2, 1, True), (with_state(a, -0.2), 1, 2, True),
        (b, 1, 0, False), (with_state(a, 0.1), 2, 0, False), (a_masked, 2, 3, False), (with_state(a_masked, 1), 1, 3, True),
        ({**a, "features": a["features"].astype(np.float16)}, 1, 0, False),
    ]
    reused = 0
    for n, (obs, embodiment, seed, reuses) in enumerate(calls):
        got, got_v = reusing.get_action(**obs, embodiment=embodiment, seed=seed, return_velocities=True)
        want, want_v = recomputing.get_action(**obs, embodiment=embodiment, seed=seed, return_velocities=True)
        assert got.tobytes() == want.tobytes() and got_v.tobytes() == want_v.tobytes(), n
        reused += reuses
        assert reusing.info["vl_reused_calls"] == reused, n
    assert reusing.info["vl_cache_bytes"] > a["features"].nbytes // 2
    assert recomputing.info["vl_cache_bytes"] == 0 and recomputing.info["vl_reused_calls"] == 0


@pytest.mark.parametrize("backend", ["cpu", "ref"])
def test_set_once_then_calls_with_a_state(releases, backend):
    head = ditmk.ActionHead(releases["n16"], backend=backend, threads=1)
    obs = make_observation(head.info, 3, padding=1)
    head.set_vision_language(obs["features"], attention_mask=obs["attention_mask"], image_mask=obs["image_mask"])
    obs["features"] = obs["features"].copy()  # what was set is a copy: the caller's array may change
    for shift, embodiment in ((0.0, 1), (0.5, 2), (-0.3, 1)):
        state = obs["state"] + np.float32(shift)
        got = head.get_action(state=state, embodiment=embodiment, seed=4)
        assert got.tobytes() == head.get_action(**{**obs, "state": state}, embodiment=embodiment, seed=4).tobytes()
    assert head.info["vl_cache_bytes"] >= obs["features"].nbytes
    assert head.info["vl_reused_calls"] == (5 if backend == "cpu" else 0)
    head.clear_vision_language()
    with pytest.raises(ValueError, match=r"^features: missing, and no vision-language inputs were set"):
        head.get_action(state=obs["state"])


def test_a_call_without_features_and_none_set_is_one_error(releases):
    head = ditmk.ActionHead(releases["n15"], threads=1)
    with pytest.raises(ValueError) as error:
        head.get_action(state=np.zeros(head.info["state_dim"], np.float32))
    assert str(error.value) == "features: missing, and no vision-language inputs were set (set_vision_language)"
    obs = make_observation(head.info, 1)
    with pytest.raises(ValueError, match=r"^attention_mask: given without features"):
        head.get_action(attention_mask=obs["attention_mask"], state=obs["state"])
    with pytest.raises(ValueError, match=r"^features: shape \[20, 7\]"):
        head.set_vision_language(np.zeros((20, 7), np.float32))
    assert head.get_action(**obs).shape == (head.info["horizon"], head.info["action_dim"])  # still ready


def test_the_drop_in_reuses_through_its_head(releases):
    reusing = ditmk.groot.ActionHead(releases["n17"], threads=1)
    recomputing = ditmk.groot.ActionHead(releases["n17"], threads=1, reuse_vision_language=False)
    info = reusing.info
    obs = make_observation(info, 5)
    batch = 3  # one set of features, three states: the samples after the first reuse its VL work
    backbone_output = {"backbone_features": np.stack([obs["features"]] * batch),
                       "backbone_attention_mask": np.stack([obs["attention_mask"]] * batch),
                       "image_mask": np.stack([obs["image_mask"]] * batch)}
    action_input = {"state": np.stack([obs["state"] + np.float32(i) for i in range(batch)]),
                    "embodiment_id": np.array([1, 2, 1])}
    noise = np.random.default_rng(0).standard_normal((batch, info["horizon"], info["action_dim"])).astype(np.float32)
    got = reusing.get_action(backbone_output, action_input, noise=noise)["action_pred"]
    want = recomputing.get_action(backbone_output, action_input, noise=noise)["action_pred"]
    assert got.tobytes() == want.tobytes()
    assert reusing._head.info["vl_reused_calls"] == batch - 1


def test_the_server_reuses_transparently(releases):
    replies = {}
    for flags in ((), ("--no-reuse-vl",)):
        port = free_port()
        server = serve_load.Server(DITMK, port, "--checkpoint", releases["n16"], "--threads", "1", *flags)
        try:
            client = PolicyClient(port=port)
            info = client.get_info()
            a, b = make_observation(info, 1, padding=2), make_observation(info, 2)
            got = []
            for obs, embodiment in ((a, 1), (with_state(a, 0.5), 2), (b, 1), (with_state(b, 0.5), 1), (a, 2)):
                got.append(client.get_action(obs["features"], backbone_attention_mask=obs["attention_mask"],
                                             image_mask=obs["image_mask"], state=obs["state"], embodiment_id=embodiment,
                                             seed=3).tobytes())
            replies[flags] = got, client.get_info()
        finally:
            code, err = server.stop()
        assert code == 0, err
    (reused, reused_info), (recomputed, recomputed_info) = replies[()], replies[("--no-reuse-vl",)]
    assert reused == recomputed
    assert reused_info["vl_reused_calls"] == 2 and reused_info["vl_cache_bytes"] > 0
    assert recomputed_info["vl_reused_calls"] == 0 and recomputed_info["vl_cache_bytes"] == 0


def test_bench_times_reused_calls_beside_full_ones(releases, tmp_path):
    code, out, err = run_ditmk("bench", "--json", "--reuse-vl", "--threads", "1", "--runs", "5", "--warmup", "1",
                               "--checkpoint", releases["n16"])
    assert code == 0, err
    report = json.loads(out)["reuse_vl"]
    assert report["bit_identical"] is True
    assert 0 < report["min_ms_per_call"] <= report["median_ms_per_call"] <= report["max_ms_per_call"]
    assert report["ratio_to_full_call"] > 0 and report["kept_bytes"] > 0
    code, _, err = run_ditmk("bench", "--reuse-vl", "--backend", "ref", "--checkpoint", releases["n16"])
    assert code == 1 and err.strip() == "ditmk: error: --reuse-vl: the ref backend recomputes the vision-language work (use cpu)"
