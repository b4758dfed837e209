/* The scalar partial-rotary kernels, every mode, direction and dtype pair: the complete
 * fallback on every CPU and the oracle the SIMD kernels are tested against. They accept
 * any element stride. */
#include "kernels/kernel_list.h"
#include "kernels/simd/elem.h"

/* Rotates the pair at positions (p, r), reading and writing x in place. */
RK_INLINE void rk_rot_pair_inplace(const struct rk_rot_rows *a, char *x, const char *c,
                                   const char *s, int64_t p, int64_t r, int backward,
                                   enum rk_kdtype xdt, enum rk_kdtype cdt) {
    float va = rk_load_elem(x + p * a->x_col, xdt);
    float vb = rk_load_elem(x + r * a->x_col, xdt);
    float cp = rk_load_elem(c + p * a->c_col, cdt), sp = rk_load_elem(s + p * a->s_col, cdt);
    float cr = rk_load_elem(c + r * a->c_col, cdt), sr = rk_load_elem(s + r * a->s_col, cdt);
    float oa, ob;
    if (backward)
        rk_pair_backward(va, vb, cp, sp, cr, sr, &oa, &ob);
    else
        rk_pair_forward(va, vb, cp, sp, cr, sr, &oa, &ob);
    rk_store_elem(x + p * a->x_col, oa, xdt);
    rk_store_elem(x + r * a->x_col, ob, xdt);
}

/* Modes whose pairs are local (half, interleave, quarter): each pair is read fully
 * before it is written, so in-place needs no scratch. mode: 0 half, 1 interleave,
 * 2 quarter. */
RK_INLINE void rk_rot_rows_pairs(const struct rk_rot_rows *a, int mode, int backward,
                                 enum rk_kdtype xdt, enum rk_kdtype cdt) {
    const int64_t h = a->len / 2, q = a->len / 4;
    for (int64_t row = 0; row < a->rows; row++) {
        char *x = a->x + row * a->x_row;
        const char *c = a->cos + row * a->c_row;
        const char *s = a->sin + row * a->s_row;
        if (mode == 0) {
            for (int64_t j = 0; j < h; j++)
                rk_rot_pair_inplace(a, x, c, s, j, j + h, backward, xdt, cdt);
        } else if (mode == 1) {
            for (int64_t i = 0; i < h; i++)
                rk_rot_pair_inplace(a, x, c, s, 2 * i, 2 * i + 1, backward, xdt, cdt);
        } else {
            for (int64_t j = 0; j < q; j++)
                rk_rot_pair_inplace(a, x, c, s, j, j + q, backward, xdt, cdt);
            for (int64_t j = 2 * q; j < 3 * q; j++)
                rk_rot_pair_inplace(a, x, c, s, j, j + q, backward, xdt, cdt);
        }
    }
}

/* Interleave-half moves elements between layouts, so each row is first widened into
 * scratch (exact) and then written. Forward: interleaved in, half layout out;
 * backward: half layout in, interleaved out. */
RK_INLINE void rk_rot_rows_ihalf(const struct rk_rot_rows *a, int backward, enum rk_kdtype xdt,
                                 enum rk_kdtype cdt) {
    const int64_t h = a->len / 2;
    float *v = a->scratch;
    for (int64_t row = 0; row < a->rows; row++) {
        char *x = a->x + row * a->x_row;
        const char *c = a->cos + row * a->c_row;
        const char *s = a->sin + row * a->s_row;
        for (int64_t k = 0; k < a->len; k++)
            v[k] = rk_load_elem(x + k * a->x_col, xdt);
        for (int64_t j = 0; j < h; j++) {
            float cp = rk_load_elem(c + j * a->c_col, cdt),
                  sp = rk_load_elem(s + j * a->s_col, cdt);
            float cr = rk_load_elem(c + (j + h) * a->c_col, cdt);
            float sr = rk_load_elem(s + (j + h) * a->s_col, cdt);
            float oa, ob;
            if (backward) {
                rk_pair_backward(v[j], v[j + h], cp, sp, cr, sr, &oa, &ob);
                rk_store_elem(x + 2 * j * a->x_col, oa, xdt);
                rk_store_elem(x + (2 * j + 1) * a->x_col, ob, xdt);
            } else {
                rk_pair_forward(v[2 * j], v[2 * j + 1], cp, sp, cr, sr, &oa, &ob);
                rk_store_elem(x + j * a->x_col, oa, xdt);
                rk_store_elem(x + (j + h) * a->x_col, ob, xdt);
            }
        }
    }
}

/* mode: 0 half, 1 interleave, 2 quarter, 3 interleave-half. */
RK_INLINE void rk_rot_rows_scalar(const struct rk_rot_rows *a, int mode, int backward,
                                  enum rk_kdtype xdt, enum rk_kdtype cdt) {
    if (mode == 3)
        rk_rot_rows_ihalf(a, backward, xdt, cdt);
    else
        rk_rot_rows_pairs(a, mode, backward, xdt, cdt);
}

#define RK_DEFINE_ROT_SCALAR(m, xd, cd)                                                            \
    RK_KERNEL void rk_rot_##m##_fwd_##xd##cd##__scalar(const struct rk_rot_rows *a) {              \
        rk_rot_rows_scalar(a, RK_MODE_INDEX_##m, 0, RK_DT_##xd, RK_DT_##cd);                       \
    }                                                                                              \
    RK_KERNEL void rk_rot_##m##_bwd_##xd##cd##__scalar(const struct rk_rot_rows *a) {              \
        rk_rot_rows_scalar(a, RK_MODE_INDEX_##m, 1, RK_DT_##xd, RK_DT_##cd);                       \
    }
#define RK_DEFINE_ROT_MODE(m, id) RK_DTYPE_PAIRS(RK_DEFINE_ROT_SCALAR, m)
RK_ROT_MODES(RK_DEFINE_ROT_MODE)
