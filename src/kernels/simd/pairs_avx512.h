/* The pair loops of both operator families on AVX-512: partial rotary's rows
 * (rot/rot_avx512.c) and rope's heads (rope/rope_avx512.c), each in -> out, possibly in
 * place, are the same rotation and differ only in where a pair's members take their
 * coefficients (enum rk_coeffs, simd/elem.h). Each loop reads its pairs from `in` and
 * writes them to `out` (which may be `in`: every block is read before it is written), and
 * the kernels pass the family's constants, which the compiler folds. Each loop runs its
 * full 16-lane blocks with the constant mask 0xffff, which the compiler also folds (no
 * masks, no mask branches), and one masked block for the tail, so results equal the
 * scalar kernels bit for bit. Only include this header from files compiled with the
 * AVX-512 flags. */
#ifndef ROPEKIT_KERNELS_SIMD_PAIRS_AVX512_H_
#define ROPEKIT_KERNELS_SIMD_PAIRS_AVX512_H_

#include "kernels/simd/elem.h"
#include "kernels/simd/simd_avx512.h"

/* Rotate-half, the pairs (j, j + h) of lanes m at j. */
RK_INLINE void rk512_half_step(const char *in, char *out, const char *c, const char *s, int64_t j,
                               int64_t h, __mmask16 m, enum rk_coeffs coeffs, ropekit_direction dir,
                               enum rk_kdtype xdt, enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    const int shared = coeffs == RK_COEFFS_SHARED;
    __m512 a = rk512_load(in + j * xs, xdt, m), b = rk512_load(in + (j + h) * xs, xdt, m);
    __m512 cp = rk512_load(c + j * cs, cdt, m), sp = rk512_load(s + j * cs, cdt, m);
    __m512 cr = shared ? cp : rk512_load(c + (j + h) * cs, cdt, m);
    __m512 sr = shared ? sp : rk512_load(s + (j + h) * cs, cdt, m);
    __m512 oa, ob;
    rk512_pair(dir, a, b, cp, sp, cr, sr, &oa, &ob);
    rk512_store2(out + j * xs, oa, out + (j + h) * xs, ob, xdt, m);
}

/* Rotate-half on h pairs (j, j + h). */
RK_INLINE void rk512_half_pairs(const char *in, char *out, const char *c, const char *s, int64_t h,
                                enum rk_coeffs coeffs, ropekit_direction dir, enum rk_kdtype xdt,
                                enum rk_kdtype cdt) {
    int64_t j = 0;
    for (; j + 16 <= h; j += 16)
        rk512_half_step(in, out, c, s, j, h, (__mmask16)0xffff, coeffs, dir, xdt, cdt);
    if (j < h)
        rk512_half_step(in, out, c, s, j, h, rk512_mask(h - j), coeffs, dir, xdt, cdt);
}

/* Interleaved pairs (2i, 2i + 1), the lanes m of 16 elements at k. Per member the
 * coefficients are indexed like the elements; shared, pair i's (lanes mc of 8 at k / 2)
 * are duplicated onto both members. The interleaved loops take h pairs and count
 * elements. */
RK_INLINE void rk512_interleave_step(const char *in, char *out, const char *c, const char *s,
                                     int64_t k, __mmask16 m, __mmask16 mc, enum rk_coeffs coeffs,
                                     ropekit_direction dir, enum rk_kdtype xdt,
                                     enum rk_kdtype cdt) {
    const int64_t xs = RK_SIZE(xdt), cs = RK_SIZE(cdt);
    __m512 v = rk512_load(in + k * xs, xdt, m), cv, sv;
    if (coeffs == RK_COEFFS_SHARED) {
        const __m512i dup = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
        cv = _mm512_permutexvar_ps(dup, rk512_load(c + RK_SHARED_COEFF_AT(k, cs), cdt, mc));
        sv = _mm512_permutexvar_ps(dup, rk512_load(s + RK_SHARED_COEFF_AT(k, cs), cdt, mc));
    } else {
        cv = rk512_load(c + k * cs, cdt, m);
        sv = rk512_load(s + k * cs, cdt, m);
    }
    rk512_store(out + k * xs, rk512_rotate_pairs(v, cv, sv, dir), xdt, m);
}

RK_INLINE void rk512_interleave_pairs(const char *in, char *out, const char *c, const char *s,
                                      int64_t h, enum rk_coeffs coeffs, ropekit_direction dir,
                                      enum rk_kdtype xdt, enum rk_kdtype cdt) {
    const int64_t n = 2 * h;
    int64_t k = 0;
    for (; k + 16 <= n; k += 16)
        rk512_interleave_step(in, out, c, s, k, (__mmask16)0xffff, (__mmask16)0xff, coeffs, dir,
                              xdt, cdt);
    if (k < n)
        rk512_interleave_step(in, out, c, s, k, rk512_mask(n - k), rk512_mask((n - k) / 2), coeffs,
                              dir, xdt, cdt);
}

