#!/usr/bin/env bash
# Installs the Debian packages ropekit's build (and, with "test", its test suite:
# cmocka, clang with libFuzzer's runtime, Python's headers and ninja for the torch C++
# extension and torch.compile) needs, when they are missing. Run as root (or with sudo
# available). The Python packages of the tests (numpy, pytest, torch) live in the project's virtual
# environment (scripts/python_env.sh), not in Debian's interpreter.
set -euo pipefail
pkgs=(cmake make gcc g++ pkg-config)
if [[ "${1:-}" == "test" ]]; then
  pkgs+=(libcmocka-dev python3 python3-dev ninja-build clang libclang-rt-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y -q "${missing[@]}" || { $sudo apt-get update -q && $sudo apt-get install -y -q "${missing[@]}"; }
fi
