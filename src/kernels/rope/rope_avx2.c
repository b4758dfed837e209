/* The AVX2 (+F16C) rope kernels, both styles and every dtype pair, float64 included
 * (heads and coefficients contiguous). Full 8-pair blocks (4 for float64) run in vectors;
 * the pairs left over at the end of a head go through the scalar helpers, so nothing is
 * read or written past the rotated part. */
#include "kernels/kernel_list.h"
#include "kernels/rope_kernel.h"
#include "kernels/simd/f64_avx2.h"
#include "kernels/simd/simd_avx2.h"

/* float64: four doubles a vector, the cache row read as it is (never widened: the head
 * functions below hand float64 heads to these). */

RK_INLINE void rk256d_rope_neox_head(const char *in, char *out, const char *cos, const char *sin,
                                     int64_t h) {
    int64_t j = 0;
    for (; j + 4 <= h; j += 4) {
        __m256d c = rk256d_load(cos + 8 * j), s = rk256d_load(sin + 8 * j), oa, ob;
        rk256d_pair_forward(rk256d_load(in + 8 * j), rk256d_load(in + 8 * (j + h)), c, s, c, s, &oa,
                            &ob);
        rk256d_store(out + 8 * j, oa);
        rk256d_store(out + 8 * (j + h), ob);
    }
    for (; j < h; j++)
        rk_rotate_pair_f64(in + 8 * j, in + 8 * (j + h), out + 8 * j, out + 8 * (j + h),
                           cos + 8 * j, sin + 8 * j, cos + 8 * j, sin + 8 * j, 0);
}

RK_INLINE void rk256d_rope_gptj_head(const char *in, char *out, const char *cos, const char *sin,
                                     int64_t h) {
    int64_t j = 0;
    for (; j + 4 <= h; j += 4) {
        __m256d c_lo, c_hi, s_lo, s_hi;
        rk256d_duplicate(rk256d_load(cos + 8 * j), &c_lo, &c_hi);
        rk256d_duplicate(rk256d_load(sin + 8 * j), &s_lo, &s_hi);
        rk256d_store(out + 16 * j, rk256d_rotate_pairs(rk256d_load(in + 16 * j), c_lo, s_lo, 0));
        rk256d_store(out + 16 * j + 32,
                     rk256d_rotate_pairs(rk256d_load(in + 16 * j + 32), c_hi, s_hi, 0));
    }
    for (; j < h; j++)
        rk_rotate_pair_f64(in + 16 * j, in + 16 * j + 8, out + 16 * j, out + 16 * j + 8,
                           cos + 8 * j, sin + 8 * j, cos + 8 * j, sin + 8 * j, 0);
}

/* NeoX: pairs (j, j + h), both members with c[j], s[j]. */
RK_INLINE void rk256_rope_neox_head(const char *in, char *out, const char *cos, const char *sin,
                                    int64_t h, enum rk_kdtype xdt, enum rk_kdtype cdt) {
    if (xdt == RK_KDT_F64) {
        rk256d_rope_neox_head(in, out, cos, sin, h);
        return;
    }
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    int64_t j = 0;
    /* bf16: 16 values of each half in split lanes; j pairs with j + h in the same lane */
    for (; xdt == RK_KDT_BF16 && j + 16 <= h; j += 16) {
        __m256 ae, ao, be, bo, ce, co, se, so, oae, oao, obe, obo;
        rk256_load_bf16_split(in + 2 * j, &ae, &ao);
        rk256_load_bf16_split(in + 2 * (j + h), &be, &bo);
        rk256_split_values(cos + j * cs, cdt, &ce, &co);
        rk256_split_values(sin + j * cs, cdt, &se, &so);
        rk256_pair_forward(ae, be, ce, se, ce, se, &oae, &obe);
        rk256_pair_forward(ao, bo, co, so, co, so, &oao, &obo);
        rk256_store_bf16_split(out + 2 * j, oae, oao);
        rk256_store_bf16_split(out + 2 * (j + h), obe, obo);
    }
    for (; j + 8 <= h; j += 8) {
        __m256 xa = rk256_load(in + j * xs, xdt), xb = rk256_load(in + (j + h) * xs, xdt);
        __m256 c = rk256_load(cos + j * cs, cdt), s = rk256_load(sin + j * cs, cdt);
        __m256 oa, ob;
        rk256_pair_forward(xa, xb, c, s, c, s, &oa, &ob);
        rk256_store(out + j * xs, oa, xdt);
        rk256_store(out + (j + h) * xs, ob, xdt);
    }
    for (; j < h; j++)
        rk256_pair_scalar(in + j * xs, in + (j + h) * xs, out + j * xs, out + (j + h) * xs,
                          cos + j * cs, sin + j * cs, cos + j * cs, sin + j * cs, 0, xdt, cdt);
}

