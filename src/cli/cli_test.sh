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
# --help names the cases, so that `ladder run CASE` can be typed from it.
expect 0 "transpose sgemm hgemm" --help
expect 2 "too large" run transpose --size 2^99
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
expect 2 "hang-timeout needs seconds from 0 (off)" run transpose --hang-timeout -3
expect 2 "hang-timeout needs seconds from 0 (off)" run transpose --hang-timeout soon
expect 2 "option --hang-timeout needs a value" run --hang-timeout
expect 0 "tiled_padded" list transpose
expect 0 "transpose" list

# try: every mistake in the command line is one line and exit 2, before
# any compile or GPU (try_templates_test.sh covers the files themselves).
expect 2 "unknown case 'nosuchcase'" try nosuchcase x.cu
expect 2 "try coalescing: coalescing is a sweep" try coalescing x.cu
expect 2 "try allreduce: allreduce spans every GPU" try allreduce --template
expect 2 "try needs a case and a kernel file" try
expect 2 "try needs a kernel file: ladder try transpose FILE.cu" try transpose
expect 2 "cannot read the kernel file '$tmp/missing.cu': No such file" try transpose "$tmp/missing.cu"
expect 2 "cannot read the kernel file '$tmp': it is a directory" try transpose "$tmp"
expect 2 "--template takes no file" try transpose x.cu --template
expect 2 "--template, --name and --nvcc are options of try" run transpose --name mine
expect 2 "option --nvcc needs a value" try transpose x.cu --nvcc
expect 2 "try runs on one GPU" try transpose x.cu --device 0,1
expect 2 "transpose takes ROWSxCOLS or N" try transpose x.cu --size 2x3x4
expect 2 "--size names case 'reduce'" try transpose x.cu --size reduce=5
expect 0 "ladder_try_transpose(const float \*in" try transpose --template
expect 0 "try CASE FILE.cu" --help
: >"$tmp/a.cu"
expect 2 "--name names one file's rung" try transpose "$tmp/a.cu" "$tmp/a.cu" --name x
expect 2 "two files make the rung 'a.cu'" try transpose "$tmp/a.cu" "$tmp/a.cu"
expect 2 "no variant 'nosuch' in the case, nor a tried file" try transpose "$tmp/a.cu" --variant nosuch

# --ncu needs Nsight Compute; checked before the GPU is touched.
LADDER_NCU=/nonexistent/ncu expect 1 "LADDER_NCU=/nonexistent/ncu is not an executable" run smem --ncu
expect 2 "device takes no cases, sizes, variants or --ncu" device --ncu

# Reports: from a real results file, and a clean failure for a bad one.
results=$(dirname "$0")/../../docs/results/nvidia-h200.json
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
# ... and says what works without one, with commands that do work here.
CUDA_VISIBLE_DEVICES= expect 1 "Without one, these work:" run
cp "$tmp/out" "$tmp/nogpu.out"
# The commands are spelled with the path that ran ladder, which works as typed.
for want in "list" "report" "compare" "occupancy --cc" "blur"; do
    grep -q -F "  $ladder $want" "$tmp/nogpu.out" || { echo "FAIL: the no-GPU message lacks '$ladder $want'"; failures=$((failures + 1)); }
done
# No driver at all is not a driver too old: no advice to upgrade what is not there.
if ! ldconfig -p 2>/dev/null | grep -q libcuda.so.1 && [ ! -e /usr/lib/x86_64-linux-gnu/libcuda.so.1 ]; then
    grep -q "no NVIDIA driver was found" "$tmp/nogpu.out" || { echo "FAIL: without a driver the message does not say so"; failures=$((failures + 1)); }
    grep -q "insufficient" "$tmp/nogpu.out" && { echo "FAIL: without a driver the message speaks of its version"; failures=$((failures + 1)); }
fi
report_args=$(sed -n "s#^  $ladder report \(.*\) -o report.html\$#\1#p" "$tmp/nogpu.out")
expect 0 "" report $report_args -o "$tmp/nogpu-report.html"
compare_args=$(sed -n "s#^  $ladder compare ##p" "$tmp/nogpu.out")
"$ladder" compare $compare_args >"$tmp/out" 2>&1
code=$?
{ [ $code -le 1 ] && grep -q "geomean" "$tmp/out"; } || { echo "FAIL: ladder compare $compare_args -> $code"; failures=$((failures + 1)); }
occupancy_args=$(sed -n "s#^  $ladder occupancy \(.*\)\$#\1#p" "$tmp/nogpu.out")
expect 0 "occupancy" occupancy $occupancy_args

