#!/usr/bin/env bash
# GUI test: predict, then run. A step with questions opens covered and asking; a wrong answer and
# a right one are told apart, the step is revealed once its questions are answered, a choice is
# answered by its words, the score is kept this session and saved in questions.json beside the
# settings; text for a number is refused with what was expected. Drawn at 1280x800 and, in
# presentation mode, at 1920x1080.
#   questions_test.sh COOPVIZ PNG_CHECK OUT_DIR
set -euo pipefail
coopviz=$1 png_check=$2 out=$3
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 2000x1200x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out" && cd "$out"
cat > questions.txt <<SCRIPT
questions on
lesson occupancy
expect question blocks-768
screenshot asking.png 1280x800
answer 3
expect verdict wrong
expect question warps-768
answer 48
expect verdict right
expect question none
screenshot revealed.png 1280x800
step 3
answer 2
expect question limiter-smem
answer shared memory
expect verdict right
expect score 3/4
presentation on
lesson warp-collectives
expect question shfl-lane-5
screenshot asking-presentation.png 1920x1080
skip
expect verdict skipped
expect score 3/4
screenshot revealed-presentation.png 1920x1080
questions off
lesson memory-access
expect question none
quit
SCRIPT
"$coopviz" gui --script questions.txt --settings "$out/settings.json" | tee questions.log
grep -q "script: Not quite: it is 2, not 3 (" questions.log || { echo "FAIL: no wrong verdict"; exit 1; }
grep -q "script: Right: shared memory." questions.log || { echo "FAIL: no choice verdict"; exit 1; }
# The score of every session, beside the settings.
grep -q '"right": 3' questions.json && grep -q '"asked": 4' questions.json ||
  { echo "FAIL: questions.json:"; cat questions.json; exit 1; }
"$png_check" asking.png 1280 800
"$png_check" revealed.png 1280 800
"$png_check" asking-presentation.png 1920 1080
"$png_check" revealed-presentation.png 1920 1080
"$png_check" --differ asking.png revealed.png
"$png_check" --differ asking-presentation.png revealed-presentation.png
# Text where a number is asked for is refused, naming what was expected.
printf 'questions on\nlesson occupancy\nanswer two\nquit\n' > bad.txt
if "$coopviz" gui --script bad.txt > bad.log 2> bad.err; then
  echo "FAIL: 'two' was taken as a number"; exit 1
fi
grep -q "'two' is not a whole number" bad.err || { cat bad.err; exit 1; }
# Answers typed key by key into the field, as a student types them: each question's field starts
# empty. The last answer once stayed in the field: "2" typed at step 3 after "32" at step 2 was
# checked as "322" (both questions first of their step).
cat > typed.txt <<SCRIPT
questions on
lesson occupancy
expect question blocks-768
expect field empty
type 2
expect field 2
press enter
expect verdict right
expect question warps-768
expect field empty
type 48
press enter
expect verdict right
step 2
expect question blocks-32
type 32
press enter
expect verdict right
step 3
expect question blocks-smem
expect field empty
type 2
press enter
expect verdict right
expect score 4/4
quit
SCRIPT
"$coopviz" gui --script typed.txt --settings "$out/typed-settings.json" > typed.log ||
  { cat typed.log; echo "FAIL: typed answers"; exit 1; }
echo "questions ok"
