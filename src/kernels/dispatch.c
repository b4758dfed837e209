/* Kernel selection (dispatch.h): the kernel sets of this build, best first, and the pick of
 * one kernel for a plan. */
#include "kernels/dispatch.h"

#include "core/cpu_features.h"
#include "kernels/kernel_list.h"

static const struct rk_kernel_set rk_sets[] = {
#if defined(ROPEKIT_X86_KERNELS)
    {"avx512+bf16", ROPEKIT_ISA_AVX512, true, &rk_rot_table_avx512bf16, &rk_rope_table_avx512bf16},
    {"avx512", ROPEKIT_ISA_AVX512, false, &rk_rot_table_avx512, &rk_rope_table_avx512},
    {"avx2", ROPEKIT_ISA_AVX2, false, &rk_rot_table_avx2, &rk_rope_table_avx2},
#endif
    {"scalar", ROPEKIT_ISA_SCALAR, false, &rk_rot_table_scalar, &rk_rope_table_scalar},
};

const struct rk_kernel_set *rk_kernel_sets(size_t *count) {
    *count = sizeof rk_sets / sizeof rk_sets[0];
    return rk_sets;
}

bool rk_kernel_set_supported(const struct rk_kernel_set *set) {
    if (set->isa > ropekit_isa_detected())
        return false;
    return !set->needs_avx512bf16 || rk_cpu_features()->avx512bf16;
}

/* The ropekit_dtype of each kernel table index. */
static const ropekit_dtype rk_kdtype_dtypes[RK_KDT_COUNT] = {
    [RK_KDT_F32] = ROPEKIT_F32,
    [RK_KDT_F16] = ROPEKIT_F16,
    [RK_KDT_BF16] = ROPEKIT_BF16,
    [RK_KDT_F64] = ROPEKIT_F64,
};

int rk_kdtype_of(ropekit_dtype dtype) {
    for (int k = 0; k < RK_KDT_COUNT; k++)
        if (rk_kdtype_dtypes[k] == dtype)
            return k;
    return -1;
}

ropekit_dtype rk_dtype_of_kdtype(int kdtype) {
    return rk_kdtype_dtypes[kdtype];
}

/* The sets a plan may use now: supported, within the cap, SIMD only for unit strides. */
static bool rk_set_usable(const struct rk_kernel_set *set, bool unit_stride) {
    return set->isa <= ropekit_get_active_isa() && rk_kernel_set_supported(set) &&
           (unit_stride || set->isa == ROPEKIT_ISA_SCALAR);
}

struct rk_rot_kernel rk_rot_kernel_pick(int mode, int direction, ropekit_dtype x_dtype,
                                        ropekit_dtype cs_dtype, bool unit_stride) {
    struct rk_rot_kernel k = {NULL, NULL};
    int xd = rk_kdtype_of(x_dtype), cd = rk_kdtype_of(cs_dtype);
    if (xd < 0 || cd < 0 || mode < 0 || mode >= RK_ROT_MODE_COUNT || direction < 0 ||
        direction >= RK_DIRECTION_COUNT)
        return k;
    for (size_t i = 0; i < sizeof rk_sets / sizeof rk_sets[0]; i++) {
        rk_rot_fn fn = (*rk_sets[i].rot)[mode][direction][xd][cd];
        if (fn && rk_set_usable(&rk_sets[i], unit_stride)) {
            k.fn = fn;
            k.set = &rk_sets[i];
            return k;
        }
    }
    return k;
}

struct rk_rope_kernel rk_rope_kernel_pick(int style, ropekit_dtype x_dtype, ropekit_dtype cs_dtype,
                                          bool unit_stride) {
    struct rk_rope_kernel k = {NULL, NULL};
    int xd = rk_kdtype_of(x_dtype), cd = rk_kdtype_of(cs_dtype);
    if (xd < 0 || cd < 0 || style < 0 || style >= RK_ROPE_STYLE_COUNT)
        return k;
    for (size_t i = 0; i < sizeof rk_sets / sizeof rk_sets[0]; i++) {
        rk_rope_fn fn = (*rk_sets[i].rope)[style][xd][cd];
        if (fn && rk_set_usable(&rk_sets[i], unit_stride)) {
            k.fn = fn;
            k.set = &rk_sets[i];
            return k;
        }
    }
    return k;
}
