/* AVX-512 row loops of the partial-rotary kernels (contiguous rows only). Each
 * rot_<mode>_avx512.c instantiates them with constant mode, direction and dtypes.
 * Tails use masked loads and stores; results equal the scalar kernels bit for bit. */
#ifndef ROPEKIT_KERNELS_ROT_AVX512_IMPL_H_
#define ROPEKIT_KERNELS_ROT_AVX512_IMPL_H_

#include "kernels/prefetch.h"
#include "kernels/simd_avx512.h"

#define RK_DT_f32 RK_KDT_F32
#define RK_DT_f16 RK_KDT_F16
#define RK_DT_bf16 RK_KDT_BF16
#define RK_SIZE(dt) ((dt) == RK_KDT_F32 ? 4 : 2)

/* Each loop below runs its full 16-lane blocks with the constant mask 0xffff, which the
 * compiler folds (no masks, no mask branches), and one masked block for the tail. */

/* Rotate-half, 16 pairs (j, j + h) at j with coefficients at the same positions. */
RK_INLINE void rk512_rot_half_step(char *x, const char *c, const char *s, int64_t j, int64_t h,
                                   __mmask16 m, int backward, enum rk_kdtype xdt,
                                   enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    __m512 a = rk512_load(x + j * xs, xdt, m), b = rk512_load(x + (j + h) * xs, xdt, m);
    __m512 cp = rk512_load(c + j * cs, cdt, m), sp = rk512_load(s + j * cs, cdt, m);
    __m512 cr = rk512_load(c + (j + h) * cs, cdt, m);
    __m512 sr = rk512_load(s + (j + h) * cs, cdt, m);
    __m512 oa, ob;
    if (backward)
        rk512_pair_backward(a, b, cp, sp, cr, sr, &oa, &ob);
    else
        rk512_pair_forward(a, b, cp, sp, cr, sr, &oa, &ob);
    rk512_store2(x + j * xs, oa, x + (j + h) * xs, ob, xdt, m);
}

/* Rotate-half on x[0, 2h). */
RK_INLINE void rk512_rot_half_block(char *x, const char *c, const char *s, int64_t h, int backward,
                                    enum rk_kdtype xdt, enum rk_kdtype cdt) {
    int64_t j = 0;
    for (; j + 16 <= h; j += 16)
        rk512_rot_half_step(x, c, s, j, h, (__mmask16)0xffff, backward, xdt, cdt);
    if (j < h)
        rk512_rot_half_step(x, c, s, j, h, rk512_mask(h - j), backward, xdt, cdt);
}

/* Interleaved pairs (2i, 2i + 1), 16 lanes at k. */
RK_INLINE void rk512_rot_interleave_step(char *x, const char *c, const char *s, int64_t k,
                                         __mmask16 m, int backward, enum rk_kdtype xdt,
                                         enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    __m512 v = rk512_load(x + k * xs, xdt, m);
    __m512 cv = rk512_load(c + k * cs, cdt, m), sv = rk512_load(s + k * cs, cdt, m);
    __m512 p1 = _mm512_mul_ps(v, cv), out;
    if (backward) /* even: g[p]c[p] + g[r]s[r]; odd: g[r]c[r] - g[p]s[p] */
        out = rk512_add_even_sub_odd(p1, rk512_swap_pairs(_mm512_mul_ps(v, sv)));
    else /* even: v[p]c[p] - v[r]s[p]; odd: v[r]c[r] + v[p]s[r] */
        out = rk512_sub_even_add_odd(p1, _mm512_mul_ps(rk512_swap_pairs(v), sv));
    rk512_store(x + k * xs, out, xdt, m);
}

/* Interleaved pairs on x[0, len). */
RK_INLINE void rk512_rot_interleave_row(char *x, const char *c, const char *s, int64_t len,
                                        int backward, enum rk_kdtype xdt, enum rk_kdtype cdt) {
    int64_t k = 0;
    for (; k + 16 <= len; k += 16)
        rk512_rot_interleave_step(x, c, s, k, (__mmask16)0xffff, backward, xdt, cdt);
    if (k < len)
        rk512_rot_interleave_step(x, c, s, k, rk512_mask(len - k), backward, xdt, cdt);
}

