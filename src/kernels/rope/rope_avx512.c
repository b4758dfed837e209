/* The AVX-512 rope kernels, both styles and every dtype pair (heads and coefficients
 * contiguous). Built twice: the avx512 set, and with RK512_HW_BF16 and -mavx512bf16 the
 * avx512bf16 set (simd/simd_avx512.h). */
#include "kernels/kernel_list.h"
#include "kernels/rope_kernel.h"
#include "kernels/simd/simd_avx512.h"

/* One block of 16 pairs at j. Full blocks pass the constant mask 0xffff, which the
 * compiler folds: no masks and no mask branches in the main loops. */
RK_INLINE void rk512_rope_neox_block(const char *in, char *out, const char *cos, const char *sin,
                                     int64_t j, int64_t h, __mmask16 m, enum rk_kdtype xdt,
                                     enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    __m512 xa = rk512_load(in + j * xs, xdt, m);
    __m512 xb = rk512_load(in + (j + h) * xs, xdt, m);
    __m512 c = rk512_load(cos + j * cs, cdt, m);
    __m512 s = rk512_load(sin + j * cs, cdt, m);
    __m512 oa, ob;
    rk512_pair_forward(xa, xb, c, s, c, s, &oa, &ob);
    rk512_store2(out + j * xs, oa, out + (j + h) * xs, ob, xdt, m);
}

RK_INLINE void rk512_rope_neox_head(const char *in, char *out, const char *cos, const char *sin,
                                    int64_t h, enum rk_kdtype xdt, enum rk_kdtype cdt) {
    int64_t j = 0;
    for (; j + 16 <= h; j += 16)
        rk512_rope_neox_block(in, out, cos, sin, j, h, (__mmask16)0xffff, xdt, cdt);
    if (j < h)
        rk512_rope_neox_block(in, out, cos, sin, j, h, rk512_mask(h - j), xdt, cdt);
}

/* GPT-J with coefficients already duplicated: cd[2j] = cd[2j + 1] = c[j], and sin with the
 * sign of its use: sd[2j] = -s[j], sd[2j + 1] = s[j]. Then out = v*cd + swap(v)*sd is one
 * add per vector, and it equals the scalar a*c - b*s bit for bit: b*(-s) = -(b*s) exactly,
 * x + (-y) is x - y, and NaN results are made canonical when stored. */
RK_INLINE void rk512_rope_gptj_dup_block(const char *in, char *out, const float *cd,
                                         const float *sd, int64_t k, __mmask16 m,
                                         enum rk_kdtype xdt) {
    const int64_t xs = RK_SIZE(xdt);
    __m512 v = rk512_load(in + k * xs, xdt, m);
    __m512 c = rk512_load((const char *)(cd + k), RK_KDT_F32, m);
    __m512 s = rk512_load((const char *)(sd + k), RK_KDT_F32, m);
    __m512 p1 = _mm512_mul_ps(v, c), p2 = _mm512_mul_ps(rk512_swap_pairs(v), s);
    rk512_store(out + k * xs, _mm512_add_ps(p1, p2), xdt, m);
}

RK_INLINE void rk512_rope_gptj_head_dup(const char *in, char *out, const float *cd, const float *sd,
                                        int64_t h, enum rk_kdtype xdt) {
    int64_t k = 0;
    for (; k + 16 <= 2 * h; k += 16)
        rk512_rope_gptj_dup_block(in, out, cd, sd, k, (__mmask16)0xffff, xdt);
    if (k < 2 * h)
        rk512_rope_gptj_dup_block(in, out, cd, sd, k, rk512_mask(2 * h - k), xdt);
}

/* GPT-J reading the coefficients directly (duplicated in registers). */
RK_INLINE void rk512_rope_gptj_block(const char *in, char *out, const char *cos, const char *sin,
                                     int64_t k, __mmask16 m, __mmask16 mc, enum rk_kdtype xdt,
                                     enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    const __m512i dup = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    __m512 v = rk512_load(in + k * xs, xdt, m);
    __m512 c = _mm512_permutexvar_ps(dup, rk512_load(cos + k / 2 * cs, cdt, mc));
    __m512 s = _mm512_permutexvar_ps(dup, rk512_load(sin + k / 2 * cs, cdt, mc));
    __m512 p1 = _mm512_mul_ps(v, c), p2 = _mm512_mul_ps(rk512_swap_pairs(v), s);
    rk512_store(out + k * xs, rk512_sub_even_add_odd(p1, p2), xdt, m);
}

RK_INLINE void rk512_rope_gptj_head(const char *in, char *out, const char *cos, const char *sin,
                                    int64_t h, enum rk_kdtype xdt, enum rk_kdtype cdt) {
    int64_t k = 0;
    for (; k + 16 <= 2 * h; k += 16)
        rk512_rope_gptj_block(in, out, cos, sin, k, (__mmask16)0xffff, (__mmask16)0xff, xdt, cdt);
    if (k < 2 * h)
        rk512_rope_gptj_block(in, out, cos, sin, k, rk512_mask(2 * h - k),
                              rk512_mask((2 * h - k) / 2), xdt, cdt);
}

/* GPT-J on bf16 with fp32 coefficients c[j], s[j]: a bf16 pair (2j, 2j + 1) is one
 * 32-bit word, so the split of rk512_load_bf16_split puts pair j's members in lane j of
 * the even and the odd vector. */
