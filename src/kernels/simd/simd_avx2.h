/* AVX2 + F16C building blocks shared by the *_avx2.c kernels: 8-lane loads that widen
 * f16/bf16 exactly, stores that round to nearest even exactly like core/dtype_convert.h,
 * and the pair arithmetic in the scalar operand order.
 *
 * Numerics (SPEC §1): every product is one vmulps, every output one vaddps/vsubps (or
 * vaddsubps, which is a subtract in even lanes and an add in odd ones), never an FMA
 * (the build passes no -mfma) and never a negation (negating a NaN would flip its sign
 * where the scalar subtraction keeps it). bf16 is narrowed with integer arithmetic: AVX2
 * has no bf16 convert. AVX2 has no masked 16-bit loads or stores either, so the kernels
 * run full 8-lane blocks here and hand row tails to the scalar per-element helpers,
 * which are the oracle's own code. Only include this header from files compiled with
 * -mavx2 -mf16c. */
#ifndef ROPEKIT_KERNELS_SIMD_SIMD_AVX2_H_
#define ROPEKIT_KERNELS_SIMD_SIMD_AVX2_H_

#include <immintrin.h>
#include <stdint.h>

#include "kernels/rot_kernel.h"
#include "kernels/simd/elem.h"

/* Eight elements at p, widened exactly (vcvtph2ps keeps subnormals; bf16 is the top
 * half of an fp32). */
RK_INLINE __m256 rk256_load(const char *p, enum rk_kdtype dt) {
    switch (dt) {
    case RK_KDT_F16:
        return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
    case RK_KDT_BF16:
        return _mm256_castsi256_ps(_mm256_slli_epi32(
            _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p)), 16));
    default:
        return _mm256_loadu_ps((const float *)(const void *)p);
    }
}

/* The fp32 bits rounded to nearest even at bit 16: the bf16 value is the high half.
 * Exact for every non-NaN input (finite overflow carries into inf); callers pass
 * canonical NaNs only, which the same sum maps to 0x7fc0, the value rk_f32_to_bf16
 * gives them. */
RK_INLINE __m256i rk256_round_to_bf16_bits(__m256 v) {
    __m256i u = _mm256_castps_si256(v);
    __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    return _mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7fff)), lsb);
}

/* fp32 -> bf16 with ties to even, as rk_f32_to_bf16. */
RK_INLINE __m128i rk256_to_bf16(__m256 v) {
    __m256i r = _mm256_srli_epi32(rk256_round_to_bf16_bits(v), 16);
    /* Every lane is <= 0xffff, so the signed-to-unsigned saturating pack is exact. */
    return _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
}

/* NaN lanes made the canonical quiet NaN (as rk_store_elem does). */
RK_INLINE __m256 rk256_canonical_nan(__m256 v) {
    return _mm256_blendv_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32((int)RK_CANONICAL_NAN_BITS)),
                            _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
}

/* Stores eight computed values: NaN lanes become the canonical quiet NaN first, then
 * f16 is rounded by vcvtps2ph with an explicit round-to-nearest-even immediate (MXCSR
 * is not consulted). */
RK_INLINE void rk256_store(char *p, __m256 v, enum rk_kdtype dt) {
    v = rk256_canonical_nan(v);
    switch (dt) {
    case RK_KDT_F16:
        _mm_storeu_si128((__m128i *)(void *)p, _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
        break;
    case RK_KDT_BF16:
        _mm_storeu_si128((__m128i *)(void *)p, rk256_to_bf16(v));
        break;
    default:
        _mm256_storeu_ps((float *)(void *)p, v);
        break;
    }
}

/* 16 bf16 values at p as fp32, split into the even-indexed ones (low halves of the
 * 32-bit words, moved up) and the odd-indexed ones (high halves, kept): one load, a
 * shift and an and, where widening takes shuffles. Kernels keep the split through the
 * arithmetic, pairing even lanes with even lanes. */
RK_INLINE void rk256_load_bf16_split(const char *p, __m256 *even, __m256 *odd) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    *even = _mm256_castsi256_ps(_mm256_slli_epi32(v, 16));
    *odd = _mm256_castsi256_ps(_mm256_and_si256(v, _mm256_set1_epi32((int)0xffff0000u)));
}

