#!/usr/bin/env bash
# Everything that needs a real GPU, for a machine with one. A machine without a package archive
# needs the build's Debian packages unpacked first (`source .debs/unpack.sh`, which sets the
# include and library paths): GoogleTest, Boost.Context, nlohmann-json, CLI11, libzstd-dev,
# libmd4c-dev and libmd4c0.
#
#   scripts/gpu-check.sh [all|build|test|traces|steps|bench|bench-trace|sass|gui|sanitize|ncu]...
#   (default: build test traces steps bench sass ncu)
#
# build     cmake for the GPU's architecture (COOPVIZ_GPU_ARCH, default 90), with the GUI on when
#           its libraries are there (scripts/device-debs.sh carries them; COOPVIZ_GPU_GUI=OFF
#           leaves it off), so that the app's state and `coopviz steps` are built
# test      every test, including the `gpu`-labelled ones, for real (gui-labelled ones: see gui)
# traces    every lesson on the GPU: checks, a comparison with the emulator, and a saved trace;
#           lessons that ship no trace in assets/traces/ yet are named
# steps     every step of every lesson applied with its runs on the GPU (`coopviz steps --backend
#           gpu --json`): the steps whose view breaks a promise, named (steps-gpu.json)
# bench     the GPU benchmarks (recorder throughput, reductions against CUB, occupancy sweep, and
#           programs' own cudaEvent timers under `coopviz run --backend gpu` against plain nvcc);
#           with COOPVIZ_BENCH_BEFORE=<an older coopviz> the recorder benchmark alternates
#           between that build and this one, three runs each (bench-trace: that one alone)
# sass      the SASS of a traced block barrier (reduction-performance's seed_atomic, sm_90), of this build
#           and of COOPVIZ_BENCH_BEFORE's: the timer reads around BAR.SYNC and the fence
# gui       the desktop app on this GPU, drawn by Mesa under Xvfb (a build with the GUI on; it
#           needs a display or Xvfb and GL libraries, see scripts/gpu-gui-env.sh): every
#           lesson's first and last step, the gui-labelled tests, and a walkthrough in which a
#           kernel faults and one runs past the time limit
# sanitize  compute-sanitizer memcheck, racecheck and synccheck over every lesson
# ncu       Nsight Compute's memory counters (global sectors and requests, shared-memory bank
#           conflicts and wavefronts) of every lesson and every test program (nvcc-built as it
#           is), beside the emulator's analysis of the same launches (`coopviz ncu-compare`), with
#           the agreement counted: ncu.tar.gz (each one's CSV, emulator report and comparison),
#           and lessons/<folder>/ncu.json to commit for each lesson that records memory
#           (COOPVIZ_NCU_LESSON_DIR writes them elsewhere). COOPVIZ_NCU_ONLY="name ..." limits it.
#           NCU names the profiler (default: ncu on PATH, else /usr/local/cuda/bin/ncu). Without
#           ncu, or without permission to read the GPU's counters, it says so and goes on.
#
# The C++ front end of the lowering (coopviz-frontend, tools/frontend) is not built there: the
# machine has Clang 16's libraries (/usr/lib/llvm-16: libclang-cpp16, libllvm16 and Clang's
# built-in headers) but not its development headers. Build it here and carry it with .debs:
#   strip -o .debs/coopviz-frontend build/app/coopviz-frontend
# `build` then puts it where the build's own would be. Without it, programs there are lowered
# line by line (with a note) and the launch-forms tests fail.
#
# COOPVIZ_BUILD_DIR uses a build made elsewhere (default build-gpu, made by `build`).
# Results go to $OUT (or ./gpu-out): summary.txt, logs.tar.gz, traces.tar.gz, reduce-last.json,
# sass.tar.gz, screenshots.tar.gz, ncu.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT/logs"
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(build test traces steps bench sass ncu)
want() { for s in "${steps[@]}"; do [ "$s" = all ] || [ "$s" = "$1" ] && return 0; done; return 1; }
summary="$OUT/summary.txt"
say() { echo "$*" | tee -a "$summary"; }

[ -f .debs/unpack.sh ] && source .debs/unpack.sh >/dev/null
jobs=$(nproc)
B=${COOPVIZ_BUILD_DIR:-build-gpu}
C=$B/app/coopviz

say "== coopviz gpu-check $(date -u +%Y-%m-%dT%H:%M:%SZ): ${steps[*]}"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | sed 's/^/gpu: /' | tee -a "$summary"

