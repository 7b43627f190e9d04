#!/usr/bin/env python3
"""Float64 reference of the GR00T N1.5/N1.6/N1.7 action head, written from MODEL.md and docs/model.md so that
it checks the C++ executors independently. Weights are upcast to float64 and every operation is spelled
out (LayerNorm, softmax, GELU) rather than taken from torch.nn.functional.

  groot_ref.py --checkpoint DIR --observation OBS.npz --noise N.npy --embodiment ID [--mask-padding]
               [--previous-actions P.npy --rtc-horizon H --rtc-overlap N --rtc-frozen N --rtc-ramp-rate R]
               --out OUT.npz
      writes `actions` [H, A] and `velocities` [N, H, A] (the decoder output of each of the N Euler
      steps), float64. The release's config.json decides what is computed, as the released code reads
      it (docs/model.md); --mask-padding is the opt-in that never attends attention_mask-0 tokens.
  groot_ref.py --self-test
      checks both sinusoid encodings against MODEL.md's values at t = 750; exit 0 when they match.

Prints nothing but errors; bad input exits 1 with one line.
"""
import math
import sys
from decimal import Decimal
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import groot_torch as gt  # noqa: E402

F64 = torch.float64
PROG = "groot_ref"


# --- building blocks ----------------------------------------------------------------------------


def linear(W, name, x):
    """nn.Linear: weight [out, in]."""
    return x @ W[f"{name}.weight"].T + W[f"{name}.bias"]


def category_linear(W, name, x):
    """CategorySpecificLinear of the chosen embodiment: W [in, out], no transpose."""
    return x @ W[f"{name}.W"] + W[f"{name}.b"]


def silu(x):
    return x * torch.sigmoid(x)


def relu(x):
    return torch.clamp(x, min=0.0)


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def layer_norm(x, eps):
    """Over the last axis, biased variance, no affine."""
    centred = x - x.mean(-1, keepdim=True)
    return centred / torch.sqrt((centred**2).mean(-1, keepdim=True) + eps)


def affine_layer_norm(W, name, x, eps=1e-5):
    return layer_norm(x, eps) * W[f"{name}.weight"] + W[f"{name}.bias"]


def softmax(scores):
    shifted = torch.exp(scores - scores.max(-1, keepdim=True).values)
    return shifted / shifted.sum(-1, keepdim=True)


def attention(W, name, x, context, heads, head_dim, key_mask):
    """Multi-head attention of the rows of x over the rows of context; key_mask (bool [keys]) drops
    keys by sending their scores to -inf."""

    def by_head(t):
        return t.reshape(t.shape[0], heads, head_dim).transpose(0, 1)

    q = by_head(linear(W, f"{name}.to_q", x))
    k = by_head(linear(W, f"{name}.to_k", context))
    v = by_head(linear(W, f"{name}.to_v", context))
    scores = q @ k.transpose(1, 2) / math.sqrt(head_dim)
    if key_mask is not None:
        scores = scores.masked_fill(~key_mask, -math.inf)
    heads_out = softmax(scores) @ v
    return linear(W, f"{name}.to_out.0", heads_out.transpose(0, 1).reshape(x.shape[0], heads * head_dim))


def feed_forward(W, name, x):
    return linear(W, f"{name}.net.2", gelu_tanh(linear(W, f"{name}.net.0.proj", x)))


# --- MODEL.md section 2: the DiT --------------------------------------------------------------


def timestep_embedding(W, s, t):
    """temb = linear_2(SiLU(linear_1(sinusoid(t))))."""
    p = "model.timestep_encoder.timestep_embedder"
    emb = gt.timestep_sinusoid(t, s.temb_channels, exact=True)
    return linear(W, f"{p}.linear_2", silu(linear(W, f"{p}.linear_1", emb)))


def dit_block(W, s, i, h, temb, vl, key_mask):
    """AdaLN (scale first, eps 1e-5) -> attention (self, or cross over vl) -> residual;
    LN (diffusion_model_cfg.norm_eps) -> FF -> residual."""
    p = f"model.transformer_blocks.{i}"
    scale, shift = linear(W, f"{p}.norm1.linear", silu(temb)).split(s.width)
    n = layer_norm(h, 1e-5) * (1 + scale) + shift
    context = n if s.block_keys[i] == "self" else vl
    h = h + attention(W, f"{p}.attn1", n, context, s.heads, s.head_dim, key_mask)
    return h + feed_forward(W, f"{p}.ff", layer_norm(h, s.ff_norm_eps))


