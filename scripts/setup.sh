#!/usr/bin/env bash
# Installs what visakit needs on Debian 12 (as root), only if missing.
set -euo pipefail
pkgs=(cmake ninja-build g++ clang libclang-rt-14-dev lld libgtest-dev libgmock-dev libbenchmark-dev
      libcli11-dev libfmt-dev nlohmann-json3-dev xxd python3
      intel-opencl-icd pocl-opencl-icd ocl-icd-opencl-dev opencl-headers oclgrind)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}"
fi