if want build; then
  t0=$(date +%s)
  frontend=OFF
  [ -f /usr/lib/llvm-16/include/clang/Tooling/Tooling.h ] && frontend=ON
  cmake -S . -B $B -DCOOPVIZ_GUI="${COOPVIZ_GPU_GUI:-ON}" -DCOOPVIZ_TESTS=ON -DCMAKE_BUILD_TYPE=Release \
    -DCOOPVIZ_FRONTEND=$frontend \
    -DCMAKE_CUDA_ARCHITECTURES="${COOPVIZ_GPU_ARCH:-90}" > "$OUT/logs/build.log" 2>&1 &&
    cmake --build $B -j "$jobs" >> "$OUT/logs/build.log" 2>&1
  rc=$?
  if [ $frontend = OFF ] && [ -x .debs/coopviz-frontend ]; then
    cp .debs/coopviz-frontend $B/app/coopviz-frontend
    frontend="carried ($(echo 'int main(){}' | $B/app/coopviz-frontend /tmp/probe.cu | head -1))"
  fi
  say "front end: $frontend"
  say "build: rc=$rc in $(( $(date +%s) - t0 )) s"
  [ $rc -eq 0 ] || { tail -40 "$OUT/logs/build.log"; exit 1; }
fi

if want test; then
  (cd $B && ctest --output-on-failure -j "$jobs" -LE 'gpu|gui' > "$OUT/logs/ctest.log" 2>&1)
  say "ctest (not gpu, not gui): $(grep -E 'tests passed|tests failed' "$OUT/logs/ctest.log")"
  grep -E "\(Failed\)|\(Timeout\)" "$OUT/logs/ctest.log" | sed 's/^/  /' | tee -a "$summary"
  # The launch-forms corpus on the GPU (tests/app/launch_forms_test.cpp): 46 small programs,
  # independent of one another, so several at once.
  forms=RunOnTheGpuAndPassTheirOwnCheck
  (cd $B && ctest -L gpu -R $forms -j "$jobs" --output-on-failure > "$OUT/logs/ctest-forms.log" 2>&1)
  say "launch forms on the GPU: $(grep -E 'tests passed|tests failed' "$OUT/logs/ctest-forms.log")"
  grep -E "\(Failed\)|\(Skipped\)" "$OUT/logs/ctest-forms.log" | sed 's/^/  /' | tee -a "$summary"
  (cd $B && ctest -L gpu -E $forms --output-on-failure -V > "$OUT/logs/ctest-gpu.log" 2>&1)
  say "ctest -L gpu: $(grep -E 'tests passed|tests failed' "$OUT/logs/ctest-gpu.log")"
  grep -E "\(Failed\)|\(Skipped\)" "$OUT/logs/ctest-gpu.log" | sed 's/^/  /' | tee -a "$summary"
  grep -ohE "(occupancy agreement|potential block size agreement|resource table agreement)[^\"]*" \
    "$OUT/logs/ctest-gpu.log" | sort -u | sed 's/^/  /' | tee -a "$summary"
  grep -ohE "time order, [^\"]*" "$OUT/logs/ctest-gpu.log" | sort -u | sed 's/^/  /' |
    tee -a "$summary"
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
  # A lesson written without a GPU ships no trace yet: the one just recorded is the one to add.
  missing=$(for lesson in $($C list | awk '/^[a-z]/ {print $1}'); do
    [ -f "assets/traces/$lesson.cvt" ] || printf ' %s' "$lesson"; done)
  say "lessons without a shipped GPU trace:${missing:- none}${missing:+ (add traces/<id>.cvt from traces.tar.gz to assets/traces/)}"
fi

if want steps; then
  if [ -x "$C" ] && $C steps --help > /dev/null 2>&1; then
    $C steps --backend gpu --json > "$OUT/steps-gpu.json" 2> "$OUT/logs/steps-gpu.err"
    rc=$?
    total=$(grep -c '"problems":' "$OUT/steps-gpu.json")
    broken=$(grep '"problems":' "$OUT/steps-gpu.json" | grep -vc '"problems": "ok"')
    on_emu=$(grep -c '"backend": "emu"' "$OUT/steps-gpu.json")
    say "steps on the GPU: rc=$rc, $((total - broken)) of $total steps keep their promise, $on_emu shown from the emulator (banner says why) $(head -c 300 "$OUT/logs/steps-gpu.err")"
    python3 - "$OUT/steps-gpu.json" <<'PY' | sed 's/^/  /' | tee -a "$summary"
import json, sys
for r in json.load(open(sys.argv[1])):
    if r["problems"] != "ok" or r["backend"] != "gpu":
        print(f'{r["lesson"]} step {r["step"]} on {r["backend"] or "nothing"}: {r["problems"]}'
              + (f' ({r["banner"]})' if r["backend"] != "gpu" else ''))
