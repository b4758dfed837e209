/* The AVX2 (+F16C) partial-rotary kernels, every mode, direction and dtype pair, float64
 * included (contiguous rows only). Full 8-lane blocks (4 for float64) run in vectors; the
 * pairs left over at the end of a row go through the scalar helpers, so nothing is read or
 * written past the row and results equal the scalar kernels bit for bit. */
#include "kernels/kernel_list.h"
#include "kernels/simd/f64_avx2.h"
#include "kernels/simd/simd_avx2.h"

/* float64: four doubles a vector, coefficients read as they are (never widened: the row
 * functions below hand float64 rows to these). */

RK_INLINE void rk256d_rot_half_block(char *x, const char *c, const char *s, int64_t h,
                                     int backward) {
    int64_t j = 0;
    for (; j + 4 <= h; j += 4) {
        __m256d a = rk256d_load(x + 8 * j), b = rk256d_load(x + 8 * (j + h));
        __m256d cp = rk256d_load(c + 8 * j), sp = rk256d_load(s + 8 * j);
        __m256d cr = rk256d_load(c + 8 * (j + h)), sr = rk256d_load(s + 8 * (j + h));
        __m256d oa, ob;
        if (backward)
            rk256d_pair_backward(a, b, cp, sp, cr, sr, &oa, &ob);
        else
            rk256d_pair_forward(a, b, cp, sp, cr, sr, &oa, &ob);
        rk256d_store(x + 8 * j, oa);
        rk256d_store(x + 8 * (j + h), ob);
    }
    for (; j < h; j++) {
        char *pa = x + 8 * j, *pb = x + 8 * (j + h);
        rk_rotate_pair_f64(pa, pb, pa, pb, c + 8 * j, s + 8 * j, c + 8 * (j + h), s + 8 * (j + h),
                           backward);
    }
}

RK_INLINE void rk256d_rot_interleave_row(char *x, const char *c, const char *s, int64_t len,
                                         int backward) {
    int64_t k = 0;
    for (; k + 4 <= len; k += 4)
        rk256d_store(x + 8 * k, rk256d_rotate_pairs(rk256d_load(x + 8 * k), rk256d_load(c + 8 * k),
                                                    rk256d_load(s + 8 * k), backward));
    for (; k + 1 < len; k += 2) {
        char *pa = x + 8 * k, *pb = x + 8 * (k + 1);
        rk_rotate_pair_f64(pa, pb, pa, pb, c + 8 * k, s + 8 * k, c + 8 * (k + 1), s + 8 * (k + 1),
                           backward);
    }
}

/* Interleave-half reads the row from a copy in scratch: outputs land on positions later
 * pairs still read. */
RK_INLINE void rk256d_rot_ihalf_row(char *x, const char *c, const char *s, int64_t len, char *v,
                                    int backward) {
    const int64_t h = len / 2;
    memcpy(v, x, (size_t)(8 * len));
    int64_t j = 0;
    for (; j + 4 <= h; j += 4) {
        __m256d cp = rk256d_load(c + 8 * j), sp = rk256d_load(s + 8 * j);
        __m256d cr = rk256d_load(c + 8 * (j + h)), sr = rk256d_load(s + 8 * (j + h));
        __m256d a, b, oa, ob;
        if (backward) {
            __m256d lo, hi;
            rk256d_pair_backward(rk256d_load(v + 8 * j), rk256d_load(v + 8 * (j + h)), cp, sp, cr,
                                 sr, &oa, &ob);
            rk256d_interleave(oa, ob, &lo, &hi);
            rk256d_store(x + 16 * j, lo);
            rk256d_store(x + 16 * j + 32, hi);
        } else {
            rk256d_deinterleave(rk256d_load(v + 16 * j), rk256d_load(v + 16 * j + 32), &a, &b);
            rk256d_pair_forward(a, b, cp, sp, cr, sr, &oa, &ob);
            rk256d_store(x + 8 * j, oa);
            rk256d_store(x + 8 * (j + h), ob);
        }
    }
    for (; j < h; j++) {
        const char *cp = c + 8 * j, *sp = s + 8 * j, *cr = c + 8 * (j + h), *sr = s + 8 * (j + h);
        if (backward)
            rk_rotate_pair_f64(v + 8 * j, v + 8 * (j + h), x + 16 * j, x + 16 * j + 8, cp, sp, cr,
                               sr, 1);
        else
            rk_rotate_pair_f64(v + 16 * j, v + 16 * j + 8, x + 8 * j, x + 8 * (j + h), cp, sp, cr,
                               sr, 0);
    }
}

