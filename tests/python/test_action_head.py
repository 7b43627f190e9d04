"""ditmk.ActionHead: the same bytes as `ditmk run`, numpy and torch inputs, errors that leave the head
usable, the model facts, inspect / make_checkpoint, and two heads in two threads."""
import json
import threading

import numpy as np
import pytest
import torch

import ditmk
from conftest import VERSIONS, make_observation, run_ditmk

OPTIONS = dict(backend="cpu", dtype="bf16", threads=2)


@pytest.fixture(scope="module")
def heads(releases):
    return {v: ditmk.ActionHead(checkpoint=releases[v], **OPTIONS) for v in VERSIONS}


def cli_actions(release, obs, noise, tmp_path, embodiment="tiny_robot"):
    np.savez(tmp_path / "obs.npz", **obs)
    np.save(tmp_path / "noise.npy", noise)
    code, _, err = run_ditmk("run", "--checkpoint", release, "--observation", tmp_path / "obs.npz", "--noise",
                             tmp_path / "noise.npy", "--embodiment", embodiment, "--backend", "cpu", "--dtype", "bf16",
                             "--threads", "2", "--out", tmp_path / "cli.npz")
    assert code == 0, err
    with np.load(tmp_path / "cli.npz") as out:
        return out["actions"].astype(np.float32), out["velocities"].astype(np.float32)


@pytest.mark.parametrize("version", VERSIONS)
def test_same_bytes_as_the_command_with_numpy_and_torch_inputs(version, releases, heads, tmp_path):
    head = heads[version]
    obs = make_observation(head.info, seed=3, padding=2)
    noise = np.random.default_rng(4).standard_normal((head.info["horizon"], head.info["action_dim"])).astype(np.float32)
    want_actions, want_velocities = cli_actions(releases[version], obs, noise, tmp_path)
    actions, velocities = head.get_action(**obs, embodiment="tiny_robot", noise=noise, return_velocities=True)
    assert actions.dtype == np.float32 and actions.shape == (head.info["horizon"], head.info["action_dim"])
    assert actions.tobytes() == want_actions.tobytes()
    assert velocities.shape == (head.info["n_steps"], *actions.shape)
    assert velocities.tobytes() == want_velocities.tobytes()
    as_torch = {name: torch.from_numpy(value) for name, value in obs.items()}
    assert head.get_action(**as_torch, embodiment=1, noise=torch.from_numpy(noise)).tobytes() == want_actions.tobytes()


def test_integer_masks_batch_of_one_and_the_seed(heads):
    head = heads["n16"]
    obs = make_observation(head.info, seed=5)
    first = head.get_action(**obs, seed=11)
    assert head.get_action(**obs, seed=11).tobytes() == first.tobytes()
    assert head.get_action(**obs, seed=12).tobytes() != first.tobytes()
    as_ints = dict(obs, attention_mask=obs["attention_mask"].astype(np.int64), image_mask=obs["image_mask"].astype(np.int32),
                   features=obs["features"][None])
    assert head.get_action(**as_ints, seed=11).tobytes() == first.tobytes()
    # a non-contiguous array is made contiguous, the values are the same
    strided = np.asfortranarray(obs["features"])
    assert head.get_action(**dict(obs, features=strided), seed=11).tobytes() == first.tobytes()


def test_bfloat16_and_float16_features(heads):
    head = heads["n15"]
    obs = make_observation(head.info, seed=6)
    rounded = torch.from_numpy(obs["features"]).to(torch.bfloat16)
    via_float32 = head.get_action(**dict(obs, features=rounded.float().numpy()), seed=1)
    assert head.get_action(**dict(obs, features=rounded), seed=1).tobytes() == via_float32.tobytes()
    half = obs["features"].astype(np.float16)
    assert head.get_action(**dict(obs, features=half), seed=1).tobytes() == head.get_action(
        **dict(obs, features=half.astype(np.float32)), seed=1).tobytes()


BAD_CALLS = {
    "wrong features shape": (lambda o: dict(o, features=o["features"][:, :7]), "features: shape [20, 7]"),
    "NaN in features": (lambda o: dict(o, features=np.where(np.arange(o["features"].size).reshape(o["features"].shape) == 50,
                                                            np.nan, o["features"]).astype(np.float32)),
                        "features: non-finite value nan at row 0, column 50"),
    "wrong state": (lambda o: dict(o, state=o["state"][:, :3]), "state: shape [1, 3]"),
    "mask of other length": (lambda o: dict(o, attention_mask=o["attention_mask"][:5]), "attention_mask: shape [5]"),
    "mask not 0/1": (lambda o: dict(o, attention_mask=np.full(20, 2)), "attention_mask: entry 0 is 2"),
    "missing image mask": (lambda o: {k: v for k, v in o.items() if k != "image_mask"}, "'image' key set is empty"),
    "unsupported dtype": (lambda o: dict(o, features=o["features"].astype(np.int8)), "features: dtype int8"),
}


