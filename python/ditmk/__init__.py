"""ditmk: the GR00T N1.5 / N1.6 / N1.7 action head, loaded once and called many times.

    import ditmk
    head = ditmk.ActionHead(checkpoint="path/to/release", backend="cpu", dtype="bf16")
    actions = head.get_action(features, attention_mask=mask, state=state, embodiment="gr1", seed=0)

`ditmk.groot` is the drop-in for the released GR00T policy code. Errors raise ValueError (bad input),
FileNotFoundError (a path that does not exist) or RuntimeError, with the one-line messages of the
`ditmk` command; a call that fails leaves the head ready for the next one.
"""
import operator
import warnings

import numpy as np

from . import _ditmk

__all__ = ["ActionHead", "RTC_OPTIONS", "ReleaseQuirkWarning", "__version__", "inspect", "make_checkpoint"]

__version__ = _ditmk.__version__

#: The options of N1.7's real-time chunking, by the release's names (docs/model.md).
RTC_OPTIONS = ("action_horizon", "rtc_overlap_steps", "rtc_frozen_steps", "rtc_ramp_rate")


class ReleaseQuirkWarning(UserWarning):
    """An input ditmk computes as the released head does, with a result a caller may not expect (for
    example N1.7 rows that are frozen but not inpainted keep their noise, docs/model.md)."""


def _is_torch(x):
    return type(x).__module__.startswith("torch")


def _array(x, name):
    """(C-contiguous numpy array, dtype name) for a numpy array or a CPU torch tensor, without a copy
    where the layout allows one. bfloat16 tensors travel as their raw 16-bit words."""
    if _is_torch(x):
        import torch

        x = x.detach()
        if x.device.type != "cpu":
            x = x.cpu()
        x = x.contiguous()
        if x.dtype == torch.bfloat16:
            return x.view(torch.int16).numpy(), "bfloat16"
        array = x.numpy()
    elif isinstance(x, np.ndarray):
        array = np.ascontiguousarray(x)
    else:
        raise ValueError(f"{name}: expected a numpy array or a torch tensor, got {type(x).__name__}")
    return array, array.dtype.name


def _rtc_values(options):
    """The four real-time chunking options of a dict (or any mapping) as (int, int, int, float)."""
    if not hasattr(options, "keys"):
        raise ValueError(f"rtc: expected a dict of {', '.join(RTC_OPTIONS)}, got {type(options).__name__}")
    values = []
    for name in RTC_OPTIONS:
        if name not in options:
            raise ValueError(f"{name}: missing from the options (real-time chunking needs {', '.join(RTC_OPTIONS)})")
        value = options[name]
        try:
            values.append(float(value) if name == "rtc_ramp_rate" else operator.index(value))
        except (TypeError, ValueError):
            kind = "a number" if name == "rtc_ramp_rate" else "an integer"
            raise ValueError(f"{name}: expected {kind}, got {type(value).__name__} {value!r}") from None
    return tuple(values)