/* Rotate-half on x[0, 2h): pairs (j, j + h) with coefficients at the same positions. */
RK_INLINE void rk256_rot_half_block(char *x, const char *c, const char *s, int64_t h, int backward,
                                    enum rk_kdtype xdt, enum rk_kdtype cdt) {
    if (xdt == RK_KDT_F64) {
        rk256d_rot_half_block(x, c, s, h, backward);
        return;
    }
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    int64_t j = 0;
    /* bf16: 16 values of each half in split lanes; j pairs with j + h in the same lane */
    for (; xdt == RK_KDT_BF16 && j + 16 <= h; j += 16) {
        __m256 ae, ao, be, bo, cpe, cpo, spe, spo, cre, cro, sre, sro, oae, oao, obe, obo;
        rk256_load_bf16_split(x + 2 * j, &ae, &ao);
        rk256_load_bf16_split(x + 2 * (j + h), &be, &bo);
        rk256_split_values(c + j * cs, cdt, &cpe, &cpo);
        rk256_split_values(s + j * cs, cdt, &spe, &spo);
        rk256_split_values(c + (j + h) * cs, cdt, &cre, &cro);
        rk256_split_values(s + (j + h) * cs, cdt, &sre, &sro);
        if (backward) {
            rk256_pair_backward(ae, be, cpe, spe, cre, sre, &oae, &obe);
            rk256_pair_backward(ao, bo, cpo, spo, cro, sro, &oao, &obo);
        } else {
            rk256_pair_forward(ae, be, cpe, spe, cre, sre, &oae, &obe);
            rk256_pair_forward(ao, bo, cpo, spo, cro, sro, &oao, &obo);
        }
        rk256_store_bf16_split(x + 2 * j, oae, oao);
        rk256_store_bf16_split(x + 2 * (j + h), obe, obo);
    }
    for (; j + 8 <= h; j += 8) {
        __m256 a = rk256_load(x + j * xs, xdt), b = rk256_load(x + (j + h) * xs, xdt);
        __m256 cp = rk256_load(c + j * cs, cdt), sp = rk256_load(s + j * cs, cdt);
        __m256 cr = rk256_load(c + (j + h) * cs, cdt), sr = rk256_load(s + (j + h) * cs, cdt);
        __m256 oa, ob;
        if (backward)
            rk256_pair_backward(a, b, cp, sp, cr, sr, &oa, &ob);
        else
            rk256_pair_forward(a, b, cp, sp, cr, sr, &oa, &ob);
        rk256_store(x + j * xs, oa, xdt);
        rk256_store(x + (j + h) * xs, ob, xdt);
    }
    for (; j < h; j++) {
        char *pa = x + j * xs, *pb = x + (j + h) * xs;
        rk256_pair_scalar(pa, pb, pa, pb, c + j * cs, s + j * cs, c + (j + h) * cs,
                          s + (j + h) * cs, backward, xdt, cdt);
    }
}

