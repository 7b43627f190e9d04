"""The drop-in for the released GR00T action head.

    head = ditmk.groot.ActionHead("path/to/release")
    out = head.get_action(backbone_output, action_input)      # the released head's signature
    out.action_pred                                           # [B, H, max_action_dim]

    ditmk.groot.patch(policy, "path/to/release")              # a loaded GR00T (or LeRobot GR00T) policy now runs ditmk
    ditmk.groot.patch_remote(policy, "10.0.0.5", 5555)        # ... or a `ditmk serve` elsewhere

backbone_output carries backbone_features [B, S, 2048], backbone_attention_mask [B, S] and, for
N1.6/N1.7, image_mask [B, S]; action_input carries state [B, 1, max_state_dim] (N1.7: [B, L, ...]) and
embodiment_id [B]. Both may be dicts or objects with attribute access (transformers' BatchFeature).
N1.7's real-time chunking is the release's: an `action` [B, H_prev, A] in action_input (the previous
chunks) with options {action_horizon, rtc_overlap_steps, rtc_frozen_steps, rtc_ramp_rate}; the N1.5
and N1.6 heads ignore `action`, as released.
Without a `noise` argument the initial noise is drawn as the released head draws it: one call
torch.randn(size=(B, H, max_action_dim), dtype=<features' dtype>, device=<features' device>) on
torch's global generator, so that after the same torch.manual_seed both start from the same noise.
The semantics are the release's (docs/model.md); nothing here imports the GR00T package.
Samples and calls whose backbone features and masks are the previous one's bytes reuse the head's
vision-language work (docs/python.md): same actions, about half the time.
"""
import numpy as np

from . import ActionHead as _Head
from . import RTC_OPTIONS, _rtc_values

__all__ = ["ActionHead", "RemoteActionHead", "patch", "patch_remote"]


def _field(container, name, required=True):
    """container[name] or container.name; None (or a ValueError naming it) when absent."""
    value = None
    if isinstance(container, dict) or hasattr(container, "keys"):
        try:
            value = container[name] if name in container.keys() else None
        except (KeyError, TypeError):
            value = None
    if value is None:
        value = getattr(container, name, None)
    if value is None and required:
        raise ValueError(f"{name}: missing from the {type(container).__name__} passed to get_action")
    return value


def _is_torch(x):
    return type(x).__module__.startswith("torch")


