#!/usr/bin/env bash
# GUI test: a class pack in the window. `gui --pack` opens the shipped example at its first item;
# a script walks it (next, prev, item N) and shows the classroom summary, drawn at 1280x800 and, in
# presentation mode (no teacher's notes), at 1920x1080; a question item asks its question with the
# Questions switch off (a script starts with it off), on its lesson item's schedule, and an
# exercise item is not covered by its lesson's question; the pack and its item are remembered in
# the settings; a pack with errors is refused with its file and line.
#   pack_test.sh COOPVIZ PNG_CHECK PACK OUT_DIR
set -euo pipefail
coopviz=$1 png_check=$2 pack=$3 out=$4
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 2000x1200x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out/config" && cd "$out"
export HOME=$out XDG_CONFIG_HOME=$out/config
cat > walk.txt <<SCRIPT
expect pack-item 1
expect lesson groups-and-ranks
screenshot first.png 1280x800
pack next
expect pack-item 2
pack next
expect pack-item 3
expect lesson tiled-partitions
expect step 2
screenshot preset.png 1280x800
pack item 6
expect lesson warp-collectives
expect schedule random
pack next
expect question shfl-lane-5
expect schedule random
screenshot question.png 1280x800
skip
questions on
pack item 11
expect exercise block-sum
expect question none
questions off
pack item 5
pack summary
screenshot summary.png 1280x800
presentation on
screenshot presentation.png 1920x1080
quit
SCRIPT
"$coopviz" gui --pack "$pack" --script walk.txt --settings "$out/settings.json" | tee walk.log
grep -q '"pack_item": 4' settings.json || { cat settings.json; echo "FAIL: pack item not kept"; exit 1; }
for f in first preset question summary; do "$png_check" "$f.png" 1280 800; done
"$png_check" presentation.png 1920 1080
"$png_check" --differ first.png preset.png

# Started again with the same settings: the pack comes back at its item.
cat > again.txt <<SCRIPT
expect pack-item 5
pack next
expect pack-item 6
quit
SCRIPT
"$coopviz" gui --script again.txt --settings "$out/settings.json" | tee again.log

printf 'title: Bad\nlesson block-reduce block 2048\n' > bad.pack
if "$coopviz" gui --pack bad.pack --script again.txt 2> bad.err; then
  echo "FAIL: a pack with errors was opened"; exit 1
fi
grep -q "bad.pack:2: block of 2048 threads" bad.err || { cat bad.err; exit 1; }
echo "class pack ok"
