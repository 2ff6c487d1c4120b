#!/usr/bin/env bash
# Builds coopviz's host code with AddressSanitizer and UBSan into build-asan/ and runs the whole
# ctest suite under them: any invalid access, leak or undefined operation fails its test.
#
# Usage: scripts/sanitize.sh [ctest arguments...]     e.g. scripts/sanitize.sh -R TraceFile
#   JOBS=N   parallel build and test jobs (default: the number of cores)
#
# - The C++ host code (device library, emulator, lessons' CPU side, timeline models, command
#   line, tests) is compiled with -fsanitize=address,undefined at -O1. The .cu files go through
#   nvcc and are not instrumented; without a GPU the `gpu` tests skip as they do everywhere.
# - The desktop app's window is left out (COOPVIZ_GUI=OFF): it runs on the system's OpenGL and
#   GLFW, which are not built for the sanitizers. The models behind its views (timeline,
#   playback, memory and collective views, occupancy panel) are plain C++ and are checked.
# - The emulator runs emulated threads on Boost.Context fibers. The scheduler announces every
#   stack switch to ASan and the stack pool clears a recycled stack's shadow
#   (device/emu/asan_fibers.hpp), and a launch torn down after a fault unwinds its suspended
#   fibers through those same switches; so fibers are checked like threads, use of a returned
#   frame included (detect_stack_use_after_return=1, which makes the run about four times slower).
# - Errors halt at the first report (halt_on_error) and leaks are checked at exit (detect_leaks).
# The tools that run during the build (the kernel lowering and resource-report generators) are
# instrumented too and run under the same options.
#
# This is a separate, slower run (a full build, then the suite in about four minutes on two
# cores); it is not part of scripts/test.sh or CI.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=${JOBS:-$(nproc)}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=report_objects=0

# The GPU code is never run here, so one architecture (no PTX) is enough to link.
cmake -S . -B build-asan -DCMAKE_CUDA_COMPILER="$cuda_home/bin/nvcc" \
  -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -g $sanitize" \
  -DCMAKE_CUDA_FLAGS_SANITIZE="-O2" -DCMAKE_EXE_LINKER_FLAGS="$sanitize" \
  -DCMAKE_CUDA_ARCHITECTURES=90-real -DCOOPVIZ_GUI=OFF -DCOOPVIZ_TESTS=ON
cmake --build build-asan -j "$jobs"
cd build-asan
exec ctest --output-on-failure -j "$jobs" "$@"
