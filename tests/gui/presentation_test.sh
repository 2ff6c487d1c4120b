#!/usr/bin/env bash
# GUI test: a lesson presented on a 1024x768 projector reads from the back row. Every step of
# tiled-partitions (whose text speaks of the numbers in the cells) is drawn offscreen in
# presentation mode by `coopviz steps --size`, and each must keep its promises and read well:
# numbers in cells at least 14 px tall and drawn where the text speaks of them, the text open at
# its title after the previous step was read to its end, nothing to scroll, 60 columns of code,
# the grid's cells in sight under its legend, and the events list open on the rows the step
# names (thread 77's four tile creations). grid-sync's steps, which send the reader to the Checks
# tab, must open it with the checks' verdicts in sight.
#   presentation_test.sh COOPVIZ PNG_CHECK OUT_DIR
set -euo pipefail
coopviz=$1 out=$3
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1920x1080x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out"
json="$out/steps.json"
"$coopviz" steps tiled-partitions --json --size 1024x768 --presentation > "$json"
fail=0
check() {  # check DESCRIPTION JQ-FILTER-SELECTING-FAILURES
  local bad
  bad=$(jq -r "$2" "$json")
  if [ -n "$bad" ]; then
    echo "FAIL: $1:"
    echo "$bad"
    fail=1
  fi
}
[ "$(jq length "$json")" -ge 5 ] || { echo "FAIL: fewer steps than the lesson has"; exit 1; }
check "every step keeps its promises" '.[] | select(.problems != "ok") | "step \(.step): \(.problems)"'
check "every step reads on a projector" '.[] | select(.readable != "ok") | "step \(.step): \(.readable)"'
# The measures themselves, so that a metric that stopped measuring cannot pass.
check "numbers drawn 14 px or taller where the text speaks of them" \
  '.[] | select(.text_speaks_of_cell_numbers and .grid_label_px < 14) | "step \(.step): \(.grid_label_px) px"'
[ "$(jq '[.[] | select(.text_speaks_of_cell_numbers)] | length' "$json")" -ge 1 ] ||
  { echo "FAIL: no step of tiled-partitions speaks of the numbers in the cells"; fail=1; }
check "opened at the title" '.[] | select(.text_at_top | not) | "step \(.step)"'
check "no text to scroll" '.[] | select(.text_scroll_px > 0) | "step \(.step): \(.text_scroll_px) px"'
check "60 columns of code" '.[] | select(.code_visible_chars < 60) | "step \(.step): \(.code_visible_chars)"'
check "some code lines show" '.[] | select(.code_visible_lines < 5) | "step \(.step): \(.code_visible_lines)"'
check "the grid's cells in sight under its legend" \
  '.[] | select(.grid_cells_px < ([64, .grid_cells_h - 1] | min)) | "step \(.step): \(.grid_cells_px) px"'
check "the events list's rows the step names in sight" \
  '.[] | select(.tab_focus_in_sight == false) | "step \(.step) (\(.tab))"'
[ "$(jq '[.[] | select(.tab_focus_in_sight == true)] | length' "$json")" -ge 3 ] ||
  { echo "FAIL: fewer than 3 steps open the events list on a row"; fail=1; }
json="$out/grid-sync.json"
"$coopviz" steps grid-sync --json --size 1024x768 --presentation > "$json"
check "grid-sync: every step keeps its promises" '.[] | select(.problems != "ok") | "step \(.step): \(.problems)"'
check "grid-sync: every step reads on a projector" '.[] | select(.readable != "ok") | "step \(.step): \(.readable)"'
check "grid-sync: the Checks tab opens with its verdicts in sight" \
  '.[] | select(.tab == "checks" and .tab_focus_in_sight != true) | "step \(.step)"'
[ "$(jq '[.[] | select(.tab == "checks")] | length' "$json")" -ge 3 ] ||
  { echo "FAIL: fewer than 3 steps of grid-sync open the Checks tab"; fail=1; }
[ $fail = 0 ] && echo "presentation at 1024x768: every step of tiled-partitions and grid-sync reads"
exit $fail
