"""N1.7's real-time chunking through every interface: the drop-in on ref and cpu against the released
formula in tests/torch (several overlap / frozen / ramp settings, B = 1 and B = 3, and the edges the
release runs: tiny and infinite ramp rates, frozen = overlap + 1, no overlap with any action_horizon),
the frozen rows bit for bit, the start of the Euler loop against the release's own statements over a
grid of option sets, the N1.5 and N1.6 heads ignoring a previous chunk as released, the same bytes
from the drop-in, `ditmk run` and `ditmk serve`, and every bad input one line naming the option or
array."""
import itertools
import math
import os
import sys
import warnings

import numpy as np
import pytest
import torch

import ditmk
import ditmk.groot
from ditmk import _ditmk
from conftest import DITMK, free_port, make_observation, run_ditmk
from torch_reference import BF16_GATE, FP32_GATE, batch, torch_reference, within

sys.path.insert(0, os.path.join(os.environ["DITMK_SOURCE_DIR"], "bench"))
import serve_load  # noqa: E402
from ditmk.client import PolicyClient, ServerError  # noqa: E402

# (rows of the previous chunk, action_horizon, rtc_overlap_steps, rtc_frozen_steps, rtc_ramp_rate) on
# the tiny N1.7 release (horizon 8)
SETTINGS = [
    (8, 8, 4, 1, 5.0),
    (12, 10, 6, 0, 0.5),   # a longer previous chunk, read up to action_horizon
    (8, 6, 3, 3, 2.0),     # frozen == overlap: no ramp rows
    (10, 9, 8, 2, 1.0),    # the whole chunk inpainted
]

# The edges the release runs (B = 1): its float32 ramp at tiny and infinite rates, a frozen row that
# is not inpainted, and no overlap with an action_horizon past the chunk or negative.
EDGE_SETTINGS = [
    (8, 8, 8, 0, 1e-6),          # float32: the ramp in whole ulps of 1 (2/17, 4/17, ...)
    (8, 8, 6, 1, 1e-10),         # exp rounds to 1: every ramp row frozen
    (8, 8, 6, 1, 1e-12),
    (8, 8, 6, 1, math.inf),      # a step from frozen to 1
    (8, 8, 3, 4, 2.0),           # frozen = overlap + 1: row 3 keeps its noise (ReleaseQuirkWarning)
    (8, 12, 0, 0, 1.0),          # action_horizon past the chunk: a plain run
    (8, -2, 0, 0, 1.0),          # negative action_horizon: a plain run
]


def options(setting):
    _, horizon, overlap, frozen, rate = setting
    return {"action_horizon": horizon, "rtc_overlap_steps": overlap, "rtc_frozen_steps": frozen, "rtc_ramp_rate": rate}


def previous_chunks(size, rows, action_dim, seed=5):
    return torch.from_numpy(np.random.default_rng(seed).standard_normal((size, rows, action_dim)).astype(np.float32))


@pytest.fixture(scope="module")
def heads(releases):
    return {backend: ditmk.groot.ActionHead(releases["n17"], backend=backend, threads=2) for backend in ("ref", "cpu")}


@pytest.mark.parametrize("size, setting", [(size, setting) for size in (1, 3) for setting in SETTINGS] +
                         [(1, setting) for setting in EDGE_SETTINGS])
def test_drop_in_matches_the_torch_implementation(setting, size, heads, releases):
    samples, backbone_output, action_input = batch(heads["ref"].info, seeds=range(size), paddings=[0, 3, 6][:size],
                                                   image_blocks=[(2, 9), (5, 6), (3, 12)][:size])
    noise = torch.randn(size, 8, 6, generator=torch.Generator().manual_seed(size))
    action_input.action = previous_chunks(size, setting[0], 6)
    _, horizon, overlap, frozen, _ = setting
    inpainted = max(0, min(frozen, overlap))
    for backend, gate in (("ref", FP32_GATE), ("cpu", BF16_GATE)):
        with warnings.catch_warnings(record=True) as quirks:
            warnings.simplefilter("always")
            out = heads[backend].get_action(backbone_output, action_input, options(setting), noise=noise).action_pred
        assert [str(w.message).split(":")[0] for w in quirks] == \
            ["rtc_frozen_steps 4 with rtc_overlap_steps 3"] * size * (frozen > overlap), [str(w.message) for w in quirks]
        assert all(w.category is ditmk.ReleaseQuirkWarning for w in quirks)
        for b, sample in enumerate(samples):
            want = torch_reference(releases["n17"], sample, noise[b].numpy(), 1,
                                   dict(options(setting), action=action_input.action[b].numpy()))
            ok, figures = within(gate, out[b], want)
            assert ok, (backend, b, figures)
            assert torch.equal(out[b, :inpainted],
                               action_input.action[b, horizon - overlap:horizon - overlap + inpainted]), \
                (backend, b, "frozen rows are the previous chunk's, bit for bit")
            assert torch.equal(out[b, inpainted:frozen], noise[b, inpainted:frozen]), \
                (backend, b, "frozen rows that are not inpainted keep their noise")