def dit_output(W, s, h, temb):
    """Output AdaLN (shift first, eps 1e-6) and proj_out_2."""
    shift, scale = linear(W, "model.proj_out_1", silu(temb)).split(s.width)
    return linear(W, "model.proj_out_2", layer_norm(h, 1e-6) * (1 + scale) + shift)


# --- MODEL.md sections 3 and 4: encoders, decoder, VL preprocessing ---------------------------


def state_encoder(W, state):
    """state: [1, L * S], the L frames concatenated in time order: one token."""
    return category_linear(W, "state_encoder.layer2", relu(category_linear(W, "state_encoder.layer1", state)))


def action_encoder(W, s, x, t):
    """W1 on x, concat the step's tau code (sin first), swish(W2), W3, plus positions 0..H-1 when
    add_pos_embed."""
    a = category_linear(W, "action_encoder.W1", x)
    tau = gt.action_tau(t, s.width, exact=True).expand(x.shape[0], -1)
    h = silu(category_linear(W, "action_encoder.W2", torch.cat([a, tau], dim=1)))
    tokens = category_linear(W, "action_encoder.W3", h)
    return tokens + W["position_embedding.weight"][: s.horizon] if s.add_pos_embed else tokens


def action_decoder(W, y):
    return category_linear(W, "action_decoder.layer2", relu(category_linear(W, "action_decoder.layer1", y)))


def vl_preprocess(W, s, features, key_mask):
    """vlln (identity without use_vlln), then (N1.5/N1.7) the pre-LN self-attention stack over the VL
    tokens, its LayerNorms at vl_self_attention_cfg.norm_eps; unmasked as released (key_mask None)."""
    vl = affine_layer_norm(W, "vlln", features) if s.use_vlln else features
    for k in range(s.vl_layers):
        p = f"vl_self_attention.transformer_blocks.{k}"
        n = affine_layer_norm(W, f"{p}.norm1", vl, s.vl_norm_eps)
        vl = vl + attention(W, f"{p}.attn1", n, n, s.vl_heads, s.vl_head_dim, key_mask)
        vl = vl + feed_forward(W, f"{p}.ff", affine_layer_norm(W, f"{p}.norm3", vl, s.vl_norm_eps))
    return vl


# --- MODEL.md section 5: the denoise loop -----------------------------------------------------


RTC_OPTIONS = ("action_horizon", "rtc_overlap_steps", "rtc_frozen_steps", "rtc_ramp_rate")


def euler_start(s, noise, rtc):
    """The initial actions [H, A] and the per-row velocity strength [H, 1]. Without real-time
    chunking (rtc None): the noise, and ones. With it (N1.7's released get_action_with_features; rtc
    holds `action`, the previous chunk [H_prev, A], and the release's four options), the release's
    own statements on a batch of one: its slices (Python's rules, PyTorch's broadcast of one row) and
    its ramp in float32 (torch's default dtype), 1 - exp(-rate t) over linspace(0, 1, overlap -
    frozen + 2), normalised by its last value clamped at 1e-8, the middle kept. Raises where the
    release raises."""
    x = torch.from_numpy(noise).to(F64)[None]
    strength = torch.ones_like(x)
    if rtc is None:
        return x[0], strength[0, :, :1]
    horizon, overlap, frozen, rate = (rtc[name] for name in RTC_OPTIONS)
    x[:, :overlap, :] = torch.as_tensor(rtc["action"]).to(F64)[None][:, horizon - overlap:horizon, :]
    strength[:, :frozen, :] = 0.0
    t = torch.linspace(0.0, 1.0, overlap - frozen + 2)
    ramp = 1 - torch.exp(-rate * t)
    ramp = ramp / ramp[-1].clamp_min(1e-8)
    strength[:, frozen:overlap, :] = ramp[1:-1][None, :, None].to(F64)
    return x[0], strength[0, :, :1]


