#!/bin/sh
# The machine code of the attention tensor-core kernels, read with cuobjdump
# (no GPU needed), as hgemm_sass_test.sh reads hgemm's: the mma.sync rungs
# contain HMMA, the wgmma rung HGMMA, and none of them LDL or STL (registers
# spilled to local memory, or an array indexed at run time: the online
# softmax's score and accumulator arrays must stay in registers). Exits 77
# where cuobjdump (or the nvdisasm it calls) is missing or the binary has
# no sm_90 code. Usage: attention_sass_test.sh path/to/ladder [path/to/cuobjdump]
binary=$1
cuobjdump=${2:-$(command -v cuobjdump)}
if [ -z "$cuobjdump" ] || [ ! -x "$cuobjdump" ]; then
    echo "skipped: cuobjdump not found"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

sass() {
    "$cuobjdump" -sass -arch "$1" "$binary" 2>"$tmp/errors" >"$tmp/$1.sass"
    if grep -q nvdisasm "$tmp/errors"; then
        echo "skipped: cuobjdump cannot disassemble without nvdisasm: $(head -1 "$tmp/errors")"
        exit 77
    fi
    [ -s "$tmp/$1.sass" ]
}

# expect ARCH FUNCTION_PATTERN WANTED: every function of ARCH whose (mangled)
# name matches has a WANTED instruction and no LDL or STL; at least one does.
expect() {
    found=$(awk -v pattern="$2" -v wanted="$3" '
        /Function :/ { name = $3; inside = (name ~ pattern); if (inside) { seen[name] = 1; has[name] = 0; spill[name] = 0 } next }
        inside && $0 ~ wanted { has[name] = 1 }
        inside && /[^A-Z](LDL|STL)[. ]/ { spill[name] = 1 }
        END { for (n in seen) printf "%s %s %s\n", n, has[n] ? "has" : "lacks", spill[n] ? "spills" : "clean" }' "$tmp/$1.sass")
    if [ -z "$found" ]; then
        echo "FAIL: no $1 function matches $2"
        failures=$((failures + 1))
        return
    fi
    echo "$found" | while read -r name has spill; do
        if [ "$has" = has ] && [ "$spill" = clean ]; then
            echo "ok: $1 $name: $3, no LDL/STL"
        else
            echo "FAIL: $1 $name: $has $3, $spill"
            echo x >>"$tmp/failed"
        fi
    done
}

if ! sass sm_90; then
    echo "skipped: $binary has no sm_90 code (the CUDA architectures of this build lack 90)"
    exit 77
fi
expect sm_90 '^_Z[0-9]+mma(_async)?_kernelILi(64|128)EE' HMMA
expect sm_90 '^_Z[0-9]+fused_fp32_kernel' FFMA
if sass sm_90a; then
    expect sm_90a 'wgmma_ws_kernel' HGMMA
else
    echo "FAIL: $binary has sm_90 code but no sm_90a code (the Hopper rung's object library)"
    failures=$((failures + 1))
fi
[ -f "$tmp/failed" ] && failures=$((failures + $(wc -l <"$tmp/failed")))
echo "attention_sass_test: $failures failed"
[ "$failures" -eq 0 ]
