#!/usr/bin/env bash
# Measures the exercise checker on the held-out corpus of student solutions
# (tests/exercises/heldout/<exercise-id>/*.cu). Each file's first line says what it should get:
#   // expect: fail — <what is wrong>     or     // expect: pass — <the approach>
# Every file is checked with `coopviz exercise check ID FILE --json`, at most two at a time, each
# under a time limit and with its own progress file and cache (the user's are never touched).
# Prints, per exercise and in total, how many wrong files were caught and correct ones accepted,
# lists every mismatch, and ends with the line
#   heldout: W of Nw wrong caught, C of Nc correct accepted
# Exits 0 only when every file got what it expects.
#
# Usage: scripts/check-corpus.sh [COOPVIZ_BINARY]      (default: build/app/coopviz)
# Environment:
#   CORPUS_TIMEOUT   seconds one check may take before it is stopped (default 300)
#   CORPUS_JOBS      checks at once, 1 to 64 (default 2; a machine with more cores may run more)
#   CORPUS_FILTER    only the files whose path relative to the corpus contains this text
#   CORPUS_VMEM_KB   address-space limit of one check, a guard for a shared machine against the
#                    corpus's huge allocations (default 16 GiB; 0 for none)
#   CORPUS_KEEP      a folder to keep each check's JSON and stderr in (default: thrown away)
set -u -o pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="$repo/tests/exercises/heldout"
coopviz="${1:-$repo/build/app/coopviz}"
timeout_s="${CORPUS_TIMEOUT:-300}"
jobs="${CORPUS_JOBS:-2}"
vmem_kb="${CORPUS_VMEM_KB:-16777216}"
filter="${CORPUS_FILTER:-}"

die() {
  echo "check-corpus: $*" >&2
  exit 2
}
[[ -x "$coopviz" ]] || die "no coopviz binary at '$coopviz' (build it, or pass its path)"
[[ -d "$corpus" ]] || die "no corpus at $corpus"
[[ "$jobs" =~ ^[0-9]+$ && "$jobs" -ge 1 && "$jobs" -le 64 ]] ||
  die "CORPUS_JOBS must be a whole number from 1 to 64, not '$jobs'"
[[ "$timeout_s" =~ ^[0-9]+$ && "$timeout_s" -gt 0 ]] || die "CORPUS_TIMEOUT must be seconds > 0"
command -v python3 >/dev/null || die "python3 is needed to read the checker's JSON"
command -v timeout >/dev/null || die "coreutils' timeout is needed"
coopviz="$(cd "$(dirname "$coopviz")" && pwd)/$(basename "$coopviz")"

work="$(mktemp -d "${TMPDIR:-/tmp}/check-corpus.XXXXXX")"
# Every check's processes carry this in their environment, so that whatever a forking program
# leaves behind (even in a session of its own) can be found and ended afterwards.
run_id="heldout-$$-$RANDOM$RANDOM"

