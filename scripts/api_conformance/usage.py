"""Which API calls ttnn's kernels make: the kernels of the reference tree (ttnn/cpp/ttnn/operations/
**/kernels*/ and ttnn/cpp/ttnn/kernel/), each read once for the names it calls (an identifier
followed by `(` or `<`), counted per name. A textual count: a name in a comment or of a kernel's own
function counts too, so it says how widely a call is used, not that every use compiles."""
from __future__ import annotations

import collections
import re
from pathlib import Path

_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*[<(]")
_COMPUTE = re.compile(r'#\s*include\s*"(api/compute/|compute_kernel_api)')


def kernel_files(tree: Path) -> list[Path]:
    root = tree / "ttnn/cpp/ttnn"
    files = [p for p in (root / "operations").rglob("*.cpp")
             if any(part.startswith("kernels") for part in p.relative_to(root / "operations").parts[:-1])]
    files += list((root / "kernel").rglob("*.cpp"))
    return sorted(set(files))


def count_calls(tree: Path) -> tuple[int, int, collections.Counter]:
    """(kernels, compute kernels, kernels calling each name)."""
    files = kernel_files(tree)
    compute = 0
    counts: collections.Counter = collections.Counter()
    for f in files:
        text = f.read_text(errors="replace")
        compute += bool(_COMPUTE.search(text))
        counts.update(set(_CALL.findall(text)))
    return len(files), compute, counts
