#!/usr/bin/env bash
# Everything that needs a real GPU, for a machine with one. A machine without a package archive
# needs the build's Debian packages unpacked first (`source .debs/unpack.sh`, which sets the
# include and library paths): GoogleTest, Boost.Context, nlohmann-json, CLI11, libzstd-dev.
#
#   scripts/gpu-check.sh [all|build|test|traces|bench|sanitize]...   (default: all but sanitize)
#
# build     cmake with the GUI off, for the GPU's architecture (COOPVIZ_GPU_ARCH, default 90)
# test      every test, including the `gpu`-labelled ones, for real
# traces    every lesson on the GPU: checks, a comparison with the emulator, and a saved trace
# bench     the GPU benchmarks (recorder throughput, reductions against CUB, occupancy sweep)
# sanitize  compute-sanitizer memcheck, racecheck and synccheck over every lesson
#
# Results go to $OUT (or ./gpu-out): summary.txt, logs.tar.gz, traces.tar.gz, reduce-last.json.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT/logs"
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(build test traces bench)
want() { for s in "${steps[@]}"; do [ "$s" = all ] || [ "$s" = "$1" ] && return 0; done; return 1; }
summary="$OUT/summary.txt"
say() { echo "$*" | tee -a "$summary"; }

[ -f .debs/unpack.sh ] && source .debs/unpack.sh >/dev/null
jobs=$(nproc)
B=build-gpu
C=$B/app/coopviz

say "== coopviz gpu-check $(date -u +%Y-%m-%dT%H:%M:%SZ): ${steps[*]}"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | sed 's/^/gpu: /' | tee -a "$summary"

if want build; then
  t0=$(date +%s)
  cmake -S . -B $B -DCOOPVIZ_GUI=OFF -DCOOPVIZ_TESTS=ON -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${COOPVIZ_GPU_ARCH:-90}" > "$OUT/logs/build.log" 2>&1 &&
    cmake --build $B -j "$jobs" >> "$OUT/logs/build.log" 2>&1
  rc=$?
  say "build: rc=$rc in $(( $(date +%s) - t0 )) s"
  [ $rc -eq 0 ] || { tail -40 "$OUT/logs/build.log"; exit 1; }
fi

if want test; then
  (cd $B && ctest --output-on-failure -j 8 > "$OUT/logs/ctest.log" 2>&1)
  say "ctest (every label): $(grep -E 'tests passed|tests failed' "$OUT/logs/ctest.log")"
  (cd $B && ctest -L gpu --output-on-failure -V > "$OUT/logs/ctest-gpu.log" 2>&1)
  say "ctest -L gpu: $(grep -E 'tests passed|tests failed' "$OUT/logs/ctest-gpu.log")"
  grep -E "\(Failed\)|\(Skipped\)" "$OUT/logs/ctest-gpu.log" | sed 's/^/  /' | tee -a "$summary"
  grep -ohE "(occupancy agreement|potential block size agreement|resource table agreement)[^\"]*" \
    "$OUT/logs/ctest-gpu.log" | sort -u | sed 's/^/  /' | tee -a "$summary"
fi

if want traces; then
  mkdir -p "$OUT/traces"
  for lesson in $($C list | awk '/^[a-z]/ {print $1}'); do
    $C run "$lesson" --backend gpu --compare --trace "$OUT/traces/$lesson.cvt" --json \
      > "$OUT/traces/$lesson.json" 2> "$OUT/logs/run-$lesson.err"
    rc=$?
    agree=$(grep -o '"agree": [a-z]*' "$OUT/traces/$lesson.json" | head -1)
    say "lesson $lesson: rc=$rc $(grep -o '"passed": [a-z]*' "$OUT/traces/$lesson.json" | tail -1) ${agree:-(checks only)} $(grep -m1 -o '"error": "[^"]*' "$OUT/traces/$lesson.json")"
  done
  tar -C "$OUT" -czf "$OUT/traces.tar.gz" traces && rm -rf "$OUT/traces"
fi

if want bench; then
  $C bench trace --json > "$OUT/logs/bench-trace.json" 2>&1
  say "bench trace: rc=$? $(tr -d '\n ' < "$OUT/logs/bench-trace.json" | grep -oE '"events":[0-9]+|"traced_kernel_ms":[0-9.]+|"traced_over_untraced":[0-9.]+|"pass":[a-z]+' | tr '\n' ' ')"
  $C bench reduce --n 268435456 --sweep > "$OUT/logs/bench-reduce.txt" 2>/dev/null
  say "bench reduce: rc=$?"
  grep -E "^(best|goal|copy bandwidth|tuned|cub) " "$OUT/logs/bench-reduce.txt" | sed 's/^/  /' | tee -a "$summary"
  $C bench reduce --n 268435456 --sweep --json > "$OUT/reduce-last.json" 2>/dev/null
  $C bench occupancy --json > "$OUT/logs/bench-occupancy.json" 2>&1
  say "bench occupancy: rc=$? $(grep -o '"seconds": [0-9.]*' "$OUT/logs/bench-occupancy.json")"
fi

if want sanitize; then
  # Every lesson under each tool, four at a time, each run killed after 60 s so that one stuck
  # kernel cannot stall the rest. Lessons with cooperative or cluster launches go last. The race
  # lesson must make racecheck report its shared-memory race; every other lesson must be clean.
  lessons=$($C list | awk '/^[a-z]/ {print $1}' | grep -vE '^(grid-sync|clusters|reduction-performance|split-barriers)$')
  lessons="$lessons grid-sync split-barriers reduction-performance clusters"
  sanitize_one() {  # tool lesson
    log="$OUT/logs/$1-$2.log"
    timeout -s KILL 60 compute-sanitizer --tool "$1" --print-limit 20 $C run "$2" --backend gpu \
      > "$log" 2>&1
    echo "$1 $2: rc=$? $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)"
  }
  export -f sanitize_one
  export OUT C
  for tool in memcheck racecheck synccheck; do
    for lesson in $lessons; do echo "$tool $lesson"; done
  done | xargs -P 4 -L 1 bash -c 'sanitize_one "$0" "$1"' | tee -a "$summary"
fi

tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
say "== done"
