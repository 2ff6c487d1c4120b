#!/usr/bin/env bash
# GUI test: a lesson.md with mistakes is named the same way by `coopviz lesson check`,
# `coopviz steps` and `gui --script` (and the window's lesson text panel, which draws the same
# list): every mistake with its file and line, once, never "the lesson has steps 1 to 0".
#   lesson_errors_test.sh COOPVIZ PNG_CHECK SOURCE_DIR OUT_DIR
set -euo pipefail
coopviz=$1 source=$3 out=$4
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out/lessons" && cd "$out"
fail() { echo "FAIL: $*"; exit 1; }

# A copy of a lesson whose second step's block is never closed and whose text has a stray heading.
cp -r "$source/lessons/groups_and_ranks" lessons/
md=lessons/groups_and_ranks/lesson.md
awk 'done == 0 && /^```step$/ && ++n == 2 { print; getline; print; done = 1; skip = 1; next }
     skip && /^```$/ { skip = 0; next } { print }' "$source/$md" > "$md"
echo "## Afterword" >> "$md"
grep -q '^## Afterword' "$md" || fail "the copy was not broken"

set +e
"$coopviz" lesson check lessons/groups_and_ranks > check.out 2> check.err; check=$?
COOPVIZ_LESSON_PATH="$out/lessons" "$coopviz" steps groups-and-ranks > steps.out 2> steps.err
steps=$?
printf 'lesson groups-and-ranks\nstep 2\n' > s.txt
COOPVIZ_LESSON_PATH="$out/lessons" "$coopviz" gui --script s.txt > script.out 2> script.err
script=$?
set -e
cat check.err
[ "$check" = 2 ] || fail "lesson check exited $check"
[ "$steps" = 1 ] || fail "steps exited $steps"
[ "$script" != 0 ] || fail "the script went on"
[ "$(grep -c ': error: ' check.err)" -ge 2 ] || fail "expected both mistakes"
grep -q "lessons/groups_and_ranks/lesson.md:[0-9]*: step '.*': its \`\`\`step block is not closed" \
  check.err || fail "the unclosed block is not named"
grep -q "lesson.md:[0-9]*: '## Afterword' among the steps" check.err || fail "the heading"
# The same lines, named by the same file (the edited copy is read by its path).
sed "s|$out/||" steps.err > steps.rel
diff check.err steps.rel || fail "steps says otherwise"
grep -v 'script line' script.err | sed "s|$out/||" > script.rel
diff check.err script.rel || fail "gui --script says otherwise"
grep -q 'steps 1 to' script.err && fail "the script says 'steps 1 to'"
grep -q "script line 1: lesson groups-and-ranks: its lesson.md has mistakes" script.err ||
  fail "the script names the lesson"
echo "PASS"
