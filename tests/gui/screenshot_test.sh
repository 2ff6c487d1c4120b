#!/usr/bin/env bash
# GUI test: `coopviz screenshot` renders every lesson's first and last step; each image has the
# requested size, is not blank, and the two steps look different. A saved trace replays. Bad
# arguments fail clearly.
# Without a display it re-runs itself under a virtual X server.
#   screenshot_test.sh COOPVIZ PNG_CHECK OUT_DIR
set -euo pipefail
coopviz=$1 png_check=$2 out=$3
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi
mkdir -p "$out"

# Clear errors naming the bad value and the limit, non-zero exit, no image.
expect_error() {  # expected-text, then the arguments
  local want=$1; shift
  if "$coopviz" screenshot "$@" > "$out/err.txt" 2>&1; then
    echo "FAIL: coopviz screenshot $* succeeded"; exit 1
  fi
  grep -q -- "$want" "$out/err.txt" || { echo "FAIL: '$want' not in:"; cat "$out/err.txt"; exit 1; }
  echo "ok: $* -> $(head -1 "$out/err.txt")"
}
expect_error "between 200 and 8192" --out "$out/x.png" --size 100x800
expect_error "not of the form" --out "$out/x.png" --size 1280
expect_error "unknown lesson 'nope'" --lesson nope --out "$out/x.png"
expect_error "has steps 1 to" --lesson block-reduce --step 99 --out "$out/x.png"

# Every lesson: first and last step.
"$coopviz" list --json > "$out/lessons.json"
ids=$(sed -n 's/^ *"id": "\(.*\)",*$/\1/p' "$out/lessons.json")
counts=$(sed -n 's/^ *"steps": \([0-9]*\),*$/\1/p' "$out/lessons.json")
set -- $counts
for id in $ids; do
  steps=$1; shift
  "$coopviz" screenshot --lesson "$id" --step 1 --size 1024x640 --out "$out/$id-first.png"
  "$png_check" "$out/$id-first.png" 1024 640
  "$coopviz" screenshot --lesson "$id" --step "$steps" --size 1024x640 --out "$out/$id-last.png"
  "$png_check" "$out/$id-last.png" 1024 640
  if [ "$steps" -gt 1 ]; then "$png_check" --differ "$out/$id-first.png" "$out/$id-last.png"; fi
done
# Replaying a saved trace runs nothing and still shows the lesson it came from.
"$coopviz" run block-reduce --backend emu --grid 4 --block 128 --trace "$out/saved.cvt" > /dev/null
"$coopviz" screenshot --trace "$out/saved.cvt" --step 2 --size 1024x640 --out "$out/replay.png"
"$png_check" "$out/replay.png" 1024 640
expect_error "not both" --trace "$out/saved.cvt" --lesson block-reduce --out "$out/x.png"
expect_error "cannot\|not a\|no such\|open" --trace "$out/missing.cvt" --out "$out/x.png"
echo "screenshots ok"
