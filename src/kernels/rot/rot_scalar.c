/* The scalar partial-rotary kernels, every mode, direction and dtype pair: the complete
 * fallback on every CPU and the oracle the SIMD kernels are tested against. They accept
 * any element stride. */
#include "kernels/kernel_list.h"
#include "kernels/simd/elem.h"

/* Modes whose pairs are local (half, interleave, quarter): each pair is read fully
 * before it is written, so in place (y == x) needs no scratch. Quarter is two rotate-halves of
 * len / 4 pairs, at 0 and at len / 2. */
RK_INLINE void rk_rot_rows_pairs(const struct rk_rot_rows *a, ropekit_rotary_mode mode,
                                 ropekit_direction dir, enum rk_kdtype xdt, enum rk_kdtype cdt) {
    const int quarter = mode == ROPEKIT_ROTARY_QUARTER;
    const ropekit_rotary_mode layout = quarter ? ROPEKIT_ROTARY_HALF : mode;
    const int64_t n = quarter ? a->len / 4 : a->len / 2; /* pairs of a part */
    for (int64_t row = 0; row < a->rows; row++)
        for (int64_t part = 0; part < (quarter ? 2 : 1); part++) {
            const char *x = a->x + row * a->x_row + 2 * n * part * a->x_col;
            char *y = a->y + row * a->y_row + 2 * n * part * a->y_col;
            const char *c = a->cos + row * a->c_row + 2 * n * part * a->c_col;
            const char *s = a->sin + row * a->s_row + 2 * n * part * a->s_col;
            rk_rot_pairs(x, a->x_col, y, a->y_col, c, a->c_col, s, a->s_col, 0, n, layout,
                         RK_COEFFS_PER_MEMBER, dir, xdt, cdt);
        }
}

/* Interleave-half moves elements between layouts, so each row is first copied into
 * scratch as stored (packed) and then written (in place, outputs land on positions later
 * pairs still read). Forward: interleaved in, half layout out;
 * backward: half layout in, interleaved out. */
RK_INLINE void rk_rot_rows_ihalf(const struct rk_rot_rows *a, ropekit_direction dir,
                                 enum rk_kdtype xdt, enum rk_kdtype cdt) {
    const int64_t h = a->len / 2, xs = RK_SIZE(xdt);
    char *v = a->scratch;
    for (int64_t row = 0; row < a->rows; row++) {
        const char *x = a->x + row * a->x_row;
        char *y = a->y + row * a->y_row;
        const char *c = a->cos + row * a->c_row;
        const char *s = a->sin + row * a->s_row;
        for (int64_t k = 0; k < a->len; k++)
            memcpy(v + k * xs, x + k * a->x_col, (size_t)xs);
        for (int64_t j = 0; j < h; j++) {
            /* input and output positions of the pair's members, in elements */
            const int backward = dir == ROPEKIT_BACKWARD;
            int64_t ia = backward ? j : 2 * j, ib = backward ? j + h : 2 * j + 1;
            int64_t oa = backward ? 2 * j : j, ob = backward ? 2 * j + 1 : j + h;
            rk_rot_pair(v + ia * xs, v + ib * xs, y + oa * a->y_col, y + ob * a->y_col,
                        c + j * a->c_col, s + j * a->s_col, c + (j + h) * a->c_col,
                        s + (j + h) * a->s_col, dir, xdt, cdt);
        }
    }
}

RK_INLINE void rk_rot_rows_scalar(const struct rk_rot_rows *a, ropekit_rotary_mode mode,
                                  ropekit_direction dir, enum rk_kdtype xdt, enum rk_kdtype cdt) {
    if (mode == ROPEKIT_ROTARY_INTERLEAVE_HALF)
        rk_rot_rows_ihalf(a, dir, xdt, cdt);
    else
        rk_rot_rows_pairs(a, mode, dir, xdt, cdt);
}

#define RK_DEFINE_ROT_SCALAR(isa, name, mode, direction, xdt, cdt)                                 \
    RK_KERNEL void name(const struct rk_rot_rows *a) {                                             \
        rk_rot_rows_scalar(a, mode, direction, xdt, cdt);                                          \
    }
RK_ROT_KERNELS_SCALAR(RK_DEFINE_ROT_SCALAR)