def release_start(noise, previous, rtc):
    """The release's statements (get_action_with_features) on a batch of one: (x0, strength), or the
    exception PyTorch raises for them."""
    horizon, overlap, frozen, rate = rtc
    actions = torch.from_numpy(noise).clone()[None]
    strength = torch.ones_like(actions)
    actions[:, :overlap, :] = torch.from_numpy(previous).to(actions.dtype)[None][:, horizon - overlap:horizon, :]
    strength[:, :frozen, :] = 0.0
    t = torch.linspace(0.0, 1.0, overlap - frozen + 2)
    ramp = 1 - torch.exp(-rate * t)
    ramp = ramp / ramp[-1].clamp_min(1e-8)
    strength[:, frozen:overlap, :] = ramp[1:-1][None, :, None].to(actions.dtype)
    return actions[0].numpy(), strength[0, :, 0].numpy()


def test_the_start_is_the_releases_over_a_grid_of_options():
    """Every option set of a grid (negative and past-the-end counts included) against the release's
    statements run by PyTorch: ditmk refuses exactly where they raise or give non-finite values, and
    otherwise starts from the same rows and strengths (the ramp's exp within 2 float32 ulps of 1,
    PyTorch's CPU exp being Sleef's and ditmk's glibc's)."""
    rng = np.random.default_rng(7)
    horizon, action_dim = 8, 3
    noise = rng.standard_normal((horizon, action_dim))
    previous = {rows: rng.standard_normal((rows, action_dim)).astype(np.float32) for rows in (5, 10)}
    grid = itertools.product(previous, range(-3, 14), range(-3, 11), range(-3, 11), [2.0])
    rates = itertools.product([10], [10, 7, 20], [6, 0, 9], [1, 4, 7, -1],
                              [0.0, 1e-12, 1e-6, 0.5, 88.0, 200.0, -3.0, -60.0, math.inf, -math.inf, math.nan])
    counts = {"accepted": 0, "refused": 0}
    for rows, *rtc in itertools.chain(grid, rates):
        try:
            want = release_start(noise, previous[rows], rtc)
            finite = np.isfinite(want[0]).all() and np.isfinite(want[1]).all()
        except (RuntimeError, IndexError):
            want, finite = None, False
        try:
            got = _ditmk.realtime_chunking_start(noise, previous[rows], tuple(rtc))
        except ValueError as e:
            assert not finite, (rows, rtc, str(e))
            assert "\n" not in str(e)
            counts["refused"] += 1
            continue
        assert finite, (rows, rtc, "accepted what the release refuses")
        assert np.array_equal(got[0], want[0]), (rows, rtc)
        denominator = max(np.float32(1 - np.exp(np.float32(-rtc[3]))), 1e-8) if np.isfinite(rtc[3]) else 1.0
        assert np.allclose(got[1], want[1], rtol=1e-6, atol=2 * 2.0 ** -24 / denominator), (rows, rtc, got[1], want[1])
        counts["accepted"] += 1
    assert counts["accepted"] > 900 and counts["refused"] > 6000, counts


def test_the_chunk_changes_the_result_and_n15_n16_ignore_it(heads, releases):
    for version in ("n15", "n16", "n17"):
        head = heads["cpu"] if version == "n17" else ditmk.groot.ActionHead(releases[version], threads=2)
        _, backbone_output, action_input = batch(head.info, seeds=[3], paddings=[0], image_blocks=[(2, 9)])
        noise = torch.randn(1, head.action_horizon, head.action_dim)
        plain = head.get_action(backbone_output, action_input, noise=noise).action_pred
        action_input.action = previous_chunks(1, head.action_horizon, head.action_dim)
        chunked = head.get_action(backbone_output, action_input, options(SETTINGS[0]), noise=noise).action_pred
        assert torch.equal(chunked, plain) == (version != "n17"), version