/* Interleaved pairs with fp32 coefficients whose sin has the sign of its use: ss[2i] =
 * -s[2i], ss[2i + 1] = s[2i + 1]. Each output is then one add, equal to the scalar
 * result bit for bit (b*(-s) = -(b*s) exactly, x + (-y) is x - y; NaN results are made
 * canonical when stored). Forward: v*c + swap(v)*ss; backward: g*c + swap(g*ss). */
RK_INLINE void rk512_rot_signed_step(char *x, const float *c, const float *ss, int64_t k,
                                     __mmask16 m, int backward, enum rk_kdtype xdt) {
    const int64_t xs = RK_SIZE(xdt);
    __m512 v = rk512_load(x + k * xs, xdt, m);
    __m512 cv = rk512_load((const char *)(c + k), RK_KDT_F32, m);
    __m512 sv = rk512_load((const char *)(ss + k), RK_KDT_F32, m);
    __m512 p2 =
        backward ? rk512_swap_pairs(_mm512_mul_ps(v, sv)) : _mm512_mul_ps(rk512_swap_pairs(v), sv);
    rk512_store(x + k * xs, _mm512_add_ps(_mm512_mul_ps(v, cv), p2), xdt, m);
}

RK_INLINE void rk512_rot_interleave_row_signed(char *x, const float *c, const float *ss,
                                               int64_t len, int backward, enum rk_kdtype xdt) {
    int64_t k = 0;
    for (; k + 16 <= len; k += 16)
        rk512_rot_signed_step(x, c, ss, k, (__mmask16)0xffff, backward, xdt);
    if (k < len)
        rk512_rot_signed_step(x, c, ss, k, rk512_mask(len - k), backward, xdt);
}

/* The 16 pairs at p (32 values of dtype dt) split into even and odd members in fp32;
 * n: pairs present (16 or more: all). */
RK_INLINE void rk512_split_pairs(const char *p, int64_t n, enum rk_kdtype dt, __m512 *even,
                                 __m512 *odd) {
    if (dt == RK_KDT_BF16) {
        rk512_load_bf16_pairs(p, rk512_mask(n), even, odd);
        return;
    }
    __m512 lo = rk512_load(p, dt, rk512_mask(2 * n));
    __m512 hi = rk512_load(p + 16 * RK_SIZE(dt), dt, rk512_mask(2 * n - 16));
    rk512_deinterleave(lo, hi, even, odd);
}

/* Interleaved pairs on bf16 x, 16 per block as packed words (rk512_load_bf16_pairs),
 * with the even and odd members of cos and sin split the same way. */
RK_INLINE void rk512_rot_bf16_pairs_step(char *x, __m512 ce, __m512 co, __m512 se, __m512 so,
                                         __mmask16 m, int backward) {
    __m512 a, b, oa, ob;
    rk512_load_bf16_pairs(x, m, &a, &b);
    if (backward) /* even: g[p]c[p] + g[r]s[r]; odd: g[r]c[r] - g[p]s[p] */
        rk512_pair_backward(a, b, ce, se, co, so, &oa, &ob);
    else /* even: v[p]c[p] - v[r]s[p]; odd: v[r]c[r] + v[p]s[r] */
        rk512_pair_forward(a, b, ce, se, co, so, &oa, &ob);
    rk512_store_bf16_pairs(x, oa, ob, m);
}

RK_INLINE void rk512_rot_bf16_pairs_block(char *x, const char *c, const char *s, int64_t i,
                                          int64_t n, int backward, enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    __m512 ce, co, se, so;
    rk512_split_pairs(c + 2 * i * cs, n, cdt, &ce, &co);
    rk512_split_pairs(s + 2 * i * cs, n, cdt, &se, &so);
    rk512_rot_bf16_pairs_step(x + 4 * i, ce, co, se, so, rk512_mask(n), backward);
}

RK_INLINE void rk512_rot_interleave_bf16_row(char *x, const char *c, const char *s, int64_t len,
                                             int backward, enum rk_kdtype cdt) {
    const int64_t pairs = len / 2;
    int64_t i = 0;
    for (; i + 16 <= pairs; i += 16)
        rk512_rot_bf16_pairs_block(x, c, s, i, 16, backward, cdt);
    if (i < pairs)
        rk512_rot_bf16_pairs_block(x, c, s, i, pairs - i, backward, cdt);
}

