#!/usr/bin/env bash
# GUI test: nothing is lost or fails silently.
# - A failed Export PNG and a failed settings save say why.
#   fallback_test.sh COOPVIZ PNG_CHECK OUT_DIR
set -euo pipefail
coopviz=$1 png_check=$2 out=$3
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out" && cd "$out"
fail() { echo "FAIL: $*"; exit 1; }

# Export PNG into a folder that does not exist: the notice says it failed, and why.
cat > export.txt <<SCRIPT
lesson block-reduce
export $out/no/such/folder
expect notice-error yes
export $out
expect notice-error no
quit
SCRIPT
"$coopviz" gui --script export.txt --settings "$out/s4.json"
ls "$out"/coopviz-block-reduce-*.png > /dev/null || fail "Export PNG wrote nothing"

# Settings that cannot be saved (a file where the folder should be) say why.
touch "$out/not-a-folder"
printf 'lesson block-reduce\nquit\n' > settings.txt
"$coopviz" gui --script settings.txt --settings "$out/not-a-folder/settings.json" 2> settings.err
grep -q "Settings not saved: cannot create the folder" settings.err ||
  { cat settings.err; fail "a failed settings save was not reported"; }
echo "fallback ok"