def test_head_api_takes_the_chunk_and_the_options(heads, releases):
    head = ditmk.ActionHead(releases["n17"], threads=2)
    obs = make_observation(head.info, seed=8)
    noise = np.random.default_rng(3).standard_normal((8, 6)).astype(np.float32)
    previous = previous_chunks(1, 8, 6)[0]
    got = head.get_action(**obs, embodiment=1, noise=noise, previous_actions=previous, rtc=options(SETTINGS[0]))
    drop_in = heads["cpu"].get_action({k: torch.from_numpy(obs[v][None]) for k, v in (
        ("backbone_features", "features"), ("backbone_attention_mask", "attention_mask"), ("image_mask", "image_mask"))},
        {"state": torch.from_numpy(obs["state"][None]), "embodiment_id": torch.tensor([1]), "action": previous[None]},
        options(SETTINGS[0]), noise=torch.from_numpy(noise[None])).action_pred
    assert got.tobytes() == drop_in[0].numpy().tobytes()
    with pytest.raises(ValueError, match="emu backend") as e:
        ditmk.ActionHead(releases["n17"], backend="emu").get_action(**obs, previous_actions=previous,
                                                                    rtc=options(SETTINGS[0]))
    assert "\n" not in str(e.value)


# The warning lines the tests expect in the N1.7 server's log.
SERVER_WARNINGS = []


@pytest.fixture(scope="module")
def servers(releases):
    """version -> port of a running `ditmk serve` (one thread) on the tiny N1.5 and N1.7 releases."""
    running = {v: (free_port(), None) for v in ("n15", "n17")}
    for v, (port, _) in running.items():
        running[v] = (port, serve_load.Server(DITMK, port, "--checkpoint", releases[v], "--threads", "1"))
    yield {v: port for v, (port, _) in running.items()}
    for version, (_, server) in running.items():
        code, err = server.stop()
        assert code == 0, err
        if version == "n17":
            assert all(line in err for line in SERVER_WARNINGS), err


def test_drop_in_command_and_server_give_the_same_bytes(servers, releases, tmp_path):
    release = releases["n17"]
    head = ditmk.groot.ActionHead(release, threads=1)
    obs = make_observation(head.info, seed=11, padding=2)
    noise = np.random.default_rng(4).standard_normal((8, 6)).astype(np.float32)
    previous = previous_chunks(1, 12, 6, seed=9)[0].numpy()
    rtc = options(SETTINGS[1])
    np.savez(tmp_path / "obs.npz", **obs)
    np.save(tmp_path / "noise.npy", noise)
    np.save(tmp_path / "prev.npy", previous)
    code, _, err = run_ditmk("run", "--checkpoint", release, "--observation", tmp_path / "obs.npz", "--noise",
                             tmp_path / "noise.npy", "--embodiment", "1", "--threads", "1", "--previous-actions",
                             tmp_path / "prev.npy", "--rtc-horizon", rtc["action_horizon"], "--rtc-overlap",
                             rtc["rtc_overlap_steps"], "--rtc-frozen", rtc["rtc_frozen_steps"], "--rtc-ramp-rate",
                             rtc["rtc_ramp_rate"], "--out", tmp_path / "a.npy")
    assert code == 0, err
    command = np.load(tmp_path / "a.npy").tobytes()
    backbone_output = {"backbone_features": obs["features"][None], "backbone_attention_mask": obs["attention_mask"][None],
                       "image_mask": obs["image_mask"][None]}
    action_input = {"state": obs["state"][None], "embodiment_id": np.array([1]), "action": previous[None]}
    drop_in = head.get_action(backbone_output, action_input, rtc, noise=noise[None]).action_pred[0].tobytes()
    client = PolicyClient(port=servers["n17"])
    served = client.get_action(obs["features"], backbone_attention_mask=obs["attention_mask"], image_mask=obs["image_mask"],
                               state=obs["state"], embodiment_id=1, noise=noise, action=previous, options=rtc)[0].tobytes()
    remote = ditmk.groot.RemoteActionHead(port=servers["n17"]).get_action(backbone_output, action_input, rtc,
                                                                         noise=noise[None]).action_pred[0].tobytes()
    assert command == drop_in == served == remote
    plain = client.get_action(obs["features"], backbone_attention_mask=obs["attention_mask"], image_mask=obs["image_mask"],
                              state=obs["state"], embodiment_id=1, noise=noise)[0].tobytes()
    assert plain != served


