"""Reads what the PyTorch action heads consume: a GR00T release directory, an observation and a noise
tensor, all checked strictly. Shared by tests/torch/groot_ref.py (float64 oracle) and
bench/peer_torch.py (bf16 peer); the model math lives in those two scripts, not here.

Every problem with an input raises InputError with one line naming the file, tensor or field.
"""
import argparse
import json
import math
import mmap
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

PREFIX = "action_head."

# Category-specific (per-embodiment) tensors: their leading axis is the embodiment slot.
CATEGORY_TENSORS = tuple(
    f"{module}.{layer}.{part}"
    for module, layers in (
        ("state_encoder", ("layer1", "layer2")),
        ("action_encoder", ("W1", "W2", "W3")),
        ("action_decoder", ("layer1", "layer2")),
    )
    for layer in layers
    for part in ("W", "b")
)


class InputError(Exception):
    """A bad input file or argument; the message is one line naming what is wrong."""


# ---------------------------------------------------------------------------------------------
# safetensors


_ELEMENT = {"F32": ("<f4", 4), "BF16": ("<u2", 2), "F16": ("<f2", 2)}


def _as_float32(raw, st_dtype):
    """bf16 is the top half of an fp32, so widening it is exact; f16 widens exactly too."""
    if st_dtype == "BF16":
        return (raw.astype(np.uint32) << 16).view(np.float32)
    return raw.astype(np.float32)


class SafetensorsFile:
    """One .safetensors file: an 8-byte little-endian header length, a JSON header, a data section."""

    def __init__(self, path):
        self.path = Path(path)
        try:
            with open(self.path, "rb") as f:
                size = f.seek(0, 2)
                if size < 8:
                    raise InputError(f"{self.path}: {size} bytes, too short for a safetensors header")
                self._map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError as e:
            raise InputError(f"{self.path}: cannot read ({e.strerror})") from None
        header_len = int.from_bytes(self._map[:8], "little")
        if header_len > size - 8:
            raise InputError(f"{self.path}: header length {header_len} exceeds the file ({size} bytes)")
        try:
            header = json.loads(self._map[8 : 8 + header_len].decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise InputError(f"{self.path}: header is not valid JSON ({e})") from None
        if not isinstance(header, dict):
            raise InputError(f"{self.path}: header is not a JSON object")
        self._data_start = 8 + header_len
        self.entries = {}
        data_len = size - self._data_start
        for name, entry in header.items():
            if name != "__metadata__":
                self.entries[name] = self._check_entry(name, entry, data_len)
        self._check_no_overlap()

    def _check_entry(self, name, entry, data_len):
        where = f"{self.path}: tensor '{name}'"
        if not isinstance(entry, dict) or entry.keys() < {"dtype", "shape", "data_offsets"}:
            raise InputError(f"{where}: entry needs dtype, shape and data_offsets")
        dtype, shape, offsets = entry["dtype"], entry["shape"], entry["data_offsets"]
        if dtype not in _ELEMENT:
            raise InputError(f"{where}: dtype {dtype!r} is not one of {', '.join(_ELEMENT)}")
        if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape):
            raise InputError(f"{where}: shape {shape!r} is not a list of non-negative integers")
        if (not isinstance(offsets, list) or len(offsets) != 2
                or not all(isinstance(o, int) for o in offsets)
                or not 0 <= offsets[0] <= offsets[1] <= data_len):
            raise InputError(f"{where}: data_offsets {offsets!r} outside the {data_len}-byte data section")
        expected = math.prod(shape) * _ELEMENT[dtype][1]
        if offsets[1] - offsets[0] != expected:
            raise InputError(f"{where}: {offsets[1] - offsets[0]} bytes for {dtype} {shape} (expected {expected})")
        return dtype, tuple(shape), tuple(offsets)

    def _check_no_overlap(self):
        spans = sorted((e[2], name) for name, e in self.entries.items() if e[2][0] != e[2][1])
        for (prev, prev_name), (cur, cur_name) in zip(spans, spans[1:]):
            if cur[0] < prev[1]:
                raise InputError(f"{self.path}: tensors '{prev_name}' and '{cur_name}' overlap")

    def shape(self, name):
        return self.entries[name][1]

    def read(self, name, index=None):
        """The tensor as float32 numpy; `index` selects one slice of the leading axis before copying."""
        dtype, shape, (begin, _) = self.entries[name]
        element, _ = _ELEMENT[dtype]
        raw = np.frombuffer(self._map, dtype=element, count=math.prod(shape), offset=self._data_start + begin)
        raw = raw.reshape(shape)
        return _as_float32(raw if index is None else raw[index], dtype)


def _open_tensors(release_dir):
    """name -> SafetensorsFile holding it, from model.safetensors or a sharded index."""
    single = release_dir / "model.safetensors"
    index_path = release_dir / "model.safetensors.index.json"
    if single.exists() and index_path.exists():
        raise InputError(f"{release_dir}: both model.safetensors and model.safetensors.index.json present")
    if single.exists():
        shard = SafetensorsFile(single)
        return {name: shard for name in shard.entries}
    if not index_path.exists():
        raise InputError(f"{release_dir}: no model.safetensors or model.safetensors.index.json")
    weight_map = _read_json(index_path).get("weight_map")
    if not isinstance(weight_map, dict):
        raise InputError(f"{index_path}: 'weight_map' missing or not an object")
    shards, located = {}, {}
    for name, file_name in weight_map.items():
        if not isinstance(file_name, str) or not re.fullmatch(r"[\w.-]+\.safetensors", file_name):
            raise InputError(f"{index_path}: weight_map['{name}'] = {file_name!r} is not a shard file name")
        if file_name not in shards:
            shards[file_name] = SafetensorsFile(release_dir / file_name)
        if name not in shards[file_name].entries:
            raise InputError(f"{index_path}: tensor '{name}' is not in {file_name}")
        located[name] = shards[file_name]
    return located