class _Output(dict):
    """A dict with attribute access, for callers that read out.action_pred."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _output(action_pred):
    try:  # the released N1.5 model checks that the head returns a BatchFeature
        from transformers import BatchFeature

        return BatchFeature(data={"action_pred": action_pred})
    except ImportError:
        return _Output(action_pred=action_pred)


class _ReleasedSignature:
    """get_action(backbone_output, action_input) over a batch denoise (`_samples`)."""

    def _set_info(self, info):
        self.info = info
        self.action_horizon = info["horizon"]
        self.action_dim = info["action_dim"]

    def get_action(self, backbone_output, action_input, options=None, noise=None):
        features = _field(backbone_output, "backbone_features")
        attention_mask = _field(backbone_output, "backbone_attention_mask", required=False)
        image_mask = _field(backbone_output, "image_mask", required=False)
        state = _field(action_input, "state", required=False)
        embodiment_id = _field(action_input, "embodiment_id")
        if len(features.shape) != 3:
            raise ValueError(f"backbone_features: shape {list(features.shape)} (expected [B, S, {self.info['context_dim']}])")
        batch = features.shape[0]
        previous, rtc = self._realtime_chunking(_field(action_input, "action", required=False), options, batch)
        if noise is None:
            noise = self._draw_noise(features, batch)
        if len(noise.shape) != 3 or noise.shape[0] != batch:
            raise ValueError(f"noise: shape {list(noise.shape)} (expected [{batch}, {self.action_horizon}, {self.action_dim}])")
        ids = np.asarray(embodiment_id.cpu() if _is_torch(embodiment_id) else embodiment_id).reshape(-1)
        if ids.shape[0] != batch:
            raise ValueError(f"embodiment_id: {ids.shape[0]} ids for a batch of {batch}")
        actions = self._samples(features, attention_mask, image_mask, state, ids, noise, previous, rtc)
        if _is_torch(features):
            import torch

            return _output(torch.from_numpy(actions).to(device=features.device, dtype=features.dtype))
        return _output(actions.astype(features.dtype, copy=False))

    def _samples(self, features, attention_mask, image_mask, state, ids, noise, previous, rtc):
        """The actions [B, H, A] of a batch (numpy): each head computes the whole batch in one call."""
        raise NotImplementedError

    def _realtime_chunking(self, previous, options, batch):
        """(previous chunks, options) when the call asks N1.7 for real-time chunking, else (None, None):
        the N1.5 and N1.6 heads ignore a previous chunk, as released."""
        if previous is None or self.info["version"] != "n17":
            return None, None
        if options is None:
            raise ValueError(f"options: an action in action_input (real-time chunking) needs options with "
                             f"{', '.join(RTC_OPTIONS)}")
        if len(previous.shape) != 3 or previous.shape[0] != batch:
            raise ValueError(f"action: shape {list(previous.shape)} (expected [{batch}, H_prev, {self.action_dim}])")
        return previous, options

    def _draw_noise(self, features, batch):
        size = (batch, self.action_horizon, self.action_dim)
        try:
            import torch
        except ImportError:
            return np.random.standard_normal(size).astype(np.float32)
        if _is_torch(features):
            return torch.randn(size=size, dtype=features.dtype, device=features.device)
        return torch.randn(size=size, dtype=torch.float32)


class ActionHead(_ReleasedSignature):
    """The released action head's inference interface over a resident ditmk head.

    release_dir: the GR00T release; options: those of ditmk.ActionHead (backend, dtype, threads, isa,
    mask_padding)."""

    def __init__(self, release_dir, **options):
        self._head = _Head(checkpoint=release_dir, **options)
        self._set_info(self._head.info)

    def _samples(self, features, attention_mask, image_mask, state, ids, noise, previous, rtc):
        """The whole batch as one call of the resident head (one program on the cpu backend)."""
        return self._head._call_batch(features, attention_mask, image_mask, state, [int(i) for i in ids], noise, 0, False,
                                      previous, rtc, "action")


def _numpy(x, dtype=None):
    """A numpy copy of an array or tensor (bfloat16 widened to float32 exactly: .npy has no bfloat16)."""
    if x is None:
        return None
    if _is_torch(x):
        import torch

        x = x.detach().cpu()
        if x.dtype in (torch.bfloat16, torch.float16):
            x = x.float()
        x = x.numpy()
    x = np.asarray(x)
    return x.astype(dtype) if dtype is not None else x


class RemoteActionHead(_ReleasedSignature):
    """The same interface, computed by a `ditmk serve` (GR00T's wire format) on another machine or
    process: a call is one get_action request carrying the whole batch (features [B, S, ctx], masks,
    state, embodiment ids, noise and previous chunks with a leading B), which the server runs as one
    batch and answers with action_pred [B, H, A]."""

    def __init__(self, host="127.0.0.1", port=5555, api_token=None, timeout_ms=60000):
        from .client import PolicyClient

        self._client = PolicyClient(host, port, api_token, timeout_ms)
        self._set_info(self._client.get_info())

    def _samples(self, features, attention_mask, image_mask, state, ids, noise, previous, rtc):
        """The whole batch as one get_action request."""
        batch = features.shape[0]
        return self._client.get_action(
            _numpy(features, np.float32), backbone_attention_mask=_numpy(attention_mask, bool),
            image_mask=_numpy(image_mask, bool), state=_numpy(state, np.float32),
            embodiment_id=int(ids[0]) if batch == 1 else [int(i) for i in ids], noise=_numpy(noise, np.float32),
            action=_numpy(previous), options=None if rtc is None else dict(zip(RTC_OPTIONS, _rtc_values(rtc))))


def _action_head_owner(policy_or_model):
    """The object whose .action_head is the released head: a GR00T policy's .model, a LeRobot GR00T
    policy's ._groot_model, or the model itself."""
    for owner in (getattr(policy_or_model, "model", None), getattr(policy_or_model, "_groot_model", None), policy_or_model):
        if owner is not None and getattr(owner, "action_head", None) is not None:
            return owner
    raise ValueError(f"{type(policy_or_model).__name__}: no .model.action_head, ._groot_model.action_head or "
                     f".action_head to patch")


def patch(policy_or_model, release_dir, **options):
    """Replaces the get_action of a loaded GR00T policy's (or model's) action head with ditmk's, so the
    rest of the released pipeline runs unchanged. Returns the ditmk head."""
    return _patch_with(policy_or_model, ActionHead(release_dir, **options))


def patch_remote(policy_or_model, host="127.0.0.1", port=5555, api_token=None, timeout_ms=60000):
    """The same, with the actions computed by a `ditmk serve` at host:port."""
    return _patch_with(policy_or_model, RemoteActionHead(host, port, api_token, timeout_ms))


def _patch_with(policy_or_model, head):
    released = _action_head_owner(policy_or_model).action_head
    released.get_action = head.get_action
    return head