# Every check that needs no GPU comes first: the same error on any machine,
# at once, before the device is opened (here there is none).
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n4 1 2.0\n' >"$tmp/bad.mtx"
CUDA_VISIBLE_DEVICES= expect 2 "line 4" run spmv --matrix "$tmp/bad.mtx"
CUDA_VISIBLE_DEVICES= expect 2 "at most" run transpose --size 99999999x4
CUDA_VISIBLE_DEVICES= expect 2 "transpose takes ROWSxCOLS or N" run transpose --size 2x3x4
CUDA_VISIBLE_DEVICES= expect 2 "at least 4096" run transfer --size 4095
CUDA_VISIBLE_DEVICES= expect 2 "sgemm takes MxNxK" run --size sgemm=4x4
CUDA_VISIBLE_DEVICES= expect 1 "cannot write $tmp/no/such/dir/x.json" run transpose --json "$tmp/no/such/dir/x.json"
CUDA_VISIBLE_DEVICES= expect 1 "it is a directory" run transpose --csv "$tmp"
CUDA_VISIBLE_DEVICES= expect 1 "cannot write" device --json "$tmp/no/such/dir/x.json"
image=$(dirname "$0")/../../tests/images/gradient_17x11.ppm
CUDA_VISIBLE_DEVICES= expect 1 "cannot write $tmp/no/dir/out.ppm" blur "$image" "$tmp/no/dir/out.ppm"
CUDA_VISIBLE_DEVICES= expect 1 "no CUDA device" run transpose --quiet
CUDA_VISIBLE_DEVICES= expect 1 "no CUDA device" run transpose --no-energy
expect 0 "--no-energy" --help
expect 2 "--device needs N, a list such as 0,1, or all" run --device ,
expect 2 "--device names GPU 1 twice" run --device 0,1,1
expect 2 "--device needs a whole number" run --device 0,x
CUDA_VISIBLE_DEVICES= expect 1 "no CUDA device" run transpose --device all --json "$tmp/all.json"
[ -e "$tmp/all.json" ] && { echo "FAIL: JSON written without a GPU"; failures=$((failures + 1)); }

# With a GPU: impossible sizes and out-of-memory are clean failures too.
if "$ladder" device --quick >/dev/null 2>&1; then
    expect 1 "not available" run transpose --quick --size 300000x300000 --json "$tmp/oom.json"
    [ -e "$tmp/oom.json" ] && { echo "FAIL: JSON written by a failed run"; failures=$((failures + 1)); }
    expect 1 "no CUDA device 7" run --device 7
    # Every GPU in turn: one document per GPU (FILE itself when there is one).
    expect 0 "measured:" device --quick --device all --json "$tmp/dev.json"
    gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
    if [ "$gpus" -gt 1 ]; then want="$tmp/dev-gpu0.json"; else want="$tmp/dev.json"; fi
    [ -e "$want" ] || { echo "FAIL: device --device all wrote no $want"; failures=$((failures + 1)); }
fi

# transfer: the ladder lists its sweep and pipeline; with a GPU, a size below
# the smallest transfer and one beyond memory fail cleanly, writing nothing.
expect 0 "pipeline_4_streams" list transfer
expect 0 "h2d_pinned_1GiB" list transfer
if "$ladder" device --quick >/dev/null 2>&1; then
    expect 1 "not available" run transfer --size 2^40 --json "$tmp/transfer_oom.json"
    [ -e "$tmp/transfer_oom.json" ] && { echo "FAIL: JSON written by a failed transfer run"; failures=$((failures + 1)); }
fi

# gemv and gemv_t: listed with their rungs; sizes are MxN or N, nothing else.
expect 0 "warp_4rows_float4" list gemv
expect 0 "float4_tile_two_pass" list gemv_t
CUDA_VISIBLE_DEVICES= expect 2 "gemv takes MxN" run gemv --size 2x3x4
CUDA_VISIBLE_DEVICES= expect 2 "gemv_t takes MxN" run gemv_t --size 2x3x4