def _read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            value = json.load(f)
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InputError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(value, dict):
        raise InputError(f"{path}: not a JSON object")
    return value


# ---------------------------------------------------------------------------------------------
# config.json, in the form each release writes it (docs/model.md): N1.5 nests the head's settings
# in action_head_cfg; N1.6/N1.7 are flat (the fields of Gr00tN1d6Config / Gr00tN1d7Config at the top
# level), or nested as earlier ditmk versions wrote them, read with the meaning those gave it. A
# field that is absent means what the released class's default makes it mean.

# The released DiT constructor's defaults, for the keys a diffusion_model_cfg omits.
DIT_CTOR_DEFAULTS = {"positional_embeddings": "sinusoidal", "num_layers": 12, "num_attention_heads": 8,
                     "attention_head_dim": 64, "output_dim": 26, "interleave_self_attention": False}
# The diffusion_model_cfg N1.6 / N1.7 use when config.json has none (their class defaults).
_N1D6_DIT = {"positional_embeddings": None, "num_layers": 32, "num_attention_heads": 32,
             "attention_head_dim": 48, "output_dim": 1024, "interleave_self_attention": True}
DIT_CLASS_DEFAULTS = {"n16": _N1D6_DIT, "n17": {**_N1D6_DIT, "num_layers": 16}}
# The released VL self-attention stack's (SelfAttentionTransformer's) constructor defaults.
VL_CTOR_DEFAULTS = {"positional_embeddings": "sinusoidal", "num_layers": 12, "num_attention_heads": 8,
                    "attention_head_dim": 64}
# The head classes' defaults of the fields that shape inference: FlowmatchingActionHeadConfig (N1.5),
# Gr00tN1d6Config, Gr00tN1d7Config. None: the class has no default the head can run with.
_COMMON_HEAD = {"add_pos_embed": True, "use_vlln": True, "input_embedding_dim": 1536, "hidden_size": 1024,
                "max_seq_len": 1024, "num_timestep_buckets": 1000, "max_num_embodiments": 32}
HEAD_DEFAULTS = {
    "n15": {**_COMMON_HEAD, "backbone_embedding_dim": 1536, "num_target_vision_tokens": 32,
            "action_horizon": None, "num_inference_timesteps": None, "action_dim": None, "max_state_dim": None},
    "n16": {**_COMMON_HEAD, "backbone_embedding_dim": 2048, "action_horizon": 16, "num_inference_timesteps": 4,
            "max_action_dim": 29, "max_state_dim": 29},
    "n17": {**_COMMON_HEAD, "backbone_embedding_dim": 2048, "action_horizon": 40, "num_inference_timesteps": 4,
            "max_action_dim": 132, "max_state_dim": 132},
}
NORM_EPS_DEFAULT = 1e-5


def _is_int(value, minimum):
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


class _Section:
    """One object of config.json at a dotted path. A field that is absent or null takes the default
    the caller passes (the released class's); string settings keep null as a value of their own."""

    def __init__(self, node, path, file):
        if node is not None and not isinstance(node, dict):
            raise InputError(f"{file}: field '{path}' = {json.dumps(node)} is not an object")
        self.node, self.path, self.file = node if node is not None else {}, path, file

    def where(self, key):
        return f"{self.path}.{key}" if self.path else key

    def has(self, key):
        return self.node.get(key) is not None

    def child(self, key):
        return _Section(self.node.get(key), self.where(key), self.file)

    def shown(self, key, value):
        """How a value reads in an error: as written, or marked as the default of an absent or null field."""
        if key not in self.node:
            return f"{json.dumps(value)} (absent: the released default)"
        if self.node[key] is None and value is not None:
            return f"{json.dumps(value)} (null: the released default)"
        return json.dumps(value)

    def _value(self, key, default, acceptable, expected):
        value = self.node.get(key)
        if value is None:
            return default
        if not acceptable(value):
            raise InputError(f"{self.file}: field '{self.where(key)}' = {json.dumps(value)} is not {expected}")
        return value

    def integer(self, key, default, minimum=1):
        return self._value(key, default, lambda v: _is_int(v, minimum),
                           "a positive integer" if minimum == 1 else "a non-negative integer")

    def required_integer(self, key, default):
        value = self.integer(key, default)
        if value is None:
            raise InputError(f"{self.file}: field '{self.where(key)}' is missing (the released class has no default)")
        return value

    def flag(self, key, default):
        return self._value(key, default, lambda v: isinstance(v, bool), "true or false")

    def positive_number(self, key, default):
        return float(self._value(key, default, lambda v: _is_int(v, 1) or (
            isinstance(v, float) and math.isfinite(v) and v > 0), "a positive number"))

    def text(self, key, default):
        """A string setting: absent gives `default`, null gives None."""
        if key not in self.node:
            return default
        value = self.node[key]
        if value is not None and not isinstance(value, str):
            raise InputError(f"{self.file}: field '{self.where(key)}' = {json.dumps(value)} is not a string or null")
        return value

    def refuse(self, key, value, supported):
        raise InputError(f"{self.file}: field '{self.where(key)}' = {self.shown(key, value)} is not supported: "
                         f"{supported}")


