/* The scalar rope kernels, both styles and every dtype pair: the complete fallback on
 * every CPU and the oracle the SIMD kernels are tested against. They accept any element
 * stride. */
#include "kernels/kernel_list.h"
#include "kernels/rope_kernel.h"
#include "kernels/simd/elem.h"

/* Both members of pair j take c[j], s[j] (SPEC §5.4); NeoX heads pair like partial
 * rotary's half mode, GPT-J heads like its interleave mode. float64 is computed in double,
 * every other dtype in fp32. */
RK_INLINE void rk_rope_rows_scalar(const struct rk_rope_rows *a, enum rk_rope_style style,
                                   enum rk_kdtype xdt, enum rk_kdtype cdt) {
    const int64_t h = a->half;
    const int64_t xs = RK_SIZE(xdt);
    const ropekit_rotary_mode layout =
        style == RK_ROPE_GPTJ ? ROPEKIT_ROTARY_INTERLEAVE : ROPEKIT_ROTARY_HALF;
    for (int64_t head = 0; head < a->heads; head++) {
        const char *in = a->in + head * a->in_head;
        char *out = a->out + head * a->out_head;
        rk_rot_pairs(in, a->in_col, out, a->out_col, a->cos, a->cs_col, a->sin, a->cs_col, 0, h,
                     layout, RK_COEFFS_SHARED, ROPEKIT_FORWARD, xdt, cdt);
        if (out != in)
            for (int64_t e = 2 * h; e < a->head_size; e++)
                memcpy(out + e * a->out_col, in + e * a->in_col, (size_t)xs);
    }
}

#define RK_DEFINE_ROPE_SCALAR(isa, name, style, xdt, cdt)                                          \
    RK_KERNEL void name(const struct rk_rope_rows *a) {                                            \
        rk_rope_rows_scalar(a, style, xdt, cdt);                                                   \
    }
RK_ROPE_KERNELS_SCALAR(RK_DEFINE_ROPE_SCALAR)
