#!/usr/bin/python3
"""The library's layers, read from its #include lines: core < io < format < model < ref, cpu, tt,
and inside tt/ its concepts (TT_BELOW). A module may include its own layer and those below it, never
a sibling or one above. Prints one line per include that breaks the order and exits 1 when there
is any."""
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

# Inside tt/, one folder per concept (docs/architecture.md), each including only those below it;
# tt/formats.hpp, at the top of tt/, is below them all. hw/ (what a kernel includes) and kernel/ (the
# megakernel's device code) are kernel-side and include nothing of the library.
TT_BELOW = {
    "plan": set(),
    "emu": {"plan"},
    "jit": {"emu", "plan", "hw"},
    "program": {"jit", "emu", "plan"},
    "device_abi": {"emu", "plan", "hw"},
    "host_api": {"program", "jit", "device_abi", "emu", "plan", "hw"},
    "generic_op": {"host_api", "program", "jit", "device_abi", "emu", "plan", "hw"},
    "pack": {"plan"},
    "host": {"generic_op", "host_api", "program", "jit", "device_abi", "emu", "plan", "pack", "kernel", "hw"},
    "hw": set(),
    "kernel": set(),
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"ditmk/([a-z_]+)/(?:([a-z_]+)/)?')
broken = []


def sources(folder):
    return [p for p in sorted(folder.rglob("*")) if p.suffix in {".hpp", ".cpp", ".h"}]


for layer, allowed in BELOW.items():
    for path in sources(SRC / layer):
        if path.relative_to(SRC).parts[:2] == ("tt", "hw"):
            continue  # the device headers are kernel-side, not part of the library's layers
        for number, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if m and m.group(1) != layer and m.group(1) not in allowed:
                broken.append(f"{path.relative_to(SRC.parent)}:{number}: {layer} includes ditmk/{m.group(1)}")

for concept, allowed in TT_BELOW.items():
    for path in sources(SRC / "tt" / concept):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if m and m.group(1) == "tt" and m.group(2) and m.group(2) != concept and m.group(2) not in allowed:
                broken.append(f"{path.relative_to(SRC.parent)}:{number}: tt/{concept} includes ditmk/tt/{m.group(2)}")
unknown = sorted(p.name for p in (SRC / "tt").iterdir() if p.is_dir() and p.name not in TT_BELOW)
broken += [f"src/ditmk/tt/{name}: a folder check_layers.py does not place" for name in unknown]
for line in broken:
    print(line)
sys.exit(1 if broken else 0)
