#!/usr/bin/env bash
# Checks an installed coopviz (under PREFIX: from `cmake --install`, or a .deb unpacked): its
# files are there, and the binary, started from / with no COOPVIZ_* overrides and its own HOME,
# lists the lessons, runs one on the emulator, builds and runs a user's own CUDA program, checks
# an exercise's starter, and replays a lesson's trace recorded on a GPU (GUI=ON; under a virtual X
# server when there is no display). The desktop entry is valid and the icons are there.
#   check_installed.sh PREFIX SOURCE_DIR WORK_DIR GUI(ON|OFF)
set -euo pipefail
prefix=$1 source=$2 work=$3 gui=$4
if [ "$gui" = ON ] && [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi
mkdir -p "$work/home" "$work/program"
trap 'rm -rf "$work/home"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

share=$prefix/share/coopviz
for f in bin/coopviz bin/coopviz-frontend lib/coopviz/libcoopviz_byo_runtime.a lib/coopviz/libcoopviz_byo_gpu_runtime.a \
         lib/coopviz/libcoopviz_emu.a lib/coopviz/libcoopviz_gpu.a lib/coopviz/libcoopviz_launch.a \
         lib/coopviz/libcoopviz_occupancy.a lib/coopviz/libcoopviz_trace.a \
         share/coopviz/traces/grid-sync.cvt \
         share/coopviz/include/device/byo/include/cuda_runtime.h \
         share/coopviz/include/device/byo/gpu_include/cooperative_groups.h \
         share/coopviz/lessons/block_reduce/lesson.md share/coopviz/programs/runtime_calls.cu \
         share/applications/coopviz.desktop \
         share/icons/hicolor/scalable/apps/coopviz.svg share/icons/hicolor/256x256/apps/coopviz.png; do
  [ -e "$prefix/$f" ] || fail "$f was not installed"
done
# The window's fonts are the system's font packages, linked: what a build without the window
# (a GPU machine's) has no need of.
if [ "$gui" = ON ] && [ ! -e "$prefix/share/coopviz/fonts/dejavu/DejaVuSans.ttf" ]; then
  fail "share/coopviz/fonts/dejavu/DejaVuSans.ttf was not installed"
fi
if command -v desktop-file-validate > /dev/null; then
  desktop-file-validate "$prefix/share/applications/coopviz.desktop"
fi

# The installed binary as a user starts it: from elsewhere, nothing pointing into the trees.
coopviz() {
  (cd / && env -u COOPVIZ_ASSETS -u XDG_CACHE_HOME -u XDG_CONFIG_HOME \
     HOME="$work/home" "$prefix/bin/coopviz" "$@")
}
coopviz list > "$work/list.txt"
grep -q "^block-reduce " "$work/list.txt" || fail "coopviz list does not list block-reduce"
coopviz run block-reduce --backend emu > "$work/run.txt" || fail "coopviz run block-reduce failed"
grep -q "\[pass\]" "$work/run.txt" || fail "coopviz run block-reduce reported no checks"
echo "ok: list and run block-reduce"

# A user's own program, in a folder of its own: built against the installed headers and libraries.
cp "$source/tests/programs/grid_sync_sum.cu" "$work/program/"
coopviz run "$work/program/grid_sync_sum.cu" --backend emu > "$work/program.txt" ||
  { cat "$work/program.txt"; fail "the installed coopviz did not run a user's program"; }
grep -q "PASSED" "$work/program.txt" || fail "the user's program did not pass"
[ -d "$work/home/.cache/coopviz/programs" ] || fail "the program was not built in HOME's cache"
echo "ok: a user's program ran"

# The exercises install with their lessons: a student starts one and checks the starter.
coopviz exercise list > "$work/exercises.txt"
grep -q "^block-sum " "$work/exercises.txt" || fail "coopviz exercise list does not list block-sum"
coopviz exercise start block-sum --out "$work/exercise" > /dev/null
status=0
coopviz exercise check block-sum "$work/exercise/starter.cu" > "$work/check.txt" || status=$?
[ "$status" = 1 ] && grep -q "^block-sum: failed" "$work/check.txt" ||
  { cat "$work/check.txt"; fail "the installed starter of block-sum was not checked (exit $status)"; }
echo "ok: an exercise started and checked"

# The example class pack installs, and checks against the installed lessons and exercises.
coopviz pack check "$share/packs/first-week.pack" > "$work/pack.txt" ||
  { cat "$work/pack.txt"; fail "the installed example pack does not check"; }
echo "ok: the example class pack checks"

# Where there is nvcc, the GPU build of a program finds every header it includes too (compiled,
# not run: no GPU is needed).
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$nvcc" ]; then
  { echo '#include "device/byo/gpu_runtime.cuh"'; cat "$work/program/grid_sync_sum.cu"; } \
    > "$work/program/gpu.cu"
  "$nvcc" -std=c++20 -arch=sm_90 -I"$share/include/device/byo/gpu_include" -I"$share/include" \
    -c "$work/program/gpu.cu" -o "$work/program/gpu.o"
  echo "ok: the GPU build of the program finds the installed headers"
fi

if [ "$gui" = ON ]; then
  # The trace that ships for grid-sync, recorded on a GPU, replays (as the app offers when the GPU
  # cannot run the lesson).
  cat > "$work/replay.txt" <<SCRIPT
lesson grid-sync
recover trace
expect replay yes
expect lesson grid-sync
expect trace-backend gpu
screenshot $work/replay.png 1024x640
quit
SCRIPT
  coopviz gui --script "$work/replay.txt" --settings "$work/settings.json" > "$work/replay.log" ||
    { cat "$work/replay.log"; fail "the shipped grid-sync trace did not replay"; }
  [ -s "$work/replay.png" ] || fail "no screenshot of the replayed trace"
  echo "ok: the shipped GPU trace of grid-sync replays"

  # A teacher copies a lesson folder out of the installed tree, changes its title, its default
  # launch and a step's text, and opens it by its path: no rebuild.
  cp -r "$share/lessons/block_reduce" "$work/my_reduce"
  rm -rf "$work/my_reduce/exercises"
  sed -i 's/"Reducing a block, then the grid"/"My reduction"/; s/"grid": \[8\]/"grid": [4]/' \
    "$work/my_reduce/lesson.json"
  sed -i 's/^### Every thread gets a rank$/### Every thread gets a rank of its own/' \
    "$work/my_reduce/lesson.md"
  coopviz run "$work/my_reduce" --backend emu > "$work/my_run.txt" ||
    { cat "$work/my_run.txt"; fail "the copied lesson folder did not run"; }
  grep -q "blocks: 4" "$work/my_run.txt" || fail "the copied lesson did not take its new default grid"
  coopviz steps "$work/my_reduce" > "$work/my_steps.txt" ||
    { cat "$work/my_steps.txt"; fail "the copied lesson's steps failed"; }
  grep -q "step 1: Every thread gets a rank of its own" "$work/my_steps.txt" ||
    fail "the copied lesson's edited step was not shown"
  cat > "$work/my_reduce.txt" <<SCRIPT
expect lesson block-reduce
screenshot $work/my_reduce.png 1024x640
quit
SCRIPT
  coopviz gui "$work/my_reduce" --script "$work/my_reduce.txt" --settings "$work/settings.json" \
    > "$work/my_gui.log" || { cat "$work/my_gui.log"; fail "the window did not open the copied lesson"; }
  [ -s "$work/my_reduce.png" ] || fail "no screenshot of the copied lesson"
  echo "ok: a lesson folder copied out of the installed tree and edited opens by its path"
fi
