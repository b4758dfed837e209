#!/usr/bin/env bash
# Install test (CTest label "install"), driven by tests/install/CMakeLists.txt.
#
# 1. `cmake --install` the build tree into a fresh temporary prefix and check the
#    installed layout (CANN-style headers, both libraries, pkg-config file, CMake package).
# 2. Build the CANN-style clients in client/ with the flags `pkg-config ropekit` gives,
#    once against the shared library and once (pkg-config --static) against the archive,
#    and run them.
# 3. Build the same clients through find_package(ropekit) (cmake_consumer/), shared and
#    static, and run them.
# With the graph API installed (RK_GE=ON), the same for client/ge_client.cpp with
# `pkg-config ropekit-ge` and ropekit::ge / ropekit::ge_static.
# Every check runs even after an earlier one failed; the exit status is 1 if any failed,
# 77 (CTest "skipped") if a required tool is missing.
#
# Inputs (environment): RK_BUILD_DIR, RK_CONFIG, RK_SOURCE_DIR (this folder), RK_CMAKE,
# RK_GENERATOR, RK_MAKE_PROGRAM, RK_CC, RK_CXX, RK_PKG_CONFIG, RK_INCLUDEDIR, RK_LIBDIR,
# RK_VERSION, RK_EXTRA_FLAGS (compile and link flags for every client, e.g. sanitizers),
# RK_GE (ON when libropekit_ge is built).
set -u

for tool in RK_CXX RK_PKG_CONFIG; do
    if [ -z "${!tool:-}" ] || [ ! -x "$(command -v "${!tool}")" ]; then
        echo "SKIP: $tool is not available (need a C++ compiler and pkg-config)"
        exit 77
    fi
done

failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

