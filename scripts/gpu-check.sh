#!/usr/bin/env bash
# Everything that needs a real GPU, in one go (for the lent GPU machine, see docs/gpu-machine.md):
# build with the GUI off, run every test including the `gpu` ones for real, record a trace of
# every lesson on the GPU, and run the benchmarks. Results go to $OUT (or ./gpu-out).
#
#   scripts/gpu-check.sh [all|build|test|traces|bench]...
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(all)
want() { for s in "${steps[@]}"; do [ "$s" = all ] || [ "$s" = "$1" ] && return 0; done; return 1; }
summary="$OUT/summary.txt"
say() { echo "$*" | tee -a "$summary"; }

[ -f .debs/unpack.sh ] && source .debs/unpack.sh >/dev/null
jobs=$(nproc)
B=build-gpu

say "== coopviz gpu-check $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | sed 's/^/gpu: /' | tee -a "$summary"

if want build; then
  t0=$(date +%s)
  cmake -S . -B $B -DCOOPVIZ_GUI=OFF -DCOOPVIZ_TESTS=ON -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${COOPVIZ_GPU_ARCH:-90}" > "$OUT/build.log" 2>&1 &&
    cmake --build $B -j "$jobs" >> "$OUT/build.log" 2>&1
  rc=$?
  say "build: rc=$rc in $(( $(date +%s) - t0 )) s"
  [ $rc -eq 0 ] || { tail -40 "$OUT/build.log"; exit 1; }
fi

if want test; then
  (cd $B && ctest --output-on-failure -j 4 > "$OUT/ctest.log" 2>&1)
  rc=$?
  say "ctest (all labels): rc=$rc; $(grep -E 'tests passed|tests failed' "$OUT/ctest.log")"
  (cd $B && ctest -L gpu --output-on-failure > "$OUT/ctest-gpu.log" 2>&1)
  say "ctest -L gpu: $(grep -E 'tests passed|tests failed' "$OUT/ctest-gpu.log")"
  grep -E "Skipped|\(Failed\)" "$OUT/ctest-gpu.log" | head -20 | tee -a "$summary"
  # The occupancy model against the CUDA runtime: the agreement counts.
  $B/tests/coopviz_tests --gtest_filter='OccupancyGpu.*:KernelResourcesGpu.*' \
    > "$OUT/occupancy-gpu.log" 2>&1
  grep -E "agreement|FAILED|PASSED" "$OUT/occupancy-gpu.log" | tee -a "$summary"
fi

if want traces; then
  mkdir -p "$OUT/traces"
  for lesson in $($B/app/coopviz list | awk '/^[a-z]/ {print $1}'); do
    $B/app/coopviz run "$lesson" --backend gpu --trace "$OUT/traces/$lesson.cvt" --json \
      > "$OUT/traces/$lesson.json" 2>&1
    say "trace $lesson: rc=$? $(grep -o '"passed": [a-z]*' "$OUT/traces/$lesson.json")"
  done
  tar -C "$OUT" -czf "$OUT/traces.tar.gz" traces && rm -rf "$OUT/traces"
fi

if want bench; then
  for b in $($B/app/coopviz bench --list 2>/dev/null); do
    $B/app/coopviz bench "$b" --json > "$OUT/bench-$b.json" 2>&1
    say "bench $b: rc=$?"
  done
fi
say "== done"
