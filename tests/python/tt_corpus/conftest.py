"""The tt-metal corpus: ttnn generic_op programs from tt-metal 0.81.1, run unchanged (except the
import and this device fixture) on ditmk's emulated chip with kernels from the reference tree.

Every test here is marked tt_corpus and needs the tree; without it each one skips with one line
naming the missing tree. TT_METAL_HOME points at the tree, so kernel paths such as
"ttnn/cpp/ttnn/operations/..." resolve as on a tt-metal checkout.
"""
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import tt_metal_tree  # noqa: E402

import ditmk.ttnn as ttnn  # noqa: E402

TREE = tt_metal_tree.tree()


def pytest_configure(config):
    config.addinivalue_line("markers", "tt_corpus: a tt-metal program run from the reference tree")


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    skip = pytest.mark.skip(reason=tt_metal_tree.missing())
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.tt_corpus)
            if TREE is None:
                item.add_marker(skip)


@pytest.fixture(autouse=True)
def tt_metal_home(monkeypatch):
    if TREE is not None:
        monkeypatch.setenv("TT_METAL_HOME", str(TREE))


@pytest.fixture
def device():
    dev = ttnn.open_device(device_id=0)
    yield dev
    ttnn.close_device(dev)
