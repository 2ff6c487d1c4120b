#!/usr/bin/env bash
# Set-up command (a): install what is missing, build, and start the coopviz desktop app.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh -DCOOPVIZ_GUI=ON
exec ./build/app/coopviz gui "$@"