# ---- occupancy (the calculator): works without a GPU when --cc is given ----
expect 0 "3 blocks per SM, 24 of 24 warps: occupancy 100.0%, limited by threads" occupancy --cc 1.0 --threads 256 --regs 10
expect 0 "2 blocks per SM, 16 of 24 warps: occupancy 66.7%, limited by registers" occupancy --cc 1.0 --threads 256 --regs 11
expect 0 "limited by shared memory" occupancy --cc 9.0 --threads 128 --smem 50000
expect 0 "cannot launch" occupancy --cc 9.0 --threads 128 --smem 250000
"$ladder" occupancy --cc 1.0 --threads 256 --regs 11 --json >"$tmp/occ.json" 2>&1
python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
assert o["blocks_per_sm"] == 2 and o["warps_per_sm"] == 16 and o["limiter"] == "registers", o
assert abs(o["occupancy"] - 16 / 24) < 1e-5 and o["blocks_by"]["shared_memory"] is None, o
' "$tmp/occ.json" && echo "ok: occupancy --json parses" || { echo "FAIL: occupancy --json:"; cat "$tmp/occ.json"; failures=$((failures + 1)); }
expect 2 "unknown compute capability '4.0'" occupancy --cc 4.0 --threads 128
expect 2 "needs X.Y" occupancy --cc 9 --threads 128
expect 2 "needs X.Y" occupancy --cc 9.0x --threads 128
expect 2 "exactly one of --cc X.Y and --device N" occupancy --threads 128
expect 2 "exactly one of --cc X.Y and --device N" occupancy --cc 9.0 --device 0 --threads 128
expect 2 "occupancy needs --threads" occupancy --cc 9.0
expect 2 "--threads needs a whole number" occupancy --cc 9.0 --threads 0
expect 2 "--regs needs a whole number" occupancy --cc 9.0 --threads 64 --regs -1
expect 2 "--smem needs a whole number" occupancy --cc 9.0 --threads 64 --smem lots
expect 2 "unknown option '--size' for occupancy" occupancy --cc 9.0 --threads 64 --size 5
CUDA_VISIBLE_DEVICES= expect 1 "no CUDA device" occupancy --device 0 --threads 128

# instr: the ladder lists its groups; sizes it cannot take are refused.
expect 0 "sshift_corrected" list instr
expect 0 "__sinf" list instr
CUDA_VISIBLE_DEVICES= expect 2 "1 to 2^26" run instr --size 2^27
CUDA_VISIBLE_DEVICES= expect 2 "1 to 2^26" run instr --size 64x64

# ---- spmv: --matrix FILE (Matrix Market) ----
matrices=$(dirname "$0")/../../tests/matrices
expect 0 "adaptive_loads_first" list spmv
expect 2 "cannot read the --matrix file '/nonexistent.mtx'" run spmv --matrix /nonexistent.mtx
expect 2 "option --matrix needs a value" run spmv --matrix
expect 2 "not being run" run reduce --matrix "$matrices/general_real_97x89.mtx"
if "$ladder" device --quick >/dev/null 2>&1; then
    expect 0 "file:" run spmv --quick --matrix "$matrices/symmetric_pattern_1500.mtx"
fi
CUDA_VISIBLE_DEVICES= expect 2 "line 3: entry (0, 1) is outside" run spmv --quick --matrix "$(dirname "$0")/../../tests/corpus/matrix_market/index_zero.mtx"
CUDA_VISIBLE_DEVICES= expect 2 "banded:ROWS or powerlaw:ROWS" run spmv --quick --size 1000

# ---- blur: ladder blur IN OUT (tests/images, made by tests/images/make_test_files.py) ----
images=$(dirname "$0")/../../tests/images
corpus=$(dirname "$0")/../../tests/corpus/netpbm
expect 2 "blur needs IN and OUT" blur
expect 2 "blur needs IN and OUT" blur "$images/gradient_17x11.ppm"
expect 2 "unknown option '--bogus' for blur" blur "$images/gradient_17x11.ppm" "$tmp/o.ppm" --bogus
expect 2 "no blur rung 'nosuch'" blur "$images/gradient_17x11.ppm" "$tmp/o.ppm" --variant nosuch
[ "$(grep -c 'see ladder' "$tmp/out")" = 1 ] && ! grep -q "see ladder --help" "$tmp/out" ||
    { echo "FAIL: the blur rung message points to more than one place"; failures=$((failures + 1)); }
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