PY
  else
    say "steps on the GPU: this build has no 'steps' command (the GUI was off)"
  fi
fi

bench_trace() {  # binary label run
  "$1" bench trace --json > "$OUT/logs/bench-trace-$2-$3.json" 2>&1
  say "bench trace ($2, run $3): rc=$? $(tr -d '\n ' < "$OUT/logs/bench-trace-$2-$3.json" |
    grep -oE '"events_per_second":[0-9.e+]+|"traced_kernel_ms":[0-9.]+|"untraced_kernel_ms":[0-9.]+|"traced_over_untraced":[0-9.]+|"pass":[a-z]+' | tr '\n' ' ')"
}

if want bench || want bench-trace; then
  if [ -n "${COOPVIZ_BENCH_BEFORE:-}" ]; then
    for run in 1 2 3; do bench_trace "$COOPVIZ_BENCH_BEFORE" before $run; bench_trace $C after $run; done
  else
    bench_trace $C this 1
  fi
fi

if want bench; then
  $C bench reduce --n 268435456 --sweep > "$OUT/logs/bench-reduce.txt" 2>/dev/null
  say "bench reduce: rc=$?"
  grep -E "^(best|goal|copy bandwidth|tuned|cub) " "$OUT/logs/bench-reduce.txt" | sed 's/^/  /' | tee -a "$summary"
  $C bench reduce --n 268435456 --sweep --json > "$OUT/reduce-last.json" 2>/dev/null
  $C bench occupancy --json > "$OUT/logs/bench-occupancy.json" 2>&1
  say "bench occupancy: rc=$? $(grep -o '"seconds": [0-9.]*' "$OUT/logs/bench-occupancy.json")"
  # A program's own timed loop (its "Average time" line): plain nvcc against coopviz, target 1.5x.
  for prog in timed_reduction.cu tiled_matmul_timed.cu; do
    $C bench byo --timer --runs 3 --file tests/programs/timed/$prog > "$OUT/logs/bench-timer-$prog.txt" 2>&1
    say "bench byo --timer $prog: rc=$?"
    grep -E "plain nvcc|coopviz run|ratio|error" "$OUT/logs/bench-timer-$prog.txt" | sed 's/^/  /' | tee -a "$summary"
  done
fi

if want sass; then
  # The traced barrier as the GPU runs it: %globaltimer reads (CS2R ... SR_GLOBALTIMERLO), the
  # barrier (BAR.SYNC) and, since the fix, the fence that holds the departure read back.
  mkdir -p "$OUT/sass"
  sass_of() {  # binary file
    cuobjdump -sass -arch sm_90 "$1" 2>/dev/null |
      awk '/Function : .*reduction_performance.*seed_atomic/ {on=1} /Function : / && !/seed_atomic/ {on=0} on' \
        > "$OUT/sass/$2"
    say "sass $2: $(grep -cE 'GLOBALTIMER' "$OUT/sass/$2") timer reads, $(grep -cE 'BAR\.' "$OUT/sass/$2") barriers, $(grep -cE 'MEMBAR' "$OUT/sass/$2") fences"
    grep -E 'GLOBALTIMER|BAR\.|MEMBAR' "$OUT/sass/$2" | head -8 | sed 's#/\* 0x[0-9a-f]* \*/##; s/^ */  /' | tee -a "$summary"
  }
  sass_of $C seed_atomic-after.sass
  [ -n "${COOPVIZ_BENCH_BEFORE:-}" ] && sass_of "$COOPVIZ_BENCH_BEFORE" seed_atomic-before.sass
  tar -C "$OUT" -czf "$OUT/sass.tar.gz" sass && rm -rf "$OUT/sass"
fi

