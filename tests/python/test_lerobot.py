"""LeRobot's GR00T policy (lerobot on PyPI; its GR00T is N1.5): LeRobot's own action-head module is
built from a ditmk-made release (no backbone weights), and its get_action and the one
ditmk.groot.patch puts in its place agree within DESIGN.md's gates under the same torch seed, for a
batch of three with float32 inputs in LeRobot's BatchFeature form.

LeRobot's package __init__ files import every policy, the datasets stack and the hub; only the
action-head files are needed here, so the three package modules above them are registered empty and
the head's own files are imported from the installed lerobot (scripts/test-wheel.sh installs it with
the few packages those files import). Without lerobot the test is skipped, unless
DITMK_REQUIRE_LEROBOT=1 (the wheel stage of CI) makes that a failure."""
import importlib.util
import json
import os
import sys
import types
from pathlib import Path

import numpy as np
import pytest
import torch

import ditmk.groot
from torch_reference import BF16_GATE, FP32_GATE, within


def lerobot_action_head_module():
    spec = importlib.util.find_spec("lerobot")
    if spec is None:
        if os.environ.get("DITMK_REQUIRE_LEROBOT") == "1":
            pytest.fail("lerobot is not installed (scripts/test-wheel.sh installs it)")
        pytest.skip("lerobot is not installed (scripts/test-wheel.sh installs it)")
    root = Path(spec.submodule_search_locations[0])
    for name in ("lerobot", "lerobot.policies", "lerobot.policies.groot"):
        if name not in sys.modules:
            package = types.ModuleType(name)
            package.__path__ = [str(root.joinpath(*name.split(".")[1:]))]
            sys.modules[name] = package
    import lerobot.policies.groot.action_head.flow_matching_action_head as flow_matching

    return flow_matching


def lerobot_head(flow_matching, release):
    """LeRobot's FlowmatchingActionHead from the release's config.json and safetensors."""
    from safetensors.torch import load_file

    config = json.loads((Path(release) / "config.json").read_text())["action_head_cfg"]
    head = flow_matching.FlowmatchingActionHead(flow_matching.FlowmatchingActionHeadConfig(**config))
    state = {}
    for shard in sorted(Path(release).glob("*.safetensors")):
        state.update({name[len("action_head."):]: tensor.float() for name, tensor in load_file(str(shard)).items()})
    head.load_state_dict(state, strict=True)
    return head.eval(), config


def test_patched_lerobot_head_matches_lerobot(releases):
    flow_matching = lerobot_action_head_module()
    release = releases["n15"]
    head, config = lerobot_head(flow_matching, release)
    policy = types.SimpleNamespace(_groot_model=types.SimpleNamespace(action_head=head))  # GrootPolicy's path
    generator = torch.Generator().manual_seed(3)
    batch, tokens = 3, 24
    features = torch.randn(batch, tokens, config["backbone_embedding_dim"], generator=generator)
    state = 0.5 * torch.randn(batch, 1, config["max_state_dim"], generator=generator)

    def call():
        # LeRobot's head normalises backbone_features in place: every call gets fresh inputs
        backbone_output = flow_matching.BatchFeature(data={
            "backbone_features": features.clone(), "backbone_attention_mask": torch.ones(batch, tokens, dtype=torch.long)})
        action_input = flow_matching.BatchFeature(data={
            "state": state.clone(), "state_mask": torch.ones(batch, 1, config["max_state_dim"], dtype=torch.bool),
            "embodiment_id": torch.tensor([1, 2, 1])})
        torch.manual_seed(11)
        return policy._groot_model.action_head.get_action(backbone_output, action_input)

    with torch.no_grad():
        released = call()
    assert isinstance(released, flow_matching.BatchFeature)
    want = released["action_pred"]
    for backend, dtype, gate in (("ref", "bf16", FP32_GATE), ("cpu", "bf16", BF16_GATE)):
        ditmk.groot.patch(policy, release, backend=backend, dtype=dtype, threads=2)
        got = call()["action_pred"]
        assert got.shape == want.shape == (batch, config["action_horizon"], config["action_dim"])
        assert got.dtype == want.dtype == torch.float32
        for b in range(batch):
            ok, figures = within(gate, got[b].numpy(), want[b].numpy())
            assert ok, (backend, b, figures)
        head.get_action = flow_matching.FlowmatchingActionHead.get_action.__get__(head)  # unpatch for the next
    assert not np.array_equal(want[0].numpy(), want[1].numpy())
