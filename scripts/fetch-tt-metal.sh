#!/usr/bin/env bash
# Fetches tt-metal's device headers and kernels (the reference tree) into the user cache:
# the ttnn wheel pinned in scripts/tt-metal.pin, downloaded with pip, checked against its sha256,
# and only the device side unpacked, in tt-metal's own repository layout (tt_metal/hw/inc,
# tt_metal/hostdevcommon, tt_metal/tt-llk, ttnn/cpp/ttnn/...), so the tree reads like a
# TT_METAL_HOME. Nothing of it is imported or copied into the repository.
#
# Where: $DITMK_TT_METAL if set, else ${XDG_CACHE_HOME:-~/.cache}/ditmk/tt-metal-<version>.
# Idempotent: a complete tree (its stamp file names the pinned version and sha256) is left alone and
# its path printed. Unpacking goes to a temporary folder renamed into place, so a tree is either
# complete or absent. Prints the tree's path as its last line; exits 1 if it cannot be had.
set -euo pipefail
cd "$(dirname "$0")/.."

pin=scripts/tt-metal.pin
version=$(sed -n 's/^version=//p' "$pin")
sha256=$(sed -n 's/^sha256=//p' "$pin")
layout=$(sed -n 's/^layout=//p' "$pin")
[[ -n $version && -n $sha256 && -n $layout ]] || { echo "fetch-tt-metal: $pin lacks version=, sha256= or layout=" >&2; exit 1; }

tree=${DITMK_TT_METAL:-${XDG_CACHE_HOME:-$HOME/.cache}/ditmk/tt-metal-$version}
# The first line is what trees of layout 1 carried; the second names the folders kept.
stamp_text=$(printf 'ttnn %s sha256 %s\nlayout %s' "$version" "$sha256" "$layout")
if [[ -f $tree/.ditmk-tree && $(cat "$tree/.ditmk-tree") == "$stamp_text" ]]; then
  echo "$tree"
  exit 0
fi

python=/usr/bin/python3
[[ -x $python ]] || python=python3
parent=$(dirname "$tree")
mkdir -p "$parent"
work=$(mktemp -d "$parent/.tt-metal-$version.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "fetch-tt-metal: downloading ttnn==$version (PyPI)" >&2
# --python-version/--platform: the wheel is cp312 manylinux; only its files are wanted, never installed
if ! "$python" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
     --python-version 3.12 --platform manylinux_2_34_x86_64 -d "$work/wheel" "ttnn==$version" >&2; then
  echo "fetch-tt-metal: could not download ttnn==$version from PyPI" >&2
  exit 1
fi
wheel=$(ls "$work"/wheel/ttnn-"$version"-*.whl)
actual=$(sha256sum "$wheel" | cut -d' ' -f1)
if [[ $actual != "$sha256" ]]; then
  echo "fetch-tt-metal: $(basename "$wheel") has sha256 $actual, pinned $sha256" >&2
  exit 1
fi

# The device side only: the hardware API, the host/device shared headers, Blackhole's LLK and
# ckernels, the LLK's tool headers (sanitizer, perf counters), the firmware sources (the JIT
# compiles a kernel inside brisck.cc / ncrisck.cc / trisck.cc), fabric's device headers, and ttnn's
# kernels with every header of its C++ tree (a kernel may include any of them). Host libraries,
# tests and precompiled firmware stay in the wheel.
"$python" - "$wheel" "$work/tree" <<'PY'
import os, re, sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
keep_dirs = ("tt_metal/hw/inc/", "tt_metal/hostdevcommon/", "tt_metal/hw/ckernels/blackhole/",
             "tt_metal/tt-llk/tt_llk_blackhole/", "tt_metal/tt-llk/common/", "tt_metal/tt-llk/tools/include/",
             "tt_metal/hw/firmware/src/tt-1xx/",
             "tt_metal/fabric/hw/",
             "tt_metal/api/")
header = re.compile(r"\.(h|hpp|inl)$")
kernel = re.compile(r"^ttnn/cpp/ttnn/(operations/.*/kernels[^/]*/|kernel/).*\.cpp$")
count = 0
with zipfile.ZipFile(wheel) as z:
    for info in z.infolist():
        if info.is_dir() or not info.filename.startswith("ttnn/"):
            continue
        path = info.filename[len("ttnn/"):]  # the wheel nests tt-metal's repository under ttnn/
        wanted = path.startswith(keep_dirs) or (path.startswith("ttnn/cpp/ttnn/")
                                                and (header.search(path) or kernel.match(path)))
        if not wanted:
            continue
        target = os.path.join(dest, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with z.open(info) as src, open(target, "wb") as out:
            out.write(src.read())
        count += 1
print(f"fetch-tt-metal: unpacked {count} files", file=sys.stderr)
PY
echo "$stamp_text" > "$work/tree/.ditmk-tree"
rm -rf "$tree"  # another version's tree at the same path (an override)
# -T: never move into a folder another run put there meanwhile; that run's tree is as good
if ! mv -T "$work/tree" "$tree" 2>/dev/null && [[ $(cat "$tree/.ditmk-tree" 2>/dev/null) != "$stamp_text" ]]; then
  echo "fetch-tt-metal: could not move the tree into $tree" >&2
  exit 1
fi
echo "$tree"
