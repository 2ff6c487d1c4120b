#!/usr/bin/env bash
# GUI test: the Memory tab's one-request view on the memory-access lesson. Each step opens it on
# the request its text is about (4, 8 and 32 sectors; 32-way, padded 1-way, broadcast); the arrows
# move to the next warp's request; drawn at 1280x800 and, in presentation mode, at 1920x1080.
#   memory_request_test.sh COOPVIZ PNG_CHECK OUT_DIR
set -euo pipefail
coopviz=$1 png_check=$2 out=$3
# The broadcast's shared load: the line of the lesson's program that says so.
broadcast=$(grep -n "every lane reads the same word" \
  "$(dirname "$0")/../../lessons/memory_access/memory_access.cu" | cut -d: -f1)
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 2000x1200x24" "$0" "$@"
fi
rm -rf "$out" && mkdir -p "$out" && cd "$out"
cat > memory.txt <<SCRIPT
lesson memory-access
expect tab memory
expect request-sectors 4
screenshot stride1.png 1280x800
step 2
expect request-sectors 8
step 3
expect request-sectors 32
screenshot stride32.png 1280x800
step 5
expect request-ways 32
screenshot column.png 1280x800
request next
expect request-ways 32
screenshot column-warp1.png 1280x800
request 200
SCRIPT
# A request past the last is refused with the range.
if "$coopviz" gui --script memory.txt --settings "$out/settings.json" > memory.log 2> memory.err; then
  echo "FAIL: request 200 of 128 was taken"; exit 1
fi
grep -q "request 200: this access has requests 1 to 128" memory.err || { cat memory.err; exit 1; }
cat > more.txt <<SCRIPT
lesson memory-access
step 6
expect request-ways 1
step 7
expect request-ways 1
expect request-site line-$broadcast-shared-load
screenshot broadcast.png 1280x800
presentation on
step 5
screenshot column-presentation.png 1920x1080
quit
SCRIPT
"$coopviz" gui --script more.txt --settings "$out/more.json" | tee more.log
for f in stride1 stride32 column column-warp1 broadcast; do "$png_check" "$f.png" 1280 800; done
"$png_check" column-presentation.png 1920 1080
"$png_check" --differ stride1.png stride32.png
"$png_check" --differ column.png column-warp1.png
echo "memory request view ok"
