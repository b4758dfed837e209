#!/usr/bin/env bash
# CANN's own GE graph examples for the RoPE operators, unchanged, against an installed
# ropekit (CTest label "install"; skipped unless a CANN ops-transformer source tree is
# given, since they are CANN's files and not part of ropekit).
#
#   RK_CANN_SOURCE   a checkout of CANN's ops-transformer (or a mirror with its layout)
#   RK_SOURCE_DIR    this folder (tests/install), for cann_protos/proto_ir.cpp and
#                    check_cann_graph_output.py
#   RK_PYTHON        python3 for that check
#   RK_BUILD_DIR, RK_CONFIG, RK_CMAKE, RK_CXX, RK_PKG_CONFIG, RK_LIBDIR, RK_EXTRA_FLAGS
#                    as for install_test.sh
#
# Every posembedding/<op>/examples/**/test_geir_*.cpp of the four operators is compiled
# with `pkg-config --cflags --libs ropekit-ge` (CANN's build passes the graph/, ge/ and
# op_proto/ include folders the same way; the examples include their own prototype
# headers by relative path) and run in a scratch folder. Each must exit 0, print "Session
# run ir compute graph success" and 16 result lines: CANN's examples rotate x = 2 with
# cos = 1 and sin = 0, whose forward and gradient are both 2. InterleaveRope's example
# (the 8.5.0 release branch) writes its inputs and output as files instead, which
# check_cann_graph_output.py compares with a float64 reference (RK_PYTHON).
#
# CANN's prototype headers (posembedding/<op>/op_graph/<op>_proto.h) of the operators of
# PROTO_OPS must also compile alone and beside ropekit's own, with array_ops.h and
# nn_other.h as CANN's GE IR examples include them, and register what their REG_OP
# declares: proto_ir (cann_protos/proto_ir.cpp, built with -include of the header) checks
# the inputs, outputs and attributes (with their kinds) that this script reads from the
# header. That these operators also run in RunGraph is the GE face's operator tests' job
# (tests/ge/test_ge_rope_family.cpp).
set -u
if [ -z "${RK_CANN_SOURCE:-}" ]; then
    echo "SKIP: set ROPEKIT_CANN_SOURCE (cmake) to a CANN ops-transformer checkout"
    exit 77
fi
for tool in RK_CXX RK_PKG_CONFIG; do
    if [ -z "${!tool:-}" ] || [ ! -x "$(command -v "${!tool}")" ]; then
        echo "SKIP: $tool is not available"
        exit 77
    fi
done
mapfile -t examples < <(find "$RK_CANN_SOURCE/posembedding" -path '*/examples/*' \
    -name 'test_geir_*.cpp' \( -path '*inplace_partial_rotary_mul*' \
    -o -path '*rope_with_sin_cos_cache*' -o -path '*interleave_rope*' \) | sort)
