#!/bin/sh
# `ladder try` on a GPU: every triable case's template passes, is timed and
# placed on its ladder, with its record in the JSON; the planted kernels of
# tests/try/ fail as they should (a skipped edge and an unwritten output:
# exit 3; an out-of-bounds write: the fault line, the compute-sanitizer
# command, exit 5; a hang: the watchdog's line, exit 4), each time with the
# ladder's own records kept; with ncu, `try --ncu` gives the tried kernel
# counters and a limiter line. With `memcheck` last, instead: each template's
# child alone (at small sizes) under compute-sanitizer memcheck, which must
# find nothing. Skipped (77) without a GPU (or, for memcheck, without
# compute-sanitizer).
# Usage: try_gpu_test.sh path/to/ladder path/to/nvcc [memcheck]
ladder=$1 nvcc=$2 mode=${3:-ladders}
root=$(cd "$(dirname "$0")/../../.." && pwd)
"$ladder" device --quick >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR="$tmp/t"
mkdir "$TMPDIR"
quick="--quick --no-energy --time-cap 0"

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# try NAME CODE CASE FILE ARGS...: ladder try CASE FILE ARGS --json, exit CODE.
try() {
    name=$1 code=$2 case_name=$3 file=$4
    shift 4
    "$ladder" try "$case_name" "$file" $quick --json "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>&1
    got=$?
    [ "$got" -eq "$code" ] && echo "ok: try $case_name $file -> $got" ||
        { fail "try $case_name $file $* -> exit $got, want $code:"; sed 's/^/  /' "$tmp/$name.out"; }
    # Nothing of ladder's is left. ncu keeps files of its own in TMPDIR: its lock file and a
    # folder "nvidia" (seen on an H200 after `try --ncu`); they are not ladder's to remove.
    left=$(ls -A "$TMPDIR" | grep -v -E '^(nsight-compute-lock|nvidia)$')
    [ -z "$left" ] || { fail "try $case_name left $left behind"; rm -rf "${TMPDIR:?}"/*; }
}

# records NAME PYTHON: an assertion over the document's records (r: the
# list, user: the tried ones, rungs: the ladder's own).
records() {
    python3 - "$tmp/$1.json" "$2" <<'PY' || fail "$1.json: $2"
import json, sys
doc = json.load(open(sys.argv[1]))
r = doc["results"]
user = [x for x in r if x.get("user")]
rungs = [x for x in r if not x.get("user")]
assert eval("(" + sys.argv[2] + ")"), [(x["variant"], x["size"], x["valid"], x["skipped"], x.get("reason")) for x in r]
PY
}

triable="transpose reduce sgemm hgemm gemv gemv_t spmv ado blur attention smem"
for case_name in $triable; do "$ladder" try "$case_name" --template >"$tmp/${case_name}_mine.cu"; done

# Each template's child alone under memcheck: the entry point, the odd sizes, the timing, no error.
if [ "$mode" = memcheck ]; then
    command -v compute-sanitizer >/dev/null 2>&1 || { echo "no compute-sanitizer: skipped"; exit 77; }
    for case_name in $triable; do
        size=$(python3 -c "
print({'transpose': '97x45', 'reduce': '1000', 'sgemm': '65x33x17', 'hgemm': '65x33x24', 'gemv': '97x45',
       'gemv_t': '97x45', 'spmv': 'powerlaw:999', 'ado': '33x17x5', 'blur': '97x45', 'attention': '1x2x33x64',
       'smem': '1000'}['$case_name'])")
        "$nvcc" -O3 -lineinfo -Xcompiler -fPIC -shared -I"$root/include" "$tmp/${case_name}_mine.cu" \
            "$root/src/harness/user/launch_errors.cu" -o "$tmp/$case_name.so" || { fail "$case_name: nvcc"; continue; }
        if LADDER_TRY_CHILD="$tmp/$case_name.so" LADDER_TRY_REPORT="$tmp/$case_name.report" LADDER_TRY_TEST_SIZES=1 \
            compute-sanitizer --tool memcheck --target-processes all --error-exitcode 99 "$ladder" try "$case_name" "$tmp/${case_name}_mine.cu" \
            --name mine --size "$case_name=$size" --no-energy --time-cap 0 >"$tmp/$case_name.memcheck" 2>&1; then
            echo "ok: memcheck clean for $case_name's template"
        else
            fail "memcheck on $case_name's template:"; tail -20 "$tmp/$case_name.memcheck" | sed 's/^/  /'
        fi
    done
    [ "$failures" -eq 0 ] && echo "try_gpu_test memcheck: ok" || echo "try_gpu_test memcheck: $failures failed"
    [ "$failures" -eq 0 ]
    exit
fi

for case_name in $triable; do
    try "$case_name" 0 "$case_name" "$tmp/${case_name}_mine.cu"
    grep -q "^you  ${case_name}_mine.cu" "$tmp/$case_name.out" || fail "$case_name: no row of yours in the table"
    grep -q "^${case_name}_mine.cu at .*of the .* ceiling" "$tmp/$case_name.out" ||
        fail "$case_name: no placement line"
    records "$case_name" 'user and all(u["valid"] and u["median_ms"] > 0 and u["samples"] >= 10 and
        len(u["source_sha256"]) == 64 and "nvcc" in u["compile_command"] and u["test_size_failures"] is None
        for u in user) and any(x["valid"] for x in rungs) and doc["complete"]'
done

planted="$root/tests/try"
try edge 3 transpose "$planted/transpose_skips_edge.cu"
grep -q "transpose_skips_edge.cu: wrong at the case's test sizes (1000x777: error" "$tmp/edge.out" ||
    fail "edge: no line for the odd size"
records edge 'user[0]["test_size_failures"] and "1000x777" in user[0]["test_size_failures"] and
    "512x256" not in user[0]["test_size_failures"] and all(x["valid"] for x in rungs)'

try unwritten 3 reduce "$planted/reduce_unwritten.cu"
records unwritten 'not user[0]["valid"] and "NaN or Inf" in user[0]["test_size_failures"]'

try fault 5 transpose "$planted/transpose_out_of_bounds.cu"
grep -q "transpose_out_of_bounds.cu faulted at transpose 1000x777 (checked run): CUDA error" "$tmp/fault.out" ||
    fail "fault: no line naming the file, the error and the size"
grep -q "to find the line: compute-sanitizer --tool memcheck" "$tmp/fault.out" || fail "fault: no sanitizer command"
records fault 'user[0]["skipped"] and "faulted" in user[0]["reason"] and len(rungs) >= 10 and
    all(x["valid"] for x in rungs) and doc["complete"]'

try hang 4 reduce "$planted/reduce_hang.cu" --hang-timeout 3
grep -q "did not finish in 3 s" "$tmp/hang.out" || fail "hang: no watchdog line"
records hang 'user[0]["hung"] and user[0]["skipped"] and len(rungs) >= 10 and all(x["valid"] for x in rungs)'

# --ncu: the tried kernel's counters in the counters table beside the
# rungs' and in its record, and the limiter line; skipped without ncu.
if [ -n "${LADDER_NCU:-}" ] || command -v ncu >/dev/null 2>&1; then
    try ncu 0 transpose "$tmp/transpose_mine.cu" --ncu
    awk '/counters \(Nsight Compute/ { table = 1 } table && /^you  transpose_mine\.cu +[1-9]/ { row = 1 }
         END { exit !row }' "$tmp/ncu.out" || fail "ncu: no row of yours in the counters table"
    grep -q "^limiter: " "$tmp/ncu.out" || fail "ncu: no limiter line"
    records ncu 'user[0]["counters"]["kernels"] >= 1 and user[0]["counters"]["dram_bytes_read"] > 0 and
        sum("counters" in x for x in rungs) >= 5'
    sed -n '/counters (Nsight Compute/,$p' "$tmp/ncu.out"
else
    echo "no ncu: try --ncu skipped"
fi

[ "$failures" -eq 0 ] && echo "try_gpu_test: ok" || echo "try_gpu_test: $failures failed"
[ "$failures" -eq 0 ]
