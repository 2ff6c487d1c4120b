#!/usr/bin/env bash
# GUI test: nothing is lost or fails silently.
# - --backend gpu without a GPU: the app keeps running, explains what happened (a screenshot of
#   it is taken) and its two ways on work: the emulator, and a trace recorded earlier (found
#   under $COOPVIZ_ASSETS/traces, else the one shipped in assets/traces). With a GPU the run
#   simply succeeds.
# - A refused trace capacity names its limits; a tiny one makes the run drop events, which the
#   app counts and shows.
# - A failed Export PNG and a failed settings save say why.
#   fallback_test.sh COOPVIZ PNG_CHECK OUT_DIR
set -euo pipefail
coopviz=$1 png_check=$2 out=$3
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out/assets/traces" && cd "$out"
fail() { echo "FAIL: $*"; exit 1; }

# What this machine's GPU (or its absence) should be called.
devices=$("$coopviz" devices --json)
if grep -q '"gpu_error"' <<< "$devices"; then
  if grep -q 'no NVIDIA driver' <<< "$devices"; then problem=no-driver
  elif grep -q 'older than' <<< "$devices"; then problem=old-driver
  else problem=no-gpu; fi
  status=error
else
  problem=none status=ok
fi
echo "expected on this machine: problem $problem"

# A trace recorded earlier, found under $COOPVIZ_ASSETS (here made on the emulator, so it can be
# told apart from one that ships).
"$coopviz" run block-reduce --backend emu --trace "$out/assets/traces/block-reduce.cvt" > /dev/null

cat > gpu.txt <<SCRIPT
expect lesson block-reduce
expect status $status
expect problem $problem
print
screenshot fallback-gpu.png 1280x800
recover emulator
wait
expect status ok
expect problem none
expect trace-backend emu
screenshot fallback-emu.png 1280x800
backend gpu
wait
expect problem $problem
recover trace
expect replay yes
expect lesson block-reduce
expect trace-backend emu
screenshot fallback-trace.png 1280x800
quit
SCRIPT
COOPVIZ_ASSETS="$out/assets" "$coopviz" gui --lesson block-reduce --backend gpu \
  --script gpu.txt --settings "$out/s1.json" | tee gpu.log
for f in fallback-gpu fallback-emu fallback-trace; do "$png_check" "$f.png" 1280 800; done
"$png_check" --differ fallback-gpu.png fallback-emu.png
"$png_check" --differ fallback-emu.png fallback-trace.png

# A screenshot asked for on the GPU shows the same explanation, and says so.
"$coopviz" screenshot --lesson block-reduce --backend gpu --out screenshot-gpu.png 2> shot.err
"$png_check" screenshot-gpu.png 1280 800
if [ "$problem" != none ]; then
  grep -q "the run failed (the image shows why)" shot.err || fail "the failed run was not noted"
fi
if "$coopviz" screenshot --backend tpu --out never.png 2> bad.err; then
  fail "--backend tpu was accepted"
fi
grep -q "choose auto, gpu or emu" bad.err || fail "a bad --backend did not name the choices"

# Without $COOPVIZ_ASSETS the trace that ships with coopviz opens, and it was recorded on a GPU.
cat > shipped.txt <<SCRIPT
expect lesson grid-sync
expect problem $problem
recover trace
expect replay yes
expect lesson grid-sync
expect trace-backend gpu
print
screenshot fallback-shipped.png 1280x800
quit
SCRIPT
env -u COOPVIZ_ASSETS "$coopviz" gui --lesson grid-sync --backend gpu --script shipped.txt \
  --settings "$out/s5.json" | tee shipped.log
"$png_check" fallback-shipped.png 1280 800

# A recorded trace that cannot be read says why and leaves the app as it was.
cat > badtrace.txt <<SCRIPT
lesson block-reduce
recover trace $out/missing.cvt
expect replay no
quit
SCRIPT
"$coopviz" gui --script badtrace.txt --settings "$out/s2.json" | tee badtrace.log
grep -q "script: cannot open $out/missing.cvt" badtrace.log || fail "a missing trace was not explained"

# Trace capacity: refused values name the limits; a tiny capacity drops events, counted.
cat > capacity.txt <<SCRIPT
lesson block-reduce
capacity 0
capacity 99999999999
expect capacity 4194304
capacity 64
wait
expect capacity 64
expect dropped some
print
screenshot dropped.png 1280x800
capacity 4194304
wait
expect dropped 0
quit
SCRIPT
"$coopviz" gui --script capacity.txt --settings "$out/s3.json" | tee capacity.log
grep -q "refuses capacity: 0 is too small: trace capacity (events per launch) must be a whole number from 1 to 67108864" capacity.log ||
  fail "capacity 0 was not refused with its limits"
grep -q "refuses capacity: 99999999999 is too large: trace capacity .* from 1 to 67108864" capacity.log ||
  fail "a huge capacity was not refused"
grep -Eq "warning: [0-9]+ of [0-9]+ events were dropped: the trace had room for 64 per launch" \
  capacity.log || fail "the dropped events were not told with their count and the capacity"
"$png_check" dropped.png 1280 800

# Export PNG makes its folder; into a folder that cannot be made (a file stands where it would
# go), the notice says it failed, and why; a good one says the full path of the picture.
touch "$out/a-file"
cat > export.txt <<SCRIPT
lesson block-reduce
export $out/a-file/pictures
expect notice-error yes
export $out/new/pictures
expect notice-error no
quit
SCRIPT
"$coopviz" gui --script export.txt --settings "$out/s4.json" | tee export.log
ls "$out"/new/pictures/coopviz-block-reduce-*.png > /dev/null || fail "Export PNG wrote nothing"

# Settings that cannot be saved (a file where the folder should be) say why.
touch "$out/not-a-folder"
printf 'lesson block-reduce\nquit\n' > settings.txt
"$coopviz" gui --script settings.txt --settings "$out/not-a-folder/settings.json" 2> settings.err
grep -q "Settings not saved: cannot create the folder" settings.err ||
  { cat settings.err; fail "a failed settings save was not reported"; }
echo "fallback ok"
