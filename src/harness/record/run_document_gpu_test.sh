#!/bin/sh
# On a GPU, as a user meets it: a run stopped by SIGTERM in its second case
# exits 143 and keeps the first case whole in its JSON; two runs at once on
# one GPU both say so and mark what they measured meanwhile.
# Usage: run_document_gpu_test.sh path/to/ladder   (exit 77 without a GPU)
ladder=$1
"$ladder" device --quick >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# --- SIGTERM during the second case ---
"$ladder" run smem transpose --time-cap 0.5 --json "$tmp/stopped.json" >"$tmp/stopped.out" 2>&1 &
pid=$!
# The document appears when the first case has finished.
waited=0
while [ ! -e "$tmp/stopped.json" ] && [ $waited -lt 600 ]; do sleep 0.1; waited=$((waited + 1)); done
kill -TERM $pid
wait $pid
code=$?
[ $code -eq 143 ] || fail "a run stopped by SIGTERM exited $code, not 143"
grep -q "stopped by SIGTERM" "$tmp/stopped.out" || fail "no 'stopped by SIGTERM' line"
smem_variants=$("$ladder" list smem | grep -cE '^ +[0-9]+  ')
python3 - "$tmp/stopped.json" "$smem_variants" <<'PY' || fail "the kept document is not what it should be"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["complete"] is False, doc["complete"]
assert doc["stopped_by"] == "SIGTERM", doc["stopped_by"]
assert doc["running_case"] == "transpose", doc["running_case"]
smem = [r for r in doc["results"] if r["case"] == "smem"]
assert len(smem) == int(sys.argv[2]), (len(smem), sys.argv[2])
assert all(r["valid"] or r["skipped"] for r in smem)
print("kept:", len(smem), "smem records whole,", sum(r["case"] == "transpose" for r in doc["results"]),
      "transpose records of the unfinished case")
PY
sed 's/^/  /' "$tmp/stopped.out" | grep -E "stopped|kept"

# --- two runs at once on one GPU ---
"$ladder" run reduce --quick --json "$tmp/a.json" >"$tmp/a.out" 2>&1 &
a=$!
"$ladder" run reduce --quick --json "$tmp/b.json" >"$tmp/b.out" 2>&1 &
b=$!
wait $a; code_a=$?
wait $b; code_b=$?
[ $code_a -eq 0 ] && [ $code_b -eq 0 ] || fail "concurrent runs exited $code_a and $code_b"
for run in a b; do
    if grep -q "could not be checked" "$tmp/$run.out"; then echo "NVML unavailable: contention not checkable"; exit 77; fi
    grep -q "warning: another process is using the GPU" "$tmp/$run.out" || fail "run $run printed no contention warning"
    grep "warning: another process" "$tmp/$run.out" | head -1
    python3 - "$tmp/$run.json" <<'PY' || fail "run $run's document does not record the contention"
import json, sys
doc = json.load(open(sys.argv[1]))
c = doc["contention"]
assert c["checked"] and c["processes"], c
contended = sum(r["contended"] for r in doc["results"])
assert contended > 0, "no record marked contended"
print(sys.argv[1].rsplit("/", 1)[1], ":", contended, "of", len(doc["results"]), "records contended, processes", c["processes"])
PY
done

[ $failures -eq 0 ] && echo "run_document_gpu_test: ok" || echo "run_document_gpu_test: $failures failures"
[ $failures -eq 0 ]
