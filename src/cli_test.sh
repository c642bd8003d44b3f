#!/bin/sh
# The command line as a user meets it: exit codes and one-line messages for
# bad input, and a clean failure (nothing half-written) without a GPU.
# Usage: cli_test.sh path/to/ladder
ladder=$1
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect CODE PATTERN ARGS...: exit code CODE and PATTERN somewhere in the output.
expect() {
    code=$1 pattern=$2
    shift 2
    "$ladder" "$@" >"$tmp/out" 2>&1
    got=$?
    if [ "$got" -ne "$code" ] || { [ -n "$pattern" ] && ! grep -q -- "$pattern" "$tmp/out"; }; then
        echo "FAIL: ladder $* -> exit $got (want $code), output:"; sed 's/^/  /' "$tmp/out"
        failures=$((failures + 1))
    else
        echo "ok: ladder $* -> $got"
    fi
}

expect 0 "ladder 0" --version
expect 0 "usage: ladder" --help
expect 2 "usage: ladder"
expect 2 "unknown command 'frobnicate'" frobnicate
expect 2 "unknown option '--bogus'" run --bogus
expect 2 "unknown case 'nosuchcase'" run nosuchcase
expect 2 "unknown case 'nosuchcase'" list nosuchcase
expect 2 "malformed size '12xq'" run transpose --size 12xq
expect 2 "below 1" run transpose --size 0x5
expect 2 "unknown case 'nope' in --size" run transpose --size nope=5
expect 2 "needs a whole number from 10" run --samples 3
expect 2 "option --json needs a value" run --json
expect 2 "no variant 'nosuchvariant'" run transpose --variant nosuchvariant
expect 2 "not being run" run transpose --size reduce=5
expect 2 "no variant '99'" run transpose --variant 99
expect 0 "tiled_padded" list transpose
expect 0 "transpose" list

# --ncu needs Nsight Compute; checked before the GPU is touched.
LADDER_NCU=/nonexistent/ncu expect 1 "LADDER_NCU=/nonexistent/ncu is not an executable" run smem --ncu
expect 2 "device takes no cases, sizes, variants or --ncu" device --ncu

# Reports: from a real results file, and a clean failure for a bad one.
results=$(dirname "$0")/../docs/results/nvidia-h200.json
expect 0 "" report "$results" -o "$tmp/report.html"
grep -q "<svg" "$tmp/report.html" && grep -q "transpose" "$tmp/report.html" || {
    echo "FAIL: the report has no chart"; failures=$((failures + 1)); }
echo "not json" >"$tmp/bad.json"
expect 1 "cannot make a report" report "$tmp/bad.json" -o "$tmp/bad.html"
[ -e "$tmp/bad.html" ] && { echo "FAIL: a report was written from bad input"; failures=$((failures + 1)); }
expect 2 "required" report "$results"

# Without a visible GPU: one line that says so, exit 1, and no output file.
CUDA_VISIBLE_DEVICES= expect 1 "no CUDA device" run transpose --quick --json "$tmp/none.json" --csv "$tmp/none.csv"
if [ -e "$tmp/none.json" ] || [ -e "$tmp/none.csv" ]; then
    echo "FAIL: an output file was written by a failed run"; failures=$((failures + 1))
fi
CUDA_VISIBLE_DEVICES= expect 1 "no CUDA device" device

# With a GPU: impossible sizes and out-of-memory are clean failures too.
if "$ladder" device --quick >/dev/null 2>&1; then
    expect 2 "at most" run transpose --quick --size 99999999x4
    expect 1 "not available" run transpose --quick --size 300000x300000 --json "$tmp/oom.json"
    [ -e "$tmp/oom.json" ] && { echo "FAIL: JSON written by a failed run"; failures=$((failures + 1)); }
    expect 1 "no CUDA device 7" run --device 7
fi

# ---- blur: ladder blur IN OUT (tests/images, made by tests/images/make_test_files.py) ----
images=$(dirname "$0")/../tests/images
corpus=$(dirname "$0")/../tests/corpus/netpbm
expect 2 "blur needs IN and OUT" blur
expect 2 "blur needs IN and OUT" blur "$images/gradient_17x11.ppm"
expect 2 "unknown option '--bogus' for blur" blur "$images/gradient_17x11.ppm" "$tmp/o.ppm" --bogus
expect 2 "no blur rung 'nosuch'" blur "$images/gradient_17x11.ppm" "$tmp/o.ppm" --variant nosuch
expect 2 "no blur rung 'memcpy'" blur "$images/gradient_17x11.ppm" "$tmp/o.ppm" --variant memcpy
expect 1 "cannot open" blur "$tmp/missing.ppm" "$tmp/o.ppm"
for bad in truncated_raster bad_magic_p5 too_large pam_header_lies_small sample_above_maxval; do
    expect 1 "$bad: " blur "$corpus/$bad" "$tmp/bad.ppm"
    [ -e "$tmp/bad.ppm" ] && { echo "FAIL: blur wrote an output for $bad"; failures=$((failures + 1)); }
    ls "$tmp" | grep -q '\.tmp\.' && { echo "FAIL: blur left a temporary file for $bad"; failures=$((failures + 1)); }
done
expect 1 "cannot write" blur "$images/gradient_17x11.ppm" "$tmp/no/such/dir/o.ppm"
# Without a GPU the CPU reference runs and says so; the result equals the
# expected file, which the generator computed independently of the C code.
for image in gradient_17x11.ppm rgba16_9x7.pam maxval1000_5x4.ppm; do
    stem=${image%.*} ext=${image##*.}
    CUDA_VISIBLE_DEVICES= expect 0 "smoothing on the CPU" blur "$images/$image" "$tmp/$stem.cpu.$ext"
    cmp -s "$tmp/$stem.cpu.$ext" "$images/$stem.expected.$ext" || {
        echo "FAIL: CPU blur of $image differs from $stem.expected.$ext"; failures=$((failures + 1)); }
done
# With a GPU: every rung, and the default, give the same bytes.
if "$ladder" device --quick >/dev/null 2>&1; then
    for variant in naive shared_tile padded4 pitched pitched_shared window_4byte window_16byte; do
        expect 0 "" blur "$images/gradient_17x11.ppm" "$tmp/g.ppm" --variant $variant
        cmp -s "$tmp/g.ppm" "$images/gradient_17x11.expected.ppm" || {
            echo "FAIL: GPU blur ($variant) differs"; failures=$((failures + 1)); }
    done
    for image in rgba16_9x7.pam maxval1000_5x4.ppm; do
        stem=${image%.*} ext=${image##*.}
        expect 0 "" blur "$images/$image" "$tmp/$stem.gpu.$ext"
        cmp -s "$tmp/$stem.gpu.$ext" "$images/$stem.expected.$ext" || {
            echo "FAIL: GPU blur of $image differs"; failures=$((failures + 1)); }
    done
    expect 1 "no CUDA device 7" blur "$images/gradient_17x11.ppm" "$tmp/o.ppm" --device 7
fi

[ "$failures" -eq 0 ] && echo "cli_test: ok" || echo "cli_test: $failures failed"
[ "$failures" -eq 0 ]
