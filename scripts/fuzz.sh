#!/usr/bin/env bash
# Fuzzes the parsers of untrusted input with libFuzzer under AddressSanitizer and UBSan:
#   trace   the trace loader: CBOR files of format 1 (raw events) and 2 (byte-shuffled, zstd-
#           compressed event blocks) and JSON; then finalize, the timeline and the headless models
#           behind the views, and a save/load round trip in both encodings
#   config  the launch options a student types (--grid, --block, --cluster, --smem, --param,
#           --emulate) and launch validation on every device preset
#
# Usage: scripts/fuzz.sh [seconds-per-target (default 600)] [target ...]     (default: both)
#   FUZZ_KEEP=1       merge inputs that add coverage into tests/fuzz/corpus/<target> afterwards
#   FUZZ_JOBS=N       libFuzzer worker processes per target (default 1)
#   CXX=clang++-14    the compiler (must ship libFuzzer: Debian's clang-14 does)
# Targets build into build-fuzz/ from the host sources they need (no nvcc); libzstd is the
# system's, uninstrumented. Inputs that add coverage go to build-fuzz/corpus/<target>, findings to
# build-fuzz/artifacts/<target>/; the repository's seeds (tests/fuzz/corpus/<target>: real traces
# of both formats, JSON, damaged files, and every input that once found a bug) are only read
# unless FUZZ_KEEP=1. Each run ends with libFuzzer's statistics (runs, cov, ft, corpus size).
# Exits non-zero if any target finds a crash, leak, timeout or failed check.
#
# Reproduce a finding: build-fuzz/<target>_fuzz build-fuzz/artifacts/<target>/<file>. Fix it in
# the product, add a GoogleTest case for it, and keep the input as tests/fuzz/corpus/<target>/
# regress-<what>.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(trace config)
cxx=${CXX:-clang++}
cuda_include=${CUDA_HOME:-/usr/local/cuda}/include
out=build-fuzz

flags=(-std=c++20 -g -O1 -fno-omit-frame-pointer
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -I. -isystem "$cuda_include" -DCOOPVIZ_VERSION=\"fuzz\")

sources_trace=(tests/fuzz/trace_fuzz.cpp device/trace/trace_file.cpp device/trace/trace_json.cpp
               device/trace/event_codec.cpp device/trace/trace.cpp device/trace/names.cpp
               device/launch/launch_config.cpp device/launch/launch_checks.cpp
               device/occupancy/occupancy.cpp device/occupancy/presets.cpp
               device/occupancy/sweep.cpp device/occupancy/block_schedule.cpp
               visual/timeline_model.cpp visual/thread_snapshot.cpp visual/barrier_timeline.cpp
               visual/memory_state.cpp visual/memory_order.cpp visual/collective_flow.cpp
               visual/event_text.cpp visual/playback.cpp visual/value_math.cpp
               visual/occupancy_panel_model.cpp)
sources_config=(tests/fuzz/config_fuzz.cpp device/launch/launch_config.cpp
                device/launch/launch_checks.cpp
                device/occupancy/occupancy.cpp device/occupancy/presets.cpp lessons/lesson.cpp)

./scripts/install-deps.sh
if ! command -v "$cxx" >/dev/null; then
  echo "coopviz: installing clang for $cxx (libFuzzer comes with it)"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends clang
fi

mkdir -p "$out"
status=0
for t in "${targets[@]}"; do
  src_var="sources_${t}[@]"
  if [ -z "${!src_var+x}" ]; then
    echo "unknown fuzz target '$t' (known: trace, config)" >&2
    exit 2
  fi
  echo "== building $out/${t}_fuzz"
  "$cxx" "${flags[@]}" "${!src_var}" -o "$out/${t}_fuzz" -lzstd

  work="$out/corpus/$t"
  artifacts="$out/artifacts/$t/"
  mkdir -p "$work" "$artifacts"
  args=(-rss_limit_mb=2048 -timeout=10 -max_total_time="$seconds" -print_final_stats=1
        -artifact_prefix="$artifacts")
  [ -f "tests/fuzz/$t.dict" ] && args+=(-dict="tests/fuzz/$t.dict")
  jobs=${FUZZ_JOBS:-1}
  [ "$jobs" -gt 1 ] && args+=(-jobs="$jobs" -workers="$jobs")
  echo "== $out/${t}_fuzz ${args[*]} $work tests/fuzz/corpus/$t"
  # The first corpus directory receives new inputs; the repository's seeds are only read.
  if ! ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
      "$out/${t}_fuzz" "${args[@]}" "$work" "tests/fuzz/corpus/$t"; then
    echo "!! $t: finding saved under $artifacts" >&2
    status=1
  fi
  if [ "${FUZZ_KEEP:-0}" = 1 ]; then
    "$out/${t}_fuzz" -merge=1 "tests/fuzz/corpus/$t" "$work"
  fi
done
exit $status