def one_line_error(call, match):
    with pytest.raises((ValueError, ServerError), match=match) as e:
        call()
    assert "\n" not in str(e.value), str(e.value)


def test_bad_input_is_one_line_naming_the_option(heads, servers, releases):
    head = heads["ref"]
    _, backbone_output, action_input = batch(head.info, seeds=[1, 2], paddings=[0, 1], image_blocks=[(2, 9), (5, 6)])
    action_input.action = previous_chunks(2, 8, 6)
    good = options(SETTINGS[0])

    def drop_in(opts, action=None):
        if action is not None:
            action_input.action = action
        return lambda: head.get_action(backbone_output, action_input, opts)

    one_line_error(drop_in(None), "options: an action in action_input")
    one_line_error(drop_in({k: v for k, v in good.items() if k != "rtc_frozen_steps"}), "rtc_frozen_steps: missing")
    one_line_error(drop_in(dict(good, rtc_overlap_steps=2.5)), "rtc_overlap_steps: expected an integer")
    one_line_error(drop_in(dict(good, rtc_ramp_rate="steep")), "rtc_ramp_rate: expected a number")
    one_line_error(drop_in(dict(good, rtc_overlap_steps=9)), "rtc_overlap_steps 9: more than the model's action horizon 8")
    one_line_error(drop_in(dict(good, action_horizon=9)), "action_horizon 9: more than the 8 rows of the previous chunk")
    one_line_error(drop_in(dict(good, rtc_frozen_steps=6)), r"rtc_frozen_steps 6: more than rtc_overlap_steps 4 \+ 1")
    one_line_error(drop_in(dict(good, rtc_frozen_steps=-1)), "rtc_frozen_steps -1: the release's ramp has 5 values")
    one_line_error(drop_in(dict(good, rtc_ramp_rate=math.nan)), "rtc_ramp_rate nan: the release's float32 ramp")
    one_line_error(drop_in(good, previous_chunks(3, 8, 6)), r"action: shape \[3, 8, 6\] \(expected \[2, H_prev, 6\]\)")
    one_line_error(drop_in(good, previous_chunks(2, 8, 5)), r"action: shape \[8, 5\]")
    one_line_error(drop_in(good, torch.zeros(2, 8, 6, dtype=torch.int32)), "action: dtype")
    nan = previous_chunks(2, 8, 6)
    nan[1, 3, 2] = float("nan")  # a row the options do not read: the release ignores it
    assert torch.isfinite(drop_in(good, nan)().action_pred).all()
    nan[1, 5, 2] = float("nan")
    one_line_error(drop_in(good, nan), "action: non-finite value at row 5, column 2")

    obs = make_observation(head.info, seed=1)
    request = dict(backbone_attention_mask=obs["attention_mask"], image_mask=obs["image_mask"], state=obs["state"])
    client = PolicyClient(port=servers["n17"])
    previous = previous_chunks(1, 8, 6)[0].numpy()
    one_line_error(lambda: client.get_action(obs["features"], **request, action=previous), "action_horizon: missing")
    one_line_error(lambda: client.get_action(obs["features"], **request, options=good), "action: missing")
    one_line_error(lambda: client.get_action(obs["features"], **request, action=previous,
                                             options=dict(good, rtc_overlap_steps=9)), "rtc_overlap_steps 9")
    one_line_error(lambda: client.get_action(obs["features"], **request, action=previous,
                                             options=dict(good, rtc_ramp_rate="fast")), "rtc_ramp_rate: expected a number")
    assert client.get_action(obs["features"], **request, action=previous, options=good).shape == (1, 8, 6)
    quirk = client.get_action(obs["features"], **request, action=previous, options=dict(good, rtc_frozen_steps=5))
    assert np.isfinite(quirk).all()
    SERVER_WARNINGS.append("serve: get_action warning: rtc_frozen_steps 5 with rtc_overlap_steps 4: rows [4:5] are "
                           "frozen but not inpainted")
    n15 = PolicyClient(port=servers["n15"])
    features15 = make_observation(n15.get_info(), seed=1)["features"]
    one_line_error(lambda: n15.get_action(features15, action=np.zeros((16, 6), np.float32), options=good),
                   "action: real-time chunking is N1.7's")
