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
N_STEPS = 4
DEFAULT_TIMESTEP_BUCKETS = 1000

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
# release structure


@dataclass(frozen=True)
class Structure:
    """What a release is, from its tensor shapes and config.json (MODEL.md sections 1 and 6)."""

    version: str            # "n15", "n16" or "n17"
    width: int              # D
    heads: int
    head_dim: int
    ff_dim: int
    temb_channels: int
    ctx_dim: int            # VL feature width
    out_dim: int            # DiT output width
    hidden: int             # state encoder / action decoder hidden width
    vl_layers: int
    vl_heads: int
    vl_head_dim: int
    vl_ff_dim: int
    n_future: int
    n_blocks: int
    block_keys: tuple       # per DiT block: "self", "all", "text" or "image"
    action_dim: int         # A
    state_dim: int
    horizon: int            # H
    n_embodiments: int
    pos_rows: int
    timestep_buckets: int

    def step_timesteps(self):
        """The integer bucket of each Euler step: int(i / 4 * buckets)."""
        return [int(i / N_STEPS * self.timestep_buckets) for i in range(N_STEPS)]


def _positive_int(value, field):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise InputError(f"config.json: {field} = {value!r} is not a positive integer")
    return value


def _config_field(cfg, path):
    node = cfg
    for key in path:
        if not isinstance(node, dict) or key not in node:
            raise InputError(f"config.json: missing {'.'.join(('action_head_cfg',) + path)}")
        node = node[key]
    return _positive_int(node, ".".join(("action_head_cfg",) + path))


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


def _block_keys(version, n_blocks):
    """Released schedule: odd blocks self-attend; even blocks cross-attend to a version's key set."""
    if version == "n15":
        return tuple("all" if i % 2 == 0 else "self" for i in range(n_blocks))
    return tuple({0: "text", 2: "image"}.get(i % 4, "self") for i in range(n_blocks))


def _require_shape(shapes, where, name, ndim):
    if name not in shapes:
        raise InputError(f"{where}: missing tensor '{PREFIX}{name}'")
    if len(shapes[name]) != ndim:
        raise InputError(f"{where}: tensor '{PREFIX}{name}' has shape {list(shapes[name])}, expected {ndim}-D")
    return shapes[name]


