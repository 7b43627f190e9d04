#!/usr/bin/env python3
"""The PyTorch peer: the GR00T action head run the way the official runtime runs it, eager PyTorch
with weights and compute in bf16 (nn.functional ops, softmax in bf16, the Euler state in bf16), timed
per full denoise call: VL preprocessing, cross K/V, state token and the N Euler steps, all as the
release's config.json makes them (docs/model.md).

  peer_torch.py --checkpoint DIR --observation OBS.npz --noise N.npy --embodiment ID [--mask-padding]
                --threads N --runs R --warmup W [--out ACT.npy]

Prints one JSON object: median/min/max ms per denoise over R timed runs after W warm-up runs, runs,
threads, torch_version, dtype. --out writes the last run's actions [H, A] as float32 .npy.
"""
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
import groot_torch as gt  # noqa: E402

BF16 = torch.bfloat16
PROG = "peer_torch"


class PeerActionHead:
    """The action head of one embodiment over weights of `dtype` (bf16 as the runtime runs it; the
    ONNX peers export it in float32); `name` arguments are tensor names."""

    def __init__(self, weights, structure, dtype=BF16):
        self.W = weights
        self.s = structure
        self.dtype = dtype
        # The DiT's norms have no affine weight; an exporter that cannot write a LayerNormalization
        # without one sets this to ones (the same numbers: x * 1 is x).
        self.unit_scale = None

    # --- layers as the official modules compute them ----------------------------------------

    def linear(self, name, x):
        return F.linear(x, self.W[f"{name}.weight"], self.W[f"{name}.bias"])

    def category_linear(self, name, x):
        return x @ self.W[f"{name}.W"] + self.W[f"{name}.b"]

    def category_mlp(self, name, x):
        return self.category_linear(f"{name}.layer2", F.relu(self.category_linear(f"{name}.layer1", x)))

    def feed_forward(self, name, x):
        return self.linear(f"{name}.net.2", F.gelu(self.linear(f"{name}.net.0.proj", x), approximate="tanh"))

    def attend(self, name, q, k, v, heads, head_dim, key_bias):
        """q [rows, heads*hd], k/v [keys, heads*hd]; key_bias is 0 / -inf per key, or None."""
        def by_head(t):
            return t.reshape(t.shape[0], heads, head_dim).transpose(0, 1)

        scores = by_head(q) @ by_head(k).transpose(1, 2) * head_dim**-0.5
        if key_bias is not None:
            scores = scores + key_bias
        out = F.softmax(scores, dim=-1) @ by_head(v)
        return self.linear(f"{name}.to_out.0", out.transpose(0, 1).reshape(q.shape[0], heads * head_dim))

    # --- per-call precompute ------------------------------------------------------------------

    def vl_layer_norm(self, name, x, eps):
        return F.layer_norm(x, (self.s.ctx_dim,), self.W[f"{name}.weight"], self.W[f"{name}.bias"], eps=eps)

    def vl_tokens(self, features, key_bias):
        """vlln (identity without use_vlln), then the VL self-attention stack; key_bias None as released."""
        s = self.s
        features = features.to(self.dtype)
        vl = self.vl_layer_norm("vlln", features, 1e-5) if s.use_vlln else features
        for k in range(s.vl_layers):
            p = f"vl_self_attention.transformer_blocks.{k}"
            n = self.vl_layer_norm(f"{p}.norm1", vl, s.vl_norm_eps)
            q, kk, v = (self.linear(f"{p}.attn1.{proj}", n) for proj in ("to_q", "to_k", "to_v"))
            vl = vl + self.attend(f"{p}.attn1", q, kk, v, s.vl_heads, s.vl_head_dim, key_bias)
            vl = vl + self.feed_forward(f"{p}.ff", self.vl_layer_norm(f"{p}.norm3", vl, s.vl_norm_eps))
        return vl

    def cross_kv(self, vl):
        """K and V of the VL tokens for every cross block: they do not depend on the step."""
        return [None if keys == "self" else
                (self.linear(f"model.transformer_blocks.{i}.attn1.to_k", vl),
                 self.linear(f"model.transformer_blocks.{i}.attn1.to_v", vl))
                for i, keys in enumerate(self.s.block_keys)]

    # --- one DiT call -------------------------------------------------------------------------

    def plain_norm(self, h, eps):
        return F.layer_norm(h, (self.s.width,), self.unit_scale, eps=eps)

    def timestep_embedding(self, sinusoid):
        p = "model.timestep_encoder.timestep_embedder"
        return self.linear(f"{p}.linear_2", F.silu(self.linear(f"{p}.linear_1", sinusoid)))

    def dit_block(self, i, h, silu_temb, kv, key_bias):
        s = self.s
        p = f"model.transformer_blocks.{i}"
        scale, shift = self.linear(f"{p}.norm1.linear", silu_temb).chunk(2)
        n = self.plain_norm(h, 1e-5) * (1 + scale) + shift
        q = self.linear(f"{p}.attn1.to_q", n)
        if kv is None:
            kv = (self.linear(f"{p}.attn1.to_k", n), self.linear(f"{p}.attn1.to_v", n))
        h = h + self.attend(f"{p}.attn1", q, *kv, s.heads, s.head_dim, key_bias)
        return h + self.feed_forward(f"{p}.ff", self.plain_norm(h, s.ff_norm_eps))

    def dit(self, h, sinusoid, cross_kv, key_biases):
        s = self.s
        silu_temb = F.silu(self.timestep_embedding(sinusoid))
        for i in range(s.n_blocks):
            h = self.dit_block(i, h, silu_temb, cross_kv[i], key_biases[i])
        shift, scale = self.linear("model.proj_out_1", silu_temb).chunk(2)
        return self.linear("model.proj_out_2", self.plain_norm(h, 1e-6) * (1 + scale) + shift)

    def action_tokens(self, x, tau):
        a = self.category_linear("action_encoder.W1", x)
        tau = tau.expand(x.shape[0], -1)
        h = F.silu(self.category_linear("action_encoder.W2", torch.cat([a, tau], dim=1)))
        tokens = self.category_linear("action_encoder.W3", h)
        return tokens + self.W["position_embedding.weight"][: self.s.horizon] if self.s.add_pos_embed else tokens

    # --- the whole call -----------------------------------------------------------------------

    def state_token(self, state):
        """state [L * S]: the state frames in time order, one token."""
        return self.category_mlp("state_encoder", state.to(self.dtype)[None])

    def step_codes(self, t):
        """The step's time codes, the DiT's sinusoid and the action encoder's tau (small, per step)."""
        return (gt.timestep_sinusoid(t, self.s.temb_channels).to(self.dtype),
                gt.action_tau(t, self.s.width).to(self.dtype))

    def velocity(self, x, sinusoid, tau, state_token, cross_kv, key_biases):
        """One Euler step's velocity [H, A] at actions x: what the step graph of the ONNX peers holds."""
        s = self.s
        prefix = [state_token] + ([self.W["future_tokens.weight"]] if s.n_future else [])
        h = torch.cat(prefix + [self.action_tokens(x, tau)])
        return self.category_mlp("action_decoder", self.dit(h, sinusoid, cross_kv, key_biases))[-s.horizon :]

    def __call__(self, features, key_masks, vl_mask, state, noise):
        """key_masks: per DiT block, None or the bool mask of admissible keys; vl_mask likewise for the VL
        stack."""
        s = self.s
        vl = self.vl_tokens(features, key_bias(vl_mask, self.dtype))
        cross_kv = self.cross_kv(vl)
        key_biases = [key_bias(m, self.dtype) for m in key_masks]
        state_token = self.state_token(state)
        x = noise.to(self.dtype)
        for t in s.step_timesteps():
            x = x + s.dt * self.velocity(x, *self.step_codes(t), state_token, cross_kv, key_biases)
        return x