/* GPT-J: pairs (2j, 2j + 1); 8 coefficients serve 16 elements, each lane duplicated. */
RK_INLINE void rk256_rope_gptj_head(const char *in, char *out, const char *cos, const char *sin,
                                    int64_t h, enum rk_kdtype xdt, enum rk_kdtype cdt) {
    if (xdt == RK_KDT_F64) {
        rk256d_rope_gptj_head(in, out, cos, sin, h);
        return;
    }
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    int64_t j = 0;
    /* bf16: a pair is one 32-bit word, so the split puts pair j's members in one lane */
    for (; xdt == RK_KDT_BF16 && j + 8 <= h; j += 8) {
        __m256 a, b, oa, ob;
        rk256_load_bf16_split(in + 4 * j, &a, &b);
        __m256 c = rk256_load(cos + j * cs, cdt), s = rk256_load(sin + j * cs, cdt);
        rk256_pair_forward(a, b, c, s, c, s, &oa, &ob);
        rk256_store_bf16_split(out + 4 * j, oa, ob);
    }
    for (; j + 8 <= h; j += 8) {
        __m256 c_lo, c_hi, s_lo, s_hi;
        rk256_duplicate(rk256_load(cos + j * cs, cdt), &c_lo, &c_hi);
        rk256_duplicate(rk256_load(sin + j * cs, cdt), &s_lo, &s_hi);
        __m256 lo = rk256_load(in + 2 * j * xs, xdt), hi = rk256_load(in + (2 * j + 8) * xs, xdt);
        /* even: a*c - b*s; odd: b*c + a*s */
        __m256 o_lo = rk256_sub_even_add_odd(_mm256_mul_ps(lo, c_lo),
                                             _mm256_mul_ps(rk256_swap_pairs(lo), s_lo));
        __m256 o_hi = rk256_sub_even_add_odd(_mm256_mul_ps(hi, c_hi),
                                             _mm256_mul_ps(rk256_swap_pairs(hi), s_hi));
        rk256_store(out + 2 * j * xs, o_lo, xdt);
        rk256_store(out + (2 * j + 8) * xs, o_hi, xdt);
    }
    for (; j < h; j++)
        rk256_pair_scalar(in + 2 * j * xs, in + (2 * j + 1) * xs, out + 2 * j * xs,
                          out + (2 * j + 1) * xs, cos + j * cs, sin + j * cs, cos + j * cs,
                          sin + j * cs, 0, xdt, cdt);
}

/* GPT-J with coefficients already duplicated and signed (see rope_avx512.c):
 * cd[2j] = cd[2j + 1] = c[j], sd[2j] = -s[j], sd[2j + 1] = s[j]; each output is then one
 * add, equal to the scalar a*c - b*s bit for bit (NaN results are made canonical when
 * stored). Pairs left over go through the scalar helper with the plain c[j], s[j]. */
