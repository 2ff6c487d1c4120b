#!/usr/bin/env bash
# GUI test: a user's own program in the window (coopviz gui FILE.cu). The Launch panel shows the
# shown launch's grid and block; typing another block reruns the program with it (a launch
# override) without a save; an illegal one is refused in the field with its limit; "Program's
# own launch" is the program's shape again.
#   program_test.sh COOPVIZ PNG_CHECK PROGRAM OUT_DIR
set -euo pipefail
coopviz=$1 png_check=$2 program=$3 out=$4
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out" && cd "$out"
export XDG_CACHE_HOME=$out/cache

cat > override.txt <<SCRIPT
expect kernel tile_ranks
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
echo "PASS"