# Ends the processes that carry this run's mark (optionally one check's mark only).
end_marked() {
  local mark="$1" p pid
  for p in /proc/[0-9]*; do
    pid="${p#/proc/}"
    [[ "$pid" == "$$" || "$pid" == "$BASHPID" ]] && continue
    # A check's own mark exactly, or (for the whole run) every mark under the run's prefix.
    [[ -r "$p/environ" ]] || continue
    if tr '\0' '\n' 2>/dev/null <"$p/environ" |
      if [[ "$mark" == */* ]]; then grep -qxF "HELDOUT_RUN=$mark"; else grep -qF "HELDOUT_RUN=$mark/"; fi; then
      kill -KILL "$pid" 2>/dev/null
    fi
  done
}

cleanup() {
  end_marked "$run_id"
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# One check: writes "<exercise>\t<file>\t<expect>\t<verdict>\t<message>" to the results folder.
check_one() {
  local file="$1"
  local rel="${file#"$corpus"/}"
  local exercise="${rel%%/*}"
  local key="${rel//\//__}"
  local out="$work/out/$key.json" err="$work/out/$key.err"
  local expect
  expect="$(head -n 1 "$file" | sed -n 's#^// expect: \(pass\|fail\) .*#\1#p')"
  [[ -n "$expect" ]] || expect="unknown"
  mkdir -p "$work/out" "$work/progress" "$work/results"
  local rc=0
  (
    [[ "$vmem_kb" != 0 ]] && ulimit -v "$vmem_kb"
    export HELDOUT_RUN="$run_id/$key"
    export XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config"
    # timeout ends the check's whole process group; what left it is ended by its mark below.
    exec timeout -k 10 "$timeout_s" "$coopviz" exercise check "$exercise" "$file" --json \
      --progress "$work/progress/$key.json" </dev/null >"$out" 2>"$err"
  ) || rc=$?
  end_marked "$run_id/$key"
  python3 - "$exercise" "$rel" "$expect" "$rc" "$out" "$err" "$timeout_s" \
    >"$work/results/$key.tsv" <<'PY'
import json, sys
exercise, rel, expect, rc, out, err, limit = sys.argv[1:8]
rc = int(rc)

def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""

verdict, message = "error", ""
try:
    report = json.load(open(out))
except (OSError, ValueError):
    report = None
if rc in (124, 137) and not report:
    verdict, message = "timeout", f"stopped after {limit} s"
elif isinstance(report, dict) and report.get("verdict") in ("passed", "failed"):
    verdict = report["verdict"]
    if not report.get("compiled", True):
        words = report.get("compiler_output", "")
        errors = [l for l in words.splitlines() if "error" in l]
        message = "did not compile: " + first_line(errors[0] if errors else words)
    elif report.get("problem"):
        message = first_line(report["problem"])
    else:
        for c in report.get("cases", []):
            if c.get("result") == "passed":
                continue
            where = f'({c.get("launch", "")}, {c.get("input", "")}, {c.get("schedule", "")})'
            if c.get("problem"):
                message = first_line(c["problem"]) + " " + where
            elif "index" in c:
                message = f'output {c["index"]} is {c.get("got")}, want {c.get("want")} {where}'
            break
elif rc > 128 and rc not in (137,):
    verdict, message = "crash", f"coopviz ended by signal {rc - 128}"
else:
    try:
        message = first_line(open(err, errors="replace").read())
    except OSError:
        message = ""
    message = message or f"exit status {rc}, no JSON"
message = message.replace("\t", " ")[:300]
print("\t".join([exercise, rel, expect, verdict, message]))
PY
}
export -f check_one end_marked
export corpus coopviz work run_id timeout_s vmem_kb

mapfile -t files < <(find "$corpus" -mindepth 2 -maxdepth 2 -name '*.cu' | sort |
  { if [[ -n "$filter" ]]; then grep -F -- "$filter"; else cat; fi; })
[[ ${#files[@]} -gt 0 ]] || die "no corpus files${filter:+ matching '$filter'}"
echo "checking ${#files[@]} files with $coopviz ($jobs at a time, ${timeout_s} s each)" >&2

started=$(date +%s)
# In the background, so that an interrupted run can stop xargs from starting more checks.
printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$jobs" bash -c 'check_one "$1"' check_one &
xargs_pid=$!
trap 'kill "$xargs_pid" 2>/dev/null; exit 130' INT TERM
wait "$xargs_pid"
[[ -n "${CORPUS_KEEP:-}" ]] && mkdir -p "$CORPUS_KEEP" && cp -r "$work/out/." "$CORPUS_KEEP/"

cat "$work"/results/*.tsv >"$work/all.tsv" 2>/dev/null
python3 - "$work/all.tsv" "$(($(date +%s) - started))" <<'PY'
import collections, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
per = collections.OrderedDict()
mismatches, unknown = [], []
for exercise, rel, expect, verdict, message in sorted(rows):
    s = per.setdefault(exercise, [0, 0, 0, 0])  # wrong caught, wrong, correct accepted, correct
    if expect == "fail":
        s[1] += 1
        ok = verdict in ("failed", "error")
        s[0] += ok
    elif expect == "pass":
        s[3] += 1
        ok = verdict == "passed"
        s[2] += ok
    else:
        unknown.append(rel)
        ok = False
    if not ok:
        mismatches.append((rel, expect, verdict, message))
print(f"{'exercise':<20} {'wrong caught':>14} {'correct accepted':>18}")
for exercise, (wc, w, ca, c) in per.items():
    print(f"{exercise:<20} {f'{wc} / {w}':>14} {f'{ca} / {c}':>18}")
W = sum(s[0] for s in per.values()); Nw = sum(s[1] for s in per.values())
C = sum(s[2] for s in per.values()); Nc = sum(s[3] for s in per.values())
print(f"{'total':<20} {f'{W} / {Nw}':>14} {f'{C} / {Nc}':>18}   ({sys.argv[2]} s)")
if mismatches:
    print(f"\n{len(mismatches)} mismatches (file, expected, verdict, message):")
    for rel, expect, verdict, message in mismatches:
        print(f"  {rel}: expect {expect}, got {verdict}: {message}")
for rel in unknown:
    print(f"  {rel}: no '// expect: pass|fail' first line")
print(f"heldout: {W} of {Nw} wrong caught, {C} of {Nc} correct accepted")
sys.exit(1 if mismatches or unknown else 0)
PY
