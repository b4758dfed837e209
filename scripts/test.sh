#!/usr/bin/env bash
# Builds ropekit and runs the whole test suite: a release build, a build with
# AddressSanitizer and UndefinedBehaviorSanitizer (which also counts validation checks, for
# test_checks_once), the tests of threads, streams, executors and graph sessions (labels
# core, runtime, aclnn, ge) under ThreadSanitizer, and the fuzz targets (tests/fuzz) for a
# bounded time each in a clang build.
# The Python tests run in the project's environment (build-venv), into which
# `pip install .` installs the package first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
py=$(scripts/python_env.sh build-venv) # numpy, pytest, torch==2.13.0 and `pip install .`
jobs=$(nproc)
run_suite() {
  local dir=$1 labels=$2; shift 2
  cmake -S . -B "$dir" -DROPEKIT_PYTHON="$py" "$@"
  cmake --build "$dir" -j"$jobs"
  (cd "$dir" && ctest --output-on-failure -j"$jobs" ${labels:+-L "$labels"})
}
run_suite build-test "" -DCMAKE_BUILD_TYPE=Release
run_suite build-asan "" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROPEKIT_SANITIZE=ON -DROPEKIT_COUNT_CHECKS=ON
# ThreadSanitizer cannot follow threads started in a forked child unless told to.
TSAN_OPTIONS="die_after_fork=0 halt_on_error=1" \
  run_suite build-tsan "core|runtime|aclnn|ge" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DROPEKIT_SANITIZE_THREAD=ON -DROPEKIT_BUILD_EXAMPLES=OFF -DROPEKIT_BUILD_TOOLS=OFF
# The fuzz targets (label fuzz): a clang build with ASan+UBSan and libFuzzer, each target
# replaying its regression inputs, then fuzzing for ROPEKIT_FUZZ_SECONDS from its corpus.
CC=clang CXX=clang++ run_suite build-fuzz fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROPEKIT_FUZZ=ON \
  -DROPEKIT_BUILD_TESTS=OFF -DROPEKIT_BUILD_EXAMPLES=OFF -DROPEKIT_BUILD_TOOLS=OFF
echo "ropekit: all tests passed (release, ASan/UBSan, TSan and fuzz builds)"