def denoise(W, s, obs, key_masks, vl_mask, noise, rtc=None):
    """Returns the final actions [H, A] and each step's velocity [N, H, A]: N Euler steps of
    dt = 1 / N at the buckets int(i / N * buckets), each row moved by dt * v * its strength
    (euler_start)."""
    vl = vl_preprocess(W, s, torch.from_numpy(obs.features).to(F64), vl_mask)
    state_token = state_encoder(W, torch.from_numpy(obs.state).to(F64)[None])
    future_tokens = W["future_tokens.weight"] if s.n_future else torch.zeros(0, s.width, dtype=F64)
    x, strength = euler_start(s, noise, rtc)
    velocities = []
    for t in s.step_timesteps():
        temb = timestep_embedding(W, s, t)
        h = torch.cat([state_token, future_tokens, action_encoder(W, s, x, t)])
        for i in range(s.n_blocks):
            h = dit_block(W, s, i, h, temb, vl, key_masks[i])
        v = action_decoder(W, dit_output(W, s, h, temb))[-s.horizon :]
        velocities.append(v)
        x = x + s.dt * v * strength
    return x, torch.stack(velocities)


# --- self-test: MODEL.md's check values at t = 750 ----------------------------------------------

# index -> value as printed in MODEL.md; a value matches when it is within half a unit of its last digit.
TIMESTEP_CHECK = {0: "-0.66698", 1: "0.99499", 2: "0.0011510",
                  128: "0.74507", 129: "0.09996", 130: "0.99999934"}
TAU_CHECK = {0: "0.74507", 1: "-0.34909", 2: "-0.23188",
             768: "-0.66698", 769: "0.93709", 770: "-0.97274"}


def mismatches(name, values, checks, tolerance=None):
    found = []
    for index, printed in checks.items():
        limit = tolerance if tolerance is not None else 0.5 * 10.0 ** Decimal(printed).as_tuple().exponent
        if not abs(float(values[index]) - float(printed)) <= limit:
            found.append(f"{name}[{index}] = {float(values[index]):.8f}, expected {printed}")
    return found


def self_test():
    found = mismatches("timestep sinusoid(750)", gt.timestep_sinusoid(750, 256), TIMESTEP_CHECK)
    found += mismatches("action tau(750)", gt.action_tau(750, 1536), TAU_CHECK)
    # what the reference uses: the same float32 angles, cos/sin in float64 (tau at ~730 rad differs
    # from PyTorch's float32 sin by up to 6e-5)
    found += mismatches("exact timestep sinusoid(750)", gt.timestep_sinusoid(750, 256, exact=True), TIMESTEP_CHECK)
    found += mismatches("exact action tau(750)", gt.action_tau(750, 1536, exact=True), TAU_CHECK, 1e-4)
    if found:
        raise gt.InputError(f"self-test failed: {'; '.join(found)}")
    return 0


def main():
    parser = gt.argument_parser(PROG, __doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="output .npz (actions, velocities)")
    parser.add_argument("--self-test", action="store_true", help="check the sinusoid encodings and exit")
    parser.add_argument("--previous-actions", type=Path, help="N1.7 real-time chunking: .npy [H_prev, A]")
    for flag, kind in (("--rtc-horizon", int), ("--rtc-overlap", int), ("--rtc-frozen", int), ("--rtc-ramp-rate", float)):
        parser.add_argument(flag, type=kind)
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    gt.require_inputs(args, parser)
    if args.out is None:
        parser.error("missing --out")
    release = gt.Release(args.checkpoint)
    s = release.structure
    release.check_embodiment(args.embodiment)
    obs = gt.load_observation(args.observation, s)
    noise = gt.load_noise(args.noise, s)
    key_masks = gt.cross_key_masks(s, obs, args.mask_padding)
    vl_mask = gt.vl_key_mask(obs, args.mask_padding)
    rtc = None
    if args.previous_actions is not None:
        values = (args.rtc_horizon, args.rtc_overlap, args.rtc_frozen, args.rtc_ramp_rate)
        if any(v is None for v in values):
            parser.error("--previous-actions needs --rtc-horizon, --rtc-overlap, --rtc-frozen and --rtc-ramp-rate")
        rtc = dict(zip(RTC_OPTIONS, values), action=np.load(args.previous_actions, allow_pickle=False))
    W = release.weights(F64, args.embodiment)
    with torch.no_grad():
        actions, velocities = denoise(W, s, obs, key_masks, vl_mask, noise, rtc)
    try:
        with open(args.out, "wb") as f:
            np.savez(f, actions=actions.numpy(), velocities=velocities.numpy())
    except OSError as e:
        raise gt.InputError(f"{args.out}: cannot write ({e.strerror})") from None
    return 0


if __name__ == "__main__":
    gt.run_main(PROG, main)