@pytest.mark.parametrize("case", sorted(BAD_CALLS))
def test_bad_input_raises_one_line_and_the_next_call_succeeds(case, heads):
    head = heads["n17"]
    obs = make_observation(head.info, seed=8)
    good = head.get_action(**obs, seed=2)
    edit, message = BAD_CALLS[case]
    with pytest.raises(ValueError) as raised:
        head.get_action(**edit(obs), seed=2)
    assert message in str(raised.value) and "\n" not in str(raised.value)
    assert head.get_action(**obs, seed=2).tobytes() == good.tobytes()


def test_unknown_embodiment_and_wrong_noise(heads):
    head = heads["n15"]
    obs = make_observation(head.info, seed=9)
    with pytest.raises(ValueError, match="embodiment 'warehouse_bot': unknown"):
        head.get_action(**obs, embodiment="warehouse_bot")
    with pytest.raises(ValueError, match="embodiment 9: id outside 0..2"):
        head.get_action(**obs, embodiment=9)
    with pytest.raises(ValueError, match=r"noise: noise shape \[3, 3\]"):
        head.get_action(**obs, noise=np.zeros((3, 3), np.float32))
    assert head.get_action(**obs).shape == (head.info["horizon"], head.info["action_dim"])


def test_paths_that_are_not_releases(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere: no such file or directory"):
        ditmk.ActionHead(checkpoint=tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="not a GR00T release"):
        ditmk.ActionHead(checkpoint=tmp_path / "empty")
    with pytest.raises(ValueError, match="backend 'gpu': unknown"):
        ditmk.ActionHead(checkpoint=tmp_path / "empty", backend="gpu")


def test_info_holds_the_model_facts(heads, releases):
    info = heads["n17"].info
    assert info["version"] == "n17" and info["backend"] == "cpu" and info["dtype"] == "bf16"
    assert info["horizon"] == 8 and info["action_dim"] == 6 and info["state_dim"] == 5 and info["n_steps"] == 4
    assert info["embodiments"] == {"tiny_robot": 1, "new_embodiment": 2}
    assert info["isa"] in ("portable", "avx2", "avx512f", "avx512", "amx") and info["threads"] == 2
    assert info["checkpoint"] == str(releases["n17"])


def test_inspect_and_make_checkpoint_mirror_the_command(releases, tmp_path):
    code, out, err = run_ditmk("inspect", "--json", releases["n16"])
    assert code == 0, err
    assert ditmk.inspect(releases["n16"]) == json.loads(out)
    made = ditmk.make_checkpoint(tmp_path / "made", version="n16", tiny=True, seed=7)
    assert ditmk.inspect(made)["params"] == json.loads(out)["params"]
    with pytest.raises(ValueError, match="already exists and is not an empty directory"):
        ditmk.make_checkpoint(made, version="n16", tiny=True)


def test_two_heads_in_two_threads_give_their_own_results(releases):
    heads = [ditmk.ActionHead(checkpoint=releases[v], backend="cpu", threads=1) for v in ("n15", "n17")]
    inputs = [make_observation(h.info, seed=10 + i) for i, h in enumerate(heads)]
    alone = [h.get_action(**obs, seed=3) for h, obs in zip(heads, inputs)]
    together = [None, None]

    def call(i):
        together[i] = heads[i].get_action(**inputs[i], seed=3)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(a.tobytes() == b.tobytes() for a, b in zip(alone, together))


def test_synthetic_observation_and_seed_are_the_commands_defaults(releases, heads, tmp_path):
    code, _, err = run_ditmk("run", "--checkpoint", releases["n16"], "--backend", "cpu", "--dtype", "bf16", "--threads", "2",
                             "--seed", "5", "--out", tmp_path / "cli.npy")
    assert code == 0, err
    head = heads["n16"]
    assert head.get_action(**head.synthetic_observation(0), seed=5).tobytes() == np.load(tmp_path / "cli.npy").tobytes()


def test_weight_cache_maps_what_an_earlier_open_packed_and_can_be_skipped(releases, tmp_path, monkeypatch):
    monkeypatch.setenv("DITMK_WEIGHT_CACHE", str(tmp_path / "cache"))
    obs = make_observation(ditmk.ActionHead(releases["n15"], weight_cache=False).info, seed=5)
    for dtype in ("bf16", "bfp8_b"):
        fresh = ditmk.ActionHead(releases["n15"], dtype=dtype, threads=2, weight_cache=False)
        first = ditmk.ActionHead(releases["n15"], dtype=dtype, threads=2)
        second = ditmk.ActionHead(releases["n15"], dtype=dtype, threads=2)
        assert (fresh.info["weight_cache"], first.info["weight_cache"], second.info["weight_cache"]) == (
            "off", "written", "mapped")
        want = fresh.get_action(**obs, seed=1).tobytes()
        assert first.get_action(**obs, seed=1).tobytes() == want
        assert second.get_action(**obs, seed=1).tobytes() == want
    # the cache files themselves (beside them: the stamps/ and calibration/ folders)
    assert sorted(p.suffix for p in (tmp_path / "cache").iterdir() if p.is_file()) == [".packed", ".packed"]
