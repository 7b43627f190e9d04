"""A batch through ditmk.ActionHead.get_action and the drop-in: one call with a leading batch
dimension, each sample's actions the bytes of its own call; bad batches refused in one line naming the
array and the sample, with nothing computed."""
import numpy as np
import pytest
import torch

import ditmk
from conftest import VERSIONS, make_observation, run_ditmk

from ditmk.groot import ActionHead as DropIn


@pytest.fixture(scope="module")
def heads(releases):
    return {v: ditmk.ActionHead(checkpoint=releases[v], backend="cpu", dtype="bf16", threads=2) for v in VERSIONS}


def stacked(observations):
    return {name: np.stack([o[name] for o in observations]) for name in observations[0]}


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("batch", [1, 3, 8])
def test_each_sample_is_the_bytes_of_its_own_call(version, batch, heads):
    head = heads[version]
    observations = [make_observation(head.info, seed=10 + i, padding=i % 3) for i in range(batch)]
    embodiments = [1, 2, 1, 1, 2, 0, 2, 1][:batch]
    actions, velocities = head.get_action(**stacked(observations), embodiment=embodiments, seed=40,
                                          return_velocities=True)
    assert actions.shape == (batch, head.info["horizon"], head.info["action_dim"])
    assert velocities.shape == (batch, head.info["n_steps"], head.info["horizon"], head.info["action_dim"])
    for i, obs in enumerate(observations):
        alone, alone_velocities = head.get_action(**obs, embodiment=embodiments[i], seed=40 + i, return_velocities=True)
        assert actions[i].tobytes() == alone.tobytes(), f"sample {i}"
        assert velocities[i].tobytes() == alone_velocities.tobytes(), f"sample {i}"


def test_torch_inputs_given_noise_and_one_embodiment_for_all(heads):
    head = heads["n16"]
    observations = [make_observation(head.info, seed=i) for i in range(3)]
    noise = np.random.default_rng(2).standard_normal((3, head.info["horizon"], head.info["action_dim"])).astype(np.float32)
    batch = {k: torch.from_numpy(v) for k, v in stacked(observations).items()}
    actions = head.get_action(**batch, embodiment="tiny_robot", noise=torch.from_numpy(noise))
    for i, obs in enumerate(observations):
        assert actions[i].tobytes() == head.get_action(**obs, embodiment="tiny_robot", noise=noise[i]).tobytes()


def test_bad_batches_are_refused_whole(heads):
    head = heads["n15"]
    observations = [make_observation(head.info, seed=i) for i in range(3)]
    batch = stacked(observations)
    with pytest.raises(ValueError, match=r"^state: a batch of 2, but features has a batch of 3$"):
        head.get_action(**dict(batch, state=batch["state"][:2]))
    bad_state = batch["state"].copy()
    bad_state[1, 0, 0] = np.nan
    with pytest.raises(ValueError, match=r"^sample 1:state") as refused:
        head.get_action(**dict(batch, state=bad_state))
    assert "\n" not in str(refused.value)
    with pytest.raises(ValueError, match=r"^embodiment_id: 2 ids for a batch of 3$"):
        head.get_action(**batch, embodiment=[1, 2])
    with pytest.raises(ValueError, match=r"^sample 2: "):
        head.get_action(**batch, embodiment=[1, 2, 99])
    noise = np.zeros((3, head.info["horizon"], head.info["action_dim"]), dtype=np.float32)
    noise[2, 0, 0] = np.inf
    with pytest.raises(ValueError, match=r"^sample 2: noise"):
        head.get_action(**batch, noise=noise)
    with pytest.raises(ValueError, match=r"^noise: shape \[2, "):
        head.get_action(**batch, noise=noise[:2])
    # the head is usable after every refusal
    assert head.get_action(**batch).shape[0] == 3


def test_the_drop_in_runs_a_batch_as_one_call(releases, heads):
    head = heads["n15"]
    drop_in = DropIn(releases["n15"], backend="cpu", dtype="bf16", threads=2)
    observations = [make_observation(head.info, seed=20 + i, padding=i) for i in range(4)]
    batch = stacked(observations)
    noise = np.random.default_rng(5).standard_normal((4, head.info["horizon"], head.info["action_dim"])).astype(np.float32)
    backbone = {"backbone_features": torch.from_numpy(batch["features"]),
                "backbone_attention_mask": torch.from_numpy(batch["attention_mask"])}
    action_input = {"state": torch.from_numpy(batch["state"]), "embodiment_id": torch.tensor([1, 2, 2, 1])}
    calls = []
    original = drop_in._head._call_batch
    drop_in._head._call_batch = lambda *a, **k: calls.append(1) or original(*a, **k)
    pred = drop_in.get_action(backbone, action_input, noise=torch.from_numpy(noise)).action_pred
    assert len(calls) == 1
    for i, obs in enumerate(observations):
        alone = head.get_action(features=obs["features"], attention_mask=obs["attention_mask"], state=obs["state"],
                                embodiment=[1, 2, 2, 1][i], noise=noise[i])
        assert pred[i].numpy().tobytes() == alone.tobytes(), f"sample {i}"


def test_the_command_runs_a_batched_observation_file(releases, heads, tmp_path):
    head = heads["n17"]
    observations = [make_observation(head.info, seed=30 + i, padding=i) for i in range(3)]
    batch = stacked(observations)
    np.savez(tmp_path / "batch.npz", **batch)
    code, _, err = run_ditmk("run", "--checkpoint", releases["n17"], "--observation", tmp_path / "batch.npz", "--seed", "5",
                             "--embodiment", "tiny_robot", "--threads", "2", "--out", tmp_path / "actions.npy")
    assert code == 0, err
    want = head.get_action(**batch, embodiment="tiny_robot", seed=5)
    assert np.load(tmp_path / "actions.npy").tobytes() == want.tobytes()

    np.savez(tmp_path / "bad.npz", **dict(batch, state=batch["state"][:2]))
    code, _, err = run_ditmk("run", "--checkpoint", releases["n17"], "--observation", tmp_path / "bad.npz", "--threads", "2",
                             "--out", tmp_path / "bad.npy")
    assert code != 0
    assert err.strip() == f"ditmk: error: {tmp_path / 'bad.npz'}:state: a batch of 2, but features has a batch of 3"
    assert not (tmp_path / "bad.npy").exists()
    np.save(tmp_path / "noise.npy", np.zeros((2, head.info["horizon"], head.info["action_dim"]), dtype=np.float32))
    code, _, err = run_ditmk("run", "--checkpoint", releases["n17"], "--observation", tmp_path / "batch.npz", "--noise",
                             tmp_path / "noise.npy", "--threads", "2", "--out", tmp_path / "bad.npy")
    assert code != 0 and len(err.strip().splitlines()) == 1 and "for a batch of 3 observations" in err
    assert not (tmp_path / "bad.npy").exists()
