#!/usr/bin/env bash
# Configures and builds coopviz into ./build (extra arguments go to cmake).
set -euo pipefail
cd "$(dirname "$0")/.."
cuda_home=${CUDA_HOME:-/usr/local/cuda}
cmake -S . -B build -DCMAKE_CUDA_COMPILER="$cuda_home/bin/nvcc" "$@"
cmake --build build -j "$(nproc)"
