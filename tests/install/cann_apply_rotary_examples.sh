#!/usr/bin/env bash
# CANN's own aclnn examples of ApplyRotaryPosEmb, unchanged, against an installed ropekit
# (CTest label "install"; skipped unless a CANN ops-transformer source tree is given,
# since they are CANN's files and not part of ropekit).
#
#   RK_CANN_SOURCE   a checkout of CANN's ops-transformer (or a mirror with its layout)
#   RK_BUILD_DIR, RK_CONFIG, RK_CMAKE, RK_CXX, RK_PKG_CONFIG, RK_LIBDIR, RK_EXTRA_FLAGS
#                    as for install_test.sh
#
# posembedding/apply_rotary_pos_emb/examples/test_aclnn_apply_rotary_pos_emb{,_v2}.cpp are
# compiled with `pkg-config --cflags --libs ropekit` and run. Each must exit 0 and print
# query's 128 results, then key's, which must match a float64 reference computed here
# from the example's own data (its host vectors, read from the source): rotate-half over
# D = 128 (both examples pass layout 1, and V2 "half"), within SPEC §6's fp32 tolerance
# plus the %f print's rounding.
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
dir=$RK_CANN_SOURCE/posembedding/apply_rotary_pos_emb/examples
examples=("$dir/test_aclnn_apply_rotary_pos_emb.cpp" "$dir/test_aclnn_apply_rotary_pos_emb_v2.cpp")
for source in "${examples[@]}"; do
    if [ ! -f "$source" ]; then
        echo "FAIL: $source not found"
        exit 1
    fi
done

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

# Prints "ok" when the example's output (file $2) holds query's then key's rotate-half of
# the example's data (source $1), each element within 1e-5 * (|x c| + |rot s|) + 1e-6.
check_results() {
    awk -v out="$2" '
        function grab(name,    line, n, i, parts) {
            n = 0
            for (i = 1; i <= nlines; i++)
                if (index(src[i], "std::vector<float> " name " = {")) {
                    for (; i <= nlines; i++) {
                        line = src[i]
                        sub(/.*= *\{/, "", line)
                        done = index(line, "}")
                        sub(/\}.*/, "", line)
                        gsub(/[^0-9.eE+-]+/, " ", line)
                        m = split(line, parts, " ")
                        for (j = 1; j <= m; j++)
                            vals[name, n++] = parts[j] + 0
                        if (done)
                            return n
                    }
                }
            return n
        }
        { src[++nlines] = $0 }
        END {
            d = 128; h = d / 2
            if (grab("queryHostData") != d || grab("keyHostData") != d ||
                grab("cosHostData") != d || grab("sinHostData") != d) {
                print "cannot read the example data"; exit 1
            }
            n = 0
            while ((getline line < out) > 0)
                if (line ~ /^result\[[0-9]+\] is: /) {
                    sub(/^result\[[0-9]+\] is: /, "", line)
                    got[n++] = line + 0
                }
            if (n != 2 * d) { print "expected " 2 * d " results, got " n; exit 1 }
            bad = 0
            for (t = 0; t < 2; t++) {
                name = t == 0 ? "queryHostData" : "keyHostData"
                for (j = 0; j < d; j++) {
                    x = vals[name, j]
                    r = j < h ? -vals[name, j + h] : vals[name, j - h]
                    c = vals["cosHostData", j]; s = vals["sinHostData", j]
                    ref = x * c + r * s
                    mag = (x * c < 0 ? -x * c : x * c) + (r * s < 0 ? -r * s : r * s)
                    err = got[t * d + j] - ref
                    if (err < 0) err = -err
                    if (err > 1e-5 * mag + 1e-6) {
                        if (bad < 5) print (t ? "key" : "query") "[" j "]: got " got[t * d + j] " want " ref
                        bad++
                    }
                }
            }
            if (bad) { print bad " results differ"; exit 1 }
            print "ok"
        }' "$1"
}

failures=0
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
    verdict=$(check_results "$source" "$run/output.txt")
    if [ $rc -ne 0 ] || [ "$verdict" != ok ]; then
        head -20 "$run/output.txt"
        echo "$verdict"
        echo "FAIL: $name (exit $rc)"
        failures=$((failures + 1))
    else
        echo "ok   $name: 256 results match the float64 reference"
    fi
done
[ $failures -eq 0 ] || exit 1
echo "PASS: CANN's ApplyRotaryPosEmb examples"