@dataclass
class _Settings:
    """What config.json decides, and the sizes it declares (quantity, field, value as shown, value),
    which the tensors must confirm."""

    heads: int = 0
    head_dim: int = 0
    interleave: bool = False
    ff_norm_eps: float = NORM_EPS_DEFAULT
    alternate: bool = False           # N1.6/N1.7 AlternateVLDiT: cross blocks alternate text / image keys
    text_every: int = 2               # attend_text_every_n_blocks
    vl_heads: int = 0
    vl_head_dim: int = 0
    vl_norm_eps: float = NORM_EPS_DEFAULT
    add_pos_embed: bool = True
    use_vlln: bool = True
    horizon: int = 0
    n_steps: int = 0
    buckets: int = 0
    state_history: int = 1
    declared: list = None

    def declare(self, quantity, section, key, default):
        value = section.integer(key, default, minimum=0)
        if value is not None:
            self.declared.append((quantity, section.where(key), section.shown(key, value), value))

    def declare_none(self, quantity, field, shown):
        """config.json makes `quantity` absent (zero), by a setting rather than a size."""
        self.declared.append((quantity, field, shown, 0))


def _read_dit(dit, defaults, out):
    """diffusion_model_cfg: the DiT's settings; those the release supports but no reference here
    computes are refused by name."""
    position = dit.text("positional_embeddings", defaults["positional_embeddings"])
    if position is not None:
        dit.refuse("positional_embeddings", position, "the released DiT would add its own position code to "
                   "every block's input; supported: null, as every GR00T release sets it")
    for key, released in (("norm_type", "ada_norm"), ("activation_fn", "gelu-approximate")):
        value = dit.text(key, released)
        if value != released:
            dit.refuse(key, value, f"supported: \"{released}\", as every GR00T release sets it")
    if not dit.flag("attention_bias", True):
        dit.refuse("attention_bias", False, "supported: true, as every GR00T release sets it")
    if dit.flag("norm_elementwise_affine", False):
        dit.refuse("norm_elementwise_affine", True, "supported: false (the DiT's LayerNorms have no affine)")
    out.heads = dit.integer("num_attention_heads", defaults["num_attention_heads"])
    out.head_dim = dit.integer("attention_head_dim", defaults["attention_head_dim"])
    out.interleave = dit.flag("interleave_self_attention", defaults["interleave_self_attention"])
    out.ff_norm_eps = dit.positive_number("norm_eps", NORM_EPS_DEFAULT)
    out.declare("n_blocks", dit, "num_layers", defaults["num_layers"])
    out.declare("out_dim", dit, "output_dim", defaults["output_dim"])


def _read_vl_stack(vl, positional_default, out):
    position = vl.text("positional_embeddings", positional_default)
    if position is not None:
        vl.refuse("positional_embeddings", position, "the released VL self-attention would add its own position "
                  "code; supported: null, as every GR00T release sets it")
    value = vl.text("activation_fn", "gelu-approximate")
    if value != "gelu-approximate":
        vl.refuse("activation_fn", value, "supported: \"gelu-approximate\", as every GR00T release sets it")
    if not vl.flag("attention_bias", True):
        vl.refuse("attention_bias", False, "supported: true, as every GR00T release sets it")
    if not vl.flag("norm_elementwise_affine", True):
        vl.refuse("norm_elementwise_affine", False, "supported: true (the VL stack's LayerNorms have affine)")
    out.vl_heads = vl.integer("num_attention_heads", VL_CTOR_DEFAULTS["num_attention_heads"])
    out.vl_head_dim = vl.integer("attention_head_dim", VL_CTOR_DEFAULTS["attention_head_dim"])
    out.vl_norm_eps = vl.positive_number("norm_eps", NORM_EPS_DEFAULT)
    out.declare("vl_layers", vl, "num_layers", VL_CTOR_DEFAULTS["num_layers"])


def _read_head(head, defaults, out):
    """The fields N1.5's action_head_cfg and N1.6/N1.7's flat config share."""
    out.add_pos_embed = head.flag("add_pos_embed", defaults["add_pos_embed"])
    out.use_vlln = head.flag("use_vlln", defaults["use_vlln"])
    out.horizon = head.required_integer("action_horizon", defaults["action_horizon"])
    out.n_steps = head.required_integer("num_inference_timesteps", defaults["num_inference_timesteps"])
    out.buckets = head.integer("num_timestep_buckets", defaults["num_timestep_buckets"])
    out.declare("width", head, "input_embedding_dim", defaults["input_embedding_dim"])
    out.declare("hidden", head, "hidden_size", defaults["hidden_size"])
    if out.add_pos_embed:
        out.declare("pos_rows", head, "max_seq_len", defaults["max_seq_len"])
    out.declare("n_embodiments", head, "max_num_embodiments", defaults["max_num_embodiments"])


def _read_n15(config, file, out):
    if not isinstance(config.get("action_head_cfg"), dict):
        raise InputError(f"{file}: no 'action_head_cfg' object, where N1.5 keeps its action-head settings")
    head = _Section(config["action_head_cfg"], "action_head_cfg", file)
    defaults = HEAD_DEFAULTS["n15"]
    if not head.has("diffusion_model_cfg"):
        raise InputError(f"{file}: field 'action_head_cfg.diffusion_model_cfg' is missing (the released head needs it)")
    dit = head.child("diffusion_model_cfg")
    _read_dit(dit, DIT_CTOR_DEFAULTS, out)
    _read_head(head, defaults, out)
    out.declare("action_dim", head, "action_dim", defaults["action_dim"])
    out.declare("state_dim", head, "max_state_dim", defaults["max_state_dim"])
    out.declare("n_future", head, "num_target_vision_tokens", defaults["num_target_vision_tokens"])
    # the cross blocks take cross_attention_dim-wide context; absent, the DiT's own width
    out.declare("ctx_dim", dit, "cross_attention_dim", out.heads * out.head_dim)
    # N1.5's use_vlln gates both the VL LayerNorm and the VL self-attention stack
    if out.use_vlln:
        out.declare("vlln_width", head, "backbone_embedding_dim", defaults["backbone_embedding_dim"])
        if not head.has("vl_self_attention_cfg"):
            raise InputError(f"{file}: field 'action_head_cfg.vl_self_attention_cfg' is missing (with use_vlln the "
                             "released head builds its VL self-attention from it)")
        _read_vl_stack(head.child("vl_self_attention_cfg"), VL_CTOR_DEFAULTS["positional_embeddings"], out)
    else:
        out.declare_none("vl_layers", head.where("use_vlln"), "false (no VL self-attention)")