work=$(mktemp -d "${TMPDIR:-/tmp}/ropekit-install-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
inc=$prefix/$RK_INCLUDEDIR
lib=$prefix/$RK_LIBDIR
read -r -a extra <<<"${RK_EXTRA_FLAGS:-}"
unset LD_LIBRARY_PATH # the dynamic clients must find the library through their rpath

# Runs a client binary; prints its last line, or all of its output when it fails.
run_client() {
    local name=$1 exe=$2 log=$work/$1.log rc=0
    "$exe" >"$log" 2>&1 || rc=$?
    if [ $rc -eq 0 ]; then
        echo "ok   $name: $(tail -n 1 "$log")"
    else
        cat "$log"
        fail "$name exited with status $rc"
    fi
}

# Checks how a client binary links libropekit (and, for a graph client "*_ge_*",
# libropekit_ge): "shared" from the prefix, or "static".
check_linkage() {
    local name=$1 exe=$2 kind=$3 libs=libropekit
    command -v readelf >/dev/null || return 0
    [[ $name == *_ge_* ]] && libs="libropekit libropekit_ge"
    local so needed
    for so in $libs; do
        needed=$(readelf -d "$exe" | grep NEEDED | grep -c "\[$so\.so")
        if [ "$kind" = shared ]; then
            [ "$needed" -eq 1 ] || fail "$name does not depend on $so.so"
            ldd "$exe" | grep "$so\.so" | grep -qF "$lib/" ||
                fail "$name does not load $so from $lib: $(ldd "$exe" | grep "$so\.so")"
        else
            [ "$needed" -eq 0 ] || fail "$name was meant to be static but needs $so.so"
        fi
    done
}

echo "== install into $prefix"
if ! "$RK_CMAKE" --install "$RK_BUILD_DIR" --config "$RK_CONFIG" --prefix "$prefix" >"$work/install.log"; then
    cat "$work/install.log"
    fail "cmake --install failed"
    exit 1
fi

echo "== installed layout"
ops="aclnn_inplace_partial_rotary_mul aclnn_inplace_partial_rotary_mul_grad
    aclnn_rope_with_sin_cos_cache aclnn_rope_with_sin_cos_cache_v2 aclnn_rotary_position_embedding
    aclnn_rotary_position_embedding_v2 aclnn_rotary_position_embedding_grad
    aclnn_apply_rotary_pos_emb aclnn_apply_rotary_pos_emb_v2 aclnn_interleave_rope"
for header in acl/acl.h acl/acl_base.h acl/acl_rt.h aclnn/acl_meta.h aclnn/aclnn_base.h \
    ropekit/ropekit.h; do
    [ -f "$inc/$header" ] || fail "missing $RK_INCLUDEDIR/$header"
done
for op in $ops; do
    for header in "aclnnop/$op.h" "aclnnop/level2/$op.h"; do
        [ -f "$inc/$header" ] || fail "missing $RK_INCLUDEDIR/$header"
    done
    grep -q "#include \"aclnnop/$op.h\"" "$inc/aclnnop/level2/$op.h" 2>/dev/null ||
        fail "aclnnop/level2/$op.h does not forward to aclnnop/$op.h"
done
for file in libropekit.so libropekit.a pkgconfig/ropekit.pc cmake/ropekit/ropekitConfig.cmake; do
    [ -e "$lib/$file" ] || fail "missing $RK_LIBDIR/$file"
done
ge=${RK_GE:-OFF}
if [ "$ge" = ON ]; then
    for header in ge/ge_api.h ge/ge_api_types.h ge/ge_error_codes.h ge/ge_ir_build.h \
        graph/graph.h graph/tensor.h graph/types.h graph/operator.h graph/operator_reg.h \
        graph/ge_error_codes.h op_proto/ops_proto_legacy.h op_proto/ops_proto_posembedding.h \
        op_proto/inplace_partial_rotary_mul_proto.h op_proto/inplace_partial_rotary_mul_grad_proto.h \
        op_proto/rope_with_sin_cos_cache_proto.h op_proto/rotary_position_embedding_proto.h \
        op_proto/rotary_position_embedding_grad_proto.h op_proto/apply_rotary_pos_emb_proto.h \
        op_proto/interleave_rope_proto.h op_proto/array_ops.h op_proto/nn_other.h; do
        [ -f "$inc/$header" ] || fail "missing $RK_INCLUDEDIR/$header"
    done
    for file in libropekit_ge.so libropekit_ge.a pkgconfig/ropekit-ge.pc; do
        [ -e "$lib/$file" ] || fail "missing $RK_LIBDIR/$file"
    done
else
    [ ! -e "$inc/graph" ] || fail "graph headers installed without libropekit_ge"
fi

echo "== pkg-config"
export PKG_CONFIG_PATH=$lib/pkgconfig
pc() { "$RK_PKG_CONFIG" ${define_prefix[@]+"${define_prefix[@]}"} "$@" ropekit; }
define_prefix=()
version=$(pc --modversion) || fail "pkg-config cannot read ropekit.pc"
[ "${version:-}" = "$RK_VERSION" ] || fail "ropekit.pc version '${version:-}' != '$RK_VERSION'"
pc_includedir=$(pc --variable=includedir)
if [ "$(realpath -m "$pc_includedir")" != "$(realpath -m "$inc")" ]; then
    fail "ropekit.pc installed under $prefix says includedir=$pc_includedir" \
        "(prefix=$(pc --variable=prefix)); the .pc file does not follow --prefix." \
        "Continuing with --define-variable=prefix=$prefix."
    define_prefix=(--define-variable=prefix="$prefix")
fi
case "$(pc --cflags --libs)" in
*/../* | *pcfiledir*) fail "pkg-config prints paths that are not plain: $(pc --cflags --libs)" ;;
esac
read -r -a cflags <<<"$(pc --cflags)"
read -r -a libs <<<"$(pc --libs)"
read -r -a static_libs <<<"$(pc --static --libs)"
libdir=$(pc --variable=libdir)
# pkg-config --static adds the private dependencies; -l:libropekit.a picks the archive
# even though the shared library sits in the same folder.
static_libs=("${static_libs[@]/#-lropekit/-l:libropekit.a}")
if [ "$ge" = ON ]; then
    pcge() { "$RK_PKG_CONFIG" ${define_prefix[@]+"${define_prefix[@]}"} "$@" ropekit-ge; }
    read -r -a ge_cflags <<<"$(pcge --cflags)" || fail "pkg-config cannot read ropekit-ge.pc"
    read -r -a ge_libs <<<"$(pcge --libs)"
    read -r -a ge_static_libs <<<"$(pcge --static --libs)"
    ge_static_libs=("${ge_static_libs[@]/#-lropekit_ge/-l:libropekit_ge.a}")
    ge_static_libs=("${ge_static_libs[@]/#-lropekit/-l:libropekit.a}")
fi

c_flags=(-std=c11 -Wall -Wextra -Wpedantic -Werror)
cxx_flags=(-std=c++11 -Wall -Wextra -Wpedantic -Werror)
build() { # build <name> <compiler> <source> <flags...>
    local name=$1 compiler=$2 source=$3
    shift 3
    if ! "$compiler" "$@" -o "$work/$name" >"$work/$name.build.log" 2>&1; then
        cat "$work/$name.build.log"
        fail "building $name from $source"
        return 1
    fi
}
src=$RK_SOURCE_DIR/client
for kind in shared static; do
    if [ $kind = shared ]; then
        link=("${libs[@]}" "-Wl,-rpath,$libdir")
    else
        link=("${static_libs[@]}")
    fi
    build pc_c_$kind "$RK_CC" cann_client.c "${c_flags[@]}" "${extra[@]}" "${cflags[@]}" \
        "$src/cann_client.c" "${link[@]}" -lm &&
        check_linkage pc_c_$kind "$work/pc_c_$kind" $kind &&
        run_client pc_c_$kind "$work/pc_c_$kind"
    build pc_cxx_$kind "$RK_CXX" cann_client.cpp "${cxx_flags[@]}" "${extra[@]}" "${cflags[@]}" \
        "$src/cann_client.cpp" "${link[@]}" &&
        check_linkage pc_cxx_$kind "$work/pc_cxx_$kind" $kind &&
        run_client pc_cxx_$kind "$work/pc_cxx_$kind"
    if [ "$ge" = ON ]; then
        if [ $kind = shared ]; then
            ge_link=("${ge_libs[@]}" "-Wl,-rpath,$libdir")
        else
            ge_link=("${ge_static_libs[@]}")
        fi
        build pc_ge_$kind "$RK_CXX" ge_client.cpp "${cxx_flags[@]}" "${extra[@]}" \
            "${ge_cflags[@]}" "$src/ge_client.cpp" "${ge_link[@]}" &&
            check_linkage pc_ge_$kind "$work/pc_ge_$kind" $kind &&
            run_client pc_ge_$kind "$work/pc_ge_$kind"
    fi
done

# The README's other way for a prefix of one's own: no run path, LD_LIBRARY_PATH at run
# time, which must make the loader take the library from the prefix.
build pc_c_no_rpath "$RK_CC" cann_client.c "${c_flags[@]}" "${extra[@]}" "${cflags[@]}" \
    "$src/cann_client.c" "${libs[@]}" -lm &&
    if command -v readelf >/dev/null && readelf -d "$work/pc_c_no_rpath" | grep -q "RPATH\|RUNPATH"; then
        fail "pc_c_no_rpath has a run path"
    elif ! LD_LIBRARY_PATH=$libdir ldd "$work/pc_c_no_rpath" | grep "libropekit\.so" |
        grep -qF "$lib/"; then
        fail "pc_c_no_rpath does not load libropekit from $lib with LD_LIBRARY_PATH"
    elif LD_LIBRARY_PATH=$libdir "$work/pc_c_no_rpath" >"$work/pc_c_no_rpath.log" 2>&1; then
        echo "ok   pc_c_no_rpath with LD_LIBRARY_PATH: $(tail -n 1 "$work/pc_c_no_rpath.log")"
    else
        cat "$work/pc_c_no_rpath.log"
        fail "pc_c_no_rpath failed with LD_LIBRARY_PATH=$libdir"
    fi

echo "== find_package(ropekit)"
consumer=$work/consumer
jobs=$(nproc 2>/dev/null || echo 2)
generator_args=(-G "$RK_GENERATOR")
[ -n "${RK_MAKE_PROGRAM:-}" ] && generator_args+=("-DCMAKE_MAKE_PROGRAM=$RK_MAKE_PROGRAM")
if "$RK_CMAKE" -S "$RK_SOURCE_DIR/cmake_consumer" -B "$consumer" "${generator_args[@]}" \
    -DCMAKE_BUILD_TYPE="$RK_CONFIG" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON \
    -DCMAKE_C_COMPILER="$RK_CC" -DCMAKE_CXX_COMPILER="$RK_CXX" \
    -DCMAKE_C_FLAGS="${RK_EXTRA_FLAGS:-}" -DCMAKE_CXX_FLAGS="${RK_EXTRA_FLAGS:-}" \
    -DCMAKE_EXE_LINKER_FLAGS="${RK_EXTRA_FLAGS:-}" >"$work/consumer.log" 2>&1 &&
    "$RK_CMAKE" --build "$consumer" --config "$RK_CONFIG" --parallel "$jobs" \
        >>"$work/consumer.log" 2>&1; then
    found=$(grep '^ropekit_DIR:' "$consumer/CMakeCache.txt" | cut -d= -f2-)
    [ "$(realpath -m "$found")" = "$(realpath -m "$lib/cmake/ropekit")" ] ||
        fail "find_package(ropekit) used $found instead of the installed package"
    names="consumer_c_shared consumer_cxx_shared consumer_c_static consumer_cxx_static"
    [ "$ge" = ON ] && names="$names consumer_ge_shared consumer_ge_static"
    for name in $names; do
        exe=$(find "$consumer" -type f -name "$name" -perm -u+x | head -n 1)
        kind=${name##*_}
        if [ -z "$exe" ]; then
            fail "$name was not built"
            continue
        fi
        check_linkage "$name" "$exe" "$kind"
        run_client "$name" "$exe"
    done
else
    cat "$work/consumer.log"
    fail "configuring or building cmake_consumer against the installed package"
fi

if [ $failures -ne 0 ]; then
    echo "install test: $failures check(s) failed"
    exit 1
fi
echo "install test: all checks passed"