/* Interleaved pairs (2i, 2i + 1) on x[0, len); blocks of 8 lanes hold whole pairs. */
RK_INLINE void rk256_rot_interleave_row(char *x, const char *c, const char *s, int64_t len,
                                        int backward, enum rk_kdtype xdt, enum rk_kdtype cdt) {
    if (xdt == RK_KDT_F64) {
        rk256d_rot_interleave_row(x, c, s, len, backward);
        return;
    }
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    int64_t k = 0;
    /* bf16: a pair is one 32-bit word, so the split puts pair members in one lane */
    for (; xdt == RK_KDT_BF16 && k + 16 <= len; k += 16) {
        __m256 a, b, ce, co, se, so, oa, ob;
        rk256_load_bf16_split(x + 2 * k, &a, &b);
        rk256_split_values(c + k * cs, cdt, &ce, &co);
        rk256_split_values(s + k * cs, cdt, &se, &so);
        if (backward) /* even: g[p]c[p] + g[r]s[r]; odd: g[r]c[r] - g[p]s[p] */
            rk256_pair_backward(a, b, ce, se, co, so, &oa, &ob);
        else /* even: v[p]c[p] - v[r]s[p]; odd: v[r]c[r] + v[p]s[r] */
            rk256_pair_forward(a, b, ce, se, co, so, &oa, &ob);
        rk256_store_bf16_split(x + 2 * k, oa, ob);
    }
    for (; k + 8 <= len; k += 8) {
        __m256 v = rk256_load(x + k * xs, xdt);
        __m256 cv = rk256_load(c + k * cs, cdt), sv = rk256_load(s + k * cs, cdt);
        __m256 p1 = _mm256_mul_ps(v, cv), out;
        if (backward) /* even: g[p]c[p] + g[r]s[r]; odd: g[r]c[r] - g[p]s[p] */
            out = rk256_add_even_sub_odd(p1, rk256_swap_pairs(_mm256_mul_ps(v, sv)));
        else /* even: v[p]c[p] - v[r]s[p]; odd: v[r]c[r] + v[p]s[r] */
            out = rk256_sub_even_add_odd(p1, _mm256_mul_ps(rk256_swap_pairs(v), sv));
        rk256_store(x + k * xs, out, xdt);
    }
    for (; k + 1 < len; k += 2) {
        char *pa = x + k * xs, *pb = x + (k + 1) * xs;
        rk256_pair_scalar(pa, pb, pa, pb, c + k * cs, s + k * cs, c + (k + 1) * cs,
                          s + (k + 1) * cs, backward, xdt, cdt);
    }
}

/* Interleave-half: the row is widened into scratch first because outputs land on
 * positions later pairs still need. */
RK_INLINE void rk256_rot_ihalf_row(char *x, const char *c, const char *s, int64_t len, float *v,
                                   int backward, enum rk_kdtype xdt, enum rk_kdtype cdt) {
    if (xdt == RK_KDT_F64) {
        rk256d_rot_ihalf_row(x, c, s, len, (char *)v, backward);
        return;
    }
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt), h = len / 2;
    int64_t k = 0;
    for (; k + 8 <= len; k += 8)
        _mm256_storeu_ps(v + k, rk256_load(x + k * xs, xdt));
    for (; k < len; k++)
        v[k] = rk_load_elem(x + k * xs, xdt);
    int64_t j = 0;
    for (; j + 8 <= h; j += 8) {
        __m256 cp = rk256_load(c + j * cs, cdt), sp = rk256_load(s + j * cs, cdt);
        __m256 cr = rk256_load(c + (j + h) * cs, cdt), sr = rk256_load(s + (j + h) * cs, cdt);
        __m256 oa, ob;
        if (backward) {
            __m256 a = _mm256_loadu_ps(v + j), b = _mm256_loadu_ps(v + j + h), lo, hi;
            rk256_pair_backward(a, b, cp, sp, cr, sr, &oa, &ob);
            rk256_interleave(oa, ob, &lo, &hi);
            rk256_store(x + 2 * j * xs, lo, xdt);
            rk256_store(x + (2 * j + 8) * xs, hi, xdt);
        } else {
            __m256 a, b;
            rk256_deinterleave(_mm256_loadu_ps(v + 2 * j), _mm256_loadu_ps(v + 2 * j + 8), &a, &b);
            rk256_pair_forward(a, b, cp, sp, cr, sr, &oa, &ob);
            rk256_store(x + j * xs, oa, xdt);
            rk256_store(x + (j + h) * xs, ob, xdt);
        }
    }
    for (; j < h; j++) {
        float cp = rk_load_elem(c + j * cs, cdt), sp = rk_load_elem(s + j * cs, cdt);
        float cr = rk_load_elem(c + (j + h) * cs, cdt), sr = rk_load_elem(s + (j + h) * cs, cdt);
        float oa, ob;
        if (backward) {
            rk_pair_backward(v[j], v[j + h], cp, sp, cr, sr, &oa, &ob);
            rk_store_elem(x + 2 * j * xs, oa, xdt);
            rk_store_elem(x + (2 * j + 1) * xs, ob, xdt);
        } else {
            rk_pair_forward(v[2 * j], v[2 * j + 1], cp, sp, cr, sr, &oa, &ob);
            rk_store_elem(x + j * xs, oa, xdt);
            rk_store_elem(x + (j + h) * xs, ob, xdt);
        }
    }
}