def _read_n16_n17(config, version, file, out):
    legacy = config.get("action_head_cfg") is not None
    head = _Section(config["action_head_cfg"], "action_head_cfg", file) if legacy else _Section(config, "", file)
    defaults = HEAD_DEFAULTS[version]
    if not head.has("diffusion_model_cfg"):
        _read_dit(_Section(None, head.where("diffusion_model_cfg"), file), DIT_CLASS_DEFAULTS[version], out)
    elif legacy:
        # earlier ditmk wrote every DiT size and no position code, and a cross_attention_dim
        dit = head.child("diffusion_model_cfg")
        _read_dit(dit, DIT_CLASS_DEFAULTS[version], out)
        out.declare("ctx_dim", dit, "cross_attention_dim", None)
    else:
        dit = head.child("diffusion_model_cfg")
        if "cross_attention_dim" in dit.node:
            dit.refuse("cross_attention_dim", dit.node["cross_attention_dim"], "the released head passes "
                       "backbone_embedding_dim as the DiT's context width and fails on a repeat; remove the field")
        _read_dit(dit, DIT_CTOR_DEFAULTS, out)
    _read_head(head, defaults, out)
    out.alternate = head.flag("use_alternate_vl_dit", True)
    out.text_every = head.integer("attend_text_every_n_blocks", 2)
    if out.alternate and not out.interleave:
        raise InputError(f"{file}: field '{head.where('use_alternate_vl_dit')}' = true needs "
                         f"'{head.where('diffusion_model_cfg')}.interleave_self_attention' = true "
                         "(the released AlternateVLDiT requires it)")
    out.declare("ctx_dim", head, "backbone_embedding_dim", defaults["backbone_embedding_dim"])
    out.declare("action_dim", head, "max_action_dim", defaults["max_action_dim"])
    out.declare("state_dim", head, "max_state_dim", defaults["max_state_dim"])
    out.declare_none("n_future", "model_type", f"{json.dumps(config.get('model_type'))} (no future tokens)")
    if version == "n16":
        return
    out.state_history = head.integer("state_history_length", 1)
    if head.flag("strict_action_padding_mask", False):
        head.refuse("strict_action_padding_mask", True,
                    "supported: false, the released default (true needs an action_mask input)")
    # N1.7 builds its VL stack when vl_self_attention_cfg has num_layers > 0, independent of use_vlln
    vl = head.child("vl_self_attention_cfg")
    if vl.integer("num_layers", 0, minimum=0) > 0:
        _read_vl_stack(vl, None if legacy else VL_CTOR_DEFAULTS["positional_embeddings"], out)
    elif vl.has("num_layers"):
        out.declare_none("vl_layers", vl.where("num_layers"), "0 (no VL self-attention)")
    else:
        written = json.dumps(head.node.get("vl_self_attention_cfg")) if head.has("vl_self_attention_cfg") else (
            "null" if "vl_self_attention_cfg" in head.node else "absent")
        out.declare_none("vl_layers", vl.path, f"{written} (no VL self-attention)")


def _named_version(config):
    """The version config.json's model_type names (gr00t_n1_5, Gr00tN1d6, Gr00tN1d7 and spellings of
    them), or None."""
    model_type = config.get("model_type")
    if not isinstance(model_type, str):
        return None
    match = re.search(r"n1d?([567])", re.sub(r"[^a-z0-9]", "", model_type.lower()))
    return f"n1{match.group(1)}" if match else None


def _version(config, n_future, vl_layers, file):
    """model_type's version where it names one, else the tensors': future tokens mean N1.5, a VL stack
    without them N1.7, neither N1.6. N1.7 without a VL stack is told apart by model_type only."""
    named = _named_version(config)
    if named is None:
        return "n15" if n_future else ("n17" if vl_layers else "n16")
    model_type = json.dumps(config["model_type"])
    if named == "n15" and not n_future:
        raise InputError(f"{file}: field 'model_type' = {model_type} names N1.5, but the tensors have no "
                         f"'{PREFIX}future_tokens.weight'")
    if named != "n15" and n_future:
        raise InputError(f"{file}: field 'model_type' = {model_type}, but the tensors have N1.5's "
                         f"'{PREFIX}future_tokens.weight'")
    if named == "n16" and vl_layers:
        raise InputError(f"{file}: field 'model_type' = {model_type} names N1.6, which has no VL "
                         f"self-attention, but the tensors have {vl_layers} layers of it")
    return named


def _read_config(config, version, file):
    out = _Settings(declared=[])
    if version == "n15":
        _read_n15(config, file, out)
    else:
        _read_n16_n17(config, version, file, out)
    return out


# ---------------------------------------------------------------------------------------------
# release structure


