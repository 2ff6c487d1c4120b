#!/usr/bin/env bash
# GUI test: `coopviz gui --script` drives the live window. Every step of three lessons shows its
# own launch, colouring and tab and keeps its promise; changing the block size re-runs the lesson
# (the thread count and the picture change), a bad size is refused at the field with its limit,
# the demo window and presentation mode render, and the last lesson and step are remembered in
# the settings file for the next start.
#   walkthrough_test.sh COOPVIZ PNG_CHECK SCRIPT OUT_DIR
set -euo pipefail
coopviz=$1 png_check=$2 script=$3 out=$4
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out" && cd "$out"
"$coopviz" gui --script "$script" --settings "$out/settings.json" | tee walk.log
grep -q "threads 1024" walk.log || { echo "FAIL: no run with 1024 threads"; exit 1; }
grep -q "launch panel refuses block: .*power-of-two block of at most 1024 threads: got 100" walk.log ||
  { echo "FAIL: the bad block size was not refused with its limit"; exit 1; }
for f in walk-groups-and-ranks walk-warp-collectives walk-split-barriers walk-before walk-after \
         walk-barriers walk-error walk-demo walk-presentation; do
  "$png_check" "$f.png" 1024 640
done
"$png_check" --differ walk-before.png walk-after.png
"$png_check" --differ walk-barriers.png walk-error.png
"$png_check" --differ walk-demo.png walk-presentation.png

# The settings file remembers lesson and step; the next start comes back to them.
grep -q '"step": 2' settings.json || { echo "FAIL: step not saved"; cat settings.json; exit 1; }
printf 'expect lesson block-reduce\nexpect step 3\nquit\n' > again.txt
"$coopviz" gui --script again.txt --settings "$out/settings.json"
# A script error fails the run and names the line.
printf 'lesson block-reduce\nexpect threads 7\nquit\n' > bad.txt
if "$coopviz" gui --script bad.txt --settings "$out/bad-settings.json" 2> bad.err; then
  echo "FAIL: a failed expectation passed"; exit 1
fi
grep -q "script line 2: expected threads 7" bad.err || { cat bad.err; exit 1; }
echo "walkthrough ok"