/* A broadcast cos/sin row is widened once (rot/rot_rows.h); interleave also gets the sin
 * with the sign of its use, ss[2i] = -s[2i], ss[2i + 1] = s[2i + 1], so each output is one
 * add, equal to the scalar result bit for bit (b*(-s) = -(b*s) exactly, x + (-y) is
 * x - y; NaN results are made canonical when stored). */
RK_INLINE void rk256_widen_row(const char *src, float *dst, int64_t len, int negate_even,
                               enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    const __m256 even_sign = _mm256_castsi256_ps(_mm256_setr_epi32(
        (int)0x80000000u, 0, (int)0x80000000u, 0, (int)0x80000000u, 0, (int)0x80000000u, 0));
    int64_t k = 0;
    for (; k + 8 <= len; k += 8) {
        __m256 v = rk256_load(src + k * cs, cdt);
        _mm256_storeu_ps(dst + k, negate_even ? _mm256_xor_ps(v, even_sign) : v);
    }
    for (; k < len; k++) {
        const float v = rk_load_elem(src + k * cs, cdt);
        dst[k] = negate_even && k % 2 == 0 ? -v : v;
    }
}

/* Interleaved pairs with the widened c and signed ss above; forward v*c + swap(v)*ss,
 * backward g*c + swap(g*ss). A pair left over uses the original row (c0, s0). */
RK_INLINE void rk256_rot_interleave_row_signed(char *x, const float *c, const float *ss,
                                               const char *c0, const char *s0, int64_t len,
                                               int backward, enum rk_kdtype xdt,
                                               enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    int64_t k = 0;
    for (; k + 8 <= len; k += 8) {
        __m256 v = rk256_load(x + k * xs, xdt);
        __m256 sv = _mm256_loadu_ps(ss + k);
        __m256 p2 = backward ? rk256_swap_pairs(_mm256_mul_ps(v, sv))
                             : _mm256_mul_ps(rk256_swap_pairs(v), sv);
        rk256_store(x + k * xs, _mm256_add_ps(_mm256_mul_ps(v, _mm256_loadu_ps(c + k)), p2), xdt);
    }
    for (; k + 1 < len; k += 2) {
        char *pa = x + k * xs, *pb = x + (k + 1) * xs;
        rk256_pair_scalar(pa, pb, pa, pb, c0 + k * cs, s0 + k * cs, c0 + (k + 1) * cs,
                          s0 + (k + 1) * cs, backward, xdt, cdt);
    }
}

/* Widening pays for f16/bf16 coefficients and for the signed sin of fp32 interleave
 * backward; bf16 x keeps its split-lane loads of the original row, fp32 interleave
 * forward its vaddsubps, and float64 its own coefficients. */
RK_INLINE int rk256_rot_hoist_wanted(int mode, int backward, int split, enum rk_kdtype xdt,
                                     enum rk_kdtype cdt) {
    (void)split;
    return xdt != RK_KDT_BF16 && xdt != RK_KDT_F64 &&
           (cdt != RK_KDT_F32 || (mode == 1 && backward));
}

#define RKV(name) rk256_##name
#define RKV_HOIST_ALIGN _Alignof(float)
#include "kernels/rot/rot_rows.h"

#define RK_DEFINE_ROT_AVX2(m, xd, cd)                                                              \
    RK_KERNEL void rk_rot_##m##_fwd_##xd##cd##__avx2(const struct rk_rot_rows *a) {                \
        rk256_rot_rows(a, RK_MODE_INDEX_##m, 0, RK_DT_##xd, RK_DT_##cd);                           \
    }                                                                                              \
    RK_KERNEL void rk_rot_##m##_bwd_##xd##cd##__avx2(const struct rk_rot_rows *a) {                \
        rk256_rot_rows(a, RK_MODE_INDEX_##m, 1, RK_DT_##xd, RK_DT_##cd);                           \
    }
#define RK_DEFINE_ROT_MODE(m, id)                                                                  \
    RK_DTYPE_PAIRS(RK_DEFINE_ROT_AVX2, m) RK_DTYPE_PAIRS_F64(RK_DEFINE_ROT_AVX2, m)
RK_ROT_MODES(RK_DEFINE_ROT_MODE)