if [ ${#examples[@]} -eq 0 ]; then
    # CANN's later trees dropped these operators' folders (master has no
    # inplace_partial_rotary_mul); the prototypes below are still checked.
    echo "note: no test_geir_*.cpp of the examples' operators under $RK_CANN_SOURCE/posembedding"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ropekit-cann-graph.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
if ! "$RK_CMAKE" --install "$RK_BUILD_DIR" --config "$RK_CONFIG" --prefix "$prefix" \
    >"$work/install.log"; then
    cat "$work/install.log"
    exit 1
fi
export PKG_CONFIG_PATH=$prefix/$RK_LIBDIR/pkgconfig
read -r -a flags <<<"$("$RK_PKG_CONFIG" --cflags --libs ropekit-ge)"
read -r -a extra <<<"${RK_EXTRA_FLAGS:-}"
unset LD_LIBRARY_PATH

failures=0
protos=0
PROTO_OPS="inplace_partial_rotary_mul inplace_partial_rotary_mul_grad rope_with_sin_cos_cache
rotary_position_embedding rotary_position_embedding_grad apply_rotary_pos_emb interleave_rope"
# "a,b,c": the names of the header's REG_OP entries of the given macros (ATTR entries as
# name=Kind).
declared() {
    local header=$1 macros=$2 attrs=${3:-}
    if [ -n "$attrs" ]; then
        grep -oE "\.($macros)\([A-Za-z0-9_]+, *[A-Za-z]+" "$header" |
            sed -E 's/^[^(]*\(([A-Za-z0-9_]+), *([A-Za-z]+)$/\1=\2/'
    else
        grep -oE "\.($macros)\([A-Za-z0-9_]+" "$header" | sed -E 's/^[^(]*\(//'
    fi | paste -sd, -
}
for op in $PROTO_OPS; do
    proto=$RK_CANN_SOURCE/posembedding/$op/op_graph/${op}_proto.h
    name=$(basename "$proto" .h)
    if [ ! -f "$proto" ]; then
        echo "skip $name: not in this checkout"
        continue
    fi
    protos=$((protos + 1))
    printf '#include "%s"\n#include "ops_proto_posembedding.h"\n#include "array_ops.h"\n#include "nn_other.h"\n#include "%s"\n' \
        "$proto" "$proto" >"$work/$name.cpp"
    if ! "$RK_CXX" -std=c++11 -Wall -Wextra -Wpedantic -fsyntax-only "$work/$name.cpp" \
        "${flags[@]}" >"$work/$name.log" 2>&1; then
        cat "$work/$name.log"
        echo "FAIL: CANN's $name does not compile against the installed headers"
        failures=$((failures + 1))
        continue
    fi
    type=$(grep -oE 'REG_OP\([A-Za-z0-9_]+\)' "$proto" | head -n 1 | sed -E 's/REG_OP\((.*)\)/\1/')
    ins=$(declared "$proto" 'INPUT|OPTIONAL_INPUT')
    outs=$(declared "$proto" 'OUTPUT')
    attrs=$(declared "$proto" 'ATTR|REQUIRED_ATTR' kinds)
    ir=$work/proto_ir_$op
    if ! "$RK_CXX" -std=c++11 -Wall -Wextra -Wpedantic "${extra[@]}" -include "$proto" \
        "$RK_SOURCE_DIR/cann_protos/proto_ir.cpp" "${flags[@]}" "-Wl,-rpath,$prefix/$RK_LIBDIR" \
        -o "$ir" >"$work/$name.ir.log" 2>&1; then
        cat "$work/$name.ir.log"
        echo "FAIL: proto_ir does not build with CANN's $name"
        failures=$((failures + 1))
    elif ! "$ir" "$type" "in:$ins" "out:$outs" "attr:$attrs" >"$work/$name.ir.out" 2>&1; then
        cat "$work/$name.ir.out"
        echo "FAIL: CANN's $name: $type is not registered as the header declares it"
        failures=$((failures + 1))
    else
        echo "ok   $name compiles beside ropekit's prototypes; $type: inputs $ins, outputs $outs, attributes ${attrs:-none}"
    fi
done
for source in "${examples[@]}"; do
    name=$(basename "$source" .cpp)
    run=$work/$name
    mkdir -p "$run"
    if ! "$RK_CXX" -std=c++11 "${extra[@]}" "$source" "${flags[@]}" \
        "-Wl,-rpath,$prefix/$RK_LIBDIR" -o "$run/$name" >"$run/build.log" 2>&1; then
        cat "$run/build.log"
        echo "FAIL: $name does not compile against the installed ropekit"
        failures=$((failures + 1))
        continue
    fi
    rc=0
    case $name in
    test_geir_interleave_rope)
        # It prints argv[1] (and reads nothing else from the command line) and writes its
        # inputs and output as files, which the float64 reference checks.
        (cd "$run" && "./$name" 1 >output.txt 2>&1) || rc=$?
        if [ $rc -eq 0 ] && grep -q 'Session run ir compute graph success' "$run/output.txt" &&
            "$RK_PYTHON" "$RK_SOURCE_DIR/check_cann_graph_output.py" "$source" "$run" \
                >"$run/check.txt" 2>&1; then
            echo "ok   $name: exit 0; $(cat "$run/check.txt")"
        else
            tail -n 20 "$run/output.txt"
            cat "$run/check.txt" 2>/dev/null
            echo "FAIL: $name (exit $rc)"
            failures=$((failures + 1))
        fi
        ;;
    *)
        (cd "$run" && "./$name" >output.txt 2>&1) || rc=$?
        results=$(grep -c '^result\[[0-9]*\] is: 2\.000000$' "$run/output.txt")
        if [ $rc -ne 0 ] || [ "$results" -ne 16 ] ||
            ! grep -q 'Session run ir compute graph success' "$run/output.txt"; then
            cat "$run/output.txt"
            echo "FAIL: $name (exit $rc, $results of 16 results equal to 2)"
            failures=$((failures + 1))
        else
            echo "ok   $name: 16 results equal to 2, exit 0"
        fi
        ;;
    esac
done
if [ $((protos + ${#examples[@]})) -eq 0 ]; then
    echo "FAIL: neither prototypes nor graph examples of the RoPE operators under $RK_CANN_SOURCE"
    exit 1
fi
[ $failures -eq 0 ] && echo "CANN graph examples: all ${#examples[@]} passed; $protos prototype headers checked"
exit $((failures != 0))
