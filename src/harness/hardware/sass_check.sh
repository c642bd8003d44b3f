# The tensor-core kernels' machine code, read with cuobjdump (no GPU needed):
# sourced by each case's SASS test (src/cases/NAME/NAME_sass_test.sh), which then
# lists what its kernels must contain with `expect` and ends with
# `sass_check_done NAME`. Usage of such a test: NAME_sass_test.sh
# path/to/ladder [path/to/cuobjdump]; it exits 77 where cuobjdump (or the
# nvdisasm it calls) is missing or the binary has no sm_90 code.
binary=$1
cuobjdump=${2:-$(command -v cuobjdump)}
# Where the toolkit lacks them, NVIDIA's pip packages carry both tools (as CI installs them).
get_tools="python3 -m pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm, then put the bin folder of
  python3 -c 'import nvidia, os; print(os.path.join(nvidia.__path__[0], \"cu13\", \"bin\"))' on PATH and rerun cmake"
if [ -z "$cuobjdump" ] || [ ! -x "$cuobjdump" ]; then
    echo "skipped: cuobjdump not found; to get it: $get_tools"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# sass ARCH: the functions of that architecture, one "NAME OPCODE..." block each.
sass() {
    "$cuobjdump" -sass -arch "$1" "$binary" 2>"$tmp/errors" >"$tmp/$1.sass"
    # cuobjdump disassembles through nvdisasm: without it there is no SASS to read.
    if grep -q nvdisasm "$tmp/errors"; then
        echo "skipped: cuobjdump cannot disassemble without nvdisasm: $(head -1 "$tmp/errors"); to get it: $get_tools"
        exit 77
    fi
    [ -s "$tmp/$1.sass" ]
}

# expect ARCH FUNCTION_PATTERN WANTED: every function of ARCH whose (mangled)
# name matches has a WANTED instruction and no LDL or STL (registers spilled
# to local memory, or an array indexed at run time); at least one matches.
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

# The sm_90 code must be there (else the test is skipped); the sm_90a code,
# the Hopper rungs' object library, too, once sm_90 is.
require_sm90() {
    if ! sass sm_90; then
        echo "skipped: $binary has no sm_90 code (the CUDA architectures of this build lack 90)"
        exit 77
    fi
}

have_sm90a() {
    sass sm_90a && return 0
    echo "FAIL: $binary has sm_90 code but no sm_90a code (the Hopper rungs' object library)"
    failures=$((failures + 1))
    return 1
}

sass_check_done() {
    [ -f "$tmp/failed" ] && failures=$((failures + $(wc -l <"$tmp/failed")))
    echo "$1: $failures failed"
    [ "$failures" -eq 0 ]
}
