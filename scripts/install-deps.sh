#!/usr/bin/env bash
# Installs the Debian packages ditmk needs, for one of three uses (default: test):
#   run     build the `ditmk` command (the app preset): compiler, CMake, the libraries it links
#   python  run + what `pip install .` needs (Python headers, venv)
#   test    python + tests, sanitizers, fuzzing, benchmarks and the interop tests (GoogleTest, Google
#           Benchmark, oneDNN, clang and its Python bindings, numpy, torch, pytest, pyzmq, msgpack,
#           ccache), and Ray Serve from PyPI for Debian's interpreter (ditmk.ray's cluster tests)
#   peers   test + the CPU runtimes `ditmk bench --peer` runs the head on (OpenVINO, ONNX Runtime and
#           onnx, from PyPI for Debian's interpreter); what the test command installs
# Idempotent: only what is missing is installed, and apt's package lists are refreshed only then.
set -euo pipefail

use=${1:-test}
run=(cmake ninja-build g++ pkg-config libcli11-dev nlohmann-json3-dev libfmt-dev libzip-dev libzmq3-dev cppzmq-dev
     libmsgpack-cxx-dev libxxhash-dev)
python=(python3 python3-dev python3-venv)
test=(libgtest-dev libgmock-dev libbenchmark-dev libdnnl-dev pybind11-dev clang-14 libclang-rt-14-dev python3-clang-14
      ccache python3-numpy python3-torch python3-pytest python3-zmq python3-msgpack python3-pip)
ray_version=2.60.0
# ml_dtypes is onnx's; its newer releases need numpy 2, which Debian's torch cannot load
peers=(openvino==2026.4.1 onnxruntime==1.32.0 onnx==1.23.2 ml_dtypes==0.5.4)
case "$use" in
  run) packages=("${run[@]}") ;;
  python) packages=("${run[@]}" "${python[@]}") ;;
  test | peers) packages=("${run[@]}" "${python[@]}" "${test[@]}") ;;
  *) echo "install-deps: unknown use '$use' (expected run, python, test or peers)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages for '$use' present"
else
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# PyPI's packages go into Debian's interpreter, which Debian marks externally managed
pip_install() {
  $sudo /usr/bin/python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --break-system-packages "$@"
}

# Debian has no Ray: PyPI's, only when that version is missing
if [[ $use == test || $use == peers ]] && ! /usr/bin/python3 -c "import ray, ray.serve, sys; sys.exit(ray.__version__ != '$ray_version')" 2>/dev/null; then
  echo "install-deps: installing ray[serve]==$ray_version (PyPI)"
  pip_install "ray[serve]==$ray_version"
fi

peers_present() {
  /usr/bin/python3 - "${peers[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(any(version(name) != wanted for name, wanted in (p.split("==") for p in sys.argv[1:])))
PY
}
if [[ $use == peers ]] && ! peers_present; then
  echo "install-deps: installing ${peers[*]} (PyPI)"
  # Debian's numpy stays: the constraint keeps pip from replacing it with one Debian's torch cannot load
  numpy_version=$(/usr/bin/python3 -c "import numpy; print(numpy.__version__)")
  pip_install "${peers[@]}" "numpy==$numpy_version"
fi
