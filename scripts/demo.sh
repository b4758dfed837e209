#!/usr/bin/env bash
# Builds ropekit and runs `ropekit demo` (the official CANN example configurations in
# every dtype, checked against a float64 reference).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DROPEKIT_BUILD_TESTS=OFF -DROPEKIT_BUILD_EXAMPLES=OFF
cmake --build build -j"$(nproc)" --target ropekit_tool
build/tools/ropekit demo "$@"
