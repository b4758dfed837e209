#!/usr/bin/env bash
# Fuzzes for longer than the test suite does: builds the fuzz targets (clang, ASan+UBSan,
# libFuzzer) in build-fuzz, runs each for SECONDS (default 1800) from its committed corpus
# and regression inputs, two at a time, then merges what they found into the committed
# corpus (tests/fuzz/corpus/<target>, minimised). A failing input is left in
# build-fuzz/long/<target>/ (crash-*, leak-*, oom-*, timeout-*): keep it as
# tests/fuzz/regressions/<target>/<name> with a unit test of the defect once fixed.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
seconds=${1:-1800}
shift || true
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROPEKIT_FUZZ=ON \
  -DROPEKIT_BUILD_TESTS=OFF -DROPEKIT_BUILD_EXAMPLES=OFF -DROPEKIT_BUILD_TOOLS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)"
targets=("$@")
if ((${#targets[@]} == 0)); then
  for f in build-fuzz/tests/fuzz/fuzz_*; do
    [[ -x $f && -f $f ]] && targets+=("$(basename "$f")")
  done
fi
run_one() {
  local t=$1 work=build-fuzz/long/$1
  mkdir -p "$work/new" "tests/fuzz/corpus/$t"
  local dirs=("$work/new" "tests/fuzz/corpus/$t")
  [[ -d tests/fuzz/regressions/$t ]] && dirs+=("tests/fuzz/regressions/$t")
  local rc=0
  "build-fuzz/tests/fuzz/$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 \
    -malloc_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$work/" "${dirs[@]}" \
    >"$work/log" 2>&1 || rc=$?
  "build-fuzz/tests/fuzz/$t" -merge=1 "tests/fuzz/corpus/$t" "$work/new" >>"$work/merge.log" 2>&1
  local stats
  stats=$(grep -E "^(#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::average_exec_per_sec)" \
    "$work/log" | tail -3 | tr '\n' ' ')
  echo "$t: exit $rc; $stats; corpus $(ls "tests/fuzz/corpus/$t" | wc -l) inputs"
  return $rc
}
status=0
jobs=$(( $(nproc) > 1 ? 2 : 1 ))
pids=()
for t in "${targets[@]}"; do
  run_one "$t" &
  pids+=($!)
  if ((${#pids[@]} >= jobs)); then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
