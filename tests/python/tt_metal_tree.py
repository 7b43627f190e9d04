"""Where Python tests find tt-metal's reference tree, as tests/support/tt_metal_tree.hpp finds it:
$DITMK_TT_METAL, else ${XDG_CACHE_HOME:-~/.cache}/ditmk/tt-metal-<version>, complete only when its
stamp names the pinned version, hash and layout (scripts/tt-metal.pin)."""
import os
from pathlib import Path

_SOURCE = Path(os.environ.get("DITMK_SOURCE_DIR", Path(__file__).resolve().parents[2]))


def pin():
    values = {}
    for line in (_SOURCE / "scripts" / "tt-metal.pin").read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            values[key] = value
    return values


def tree_path():
    if os.environ.get("DITMK_TT_METAL"):
        return Path(os.environ["DITMK_TT_METAL"])
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "ditmk" / f"tt-metal-{pin()['version']}"


def tree():
    """The tree when it is complete, else None."""
    p, path = pin(), tree_path()
    try:
        lines = (path / ".ditmk-tree").read_text().splitlines()
    except OSError:
        return None
    if lines[:2] != [f"ttnn {p['version']} sha256 {p['sha256']}", f"layout {p['layout']}"]:
        return None
    return path


def missing():
    """The one line a test skips with."""
    return (f"tt-metal {pin()['version']} reference tree missing at {tree_path()} "
            "(scripts/fetch-tt-metal.sh fetches it)")
