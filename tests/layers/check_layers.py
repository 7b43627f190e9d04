#!/usr/bin/python3
"""The library's layers, read from its #include lines: core < io < format < model < ref, cpu, tt.
A module may include its own layer and those below it, never a sibling or one above. Prints one
line per include that breaks the order and exits 1 when there is any."""
import pathlib
import re
import sys

SRC = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2] / "src") / "ditmk"

# What each top-level folder of src/ditmk may include (besides itself).
BELOW = {
    "core": set(),
    "io": {"core"},
    "format": {"core"},
    "model": {"core", "io", "format"},
    "ref": {"core", "io", "format", "model"},
    "cpu": {"core", "io", "format", "model"},
    "tt": {"core", "io", "format", "model", "ref"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"ditmk/([a-z_]+)/')
broken = []
for layer, allowed in BELOW.items():
    for path in sorted((SRC / layer).rglob("*")):
        if path.suffix not in {".hpp", ".cpp", ".h"} or "include" in path.relative_to(SRC).parts:
            continue  # the dialect's device headers are kernel-side, not part of the library's layers
        for number, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if m and m.group(1) != layer and m.group(1) not in allowed:
                broken.append(f"{path.relative_to(SRC.parent)}:{number}: {layer} includes ditmk/{m.group(1)}")
for line in broken:
    print(line)
sys.exit(1 if broken else 0)
