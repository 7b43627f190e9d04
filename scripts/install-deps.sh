#!/usr/bin/env bash
# Installs the Debian packages ditmk needs to build, test and benchmark. Idempotent: only what is
# missing is installed, and apt's package lists are refreshed only when something is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libcli11-dev nlohmann-json3-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libhwy-dev libdnnl-dev pybind11-dev libzip-dev
  libzmq3-dev cppzmq-dev libmsgpack-cxx-dev
  clang-14 libclang-rt-14-dev
  python3 python3-dev python3-numpy python3-torch python3-pytest python3-zmq python3-msgpack
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