class ActionHead:
    """A resident action head: the release is mapped and its weights packed once, here.

    checkpoint: a release directory or .safetensors file; None: the built-in model of `version`
    (a full-size synthetic release generated into ~/.cache/ditmk on first use).
    backend: "cpu" (the fast engine), "ref" (the float64 oracle) or "emu" (the emulated megakernel).
    dtype: weight format, "bf16", "bfp8_b", "fp32" or (cpu backend) "int8". threads: None for one per core.
    isa: cap on the CPU instruction set ("portable", "avx2", "avx512f", "avx512" (with BF16), "amx");
    None for the best.
    mask_padding: the opt-in deviation from the releases (docs/model.md): never attend padding tokens.
    weight_cache: (cpu) map the packed weights from the weight cache when an earlier open of the same
    release and dtype left them there, else pack them and keep them for the next open; False packs
    afresh and writes nothing (docs/python.md, "Opening fast"). info["weight_cache"] says which happened.
    reuse_vision_language: keep the last call's vision-language work (VL tokens, cross-attention keys
    and values) and reuse it while a call's features and masks are the same bytes; the actions are
    bit-identical and such a call costs about half a full one (cpu backend; ref and emu recompute).
    """

    def __init__(self, checkpoint=None, version="n15", backend="cpu", dtype="bf16", threads=None, isa=None,
                 mask_padding=False, weight_cache=True, reuse_vision_language=True):
        self._head = _ditmk.Head(checkpoint="" if checkpoint is None else str(checkpoint), version=version,
                                 backend=backend, dtype=dtype, threads=0 if threads is None else int(threads),
                                 isa=isa or "", mask_padding=bool(mask_padding), weight_cache=bool(weight_cache),
                                 reuse_vision_language=bool(reuse_vision_language))
        self._embodiments = self._head.info["embodiments"]

    @property
    def info(self):
        """The head's facts, with the live vl_cache_bytes (kept for vision-language reuse) and
        vl_reused_calls."""
        return self._head.info

    def set_vision_language(self, features, attention_mask=None, image_mask=None):
        """Names the vision-language inputs once (copied now, checked as get_action checks them):
        later get_action calls without features use them with their own state, embodiment and noise.
        Robots re-plan from the last features with a new state; the cpu backend then skips the
        vision-language half of the call. A new set replaces them; clear_vision_language drops them."""
        arrays = {"features": _array(features, "features")}
        for name, value in (("attention_mask", attention_mask), ("image_mask", image_mask)):
            if value is not None:
                arrays[name] = _array(value, name)
        self._head.set_vision_language(arrays)

    def clear_vision_language(self):
        """Drops what set_vision_language kept: a call must then pass its features again."""
        self._head.clear_vision_language()

    def get_action(self, features=None, attention_mask=None, image_mask=None, state=None, embodiment="new_embodiment",
                   noise=None, seed=0, return_velocities=False, previous_actions=None, rtc=None):
        """One denoise. features [S, ctx] float32/float16/bfloat16, or None for those of
        set_vision_language (with their masks); attention_mask and
        image_mask [S] bool or 0/1 integers; state [state_dim] (N1.7 with a state history: [L, state_dim]);
        embodiment: tag or slot id; noise [H, A] (else drawn from `seed` by ditmk's own generator).
        N1.7's real-time chunking: previous_actions [H_prev, A], the chunk before this one, and rtc, a
        dict of the release's options (RTC_OPTIONS), both or neither.
        Returns the actions [H, A] float32, and with return_velocities also every step's velocity
        [steps, H, A].

        A batch: features [B, S, ctx] and every other array with the same leading B (masks [B, S],
        state [B, state_dim] or [B, L, state_dim], noise [B, H, A], previous_actions [B, H_prev, A]);
        embodiment one for all or a sequence of B; sample i without noise draws from seed + i. The cpu
        backend runs the B samples as one program, each weight streamed once per step for all of them;
        each sample's actions are the bytes of its own call. Returns [B, H, A] (and [B, steps, H, A])."""
        if features is not None and len(features.shape) == 3 and features.shape[0] != 1:
            return self._call_batch(features, attention_mask, image_mask, state, embodiment, noise, seed,
                                    return_velocities, previous_actions, rtc, "previous_actions")
        if embodiment is not None and not isinstance(embodiment, (str, int, np.integer)):  # one id per sample
            ids = np.asarray(embodiment.cpu() if _is_torch(embodiment) else embodiment).reshape(-1)
            if ids.shape[0] != 1:
                raise ValueError(f"embodiment_id: {ids.shape[0]} ids for a batch of 1")
            embodiment = ids[0].item() if ids.dtype.kind != "U" else str(ids[0])
        actions = self._call(features, attention_mask, image_mask, state, embodiment, noise, seed, return_velocities,
                             previous_actions, rtc, "previous_actions")
        if features is None or len(features.shape) != 3:
            return actions
        # a batch of one, which the single call takes with or without the leading dimension on each array
        return (actions[0][None], actions[1][None]) if return_velocities else actions[None]

    def _embodiment(self, embodiment):
        """The C++ head's name of an embodiment tag or slot id ("" for the release's default)."""
        if embodiment is None:
            return ""
        if not isinstance(embodiment, str):
            embodiment = str(int(embodiment))
        if embodiment == "new_embodiment" and "new_embodiment" not in self._embodiments:
            return ""  # the release's default embodiment
        return embodiment

    def _call_batch(self, features, attention_mask, image_mask, state, embodiment, noise, seed, return_velocities,
                    previous_actions, rtc, previous_name):
        """get_action over arrays with a leading batch dimension: one call of the C++ head."""
        arrays = {"features": _array(features, "features")}
        for name, value in (("attention_mask", attention_mask), ("image_mask", image_mask), ("state", state)):
            if value is not None:
                arrays[name] = _array(value, name)
        if embodiment is None or isinstance(embodiment, (str, int, np.integer)):
            embodiments = [self._embodiment(embodiment)]
        else:
            ids = embodiment.cpu() if _is_torch(embodiment) else embodiment
            embodiments = [self._embodiment(e if isinstance(e, str) else int(e)) for e in np.asarray(ids).reshape(-1)]
        actions, velocities, quirks = self._head.get_actions(
            arrays, embodiments, None if noise is None else _array(noise, "noise"), int(seed), bool(return_velocities),
            None if previous_actions is None else _array(previous_actions, previous_name), previous_name,
            None if rtc is None else _rtc_values(rtc))
        for quirk in quirks:
            warnings.warn(quirk, ReleaseQuirkWarning, stacklevel=3)
        return (actions, velocities) if return_velocities else actions

    def _call(self, features, attention_mask, image_mask, state, embodiment, noise, seed, return_velocities,
              previous_actions, rtc, previous_name):
        """get_action, its previous chunk named `previous_name` in errors (the drop-in's is `action`)."""
        arrays = {} if features is None else {"features": _array(features, "features")}
        for name, value in (("attention_mask", attention_mask), ("image_mask", image_mask), ("state", state)):
            if value is not None:
                arrays[name] = _array(value, name)
        embodiment = self._embodiment(embodiment)
        noise_array = None if noise is None else _array(noise, "noise")
        previous = None if previous_actions is None else _array(previous_actions, previous_name)
        actions, velocities, quirks = self._head.get_action(arrays, embodiment, noise_array, int(seed),
                                                            bool(return_velocities), previous, previous_name,
                                                            None if rtc is None else _rtc_values(rtc))
        for quirk in quirks:
            warnings.warn(quirk, ReleaseQuirkWarning, stacklevel=3)
        return (actions, velocities) if return_velocities else actions

    def synthetic_observation(self, seed=0):
        """The deterministic observation `ditmk run` uses without --observation (docs/model.md,
        "Defaults"), as keyword arguments of get_action."""
        return self._head.synthetic_observation(int(seed))


def inspect(path):
    """What `ditmk inspect --json` prints: version, blocks, dims, settings, dtypes, parameter counts."""
    return _ditmk.inspect(str(path))


def make_checkpoint(out, version="n15", dtype="bf16", seed=0, n_blocks=0, tiny=False, shard_mb=1024):
    """Writes a deterministic synthetic release in the released form of `version` (what
    `ditmk make-checkpoint` writes); returns its directory."""
    _ditmk.make_checkpoint(out=str(out), version=version, dtype=dtype, seed=int(seed), n_blocks=int(n_blocks),
                           tiny=bool(tiny), shard_mb=int(shard_mb))
    return str(out)
