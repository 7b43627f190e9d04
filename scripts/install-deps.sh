#!/usr/bin/env bash
# Installs the Debian packages ditmk needs, for one of three uses (default: test):
#   run     build the `ditmk` command (the app preset): compiler, CMake, the libraries it links
#   python  run + what `pip install .` needs (Python headers, venv)
#   test    python + tests, sanitizers, fuzzing, benchmarks and the interop tests (GoogleTest, Google
#           Benchmark, oneDNN, clang, numpy, torch, pytest, pyzmq, msgpack, ccache)
# Idempotent: only what is missing is installed, and apt's package lists are refreshed only then.
set -euo pipefail

use=${1:-test}
run=(cmake ninja-build g++ pkg-config libcli11-dev nlohmann-json3-dev libfmt-dev libzip-dev libzmq3-dev cppzmq-dev
     libmsgpack-cxx-dev)
python=(python3 python3-dev python3-venv)
test=(libgtest-dev libgmock-dev libbenchmark-dev libdnnl-dev pybind11-dev clang-14 libclang-rt-14-dev ccache
      python3-numpy python3-torch python3-pytest python3-zmq python3-msgpack)
case "$use" in
  run) packages=("${run[@]}") ;;
  python) packages=("${run[@]}" "${python[@]}") ;;
  test) packages=("${run[@]}" "${python[@]}" "${test[@]}") ;;
  *) echo "install-deps: unknown use '$use' (expected run, python or test)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages for '$use' present"
  exit 0
fi

sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