/* Interleaved pairs with fp32 coefficients per element (the row and head drivers widen
 * shared ones onto both members) and a sin with the sign of its use: ss[2i] = -s[2i],
 * ss[2i + 1] = s[2i + 1]. Each output is then one add, equal to the scalar result bit for
 * bit (b*(-s) = -(b*s) exactly, x + (-y) is x - y; NaN results are made canonical when
 * stored). Forward: v*c + swap(v)*ss; backward: g*c + swap(g*ss). */
RK_INLINE void rk512_interleave_signed_step(const char *in, char *out, const float *c,
                                            const float *ss, int64_t k, __mmask16 m,
                                            ropekit_direction dir, enum rk_kdtype xdt) {
    const int64_t xs = RK_SIZE(xdt);
    __m512 v = rk512_load(in + k * xs, xdt, m);
    __m512 cv = rk512_load((const char *)(c + k), RK_KDT_F32, m);
    __m512 sv = rk512_load((const char *)(ss + k), RK_KDT_F32, m);
    __m512 p2 = dir == ROPEKIT_BACKWARD ? rk512_swap_pairs(_mm512_mul_ps(v, sv))
                                        : _mm512_mul_ps(rk512_swap_pairs(v), sv);
    rk512_store(out + k * xs, _mm512_add_ps(_mm512_mul_ps(v, cv), p2), xdt, m);
}

/* The original rows c0/s0 and their layout are not needed: the tail is a masked block (the
 * AVX2 loop of the same name ends rows with them). */
RK_INLINE void rk512_interleave_signed(const char *in, char *out, const float *c, const float *ss,
                                       const char *c0, const char *s0, int64_t h,
                                       enum rk_coeffs coeffs, ropekit_direction dir,
                                       enum rk_kdtype xdt, enum rk_kdtype cdt) {
    (void)c0;
    (void)s0;
    (void)coeffs;
    (void)cdt;
    const int64_t n = 2 * h;
    int64_t k = 0;
    for (; k + 16 <= n; k += 16)
        rk512_interleave_signed_step(in, out, c, ss, k, (__mmask16)0xffff, dir, xdt);
    if (k < n)
        rk512_interleave_signed_step(in, out, c, ss, k, rk512_mask(n - k), dir, xdt);
}

/* bf16 x on split lanes (rk512_load_bf16_split): coefficients come direct (dtype cdt, c
 * and s) or from fp32 arrays the drivers filled once (cf and sf, non-NULL). */

/* Interleaved pairs on bf16 x, up to 32 elements at k (n present): a pair is one 32-bit
 * word, so the split puts pair i's members in lane i of the even and the odd vector, where
 * ce/co and se/so are the coefficients of the even and the odd members. */
RK_INLINE void rk512_interleave_bf16_step(const char *in, char *out, __m512 ce, __m512 co,
                                          __m512 se, __m512 so, int64_t k, int64_t n,
                                          ropekit_direction dir) {
    const __mmask32 w = rk512_mask32(n);
    __m512 a, b, oa, ob;
    rk512_load_bf16_split(in + 2 * k, w, &a, &b);
    /* forward, even: v[p]c[p] - v[r]s[p]; odd: v[r]c[r] + v[p]s[r]
     * backward, even: g[p]c[p] + g[r]s[r]; odd: g[r]c[r] - g[p]s[p] */
    rk512_pair(dir, a, b, ce, se, co, so, &oa, &ob);
    rk512_store_bf16_split(out + 2 * k, oa, ob, w);
}

/* Direct coefficients: per member split like x (rk512_split_values); shared, pair i's one
 * c, s serve both members. */
RK_INLINE void rk512_interleave_bf16_block(const char *in, char *out, const char *c, const char *s,
                                           int64_t k, int64_t n, enum rk_coeffs coeffs,
                                           ropekit_direction dir, enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    __m512 ce, co, se, so;
    if (coeffs == RK_COEFFS_SHARED) {
        ce = co = rk512_load(c + RK_SHARED_COEFF_AT(k, cs), cdt, rk512_mask(n / 2));
        se = so = rk512_load(s + RK_SHARED_COEFF_AT(k, cs), cdt, rk512_mask(n / 2));
    } else {
        rk512_split_values(c + k * cs, n, cdt, &ce, &co);
        rk512_split_values(s + k * cs, n, cdt, &se, &so);
    }
    rk512_interleave_bf16_step(in, out, ce, co, se, so, k, n, dir);
}

/* Coefficients the drivers widened once: per member split per 32-block
 * (rk512_split_to_f32); shared, h plain values. */
RK_INLINE void rk512_interleave_bf16_hoisted_block(const char *in, char *out, const float *cf,
                                                   const float *sf, int64_t k, int64_t n,
                                                   enum rk_coeffs coeffs, ropekit_direction dir) {
    if (coeffs == RK_COEFFS_SHARED) {
        const __m512 cv =
            rk512_load((const char *)cf + RK_SHARED_COEFF_AT(k, 4), RK_KDT_F32, rk512_mask(n / 2));
        const __m512 sv =
            rk512_load((const char *)sf + RK_SHARED_COEFF_AT(k, 4), RK_KDT_F32, rk512_mask(n / 2));
        rk512_interleave_bf16_step(in, out, cv, cv, sv, sv, k, n, dir);
    } else {
        rk512_interleave_bf16_step(in, out, _mm512_loadu_ps(cf + k), _mm512_loadu_ps(cf + k + 16),
                                   _mm512_loadu_ps(sf + k), _mm512_loadu_ps(sf + k + 16), k, n,
                                   dir);
    }
}