@dataclass(frozen=True)
class Structure:
    """What a release is, from its tensor shapes and config.json (MODEL.md sections 1 and 6)."""

    version: str            # "n15", "n16" or "n17"
    width: int              # D
    heads: int
    head_dim: int
    ff_dim: int
    ff_norm_eps: float      # the DiT's LayerNorm before the feed-forward (diffusion_model_cfg.norm_eps)
    temb_channels: int
    ctx_dim: int            # VL feature width
    out_dim: int            # DiT output width
    hidden: int             # state encoder / action decoder hidden width
    use_vlln: bool          # LayerNorm on the VL features (else identity)
    vl_layers: int
    vl_heads: int
    vl_head_dim: int
    vl_ff_dim: int
    vl_norm_eps: float      # the VL stack's LayerNorms (vl_self_attention_cfg.norm_eps)
    n_future: int
    n_blocks: int
    block_keys: tuple       # per DiT block: "self", "all", "text" or "image"
    action_dim: int         # A
    state_dim: int          # S, one state frame
    state_history: int      # L frames, concatenated into the one state token
    horizon: int            # H
    n_embodiments: int
    add_pos_embed: bool     # position_embedding rows added to the action tokens
    pos_rows: int           # 0 without add_pos_embed
    n_steps: int            # Euler steps N (num_inference_timesteps)
    timestep_buckets: int

    @property
    def state_input(self):
        """The state encoder's input width: L frames of S."""
        return self.state_history * self.state_dim

    @property
    def dt(self):
        return 1.0 / self.n_steps

    def step_timesteps(self):
        """The integer bucket of each Euler step: int(i / N * buckets), as the released Python computes it."""
        return [int(i / self.n_steps * self.timestep_buckets) for i in range(self.n_steps)]


def _count_indexed(shapes, stem, leaf, where):
    """How many consecutive indices i have `stem.{i}.leaf`; a tensor of a later index means a gap,
    which would otherwise silently shorten the stack."""
    n = 0
    while f"{stem}.{n}.{leaf}" in shapes:
        n += 1
    pattern = re.compile(re.escape(stem) + r"\.(\d+)\.")
    for name in shapes:
        match = pattern.match(name)
        if match and int(match.group(1)) >= n:
            raise InputError(f"{where}: tensor '{PREFIX}{name}' present but '{PREFIX}{stem}.{n}.{leaf}' missing")
    return n


def _block_keys(version, n_blocks, settings):
    """Block i self-attends iff interleave_self_attention and i is odd. The other blocks cross-attend:
    to every VL token in N1.5 and the plain DiT; in N1.6/N1.7's AlternateVLDiT to the text keys when
    i % (2 n) == 0 (n = attend_text_every_n_blocks), else to the image keys."""
    keys = []
    for i in range(n_blocks):
        if settings.interleave and i % 2 == 1:
            keys.append("self")
        elif version == "n15" or not settings.alternate:
            keys.append("all")
        else:
            keys.append("text" if i % (2 * settings.text_every) == 0 else "image")
    return tuple(keys)


def _require_shape(shapes, where, name, ndim):
    if name not in shapes:
        raise InputError(f"{where}: missing tensor '{PREFIX}{name}'")
    if len(shapes[name]) != ndim:
        raise InputError(f"{where}: tensor '{PREFIX}{name}' has shape {list(shapes[name])}, expected {ndim}-D")
    return shapes[name]


# What each quantity a config.json size declares is, in the tensors.
_QUANTITIES = {
    "n_blocks": "DiT blocks", "width": "as the DiT width", "out_dim": "as the DiT output width",
    "ctx_dim": "as the VL feature (cross-attention context) width", "vlln_width": "as the vlln width",
    "hidden": "as the state encoder's hidden width", "action_dim": "as the action dimension",
    "state_dim": "as the state dimension (state encoder inputs / state history)", "n_future": "future tokens",
    "pos_rows": "position embedding rows", "n_embodiments": "embodiment slots",
    "vl_layers": "VL self-attention layers",
}