if want gui; then
  # Needs a display (Xvfb) whose GLX Mesa provides; CUDA runs on this machine's GPU meanwhile.
  shots="$OUT/screenshots"
  mkdir -p "$shots"
  $C list --json > "$shots/lessons.json"
  ids=$(sed -n 's/^ *"id": "\(.*\)",*$/\1/p' "$shots/lessons.json")
  counts=$(sed -n 's/^ *"steps": \([0-9]*\),*$/\1/p' "$shots/lessons.json")
  set -- $counts
  for id in $ids; do
    last=$1; shift
    for step in 1 "$last"; do
      $C screenshot --lesson "$id" --step "$step" --backend gpu --size 1280x800 \
        --out "$shots/$id-$step.png" > "$OUT/logs/shot-$id-$step.log" 2>&1
      say "screenshot $id step $step on the GPU: rc=$?"
    done
  done
  # A kernel that faults and one that spins past the limit, in the live app: it must say what
  # happened, keep running, and run the lesson on the emulator when asked.
  for failure in fault spin; do
    problem=$([ $failure = fault ] && echo fault || echo timeout)
    printf '%s\n' "expect lesson block-reduce" "expect status error" "expect problem $problem" \
      print "screenshot $shots/gui-$failure.png 1280x800" "recover emulator" wait \
      "expect status ok" "expect problem none" "expect trace-backend emu" \
      "screenshot $shots/gui-$failure-recovered.png 1280x800" quit > "$OUT/logs/gui-$failure.txt"
    COOPVIZ_TEST_GPU_FAILURE=$failure $C gui --lesson block-reduce --backend gpu \
      --script "$OUT/logs/gui-$failure.txt" --settings "$OUT/logs/gui-$failure.json" \
      > "$OUT/logs/gui-$failure.log" 2>&1
    say "gui walkthrough, kernel $failure: rc=$? $(grep -m1 -o 'error: [^,]*' "$OUT/logs/gui-$failure.log")"
  done
  (cd $B && ctest -L gui --output-on-failure > "$OUT/logs/ctest-gui.log" 2>&1)
  say "ctest -L gui: $(grep -E 'tests passed|tests failed' "$OUT/logs/ctest-gui.log")"
  tar -C "$OUT" -cf "$OUT/screenshots.tar" screenshots && rm -rf "$shots"
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

