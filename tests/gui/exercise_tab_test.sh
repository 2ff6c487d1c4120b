#!/usr/bin/env bash
# GUI test: the Exercise tab driven by a script as a student would: open an exercise, Start
# (written into a folder, an existing file kept until the student says otherwise), a check that
# fails and one that passes (counted in the progress file given with --progress), hints one at a
# time, the solution after its confirmation; drawn at 1280x800 and, in presentation mode, at
# 1920x1080.
#   exercise_tab_test.sh COOPVIZ PNG_CHECK SOURCE_DIR OUT_DIR
set -euo pipefail
coopviz=$1 png_check=$2 source=$3 out=$4
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 2000x1200x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out/work" && cd "$out"
solution="$source/lessons/tiled_partitions/exercises/tile-ranks/solution.cu"
sed 's/int(tile.thread_rank())/int(tile.thread_rank()) + 1/' "$solution" > wrong.cu
mkdir -p work/tile-ranks && echo "my work" > work/tile-ranks/starter.cu
cat > exercise.txt <<SCRIPT
exercise tile-ranks
expect lesson tiled-partitions
expect tab exercise
screenshot spec.png 1280x800
exercise start $out/work
expect exercise-asked yes
exercise start $out/work keep
expect exercise-asked no
exercise check $out/wrong.cu
expect exercise-verdict failed
expect exercise-attempts 1
screenshot failed.png 1280x800
exercise check $solution
expect exercise-verdict passed
expect exercise-attempts 2
exercise hint
expect exercise-hints 1
screenshot hint.png 1280x800
exercise solution
expect exercise-solution asked
exercise solution confirm
expect exercise-solution shown
presentation on
screenshot solution.png 1920x1080
quit
SCRIPT
"$coopviz" gui --script exercise.txt --settings "$out/settings.json" \
  --progress "$out/progress.json" | tee exercise.log
grep -q "my work" work/tile-ranks/starter.cu || { echo "FAIL: Start replaced the student's file"; exit 1; }
grep -q '"attempts": 2' progress.json || { cat progress.json; exit 1; }
grep -q '"solution_seen": true' progress.json || { cat progress.json; exit 1; }
for f in spec failed hint; do "$png_check" "$f.png" 1280 800; done
"$png_check" solution.png 1920 1080
"$png_check" --differ spec.png failed.png
echo "exercise tab ok"
