#!/usr/bin/env bash
# GUI test: the "Reduction performance" lesson's Benchmark tab. Without a report it still
# predicts the block sweep; with the report of a real H200 run (fixtures/reduce-h200.json,
# written by `coopviz bench reduce --sweep --json`) it draws every variant's bandwidth, and the
# measured sweep once revealed. Popped out, the tab gets a window of its own.
#   benchmark_test.sh COOPVIZ PNG_CHECK FIXTURES OUT_DIR
set -euo pipefail
coopviz=$1 png_check=$2 fixtures=$3 out=$4
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out" && cd "$out"
cat > bench.txt <<SCRIPT
lesson reduction-performance
tab benchmark
expect tab benchmark
screenshot bench-empty.png 1280x800
bench open $fixtures/reduce-h200.json
expect bench-report yes
screenshot bench-bars.png 1280x800
popout benchmark
screenshot bench-popout.png 1280x800
bench reveal
screenshot bench-revealed.png 1280x800
quit
SCRIPT
"$coopviz" gui --script bench.txt --settings "$out/settings.json" | tee bench.log
for f in bench-empty bench-bars bench-popout bench-revealed; do "$png_check" "$f.png" 1280 800; done
"$png_check" --differ bench-empty.png bench-bars.png
"$png_check" --differ bench-popout.png bench-revealed.png
# A report that cannot be read says why.
printf 'lesson reduction-performance\nbench open %s/missing.json\nquit\n' "$out" > bad.txt
if "$coopviz" gui --script bad.txt --settings "$out/bad.json" 2> bad.err; then
  echo "FAIL: a missing report opened"; exit 1
fi
grep -q "cannot open $out/missing.json: No such file" bad.err || { cat bad.err; exit 1; }
echo "benchmark tab ok"