/* With cos/sin split once into fp32 arrays: cf = [even members | odd members], sf too. */
RK_INLINE void rk512_rot_bf16_pairs_hoisted_block(char *x, const float *cf, const float *sf,
                                                  int64_t i, int64_t pairs, __mmask16 m,
                                                  int backward) {
    __m512 ce = rk512_load((const char *)(cf + i), RK_KDT_F32, m);
    __m512 co = rk512_load((const char *)(cf + pairs + i), RK_KDT_F32, m);
    __m512 se = rk512_load((const char *)(sf + i), RK_KDT_F32, m);
    __m512 so = rk512_load((const char *)(sf + pairs + i), RK_KDT_F32, m);
    rk512_rot_bf16_pairs_step(x + 4 * i, ce, co, se, so, m, backward);
}

RK_INLINE void rk512_rot_interleave_bf16_row_hoisted(char *x, const float *cf, const float *sf,
                                                     int64_t len, int backward) {
    const int64_t pairs = len / 2;
    int64_t i = 0;
    for (; i + 16 <= pairs; i += 16)
        rk512_rot_bf16_pairs_hoisted_block(x, cf, sf, i, pairs, (__mmask16)0xffff, backward);
    if (i < pairs)
        rk512_rot_bf16_pairs_hoisted_block(x, cf, sf, i, pairs, rk512_mask(pairs - i), backward);
}

/* Splits a row of len values (len / 2 pairs) into fp32 [even members | odd members]. */
RK_INLINE void rk512_split_row(const char *src, float *dst, int64_t len, enum rk_kdtype cdt) {
    const int64_t pairs = len / 2, cs = RK_SIZE(cdt);
    for (int64_t i = 0; i < pairs; i += 16) {
        __m512 e, o;
        rk512_split_pairs(src + 2 * i * cs, pairs - i, cdt, &e, &o);
        _mm512_mask_storeu_ps(dst + i, rk512_mask(pairs - i), e);
        _mm512_mask_storeu_ps(dst + pairs + i, rk512_mask(pairs - i), o);
    }
}

/* Widens len coefficients to fp32, negating the even ones when `negate_even`. */
RK_INLINE void rk512_widen_row(const char *src, float *dst, int64_t len, int negate_even,
                               enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    const __m512 sign = _mm512_castsi512_ps(_mm512_set1_epi32((int)0x80000000u));
    for (int64_t k = 0; k < len; k += 16) {
        __mmask16 m = rk512_mask(len - k);
        __m512 v = rk512_load(src + k * cs, cdt, m);
        if (negate_even)
            v = _mm512_mask_xor_ps(v, (__mmask16)0x5555, v, sign);
        _mm512_mask_storeu_ps(dst + k, m, v);
    }
}

/* Interleave-half: the row is widened into scratch first because outputs land on
 * positions later pairs still need. */
RK_INLINE void rk512_rot_ihalf_row(char *x, const char *c, const char *s, int64_t len,
                                   float *scratch, int backward, enum rk_kdtype xdt,
                                   enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt), h = len / 2;
    for (int64_t k = 0; k < len; k += 16) {
        __mmask16 m = rk512_mask(len - k);
        __m512 v = rk512_load(x + k * xs, xdt, m);
        if (m == 0xffff)
            _mm512_storeu_ps(scratch + k, v);
        else
            _mm512_mask_storeu_ps(scratch + k, m, v);
    }
    for (int64_t j = 0; j < h; j += 16) {
        __mmask16 m = rk512_mask(h - j);
        __mmask16 m_lo = rk512_mask(2 * (h - j)), m_hi = rk512_mask(2 * (h - j) - 16);
        __m512 cp = rk512_load(c + j * cs, cdt, m), sp = rk512_load(s + j * cs, cdt, m);
        __m512 cr = rk512_load(c + (j + h) * cs, cdt, m);
        __m512 sr = rk512_load(s + (j + h) * cs, cdt, m);
        __m512 oa, ob;
        if (backward) {
            __m512 a = rk512_load((const char *)(scratch + j), RK_KDT_F32, m);
            __m512 b = rk512_load((const char *)(scratch + j + h), RK_KDT_F32, m);
            rk512_pair_backward(a, b, cp, sp, cr, sr, &oa, &ob);
            __m512 lo, hi;
            rk512_interleave(oa, ob, &lo, &hi);
            rk512_store(x + 2 * j * xs, lo, xdt, m_lo);
            rk512_store(x + (2 * j + 16) * xs, hi, xdt, m_hi);
        } else {
            __m512 lo = rk512_load((const char *)(scratch + 2 * j), RK_KDT_F32, m_lo);
            __m512 hi = rk512_load((const char *)(scratch + 2 * j + 16), RK_KDT_F32, m_hi);
            __m512 a, b;
            rk512_deinterleave(lo, hi, &a, &b);
            rk512_pair_forward(a, b, cp, sp, cr, sr, &oa, &ob);
            rk512_store2(x + j * xs, oa, x + (j + h) * xs, ob, xdt, m);
        }
    }
}

