/* AVX2 building blocks of the float64 kernels (rot_avx2.c, rope_avx2.c): four doubles a
 * vector, loaded and stored as they are, with the pair arithmetic of the scalar float64
 * kernels (simd/elem.h): each product one vmulpd, each output one vaddpd/vsubpd (or
 * vaddsubpd: subtract in even lanes, add in odd ones), never an FMA or a negation, and
 * computed NaNs stored as the canonical quiet NaN. So every result equals the scalar
 * kernel's bit for bit. Row ends go through rk_rotate_pair_f64 (simd/elem.h). Only
 * include this header from files compiled with -mavx2. */
#ifndef ROPEKIT_KERNELS_SIMD_F64_AVX2_H_
#define ROPEKIT_KERNELS_SIMD_F64_AVX2_H_

#include <immintrin.h>

#include "kernels/simd/elem.h"

RK_INLINE __m256d rk256d_load(const char *p) {
    return _mm256_loadu_pd((const double *)(const void *)p);
}

RK_INLINE void rk256d_store(char *p, __m256d v) {
    const __m256d nan =
        _mm256_castsi256_pd(_mm256_set1_epi64x((long long)RK_CANONICAL_NAN_BITS_F64));
    _mm256_storeu_pd((double *)(void *)p,
                     _mm256_blendv_pd(v, nan, _mm256_cmp_pd(v, v, _CMP_UNORD_Q)));
}

/* The pair formulas (simd/elem.h), four pairs at once. */
RK_DEFINE_PAIR_FORMULAS(__m256d, rk256d_pair_forward, rk256d_pair_backward, rk256d_pair)

/* (v0 v1 v2 v3) -> (v1 v0 v3 v2). */
RK_INLINE __m256d rk256d_swap_pairs(__m256d v) {
    return _mm256_permute_pd(v, 0x5);
}

/* Interleaved pairs of four elements, the formulas of RK_DEFINE_ROTATE_PAIRS
 * (simd/elem.h) with vaddsubpd and a blend for the mixed add/subtracts. */
RK_INLINE __m256d rk256d_rotate_pairs(__m256d v, __m256d c, __m256d s, ropekit_direction dir) {
    const __m256d p1 = _mm256_mul_pd(v, c);
    if (dir == ROPEKIT_FORWARD)
        return _mm256_addsub_pd(p1, _mm256_mul_pd(rk256d_swap_pairs(v), s));
    const __m256d p2 = rk256d_swap_pairs(_mm256_mul_pd(v, s));
    return _mm256_blend_pd(_mm256_add_pd(p1, p2), _mm256_sub_pd(p1, p2), 0xa);
}

/* (v0 .. v7) in lo, hi -> evens (v0 v2 v4 v6) and odds (v1 v3 v5 v7), and back. */
RK_INLINE void rk256d_deinterleave(__m256d lo, __m256d hi, __m256d *even, __m256d *odd) {
    *even = _mm256_permute4x64_pd(_mm256_unpacklo_pd(lo, hi), 0xd8);
    *odd = _mm256_permute4x64_pd(_mm256_unpackhi_pd(lo, hi), 0xd8);
}

RK_INLINE void rk256d_interleave(__m256d even, __m256d odd, __m256d *lo, __m256d *hi) {
    const __m256d e = _mm256_permute4x64_pd(even, 0xd8), o = _mm256_permute4x64_pd(odd, 0xd8);
    *lo = _mm256_unpacklo_pd(e, o);
    *hi = _mm256_unpackhi_pd(e, o);
}

/* Four coefficients c0..c3 -> (c0 c0 c1 c1) and (c2 c2 c3 c3). */
RK_INLINE void rk256d_duplicate(__m256d c, __m256d *lo, __m256d *hi) {
    *lo = _mm256_permute4x64_pd(c, 0x50);
    *hi = _mm256_permute4x64_pd(c, 0xfa);
}

#endif /* ROPEKIT_KERNELS_SIMD_F64_AVX2_H_ */
