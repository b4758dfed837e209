/* The AVX-512 partial-rotary kernels, every mode, direction and dtype pair (contiguous
 * rows only). Tails use masked loads and stores; results equal the scalar kernels bit for
 * bit. Built twice: the avx512 set, and with RK512_HW_BF16 and -mavx512bf16 the
 * avx512bf16 set (simd/simd_avx512.h). */
#include "kernels/kernel_list.h"
#include "kernels/simd/simd_avx512.h"

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

/* c0/s0, the original row, are not needed: the tail is a masked block. */
RK_INLINE void rk512_rot_interleave_row_signed(char *x, const float *c, const float *ss,
                                               const char *c0, const char *s0, int64_t len,
                                               int backward, enum rk_kdtype xdt,
                                               enum rk_kdtype cdt) {
    (void)c0;
    (void)s0;
    (void)cdt;
    int64_t k = 0;
    for (; k + 16 <= len; k += 16)
        rk512_rot_signed_step(x, c, ss, k, (__mmask16)0xffff, backward, xdt);
    if (k < len)
        rk512_rot_signed_step(x, c, ss, k, rk512_mask(len - k), backward, xdt);
}

/* Interleaved pairs on bf16 x: a pair is one 32-bit word, so rk512_load_bf16_split puts
 * pair i's members in lane i of the even and the odd vector; cos and sin are split the
 * same way (rk512_split_values), or come split from hoisted fp32 arrays. */
RK_INLINE void rk512_rot_bf16_pairs_step(char *x, __m512 ce, __m512 co, __m512 se, __m512 so,
                                         __mmask32 w, int backward) {
    __m512 a, b, oa, ob;
    rk512_load_bf16_split(x, w, &a, &b);
    if (backward) /* even: g[p]c[p] + g[r]s[r]; odd: g[r]c[r] - g[p]s[p] */
        rk512_pair_backward(a, b, ce, se, co, so, &oa, &ob);
    else /* even: v[p]c[p] - v[r]s[p]; odd: v[r]c[r] + v[p]s[r] */
        rk512_pair_forward(a, b, ce, se, co, so, &oa, &ob);
    rk512_store_bf16_split(x, oa, ob, w);
}

/* n values (up to 32) from element k; direct coefficients of dtype cdt. */
RK_INLINE void rk512_rot_bf16_pairs_block(char *x, const char *c, const char *s, int64_t k,
                                          int64_t n, int backward, enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    __m512 ce, co, se, so;
    rk512_split_values(c + k * cs, n, cdt, &ce, &co);
    rk512_split_values(s + k * cs, n, cdt, &se, &so);
    rk512_rot_bf16_pairs_step(x + 2 * k, ce, co, se, so, rk512_mask32(n), backward);
}

/* Hoisted: cf/sf split per 32-block by rk512_split_to_f32. */
RK_INLINE void rk512_rot_bf16_pairs_hoisted_block(char *x, const float *cf, const float *sf,
                                                  int64_t k, int64_t n, int backward) {
    rk512_rot_bf16_pairs_step(x + 2 * k, _mm512_loadu_ps(cf + k), _mm512_loadu_ps(cf + k + 16),
                              _mm512_loadu_ps(sf + k), _mm512_loadu_ps(sf + k + 16),
                              rk512_mask32(n), backward);
}

RK_INLINE void rk512_rot_interleave_bf16_row(char *x, const char *c, const char *s, const float *cf,
                                             const float *sf, int64_t len, int backward,
                                             enum rk_kdtype cdt) {
    int64_t k = 0;
    for (; k + 32 <= len; k += 32) {
        if (cf)
            rk512_rot_bf16_pairs_hoisted_block(x, cf, sf, k, 32, backward);
        else
            rk512_rot_bf16_pairs_block(x, c, s, k, 32, backward, cdt);
    }
    if (k < len) {
        if (cf)
            rk512_rot_bf16_pairs_hoisted_block(x, cf, sf, k, len - k, backward);
        else
            rk512_rot_bf16_pairs_block(x, c, s, k, len - k, backward, cdt);
    }
}

/* Rotate-half on bf16 x: 32 values of each half per block in split lanes; value j pairs
 * with j + h in the same lane. Coefficients direct (dtype cdt, cr/sr at j + h) or from
 * hoisted split arrays (the second half's blocks start at h2 = h rounded up to 32). */