/* Rows that share one cos/sin row (a broadcast over heads) widen it once into fp32 on
 * the stack; interleave also gets the signed sin above. */
#define RK512_ROT_HOIST_MAX 1024

/* mode: 0 half, 1 interleave, 2 quarter, 3 interleave-half. */
RK_INLINE void rk512_rot_rows(const struct rk_rot_rows *a, int mode, int backward,
                              enum rk_kdtype xdt, enum rk_kdtype cdt) {
    const int64_t len = a->len, xs = RK_SIZE(xdt);
    const int hoist = a->rows > 1 && a->c_row == 0 && a->s_row == 0 && len <= RK512_ROT_HOIST_MAX &&
                      (cdt != RK_KDT_F32 || mode == 1);
    _Alignas(64) float cf[RK512_ROT_HOIST_MAX];
    _Alignas(64) float sf[RK512_ROT_HOIST_MAX];
    /* bf16 interleave works on packed pairs (rk512_rot_interleave_bf16_row). */
    const int bf16_pairs = mode == 1 && xdt == RK_KDT_BF16;
    if (hoist && bf16_pairs) {
        rk512_split_row(a->cos, cf, len, cdt);
        rk512_split_row(a->sin, sf, len, cdt);
    } else if (hoist) {
        rk512_widen_row(a->cos, cf, len, 0, cdt);
        rk512_widen_row(a->sin, sf, len, mode == 1, cdt);
    }
    const enum rk_kdtype kdt = hoist ? RK_KDT_F32 : cdt;
    const int64_t cs = RK_SIZE(kdt);
    const int64_t ahead = a->prefetch ? rk_prefetch_rows_ahead(a->x_row) : 0;
    for (int64_t row = 0; row < a->rows; row++) {
        char *x = a->x + row * a->x_row;
        if (ahead)
            rk_prefetch_row(x, a->x_row, ahead, len * xs);
        const char *c = hoist ? (const char *)cf : a->cos + row * a->c_row;
        const char *s = hoist ? (const char *)sf : a->sin + row * a->s_row;
        if (mode == 0) {
            rk512_rot_half_block(x, c, s, len / 2, backward, xdt, kdt);
        } else if (bf16_pairs && hoist) {
            rk512_rot_interleave_bf16_row_hoisted(x, cf, sf, len, backward);
        } else if (bf16_pairs) {
            rk512_rot_interleave_bf16_row(x, c, s, len, backward, cdt);
        } else if (mode == 1 && hoist) {
            rk512_rot_interleave_row_signed(x, cf, sf, len, backward, xdt);
        } else if (mode == 1) {
            rk512_rot_interleave_row(x, c, s, len, backward, xdt, kdt);
        } else if (mode == 2) {
            const int64_t q = len / 4;
            rk512_rot_half_block(x, c, s, q, backward, xdt, kdt);
            rk512_rot_half_block(x + 2 * q * xs, c + 2 * q * cs, s + 2 * q * cs, q, backward, xdt,
                                 kdt);
        } else {
            rk512_rot_ihalf_row(x, c, s, len, a->scratch, backward, xdt, kdt);
        }
    }
}

#define RK_DEFINE_AVX512_KERNELS(mode_name, mode_id, xd, cd)                                       \
    void RK512_NAME(rk_rot_##mode_name##_fwd_##xd##cd)(const struct rk_rot_rows *a) {              \
        rk512_rot_rows(a, mode_id, 0, RK_DT_##xd, RK_DT_##cd);                                     \
    }                                                                                              \
    void RK512_NAME(rk_rot_##mode_name##_bwd_##xd##cd)(const struct rk_rot_rows *a) {              \
        rk512_rot_rows(a, mode_id, 1, RK_DT_##xd, RK_DT_##cd);                                     \
    }

#endif /* ROPEKIT_KERNELS_ROT_AVX512_IMPL_H_ */