def _derive_structure(shapes, config, where):
    file = where / "config.json"
    dit = "model.transformer_blocks"
    vl = "vl_self_attention.transformer_blocks"
    n_blocks = _count_indexed(shapes, dit, "norm1.linear.weight", where)
    if n_blocks == 0:
        raise InputError(f"{where}: missing tensor '{PREFIX}{dit}.0.norm1.linear.weight'")
    vl_layers = _count_indexed(shapes, vl, "norm1.weight", where)
    n_future = _require_shape(shapes, where, "future_tokens.weight", 2)[0] if "future_tokens.weight" in shapes else 0
    version = _version(config, n_future, vl_layers, file)
    cfg = _read_config(config, version, file)

    state_w = _require_shape(shapes, where, "state_encoder.layer1.W", 3)
    if state_w[1] % cfg.state_history:
        raise InputError(f"{file}: field 'state_history_length' = {cfg.state_history} does not divide the "
                         f"state encoder's {state_w[1]} inputs")
    actual = {
        "n_blocks": n_blocks,
        "width": _require_shape(shapes, where, "model.timestep_encoder.timestep_embedder.linear_2.weight", 2)[0],
        "out_dim": _require_shape(shapes, where, "model.proj_out_2.weight", 2)[0],
        # block 0 cross-attends in every schedule: its to_k takes the VL features
        "ctx_dim": _require_shape(shapes, where, f"{dit}.0.attn1.to_k.weight", 2)[1],
        "vlln_width": _require_shape(shapes, where, "vlln.weight", 1)[0] if cfg.use_vlln else 0,
        "hidden": state_w[2],
        "action_dim": _require_shape(shapes, where, "action_encoder.W1.W", 3)[1],
        "state_dim": state_w[1] // cfg.state_history,
        "n_future": n_future,
        "pos_rows": _require_shape(shapes, where, "position_embedding.weight", 2)[0] if cfg.add_pos_embed else 0,
        "n_embodiments": state_w[0],
        "vl_layers": vl_layers,
    }
    for quantity, field, shown, value in cfg.declared:
        if actual[quantity] != value:
            raise InputError(f"{file}: field '{field}' = {shown}, but the tensors have {actual[quantity]} "
                             f"{_QUANTITIES[quantity]}")
    width, ctx_dim = actual["width"], actual["ctx_dim"]
    if cfg.heads * cfg.head_dim != width:
        raise InputError(f"{file}: diffusion_model_cfg num_attention_heads {cfg.heads} x attention_head_dim "
                         f"{cfg.head_dim} != the DiT width {width} of the tensors")
    vl_ff_dim = 0
    if vl_layers:
        if cfg.vl_heads * cfg.vl_head_dim != ctx_dim:
            raise InputError(f"{file}: vl_self_attention_cfg num_attention_heads {cfg.vl_heads} x "
                             f"attention_head_dim {cfg.vl_head_dim} != the VL feature width {ctx_dim}")
        vl_ff_dim = _require_shape(shapes, where, f"{vl}.0.ff.net.0.proj.weight", 2)[0]
    if cfg.add_pos_embed and cfg.horizon > actual["pos_rows"]:
        raise InputError(f"{file}: action_horizon {cfg.horizon} exceeds the {actual['pos_rows']}-row position "
                         "embedding")
    structure = Structure(
        version=version, width=width, heads=cfg.heads, head_dim=cfg.head_dim,
        ff_dim=_require_shape(shapes, where, f"{dit}.0.ff.net.0.proj.weight", 2)[0],
        ff_norm_eps=cfg.ff_norm_eps,
        temb_channels=_require_shape(shapes, where, "model.timestep_encoder.timestep_embedder.linear_1.weight", 2)[-1],
        ctx_dim=ctx_dim, out_dim=actual["out_dim"], hidden=actual["hidden"], use_vlln=cfg.use_vlln,
        vl_layers=vl_layers, vl_heads=cfg.vl_heads if vl_layers else 0,
        vl_head_dim=cfg.vl_head_dim if vl_layers else 0, vl_ff_dim=vl_ff_dim, vl_norm_eps=cfg.vl_norm_eps,
        n_future=n_future, n_blocks=n_blocks, block_keys=_block_keys(version, n_blocks, cfg),
        action_dim=actual["action_dim"], state_dim=actual["state_dim"], state_history=cfg.state_history,
        horizon=cfg.horizon, n_embodiments=actual["n_embodiments"], add_pos_embed=cfg.add_pos_embed,
        pos_rows=actual["pos_rows"], n_steps=cfg.n_steps, timestep_buckets=cfg.buckets,
    )
    if structure.temb_channels % 2 or structure.temb_channels < 4:
        raise InputError(f"{where}: timestep sinusoid width {structure.temb_channels} is not an even number >= 4")
    return structure


def expected_shapes(s):
    """Every tensor the action head reads, with the shape `s` implies (MODEL.md section 6)."""
    D, E = s.width, s.n_embodiments
    shapes = {
        "model.timestep_encoder.timestep_embedder.linear_1.weight": (D, s.temb_channels),
        "model.timestep_encoder.timestep_embedder.linear_1.bias": (D,),
        "model.timestep_encoder.timestep_embedder.linear_2.weight": (D, D),
        "model.timestep_encoder.timestep_embedder.linear_2.bias": (D,),
        "model.proj_out_1.weight": (2 * D, D), "model.proj_out_1.bias": (2 * D,),
        "model.proj_out_2.weight": (s.out_dim, D), "model.proj_out_2.bias": (s.out_dim,),
        "state_encoder.layer1.W": (E, s.state_input, s.hidden), "state_encoder.layer1.b": (E, s.hidden),
        "state_encoder.layer2.W": (E, s.hidden, D), "state_encoder.layer2.b": (E, D),
        "action_encoder.W1.W": (E, s.action_dim, D), "action_encoder.W1.b": (E, D),
        "action_encoder.W2.W": (E, 2 * D, D), "action_encoder.W2.b": (E, D),
        "action_encoder.W3.W": (E, D, D), "action_encoder.W3.b": (E, D),
        "action_decoder.layer1.W": (E, s.out_dim, s.hidden), "action_decoder.layer1.b": (E, s.hidden),
        "action_decoder.layer2.W": (E, s.hidden, s.action_dim), "action_decoder.layer2.b": (E, s.action_dim),
    }
    if s.add_pos_embed:
        shapes["position_embedding.weight"] = (s.pos_rows, D)
    if s.use_vlln:
        shapes["vlln.weight"] = (s.ctx_dim,)
        shapes["vlln.bias"] = (s.ctx_dim,)
    if s.n_future:
        shapes["future_tokens.weight"] = (s.n_future, D)
    for i, keys in enumerate(s.block_keys):
        kv_in = D if keys == "self" else s.ctx_dim
        p = f"model.transformer_blocks.{i}"
        shapes.update(_linear(f"{p}.norm1.linear", D, 2 * D))
        shapes.update(_linear(f"{p}.attn1.to_q", D, D))
        shapes.update(_linear(f"{p}.attn1.to_k", kv_in, D))
        shapes.update(_linear(f"{p}.attn1.to_v", kv_in, D))
        shapes.update(_linear(f"{p}.attn1.to_out.0", D, D))
        shapes.update(_linear(f"{p}.ff.net.0.proj", D, s.ff_dim))
        shapes.update(_linear(f"{p}.ff.net.2", s.ff_dim, D))
    C = s.ctx_dim
    for k in range(s.vl_layers):
        p = f"vl_self_attention.transformer_blocks.{k}"
        for norm in ("norm1", "norm3"):
            shapes[f"{p}.{norm}.weight"] = (C,)
            shapes[f"{p}.{norm}.bias"] = (C,)
        for proj in ("to_q", "to_k", "to_v", "to_out.0"):
            shapes.update(_linear(f"{p}.attn1.{proj}", C, C))
        shapes.update(_linear(f"{p}.ff.net.0.proj", C, s.vl_ff_dim))
        shapes.update(_linear(f"{p}.ff.net.2", s.vl_ff_dim, C))
    return shapes


