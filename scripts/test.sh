#!/usr/bin/env bash
# Builds ropekit and runs the whole test suite twice: a release build, then a build
# with AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
jobs=$(nproc)
run_suite() {
  local dir=$1; shift
  cmake -S . -B "$dir" "$@"
  cmake --build "$dir" -j"$jobs"
  (cd "$dir" && ctest --output-on-failure -j"$jobs")
}
run_suite build-test -DCMAKE_BUILD_TYPE=Release
run_suite build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROPEKIT_SANITIZE=ON
echo "ropekit: all tests passed (release and sanitizer builds)"