/* On n elements; cf/sf non-NULL: the widened coefficients, else c/s direct. */
RK_INLINE void rk512_interleave_bf16_pairs(const char *in, char *out, const char *c, const char *s,
                                           const float *cf, const float *sf, int64_t n,
                                           enum rk_coeffs coeffs, ropekit_direction dir,
                                           enum rk_kdtype cdt) {
    int64_t k = 0;
    /* n is not negative: the full blocks end at n rounded down to 32, a bound GCC keeps in
     * a register (from k + 32 <= n it recomputed one every block) */
    for (const int64_t full = n & ~(int64_t)31; k < full; k += 32) {
        if (cf)
            rk512_interleave_bf16_hoisted_block(in, out, cf, sf, k, 32, coeffs, dir);
        else
            rk512_interleave_bf16_block(in, out, c, s, k, 32, coeffs, dir, cdt);
    }
    if (k < n) {
        if (cf)
            rk512_interleave_bf16_hoisted_block(in, out, cf, sf, k, n - k, coeffs, dir);
        else
            rk512_interleave_bf16_block(in, out, c, s, k, n - k, coeffs, dir, cdt);
    }
}

/* Rotate-half on bf16 x: 32 values of each half per block (n present) in split lanes;
 * value j pairs with j + h in the same lane. Per member, j + h's coefficients are at
 * j + h direct, at h2 + j in cf/sf (the second half's blocks start at h2, h rounded up
 * to 32); shared, j's serve both. */
RK_INLINE void rk512_half_bf16_block(const char *in, char *out, const char *c, const char *s,
                                     const float *cf, const float *sf, int64_t j, int64_t h,
                                     int64_t h2, int64_t n, enum rk_coeffs coeffs,
                                     ropekit_direction dir, enum rk_kdtype cdt) {
    const int64_t cs = RK_SIZE(cdt);
    const int shared = coeffs == RK_COEFFS_SHARED;
    const __mmask32 w = rk512_mask32(n);
    __m512 ae, ao, be, bo, cpe, cpo, spe, spo, cre, cro, sre, sro, oae, oao, obe, obo;
    rk512_load_bf16_split(in + 2 * j, w, &ae, &ao);
    rk512_load_bf16_split(in + 2 * (j + h), w, &be, &bo);
    /* one test of cf for all eight: split in two, the block took 4% longer (P1 quarter) */
    if (cf) {
        cpe = _mm512_loadu_ps(cf + j), cpo = _mm512_loadu_ps(cf + j + 16);
        spe = _mm512_loadu_ps(sf + j), spo = _mm512_loadu_ps(sf + j + 16);
        cre = shared ? cpe : _mm512_loadu_ps(cf + h2 + j);
        cro = shared ? cpo : _mm512_loadu_ps(cf + h2 + j + 16);
        sre = shared ? spe : _mm512_loadu_ps(sf + h2 + j);
        sro = shared ? spo : _mm512_loadu_ps(sf + h2 + j + 16);
    } else {
        rk512_split_values(c + j * cs, n, cdt, &cpe, &cpo);
        rk512_split_values(s + j * cs, n, cdt, &spe, &spo);
        if (shared) {
            cre = cpe, cro = cpo, sre = spe, sro = spo;
        } else {
            rk512_split_values(c + (j + h) * cs, n, cdt, &cre, &cro);
            rk512_split_values(s + (j + h) * cs, n, cdt, &sre, &sro);
        }
    }
    rk512_pair(dir, ae, be, cpe, spe, cre, sre, &oae, &obe);
    rk512_pair(dir, ao, bo, cpo, spo, cro, sro, &oao, &obo);
    rk512_store_bf16_split(out + 2 * j, oae, oao, w);
    rk512_store_bf16_split(out + 2 * (j + h), obe, obo, w);
}

/* On h pairs (j, j + h). */
RK_INLINE void rk512_half_bf16_pairs(const char *in, char *out, const char *c, const char *s,
                                     const float *cf, const float *sf, int64_t h, int64_t h2,
                                     enum rk_coeffs coeffs, ropekit_direction dir,
                                     enum rk_kdtype cdt) {
    int64_t j = 0;
    for (; j + 32 <= h; j += 32)
        rk512_half_bf16_block(in, out, c, s, cf, sf, j, h, h2, 32, coeffs, dir, cdt);
    if (j < h)
        rk512_half_bf16_block(in, out, c, s, cf, sf, j, h, h2, h - j, coeffs, dir, cdt);
}

#endif /* ROPEKIT_KERNELS_SIMD_PAIRS_AVX512_H_ */
