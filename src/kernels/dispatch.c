#include "kernels/dispatch.h"

#include <stddef.h>

#include "kernels/kernel_list.h"

/* Best first; scalar last and complete. SIMD tables join this list. */
static const struct {
    ropekit_isa isa;
    const rk_rot_table *table;
} rk_rot_tables[] = {
#if defined(ROPEKIT_X86_KERNELS)
    {ROPEKIT_ISA_AVX512, &rk_rot_table_avx512},
    {ROPEKIT_ISA_AVX2, &rk_rot_table_avx2},
#endif
    {ROPEKIT_ISA_SCALAR, &rk_rot_table_scalar},
};

static const struct {
    ropekit_isa isa;
    const rk_rope_table *table;
} rk_rope_tables[] = {
#if defined(ROPEKIT_X86_KERNELS)
    {ROPEKIT_ISA_AVX512, &rk_rope_table_avx512},
    {ROPEKIT_ISA_AVX2, &rk_rope_table_avx2},
#endif
    {ROPEKIT_ISA_SCALAR, &rk_rope_table_scalar},
};

int rk_kdtype_of(ropekit_dtype dtype) {
    switch (dtype) {
    case ROPEKIT_F32:
        return RK_KDT_F32;
    case ROPEKIT_F16:
        return RK_KDT_F16;
    case ROPEKIT_BF16:
        return RK_KDT_BF16;
    default:
        return -1;
    }
}

struct rk_rot_kernel rk_rot_kernel_pick(int mode, int direction, ropekit_dtype x_dtype,
                                        ropekit_dtype cs_dtype, bool unit_stride) {
    struct rk_rot_kernel k = {NULL, ROPEKIT_ISA_SCALAR};
    int xd = rk_kdtype_of(x_dtype), cd = rk_kdtype_of(cs_dtype);
    if (xd < 0 || cd < 0 || mode < 0 || mode >= RK_ROT_MODE_COUNT || direction < 0 ||
        direction >= RK_DIRECTION_COUNT)
        return k;
    ropekit_isa active = ropekit_get_active_isa();
    for (size_t i = 0; i < sizeof rk_rot_tables / sizeof rk_rot_tables[0]; i++) {
        if (rk_rot_tables[i].isa > active)
            continue;
        if (!unit_stride && rk_rot_tables[i].isa != ROPEKIT_ISA_SCALAR)
            continue;
        rk_rot_fn fn = (*rk_rot_tables[i].table)[mode][direction][xd][cd];
        if (fn) {
            k.fn = fn;
            k.isa = rk_rot_tables[i].isa;
            return k;
        }
    }
    return k;
}

struct rk_rope_kernel rk_rope_kernel_pick(int style, ropekit_dtype x_dtype, ropekit_dtype cs_dtype,
                                          bool unit_stride) {
    struct rk_rope_kernel k = {NULL, ROPEKIT_ISA_SCALAR};
    int xd = rk_kdtype_of(x_dtype), cd = rk_kdtype_of(cs_dtype);
    if (xd < 0 || cd < 0 || style < 0 || style >= RK_ROPE_STYLE_COUNT)
        return k;
    ropekit_isa active = ropekit_get_active_isa();
    for (size_t i = 0; i < sizeof rk_rope_tables / sizeof rk_rope_tables[0]; i++) {
        if (rk_rope_tables[i].isa > active)
            continue;
        if (!unit_stride && rk_rope_tables[i].isa != ROPEKIT_ISA_SCALAR)
            continue;
        rk_rope_fn fn = (*rk_rope_tables[i].table)[style][xd][cd];
        if (fn) {
            k.fn = fn;
            k.isa = rk_rope_tables[i].isa;
            return k;
        }
    }
    return k;
}
