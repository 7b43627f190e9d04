"""The project's float64 PyTorch implementation (tests/torch/groot_ref.py) on one sample, batches of
samples in the released head's input form, and the agreement metrics DESIGN.md gates on."""
import os
import sys
import types

import numpy as np
import torch

from conftest import make_observation

sys.path.insert(0, os.path.join(os.environ["DITMK_SOURCE_DIR"], "tests", "torch"))
import groot_ref  # noqa: E402
import groot_torch as gt  # noqa: E402  (groot_ref puts bench/ on the path)

BF16_GATE = dict(cos=0.9999, rel_l2=1e-2)  # DESIGN.md's gate for bf16 weights
FP32_GATE = dict(cos=0.99999, rel_l2=1e-3)  # DESIGN.md's fp32 gate, for the float64 ref


def torch_reference(release_dir, obs, noise, embodiment, rtc=None):
    """The float64 PyTorch implementation on one sample; rtc: groot_ref.euler_start's real-time
    chunking (the previous chunk as `action` and the release's four options)."""
    release = gt.Release(release_dir)
    s = release.structure
    sample = gt.Observation(features=obs["features"], attention_mask=obs["attention_mask"], image_mask=obs["image_mask"],
                            state=obs["state"].reshape(-1))
    with torch.no_grad():
        actions, _ = groot_ref.denoise(release.weights(torch.float64, embodiment), s, sample,
                                       gt.cross_key_masks(s, sample, False), gt.vl_key_mask(sample, False), noise, rtc)
    return actions.numpy()


def agreement(got, want):
    got, want = np.asarray(got, np.float64).ravel(), np.asarray(want, np.float64).ravel()
    cos = got @ want / (np.linalg.norm(got) * np.linalg.norm(want))
    return cos, np.linalg.norm(got - want) / np.linalg.norm(want)


def within(gate, got, want):
    cos, rel_l2 = agreement(got, want)
    return cos >= gate["cos"] and rel_l2 <= gate["rel_l2"], (cos, rel_l2)


def batch(info, seeds, paddings, image_blocks):
    samples = [make_observation(info, seed, padding, block) for seed, padding, block in zip(seeds, paddings, image_blocks)]
    backbone_output = {
        "backbone_features": torch.from_numpy(np.stack([o["features"] for o in samples])),
        "backbone_attention_mask": torch.from_numpy(np.stack([o["attention_mask"] for o in samples])),
        "image_mask": torch.from_numpy(np.stack([o["image_mask"] for o in samples])),
    }
    action_input = types.SimpleNamespace(  # attribute access, as transformers' BatchFeature gives
        state=torch.from_numpy(np.stack([o["state"] for o in samples])),
        embodiment_id=torch.tensor([1] * len(samples)))
    return samples, backbone_output, action_input