def _derive_structure(shapes, config, where):
    cfg = config.get("action_head_cfg")
    if not isinstance(cfg, dict):
        raise InputError("config.json: missing action_head_cfg")
    dit = "model.transformer_blocks"
    vl = "vl_self_attention.transformer_blocks"
    n_blocks = _count_indexed(shapes, dit, "norm1.linear.weight", where)
    if n_blocks == 0:
        raise InputError(f"{where}: missing tensor '{PREFIX}{dit}.0.norm1.linear.weight'")
    vl_layers = _count_indexed(shapes, vl, "norm1.weight", where)
    n_future = _require_shape(shapes, where, "future_tokens.weight", 2)[0] if "future_tokens.weight" in shapes else 0
    version = "n15" if n_future else ("n17" if vl_layers else "n16")
    width = _require_shape(shapes, where, "model.timestep_encoder.timestep_embedder.linear_2.weight", 2)[0]
    heads = _config_field(cfg, ("diffusion_model_cfg", "num_attention_heads"))
    head_dim = _config_field(cfg, ("diffusion_model_cfg", "attention_head_dim"))
    if heads * head_dim != width:
        raise InputError(f"config.json: diffusion_model_cfg heads {heads} x {head_dim} != DiT width {width}")
    ctx_dim = _require_shape(shapes, where, "vlln.weight", 1)[0]
    vl_heads = vl_head_dim = vl_ff_dim = 0
    if vl_layers:
        vl_heads = _config_field(cfg, ("vl_self_attention_cfg", "num_attention_heads"))
        vl_head_dim = _config_field(cfg, ("vl_self_attention_cfg", "attention_head_dim"))
        if vl_heads * vl_head_dim != ctx_dim:
            raise InputError(f"config.json: vl_self_attention_cfg heads {vl_heads} x {vl_head_dim} "
                             f"!= VL width {ctx_dim}")
        vl_ff_dim = _require_shape(shapes, where, f"{vl}.0.ff.net.0.proj.weight", 2)[0]
    buckets = cfg.get("num_timestep_buckets", DEFAULT_TIMESTEP_BUCKETS)
    state_w = _require_shape(shapes, where, "state_encoder.layer1.W", 3)
    structure = Structure(
        version=version, width=width, heads=heads, head_dim=head_dim,
        ff_dim=_require_shape(shapes, where, f"{dit}.0.ff.net.0.proj.weight", 2)[0],
        temb_channels=_require_shape(shapes, where, "model.timestep_encoder.timestep_embedder.linear_1.weight", 2)[-1],
        ctx_dim=ctx_dim,
        out_dim=_require_shape(shapes, where, "model.proj_out_2.weight", 2)[0],
        hidden=state_w[2], vl_layers=vl_layers, vl_heads=vl_heads, vl_head_dim=vl_head_dim,
        vl_ff_dim=vl_ff_dim, n_future=n_future, n_blocks=n_blocks,
        block_keys=_block_keys(version, n_blocks),
        action_dim=_require_shape(shapes, where, "action_encoder.W1.W", 3)[1],
        state_dim=state_w[1],
        horizon=_config_field(cfg, ("action_horizon",)),
        n_embodiments=state_w[0],
        pos_rows=_require_shape(shapes, where, "position_embedding.weight", 2)[0],
        timestep_buckets=_positive_int(buckets, "action_head_cfg.num_timestep_buckets"),
    )
    if structure.horizon > structure.pos_rows:
        raise InputError(f"config.json: action_horizon {structure.horizon} exceeds the "
                         f"{structure.pos_rows}-row position embedding")
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
        "state_encoder.layer1.W": (E, s.state_dim, s.hidden), "state_encoder.layer1.b": (E, s.hidden),
        "state_encoder.layer2.W": (E, s.hidden, D), "state_encoder.layer2.b": (E, D),
        "action_encoder.W1.W": (E, s.action_dim, D), "action_encoder.W1.b": (E, D),
        "action_encoder.W2.W": (E, 2 * D, D), "action_encoder.W2.b": (E, D),
        "action_encoder.W3.W": (E, D, D), "action_encoder.W3.b": (E, D),
        "action_decoder.layer1.W": (E, s.out_dim, s.hidden), "action_decoder.layer1.b": (E, s.hidden),
        "action_decoder.layer2.W": (E, s.hidden, s.action_dim), "action_decoder.layer2.b": (E, s.action_dim),
        "position_embedding.weight": (s.pos_rows, D),
        "vlln.weight": (s.ctx_dim,), "vlln.bias": (s.ctx_dim,),
    }
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


def _check_shapes(shapes, structure, where):
    """Every expected tensor present with its shape. Cross/self kinds come from the released parity
    schedule; when the VL width differs from the DiT width the to_k shapes confirm it."""
    for name, want in expected_shapes(structure).items():
        have = shapes.get(name)
        if have is None:
            raise InputError(f"{where}: missing tensor '{PREFIX}{name}'")
        if have != want:
            raise InputError(f"{where}: tensor '{PREFIX}{name}' has shape {list(have)}, expected {list(want)}")


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
    state: np.ndarray             # [state_dim] float32


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
    state = np.zeros(s.state_dim, np.float32)
    if "state" in arrays:
        state = _finite_float32(arrays["state"], f"{path}: state")
        if state.shape not in ((s.state_dim,), (1, s.state_dim)):
            raise InputError(f"{path}: state shape {list(state.shape)}, expected [{s.state_dim}] or [1, {s.state_dim}]")
        state = state.reshape(s.state_dim)
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


def cross_key_masks(s, obs):
    """Per DiT block: None for self-attention, else the bool [S] mask of keys it may attend to.
    N1.5 `all`: attention_mask; N1.6/N1.7 `text`: real non-image tokens, `image`: real image tokens."""
    key_sets = {
        "all": obs.attention_mask,
        "text": obs.attention_mask & ~obs.image_mask,
        "image": obs.attention_mask & obs.image_mask,
    }
    masks = []
    for i, keys in enumerate(s.block_keys):
        if keys == "self":
            masks.append(None)
            continue
        if not key_sets[keys].any():
            raise InputError(f"observation: DiT block {i} attends to the '{keys}' key set, which is empty")
        masks.append(key_sets[keys])
    return masks


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
