/* The scalar partial-rotary kernels, every mode, direction and dtype pair: the complete
 * fallback on every CPU and the oracle the SIMD kernels are tested against. They accept
 * any element stride. */
#include "kernels/kernel_list.h"
#include "kernels/simd/elem.h"

/* Rotates one pair: its members are read at (ia, ib) and written at (oa, ob), which may
 * be the same addresses (both are read first); cp, sp and cr, sr are the coefficients of
 * the pair's two positions. float64 is computed in double, every other dtype in fp32. */
RK_INLINE void rk_rot_pair(const char *ia, const char *ib, char *oa, char *ob, const char *cp,
                           const char *sp, const char *cr, const char *sr, int backward,
                           enum rk_kdtype xdt, enum rk_kdtype cdt) {
    if (xdt == RK_KDT_F64) { /* validation pairs float64 data with float64 coefficients */
        rk_rotate_pair_f64(ia, ib, oa, ob, cp, sp, cr, sr, backward);
        return;
    }
    float a = rk_load_elem(ia, xdt), b = rk_load_elem(ib, xdt), ra, rb;
    float c0 = rk_load_elem(cp, cdt), s0 = rk_load_elem(sp, cdt), c1 = rk_load_elem(cr, cdt),
          s1 = rk_load_elem(sr, cdt);
    if (backward)
        rk_pair_backward(a, b, c0, s0, c1, s1, &ra, &rb);
    else
        rk_pair_forward(a, b, c0, s0, c1, s1, &ra, &rb);
    rk_store_elem(oa, ra, xdt);
    rk_store_elem(ob, rb, xdt);
}

/* Rotates the pair at positions (p, r) of x in place. */
RK_INLINE void rk_rot_pair_inplace(const struct rk_rot_rows *a, char *x, const char *c,
                                   const char *s, int64_t p, int64_t r, int backward,
                                   enum rk_kdtype xdt, enum rk_kdtype cdt) {
    char *xp = x + p * a->x_col, *xr = x + r * a->x_col;
    rk_rot_pair(xp, xr, xp, xr, c + p * a->c_col, s + p * a->s_col, c + r * a->c_col,
                s + r * a->s_col, backward, xdt, cdt);
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

/* Interleave-half moves elements between layouts, so each row is first copied into
 * scratch as stored (packed) and then written. Forward: interleaved in, half layout out;
 * backward: half layout in, interleaved out. */
RK_INLINE void rk_rot_rows_ihalf(const struct rk_rot_rows *a, int backward, enum rk_kdtype xdt,
                                 enum rk_kdtype cdt) {
    const int64_t h = a->len / 2, xs = RK_SIZE(xdt);
    char *v = a->scratch;
    for (int64_t row = 0; row < a->rows; row++) {
        char *x = a->x + row * a->x_row;
        const char *c = a->cos + row * a->c_row;
        const char *s = a->sin + row * a->s_row;
        for (int64_t k = 0; k < a->len; k++)
            memcpy(v + k * xs, x + k * a->x_col, (size_t)xs);
        for (int64_t j = 0; j < h; j++) {
            /* input and output positions of the pair's members, in elements */
            int64_t ia = backward ? j : 2 * j, ib = backward ? j + h : 2 * j + 1;
            int64_t oa = backward ? 2 * j : j, ob = backward ? 2 * j + 1 : j + h;
            rk_rot_pair(v + ia * xs, v + ib * xs, x + oa * a->x_col, x + ob * a->x_col,
                        c + j * a->c_col, s + j * a->s_col, c + (j + h) * a->c_col,
                        s + (j + h) * a->s_col, backward, xdt, cdt);
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
#define RK_DEFINE_ROT_MODE(m, id)                                                                  \
    RK_DTYPE_PAIRS(RK_DEFINE_ROT_SCALAR, m) RK_DTYPE_PAIRS_F64(RK_DEFINE_ROT_SCALAR, m)
RK_ROT_MODES(RK_DEFINE_ROT_MODE)
