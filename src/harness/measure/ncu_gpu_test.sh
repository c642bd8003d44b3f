#!/bin/sh
# `ladder run --ncu` end to end: the counters reach the table and the JSON,
# with the values the problem fixes. Skipped (77) without a GPU or ncu.
# Usage: ncu_gpu_test.sh path/to/ladder
ladder=$1
"$ladder" device --quick >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
[ -n "${LADDER_NCU:-}" ] || command -v ncu >/dev/null 2>&1 || { echo "no ncu: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # run NAME ARGS...: ladder run ARGS --ncu --json, output kept
    name=$1
    shift
    if ! "$ladder" run "$@" --quick --time-cap 0 --ncu --json "$tmp/$name.json" >"$tmp/$name.txt" 2>&1; then
        cat "$tmp/$name.txt"
        echo "FAIL: ladder run $* --ncu"
        exit 1
    fi
    cat "$tmp/$name.txt"
    grep -q "counters (Nsight Compute" "$tmp/$name.txt" || { echo "FAIL: no counters table"; exit 1; }
}
run strided coalescing --variant stride_f32_16
run banks smem_banks --variant w4_stride_2

python3 - "$tmp/strided.json" "$tmp/banks.json" <<'PY'
import json, sys
def records(path):
    return {r["variant"]: r for r in json.load(open(path))["results"]}
strided = records(sys.argv[1])
n = 2**21 + 2**20  # coalescing's quick size, in floats
s = strided["stride_f32_16"]["counters"]
# Floats 64 bytes apart: every lane reads a 32-byte sector of its own;
# the writes are contiguous, 4 sectors per warp.
assert s["kernels"] == 1, s
assert s["global_load_sectors_per_request"] == 32, s
assert s["global_store_sectors_per_request"] == 4, s
assert s["l2_read_bytes"] == n * 32, s
assert s["dram_bytes_read"] >= 0.95 * n * 32, s
assert strided["memcpy"]["counters"]["kernels"] == 0, strided["memcpy"]
banks = records(sys.argv[2])
b = banks["w4_stride_2"]["counters"]
# Lanes 2 words apart: a 2-way bank conflict, 2 wavefronts per load.
assert abs(b["shared_load_wavefronts_per_instruction"] - 2) < 0.02, b
assert b["shared_bank_conflicts"] > 0, b
print("ncu_gpu_test: ok")
PY