def _linear(name, n_in, n_out):
    return {f"{name}.weight": (n_out, n_in), f"{name}.bias": (n_out,)}


_KV_PROJECTION = re.compile(r"model\.transformer_blocks\.(\d+)\.attn1\.to_[kv]\.weight")


def _check_shapes(shapes, structure, where):
    """Every expected tensor present with its shape. A block's kind (self or cross) comes from the
    schedule config.json gives; when the VL width differs from the DiT width, to_k/to_v confirm it."""
    for name, want in expected_shapes(structure).items():
        have = shapes.get(name)
        if have is None:
            raise InputError(f"{where}: missing tensor '{PREFIX}{name}'")
        if have != want:
            block = _KV_PROJECTION.fullmatch(name)
            kind = "" if block is None else (
                f" (block {block.group(1)} is a "
                f"{'self' if structure.block_keys[int(block.group(1))] == 'self' else 'cross'}-attention block "
                "under diffusion_model_cfg.interleave_self_attention)")
            raise InputError(f"{where}: tensor '{PREFIX}{name}' has shape {list(have)}, expected {list(want)}{kind}")


def _check_embodiment_ids(path, n_slots):
    """embodiment_id.json maps embodiment tags to slots of the category-specific tensors."""
    for tag, slot in _read_json(path).items():
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < n_slots:
            raise InputError(f"{path}: '{tag}' -> {slot!r} is not a slot in 0..{n_slots - 1}")


class Release:
    """A checked release directory; weights are read on demand, sliced to one embodiment."""

    def __init__(self, release_dir):
        self.dir = Path(release_dir)
        if not self.dir.is_dir():
            raise InputError(f"{self.dir}: not a release directory")
        config = _read_json(self.dir / "config.json")
        located = _open_tensors(self.dir)
        self._files = {n[len(PREFIX):]: f for n, f in located.items() if n.startswith(PREFIX)}
        shapes = {name: f.shape(PREFIX + name) for name, f in self._files.items()}
        self.structure = _derive_structure(shapes, config, self.dir)
        _check_shapes(shapes, self.structure, self.dir)
        _check_embodiment_ids(self.dir / "embodiment_id.json", self.structure.n_embodiments)

    def check_embodiment(self, embodiment):
        n = self.structure.n_embodiments
        if not 0 <= embodiment < n:
            raise InputError(f"embodiment id {embodiment} outside the release's {n} slots")

    def weights(self, dtype, embodiment):
        """name (without the action_head. prefix) -> torch tensor of `dtype`; category-specific
        tensors are the one slot of `embodiment`."""
        self.check_embodiment(embodiment)
        out = {}
        for name in expected_shapes(self.structure):
            index = embodiment if name in CATEGORY_TENSORS else None
            array = self._files[name].read(PREFIX + name, index)
            out[name] = torch.from_numpy(np.ascontiguousarray(array)).to(dtype)
            if not torch.isfinite(out[name]).all():
                raise InputError(f"{self.dir}: tensor '{PREFIX}{name}' holds NaN or infinity")
        return out


# ---------------------------------------------------------------------------------------------
# observation and noise


@dataclass
class Observation:
    features: np.ndarray          # [S, ctx] float32
    attention_mask: np.ndarray    # [S] bool, True = real token
    image_mask: np.ndarray        # [S] bool, True = image token
    state: np.ndarray             # [L * S] float32: L state frames of S, in time order


_OBSERVATION_ARRAYS = ("features", "attention_mask", "image_mask", "state")


def _finite_float32(array, where):
    if array.dtype != np.float32:
        raise InputError(f"{where}: dtype {array.dtype}, expected float32")
    if not np.isfinite(array).all():
        raise InputError(f"{where}: holds NaN or infinity")
    return array


def _token_mask(arrays, name, n_tokens, where, default):
    if name not in arrays:
        return np.full(n_tokens, default)
    mask = arrays[name]
    if mask.shape != (n_tokens,):
        raise InputError(f"{where}: shape {list(mask.shape)}, expected [{n_tokens}]")
    if mask.dtype != np.bool_ and not np.issubdtype(mask.dtype, np.integer):
        raise InputError(f"{where}: dtype {mask.dtype}, expected bool or integer")
    if not np.isin(mask, (0, 1)).all():
        raise InputError(f"{where}: values other than 0 and 1")
    return mask.astype(bool)