RK_INLINE void rk512_rot_half_bf16_block(char *x, const char *c, const char *s, const float *cf,
                                         const float *sf, int64_t j, int64_t h, int64_t h2,
                                         int64_t n, int backward, enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    const __mmask32 w = rk512_mask32(n);
    __m512 ae, ao, be, bo, cpe, cpo, spe, spo, cre, cro, sre, sro, oae, oao, obe, obo;
    rk512_load_bf16_split(x + 2 * j, w, &ae, &ao);
    rk512_load_bf16_split(x + 2 * (j + h), w, &be, &bo);
    if (cf) {
        cpe = _mm512_loadu_ps(cf + j), cpo = _mm512_loadu_ps(cf + j + 16);
        spe = _mm512_loadu_ps(sf + j), spo = _mm512_loadu_ps(sf + j + 16);
        cre = _mm512_loadu_ps(cf + h2 + j), cro = _mm512_loadu_ps(cf + h2 + j + 16);
        sre = _mm512_loadu_ps(sf + h2 + j), sro = _mm512_loadu_ps(sf + h2 + j + 16);
    } else {
        rk512_split_values(c + j * cs, n, cdt, &cpe, &cpo);
        rk512_split_values(s + j * cs, n, cdt, &spe, &spo);
        rk512_split_values(c + (j + h) * cs, n, cdt, &cre, &cro);
        rk512_split_values(s + (j + h) * cs, n, cdt, &sre, &sro);
    }
    if (backward) {
        rk512_pair_backward(ae, be, cpe, spe, cre, sre, &oae, &obe);
        rk512_pair_backward(ao, bo, cpo, spo, cro, sro, &oao, &obo);
    } else {
        rk512_pair_forward(ae, be, cpe, spe, cre, sre, &oae, &obe);
        rk512_pair_forward(ao, bo, cpo, spo, cro, sro, &oao, &obo);
    }
    rk512_store_bf16_split(x + 2 * j, oae, oao, w);
    rk512_store_bf16_split(x + 2 * (j + h), obe, obo, w);
}

RK_INLINE void rk512_rot_half_bf16(char *x, const char *c, const char *s, const float *cf,
                                   const float *sf, int64_t h, int64_t h2, int backward,
                                   enum rk_kdtype cdt) {
    int64_t j = 0;
    for (; j + 32 <= h; j += 32)
        rk512_rot_half_bf16_block(x, c, s, cf, sf, j, h, h2, 32, backward, cdt);
    if (j < h)
        rk512_rot_half_bf16_block(x, c, s, cf, sf, j, h, h2, h - j, backward, cdt);
}

/* Splits `n` coefficients into 32-blocks of fp32 (rk512_split_to_f32) at dst. */
RK_INLINE void rk512_split_run(const char *src, int64_t n, enum rk_kdtype cdt, float *dst) {
    for (int64_t k = 0; k < n; k += 32)
        rk512_split_to_f32(src + k * RK_SIZE(cdt), n - k, cdt, dst + k);
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

/* A broadcast cos/sin row is widened once (rot/rot_rows.h) for f16/bf16 coefficients,
 * for the signed sin of interleave, and split alike for bf16 x on split lanes. */
RK_INLINE int rk512_rot_hoist_wanted(int mode, int backward, int split, enum rk_kdtype xdt,
                                     enum rk_kdtype cdt) {
    (void)backward;
    (void)xdt;
    return cdt != RK_KDT_F32 || mode == 1 || split;
}

#define RKV(name) rk512_##name
#define RKV_HOIST_ALIGN 64
#define RKV_ROT_BF16_SPLIT 1
#include "kernels/rot/rot_rows.h"

#define RK_DEFINE_ROT_AVX512(m, xd, cd)                                                            \
    RK_KERNEL void RK512_NAME(rk_rot_##m##_fwd_##xd##cd)(const struct rk_rot_rows *a) {            \
        rk512_rot_rows(a, RK_MODE_INDEX_##m, 0, RK_DT_##xd, RK_DT_##cd);                           \
    }                                                                                              \
    RK_KERNEL void RK512_NAME(rk_rot_##m##_bwd_##xd##cd)(const struct rk_rot_rows *a) {            \
        rk512_rot_rows(a, RK_MODE_INDEX_##m, 1, RK_DT_##xd, RK_DT_##cd);                           \
    }
#define RK_DEFINE_ROT_MODE(m, id) RK_DTYPE_PAIRS(RK_DEFINE_ROT_AVX512, m)
RK_ROT_MODES(RK_DEFINE_ROT_MODE)
