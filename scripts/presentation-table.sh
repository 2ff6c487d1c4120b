#!/usr/bin/env bash
# Measures how every step of every lesson reads in presentation mode on a projector: each step is
# drawn offscreen by `coopviz steps --json --size WxH --presentation` (under Xvfb when there is no
# display) and its measures are checked against what a room needs (app/gui/step_report.hpp):
#   cell numbers  the digits in thread cells at least 14 px tall wherever they are drawn, and
#                 drawn where the step's text speaks of them
#   at title      the step's text opens at its title, after the previous step was read to its end
#   no scroll     the whole text shows without scrolling
#   code 60       at least 60 columns of code show
# Prints one line per step that misses a threshold (what it misses), then per size a line
#   1024x768: cell numbers N/118, at title N/118, no scroll N/118, code 60 N/118, all N/118
# Exits 0 only when every step meets every threshold at every size.
#
# Usage: scripts/presentation-table.sh [COOPVIZ_BINARY]   (default: build/app/coopviz)
# Environment:
#   TABLE_SIZES    comma-separated sizes (default 1024x768,1280x720)
#   TABLE_LESSON   only this lesson (default: every lesson)
#   TABLE_KEEP     a folder to keep each size's JSON in (default: thrown away)
set -u -o pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
coopviz="${1:-$repo/build/app/coopviz}"
sizes="${TABLE_SIZES:-1024x768,1280x720}"
lesson="${TABLE_LESSON:-}"
keep="${TABLE_KEEP:-}"

[ -x "$coopviz" ] || { echo "presentation-table: no coopviz at $coopviz (build it first)" >&2; exit 2; }
command -v jq >/dev/null || { echo "presentation-table: jq is needed (apt-get install jq)" >&2; exit 2; }
run=()
if [ -z "${DISPLAY:-}" ]; then
  command -v xvfb-run >/dev/null || { echo "presentation-table: no display and no xvfb-run" >&2; exit 2; }
  run=(xvfb-run -a -s "-screen 0 1920x1080x24")
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
IFS=',' read -r -a size_list <<< "$sizes"
for size in "${size_list[@]}"; do
  json="$work/$size.json"
  if ! "${run[@]}" "$coopviz" steps $lesson --json --size "$size" --presentation > "$json" 2> "$work/err"; then
    echo "presentation-table: coopviz steps at $size failed:" >&2
    cat "$work/err" >&2
    exit 2
  fi
  [ -n "$keep" ] && mkdir -p "$keep" && cp "$json" "$keep/$size.json"
  jq -r --arg size "$size" '.[] | select(.readable != "ok")
    | "\($size) \(.lesson) step \(.step) (\(.title)): \(.readable)"' "$json"
  jq -r --arg size "$size" '
    def count(f): map(select(f)) | length;
    length as $n |
    "\($size): cell numbers \(count((.grid_label_px == 0 or .grid_label_px >= 14) and
                                     (.text_speaks_of_cell_numbers == false or .grid_label_px > 0)))/\($n),"
    + " at title \(count(.text_at_top))/\($n), no scroll \(count(.text_scroll_px == 0))/\($n),"
    + " code 60 \(count(.code_visible_chars >= 60))/\($n), all \(count(.readable == "ok"))/\($n),"
    + " promises kept \(count(.problems == "ok"))/\($n)"' "$json"
  [ "$(jq '[.[] | select(.readable != "ok")] | length' "$json")" = 0 ] || status=1
  [ "$(jq '[.[] | select(.problems != "ok")] | length' "$json")" = 0 ] || status=1
done
exit $status