def key_bias(mask, dtype=BF16):
    """0 for an admissible key, -inf otherwise; None (no mask) stays None."""
    return None if mask is None else torch.zeros(mask.shape, dtype=dtype).masked_fill(~mask, float("-inf"))


def add_timing_arguments(parser):
    """--threads, --runs, --warmup and --out: what every peer script takes."""
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--warmup", type=int, required=True)
    parser.add_argument("--out", type=Path, help="write the last run's actions as float32 .npy")


def check_timing_arguments(args, parser):
    gt.require_inputs(args, parser)
    for flag, value, minimum in (("--threads", args.threads, 1), ("--runs", args.runs, 1), ("--warmup", args.warmup, 0)):
        if value < minimum:
            parser.error(f"{flag} {value} must be at least {minimum}")


def report(args, times_ms, actions, **fields):
    """Writes --out (the last run's actions, float32 [H, A]) and prints the peer's JSON report."""
    if args.out is not None:
        try:
            with open(args.out, "wb") as f:
                np.save(f, np.asarray(actions, dtype=np.float32))
        except OSError as e:
            raise gt.InputError(f"{args.out}: cannot write ({e.strerror})") from None
    print(json.dumps({
        "median_ms_per_denoise": statistics.median(times_ms),
        "min_ms_per_denoise": min(times_ms),
        "max_ms_per_denoise": max(times_ms),
        "runs": args.runs,
        "threads": args.threads,
        **fields,
    }))


def main():
    parser = gt.argument_parser(PROG, __doc__.splitlines()[0])
    add_timing_arguments(parser)
    args = parser.parse_args()
    check_timing_arguments(args, parser)
    torch.set_num_threads(args.threads)

    release = gt.Release(args.checkpoint)
    s = release.structure
    release.check_embodiment(args.embodiment)
    obs = gt.load_observation(args.observation, s)
    noise = torch.from_numpy(gt.load_noise(args.noise, s))
    key_masks = gt.cross_key_masks(s, obs, args.mask_padding)
    vl_mask = gt.vl_key_mask(obs, args.mask_padding)
    features, state = torch.from_numpy(obs.features), torch.from_numpy(obs.state)
    head = PeerActionHead(release.weights(BF16, args.embodiment), s)

    times_ms = []
    with torch.inference_mode():
        for run in range(args.warmup + args.runs):
            start = time.perf_counter()
            actions = head(features, key_masks, vl_mask, state, noise)
            if run >= args.warmup:
                times_ms.append((time.perf_counter() - start) * 1e3)
    report(args, times_ms, actions.float().numpy(), torch_version=torch.__version__, dtype="bf16")
    return 0


if __name__ == "__main__":
    gt.run_main(PROG, main)