/* Inverse of rk256_load_bf16_split: rounds both halves exactly and packs them back. */
RK_INLINE void rk256_store_bf16_split(char *p, __m256 even, __m256 odd) {
    __m256i lo = _mm256_srli_epi32(rk256_round_to_bf16_bits(rk256_canonical_nan(even)), 16);
    __m256i hi = _mm256_and_si256(rk256_round_to_bf16_bits(rk256_canonical_nan(odd)),
                                  _mm256_set1_epi32((int)0xffff0000u));
    _mm256_storeu_si256((__m256i *)(void *)p, _mm256_or_si256(lo, hi));
}

/* The pair formulas (simd/elem.h), eight pairs at once. */
RK_DEFINE_PAIR_FORMULAS(__m256, rk256_pair_forward, rk256_pair_backward, rk256_pair)

/* Swaps adjacent lanes: (v0 v1 v2 v3 ..) -> (v1 v0 v3 v2 ..). */
RK_INLINE __m256 rk256_swap_pairs(__m256 v) {
    return _mm256_permute_ps(v, 0xb1);
}

/* Even lanes a - b, odd lanes a + b. */
RK_INLINE __m256 rk256_sub_even_add_odd(__m256 a, __m256 b) {
    return _mm256_addsub_ps(a, b);
}

/* Even lanes a + b, odd lanes a - b. */
RK_INLINE __m256 rk256_add_even_sub_odd(__m256 a, __m256 b) {
    return _mm256_blend_ps(_mm256_add_ps(a, b), _mm256_sub_ps(a, b), 0xaa);
}

/* Four interleaved pairs (simd/elem.h). */
RK_DEFINE_ROTATE_PAIRS(__m256, rk256_rotate_pairs, rk256_swap_pairs, rk256_sub_even_add_odd,
                       rk256_add_even_sub_odd)

/* Splits 16 interleaved values (lo = v0..v7, hi = v8..v15) into evens and odds. */
RK_INLINE void rk256_deinterleave(__m256 lo, __m256 hi, __m256 *even, __m256 *odd) {
    /* shuffle_ps works per 128-bit half: [v0 v2 v8 v10 | v4 v6 v12 v14]; the 64-bit
     * permute then restores the order. */
    __m256 e = _mm256_shuffle_ps(lo, hi, 0x88), o = _mm256_shuffle_ps(lo, hi, 0xdd);
    *even = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e), 0xd8));
    *odd = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(o), 0xd8));
}

/* Inverse of rk256_deinterleave. */
RK_INLINE void rk256_interleave(__m256 even, __m256 odd, __m256 *lo, __m256 *hi) {
    __m256 l = _mm256_unpacklo_ps(even, odd); /* [e0 o0 e1 o1 | e4 o4 e5 o5] */
    __m256 h = _mm256_unpackhi_ps(even, odd); /* [e2 o2 e3 o3 | e6 o6 e7 o7] */
    *lo = _mm256_permute2f128_ps(l, h, 0x20);
    *hi = _mm256_permute2f128_ps(l, h, 0x31);
}

/* Duplicates each lane of c = (c0 .. c7): lo = (c0 c0 .. c3 c3), hi = (c4 c4 .. c7 c7). */
RK_INLINE void rk256_duplicate(__m256 c, __m256 *lo, __m256 *hi) {
    __m256 l = _mm256_unpacklo_ps(c, c); /* [c0 c0 c1 c1 | c4 c4 c5 c5] */
    __m256 h = _mm256_unpackhi_ps(c, c); /* [c2 c2 c3 c3 | c6 c6 c7 c7] */
    *lo = _mm256_permute2f128_ps(l, h, 0x20);
    *hi = _mm256_permute2f128_ps(l, h, 0x31);
}

/* 16 values at p of dtype dt as fp32, split like rk256_load_bf16_split. */
RK_INLINE void rk256_split_values(const char *p, enum rk_kdtype dt, __m256 *even, __m256 *odd) {
    if (dt == RK_KDT_BF16) {
        rk256_load_bf16_split(p, even, odd);
        return;
    }
    rk256_deinterleave(rk256_load(p, dt), rk256_load(p + 8 * (dt == RK_KDT_F32 ? 4 : 2), dt), even,
                       odd);
}

#endif /* ROPEKIT_KERNELS_SIMD_SIMD_AVX2_H_ */
