"""Small releases of each version, observations and noise, written once per test session."""
import os
import socket
import subprocess
import tempfile

import numpy as np
import pytest

import ditmk

DITMK = os.environ.get("DITMK_BINARY", "ditmk")
# Heads the tests open (and the commands they run) keep their packed weights here, not in the user's
# cache; the folder lasts for the session.
_WEIGHT_CACHE = None
if "DITMK_WEIGHT_CACHE" not in os.environ:
    _WEIGHT_CACHE = tempfile.TemporaryDirectory(prefix="ditmk-test-weight-cache-")
    os.environ["DITMK_WEIGHT_CACHE"] = _WEIGHT_CACHE.name
VERSIONS = ("n15", "n16", "n17")


def run_ditmk(*args):
    """Runs the ditmk command; returns (exit code, stdout, stderr)."""
    done = subprocess.run([DITMK, *map(str, args)], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def free_port():
    """A TCP port on loopback that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_observation(info, seed, padding=0, image_tokens=None):
    """features [S, ctx] float32, attention_mask [S] bool (the last `padding` tokens 0), image_mask [S]
    bool (N1.6/N1.7: a block of image tokens), state [state_history, state_dim] float32."""
    rng = np.random.default_rng(seed)
    tokens = 20
    obs = {
        "features": rng.standard_normal((tokens, info["context_dim"])).astype(np.float32),
        "attention_mask": np.ones(tokens, dtype=bool),
        "image_mask": np.zeros(tokens, dtype=bool),
        "state": (0.5 * rng.standard_normal((info["state_history"], info["state_dim"]))).astype(np.float32),
    }
    if padding:
        obs["attention_mask"][-padding:] = False
    if info["version"] != "n15":
        first = 4 if image_tokens is None else image_tokens[0]
        count = 9 if image_tokens is None else image_tokens[1]
        obs["image_mask"][first:first + count] = True
    return obs


@pytest.fixture(scope="session")
def releases(tmp_path_factory):
    """version -> a small bf16 release directory (narrow widths, 4 blocks, the released structure)."""
    root = tmp_path_factory.mktemp("releases")
    return {v: ditmk.make_checkpoint(root / v, version=v, tiny=True, seed=7) for v in VERSIONS}


@pytest.fixture
def device():
    """An emulated device of ditmk.ttnn, closed after the test (the test_ttnn_* files)."""
    import ditmk.ttnn as ttnn
    dev = ttnn.open_device(device_id=0)
    yield dev
    ttnn.close_device(dev)