RK_INLINE void rk512_rope_gptj_bf16_block(const char *in, char *out, const float *c, const float *s,
                                          int64_t j, int64_t n) {
    const __mmask32 w = rk512_mask32(2 * n);
    __m512 xa, xb, oa, ob;
    rk512_load_bf16_split(in + 4 * j, w, &xa, &xb);
    __m512 cv = rk512_load((const char *)(c + j), RK_KDT_F32, rk512_mask(n));
    __m512 sv = rk512_load((const char *)(s + j), RK_KDT_F32, rk512_mask(n));
    rk512_pair_forward(xa, xb, cv, sv, cv, sv, &oa, &ob);
    rk512_store_bf16_split(out + 4 * j, oa, ob, w);
}

RK_INLINE void rk512_rope_gptj_bf16_head(const char *in, char *out, const float *c, const float *s,
                                         int64_t h) {
    int64_t j = 0;
    for (; j + 16 <= h; j += 16)
        rk512_rope_gptj_bf16_block(in, out, c, s, j, 16);
    if (j < h)
        rk512_rope_gptj_bf16_block(in, out, c, s, j, h - j);
}

/* NeoX on bf16: 32 values of each half per block, split into even- and odd-indexed
 * lanes (rk512_load_bf16_split); value j pairs with j + h in the same lane of the same
 * split. cf/sf hold the coefficients split per 32-block (rk512_split_to_f32). */
RK_INLINE void rk512_rope_neox_bf16_block(const char *in, char *out, const float *cf,
                                          const float *sf, int64_t j, int64_t h, int64_t n) {
    const __mmask32 w = rk512_mask32(n);
    __m512 ae, ao, be, bo, oae, oao, obe, obo;
    rk512_load_bf16_split(in + 2 * j, w, &ae, &ao);
    rk512_load_bf16_split(in + 2 * (j + h), w, &be, &bo);
    __m512 ce = _mm512_loadu_ps(cf + j), co = _mm512_loadu_ps(cf + j + 16);
    __m512 se = _mm512_loadu_ps(sf + j), so = _mm512_loadu_ps(sf + j + 16);
    rk512_pair_forward(ae, be, ce, se, ce, se, &oae, &obe);
    rk512_pair_forward(ao, bo, co, so, co, so, &oao, &obo);
    rk512_store_bf16_split(out + 2 * j, oae, oao, w);
    rk512_store_bf16_split(out + 2 * (j + h), obe, obo, w);
}

RK_INLINE void rk512_rope_neox_bf16_head(const char *in, char *out, const float *cf,
                                         const float *sf, int64_t h) {
    int64_t j = 0;
    for (; j + 32 <= h; j += 32)
        rk512_rope_neox_bf16_block(in, out, cf, sf, j, h, 32);
    if (j < h)
        rk512_rope_neox_bf16_block(in, out, cf, sf, j, h, h - j);
}

/* Widens h coefficients to fp32; with `dup`, writes each twice (2h values), the first
 * copy negated when `negate_even` (for GPT-J's sin). */
RK_INLINE void rk512_widen_coeffs(const char *src, float *dst, int64_t h, int dup, int negate_even,
                                  enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    const __m512i lo = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    const __m512i hi =
        _mm512_setr_epi32(8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15);
    for (int64_t j = 0; j < h; j += 16) {
        __mmask16 m = rk512_mask(h - j);
        __m512 v = rk512_load(src + j * cs, cdt, m);
        if (!dup) {
            _mm512_mask_storeu_ps(dst + j, m, v);
            continue;
        }
        __m512 d_lo = _mm512_permutexvar_ps(lo, v), d_hi = _mm512_permutexvar_ps(hi, v);
        if (negate_even) {
            const __m512 sign = _mm512_castsi512_ps(_mm512_set1_epi32((int)0x80000000u));
            d_lo = _mm512_mask_xor_ps(d_lo, (__mmask16)0x5555, d_lo, sign);
            d_hi = _mm512_mask_xor_ps(d_hi, (__mmask16)0x5555, d_hi, sign);
        }
        _mm512_mask_storeu_ps(dst + 2 * j, rk512_mask(2 * (h - j)), d_lo);
        _mm512_mask_storeu_ps(dst + 2 * j + 16, rk512_mask(2 * (h - j) - 16), d_hi);
    }
}

/* Widening pays for f16/bf16 coefficients, for GPT-J (duplicated and signed) and for
 * bf16 x, which works on split lanes (see above): plain coefficients for GPT-J, split
 * ones for NeoX. */
RK_INLINE int rk512_rope_hoist_wanted(int gptj, enum rk_kdtype xdt, enum rk_kdtype cdt) {
    return gptj || cdt != RK_KDT_F32 || xdt == RK_KDT_BF16;
}

/* Both coefficient rows; a macro, as an inline function changes the code GCC generates
 * for the hoisted heads. */
#define rk512_rope_widen(cos, sin, cf, sf, h, dup, cdt)                                            \
    (rk512_widen_coeffs(cos, cf, h, dup, 0, cdt), rk512_widen_coeffs(sin, sf, h, dup, dup, cdt))

#define RKV(name) rk512_##name
#define RKV_HOIST_ALIGN 64
#define RKV_ROPE_BF16_SPLIT 1
#include "kernels/rope/rope_rows.h"

#define RK_DEFINE_ROPE_AVX512(st, xd, cd)                                                          \
    RK_KERNEL void RK512_NAME(rk_rope_##st##_##xd##cd)(const struct rk_rope_rows *a) {             \
        rk512_rope_rows(a, RK_STYLE_INDEX_##st == RK_ROPE_GPTJ, RK_DT_##xd, RK_DT_##cd);           \
    }
#define RK_DEFINE_ROPE_STYLE(st, id) RK_DTYPE_PAIRS(RK_DEFINE_ROPE_AVX512, st)
RK_ROPE_STYLES(RK_DEFINE_ROPE_STYLE)
