#!/usr/bin/env bash
# The project's one Python environment: a virtual environment at $1 (default build-venv)
# made from the machine's python3, with the test tools and torch pinned to the release the
# project is tested on, and this source tree installed into it (`pip install .`).
# Prints the environment's python. Run from anywhere; repeated runs reuse the environment
# and reinstall the package.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-build-venv}
# torch 2.13.0 is the tested release; an unpinned torch would pull a multi-GB CUDA build.
pins=(torch==2.13.0 numpy pytest)
if [[ ! -x "$venv/bin/python" ]]; then
  if ! python3 -m venv "$venv" >&2; then # Debian's own python3 needs its venv package
    rm -rf "$venv"
    sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q python3-venv >&2
    python3 -m venv "$venv" >&2
  fi
fi
py=$PWD/$venv/bin/python
if ! "$py" -c "import torch, numpy, pytest; assert torch.__version__.startswith('2.13.0')" \
    2>/dev/null; then
  "$py" -m pip install -q --disable-pip-version-check "${pins[@]}" >&2
fi
"$py" -m pip install -q --disable-pip-version-check ".[torch]" >&2
echo "$py"
