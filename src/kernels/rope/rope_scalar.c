/* The scalar rope kernels, both styles and every dtype pair: the complete fallback on
 * every CPU and the oracle the SIMD kernels are tested against. They accept any element
 * stride. */
#include "kernels/kernel_list.h"
#include "kernels/rope_kernel.h"
#include "kernels/simd/elem.h"

/* One pair of a head: members at element positions p and r of `in`, written to the same
 * positions of `out`; c and s are the pair's coefficients. float64 is computed in double,
 * every other dtype in fp32. */
RK_INLINE void rk_rope_pair(const struct rk_rope_rows *a, const char *in, char *out, int64_t p,
                            int64_t r, const char *c, const char *s, enum rk_kdtype xdt,
                            enum rk_kdtype cdt) {
    if (xdt == RK_KDT_F64) { /* validation pairs float64 data with a float64 cache */
        rk_rotate_pair_f64(in + p * a->in_col, in + r * a->in_col, out + p * a->out_col,
                           out + r * a->out_col, c, s, c, s, 0);
        return;
    }
    float va = rk_load_elem(in + p * a->in_col, xdt), vb = rk_load_elem(in + r * a->in_col, xdt);
    float cf = rk_load_elem(c, cdt), sf = rk_load_elem(s, cdt), oa, ob;
    rk_pair_forward(va, vb, cf, sf, cf, sf, &oa, &ob);
    rk_store_elem(out + p * a->out_col, oa, xdt);
    rk_store_elem(out + r * a->out_col, ob, xdt);
}

RK_INLINE void rk_rope_rows_scalar(const struct rk_rope_rows *a, int gptj, enum rk_kdtype xdt,
                                   enum rk_kdtype cdt) {
    const int64_t h = a->half;
    const int64_t xs = RK_SIZE(xdt);
    for (int64_t head = 0; head < a->heads; head++) {
        const char *in = a->in + head * a->in_head;
        char *out = a->out + head * a->out_head;
        for (int64_t j = 0; j < h; j++) {
            int64_t p = gptj ? 2 * j : j, r = gptj ? 2 * j + 1 : j + h;
            rk_rope_pair(a, in, out, p, r, a->cos + j * a->cs_col, a->sin + j * a->cs_col, xdt,
                         cdt);
        }
        if (out != in)
            for (int64_t e = 2 * h; e < a->head_size; e++)
                memcpy(out + e * a->out_col, in + e * a->in_col, (size_t)xs);
    }
}

#define RK_DEFINE_ROPE_SCALAR(st, xd, cd)                                                          \
    RK_KERNEL void rk_rope_##st##_##xd##cd##__scalar(const struct rk_rope_rows *a) {               \
        rk_rope_rows_scalar(a, RK_STYLE_INDEX_##st == RK_ROPE_GPTJ, RK_DT_##xd, RK_DT_##cd);       \
    }
#define RK_DEFINE_ROPE_STYLE(st, id)                                                               \
    RK_DTYPE_PAIRS(RK_DEFINE_ROPE_SCALAR, st) RK_DTYPE_PAIRS_F64(RK_DEFINE_ROPE_SCALAR, st)
RK_ROPE_STYLES(RK_DEFINE_ROPE_STYLE)