if want ncu; then
  # Every lesson runs twice with its default launch (no --grid, --block or --param), so both runs
  # launch the same kernels with the same grid, block and sizes: on the GPU under ncu, untraced
  # (the recorder's own stores would count as the kernels'), and on the emulator with every
  # access recorded. Every test program (tests/programs/*.cu, and a lesson's plain CUDA twin
  # lessons/<folder>/<folder>.cu) is built by nvcc as it is, with nothing of coopviz in it, and
  # profiled the same way beside `coopviz run FILE.cu --record-memory --json`.
  NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
  NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  lesson_dir=${COOPVIZ_NCU_LESSON_DIR:-lessons}
  mkdir -p "$OUT/ncu/bin"
  gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
  # Global sectors and requests, shared bank conflicts and wavefronts, loads and stores: the
  # l1tex__... metrics the comparison reads, as the comparison itself lists them.
  metrics=$($C ncu-compare --metrics)
  # COOPVIZ_NCU_ONLY="id-or-program ..." profiles only those (a lesson's id, a program's name
  # without .cu); by default every lesson and every test program.
  ncu_lessons=${COOPVIZ_NCU_ONLY-$($C list --json | awk -F'"' '/"id":/ {print $4}')}
  ncu_programs=()
  for f in tests/programs/*.cu lessons/*/*.cu; do
    name=$(basename "$f" .cu)
    case $f in lessons/*) [ "$name" = "$(basename "$(dirname "$f")")" ] || continue ;; esac
    if [ -n "${COOPVIZ_NCU_ONLY+set}" ]; then
      case " $COOPVIZ_NCU_ONLY " in *" $name "*) ;; *) continue ;; esac
    fi
    ncu_programs+=("$f")
  done
  declare -A agreed counted
  # One comparison: its counters that agree and all of them, from ncu-compare's own lines.
  compare() {  # name, ncu csv, emulator json, ncu.json to write
    local name=$1 csv=$2 emu=$3 out_json=$4
    $C ncu-compare --ncu "$csv" --emulator "$emu" --device "${gpu_name:-a GPU}" \
      --out "$out_json" > "$OUT/ncu/$name.txt" 2>&1
    local rc=$? agree total launches
    agree=$(grep -cE ' agree$' "$OUT/ncu/$name.txt")
    total=$(grep -cE ' (agree|DIFFER: .*)$' "$OUT/ncu/$name.txt")
    launches=$(grep -cE '^[^ ].*\(launch [0-9]+\)' "$OUT/ncu/$name.txt")
    agreed[$name]=$agree counted[$name]=$total
    say "ncu $name: rc=$rc, $agree of $total counters agree over $launches launches$([ $rc -eq 0 ] && echo ' (every counter agrees)')"
    grep -E "DIFFER|not profiled|error" "$OUT/ncu/$name.txt" | head -20 | sed 's/^/  /' | tee -a "$summary"
  }
  # Runs `ncu` on a command into NAME.csv; says why and fails when no counters came back.
  profile() {  # name, command...
    local name=$1; shift
    "$NCU" --csv --metrics "$metrics" --log-file "$OUT/ncu/$name.csv" "$@" > "$OUT/ncu/$name-gpu.log" 2>&1
    local rc=$?
    if grep -q "ERR_NVGPUCTRPERM" "$OUT/ncu/$name.csv" "$OUT/ncu/$name-gpu.log" 2>/dev/null; then
      say "ncu $name: skipped: no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM); run as root or load the driver with NVreg_RestrictProfilingToAdminUsers=0"
      return 2
    fi
    if ! grep -q '"Metric Name"' "$OUT/ncu/$name.csv" 2>/dev/null; then
      say "ncu $name: rc=$rc, no counters: $(grep -h -m1 'ERROR' "$OUT/ncu/$name.csv" "$OUT/ncu/$name-gpu.log" 2>/dev/null | head -1)"
      return 1
    fi
  }
  if [ ! -x "$NCU" ]; then
    say "ncu: skipped: Nsight Compute not found (looked for ncu on PATH and $NCU; set NCU=/path/to/ncu)"
  else
    say "ncu: $("$NCU" --version 2>&1 | tail -1), lessons:$(printf ' %s' $ncu_lessons), programs: ${#ncu_programs[@]}"
    denied=0
    for lesson in $ncu_lessons; do
      profile "$lesson" $C run "$lesson" --backend gpu --untraced
      case $? in 2) denied=1; break ;; 1) continue ;; esac
      emu="$OUT/ncu/$lesson-emu.json"
      $C run "$lesson" --backend emu --record-memory --json > "$emu" 2> "$OUT/ncu/$lesson-emu.err"
      # The lesson's folder: the one whose lesson.json has its id.
      folder=$(dirname "$(grep -lE "\"id\": *\"$lesson\"" lessons/*/lesson.json 2>/dev/null | head -1)")
      # A lesson that records memory keeps its comparison (the Memory tab shows it); the others'
      # stay in ncu.tar.gz.
      out_json="$OUT/ncu/$lesson-ncu.json"
      if $C list --json | awk -F'"' -v id="$lesson" '/"id":/ {cur=$4} /"records_memory": true/ && cur == id {found=1} END {exit !found}'; then
        out_json="$lesson_dir/$(basename "$folder")/ncu.json"
        mkdir -p "$(dirname "$out_json")"
      fi
      compare "$lesson" "$OUT/ncu/$lesson.csv" "$emu" "$out_json"
      [ -f "$out_json" ] && [ "$out_json" != "$OUT/ncu/$lesson-ncu.json" ] && cp "$out_json" "$OUT/ncu/$lesson-ncu.json"
    done
    if [ $denied -eq 0 ] && [ ${#ncu_programs[@]} -gt 0 ]; then
      arch=${COOPVIZ_GPU_ARCH:-90}
      # nvcc builds are the slow part: all at once, then profiled one at a time.
      printf '%s\n' "${ncu_programs[@]}" | xargs -P "$jobs" -I{} sh -c \
        "'$NVCC' -O3 -std=c++17 -arch=sm_$arch -Itests/programs -Ilessons/lesson_protocol -o '$OUT/ncu/bin/'\$(basename {} .cu) {} > '$OUT/ncu/'\$(basename {} .cu)-nvcc.log 2>&1"
      for f in "${ncu_programs[@]}"; do
        name=$(basename "$f" .cu)
        if [ ! -x "$OUT/ncu/bin/$name" ]; then
          say "ncu $name: nvcc failed: $(grep -m1 error "$OUT/ncu/$name-nvcc.log")"
          continue
        fi
        profile "$name" "$OUT/ncu/bin/$name" || continue
        # Every launch, as ncu profiles every launch.
        $C run "$f" --backend emu --record-memory --trace-launches all --json > "$OUT/ncu/$name-emu.json" 2> "$OUT/ncu/$name-emu.err"
        compare "$name" "$OUT/ncu/$name.csv" "$OUT/ncu/$name-emu.json" "$OUT/ncu/$name-ncu.json"
      done
    fi
    a=0 t=0 all=0 whole=0
    for name in "${!counted[@]}"; do
      a=$((a + agreed[$name])) t=$((t + counted[$name])) all=$((all + 1))
      [ "${agreed[$name]}" = "${counted[$name]}" ] && whole=$((whole + 1))
    done
    say "ncu agreement: $a of $t counters agree; $whole of $all lessons and programs agree on every counter"
  fi
  rm -rf "$OUT/ncu/bin"
  tar -C "$OUT" -czf "$OUT/ncu.tar.gz" ncu && rm -rf "$OUT/ncu"
fi

tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
say "== done"
