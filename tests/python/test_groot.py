"""ditmk.groot: the released action head's get_action(backbone_output, action_input) against the
project's own PyTorch implementation (tests/torch/groot_ref.py), batches with a mask per sample, the
released way of drawing the noise, and patching a loaded policy."""
import types

import numpy as np
import pytest
import torch

import ditmk.groot
from conftest import make_observation
from torch_reference import BF16_GATE, agreement, batch, torch_reference


@pytest.mark.parametrize("version,size", [("n15", 1), ("n15", 3), ("n16", 3), ("n17", 1), ("n17", 3)])
def test_matches_the_torch_implementation_per_sample(version, size, releases):
    head = ditmk.groot.ActionHead(releases[version], backend="cpu", dtype="bf16", threads=2)
    samples, backbone_output, action_input = batch(head.info, seeds=range(size), paddings=[0, 3, 6][:size],
                                                   image_blocks=[(2, 9), (5, 6), (3, 12)][:size])
    noise = torch.randn(size, head.action_horizon, head.action_dim)
    out = head.get_action(backbone_output, action_input, noise=noise)
    assert out.action_pred.shape == (size, head.action_horizon, head.action_dim)
    assert out.action_pred.dtype == torch.float32
    assert out["action_pred"] is out.action_pred
    for b, sample in enumerate(samples):
        cos, rel_l2 = agreement(out.action_pred[b], torch_reference(releases[version], sample, noise[b].numpy(), 1))
        assert cos >= BF16_GATE["cos"] and rel_l2 <= BF16_GATE["rel_l2"], (b, cos, rel_l2)
    # each sample alone gives its row of the batch
    alone = head.get_action({k: v[1:2] for k, v in backbone_output.items()} if size > 1 else backbone_output,
                            types.SimpleNamespace(state=action_input.state[1:2] if size > 1 else action_input.state,
                                                  embodiment_id=action_input.embodiment_id[:1]),
                            noise=noise[1:2] if size > 1 else noise)
    assert torch.equal(alone.action_pred[0], out.action_pred[1 if size > 1 else 0])


def test_noise_is_drawn_the_released_way(releases):
    head = ditmk.groot.ActionHead(releases["n16"], backend="cpu", threads=2)
    _, backbone_output, action_input = batch(head.info, seeds=[4, 5], paddings=[0, 2], image_blocks=[(2, 9), (5, 6)])
    backbone_output["backbone_features"] = backbone_output["backbone_features"].to(torch.bfloat16)
    torch.manual_seed(123)
    drawn = head.get_action(backbone_output, action_input)
    after_drawn = torch.randn(3)
    torch.manual_seed(123)
    released_noise = torch.randn(size=(2, head.action_horizon, head.action_dim), dtype=torch.bfloat16, device="cpu")
    after_released = torch.randn(3)
    given = head.get_action(backbone_output, action_input, noise=released_noise)
    assert torch.equal(drawn.action_pred, given.action_pred)
    assert torch.equal(after_drawn, after_released), "exactly one draw from the global generator"
    assert drawn.action_pred.dtype == torch.bfloat16 and drawn.action_pred.device.type == "cpu"


def test_numpy_in_numpy_out_and_errors_name_the_field(releases):
    head = ditmk.groot.ActionHead(releases["n15"], backend="cpu", threads=2)
    obs = make_observation(head.info, seed=1)
    out = head.get_action({"backbone_features": obs["features"][None]},
                          {"state": obs["state"][None], "embodiment_id": np.array([2])},
                          noise=np.zeros((1, head.action_horizon, head.action_dim), np.float32))
    assert isinstance(out.action_pred, np.ndarray) and out.action_pred.dtype == np.float32
    with pytest.raises(ValueError, match="embodiment_id: missing"):
        head.get_action({"backbone_features": obs["features"][None]}, {"state": obs["state"][None]})
    with pytest.raises(ValueError, match=r"backbone_features: shape \[20, 96\]"):
        head.get_action({"backbone_features": obs["features"]}, {"embodiment_id": np.array([2])})


def test_patch_replaces_the_action_head_of_a_loaded_policy(releases):
    class ReleasedHead(torch.nn.Module):
        def get_action(self, backbone_output, action_input):
            raise AssertionError("the released head ran")

    policy = types.SimpleNamespace(model=types.SimpleNamespace(action_head=ReleasedHead()))
    head = ditmk.groot.patch(policy, releases["n17"], backend="cpu", threads=2)
    info = head.info
    obs = make_observation(info, seed=2)
    backbone_output = {"backbone_features": torch.from_numpy(obs["features"][None]),
                       "backbone_attention_mask": torch.from_numpy(obs["attention_mask"][None]),
                       "image_mask": torch.from_numpy(obs["image_mask"][None])}
    action_input = {"state": torch.from_numpy(obs["state"][None]), "embodiment_id": torch.tensor([1])}
    torch.manual_seed(0)
    patched = policy.model.action_head.get_action(backbone_output, action_input)
    torch.manual_seed(0)
    assert torch.equal(patched.action_pred, head.get_action(backbone_output, action_input).action_pred)
    model_only = types.SimpleNamespace(action_head=ReleasedHead())
    ditmk.groot.patch(model_only, releases["n17"], threads=1)
    assert model_only.action_head.get_action(backbone_output, action_input).action_pred.shape == (1, 8, 6)
    with pytest.raises(ValueError, match="no .model.action_head, ._groot_model.action_head or .action_head"):
        ditmk.groot.patch(types.SimpleNamespace(), releases["n17"])
