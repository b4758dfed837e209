#!/usr/bin/env bash
# CANN's own GE graph examples for the RoPE operators, unchanged, against an installed
# ropekit (CTest label "install"; skipped unless a CANN ops-transformer source tree is
# given, since they are CANN's files and not part of ropekit).
#
#   RK_CANN_SOURCE   a checkout of CANN's ops-transformer (or a mirror with its layout)
#   RK_BUILD_DIR, RK_CONFIG, RK_CMAKE, RK_CXX, RK_PKG_CONFIG, RK_LIBDIR, RK_EXTRA_FLAGS
#                    as for install_test.sh
#
# Every posembedding/<op>/examples/**/test_geir_*.cpp of the three operators is compiled
# with `pkg-config --cflags --libs ropekit-ge` (CANN's build passes the graph/, ge/ and
# op_proto/ include folders the same way; the examples include their own prototype
# headers by relative path) and run in a scratch folder. Each must exit 0, print "Session
# run ir compute graph success" and 16 result lines: CANN's examples rotate x = 2 with
# cos = 1 and sin = 0, whose forward and gradient are both 2. CANN's prototype headers of
# the three operators must also compile alone and beside ropekit's own.
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
    -o -path '*rope_with_sin_cos_cache*' \) | sort)
if [ ${#examples[@]} -eq 0 ]; then
    echo "FAIL: no test_geir_*.cpp under $RK_CANN_SOURCE/posembedding"
    exit 1
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
for proto in "$RK_CANN_SOURCE"/posembedding/{inplace_partial_rotary_mul,inplace_partial_rotary_mul_grad,rope_with_sin_cos_cache}/op_graph/*_proto.h; do
    [ -f "$proto" ] || continue
    name=$(basename "$proto" .h)
    printf '#include "%s"\n#include "ops_proto_posembedding.h"\n#include "%s"\n' "$proto" \
        "$proto" >"$work/$name.cpp"
    if "$RK_CXX" -std=c++11 -Wall -Wextra -Wpedantic -fsyntax-only "$work/$name.cpp" \
        "${flags[@]}" >"$work/$name.log" 2>&1; then
        echo "ok   $name compiles beside ropekit's prototypes"
    else
        cat "$work/$name.log"
        echo "FAIL: CANN's $name does not compile against the installed headers"
        failures=$((failures + 1))
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
done
[ $failures -eq 0 ] && echo "CANN graph examples: all ${#examples[@]} passed"
exit $((failures != 0))
