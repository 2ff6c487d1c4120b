#!/usr/bin/env bash
# `scripts/gpu-check.sh ncu` without a GPU: a stand-in for ncu writes the hand-made CSV of
# fixtures/ncu-memory-access.csv where ncu would (--log-file), so the stage's own work runs for
# real for one lesson and one test program: the emulator's run, nvcc's build of the program,
# `coopviz ncu-compare`, the lesson's ncu.json and the agreement counted. Then the two ways the
# stage fails soft: no ncu, and ncu without permission.
#   gpu_check_ncu_test.sh SOURCE_DIR BUILD_DIR OUT_DIR
set -uo pipefail
src=$1 build=$2 out=$3
rm -rf "$out" && mkdir -p "$out/bin"
fail() { echo "FAIL: $*"; exit 1; }

# The stand-in: what ncu prints with --csv --log-file FILE, for the memory-access lesson.
cat > "$out/bin/ncu" <<'NCU'
#!/usr/bin/env bash
[ "${1:-}" = --version ] && { echo "NVIDIA (R) Nsight Compute Command Line Profiler (stand-in)"; exit 0; }
while [ $# -gt 0 ]; do
  case $1 in
    --log-file) log=$2; shift 2 ;;
    --metrics) metrics=$2; shift 2 ;;
    --csv) shift ;;
    *) break ;;
  esac
done
for m in l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum \
         l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum l1tex__t_requests_pipe_lsu_mem_global_op_st.sum \
         l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum \
         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum; do
  case ",$metrics," in *",$m,"*) ;; *) echo "metric $m not asked for: $metrics" > "$log"; exit 1 ;; esac
done
if [ -n "${FAKE_NCU_DENIED:-}" ]; then
  echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters" > "$log"
  exit 1
fi
cp "$FAKE_NCU_CSV" "$log"
echo "the profiled command: $*"
NCU
chmod +x "$out/bin/ncu"

run_stage() {  # name, then environment assignments
  local name=$1; shift
  env "$@" OUT="$out/$name" COOPVIZ_BUILD_DIR="$build" COOPVIZ_NCU_LESSON_DIR="$out/$name/lessons" \
    COOPVIZ_NCU_ONLY="memory-access tile_ranks" \
    FAKE_NCU_CSV="$src/tests/app/fixtures/ncu-memory-access.csv" \
    "$src/scripts/gpu-check.sh" ncu > "$out/$name.log" 2>&1
}

run_stage measured NCU="$out/bin/ncu"
grep -qE "ncu memory-access: rc=0, ([0-9]+) of \1 counters agree over 6 launches \(every counter agrees\)" "$out/measured.log" ||
  { cat "$out/measured.log"; fail "the stage did not report agreement"; }
# The stand-in gives the program the lesson's counters: none of its launches was profiled.
grep -qE "ncu tile_ranks: rc=1, 0 of [1-9][0-9]* counters agree" "$out/measured.log" ||
  { cat "$out/measured.log"; fail "the program was not built, emulated and compared"; }
grep -qE "ncu agreement: [0-9]+ of [0-9]+ counters agree; 1 of 2 lessons and programs agree on every counter" "$out/measured.log" ||
  { cat "$out/measured.log"; fail "no agreement total"; }
json="$out/measured/lessons/memory_access/ncu.json"
[ -f "$json" ] || fail "no $json"
grep -q '"agree": true' "$json" || fail "$json does not agree"
grep -q '"device"' "$json" || fail "$json names no device"
# The listing is read whole first: grep -q stops at its match, and with pipefail the tar it cut
# off would fail the pipe.
listing=$(tar -tzf "$out/measured/ncu.tar.gz")
grep -q "ncu/memory-access.txt" <<<"$listing" || fail "ncu.tar.gz lacks the comparison"
grep -q "ncu/tile_ranks-ncu.json" <<<"$listing" || fail "ncu.tar.gz lacks the program's comparison"

run_stage missing NCU="$out/bin/no-such-ncu"
grep -q "ncu: skipped: Nsight Compute not found" "$out/missing.log" ||
  { cat "$out/missing.log"; fail "a missing ncu was not said"; }

run_stage denied NCU="$out/bin/ncu" FAKE_NCU_DENIED=1
grep -q "no permission to read the GPU's performance counters" "$out/denied.log" ||
  { cat "$out/denied.log"; fail "missing permission was not said"; }
[ ! -e "$out/denied/lessons/memory_access/ncu.json" ] || fail "ncu.json written without counters"
echo "gpu-check ncu stage ok"
