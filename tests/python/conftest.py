"""Small releases of each version, observations and noise, written once per test session; the
emulated ditmk.ttnn device; and the tt-metal corpus's marker and reference tree (tests/python/tt_corpus).

There is one conftest for the whole folder: a second one in a subfolder would shadow this one's
module name (`from conftest import ...`) for every file collected after it."""
import os
import socket
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

import ditmk
import tt_metal_tree

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


# The tt-metal corpus: ttnn generic_op programs from tt-metal 0.81.1 run unchanged (except the import
# and the device fixture) with kernels from the reference tree. Its tests are marked tt_corpus and,
# without the tree, each skips with one line naming it. TT_METAL_HOME points at the tree, so kernel
# paths such as "ttnn/cpp/ttnn/operations/..." resolve as on a tt-metal checkout.
_CORPUS = Path(__file__).resolve().parent / "tt_corpus"
_TREE = tt_metal_tree.tree()


def _in_corpus(item):
    return Path(str(item.fspath)).resolve().is_relative_to(_CORPUS)


def pytest_configure(config):
    config.addinivalue_line("markers", "tt_corpus: a tt-metal program run from the reference tree")


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(reason=tt_metal_tree.missing())
    for item in items:
        if _in_corpus(item):
            item.add_marker(pytest.mark.tt_corpus)
            if _TREE is None:
                item.add_marker(skip)


@pytest.fixture(autouse=True)
def tt_metal_home(request, monkeypatch):
    if _TREE is not None and _in_corpus(request.node):
        monkeypatch.setenv("TT_METAL_HOME", str(_TREE))
