#!/usr/bin/env bash
# CANN's own aclnn example programs for the operators ropekit implements, unchanged,
# against an installed ropekit (CTest label "install"; skipped unless a CANN
# ops-transformer source tree is given, since they are CANN's files and not part of
# ropekit).
#
#   RK_CANN_SOURCE   a checkout of CANN's ops-transformer (or a mirror with its layout)
#   RK_PYTHON        Python 3, for the float64 reference (check_cann_aclnn_example.py)
#   RK_BUILD_DIR, RK_CONFIG, RK_CMAKE, RK_CXX, RK_PKG_CONFIG, RK_LIBDIR, RK_EXTRA_FLAGS
#                    as for install_test.sh
#
# Each example in the list below is compiled with `pkg-config --cflags --libs ropekit` and
# run in a scratch folder; it must exit 0, and every "result[i] is: v" line it prints must
# match the float64 reference of the inputs, shapes and mode the example's source states
# (check_cann_aclnn_example.py reads them from the source). The examples end with
# _exit(0), which drops stdio's buffer: they run under `stdbuf -oL`, so each line reaches
# the file as it is printed (as on a terminal).
set -u
if [ -z "${RK_CANN_SOURCE:-}" ]; then
    echo "SKIP: set ROPEKIT_CANN_SOURCE (cmake) to a CANN ops-transformer checkout"
    exit 77
fi
if ! command -v stdbuf >/dev/null; then
    echo "SKIP: stdbuf (coreutils) is not available"
    exit 77
fi
for tool in RK_CXX RK_PKG_CONFIG RK_PYTHON; do
    if [ -z "${!tool:-}" ] || [ ! -x "$(command -v "${!tool}")" ]; then
        echo "SKIP: $tool is not available"
        exit 77
    fi
done
here=$(cd "$(dirname "$0")" && pwd)
examples=(
    posembedding/rotary_position_embedding/examples/test_aclnn_rotary_position_embedding.cpp
    posembedding/rotary_position_embedding_grad/examples/test_aclnn_rotary_position_embedding_grad.cpp
)

work=$(mktemp -d "${TMPDIR:-/tmp}/ropekit-cann-aclnn.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
if ! "$RK_CMAKE" --install "$RK_BUILD_DIR" --config "$RK_CONFIG" --prefix "$prefix" \
    >"$work/install.log"; then
    cat "$work/install.log"
    exit 1
fi
export PKG_CONFIG_PATH=$prefix/$RK_LIBDIR/pkgconfig
read -r -a flags <<<"$("$RK_PKG_CONFIG" --cflags --libs ropekit)"
read -r -a extra <<<"${RK_EXTRA_FLAGS:-}"
unset LD_LIBRARY_PATH

failures=0
for example in "${examples[@]}"; do
    source=$RK_CANN_SOURCE/$example
    name=$(basename "$source" .cpp)
    if [ ! -f "$source" ]; then
        echo "FAIL: $example is not in $RK_CANN_SOURCE"
        failures=$((failures + 1))
        continue
    fi
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
    (cd "$run" && stdbuf -oL "./$name" >output.txt 2>&1) || rc=$?
    if [ $rc -ne 0 ]; then
        cat "$run/output.txt"
        echo "FAIL: $name exits $rc"
        failures=$((failures + 1))
    elif ! "$RK_PYTHON" "$here/check_cann_aclnn_example.py" "$source" "$run/output.txt"; then
        echo "FAIL: $name prints results that differ from the float64 reference"
        failures=$((failures + 1))
    else
        echo "ok   $name"
    fi
done
[ $failures -eq 0 ] && echo "CANN aclnn examples: all ${#examples[@]} passed"
exit $((failures != 0))
