#!/usr/bin/env bash
# Set-up command (b): install what is missing, build, and run every test with ctest.
# GUI tests render under a virtual X server; GPU tests skip where there is no device.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh -DCOOPVIZ_GUI=ON -DCOOPVIZ_TESTS=ON
cd build
# A first run has no times of its own for ctest to start the longest tests first, and a long test
# started last runs alone at the end: it starts from the times of a whole run (tests/ctest-costs.txt;
# tests it does not name start after them). ctest keeps its own times from then on.
if [ ! -e Testing/Temporary/CTestCostData.txt ]; then
  mkdir -p Testing/Temporary
  cp ../tests/ctest-costs.txt Testing/Temporary/CTestCostData.txt
fi
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" ctest --output-on-failure -j "$(nproc)"
fi
exec ctest --output-on-failure -j "$(nproc)"
