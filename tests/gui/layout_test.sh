#!/usr/bin/env bash
# GUI test: every lesson's first step, and each step that shows data races, rendered at 1024x768,
# 1280x720, 1600x1000 and 1920x1080, in the normal and the presentation mode: no panel's content
# is cut off and the step's key view gets at least a third of the window (`coopviz layout-check`
# says where it is not).
#   layout_test.sh COOPVIZ PNG_CHECK OUT_DIR
set -euo pipefail
coopviz=$1 out=$3
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1920x1080x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out"
"$coopviz" layout-check | tee "$out/layout.log"
