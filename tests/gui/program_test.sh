#!/usr/bin/env bash
# GUI test: a user's own program in the window (coopviz gui FILE.cu). The Launch panel shows the
# shown launch's grid and block; typing another block reruns the program with it (a launch
# override) without a save; an illegal one is refused in the field with its limit; "Program's
# own launch" is the program's shape again.
# Then a program file has what a lesson has (RACY: failing/lost_update.cu): its races and memory
# switches rerun it recording every access, and the Races and Memory views fill; what it printed
# ("FAILED") is in the window, as its own words; a save that does not compile shows the new
# source with the error line marked; and its state never leaks: a lesson opened meanwhile runs on
# its own edits and errors, and picking the program again shows the program as it was left.
# A program whose first build fails opens the window all the same, on its errors at their lines
# and no launch (a lesson shown meanwhile keeps it aside); saved fixed, it runs there.
#   program_test.sh COOPVIZ PNG_CHECK PROGRAM RACY OUT_DIR
set -euo pipefail
coopviz=$1 png_check=$2 program=$3 racy=$4 out=$5
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out" && cd "$out"

cat > override.txt <<SCRIPT
expect kernel tile_ranks
expect printed PASSED
expect block 128
expect grid 2
screenshot program-own.png 1280x800
block 64
wait
expect block 64
expect grid 2
expect threads 128
grid 4
wait
expect grid 4
expect threads 256
screenshot program-override.png 1280x800
block 4096
expect refused block
expect block 64
screenshot program-refused.png 1280x800
quit
SCRIPT
"$coopviz" gui --backend emu "$program" --script override.txt --settings settings.json \
  > override.log 2>&1 || { cat override.log; exit 1; }
grep -q "launch panel refuses block: tile_ranks=4/4096: block of 4096 threads (4096) exceeds the limit of 1024" override.log ||
  { cat override.log; echo "FAIL: the refusal does not name the limit"; exit 1; }
for f in program-own program-override program-refused; do "$png_check" "$f.png" 1280 800; done
"$png_check" --differ program-own.png program-override.png

# Started with --launch, the window shows the overridden shape from the first frame.
cat > started.txt <<SCRIPT
expect block 32
expect grid 8
quit
SCRIPT
"$coopviz" gui --backend emu "$program" --launch 'tile_ranks=8/32' --script started.txt \
  --settings settings.json > started.log 2>&1 || { cat started.log; exit 1; }

line=$(grep -n 'int v = \*c;' "$racy" | cut -d: -f1)
sed 's/int v = \*c;/int v = *counter;/' "$racy" > broken.cu
# Replaces own.cu with $2 once $1.png is written: the window is then waiting for that save.
save_after() {
  for _ in $(seq 1200); do [ -e "$1.png" ] && break; sleep 0.1; done
  cp "$2" own.new && mv own.new own.cu
}
# Runs the window on own.cu with script $1.txt (its output in $1.log) while the rest of the
# arguments, a command, save own.cu in the background; the script failing fails the test.
run_while_saving() {
  local name=$1 saver status=0
  shift
  "$@" &
  saver=$!
  "$coopviz" gui --backend emu own.cu --script "$name.txt" --settings settings.json \
    > "$name.log" 2>&1 || status=$?
  kill $saver 2>/dev/null || true
  wait $saver 2>/dev/null || true
  [ $status -eq 0 ] || { cat "$name.log"; exit 1; }
}

# Broken from the start: the window opens on the compiler's errors, not the terminal alone.
cp broken.cu own.cu
cat > first.txt <<SCRIPT
expect compile-errors $line
expect code saved
expect notice-error yes
expect kernel none
# A lesson meanwhile runs as its own; the program comes back as it was, broken.
lesson groups-and-ranks
wait
expect kernel where_am_i
expect code ran
program
expect kernel none
expect compile-errors $line
expect notice-error yes
screenshot first-broken.png 1024x768
wait saved
expect code ran
expect compile-errors none
expect kernel count
expect printed FAILED
screenshot first-fixed.png 1024x768
quit
SCRIPT
run_while_saving first save_after first-broken "$racy"
grep -q "own.cu:$line:.*error: .counter. was not declared" first.log ||
  { cat first.log; echo "FAIL: the first build's error is not in the terminal too"; exit 1; }
for f in first-broken first-fixed; do "$png_check" "$f.png" 1024 768; done
"$png_check" --differ first-broken.png first-fixed.png
# A file that does not exist is still the user's mistake, said and not opened.
status=0
"$coopviz" gui --backend emu missing.cu --settings settings.json > missing.log 2>&1 || status=$?
[ $status -eq 2 ] || { cat missing.log; echo "FAIL: gui missing.cu exited $status, not 2"; exit 1; }

cp "$racy" own.cu

cat > window.txt <<SCRIPT
expect kernel count
expect printed FAILED
expect accesses no
screenshot printed.png 1280x800
races on
wait
expect accesses yes
expect races some
screenshot races.png 1280x800
tab memory
expect tab memory
screenshot memory-1024.png 1024x768
# A lesson opened meanwhile runs on its own edits (once its run has landed, as a user types);
# its refusals stay its own.
lesson groups-and-ranks
wait
expect kernel where_am_i
expect races 0
block 4096
expect refused block
grid 3
wait
expect lesson groups-and-ranks
expect grid 3
expect kernel where_am_i
# Saved with a name never declared while the lesson is shown: the lesson stays as it is.
screenshot ready-to-break.png 1024x768
wait saved
expect lesson groups-and-ranks
expect kernel where_am_i
expect code ran
# The program again, as it was left: its launch, tab, output, switches, no lesson error; and
# the code view shows the file as saved, the error's line marked.
program
expect kernel count
expect tab memory
expect grid 4
expect block 64
expect refused none
expect printed FAILED
expect races some
expect notice-error yes
expect code saved
expect compile-errors $line
screenshot error-1280.png 1280x800
screenshot error-1024.png 1024x768
# Saved fixed: the code is the version that runs again.
screenshot ready-to-fix.png 1024x768
wait saved
expect code ran
expect compile-errors none
expect kernel count
screenshot back.png 1280x800
quit
SCRIPT
# Saves own.cu broken, then fixed, once the window is waiting for each save.
break_then_fix() {
  save_after ready-to-break broken.cu
  save_after ready-to-fix "$racy"
}
run_while_saving window break_then_fix
grep -q "launch panel refuses block: 4096 is too large: block x" window.log ||
  { cat window.log; echo "FAIL: the lesson's block was not refused by the lesson's rules"; exit 1; }
grep -q "own.cu:$line:.*error: .counter. was not declared" window.log ||
  { cat window.log; echo "FAIL: the compiler's error does not name own.cu:$line"; exit 1; }
for f in printed races back error-1280; do "$png_check" "$f.png" 1280 800; done
for f in memory-1024 error-1024; do "$png_check" "$f.png" 1024 768; done
"$png_check" --differ back.png error-1280.png
echo "PASS"