RK_INLINE void rk256_rope_gptj_head_dup(const char *in, char *out, const float *cd, const float *sd,
                                        int64_t h, enum rk_kdtype xdt) {
    const int64_t xs = RK_SIZE(xdt);
    int64_t j = 0;
    for (; j + 4 <= h; j += 4) {
        __m256 v = rk256_load(in + 2 * j * xs, xdt);
        __m256 p1 = _mm256_mul_ps(v, _mm256_loadu_ps(cd + 2 * j));
        __m256 p2 = _mm256_mul_ps(rk256_swap_pairs(v), _mm256_loadu_ps(sd + 2 * j));
        rk256_store(out + 2 * j * xs, _mm256_add_ps(p1, p2), xdt);
    }
    for (; j < h; j++) {
        const char *c = (const char *)(cd + 2 * j), *s = (const char *)(sd + 2 * j + 1);
        rk256_pair_scalar(in + 2 * j * xs, in + (2 * j + 1) * xs, out + 2 * j * xs,
                          out + (2 * j + 1) * xs, c, s, c, s, 0, xdt, RK_KDT_F32);
    }
}

/* Widens h coefficients of cos and sin to fp32; with dup (GPT-J) each is written twice,
 * the first copy of sin negated (the layout rk256_rope_gptj_head_dup reads). */
RK_INLINE void rk256_rope_widen(const char *cos, const char *sin, float *cf, float *sf, int64_t h,
                                int dup, enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    const __m256 even_sign = _mm256_castsi256_ps(_mm256_setr_epi32(
        (int)0x80000000u, 0, (int)0x80000000u, 0, (int)0x80000000u, 0, (int)0x80000000u, 0));
    int64_t j = 0;
    for (; j + 8 <= h; j += 8) {
        __m256 c = rk256_load(cos + j * cs, cdt), s = rk256_load(sin + j * cs, cdt);
        if (!dup) {
            _mm256_storeu_ps(cf + j, c);
            _mm256_storeu_ps(sf + j, s);
            continue;
        }
        __m256 lo, hi;
        rk256_duplicate(c, &lo, &hi);
        _mm256_storeu_ps(cf + 2 * j, lo);
        _mm256_storeu_ps(cf + 2 * j + 8, hi);
        rk256_duplicate(s, &lo, &hi);
        _mm256_storeu_ps(sf + 2 * j, _mm256_xor_ps(lo, even_sign));
        _mm256_storeu_ps(sf + 2 * j + 8, _mm256_xor_ps(hi, even_sign));
    }
    for (; j < h; j++) {
        const float c = rk_load_elem(cos + j * cs, cdt), s = rk_load_elem(sin + j * cs, cdt);
        if (dup) {
            cf[2 * j] = cf[2 * j + 1] = c;
            sf[2 * j] = -s;
            sf[2 * j + 1] = s;
        } else {
            cf[j] = c;
            sf[j] = s;
        }
    }
}

/* Widening pays for f16/bf16 coefficients and for GPT-J (duplicated and signed as
 * above); bf16 x keeps its split-lane loads of the original coefficients, and float64
 * its own. */
RK_INLINE int rk256_rope_hoist_wanted(int gptj, enum rk_kdtype xdt, enum rk_kdtype cdt) {
    return xdt != RK_KDT_BF16 && xdt != RK_KDT_F64 && (gptj || cdt != RK_KDT_F32);
}

#define RKV(name) rk256_##name
#define RKV_HOIST_ALIGN _Alignof(float)
#include "kernels/rope/rope_rows.h"

#define RK_DEFINE_ROPE_AVX2(st, xd, cd)                                                            \
    RK_KERNEL void rk_rope_##st##_##xd##cd##__avx2(const struct rk_rope_rows *a) {                 \
        rk256_rope_rows(a, RK_STYLE_INDEX_##st == RK_ROPE_GPTJ, RK_DT_##xd, RK_DT_##cd);           \
    }
#define RK_DEFINE_ROPE_STYLE(st, id)                                                               \
    RK_DTYPE_PAIRS(RK_DEFINE_ROPE_AVX2, st) RK_DTYPE_PAIRS_F64(RK_DEFINE_ROPE_AVX2, st)
RK_ROPE_STYLES(RK_DEFINE_ROPE_STYLE)
