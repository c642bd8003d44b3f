#!/bin/sh
# `ladder try` as a user meets it without a GPU (CI): every triable case's
# template comes out of --template and compiles against include/ladder_try.h;
# every sweep case refuses in one line; the planted files of tests/try/ fail
# the way they should (a wrong signature with nvcc's own message, a missing
# entry point, a compile error: exit 2 each), before any GPU is needed, and
# no temporary folder is left behind.
# Usage: try_templates_test.sh path/to/ladder path/to/nvcc
ladder=$1 nvcc=$2
root=$(cd "$(dirname "$0")/../../.." && pwd)
[ -x "$nvcc" ] || { echo "no nvcc at $nvcc: skipped"; exit 77; }
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# ladder's own folders go here, so that a leftover one is seen.
export TMPDIR="$tmp/t"
mkdir "$TMPDIR"

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE PATTERN ARGS...: exit code CODE and PATTERN in the output.
expect() {
    code=$1 pattern=$2
    shift 2
    "$ladder" "$@" >"$tmp/out" 2>&1
    got=$?
    if [ "$got" -ne "$code" ] || ! grep -q -- "$pattern" "$tmp/out"; then
        fail "ladder $* -> exit $got (want $code and '$pattern'), output:"; sed 's/^/  /' "$tmp/out"
    else
        echo "ok: ladder $* -> $got"
    fi
    [ -z "$(ls -A "$TMPDIR")" ] || { fail "ladder $* left $(ls "$TMPDIR") in TMPDIR"; rm -rf "${TMPDIR:?}"/*; }
}

triable=0
for case_name in $("$ladder" list | awk '{print $1}'); do
    if "$ladder" try "$case_name" --template >"$tmp/$case_name.cu" 2>"$tmp/refusal"; then
        triable=$((triable + 1))
        grep -q "ladder_try_$case_name(" "$tmp/$case_name.cu" || fail "$case_name's template defines no ladder_try_$case_name"
        # Through ladder try itself, with no GPU visible: compiled against include/ladder_try.h,
        # its entry point (ladder_try_NAME, named from the case) found, then the no-GPU stop.
        CUDA_VISIBLE_DEVICES= expect 1 "no CUDA device" try "$case_name" "$tmp/$case_name.cu" --nvcc "$nvcc"
    else
        code=$?
        [ "$code" -eq 2 ] && [ "$(wc -l <"$tmp/refusal")" -eq 1 ] && grep -q "try $case_name: " "$tmp/refusal" ||
            fail "try $case_name --template: exit $code, want 2 and one line: $(cat "$tmp/refusal")"
        echo "ok: $case_name refuses: $(cat "$tmp/refusal")"
    fi
done
# transpose reduce sgemm hgemm gemv gemv_t spmv ado blur attention smem
[ "$triable" -eq 11 ] || fail "$triable cases have a template, want 11"

planted="$root/tests/try"
expect 2 "more than one instance of overloaded function \"ladder_try_transpose\" has \"C\" linkage" \
    try transpose "$planted/transpose_wrong_signature.cu"
expect 2 "defines no ladder_try_transpose with C linkage" try transpose "$planted/transpose_no_entry_point.cu"
expect 2 "this_is_not_declared" try transpose "$planted/transpose_syntax_error.cu"
expect 2 "does not compile; nvcc's first lines" try transpose "$planted/transpose_syntax_error.cu"
# A template of one case is not another's kernel.
"$ladder" try smem --template >"$tmp/smem_kernel.cu"
expect 2 "defines no ladder_try_transpose" try transpose "$tmp/smem_kernel.cu"
# No nvcc is a missing tool, as a missing ncu is: exit 1.
expect 1 "not an executable file" try transpose "$tmp/smem_kernel.cu" --nvcc "$tmp/no-nvcc-here"

[ "$failures" -eq 0 ] && echo "try_templates_test: ok" || echo "try_templates_test: $failures failed"
[ "$failures" -eq 0 ]
