#!/usr/bin/env bash
# Set-up command (b): install what is missing, build, and run every test with ctest.
# GUI tests render under a virtual X server; GPU tests skip where there is no device.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh -DCOOPVIZ_GUI=ON -DCOOPVIZ_TESTS=ON
cd build
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" ctest --output-on-failure -j "$(nproc)"
fi
exec ctest --output-on-failure -j "$(nproc)"