def load_observation(path, s):
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
    except (OSError, ValueError, EOFError) as e:
        raise InputError(f"{path}: not a readable .npz ({e})") from None
    unknown = sorted(set(arrays) - set(_OBSERVATION_ARRAYS))
    if unknown:
        raise InputError(f"{path}: unknown array '{unknown[0]}' (expected {', '.join(_OBSERVATION_ARRAYS)})")
    if "features" not in arrays:
        raise InputError(f"{path}: missing array 'features'")
    features = _finite_float32(arrays["features"], f"{path}: features")
    if features.ndim != 2 or features.shape[0] == 0 or features.shape[1] != s.ctx_dim:
        raise InputError(f"{path}: features shape {list(features.shape)}, expected [S>0, {s.ctx_dim}]")
    n_tokens = features.shape[0]
    state = np.zeros(s.state_input, np.float32)
    if "state" in arrays:
        state = _finite_float32(arrays["state"], f"{path}: state")
        frames, width = s.state_history, s.state_dim
        accepted = [(frames, width), (1, frames, width)] + ([(width,)] if frames == 1 else [])
        if state.shape not in accepted:
            raise InputError(f"{path}: state shape {list(state.shape)}, expected "
                             f"{' or '.join(str(list(shape)) for shape in accepted)} (state history x state dimension)")
        state = state.reshape(s.state_input)
    return Observation(
        features=features,
        attention_mask=_token_mask(arrays, "attention_mask", n_tokens, f"{path}: attention_mask", True),
        image_mask=_token_mask(arrays, "image_mask", n_tokens, f"{path}: image_mask", False),
        state=state,
    )


def load_noise(path, s):
    try:
        noise = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as e:
        raise InputError(f"{path}: not a readable .npy ({e})") from None
    if not isinstance(noise, np.ndarray):
        raise InputError(f"{path}: an .npz archive, expected one .npy array")
    noise = _finite_float32(noise, f"{path}")
    if noise.shape != (s.horizon, s.action_dim):
        raise InputError(f"{path}: noise shape {list(noise.shape)}, expected [{s.horizon}, {s.action_dim}]")
    return noise


def cross_key_masks(s, obs, mask_padding):
    """Per DiT block: None where every key is attended, else the torch bool [S] mask of the keys it
    may attend to. Self-attention and, as released, the `all` blocks (N1.5's cross blocks and the plain
    DiT) attend to every token; with the mask_padding opt-in `all` means the attention_mask tokens.
    N1.6/N1.7's `text` keys are the real non-image tokens, `image` the real image tokens."""
    key_sets = {
        "self": None,
        "all": obs.attention_mask if mask_padding else None,
        "text": obs.attention_mask & ~obs.image_mask,
        "image": obs.attention_mask & obs.image_mask,
    }
    masks = []
    for i, keys in enumerate(s.block_keys):
        mask = key_sets[keys]
        if mask is not None and not mask.any():
            raise InputError(f"observation: DiT block {i} attends to the '{keys}' key set, which is empty")
        masks.append(None if mask is None else torch.from_numpy(mask))
    return masks


def vl_key_mask(obs, mask_padding):
    """The keys of the VL self-attention stack: every token as released (None), or with the
    mask_padding opt-in the attention_mask tokens as a torch bool mask (block 0 attends to a subset of
    them, so cross_key_masks has made sure there is one)."""
    return torch.from_numpy(obs.attention_mask) if mask_padding else None


# ---------------------------------------------------------------------------------------------
# the two sinusoid encodings, in float32 as the official runtime computes them (MODEL.md's check
# values are float32 results: float64 arithmetic misses several of them in the 5th decimal)


def _exp_f32(x, exact):
    """exp of a float32 tensor as float32: PyTorch's vectorised exp, or (exact) correctly rounded."""
    return torch.exp(x.to(torch.float64)).to(torch.float32) if exact else torch.exp(x)


def timestep_sinusoid(t, channels, exact=False):
    """DiT timestep embedding input: [cos(t f), sin(t f)], f_j = exp(-ln(1e4) j / (channels/2 - 1)).
    The angles are float32 as the runtime builds them; exact=True rounds exp correctly and evaluates
    cos/sin of the angles in float64 instead of with PyTorch's float32 routines (off by up to ~6e-5 at
    ~730 rad)."""
    half = channels // 2
    freqs = _exp_f32(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / (half - 1), exact)
    angles = torch.tensor(float(t), dtype=torch.float32) * freqs
    if exact:
        angles = angles.to(torch.float64)
    return torch.cat([torch.cos(angles), torch.sin(angles)])


def action_tau(t, width, exact=False):
    """Action encoder time code: [sin(t g), cos(t g)], g_j = exp(-j ln(1e4) / (width/2)); float32
    angles, and exact as in timestep_sinusoid."""
    half = width // 2
    freqs = _exp_f32(-torch.arange(half, dtype=torch.float32) * (math.log(10000.0) / half), exact)
    angles = torch.tensor(float(t), dtype=torch.float32) * freqs
    if exact:
        angles = angles.to(torch.float64)
    return torch.cat([torch.sin(angles), torch.cos(angles)])


# ---------------------------------------------------------------------------------------------
# command line


class _OneLineParser(argparse.ArgumentParser):
    """Bad arguments exit 1 with one line, like every other input error."""

    def error(self, message):
        raise InputError(message)


def argument_parser(prog, description):
    parser = _OneLineParser(prog=prog, description=description)
    parser.add_argument("--checkpoint", type=Path, help="release directory")
    parser.add_argument("--observation", type=Path, help=".npz with features [, attention_mask, image_mask, state]")
    parser.add_argument("--noise", type=Path, help=".npy [H, A] float32: x at step 0")
    parser.add_argument("--embodiment", type=int, help="embodiment slot id")
    parser.add_argument("--mask-padding", action="store_true",
                        help="never attend tokens whose attention_mask is 0 (a deviation from the releases, which "
                             "attend them in N1.5's cross blocks, the plain DiT and the VL self-attention)")
    return parser


def require_inputs(args, parser):
    missing = [f"--{name}" for name in ("checkpoint", "observation", "noise", "embodiment")
               if getattr(args, name) is None]
    if missing:
        parser.error(f"missing {', '.join(missing)}")


def run_main(prog, main):
    """Runs main(); an InputError becomes one line on stderr and exit status 1."""
    try:
        sys.exit(main())
    except InputError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        sys.exit(1)
